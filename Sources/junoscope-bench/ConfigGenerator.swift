// ConfigGenerator.swift
//
// Deterministic generator of realistic Juniper Junos configurations in the
// curly-brace layout printed by `show configuration` (4 spaces per level,
// `name {` / `}` blocks, `leaf value;`, `[ a b ]` lists, no blank lines).
//
// Standard library only. All output depends solely on the seed (and on how
// many times `curly(lines:)` has been called on the same value, since the
// generator's PRNG state advances with every call).

/// Deterministic generator of realistic Junos configurations in curly syntax.
public struct ConfigGenerator {
  private var rng: GenRandom

  public init(seed: UInt64) {
    rng = GenRandom(seed: seed)
  }

  /// Curly-brace configuration of about `lines` lines (within ±2%), as UTF-8 bytes, ending with "\n".
  public mutating func curly(lines: Int) -> [UInt8] {
    var b = GenBuilder(target: max(lines, 0), rng: rng)
    b.build()
    rng = b.rng
    return b.w.buf
  }
}

// MARK: - PRNG

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, good enough statistically.
struct GenRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  @inline(__always)
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform integer in `0..<n` (n >= 1, n < 2^32).
  @inline(__always)
  mutating func below(_ n: Int) -> Int {
    Int(truncatingIfNeeded: ((next() >> 32) &* UInt64(truncatingIfNeeded: n)) >> 32)
  }

  /// Uniform integer in `lo...hi`.
  @inline(__always)
  mutating func range(_ lo: Int, _ hi: Int) -> Int {
    hi <= lo ? lo : lo + below(hi - lo + 1)
  }

  /// True with probability `percent`/100.
  @inline(__always)
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

// MARK: - Byte writer

/// Append-only byte sink that tracks indentation depth and line count.
private struct GenWriter {
  var buf: [UInt8] = []
  var depth: Int
  var lines: Int = 0

  init(capacity: Int, depth: Int = 0) {
    buf.reserveCapacity(capacity)
    self.depth = depth
  }

  @inline(__always) mutating func s(_ t: StaticString) {
    t.withUTF8Buffer { buf.append(contentsOf: $0) }
  }

  @inline(__always) mutating func b(_ c: UInt8) { buf.append(c) }

  @inline(__always) mutating func ind() {
    var n = depth &* 4
    while n > 0 { buf.append(0x20); n &-= 1 }
  }

  /// Non-negative decimal integer.
  mutating func num(_ value: Int) {
    var v = value
    if v < 0 { buf.append(0x2D); v = -v }
    if v < 10 { buf.append(UInt8(truncatingIfNeeded: 48 &+ v)); return }
    var digits = 1
    var p = 10
    while p <= v { digits &+= 1; p &*= 10 }
    let start = buf.count
    buf.append(contentsOf: repeatElement(0x30, count: digits))
    var i = start &+ digits &- 1
    while v > 0 {
      buf[i] = UInt8(truncatingIfNeeded: 48 &+ v % 10)
      v /= 10
      i &-= 1
    }
  }

  /// Zero-padded decimal with at least `width` digits.
  mutating func pad(_ v: Int, _ width: Int) {
    var p = 10
    var digits = 1
    while p <= v { digits &+= 1; p &*= 10 }
    var z = width &- digits
    while z > 0 { buf.append(0x30); z &-= 1 }
    num(v)
  }

  /// Lower-case hexadecimal without leading zeros.
  mutating func hex(_ value: Int) {
    var v = value
    if v == 0 { buf.append(0x30); return }
    var digits = 0
    var t = v
    while t > 0 { digits &+= 1; t >>= 4 }
    let start = buf.count
    buf.append(contentsOf: repeatElement(0x30, count: digits))
    var i = start &+ digits &- 1
    while v > 0 {
      let d = v & 15
      buf[i] = UInt8(truncatingIfNeeded: d < 10 ? 48 &+ d : 87 &+ d)
      v >>= 4
      i &-= 1
    }
  }

  mutating func ip4(_ a: UInt32) {
    num(Int(a >> 24)); buf.append(0x2E)
    num(Int((a >> 16) & 255)); buf.append(0x2E)
    num(Int((a >> 8) & 255)); buf.append(0x2E)
    num(Int(a & 255))
  }

  mutating func ip4(_ a: UInt32, _ plen: Int) {
    ip4(a); buf.append(0x2F); num(plen)
  }

  // --- line terminators -------------------------------------------------

  /// Ends a statement: ";\n".
  @inline(__always) mutating func semi() {
    buf.append(0x3B); buf.append(0x0A); lines &+= 1
  }

  /// Ends a line without ";" (headers, comments, SECRET-DATA lines).
  @inline(__always) mutating func eol() {
    buf.append(0x0A); lines &+= 1
  }

  /// Opens a block: " {\n".
  @inline(__always) mutating func open() {
    buf.append(0x20); buf.append(0x7B); buf.append(0x0A)
    lines &+= 1; depth &+= 1
  }

  /// Closes the innermost block.
  @inline(__always) mutating func close() {
    depth &-= 1; ind()
    buf.append(0x7D); buf.append(0x0A); lines &+= 1
  }

  // --- conveniences -----------------------------------------------------

  mutating func leaf(_ t: StaticString) { ind(); s(t); semi() }
  mutating func block(_ t: StaticString) { ind(); s(t); open() }
  mutating func kv(_ k: StaticString, _ v: Int) { ind(); s(k); num(v); semi() }
  mutating func kvIP(_ k: StaticString, _ a: UInt32) { ind(); s(k); ip4(a); semi() }
  mutating func kvPfx(_ k: StaticString, _ a: UInt32, _ plen: Int) { ind(); s(k); ip4(a, plen); semi() }

  mutating func append(_ other: GenWriter) {
    buf.append(contentsOf: other.buf)
    lines &+= other.lines
  }

  // --- interface names --------------------------------------------------

  mutating func ifname(_ n: GenIfName) {
    switch n.kind {
    case 0: s("et-")
    case 1: s("xe-")
    case 2: s("ge-")
    default: s("ae"); num(Int(n.fpc)); return
    }
    num(Int(n.fpc)); buf.append(0x2F); num(Int(n.pic)); buf.append(0x2F); num(Int(n.port))
  }

  mutating func ifunit(_ n: GenIfName, _ unit: Int) {
    ifname(n); buf.append(0x2E); num(unit)
  }
}

// MARK: - Model records

private struct GenIfName {
  var kind: UInt8  // 0 et, 1 xe, 2 ge, 3 ae (fpc = bundle number)
  var fpc: UInt16
  var pic: UInt8
  var port: UInt8
}

private struct GenCoreLink {
  var ifn: GenIfName
  var addr: UInt32  // our side of the /31
  var v6: Int  // index used for the IPv6 /127
}

private struct GenEdgeUnit {
  var ifn: GenIfName
  var unit: Int32
  var addr: UInt32  // PE side of the /30 (CE = addr + 1)
  var cust: UInt16
}

// MARK: - Vocabulary

private enum GenTab {
  static let customers: [StaticString] = [
    "ACME", "GLOBEX", "INITECH", "UMBRELLA", "HOOLI", "STARK", "WAYNE", "WONKA",
    "TYRELL", "CYBERDYNE", "SOYLENT", "APERTURE", "OSCORP", "VANDELAY", "MASSIVE",
    "PIEDPIPER", "NAKATOMI", "MONARCH", "DUNDER", "INGEN",
  ]
  static let customerNames: [StaticString] = [
    "Acme Corp", "Globex Inc", "Initech", "Umbrella Health", "Hooli", "Stark Industries",
    "Wayne Enterprises", "Wonka Foods", "Tyrell Systems", "Cyberdyne", "Soylent AG",
    "Aperture Labs", "Oscorp", "Vandelay Import-Export", "Massive Dynamic", "Pied Piper",
    "Nakatomi Trading", "Monarch Solutions", "Dunder Mifflin", "InGen Bio",
  ]
  static let sites: [StaticString] = [
    "NYC", "LON", "FRA", "AMS", "SJC", "DFW", "ORD", "SIN", "TYO", "SYD", "PAR", "MAD",
    "IAD", "SEA", "HKG", "GRU",
  ]
  static let sitesLower: [StaticString] = [
    "nyc", "lon", "fra", "ams", "sjc", "dfw", "ord", "sin", "tyo", "syd", "par", "mad",
    "iad", "sea", "hkg", "gru",
  ]
  static let roles: [StaticString] = ["p", "pe", "rr", "agg", "bng"]
  static let peers: [StaticString] = [
    "LUMEN", "COGENT", "NTT", "TELIA", "GTT", "ZAYO", "HE", "TATA", "ORANGE", "DTAG",
  ]
  static let peerAS: [Int] = [3356, 174, 2914, 1299, 3257, 6461, 6939, 6453, 5511, 3320]
  static let peerNet: [UInt32] = [
    0x0444_0000, 0x9A36_0000, 0x81FA_0000, 0x3E73_0000, 0xD5C8_0000,
    0x407D_0000, 0xB869_0000, 0x50E7_0000, 0xC1FB_0000, 0x509C_0000,
  ]
  static let hosts: [StaticString] = [
    "pe1-nyc-mx10008", "pe2-lon-mx10008", "pe1-fra-mx2020", "pe3-ams-mx960",
    "pe2-sjc-mx10004", "pe1-sin-mx2010", "pe4-dfw-mx10008", "pe1-tyo-mx2020",
  ]
  static let surnames: [StaticString] = [
    "smith", "kumar", "garcia", "nguyen", "mueller", "rossi", "tanaka", "kowalski",
    "silva", "olsen", "dubois", "jansen", "novak", "larsen", "murphy", "cohen",
    "ivanov", "santos", "fischer", "moreau", "lee", "wong", "patel", "hughes",
  ]
  static let surnamesCap: [StaticString] = [
    "Smith", "Kumar", "Garcia", "Nguyen", "Mueller", "Rossi", "Tanaka", "Kowalski",
    "Silva", "Olsen", "Dubois", "Jansen", "Novak", "Larsen", "Murphy", "Cohen",
    "Ivanov", "Santos", "Fischer", "Moreau", "Lee", "Wong", "Patel", "Hughes",
  ]
  static let loginClasses: [StaticString] = ["super-user", "operator", "read-only", "NOC-RO", "NOC-RW"]
  static let b64: [UInt8] = Array("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
  static let b64std: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  static let nine: [UInt8] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./-".utf8)
  static let bogons: [StaticString] = [
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
  ]
  static let publicFirstOctet: [Int] = [23, 31, 45, 62, 77, 81, 89, 103, 109, 130, 151, 176, 185, 193, 203, 212]
  static let v6Prefixes: [StaticString] = ["2a02:", "2a0e:", "2a01:", "2a03:", "2600:", "2604:", "2a10:", "2406:"]
  static let policyKinds: [StaticString] = [
    "EXPORT-CUST-", "IMPORT-CUST-", "EXPORT-TRANSIT-", "IMPORT-PEER-", "VRF-EXPORT-", "VRF-IMPORT-",
  ]
  static let termNames: [StaticString] = [
    "ALLOW-CUSTOMER", "REJECT-BOGONS", "SET-LOCAL-PREF", "TAG-REGION", "BLACKHOLE",
    "PREPEND", "MATCH-COMMUNITY", "LOOPBACKS", "DEFAULT-ROUTE", "STATICS", "AGGREGATES",
    "CONNECTED", "SCRUB-COMMUNITIES", "TOO-SPECIFIC",
  ]
  static let commKinds: [StaticString] = [
    "CUSTOMER", "PEER", "TRANSIT", "REGION", "BLACKHOLE", "NO-EXPORT-TO", "LOCAL-PREF", "RT-VPN",
  ]
  static let routeFilterMods: [StaticString] = [
    " orlonger", " exact", " upto /24", " prefix-length-range /24-/32", " longer", " exact",
  ]
  static let ports: [StaticString] = [
    "ssh", "bgp", "ntp", "snmp", "http", "https", "domain", "telnet", "ftp", "tacacs",
    "syslog", "ldp", "830", "8080", "radius", "bootps",
  ]
  static let protocolsIP: [StaticString] = ["tcp", "udp", "icmp", "[ tcp udp ]", "ospf", "gre"]
  static let fcNames: [StaticString] = [
    "FC-BEST-EFFORT", "FC-LOW", "FC-MEDIUM", "FC-HIGH", "FC-LLQ", "FC-REALTIME", "FC-SIGNALING", "FC-CONTROL",
  ]
  static let fcShort: [StaticString] = ["BE", "LOW", "MED", "HIGH", "LLQ", "RT", "SIG", "NC"]
  static let dscpRW: [StaticString] = ["be", "af11", "af21", "af31", "af41", "ef", "cs5", "cs7"]
  static let expBits: [StaticString] = ["000", "001", "010", "011", "100", "101", "110", "111"]
  static let txRate: [Int] = [20, 10, 10, 15, 15, 20, 5, 5]
  static let prio: [StaticString] = [
    "low", "low", "medium-low", "medium-high", "high", "strict-high", "high", "high",
  ]
  static let annotations: [StaticString] = [
    "/* Migrated from legacy PE, CHG0031337 */",
    "/* Do not remove - required for NOC monitoring */",
    "/* Temporary: remove after cutover window */",
    "/* Customer escalation INC0042117 */",
    "/* Per design doc NET-2291 */",
    "/* Pending decommission - ticket CHG0040455 */",
  ]
  static let speeds: [StaticString] = ["100g", "400g", "10g", "1g"]
}

// MARK: - GenBuilder

private struct GenBuilder {
  var rng: GenRandom
  var w: GenWriter
  let target: Int
  let asn: Int
  let rid: UInt32
  let host: Int
  let maxUnits: Int
  let maxNbr: Int
  /// Compact mode for small targets: trims fixed boilerplate so ±2% holds.
  let small: Bool

  var core: [GenCoreLink] = []
  var edgeL3: [GenEdgeUnit] = []
  var edgeL2: [GenEdgeUnit] = []
  var phys: [GenIfName] = []
  var portCounter: [Int] = [0, 0, 0]
  var aeCount = 0
  var coreSeq = 0
  var edgeSeq = 0
  var nPrefixLists = 0
  var nPolicies = 0
  var nComm = 0
  var nAsPath = 0
  var nClassifiers = 0
  var nSchedMaps = 0
  var nRewrite = 0
  var l3Cursor = 0
  var l2Cursor = 0
  var vrfSeq = 0
  var staticSeq = 0
  var ibgpSeq = 0
  var ebgpSeq = 0
  var groupSeq = 0
  var filterSeq = 0

  init(target: Int, rng: GenRandom) {
    var r = rng
    self.target = target
    asn = [65000, 64512, 65100, 64700, 65010][r.below(5)]
    rid = 0x0AFF_0000 | UInt32(r.range(1, 60))
    host = r.below(GenTab.hosts.count)
    maxUnits = min(120, max(8, target / 2000))
    maxNbr = target >= 20_000 ? 12 : 4
    small = target < 4000
    self.rng = r
    w = GenWriter(capacity: target &* 36 &+ 8192)
  }

  /// Line number at which the section ending at cumulative fraction `f` should end.
  func at(_ f: Double) -> Int { Int(Double(target) * f) }

  mutating func build() {
    w.s("## Last commit: 2024-12-17 06:01:15 PST by regress"); w.eol()
    w.s("version 22.4R3.25;"); w.eol()
    groups()
    system()
    chassis()
    interfaces()
    forwardingOptions()
    policyOptions()
    classOfService()
    firewall()
    routingInstances()
    routingOptions()
    protocols()
  }

  // MARK: random text helpers

  mutating func randChars(_ table: [UInt8], _ count: Int) {
    var left = count
    while left > 0 {
      var r = rng.next()
      var k = min(left, 10)
      left -= k
      while k > 0 {
        w.b(table[Int(r & 63)])
        r >>= 6
        k -= 1
      }
    }
  }

  /// `encrypted-password "$6$salt$hash"; ## SECRET-DATA`
  mutating func encryptedPassword() {
    w.ind(); w.s("encrypted-password \"$6$")
    randChars(GenTab.b64, 8); w.b(0x24); randChars(GenTab.b64, 86)
    w.s("\"; ## SECRET-DATA"); w.eol()
  }

  /// `authentication-key "$9$..."; ## SECRET-DATA`
  mutating func authKey() {
    w.ind(); w.s("authentication-key \"$9$")
    randChars(GenTab.nine, rng.range(16, 28))
    w.s("\"; ## SECRET-DATA"); w.eol()
  }

  mutating func maybeAnnotation(_ percent: Int) {
    if rng.chance(percent) {
      w.ind(); w.s(GenTab.annotations[rng.below(GenTab.annotations.count)]); w.eol()
    }
  }

  /// A remote node name like `p3-ams` or `pe12-nyc`.
  mutating func nodeName() {
    nodeName(rng.below(GenTab.roles.count * 12 * GenTab.sitesLower.count))
  }

  /// Node name from a packed id (role, number, site).
  mutating func nodeName(_ id: Int) {
    w.s(GenTab.roles[id % GenTab.roles.count])
    w.num((id / GenTab.roles.count) % 12 + 1); w.b(0x2D)
    w.s(GenTab.sitesLower[(id / (GenTab.roles.count * 12)) % GenTab.sitesLower.count])
  }

  mutating func randomPhysName() {
    let k = rng.below(2)
    w.s(k == 0 ? "et-" : "xe-")
    w.num(rng.below(12)); w.b(0x2F); w.num(rng.below(4)); w.b(0x2F); w.num(rng.below(12))
  }

  /// A random public-looking IPv4 prefix.
  mutating func publicV4(_ plen: Int) -> UInt32 {
    let a = UInt32(GenTab.publicFirstOctet[rng.below(GenTab.publicFirstOctet.count)])
    let rest = UInt32(truncatingIfNeeded: rng.next()) & 0x00FF_FFFF
    let mask: UInt32 = plen == 0 ? 0 : ~UInt32(0) << UInt32(32 - plen)
    return ((a << 24) | rest) & mask
  }

  /// A random public-looking IPv6 prefix (/32../48), canonical and properly masked.
  mutating func publicV6() {
    let plen = [32, 40, 44, 48, 48, 48][rng.below(6)]
    w.s(GenTab.v6Prefixes[rng.below(GenTab.v6Prefixes.count)])
    w.hex(rng.range(0x100, 0xffff))
    let third = rng.below(0x10000) & (0xFFFF << (48 - plen)) & 0xFFFF
    if third != 0 { w.b(0x3A); w.hex(third) }
    w.s("::/"); w.num(plen)
  }

  // MARK: groups

  mutating func groups() {
    let end = at(0.02)
    w.block("groups")
    w.block("INTERFACE-MTU")
    w.block("interfaces")
    w.block("<ge-*>"); w.kv("mtu ", 9192); w.close()
    w.block("<xe-*>"); w.kv("mtu ", 9192); w.close()
    w.block("<et-*>"); w.kv("mtu ", 9192); w.close()
    w.close()
    w.close()
    w.block("GR-EDGE-INTF")
    w.block("interfaces")
    w.block("\"<[egx][te]-*>\"")
    w.block("optics-options")
    w.block("alarm low-light-alarm"); w.leaf("link-down"); w.close()
    w.block("warning low-light-warning"); w.leaf("syslog"); w.close()
    w.close()
    w.close()
    w.block("<ae*>")
    w.block("aggregated-ether-options")
    w.block("lacp"); w.leaf("active"); w.leaf("periodic fast"); w.leaf("hold-time up 2"); w.close()
    w.close()
    w.close()
    w.close()
    w.close()
    w.block("GR-ISIS-BCP")
    w.block("protocols")
    w.block("isis")
    w.block("interface <ae*>"); w.kv("max-hello-size ", 9106); w.kv("lsp-interval ", 10); w.close()
    w.block("interface <et-*>"); w.kv("max-hello-size ", 9106); w.kv("lsp-interval ", 10); w.close()
    w.block("spf-options"); w.kv("delay ", 50); w.kv("holddown ", 2000); w.kv("rapid-runs ", 5); w.close()
    w.block("overload"); w.kv("timeout ", 300); w.close()
    w.close()
    w.close()
    w.close()
    w.block("GR-BGP-BCP")
    w.block("protocols")
    w.block("bgp")
    w.leaf("path-selection external-router-id")
    w.kv("hold-time ", 30)
    w.leaf("bgp-error-tolerance")
    w.kv("tcp-mss ", 4096)
    w.close()
    w.close()
    w.close()
    var g = 0
    while w.lines < end - 2 {
      serviceGroup(g)
      g += 1
    }
    w.close()
    w.s("apply-groups [ INTERFACE-MTU GR-EDGE-INTF GR-BGP-BCP ];"); w.eol()
  }

  mutating func serviceGroup(_ g: Int) {
    let cust = GenTab.customers[g % GenTab.customers.count]
    switch g % 3 {
    case 0:
      w.ind(); w.s("SVC-L3VPN-"); w.s(cust); w.b(0x2D); w.num(g); w.open()
      w.block("interfaces")
      w.ind(); w.s("<xe-"); w.num(rng.below(12)); w.s("/*>"); w.open()
      w.block("unit <*>")
      w.block("family inet")
      w.kv("mtu ", [1500, 4470, 9000][rng.below(3)])
      if rng.chance(50) { w.leaf("rpf-check") }
      w.close()
      w.block("family inet6"); w.kv("mtu ", 1500); w.close()
      w.close()
      w.close()
      w.close()
      w.close()
    case 1:
      w.ind(); w.s("SVC-VRF-DEFAULTS-"); w.num(g); w.open()
      w.block("routing-instances")
      w.ind(); w.s("<CUST-"); w.s(cust); w.s("-*>"); w.open()
      w.leaf("vrf-table-label")
      w.block("routing-options")
      w.leaf("multipath")
      w.block("auto-export"); w.block("family inet"); w.leaf("unicast"); w.close(); w.close()
      w.close()
      w.block("protocols")
      w.block("bgp")
      w.block("group <*>")
      w.kv("hold-time ", [30, 60, 90][rng.below(3)])
      w.leaf("log-updown")
      w.close()
      w.close()
      w.close()
      w.close()
      w.close()
      w.close()
    default:
      w.ind(); w.s("SYSLOG-REMOTE-"); w.num(g); w.open()
      w.block("system")
      w.block("syslog")
      w.ind(); w.s("host "); w.ip4(0x0A64_0000 | UInt32(rng.below(65536))); w.open()
      w.leaf("any notice")
      w.leaf("authorization info")
      w.kvIP("source-address ", rid)
      w.close()
      w.close()
      w.close()
      w.close()
    }
  }

  // MARK: system

  mutating func userName(_ i: Int) {
    let n = GenTab.surnames.count
    w.b(UInt8(97 + (i / n) % 26))
    w.s(GenTab.surnames[i % n])
    let suffix = i / (n * 26)
    if suffix > 0 { w.num(suffix) }
  }

  mutating func system() {
    let end = at(0.045)
    w.block("system")
    w.ind(); w.s("host-name "); w.s(GenTab.hosts[host]); w.semi()
    w.leaf("domain-name corp.example.net")
    w.leaf("time-zone America/Los_Angeles")
    w.block("root-authentication"); encryptedPassword(); w.close()
    w.block("name-server")
    w.leaf("10.10.1.53"); w.leaf("10.20.1.53")
    w.close()
    w.block("login")
    w.leaf("message \"Authorized access only. All activity is logged.\"")
    w.block("class NOC-RO"); w.kv("idle-timeout ", 30); w.leaf("permissions [ view view-configuration ]"); w.close()
    w.block("class NOC-RW"); w.kv("idle-timeout ", 60)
    w.leaf("permissions [ clear configure interface network routing view view-configuration ]")
    w.leaf("deny-commands \"(request system)|(start shell)\"")
    w.close()
    var u = 0
    while w.lines < end - 45 || u < 2 {
      w.ind(); w.s("user "); userName(u); w.open()
      w.ind(); w.s("full-name \""); w.b(UInt8(65 + (u / GenTab.surnames.count) % 26)); w.s(". ")
      w.s(GenTab.surnamesCap[u % GenTab.surnames.count]); w.b(0x22); w.semi()
      w.kv("uid ", 2000 + u)
      w.ind(); w.s("class "); w.s(GenTab.loginClasses[rng.below(GenTab.loginClasses.count)]); w.semi()
      w.block("authentication")
      encryptedPassword()
      if rng.chance(30) {
        w.ind(); w.s("ssh-ed25519 \"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI")
        randChars(GenTab.b64std, 43); w.b(0x20); userName(u); w.s("@jumphost\"; ## SECRET-DATA"); w.eol()
      }
      w.close()
      w.close()
      u += 1
    }
    w.close()
    w.block("services")
    w.block("ssh")
    w.leaf("root-login deny"); w.leaf("protocol-version v2")
    w.kv("connection-limit ", 10); w.kv("rate-limit ", 5)
    w.close()
    w.block("netconf"); w.leaf("ssh"); w.close()
    if !small {
      w.block("extension-service")
      w.block("request-response"); w.block("grpc"); w.block("ssl"); w.kv("port ", 32767); w.close(); w.close(); w.close()
      w.close()
    }
    w.close()
    w.block("syslog")
    w.block("user *"); w.leaf("any emergency"); w.close()
    w.ind(); w.s("host "); w.ip4(0x0A0A_0114); w.open()
    w.leaf("any notice"); w.leaf("authorization info"); w.kvIP("source-address ", rid)
    w.close()
    w.block("file messages"); w.leaf("any notice"); w.leaf("authorization info"); w.close()
    w.block("file interactive-commands"); w.leaf("interactive-commands any"); w.close()
    if !small {
      w.block("file default-log-messages"); w.leaf("any info");
      w.leaf("match \"(requested 'commit' operation)|(copying configuration to juniper.save)\""); w.leaf("structured-data"); w.close()
    }
    w.close()
    w.block("ntp")
    w.kvIP("boot-server ", 0x0A0A_017B)
    w.ind(); w.s("server "); w.ip4(0x0A0A_017B); w.s(" prefer"); w.semi()
    w.kvIP("server ", 0x0A14_017B)
    while w.lines < end - 2 {
      w.kvIP("server ", 0x0A00_0000 | UInt32(rng.below(1 << 24)))
    }
    w.kvIP("source-address ", rid)
    w.close()
    w.close()
  }

  // MARK: chassis

  mutating func chassis() {
    let end = at(0.05)
    w.block("chassis")
    w.block("redundancy"); w.leaf("graceful-switchover"); w.close()
    w.block("aggregated-devices"); w.block("ethernet")
    w.kv("device-count ", max(16, (target / 8000 + 15) / 16 * 16))
    w.close(); w.close()
    var fpc = 0
    var pic = 0
    var port = 0
    var openFpc = false
    var openPic = false
    var emitted = 0
    while w.lines < end - 4 || emitted < 2 {
      emitted += 1
      if !openFpc { w.ind(); w.s("fpc "); w.num(fpc); w.open(); openFpc = true }
      if !openPic { w.ind(); w.s("pic "); w.num(pic); w.open(); openPic = true }
      w.ind(); w.s("port "); w.num(port); w.open()
      if fpc % 3 == 0 {
        w.ind(); w.s("speed "); w.s(GenTab.speeds[rng.below(2)]); w.semi()
      } else {
        w.leaf("channel-speed 10g")
      }
      w.close()
      port += 1
      if port == 12 {
        port = 0; pic += 1
        w.close(); openPic = false
        if pic == 4 { pic = 0; fpc += 1; w.close(); openFpc = false }
      }
    }
    if openPic { w.close() }
    if openFpc { w.close() }
    w.leaf("network-services enhanced-ip")
    w.close()
  }

  // MARK: interfaces

  mutating func alloc(_ kind: Int) -> GenIfName {
    let c = portCounter[kind]
    portCounter[kind] = c + 1
    let slot = c / 48
    return GenIfName(
      kind: UInt8(kind), fpc: UInt16(truncatingIfNeeded: slot * 3 + kind),
      pic: UInt8((c / 12) % 4), port: UInt8(c % 12))
  }

  mutating func interfaces() {
    let end = at(0.36)
    w.block("interfaces")
    coreLink()
    coreLink()
    while w.lines < end - 40 {
      let r = rng.below(100)
      if r < 25 {
        coreLink()
      } else if r < 35 {
        aeBundle()
      } else {
        edgeInterface()
      }
    }
    // management and loopback
    w.block("fxp0")
    w.block("unit 0")
    w.block("family inet")
    w.kvPfx("address ", 0xAC1E_0000 | UInt32(rng.below(256)) << 8 | UInt32(rng.range(10, 250)), 24)
    w.close(); w.close(); w.close()
    w.block("lo0")
    w.block("unit 0")
    w.ind(); w.s("description \"Loopback "); w.s(GenTab.hosts[host]); w.b(0x22); w.semi()
    w.block("family inet")
    w.block("filter"); w.leaf("input PROTECT-RE"); w.close()
    w.ind(); w.s("address "); w.ip4(rid, 32); w.open(); w.leaf("primary"); w.close()
    w.close()
    w.block("family iso")
    w.ind(); w.s("address 49.0001.")
    w.pad(Int(rid >> 24), 3); w.pad(Int((rid >> 16) & 255), 3); w.b(0x2E)
    w.pad(Int((rid >> 8) & 255), 3); w.pad(Int(rid & 255), 3); w.s(".00"); w.semi()
    w.close()
    w.block("family inet6")
    w.ind(); w.s("address 2001:db8::10:255:0:"); w.hex(Int(rid & 255)); w.s("/128"); w.open(); w.leaf("primary"); w.close()
    w.close()
    w.close()
    w.close()
    w.close()
  }

  mutating func coreDescription(_ viaAe: Int) {
    switch rng.below(3) {
    case 0:
      w.ind(); w.s("description \"Core link to "); nodeName(); w.s(" (")
      if viaAe >= 0 { w.s("ae"); w.num(viaAe) } else { randomPhysName() }
      w.s(")\""); w.semi()
    case 1:
      w.ind(); w.s("description To-"); nodeName(); w.b(0x2D); randomPhysName(); w.semi()
    default:
      w.ind(); w.s("description \"## -B- | to "); nodeName(); w.b(0x20); randomPhysName(); w.s(" | 100G\""); w.semi()
    }
  }

  /// `unit 0` with inet/iso/inet6/mpls, recorded as a core (IGP) link.
  mutating func coreUnit0(_ ifn: GenIfName) {
    let k = coreSeq
    coreSeq += 1
    let addr = 0x0A00_0000 &+ UInt32(truncatingIfNeeded: (k * 2) & 0xFF_FFFF)
    core.append(GenCoreLink(ifn: ifn, addr: addr, v6: k))
    w.block("unit 0")
    w.block("family inet"); w.kvPfx("address ", addr, 31); w.close()
    w.leaf("family iso")
    w.block("family inet6")
    w.ind(); w.s("address 2001:db8:1000:"); w.hex(k % 0xFFFF + 1); w.s("::1/127"); w.semi()
    w.close()
    if rng.chance(60) {
      w.block("family mpls"); w.kv("maximum-labels ", 5); w.close()
    } else {
      w.leaf("family mpls")
    }
    w.close()
  }

  mutating func coreLink() {
    let ifn = alloc(0)
    phys.append(ifn)
    maybeAnnotation(3)
    w.ind(); w.ifname(ifn); w.open()
    coreDescription(-1)
    w.kv("mtu ", 9192)
    if rng.chance(50) { w.leaf("hold-time up 2000 down 0") }
    coreUnit0(ifn)
    w.close()
  }

  mutating func aeBundle() {
    let ae = aeCount
    aeCount += 1
    let aeName = GenIfName(kind: 3, fpc: UInt16(truncatingIfNeeded: ae), pic: 0, port: 0)
    let mkind = rng.chance(60) ? 0 : 1
    let members = rng.range(2, 4)
    let isCore = rng.chance(60)
    let remote = rng.below(GenTab.roles.count * 12 * GenTab.sitesLower.count)
    let remoteFpc = rng.below(12)
    let remotePic = rng.below(4)
    let remotePort = rng.below(12 - 4)
    for m in 0..<members {
      let ifn = alloc(mkind)
      phys.append(ifn)
      w.ind(); w.ifname(ifn); w.open()
      w.ind(); w.s("description \"ae"); w.num(ae); w.s(" member to "); nodeName(remote); w.b(0x20)
      w.s(mkind == 0 ? "et-" : "xe-"); w.num(remoteFpc); w.b(0x2F); w.num(remotePic); w.b(0x2F); w.num(remotePort + m)
      w.b(0x22); w.semi()
      w.block(mkind == 0 ? "gigether-options" : "ether-options")
      w.ind(); w.s("802.3ad "); w.ifname(aeName); w.semi()
      w.close()
      w.close()
    }
    maybeAnnotation(3)
    w.ind(); w.ifname(aeName); w.open()
    let cust = rng.below(GenTab.customers.count)
    if isCore {
      coreDescription(ae)
      w.kv("mtu ", 9192)
    } else {
      w.ind(); w.s("description \""); w.s(GenTab.customerNames[cust]); w.s(" LAG "); w.s(GenTab.sites[rng.below(GenTab.sites.count)])
      w.s(" CID-"); w.pad(rng.below(1_000_000), 6); w.b(0x22); w.semi()
      w.leaf("flexible-vlan-tagging")
      w.kv("mtu ", 9192)
      w.leaf("encapsulation flexible-ethernet-services")
    }
    w.block("aggregated-ether-options")
    w.kv("minimum-links ", 1)
    w.ind(); w.s("link-speed "); w.s(mkind == 0 ? "100g" : "10g"); w.semi()
    w.block("lacp"); w.leaf("active"); w.leaf("periodic fast"); w.close()
    w.close()
    if isCore {
      coreUnit0(aeName)
    } else {
      edgeUnits(aeName, cust: cust)
    }
    w.close()
  }

  mutating func edgeInterface() {
    let r = rng.below(100)
    let kind = r < 60 ? 1 : (r < 85 ? 0 : 2)
    let ifn = alloc(kind)
    phys.append(ifn)
    let cust = rng.below(GenTab.customers.count)
    maybeAnnotation(3)
    w.ind(); w.ifname(ifn); w.open()
    if rng.chance(65) {
      w.ind(); w.s("description \"Customer "); w.s(GenTab.customerNames[cust]); w.s(" circuit CID-")
      w.pad(rng.below(1_000_000), 6); w.s(" ["); w.s(GenTab.sites[rng.below(GenTab.sites.count)]); w.s("]\""); w.semi()
    } else {
      w.ind(); w.s("description CUST-"); w.s(GenTab.customers[cust]); w.b(0x2D); w.s(GenTab.sites[rng.below(GenTab.sites.count)])
      w.s("-CID"); w.pad(rng.below(1_000_000), 6); w.semi()
    }
    w.leaf("flexible-vlan-tagging")
    w.kv("mtu ", [1522, 4470, 9192, 9192][rng.below(4)])
    w.leaf("encapsulation flexible-ethernet-services")
    edgeUnits(ifn, cust: cust)
    w.close()
  }

  mutating func edgeUnits(_ ifn: GenIfName, cust: Int) {
    let n = rng.range(2, maxUnits)
    var vlan = rng.range(1, 30) * 100
    for _ in 0..<n {
      vlan += rng.chance(85) ? 1 : rng.range(2, 20)
      if vlan > 4094 { break }
      maybeAnnotation(2)
      let inactive = rng.chance(3)
      w.ind()
      if inactive { w.s("inactive: ") }
      w.s("unit "); w.num(vlan); w.open()
      if rng.chance(60) {
        if rng.chance(50) {
          w.ind(); w.s("description \""); w.s(GenTab.customerNames[cust]); w.s(" site "); w.s(GenTab.sites[rng.below(GenTab.sites.count)])
          w.b(0x2D); w.num(rng.range(1, 40)); w.s(" (VLAN "); w.num(vlan); w.s(")\""); w.semi()
        } else {
          w.ind(); w.s("description CUST-"); w.s(GenTab.customers[cust]); w.s("-VLAN"); w.num(vlan); w.semi()
        }
      }
      let r = rng.below(100)
      if r < 78 || r >= 95 {
        if r >= 95 {
          w.ind(); w.s("vlan-tags outer "); w.num(vlan); w.s(" inner "); w.num(rng.range(2, 4000)); w.semi()
        } else {
          w.kv("vlan-id ", vlan)
        }
        let seq = edgeSeq
        edgeSeq += 1
        let pe = 0xAC10_0001 &+ UInt32(truncatingIfNeeded: (seq & 0x3FFFF) * 4)
        w.block("family inet")
        if rng.chance(12) {
          w.block("filter"); w.leaf("input EDGE-IN"); w.leaf("output EDGE-OUT"); w.close()
        } else if rng.chance(8) {
          let rates: [StaticString] = ["10M", "50M", "100M", "1G"]
          w.block("policer"); w.ind(); w.s("input P-"); w.s(rates[small ? 2 + rng.below(2) : rng.below(4)]); w.semi(); w.close()
        }
        w.kvPfx("address ", pe, 30)
        w.close()
        if rng.chance(45) {
          w.block("family inet6")
          w.ind(); w.s("address 2001:db8:c000:"); w.hex(seq % 0xFFFF + 1); w.s("::1/64"); w.semi()
          w.close()
        }
        if !inactive {
          edgeL3.append(GenEdgeUnit(ifn: ifn, unit: Int32(vlan), addr: pe, cust: UInt16(cust)))
        }
      } else if r < 90 {
        w.leaf("encapsulation vlan-bridge")
        w.kv("vlan-id ", vlan)
        if !inactive {
          edgeL2.append(GenEdgeUnit(ifn: ifn, unit: Int32(vlan), addr: 0, cust: UInt16(cust)))
        }
      } else {
        w.leaf("encapsulation vlan-ccc")
        w.kv("vlan-id ", vlan)
        w.block("family ccc"); w.block("filter"); w.leaf("input FF-L2-CLASSIFY"); w.close(); w.close()
      }
      w.close()
    }
  }

  // MARK: forwarding-options

  mutating func forwardingOptions() {
    w.block("forwarding-options")
    w.block("hash-key")
    w.block("family inet"); w.leaf("layer-3"); w.leaf("layer-4"); w.close()
    w.block("family inet6"); w.leaf("layer-3"); w.leaf("layer-4"); w.close()
    w.block("family mpls"); w.leaf("all-labels"); w.block("payload"); w.leaf("ip"); w.close(); w.close()
    w.close()
    w.leaf("load-balance-label-capability")
    w.close()
  }

  // MARK: policy-options

  mutating func prefixListName(_ i: Int) {
    w.s("PL-"); w.s(GenTab.customers[i % GenTab.customers.count]); w.b(0x2D); w.pad(i / GenTab.customers.count + 1, 3)
  }

  mutating func communityName(_ i: Int) {
    w.s("CM-"); w.s(GenTab.commKinds[i % GenTab.commKinds.count]); w.b(0x2D); w.num(i / GenTab.commKinds.count)
  }

  mutating func asPathName(_ i: Int) {
    w.s("AP-"); w.s(GenTab.peers[i % GenTab.peers.count]); w.b(0x2D); w.num(i / GenTab.peers.count)
  }

  mutating func policyName(_ i: Int) {
    let k = i % GenTab.policyKinds.count
    let j = i / GenTab.policyKinds.count
    w.s(GenTab.policyKinds[k])
    if k == 2 || k == 3 {
      w.s(GenTab.peers[j % GenTab.peers.count])
    } else {
      w.s(GenTab.customers[j % GenTab.customers.count])
    }
    w.b(0x2D); w.num(j)
  }

  /// Index of a random generated policy of kind `k` (see `GenTab.policyKinds`).
  mutating func pickPolicy(_ k: Int) -> Int {
    let n = GenTab.policyKinds.count
    if nPolicies > k {
      return rng.below((nPolicies - k + n - 1) / n) * n + k
    }
    return rng.below(max(nPolicies, 1))
  }

  mutating func policyOptions() {
    let start = w.lines
    let end = at(0.49)
    let budget = max(0, end - start)
    nComm = max(8, budget / 14)
    nAsPath = max(4, budget / 50)
    w.block("policy-options")
    w.block("prefix-list BOGONS-V4")
    for p in GenTab.bogons { w.leaf(p) }
    w.close()
    w.block("prefix-list PL-MGMT")
    w.leaf("10.10.1.0/24"); w.leaf("10.20.1.0/24"); w.leaf("172.30.0.0/16")
    w.close()
    w.block("prefix-list PL-BGP-PEERS")
    w.leaf("apply-path \"protocols bgp group <*> neighbor <*>\"")
    w.close()
    let plEnd = start + budget * 33 / 100
    while w.lines < plEnd || nPrefixLists < 1 {
      prefixList()
    }
    // fixed policies referenced elsewhere
    w.block("policy-statement EXPORT-LOOPBACK")
    w.block("term LO0")
    w.block("from"); w.leaf("protocol direct"); w.leaf("interface lo0.0"); w.close()
    w.leaf("then accept")
    w.close()
    w.leaf("then reject")
    w.close()
    w.block("policy-statement NHS")
    w.block("then"); w.leaf("next-hop self"); w.leaf("accept"); w.close()
    w.close()
    w.block("policy-statement PPLB")
    w.block("then"); w.leaf("load-balance per-packet"); w.leaf("accept"); w.close()
    w.close()
    w.block("policy-statement REJECT-ALL")
    w.leaf("then reject")
    w.close()
    let polEnd = end - nComm - nAsPath - 1
    while w.lines < polEnd || nPolicies < 1 {
      policy()
    }
    for i in 0..<nComm { community(i) }
    for i in 0..<nAsPath {
      w.ind(); w.s("as-path "); asPathName(i); w.s(" \"")
      let asn = GenTab.peerAS[i % GenTab.peerAS.count]
      switch rng.below(3) {
      case 0: w.b(0x5E); w.num(asn); w.s("( "); w.num(asn); w.s(")*$")
      case 1: w.b(0x5E); w.num(asn); w.s(" .*")
      default: w.s(".* "); w.num(64512 + rng.below(1000)); w.b(0x24)
      }
      w.b(0x22); w.semi()
    }
    w.close()
  }

  mutating func prefixList() {
    let i = nPrefixLists
    nPrefixLists += 1
    w.ind(); w.s("prefix-list "); prefixListName(i); w.open()
    let n = rng.range(3, min(60, max(6, target / 2000)))
    if rng.chance(15) {
      for _ in 0..<n { w.ind(); publicV6(); w.semi() }
    } else {
      var base = publicV4(22)
      let plen = [24, 24, 23, 22, 32][rng.below(5)]
      let step: UInt32 = plen == 32 ? 1 : (1 << UInt32(32 - plen))
      for _ in 0..<n {
        w.ind(); w.ip4(base, plen); w.semi()
        base &+= step * UInt32(rng.range(1, 3))
      }
    }
    w.close()
  }

  mutating func policy() {
    let i = nPolicies
    nPolicies += 1
    w.ind(); w.s("policy-statement "); policyName(i); w.open()
    let terms = rng.range(1, target >= 20_000 ? 5 : 3)
    var tn = rng.below(GenTab.termNames.count)
    for t in 0..<terms {
      w.ind(); w.s("term ")
      if rng.chance(25) { w.num((t + 1) * 10) } else { w.s(GenTab.termNames[tn % GenTab.termNames.count]) }
      tn += 1
      w.open()
      // from
      let v6 = rng.chance(15)
      w.block("from")
      let fromStart = w.lines
      if v6 { w.leaf("family inet6") }
      switch rng.below(4) {
      case 0: w.leaf("protocol bgp")
      case 1: w.leaf("protocol [ static direct ]")
      case 2: w.leaf("protocol static")
      default: break
      }
      if rng.chance(20) { w.ind(); w.s("as-path "); asPathName(rng.below(nAsPath)); w.semi() }
      if rng.chance(40) { w.ind(); w.s("community "); communityName(rng.below(nComm)); w.semi() }
      if rng.chance(50) && nPrefixLists > 0 {
        w.ind()
        if rng.chance(30) {
          w.s("prefix-list-filter "); prefixListName(rng.below(nPrefixLists)); w.s(" orlonger")
        } else {
          w.s("prefix-list "); prefixListName(rng.below(nPrefixLists))
        }
        w.semi()
      }
      let rf = rng.below(4)
      var filters = Set<UInt64>()  // (prefix, length, match type): a device shows each once
      for _ in 0..<rf {
        if v6 {
          w.ind(); w.s("route-filter ")
          publicV6()
          w.s(GenTab.routeFilterMods[rng.below(GenTab.routeFilterMods.count)]); w.semi()
          continue
        }
        let wide = rng.chance(25)
        let plen = wide ? 8 : [12, 16, 19, 20, 22, 24][rng.below(6)]
        let addr = wide ? 0x0A00_0000 : publicV4(plen)
        let mod = rng.below(GenTab.routeFilterMods.count)
        guard filters.insert(UInt64(addr) << 16 | UInt64(plen) << 8 | UInt64(mod)).inserted else { continue }
        w.ind(); w.s("route-filter ")
        if wide { w.s("10.0.0.0/8") } else { w.ip4(addr, plen) }
        w.s(GenTab.routeFilterMods[mod]); w.semi()
      }
      if w.lines == fromStart { w.leaf("route-filter 10.0.0.0/8 orlonger") }
      w.close()
      // then
      let actions = rng.below(4)
      if actions == 0 {
        w.leaf(rng.chance(70) ? "then accept" : "then reject")
      } else {
        w.block("then")
        let first = rng.below(4 - actions + 1)
        for a in first..<(first + actions) {
          switch a {
          case 0: w.ind(); w.s(rng.chance(70) ? "community add " : "community set "); communityName(rng.below(nComm)); w.semi()
          case 1: w.kv("local-preference ", [50, 80, 100, 120, 150, 200, 250][rng.below(7)])
          case 2: w.kv("metric ", rng.range(1, 50) * 10)
          default:
            w.ind(); w.s("as-path-prepend \""); w.num(asn); w.b(0x20); w.num(asn); w.s("\""); w.semi()
          }
        }
        w.leaf(rng.chance(85) ? "accept" : "next term")
        w.close()
      }
      w.close()
    }
    if rng.chance(40) { w.leaf("then reject") }
    w.close()
  }

  mutating func community(_ i: Int) {
    w.ind(); w.s("community "); communityName(i); w.s(" members ")
    let kind = i % GenTab.commKinds.count
    if kind == 7 {
      w.s("target:"); w.num(asn); w.b(0x3A); w.num(1000 + i)
    } else if kind == 4 {
      w.s("65535:666")
    } else if kind == 5 {
      w.s("[ 0:"); w.num(GenTab.peerAS[i % GenTab.peerAS.count]); w.s(" no-export ]")
    } else {
      let n = rng.range(1, 3)
      if n == 1 {
        w.num(asn); w.b(0x3A); w.num(rng.range(1, 9999))
      } else {
        w.s("[ ")
        for _ in 0..<n { w.num(asn); w.b(0x3A); w.num(rng.range(1, 9999)); w.b(0x20) }
        w.b(0x5D)
      }
    }
    w.semi()
  }

  // MARK: class-of-service

  mutating func classOfService() {
    let start = w.lines
    let end = at(0.56)
    let budget = max(0, end - start)
    nClassifiers = max(1, budget / 200)
    nSchedMaps = max(1, budget / 700)
    nRewrite = max(1, budget / 500)
    let tail = nRewrite * 28 + nSchedMaps * (10 + 8 * 6) + 4
    w.block("class-of-service")
    w.block("classifiers")
    for c in 0..<nClassifiers {
      w.ind(); w.s("dscp CL-DSCP-"); w.num(c); w.open()
      w.leaf("import default")
      w.block("forwarding-class FC-BEST-EFFORT"); w.leaf("loss-priority high code-points be"); w.close()
      w.block("forwarding-class FC-CONTROL"); w.leaf("loss-priority low code-points cs7"); w.close()
      w.block("forwarding-class FC-HIGH")
      w.leaf("loss-priority high code-points af33"); w.leaf("loss-priority low code-points [ cs3 af31 ]");
      w.leaf("loss-priority medium-high code-points af32")
      w.close()
      w.block("forwarding-class FC-LLQ")
      w.leaf("loss-priority high code-points af43"); w.leaf("loss-priority low code-points [ cs4 af41 ]");
      w.leaf("loss-priority medium-high code-points af42")
      w.close()
      w.block("forwarding-class FC-LOW")
      w.leaf("loss-priority high code-points af13"); w.leaf("loss-priority low code-points [ cs1 af11 ]");
      w.leaf("loss-priority medium-high code-points af12")
      w.close()
      w.block("forwarding-class FC-MEDIUM")
      w.leaf("loss-priority high code-points af23"); w.leaf("loss-priority low code-points [ cs2 af21 ]");
      w.leaf("loss-priority medium-high code-points af22")
      w.close()
      w.block("forwarding-class FC-REALTIME"); w.leaf("loss-priority low code-points ef"); w.close()
      w.block("forwarding-class FC-SIGNALING"); w.leaf("loss-priority high code-points cs5"); w.leaf("loss-priority low code-points cs6");
      w.close()
      w.close()
      if small { continue }
      w.ind(); w.s("exp CL-EXP-"); w.num(c); w.open()
      w.leaf("import default")
      for f in 0..<8 {
        w.ind(); w.s("forwarding-class "); w.s(GenTab.fcNames[f]); w.open()
        w.ind(); w.s("loss-priority low code-points "); w.s(GenTab.expBits[f]); w.semi()
        w.close()
      }
      w.close()
    }
    w.close()
    w.block("drop-profiles")
    w.block("DP-LOW")
    w.block("interpolate"); w.leaf("fill-level [ 75 100 ]"); w.leaf("drop-probability [ 0 100 ]"); w.close()
    w.close()
    if !small {
      w.block("DP-HIGH")
      w.block("interpolate"); w.leaf("fill-level [ 25 50 ]"); w.leaf("drop-probability [ 0 100 ]"); w.close()
      w.close()
    }
    w.close()
    w.block("forwarding-classes")
    for f in 0..<8 {
      w.ind(); w.s("class "); w.s(GenTab.fcNames[f]); w.s(" queue-num "); w.num(f); w.semi()
    }
    w.close()
    w.block("interfaces")
    var i = 0
    while (w.lines < end - tail && i < phys.count) || i == 0 {
      let ifn = i < phys.count ? phys[i] : GenIfName(kind: 0, fpc: 0, pic: 0, port: 0)
      w.ind(); w.ifname(ifn); w.open()
      w.ind(); w.s("scheduler-map SM-"); w.num(rng.below(nSchedMaps)); w.semi()
      w.ind(); w.s(rng.chance(60) ? "unit 0" : "unit *"); w.open()
      w.block("classifiers")
      w.ind(); w.s("dscp CL-DSCP-"); w.num(rng.below(nClassifiers)); w.semi()
      if !small { w.ind(); w.s("exp CL-EXP-"); w.num(rng.below(nClassifiers)); w.semi() }
      w.close()
      w.block("rewrite-rules")
      w.ind(); w.s("dscp RW-DSCP-"); w.num(rng.below(nRewrite)); w.semi()
      if !small && rng.chance(50) { w.ind(); w.s("exp RW-EXP-"); w.num(rng.below(nRewrite)); w.semi() }
      w.close()
      w.close()
      w.close()
      i += 1
    }
    w.close()
    w.block("rewrite-rules")
    for r in 0..<nRewrite {
      w.ind(); w.s("dscp RW-DSCP-"); w.num(r); w.open()
      for f in 0..<8 {
        w.ind(); w.s("forwarding-class "); w.s(GenTab.fcNames[f]); w.open()
        w.ind(); w.s("loss-priority low code-point "); w.s(GenTab.dscpRW[f]); w.semi()
        w.close()
      }
      w.close()
      if small { continue }
      w.ind(); w.s("exp RW-EXP-"); w.num(r); w.open()
      for f in 0..<8 {
        w.ind(); w.s("forwarding-class "); w.s(GenTab.fcNames[f]); w.open()
        w.ind(); w.s("loss-priority low code-point "); w.s(GenTab.expBits[f]); w.semi()
        w.close()
      }
      w.close()
    }
    w.close()
    w.block("scheduler-maps")
    for m in 0..<nSchedMaps {
      w.ind(); w.s("SM-"); w.num(m); w.open()
      for f in 0..<8 {
        w.ind(); w.s("forwarding-class "); w.s(GenTab.fcNames[f]); w.s(" scheduler SCH-"); w.s(GenTab.fcShort[f]); w.b(0x2D); w.num(m);
        w.semi()
      }
      w.close()
    }
    w.close()
    w.block("schedulers")
    for m in 0..<nSchedMaps {
      for f in 0..<8 {
        w.ind(); w.s("SCH-"); w.s(GenTab.fcShort[f]); w.b(0x2D); w.num(m); w.open()
        if f == 5 {
          w.leaf("transmit-rate percent 20 exact")
        } else {
          w.ind(); w.s("transmit-rate percent "); w.num(GenTab.txRate[f]); w.semi()
        }
        if !small { w.ind(); w.s("buffer-size percent "); w.num(GenTab.txRate[f]); w.semi() }
        w.ind(); w.s("priority "); w.s(GenTab.prio[f]); w.semi()
        if !small {
          w.ind(); w.s("drop-profile-map loss-priority any protocol any drop-profile ")
          w.s(f == 0 ? "DP-HIGH" : "DP-LOW"); w.semi()
        }
        w.close()
      }
    }
    w.close()
    w.close()
  }

  // MARK: firewall

  mutating func firewall() {
    let start = w.lines
    let end = at(0.64)
    let budget = max(0, end - start)
    let policerLines = 5 * 8
    let v4End = end - policerLines - budget / 5
    w.block("firewall")
    w.block("family inet")
    protectRE()
    w.block("filter EDGE-IN")
    w.block("term BLOCK-SPOOFED")
    w.block("from"); w.block("source-prefix-list"); w.leaf("BOGONS-V4"); w.close(); w.close()
    w.block("then"); w.leaf("count edge-in-spoofed"); w.leaf("discard"); w.close()
    w.close()
    w.block("term ACCEPT"); w.leaf("then accept"); w.close()
    w.close()
    w.block("filter EDGE-OUT")
    w.block("term ACCEPT"); w.block("then"); w.leaf("count edge-out"); w.leaf("accept"); w.close(); w.close()
    w.close()
    while w.lines < v4End {
      customerFilter(v6: false)
    }
    w.close()
    w.block("family inet6")
    while w.lines < end - policerLines - 2 {
      customerFilter(v6: true)
    }
    w.close()
    w.block("family ccc")
    w.block("filter FF-L2-CLASSIFY")
    w.block("term 1"); w.block("from"); w.leaf("learn-vlan-1p-priority 5"); w.close(); w.leaf("then forwarding-class FC-REALTIME");
    w.close()
    w.block("term 2"); w.leaf("then forwarding-class FC-BEST-EFFORT"); w.close()
    w.close()
    w.close()
    let pols: [StaticString] = ["P-10M", "P-50M", "P-100M", "P-1G"]
    let bw: [StaticString] = ["10m", "50m", "100m", "1g"]
    let burst: [StaticString] = ["625k", "3m", "6250k", "62500k"]
    for p in (small ? 2 : 0)..<4 {
      w.ind(); w.s("policer "); w.s(pols[p]); w.open()
      w.block("if-exceeding")
      w.ind(); w.s("bandwidth-limit "); w.s(bw[p]); w.semi()
      w.ind(); w.s("burst-size-limit "); w.s(burst[p]); w.semi()
      w.close()
      w.leaf("then discard")
      w.close()
    }
    w.close()
  }

  mutating func protectRE() {
    w.block("filter PROTECT-RE")
    w.block("term ALLOW-BGP")
    w.block("from"); w.block("source-prefix-list"); w.leaf("PL-BGP-PEERS"); w.close()
    w.leaf("protocol tcp"); w.leaf("port bgp"); w.close()
    w.leaf("then accept")
    w.close()
    w.block("term ALLOW-MGMT")
    w.block("from"); w.block("source-prefix-list"); w.leaf("PL-MGMT"); w.close()
    w.leaf("protocol tcp"); w.leaf("destination-port [ ssh 830 snmp ]"); w.close()
    w.block("then"); w.leaf("count re-mgmt"); w.leaf("accept"); w.close()
    w.close()
    w.block("term ALLOW-NTP")
    w.block("from"); w.block("source-address"); w.leaf("10.10.1.123/32"); w.leaf("10.20.1.123/32"); w.close()
    w.leaf("protocol udp"); w.leaf("port ntp"); w.close()
    w.leaf("then accept")
    w.close()
    w.block("term ALLOW-ICMP")
    w.block("from"); w.leaf("protocol icmp"); w.leaf("icmp-type [ echo-request echo-reply unreachable time-exceeded ]"); w.close()
    w.block("then"); w.leaf("policer P-100M"); w.leaf("accept"); w.close()
    w.close()
    w.block("term ALLOW-IGP")
    w.block("from"); w.leaf("protocol [ ospf rsvp pim ]"); w.close()
    w.leaf("then accept")
    w.close()
    w.block("term DEFAULT-DENY")
    w.block("then"); w.leaf("count re-discard"); w.leaf("syslog"); w.leaf("discard"); w.close()
    w.close()
    w.close()
  }

  mutating func customerFilter(v6: Bool) {
    let f = filterSeq
    filterSeq += 1
    let cust = GenTab.customers[f % GenTab.customers.count]
    w.ind(); w.s("filter CUST-"); w.s(cust); w.s(v6 ? "-ACL6-" : "-ACL-"); w.num(f); w.open()
    if rng.chance(30) { w.leaf("interface-specific") }
    let terms = rng.range(1, target >= 20_000 ? 6 : 3)
    for t in 0..<terms {
      maybeAnnotation(2)
      w.ind(); w.s("term T"); w.num(t + 1); w.open()
      w.block("from")
      w.block("source-address")
      let n = rng.range(1, 6)
      for _ in 0..<n {
        w.ind()
        if v6 { publicV6() } else { w.ip4(rng.chance(40) ? (0x0A00_0000 | UInt32(rng.below(1 << 16)) << 8) : publicV4(24), 24) }
        if rng.chance(5) { w.s(" except") }
        w.semi()
      }
      w.close()
      if rng.chance(40) {
        w.block("destination-address")
        for _ in 0..<rng.range(1, 3) {
          w.ind()
          if v6 {
            publicV6()
          } else {
            let plen = [30, 29, 32][rng.below(3)]
            w.ip4((0xAC10_0000 | UInt32(rng.below(1 << 18)) << 2) & (~UInt32(0) << UInt32(32 - plen)), plen)
          }
          w.semi()
        }
        w.close()
      }
      let proto = rng.below(GenTab.protocolsIP.count)
      w.ind(); w.s(v6 ? "next-header " : "protocol "); w.s(GenTab.protocolsIP[proto]); w.semi()
      if proto == 0 || proto == 1 || proto == 3 {
        let np = rng.range(1, 4)
        w.ind(); w.s("destination-port ")
        if np == 1 {
          w.s(GenTab.ports[rng.below(GenTab.ports.count)])
        } else {
          w.s("[ ")
          var p = rng.below(GenTab.ports.count)
          for _ in 0..<np { w.s(GenTab.ports[p % GenTab.ports.count]); w.b(0x20); p += rng.range(1, 3) }
          w.b(0x5D)
        }
        w.semi()
      }
      w.close()
      w.block("then")
      w.ind(); w.s("count "); w.s(cust); w.s("-c"); w.num(f); w.s("-t"); w.num(t + 1); w.semi()
      switch rng.below(5) {
      case 0: w.leaf("discard")
      case 1: w.leaf("policer P-100M"); w.leaf("accept")
      case 2: w.leaf("log"); w.leaf("reject")
      default: w.leaf("accept")
      }
      w.close()
      w.close()
    }
    w.block("term DEFAULT")
    w.block("then"); w.leaf("count default-deny"); w.leaf("discard"); w.close()
    w.close()
    w.close()
  }

  // MARK: routing-instances

  mutating func routingInstances() {
    let end = at(0.82)
    w.block("routing-instances")
    while w.lines < end - 1 || vrfSeq == 0 {
      let r = rng.below(100)
      if r < 15 && !edgeL2.isEmpty {
        macVrf()
      } else if r < 22 {
        virtualRouter()
      } else {
        l3vpn()
      }
    }
    w.close()
  }

  mutating func nextL3() -> GenEdgeUnit {
    if edgeL3.isEmpty {
      return GenEdgeUnit(ifn: GenIfName(kind: 1, fpc: 1, pic: 0, port: 0), unit: 100, addr: 0xAC10_0001, cust: 0)
    }
    let u = edgeL3[l3Cursor % edgeL3.count]
    l3Cursor += 1
    return u
  }

  mutating func l3vpn() {
    let id = 1000 + vrfSeq
    vrfSeq += 1
    let n = rng.range(1, 3)
    var units: [GenEdgeUnit] = []
    units.reserveCapacity(n)
    for _ in 0..<n { units.append(nextL3()) }
    let cust = Int(units[0].cust)
    maybeAnnotation(2)
    w.ind()
    if rng.chance(2) { w.s("inactive: ") }
    w.s("CUST-"); w.s(GenTab.customers[cust]); w.s("-L3VPN-"); w.pad(id, 4); w.open()
    let site = rng.below(GenTab.sites.count)
    w.ind(); w.s("description \""); w.s(GenTab.customerNames[cust]); w.s(" L3VPN ("); w.s(GenTab.sites[site])
    w.s(", "); w.s(GenTab.sites[(site + rng.range(1, GenTab.sites.count - 1)) % GenTab.sites.count]); w.s(")\""); w.semi()
    w.leaf("instance-type vrf")
    if rng.chance(45) {
      w.block("routing-options")
      w.block("static")
      for _ in 0..<rng.range(1, 4) {
        let u = units[rng.below(n)]
        w.ind(); w.s("route "); w.ip4(0xAC14_0000 | UInt32(rng.below(1 << 12)) << 4, 28); w.s(" next-hop "); w.ip4(u.addr &+ 1); w.semi()
      }
      w.close()
      if rng.chance(30) { w.leaf("multipath") }
      w.close()
    }
    if rng.chance(80) {
      let peerAS = rng.chance(70) ? 64512 + cust * 10 + rng.below(10) : 4_200_000_000 + rng.below(100_000)
      w.block("protocols")
      w.block("bgp")
      w.block("group CE-EBGP")
      w.leaf("type external")
      if rng.chance(40) { w.ind(); w.s("import "); policyName(pickPolicy(1)); w.semi() }
      w.block("family inet")
      w.block("unicast")
      w.block("prefix-limit")
      w.kv("maximum ", [100, 500, 1000, 5000][rng.below(4)])
      w.leaf("teardown 80 idle-timeout 30")
      w.close()
      w.close()
      w.close()
      w.kv("peer-as ", peerAS)
      w.leaf("as-override")
      for u in units {
        if rng.chance(50) {
          w.ind(); w.s("neighbor "); w.ip4(u.addr &+ 1); w.open()
          w.ind(); w.s("description \""); w.s(GenTab.customerNames[cust]); w.s(" CE "); w.ifunit(u.ifn, Int(u.unit)); w.b(0x22); w.semi()
          if rng.chance(40) { authKey() }
          w.block("bfd-liveness-detection"); w.kv("minimum-interval ", 300); w.kv("multiplier ", 3); w.close()
          w.close()
        } else {
          w.ind(); w.s("neighbor "); w.ip4(u.addr &+ 1); w.semi()
        }
      }
      w.close()
      w.close()
      w.close()
    }
    for u in units {
      w.ind(); w.s("interface "); w.ifunit(u.ifn, Int(u.unit)); w.semi()
    }
    w.ind(); w.s("route-distinguisher "); w.ip4(rid); w.b(0x3A); w.num(id); w.semi()
    if rng.chance(20) {
      w.ind(); w.s("vrf-import "); policyName(pickPolicy(5)); w.semi()
      w.ind(); w.s("vrf-export "); policyName(pickPolicy(4)); w.semi()
    } else {
      w.ind(); w.s("vrf-target target:"); w.num(asn); w.b(0x3A); w.num(id); w.semi()
    }
    w.leaf("vrf-table-label")
    w.close()
  }

  mutating func macVrf() {
    let id = 1000 + vrfSeq
    vrfSeq += 1
    let u = edgeL2[l2Cursor % edgeL2.count]
    l2Cursor += 1
    w.ind(); w.s("EVPN-"); w.s(GenTab.customers[Int(u.cust)]); w.s("-ELAN-"); w.pad(id, 4); w.open()
    w.leaf("instance-type mac-vrf")
    w.block("protocols"); w.block("evpn"); w.leaf("encapsulation mpls"); w.leaf("default-gateway no-gateway-community"); w.close();
    w.close()
    w.leaf("service-type vlan-based")
    w.ind(); w.s("interface "); w.ifunit(u.ifn, Int(u.unit)); w.semi()
    w.ind(); w.s("route-distinguisher "); w.ip4(rid); w.b(0x3A); w.num(id); w.semi()
    w.ind(); w.s("vrf-target target:"); w.num(asn); w.b(0x3A); w.num(id); w.semi()
    w.block("vlans")
    w.ind(); w.s("BD-"); w.num(Int(u.unit)); w.open()
    w.kv("vlan-id ", Int(u.unit))
    w.ind(); w.s("interface "); w.ifunit(u.ifn, Int(u.unit)); w.semi()
    w.close()
    w.close()
    w.close()
  }

  mutating func virtualRouter() {
    let id = 1000 + vrfSeq
    vrfSeq += 1
    let u = nextL3()
    w.ind(); w.s("VR-"); w.s(GenTab.customers[Int(u.cust)]); w.b(0x2D); w.pad(id, 4); w.open()
    w.leaf("instance-type virtual-router")
    w.block("routing-options")
    w.block("static")
    w.ind(); w.s("route 0.0.0.0/0 next-hop "); w.ip4(u.addr &+ 1); w.semi()
    w.close()
    w.close()
    if rng.chance(50) {
      w.block("protocols")
      w.block("ospf")
      w.block("area 0.0.0.0")
      w.ind(); w.s("interface "); w.ifunit(u.ifn, Int(u.unit)); w.open()
      w.leaf("interface-type p2p")
      w.kv("metric ", rng.range(1, 20) * 10)
      w.close()
      w.close()
      w.close()
      w.close()
    }
    w.ind(); w.s("interface "); w.ifunit(u.ifn, Int(u.unit)); w.semi()
    w.close()
  }

  // MARK: routing-options

  mutating func routingOptions() {
    let end = at(0.86)
    w.block("routing-options")
    w.leaf("nonstop-routing")
    w.block("rib inet6.0")
    w.block("static")
    w.leaf("route 2001:db8:ffff::/48 discard")
    w.leaf("route ::/0 next-hop 2001:db8:1000::1")
    w.close()
    w.close()
    w.block("static")
    w.ind(); w.s("route 0.0.0.0/0 next-hop "); w.ip4(core.first.map { $0.addr ^ 1 } ?? 0x0A00_0001); w.semi()
    while w.lines < end - 12 {
      let s = staticSeq
      staticSeq += 1
      let r = rng.below(100)
      if r < 55 {
        w.ind(); w.s("route "); w.ip4(0x0A20_2000 &+ UInt32(truncatingIfNeeded: s & 0xFFFFF), 32)
        w.s(" next-hop "); w.ip4(0x0A20_0000 | UInt32(rng.range(1, 254))); w.semi()
      } else if r < 70 {
        // Each kind of route in its own range, one /24 per sequence number: no prefix repeats
        // (a device never shows the same static route twice).
        w.ind(); w.s("route "); w.ip4(0x2000_0000 | UInt32(truncatingIfNeeded: (s & 0xFFFFF) << 8), 24); w.s(" discard"); w.semi()
      } else if r < 90 {
        w.ind(); w.s("route "); w.ip4(0x3000_0000 | UInt32(truncatingIfNeeded: (s & 0xFFFFF) << 8), 24); w.open()
        let nh = core.isEmpty ? UInt32(0x0A00_0001) : core[rng.below(core.count)].addr ^ 1
        w.kvIP("next-hop ", nh)
        if rng.chance(40) { w.leaf("retain") }
        if rng.chance(50) { w.leaf("no-readvertise") }
        w.kv("preference ", [5, 150, 200, 250][rng.below(4)])
        if rng.chance(30) { w.kv("tag ", rng.range(1, 999)) }
        w.close()
      } else {
        w.ind(); w.s("route "); w.ip4(0x4000_0000 | UInt32(truncatingIfNeeded: (s & 0xFFFFF) << 8), 24); w.open()
        let nh = core.isEmpty ? UInt32(0x0A00_0001) : core[rng.below(core.count)].addr ^ 1
        w.ind(); w.s("qualified-next-hop "); w.ip4(nh); w.open()
        w.kv("preference ", 10)
        w.kv("metric ", 100)
        w.close()
        w.kvIP("next-hop ", nh &+ 2)
        w.close()
      }
    }
    w.close()
    w.block("aggregate")
    w.leaf("route 198.51.100.0/22")
    w.close()
    w.kvIP("router-id ", rid)
    w.kv("autonomous-system ", asn)
    w.block("forwarding-table")
    w.leaf("export PPLB")
    w.leaf("ecmp-fast-reroute")
    w.close()
    w.close()
  }

  // MARK: protocols

  mutating func protocols() {
    // Generate everything but bgp into side buffers so bgp can fill the
    // remaining line budget exactly.
    var mainW = GenWriter(capacity: 0, depth: 1)
    swap(&w, &mainW)
    protocolsPre()
    var pre = GenWriter(capacity: 1 << 16, depth: 1)
    swap(&w, &pre)
    protocolsPost()
    var post = GenWriter(capacity: 0, depth: 1)
    swap(&w, &post)
    swap(&w, &mainW)

    w.block("protocols")
    w.append(pre)
    let bgpLines = target - w.lines - post.lines - 1
    bgp(lines: bgpLines)
    w.append(post)
    w.close()
  }

  mutating func protocolsPre() {
    w.block("rsvp")
    w.leaf("interface all")
    w.block("interface fxp0.0"); w.leaf("disable"); w.close()
    w.close()
    w.block("mpls")
    let lsps = max(2, core.count / 2)
    for l in 0..<lsps {
      w.ind(); w.s("label-switched-path LSP-TO-PE"); w.num(l + 1); w.open()
      w.ind(); w.s("to "); w.ip4(0x0AFF_0000 &+ UInt32(truncatingIfNeeded: l + 100)); w.semi()
      if rng.chance(50) { w.leaf("ldp-tunneling") }
      if rng.chance(40) { w.ind(); w.s("bandwidth "); w.num(rng.range(1, 40)); w.s("g"); w.semi() }
      w.close()
    }
    for c in core {
      w.ind(); w.s("interface "); w.ifunit(c.ifn, 0); w.semi()
    }
    w.block("interface fxp0.0"); w.leaf("disable"); w.close()
    w.close()
  }

  mutating func protocolsPost() {
    w.block("isis")
    w.leaf("apply-groups GR-ISIS-BCP")
    w.leaf("reference-bandwidth 1000g")
    w.leaf("level 1 disable")
    w.leaf("level 2 wide-metrics-only")
    for c in core {
      w.ind(); w.s("interface "); w.ifunit(c.ifn, 0); w.open()
      w.leaf("point-to-point")
      w.block("level 2")
      if rng.chance(30) {
        w.block("post-convergence-lfa"); w.leaf("node-protection cost 16777214"); w.close()
      }
      w.kv("metric ", [10, 20, 50, 100][rng.below(4)])
      w.close()
      if rng.chance(40) {
        w.block("family inet")
        w.block("bfd-liveness-detection"); w.kv("minimum-interval ", 100); w.kv("multiplier ", 3); w.leaf("no-adaptation"); w.close()
        w.close()
      }
      w.close()
    }
    w.block("interface lo0.0"); w.leaf("passive"); w.close()
    w.close()
    w.block("ospf")
    w.leaf("traffic-engineering")
    w.block("area 0.0.0.0")
    let nOspf = (core.count + 2) / 3
    for c in core.prefix(nOspf) {
      w.ind(); w.s("interface "); w.ifunit(c.ifn, 0); w.open()
      w.leaf("interface-type p2p")
      w.kv("metric ", rng.range(1, 20) * 10)
      if rng.chance(30) { w.leaf("ldp-synchronization") }
      w.close()
    }
    w.block("interface lo0.0"); w.leaf("passive"); w.close()
    w.close()
    w.close()
    w.block("ldp")
    w.leaf("track-igp-metric")
    w.leaf("deaggregate")
    for c in core {
      w.ind(); w.s("interface "); w.ifunit(c.ifn, 0); w.semi()
    }
    w.leaf("interface lo0.0")
    w.close()
    w.block("lldp")
    w.leaf("port-id-subtype interface-name")
    w.leaf("interface all")
    w.block("interface fxp0"); w.leaf("disable"); w.close()
    w.close()
  }

  /// Emits the `bgp { ... }` block using exactly `lines` lines when possible.
  mutating func bgp(lines: Int) {
    let end = w.lines + max(lines, 0)
    w.block("bgp")
    w.leaf("precision-timers")
    w.leaf("log-updown")
    let maxGroup = 16 + 12 * maxNbr
    while end - 1 - w.lines > maxGroup + 8 {
      randomGroup()
    }
    let r = end - 1 - w.lines
    fillGroup(r)
    w.close()
  }

  mutating func ibgpNeighbor() -> UInt32 {
    let i = ibgpSeq
    ibgpSeq += 1
    return 0x0AFF_0000 &+ UInt32(truncatingIfNeeded: (i / 250) << 8 | (i % 250 + 1)) &+ 0x0000_0100
  }

  mutating func randomGroup() {
    let g = groupSeq
    groupSeq += 1
    let r = rng.below(100)
    maybeAnnotation(2)
    w.ind()
    if rng.chance(4) { w.s("inactive: ") }
    if r < 30 {
      // iBGP: one-liner neighbors
      w.s("group IBGP-RR-"); w.num(g); w.open()
      w.leaf("type internal")
      w.kvIP("local-address ", rid)
      w.block("family inet-vpn"); w.leaf("unicast"); w.close()
      if rng.chance(60) { w.block("family inet6-vpn"); w.leaf("unicast"); w.close() }
      if rng.chance(50) { w.block("family evpn"); w.leaf("signaling"); w.close() }
      w.leaf("export NHS")
      if rng.chance(40) { w.kvIP("cluster ", rid) }
      let n = rng.range(1, maxNbr * 3)
      for _ in 0..<n { w.kvIP("neighbor ", ibgpNeighbor()) }
      w.close()
    } else {
      // eBGP transit / peering: neighbor blocks
      let p = rng.below(GenTab.peers.count)
      w.s(r < 65 ? "group TRANSIT-" : "group PEER-"); w.s(GenTab.peers[p]); w.b(0x2D); w.num(g); w.open()
      w.leaf("type external")
      w.ind(); w.s("description \""); w.s(r < 65 ? "IP Transit " : "Private peering "); w.s(GenTab.peers[p]); w.b(0x22); w.semi()
      w.ind(); w.s("import "); policyName(pickPolicy(3)); w.semi()
      w.ind(); w.s("export [ "); policyName(pickPolicy(2)); w.s(" REJECT-ALL ]"); w.semi()
      w.ind(); w.s("remove-private all"); w.semi()
      w.kv("peer-as ", GenTab.peerAS[p])
      let n = rng.range(1, maxNbr)
      for _ in 0..<n {
        let s = ebgpSeq
        ebgpSeq += 1
        let addr = GenTab.peerNet[p] &+ UInt32(truncatingIfNeeded: (s * 4 + 1) & 0xFFFF)
        w.ind(); w.s("neighbor "); w.ip4(addr); w.open()
        w.ind(); w.s("description \""); w.s(GenTab.peers[p]); w.b(0x20); w.s(GenTab.sites[rng.below(GenTab.sites.count)])
        w.s(" 100G circuit "); w.pad(rng.below(100_000), 5); w.b(0x22); w.semi()
        w.kvIP("local-address ", addr &+ 1)
        if rng.chance(50) { authKey() }
        if rng.chance(40) {
          w.block("bfd-liveness-detection"); w.kv("minimum-interval ", 300); w.kv("multiplier ", 3); w.close()
        }
        w.close()
      }
      w.close()
    }
  }

  /// A group using exactly `r` lines (r >= 4), or as close as possible.
  mutating func fillGroup(_ r: Int) {
    if r >= 8 {
      w.block("group IBGP-PE-MESH")
      w.leaf("type internal")
      w.kvIP("local-address ", rid)
      w.block("family inet-vpn"); w.leaf("unicast"); w.close()
      for _ in 0..<(r - 7) { w.kvIP("neighbor ", ibgpNeighbor()) }
      w.close()
    } else if r >= 4 {
      w.block("group IBGP-PE-MESH")
      w.leaf("type internal")
      for _ in 0..<(r - 3) { w.kvIP("neighbor ", ibgpNeighbor()) }
      w.close()
    } else {
      let extra: [StaticString] = ["advertise-peer-as", "mtu-discovery", "bgp-error-tolerance"]
      for i in 0..<max(r, 0) { w.leaf(extra[i]) }
    }
  }
}

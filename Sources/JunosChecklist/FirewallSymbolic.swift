public import JunosConfig

/// A box of packets: each field limited to a set (`nil`: any value). The region a comparison
/// is asked about (a control-plane flow), or every packet.
public struct PacketSet: Sendable, Hashable {
  /// Source prefixes (any address in one of them).
  public var sources: [IPPrefix]?
  /// Destination prefixes.
  public var destinations: [IPPrefix]?
  /// Protocol numbers.
  public var protocols: IntRanges?
  /// Source ports.
  public var sourcePorts: IntRanges?
  /// Destination ports.
  public var destinationPorts: IntRanges?

  /// Creates a box; every field left out is any value.
  public init(
    sources: [IPPrefix]? = nil, destinations: [IPPrefix]? = nil, protocols: IntRanges? = nil, sourcePorts: IntRanges? = nil,
    destinationPorts: IntRanges? = nil
  ) {
    self.sources = sources.map { $0.map(\.network) }
    self.destinations = destinations.map { $0.map(\.network) }
    self.protocols = protocols
    self.sourcePorts = sourcePorts
    self.destinationPorts = destinationPorts
  }

  /// Every packet.
  public static let all = PacketSet()

  /// Whether `p` is in the box.
  public func contains(_ p: Packet) -> Bool {
    if let s = sources, !s.contains(where: { $0.contains(p.source) }) { return false }
    if let d = destinations, !d.contains(where: { $0.contains(p.destination) }) { return false }
    if let r = protocols, !r.contains(p.protocolNumber) { return false }
    if let r = sourcePorts, !r.contains(p.sourcePort) { return false }
    if let r = destinationPorts, !r.contains(p.destinationPort) { return false }
    return true
  }
}

/// One integer field split at every bound the filters name: each atom is a range no condition
/// cuts.
struct IntAxis: Sendable {
  let starts: [Int]
  let upper: Int
  /// Values an example takes when its atom holds them (an ephemeral port rather than port 0).
  let preferred: [Int]

  init(domain: ClosedRange<Int>, sets: [IntRanges], preferred: [Int] = []) {
    self.preferred = preferred
    var cuts: Set<Int> = [domain.lowerBound]
    for s in sets {
      for r in s.ranges {
        cuts.insert(r.lowerBound)
        if r.upperBound < domain.upperBound { cuts.insert(r.upperBound + 1) }
      }
    }
    starts = cuts.filter { domain.contains($0) }.sorted()
    upper = domain.upperBound
  }

  var count: Int { starts.count }
  func range(_ i: Int) -> ClosedRange<Int> { starts[i]...(i + 1 < starts.count ? starts[i + 1] - 1 : upper) }

  /// A value of atom `i`: the first preferred one it holds, else its lowest.
  func example(_ i: Int) -> Int {
    let r = range(i)
    return preferred.first(where: r.contains) ?? r.lowerBound
  }

  func atom(of v: Int) -> Int {
    var lo = 0
    var hi = starts.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if starts[mid] <= v { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  func bits(_ r: IntRanges?) -> BitSet {
    guard let r else { return BitSet(count: count, full: true) }
    var b = BitSet(count: count, full: false)
    for i in 0..<count where r.contains(starts[i]) { b.insert(i) }
    return b
  }
}

/// One address field split by longest match over every prefix the filters (and the region)
/// name: an atom is a prefix's addresses outside every more specific prefix of the set, so
/// every address list (with `except`) matches all of an atom or none of it.
struct AddressAxis: Sendable {
  /// Each atom's prefix and an address of it outside the more specific prefixes.
  let atoms: [(prefix: IPPrefix, example: IPPrefix)]
  /// The addresses examples take when they can.
  let preferred: [IPPrefix]
  let index: [IPPrefix: Int]
  /// Each prefix's most specific prefixes of the set strictly inside it (its children).
  let children: [IPPrefix: [IPPrefix]]
  let lookup: LongestMatch

  /// `preferred`: addresses an atom's example is, when the atom holds them (documentation
  /// addresses rather than 0.0.0.0); else the first host address of the atom's prefix, or its
  /// first free address.
  init(family: IPPrefix.Family, prefixes: Set<IPPrefix>, preferred: [IPPrefix] = []) {
    self.preferred = preferred.filter { $0.family == family }
    let width = family == .inet ? 32 : 128
    let zero = IPPrefix(family: family, bytes: Array(repeating: 0, count: width / 8), length: 0)
    var set = prefixes.filter { $0.family == family }
    set.insert(zero)
    let all = set.sorted { $0.length != $1.length ? $0.length < $1.length : $0.bytes.lexicographicallyPrecedes($1.bytes) }
    let lookup = LongestMatch(all.map { AddressEntry($0) })
    var children: [IPPrefix: [IPPrefix]] = [:]
    for q in all where q.length > 0 {
      if let parent = lookup.longest(containing: q, shorterThan: q.length) { children[parent.prefix, default: []].append(q) }
    }
    var atoms: [(IPPrefix, IPPrefix)] = []
    var index: [IPPrefix: Int] = [:]
    for p in all {
      let inside = children[p] ?? []
      func isFree(_ a: IPPrefix) -> Bool { p.contains(a) && !inside.contains { $0.contains(a) } }
      var host = p.network.bytes
      host[host.count - 1] |= 1
      let firstHost = IPPrefix(family: p.family, bytes: host, length: p.width)
      let candidates = self.preferred + (p.length < p.width - 1 ? [firstHost] : [])
      if let e = candidates.first(where: isFree)
        ?? PrefixOrder.firstFree(in: p, length: p.width, avoiding: inside.sorted(by: addressOrder))
      {
        index[p] = atoms.count
        atoms.append((p, e))
      }
    }
    self.atoms = atoms
    self.index = index
    self.children = children
    self.lookup = lookup
  }

  /// An atom in words: its prefix, and the more specific prefixes it leaves out
  /// (`0.0.0.0/0 except 10.0.0.0/8 192.0.2.1/32`).
  func text(_ k: Int) -> String {
    let p = atoms[k].prefix
    let direct = children[p] ?? []
    guard !direct.isEmpty else { return p.description }
    let shown = direct.prefix(3).map(\.description).joined(separator: " ")
    return "\(p) except \(shown)\(direct.count > 3 ? " …" : "")"
  }

  var count: Int { atoms.count }

  /// The atom of an address: its longest prefix in the set.
  func atom(of address: IPPrefix) -> Int {
    guard let p = lookup.longest(containing: address, shorterThan: address.width + 1) else { return 0 }
    return index[p.prefix] ?? 0
  }

  /// The atoms an address list matches (longest match, `except` entries).
  func bits(_ entries: [AddressEntry]) -> BitSet {
    var b = BitSet(count: count, full: false)
    let m = LongestMatch(entries)
    for (k, a) in atoms.enumerated() where m.longest(containing: a.example, shorterThan: a.example.width + 1)?.except == false {
      b.insert(k)
    }
    return b
  }

  /// The atoms inside any of `prefixes` (each one of the set): a prefix's own atom and those of
  /// the prefixes inside it.
  func bits(prefixes: [IPPrefix]?) -> BitSet {
    guard let prefixes else { return BitSet(count: count, full: true) }
    var b = BitSet(count: count, full: false)
    var stack = prefixes.map(\.network)
    while let p = stack.popLast() {
      if let k = index[p] { b.insert(k) }
      stack += children[p] ?? []
    }
    return b
  }
}

/// Address entries by length, for longest-match look-ups by hashing: one probe per length
/// present instead of a scan of the entries.
struct LongestMatch: Sendable {
  /// Lengths present, longest first, each with its entries by network (an `except` entry wins a
  /// tie with a plain one of the same prefix).
  let levels: [(length: Int, entries: [IPPrefix: AddressEntry])]

  init(_ entries: [AddressEntry]) {
    var by: [Int: [IPPrefix: AddressEntry]] = [:]
    for e in entries {
      if let old = by[e.prefix.length]?[e.prefix], old.except { continue }
      by[e.prefix.length, default: [:]][e.prefix] = e
    }
    levels = by.sorted { $0.key > $1.key }.map { ($0.key, $0.value) }
  }

  /// The longest entry shorter than `limit` bits that contains `address`.
  func longest(containing address: IPPrefix, shorterThan limit: Int) -> AddressEntry? {
    for (length, entries) in levels where length < limit && length <= address.length {
      let key = IPPrefix(family: address.family, bytes: address.bytes, length: length).network
      if let e = entries[key] { return e }
    }
    return nil
  }
}

/// The header space of one family, split on the atoms two filter chains (and a region) mention.
struct HeaderSpace: Sendable {
  static let fields = 8
  let family: IPPrefix.Family
  let source: AddressAxis
  let destination: AddressAxis
  let ints: [IntAxis]  // protocol, source port, destination port, flags, icmp type, dscp

  static let domains: [ClosedRange<Int>] = [0...255, 0...65535, 0...65535, 0...63, 0...255, 0...63]

  init(family: IPPrefix.Family, chains: [FilterChain], regions: [PacketSet]) {
    self.family = family
    var src: Set<IPPrefix> = []
    var dst: Set<IPPrefix> = []
    var sets: [[IntRanges]] = Array(repeating: [], count: 6)
    for region in regions {
      src.formUnion(region.sources ?? [])
      dst.formUnion(region.destinations ?? [])
      for r in [region.protocols, region.sourcePorts, region.destinationPorts].enumerated() {
        if let v = r.element { sets[r.offset].append(v) }
      }
    }
    for ch in chains {
      for ct in ch.terms {
        let m = ct.term.match
        for l in m.source { src.formUnion(l.map(\.prefix)) }
        for l in m.destination { dst.formUnion(l.map(\.prefix)) }
        for l in m.either {
          src.formUnion(l.map(\.prefix))
          dst.formUnion(l.map(\.prefix))
        }
        for (k, v) in [m.protocols, m.sourcePorts, m.destinationPorts, m.tcpFlags, m.icmpTypes, m.dscp].enumerated() {
          if let v { sets[k].append(v) }
        }
        sets[1] += m.eitherPorts
        sets[2] += m.eitherPorts
      }
    }
    // Examples from the documentation ranges (RFC 5737, RFC 3849), TCP or UDP, ephemeral ports.
    source = AddressAxis(family: family, prefixes: src, preferred: ["192.0.2.1", "203.0.113.1", "2001:db8::1"].compactMap { IPPrefix($0) })
    destination = AddressAxis(
      family: family, prefixes: dst, preferred: ["198.51.100.1", "203.0.113.2", "2001:db8::2"].compactMap { IPPrefix($0) })
    let preferred: [[Int]] = [[6, 17], [49152, 1024], [49152, 1024], [], [], []]
    ints = (0..<6).map { IntAxis(domain: Self.domains[$0], sets: sets[$0], preferred: preferred[$0]) }
  }

  func count(_ field: Int) -> Int { field == 0 ? source.count : field == 1 ? destination.count : ints[field - 2].count }

  var full: [BitSet] { (0..<Self.fields).map { BitSet(count: count($0), full: true) } }

  func cube(_ r: PacketSet) -> [BitSet] {
    var c = full
    c[0] = source.bits(prefixes: r.sources)
    c[1] = destination.bits(prefixes: r.destinations)
    c[2] = ints[0].bits(r.protocols)
    c[3] = ints[1].bits(r.sourcePorts)
    c[4] = ints[2].bits(r.destinationPorts)
    return c
  }

  /// The packets a term's modelled conditions match, as cubes whose union is the match
  /// (`address` and `port` match either side: one cube per side).
  func cubes(_ m: FilterMatch) -> [[BitSet]] {
    var base = full
    for l in m.source { base[0] = base[0] & source.bits(l) }
    for l in m.destination { base[1] = base[1] & destination.bits(l) }
    for (k, v) in [m.protocols, m.sourcePorts, m.destinationPorts, m.tcpFlags, m.icmpTypes, m.dscp].enumerated() {
      base[k + 2] = base[k + 2] & ints[k].bits(v)
    }
    var out = [base]
    for l in m.either {
      out = out.flatMap { c -> [[BitSet]] in
        var a = c
        a[0] = a[0] & source.bits(l)
        var b = c
        b[1] = b[1] & destination.bits(l)
        return [a, b]
      }
    }
    for r in m.eitherPorts {
      out = out.flatMap { c -> [[BitSet]] in
        var a = c
        a[3] = a[3] & ints[1].bits(r)
        var b = c
        b[4] = b[4] & ints[2].bits(r)
        return [a, b]
      }
    }
    return out.filter { !Self.isEmpty($0) }
  }

  static func isEmpty(_ c: [BitSet]) -> Bool { c.contains { $0.isEmpty } }
  static func intersect(_ a: [BitSet], _ b: [BitSet]) -> [BitSet] { zip(a, b).map { $0 & $1 } }

  /// `a` minus `b`, as disjoint cubes.
  static func subtract(_ a: [BitSet], _ b: [BitSet]) -> [[BitSet]] {
    var out: [[BitSet]] = []
    var prefix = a
    for i in 0..<fields {
      var piece = prefix
      piece[i] = a[i] - b[i]
      if !piece[i].isEmpty { out.append(piece) }
      prefix[i] = a[i] & b[i]
      if prefix[i].isEmpty { break }
    }
    return out
  }

  /// Disjoint cubes joined where two differ in one field only (their union is then one cube):
  /// fewer, larger regions of the same set. Groups of more than 256 cubes are left as they are.
  static func merged(_ cubes: [[BitSet]]) -> [[BitSet]] {
    var cs = cubes
    guard cs.count <= 256 else { return cs }
    var joined = true
    while joined {
      joined = false
      search: for i in cs.indices {
        for j in cs.indices where j > i {
          var field = -1
          var one = true
          for f in 0..<fields where cs[i][f] != cs[j][f] {
            if field >= 0 {
              one = false
              break
            }
            field = f
          }
          guard one, field >= 0 else { continue }
          cs[i][field] = cs[i][field] | cs[j][field]
          cs.remove(at: j)
          joined = true
          break search
        }
      }
    }
    return cs
  }

  /// The atom cube of one packet.
  func contains(_ c: [BitSet], _ p: Packet) -> Bool {
    guard p.family == family else { return false }
    let idx = [
      source.atom(of: p.source), destination.atom(of: p.destination), ints[0].atom(of: p.protocolNumber), ints[1].atom(of: p.sourcePort),
      ints[2].atom(of: p.destinationPort), ints[3].atom(of: p.tcpFlags & 0x3f), ints[4].atom(of: p.icmpType), ints[5].atom(of: p.dscp),
    ]
    return zip(c, idx).allSatisfy { $0.contains($1) }
  }

  /// A packet of a cube: each field's first atom's example value.
  func example(_ c: [BitSet]) -> Packet {
    let i = c.map { $0.elements }
    /// The example of the cube's first atom that gives a preferred value, else of its first atom.
    func value(_ k: Int) -> Int {
      let axis = ints[k - 2]
      let atoms = i[k].isEmpty ? [0] : i[k]
      for p in axis.preferred { if let a = atoms.first(where: { axis.range($0).contains(p) }) { return axis.example(a) } }
      return axis.example(atoms[0])
    }
    func address(_ axis: AddressAxis, _ atoms: [Int]) -> IPPrefix {
      let atoms = atoms.isEmpty ? [0] : atoms
      return axis.atoms[atoms.first { axis.preferred.contains(axis.atoms[$0].example) } ?? atoms[0]].example
    }
    return Packet(
      source: address(source, i[0]), destination: address(destination, i[1]), protocolNumber: value(2), sourcePort: value(3),
      destinationPort: value(4), tcpFlags: value(5), icmpType: value(6), dscp: value(7))
  }

  /// The cube in words: each field that is not any value.
  func describe(_ c: [BitSet]) -> String {
    let names = ["protocol", "source-port", "destination-port", "tcp-flags", "icmp-type", "dscp"]
    var parts: [String] = []
    for (k, axis) in [source, destination].enumerated() where c[k].elements.count < axis.count {
      let idx = c[k].elements
      let ps = idx.prefix(4).map { axis.text($0) }
      let shown = ps.joined(separator: " or ") + (idx.count > 4 ? " or … (\(idx.count) atoms)" : "")
      parts.append("\(k == 0 ? "source" : "destination") \(shown)")
    }
    for k in 0..<6 where c[k + 2].elements.count < ints[k].count {
      parts.append("\(names[k]) " + IntRanges(c[k + 2].elements.map { ints[k].range($0) }).description)
    }
    return parts.isEmpty ? "every packet" : parts.joined(separator: "; ")
  }
}

/// What a chain decides on a cube of header space.
struct SymbolicPiece: Sendable {
  var cube: [BitSet]
  var verdict: FilterVerdict
  var term: FilterTermRef?
  /// The deciding term's unmodelled conditions and actions, to tell two unmodelled terms apart.
  var unmodelled: [String]
}

extension HeaderSpace {
  /// The first-match partition of `region` by `chain`: disjoint cubes, each with the verdict
  /// and the deciding term, the rest to the implicit discard.
  func partition(_ chain: FilterChain, _ region: [BitSet]) -> [SymbolicPiece] {
    var rest: [[BitSet]] = Self.isEmpty(region) ? [] : [region]
    var out: [SymbolicPiece] = []
    for ct in chain.terms where !rest.isEmpty {
      let t = ct.term
      let verdict: FilterVerdict
      if t.isUnmodelled && (t.action != .nextTerm || !t.unmodelledActions.isEmpty) {
        verdict = .unmodelled
      } else {
        switch t.action {
        case .nextTerm: continue
        case .accept: verdict = .accept
        case .discard: verdict = .discard
        case .reject: verdict = .reject
        }
      }
      for d in cubes(t.match) {
        var next: [[BitSet]] = []
        for c in rest {
          let m = Self.intersect(c, d)
          if Self.isEmpty(m) {
            next.append(c)
            continue
          }
          out.append(SymbolicPiece(cube: m, verdict: verdict, term: ct.ref, unmodelled: t.match.unmodelled + t.unmodelledActions))
          next += Self.subtract(c, d)
        }
        rest = next
      }
    }
    out += rest.map { SymbolicPiece(cube: $0, verdict: .discard, term: nil, unmodelled: []) }
    return out
  }
}

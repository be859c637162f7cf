public import JunosConfig

/// Junos's names for numbers in filter match conditions (Junos firewall filter match
/// conditions for numbers and text aliases; sources in Docs/FilterSemantics.md).
enum FilterNames {
  static let ports: [String: Int] = [
    "afs": 1483, "bgp": 179, "biff": 512, "bootpc": 68, "bootps": 67, "cmd": 514, "cvspserver": 2401, "dhcp": 67, "domain": 53,
    "eklogin": 2105, "ekshell": 2106, "exec": 512, "finger": 79, "ftp": 21, "ftp-data": 20, "http": 80, "https": 443, "ident": 113,
    "imap": 143, "kerberos-sec": 88, "klogin": 543, "kpasswd": 761, "krb-prop": 754, "krbupdate": 760, "kshell": 544, "ldap": 389,
    "ldp": 646, "login": 513, "mobileip-agent": 434, "mobilip-mn": 435, "msdp": 639, "netbios-dgm": 138, "netbios-ns": 137,
    "netbios-ssn": 139, "netconf": 830, "nfsd": 2049, "nntp": 119, "ntalk": 518, "ntp": 123, "pop3": 110, "pptp": 1723,
    "printer": 515, "radacct": 1813, "radius": 1812, "rip": 520, "rkinit": 2108, "smtp": 25, "snmp": 161, "snmptrap": 162, "snmp-trap": 162,
    "snpp": 444, "socks": 1080, "ssh": 22, "sunrpc": 111, "syslog": 514, "tacacs": 49, "tacacs-ds": 65, "talk": 517, "telnet": 23,
    "tftp": 69, "timed": 525, "who": 513, "xdmcp": 177,
  ]

  static let protocols: [String: Int] = [
    "ah": 51, "dstopts": 60, "egp": 8, "esp": 50, "fragment": 44, "gre": 47, "hop-by-hop": 0, "icmp": 1, "icmp6": 58, "icmpv6": 58,
    "igmp": 2, "ipip": 4, "ipv6": 41, "no-next-header": 59, "ospf": 89, "pim": 103, "routing": 43, "rsvp": 46, "sctp": 132, "tcp": 6,
    "udp": 17, "vrrp": 112,
  ]

  static let icmpTypes: [String: Int] = [
    "echo-reply": 0, "unreachable": 3, "source-quench": 4, "redirect": 5, "echo-request": 8, "router-advertisement": 9,
    "router-solicit": 10, "time-exceeded": 11, "parameter-problem": 12, "timestamp": 13, "timestamp-reply": 14, "info-request": 15,
    "info-reply": 16, "mask-request": 17, "mask-reply": 18,
  ]

  static let icmp6Types: [String: Int] = [
    "destination-unreachable": 1, "packet-too-big": 2, "time-exceeded": 3, "parameter-problem": 4, "echo-request": 128,
    "echo-reply": 129, "membership-query": 130, "membership-report": 131, "membership-termination": 132, "router-solicit": 133,
    "router-advertisement": 134, "neighbor-solicit": 135, "neighbor-advertisement": 136, "redirect": 137,
  ]

  static let dscp: [String: Int] = {
    var d: [String: Int] = ["be": 0, "ef": 46]
    for c in 0...7 { d["cs\(c)"] = 8 * c }
    for x in 1...4 { for y in 1...3 { d["af\(x)\(y)"] = 8 * x + 2 * y } }
    return d
  }()

  /// TCP flag bits as Junos names them.
  static let tcpFlags: [String: Int] = ["fin": 0x01, "syn": 0x02, "rst": 0x04, "push": 0x08, "ack": 0x10, "urgent": 0x20]

  /// A value or range (`22`, `bgp`, `1024-65535`, `1024-bgp`) within `domain`.
  static func range(_ word: String, names: [String: Int], domain: ClosedRange<Int>) -> ClosedRange<Int>? {
    let bytes = Array(word.utf8)
    func one(_ s: ArraySlice<UInt8>) -> Int? {
      if !s.isEmpty, s.count <= 6, s.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
        let v = s.reduce(0) { $0 * 10 + Int($1 - 48) }
        return domain.contains(v) ? v : nil
      }
      return names[String(decoding: s, as: UTF8.self)]
    }
    if let v = one(bytes[...]) { return v...v }
    // Names hold dashes (`ftp-data`): split only where both sides read.
    for (k, b) in bytes.enumerated() where b == UInt8(ascii: "-") {
      if let lo = one(bytes[..<k]), let hi = one(bytes[(k + 1)...]), lo <= hi { return lo...hi }
    }
    return nil
  }

  /// The flag bytes (0…63) a `tcp-flags` expression matches: names, `!`, `&`, `|` (also `+`
  /// and `,` for or), parentheses; `nil` when it does not read.
  static func flagSet(_ text: String) -> IntRanges? {
    var tokens: [String] = []
    var cur: [UInt8] = []
    let separators = Array("()!&|+, ".utf8)
    for b in text.utf8 where b != UInt8(ascii: "\"") {
      if separators.contains(b) {
        if !cur.isEmpty { tokens.append(String(decoding: cur, as: UTF8.self)) }
        cur = []
        if b != UInt8(ascii: " ") { tokens.append(String(decoding: [b], as: UTF8.self)) }
      } else {
        cur.append(b)
      }
    }
    if !cur.isEmpty { tokens.append(String(decoding: cur, as: UTF8.self)) }
    var i = 0
    func expr() -> ((Int) -> Bool)? {
      guard var left = term() else { return nil }
      while i < tokens.count, ["|", "+", ","].contains(tokens[i]) {
        i += 1
        guard let right = term() else { return nil }
        let l = left
        left = { l($0) || right($0) }
      }
      return left
    }
    func term() -> ((Int) -> Bool)? {
      guard var left = factor() else { return nil }
      while i < tokens.count, tokens[i] == "&" {
        i += 1
        guard let right = factor() else { return nil }
        let l = left
        left = { l($0) && right($0) }
      }
      return left
    }
    func factor() -> ((Int) -> Bool)? {
      guard i < tokens.count else { return nil }
      let t = tokens[i]
      i += 1
      if t == "!" {
        guard let f = factor() else { return nil }
        return { !f($0) }
      }
      if t == "(" {
        guard let e = expr(), i < tokens.count, tokens[i] == ")" else { return nil }
        i += 1
        return e
      }
      guard let bit = tcpFlags[t] else { return nil }
      return { $0 & bit != 0 }
    }
    guard let f = expr(), i == tokens.count else { return nil }
    return IntRanges((0...63).filter(f).map { $0...$0 })
  }
}

extension FirewallConfig {
  /// Reads the filters and their attachments from an effective configuration; prefix lists
  /// (`apply-path` expanded over the same tree) come from `policy-options`.
  public init(tree t: ConfigTree) {
    filters = [:]
    attachments = []
    let root = ConfigTree.root
    var lists: [String: [IPPrefix]] = [:]
    if let po = t.first(root, "policy-options") {
      for pl in t.all(po, "prefix-list") where t.wordCount(of: pl) >= 2 {
        var entries: [IPPrefix] = []
        for c in t.children(of: pl) {
          if t.isKeyword(c, "apply-path"), t.wordCount(of: c) >= 2 {
            let path = t.text(1, of: c).split(separator: " ").map(String.init)
            entries += t.applyPathPrefixes(path).compactMap { IPPrefix($0) }
          } else if t.wordCount(of: c) >= 1, let p = IPPrefix(t.word(0, of: c)) {
            entries.append(p)
          }
        }
        lists[t.word(1, of: pl), default: []] += entries
      }
    }
    if let fw = t.first(root, "firewall") {
      for f in t.all(fw, "filter") where t.wordCount(of: f) >= 2 {
        let filter = Self.filter(t, f, family: "inet", lists: lists)
        filters["inet", default: [:]][filter.name] = filter
      }
      for fam in t.all(fw, "family") where t.wordCount(of: fam) >= 2 {
        let family = t.word(1, of: fam)
        for f in t.all(fam, "filter") where t.wordCount(of: f) >= 2 {
          let filter = Self.filter(t, f, family: family, lists: lists)
          filters[family, default: [:]][filter.name] = filter
        }
      }
    }
    if let ifs = t.first(root, "interfaces") {
      for i in t.children(of: ifs) where t.wordCount(of: i) == 1 {
        for u in t.all(i, "unit") where t.wordCount(of: u) >= 2 {
          let unit = "\(t.word(0, of: i)).\(t.word(1, of: u))"
          for fam in t.all(u, "family") where t.wordCount(of: fam) >= 2 {
            guard let fl = t.first(fam, "filter") else { continue }
            for (keyword, direction) in [("input", "input"), ("input-list", "input"), ("output", "output"), ("output-list", "output")] {
              let names = t.values(fl, keyword)
              if t.first(fl, keyword) != nil, !names.isEmpty {
                attachments.append(FilterAttachment(unit: unit, family: t.word(1, of: fam), direction: direction, filters: names))
              }
            }
          }
        }
      }
    }
  }

  static func filter(_ t: ConfigTree, _ node: NodeID, family: String, lists: [String: [IPPrefix]]) -> FirewallFilter {
    var terms: [FilterTerm] = []
    for term in t.all(node, "term") where t.wordCount(of: term) >= 2 {
      terms.append(Self.term(t, term, family: family, lists: lists))
    }
    return FirewallFilter(name: t.text(1, of: node), family: family, node: node, terms: terms)
  }

  /// The words of a condition: its own words after the keyword, its `[ ]` list, and its
  /// children's words (each child one value, `except` kept with it).
  static func entries(_ t: ConfigTree, _ c: NodeID) -> [[String]] {
    var out: [[String]] = []
    let n = t.wordCount(of: c)
    if n > 1 { out.append((1..<n).map { t.text($0, of: c) }) }
    if let list = t.listValues(of: c) { out += list.map { [$0] } }
    for k in t.children(of: c) where t.wordCount(of: k) >= 1 { out.append((0..<t.wordCount(of: k)).map { t.text($0, of: k) }) }
    return out
  }

  static let modifiers: Set<String> = [
    "count", "log", "syslog", "sample", "policer", "three-color-policer", "hierarchical-policer", "forwarding-class", "loss-priority",
    "dscp", "traffic-class", "port-mirror", "port-mirror-instance", "service-accounting", "packet-mode", "prefix-action",
    "load-balance-group", "dont-fragment",
  ]

  static func term(_ t: ConfigTree, _ node: NodeID, family: String, lists: [String: [IPPrefix]]) -> FilterTerm {
    var match = FilterMatch()
    let v6 = family == "inet6"
    func addresses(_ c: NodeID) -> [AddressEntry]? {
      var out: [AddressEntry] = []
      for e in entries(t, c) {
        guard let p = IPPrefix(e[0]) else { return nil }
        out.append(AddressEntry(p, except: e.count > 1 && e[1] == "except"))
      }
      return out
    }
    func prefixLists(_ c: NodeID) -> [AddressEntry]? {
      var out: [AddressEntry] = []
      for e in entries(t, c) {
        guard let ps = lists[e[0]] else { return nil }
        let except = e.count > 1 && e[1] == "except"
        out += ps.map { AddressEntry($0, except: except) }
      }
      return out
    }
    func ints(_ c: NodeID, _ names: [String: Int], _ domain: ClosedRange<Int>) -> IntRanges? {
      var rs: [ClosedRange<Int>] = []
      for e in entries(t, c) {
        for w in e {
          guard let r = FilterNames.range(w, names: names, domain: domain) else { return nil }
          rs.append(r)
        }
      }
      return rs.isEmpty ? nil : IntRanges(rs)
    }
    func and(_ a: IntRanges?, _ b: IntRanges) -> IntRanges { a.map { $0.intersection(b) } ?? b }
    if let from = t.first(node, "from") {
      for c in t.children(of: from) where t.wordCount(of: c) >= 1 {
        let k = t.word(0, of: c)
        let except = k.hasSuffix("-except")
        let base = except ? String(k.dropLast(7)) : k
        var ok = true
        switch base {
        case "source-address", "destination-address", "address", "source-prefix-list", "destination-prefix-list", "prefix-list":
          let list = base.hasSuffix("prefix-list") ? prefixLists(c) : addresses(c)
          if let a = list {
            if base.hasPrefix("source-") {
              match.source.append(a)
            } else if base.hasPrefix("destination-") {
              match.destination.append(a)
            } else {
              match.either.append(a)
            }
          } else {
            ok = false
          }
        case "protocol", "next-header", "payload-protocol":
          if let r = ints(c, FilterNames.protocols, 0...255) {
            match.protocols = and(match.protocols, except ? r.complement(in: 0...255) : r)
          } else {
            ok = false
          }
        case "source-port", "destination-port", "port":
          if let r = ints(c, FilterNames.ports, 0...65535) {
            if except {
              let notR = r.complement(in: 0...65535)
              if base != "destination-port" { match.sourcePorts = and(match.sourcePorts, notR) }
              if base != "source-port" { match.destinationPorts = and(match.destinationPorts, notR) }
            } else if base == "source-port" {
              match.sourcePorts = and(match.sourcePorts, r)
            } else if base == "destination-port" {
              match.destinationPorts = and(match.destinationPorts, r)
            } else {
              match.eitherPorts.append(r)
            }
          } else {
            ok = false
          }
        case "icmp-type", "icmp6-type":
          if let r = ints(c, v6 ? FilterNames.icmp6Types : FilterNames.icmpTypes, 0...255) {
            match.icmpTypes = and(match.icmpTypes, except ? r.complement(in: 0...255) : r)
          } else {
            ok = false
          }
        case "dscp", "traffic-class":
          if let r = ints(c, FilterNames.dscp, 0...63) {
            match.dscp = and(match.dscp, except ? r.complement(in: 0...63) : r)
          } else {
            ok = false
          }
        case "tcp-established":
          match.tcpFlags = and(match.tcpFlags, FilterNames.flagSet("ack | rst")!)
        case "tcp-initial":
          match.tcpFlags = and(match.tcpFlags, FilterNames.flagSet("syn & !ack")!)
        case "tcp-flags":
          if !except, t.wordCount(of: c) >= 2, let r = FilterNames.flagSet(t.text(1, of: c)) {
            match.tcpFlags = and(match.tcpFlags, r)
          } else {
            ok = false
          }
        default:
          ok = false
        }
        if !ok { match.unmodelled.append(t.words(of: c).joined(separator: " ")) }
      }
    }
    var action = FilterAction.accept
    var modifiers: [String] = []
    var unmodelledActions: [String] = []
    if let then = t.first(node, "then") {
      var items: [[String]] = []
      let n = t.wordCount(of: then)
      if n > 1 { items.append((1..<n).map { t.word($0, of: then) }) }
      for c in t.children(of: then) where t.wordCount(of: c) >= 1 { items.append(t.words(of: c)) }
      for words in items {
        switch words[0] {
        case "accept": action = .accept
        case "discard": action = .discard
        case "reject": action = .reject
        case "next" where words.count > 1 && words[1] == "term": action = .nextTerm
        case let k where Self.modifiers.contains(k): modifiers.append(words.joined(separator: " "))
        default: unmodelledActions.append(words.joined(separator: " "))
        }
      }
    }
    let nested = t.first(node, "filter").flatMap { t.wordCount(of: $0) >= 2 ? t.text(1, of: $0) : nil }
    return FilterTerm(
      name: t.text(1, of: node), node: node, match: match, action: action, modifiers: modifiers, unmodelledActions: unmodelledActions,
      nestedFilter: nested)
  }
}

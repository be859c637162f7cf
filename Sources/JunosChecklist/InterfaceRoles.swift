public import JunosConfig

/// What an interface is for, as the checklist classifies it (CHECKLIST.md §1.4).
public enum InterfaceRole: String, Sendable, Hashable {
  /// Gives the node reachability to the rest of the backbone.
  case core
  /// Attracts traffic from customers or the data-centre fabric.
  case client
  /// Management (fxp0, em0, members of `mgmt_junos`).
  case mgmt
  /// Explicitly ignored, or described as disabled/unused.
  case ignore
  /// `lo0`: never a link.
  case loopback
  /// No evidence, or conflicting evidence.
  case unknown

  /// Whether links of this role carry traffic (core or client).
  public var isDataPlane: Bool { self == .core || self == .client }
}

/// How roles are decided: explicit assignments and description patterns.
public struct RoleRules: Sendable {
  /// Explicit roles by physical interface name (plan `#@ role`, `--roles` file).
  public var explicit: [String: InterfaceRole]
  /// Description patterns, tried in order; matched case-insensitively at the description's start.
  public var patterns: [(role: InterfaceRole, pattern: String)]

  /// The catalogue's default description conventions.
  public static let defaultPatterns: [(role: InterfaceRole, pattern: String)] = [
    (.core, #"^(core|backbone|bb|transport)\b"#),
    (.client, #"^(client|customer|cust|dc|fabric|transit|peering)\b"#),
    (.ignore, #"^(disabled|unused)\b"#),
  ]

  /// Default rules with the given explicit roles.
  public init(explicit: [String: InterfaceRole] = [:], patterns: [(role: InterfaceRole, pattern: String)] = RoleRules.defaultPatterns) {
    self.explicit = explicit
    self.patterns = patterns
  }

  /// Reads a `--roles` file: lines `core|client|mgmt|ignore IFD…` assign roles, lines
  /// `pattern core|client|mgmt|ignore REGEX` add description patterns (tried before the
  /// defaults); `#` starts a comment.
  ///
  /// - Returns: The rules and a diagnostic per bad line.
  public static func parse(_ file: SourceFile) -> (RoleRules, [Diagnostic]) {
    var rules = RoleRules()
    var added: [(role: InterfaceRole, pattern: String)] = []
    var diagnostics: [Diagnostic] = []
    let starts = file.lineStarts
    for (i, start) in starts.enumerated() {
      let end = i + 1 < starts.count ? starts[i + 1] : file.bytes.count
      var line = String(decoding: file.bytes[start..<end], as: UTF8.self)
      if let hash = line.firstIndex(of: "#") { line = String(line[..<hash]) }
      // Split on scalars: a CR LF line end is one Character, which is neither "\r" nor "\n".
      let words = line.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map {
        String(String.UnicodeScalarView($0))
      }
      guard let first = words.first else { continue }
      if first == "pattern" {
        guard words.count >= 3, let role = InterfaceRole(rawValue: words[1]), role != .unknown, role != .loopback else {
          diagnostics.append(
            Diagnostic(.invalidChecklistInput, "expected 'pattern core|client|mgmt|ignore REGEX'", in: file, at: start..<end))
          continue
        }
        let pattern = words[2...].joined(separator: " ")
        if (try? Regex(pattern)) == nil {
          diagnostics.append(Diagnostic(.invalidChecklistInput, "not a regular expression: \(pattern)", in: file, at: start..<end))
          continue
        }
        added.append((role, pattern))
      } else if let role = InterfaceRole(rawValue: first), role != .unknown, role != .loopback, words.count >= 2 {
        for ifd in words.dropFirst() { rules.explicit[ifd] = role }
      } else {
        diagnostics.append(
          Diagnostic(.invalidChecklistInput, "expected 'core|client|mgmt|ignore IFD…' or 'pattern ROLE REGEX'", in: file, at: start..<end))
      }
    }
    rules.patterns = added + rules.patterns
    return (rules, diagnostics)
  }
}

/// The role of every physical interface of a configuration, with the evidence.
public struct InterfaceRoles: Sendable {
  /// Role by physical interface name.
  public private(set) var roles: [String: InterfaceRole] = [:]
  /// Why: `explicit`, `apply-macro`, `description "…"`, or the config evidence.
  public private(set) var evidence: [String: String] = [:]

  /// Classifies every interface of `model` (and every name in `rules.explicit`).
  public init(model: RouterModel, rules: RoleRules) {
    let compiled: [(InterfaceRole, Regex<AnyRegexOutput>)] = rules.patterns.compactMap { p in
      (try? Regex(p.pattern)).map { (p.role, $0.ignoresCase()) }
    }
    var core: [String: [String]] = [:]
    var client: [String: [String]] = [:]
    func note(_ map: inout [String: [String]], _ unit: String, _ why: String) {
      let ifd = RouterModel.split(unit).ifd
      if map[ifd]?.contains(why) != true { map[ifd, default: []].append(why) }
    }
    let localAS = model.autonomousSystem
    var ebgpNeighbors: [IPPrefix] = []
    for ri in model.instances {
      let clientInstance = ["vrf", "virtual-router", "vpls", "evpn", "l2vpn"].contains(ri.type ?? "")
      if clientInstance { for u in ri.interfaces { note(&client, u, "in \(ri.type ?? "") instance \(ri.name)") } }
      // The backbone's protocols run in the master instance (or a virtual router); an IGP inside a
      // VRF talks to a customer.
      let backbone = ri.name == "master" || ri.type == "virtual-router"
      for igp in ri.igps {
        for i in igp.interfaces where i.name != "all" && !i.disabled {
          if i.passive || !backbone {
            note(&client, i.name, "\(igp.protocolName) \(i.passive ? "passive" : "in \(ri.name)")")
          } else {
            note(&core, i.name, "in \(igp.protocolName)")
          }
        }
      }
      if backbone {
        for (u, _) in ri.ldpInterfaces where u != "all" { note(&core, u, "in ldp") }
        for (u, _) in ri.rsvpInterfaces where u != "all" { note(&core, u, "in rsvp") }
      }
      if let bgp = ri.bgp {
        for g in bgp.groups {
          for n in g.neighbors {
            let peerAS = n.peerAS ?? g.peerAS
            let external = g.type == "external" || (peerAS != nil && localAS != nil && peerAS != localAS)
            if external, let a = IPPrefix(n.address) { ebgpNeighbors.append(a) }
          }
        }
      }
    }
    // The first eBGP neighbor inside each subnet of the units' addresses, by subnet.
    var subnetLengths: [(family: IPPrefix.Family, length: Int)] = []
    for p in model.interfaces {
      for u in p.units {
        for a in u.addresses where a.length < (a.family == .inet ? 32 : 128) {
          if !subnetLengths.contains(where: { $0.family == a.family && $0.length == a.length }) {
            subnetLengths.append((a.family, a.length))
          }
        }
      }
    }
    var ebgpBySubnet: [PrefixIndex<String>.Key: IPPrefix] = [:]
    for n in ebgpNeighbors {
      for l in subnetLengths where l.family == n.family && l.length <= n.length {
        let key = PrefixIndex<String>.Key(n, length: l.length)
        if ebgpBySubnet[key] == nil { ebgpBySubnet[key] = n }
      }
    }
    for p in model.interfaces {
      for u in p.units {
        if u.families.contains(where: { $0 == "iso" || $0 == "mpls" }) { note(&core, u.name, "family iso/mpls") }
        if u.families.contains(where: { $0 == "ethernet-switching" || $0 == "bridge" }) { note(&client, u.name, "switching family") }
        for a in u.addresses where a.length < (a.family == .inet ? 32 : 128) {
          if let n = ebgpBySubnet[PrefixIndex<String>.Key(a, length: a.length)] {
            note(&client, u.name, "eBGP neighbor \(n.addressText) in its subnet")
          }
        }
      }
    }
    let mgmtMembers = Set(model.instances.first { $0.name == "mgmt_junos" }?.interfaces.map { RouterModel.split($0).ifd } ?? [])
    var names = model.interfaces.map(\.name)
    for n in rules.explicit.keys.sorted() where model.physical(n) == nil { names.append(n) }
    for name in names {
      let p = model.physical(name)
      if let r = rules.explicit[name] {
        set(name, r, "explicit role")
      } else if name == "lo0" || name.hasPrefix("lo0") {
        set(name, .loopback, "loopback")
      } else if name == "fxp0" || name == "em0" || name.hasPrefix("re0:mgmt") || name.hasPrefix("re1:mgmt") || mgmtMembers.contains(name) {
        set(name, .mgmt, "management interface")
      } else if let m = p?.macroRole, let r = InterfaceRole(rawValue: m) {
        set(name, r, "apply-macro checklist role \(m)")
      } else if let (r, d) = Self.byDescription(p, compiled) {
        set(name, r, "description \"\(d)\"")
      } else {
        func list(_ reasons: [String]) -> String {
          reasons.count <= 3
            ? reasons.joined(separator: ", ") : reasons.prefix(3).joined(separator: ", ") + " and \(reasons.count - 3) more"
        }
        let c = core[name] ?? []
        let k = client[name] ?? []
        if !c.isEmpty && k.isEmpty {
          set(name, .core, list(c))
        } else if !k.isEmpty && c.isEmpty {
          set(name, .client, list(k))
        } else if !c.isEmpty {
          set(name, .unknown, "conflicting evidence: core (\(list(c))), client (\(list(k)))")
        } else {
          set(name, .unknown, "no description, protocol or instance tells")
        }
      }
    }
    // Bundle members take their bundle's role unless given one explicitly.
    for p in model.interfaces {
      guard let b = p.bundle, rules.explicit[p.name] == nil, let r = roles[b], r != .unknown || roles[p.name] == .unknown else { continue }
      set(p.name, r, "member of \(b)")
    }
  }

  mutating func set(_ name: String, _ role: InterfaceRole, _ why: String) {
    roles[name] = role
    evidence[name] = why
  }

  static func byDescription(_ p: PhysicalInterface?, _ patterns: [(InterfaceRole, Regex<AnyRegexOutput>)]) -> (InterfaceRole, String)? {
    guard let p else { return nil }
    let descriptions = p.units.compactMap(\.description) + (p.description.map { [$0] } ?? [])
    for d in descriptions {
      for (role, re) in patterns where (try? re.prefixMatch(in: d)) != nil { return (role, d) }
    }
    return nil
  }

  /// The role of a physical interface or unit reference.
  public func role(of interface: String) -> InterfaceRole {
    roles[interface] ?? roles[RouterModel.split(interface).ifd] ?? .unknown
  }
}

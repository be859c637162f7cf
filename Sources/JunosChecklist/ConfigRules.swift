import JunosConfig

/// Rule 10: references to interfaces that are not configured.
struct ProtocolReferencesUndefinedInterface: Rule {
  var id: RuleID { .protocolReferencesUndefinedInterface }

  static func isPattern(_ name: String) -> Bool { name == "all" || name.contains("*") || name.contains("<") }

  func check(config c: ConfigContext) -> [Finding] {
    let t = c.tree
    var refs: [(String, NodeID, String)] = []
    for ri in c.model.instances {
      guard let protocols = t.first(ri.node, "protocols") else {
        for u in ri.interfaces where ri.name != "master" { refs.append((u, ri.node, "routing-instance \(ri.name)")) }
        continue
      }
      for proto in ["isis", "ospf", "ospf3", "ldp", "rsvp", "mpls", "pim", "bfd", "lldp", "router-advertisement"] {
        guard let p = t.first(protocols, proto) else { continue }
        let holders = (proto == "ospf" || proto == "ospf3") ? t.all(p, "area") : [p]
        for h in holders {
          for i in t.all(h, "interface") where t.wordCount(of: i) >= 2 { refs.append((t.word(1, of: i), i, proto)) }
        }
      }
      if ri.name != "master" {
        for i in t.all(ri.node, "interface") where t.wordCount(of: i) >= 2 {
          refs.append((t.word(1, of: i), i, "routing-instance \(ri.name)"))
        }
      }
    }
    var out: [Finding] = []
    for (name, node, owner) in refs where !Self.isPattern(name) {
      let (ifd, unit) = RouterModel.split(name)
      if ifd == "fxp0" || ifd == "em0" || ifd.hasPrefix("lo0") && c.model.physical(ifd) == nil && owner == "lldp" { continue }
      let ok = c.model.physical(ifd)?.units.contains { $0.name == "\(ifd).\(unit)" } ?? false
      if !ok {
        let what = c.model.physical(ifd) == nil ? "interface \(ifd) is not configured" : "\(ifd) has no unit \(unit)"
        out.append(c.finding(id, c.bringUp ? .error : .warning, "\(owner) refers to \(name), but \(what)", at: node))
      }
    }
    if let cos = t.first(ConfigTree.root, "class-of-service"), let ifs = t.first(cos, "interfaces") {
      for i in t.children(of: ifs) where t.wordCount(of: i) == 1 {
        let name = t.word(0, of: i)
        if Self.isPattern(name) || c.model.physical(name) != nil { continue }
        out.append(c.finding(id, c.bringUp ? .error : .warning, "class-of-service refers to \(name), but it is not configured", at: i))
      }
    }
    return out
  }
}

extension ProtocolReferencesUndefinedInterface {
  /// Plans with `#@ inventory`: interfaces the final configuration uses that the target chassis
  /// does not have.
  func check(plan r: PlanReplay) -> [Finding] {
    guard let inventory = r.inventory, let last = (r.states.last { $0.changed }) else { return [] }
    let logical = [
      "lo", "ae", "irb", "vlan", "fxp", "em", "me", "reth", "st", "gr-", "ip-", "lt-", "vt-", "pp", "dsc", "tap", "gre", "ipip", "mt-",
      "lsi",
    ]
    var out: [Finding] = []
    for p in last.after.model.interfaces where !inventory.contains(p.name) && !logical.contains(where: { p.name.hasPrefix($0) }) {
      out.append(
        Finding(
          rule: id, severity: .error, message: "interface \(p.name) is configured but the target chassis has no such port (#@ inventory)",
          location: last.after.location(of: p.node), step: last.step.id, path: "interfaces \(p.name)"))
    }
    return out
  }
}

/// Rule 11: core interface in IGP and LDP without synchronisation.
struct LDPIGPSyncMissing: Rule {
  var id: RuleID { .ldpIGPSyncMissing }

  func check(config c: ConfigContext) -> [Finding] {
    var out: [Finding] = []
    for ri in c.model.instances {
      let ldp = Set(ri.ldpInterfaces.map(\.name))
      guard !ldp.isEmpty else { continue }
      for igp in ri.igps where igp.protocolName != "ospf3" {
        for i in igp.interfaces where !i.passive && !i.disabled && !i.ldpSynchronization && i.name != "all" {
          guard ldp.contains(i.name) || ldp.contains("all") || ldp.contains(RouterModel.split(i.name).ifd) else { continue }
          guard c.roles.role(of: i.name) == .core else { continue }
          out.append(c.finding(id, nil, "\(i.name) runs \(igp.protocolName) and LDP without ldp-synchronization", at: i.node))
        }
      }
    }
    return out
  }
}

/// Rule 12: core link on default schedulers.
struct CoreLinkWithoutCoS: Rule {
  var id: RuleID { .coreLinkWithoutCoS }

  static func matches(_ pattern: String, _ name: String) -> Bool {
    guard pattern.contains("*") else { return pattern == name }
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
    guard let first = parts.first, name.hasPrefix(first) else { return false }
    var rest = name.dropFirst(first.count)
    for p in parts.dropFirst() where !p.isEmpty {
      guard let r = rest.firstRange(of: p) else { return false }
      rest = rest[r.upperBound...]
    }
    return parts.last!.isEmpty || name.hasSuffix(parts.last!)
  }

  /// The `class-of-service interfaces` entries by name, and those with `*` patterns.
  struct Entries {
    var byName: [String: [NodeID]] = [:]
    var patterns: [(name: String, node: NodeID)] = []

    init(_ model: RouterModel) {
      for e in model.cosInterfaces {
        if e.name.utf8.contains(UInt8(ascii: "*")) { patterns.append(e) } else { byName[e.name, default: []].append(e.node) }
      }
    }

    /// The entries that apply to `ifd`.
    func nodes(for ifd: String) -> [NodeID] {
      (byName[ifd] ?? []) + patterns.filter { CoreLinkWithoutCoS.matches($0.name, ifd) }.map(\.node)
    }
  }

  /// Why a core interface lacks CoS, or nil when it has a scheduler and classifiers.
  static func missing(_ c: ConfigContext, _ ifd: String, _ index: Entries? = nil) -> String? {
    let t = c.tree
    let entries = (index ?? Entries(c.model)).nodes(for: ifd)
    guard !entries.isEmpty else { return "no class-of-service interfaces entry" }
    let scheduler = entries.contains {
      t.first($0, "scheduler-map") != nil || t.first($0, "output-traffic-control-profile") != nil
    }
    var classifiers = false
    for e in entries {
      if t.first(e, "classifiers") != nil { classifiers = true }
      for u in t.all(e, "unit") where t.first(u, "classifiers") != nil { classifiers = true }
    }
    if !scheduler && !classifiers { return "no scheduler-map and no classifiers" }
    if !scheduler { return "no scheduler-map or output-traffic-control-profile" }
    if !classifiers { return "no classifiers" }
    return nil
  }

  func check(config c: ConfigContext) -> [Finding] {
    let index = Entries(c.model)
    return c.model.interfaces.compactMap { p in
      guard p.bundle == nil, c.roles.role(of: p.name) == .core, let why = Self.missing(c, p.name, index) else { return nil }
      return c.finding(id, nil, "core interface \(p.name) runs on the default schedulers: \(why)", at: p.node)
    }
  }
}

/// Rule 18: a term that accepts everything.
struct MatchAllAcceptTerm: Rule {
  var id: RuleID { .matchAllAcceptTerm }

  func check(config c: ConfigContext) -> [Finding] {
    var worst: [String: (Severity, AppliedChain, PolicyTerm)] = [:]
    var order: [String] = []
    for ch in c.appliedChains() {
      // The forwarding table decides nothing about routes' spread (per-packet load balancing).
      if ch.use == .forwardingTable { continue }
      let anded = Self.andOperands(ch.chain)
      for name in policyNames(ch.chain) {
        guard let p = c.model.policy.policies[name] else { continue }
        // `( A && ACCEPT-ALL )`: a policy that accepts everything leaves the decision to A.
        if anded.contains(name), p.terms.allSatisfy({ !$0.hasMatchConditions && $0.then.terminal == .accept }) { continue }
        for (k, t) in p.terms.enumerated() where !t.hasMatchConditions && t.then.terminal == .accept {
          // `then { next-hop self; accept; }` toward iBGP: the usual last term of a PE's export.
          if case .bgpExport(_, false) = ch.use, t.then.modifications == ["next-hop self"] { continue }
          let sev: Severity
          switch ch.use {
          case .igpExport: sev = ch.instance == "master" ? .error : .warning
          case .bgpExport(_, let ext):
            // A final accept after terms that reject something is the usual export pattern; it
            // still deserves a look toward eBGP.
            let filtered = p.terms[..<k].contains { $0.then.terminal == .reject && $0.hasMatchConditions }
            sev = ext ? (filtered ? .warning : .error) : .info
          case .bgpImport(_, let ext):
            let filtered = p.terms[..<k].contains { $0.then.terminal == .reject && $0.hasMatchConditions }
            sev = ext && !filtered ? .warning : .info
          default: sev = .info
          }
          let key = "\(name)\u{1}\(t.name)"
          if let w = worst[key] {
            if sev > w.0 { worst[key] = (sev, ch, t) }
          } else {
            worst[key] = (sev, ch, t)
            order.append(key)
          }
        }
      }
    }
    return order.map { key in
      let (sev, ch, t) = worst[key]!
      let policy = key.split(separator: "\u{1}", omittingEmptySubsequences: false)[0]
      let term = t.name.isEmpty ? "policy \(policy)" : "policy \(policy) term \(t.name)"
      return c.finding(id, sev, "\(term) has no match conditions and accepts every route; it is applied as \(ch.describe)", at: t.node)
    }
  }
}

extension MatchAllAcceptTerm {
  /// The policies that are operands of an `&&` of a policy expression (`export ( A && B )`).
  static func andOperands(_ chain: [String]) -> Set<String> {
    var out: Set<String> = []
    func walk(_ e: PolicyExpression) {
      switch e {
      case .and(let a, let b):
        for x in [a, b] {
          if case .policy(let p) = x { out.insert(p) }
          walk(x)
        }
      case .or(let a, let b):
        walk(a)
        walk(b)
      case .not(let x): walk(x)
      case .policy: break
      }
    }
    for case .expression(let e) in parsePolicyChain(chain) ?? [] { walk(e) }
    return out
  }
}

/// Rule 19: BGP sessions without import/export policy.
struct BGPSessionWithoutPolicy: Rule {
  var id: RuleID { .bgpSessionWithoutPolicy }

  func check(config c: ConfigContext) -> [Finding] {
    var out: [Finding] = []
    for ri in c.model.instances {
      guard let bgp = ri.bgp else { continue }
      for g in bgp.groups {
        let ext = c.isExternal(g, in: ri)
        // Peers by what they lack, in order of first appearance.
        var missing: [(what: String, peers: [String])] = []
        let members: [BGPNeighbor?] = g.neighbors.isEmpty ? (g.allow.isEmpty ? [] : [nil]) : g.neighbors
        for n in members {
          var what: [String] = []
          // Inside the AS the default import (accept what the peers send) is the usual design.
          if ext && (n?.importChain ?? g.importChain ?? bgp.importChain)?.isEmpty ?? true { what.append("import") }
          if (n?.exportChain ?? g.exportChain ?? bgp.exportChain)?.isEmpty ?? true { what.append("export") }
          guard !what.isEmpty else { continue }
          let key = what.joined(separator: " or ")
          let peer = n?.address ?? "dynamic peers"
          if let k = missing.firstIndex(where: { $0.what == key }) { missing[k].peers.append(peer) } else { missing.append((key, [peer])) }
        }
        guard !missing.isEmpty else { continue }
        let parts = missing.map { "\($0.peers.joined(separator: ", ")) \($0.peers.count == 1 ? "has" : "have") no \($0.what) policy" }
        let message: String
        let sev: Severity
        if ext {
          sev = bgp.ebgpNoPolicyDefault ? .warning : .error
          message = "eBGP group \(g.name)\(ri.suffix): \(parts.joined(separator: "; ")) (none at neighbor, group or protocol level)"
        } else {
          sev = .info
          message =
            "iBGP group \(g.name)\(ri.suffix): \(parts.joined(separator: "; ")) (none at neighbor, group or protocol level): the default advertises only the BGP routes"
        }
        out.append(c.finding(id, sev, message, at: g.node))
      }
    }
    return out
  }
}

/// Rule 21: IGP export admits BGP routes.
struct IGPExportAdmitsBGP: Rule {
  var id: RuleID { .igpExportAdmitsBGP }

  func check(config c: ConfigContext) -> [Finding] {
    var out: [Finding] = []
    for ch in c.appliedChains() {
      // The core IGP: redistributing BGP into a routing instance's IGP toward a CE is L3VPN practice.
      guard case .igpExport(let proto) = ch.use, ch.instance == "master" else { continue }
      for any in ["0.0.0.0/0", "::/0"] {
        let q = RouteQuery(protocolName: "bgp", prefix: IPPrefix(any), orLonger: true)
        switch c.model.policy.evaluate(chain: ch.chain, q) {
        case .accepted(let t):
          out.append(c.finding(id, .error, "\(proto) export accepts every BGP route (\(termLabel(t.policy, t.term)))", at: ch.node))
        case .mayBeAccepted(let t):
          // A community condition restricts the BGP routes to those tagged for redistribution.
          if let term = c.model.policy.policies[t.policy]?.term(t.term), term.from.routeFilters.isEmpty, term.from.prefixLists.isEmpty,
            term.from.prefixListFilters.isEmpty, term.from.routeFilterLists.isEmpty, term.from.communities.isEmpty
          {
            out.append(
              c.finding(
                id, .error, "\(proto) export can redistribute BGP routes with no prefix restriction (\(termLabel(t.policy, t.term)))",
                at: ch.node))
          }
        default: break
        }
        if !out.isEmpty, out.last!.location == c.location(of: ch.node) { break }
      }
    }
    return out
  }
}

/// Rule 22: eBGP sessions without a prefix limit.
struct BGPMissingPrefixLimit: Rule {
  var id: RuleID { .bgpMissingPrefixLimit }

  func check(config c: ConfigContext) -> [Finding] {
    var out: [Finding] = []
    for ri in c.model.instances {
      guard let bgp = ri.bgp else { continue }
      for g in bgp.groups where c.isExternal(g, in: ri) && !bgp.prefixLimit && !g.prefixLimit {
        let bare = g.neighbors.filter { !$0.prefixLimit }.map(\.address)
        guard !bare.isEmpty || g.neighbors.isEmpty else { continue }
        var f = c.finding(
          id, nil,
          "eBGP group \(g.name)\(ri.suffix) has no prefix-limit (neighbors: \(bare.isEmpty ? "dynamic" : bare.joined(separator: ", ")))",
          at: g.node)
        let families = Self.families(c, g, bgp).map { "`family \($0) prefix-limit maximum N`" }
        f.hint = "Add \(families.joined(separator: " and ")) (with `teardown`) to the group or neighbor."
        out.append(f)
      }
    }
    return out
  }
}

extension BGPMissingPrefixLimit {
  /// The families a prefix limit belongs under, as `inet6 unicast`: those configured at the group
  /// (else the protocol), each with its first sub-family; else `inet unicast` and/or `inet6
  /// unicast` by the neighbors' addresses.
  static func families(_ c: ConfigContext, _ g: BGPGroup, _ bgp: BGPConfig) -> [String] {
    let t = c.tree
    var out: [String] = []
    for holder in [g.node, bgp.node] where out.isEmpty {
      for f in t.all(holder, "family") where t.wordCount(of: f) >= 2 {
        let sub = t.firstChild(of: f).map { t.word(0, of: $0) } ?? (t.wordCount(of: f) > 2 ? t.word(2, of: f) : "unicast")
        let name = "\(t.word(1, of: f)) \(sub)"
        if !out.contains(name) { out.append(name) }
      }
    }
    if out.isEmpty {
      let v6 = g.neighbors.contains { $0.address.contains(":") }
      let v4 = g.neighbors.isEmpty || g.neighbors.contains { !$0.address.contains(":") }
      if v4 { out.append("inet unicast") }
      if v6 { out.append("inet6 unicast") }
    }
    return out
  }
}

/// Rule 27: core IGP interface without BFD.
struct CoreLinkWithoutBFD: Rule {
  var id: RuleID { .coreLinkWithoutBFD }

  func check(config c: ConfigContext) -> [Finding] {
    var out: [Finding] = []
    for ri in c.model.instances {
      for igp in ri.igps {
        for i in igp.interfaces where !i.passive && !i.disabled && !i.bfd && i.name != "all" && c.roles.role(of: i.name) == .core {
          out.append(c.finding(id, nil, "core interface \(i.name) is in \(igp.protocolName) without bfd-liveness-detection", at: i.node))
        }
      }
    }
    return out
  }
}

/// Rule 28: broad local flow routes.
struct FlowspecRouteOverbroad: Rule {
  var id: RuleID { .flowspecRouteOverbroad }

  func check(config c: ConfigContext) -> [Finding] {
    let t = c.tree
    var infrastructure: [IPPrefix] = []
    for p in c.model.interfaces where p.name.hasPrefix("lo0") || c.roles.role(of: p.name) == .core {
      for u in p.units { infrastructure += u.addresses }
    }
    var out: [Finding] = []
    for ri in c.model.instances {
      for r in ri.flowRoutes {
        guard let then = t.first(r, "then"), t.has(then, "discard") || t.first(then, "rate-limit") != nil else { continue }
        let match = t.first(r, "match")
        let dst = match.flatMap { t.value($0, "destination") }.flatMap { IPPrefix($0) }
        let proto = match.flatMap { t.value($0, "protocol") }
        let ports = match.map { t.values($0, "port") + t.values($0, "destination-port") } ?? []
        let name = t.wordCount(of: r) > 1 ? t.word(1, of: r) : "?"
        let hitsBGP = (proto == nil || proto == "tcp") && (ports.contains("179") || ports.contains("bgp"))
        let covers = dst.map { d in infrastructure.contains { d.contains($0.network) || d.contains($0) } } ?? !infrastructure.isEmpty
        if dst == nil {
          out.append(
            c.finding(
              id, hitsBGP || covers ? .error : .warning,
              "flow route \(name) discards or rate-limits with no destination: it matches every destination", at: r))
        } else if let d = dst, d.length < (d.family == .inet ? 24 : 48) || covers || hitsBGP {
          let why =
            covers
            ? "it covers the router's own loopback or core addresses"
            : hitsBGP ? "it matches BGP (TCP/179)" : "/\(d.length) is broader than /\(d.family == .inet ? 24 : 48)"
          out.append(c.finding(id, covers || hitsBGP ? .error : .warning, "flow route \(name) matches destination \(d): \(why)", at: r))
        }
      }
    }
    return out
  }
}

/// Rule 9 on a configuration: conflicting evidence about an interface's role.
struct InterfaceRoleUnclassified: Rule {
  var id: RuleID { .interfaceRoleUnclassified }

  func check(config c: ConfigContext) -> [Finding] {
    c.model.interfaces.compactMap { p in
      guard c.roles.role(of: p.name) == .unknown, let why = c.roles.evidence[p.name], why.hasPrefix("conflicting") else { return nil }
      return c.finding(id, nil, "interface \(p.name) cannot be classified as core or client: \(why)", at: p.node)
    }
  }
}

/// Rule 7 on a configuration: costed out in the IGP, still exporting to clients over BGP.
struct CostedOutNodeStillAttractsViaBGP: Rule {
  var id: RuleID { .costedOutNodeStillAttractsViaBGP }

  /// Client/eBGP groups that export something and run over an interface that is not disabled
  /// (and, when `live` is given, is live).
  static func attracting(_ c: ConfigContext, live: Set<String>?) -> [(BGPGroup, String)] {
    var out: [(BGPGroup, String)] = []
    for ri in c.model.instances {
      guard let bgp = ri.bgp else { continue }
      for g in bgp.groups where c.isExternal(g, in: ri) {
        let chain = g.exportChain ?? bgp.exportChain ?? []
        let exports: Bool
        if chain.isEmpty {
          exports = true
        } else {
          switch c.model.policy.evaluate(chain: chain, RouteQuery()) {
          case .accepted, .mayBeAccepted: exports = true
          default: exports = false
          }
        }
        guard exports else { continue }
        for n in g.neighbors {
          guard let u = c.interfaceFacing(n.address), let (p, unit) = c.model.unit(u), !p.disabled, !unit.disabled else { continue }
          if let live, !live.contains(p.name) { continue }
          out.append((g, p.name))
          break
        }
      }
    }
    return out
  }

  func check(config c: ConfigContext) -> [Finding] {
    let cost = CostOut(c)
    guard cost.viaIGP else { return [] }
    return Self.attracting(c, live: nil).map { g, ifd in
      c.finding(id, nil, "the node is costed out by \(cost.describe), but group \(g.name) still exports routes over \(ifd)", at: g.node)
    }
  }
}

import JunosConfig

extension ConfigContext {
  /// Policies applied anywhere, with the uses of each.
  func policyUses() -> [String: [AppliedChain]] {
    var out: [String: [AppliedChain]] = [:]
    for ch in appliedChains() { for p in policyNames(ch.chain) { out[p, default: []].append(ch) } }
    return out
  }

  /// Raw attachment points of policies: where a chain is written, keyed for comparison.
  func attachments() -> [(key: String, path: [String], chain: [String], severe: Bool)] {
    var out: [(String, [String], [String], Bool)] = []
    for ri in model.instances {
      let base: [String] = ri.name == "master" ? [] : ["routing-instances", ri.name]
      for igp in ri.igps where !igp.export.isEmpty {
        out.append(("\(ri.name) \(igp.protocolName) export", base + ["protocols", igp.protocolName, "export"], igp.export, true))
      }
      if !ri.vrfImport.isEmpty { out.append(("\(ri.name) vrf-import", base + ["vrf-import"], ri.vrfImport, true)) }
      if !ri.vrfExport.isEmpty { out.append(("\(ri.name) vrf-export", base + ["vrf-export"], ri.vrfExport, true)) }
      if !ri.forwardingTableExport.isEmpty {
        out.append(
          ("\(ri.name) forwarding-table export", base + ["routing-options", "forwarding-table", "export"], ri.forwardingTableExport, false))
      }
      for a in ri.aggregates {
        if let p = a.policy {
          out.append(
            (
              "\(ri.name) \(a.kind) route \(a.prefix) policy", base + ["routing-options", a.kind, "route", "\(a.prefix)", "policy"], [p],
              true
            ))
        }
      }
      guard let bgp = ri.bgp else { continue }
      let b = base + ["protocols", "bgp"]
      for (kw, chain) in [("import", bgp.importChain), ("export", bgp.exportChain)] {
        if let chain, !chain.isEmpty { out.append(("\(ri.name) bgp \(kw)", b + [kw], chain, true)) }
      }
      for g in bgp.groups {
        let ext = isExternal(g, in: ri)
        for (kw, chain) in [("import", g.importChain), ("export", g.exportChain)] {
          if let chain, !chain.isEmpty { out.append(("\(ri.name) bgp group \(g.name) \(kw)", b + ["group", g.name, kw], chain, ext)) }
        }
        for n in g.neighbors {
          for (kw, chain) in [("import", n.importChain), ("export", n.exportChain)] {
            if let chain, !chain.isEmpty {
              out.append(
                (
                  "\(ri.name) bgp group \(g.name) neighbor \(n.address) \(kw)", b + ["group", g.name, "neighbor", n.address, kw], chain, ext
                ))
            }
          }
        }
      }
    }
    return out
  }
}

func termPath(_ policy: String, _ term: String) -> [String] {
  term.isEmpty ? ["policy-options", "policy-statement", policy] : ["policy-options", "policy-statement", policy, "term", term]
}

func termLabel(_ policy: String, _ term: String) -> String {
  term.isEmpty ? "policy \(policy)" : "policy \(policy) term \(term)"
}

extension ChangeContext {
  /// A finding of a rule that reads the change's text, with what the semantic comparison says:
  /// an example route decided differently, or, when none is, the severity lowered to info.
  func policyFinding(_ rule: RuleID, _ severity: Severity, _ message: String, policy: String, term: String, path: [String]) -> Finding {
    guard let effect = semanticEffect(ofPolicy: policy, term: term) else { return finding(rule, severity, message, path: path) }
    return finding(rule, effect.changed ? severity : .info, message + effect.note, path: path)
  }
}

/// Whether a use of a policy is one where losing a guard is an error (IGP export, eBGP, VRF).
func severeUse(_ uses: [AppliedChain]) -> Bool {
  uses.contains {
    switch $0.use {
    case .igpExport, .vrfExport, .vrfImport, .contributor: true
    case .bgpExport(_, let ext), .bgpImport(_, let ext): ext
    case .forwardingTable: false
    }
  }
}

/// Rule 15: a term keeps accepting but loses its match conditions.
struct TermMatchConditionsRemoved: Rule {
  var id: RuleID { .termMatchConditionsRemoved }

  func check(change d: ChangeContext) -> [Finding] {
    var out: [Finding] = []
    let uses = d.after.policyUses()
    for (name, chains) in uses.sorted(by: { $0.key < $1.key }) {
      guard let old = d.before.model.policy.policies[name], let new = d.after.model.policy.policies[name] else { continue }
      for t in new.terms {
        guard let was = old.term(t.name), was.hasMatchConditions else { continue }
        let accepts = t.then.terminal == .accept || (t.then.terminal == nil && t.then.modifiesRoute)
        guard accepts else { continue }
        let use = chains.map(\.describe).joined(separator: ", ")
        if !t.hasMatchConditions {
          let lost = (was.from.keywords + was.to.keywords).joined(separator: ", ")
          let action = t.then.terminal == .accept ? "accepts" : "modifies"
          out.append(
            d.policyFinding(
              id, .error,
              "\(termLabel(name, t.name)) lost its match conditions (\(lost)) and now \(action) every route; it is applied as \(use)",
              policy: name, term: t.name, path: termPath(name, t.name) + ["from"]))
        } else {
          let before = Self.counts(was)
          let after = Self.counts(t)
          let widened = before.keys.filter { (after[$0] ?? 0) < before[$0]! }.sorted()
          if !widened.isEmpty {
            out.append(
              d.policyFinding(
                id, .warning,
                "\(termLabel(name, t.name)) lost match conditions (\(widened.joined(separator: ", "))) and still accepts: its match is wider",
                policy: name, term: t.name, path: termPath(name, t.name) + ["from"]))
          }
        }
      }
    }
    return out
  }

  static func counts(_ t: PolicyTerm) -> [String: Int] {
    var c: [String: Int] = [:]
    for m in [t.from, t.to] {
      c["prefix-list", default: 0] += m.prefixLists.count + m.prefixListFilters.count
      c["route-filter", default: 0] += m.routeFilters.count + m.routeFilterLists.count
      c["community", default: 0] += m.communities.count
      c["as-path", default: 0] += m.asPaths.count
      c["neighbor", default: 0] += m.neighbors.count
      c["protocol", default: 0] += m.protocols.count
    }
    return c.filter { $0.value > 0 }
  }
}

/// Rule 16: a reject term leaves an applied policy.
struct GuardTermRemoved: Rule {
  var id: RuleID { .guardTermRemoved }

  func check(change d: ChangeContext) -> [Finding] {
    var out: [Finding] = []
    for (name, chains) in d.after.policyUses().sorted(by: { $0.key < $1.key }) {
      guard let old = d.before.model.policy.policies[name], let new = d.after.model.policy.policies[name] else { continue }
      let sev: Severity = severeUse(chains) ? .error : .warning
      let chainNext = Self.fallThrough(name, chains)
      for (k, t) in old.terms.enumerated() where t.then.terminal == .reject {
        let later = old.terms[(k + 1)...].map(\.name).filter { new.term($0) != nil }
        let next =
          later.isEmpty ? chainNext : "term\(later.count == 1 ? "" : "s") \(later.joined(separator: ", ")) of \(name), then \(chainNext)"
        let what: String
        if let now = new.term(t.name) {
          guard now.then.terminal != .reject else { continue }
          what = "no longer rejects (then \(now.then.terminal?.rawValue ?? "no action"))"
        } else {
          what = "was removed"
        }
        let guardKind = t.hasMatchConditions ? "reject term" : "final catch-all reject term"
        out.append(
          d.policyFinding(
            id, sev,
            "\(guardKind) \(t.name.isEmpty ? "" : "\(t.name) ")of policy \(name) \(what); routes it rejected now fall through to \(next)",
            policy: name, term: t.name, path: termPath(name, t.name)))
      }
    }
    return out
  }

  static func fallThrough(_ name: String, _ chains: [AppliedChain]) -> String {
    guard let ch = chains.first else { return "the default policy" }
    if let elements = parsePolicyChain(ch.chain), let k = elements.firstIndex(where: { $0.policies.contains(name) }), k + 1 < elements.count
    {
      let next = elements[k + 1]
      return "\(next.isExpression ? "the expression" : "policy") \(next) (\(ch.describe))"
    }
    switch ch.use {
    case .bgpExport: return "the BGP default export (active BGP routes are advertised)"
    case .bgpImport: return "the BGP default import (everything is accepted)"
    case .igpExport: return "the IGP default (no external routes)"
    default: return "the default policy of \(ch.describe)"
    }
  }
}

/// Rule 17: term order of an applied policy changes.
struct PolicyTermReordered: Rule {
  var id: RuleID { .policyTermReordered }

  static func terminalCatchAll(_ t: PolicyTerm) -> Bool {
    !t.hasMatchConditions && (t.then.terminal == .accept || t.then.terminal == .reject)
  }

  static func overlap(_ a: PolicyTerm, _ b: PolicyTerm) -> Bool {
    if !a.hasMatchConditions || !b.hasMatchConditions { return true }
    let pa = Set(a.from.protocols)
    let pb = Set(b.from.protocols)
    if !pa.isEmpty && !pb.isEmpty && pa.isDisjoint(with: pb) { return false }
    let fa = a.from.routeFilters.map(\.prefix)
    let fb = b.from.routeFilters.map(\.prefix)
    if !fa.isEmpty && !fb.isEmpty { return fa.contains { x in fb.contains { x.overlaps($0) } } }
    return true
  }

  func check(change d: ChangeContext) -> [Finding] {
    var out: [Finding] = []
    for (name, _) in d.after.policyUses().sorted(by: { $0.key < $1.key }) {
      guard let old = d.before.model.policy.policies[name], let new = d.after.model.policy.policies[name] else { continue }
      let oldIndex = Dictionary(old.terms.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
      // Terms now behind a catch-all terminal term that were not behind it before (or are new).
      if let k = new.terms.firstIndex(where: Self.terminalCatchAll) {
        let wall = new.terms[k]
        let wallBefore = oldIndex[wall.name]
        var hidden: [String] = []
        for t in new.terms[(k + 1)...] {
          if let i = oldIndex[t.name], let w = wallBefore, i > w { continue }
          hidden.append(t.name)
        }
        if !hidden.isEmpty {
          let action = wall.then.terminal?.rawValue ?? ""
          out.append(
            d.policyFinding(
              id, .error,
              "policy \(name): term\(hidden.count == 1 ? "" : "s") \(hidden.joined(separator: ", ")) now come\(hidden.count == 1 ? "s" : "") after term \(wall.name) (then \(action), no match conditions) and can never match",
              policy: name, term: hidden[0], path: termPath(name, hidden[0])))
          continue
        }
      }
      let common = new.terms.map(\.name).filter { oldIndex[$0] != nil }
      let oldOrder = old.terms.map(\.name).filter { n in new.term(n) != nil }
      guard common != oldOrder else { continue }
      var severe: [(String, String)] = []
      var moved: Set<String> = []
      for (i, a) in common.enumerated() {
        for b in common[(i + 1)...] where oldIndex[a]! > oldIndex[b]! {
          moved.insert(a)
          moved.insert(b)
          let ta = new.term(a)!
          let tb = new.term(b)!
          if ta.then.terminal != tb.then.terminal && Self.overlap(ta, tb) { severe.append((b, a)) }
        }
      }
      let first = common.first { moved.contains($0) } ?? common[0]
      if let (b, a) = severe.first {
        out.append(
          d.policyFinding(
            id, .error, "policy \(name): terms \(b) and \(a) swapped order; they overlap and take different actions, so routes change fate",
            policy: name, term: b, path: termPath(name, first)))
      } else {
        out.append(
          d.policyFinding(
            id, .warning, "policy \(name): term order changed (\(oldOrder.joined(separator: ", ")) → \(common.joined(separator: ", ")))",
            policy: name, term: first, path: termPath(name, first)))
      }
    }
    return out
  }
}

/// Rule 20: a policy reference is removed.
struct PolicyDetached: Rule {
  var id: RuleID { .policyDetached }

  func check(change d: ChangeContext) -> [Finding] {
    let after = Dictionary(d.after.attachments().map { ($0.key, $0.chain) }, uniquingKeysWith: { a, _ in a })
    var out: [Finding] = []
    for a in d.before.attachments() {
      let chainNow = after[a.key] ?? []
      let (was, now) = (policyNames(a.chain), policyNames(chainNow))
      guard was.contains(where: { !now.contains($0) }) else { continue }
      // A group, neighbor, protocol or route removed as a whole is not a detached policy (rules
      // 23 and 25 look at those).
      guard d.after.tree.descendWords(Array(a.path.dropLast())) != nil else { continue }
      for p in was where !now.contains(p) {
        let policy = d.before.model.policy.policies[p]
        let rejects = policy?.terms.filter { $0.then.terminal == .reject } ?? []
        var sev: Severity = (!rejects.isEmpty || was.count == 1) ? .error : .warning
        var replacement = ""
        for q in now where !was.contains(q) {
          if let qp = d.after.model.policy.policies[q], Self.sameGuards(rejects, qp.terms.filter { $0.then.terminal == .reject }) {
            sev = .info
            replacement = "; its replacement \(q) keeps the same reject terms"
          }
        }
        let fallback =
          now.isEmpty ? "nothing is applied there now (the default policy)" : "the chain is now [ \(chainNow.joined(separator: " ")) ]"
        let what = rejects.isEmpty ? "" : " (it had \(rejects.count) reject term\(rejects.count == 1 ? "" : "s"))"
        out.append(d.finding(id, sev, "policy \(p)\(what) is no longer applied at \(a.key): \(fallback)\(replacement)", path: a.path))
      }
    }
    return out
  }

  static func sameGuards(_ a: [PolicyTerm], _ b: [PolicyTerm]) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
      if x.from.protocols != y.from.protocols || x.from.routeFilters != y.from.routeFilters || x.from.prefixLists != y.from.prefixLists {
        return false
      }
    }
    return true
  }
}

/// Rule 23: one change takes down all or most core connectivity of a node in service.
struct BulkCoreIsolation: Rule {
  var id: RuleID { .bulkCoreIsolation }

  static func enabled(_ c: ConfigContext, _ role: InterfaceRole) -> [String] {
    c.model.interfaces.filter { p in
      c.roles.role(of: p.name) == role && !p.disabled && !(p.units.allSatisfy(\.disabled) && !p.units.isEmpty)
    }.map(\.name)
  }

  func check(change d: ChangeContext) -> [Finding] {
    let b = d.before
    guard !d.isRollback, !CostOut(b).viaIGP, !Self.enabled(b, .client).isEmpty else { return [] }
    var out: [Finding] = []
    let coreBefore = Self.enabled(b, .core)
    let coreAfter = Set(Self.enabled(d.after, .core))
    let lost = coreBefore.filter { !coreAfter.contains($0) }
    if !coreBefore.isEmpty && !lost.isEmpty && lost.count * 2 > coreBefore.count {
      let all = lost.count == coreBefore.count
      out.append(
        d.finding(
          id, all ? .error : .warning,
          "one change takes down \(lost.count) of \(coreBefore.count) core links (\(lost.joined(separator: ", "))) of a node that carries traffic",
          path: ["interfaces", lost[0]]))
    }
    for proto in ["isis", "ospf", "ospf3", "ldp", "mpls"] {
      let had =
        b.model.master.igps.contains { $0.protocolName == proto } || b.tree.descend(ConfigTree.root, [["protocols"], [proto]]) != nil
      let has = d.after.tree.descend(ConfigTree.root, [["protocols"], [proto]]) != nil
      if had && !has {
        out.append(
          d.finding(id, .error, "protocols \(proto) is removed or deactivated on a node that carries traffic", path: ["protocols", proto]))
      }
    }
    out += Self.protocolIsolation(d)
    if let bgp = b.model.master.bgp {
      let now = Set(d.after.model.master.bgp?.groups.map(\.name) ?? [])
      for g in bgp.groups where !b.isExternal(g, in: b.model.master) && !g.neighbors.isEmpty && !now.contains(g.name) {
        out.append(
          d.finding(
            id, .error, "iBGP core group \(g.name) is removed or deactivated on a node that carries traffic",
            path: ["protocols", "bgp", "group", g.name]))
      }
    }
    return out
  }
}

extension BulkCoreIsolation {
  /// A protocol's `interface` statements in the master instance: IS-IS, OSPF (every area),
  /// OSPFv3 or LDP, with how each takes part (`passive`, `disabled`, or neither).
  static func protocolInterfaces(_ c: ConfigContext, _ proto: String) -> [(name: String, node: NodeID, state: String?)] {
    let t = c.tree
    if proto == "ldp" {
      guard let p = t.descend(ConfigTree.root, [["protocols"], ["ldp"]]) else { return [] }
      return t.all(p, "interface").filter { t.wordCount(of: $0) >= 2 }.map {
        (t.word(1, of: $0), $0, t.has($0, "disable") ? "disabled" : nil)
      }
    }
    return c.model.master.igps.filter { $0.protocolName == proto }.flatMap(\.interfaces).map {
      ($0.name, $0.node, $0.disabled ? "disabled" : $0.passive ? "passive" : nil)
    }
  }

  /// The core units (by `roles`) a protocol runs on in `c` (`interface all` stands for every core
  /// unit not listed by name), with the path of the statement that puts each there; units it
  /// lists but does not run on, with the reason.
  static func coreUnits(_ c: ConfigContext, _ proto: String, roles: InterfaceRoles) -> (on: [String: [String]], off: [String: String]) {
    let entries = protocolInterfaces(c, proto)
    func unit(_ name: String) -> String {
      let (ifd, u) = RouterModel.split(name)
      return "\(ifd).\(u)"
    }
    var on: [String: [String]] = [:]
    var off: [String: String] = [:]
    for e in entries where e.name != "all" && roles.role(of: e.name) == .core {
      if let state = e.state { off[unit(e.name)] = state } else { on[unit(e.name)] = c.tree.pathWords(of: e.node) }
    }
    for e in entries where e.name == "all" {
      for p in c.model.interfaces where roles.role(of: p.name) == .core {
        for u in p.units where on[u.name] == nil && off[u.name] == nil {
          if let state = e.state { off[u.name] = state } else { on[u.name] = c.tree.pathWords(of: e.node) }
        }
      }
    }
    return (on, off)
  }

  /// IS-IS, OSPF, OSPFv3 or LDP kept but taken off all or most core interfaces: each interface
  /// deleted, made `passive` or `disable`d (deleting an OSPF area takes its interfaces with it).
  /// A unit whose link goes down counts as lost too, but links alone are reported above.
  static func protocolIsolation(_ d: ChangeContext) -> [Finding] {
    var out: [Finding] = []
    let roles = d.before.roles
    let linksUp = Set(enabled(d.after, .core))
    for proto in ["isis", "ospf", "ospf3", "ldp"] {
      // The protocol removed as a whole is reported above.
      guard d.after.tree.descend(ConfigTree.root, [["protocols"], [proto]]) != nil else { continue }
      let before = coreUnits(d.before, proto, roles: roles).on
      let after = coreUnits(d.after, proto, roles: roles)
      var lost: [(unit: String, how: String)] = []
      for u in before.keys.sorted() {
        if after.on[u] == nil {
          lost.append((u, after.off[u] ?? "removed"))
        } else if !linksUp.contains(RouterModel.split(u).ifd) {
          lost.append((u, "link down"))
        }
      }
      guard lost.contains(where: { $0.how != "link down" }), lost.count * 2 > before.count else { continue }
      let all = lost.count == before.count
      out.append(
        d.finding(
          .bulkCoreIsolation, all ? .error : .warning,
          "one change takes \(proto) off \(lost.count) of \(before.count) core interfaces (\(lost.map { "\($0.unit) \($0.how)" }.joined(separator: ", "))) of a node that carries traffic",
          path: before[lost[0].unit]!))
    }
    return out
  }
}

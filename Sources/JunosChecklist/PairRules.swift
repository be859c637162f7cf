import JunosConfig

/// The two BGP attributes that decide which router of a redundant pair carries the traffic.
enum PairAttribute: String, Sendable, Hashable {
  /// MED: `metric-out` on a group or neighbor, `then metric` in a policy term.
  case med = "MED"
  /// `local-preference` on a group or neighbor, `then local-preference` in a policy term.
  case localPreference = "local-preference"
}

/// Where a configuration sets MED or local preference: a BGP group, one of its neighbors, or a
/// term of a policy applied as BGP import or export.
struct PairSetting: Sendable, Hashable {
  var attribute: PairAttribute
  /// The statement's path, in set form (`protocols bgp group G metric-out`).
  var path: [String]
  /// The BGP group it is set on (group and neighbor settings).
  var group: String?
  /// The policy it is set in (policy settings).
  var policy: String?
  /// The statement's value as written (`100`, `add 10`, `minimum-igp`).
  var value: String
  /// For messages: `BGP group G`, `policy P term T (export to eBGP group G)`.
  var place: String

  /// Identifies the setting across two configurations (and two states of one).
  var key: String { attribute.rawValue + " " + path.joined(separator: " ") }
}

/// One MED or local-preference setting a change adds, changes or removes.
struct PairChange: Sendable {
  var setting: PairSetting
  /// `removed (was 50)`, `changed from 50 to 10`, `set to 10`.
  var how: String
  var location: FindingLocation
  var step: String?

  /// `MED removed (was metric 50) on policy P term T (…)`.
  var describe: String { "\(setting.attribute.rawValue) \(how) on \(setting.place)" }
}

enum PairSettings {
  /// Every MED and local-preference setting of `c` that reaches a BGP session.
  static func of(_ c: ConfigContext) -> [String: PairSetting] {
    let t = c.tree
    var out: [String: PairSetting] = [:]
    func add(_ s: PairSetting) { out[s.key] = s }
    let keywords: [(String, PairAttribute)] = [("metric-out", .med), ("local-preference", .localPreference)]
    for ri in c.model.instances {
      guard let bgp = ri.bgp else { continue }
      let base: [String] = ri.name == "master" ? [] : ["routing-instances", ri.name]
      for (kw, attr) in keywords {
        guard let n = t.first(bgp.node, kw) else { continue }
        add(
          PairSetting(
            attribute: attr, path: base + ["protocols", "bgp", kw], value: text(t, n), place: "protocols bgp (every group)\(ri.suffix)"))
      }
      for g in bgp.groups {
        let gp = base + ["protocols", "bgp", "group", g.name]
        for (kw, attr) in keywords {
          if let n = t.first(g.node, kw) {
            add(
              PairSetting(
                attribute: attr, path: gp + [kw], group: g.name, value: text(t, n), place: "BGP group \(g.name)\(ri.suffix)"))
          }
          for nb in g.neighbors {
            guard let n = t.first(nb.node, kw) else { continue }
            add(
              PairSetting(
                attribute: attr, path: gp + ["neighbor", nb.address, kw], group: g.name, value: text(t, n),
                place: "BGP group \(g.name) neighbor \(nb.address)\(ri.suffix)"))
          }
        }
      }
    }
    var uses: [String: [String]] = [:]
    // Local preference set by a policy matters on imports and on exports to iBGP peers; an eBGP
    // peer never receives it.
    var localPreferenceMatters: Set<String> = []
    for ch in c.appliedChains() {
      switch ch.use {
      case .bgpExport(_, let external), .bgpImport(_, let external):
        for p in policyNames(ch.chain) where !(uses[p] ?? []).contains(ch.describe) { uses[p, default: []].append(ch.describe) }
        if case .bgpImport = ch.use {
          localPreferenceMatters.formUnion(policyNames(ch.chain))
        } else if !external {
          localPreferenceMatters.formUnion(policyNames(ch.chain))
        }
      default: continue
      }
    }
    let policyKeywords: [(String, PairAttribute)] = [("metric", .med), ("local-preference", .localPreference)]
    for (name, applied) in uses {
      guard let p = c.model.policy.policies[name] else { continue }
      for term in p.terms {
        guard let then = t.first(term.node, "then") else { continue }
        for (kw, attr) in policyKeywords where attr != .localPreference || localPreferenceMatters.contains(name) {
          guard let n = t.first(then, kw) else { continue }
          add(
            PairSetting(
              attribute: attr, path: termPath(name, term.name) + ["then", kw], policy: name, value: text(t, n),
              place: "\(termLabel(name, term.name)) (\(applied.joined(separator: ", ")))"))
        }
      }
    }
    return out
  }

  /// A statement's words after its keyword, with those of the statements under it.
  static func text(_ t: ConfigTree, _ node: NodeID) -> String {
    var words = Array(t.words(of: node).dropFirst())
    for c in t.children(of: node) { words += t.words(of: c) }
    return words.joined(separator: " ")
  }

  /// The MED and local-preference settings `d` adds, changes or removes. A setting that leaves
  /// with its whole group or term, or with the policy's last BGP attachment, is not one: the
  /// rules on removed groups and detached policies report those.
  static func changes(_ d: ChangeContext) -> [PairChange] {
    let before = of(d.before)
    let after = of(d.after)
    var out: [PairChange] = []
    for key in Set(before.keys).union(after.keys).sorted() {
      let b = before[key]
      let a = after[key]
      let how: String
      switch (b, a) {
      case (let b?, nil):
        // The owner (group, neighbor or term) must still be there, and the policy still applied.
        guard d.after.tree.descendWords(Array(b.path.dropLast(b.policy == nil ? 1 : 2))) != nil else { continue }
        if let p = b.policy, !applied(p, in: d.after) { continue }
        how = "removed (was \(b.value))"
      case (let b?, let a?):
        guard b.value != a.value else { continue }
        how = "changed from \(b.value) to \(a.value)"
      case (nil, let a?):
        how = "set to \(a.value)"
      case (nil, nil):
        continue
      }
      let s = (a ?? b)!
      out.append(PairChange(setting: s, how: how, location: d.location(ofChangeTo: s.path), step: d.step))
    }
    return out
  }

  static func applied(_ policy: String, in c: ConfigContext) -> Bool {
    c.appliedChains().contains { ch in
      switch ch.use {
      case .bgpExport, .bgpImport: policyNames(ch.chain).contains(policy)
      default: false
      }
    }
  }

  /// Why a single configuration has a redundant pair partner, or `nil`: a BGP group named or
  /// described as the pair's (`pair`, `partner`, `redundan…`), or an internal group with a
  /// neighbor on a directly connected subnet (the pair's own link) whose session is not made
  /// external by a `local-as`.
  static func partnerEvidence(_ c: ConfigContext) -> String? {
    for ri in c.model.instances {
      for g in ri.bgp?.groups ?? [] {
        let said = (g.name + " " + (c.tree.value(g.node, "description") ?? "")).lowercased()
        if ["pair", "partner", "redundan"].contains(where: { said.contains($0) }) {
          return "BGP group \(g.name)\(ri.suffix) is named or described as the pair's"
        }
        guard !c.isExternal(g, in: ri) else { continue }
        for n in g.neighbors {
          // `local-as` other than the peer's AS makes the session external after all.
          let localAS = c.tree.value(n.node, "local-as") ?? c.tree.value(g.node, "local-as")
          if let l = localAS, let p = n.peerAS ?? g.peerAS, l != p { continue }
          if let u = c.interfaceFacing(n.address) {
            return "iBGP group \(g.name)\(ri.suffix) has neighbor \(n.address) on the directly connected \(u), the pair partner"
          }
        }
      }
    }
    return nil
  }

  /// Why two configurations are a redundant pair, or `nil`: they have a BGP group of the same
  /// name (in the same instance) with a neighbor address or a peer AS in common. Two
  /// configurations of the same `system host-name` are one router, not a pair.
  static func pairEvidence(_ a: ConfigContext, _ b: ConfigContext) -> String? {
    if let ha = hostName(a), ha == hostName(b) { return nil }
    for ra in a.model.instances {
      guard let rb = b.model.instances.first(where: { $0.name == ra.name }) else { continue }
      for ga in ra.bgp?.groups ?? [] {
        guard let gb = rb.bgp?.groups.first(where: { $0.name == ga.name }) else { continue }
        let na = Set(ga.neighbors.map(\.address))
        if let common = gb.neighbors.map(\.address).first(where: na.contains) {
          return "both have BGP group \(ga.name)\(ra.suffix) with neighbor \(common)"
        }
        let asA = Set(([ga.peerAS] + ga.neighbors.map(\.peerAS)).compactMap { $0 })
        if let common = ([gb.peerAS] + gb.neighbors.map(\.peerAS)).compactMap({ $0 }).first(where: asA.contains) {
          return "both have BGP group \(ga.name)\(ra.suffix) to peer AS \(common)"
        }
      }
    }
    return nil
  }

  /// `system host-name`, if set.
  static func hostName(_ c: ConfigContext) -> String? {
    c.tree.first(ConfigTree.root, "system").flatMap { c.tree.value($0, "host-name") }
  }

  /// Whether the partner `c` has the group or policy a setting is on.
  static func shares(_ s: PairSetting, with c: ConfigContext) -> Bool {
    if let p = s.policy { return c.model.policy.policies[p] != nil }
    let group = Array(s.path.prefix { $0 != "neighbor" && $0 != "metric-out" && $0 != "local-preference" })
    return c.tree.descendWords(group) != nil
  }
}

/// `redundant-pair-attribute-change` on one input: a MED or local-preference change on a router
/// whose configuration says it has a redundant pair partner.
struct RedundantPairAttributeChange: Rule {
  var id: RuleID { .redundantPairAttributeChange }

  func check(change d: ChangeContext) -> [Finding] {
    guard !d.isRollback else { return [] }
    let changes = PairSettings.changes(d)
    guard !changes.isEmpty, let evidence = PairSettings.partnerEvidence(d.before) else { return [] }
    return changes.map { c in
      Finding(
        rule: id, severity: .warning,
        message:
          "\(c.describe): this router has a redundant pair partner (\(evidence)); unless the partner changes it too, the pair's traffic moves onto one router",
        location: c.location, step: c.step, path: c.setting.path.map { ConfigTree.quoteIfNeeded($0) }.joined(separator: " "))
    }
  }
}

/// What one input of a joint lint contributes to the pair check: the configuration it starts
/// from, its MED and local-preference changes, and the steps whose `#@ accept` covers the rule.
struct PairView {
  var file: String
  var before: ConfigContext
  var after: ConfigContext
  var changes: [PairChange]
  /// `#@ accept redundant-pair-attribute-change` lines: `nil` for plan-wide, else the step.
  var accepts: [String?]

  func accepted(_ f: Finding) -> Bool { accepts.contains { $0 == nil || $0 == f.step } }
}

extension RedundantPairAttributeChange {
  /// Findings across inputs linted together. For each input with a partner among the others
  /// (``PairSettings/pairEvidence(_:_:)``): an error for a setting on a shared group or policy
  /// that both change, a warning for one that only this input changes. `nil` for an input with
  /// no partner: its own findings stand. Suppressions are the caller's.
  static func across(_ views: [PairView?]) -> [[Finding]?] {
    var out: [[Finding]?] = Array(repeating: nil, count: views.count)
    for (i, vi) in views.enumerated() {
      guard let vi else { continue }
      // The other inputs that are this one's partners, with why.
      let partners: [(view: PairView, why: String)] = views.enumerated().compactMap { j, vj in
        guard j != i, let vj, let why = PairSettings.pairEvidence(vi.before, vj.before) else { return nil }
        return (vj, why)
      }
      guard !partners.isEmpty else { continue }
      var found: [Finding] = []
      var seen: Set<String> = []
      for c in vi.changes where seen.insert(c.setting.key).inserted {
        let sharing = partners.filter { PairSettings.shares(c.setting, with: $0.view.before) }
        guard let first = sharing.first else { continue }
        let severity: Severity
        let message: String
        // A partner that changes the same statement too makes it an error, whichever it is.
        if let (p, other) = sharing.lazy.compactMap({ p in p.view.changes.first { $0.setting.key == c.setting.key }.map { (p, $0) } }).first
        {
          let at = "\(other.location.file):\(other.location.line):\(other.location.column)"
          severity = .error
          message =
            "\(c.describe), and its pair partner \(p.view.file) changes it too (\(other.how), \(at)); \(p.why): changed on both routers of the pair, its traffic moves onto one router, or back and forth while the two differ"
        } else {
          severity = .warning
          message =
            "\(c.describe), but not on its pair partner \(first.view.file) (\(first.why)): the pair no longer sends the same \(c.setting.attribute.rawValue), so its traffic moves onto one router"
        }
        let path = c.setting.path.map { ConfigTree.quoteIfNeeded($0) }.joined(separator: " ")
        found.append(
          Finding(rule: .redundantPairAttributeChange, severity: severity, message: message, location: c.location, step: c.step, path: path)
        )
      }
      out[i] = found
    }
    return out
  }
}

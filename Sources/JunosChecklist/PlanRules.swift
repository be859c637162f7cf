import JunosConfig

extension PlanReplay {
  /// Location of a plan line.
  func at(_ loc: SourceLocation) -> FindingLocation { FindingLocation(file: plan.file.path, line: loc.line, column: loc.column) }

  /// Where a step makes `ifd` live: its patch line, else the command touching it, else the step.
  func whereLive(_ s: StepState, _ ifd: String) -> FindingLocation {
    if let p = s.step.patches.first(where: { RouterModel.split($0.interface).ifd == ifd }) { return at(p.location) }
    let loc = s.changeLocator.location(of: ["interfaces", ifd])
    return loc.line == 0 ? s.stepLocation(plan) : loc
  }

  /// Hierarchies a step's changes touch (first words of its commands; everything for loads).
  func touches(_ s: StepState) -> Set<String> {
    if !s.step.loads.isEmpty { return ["interfaces", "protocols", "routing-options", "routing-instances", "policy-options", "system"] }
    var out: Set<String> = []
    for c in s.step.commands {
      let w = ChangeLocator.tokens(c.text)
      if w.count > 1 { out.insert(w[1]) }
    }
    return out
  }

  /// Whether a step changes forwarding: a config change outside descriptions/annotations, or a
  /// patch.
  func changesForwarding(_ s: StepState) -> Bool {
    if !s.step.patches.isEmpty || !s.step.unpatches.isEmpty { return true }
    guard s.changed else { return false }
    if !s.step.loads.isEmpty { return true }
    return s.step.commands.contains { c in
      let w = ChangeLocator.tokens(c.text)
      return c.verb != "annotate" && !w.contains("description") && !w.contains("apply-macro")
    }
  }
}

/// Rules 4 and 5: the node goes live without a cost-out (or only with `overload timeout`).
struct NodeNotCostedOut: Rule {
  var id: RuleID { .nodeNotCostedOut }

  func check(plan r: PlanReplay) -> [Finding] {
    guard r.bringsUp else { return [] }
    var out: [Finding] = []
    let loadStep = r.states.first { !$0.step.loads.isEmpty }
    if let k = r.states.firstIndex(where: { !$0.live.isEmpty }) {
      let s = r.states[k]
      let cost = s.costAfter
      let live = s.live.sorted()
      if !cost.viaIGP && !cost.overloadTimeoutOnly {
        var msg =
          "links go live in step \(s.step.id) (\(live.joined(separator: ", "))) while the node is not costed out: no overload, no high metrics, links not disabled"
        if let l = loadStep, l.index <= k, let f = l.step.loads.first {
          msg += "; the configuration loaded from \(f.file.path) in step \(l.step.id) is not costed out"
        }
        out.append(Finding(rule: id, message: msg, location: r.whereLive(s, live[0]), step: s.step.id, path: "interfaces \(live[0])"))
      } else if cost.overloadTimeoutOnly && !cost.viaIGP {
        let timeout = s.after.model.instances.flatMap(\.igps).compactMap(\.overloadTimeout).min() ?? 0
        let reason: String
        if r.baselineInService {
          reason = "the node is already running, so the timer has long expired"
        } else if let d = r.plan.header?.duration {
          guard d * 60 > timeout else { return out }
          reason = "the plan takes \(d) min, longer than the \(timeout) s timeout"
        } else {
          reason = "the plan gives no duration= to compare with the \(timeout) s timeout"
        }
        out.append(
          Finding(
            rule: .overloadTimeoutAsCostOut,
            message: "the only cost-out when links go live in step \(s.step.id) is overload timeout \(timeout): \(reason)",
            location: cost.overloadNode.map { s.after.location(of: $0) } ?? r.whereLive(s, live[0]), step: s.step.id, path: "protocols"))
      }
    } else if let l = loadStep, !l.costAfter.viaIGP, let f = l.step.loads.first {
      out.append(
        Finding(
          rule: id, message: "the configuration loaded from \(f.file.path) is committed without a cost-out (no overload, no high metrics)",
          location: r.at(f.file.location), step: l.step.id))
    }
    return out
  }
}

/// Rule 6: the cost-out is removed in the step that brings links up.
struct UncostAndEnableSameStep: Rule {
  var id: RuleID { .uncostAndEnableSameStep }

  func check(plan r: PlanReplay) -> [Finding] {
    r.states.compactMap { s in
      guard s.costBefore.viaIGP, !s.costAfter.viaIGP else { return nil }
      let new = s.live.subtracting(s.liveBefore).sorted()
      guard !new.isEmpty else { return nil }
      let client = new.contains { s.after.roles.role(of: $0) != .core }
      return Finding(
        rule: id, severity: client ? .error : .warning,
        message:
          "step \(s.step.id) removes the cost-out (\(s.costBefore.describe)) and brings up \(new.joined(separator: ", ")) at once: nothing can be verified in between",
        location: s.changeLocator.location(of: ["protocols"]), step: s.step.id, path: "interfaces \(new[0])")
    }
  }
}

/// Rules 8 and 9 (plans): client links live before verified core reachability; interfaces
/// touched without a role.
struct ClientLinksBeforeCoreLinks: Rule {
  var id: RuleID { .clientLinksBeforeCoreLinks }
  var minCoreLinks: Int

  func check(plan r: PlanReplay) -> [Finding] {
    var out: [Finding] = []
    // Rule 9: interfaces the plan touches with no role.
    var reported: Set<String> = []
    for s in r.states + r.rollbackStates {
      var touched: [(String, FindingLocation)] = s.step.patches.map { (RouterModel.split($0.interface).ifd, r.at($0.location)) }
      for c in s.step.commands {
        let w = ChangeLocator.tokens(c.text)
        if w.count > 2 && w[1] == "interfaces" { touched.append((w[2], FindingLocation(file: r.plan.file.path, line: c.line, column: 1))) }
        if let k = w.firstIndex(of: "interface"), k + 1 < w.count, w[1] == "protocols" {
          touched.append((RouterModel.split(w[k + 1]).ifd, FindingLocation(file: r.plan.file.path, line: c.line, column: 1)))
        }
      }
      for (ifd, loc) in touched
      where !reported.contains(ifd) && s.after.roles.role(of: ifd) == .unknown && s.before.roles.role(of: ifd) == .unknown && ifd != "all" {
        reported.insert(ifd)
        out.append(
          Finding(
            rule: .interfaceRoleUnclassified,
            message: "interface \(ifd) is touched by step \(s.step.id) but has no role: \(s.after.roles.evidence[ifd] ?? "not configured")",
            location: loc, step: s.step.id, path: "interfaces \(ifd)"))
      }
    }
    guard r.bringsUp else { return out }
    let initialLive = Set<String>()
    var kClient: Int?
    var clientLinks: [String] = []
    var kCore: Int?
    for (k, s) in r.states.enumerated() {
      if kCore == nil {
        let verified = s.live(.core).filter { ifd in
          guard s.verifiedIGP.contains(ifd) else { return false }
          let ldp = s.after.model.master.ldpInterfaces.contains { RouterModel.split($0.name).ifd == ifd }
          return !ldp || s.verifiedLDP
        }
        if verified.count >= minCoreLinks { kCore = k }
      }
      if kClient == nil {
        let c = s.live.subtracting(initialLive).filter { s.after.roles.role(of: $0) != .core }.sorted()
        if !c.isEmpty {
          kClient = k
          clientLinks = c
        }
      }
    }
    guard let kc = kClient else { return out }
    let s = r.states[kc]
    if kCore == nil || kc <= kCore! {
      let core =
        kCore.map { "core reachability is verified only in step \(r.states[$0].step.id)" }
        ?? "core reachability (\(minCoreLinks) live core link\(minCoreLinks == 1 ? "" : "s") with a verified IGP adjacency) is never established before"
      out.append(
        Finding(
          rule: id, message: "client-facing links \(clientLinks.joined(separator: ", ")) go live in step \(s.step.id), but \(core)",
          location: r.whereLive(s, clientLinks[0]), step: s.step.id, path: "interfaces \(clientLinks[0])"))
    } else if !r.states[kc...].contains(where: { !$0.step.verifies.isEmpty }) {
      out.append(
        Finding(
          rule: id, severity: .warning,
          message:
            "client-facing links \(clientLinks.joined(separator: ", ")) go live in step \(s.step.id) with no verification of the client sessions after",
          location: r.whereLive(s, clientLinks[0]), step: s.step.id, path: "interfaces \(clientLinks[0])"))
    }
    return out
  }
}

/// Rule 12 (plans): a single live core link while clients are live, without CoS.
struct CoreLinkWithoutCoSInPlan: Rule {
  var id: RuleID { .coreLinkWithoutCoS }

  func check(plan r: PlanReplay) -> [Finding] {
    for s in r.states {
      let core = s.live(.core)
      guard core.count == 1, s.live.contains(where: { s.after.roles.role(of: $0) == .client }) else { continue }
      guard let why = CoreLinkWithoutCoS.missing(s.after, core[0]) else { continue }
      return [
        Finding(
          rule: id, severity: .error,
          message:
            "in step \(s.step.id) \(core[0]) is the only live core link while client links are live, and it runs on the default schedulers (\(why))",
          location: r.whereLive(s, core[0]), step: s.step.id, path: "interfaces \(core[0])")
      ]
    }
    return []
  }
}

/// Rules 13 and 14 (plans): commits without `commit confirmed`; confirmation by an empty commit.
struct ChangeWithoutCommitConfirmed: Rule {
  var id: RuleID { .changeWithoutCommitConfirmed }

  func check(plan r: PlanReplay) -> [Finding] {
    var out: [Finding] = []
    let forwarding: Set<String> = [
      "interfaces", "protocols", "routing-options", "routing-instances", "policy-options", "firewall", "class-of-service",
    ]
    let mgmt = r.plan.header?.mgmt.flatMap { IPPrefix($0) }
    for s in r.states where s.changed {
      let touched = r.touches(s)
      if let c = s.step.confirm, c.method == .commit {
        out.append(
          Finding(
            rule: .emptyConfirmingCommit,
            message: "step \(s.step.id) confirms its commit with another commit, which adds an empty rollback; use commit check",
            location: r.at(c.location), step: s.step.id))
      }
      guard !touched.isDisjoint(with: forwarding) || touched.contains("system") else { continue }
      let real = s.step.commits.filter { !$0.check }
      if real.isEmpty && !s.step.commits.isEmpty { continue }
      let commit = real.first { $0.confirmedMinutes == nil } ?? real.first
      let waits = s.step.waits.reduce(0) { $0 + $1.seconds }
      if let commit, let m = commit.confirmedMinutes {
        if waits > m * 60 {
          out.append(
            Finding(
              rule: id,
              message:
                "step \(s.step.id) waits \(waits) s, longer than its commit confirmed \(m): the automatic rollback fires mid-verification",
              location: r.at(commit.location), step: s.step.id))
        }
        continue
      }
      var management = false
      for c in s.step.commands {
        let w = ChangeLocator.tokens(c.text)
        let text = w.dropFirst().joined(separator: " ")
        if text.hasPrefix("interfaces lo0") && w.contains("filter") { management = true }
        if text.hasPrefix("interfaces fxp0") || text.hasPrefix("interfaces em0") || text.hasPrefix("routing-instances mgmt_junos") {
          management = true
        }
        if text.hasPrefix("system services") || text.hasPrefix("system login") { management = true }
        if let mgmt, text.hasPrefix("routing-options static route"), w.count > 4, let p = IPPrefix(w[4]), p.contains(mgmt) {
          management = true
        }
      }
      let how = commit == nil ? "has changes but no #@ commit" : "commits without confirmed"
      out.append(
        Finding(
          rule: id, severity: management ? .error : .warning,
          message:
            "step \(s.step.id) \(how)\(management ? " and touches the management path" : ""): nothing rolls back if the change cuts access",
          location: commit.map { r.at($0.location) } ?? s.stepLocation(r.plan), step: s.step.id))
    }
    return out
  }
}

/// Rule 24 (plans): links kept dark by deactivate/delete instead of disable.
struct DeactivateInsteadOfDisable: Rule {
  var id: RuleID { .deactivateInsteadOfDisable }

  func check(plan r: PlanReplay) -> [Finding] {
    var out: [Finding] = []
    var dark: [String: (FindingLocation, String, String)] = [:]
    for s in r.states {
      for c in s.step.commands {
        let w = ChangeLocator.tokens(c.text)
        guard w.count >= 3, w[1] == "interfaces" else { continue }
        let loc = FindingLocation(file: r.plan.file.path, line: c.line, column: 1)
        if (c.verb == "deactivate" || c.verb == "delete") && w.count == 3 {
          dark[w[2]] = (loc, s.step.id, c.verb)
        } else if (c.verb == "activate" && w.count == 3) || c.verb == "set", let (l, step, verb) = dark.removeValue(forKey: w[2]) {
          out.append(
            Finding(
              rule: id,
              message:
                "\(w[2]) is kept dark with \(verb) and brought back in step \(s.step.id): a \(verb == "delete" ? "deleted" : "deactivated") port stays up; use disable",
              location: l, step: step, path: "interfaces \(w[2])"))
        }
      }
      for p in s.step.patches {
        let ifd = RouterModel.split(p.interface).ifd
        if let (l, step, _) = dark.removeValue(forKey: ifd) {
          out.append(
            Finding(
              rule: id,
              message: "\(ifd) is patched in step \(s.step.id) while deactivated or deleted: the port comes up at the far end; use disable",
              location: l, step: step, path: "interfaces \(ifd)"))
        } else if let phys = s.after.model.physical(ifd), !phys.disabled, !phys.units.isEmpty, phys.units.allSatisfy(\.disabled) {
          out.append(
            Finding(
              rule: id,
              message:
                "\(ifd) is patched in step \(s.step.id) with only its units disabled: the physical port is up; disable the interface",
              location: r.at(p.location), step: s.step.id, path: "interfaces \(ifd)"))
        }
      }
    }
    return out
  }
}

/// Rule 25 (plans): BGP sessions removed without a drain step first.
struct BGPShutdownWithoutDrain: Rule {
  var id: RuleID { .bgpShutdownWithoutDrain }

  /// Whether group `g` drains its sessions; `graceful` is ``gracefulCommunities(_:)`` of `c`.
  static func drained(_ c: ConfigContext, _ g: BGPGroup, _ graceful: Set<String>) -> Bool {
    if g.gracefulShutdownSender { return true }
    for name in policyNames(g.exportChain ?? c.model.master.bgp?.exportChain ?? []) {
      guard let p = c.model.policy.policies[name] else { continue }
      for t in p.terms {
        guard let then = c.tree.first(t.node, "then") else { continue }
        if c.tree.first(then, "as-path-prepend") != nil || t.then.communitiesAdded.contains(where: graceful.contains) {
          return true
        }
      }
    }
    return false
  }

  /// The communities whose (first) definition carries GRACEFUL_SHUTDOWN (65535:0, RFC 8326).
  static func gracefulCommunities(_ c: ConfigContext) -> Set<String> {
    guard let po = c.tree.first(ConfigTree.root, "policy-options") else { return [] }
    var seen: Set<String> = []
    var out: Set<String> = []
    for def in c.tree.all(po, "community") where c.tree.wordCount(of: def) > 1 {
      let name = c.tree.text(1, of: def)
      if seen.insert(name).inserted && isGracefulShutdown(c, def) { out.insert(name) }
    }
    return out
  }

  /// Whether community definition `def` carries GRACEFUL_SHUTDOWN.
  static func isGracefulShutdown(_ c: ConfigContext, _ def: NodeID) -> Bool {
    // `community N members X` (one statement, as set commands and `show` give it) or
    // `community N { members [ X Y ]; }`.
    var members = c.tree.values(def, "members")
    let n = c.tree.wordCount(of: def)
    if let k = (0..<n).first(where: { c.tree.text($0, of: def) == "members" }) {
      members += ((k + 1)..<n).map { c.tree.text($0, of: def) } + (c.tree.listValues(of: def) ?? [])
    }
    return members.contains { $0 == "65535:0" || $0 == "graceful-shutdown" }
  }

  func check(plan r: PlanReplay) -> [Finding] {
    var out: [Finding] = []
    var drainedGroups: Set<String> = []
    for s in r.states {
      guard let bgp = s.before.model.master.bgp else { continue }
      let now = Set(s.after.model.master.bgp?.groups.map(\.name) ?? [])
      for g in bgp.groups {
        let isLive = g.neighbors.contains { n in
          s.before.interfaceFacing(n.address).map { s.liveBefore.contains(RouterModel.split($0).ifd) } ?? false
        }
        if !now.contains(g.name) && isLive && !drainedGroups.contains(g.name) {
          out.append(
            Finding(
              rule: id,
              message:
                "step \(s.step.id) removes BGP group \(g.name) while its sessions are up, with no earlier drain step (graceful-shutdown, 65535:0, prepends)",
              location: s.changeLocator.location(of: ["protocols", "bgp", "group", g.name]), step: s.step.id,
              path: "protocols bgp group \(g.name)"))
        }
      }
      if !s.step.verifies.isEmpty || !s.step.waits.isEmpty {
        let graceful = Self.gracefulCommunities(s.after)
        for g in s.after.model.master.bgp?.groups ?? [] where Self.drained(s.after, g, graceful) { drainedGroups.insert(g.name) }
      }
    }
    return out
  }
}

/// Rule 26: steps without verification; no pre-check; no rollback section.
struct StepWithoutVerification: Rule {
  var id: RuleID { .stepWithoutVerification }

  func check(plan r: PlanReplay) -> [Finding] {
    var out: [Finding] = []
    let changing = r.states.filter { r.changesForwarding($0) }
    guard let first = changing.first else { return out }
    if !r.states[..<first.index].contains(where: { !$0.step.verifies.isEmpty }) {
      out.append(
        Finding(
          rule: id, message: "no pre-check step records the network's state before the first change", location: first.stepLocation(r.plan),
          step: first.step.id))
    }
    for (a, b) in zip(r.states, r.states.dropFirst()) where r.changesForwarding(a) && r.changesForwarding(b) {
      if a.step.verifies.isEmpty && a.step.waits.isEmpty {
        out.append(
          Finding(
            rule: id, message: "steps \(a.step.id) and \(b.step.id) both change forwarding with no #@ verify or #@ wait in between",
            location: a.stepLocation(r.plan),
            step: a.step.id))
      }
    }
    if !r.plan.hasRollbackSection {
      out.append(
        Finding(
          rule: id, message: "the plan has no #@ rollback section",
          location: FindingLocation(file: r.plan.file.path, line: r.plan.header?.location.line ?? 1, column: 1)))
    }
    return out
  }
}

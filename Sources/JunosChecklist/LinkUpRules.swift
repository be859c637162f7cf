import JunosConfig

/// `link-up-before-sessions` (plans on a node in service): a unit is given addresses and enabled
/// before the BGP sessions in its subnet, or the IGP adjacency over it, are configured and
/// verified.
struct LinkUpBeforeSessions: Rule {
  var id: RuleID { .linkUpBeforeSessions }

  /// The unit's subnets (host addresses left out) when it is up in `c`: it and its interface
  /// (and bundle) not disabled, the port patched (or never patched by the plan), a data-plane
  /// role.
  static func upSubnets(_ c: ConfigContext, _ unit: String, patched: Bool) -> [IPPrefix] {
    guard patched, let (p, u) = c.model.unit(unit), !p.disabled, !u.disabled else { return [] }
    if let b = p.bundle, let bundle = c.model.physical(b), bundle.disabled { return [] }
    let role = c.roles.role(of: p.name)
    guard role != .mgmt && role != .ignore && role != .loopback else { return [] }
    return u.addresses.filter { $0.length < ($0.family == .inet ? 32 : 128) }
  }

  /// BGP neighbors (every instance) whose address is in one of `subnets`.
  static func neighbors(_ c: ConfigContext, in subnets: [IPPrefix]) -> [String] {
    var out: [String] = []
    for ri in c.model.instances {
      for g in ri.bgp?.groups ?? [] {
        for n in g.neighbors {
          guard let a = IPPrefix(n.address), subnets.contains(where: { $0.contains(a) }), !out.contains(n.address) else { continue }
          out.append(n.address)
        }
      }
    }
    return out
  }

  /// Whether an IGP of `c` runs on `unit` (not passive, not disabled).
  static func inIGP(_ c: ConfigContext, _ unit: String) -> Bool {
    c.model.instances.flatMap(\.igps).flatMap(\.interfaces).contains { i in
      !i.passive && !i.disabled && RouterModel.split(i.name) == RouterModel.split(unit)
    }
  }

  /// `exchange LAN port`, `multi-access LAN port` or `point-to-point link`, with the reason.
  static func linkKind(_ c: ConfigContext, _ unit: String, subnets: [IPPrefix], neighbors: Int) -> String {
    let (p, u) = c.model.unit(unit)!
    let said = ((u.description ?? "") + " " + (p.description ?? "")).lowercased()
    let words = said.split { !$0.isLetter && !$0.isNumber }
    if words.contains(where: { ["ix", "ixp", "exchange"].contains($0) }) || said.contains("peering lan") {
      return "an exchange LAN port (described \"\(u.description ?? p.description ?? "")\")"
    }
    if let wide = subnets.first(where: { $0.length < ($0.family == .inet ? 30 : 126) }) {
      return "a multi-access LAN port (subnet \(wide.network))"
    }
    if neighbors > 1 { return "a multi-access LAN port (\(neighbors) BGP neighbors in its subnet)" }
    return "a point-to-point link"
  }

  func check(plan r: PlanReplay) -> [Finding] {
    guard r.baselineInService, !r.bringsUp, let last = r.states.last else { return [] }
    let patchedByPlan = Set(r.plan.steps.flatMap(\.patches).map { RouterModel.split($0.interface).ifd })
    var out: [Finding] = []
    var previous = r.initial
    var previousPatched = Set(r.initial.model.interfaces.map(\.name))
    for (k, s) in r.states.enumerated() {
      defer {
        previous = s.after
        previousPatched = s.patched
      }
      guard s.changed || !s.step.patches.isEmpty else { continue }
      for p in s.after.model.interfaces {
        for u in p.units {
          let patched = s.patched.contains(p.name) || !patchedByPlan.contains(p.name)
          let subnets = Self.upSubnets(s.after, u.name, patched: patched)
          guard !subnets.isEmpty else { continue }
          let wasPatched = previousPatched.contains(p.name) || !patchedByPlan.contains(p.name)
          guard Self.upSubnets(previous, u.name, patched: wasPatched).isEmpty else { continue }
          if let f = finding(r, k, s, unit: u.name, subnets: subnets, last: last.after) { out.append(f) }
        }
      }
    }
    return out
  }

  /// The finding for `unit`, up from step `k`, when a session over it comes later or is never
  /// verified.
  func finding(_ r: PlanReplay, _ k: Int, _ s: StepState, unit: String, subnets: [IPPrefix], last: ConfigContext) -> Finding? {
    let peers = Self.neighbors(last, in: subnets)
    let igp = Self.inIGP(last, unit)
    guard !peers.isEmpty || igp else { return nil }
    // The first step (index) whose state has the session; -1 for the baseline.
    func configured(_ has: (ConfigContext) -> Bool) -> Int? {
      if has(r.initial) { return -1 }
      return r.states.firstIndex { has($0.after) }
    }
    func verified(_ matches: (PlanVerify) -> Bool) -> Bool {
      r.states[k...].contains { $0.step.verifies.contains(where: matches) }
    }
    var late: [String] = []
    var unverified: [String] = []
    for a in peers {
      let at = configured { Self.neighbors($0, in: subnets).contains(a) } ?? k
      if at > k { late.append("BGP neighbor \(a) (step \(r.states[at].step.id))") }
      if !verified({ $0.kind == .bgpSession && $0.args.first == a }) { unverified.append("BGP neighbor \(a)") }
    }
    if igp {
      let at = configured { Self.inIGP($0, unit) } ?? k
      let name =
        r.states[max(at, 0)].after.model.instances.flatMap(\.igps).first { g in
          g.interfaces.contains { RouterModel.split($0.name) == RouterModel.split(unit) }
        }?.protocolName ?? "IGP"
      if at > k { late.append("\(name) on \(unit) (step \(r.states[at].step.id))") }
      let adjacency = verified { v in
        (v.kind == .isisAdjacency || v.kind == .ospfNeighbor)
          && v.args.first.map { RouterModel.split($0) == RouterModel.split(unit) } == true
      }
      if !adjacency { unverified.append("the \(name) adjacency over \(unit)") }
    }
    guard !late.isEmpty || !unverified.isEmpty else { return nil }
    let kind = Self.linkKind(s.after, unit, subnets: subnets, neighbors: peers.count)
    var why: [String] = []
    if !late.isEmpty { why.append("before its sessions are configured: \(late.joined(separator: ", "))") }
    if !unverified.isEmpty { why.append("with no later #@ verify of \(unverified.joined(separator: ", "))") }
    let ifd = RouterModel.split(unit).ifd
    return Finding(
      rule: id,
      message:
        "step \(s.step.id) addresses and enables \(unit), \(kind), on a node in service \(why.joined(separator: ", and ")); configure the sessions with the port disabled, then enable it and verify them",
      location: r.whereLive(s, ifd), step: s.step.id, path: "interfaces \(ifd) unit \(RouterModel.split(unit).unit)")
  }
}

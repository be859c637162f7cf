import JunosConfig

/// Who could keep an aggregate up, and where it is advertised.
struct AggregateAnalysis: Sendable {
  struct Export: Sendable {
    var chain: AppliedChain
    var term: TermRef
  }

  var route: AggregateRoute
  var exports: [Export]
  /// Local routes inside the prefix: `lo0.0 10.255.0.11/32`.
  var localContributors: [String]
  /// Client/eBGP groups whose import admits routes inside the prefix.
  var clientContributors: [String]

  var exportedExternally: Bool { exports.contains { if case .bgpExport(_, true) = $0.chain.use { true } else { false } } }
  var exportedToVRF: Bool { exports.contains { if case .vrfExport = $0.chain.use { true } else { false } } }

  static func analyse(_ c: ConfigContext) -> [AggregateAnalysis] { ContextCache.value(c.cache.aggregates) { compute(c) } }

  private static func compute(_ c: ConfigContext) -> [AggregateAnalysis] {
    let chains = c.appliedChains()
    var out: [AggregateAnalysis] = []
    for ri in c.model.instances {
      for a in ri.aggregates {
        var exports: [Export] = []
        for ch in chains where ch.isExport && ch.instance == ri.name {
          switch c.model.policy.evaluate(chain: ch.chain, RouteQuery(protocolName: "aggregate", prefix: a.prefix)) {
          case .accepted(let t): exports.append(Export(chain: ch, term: t))
          case .mayBeAccepted(let t):
            // Gated by a condition (`if-route-exists` a core route): conditional on purpose.
            if c.model.policy.term(t)?.from.conditions.isEmpty ?? true { exports.append(Export(chain: ch, term: t)) }
          default: break
          }
        }
        let policy = a.policy
        func admitted(_ q: RouteQuery) -> Bool {
          guard let policy else { return true }
          switch c.model.policy.evaluate(chain: [policy], q) {
          case .accepted, .mayBeAccepted, .noDecision: return true
          case .rejected, .undefinedPolicy: return false
          }
        }
        var local: [String] = []
        if ri.name == "master" || ri.interfaces.isEmpty == false {
          let members = ri.name == "master" ? nil : Set(ri.interfaces)
          for p in c.model.interfaces where !p.disabled {
            for u in p.units where !u.disabled && (members == nil || members!.contains(u.name)) {
              for addr in u.addresses where addr.family == a.prefix.family {
                let host = IPPrefix(family: addr.family, bytes: addr.bytes, length: addr.family == .inet ? 32 : 128)
                let subnet = addr.network
                if a.prefix.contains(subnet) && subnet != a.prefix
                  && admitted(RouteQuery(protocolName: "direct", prefix: subnet))
                {
                  local.append("\(u.name) \(subnet)")
                } else if a.prefix.contains(host) && admitted(RouteQuery(protocolName: "local", prefix: host)) {
                  local.append("\(u.name) \(host)")
                }
              }
            }
          }
        }
        for (p, _) in ri.staticRoutes where a.prefix.contains(p) && p != a.prefix {
          if admitted(RouteQuery(protocolName: "static", prefix: p)) { local.append("static \(p)") }
        }
        for other in ri.aggregates where a.prefix.contains(other.prefix) && other.prefix != a.prefix {
          if admitted(RouteQuery(protocolName: "aggregate", prefix: other.prefix)) { local.append("\(other.kind) \(other.prefix)") }
        }
        var clients: [String] = []
        if let bgp = ri.bgp {
          for g in bgp.groups where c.isExternal(g, in: ri) {
            let imp = g.importChain ?? bgp.importChain ?? []
            let learned: Bool
            if imp.isEmpty {
              learned = true
            } else {
              switch c.model.policy.evaluate(chain: imp, RouteQuery(protocolName: "bgp", prefix: a.prefix, orLonger: true)) {
              case .accepted, .mayBeAccepted: learned = true
              default: learned = false
              }
            }
            if learned && admitted(RouteQuery(protocolName: "bgp", prefix: a.prefix, orLonger: true)) { clients.append(g.name) }
          }
        }
        out.append(AggregateAnalysis(route: a, exports: exports, localContributors: local, clientContributors: clients))
      }
    }
    return out
  }
}

/// Rule 1: an aggregate without contributor policy is exported.
struct UnconditionalAggregateExported: Rule {
  var id: RuleID { .unconditionalAggregateExported }

  func check(config c: ConfigContext) -> [Finding] {
    var out: [Finding] = []
    for a in AggregateAnalysis.analyse(c) where a.route.policy == nil {
      let pool = Self.subscriberPool(c, a.route)
      for e in a.exports {
        // A BNG's subscriber pool: its contributors are the subscribers' own (access-internal)
        // routes, and the VPN is meant to reach them through this node.
        if case .vrfExport = e.chain.use, pool { continue }
        let severe: Bool
        switch e.chain.use {
        case .bgpExport(_, let ext): severe = ext
        case .vrfExport: severe = true
        default: severe = false
        }
        let term = e.term.term.isEmpty ? "" : " term \(e.term.term)"
        out.append(
          c.finding(
            id, severe ? .error : .warning,
            "\(a.route.kind) route \(a.route.prefix) has no contributor policy and is advertised by \(e.chain.describe) (policy \(e.term.policy)\(term))",
            at: a.route.node))
      }
    }
    return out
  }
}

extension UnconditionalAggregateExported {
  /// Whether the route summarises (or lies inside) a subscriber address pool of its instance or
  /// of the top-level `access`.
  static func subscriberPool(_ c: ConfigContext, _ r: AggregateRoute) -> Bool {
    let pools =
      c.model.master.subscriberPools + (c.model.instances.first { $0.name == r.instance && $0.name != "master" }?.subscriberPools ?? [])
    return pools.contains { $0.family == r.prefix.family && ($0.contains(r.prefix) || r.prefix.contains($0)) }
  }
}

/// Rule 2: an aggregate can be activated by local or client-learned routes.
struct AggregateActivatedWithoutCore: Rule {
  var id: RuleID { .aggregateActivatedWithoutCore }

  func check(config c: ConfigContext) -> [Finding] {
    var out: [Finding] = []
    for a in AggregateAnalysis.analyse(c) where !a.localContributors.isEmpty || !a.clientContributors.isEmpty {
      var parts: [String] = []
      if !a.localContributors.isEmpty {
        let shown = a.localContributors.prefix(4).joined(separator: ", ")
        let more = a.localContributors.count > 4 ? " and \(a.localContributors.count - 4) more" : ""
        parts.append("the router's own routes (\(shown)\(more))")
      }
      if !a.clientContributors.isEmpty {
        parts.append("routes learned from \(a.clientContributors.map { "group \($0)" }.joined(separator: ", "))")
      }
      let how = a.route.policy.map { "its contributor policy \($0) admits" } ?? "with no contributor policy, it can be activated by"
      let exported = !a.exports.isEmpty
      out.append(
        c.finding(
          id, exported ? .error : .warning,
          "\(a.route.kind) route \(a.route.prefix): \(how) \(parts.joined(separator: " and "))\(exported ? "; it is exported" : ""), so it stays up with no core link",
          at: a.route.node))
    }
    return out
  }
}

/// Rule 3: a `passive` aggregate stays installed.
struct AggregatePassiveAlwaysInstalled: Rule {
  var id: RuleID { .aggregatePassiveAlwaysInstalled }

  func check(config c: ConfigContext) -> [Finding] {
    AggregateAnalysis.analyse(c).filter(\.route.passive).map { a in
      let severe = a.route.policy == nil && !a.exports.isEmpty
      return c.finding(
        id, severe ? .error : .warning,
        "\(a.route.kind) route \(a.route.prefix) is passive: it stays installed (reject next hop) with no contributor\(severe ? ", and it is exported without a contributor policy" : "")",
        at: a.route.node)
    }
  }
}

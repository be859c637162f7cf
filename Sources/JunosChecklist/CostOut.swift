import JunosConfig

/// Whether a configuration keeps the node out of transit (CHECKLIST.md rule 4), and how.
struct CostOut: Sendable, Equatable {
  /// `overload` without `timeout` in some IGP.
  var overload = false
  /// `overload timeout N` only.
  var overloadTimeoutOnly = false
  /// Every core IGP interface carries a metric at or above the cost-out threshold.
  var highMetrics = false
  /// The overload statement (for locations).
  var overloadNode: NodeID?

  /// Whether the IGP keeps the node out of transit (not counting dark links).
  var viaIGP: Bool { overload || highMetrics }

  /// Words for messages.
  var describe: String {
    if overload { return "IGP overload" }
    if highMetrics { return "high metrics on every core interface" }
    if overloadTimeoutOnly { return "overload with a timeout" }
    return "nothing"
  }

  init(_ c: ConfigContext) {
    let t = c.tree
    var coreInterfaces = 0
    var coreHigh = 0
    for ri in c.model.instances {
      for igp in ri.igps {
        if let o = igp.overload {
          if igp.overloadTimeout == nil {
            overload = true
            overloadNode = o
          } else if !overload {
            overloadTimeoutOnly = true
            overloadNode = overloadNode ?? o
          }
        }
        // IS-IS: the narrow maximum (63) is a cost-out only where metrics are narrow; a metric
        // above 63 or `wide-metrics-only` means wide metrics, whose cost-out is 16,777,214.
        let wide =
          igp.protocolName == "isis"
          && (t.all(igp.node, "level").contains { t.has($0, "wide-metrics-only") }
            || igp.interfaces.contains { $0.metrics.contains { $0 > 63 } })
        let threshold = igp.protocolName == "isis" ? (wide ? 16_777_214 : 63) : 65_535
        for i in igp.interfaces where !i.passive && !i.disabled && c.roles.role(of: i.name) == .core {
          coreInterfaces += 1
          if let m = i.metrics.min(), m >= threshold { coreHigh += 1 }
        }
      }
    }
    highMetrics = coreInterfaces > 0 && coreHigh == coreInterfaces
    if overload { overloadTimeoutOnly = false }
  }
}

/// Rules 30–32: what a change does to routing, from the semantic comparison of every attachment
/// point (`SemanticPolicies.swift`).
///
/// - `export-leaks-routes`: a BGP or VRF export accepts routes it rejected; an error toward eBGP
///   peers and other VRFs, a warning toward iBGP peers.
/// - `import-drops-routes`: a BGP or VRF import, or the forwarding-table export, rejects routes it
///   accepted; an error.
/// - `igp-export-widened`: an IGP export accepts routes it rejected; an error when they include
///   BGP routes, the default route or every prefix, a warning otherwise.
///
/// Attachment points that change alike are reported once, at the term that now decides.
struct SemanticPolicyRule: Rule {
  let id: RuleID

  func check(change d: ChangeContext) -> [Finding] {
    var out: [Finding] = []
    var merged: [String: (places: [String], severity: Severity, path: [String], body: String)] = [:]
    var order: [String] = []
    for a in d.semanticPolicyDifferences() {
      guard let (kind, severity) = verdict(a.attachment) else { continue }
      let changes = a.difference.changes.filter { $0.kind == kind && $0.verified }
      guard let first = changes.first else { continue }
      var sev = severity
      if id == .igpExportWidened { sev = changes.contains(where: Self.isBroad) ? .error : .warning }
      let verb = kind == .nowAccepts ? "now accepts" : "now rejects"
      var body =
        "\(verb) \(first.routesText(limit: 3)) (example \(first.exampleText): \(DecisionChange.decisionText(first.before)) before, "
      body += "\(DecisionChange.decisionText(first.after)) now)"
      if changes.count > 1 { body += "; and \(changes.count - 1) more set\(changes.count == 2 ? "" : "s") of routes" }
      let path: [String]
      switch first.after.decision {
      case .accept(let t), .reject(let t): path = termPath(t.policy, t.term)
      default: path = a.attachment.path
      }
      let key = "\(body)\u{1}\(path)"
      if merged[key] == nil {
        order.append(key)
        merged[key] = ([], sev, path, body)
      }
      merged[key]!.places.append(a.attachment.description)
      if sev == .error { merged[key]!.severity = .error }
    }
    for key in order {
      let m = merged[key]!
      let places =
        m.places.count > 3
        ? m.places.prefix(3).joined(separator: ", ") + " and \(m.places.count - 3) more" : m.places.joined(separator: ", ")
      out.append(d.finding(id, m.severity, "\(places) \(m.body)", path: m.path))
    }
    return out
  }

  /// The kind of change this rule reports at `a`, and its severity there; `nil` when the rule
  /// does not look at such attachment points.
  private func verdict(_ a: PolicyAttachment) -> (DecisionChange.Kind, Severity)? {
    switch (id, a.kind) {
    case (.exportLeaksRoutes, .bgpExport): (.nowAccepts, a.external ? .error : .warning)
    case (.exportLeaksRoutes, .vrfExport): (.nowAccepts, .error)
    case (.importDropsRoutes, .bgpImport), (.importDropsRoutes, .vrfImport), (.importDropsRoutes, .forwardingTable): (.nowRejects, .error)
    case (.igpExportWidened, .igpExport): (.nowAccepts, .warning)
    default: nil
    }
  }

  /// Whether a widened IGP export now takes BGP routes, the default route or every prefix.
  private static func isBroad(_ c: DecisionChange) -> Bool {
    c.protocols.contains("bgp") || c.includesDefaultRoute || c.includesEveryPrefix
  }

}

import JunosConfig

/// Rule 35: the lo0 (routing-engine) filter discards a control-plane flow the router runs.
struct REFilterCutsProtocol: Rule {
  var id: RuleID { .reFilterCutsProtocol }

  /// lo0's input attachments of the master instance.
  static func attachments(_ c: ConfigContext, _ fw: FirewallConfig) -> [FilterAttachment] {
    let inInstances = Set(c.model.instances.dropFirst().flatMap(\.interfaces))
    return fw.attachments.filter { $0.isRoutingEngine && !inInstances.contains($0.unit) && FirewallComparison.family($0.family) != nil }
  }

  /// The statement of a deciding term (the last filter's for the implicit discard).
  static func node(_ fw: FirewallConfig, _ a: FilterAttachment, _ term: FilterTermRef?) -> NodeID? {
    if let term { return fw.filter(term.filter, family: a.family)?.terms.first { $0.name == term.term }?.node }
    return a.filters.last.flatMap { fw.filter($0, family: a.family)?.node }
  }

  static func termText(_ a: FilterAttachment, _ t: FilterTermRef?) -> String {
    guard let t else { return "the implicit discard at the end" }
    return a.filters.count == 1 && t.filter == a.filters[0] ? "term \(t.term)" : "filter \(t.filter) term \(t.term)"
  }

  static func isAre(_ what: String?) -> String { what?.contains(", ") == false ? "is" : "are" }

  static func name(_ a: FilterAttachment) -> String { a.filters.count == 1 ? a.filters[0] : "list [ \(a.filters.joined(separator: " ")) ]" }

  func check(config c: ConfigContext) -> [Finding] {
    let fw = FirewallConfig(tree: c.tree)
    let flows = ControlPlane.flows(c.model)
    var out: [Finding] = []
    for a in Self.attachments(c, fw) {
      let mine = flows.filter { $0.family == a.family }
      guard let chain = fw.chain(a.filters, family: a.family), let parts = SymbolicPartition(chain, regions: mine.map(\.packets)) else {
        continue
      }
      for f in mine {
        guard let (piece, example) = parts.first(within: f.packets, { $0 == .discard || $0 == .reject }) else { continue }
        let cut = (term: piece.term, example: example)
        let at = Self.node(fw, a, cut.term) ?? f.node
        var finding = c.finding(
          id, .warning, "lo0 filter \(Self.name(a)) discards \(f.label) (\(Self.termText(a, cut.term))), e.g. \(cut.example)", at: at)
        finding.subject = "\(a.key)\u{1}\(f.label)"
        out.append(finding)
      }
    }
    return out
  }

  func check(change d: ChangeContext) -> [Finding] {
    let oldFW = FirewallConfig(tree: d.before.tree)
    let newFW = FirewallConfig(tree: d.after.tree)
    let flows = ControlPlane.flows(d.after.model)
    let before = Dictionary(Self.attachments(d.before, oldFW).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
    var out: [Finding] = []
    for a in Self.attachments(d.after, newFW) {
      let old = before[a.key].map { oldFW.chain($0.filters, family: $0.family) } ?? FirewallComparison.noFilter(a.family)
      guard let old, let new = newFW.chain(a.filters, family: a.family) else { continue }
      if let o = before[a.key], o.filters == a.filters, !FirewallComparison.chainsDiffer(oldFW, newFW, a) { continue }
      let mine = flows.filter { $0.family == a.family }
      guard let diff = SymbolicDiff(old: old, new: new, regions: mine.map(\.packets)) else { continue }
      for f in mine {
        let cuts = diff.changes(within: f.packets, limit: 1) { $0 == .accept && ($1 == .discard || $1 == .reject) }
        guard let cut = cuts.first else {
          // Accepted before, now decided by a term that is not modelled: said, never guessed.
          let maybe = diff.changes(within: f.packets, limit: 1) { $0 == .accept && $1 == .unmodelled }
          if let m = maybe.first, let t = m.newTerm {
            let what = newFW.filter(t.filter, family: a.family)?.terms.first { $0.name == t.term }.map {
              ($0.match.unmodelled + $0.unmodelledActions).joined(separator: ", ")
            }
            let path = Self.node(newFW, a, t).map { d.after.tree.pathWords(of: $0) } ?? ["interfaces", "lo0"]
            out.append(
              d.finding(
                id, .warning,
                "lo0 filter \(Self.name(a)) may now discard \(f.label): it reaches \(Self.termText(a, t)), whose \(what ?? "conditions") \(Self.isAre(what)) not modelled, e.g. \(m.example)",
                path: path))
          }
          continue
        }
        let was = before[a.key].map { Self.termText($0, cut.oldTerm) } ?? "no filter"
        let path = Self.node(newFW, a, cut.newTerm).map { d.after.tree.pathWords(of: $0) } ?? ["interfaces", "lo0"]
        var finding = d.finding(
          id, .error,
          "lo0 filter \(Self.name(a)) now discards \(f.label) (\(Self.termText(a, cut.newTerm)), was accepted by \(was)), e.g. \(cut.example)",
          path: path)
        finding.subject = "\(a.key)\u{1}\(f.label)"
        out.append(finding)
      }
    }
    return out
  }

  /// Drops the warnings (a configuration's) that an error of a change already reports for the
  /// same flow.
  static func dropCovered(_ findings: inout [Finding]) {
    let errors = Set(findings.filter { $0.rule == .reFilterCutsProtocol && $0.severity == .error }.compactMap(\.subject))
    guard !errors.isEmpty else { return }
    findings.removeAll { f in f.rule == .reFilterCutsProtocol && f.severity == .warning && f.subject.map(errors.contains) == true }
  }
}

public import JunosConfig

/// One input of a joint lint (``Checklist/lint(together:options:)``).
public struct LintInput {
  /// What the input is.
  public enum Kind {
    /// A full configuration, linted alone (it changes nothing, so it takes no part in the pair
    /// check).
    case configuration
    /// Commands, compare text or a whole new configuration, against its own running
    /// configuration.
    case change(baseline: SourceFile)
    /// A change plan; `read` reads the files it names (as for ``Checklist/lint(plan:options:read:)``).
    case plan(read: (String) throws -> SourceFile)
  }

  /// The file.
  public var file: SourceFile
  /// What it is.
  public var kind: Kind

  /// Bundles an input.
  public init(file: SourceFile, kind: Kind) {
    self.file = file
    self.kind = kind
  }
}

extension Checklist {
  /// Lints several inputs together, typically the changes (or plans) for the routers of a
  /// redundant pair, each against its own baseline: every input gets the findings it gets alone,
  /// except `redundant-pair-attribute-change`, which compares them. Inputs that are a pair
  /// (a BGP group of the same name with a neighbor or a peer AS in common) are checked against each
  /// other: a MED or local-preference change on a group or policy both have is an error when both
  /// change it and a warning when one does. An input with no partner among the others keeps its
  /// own findings of that rule.
  ///
  /// - Returns: One result per input, in order; each finding keeps its own file's locations.
  public static func lint(together inputs: [LintInput], options: LintOptions = LintOptions()) -> [LintResult] {
    var results: [LintResult] = []
    var views: [PairView?] = []
    for input in inputs {
      switch input.kind {
      case .configuration:
        results.append(lint(config: input.file, options: options))
        views.append(nil)
      case .change(let baseline):
        let (r, d) = lintWithChange(changes: input.file, baseline: baseline, options: options)
        results.append(r)
        views.append(
          d.map { PairView(file: input.file.path, before: $0.before, after: $0.after, changes: PairSettings.changes($0), accepts: []) })
      case .plan(let read):
        let (r, replay) = lintWithReplay(plan: input.file, options: options, read: read)
        results.append(r)
        views.append(replay.flatMap { pairView($0, file: input.file.path) })
      }
    }
    for (i, found) in RedundantPairAttributeChange.across(views).enumerated() {
      guard let found, let view = views[i], !results[i].hasErrors else { continue }
      let allows = annotationAllows([view.after]).allows
      var r = results[i]
      r.findings.removeAll { $0.rule == .redundantPairAttributeChange }
      for f in found {
        if view.accepted(f) || isSuppressed(f, allows: allows, options: options) { r.suppressed += 1 } else { r.findings.append(f) }
      }
      r.findings.sort()
      results[i] = r
    }
    return results
  }

  /// A plan's part in the pair check: its steps' MED and local-preference changes, from the state
  /// before its first step.
  static func pairView(_ r: PlanReplay, file: String) -> PairView? {
    guard let last = r.states.last else { return nil }
    var accepts: [String?] = r.plan.accepts.filter { $0.ruleID == .redundantPairAttributeChange }.map { _ in nil }
    for s in r.plan.steps {
      accepts += s.accepts.filter { $0.ruleID == .redundantPairAttributeChange }.map { _ in s.id }
    }
    let changes = r.states.filter(\.changed).flatMap { PairSettings.changes($0.change) }
    return PairView(file: file, before: r.initial, after: last.after, changes: changes, accepts: accepts)
  }
}

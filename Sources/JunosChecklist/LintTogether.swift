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
    // Every router's view, with the input it comes from (a plan's other nodes come from the plan).
    var views: [PairView?] = []
    var owners: [Int] = []
    for (k, input) in inputs.enumerated() {
      switch input.kind {
      case .configuration:
        results.append(lint(config: input.file, options: options))
        views.append(nil)
        owners.append(k)
      case .change(let baseline):
        let (r, d) = lintWithChange(changes: input.file, baseline: baseline, options: options)
        results.append(r)
        views.append(
          d.map { PairView(file: input.file.path, before: $0.before, after: $0.after, changes: PairSettings.changes($0), accepts: []) })
        owners.append(k)
      case .plan(let read):
        let (r, replay, nodes) = lintWithReplay(plan: input.file, options: options, read: read)
        results.append(r)
        views.append(replay.flatMap { pairView($0, file: input.file.path) })
        owners.append(k)
        views += nodes.map { Optional($0) }
        owners += nodes.map { _ in k }
      }
    }
    // Each input's findings of the rule, recomputed over every view; an input none of whose views
    // has a partner keeps its own.
    var joint: [[(finding: Finding, view: PairView)]?] = Array(repeating: nil, count: inputs.count)
    for (v, found) in RedundantPairAttributeChange.across(views).enumerated() {
      guard let found, let view = views[v] else { continue }
      joint[owners[v]] = (joint[owners[v]] ?? []) + found.map { ($0, view) }
    }
    for (i, found) in joint.enumerated() {
      guard let found, !results[i].hasErrors else { continue }
      let contexts = zip(views, owners).filter { $0.1 == i }.compactMap { $0.0?.after }
      let allows = annotationAllows(contexts).allows
      var r = results[i]
      r.findings.removeAll { $0.rule == .redundantPairAttributeChange }
      for (f, view) in found {
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
    let changes = r.states.filter(\.changed).flatMap { PairSettings.changes($0.change) }
    return PairView(file: file, before: r.initial, after: last.after, changes: changes, accepts: pairAccepts(r.plan))
  }

  /// The steps whose `#@ accept redundant-pair-attribute-change` covers them (`nil`: all).
  static func pairAccepts(_ plan: ChangePlan) -> [String?] {
    var accepts: [String?] = plan.accepts.filter { $0.ruleID == .redundantPairAttributeChange }.map { _ in nil }
    for s in plan.steps {
      accepts += s.accepts.filter { $0.ruleID == .redundantPairAttributeChange }.map { _ in s.id }
    }
    return accepts
  }

  /// The plan's other nodes (`#@ node NAME FILE`), each replayed from its file through the
  /// configuration lines its `#@ on NAME` sections give it (rollback steps left out), as views for
  /// the pair check; problems reading or applying them.
  static func nodeViews(_ r: PlanReplay, options: LintOptions, read: (String) throws -> SourceFile) -> (
    views: [PairView], diagnostics: [Diagnostic]
  ) {
    let plan = r.plan
    var views: [PairView] = []
    var diagnostics: [Diagnostic] = []
    for node in plan.nodes {
      let f: SourceFile
      do { f = try read(node.baseline.path) } catch {
        var d = Diagnostic(
          .invalidChecklistInput, (error as? any CustomStringConvertible)?.description ?? "cannot read \(node.baseline.path)",
          in: plan.file,
          at: 0..<0)
        d.location = node.baseline.location
        diagnostics.append(d)
        continue
      }
      let parsed = ConfigParser.parse(f)
      diagnostics += parsed.diagnostics
      let initial = context(parsed.tree, primary: f, sources: [(parsed.tree, f)], options: options, bringUp: false)
      var tree = parsed.tree
      var before = initial
      var changes: [PairChange] = []
      for step in plan.steps {
        guard let commands = step.nodeCommands[node.name], !commands.isEmpty else { continue }
        let lines = Set(commands.map(\.line))
        let cf = PlanReplay.blanked(plan.file, keeping: lines)
        let loaded = ConfigParser.load(cf, onto: tree)
        diagnostics += loaded.diagnostics
        tree = loaded.tree
        let after = context(tree, primary: cf, sources: [(tree, cf), (parsed.tree, f)], options: options, bringUp: false)
        let fallback = FindingLocation(file: plan.file.path, line: step.location.line, column: step.location.column)
        let d = ChangeContext(
          before: before, after: after, step: step.id, changeLocator: ChangeLocator(file: plan.file, fallback: fallback, onlyLines: lines))
        changes += PairSettings.changes(d)
        before = after
      }
      views.append(PairView(file: "node \(node.name)", before: initial, after: before, changes: changes, accepts: pairAccepts(plan)))
    }
    return (views, diagnostics)
  }
}

public import JunosConfig
import JunosDiff
import JunosHistory

/// Settings of a lint run.
public struct LintOptions: Sendable {
  /// Role assignments and description patterns.
  public var roleRules: RoleRules
  /// Live core links (with verified adjacencies) a node needs before client links may go live.
  public var minCoreLinks: Int
  /// Entries of a suppression file.
  public var suppressions: [SuppressionEntry]

  /// Default settings.
  public init(roleRules: RoleRules = RoleRules(), minCoreLinks: Int = 1, suppressions: [SuppressionEntry] = []) {
    self.roleRules = roleRules
    self.minCoreLinks = minCoreLinks
    self.suppressions = suppressions
  }
}

/// What a lint run found, and the input problems that stopped it.
public struct LintResult: Sendable {
  /// Findings, sorted, after suppressions.
  public var findings: [Finding]
  /// Syntax errors and unreadable inputs: when any is an error, the findings are not to be
  /// trusted (exit 2).
  public var diagnostics: [Diagnostic]
  /// How many findings suppressions removed.
  public var suppressed: Int

  /// Whether an input error stopped the lint.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// Bundles a result.
  public init(findings: [Finding], diagnostics: [Diagnostic], suppressed: Int = 0) {
    self.findings = findings
    self.diagnostics = diagnostics
    self.suppressed = suppressed
  }
}

/// The outage checklist: every rule, and the entry points for each kind of input.
public enum Checklist {
  /// Every rule, in catalogue order.
  public static func rules(_ options: LintOptions) -> [any Rule] {
    [
      UnconditionalAggregateExported(), AggregateActivatedWithoutCore(), AggregatePassiveAlwaysInstalled(), NodeNotCostedOut(),
      UncostAndEnableSameStep(), CostedOutNodeStillAttractsViaBGP(), ClientLinksBeforeCoreLinks(minCoreLinks: options.minCoreLinks),
      InterfaceRoleUnclassified(), ProtocolReferencesUndefinedInterface(), LDPIGPSyncMissing(), CoreLinkWithoutCoS(),
      CoreLinkWithoutCoSInPlan(),
      ChangeWithoutCommitConfirmed(), TermMatchConditionsRemoved(), GuardTermRemoved(), PolicyTermReordered(), MatchAllAcceptTerm(),
      BGPSessionWithoutPolicy(), PolicyDetached(), IGPExportAdmitsBGP(), BGPMissingPrefixLimit(), BulkCoreIsolation(),
      DeactivateInsteadOfDisable(), BGPShutdownWithoutDrain(), StepWithoutVerification(), CoreLinkWithoutBFD(), FlowspecRouteOverbroad(),
      GroupChangeReach(), SemanticPolicyRule(id: .exportLeaksRoutes), SemanticPolicyRule(id: .importDropsRoutes),
      SemanticPolicyRule(id: .igpExportWidened), RedundantPairAttributeChange(), LinkUpBeforeSessions(), REFilterCutsProtocol(),
    ]
  }

  static func context(
    _ tree: ConfigTree, primary: SourceFile?, sources: [(tree: ConfigTree, file: SourceFile)], options: LintOptions, bringUp: Bool
  )
    -> ConfigContext
  {
    let inherited = tree.inheritance(interfaceRanges: true)
    let model = RouterModel(effective: inherited.configuration)
    let fallback = FindingLocation(file: primary?.path ?? sources.first?.file.path ?? "-", line: 0, column: 0)
    return ConfigContext(
      model: model, roles: InterfaceRoles(model: model, rules: options.roleRules), step: nil, bringUp: bringUp,
      locator: Locator(primary: primary, sources: sources, fallback: fallback), written: tree, inherited: inherited)
  }

  /// The schema check every input under review goes through: an unknown statement is a warning
  /// (the device's release may know it: Juniper's own validated designs hold statements this
  /// schema does not) unless it is a likely mistake (a typo of one the schema has there, or a
  /// top-level statement of a file whose top-level statements the schema knows none of); a likely mistake, a wrong value, a missing key or two cases of
  /// one choice stop the lint.
  static let schemaCheck = SchemaCheck(lenient: true, likelyMistakesAreErrors: true)

  /// Lints a full configuration with the configuration rules.
  public static func lint(config file: SourceFile, options: LintOptions = LintOptions()) -> LintResult {
    let parsed = ConfigParser.parse(file)
    guard !parsed.hasErrors else { return LintResult(findings: [], diagnostics: parsed.diagnostics) }
    // A configuration that `commit check` would refuse is not linted further.
    let diagnostics = parsed.diagnostics + schemaCheck.diagnostics(of: parsed.tree, in: file, model: .standard)
    guard !diagnostics.contains(where: { $0.severity == .error }) else { return LintResult(findings: [], diagnostics: diagnostics) }
    let c = context(parsed.tree, primary: file, sources: [(parsed.tree, file)], options: options, bringUp: false)
    let findings = rules(options).flatMap { $0.check(config: c) }
    return finish(findings, contexts: [c], diagnostics: diagnostics, options: options)
  }

  /// Lints a change (commands or compare text in `changes`, or a whole new configuration)
  /// against `baseline`: the change rules, and the configuration rules' findings that the change
  /// introduces.
  public static func lint(changes: SourceFile, baseline: SourceFile, options: LintOptions = LintOptions()) -> LintResult {
    lintWithChange(changes: changes, baseline: baseline, options: options).result
  }

  /// ``lint(changes:baseline:options:)``, with the change it linted (`nil` when an input error
  /// stopped it).
  static func lintWithChange(changes: SourceFile, baseline: SourceFile, options: LintOptions) -> (
    result: LintResult, change: ChangeContext?
  ) {
    let base = ConfigParser.parse(baseline)
    guard !base.hasErrors else { return (LintResult(findings: [], diagnostics: base.diagnostics), nil) }
    var baseTree = base.tree
    baseTree.mergeDuplicateBlocks()
    var diagnostics = base.diagnostics
    let afterTree: ConfigTree
    var primary: SourceFile? = changes
    var sources: [(tree: ConfigTree, file: SourceFile)] = [(base.tree, baseline)]
    if CompareText.looksLikeCompare(changes) {
      let text = CompareText.parse(changes)
      diagnostics += text.diagnostics
      guard !text.hasErrors else { return (LintResult(findings: [], diagnostics: diagnostics), nil) }
      let r = text.apply(to: baseTree)
      diagnostics += r.diagnostics
      guard !r.hasErrors else { return (LintResult(findings: [], diagnostics: diagnostics), nil) }
      afterTree = r.tree
      primary = nil
    } else if ConfigParser.detectSyntax(changes) == .set {
      let r = ConfigParser.load(changes, onto: baseTree)
      diagnostics += r.diagnostics
      diagnostics += SchemaCheck(onlyStatementsOfFile: true).diagnostics(of: r.tree, in: changes, model: .standard)
      guard !diagnostics.contains(where: { $0.severity == .error }) else {
        return (LintResult(findings: [], diagnostics: diagnostics), nil)
      }
      afterTree = r.tree
    } else {
      let r = ConfigParser.parse(changes)
      diagnostics += r.diagnostics
      diagnostics += schemaCheck.diagnostics(of: r.tree, in: changes, model: .standard)
      guard !diagnostics.contains(where: { $0.severity == .error }) else {
        return (LintResult(findings: [], diagnostics: diagnostics), nil)
      }
      afterTree = r.tree
      sources.insert((r.tree, changes), at: 0)
    }
    return lintChangeKeeping(
      before: base.tree, beforeFile: baseline, after: afterTree, primary: primary, sources: sources, changes: changes,
      diagnostics: diagnostics, options: options)
  }

  /// Lints a change given as two parsed configurations (a batch of commits read from a
  /// history): the change rules over (`before`, `after`), and the configuration rules' findings
  /// that `after` has and `before` had not — what ``lint(changes:baseline:options:)`` does for a
  /// whole new configuration.
  ///
  /// - Parameters:
  ///   - before: The configuration the change applies to.
  ///   - beforeFile: Its text, for findings' locations.
  ///   - after: The configuration it produces.
  ///   - afterFile: Its text, for findings' locations.
  ///   - options: Role rules, thresholds, suppressions.
  public static func lint(
    before: ConfigTree, beforeFile: SourceFile, after: ConfigTree, afterFile: SourceFile, options: LintOptions = LintOptions()
  ) -> LintResult {
    lintChange(
      before: before, beforeFile: beforeFile, after: after, primary: afterFile, sources: [(after, afterFile), (before, beforeFile)],
      changes: afterFile, diagnostics: [], options: options)
  }

  /// A configuration prepared for the checklist once: its effective model, interface roles and
  /// the configuration rules' findings. A history read in order lints each batch from the state
  /// before it to the state after it (``lint(from:to:options:)``), and the state after one batch
  /// is the state before the next, so each configuration is modelled once, not twice.
  public struct State {
    let context: ConfigContext
    let findings: [Finding]
    let keys: Set<Key>
    let file: SourceFile
  }

  /// Prepares `tree` (whose text is `file`, for findings' locations) for ``lint(from:to:options:)``.
  public static func state(of tree: ConfigTree, file: SourceFile, options: LintOptions = LintOptions()) -> State {
    let c = context(tree, primary: file, sources: [(tree, file)], options: options, bringUp: false)
    let findings = rules(options).flatMap { $0.check(config: c) }
    return State(context: c, findings: findings, keys: Set(findings.map(Key.init)), file: file)
  }

  /// What ``lint(before:beforeFile:after:afterFile:options:)`` finds, from prepared states: the
  /// change rules over (`before`, `after`) and the configuration findings `after` adds. `options`
  /// must be the ones the states were prepared with.
  public static func lint(from before: State, to after: State, options: LintOptions = LintOptions()) -> LintResult {
    let d = ChangeContext(
      before: before.context, after: after.context, step: nil,
      changeLocator: ChangeLocator(file: after.file, fallback: FindingLocation(file: after.file.path, line: 1, column: 1)))
    var findings = after.findings.filter { !before.keys.contains(Key($0)) }
    findings += rules(options).flatMap { $0.check(change: d) }
    return finish(findings, contexts: [after.context], diagnostics: [], options: options)
  }

  /// The change rules over `before` → `after`, and the configuration findings the change adds.
  static func lintChange(
    before beforeTree: ConfigTree, beforeFile: SourceFile, after afterTree: ConfigTree, primary: SourceFile?,
    sources: [(tree: ConfigTree, file: SourceFile)], changes: SourceFile, diagnostics: [Diagnostic], options: LintOptions
  ) -> LintResult {
    lintChangeKeeping(
      before: beforeTree, beforeFile: beforeFile, after: afterTree, primary: primary, sources: sources, changes: changes,
      diagnostics: diagnostics, options: options
    ).result
  }

  /// ``lintChange(before:beforeFile:after:primary:sources:changes:diagnostics:options:)``, with
  /// the change it linted.
  static func lintChangeKeeping(
    before beforeTree: ConfigTree, beforeFile: SourceFile, after afterTree: ConfigTree, primary: SourceFile?,
    sources: [(tree: ConfigTree, file: SourceFile)], changes: SourceFile, diagnostics: [Diagnostic], options: LintOptions
  ) -> (result: LintResult, change: ChangeContext) {
    let before = context(beforeTree, primary: beforeFile, sources: [(beforeTree, beforeFile)], options: options, bringUp: false)
    let after = context(afterTree, primary: primary, sources: sources, options: options, bringUp: false)
    let d = ChangeContext(
      before: before, after: after, step: nil,
      changeLocator: ChangeLocator(file: changes, fallback: FindingLocation(file: changes.path, line: 1, column: 1)))
    let all = rules(options)
    let old = Set(all.flatMap { $0.check(config: before) }.map(Key.init))
    var findings = all.flatMap { $0.check(config: after) }.filter { !old.contains(Key($0)) }
    findings += all.flatMap { $0.check(change: d) }
    return (finish(findings, contexts: [after], diagnostics: diagnostics, options: options), d)
  }

  /// Lints a change plan: replays it, runs the configuration rules on every step's state (what
  /// the baseline already had is not reported), the change rules on every step, and the plan
  /// rules.
  ///
  /// - Parameter read: Reads a file the plan names, given its path as written.
  public static func lint(plan file: SourceFile, options: LintOptions = LintOptions(), read: (String) throws -> SourceFile) -> LintResult {
    lintWithReplay(plan: file, options: options, read: read).result
  }

  /// ``lint(plan:options:read:)``, with the replay it linted (`nil` when an input error stopped
  /// it).
  static func lintWithReplay(plan file: SourceFile, options: LintOptions, read: (String) throws -> SourceFile) -> (
    result: LintResult, replay: PlanReplay?, nodes: [PairView]
  ) {
    let (plan, planDiagnostics) = ChangePlan.parse(file)
    guard !planDiagnostics.contains(where: { $0.severity == .error }) else {
      return (LintResult(findings: [], diagnostics: planDiagnostics), nil, [])
    }
    let replay = PlanReplay(plan: plan, roleRules: options.roleRules, read: read)
    let (nodes, nodeDiagnostics) = nodeViews(replay, options: options, read: read)
    let diagnostics = planDiagnostics + replay.diagnostics + nodeDiagnostics
    guard !diagnostics.contains(where: { $0.severity == .error }) else {
      return (LintResult(findings: [], diagnostics: diagnostics), nil, [])
    }
    let all = rules(options)
    let baseline = Set(all.flatMap { $0.check(config: replay.initial) }.map(Key.init))
    var findings: [Finding] = []
    var seen = baseline
    for s in replay.states + replay.rollbackStates where s.changed {
      for f in all.flatMap({ $0.check(config: s.after) }) where seen.insert(Key(f)).inserted { findings.append(f) }
      for f in all.flatMap({ $0.check(change: s.change) }) { findings.append(f) }
    }
    findings += all.flatMap { $0.check(plan: replay) }
    // The plan's other nodes (`#@ node`): the pair check between them and the plan's own node.
    if !nodes.isEmpty, let own = pairView(replay, file: "node " + (plan.header?.node ?? "of \(file.path)")) {
      let across = RedundantPairAttributeChange.across([own] + nodes)
      if let mine = across[0] {
        findings.removeAll { $0.rule == .redundantPairAttributeChange }
        findings += mine
      }
      findings += across.dropFirst().compactMap { $0 }.joined()
    }
    // Where a plan escalates a configuration finding (rule 12), keep the escalated one.
    var top: [String: Severity] = [:]
    for f in findings where f.rule == .coreLinkWithoutCoS { top[f.path] = max(top[f.path] ?? .info, f.severity) }
    findings.removeAll { $0.rule == .coreLinkWithoutCoS && $0.severity < top[$0.path]! }
    var accepts: [(PlanAccept, String?)] = plan.accepts.map { ($0, nil) }
    for s in plan.steps + plan.rollbackSteps { accepts += s.accepts.map { ($0, s.id) } }
    var extra: [Finding] = []
    var suppressed = 0
    findings.removeAll { f in
      for (a, step) in accepts where a.rule == f.rule.rawValue && (step == nil || step == f.step) {
        suppressed += 1
        return true
      }
      return false
    }
    for (a, step) in accepts where (a.reason ?? "").isEmpty {
      extra.append(
        Finding(
          rule: .suppressionWithoutReason, message: "#@ accept \(a.rule) gives no reason",
          location: FindingLocation(file: file.path, line: a.location.line, column: a.location.column), step: step))
    }
    var r = finish(
      findings + extra, contexts: (replay.states + replay.rollbackStates).map(\.after), diagnostics: diagnostics, options: options)
    r.suppressed += suppressed
    return (r, replay, nodes)
  }

  /// Lints a commit history (rule 14). `emptyDiff(i)` says whether commit `i` changed nothing
  /// (`nil` when the rollbacks are not at hand).
  public static func lint(history file: SourceFile, options: LintOptions = LintOptions(), emptyDiff: (Int) -> Bool? = { _ in nil })
    -> LintResult
  {
    let history = CommitHistory.read(file)
    let errors = history.diagnostics.filter { $0.severity == .error }
    guard errors.isEmpty else { return LintResult(findings: [], diagnostics: history.diagnostics) }
    var findings: [Finding] = []
    let commits = history.commits
    for (k, c) in commits.enumerated() where k > 0 {
      guard let minutes = c.confirmedMinutes, let i = c.index else { continue }
      let next = commits[k - 1]
      guard next.user == c.user, (next.log ?? "").isEmpty, (next.comment ?? "").isEmpty, let ni = next.index else { continue }
      guard let a = c.localTime, let b = next.localTime else { continue }
      let gap = b.secondsAsUTC - a.secondsAsUTC
      guard gap >= 0, gap <= Int64(minutes) * 60 else { continue }
      let empty = emptyDiff(ni)
      if empty == false { continue }
      let how = empty == true ? "changed nothing" : "has no log message (the rollbacks are not at hand to check that it changed nothing)"
      findings.append(
        Finding(
          rule: .emptyConfirmingCommit,
          message:
            "commit \(ni) by \(next.user), \(gap) s after the commit confirmed \(minutes) (commit \(i)), \(how): confirm with commit check instead",
          location: FindingLocation(file: file.path, line: next.line, column: 1)))
    }
    return finish(findings, contexts: [], diagnostics: history.diagnostics, options: options)
  }

  struct Key: Hashable {
    var rule: RuleID
    var path: String
    var message: String
    init(_ f: Finding) {
      rule = f.rule
      path = f.path
      // Messages of one statement differ by step wording only in plan rules; configuration
      // findings are compared whole.
      message = f.message
    }
  }

  /// The `checklist: allow RULE` annotations of `contexts` (path and rule), and a finding for each
  /// one that gives no reason.
  static func annotationAllows(_ contexts: [ConfigContext]) -> (allows: [(path: String, rule: String)], unexplained: [Finding]) {
    var extra: [Finding] = []
    var allows: [(path: String, rule: String)] = []
    var seenAnnotations: Set<String> = []
    for c in contexts {
      let t = c.tree
      t.forEachStatement { node in
        guard let a = t.annotation(of: node), let r = a.firstRange(of: "checklist: allow ") else { return }
        let rest = a[r.upperBound...].split(separator: " ", maxSplits: 1)
        guard let rule = rest.first.map(String.init) else { return }
        let path = t.setPathText(node)
        allows.append((path, rule))
        let reason = rest.count > 1 ? rest[1].trimmingCharacters(in: " */") : ""
        if reason.isEmpty && seenAnnotations.insert(path + " " + rule).inserted {
          extra.append(
            Finding(
              rule: .suppressionWithoutReason, message: "annotation 'checklist: allow \(rule)' gives no reason",
              location: c.location(of: node), step: c.step,
              path: path))
        }
      }
    }
    return (allows, extra)
  }

  /// Whether an annotation (`allows`) or an entry of the suppression file suppresses `f`.
  static func isSuppressed(_ f: Finding, allows: [(path: String, rule: String)], options: LintOptions) -> Bool {
    for a in allows where a.rule == f.rule.rawValue && (f.path == a.path || f.path.hasPrefix(a.path + " ")) { return true }
    return options.suppressions.contains { $0.rule == f.rule.rawValue && $0.matches(path: f.path) }
  }

  /// Applies annotation and file suppressions, sorts.
  static func finish(_ raw: [Finding], contexts: [ConfigContext], diagnostics: [Diagnostic], options: LintOptions) -> LintResult {
    var findings = raw
    REFilterCutsProtocol.dropCovered(&findings)
    let (allows, unexplained) = annotationAllows(contexts)
    var extra = unexplained
    var suppressed = 0
    findings.removeAll { f in
      guard isSuppressed(f, allows: allows, options: options) else { return false }
      suppressed += 1
      return true
    }
    for s in options.suppressions where s.reason.isEmpty {
      extra.append(
        Finding(
          rule: .suppressionWithoutReason, message: "suppression of \(s.rule) for '\(s.pathGlob)' gives no reason", location: s.location))
    }
    var unique: [Finding] = []
    var keys: Set<Finding> = []
    for f in findings + extra where keys.insert(f).inserted { unique.append(f) }
    return LintResult(findings: unique.sorted(), diagnostics: diagnostics, suppressed: suppressed)
  }
}

extension Substring {
  func trimmingCharacters(in set: String) -> String {
    let drop = Set(set.unicodeScalars)
    var s = unicodeScalars[...]
    while let f = s.first, drop.contains(f) { s = s.dropFirst() }
    while let l = s.last, drop.contains(l) { s = s.dropLast() }
    return String(String.UnicodeScalarView(s))
  }
}

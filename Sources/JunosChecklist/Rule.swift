public import JunosConfig

/// One configuration as the rules see it: its model, interface roles and a way to say where a
/// statement is.
public struct ConfigContext: Sendable {
  /// The effective configuration's model.
  public let model: RouterModel
  /// Interface roles.
  public let roles: InterfaceRoles
  /// The plan step this state follows (`nil` outside plans).
  public let step: String?
  /// Whether this configuration is for a node being brought into service (a swap or bring-up
  /// plan, or a config loaded from another chassis): raises some severities.
  public let bringUp: Bool
  let locator: Locator
  /// Applied chains and aggregate analyses, computed on first use.
  let cache: ContextCache
  /// The configuration as written (groups not expanded), when known.
  public let written: ConfigTree?
  /// The effective configuration with the origin of inherited statements, when known (its
  /// configuration is the one ``model`` was read from).
  public let inherited: InheritedConfiguration?

  init(
    model: RouterModel, roles: InterfaceRoles, step: String?, bringUp: Bool, locator: Locator, cache: ContextCache = ContextCache(),
    written: ConfigTree? = nil, inherited: InheritedConfiguration? = nil
  ) {
    self.written = written
    self.inherited = inherited
    self.model = model
    self.roles = roles
    self.step = step
    self.bringUp = bringUp
    self.locator = locator
    self.cache = cache
  }

  /// The tree.
  public var tree: ConfigTree { model.tree }

  /// Where a statement of the effective tree is.
  public func location(of node: NodeID) -> FindingLocation { locator.location(of: node, in: model.tree) }

  /// A finding about a statement.
  func finding(_ rule: RuleID, _ severity: Severity? = nil, _ message: String, at node: NodeID) -> Finding {
    Finding(rule: rule, severity: severity, message: message, location: location(of: node), step: step, path: tree.setPathText(node))
  }
}

/// A change: the configuration before and after, and where the change's lines are.
public struct ChangeContext: Sendable {
  /// The configuration before the change.
  public let before: ConfigContext
  /// The configuration after it.
  public let after: ConfigContext
  /// The plan step (`nil` outside plans).
  public let step: String?
  /// Whether the step is in a plan's `#@ rollback` section (undoing on purpose).
  public let isRollback: Bool
  let changeLocator: ChangeLocator
  /// Semantic comparisons, computed on first use.
  let cache = ChangeCache()

  init(before: ConfigContext, after: ConfigContext, step: String?, isRollback: Bool = false, changeLocator: ChangeLocator) {
    self.before = before
    self.after = after
    self.step = step
    self.isRollback = isRollback
    self.changeLocator = changeLocator
  }

  /// Where the change touches `path` (the line that deletes, deactivates or sets it).
  public func location(ofChangeTo path: [String]) -> FindingLocation { changeLocator.location(of: path) }

  /// A finding about a path the change touched.
  func finding(_ rule: RuleID, _ severity: Severity? = nil, _ message: String, path: [String]) -> Finding {
    Finding(
      rule: rule, severity: severity, message: message, location: location(ofChangeTo: path), step: step,
      path: path.map { ConfigTree.quoteIfNeeded($0) }.joined(separator: " "))
  }
}

/// A rule of the checklist. Each rule looks at whichever inputs it understands; the others
/// return nothing.
public protocol Rule: Sendable {
  /// The rule's catalogue id.
  var id: RuleID { get }
  /// Findings on one configuration (run on a linted config, and on every plan step's state).
  func check(config: ConfigContext) -> [Finding]
  /// Findings on a change (a diff against a baseline, or one plan step).
  func check(change: ChangeContext) -> [Finding]
  /// Findings on a replayed plan.
  func check(plan: PlanReplay) -> [Finding]
}

extension Rule {
  /// No findings on configurations.
  public func check(config: ConfigContext) -> [Finding] { [] }
  /// No findings on changes.
  public func check(change: ChangeContext) -> [Finding] { [] }
  /// No findings on plans.
  public func check(plan: PlanReplay) -> [Finding] { [] }
}

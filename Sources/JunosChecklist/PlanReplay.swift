public import JunosConfig

/// The state of a plan after one step (CHECKLIST.md §1.1, §1.5).
public struct StepState: Sendable {
  /// The step.
  public let step: PlanStep
  /// Its position (0-based) in the plan's steps, or in the rollback section.
  public let index: Int
  /// Whether the step is in the `#@ rollback` section.
  public let isRollback: Bool
  /// The committed configuration before the step.
  public let before: ConfigContext
  /// The configuration after the step's changes.
  public let after: ConfigContext
  /// Whether the step changed the configuration.
  public let changed: Bool
  /// Physically connected interfaces after the step.
  public let patched: Set<String>
  /// Live links (patched and not disabled) before and after the step.
  public let liveBefore: Set<String>
  /// Live links after the step.
  public let live: Set<String>
  /// Interfaces whose IGP adjacency has been verified (this step included).
  public let verifiedIGP: Set<String>
  /// Whether an LDP session has been verified (this step included).
  public let verifiedLDP: Bool
  /// Cost-out before and after the step.
  let costBefore: CostOut
  let costAfter: CostOut
  let changeLocator: ChangeLocator

  /// The step's change as a rule input.
  public var change: ChangeContext {
    ChangeContext(before: before, after: after, step: step.id, isRollback: isRollback, changeLocator: changeLocator)
  }

  /// Where the step starts.
  func stepLocation(_ plan: ChangePlan) -> FindingLocation {
    FindingLocation(file: plan.file.path, line: step.location.line, column: step.location.column)
  }

  /// Live links of a role after the step.
  func live(_ role: InterfaceRole) -> [String] { live.filter { after.roles.role(of: $0) == role }.sorted() }
}

/// A plan replayed step by step over its baseline.
public struct PlanReplay: Sendable {
  /// The plan.
  public let plan: ChangePlan
  /// The state before the first step.
  public let initial: ConfigContext
  /// One state per step, in order.
  public let states: [StepState]
  /// One state per rollback step, replayed from the last state.
  public let rollbackStates: [StepState]
  /// Whether the baseline's links are in service before the plan starts.
  public let baselineInService: Bool
  /// Problems reading or replaying the plan (errors stop the lint: exit 2).
  public let diagnostics: [Diagnostic]
  /// Physical ports of the target chassis (`#@ inventory`), if given.
  public let inventory: Set<String>?

  /// `kind=` of the plan header.
  public var kind: String? { plan.header?.kind }
  /// Whether the plan brings a node into service (`swap`, `bring-up`, `return-to-service`).
  public var bringsUp: Bool { ["swap", "bring-up", "return-to-service"].contains(kind ?? "") || !baselineInService }

  /// Replays `plan`.
  ///
  /// - Parameters:
  ///   - plan: The parsed plan.
  ///   - roleRules: Role assignments and description patterns (the plan's `#@ role` lines are
  ///     added to them).
  ///   - read: Reads a file the plan names (`#@ baseline`, `#@ load`, `#@ inventory`), given the
  ///     path as written; the caller resolves it against the plan's folder.
  public init(plan: ChangePlan, roleRules: RoleRules, read: (String) throws -> SourceFile) {
    self.plan = plan
    var diagnostics: [Diagnostic] = []
    var rules = roleRules
    for r in plan.roles { rules.explicit[RouterModel.split(r.interface).ifd] = InterfaceRole(rawValue: r.role.rawValue) ?? .unknown }
    let planStart = FindingLocation(file: plan.file.path, line: 1, column: 1)
    func problem(_ message: String, _ loc: SourceLocation) {
      var d = Diagnostic(.invalidChecklistInput, message, in: plan.file, at: 0..<0)
      d.location = loc
      diagnostics.append(d)
    }
    func load(_ ref: PlanFileRef) -> SourceFile? {
      do { return try read(ref.path) } catch {
        problem((error as? any CustomStringConvertible)?.description ?? "cannot read \(ref.path)", ref.location)
        return nil
      }
    }
    var sources: [(tree: ConfigTree, file: SourceFile)] = []
    var tree = ConfigTree()
    var primary: SourceFile?
    var inService = false
    if let b = plan.baseline, let f = load(b) {
      let r = ConfigParser.parse(f)
      diagnostics += r.diagnostics
      tree = r.tree
      primary = f
      sources.insert((r.tree, f), at: 0)
      inService = !["swap", "bring-up"].contains(plan.header?.kind ?? "")
    }
    var inv: Set<String>?
    if let i = plan.inventory, let f = load(i) {
      inv = Set(
        String(decoding: f.bytes, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap {
          $0.split(separator: " ").first.map(String.init)
        }.filter { !$0.hasPrefix("#") })
    }
    inventory = inv
    baselineInService = inService
    let bringUp = ["swap", "bring-up", "return-to-service"].contains(plan.header?.kind ?? "") || !inService
    func context(_ t: ConfigTree, step: String?) -> ConfigContext {
      let inherited = t.inheritance(interfaceRanges: true)
      let model = RouterModel(effective: inherited.configuration)
      let loc = Locator(primary: primary, sources: sources, fallback: planStart)
      return ConfigContext(
        model: model, roles: InterfaceRoles(model: model, rules: rules), step: step, bringUp: bringUp, locator: loc, written: t,
        inherited: inherited)
    }
    let initial = context(tree, step: nil)
    self.initial = initial
    var patched: Set<String> = []
    if inService {
      for p in initial.model.interfaces { patched.insert(p.name) }
    }
    var verifiedIGP: Set<String> = []
    var verifiedLDP = false
    func liveLinks(_ c: ConfigContext, _ patched: Set<String>) -> Set<String> {
      var out: Set<String> = []
      for name in patched {
        let role = c.roles.role(of: name)
        if role == .mgmt || role == .ignore || role == .loopback { continue }
        if let p = c.model.physical(name) {
          if p.disabled || (!p.units.isEmpty && p.units.allSatisfy(\.disabled)) { continue }
          if let b = p.bundle, let bundle = c.model.physical(b), bundle.disabled { continue }
        }
        out.insert(name)
      }
      return out
    }
    func replay(_ steps: [PlanStep], from start: ConfigContext, rollback: Bool) -> [StepState] {
      var states: [StepState] = []
      var current = start
      for (k, step) in steps.enumerated() {
        for r in step.roles { rules.explicit[RouterModel.split(r.interface).ifd] = InterfaceRole(rawValue: r.role.rawValue) ?? .unknown }
        let before = current
        let liveBefore = liveLinks(before, patched)
        var changed = false
        var pendingCommands: [Int] = []
        var commandFiles: [SourceFile] = []
        func flushCommands() {
          guard !pendingCommands.isEmpty else { return }
          let f = Self.blanked(plan.file, keeping: Set(pendingCommands))
          let r = ConfigParser.load(f, onto: tree)
          diagnostics += r.diagnostics
          diagnostics += SchemaCheck(onlyStatementsOfFile: true).diagnostics(of: r.tree, in: f, model: .standard)
          tree = r.tree
          primary = f
          commandFiles.append(f)
          pendingCommands = []
          changed = true
        }
        for action in step.actions {
          switch action {
          case .command(let line, _, _):
            pendingCommands.append(line)
          case .load(let mode, let ref):
            flushCommands()
            guard let f = load(ref) else { continue }
            let parsed = ConfigParser.parse(f)
            diagnostics += parsed.diagnostics
            diagnostics += Checklist.schemaCheck.diagnostics(of: parsed.tree, in: f, model: .standard)
            sources.insert((parsed.tree, f), at: 0)
            changed = true
            switch mode {
            case .override:
              tree = parsed.tree
              primary = f
            default:
              if parsed.syntax == .set {
                let r = ConfigParser.load(f, onto: tree)
                diagnostics += r.diagnostics
                tree = r.tree
                primary = f
              } else {
                for top in parsed.tree.children(of: ConfigTree.root) {
                  if mode == .replace, let old = tree.child(of: ConfigTree.root, startingWith: parsed.tree.words(of: top)) {
                    tree.remove(old)
                  }
                  tree.graft(top, of: parsed.tree, under: ConfigTree.root)
                }
                tree.mergeDuplicateBlocks()
                primary = nil
              }
            }
          case .patch(let ifd, _, _):
            patched.insert(RouterModel.split(ifd).ifd)
          case .unpatch(let ifd, _):
            patched.remove(RouterModel.split(ifd).ifd)
          case .verify(let v):
            switch v.kind {
            case .isisAdjacency, .ospfNeighbor:
              if let u = v.args.first { verifiedIGP.insert(RouterModel.split(u).ifd) }
            case .ldpSession: verifiedLDP = true
            default: break
            }
          default: break
          }
        }
        flushCommands()
        let after = changed ? context(tree, step: step.id) : current.with(step: step.id)
        let fallback = FindingLocation(file: plan.file.path, line: step.location.line, column: step.location.column)
        let locator =
          commandFiles.isEmpty
          ? ChangeLocator(fallback: fallback)
          : ChangeLocator(file: plan.file, fallback: fallback, onlyLines: Set(step.commandLines))
        let state = StepState(
          step: step, index: k, isRollback: rollback, before: before.with(step: step.id), after: after, changed: changed, patched: patched,
          liveBefore: liveBefore, live: liveLinks(after, patched), verifiedIGP: verifiedIGP, verifiedLDP: verifiedLDP,
          costBefore: CostOut(before), costAfter: CostOut(after), changeLocator: locator)
        states.append(state)
        current = after
      }
      return states
    }
    let states = replay(plan.steps, from: initial, rollback: false)
    self.states = states
    rollbackStates = replay(plan.rollbackSteps, from: states.last?.after ?? initial, rollback: true)
    self.diagnostics = diagnostics
  }

  /// `file` with every line not in `keeping` (1-based) emptied, newlines kept.
  static func blanked(_ file: SourceFile, keeping: Set<Int>) -> SourceFile {
    var bytes = file.bytes
    let starts = file.lineStarts
    for (i, s) in starts.enumerated() where !keeping.contains(i + 1) {
      let e = i + 1 < starts.count ? starts[i + 1] : bytes.count
      for j in s..<e where bytes[j] != 10 && bytes[j] != 13 { bytes[j] = 32 }
    }
    return SourceFile(path: file.path, bytes: bytes)
  }
}

extension ConfigContext {
  /// The same configuration, labelled with another step.
  func with(step: String?) -> ConfigContext {
    ConfigContext(model: model, roles: roles, step: step, bringUp: bringUp, locator: locator, cache: cache)
  }
}

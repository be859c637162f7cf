public import JunosConfig

// MARK: - The plan model

/// A change plan read from a `.plan` file (CHECKLIST.md §4): a header, explicit interface roles,
/// plan-wide suppressions and an ordered list of steps, optionally followed by a rollback section.
///
/// The parser does no file I/O: `baseline`, `inventory` and `load` paths are kept as written, and
/// the caller resolves them against the plan's folder.
public struct ChangePlan: Sendable {
  /// The plan's text.
  public var file: SourceFile
  /// The `#@ plan k=v …` header, `nil` when the plan has none (a warning).
  public var header: PlanHeader?
  /// The configuration before the first step (`#@ baseline FILE`); `nil` means an empty one.
  public var baseline: PlanFileRef?
  /// The physical port list of the target chassis (`#@ inventory FILE`).
  public var inventory: PlanFileRef?
  /// Every `#@ role` of the file, one entry per interface, in file order. Roles written inside a
  /// step are listed here too, and also appear as that step's ``PlanAction/role(_:)`` actions.
  public var roles: [PlanRole]
  /// The `#@ accept` lines outside any step (plan-wide suppressions). Those inside a step are
  /// the step's ``PlanAction/accept(_:)`` actions.
  public var accepts: [PlanAccept]
  /// The steps before `#@ rollback`, in file order.
  public var steps: [PlanStep]
  /// The steps after `#@ rollback`, in file order.
  public var rollbackSteps: [PlanStep]
  /// Whether the plan has a `#@ rollback` line (even with no step after it).
  public var hasRollbackSection: Bool
  /// The other nodes the plan changes (`#@ node NAME FILE`), in file order: each one's name (as
  /// `#@ on NAME` gives it) and its configuration before the first step. Their configuration lines
  /// (after `#@ on NAME` in a step) are in ``PlanStep/nodeCommands``; only the
  /// `redundant-pair-attribute-change` rule replays them.
  public var nodes: [(name: String, baseline: PlanFileRef)]

  /// Creates an empty plan for `file` (no header, no steps).
  public init(file: SourceFile) {
    self.file = file
    self.header = nil
    self.baseline = nil
    self.inventory = nil
    self.roles = []
    self.accepts = []
    self.steps = []
    self.rollbackSteps = []
    self.hasRollbackSection = false
    self.nodes = []
  }

  /// Reads a plan; never fails: problems become diagnostics located in `file`.
  ///
  /// Lines are directives (`#@ …`), configuration commands (`set`, `delete`, `deactivate`,
  /// `activate`, `insert`, `rename`, `annotate`, `protect`, `unprotect`), plain `#` comments or
  /// blank lines (both ignored). Directive arguments are separated by blanks; `"…"` quotes a
  /// string, in which `\"` is a quote and `\\` a backslash (other backslashes stay as written).
  ///
  /// - Parameter file: The plan's text.
  /// - Returns: The plan as far as it could be read, and its problems in file order (errors,
  ///   except the warning for a missing `#@ plan` header).
  public static func parse(_ file: SourceFile) -> (plan: ChangePlan, diagnostics: [Diagnostic]) {
    var parser = PlanParser(file: file)
    parser.run()
    return (parser.plan, parser.diagnostics)
  }

  /// Whether `file` looks like a plan: its first line that is neither blank nor a plain `#`
  /// comment starts with `#@` (leading blanks and a UTF-8 byte-order mark allowed).
  public static func looksLikePlan(_ file: SourceFile) -> Bool {
    var found = false
    PlanLines.forEach(in: file) { _, start, end in
      let b = file.bytes
      if b[start] == UInt8(ascii: "#") {
        guard start + 1 < end, b[start + 1] == UInt8(ascii: "@") else { return true }
        found = true
      }
      return false
    }
    return found
  }

  /// The step's configuration commands as a file that ``ConfigParser/load(_:onto:keywords:)`` can
  /// read, located at the plan's own lines.
  ///
  /// The result has the plan's path and its bytes, except that every byte of a line which is not
  /// one of the step's ``PlanStep/commandLines`` is a space (line-end bytes are kept). Line,
  /// column and byte offset of anything in it are therefore the plan's.
  public func commandsFile(for step: PlanStep) -> SourceFile {
    PlanReplay.blanked(file, keeping: Set(step.commandLines))
  }
}

/// The `#@ plan` header: `node=`, `platform=`, `kind=`, `replaces=`, `mgmt=`, `duration=`, plus
/// any other `key=value`.
public struct PlanHeader: Sendable, Hashable {
  /// The host name of the node being changed (`node=`).
  public var node: String?
  /// The target platform (`platform=mx10003`).
  public var platform: String?
  /// The kind of change as written (`swap`, `bring-up`, `drain`, `change`, …).
  public var kind: String?
  /// The node this one replaces (`replaces=`).
  public var replaces: String?
  /// The management source prefix as written (`mgmt=192.0.2.0/24`).
  public var mgmt: String?
  /// The expected duration in minutes (`duration=`).
  public var duration: Int?
  /// Other keys, as written.
  public var extra: [String: String]
  /// Where the `#@ plan` line starts.
  public var location: SourceLocation

  /// Creates a header.
  public init(
    node: String? = nil, platform: String? = nil, kind: String? = nil, replaces: String? = nil, mgmt: String? = nil,
    duration: Int? = nil, extra: [String: String] = [:], location: SourceLocation
  ) {
    self.node = node
    self.platform = platform
    self.kind = kind
    self.replaces = replaces
    self.mgmt = mgmt
    self.duration = duration
    self.extra = extra
    self.location = location
  }
}

/// A file a plan names (`#@ baseline`, `#@ inventory`, `#@ load`), as written.
public struct PlanFileRef: Sendable, Hashable {
  /// The path as written; relative paths are relative to the plan's folder.
  public var path: String
  /// Where the path is written.
  public var location: SourceLocation

  /// Creates a file reference.
  public init(path: String, location: SourceLocation) {
    self.path = path
    self.location = location
  }
}

/// An explicit interface role: one interface of a `#@ role` line.
public struct PlanRole: Sendable, Hashable {
  /// The roles a plan can declare (CHECKLIST.md §1.4).
  public enum Role: String, Sendable, Hashable, CaseIterable {
    /// Gives the node reachability to the rest of the backbone.
    case core
    /// Attracts traffic from customers or the DC fabric.
    case client
    /// Management network.
    case mgmt
    /// Not a data-plane link the rules should consider.
    case ignore
  }

  /// The declared role.
  public var role: Role
  /// The interface as written (a physical interface, or a unit).
  public var interface: String
  /// Where the interface name is written.
  public var location: SourceLocation

  /// Creates a role declaration.
  public init(role: Role, interface: String, location: SourceLocation) {
    self.role = role
    self.interface = interface
    self.location = location
  }
}

/// How `#@ load` puts a file into the candidate configuration (the Junos `load` modes).
public enum LoadMode: String, Sendable, Hashable, CaseIterable {
  /// Replaces the whole configuration.
  case override
  /// Merges the file into the configuration.
  case merge
  /// Applies `set`-style commands.
  case set
  /// Replaces the statements marked `replace:`.
  case replace
  /// Like override, but only changed statements are marked changed.
  case update
}

/// A `#@ load MODE FILE` directive.
public struct PlanLoad: Sendable, Hashable {
  /// The load mode.
  public var mode: LoadMode
  /// The file to load.
  public var file: PlanFileRef

  /// Creates a load.
  public init(mode: LoadMode, file: PlanFileRef) {
    self.mode = mode
    self.file = file
  }
}

/// A configuration line of a step.
public struct PlanCommand: Sendable, Hashable {
  /// 1-based line number in the plan.
  public var line: Int
  /// The command word: `set`, `delete`, `deactivate`, `activate`, `insert`, `rename`, `annotate`,
  /// `protect` or `unprotect`.
  public var verb: String
  /// The whole line as written, without leading and trailing blanks (starting with the verb).
  public var text: String

  /// Creates a command.
  public init(line: Int, verb: String, text: String) {
    self.line = line
    self.verb = verb
    self.text = text
  }
}

/// A `#@ commit …` directive: how the step's changes are committed.
public struct PlanCommit: Sendable, Hashable {
  /// `confirmed` was given.
  public var confirmed: Bool
  /// The minutes after `confirmed`; `nil` when omitted (Junos then uses 10).
  public var minutes: Int?
  /// The `comment "…"` text.
  public var comment: String?
  /// `and-quit` was given.
  public var andQuit: Bool
  /// `check` was given: a dry run that commits nothing.
  public var check: Bool
  /// `synchronize` was given.
  public var synchronize: Bool
  /// The time after `at`, as written.
  public var at: String?
  /// Where the `#@ commit` line starts.
  public var location: SourceLocation

  /// Creates a commit directive (a plain `commit` by default).
  public init(
    confirmed: Bool = false, minutes: Int? = nil, comment: String? = nil, andQuit: Bool = false, check: Bool = false,
    synchronize: Bool = false, at: String? = nil, location: SourceLocation
  ) {
    self.confirmed = confirmed
    self.minutes = minutes
    self.comment = comment
    self.andQuit = andQuit
    self.check = check
    self.synchronize = synchronize
    self.at = at
    self.location = location
  }

  /// The rollback deadline of a confirmed commit in minutes (10 when not given), `nil` otherwise.
  public var confirmedMinutes: Int? { confirmed ? (minutes ?? 10) : nil }
}

/// A `#@ confirm check|commit` directive: how a confirmed commit is confirmed.
public struct PlanConfirm: Sendable, Hashable {
  /// The ways to confirm a `commit confirmed`.
  public enum Method: String, Sendable, Hashable, CaseIterable {
    /// `commit check`: confirms without a new commit.
    case check
    /// A second (usually empty) `commit`.
    case commit
  }

  /// How the commit is confirmed.
  public var method: Method
  /// The `comment "…"` of a confirming `commit`.
  public var comment: String?
  /// Where the `#@ confirm` line starts.
  public var location: SourceLocation

  /// Creates a confirm directive.
  public init(method: Method, comment: String? = nil, location: SourceLocation) {
    self.method = method
    self.comment = comment
    self.location = location
  }
}

/// A `#@ patch IFD [HOST:IFD]` or `#@ unpatch IFD` directive: a physical action.
public struct PlanPatch: Sendable, Hashable {
  /// The local interface as written.
  public var interface: String
  /// The far end as written (`host:interface`); always `nil` for an unpatch.
  public var remote: String?
  /// Where the directive line starts.
  public var location: SourceLocation

  /// Creates a patch.
  public init(interface: String, remote: String? = nil, location: SourceLocation) {
    self.interface = interface
    self.remote = remote
    self.location = location
  }
}

/// A `#@ verify KIND ARGS…` directive: a post-check.
public struct PlanVerify: Sendable, Hashable {
  /// The kind of check.
  public enum Kind: Sendable, Hashable {
    /// `isis-adjacency UNIT up`.
    case isisAdjacency
    /// `ospf-neighbor UNIT full`.
    case ospfNeighbor
    /// `ldp-session ADDRESS operational`.
    case ldpSession
    /// `bgp-session ADDRESS established`.
    case bgpSession
    /// `route-present PREFIX [protocol P]`.
    case routePresent
    /// `manual "TEXT"`.
    case manual
    /// Any other word, as written.
    case other(String)

    /// Reads a kind word.
    public init(name: String) {
      switch name {
      case "isis-adjacency": self = .isisAdjacency
      case "ospf-neighbor": self = .ospfNeighbor
      case "ldp-session": self = .ldpSession
      case "bgp-session": self = .bgpSession
      case "route-present": self = .routePresent
      case "manual": self = .manual
      default: self = .other(name)
      }
    }

    /// The kind word as a plan writes it.
    public var name: String {
      switch self {
      case .isisAdjacency: "isis-adjacency"
      case .ospfNeighbor: "ospf-neighbor"
      case .ldpSession: "ldp-session"
      case .bgpSession: "bgp-session"
      case .routePresent: "route-present"
      case .manual: "manual"
      case .other(let name): name
      }
    }
  }

  /// The kind of check.
  public var kind: Kind
  /// The words after the kind, unquoted.
  public var args: [String]
  /// Where the `#@ verify` line starts.
  public var location: SourceLocation

  /// Creates a verification.
  public init(kind: Kind, args: [String], location: SourceLocation) {
    self.kind = kind
    self.args = args
    self.location = location
  }
}

/// A `#@ wait SECONDS` directive: soak time.
public struct PlanWait: Sendable, Hashable {
  /// Seconds to wait (at least 1).
  public var seconds: Int
  /// Where the `#@ wait` line starts.
  public var location: SourceLocation

  /// Creates a wait.
  public init(seconds: Int, location: SourceLocation) {
    self.seconds = seconds
    self.location = location
  }
}

/// A `#@ accept RULE "REASON"` directive: a suppression, plan-wide or scoped to its step.
public struct PlanAccept: Sendable, Hashable {
  /// The rule id as written (a diagnostic reports ids that are not rules).
  public var rule: String
  /// The reason; `nil` when none is given (rule `suppression-without-reason` reports that).
  public var reason: String?
  /// Where the `#@ accept` line starts.
  public var location: SourceLocation

  /// Creates a suppression.
  public init(rule: String, reason: String?, location: SourceLocation) {
    self.rule = rule
    self.reason = reason
    self.location = location
  }

  /// The rule, when the id names one.
  public var ruleID: RuleID? { RuleID(rawValue: rule) }
}

/// One line of a step: a configuration command or a directive.
public enum PlanAction: Sendable, Hashable {
  /// `#@ load MODE FILE`.
  case load(mode: LoadMode, file: PlanFileRef)
  /// A configuration line (see ``PlanCommand``).
  case command(line: Int, verb: String, text: String)
  /// `#@ commit …`.
  case commit(PlanCommit)
  /// `#@ confirm check|commit`.
  case confirm(PlanConfirm)
  /// `#@ patch IFD [REMOTE]`; the location is the directive line's.
  case patch(interface: String, remote: String?, location: SourceLocation)
  /// `#@ unpatch IFD`; the location is the directive line's.
  case unpatch(interface: String, location: SourceLocation)
  /// `#@ verify KIND ARGS…`.
  case verify(PlanVerify)
  /// `#@ wait SECONDS`; the location is the directive line's.
  case wait(seconds: Int, location: SourceLocation)
  /// `#@ accept RULE "REASON"`.
  case accept(PlanAccept)
  /// `#@ role ROLE IFD…` inside a step (one action per interface).
  case role(PlanRole)
}

/// A step of a plan: everything from its `#@ step` line to the next step or `#@ rollback`.
public struct PlanStep: Sendable, Hashable {
  /// The step's id (`#N`, N its line, when the `#@ step` line gives none).
  public var id: String
  /// The title, empty when none is given.
  public var title: String
  /// Where the `#@ step` line starts.
  public var location: SourceLocation
  /// Everything in the step, in file order.
  public var actions: [PlanAction]
  /// 1-based line numbers of the step's configuration lines, ascending.
  public var commandLines: [Int]
  /// The configuration lines for the plan's other nodes (after `#@ on NAME`), by node name; they
  /// are not in ``actions`` or ``commandLines``.
  public var nodeCommands: [String: [PlanCommand]]

  /// Creates a step.
  public init(
    id: String, title: String, location: SourceLocation, actions: [PlanAction] = [], commandLines: [Int] = [],
    nodeCommands: [String: [PlanCommand]] = [:]
  ) {
    self.id = id
    self.title = title
    self.location = location
    self.actions = actions
    self.commandLines = commandLines
    self.nodeCommands = nodeCommands
  }

  /// The `#@ load` directives.
  public var loads: [PlanLoad] {
    actions.compactMap { if case .load(let mode, let file) = $0 { PlanLoad(mode: mode, file: file) } else { nil } }
  }

  /// The configuration lines.
  public var commands: [PlanCommand] {
    actions.compactMap {
      if case .command(let line, let verb, let text) = $0 { PlanCommand(line: line, verb: verb, text: text) } else { nil }
    }
  }

  /// The first `#@ commit` directive (which may be a `commit check` dry run; see ``commits``).
  public var commit: PlanCommit? { commits.first }

  /// All `#@ commit` directives.
  public var commits: [PlanCommit] {
    actions.compactMap { if case .commit(let c) = $0 { c } else { nil } }
  }

  /// The first `#@ confirm` directive.
  public var confirm: PlanConfirm? {
    for a in actions { if case .confirm(let c) = a { return c } }
    return nil
  }

  /// The `#@ patch` directives.
  public var patches: [PlanPatch] {
    actions.compactMap {
      if case .patch(let i, let r, let l) = $0 { PlanPatch(interface: i, remote: r, location: l) } else { nil }
    }
  }

  /// The `#@ unpatch` directives (``PlanPatch/remote`` is `nil`).
  public var unpatches: [PlanPatch] {
    actions.compactMap { if case .unpatch(let i, let l) = $0 { PlanPatch(interface: i, location: l) } else { nil } }
  }

  /// The `#@ verify` directives.
  public var verifies: [PlanVerify] {
    actions.compactMap { if case .verify(let v) = $0 { v } else { nil } }
  }

  /// The `#@ wait` directives.
  public var waits: [PlanWait] {
    actions.compactMap { if case .wait(let s, let l) = $0 { PlanWait(seconds: s, location: l) } else { nil } }
  }

  /// The step's `#@ accept` suppressions.
  public var accepts: [PlanAccept] {
    actions.compactMap { if case .accept(let a) = $0 { a } else { nil } }
  }

  /// The `#@ role` declarations written inside the step.
  public var roles: [PlanRole] {
    actions.compactMap { if case .role(let r) = $0 { r } else { nil } }
  }
}

// MARK: - Parsing

/// The kinds of problem a plan can have, and their ``DiagnosticID``: plan-specific problems are
/// all `invalidChecklistInput` for now.
private enum PlanProblem {
  /// `#@ word` that is no directive.
  case unknownDirective
  /// A configuration line or step directive before the first `#@ step` (or between `#@ rollback`
  /// and the first rollback step); a header directive after it.
  case misplaced
  /// No `#@ plan` header (a warning).
  case missingHeader
  /// A directive without a required argument.
  case missingArgument
  /// A bad argument value or an extra argument.
  case invalidArgument
  /// A repeated step id, header, baseline, inventory or rollback section.
  case duplicate
  /// `#@ accept` naming no rule.
  case unknownRule
  /// A configuration line whose first word is no command.
  case unknownCommand
  /// A `"` string not closed on its line.
  case unterminatedString

  var id: DiagnosticID {
    switch self {
    case .unknownDirective, .misplaced, .missingHeader, .missingArgument, .invalidArgument, .duplicate, .unknownRule:
      .invalidChecklistInput
    case .unknownCommand: .unknownSetCommand
    case .unterminatedString: .unterminatedString
    }
  }
}

/// Line iteration shared by the parser and ``ChangePlan/looksLikePlan(_:)``.
private enum PlanLines {
  /// Calls `body(line, start, end)` for every line that is not blank, with `start` at its first
  /// non-blank byte and `end` after its last one; stops when `body` returns `false`.
  static func forEach(in file: SourceFile, _ body: (Int, Int, Int) -> Bool) {
    let b = file.bytes
    let starts = file.lineStarts
    for l in starts.indices {
      var i = starts[l]
      var e = l + 1 < starts.count ? starts[l + 1] : b.count
      if l == 0 && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
      while e > i && (b[e - 1] == 0x0A || b[e - 1] == 0x0D || b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
      while i < e && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
      guard i < e else { continue }
      if !body(l + 1, i, e) { return }
    }
  }
}

/// A directive argument: its unquoted text and where it is written.
private struct PlanToken {
  var text: String
  var range: Range<Int>
  var quoted: Bool
}

/// One pass over a plan's lines.
private struct PlanParser {
  let file: SourceFile
  var plan: ChangePlan
  var diagnostics: [Diagnostic] = []
  var current: PlanStep?
  var inRollback = false
  var stepIDs: Set<String> = []
  /// The node the configuration lines are for after `#@ on NAME` (`nil`: the plan's own node).
  var onNode: String?

  static let verbs: Set<String> = [
    "set", "delete", "deactivate", "activate", "insert", "rename", "annotate", "protect", "unprotect",
  ]
  static let directives =
    "plan, baseline, inventory, node, role, step, on, load, commit, confirm, patch, unpatch, verify, wait, accept or rollback"

  init(file: SourceFile) {
    self.file = file
    self.plan = ChangePlan(file: file)
  }

  mutating func run() {
    var lines: [(Int, Int, Int)] = []
    PlanLines.forEach(in: file) { line, start, end in
      lines.append((line, start, end))
      return true
    }
    let b = file.bytes
    for (line, start, end) in lines {
      if b[start] == UInt8(ascii: "#") {
        if start + 1 < end && b[start + 1] == UInt8(ascii: "@") { directive(line: line, start: start, end: end) }
      } else {
        command(line: line, start: start, end: end)
      }
    }
    finishStep()
    if plan.header == nil {
      report(.missingHeader, "the plan has no '#@ plan node=… platform=… kind=…' header", at: 0..<0)
    }
  }

  mutating func report(_ problem: PlanProblem, _ message: String, at range: Range<Int>) {
    var d = Diagnostic(problem.id, message, in: file, at: range)
    if problem == .missingHeader { d.severity = .warning }
    diagnostics.append(d)
  }

  // MARK: Configuration lines

  mutating func command(line: Int, start: Int, end: Int) {
    let b = file.bytes
    var w = start
    while w < end && b[w] != 0x20 && b[w] != 0x09 { w += 1 }
    let verb = file.text(start..<w)
    guard PlanParser.verbs.contains(verb) else {
      report(
        .unknownCommand,
        "unknown command '\(verb)' (expected a directive '#@ …' or set, delete, deactivate, activate, insert, rename, annotate, protect or unprotect)",
        at: start..<w)
      return
    }
    guard current != nil else {
      report(.misplaced, "configuration line outside a step: start a step with '#@ step ID \"title\"' first", at: start..<end)
      return
    }
    if let node = onNode {
      current!.nodeCommands[node, default: []].append(PlanCommand(line: line, verb: verb, text: file.text(start..<end)))
      return
    }
    current!.actions.append(.command(line: line, verb: verb, text: file.text(start..<end)))
    current!.commandLines.append(line)
  }

  // MARK: Directives

  mutating func directive(line: Int, start: Int, end: Int) {
    let tokens = tokenize(start + 2, end)
    let at = file.location(of: start)
    guard let name = tokens.first else {
      report(.unknownDirective, "empty directive '#@' (expected \(PlanParser.directives))", at: start..<end)
      return
    }
    let args = Array(tokens.dropFirst())
    switch name.text {
    case "plan":
      guard headerPlacement(name) else { return }
      header(args, name: name, at: at)
    case "baseline", "inventory":
      guard headerPlacement(name) else { return }
      guard let path = single(args, after: name, what: "a file name") else { return }
      let ref = PlanFileRef(path: path.text, location: file.location(of: path.range.lowerBound))
      if name.text == "baseline" {
        if plan.baseline != nil { report(.duplicate, "a second '#@ baseline'", at: name.range) } else { plan.baseline = ref }
      } else {
        if plan.inventory != nil { report(.duplicate, "a second '#@ inventory'", at: name.range) } else { plan.inventory = ref }
      }
    case "role":
      role(args, name: name)
    case "step":
      step(args, name: name, line: line, at: at)
    case "rollback":
      extra(args, from: 0)
      if plan.hasRollbackSection { report(.duplicate, "a second '#@ rollback'", at: name.range) }
      finishStep()
      inRollback = true
      plan.hasRollbackSection = true
    case "accept":
      guard let a = accept(args, name: name, at: at) else { return }
      if current != nil { current!.actions.append(.accept(a)) } else { plan.accepts.append(a) }
    case "node":
      guard headerPlacement(name) else { return }
      node(args, name: name)
    case "on":
      on(args, name: name, start: start, end: end)
    case "load", "commit", "confirm", "patch", "unpatch", "verify", "wait":
      guard current != nil else {
        let section = inRollback ? "after '#@ rollback'" : "before the first '#@ step'"
        report(.misplaced, "'#@ \(name.text)' \(section): it belongs in a step", at: start..<end)
        return
      }
      if let action = stepDirective(name, args, at: at) { current!.actions.append(action) }
    default:
      report(.unknownDirective, "unknown directive '#@ \(name.text)' (expected \(PlanParser.directives))", at: name.range)
    }
  }

  /// Whether a header directive (`plan`, `baseline`, `inventory`) is still before the first step.
  mutating func headerPlacement(_ name: PlanToken) -> Bool {
    guard current == nil && plan.steps.isEmpty && plan.rollbackSteps.isEmpty && !inRollback else {
      report(.misplaced, "'#@ \(name.text)' must come before the first '#@ step'", at: name.range)
      return false
    }
    return true
  }

  mutating func header(_ args: [PlanToken], name: PlanToken, at: SourceLocation) {
    guard plan.header == nil else {
      report(.duplicate, "a second '#@ plan' header", at: name.range)
      return
    }
    var h = PlanHeader(location: at)
    var seen: Set<String> = []
    for t in args {
      guard let eq = t.text.firstIndex(of: "="), eq != t.text.startIndex else {
        report(.invalidArgument, "'\(t.text)' is not key=value", at: t.range)
        continue
      }
      let key = String(t.text[..<eq])
      let value = String(t.text[t.text.index(after: eq)...])
      guard seen.insert(key).inserted else {
        report(.duplicate, "'\(key)=' is given twice", at: t.range)
        continue
      }
      switch key {
      case "node": h.node = value
      case "platform": h.platform = value
      case "kind": h.kind = value
      case "replaces": h.replaces = value
      case "mgmt": h.mgmt = value
      case "duration":
        guard let n = PlanParser.number(value), n > 0 else {
          report(.invalidArgument, "duration '\(value)' is not a number of minutes", at: t.range)
          continue
        }
        h.duration = n
      default: h.extra[key] = value
      }
    }
    plan.header = h
  }

  /// `#@ node NAME FILE`.
  mutating func node(_ args: [PlanToken], name: PlanToken) {
    guard args.count >= 2 else {
      report(.missingArgument, "'#@ node' needs a name and a file: '#@ node NAME FILE'", at: name.range)
      return
    }
    extra(args, from: 2)
    let n = args[0]
    guard !plan.nodes.contains(where: { $0.name == n.text }), n.text != plan.header?.node else {
      report(.duplicate, "node '\(n.text)' is named twice", at: n.range)
      return
    }
    let ref = PlanFileRef(path: args[1].text, location: file.location(of: args[1].range.lowerBound))
    plan.nodes.append((n.text, ref))
  }

  /// `#@ on NAME`: the step's configuration lines after it are for node NAME (the plan's own
  /// node when NAME is the header's `node=`).
  mutating func on(_ args: [PlanToken], name: PlanToken, start: Int, end: Int) {
    guard current != nil else {
      report(.misplaced, "'#@ on' outside a step: it belongs in a step", at: start..<end)
      return
    }
    guard let n = single(args, after: name, what: "a node name") else { return }
    if n.text == plan.header?.node {
      onNode = nil
    } else if plan.nodes.contains(where: { $0.name == n.text }) {
      onNode = n.text
    } else {
      report(.invalidArgument, "'#@ on \(n.text)': no '#@ node \(n.text) FILE' before the first step", at: n.range)
    }
  }

  mutating func role(_ args: [PlanToken], name: PlanToken) {
    guard let first = args.first else {
      report(.missingArgument, "'#@ role' needs a role (core, client, mgmt or ignore) and interfaces", at: name.range)
      return
    }
    guard let role = PlanRole.Role(rawValue: first.text) else {
      report(.invalidArgument, "unknown role '\(first.text)' (expected core, client, mgmt or ignore)", at: first.range)
      return
    }
    guard args.count > 1 else {
      report(.missingArgument, "'#@ role \(role.rawValue)' names no interface", at: first.range)
      return
    }
    for t in args.dropFirst() {
      let r = PlanRole(role: role, interface: t.text, location: file.location(of: t.range.lowerBound))
      plan.roles.append(r)
      current?.actions.append(.role(r))
    }
  }

  mutating func step(_ args: [PlanToken], name: PlanToken, line: Int, at: SourceLocation) {
    finishStep()
    var id = "#\(line)"
    var title = ""
    if let first = args.first, !(args.count == 1 && first.quoted) {
      if first.text.isEmpty {
        report(.invalidArgument, "the step id is empty", at: first.range)
      } else {
        id = first.text
        if !stepIDs.insert(id).inserted { report(.duplicate, "step id '\(id)' is used twice", at: first.range) }
      }
      if args.count > 1 { title = args[1].text }
      extra(args, from: 2)
    } else {
      report(.missingArgument, "'#@ step' needs an id: '#@ step ID \"title\"'", at: name.range)
      title = args.first?.text ?? ""
    }
    current = PlanStep(id: id, title: title, location: at)
    onNode = nil
  }

  mutating func finishStep() {
    guard let s = current else { return }
    if inRollback { plan.rollbackSteps.append(s) } else { plan.steps.append(s) }
    current = nil
  }

  mutating func accept(_ args: [PlanToken], name: PlanToken, at: SourceLocation) -> PlanAccept? {
    guard let rule = args.first else {
      report(.missingArgument, "'#@ accept' needs a rule id and a reason: '#@ accept RULE \"reason\"'", at: name.range)
      return nil
    }
    if RuleID(rawValue: rule.text) == nil { report(.unknownRule, "'\(rule.text)' is not a checklist rule id", at: rule.range) }
    extra(args, from: 2)
    return PlanAccept(rule: rule.text, reason: args.count > 1 ? args[1].text : nil, location: at)
  }

  /// The directives that only make sense inside a step.
  mutating func stepDirective(_ name: PlanToken, _ args: [PlanToken], at: SourceLocation) -> PlanAction? {
    switch name.text {
    case "load":
      guard let m = args.first else {
        report(.missingArgument, "'#@ load' needs a mode and a file: '#@ load override FILE'", at: name.range)
        return nil
      }
      guard let mode = LoadMode(rawValue: m.text) else {
        report(.invalidArgument, "unknown load mode '\(m.text)' (expected override, merge, set, replace or update)", at: m.range)
        return nil
      }
      guard args.count > 1 else {
        report(.missingArgument, "'#@ load \(mode.rawValue)' needs a file name", at: m.range)
        return nil
      }
      extra(args, from: 2)
      return .load(mode: mode, file: PlanFileRef(path: args[1].text, location: file.location(of: args[1].range.lowerBound)))
    case "commit":
      return commit(args, at: at).map { .commit($0) }
    case "confirm":
      guard let m = args.first else {
        report(.missingArgument, "'#@ confirm' needs 'check' or 'commit'", at: name.range)
        return nil
      }
      guard let method = PlanConfirm.Method(rawValue: m.text) else {
        report(.invalidArgument, "'#@ confirm \(m.text)': expected check or commit", at: m.range)
        return nil
      }
      var c = PlanConfirm(method: method, location: at)
      if method == .commit, args.count > 1, args[1].text == "comment" {
        guard args.count > 2 else {
          report(.missingArgument, "'comment' needs a text", at: args[1].range)
          return nil
        }
        c.comment = args[2].text
        extra(args, from: 3)
      } else {
        extra(args, from: 1)
      }
      return .confirm(c)
    case "patch", "unpatch":
      guard let ifd = args.first else {
        report(.missingArgument, "'#@ \(name.text)' needs an interface", at: name.range)
        return nil
      }
      if name.text == "unpatch" {
        extra(args, from: 1)
        return .unpatch(interface: ifd.text, location: at)
      }
      extra(args, from: 2)
      return .patch(interface: ifd.text, remote: args.count > 1 ? args[1].text : nil, location: at)
    case "verify":
      guard let kind = args.first else {
        report(
          .missingArgument, "'#@ verify' needs a kind (isis-adjacency, ospf-neighbor, ldp-session, bgp-session, route-present, manual)",
          at: name.range)
        return nil
      }
      return .verify(PlanVerify(kind: PlanVerify.Kind(name: kind.text), args: args.dropFirst().map(\.text), location: at))
    default:  // wait
      guard let s = args.first else {
        report(.missingArgument, "'#@ wait' needs a number of seconds", at: name.range)
        return nil
      }
      guard let seconds = PlanParser.number(s.text), seconds > 0 else {
        report(.invalidArgument, "wait '\(s.text)' is not a number of seconds", at: s.range)
        return nil
      }
      extra(args, from: 1)
      return .wait(seconds: seconds, location: at)
    }
  }

  mutating func commit(_ args: [PlanToken], at: SourceLocation) -> PlanCommit? {
    var c = PlanCommit(location: at)
    let options: Set<String> = ["confirmed", "comment", "and-quit", "check", "synchronize", "at"]
    var k = 0
    var ok = true
    while k < args.count {
      let t = args[k]
      k += 1
      switch t.text {
      case "confirmed":
        c.confirmed = true
        guard k < args.count, !options.contains(args[k].text) else { continue }
        if let n = PlanParser.number(args[k].text), (1...65535).contains(n) {
          c.minutes = n
        } else {
          report(.invalidArgument, "commit confirmed '\(args[k].text)': expected minutes from 1 to 65535", at: args[k].range)
          ok = false
        }
        k += 1
      case "comment", "at":
        guard k < args.count else {
          report(.missingArgument, "'\(t.text)' needs a value", at: t.range)
          ok = false
          continue
        }
        if t.text == "comment" { c.comment = args[k].text } else { c.at = args[k].text }
        k += 1
      case "and-quit": c.andQuit = true
      case "check": c.check = true
      case "synchronize": c.synchronize = true
      default:
        report(
          .invalidArgument, "unknown commit option '\(t.text)' (expected confirmed, comment, and-quit, check, synchronize or at)",
          at: t.range)
        ok = false
      }
    }
    return ok ? c : nil
  }

  /// The only argument, reporting a missing one and extra ones.
  mutating func single(_ args: [PlanToken], after name: PlanToken, what: String) -> PlanToken? {
    guard let first = args.first else {
      report(.missingArgument, "'#@ \(name.text)' needs \(what)", at: name.range)
      return nil
    }
    extra(args, from: 1)
    return first
  }

  /// Reports `args[index]` as unexpected, if there is one.
  mutating func extra(_ args: [PlanToken], from index: Int) {
    guard index < args.count else { return }
    report(.invalidArgument, "unexpected '\(args[index].text)'", at: args[index].range.lowerBound..<args[args.count - 1].range.upperBound)
  }

  /// A decimal number of at most 9 digits.
  static func number(_ s: String) -> Int? {
    guard !s.isEmpty, s.utf8.count <= 9, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(s)
  }

  /// Splits `bytes[start..<end]` into blank-separated words; `"…"` parts (with `\"` and `\\`)
  /// join the word they touch.
  mutating func tokenize(_ start: Int, _ end: Int) -> [PlanToken] {
    let b = file.bytes
    var tokens: [PlanToken] = []
    var i = start
    while true {
      while i < end && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
      guard i < end else { break }
      let s = i
      var bytes: [UInt8] = []
      var quoted = false
      while i < end && b[i] != 0x20 && b[i] != 0x09 {
        guard b[i] == UInt8(ascii: "\"") else {
          bytes.append(b[i])
          i += 1
          continue
        }
        quoted = true
        let open = i
        i += 1
        var closed = false
        while i < end {
          let c = b[i]
          if c == UInt8(ascii: "\\") && i + 1 < end && (b[i + 1] == UInt8(ascii: "\"") || b[i + 1] == UInt8(ascii: "\\")) {
            bytes.append(b[i + 1])
            i += 2
          } else if c == UInt8(ascii: "\"") {
            closed = true
            i += 1
            break
          } else {
            bytes.append(c)
            i += 1
          }
        }
        if !closed { report(.unterminatedString, "missing '\"' to end the quoted string", at: open..<end) }
      }
      tokens.append(PlanToken(text: String(decoding: bytes, as: UTF8.self), range: s..<i, quoted: quoted))
    }
    return tokens
  }
}

public import JunosConfig

/// How serious a finding is, in the catalogue's terms: an **error** means the change should not be
/// made as written, a **warning** needs a reviewer's explicit acknowledgement, **info** is hygiene.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
  case info, warning, error

  /// Orders `info < warning < error`.
  public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }

  var rank: Int {
    switch self {
    case .info: 0
    case .warning: 1
    case .error: 2
    }
  }
}

/// Where a finding points: a file position, and for plans the step.
public struct FindingLocation: Sendable, Hashable {
  /// The file, as the user named it (or as a plan names it, resolved against the plan's folder).
  public var file: String
  /// 1-based line; 0 when the finding is about the input as a whole.
  public var line: Int
  /// 1-based column; 0 when unknown.
  public var column: Int

  /// Creates a location.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// The position of byte `offset` of `file`.
  public init(_ file: SourceFile, offset: Int) {
    let l = file.location(of: offset)
    self.init(file: file.path, line: l.line, column: l.column)
  }
}

/// One problem a rule found.
public struct Finding: Sendable, Hashable {
  /// The rule that fired.
  public var rule: RuleID
  /// Its severity for this occurrence (rules escalate or lower their default).
  public var severity: Severity
  /// What is wrong, with the names of the objects involved.
  public var message: String
  /// What to do about it.
  public var hint: String
  /// Where it is.
  public var location: FindingLocation
  /// The plan step it concerns, for plans.
  public var step: String?
  /// The configuration hierarchy it is about, in `set` form without `set`
  /// (`protocols bgp group DC-FABRIC`); empty for plan-level findings.
  public var path: String
  /// What the finding is about, for a rule that reconciles its findings on a configuration with
  /// those on a change (rule 35: the attachment and the flow); not part of the output.
  var subject: String?

  /// Creates a finding.
  public init(
    rule: RuleID, severity: Severity? = nil, message: String, hint: String? = nil, location: FindingLocation,
    step: String? = nil, path: String = ""
  ) {
    self.rule = rule
    self.severity = severity ?? rule.defaultSeverity
    self.message = message
    self.hint = hint ?? rule.hint
    self.location = location
    self.step = step
    self.path = path
  }

  /// `file:line:col: severity: [rule] message`, with ` (step S)` for plans: the text format.
  public var rendered: String { "\(place) \(severity.rawValue): \(body)" }

  /// `file:line:col:`, the start of ``rendered``.
  public var place: String { "\(location.file):\(location.line):\(location.column):" }

  /// `[rule] message (step S)`, what follows the severity in ``rendered``.
  public var body: String {
    var s = "[\(rule.rawValue)] \(message)"
    if let step { s += " (step \(step))" }
    return s
  }
}

extension Finding: Comparable {
  /// File, line, column, then rule: the order reports list findings in.
  public static func < (a: Finding, b: Finding) -> Bool {
    if a.location.file != b.location.file { return a.location.file < b.location.file }
    if a.location.line != b.location.line { return a.location.line < b.location.line }
    if a.location.column != b.location.column { return a.location.column < b.location.column }
    if a.rule != b.rule { return a.rule.number < b.rule.number }
    if a.path != b.path { return a.path < b.path }
    return a.message < b.message
  }
}

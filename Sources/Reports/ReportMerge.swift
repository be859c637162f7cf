import JunosChecklist
import JunosConfig

/// Why a report could not be merged; every case names the report.
public enum ReportMergeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The text is not JSON; `offset` is the 0-based byte at which reading failed.
  case badJSON(report: String, offset: Int)
  /// A required member is absent; `field` is its path (`findings[2].rule`).
  case missingField(report: String, field: String)
  /// A member has the wrong type or an impossible value; `expected` says what it must be.
  case invalidField(report: String, field: String, expected: String)
  /// A finding names a rule junoscope does not know.
  case unknownRule(report: String, field: String, id: String)
  /// A finding has a severity other than `error`, `warning`, `info`.
  case unknownSeverity(report: String, field: String, severity: String)

  /// The message for the user, naming the report and the field.
  public var description: String {
    switch self {
    case .badJSON(let report, let offset): "\(report): not a junoscope JSON report: bad JSON at byte offset \(offset)"
    case .missingField(let report, let field): "\(report): missing field '\(field)'"
    case .invalidField(let report, let field, let expected): "\(report): field '\(field)' must be \(expected)"
    case .unknownRule(let report, let field, let id): "\(report): unknown rule id '\(id)' in '\(field)'"
    case .unknownSeverity(let report, let field, let severity):
      "\(report): unknown severity '\(severity)' in '\(field)' (expected error, warning or info)"
    }
  }
}

/// Combines the JSON reports of CI shards into one.
public enum ReportMerge {
  /// Reads reports written by ``ReportWriter/json(_:)`` (one per CI shard) and merges them.
  ///
  /// Findings are sorted; a finding equal to one of an earlier report is dropped (shards that linted
  /// the same file), repeats within one report are kept. Files are the union, in first-seen order.
  /// Failures and skipped inputs are the union, each once, in first-seen order (a failure in any
  /// shard stays one in the merged report). The tool version is the first report's. `summary` is
  /// not read: it is derived from the findings.
  public static func merge(_ texts: [(name: String, text: String)]) throws(ReportMergeError) -> LintReport {
    var findings: [Finding] = []
    var earlier = Set<Finding>()
    var files: [String] = []
    var seenFiles = Set<String>()
    var failures: [InputProblem] = []
    var skipped: [InputProblem] = []
    var seenProblems = Set<InputProblem>()
    var version: String?
    for (name, text) in texts {
      let one = try read(name: name, text: text)
      findings += one.findings.filter { !earlier.contains($0) }
      earlier.formUnion(one.findings)
      for f in one.files where seenFiles.insert(f).inserted { files.append(f) }
      failures += one.failures.filter { seenProblems.insert($0).inserted }
      skipped += one.skipped.filter { seenProblems.insert($0).inserted }
      if version == nil { version = one.toolVersion }
    }
    return LintReport(findings: findings, files: files, toolVersion: version ?? "", failures: failures, skipped: skipped)
  }

  /// Reads one report.
  static func read(name: String, text: String) throws(ReportMergeError) -> LintReport {
    let root: MiniJSON.Value
    do {
      root = try MiniJSON.parse(Array(text.utf8))
    } catch {
      throw .badJSON(report: name, offset: error.offset)
    }
    let r = Reader(report: name)
    let top = try r.object(root, "report")
    // A report of another format (or of none: written before version 1 had `format`) is refused.
    guard try r.member(top, "format", "format").string == ReportWriter.jsonFormat else {
      throw .invalidField(report: name, field: "format", expected: "\"\(ReportWriter.jsonFormat)\"")
    }
    guard try r.member(top, "version", "version").number == Double(ReportWriter.jsonVersion) else {
      throw .invalidField(report: name, field: "version", expected: "\(ReportWriter.jsonVersion)")
    }
    let tool = try r.object(r.member(top, "tool", "tool"), "tool")
    let toolName = try r.string(r.member(tool, "name", "tool.name"), "tool.name")
    guard toolName == ReportWriter.toolName else {
      throw .invalidField(report: name, field: "tool.name", expected: "\"\(ReportWriter.toolName)\"")
    }
    let version = try r.string(r.member(tool, "version", "tool.version"), "tool.version")
    var files: [String] = []
    for (k, v) in try r.array(r.member(top, "files", "files"), "files").enumerated() {
      files.append(try r.string(v, "files[\(k)]"))
    }
    var findings: [Finding] = []
    for (k, v) in try r.array(r.member(top, "findings", "findings"), "findings").enumerated() {
      findings.append(try r.finding(v, "findings[\(k)]"))
    }
    func problems(_ key: String) throws(ReportMergeError) -> [InputProblem] {
      var out: [InputProblem] = []
      for (k, v) in try r.array(r.member(top, key, key), key).enumerated() { out.append(try r.problem(v, "\(key)[\(k)]")) }
      return out
    }
    return LintReport(
      findings: findings, files: files, toolVersion: version, failures: try problems("failures"), skipped: try problems("skipped"))
  }

  /// Typed access to the members of one report, with errors naming it.
  private struct Reader {
    let report: String

    func member(_ o: [String: MiniJSON.Value], _ key: String, _ field: String) throws(ReportMergeError) -> MiniJSON.Value {
      guard let v = o[key] else { throw .missingField(report: report, field: field) }
      return v
    }

    func object(_ v: MiniJSON.Value, _ field: String) throws(ReportMergeError) -> [String: MiniJSON.Value] {
      guard let o = v.object else { throw .invalidField(report: report, field: field, expected: "an object") }
      return o
    }

    func array(_ v: MiniJSON.Value, _ field: String) throws(ReportMergeError) -> [MiniJSON.Value] {
      guard let a = v.array else { throw .invalidField(report: report, field: field, expected: "an array") }
      return a
    }

    func string(_ v: MiniJSON.Value, _ field: String) throws(ReportMergeError) -> String {
      guard let s = v.string else { throw .invalidField(report: report, field: field, expected: "a string") }
      return s
    }

    func count(_ v: MiniJSON.Value, _ field: String) throws(ReportMergeError) -> Int {
      guard let n = v.number, n >= 0, n <= 9_007_199_254_740_992, let i = Int(exactly: n) else {
        throw .invalidField(report: report, field: field, expected: "a non-negative integer")
      }
      return i
    }

    func problem(_ v: MiniJSON.Value, _ field: String) throws(ReportMergeError) -> InputProblem {
      let o = try object(v, field)
      func member(_ key: String) throws(ReportMergeError) -> MiniJSON.Value { try self.member(o, key, "\(field).\(key)") }
      return InputProblem(
        file: try string(member("file"), "\(field).file"), line: try count(member("line"), "\(field).line"),
        column: try count(member("column"), "\(field).column"), message: try string(member("message"), "\(field).message"))
    }

    func finding(_ v: MiniJSON.Value, _ field: String) throws(ReportMergeError) -> Finding {
      let o = try object(v, field)
      func text(_ key: String) throws(ReportMergeError) -> String { try string(member(o, key, "\(field).\(key)"), "\(field).\(key)") }
      let ruleID = try text("rule")
      guard let rule = RuleID(id: ruleID) else { throw .unknownRule(report: report, field: "\(field).rule", id: ruleID) }
      let severityName = try text("severity")
      guard let severity = Severity(rawValue: severityName) else {
        throw .unknownSeverity(report: report, field: "\(field).severity", severity: severityName)
      }
      let message = try text("message")
      let hint = try text("hint")
      let file = try text("file")
      let line = try count(member(o, "line", "\(field).line"), "\(field).line")
      let column = try count(member(o, "column", "\(field).column"), "\(field).column")
      let step: String?
      switch try member(o, "step", "\(field).step") {
      case .null: step = nil
      case .string(let s): step = s
      default: throw .invalidField(report: report, field: "\(field).step", expected: "a string or null")
      }
      let path = try text("path")
      return Finding(
        rule: rule, severity: severity, message: message, hint: hint, location: FindingLocation(file: file, line: line, column: column),
        step: step, path: path)
    }
  }
}

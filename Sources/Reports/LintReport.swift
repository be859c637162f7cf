public import JunosChecklist
public import JunosConfig

/// The result of linting one or more inputs.
public struct LintReport: Sendable, Equatable {
  /// The findings, in `Finding` order (file, line, column, rule); ``init(findings:files:toolVersion:failures:skipped:)``
  /// sorts them and the writers list them in the order they have here.
  public var findings: [Finding]
  /// Every input given (linted, failed or skipped), as the user named it.
  public var files: [String]
  /// The version of junoscope that produced the report.
  public var toolVersion: String
  /// Inputs that could not be read or parsed: nothing was checked in them, and the report is not
  /// a clean bill for them (exit 2).
  public var failures: [InputProblem]
  /// Inputs left out: not text (zoneinfo, images), empty, or a change that needs the
  /// configuration it applies to.
  public var skipped: [InputProblem]

  /// Creates a report; `findings` are sorted.
  public init(findings: [Finding], files: [String], toolVersion: String, failures: [InputProblem] = [], skipped: [InputProblem] = []) {
    self.findings = findings.sorted()
    self.files = files
    self.toolVersion = toolVersion
    self.failures = failures
    self.skipped = skipped
  }

  /// The number of findings per severity; every severity is present, with 0 when none.
  public var summary: [Severity: Int] {
    var counts: [Severity: Int] = [.error: 0, .warning: 0, .info: 0]
    for f in findings { counts[f.severity, default: 0] += 1 }
    return counts
  }

  /// `files`, then the files findings point at that are not among them (a plan's findings can
  /// point at a configuration it loads), each once, in first-seen order.
  var reportedFiles: [String] {
    var seen = Set(files)
    var out = files
    for f in findings where seen.insert(f.location.file).inserted { out.append(f.location.file) }
    return out
  }

  /// ``reportedFiles`` without the failed and skipped inputs: the files the rules ran on.
  var checkedFiles: [String] {
    let unchecked = Set((failures + skipped).map(\.file))
    return unchecked.isEmpty ? reportedFiles : reportedFiles.filter { !unchecked.contains($0) }
  }
}

/// An input a report could not check, where in it, and why.
public struct InputProblem: Sendable, Hashable {
  /// The input, as the user named it.
  public var file: String
  /// The 1-based line and byte column of the first problem; 0 and 0 when it is not at a place in
  /// the file (it could not be opened, it is binary).
  public var line: Int
  /// See ``line``.
  public var column: Int
  /// What is wrong, for the user.
  public var message: String

  /// Creates a problem.
  public init(file: String, line: Int = 0, column: Int = 0, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// The problem of an input whose diagnostics hold errors: at the first error in the file, saying how many
  /// there are (`70 errors; the first: missing ';' at the end of the statement`).
  public init(file: String, diagnostics: [Diagnostic]) {
    let errors = diagnostics.filter { $0.severity == .error }
    guard let first = errors.min(by: { $0.location < $1.location }) else {
      self.init(file: file, message: "could not be read")
      return
    }
    let message = errors.count == 1 ? first.message : "\(errors.count) errors; the first: \(first.message)"
    self.init(file: file, line: first.location.line, column: first.location.column, message: message)
  }

  /// `file:line:col: ` (or `file: ` when not at a place), then `label: message`.
  public func rendered(_ label: String) -> String {
    let place = line > 0 ? "\(file):\(line):\(column)" : file
    return "\(place): \(label): \(message)"
  }
}

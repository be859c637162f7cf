public import JunosChecklist

/// The result of linting one or more inputs.
public struct LintReport: Sendable, Equatable {
  /// The findings, in `Finding` order (file, line, column, rule); ``init(findings:files:toolVersion:)``
  /// sorts them and the writers list them in the order they have here.
  public var findings: [Finding]
  /// Every input linted (also the clean ones), as the user named it.
  public var files: [String]
  /// The version of junoscope that produced the report.
  public var toolVersion: String

  /// Creates a report; `findings` are sorted.
  public init(findings: [Finding], files: [String], toolVersion: String) {
    self.findings = findings.sorted()
    self.files = files
    self.toolVersion = toolVersion
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
}

/// The formats a checklist report can be written in.
public enum ReportFormat: String, Sendable, CaseIterable {
  /// One finding per line (`file:line:col: severity: [rule] message`) and a summary line.
  case text
  /// The junoscope report object; what ``ReportMerge`` reads back.
  case json
  /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
  case sarif
  /// JUnit XML: every rule is a test case for every file.
  case junit
}

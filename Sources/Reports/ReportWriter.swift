import JunosChecklist

/// Writes a ``LintReport`` as text, JSON, SARIF 2.1.0 or JUnit XML.
public enum ReportWriter {
  /// The name tools and reports know junoscope by.
  static let toolName = "junoscope"

  /// One `Finding.rendered` per line, then `N errors, N warnings, N infos in N files` (N files:
  /// the inputs linted, `files.count`).
  public static func text(_ r: LintReport) -> String {
    var s = ""
    for f in r.findings {
      s += f.rendered
      s += "\n"
    }
    let c = r.summary
    s += "\(c[.error] ?? 0) errors, \(c[.warning] ?? 0) warnings, \(c[.info] ?? 0) infos in \(r.files.count) files\n"
    return s
  }

  /// The report as pretty JSON (2-space indentation, keys in a fixed order, final newline):
  /// `{"findings":[{"rule","severity","message","hint","file","line","column","step","path"}…],
  /// "summary":{"error","warning","info"},"files":[…],"tool":{"name","version"}}`; `step` is `null`
  /// when absent. ``ReportMerge/merge(_:)`` reads it back.
  public static func json(_ r: LintReport) -> String {
    let c = r.summary
    let tree = JSONTree.object([
      ("findings", .array(r.findings.map(jsonFinding))),
      ("summary", .object([("error", .int(c[.error] ?? 0)), ("warning", .int(c[.warning] ?? 0)), ("info", .int(c[.info] ?? 0))])),
      ("files", .array(r.files.map { .string($0) })),
      ("tool", .object([("name", .string(toolName)), ("version", .string(r.toolVersion))])),
    ])
    return tree.pretty
  }

  private static func jsonFinding(_ f: Finding) -> JSONTree {
    .object([
      ("rule", .string(f.rule.rawValue)),
      ("severity", .string(f.severity.rawValue)),
      ("message", .string(f.message)),
      ("hint", .string(f.hint)),
      ("file", .string(f.location.file)),
      ("line", .int(f.location.line)),
      ("column", .int(f.location.column)),
      ("step", f.step.map { .string($0) } ?? .null),
      ("path", .string(f.path)),
    ])
  }

  /// The report in `format`; `workingDirectory` (absolute) is used by SARIF only, to make file URIs
  /// relative.
  public static func render(_ r: LintReport, as format: ReportFormat, workingDirectory: String) -> String {
    switch format {
    case .text: text(r)
    case .json: json(r)
    case .sarif: sarif(r, workingDirectory: workingDirectory)
    case .junit: junit(r)
    }
  }
}

import JunosChecklist

/// Writes a ``LintReport`` as text, JSON, SARIF 2.1.0 or JUnit XML.
public enum ReportWriter {
  /// The name tools and reports know junoscope by.
  static let toolName = "junoscope"

  /// One `Finding.rendered` per line, then one line per input that could not be read
  /// (`file:line:col: input error: message`) and per skipped input (`file: skipped: reason`), then
  /// `N errors, N warnings, N infos in N files` (N files: the inputs given, `files.count`),
  /// followed by `; N could not be read` and `; N skipped` when there are any.
  public static func text(_ r: LintReport) -> String {
    var s = ""
    for f in r.findings {
      s += f.rendered
      s += "\n"
    }
    for p in r.failures { s += p.rendered("input error") + "\n" }
    for p in r.skipped { s += p.rendered("skipped") + "\n" }
    let c = r.summary
    s += "\(counted(c[.error] ?? 0, "error")), \(counted(c[.warning] ?? 0, "warning")), \(counted(c[.info] ?? 0, "info"))"
    s += " in \(counted(r.files.count, "file"))"
    if !r.failures.isEmpty { s += "; \(r.failures.count) could not be read" }
    if !r.skipped.isEmpty { s += "; \(r.skipped.count) skipped" }
    return s + "\n"
  }

  /// `1 error`, `2 errors`, `0 errors`: a count with its noun in agreement (English `-s` plural).
  public static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

  /// The `format` of ``json(_:)`` reports.
  public static let jsonFormat = "junoscope.lint"
  /// The `version` of ``json(_:)`` reports: fields may be added within it, never renamed or removed.
  public static let jsonVersion = 1

  /// The report as pretty JSON (2-space indentation, keys in a fixed order, final newline), format
  /// `junoscope.lint` version 1 (Docs/JSON.md): `{"format":"junoscope.lint","version":1,"findings":[{"rule","severity","message","hint","file","line","column","step","path"}…],
  /// "failures":[{"file","line","column","message"}…],"skipped":[{"file","line","column","message"}…],
  /// "summary":{"error","warning","info","failures","skipped"},"files":[…],"tool":{"name","version"}}`;
  /// `step` is `null` when absent. ``ReportMerge/merge(_:)`` reads it back.
  public static func json(_ r: LintReport) -> String {
    let c = r.summary
    let tree = JSONTree.object([
      ("format", .string(jsonFormat)), ("version", .int(jsonVersion)),
      ("findings", .array(r.findings.map(jsonFinding))),
      ("failures", .array(r.failures.map(jsonProblem))),
      ("skipped", .array(r.skipped.map(jsonProblem))),
      (
        "summary",
        .object([
          ("error", .int(c[.error] ?? 0)), ("warning", .int(c[.warning] ?? 0)), ("info", .int(c[.info] ?? 0)),
          ("failures", .int(r.failures.count)), ("skipped", .int(r.skipped.count)),
        ])
      ),
      ("files", .array(r.files.map { .string($0) })),
      ("tool", .object([("name", .string(toolName)), ("version", .string(r.toolVersion))])),
    ])
    return tree.pretty
  }

  private static func jsonProblem(_ p: InputProblem) -> JSONTree {
    .object([("file", .string(p.file)), ("line", .int(p.line)), ("column", .int(p.column)), ("message", .string(p.message))])
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

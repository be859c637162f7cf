import ArgumentKit
import JunosConfig

/// `junoscope check FILE…`: diagnostics only.
enum CheckCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "check",
    abstract: "Check configurations for syntax errors and truncated captures.",
    discussion: """
      Prints one 'file:line:col: error: message' line per problem (columns are UTF-8 byte columns)
      on standard error, and one summary line per file on standard output.
      Exit status: 0 when every input is clean, 2 when any has an error.
      """,
    arguments: [
      .positional("file", help: "Configuration files, or - for standard input.", repeating: true, completion: .file),
      .flag("quiet", short: "q", help: "Print only the diagnostics."),
      CommonOptions.syntax,
      CommonOptions.keywords,
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let keywords = try CommonOptions.keywordTable(inv, io: io)
    var status = ExitStatus.success
    for path in inv.positionals("file") {
      let (file, result) = try CommonOptions.parse(path, inv, io: io, keywords: keywords)
      CommonOptions.report(result.diagnostics, console: console)
      let errors = result.diagnostics.filter { $0.severity == .error }.count
      let warnings = result.diagnostics.count - errors
      if errors > 0 { status = ExitStatus.invalidInput }
      guard !inv.flag("quiet") else { continue }
      let truncated = result.diagnostics.contains { $0.id == DiagnosticID.truncatedCapture.rawValue }
      var summary = "\(file.path): \(result.syntax.rawValue) configuration, \(result.tree.statementCount) statements"
      if errors > 0 { summary += ", \(errors) error\(errors == 1 ? "" : "s")" }
      if warnings > 0 { summary += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
      if truncated { summary += ", truncated capture" }
      if result.skippedLines > 0 { summary += " (\(result.skippedLines) capture line\(result.skippedLines == 1 ? "" : "s") skipped)" }
      console.print(summary)
    }
    return status
  }
}

import ArgumentKit
import JunosChecklist
import JunosConfig
import JunosDiff

/// `junoscope check FILE…`: diagnostics only.
enum CheckCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "check",
    abstract: "Check configurations and captured compare text for syntax errors and truncated captures.",
    discussion: """
      Prints one 'file:line:col: error: message' line per problem (columns are UTF-8 byte columns)
      on standard error, and one summary line per file on standard output. Compare text ('show | compare'
      output: '[edit …]' banners and '+'/'-'/'!' lines) is recognised and checked as a diff: a complete
      diff, or a truncated or garbled one with the line and column where it breaks.
      A configuration is checked against Juniper's schema as 'commit check' checks its syntax:
      unknown statements (with 'did you mean'), values of the wrong type, missing keys and values,
      a single-valued statement given twice, two statements of one choice. --lenient makes unknown
      statements warnings (for releases newer than the schema, hidden commands).
      Exit status: 0 when every input is clean, 2 when any has an error.
      """,
    arguments: [
      .positional("file", help: "Configuration files, or - for standard input.", repeating: true, completion: .file),
      .flag("quiet", short: "q", help: "Print only the diagnostics."),
      CommonOptions.junosFamily,
      CommonOptions.lenient,
      CommonOptions.syntax,
      CommonOptions.keywords,
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let model = try CommonOptions.model(inv, io: io)
    var status = ExitStatus.success
    for path in inv.positionals("file") {
      // Read once: compare text is told from a configuration by its bytes.
      let file = try CommonOptions.source(path, io: io)
      // What the file is (the detector every command uses); --syntax forces a configuration.
      let kind = inv.option("syntax") == nil ? InputKind.detect(file) : file.binaryOffset.map { .binary(offset: $0) }
      switch kind {
      case .compare:
        if !checkCompare(file, quiet: inv.flag("quiet"), console: console) { status = ExitStatus.invalidInput }
        continue
      case .binary:
        // One line: the bytes are not echoed.
        console.err(Array("junoscope: \(Diagnostic.printable(file.path)): \(kind!.description), not a configuration\n".utf8))
        status = ExitStatus.invalidInput
        continue
      case .history, .plan:
        let use = kind == .plan ? "junoscope lint" : "junoscope log"
        console.err(
          Array("junoscope: \(Diagnostic.printable(file.path)) is \(kind!.description), not a configuration (use '\(use)')\n".utf8))
        status = ExitStatus.invalidInput
        continue
      case .empty, .commands, .configuration, nil:
        break
      }
      var result = ConfigParser.parse(file, syntax: CommonOptions.syntax(inv), model: model)
      // The tree is handed over, not shared, so the check's one-statement-per-level form is
      // made in place rather than in a copy.
      let statements = result.tree.statementCount
      let tree = result.tree
      result.tree = ConfigTree()
      result.diagnostics += SchemaCheck(lenient: inv.flag("lenient")).diagnostics(of: consume tree, in: file, model: model)
      CommonOptions.report(result.diagnostics, console: console)
      let errors = result.diagnostics.filter { $0.severity == .error }.count
      let warnings = result.diagnostics.count - errors
      if errors > 0 { status = ExitStatus.invalidInput }
      guard !inv.flag("quiet") else { continue }
      let truncated = result.diagnostics.contains { $0.id == DiagnosticID.truncatedCapture.rawValue }
      var summary = "\(file.path): \(result.syntax.rawValue) configuration, \(statements) statements"
      if errors > 0 { summary += ", \(errors) error\(errors == 1 ? "" : "s")" }
      if warnings > 0 { summary += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
      if truncated { summary += ", truncated capture" }
      if result.skippedLines > 0 { summary += " (\(result.skippedLines) capture line\(result.skippedLines == 1 ? "" : "s") skipped)" }
      console.print(summary)
    }
    return status
  }

  /// Checks compare text; returns whether it is clean.
  static func checkCompare(_ file: SourceFile, quiet: Bool, console: Console) -> Bool {
    let text = CompareText.parse(file)
    CommonOptions.report(text.diagnostics, console: console)
    let errors = text.diagnostics.filter { $0.severity == .error }.count
    guard !quiet else { return errors == 0 }
    let changes = text.hunks.reduce(0) { n, h in
      n + h.entries.filter { if case .context = $0 { return false } else { return true } }.count
    }
    var summary =
      "\(file.path): compare text, \(text.hunks.count) [edit] banner\(text.hunks.count == 1 ? "" : "s"), \(changes) change\(changes == 1 ? "" : "s")"
    if errors > 0 {
      let truncated = text.diagnostics.contains {
        $0.id == DiagnosticID.truncatedCapture.rawValue || $0.id == DiagnosticID.missingBanner.rawValue
      }
      summary += ", \(errors) error\(errors == 1 ? "" : "s") (\(truncated ? "truncated" : "garbled") diff)"
    } else {
      summary += ", complete"
    }
    if text.skippedLines > 0 { summary += " (\(text.skippedLines) capture line\(text.skippedLines == 1 ? "" : "s") skipped)" }
    console.print(summary)
    return errors == 0
  }
}

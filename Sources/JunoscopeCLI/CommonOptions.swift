import ArgumentKit
import JunosConfig
import JunosHistory

/// Options shared by the commands that read configurations.
enum CommonOptions {
  static let syntax = ArgumentSpec.option(
    "syntax", valueName: "syntax", help: "Read inputs as this syntax instead of detecting it.",
    allowedValues: ConfigSyntax.allCases.map(\.rawValue))
  static let keywords = ArgumentSpec.option(
    "keywords", valueName: "file",
    help: "Extra keyword-table entries (the form 'junoscope keywords learn' prints), applied over the built-in table.",
    repeating: true, completion: .file)
  static let showSecrets = ArgumentSpec.flag("show-secrets", help: "Print secrets (passwords, keys) instead of masking them.")
  static let output = ArgumentSpec.option(
    "output", short: "o", valueName: "file", help: "Write to this file (atomically) instead of standard output.",
    completion: .file)

  static let utcOffsetOption = ArgumentSpec.option(
    "utc-offset", valueName: "±HH:MM", help: "The device's UTC offset, for zones the listing does not make clear.")

  /// `--utc-offset` in seconds, if given.
  static func utcOffset(_ inv: Invocation) throws(CommandFailure) -> Int? {
    guard let text = inv.option("utc-offset") else { return nil }
    guard let o = ZoneAbbreviations.numericOffset(text) ?? (text == "UTC" ? 0 : nil) else {
      throw CommandFailure(message: "--utc-offset wants ±HH:MM (or UTC), not '\(text)'", status: ExitStatus.usage)
    }
    return o
  }

  /// Reads the `--commits` listing (text or XML), places its times on UTC (`--utc-offset` if
  /// given) and reports its diagnostics; nil when it has errors.
  static func commitHistory(_ path: String, _ inv: Invocation, io: FileIO, console: Console) throws(CommandFailure) -> CommitHistory? {
    let offset = try utcOffset(inv)
    let input = try io.read(path)
    let file = SourceFile(path: input.path, bytes: input.bytes)
    var history = CommitHistory.read(file)
    TimePlacement.place(&history, zone: offset, file: file)
    report(history.diagnostics, console: console)
    return history.hasErrors ? nil : history
  }

  /// The keyword table: built-in, plus every `--keywords FILE`.
  static func keywordTable(_ inv: Invocation, io: FileIO) throws(CommandFailure) -> KeywordTable {
    var table = KeywordTable.standard
    for path in inv.options("keywords") {
      let input = try io.read(path)
      let bad = table.load(String(decoding: input.bytes, as: UTF8.self))
      if let first = bad.first {
        throw CommandFailure(message: "\(path):\(first):1: error: not a keyword-table line", status: 2)
      }
    }
    return table
  }

  /// Reads and parses one input.
  static func parse(_ path: String, _ inv: Invocation, io: FileIO, keywords: KeywordTable) throws(CommandFailure) -> (
    SourceFile, ParseResult
  ) {
    let input = try io.read(path)
    let file = SourceFile(path: input.path, bytes: input.bytes)
    let syntax = inv.option("syntax").flatMap(ConfigSyntax.init(rawValue:))
    return (file, ConfigParser.parse(file, syntax: syntax, keywords: keywords))
  }

  /// Prints diagnostics on standard error in the `file:line:col: severity: message` form.
  static func report(_ diagnostics: [Diagnostic], console: Console) {
    guard !diagnostics.isEmpty else { return }
    console.err(Array(diagnostics.map { $0.rendered + "\n" }.joined().utf8))
  }
}

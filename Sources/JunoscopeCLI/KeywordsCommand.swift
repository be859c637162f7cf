import ArgumentKit
import JunosConfig

/// `junoscope keywords learn FILE…` and `junoscope keywords show`.
enum KeywordsCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "keywords",
    abstract: "Show or extend the keyword table that splits 'display set' lines into statements.",
    discussion: """
      'display set' text does not say where an identifier ends ('unit 0', 'family inet',
      'route X next-hop Y'); the keyword table does. 'learn' reads curly configurations and prints
      the entries they show, in the form --keywords FILE accepts.
      """,
    arguments: [
      .positional(
        "action", help: "learn: print entries learned from curly files; show: print the built-in table.",
        completion: .values(["learn", "show"])),
      .positional("file", help: "Curly configuration files to learn from.", optional: true, repeating: true, completion: .file),
      .flag("all", help: "With learn: print every learned entry, not only those the built-in table lacks."),
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    switch inv.positional("action") {
    case "show":
      console.out(Array(KeywordTable.standard.text.utf8))
      return ExitStatus.success
    case "learn":
      guard !inv.positionals("file").isEmpty else {
        throw CommandFailure(
          message: "keywords learn: give the curly configuration files to learn from (- for standard input)", status: ExitStatus.usage)
      }
      var trees: [ConfigTree] = []
      var failed = false
      for path in inv.positionals("file") {
        let input = try io.read(path)
        let result = ConfigParser.parse(SourceFile(path: input.path, bytes: input.bytes), syntax: .curly)
        CommonOptions.report(result.diagnostics, console: console)
        if result.hasErrors { failed = true } else { trees.append(result.tree) }
      }
      if failed { return ExitStatus.invalidInput }
      var learned = KeywordTable()
      learned.learn(from: trees)
      if !inv.flag("all") {
        let builtin = KeywordTable.standard.entries
        var missing = KeywordTable()
        for (key, e) in learned.entries where builtin[key] != e {
          let parts = key.split(separator: " ")
          missing.set(e, for: String(parts[parts.count - 1]), parent: parts.count > 1 ? parts.dropLast().joined(separator: " ") : nil)
        }
        learned = missing
      }
      console.out(Array(learned.text.utf8))
      return ExitStatus.success
    default:
      let e = UsageError(
        message: "Expected 'learn' or 'show', got '\(inv.positional("action") ?? "")'.",
        usage: "junoscope keywords <action> [<file> ...] [--all]", commandPath: ["junoscope", "keywords"])
      console.error(e.rendered)
      return ExitStatus.usage
    }
  }
}

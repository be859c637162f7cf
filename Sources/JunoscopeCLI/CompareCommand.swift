import ArgumentKit
import JunosConfig
import JunosDiff

/// `junoscope compare OLD NEW [--format junos|set|json] [--show-secrets]`.
enum CompareCommand: JunoscopeCommand {
  enum Format: String, CaseIterable { case junos, set, json }

  static let spec = CommandSpec(
    name: "compare",
    abstract: "Show what changed between two configurations, as 'show | compare' prints it.",
    discussion: """
      OLD is the base: '+' lines are only in NEW, '-' lines only in OLD. Either may be curly-brace or
      'display set' text, or - for standard input. '## Last commit' headers and '#' comments are
      ignored; annotations count. Secrets are masked unless --show-secrets (a changed secret still
      shows as changed). Exit status as diff(1): 0 identical, 1 different, 2 invalid input.
      """,
    arguments: [
      .positional("old", help: "The base configuration, or - for standard input.", completion: .file),
      .positional("new", help: "The configuration to compare with it, or -.", completion: .file),
      .option("format", short: "f", valueName: "format", help: "Output form.", allowedValues: Format.allCases.map(\.rawValue)),
      CommonOptions.showSecrets,
      CommonOptions.syntax,
      CommonOptions.keywords,
      CommonOptions.output,
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let model = try CommonOptions.model(inv, io: io)
    let format = inv.option("format").flatMap(Format.init(rawValue:)) ?? .junos
    let options = RenderOptions(showSecrets: inv.flag("show-secrets"), model: model)
    let oldPath = inv.positionals("old").first ?? "-"
    let newPath = inv.positionals("new").first ?? "-"
    if oldPath == "-" && newPath == "-" {
      throw CommandFailure(message: "only one of OLD and NEW can be standard input", status: ExitStatus.usage)
    }
    let (oldFile, a) = try CommonOptions.parse(oldPath, inv, io: io, model: model)
    let (newFile, b) = try CommonOptions.parse(newPath, inv, io: io, model: model)
    CommonOptions.report(a.diagnostics + b.diagnostics, console: console)
    if a.hasErrors || b.hasErrors { return ExitStatus.invalidInput }
    let diff = ConfigDiff(from: a.tree, to: b.tree, options: DiffOptions(model: model))
    let out: [UInt8]
    switch format {
    case .junos: out = diff.renderJunos(options)
    case .set: out = diff.renderSet(options)
    case .json: out = diff.renderJSON(options, oldPath: oldFile.path, newPath: newFile.path)
    }
    try io.write(out, to: inv.option("output"))
    return diff.isEmpty ? ExitStatus.success : ExitStatus.failure
  }
}

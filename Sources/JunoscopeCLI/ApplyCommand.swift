import ArgumentKit
import JunosConfig
import JunosDiff

/// `junoscope apply BASE CHANGES [--format curly|set|json]`.
enum ApplyCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "apply",
    abstract: "Apply a captured 'show | compare' or a file of set/delete/… commands to a configuration.",
    discussion: """
      CHANGES is detected: compare text ('[edit …]' banners, '+'/'-'/'!' lines, as 'junoscope compare'
      or the device prints it) or commands as 'load set' takes them (set, delete, activate, deactivate,
      insert, annotate, rename, protect, unprotect). A banner, context line, deleted statement or
      command that does not match BASE is an error with its line and column; nothing is printed then.
      Exit status: 0 applied, 2 invalid input or changes that do not apply.
      """,
    arguments: [
      .positional("base", help: "The configuration to change, or - for standard input.", completion: .file),
      .positional("changes", help: "Compare text or set commands, or -.", completion: .file),
      .option("format", short: "f", valueName: "format", help: "Output form.", allowedValues: ShowCommand.Format.allCases.map(\.rawValue)),
      CommonOptions.showSecrets,
      CommonOptions.syntax,
      CommonOptions.keywords,
      CommonOptions.output,
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let model = try CommonOptions.model(inv, io: io)
    let format = inv.option("format").flatMap(ShowCommand.Format.init(rawValue:)) ?? .curly
    let options = RenderOptions(showSecrets: inv.flag("show-secrets"), model: model)
    let basePath = inv.positionals("base").first ?? "-"
    let changesPath = inv.positionals("changes").first ?? "-"
    if basePath == "-" && changesPath == "-" {
      throw CommandFailure(message: "only one of BASE and CHANGES can be standard input", status: ExitStatus.usage)
    }
    let (baseFile, base) = try CommonOptions.parse(basePath, inv, io: io, model: model)
    CommonOptions.report(base.diagnostics, console: console)
    if base.hasErrors { return ExitStatus.invalidInput }
    var baseTree = base.tree
    baseTree.mergeDuplicateBlocks()
    let input = try io.read(changesPath)
    let changes = SourceFile(path: input.path, bytes: input.bytes)
    let result: ApplyResult
    if changes.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
      // The compare of two identical configurations is empty: nothing to apply.
      result = ApplyResult(tree: baseTree, diagnostics: [])
    } else if CompareText.looksLikeCompare(changes) {
      let text = CompareText.parse(changes)
      CommonOptions.report(text.diagnostics, console: console)
      if text.hasErrors { return ExitStatus.invalidInput }
      result = text.apply(to: baseTree, options: DiffOptions(model: model))
    } else if ConfigParser.detectSyntax(changes) == .set {
      let loaded = ConfigParser.load(changes, onto: baseTree, model: model)
      result = ApplyResult(tree: loaded.tree, diagnostics: loaded.diagnostics)
    } else {
      throw CommandFailure(
        message: "\(changes.path): neither compare text ('[edit …]' and '+'/'-' lines) nor set commands", status: ExitStatus.invalidInput)
    }
    CommonOptions.report(result.diagnostics, console: console)
    if result.hasErrors { return ExitStatus.invalidInput }
    let out: [UInt8]
    switch format {
    case .curly: out = result.tree.renderCurly(options)
    case .set: out = result.tree.renderSet(options)
    case .json: out = result.tree.renderJSON(options, source: baseFile)
    case .xml: out = result.tree.renderXML(options)
    }
    try io.write(out, to: inv.option("output"))
    return ExitStatus.success
  }
}

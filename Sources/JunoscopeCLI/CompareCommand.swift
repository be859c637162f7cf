import ArgumentKit
import JunosChecklist
import JunosConfig
import JunosDiff
import Reports

/// `junoscope compare OLD NEW [PATH…] [--format junos|set|json] [--show-secrets]`.
enum CompareCommand: JunoscopeCommand {
  enum Format: String, CaseIterable { case junos, set, json }

  static let spec = CommandSpec(
    name: "compare",
    abstract: "Show what changed between two configurations, as 'show | compare' prints it.",
    discussion: """
      OLD is the base: '+' lines are only in NEW, '-' lines only in OLD. Either may be curly-brace or
      'display set' text, or - for standard input. '## Last commit' headers and '#' comments are
      ignored; annotations count. Secrets are masked unless --show-secrets (a changed secret still
      shows as changed). PATH limits the comparison to one hierarchy, as 'show protocols bgp |
      compare' does: its words follow, e.g. 'compare r1.conf r2.conf protocols bgp'. Exit status as
      diff(1): 0 identical, 1 different, 2 invalid input.
      --inheritance compares the effective configurations (groups and interface ranges expanded,
      inactive statements dropped): each added or removed statement a group gave is preceded by
      '## inherited from group 'G'' (junos format; set and json print the plain difference).
      --semantic compares what the configurations do instead of what they say: for every place a
      routing policy decides routes (BGP import and export per group and neighbor, IGP export,
      vrf-import and vrf-export, forwarding-table export), the routes the two decide differently,
      each set with an example route and the terms it meets on both sides; for every interface
      filter (lo0's included), the packets the two decide differently, with an example packet
      (text, or json). Exit status: 0 when no route or packet is decided differently, 1 when one
      is or may be (not modelled), 2 invalid input.
      """,
    arguments: [
      .positional("old", help: "The base configuration, or - for standard input.", completion: .file),
      .positional("new", help: "The configuration to compare with it, or -.", completion: .file),
      .positional("path", help: "The hierarchy to compare (e.g. protocols bgp); default: everything.", optional: true, repeating: true),
      .option("format", short: "f", valueName: "format", help: "Output form.", allowedValues: Format.allCases.map(\.rawValue)),
      CommonOptions.showSecrets,
      .flag("inheritance", help: "Compare the effective configurations, marking what groups gave."),
      .flag("semantic", help: "Compare what the routing policies decide, route by route, not their text."),
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
    let ((oldFile, a), (newFile, b)) = try CommonOptions.parsePair((oldPath, newPath), inv, io: io, model: model)
    CommonOptions.report(a.diagnostics + b.diagnostics, console: console)
    if a.hasErrors || b.hasErrors { return ExitStatus.invalidInput }
    // "protocols bgp" as one argument or two: the words of one hierarchy either way.
    let path = inv.positionals("path").flatMap { $0.split(separator: " ").map(String.init) }
    if inv.flag("semantic") {
      return try semantic(inv, io: io, a.tree, b.tree, path: path, format: format, files: (oldFile.path, newFile.path))
    }
    let inheritance = inv.flag("inheritance")
    if inheritance && !path.isEmpty {
      throw CommandFailure(message: "--inheritance compares whole configurations: leave out PATH", status: ExitStatus.usage)
    }
    let inheritedOld = inheritance ? a.tree.inheritance(model: model, interfaceRanges: true) : nil
    let inheritedNew = inheritance ? b.tree.inheritance(model: model, interfaceRanges: true) : nil
    let (old, reachedOld) = a.tree.restricted(to: path)
    let (new, reachedNew) = b.tree.restricted(to: path)
    if reachedOld + reachedNew == 0 {
      console.error("junoscope: warning: no statement at '\(path.joined(separator: " "))' in \(oldFile.path) or \(newFile.path)")
    }
    let inherited = inheritedOld.flatMap { o in inheritedNew.map { InheritanceDiff(from: o, to: $0, options: DiffOptions(model: model)) } }
    let diff = inherited?.diff ?? ConfigDiff(from: old, to: new, options: DiffOptions(model: model))
    let out: [UInt8]
    switch format {
    case .junos:
      out = console.style(output: inv.option("output")).paintedDiff(inherited?.renderJunos(options) ?? diff.renderJunos(options))
    case .set: out = diff.renderSet(options)
    case .json: out = diff.renderJSON(options, oldPath: oldFile.path, newPath: newFile.path)
    }
    try io.write(out, to: inv.option("output"))
    return diff.isEmpty ? ExitStatus.success : ExitStatus.failure
  }

  /// `--semantic`: the routes whose decision changes, per attachment point.
  private static func semantic(
    _ inv: Invocation, io: FileIO, _ old: ConfigTree, _ new: ConfigTree, path: [String], format: Format, files: (String, String)
  ) throws(CommandFailure) -> Int32 {
    if !path.isEmpty || inv.flag("inheritance") {
      throw CommandFailure(message: "--semantic compares whole configurations: leave out PATH and --inheritance", status: ExitStatus.usage)
    }
    let differences = SemanticComparison.policies(before: old, after: new)
    let filters = FirewallComparison.compare(old: old.effective(), new: new.effective())
    let out: [UInt8]
    switch format {
    case .junos: out = Array(SemanticReport.text(differences, filters: filters, old: files.0, new: files.1).utf8)
    case .json: out = SemanticReport.json(differences, filters: filters, old: files.0, new: files.1)
    case .set: throw CommandFailure(message: "--semantic prints text or json, not set", status: ExitStatus.usage)
    }
    try io.write(out, to: inv.option("output"))
    return differences.isEmpty && filters.isEmpty ? ExitStatus.success : ExitStatus.failure
  }
}

import ArgumentKit
import JunosConfig

/// `junoscope show FILE… [--format curly|set|json|xml] [--show-secrets] [--inheritance]`.
enum ShowCommand: JunoscopeCommand {
  enum Format: String, CaseIterable { case curly, set, json, xml }

  static let spec = CommandSpec(
    name: "show",
    abstract: "Parse configurations and print them as curly text, set commands, JSON or Junos XML.",
    discussion: """
      Inputs may be curly-brace or 'display set' text, captured terminal output included (prompts,
      {master:0}, [edit] and echoed commands are skipped), or Junos XML ('display xml', a NETCONF
      <configuration> reply). Secrets are masked unless --show-secrets.
      Nothing is printed for an input with errors: the diagnostics go to standard error, exit 2.
      --inheritance prints the effective configuration as 'show configuration | display
      inheritance' does: groups and interface ranges expanded, inactive statements dropped, and
      '## ... was inherited from group ...' lines before inherited statements (none with
      --no-comments, like 'display inheritance no-comments'; other formats print the effective
      configuration without notes).
      """,
    arguments: [
      .positional("file", help: "Configuration files, or - for standard input.", repeating: true, completion: .file),
      .option("format", short: "f", valueName: "format", help: "Output form.", allowedValues: Format.allCases.map(\.rawValue)),
      CommonOptions.showSecrets,
      .flag("no-comments", help: "Leave out comments and annotations."),
      .flag("inheritance", help: "Print the effective configuration, groups expanded, as 'display inheritance' does."),
      CommonOptions.syntax,
      CommonOptions.keywords,
      CommonOptions.output,
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let model = try CommonOptions.model(inv, io: io)
    let format = inv.option("format").flatMap(Format.init(rawValue:)) ?? .curly
    let options = RenderOptions(showSecrets: inv.flag("show-secrets"), comments: !inv.flag("no-comments"), model: model)
    let paths = inv.positionals("file")
    var rendered: [[UInt8]] = []
    var failed = false
    for path in paths {
      let (file, result) = try CommonOptions.parse(path, inv, io: io, model: model)
      CommonOptions.report(result.diagnostics, console: console)
      if result.hasErrors {
        failed = true
        continue
      }
      var tree = result.tree
      if inv.flag("inheritance") {
        let inherited = tree.inheritance(model: model, interfaceRanges: true)
        if format == .curly {
          rendered.append(inherited.renderCurly(options))
          continue
        }
        tree = inherited.configuration
      }
      switch format {
      case .curly: rendered.append(tree.renderCurly(options))
      case .set: rendered.append(tree.renderSet(options))
      case .json: rendered.append(tree.renderJSON(options, source: file))
      case .xml: rendered.append(tree.renderXML(options))
      }
    }
    if failed { return ExitStatus.invalidInput }
    var out: [UInt8] = []
    if rendered.count == 1 {
      out = rendered[0]
    } else if format == .json {
      // Several files: one `junoscope.configs` object, an array of each file's path and configuration.
      out.append(contentsOf: #"{"format":"junoscope.configs","version":1,"configs":["#.utf8)
      for (k, r) in rendered.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: "{\"path\":".utf8)
        out.append(contentsOf: jsonString(paths[k]))
        out.append(contentsOf: ",\"config\":".utf8)
        out.append(contentsOf: r.dropLast())
        out.append(UInt8(ascii: "}"))
      }
      out.append(contentsOf: "]}\n".utf8)
    } else {
      for (k, r) in rendered.enumerated() {
        out.append(contentsOf: "## junoscope: \(paths[k])\n".utf8)
        out.append(contentsOf: r)
      }
    }
    try io.write(out, to: inv.option("output"))
    return ExitStatus.success
  }

  static func jsonString(_ s: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for c in s.unicodeScalars {
      switch c {
      case "\"": out.append(contentsOf: #"\""#.utf8)
      case "\\": out.append(contentsOf: #"\\"#.utf8)
      default:
        if c.value < 0x20 {
          out.append(contentsOf: "\\u00\(c.value < 16 ? "0" : "")\(String(c.value, radix: 16))".utf8)
        } else {
          out.append(contentsOf: String(c).utf8)
        }
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }
}

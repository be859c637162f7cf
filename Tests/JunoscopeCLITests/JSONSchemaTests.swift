import Foundation
import JunoscopeTestSupport
import Testing

/// Every JSON output of the command line, made from Fixtures/, validated against its schema in
/// Docs/schemas by `.ci/validate-json` (Python's jsonschema, draft 2020-12).
@Suite struct JSONSchemaTests {
  static let schemas = fixtures + "/../Docs/schemas"

  /// Writes each document to a temporary folder and runs `.ci/validate-json` on them (`--schema`
  /// before a document chooses its schema; otherwise its `format` does); its exit status, its
  /// output and the files' paths.
  static func validate(_ documents: [(name: String, text: String, schema: String?)]) throws -> (
    status: Int32, output: String, paths: [String]
  ) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-schemas-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var arguments: [String] = []
    var paths: [String] = []
    for (k, d) in documents.enumerated() {
      let path = dir + "/\(k)-\(d.name).json"
      try d.text.write(toFile: path, atomically: true, encoding: .utf8)
      if let schema = d.schema { arguments += ["--schema", schemas + "/" + schema] }
      arguments.append(path)
      paths.append(path)
    }
    let r = try runScript(".ci/validate-json", arguments)
    return (r.status, r.output, paths)
  }

  /// The command's standard output, after checking it ran with the status expected.
  static func output(_ args: [String], stdin: String = "", status: Int32 = 0) -> String {
    let r = run(args, stdin: stdin)
    #expect(r.status == status, "\(args.joined(separator: " ")): \(r.err)")
    return r.out
  }

  /// The JSON outputs of every command on Fixtures/ (and on the review suite's sources: a capture
  /// bundle, a rollback folder and the tests' Oxidized repository).
  static func outputs(_ s: ReviewCLITests.Sources) throws -> [(name: String, text: String)] {
    let x1 = fixtures + "/examples/diff/x1.conf"
    let x2 = fixtures + "/examples/diff/x2.conf"
    let rollbacks = ["--rollbacks", fixtures + "/rollbacks"]
    let git = ["--git", s.repo.path, "--device", "mx-msk-br1"]
    let listing = fixtures + "/commit-history/text/katerina_blog_show_system_commit.txt"
    let pending = fixtures + "/commit-history/xml/napalm_junos_commit_confirm_pending.xml"
    let plan = fixtures + "/checklist/swap-cr1-dc1.plan"
    let mixed = fixtures + "/configs/mixed"
    let compare = output(["compare", x1, x2], status: 1)
    let msk = fixtures + "/checklist/semantic/mx-msk-br1.conf"
    let strict = output(["apply", msk, fixtures + "/checklist/semantic/mx-msk-br1-sanity-too-strict.set"])
    let reBase = fixtures + "/checklist/incidents/re-filter-baseline.conf"
    let narrowed = output(["apply", reBase, fixtures + "/checklist/incidents/re-filter-bfd-narrowed.set"])
    var shards: [(name: String, text: String)] = []
    for k in 1...2 { shards.append(("ci-shard\(k)", output(["ci", "-f", "json", "--shard", "\(k)/2", mixed], status: 2))) }
    let shardPaths = try shards.map { shard in
      let path = s.root + "/\(shard.name).json"
      try shard.text.write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    return [
      ("show", output(["show", "-f", "json", x2])),
      ("show-secrets", output(["show", "-f", "json", fixtures + "/configs/curly/poema_before_mx-msk-br1.md"])),
      ("show-several", output(["show", "-f", "json", x1, x2])),
      ("apply", output(["apply", "-f", "json", x1, "-"], stdin: compare)),
      ("compare", output(["compare", "-f", "json", x1, x2], status: 1)),
      ("compare-identical", output(["compare", "-f", "json", x1, x1])),
      ("semantic", output(["compare", "--semantic", "-f", "json", msk, "-"], stdin: strict, status: 1)),
      ("semantic-identical", output(["compare", "--semantic", "-f", "json", msk, msk])),
      ("semantic-filter", output(["compare", "--semantic", "-f", "json", reBase, "-"], stdin: narrowed, status: 1)),
      ("diff", output(["diff", "0", "-f", "json"] + rollbacks)),
      ("diff-git", output(["diff", "0", "-f", "json"] + git)),
      ("log", output(["log", "-f", "json", "--commits", listing])),
      ("log-rollbacks", output(["log", "-f", "json"] + rollbacks)),
      ("log-git", output(["log", "-f", "json"] + git)),
      ("timeline", output(["timeline", "-f", "json", "--commits", listing])),
      ("timeline-pending", output(["timeline", "-f", "json", "--commits", pending])),
      ("timeline-git", output(["timeline", "-f", "json"] + git)),
      ("blame", output(["blame", "-f", "json"] + rollbacks)),
      ("blame-git", output(["blame", "-f", "json"] + git)),
      ("lint", output(["lint", "-f", "json", plan], status: 1)),
      ("ci", output(["ci", "-f", "json", mixed], status: 2)),
    ] + shards + [
      ("ci-merge", output(["ci", "--merge", "-f", "json"] + shardPaths, status: 2)),
      ("review", output(s.arguments + ["-f", "json"])),
      (
        "review-failed", output(["review", "--since", "2024-09-20", "--until", "2024-09-28", s.root + "/missing", "-f", "json"], status: 2)
      ),
      ("bundle-manifest", try String(contentsOfFile: s.bundle + "/manifest.json", encoding: .utf8)),
    ]
  }

  @Test func everyOutputIsValidAgainstItsSchema() throws {
    let s = try ReviewCLITests.Sources()
    defer { s.remove() }
    let outputs = try Self.outputs(s)
    #expect(outputs.count == 27)
    let r = try Self.validate(outputs.map { ($0.name, $0.text, nil) })
    #expect(r.status == 0, "\(r.output)")
    let valid = r.output.split(separator: "\n").filter { $0.contains(": valid junoscope.") }
    #expect(valid.count == outputs.count, "\(r.output)")
    // Each output names the schema of its command, and every schema is used.
    let formats = [
      "show": "config", "show-secrets": "config", "show-several": "configs", "apply": "config", "compare": "diff",
      "compare-identical": "diff", "semantic": "semantic", "semantic-identical": "semantic", "semantic-filter": "semantic", "diff": "diff",
      "diff-git": "diff",
      "log": "log", "log-rollbacks": "log", "log-git": "log",
      "timeline": "timeline", "timeline-pending": "timeline", "timeline-git": "timeline", "blame": "blame", "blame-git": "blame",
      "lint": "lint", "ci": "lint", "ci-shard1": "lint", "ci-shard2": "lint", "ci-merge": "lint", "review": "review",
      "review-failed": "review", "bundle-manifest": "bundle",
    ]
    for (path, o) in zip(r.paths, outputs) {
      let format = "junoscope.\(formats[o.name] ?? "?")"
      #expect(valid.contains("\(path): valid \(format) (\(format).schema.json)"), "\(o.name): \(r.output)")
      // `format` and `version` come first.
      #expect(o.text.replacing(/\s/, with: "").hasPrefix("{\"format\":\"\(format)\",\"version\":1,"), "\(o.name)")
    }
    let used = Set(valid.compactMap { $0.split(separator: "(").last?.dropLast() }.map(String.init))
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.schemas).filter { $0.hasSuffix(".schema.json") }
    #expect(files.count == 10)
    #expect(used == Set(files), "schemas without an output: \(Set(files).subtracting(used))")
  }

  @Test func theValidatorRejectsBrokenDocuments() throws {
    let log = Self.output(["log", "-f", "json", "--rollbacks", fixtures + "/rollbacks"])
    let blame = Self.output(["blame", "-f", "json", "--rollbacks", fixtures + "/rollbacks"])
    let r = try Self.validate([
      ("no-format", log.replacing(#""format":"junoscope.log","#, with: ""), "junoscope.log.schema.json"),
      // Without `format` and `--schema` there is no schema to choose.
      ("no-format-no-schema", log.replacing(#""format":"junoscope.log","#, with: ""), nil),
      ("version-2", log.replacing(#""version":1"#, with: #""version":2"#), nil),
      // An unknown member, and a wrong type inside a commit of blame (its schema refers to log's).
      ("extra", log.replacing(#""rescue":null"#, with: #""rescue":null,"extra":1"#), nil),
      ("index-string", blame.replacing(#""commits":[{"index":0"#, with: #""commits":[{"index":"0""#), nil),
      ("valid", log, nil),
    ])
    #expect(r.status == 1, "\(r.output)")
    let lines = r.output.split(separator: "\n").map(String.init)
    #expect(lines.contains("\(r.paths[0]): (root): 'format' is a required property"), "\(r.output)")
    #expect(lines.contains("\(r.paths[1]): (root): no \"format\" member to choose a schema by"), "\(r.output)")
    #expect(lines.contains("\(r.paths[2]): version: 1 was expected"), "\(r.output)")
    #expect(lines.contains { $0.hasPrefix("\(r.paths[3]): (root): Additional properties are not allowed ('extra'") }, "\(r.output)")
    #expect(lines.contains("\(r.paths[4]): commits/0/index: '0' is not of type 'integer', 'null'"), "\(r.output)")
    #expect(lines.filter { $0.contains(": valid ") } == ["\(r.paths[5]): valid junoscope.log (junoscope.log.schema.json)"])
  }
}

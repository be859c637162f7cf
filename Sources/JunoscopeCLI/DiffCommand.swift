import ArgumentKit
import Foundation
import JunosConfig
import JunosDiff
import JunosHistory

/// `junoscope diff RANGE --rollbacks DIR` / `junoscope diff --author NAME [--batch K] …`.
enum DiffCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "diff",
    abstract: "What commits X..Y did, from saved rollback configurations, in 'show | compare' form.",
    discussion: """
      Junos numbers commits newest first; what commits X..Y did (either order) is rollback X+1 → rollback Y,
      on the device 'show system rollback Y compare X+1'. That command goes to standard error, the
      difference to standard output. RANGE is X..Y or a single commit N. --author picks that user's
      batch of consecutive commits (--batch K: the K-th newest, 1 by default) from --commits, or from
      the rollbacks' '## Last commit' headers. --rollbacks DIR holds juniper.conf[.N][.gz] or
      rollback-N.conf files. Exit status: 0 shown, 2 invalid input or a rollback missing.
      """,
    arguments: [
      .positional("range", help: "Commits X..Y, or one commit N.", optional: true),
      .option("rollbacks", valueName: "dir", help: "Directory of saved rollback configurations.", completion: .directory),
      .option("commits", valueName: "file", help: "'show system commit' text or XML (for --author).", completion: .file),
      CommonOptions.utcOffsetOption,
      .option("author", valueName: "user", help: "Show this user's batch of consecutive commits."),
      .option("batch", valueName: "k", help: "With --author: the K-th newest batch (default 1)."),
      .option(
        "format", short: "f", valueName: "format", help: "Output form.", allowedValues: CompareCommand.Format.allCases.map(\.rawValue)),
      CommonOptions.showSecrets,
      CommonOptions.keywords,
      CommonOptions.output,
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let keywords = try CommonOptions.keywordTable(inv, io: io)
    guard let dir = inv.option("rollbacks") else {
      throw CommandFailure(message: "give the saved configurations with --rollbacks DIR", status: ExitStatus.usage)
    }
    let files = try rollbackFiles(dir)
    // Each rollback is read and parsed at most once.
    var parsed: [String: ParseResult] = [:]
    func tree(_ path: String) throws(CommandFailure) -> ConfigTree {
      if let p = parsed[path] { return p.tree }
      let p = try load(path, io: io, keywords: keywords)
      parsed[path] = p
      return p.tree
    }
    // The range: given, or an author's batch.
    let range: CommitRange
    var who = ""
    if let author = inv.option("author") {
      var history: CommitHistory
      if let path = inv.option("commits") {
        guard let h = try CommonOptions.commitHistory(path, inv, io: io, console: console) else { return ExitStatus.invalidInput }
        history = h
      } else {
        var headers: [Int: ConfigTree] = [:]
        for (n, path) in files { headers[n] = try tree(path) }
        history = RollbackFiles.history(from: headers)
      }
      let batches = history.batches().filter { $0.user == author }.reversed()
      let k = Int(inv.option("batch") ?? "1") ?? 0
      guard k >= 1 else { throw CommandFailure(message: "--batch wants a number from 1", status: ExitStatus.usage) }
      guard k <= batches.count else {
        throw CommandFailure(
          message: "\(author) has \(batches.count) batch\(batches.count == 1 ? "" : "es") of commits, not \(k)",
          status: ExitStatus.invalidInput)
      }
      range = Array(batches)[k - 1].range
      who = " by \(author)"
    } else {
      guard let text = inv.positionals("range").first, let r = parseRange(text) else {
        throw CommandFailure(message: "give a range X..Y (or one commit N), or --author NAME", status: ExitStatus.usage)
      }
      range = r
    }
    let highest = files.keys.max() ?? -1
    guard let basePath = files[range.baseRollback], let resultPath = files[range.resultRollback] else {
      let why =
        range.unavailable(highestRollback: highest)
        ?? "rollback \(files[range.resultRollback] == nil ? range.resultRollback : range.baseRollback) is not in \(dir)"
      throw CommandFailure(message: "commits \(range): \(why)", status: ExitStatus.invalidInput)
    }
    console.error("junoscope: commits \(range)\(who): \(range.deviceCommand)")
    let diff = ConfigDiff(from: try tree(basePath), to: try tree(resultPath), options: DiffOptions(keywords: keywords))
    let options = RenderOptions(showSecrets: inv.flag("show-secrets"))
    let out: [UInt8]
    switch inv.option("format").flatMap(CompareCommand.Format.init(rawValue:)) ?? .junos {
    case .junos: out = diff.renderJunos(options)
    case .set: out = diff.renderSet(options)
    case .json: out = diff.renderJSON(options, oldPath: basePath, newPath: resultPath)
    }
    try io.write(out, to: inv.option("output"))
    return ExitStatus.success
  }

  /// `31..28`, `28..31`, `5`.
  static func parseRange(_ text: String) -> CommitRange? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: true)
    if parts.count == 1, let n = Int(parts[0]), n >= 0, !text.contains(".") { return CommitRange(n, n) }
    guard parts.count == 2, text.contains(".."), let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0 else { return nil }
    return CommitRange(a, b)
  }

  /// Rollback number → path, for the files of `dir` whose names say one.
  static func rollbackFiles(_ dir: String) throws(CommandFailure) -> [Int: String] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: dir)
    } catch {
      throw CommandFailure(message: "cannot read the directory '\(dir)'", status: ExitStatus.invalidInput)
    }
    var out: [Int: String] = [:]
    for name in names.sorted() {
      guard let n = RollbackFiles.rollbackNumber(fileName: name) else { continue }
      if let other = out[n] {
        throw CommandFailure(message: "'\(other)' and '\(name)' are both rollback \(n)", status: ExitStatus.invalidInput)
      }
      out[n] = (dir as NSString).appendingPathComponent(name)
    }
    return out
  }

  /// Reads (gunzipping when needed) and parses one rollback configuration.
  static func load(_ path: String, io: FileIO, keywords: KeywordTable) throws(CommandFailure) -> ParseResult {
    var bytes = try io.read(path).bytes
    if Gzip.isGzip(bytes) {
      do {
        bytes = try Gzip.decompress(bytes)
      } catch {
        throw CommandFailure(message: "\(path): \(error.message)", status: ExitStatus.invalidInput)
      }
    }
    let result = ConfigParser.parse(SourceFile(path: path, bytes: bytes), keywords: keywords)
    if result.hasErrors {
      throw CommandFailure(
        message: "\(path): " + (result.diagnostics.first.map(\.rendered) ?? "invalid configuration"), status: ExitStatus.invalidInput)
    }
    return result
  }
}

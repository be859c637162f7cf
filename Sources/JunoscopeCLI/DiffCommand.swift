import ArgumentKit
import Foundation
import JunosConfig
import JunosDiff
import JunosHistory

/// `junoscope diff RANGE --rollbacks DIR` / `junoscope diff --author NAME [--batch K] …` / `--since T --until T`.
enum DiffCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "diff",
    abstract: "What commits X..Y did, from saved rollback configurations, in 'show | compare' form.",
    discussion: """
      Junos numbers commits newest first; what commits X..Y did (either order) is rollback X+1 → rollback Y,
      on the device 'show system rollback Y compare X+1'. That command goes to standard error, the
      difference to standard output. RANGE is X..Y or a single commit N. --author picks that user's
      batch of consecutive commits (--batch K: the K-th newest, 1 by default) and --since/--until the
      commits in a UTC time window, from --commits or from the rollbacks' '## Last commit' headers.
      --rollbacks DIR holds juniper.conf[.N][.gz] or rollback-N.conf files; a rollback that is missing
      is composed from an older one and compare captures named rollback-N-compare-M.txt (or
      commit-N.diff for what commit N did). --bundle DIR (from fetch) or --host HOST (over SSH) stand for --commits and --rollbacks.
      --git REPO with --file FILE or --device NAME reads the device's backups in a git repository
      (Oxidized, RANCID); each backed-up commit may stand for others no backup recorded.
      Exit status: 0 shown, 2 invalid input or a rollback missing, 3 a device failed.
      """,
    arguments: [
      .positional("range", help: "Commits X..Y, or one commit N.", optional: true),
      .option("author", valueName: "user", help: "Show this user's batch of consecutive commits."),
      .option("batch", valueName: "k", help: "With --author: the K-th newest batch (default 1)."),
      .option("since", valueName: "time", help: "The commits at or after this UTC time (with or without --until)."),
      .option("until", valueName: "time", help: "The commits at or before this UTC time."),
      .option(
        "format", short: "f", valueName: "format", help: "Output form.", allowedValues: CompareCommand.Format.allCases.map(\.rawValue)),
      CommonOptions.showSecrets,
      CommonOptions.keywords,
      CommonOptions.output,
    ] + HistorySource.arguments)

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let model = try CommonOptions.model(inv, io: io)
    var source = try HistorySource(inv, io: io, console: console, model: model)
    guard source.hasRollbacks else {
      throw CommandFailure(message: HistorySource.needConfigurations, status: ExitStatus.usage)
    }
    // The range: given, an author's batch, or a time window; one of them (each names its commits
    // alone, so a second would be dropped or would have to be guessed at).
    let selectors = [
      inv.positionals("range").isEmpty ? nil : "a range", inv.option("author") == nil ? nil : "--author",
      inv.option("since") == nil && inv.option("until") == nil ? nil : "--since/--until",
    ].compactMap { $0 }
    guard selectors.count <= 1 else {
      throw CommandFailure(
        message: "give one of a range, --author or --since/--until, not \(selectors.joined(separator: " and "))", status: ExitStatus.usage)
    }
    if inv.option("batch") != nil && inv.option("author") == nil {
      throw CommandFailure(message: "--batch picks one of an author's batches: give --author too", status: ExitStatus.usage)
    }
    let range: CommitRange
    var what = ""
    if let author = inv.option("author") {
      let k = Int(inv.option("batch") ?? "1") ?? 0
      guard k >= 1 else { throw CommandFailure(message: "--batch wants a number from 1", status: ExitStatus.usage) }
      guard let history = try source.history() else { return ExitStatus.invalidInput }
      let batches = history.batches().filter { $0.user == author }.reversed()
      guard !batches.isEmpty else {
        let authors = Set(history.commits.filter(\.isKnown).map(\.user)).sorted().joined(separator: ", ")
        throw CommandFailure(message: "\(author) has no commits in the listing (authors: \(authors))", status: ExitStatus.invalidInput)
      }
      guard k <= batches.count else {
        throw CommandFailure(
          message: "\(author) has \(batches.count) batch\(batches.count == 1 ? "" : "es") of commits, not \(k)",
          status: ExitStatus.invalidInput)
      }
      range = Array(batches)[k - 1].range
      what = " by \(author)"
    } else if inv.option("since") != nil || inv.option("until") != nil {
      let (since, until) = try LogCommand.window(inv)
      guard let history = try source.history() else { return ExitStatus.invalidInput }
      let inWindow = history.commits.filter { c in
        guard c.index != nil, let t = c.instant else { return false }
        return (since.map { t >= $0 } ?? true) && (until.map { t <= $0 } ?? true)
      }
      guard let newest = inWindow.compactMap(\.index).min(), let oldest = inWindow.compactMap(\.index).max() else {
        let bounds = [inv.option("since").map { "--since \($0)" }, inv.option("until").map { "--until \($0)" }].compactMap { $0 }
        throw CommandFailure(
          message: "no commit in the listing is in the window \(bounds.joined(separator: " "))", status: ExitStatus.invalidInput)
      }
      range = CommitRange(oldest, newest)
      // Commits inside the range whose time nothing says are in the diff too: say so.
      let unknown = history.commits.filter { c in !c.isKnown && c.index.map { (newest...oldest).contains($0) } == true }
      let also =
        unknown.isEmpty
        ? ""
        : "; also commit\(unknown.count == 1 ? "" : "s") \(HistoryReader.numberList(unknown.compactMap(\.index))), whose time is not known"
      what = " (\(inWindow.count) commit\(inWindow.count == 1 ? "" : "s") in the window\(also))"
    } else {
      guard let text = inv.positionals("range").first, let r = parseRange(text) else {
        throw CommandFailure(message: "give a range X..Y (or one commit N), --author NAME, or --since/--until", status: ExitStatus.usage)
      }
      range = r
    }
    let (base, result) = try source.endpoints(range)
    // Backups numbered without the device's listing: their numbers are not the box's.
    let numberedByBackups = !source.hasListing && source.reader.store.backupSpan(ofRollback: range.resultRollback) != nil
    console.error("junoscope: commits \(range)\(what): \(numberedByBackups ? Batch.numberedByBackups : range.deviceCommand)")
    let diff = ConfigDiff(from: base, to: result, options: DiffOptions(model: model))
    let options = RenderOptions(showSecrets: inv.flag("show-secrets"), model: model)
    let out: [UInt8]
    switch inv.option("format").flatMap(CompareCommand.Format.init(rawValue:)) ?? .junos {
    case .junos: out = diff.renderJunos(options)
    case .set: out = diff.renderSet(options)
    case .json:
      out = diff.renderJSON(
        options, oldPath: source.reader.store.location(ofRollback: range.baseRollback) ?? "rollback \(range.baseRollback)",
        newPath: source.reader.store.location(ofRollback: range.resultRollback) ?? "rollback \(range.resultRollback)",
        notes: source.reader.backupNote(range).map { [$0] } ?? [])
    }
    try source.finish()
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
}

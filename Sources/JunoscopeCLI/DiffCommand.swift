import ArgumentKit
import Foundation
import JunosConfig
import JunosDiff
import JunosHistory
import Reports

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
      .positional("range", help: "Commits X..Y, or one commit N.", optional: true)
    ] + HistorySource.selectionArguments + [
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
    guard let (range, what) = try source.selectedRange(inv.positionals("range").first) else { return ExitStatus.invalidInput }
    let (base, result) = try source.endpoints(range)
    // Backups numbered without the device's listing: their numbers are not the box's.
    let numberedByBackups = !source.hasListing && source.reader.store.backupSpan(ofRollback: range.resultRollback) != nil
    console.error("junoscope: commits \(range)\(what): \(numberedByBackups ? Batch.numberedByBackups : range.deviceCommand)")
    let diff = ConfigDiff(from: base, to: result, options: DiffOptions(model: model))
    let options = RenderOptions(showSecrets: inv.flag("show-secrets"), model: model)
    let out: [UInt8]
    switch inv.option("format").flatMap(CompareCommand.Format.init(rawValue:)) ?? .junos {
    case .junos: out = console.style(output: inv.option("output")).paintedDiff(diff.renderJunos(options))
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
}

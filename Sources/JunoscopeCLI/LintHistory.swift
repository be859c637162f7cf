import ArgumentKit
import JunosChecklist
import JunosConfig
import JunosHistory

/// `junoscope lint RANGE --rollbacks DIR` (or `--bundle`, `--host`, `--git REPO --device D`, and
/// `--author NAME`, `--since/--until` for the range): the checklist over what commits X..Y did,
/// read through the same history source as `diff`.
extension LintCommand {
  /// The options that name a history source (any one of them turns `lint` to a commit range).
  static let historySourceOptions = ["rollbacks", "bundle", "host", "git"]

  /// Lints the change from rollback `range.baseRollback` to rollback `range.resultRollback`:
  /// the change rules, and the configuration findings the change adds.
  static func lintHistory(_ inv: Invocation, options: LintOptions, console: Console) throws(CommandFailure) -> Int32 {
    if inv.option("baseline") != nil {
      throw CommandFailure(
        message: "--baseline is for a change given as a file; a history source gives both configurations", status: ExitStatus.usage)
    }
    let io = FileIO(console: console)
    let model = try CommonOptions.model(inv, io: io)
    var source = try HistorySource(inv, io: io, console: console, model: model)
    guard let (range, what) = try source.selectedRange(inv.positionals("file").first) else { return ExitStatus.invalidInput }
    let (base, result) = try source.endpoints(range)
    let numberedByBackups = !source.hasListing && source.reader.store.backupSpan(ofRollback: range.resultRollback) != nil
    console.error("junoscope: commits \(range)\(what): \(numberedByBackups ? Batch.numberedByBackups : range.deviceCommand)")
    let before = try file(of: range.baseRollback, source: source)
    let after = try file(of: range.resultRollback, source: source)
    let lint = Checklist.lint(before: base, beforeFile: before, after: result, afterFile: after, options: options)
    try source.finish()
    return try emit([lint], files: [after.path], inv: inv, io: io)
  }

  /// Rollback `n`'s text, for the findings' lines: the store's file, or (composed from compare
  /// captures, so without a text of its own) an empty file named for the rollback, whose findings
  /// name the statement without a line.
  private static func file(of n: Int, source: HistorySource) throws(CommandFailure) -> SourceFile {
    let stored = try HistorySource.map { () throws(StoreError) in try source.reader.store.rollback(n) }
    return stored ?? SourceFile(path: source.reader.store.location(ofRollback: n) ?? "rollback \(n)", bytes: [])
  }
}

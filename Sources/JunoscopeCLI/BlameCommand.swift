import ArgumentKit
import Foundation
import JunosConfig
import JunosDiff
import JunosHistory

/// `junoscope blame --rollbacks DIR [--commits FILE] [PATH…]`.
enum BlameCommand: JunoscopeCommand {
  enum Format: String, CaseIterable { case text, json }

  static let spec = CommandSpec(
    name: "blame",
    abstract: "For every statement of the active configuration, the commit that last introduced or changed it.",
    discussion: """
      Reads the saved rollbacks of --rollbacks DIR from the oldest to the newest and compares each with
      the next, as 'junoscope diff' does. A statement keeps the commit that last changed its own line
      (words, values, inactive:/protect:, annotation, place among terms); a block whose contents changed
      keeps its own. '^N' marks statements already in the oldest rollback read: commit N or earlier
      (user '(earlier)', time '≤' commit N's). Where rollbacks are missing the commit is a span
      ('3..5'), shown with every candidate's user, newest first ('noc-ops,katerina'; '?' for one
      the commit list lacks), over the range of their times. PATH words pick a hierarchy
      ('interfaces xe-0/0/1'); --path gives more than one. Rollbacks missing between saved ones are
      composed from compare captures (rollback-N-compare-M.txt, commit-N.diff) when they reach them. Users and times come from --commits or the
      rollbacks' '## Last commit' headers; times are UTC.
      --bundle DIR (from fetch) or --host HOST (over SSH) stand for --commits and --rollbacks.
      --git REPO with --file FILE or --device NAME reads the device's backups in a git repository
      (Oxidized, RANCID); each backed-up commit may stand for others no backup recorded.
      Exit status: 0 shown, 2 invalid input or nothing at PATH, 3 a device failed.
      """,
    arguments: [
      .positional("path", help: "Words of a hierarchy to show (default: everything).", optional: true, repeating: true),
      .option("path", valueName: "words", help: "A hierarchy to show, as one argument (repeatable).", repeating: true),
      .option("format", short: "f", valueName: "format", help: "Output form.", allowedValues: Format.allCases.map(\.rawValue)),
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
    let dir = source.name
    let saved = source.rollbackNumbers  // (a live device: every rollback it lists, read as needed)
    guard let newest = saved.min() else {
      throw CommandFailure(message: "no saved rollback in '\(dir)'", status: ExitStatus.invalidInput)
    }
    if newest != 0 { console.error("junoscope: rollback 0 is not in '\(dir)': blaming rollback \(newest)") }
    let history: CommitHistory
    if inv.option("commits") != nil {
      guard let h = try source.history() else { return ExitStatus.invalidInput }
      history = h
    } else {
      // The rollbacks' headers when they have them; without, commits print as '?'.
      var h = RollbackFiles.history(from: [:])
      if let fromHeaders = try? source.history() { h = fromHeaders }
      history = h
    }
    // Rollbacks missing between saved ones are composed from compare captures where possible
    // (ahead of the chain, which reads saved files on several threads).
    var composed: [Int: ConfigTree] = [:]
    if let oldest = saved.max() {
      for n in newest..<oldest where !saved.contains(n) {
        if let t = try source.config(n) { composed[n] = t }
      }
    }
    if !composed.isEmpty {
      console.error(
        "junoscope: rollback\(composed.count == 1 ? "" : "s") \(composed.keys.sorted().map(String.init).joined(separator: ", ")) composed from compare captures"
      )
    }
    let present = composed
    let store = source.reader.store
    let chain = try Blame.chain(
      rollbacks: Array(saved) + Array(present.keys), options: DiffOptions(model: model),
      workers: max(1, ProcessInfo.processInfo.activeProcessorCount)
    ) { n throws(CommandFailure) in
      if let t = present[n] { return t }
      return try HistorySource.map { () throws(StoreError) in
        guard let file = try store.rollback(n) else { throw StoreError("rollback \(n) is not in '\(store.name)'") }
        return try HistoryReader.parse(file, model: model)
      }
    }
    guard let blame = chain else { return ExitStatus.invalidInput }
    let paths =
      inv.positionals("path").isEmpty ? inv.options("path") : [inv.positionals("path").joined(separator: " ")] + inv.options("path")
    var selection = Blame.Selection.all
    if !paths.isEmpty {
      var roots: [NodeID] = []
      for p in paths {
        let words = p.split(separator: " ").map(String.init)
        let found = blame.tree.statements(at: words)
        guard !found.isEmpty else {
          throw CommandFailure(message: "nothing at '\(p)' in rollback \(newest)", status: ExitStatus.invalidInput)
        }
        roots += found
      }
      selection = Blame.Selection(roots: roots)
    }
    let options = RenderOptions(showSecrets: inv.flag("show-secrets"), model: model)
    let out: [UInt8]
    switch inv.option("format").flatMap(Format.init(rawValue:)) ?? .text {
    case .text: out = blame.renderText(selection, commits: history, options: options)
    case .json: out = blame.renderJSON(selection, commits: history, options: options)
    }
    try source.finish()
    try io.write(out, to: inv.option("output"))
    return ExitStatus.success
  }
}

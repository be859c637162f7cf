import ArgumentKit
import JunosConfig
import JunosHistory

/// `junoscope timeline --commits FILE [--gap DURATION] [--format text|json|html]`.
enum TimelineCommand: JunoscopeCommand {
  enum Format: String, CaseIterable { case text, json, html }

  static let spec = CommandSpec(
    name: "timeline",
    abstract: "Batches of consecutive commits by one user, with the on-box command for each, and a per-author summary.",
    discussion: """
      A batch is a run of consecutive commits by the same user; --gap (30m, 2h, 1d, or seconds) also
      splits a user's run where two commits are further apart. Each batch shows the range and the
      command that shows what it did on the device ('show system rollback Y compare X+1').
      Commit numbers the listing lacks are shown as gaps, and a 'commit confirmed' not yet
      confirmed (commit 0's comment, or the listing's '# commit confirmed will be rolled back'
      notice) as pending, with the UTC time the device rolls it back.
      --format html writes one self-contained page (no scripts or external files; open it from
      disk): an SVG timeline with a lane per user (in order of first commit), a dot per commit
      (dots too close to tell apart are stacked in rows) and a bar per batch, whose tooltips give
      each commit's details and each batch's range and command, then the batch and author tables.
      Use -o FILE to save it.
      --bundle DIR (from fetch) or --host HOST (over SSH) stand for --commits and --rollbacks.
      --git REPO with --file FILE or --device NAME reads the device's backups in a git repository
      (Oxidized, RANCID); each backed-up commit may stand for others no backup recorded.
      Exit status: 0 shown, 2 invalid input, 3 a device failed.
      """,
    arguments: [
      .option("gap", valueName: "duration", help: "Split a user's run where commits are further apart than this."),
      .option("format", short: "f", valueName: "format", help: "Output form.", allowedValues: Format.allCases.map(\.rawValue)),
      CommonOptions.output,
    ] + HistorySource.arguments)

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    var source = try HistorySource(inv, io: io, console: console)
    let path = inv.option("commits") ?? source.name
    var gap: Int64? = nil
    if let text = inv.option("gap") {
      guard let g = duration(text) else {
        throw CommandFailure(
          message: "--gap wants a duration such as 30m, 2h, 1d or a number of seconds, not '\(text)'", status: ExitStatus.usage)
      }
      gap = g
    }
    guard let history = try source.history() else { return ExitStatus.invalidInput }
    let batches = history.batches(gap: gap)
    let pending = history.pendingConfirmation
    let out: [UInt8]
    switch inv.option("format").flatMap(Format.init(rawValue:)) ?? .text {
    case .json: out = CommitHistory.timelineJSON(batches, pending: pending)
    case .text: out = Array(CommitHistory.timelineText(batches, pending: pending, arrow: console.terminal.arrow).utf8)
    case .html: out = CommitHistory.timelineHTML(batches, title: "junoscope timeline — \(displayName(path))", pending: pending)
    }
    try source.finish()
    try io.write(out, to: inv.option("output"))
    return ExitStatus.success
  }

  /// The input's file name for the page title: `standard input` for `-`.
  static func displayName(_ path: String) -> String {
    path == "-" ? "standard input" : path.split(separator: "/").last.map(String.init) ?? path
  }

  /// `30m`, `2h`, `1d`, `45s` or plain seconds.
  static func duration(_ text: String) -> Int64? {
    guard let last = text.last else { return nil }
    let unit: Int64
    var number = Substring(text)
    switch last {
    case "s": unit = 1
    case "m": unit = 60
    case "h": unit = 3600
    case "d": unit = 86_400
    default: unit = 1
    }
    if !last.isNumber { number = number.dropLast() }
    guard let v = Int64(number), v >= 0 else { return nil }
    return v * unit
  }
}

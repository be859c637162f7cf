import ArgumentKit
import JunosConfig
import JunosHistory

/// `junoscope log --commits FILE [--author A] [--client C] [--since T] [--until T]`.
enum LogCommand: JunoscopeCommand {
  enum Format: String, CaseIterable { case text, json }

  static let spec = CommandSpec(
    name: "log",
    abstract: "List commits from captured 'show system commit' text or saved rollbacks: who, when (UTC), how, and why.",
    discussion: """
      The commits come from --commits (text or XML) or, without it, from the '## Last commit' headers
      of the saved rollbacks in --rollbacks DIR. Times are placed on UTC from the zone each entry
      prints (GMT/BST changes inside one listing are fine). An abbreviation used for several offsets
      (CST, IST, CDT) is an error unless --timezone (Europe/London) or --utc-offset gives the
      device's zone; --timezone also settles times printed inside a daylight-saving change. --since and --until take YYYY-MM-DD or 'YYYY-MM-DD HH:MM[:SS]' in UTC and include what they name: --until 2019-11-13 takes the whole day, --until '2019-11-13 14:49' the whole minute.
      --bundle DIR (from fetch) or --host HOST (over SSH) stand for --commits and --rollbacks.
      --git REPO with --file FILE or --device NAME reads the device's backups in a git repository
      (Oxidized, RANCID); each backed-up commit may stand for others no backup recorded.
      Exit status: 0 listed, 2 invalid input, 3 a device failed.
      """,
    arguments: [
      .option("author", valueName: "user", help: "Only commits by this user (repeatable).", repeating: true),
      .option("client", valueName: "client", help: "Only commits through this client (cli, netconf, …)."),
      .option("since", valueName: "time", help: "Only commits at or after this UTC time."),
      .option("until", valueName: "time", help: "Only commits at or before this UTC time."),
      .option("format", short: "f", valueName: "format", help: "Output form.", allowedValues: Format.allCases.map(\.rawValue)),
      CommonOptions.output,
    ] + HistorySource.arguments)

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    var source = try HistorySource(inv, io: io, console: console)
    let (since, until) = try window(inv)
    guard var history = try source.history() else { return ExitStatus.invalidInput }
    let authors = Set(inv.options("author"))
    let client = inv.option("client")
    func selected(_ c: Commit) -> Bool {
      (authors.isEmpty || authors.contains(c.user)) && (client == nil || c.client == client)
        && (since == nil || (c.instant ?? .min) >= since!) && (until == nil || (c.instant ?? .max) <= until!)
    }
    history.commits = history.commits.filter(selected)
    // The rescue configuration's entry is listed last, as the device lists it, when it passes the filters.
    history.rescue = history.rescue.flatMap { selected($0) ? $0 : nil }
    let out: [UInt8]
    switch inv.option("format").flatMap(Format.init(rawValue:)) ?? .text {
    case .json: out = history.renderJSON()
    case .text: out = Array(CommitHistory.logText(history.commits + (history.rescue.map { [$0] } ?? [])).utf8)
    }
    try source.finish()
    try io.write(out, to: inv.option("output"))
    return ExitStatus.success
  }

  /// `--since` and `--until` as UTC seconds, each nil when not given; an inverted window (`--since`
  /// after `--until`) is a usage error.
  static func window(_ inv: Invocation) throws(CommandFailure) -> (since: Int64?, until: Int64?) {
    let since = try bound(inv.option("since"), "since")
    let until = try bound(inv.option("until"), "until")
    if let since, let until, since > until {
      throw CommandFailure(
        message: "--since \(inv.option("since")!) is after --until \(inv.option("until")!): the window is empty", status: ExitStatus.usage)
    }
    return (since, until)
  }

  /// `YYYY-MM-DD` or `YYYY-MM-DD HH:MM[:SS]` (a `T` may join them; a trailing `Z` is allowed), as UTC
  /// seconds. A bound covers what it names: `--since` starts at its first second, `--until` ends at
  /// its last (a date: 23:59:59 that day; `HH:MM`: second 59 of that minute; `HH:MM:SS`: that second).
  static func bound(_ text: String?, _ name: String) throws(CommandFailure) -> Int64? {
    guard var text else { return nil }
    if text.hasSuffix("Z") { text.removeLast() }
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
    let end = name == "until"
    var time = parts.count > 1 ? String(parts[1]) : (end ? "23:59:59" : "00:00:00")
    if time.count == 5 { time += end ? ":59" : ":00" }
    guard let first = parts.first, parts.count <= 2, let t = CommitListParser.localTime(first, Substring(time)) else {
      throw CommandFailure(message: "--\(name) wants YYYY-MM-DD or 'YYYY-MM-DD HH:MM[:SS]' (UTC), not '\(text)'", status: ExitStatus.usage)
    }
    return t.secondsAsUTC
  }
}

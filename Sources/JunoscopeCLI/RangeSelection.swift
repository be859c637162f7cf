import ArgumentKit
import JunosHistory

/// The commits a history command works on: a range `X..Y` (or one commit), an author's batch
/// (`--author NAME [--batch K]`) or a UTC window (`--since`/`--until`). `diff` and `lint` take
/// the same three, one at a time.
extension HistorySource {
  /// The options that pick the commits (the range is the command's first positional).
  static let selectionArguments: [ArgumentSpec] = [
    .option("author", valueName: "user", help: "This user's batch of consecutive commits."),
    .option("batch", valueName: "k", help: "With --author: the K-th newest batch (default 1)."),
    .option("since", valueName: "time", help: "The commits at or after this UTC time (with or without --until)."),
    .option("until", valueName: "time", help: "The commits at or before this UTC time."),
  ]

  /// The range the options name, and how to say which commits it holds (` by NAME`, ` (3
  /// commits in the window)`; empty for a range given as such).
  ///
  /// - Parameter range: The positional the range is read from, if the command has one given.
  mutating func selectedRange(_ range: String?) throws(CommandFailure) -> (range: CommitRange, what: String)? {
    // One of them: each names its commits alone, so a second would be dropped or guessed at.
    let selectors = [
      range == nil ? nil : "a range", inv.option("author") == nil ? nil : "--author",
      inv.option("since") == nil && inv.option("until") == nil ? nil : "--since/--until",
    ].compactMap { $0 }
    guard selectors.count <= 1 else {
      throw CommandFailure(
        message: "give one of a range, --author or --since/--until, not \(selectors.joined(separator: " and "))", status: ExitStatus.usage)
    }
    if inv.option("batch") != nil && inv.option("author") == nil {
      throw CommandFailure(message: "--batch picks one of an author's batches: give --author too", status: ExitStatus.usage)
    }
    if let author = inv.option("author") {
      let k = Int(inv.option("batch") ?? "1") ?? 0
      guard k >= 1 else { throw CommandFailure(message: "--batch wants a number from 1", status: ExitStatus.usage) }
      guard let history = try history() else { return nil }
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
      return (Array(batches)[k - 1].range, " by \(author)")
    }
    if inv.option("since") != nil || inv.option("until") != nil {
      let (since, until) = try LogCommand.window(inv)
      guard let history = try history() else { return nil }
      let inWindow = history.commits.filter { c in
        guard c.index != nil, let t = c.instant else { return false }
        return (since.map { t >= $0 } ?? true) && (until.map { t <= $0 } ?? true)
      }
      guard let newest = inWindow.compactMap(\.index).min(), let oldest = inWindow.compactMap(\.index).max() else {
        let bounds = [inv.option("since").map { "--since \($0)" }, inv.option("until").map { "--until \($0)" }].compactMap { $0 }
        throw CommandFailure(
          message: "no commit in the listing is in the window \(bounds.joined(separator: " "))", status: ExitStatus.invalidInput)
      }
      // Commits inside the range whose time nothing says are in the range too: say so.
      let unknown = history.commits.filter { c in !c.isKnown && c.index.map { (newest...oldest).contains($0) } == true }
      let also =
        unknown.isEmpty
        ? ""
        : "; also commit\(unknown.count == 1 ? "" : "s") \(HistoryReader.numberList(unknown.compactMap(\.index))), whose time is not known"
      return (CommitRange(oldest, newest), " (\(inWindow.count) commit\(inWindow.count == 1 ? "" : "s") in the window\(also))")
    }
    guard let text = range, let r = Self.parseRange(text) else {
      throw CommandFailure(message: "give a range X..Y (or one commit N), --author NAME, or --since/--until", status: ExitStatus.usage)
    }
    return (r, "")
  }

  /// `31..28`, `28..31`, `5`.
  static func parseRange(_ text: String) -> CommitRange? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: true)
    if parts.count == 1, let n = Int(parts[0]), n >= 0, !text.contains(".") { return CommitRange(n, n) }
    guard parts.count == 2, text.contains(".."), let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0 else { return nil }
    return CommitRange(a, b)
  }
}

/// Rows of cells in columns two spaces apart: every cell but a row's last is padded to the widest
/// such cell of its column, so that a row's last cell (a comment, a note) may run on; no line ends
/// in spaces.
struct TextColumns {
  var rows: [[String]] = []

  /// The widths of the padded columns.
  var widths: [Int] {
    var w: [Int] = []
    for row in rows {
      for (k, cell) in row.dropLast().enumerated() {
        if k == w.count { w.append(0) }
        w[k] = max(w[k], cell.count)
      }
    }
    return w
  }

  /// One line a row.
  var lines: [String] {
    let w = widths
    return rows.map { row in
      var s = ""
      for (k, cell) in row.enumerated() {
        s += cell
        if k < row.count - 1 { s += String(repeating: " ", count: w[k] - cell.count + 2) }
      }
      while s.last == " " { s.removeLast() }
      return s
    }
  }
}

/// How the text of the history (`log`, `timeline`, backup notes) writes times.
enum HistoryTime {
  /// `2019-11-13 15:06:51Z`, or `?` when not placed.
  static func utc(_ t: Int64?) -> String { t.map { iso8601UTC($0).replacing("T", with: " ") } ?? "?" }

  /// `2019-11-13 12:23:28Z → 15:06:51Z`: a span, the end's date left out when it is the start's;
  /// one time when they are equal or `single`.
  static func utcSpan(_ start: Int64?, _ end: Int64?, single: Bool, arrow: String) -> String {
    let a = utc(start)
    let b = utc(end)
    if single || a == b { return a }
    return "\(a) \(arrow) \(a.prefix(11) == b.prefix(11) && start != nil ? String(b.dropFirst(11)) : b)"
  }

  /// `2019-08-05 09:06:28 BST`: the time the device printed, in its zone; `?` when not known.
  static func device(_ c: Commit?) -> String {
    guard let c, let t = c.localTime else { return "?" }
    return c.timeZone.isEmpty ? t.description : "\(t) \(c.timeZone)"
  }

  /// The device times of a batch's first and last commits: `2019-11-13 12:23:28 → 15:06:51 GMT`,
  /// the zone said once when both have it and the end's date left out when it is the start's.
  static func deviceSpan(_ first: Commit?, _ last: Commit?, single: Bool, arrow: String) -> String {
    let a = device(first)
    let b = device(last)
    if single || a == b { return a }
    guard let first, let last, let start = first.localTime, let end = last.localTime else { return "\(a) \(arrow) \(b)" }
    let sameDay = (start.year, start.month, start.day) == (end.year, end.month, end.day)
    return "\(first.timeZone == last.timeZone ? start.description : a) \(arrow) \(sameDay ? String(b.dropFirst(11)) : b)"
  }
}

extension CommitHistory {
  /// The commits as `log` prints them: a header line, then a row a commit, newest first as given,
  /// in columns: `#` (the commit number, `rescue`), `Time (UTC)`, `Device time` (the time and zone
  /// the device printed), `User`, `Client`, `Comment`. A commit's log lines and its backup note
  /// follow it, indented under its time. A commit nothing describes says so after its number; a
  /// time whose zone could not be placed on UTC shows `?` there.
  public static func logText(_ commits: [Commit]) -> String {
    var table = TextColumns(rows: [["#", "Time (UTC)", "Device time", "User", "Client", "Comment"]])
    var below: [[String]] = [[]]
    for c in commits {
      let number = c.index.map(String.init) ?? "rescue"
      if c.isKnown {
        table.rows.append([number, HistoryTime.utc(c.instant), HistoryTime.device(c), c.user, c.client, c.comment ?? ""])
      } else {
        table.rows.append([number, "who and when not known (no rollback header describes it)"])
      }
      var lines = c.log.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
      if let backup = c.backup { lines.append("(\(backup.summary))") }
      below.append(lines)
    }
    let indent = String(repeating: " ", count: (table.widths.first ?? 1) + 2)
    var s = ""
    for (line, extra) in zip(table.lines, below) {
      s += line + "\n"
      for e in extra { s += e.isEmpty ? "\n" : indent + e + "\n" }
    }
    return s
  }

  /// The batches as `timeline` prints them: a header line, then a row a batch, newest first, in
  /// columns `User`, `Commits` (the range), `Count`, `Time (UTC)` and `Device time` (first
  /// `arrow` last, the last's date left out when it is the first's, a zone said once) and `Command` (the on-box
  /// command that shows what the batch did), with the numbering gaps in their places; then the
  /// authors (`User`, `Commits`, `Batches`, `Time (UTC)`); then the pending `commit confirmed`,
  /// if any. `arrow` is `→`, or `->` for an ASCII terminal.
  public static func timelineText(_ batches: [Batch], pending: PendingConfirmation? = nil, arrow: String = "→") -> String {
    var table = TextColumns(rows: [["User", "Commits", "Count", "Time (UTC)", "Device time", "Command"]])
    for item in batchesAndGapsNewestFirst(batches) {
      guard case .batch(let b) = item else {
        table.rows.append(["(gap)", "\(item.range)", "\(item.range.count)", "not in the listing"])
        continue
      }
      let single = b.commits.count == 1
      table.rows.append([
        b.user, "\(b.range)", "\(b.commits.count)", HistoryTime.utcSpan(b.start, b.end, single: single, arrow: arrow),
        HistoryTime.deviceSpan(b.commits.first, b.commits.last, single: single, arrow: arrow),
        b.deviceCommand ?? Batch.numberedByBackups,
      ])
    }
    var authors = TextColumns(rows: [["User", "Commits", "Batches", "Time (UTC)"]])
    for a in CommitHistory.authors(batches) {
      authors.rows.append([a.user, "\(a.commits)", "\(a.batches)", HistoryTime.utcSpan(a.first, a.last, single: false, arrow: arrow)])
    }
    var s = table.lines.joined(separator: "\n") + "\n\n" + authors.lines.joined(separator: "\n") + "\n"
    if let pending { s += "\npending: \(pending.summary)\n" }
    return s
  }
}

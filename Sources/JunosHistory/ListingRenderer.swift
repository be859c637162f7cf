extension CommitHistory {
  /// The history as Junos prints `show system commit`, one entry per line, numbered entries in
  /// the order of ``commits`` and the `rescue` entry last:
  ///
  /// ```
  /// 0   2024-04-02 03:35:34 UTC by mist via netconf commit confirmed, rollback in 10mins
  ///     mist-authkeys
  /// 10  2018-10-15 19:23:42 UTC by lab via cli
  /// rescue  2019-12-10 16:33:58 UTC by root via cli
  /// ```
  ///
  /// The index is left-aligned in four columns (one space after an index of four digits or
  /// more), `rescue` is followed by two spaces, the time is the printed local time and zone
  /// (``Commit/localTime``, ``Commit/timeZone``), the system comment follows the client after one
  /// space, and each line of the log is on a line of its own, indented by four spaces. Every line
  /// ends with a line feed; an empty history renders as no bytes.
  ///
  /// ``CommitListParser/parse(_:)`` reads the result back to the same index, local time, zone,
  /// user, client, comment, log and ``Commit/confirmedMinutes`` for every entry whose
  /// ``Commit/listingProblem`` is nil. The text form does not hold ``Commit/instant`` (the XML
  /// form's `seconds`), ``Commit/revision``, ``Commit/line`` or ``diagnostics``. An entry of
  /// ``commits`` without an index is printed as `rescue`.
  ///
  /// - Returns: The listing, UTF-8.
  public func renderListing() -> [UInt8] {
    var out: [UInt8] = []
    for c in commits { c.appendListing(to: &out) }
    if let rescue {
      var r = rescue
      r.index = nil
      r.appendListing(to: &out)
    }
    return out
  }
}

extension Commit {
  /// Why ``CommitHistory/renderListing()`` would not give this entry back as it is, or nil when
  /// it would (the fields compared are those the text form holds: index, local time, zone, user,
  /// client, comment, log and ``confirmedMinutes``).
  ///
  /// The text form cannot hold: a negative index; a local time out of the ranges the parser
  /// accepts (year 0–9999, second 0–60, …); a zone, user or client that is empty or holds a
  /// space, a line feed or a carriage return (one word each), or a client ending in a tab when
  /// there is no comment; an empty comment (it reads back as none), or one that starts with a
  /// space, ends with a space or tab, or holds a line break; an empty log, or a log line (lines
  /// are separated by line feeds) that is empty, holds a carriage return, starts or ends with a
  /// space or tab, or reads as an entry line itself; ``confirmedMinutes`` other than what the
  /// comment says.
  public var listingProblem: String? {
    if let index, index < 0 { return "negative index \(index)" }
    guard let t = localTime else { return "who made it and when are not known" }
    guard (0...9999).contains(t.year), (1...12).contains(t.month), (1...31).contains(t.day), (0...23).contains(t.hour),
      (0...59).contains(t.minute), (0...60).contains(t.second)
    else { return "local time out of range" }
    func isWord(_ s: String) -> Bool {
      !s.isEmpty && !s.utf8.contains { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }
    }
    if !isWord(timeZone) { return "zone '\(timeZone)' is not one word" }
    if !isWord(user) { return "user '\(user)' is not one word" }
    if !isWord(client) { return "client '\(client)' is not one word" }
    let endsLine = comment?.isEmpty ?? true
    if endsLine && client.utf8.last == 0x09 { return "client ends with a tab at the end of the line" }
    if let comment {
      let b = Array(comment.utf8)
      if b.isEmpty { return "empty comment" }
      if b.first == 0x20 || b.last == 0x20 || b.last == 0x09 { return "comment starts or ends with a blank" }
      if b.contains(0x0A) || b.contains(0x0D) { return "comment holds a line break" }
    }
    if confirmedMinutes != comment.flatMap(Commit.confirmedMinutes(in:)) { return "confirmedMinutes disagrees with the comment" }
    if let log {
      if log.isEmpty { return "empty log" }
      for line in log.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
        guard let first = line.first, let last = line.last else { return "empty log line" }
        if line.contains(0x0D) { return "log line holds a carriage return" }
        if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return "log line starts or ends with a blank" }
        if CommitListParser.entry(String(decoding: line, as: UTF8.self), line: 0) != nil { return "log line reads as an entry" }
      }
    }
    return nil
  }

  /// Appends the entry line and its log lines.
  func appendListing(to out: inout [UInt8]) {
    let label = index.map(String.init) ?? "rescue"
    out.append(contentsOf: label.utf8)
    let pad = index == nil ? 2 : max(1, 4 - label.utf8.count)
    out.append(contentsOf: repeatElement(0x20, count: pad))
    func digits(_ v: Int, _ width: Int) {
      let s = String(v)
      if v >= 0 { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - s.utf8.count))) }
      out.append(contentsOf: s.utf8)
    }
    let t = localTime ?? LocalTime(year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0)  // (``listingProblem``)
    digits(t.year, 4)
    out.append(UInt8(ascii: "-"))
    digits(t.month, 2)
    out.append(UInt8(ascii: "-"))
    digits(t.day, 2)
    out.append(0x20)
    digits(t.hour, 2)
    out.append(UInt8(ascii: ":"))
    digits(t.minute, 2)
    out.append(UInt8(ascii: ":"))
    digits(t.second, 2)
    out.append(contentsOf: " \(timeZone) by \(user) via \(client)".utf8)
    if let comment, !comment.isEmpty { out.append(contentsOf: " \(comment)".utf8) }
    out.append(0x0A)
    if let log, !log.isEmpty {
      for line in log.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
        out.append(contentsOf: "    ".utf8)
        out.append(contentsOf: line)
        out.append(0x0A)
      }
    }
  }
}

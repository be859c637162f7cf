public import JunosConfig

/// The commits of one `show system commit` listing, newest first, and its `rescue` entry.
public struct CommitHistory: Sendable {
  /// Numbered entries in listing order (index 0 first).
  public var commits: [Commit]
  /// The `rescue` entry, if listed.
  public var rescue: Commit?
  /// Problems found reading the listing or placing its times.
  public var diagnostics: [Diagnostic]
  /// The minutes of the notice Junos prints above a listing while a `commit confirmed` waits to
  /// be confirmed (`# commit confirmed will be rolled back in 10 minutes`), if the capture has it.
  public var rollbackNoticeMinutes: Int? = nil

  /// Creates a history.
  public init(commits: [Commit] = [], rescue: Commit? = nil, diagnostics: [Diagnostic] = []) {
    self.commits = commits
    self.rescue = rescue
    self.diagnostics = diagnostics
  }

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The commit with this index.
  public func commit(_ index: Int) -> Commit? { commits.first { $0.index == index } }
}

/// Reads `show system commit` text.
///
/// Entry lines are `N  YYYY-MM-DD HH:MM:SS ZONE by USER via CLIENT[ COMMENT]` (any indentation and
/// padding, `rescue` in place of N); a line indented deeper than its entry is the entry's log
/// message. Prompts, `{master:0}`, `[edit]`, echoed commands, `#` notices and the `rollback ?`
/// completion list's other lines are skipped; a pager prompt is reported as a truncation and any
/// other line with its line number, both as warnings: the entries read still stand. An index
/// above ``maxIndex`` does not make an entry.
public enum CommitListParser {
  /// The highest index either form is read with (2^31 − 1; Junos numbers 0–49), so that ranges
  /// and batches can count past it without overflowing.
  public static let maxIndex = Int(Int32.max)

  /// Parses a listing. Times are left unplaced (``Commit/instant`` nil) for
  /// ``TimePlacement/place(_:zone:)``.
  public static func parse(_ file: SourceFile) -> CommitHistory {
    var history = CommitHistory()
    let b = file.bytes
    var last: (indent: Int, slot: Int?)? = nil  // the entry a log line would belong to (slot nil: rescue)
    forEachLine(b) { l, start, s, end in
      guard s < end else {
        last = nil
        return true
      }
      let indent = s - start
      let text = String(decoding: b[s..<end], as: UTF8.self)
      if let entry = entry(text, line: l + 1) {
        if entry.index == nil {
          history.rescue = entry
          last = (indent, nil)
        } else {
          history.commits.append(entry)
          last = (indent, history.commits.count - 1)
        }
        return true
      }
      if let owner = last, indent > owner.indent {
        // A log line (several lines join with a newline).
        if let slot = owner.slot {
          history.commits[slot].log = history.commits[slot].log.map { $0 + "\n" + text } ?? text
        } else {
          let previous = history.rescue?.log
          history.rescue?.log = previous.map { $0 + "\n" + text } ?? text
        }
        return true
      }
      last = nil
      if let kind = CaptureArtefact.classify(b, from: s, to: end, topLevel: true) {
        if kind == .pager {
          var d = Diagnostic(
            .truncatedCapture, CaptureArtefact.pagerMessage(b[s..<end], truncated: "listing"), in: file, at: s..<end)
          d.severity = .warning  // the entries above it stand
          history.diagnostics.append(d)
        }
        return true
      }
      if let minutes = rollbackNotice(text) {
        history.rollbackNoticeMinutes = minutes
        return true
      }
      if isNoise(text) { return true }
      var d = Diagnostic(.unexpectedLine, "not a commit entry: '\(text)'", in: file, at: s..<end)
      d.severity = .warning  // an edited capture ("… output truncated …"); the entries around it stand
      history.diagnostics.append(d)
      return true
    }
    return history
  }

  /// Whether the first line of `file` that is not blank, a capture artefact (prompt,
  /// `{master:0}`, `[edit]`, pager), an echoed `show system commit`, a `#` notice or a line of the
  /// `rollback ?` list's frame is an entry. Reads only up to that line.
  static func startsWithEntry(_ file: SourceFile) -> Bool {
    let b = file.bytes
    var found = false
    forEachLine(b) { l, _, s, end in
      guard s < end, CaptureArtefact.classify(b, from: s, to: end, topLevel: true) == nil else { return true }
      let text = String(decoding: b[s..<end], as: UTF8.self)
      if isNoise(text) { return true }
      found = entry(text, line: l + 1) != nil
      return false
    }
    return found
  }

  /// Calls `body(line, start, s, end)` for each line of `b` (0-based `line`; LF, CRLF or CR ends
  /// one, as in ``SourceFile/lineStarts``): `start` is where it begins, `s` its first byte that is
  /// not a space or tab, `end` the end of its text without trailing blanks (`s == end`: a blank
  /// line). Stops when `body` returns false.
  static func forEachLine(_ b: [UInt8], _ body: (_ line: Int, _ start: Int, _ s: Int, _ end: Int) -> Bool) {
    var start = 0
    var line = 0
    while start <= b.count {
      var stop = start
      while stop < b.count && b[stop] != 0x0A && b[stop] != 0x0D { stop += 1 }
      var end = stop
      while end > start && (b[end - 1] == 0x20 || b[end - 1] == 0x09) { end -= 1 }
      var s = start
      while s < end && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
      guard body(line, start, s, end), stop < b.count else { return }
      start = stop + (b[stop] == 0x0D && stop + 1 < b.count && b[stop + 1] == 0x0A ? 2 : 1)
      line += 1
    }
  }

  /// The minutes of `# commit confirmed will be rolled back in 10 minutes` (or `in 1 minute`).
  static func rollbackNotice(_ t: String) -> Int? {
    let prefix = "# commit confirmed will be rolled back in "
    guard t.hasPrefix(prefix) else { return nil }
    let rest = t.dropFirst(prefix.count)
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count <= 9, rest.dropFirst(digits.count).hasPrefix(" minute") else { return nil }
    return Int(digits)
  }

  /// Lines a capture holds around a listing: echoed commands, CLI notices, the completion list.
  static func isNoise(_ t: String) -> Bool {
    t.hasPrefix("show system commit") || t.hasPrefix("run show system commit") || t.hasPrefix("#")
      || t == "Possible completions:" || t.hasPrefix("<[Enter]>") || t.hasPrefix("| ") || t == "|"
  }

  /// Reads one entry line, or nil when the line is not one.
  static func entry(_ text: String, line: Int) -> Commit? {
    // Words are split at spaces (U+0020) as scalars, not as characters: a combining mark after
    // a space (`by \u{301}x`) belongs to the next word instead of hiding the space.
    let words = text.unicodeScalars.split(separator: " ", omittingEmptySubsequences: true).map(Substring.init)
    // N DATE TIME ZONE by USER via CLIENT [COMMENT…]
    guard words.count >= 8, words[4] == "by", words[6] == "via" else { return nil }
    let index: Int?
    if words[0] == "rescue" {
      index = nil
    } else if let n = Int(words[0]), n >= 0, n <= maxIndex, words[0].allSatisfy({ $0.isASCII && $0.isNumber }) {
      index = n
    } else {
      return nil
    }
    guard let time = localTime(words[1], words[2]) else { return nil }
    // The comment keeps its own spacing: everything after the client word.
    var comment: String? = nil
    if words.count > 8 {
      let clientEnd = words[7].endIndex
      let rest = text.unicodeScalars[clientEnd...].drop { $0 == " " }
      comment = rest.isEmpty ? nil : String(Substring(rest))
    }
    return Commit(
      index: index, localTime: time, timeZone: String(words[3]), user: String(words[5]), client: String(words[7]), comment: comment,
      line: line)
  }

  /// Reads `YYYY-MM-DD` and `HH:MM:SS`, range-checked.
  public static func localTime(_ date: Substring, _ time: Substring) -> LocalTime? {
    let d = date.split(separator: "-")
    let t = time.split(separator: ":")
    guard d.count == 3, t.count == 3, d[0].count == 4, [d[1], d[2], t[0], t[1], t[2]].allSatisfy({ $0.count == 2 }),
      let y = Int(d[0]), let mo = Int(d[1]), let da = Int(d[2]), let h = Int(t[0]), let mi = Int(t[1]), let se = Int(t[2]),
      (1...12).contains(mo), (1...31).contains(da), (0...23).contains(h), (0...59).contains(mi), (0...60).contains(se)
    else { return nil }
    return LocalTime(year: y, month: mo, day: da, hour: h, minute: mi, second: se)
  }
}

/// Placing printed commit times on the UTC time line.
public enum TimePlacement {
  /// What is known of the device's zone.
  public enum Zone: Sendable {
    /// Its IANA zone (`--timezone`): ``place(_:timeZone:file:)``.
    case iana(IANAZone)
    /// A fixed UTC offset in seconds (`--utc-offset`), or nil: each entry's printed zone
    /// (``place(_:zone:file:)``).
    case offset(Int?)
  }

  /// Places the times by what is known of the zone.
  public static func place(_ history: inout CommitHistory, _ zone: Zone, file: SourceFile) {
    switch zone {
    case .iana(let z): place(&history, timeZone: z, file: file)
    case .offset(let o): place(&history, zone: o, file: file)
    }
  }

  /// Sets ``Commit/instant`` of every entry whose printed zone resolves (``ZoneAbbreviations``),
  /// or, when `zone` is given, from that fixed offset for every entry. An ambiguous or unknown
  /// abbreviation without `zone` is an error on the entry's line: a guess would misplace it.
  ///
  /// - Parameters:
  ///   - history: The listing.
  ///   - zone: The device's UTC offset in seconds, if the user gave it.
  ///   - file: The listing's source, for diagnostics.
  public static func place(_ history: inout CommitHistory, zone: Int? = nil, file: SourceFile) {
    var problems: [Diagnostic] = []
    func place(_ c: inout Commit) {
      // The XML form's `seconds` are authoritative; an unknown commit has no time to place.
      guard c.instant == nil, let local = c.localTime else { return }
      if let zone, ZoneAbbreviations.numericOffset(c.timeZone) == nil {
        c.instant = local.secondsAsUTC - Int64(zone)
        return
      }
      let lineStart = c.line >= 1 && c.line <= file.lineStarts.count ? file.lineStarts[c.line - 1] : 0
      switch ZoneAbbreviations.resolve(c.timeZone) {
      case .offset(let o):
        c.instant = local.secondsAsUTC - Int64(o)
      case .ambiguous(let offsets):
        problems.append(
          Diagnostic(
            .unplacedTime,
            "time zone '\(c.timeZone)' is ambiguous (UTC\(offsets.map(ZoneAbbreviations.text).joined(separator: ", UTC"))): give the device's time zone (--timezone) or UTC offset (--utc-offset)",
            in: file, at: lineStart..<lineStart))
      case .unknown:
        problems.append(
          Diagnostic(
            .unplacedTime, "unknown time zone '\(c.timeZone)': give the device's time zone (--timezone) or UTC offset (--utc-offset)",
            in: file, at: lineStart..<lineStart))
      }
    }
    for k in history.commits.indices { place(&history.commits[k]) }
    if var r = history.rescue {
      place(&r)
      history.rescue = r
    }
    history.diagnostics += problems
  }

  /// Sets ``Commit/instant`` of every entry from the device's IANA time zone, which wins over the
  /// printed abbreviation: `CST` in `America/Chicago` is −06:00, and a time printed through a
  /// daylight-saving change lands on the right instant.
  ///
  /// An instant already set (the XML form's `seconds`) stays, and a numeric printed zone (`+03`)
  /// is read as printed. Otherwise the zone's ``IANAZone/candidates(forLocal:)`` are matched
  /// against the printed abbreviation, by name or, for an abbreviation of
  /// ``ZoneAbbreviations/table``, by offset:
  /// - a local time the zone skips (a spring-forward gap) is an error on the entry's line;
  /// - a local time that happens twice (a fall-back overlap) takes the candidate the printed
  ///   abbreviation names; when it names both or neither, it is an error;
  /// - a single candidate is used even when the printed abbreviation contradicts it (`EST` in
  ///   `Europe/London`: none of the table's offsets for it is the zone's), with a warning; an
  ///   abbreviation the table does not know is not judged.
  ///
  /// - Parameters:
  ///   - history: The listing.
  ///   - timeZone: The device's time zone.
  ///   - file: The listing's source, for diagnostics.
  public static func place(_ history: inout CommitHistory, timeZone: IANAZone, file: SourceFile) {
    var problems: [Diagnostic] = []
    func place(_ c: inout Commit) {
      guard c.instant == nil, let local = c.localTime else { return }  // (as above)
      if let printed = ZoneAbbreviations.numericOffset(c.timeZone) {
        c.instant = local.secondsAsUTC - Int64(printed)
        return
      }
      let lineStart = c.line >= 1 && c.line <= file.lineStarts.count ? file.lineStarts[c.line - 1] : 0
      func report(_ message: String, warning: Bool = false) {
        var d = Diagnostic(.unplacedTime, message, in: file, at: lineStart..<lineStart)
        if warning { d.severity = .warning }
        problems.append(d)
      }
      let candidates = timeZone.candidates(forLocal: local)
      let byName = candidates.filter { $0.abbreviation == c.timeZone }
      let tableOffsets = ZoneAbbreviations.table[c.timeZone] ?? []
      let byOffset = candidates.filter { tableOffsets.contains($0.offset) }
      let chosen: IANAZone.LocalTimeType
      switch candidates.count {
      case 0:
        report("\(local) does not exist in \(timeZone.name): the clocks went forward over it")
        return
      case 1:
        chosen = candidates[0]
        if byName.isEmpty && byOffset.isEmpty && !tableOffsets.isEmpty {
          report(
            "time zone '\(c.timeZone)' does not match \(timeZone.name) at \(local), which is \(chosen): placed by \(timeZone.name)",
            warning: true)
        }
      default:
        if byName.count == 1 {
          chosen = byName[0]
        } else if byName.isEmpty && byOffset.count == 1 {
          chosen = byOffset[0]
        } else {
          let both = candidates.map(\.description).joined(separator: " or ")
          report("\(local) happens twice in \(timeZone.name) (\(both)) and '\(c.timeZone)' does not tell which")
          return
        }
      }
      c.instant = local.secondsAsUTC - Int64(chosen.offset)
    }
    for k in history.commits.indices { place(&history.commits[k]) }
    if var r = history.rescue {
      place(&r)
      history.rescue = r
    }
    history.diagnostics += problems
  }
}

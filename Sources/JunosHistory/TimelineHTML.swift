extension CommitHistory {
  /// The `timeline --format html` page: one self-contained HTML file (no scripts, external
  /// fonts, style sheets or images) with an SVG timeline of `batches`, then a table of the
  /// batches (newest first) and the per-author summary (``authors(_:)``).
  ///
  /// The timeline has one lane per user, in the order users first appear in `batches`: with
  /// the oldest-first batches of ``batches(gap:)`` the top lane is whoever committed first. The
  /// x axis is UTC time, with date ticks, or hour and minute ticks when the span is short (a
  /// single instant gets a one-hour window around it). Each commit is a dot (`<circle
  /// class="m">`) in its user's lane, at its own time; dots that would overlap (commits minutes
  /// apart on a span of months) are stacked in rows of the lane (``markRows(_:separation:)``),
  /// so every dot can be seen and hovered, and the lane grows to hold them. Each batch is a bar
  /// from its first to its last commit, over the rows its dots take. Each carries an SVG `<title>`, which
  /// browsers show on hover without JavaScript: for a commit its index, user, client, UTC time,
  /// time as printed with its zone, system comment and log; for a batch its range, commit count,
  /// times and ``CommitRange/deviceCommand``. Commits whose time is not placed
  /// (``Commit/instant`` nil) are drawn in index order in a "time not placed" column at the
  /// right, or along a commit-order axis when no commit's time is placed.
  ///
  /// Every text that comes from the input, and `title`, is escaped for HTML and XML (characters
  /// XML forbids become U+FFFD), so the page is also well-formed XML. The page holds no current
  /// time: the same input gives the same bytes. Gaps in the numbering (``numberingGaps(_:)``)
  /// are said under the heading and have their rows in the batch table. The size grows linearly, about 200 bytes a
  /// commit plus its log.
  ///
  /// - Parameters:
  ///   - batches: The batches, oldest first, as ``batches(gap:)`` gives them.
  ///   - title: The page's title and heading.
  ///   - pending: The listing's ``CommitHistory/pendingConfirmation``: said under the heading,
  ///     and its commit's dot is ringed (class `m q`) with the deadline in its title.
  /// - Returns: The page, UTF-8.
  public static func timelineHTML(_ batches: [Batch], title: String, pending: PendingConfirmation? = nil) -> [UInt8] {
    var page = TimelinePage(batches: batches, pending: pending)
    page.render(title: title)
    return page.out
  }

  /// The row of each mark on a line, so that no two marks in one row are closer than
  /// `separation`: marks are taken in order of position (ties in the given order), each into the
  /// lowest row whose last mark is at least `separation` to its left. Marks far enough apart all
  /// stay in row 0; marks at one position take rows 0, 1, 2, … in the given order. The number of
  /// rows is the fewest that can hold the marks.
  ///
  /// - Parameters:
  ///   - positions: Each mark's position (any unit, any order).
  ///   - separation: The least distance between two marks in one row (a mark's width).
  /// - Returns: Each mark's row, in the order of `positions`.
  public static func markRows(_ positions: [Int], separation: Int) -> [Int] {
    let order = positions.indices.sorted { (positions[$0], $0) < (positions[$1], $1) }
    var rows = Array(repeating: 0, count: positions.count)
    var rowEnds: [Int] = []  // the last position in each row
    for k in order {
      let x = positions[k]
      if let r = rowEnds.firstIndex(where: { x - $0 >= separation }) {
        rows[k] = r
        rowEnds[r] = x
      } else {
        rows[k] = rowEnds.count
        rowEnds.append(x)
      }
    }
    return rows
  }
}

/// Sizes of the drawing, in SVG user units (pixels at 100%).
private enum Geometry {
  static let width = 1000
  /// Lane labels end here (right-aligned).
  static let labelRight = 152
  /// The plot runs from `plotLeft` to `plotRight`.
  static let plotLeft = 192
  static let plotRight = 955
  /// Where the "time not placed" column starts when some times are placed and some not.
  static let unplacedLeft = 835
  /// Room above the lanes: for the "time not placed" heading, or a little.
  static let top = 26
  static let topWithoutHeading = 8
  /// A lane of one row; each further row adds `rowPitch`.
  static let laneHeight = 26
  /// From one row of marks to the next (a mark is `2 * markRadius` high, plus its outline).
  static let rowPitch = 11
  static let axisHeight = 40
  /// The tick labels need about this much room each.
  static let tickSpacing = 96
  static let markRadius = 4
  /// The least distance between two marks' centres in one row, in tenths: a mark's width, its
  /// outline and a pixel between.
  static let markSeparation = (2 * markRadius + 2) * 10
  static let colours = 8
  /// Longest lane label; longer user names are cut (the full name is in the label's tooltip).
  static let labelLength = 18
}

/// A tick of the x axis.
private struct Tick {
  /// Position in tenths of a unit.
  var x: Int
  var label: String
  /// A second line (the date under hour ticks, where it changes).
  var sub: String?
}

/// The positions of everything on the timeline.
private struct TimelineLayout {
  /// Users, one per lane.
  var lanes: [String] = []
  /// The batches of each lane (indices into the batches).
  var laneBatches: [[Int]] = []
  /// Each commit's x, in tenths of a unit, by batch then commit.
  var xs: [[Int]] = []
  /// Each commit's row within its lane (``CommitHistory/markRows(_:separation:)``), by batch then commit.
  var rows: [[Int]] = []
  /// The rows of each lane (at least 1).
  var laneRows: [Int] = []
  var ticks: [Tick] = []
  var axisCaption = ""
  /// The "time not placed" column, in tenths, when some times are placed and some not.
  var unplacedColumn: (left: Int, right: Int)? = nil
  /// Placed commits' first and last instants.
  var span: (first: Int64, last: Int64)? = nil
  var unplacedCount = 0

  /// Instants are kept within years 1…9999 for drawing, so no arithmetic can overflow.
  static let earliest: Int64 = -62_135_596_800
  static let latest: Int64 = 253_402_300_799
  static func clamp(_ t: Int64) -> Int64 { min(max(t, earliest), latest) }

  init(_ batches: [Batch]) {
    var laneOf: [String: Int] = [:]
    for (i, b) in batches.enumerated() {
      if let k = laneOf[b.user] {
        laneBatches[k].append(i)
      } else {
        laneOf[b.user] = lanes.count
        lanes.append(b.user)
        laneBatches.append([i])
      }
    }
    xs = batches.map { Array(repeating: 0, count: $0.commits.count) }
    var placed: [Int64] = []
    var unplaced: [(batch: Int, commit: Int, index: Int)] = []
    for (i, b) in batches.enumerated() {
      for (j, c) in b.commits.enumerated() {
        if let t = c.instant { placed.append(t) } else { unplaced.append((i, j, c.index ?? -1)) }
      }
    }
    // Oldest (highest index) first, then in the given order.
    unplaced.sort { ($0.index, -$0.batch, -$0.commit) > ($1.index, -$1.batch, -$1.commit) }
    unplacedCount = unplaced.count
    let left = Geometry.plotLeft * 10
    var right = Geometry.plotRight * 10
    if !placed.isEmpty && !unplaced.isEmpty {
      right = (Geometry.unplacedLeft - 40) * 10
      unplacedColumn = (Geometry.unplacedLeft * 10, Geometry.plotRight * 10)
    }
    let maxTicks = max(2, (right - left) / 10 / Geometry.tickSpacing)
    if let first = placed.min(), let last = placed.max() {
      span = (first, last)
      var lo = Self.clamp(first)
      var hi = Self.clamp(last)
      if lo == hi {
        lo -= 1800
        hi += 1800
      }
      let scale = Double(right - left) / Double(hi - lo)
      for (i, b) in batches.enumerated() {
        for (j, c) in b.commits.enumerated() {
          if let t = c.instant { xs[i][j] = left + Int((Double(Self.clamp(t) - lo) * scale).rounded()) }
        }
      }
      ticks = Self.timeTicks(lo, hi, maxTicks: maxTicks).map { t in
        Tick(x: left + Int((Double(t.at - lo) * scale).rounded()), label: t.label, sub: t.sub)
      }
      axisCaption = "time (UTC)"
    }
    if !unplaced.isEmpty {
      let (l, r) = unplacedColumn ?? (left, right)
      let n = unplaced.count
      for (k, u) in unplaced.enumerated() { xs[u.batch][u.commit] = l + (2 * k + 1) * (r - l) / (2 * n) }
      if placed.isEmpty {
        let step = max(1, (n + maxTicks - 1) / maxTicks)
        for k in stride(from: 0, to: n, by: step) {
          let u = unplaced[k]
          let index = batches[u.batch].commits[u.commit].index
          ticks.append(Tick(x: xs[u.batch][u.commit], label: index.map { "#\($0)" } ?? "rescue"))
        }
        axisCaption = "commit order"
      }
    }
    // Rows within each lane, so that no two marks overlap.
    rows = batches.map { Array(repeating: 0, count: $0.commits.count) }
    for indices in laneBatches {
      let marks = indices.flatMap { i in batches[i].commits.indices.map { (i, $0) } }
      let laneRows = CommitHistory.markRows(marks.map { xs[$0.0][$0.1] }, separation: Geometry.markSeparation)
      for (m, r) in zip(marks, laneRows) { rows[m.0][m.1] = r }
      self.laneRows.append((laneRows.max() ?? 0) + 1)
    }
  }

  /// The height of lane `k`.
  func laneHeight(_ k: Int) -> Int { Geometry.laneHeight + (laneRows[k] - 1) * Geometry.rowPitch }

  /// Tick instants and labels for `lo...hi` (`lo < hi`, both within years 1…9999 give or take an
  /// hour): the smallest round step giving at most `maxTicks` ticks, aligned on UTC.
  static func timeTicks(_ lo: Int64, _ hi: Int64, maxTicks: Int) -> [(at: Int64, label: String, sub: String?)] {
    let span = hi - lo
    let steps: [Int64] = [
      1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800, 1_209_600,
    ]
    if let step = steps.first(where: { span / $0 < Int64(maxTicks) }) {
      // Weeks start on Mondays (1970-01-05); everything else on multiples since the epoch.
      let origin: Int64 = step >= 604_800 ? 345_600 : 0
      let offset = lo - origin
      var t = origin + (offset / step + (offset % step > 0 ? 1 : 0)) * step
      var out: [(at: Int64, label: String, sub: String?)] = []
      var lastDate = ""
      while t <= hi && out.count <= maxTicks {
        let (date, time) = dateAndTime(t)
        if step >= 86_400 {
          out.append((t, date, nil))
        } else {
          out.append((t, step < 60 ? time : String(time.prefix(5)), date == lastDate ? nil : date))
          lastDate = date
        }
        t += step
      }
      return out
    }
    // Months, then years, from the calendar.
    let (startYear, startMonth) = yearAndMonth(lo)
    let monthLength: Int64 = 2_629_746
    var out: [(at: Int64, label: String, sub: String?)] = []
    if let months = [1, 2, 3, 6].first(where: { span / (Int64($0) * monthLength) < Int64(maxTicks) }) {
      var year = startYear
      var month = (startMonth - 1) / months * months + 1
      while out.count <= maxTicks {
        let t = LocalTime(year: year, month: month, day: 1, hour: 0, minute: 0, second: 0).secondsAsUTC
        if t > hi { break }
        if t >= lo { out.append((t, "\(year)-\(month < 10 ? "0" : "")\(month)", nil)) }
        month += months
        if month > 12 {
          month -= 12
          year += 1
        }
      }
      return out
    }
    let years = Double(span) / (Double(monthLength) * 12)
    var step = 1
    while Double(step) * Double(maxTicks) <= years { step = nextNice(step) }
    var year = (startYear / step) * step
    while out.count <= maxTicks {
      let t = LocalTime(year: year, month: 1, day: 1, hour: 0, minute: 0, second: 0).secondsAsUTC
      if t > hi { break }
      if t >= lo { out.append((t, "\(year)", nil)) }
      year += step
    }
    return out
  }

  /// The power of ten at or below `n` (n ≥ 1).
  static func magnitude(_ n: Int) -> Int {
    var m = 1
    while m * 10 <= n { m *= 10 }
    return m
  }

  /// 1 → 2 → 5 → 10 → 20 → 50 → …
  static func nextNice(_ n: Int) -> Int {
    let m = magnitude(n)
    switch n / m {
    case 1: return 2 * m
    case 2: return 5 * m
    default: return 10 * m
    }
  }

  /// `("2019-08-05", "08:06:28")` for an instant.
  static func dateAndTime(_ t: Int64) -> (String, String) {
    let iso = iso8601UTC(t)
    let parts = iso.split(separator: "T")
    guard parts.count == 2 else { return (iso, "") }
    return (String(parts[0]), String(parts[1].dropLast()))
  }

  /// The UTC year and month of an instant (years 0…9999).
  static func yearAndMonth(_ t: Int64) -> (Int, Int) {
    let fields = dateAndTime(t).0.split(separator: "-")
    guard fields.count == 3, let y = Int(fields[0]), let m = Int(fields[1]) else { return (1970, 1) }
    return (y, m)
  }
}

/// Writes the page.
private struct TimelinePage {
  let batches: [Batch]
  let pending: PendingConfirmation?
  let layout: TimelineLayout
  var out: [UInt8] = []

  init(batches: [Batch], pending: PendingConfirmation?) {
    self.batches = batches
    self.pending = pending
    layout = TimelineLayout(batches)
    out.reserveCapacity(4096 + 400 * batches.reduce(0) { $0 + $1.commits.count })
  }

  mutating func raw(_ s: String) { out.append(contentsOf: s.utf8) }

  /// Appends input text escaped for HTML and XML.
  mutating func text(_ s: String) {
    for scalar in s.unicodeScalars {
      switch scalar.value {
      case 0x26: raw("&amp;")
      case 0x3C: raw("&lt;")
      case 0x3E: raw("&gt;")
      case 0x22: raw("&quot;")
      case 0x27: raw("&#39;")
      case 0x09, 0x0A, 0x0D: out.append(UInt8(scalar.value))
      case 0..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: raw("\u{FFFD}")
      case 0x20..<0x7F: out.append(UInt8(scalar.value))
      default: UTF8.encode(scalar) { out.append($0) }
      }
    }
  }

  /// A coordinate given in tenths: `123.4`, `123`.
  static func number(_ tenths: Int) -> String {
    let sign = tenths < 0 ? "-" : ""
    let v = abs(tenths)
    return v % 10 == 0 ? "\(sign)\(v / 10)" : "\(sign)\(v / 10).\(v % 10)"
  }

  /// `2019-08-05 08:06:28`, or `not placed`.
  static func utc(_ t: Int64?) -> String {
    guard let t else { return "not placed" }
    let (date, time) = TimelineLayout.dateAndTime(t)
    return "\(date) \(time)"
  }

  mutating func render(title: String) {
    raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
    raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>")
    text(title)
    raw("</title>\n<style>\n\(Self.style)</style>\n</head>\n<body>\n<h1>")
    text(title)
    raw("</h1>\n")
    summary()
    if !layout.lanes.isEmpty { svg() }
    batchTable()
    authorTable()
    raw("</body>\n</html>\n")
  }

  static let style = """
    body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#222;background:#fff}
    h1{font-size:20px;margin:0 0 6px}
    h2{font-size:16px;margin:20px 0 6px}
    p{margin:4px 0}
    svg{display:block;max-width:100%;height:auto;margin:12px 0}
    svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:#333}
    .s{fill:#f3f4f6}
    .g{stroke:#e2e4e8}
    .a{stroke:#888}
    .x{stroke:#999;stroke-dasharray:4 3}
    .t{text-anchor:middle}
    .u{text-anchor:end}
    .c{fill:#666}
    .b{fill-opacity:.3}
    circle{stroke:#fff;stroke-width:1}
    circle:hover,.b:hover{stroke:#000;stroke-width:2}
    circle.q{stroke:#c00;stroke-width:2}
    .w{color:#a00}
    tr.w td{font-style:italic}
    .p0{fill:#4e79a7}.p1{fill:#f28e2b}.p2{fill:#e15759}.p3{fill:#59a14f}
    .p4{fill:#b07aa1}.p5{fill:#76b7b2}.p6{fill:#9c755f}.p7{fill:#d4a500}
    table{border-collapse:collapse;margin:6px 0 18px}
    th,td{padding:3px 10px;text-align:left;border-bottom:1px solid #e2e4e8;vertical-align:top}
    th{background:#f3f4f6}
    td.n{text-align:right}
    code{font:12px ui-monospace,Menlo,Consolas,monospace}

    """

  mutating func summary() {
    let commits = batches.reduce(0) { $0 + $1.commits.count }
    func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
    raw("<p>\(plural(commits, "commit", "commits")) by \(plural(layout.lanes.count, "user", "users"))")
    raw(" in \(plural(batches.count, "batch", "batches"))")
    if let span = layout.span {
      raw(span.first == span.last ? ", at \(Self.utc(span.first)) UTC" : ", from \(Self.utc(span.first)) to \(Self.utc(span.last)) UTC")
    }
    raw(".")
    if layout.unplacedCount > 0 {
      raw(" \(plural(layout.unplacedCount, "commit has", "commits have")) no placed time (the zone is not known)")
      raw(layout.span == nil ? "; they are drawn in commit order." : "; they are drawn in commit order at the right.")
    }
    raw("</p>\n")
    if let pending {
      raw("<p class=\"w\">Pending: ")
      text(pending.summary)
      raw(".</p>\n")
    }
    let gaps = CommitHistory.numberingGaps(batches)
    if !gaps.isEmpty {
      raw("<p class=\"w\">Not in the listing: ")
      raw(gaps.reversed().map { "commit\($0.count == 1 ? " \($0.older)" : "s \($0)") (\($0.count))" }.joined(separator: ", "))
      raw(".</p>\n")
    }
    raw("<p>One lane per user, in the order of their first commit. ")
    raw("Hover a dot for its commit, a bar for its batch (a run of consecutive commits by one user). ")
    raw("Dots too close to tell apart are stacked in rows, the older above.</p>\n")
  }

  mutating func svg() {
    let top = layout.unplacedColumn == nil ? Geometry.topWithoutHeading : Geometry.top
    var laneTops: [Int] = []
    var plotBottom = top
    for k in layout.lanes.indices {
      laneTops.append(plotBottom)
      plotBottom += layout.laneHeight(k)
    }
    let height = plotBottom + Geometry.axisHeight
    let w = Geometry.width
    raw("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(height)\" width=\"\(w)\" height=\"\(height)\"")
    raw(" role=\"img\" aria-label=\"commit timeline\">\n")
    for k in stride(from: 0, to: layout.lanes.count, by: 2) {
      raw("<rect class=\"s\" x=\"0\" y=\"\(laneTops[k])\" width=\"\(w)\" height=\"\(layout.laneHeight(k))\"/>\n")
    }
    for t in layout.ticks {
      let x = Self.number(t.x)
      raw("<line class=\"g\" x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(plotBottom + 4)\"/>\n")
      raw("<text class=\"t\" x=\"\(x)\" y=\"\(plotBottom + 18)\">")
      text(t.label)
      raw("</text>\n")
      if let sub = t.sub {
        raw("<text class=\"t c\" x=\"\(x)\" y=\"\(plotBottom + 32)\">")
        text(sub)
        raw("</text>\n")
      }
    }
    raw("<line class=\"a\" x1=\"\(Geometry.plotLeft - 8)\" y1=\"\(plotBottom)\" x2=\"\(Geometry.plotRight + 8)\" y2=\"\(plotBottom)\"/>\n")
    if let column = layout.unplacedColumn {
      let x = Self.number(column.left - 200)
      raw("<line class=\"x\" x1=\"\(x)\" y1=\"\(top - 14)\" x2=\"\(x)\" y2=\"\(plotBottom + 4)\"/>\n")
      raw("<text class=\"t c\" x=\"\(Self.number((column.left + column.right) / 2))\" y=\"\(top - 8)\">time not placed</text>\n")
    }
    raw("<text class=\"u c\" x=\"\(Geometry.labelRight)\" y=\"\(plotBottom + 18)\">")
    text(layout.axisCaption)
    raw("</text>\n")
    let authors = CommitHistory.authors(batches)
    var counts: [String: AuthorSummary] = [:]
    for a in authors { counts[a.user] = a }
    for (k, user) in layout.lanes.enumerated() {
      raw("<g class=\"p\(k % Geometry.colours)\" transform=\"translate(0,\(laneTops[k] + Geometry.laneHeight / 2))\">\n")
      lane(user, summary: counts[user], batches: layout.laneBatches[k])
      raw("</g>\n")
    }
    raw("</svg>\n")
  }

  mutating func lane(_ user: String, summary: AuthorSummary?, batches indices: [Int]) {
    let label = user.count > Geometry.labelLength ? String(user.prefix(Geometry.labelLength - 1)) + "…" : user
    raw("<text class=\"u\" x=\"\(Geometry.labelRight)\" y=\"4\">")
    text(label)
    raw("<title>")
    text(user)
    if let summary {
      raw(": \(summary.commits) commit\(summary.commits == 1 ? "" : "s") in \(summary.batches) batch\(summary.batches == 1 ? "" : "es")")
    }
    raw("</title></text>\n")
    let r = Geometry.markRadius * 10 + 10
    for i in indices {
      let b = batches[i]
      guard !b.commits.isEmpty else { continue }
      let xs = layout.xs[i]
      // Over the placed commits; over all of them when none is placed.
      let placed = b.commits.indices.filter { b.commits[$0].instant != nil }.map { xs[$0] }
      let spanned = placed.isEmpty ? xs : placed
      let lo = (spanned.min() ?? 0) - r
      let hi = (spanned.max() ?? 0) + r
      let rows = layout.rows[i]
      let y = (rows.min() ?? 0) * Geometry.rowPitch - 7
      let height = ((rows.max() ?? 0) - (rows.min() ?? 0)) * Geometry.rowPitch + 14
      raw("<rect class=\"b\" x=\"\(Self.number(lo))\" y=\"\(y)\" width=\"\(Self.number(hi - lo))\" height=\"\(height)\" rx=\"7\"><title>")
      batchTitle(b)
      raw("</title></rect>\n")
    }
    for i in indices {
      for (j, c) in batches[i].commits.enumerated() {
        let row = layout.rows[i][j]
        let isPending = pending?.commit != nil && pending?.commit?.index == c.index
        raw(
          "<circle class=\"m\(isPending ? " q" : "")\" cx=\"\(Self.number(layout.xs[i][j]))\"\(row == 0 ? "" : " cy=\"\(row * Geometry.rowPitch)\"")"
        )
        raw(" r=\"\(Geometry.markRadius)\"><title>")
        commitTitle(c)
        if isPending, let pending {
          raw("\npending: ")
          text(pending.summary)
        }
        raw("</title></circle>\n")
      }
    }
  }

  /// `stuart 31..28 · 4 commits`, the times, the on-box command.
  mutating func batchTitle(_ b: Batch) {
    text(b.user)
    let n = b.commits.count
    raw(" \(b.range) · \(n) commit\(n == 1 ? "" : "s")\n")
    func time(_ t: Int64?) -> String { t.map { "\(Self.utc($0)) UTC" } ?? "time not placed" }
    raw(n == 1 || b.start == b.end ? time(b.start) : "\(time(b.start)) → \(time(b.end))")
    raw("\n\(b.deviceCommand ?? Batch.numberedByBackups)")
  }

  /// `commit 31 · stuart via cli`, the times, the comment and the log.
  mutating func commitTitle(_ c: Commit) {
    raw("commit \(c.index.map(String.init) ?? "rescue") · ")
    guard let local = c.localTime else {
      raw("who and when not known (no rollback header describes it)")
      return
    }
    text(c.user)
    raw(" via ")
    text(c.client)
    raw("\n")
    if let t = c.instant {
      raw("\(Self.utc(t)) UTC\n\(local) ")
      text(c.timeZone)
      raw(" as printed")
    } else {
      raw("time not placed: \(local) ")
      text(c.timeZone)
      raw(" as printed")
    }
    if let comment = c.comment {
      raw("\n")
      text(comment)
    }
    if let log = c.log {
      raw("\n")
      text(log)
    }
  }

  mutating func batchTable() {
    raw("<h2>Batches, newest first</h2>\n<table>\n<thead><tr><th>User</th><th>Range</th><th>Commits</th>")
    raw("<th>Start (UTC)</th><th>End (UTC)</th><th>On-box command</th></tr></thead>\n<tbody>\n")
    for item in CommitHistory.batchesAndGapsNewestFirst(batches) {
      guard case .batch(let b) = item else {
        let r = item.range
        raw("<tr class=\"w\"><td>—</td><td>\(r)</td><td class=\"n\">\(r.count)</td><td colspan=\"3\">not in the listing</td></tr>\n")
        continue
      }
      raw("<tr><td>")
      text(b.user)
      raw("</td><td>\(b.range)</td><td class=\"n\">\(b.commits.count)</td><td>\(Self.utc(b.start))</td><td>\(Self.utc(b.end))</td>")
      raw("<td><code>\(b.deviceCommand ?? Batch.numberedByBackups)</code></td></tr>\n")
    }
    raw("</tbody>\n</table>\n")
  }

  mutating func authorTable() {
    raw("<h2>Authors, most commits first</h2>\n<table>\n<thead><tr><th>User</th><th>Commits</th><th>Batches</th>")
    raw("<th>First (UTC)</th><th>Last (UTC)</th></tr></thead>\n<tbody>\n")
    for a in CommitHistory.authors(batches) {
      raw("<tr><td>")
      text(a.user)
      raw("</td><td class=\"n\">\(a.commits)</td><td class=\"n\">\(a.batches)</td>")
      raw("<td>\(Self.utc(a.first))</td><td>\(Self.utc(a.last))</td></tr>\n")
    }
    raw("</tbody>\n</table>\n")
  }
}

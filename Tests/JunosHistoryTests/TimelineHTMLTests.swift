import Foundation
import JunosHistory
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The page as text.
private func page(_ batches: [Batch], title: String = "timeline") -> String {
  String(decoding: CommitHistory.timelineHTML(batches, title: title), as: UTF8.self)
}

/// How often `needle` occurs in `haystack`.
private func count(_ needle: String, in haystack: String) -> Int {
  haystack.split(separator: needle, omittingEmptySubsequences: false).count - 1
}

/// Why `html` is not well-formed XML, or nil: every tag opened is closed in order, attribute
/// values are quoted, and `&` starts only a known or numeric entity.
private func wellFormedProblem(_ html: String) -> String? {
  let s = Array(html.utf8)
  var stack: [String] = []
  var i = 0
  func isNameByte(_ b: UInt8) -> Bool { b != 0x20 && b != 0x0A && b != 0x09 && b != 0x3E && b != 0x2F }
  while i < s.count {
    switch s[i] {
    case UInt8(ascii: "&"):
      guard let semi = s[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return "bare & at \(i)" }
      let name = String(decoding: s[(i + 1)..<semi], as: UTF8.self)
      guard ["amp", "lt", "gt", "quot", "apos"].contains(name) || (name.hasPrefix("#") && Int(name.dropFirst()) != nil) else {
        return "unknown entity &\(name); at \(i)"
      }
      i = semi + 1
    case UInt8(ascii: ">"):
      i += 1
    case UInt8(ascii: "<"):
      if s[i...].starts(with: Array("<!DOCTYPE".utf8)) {
        guard let end = s[i...].firstIndex(of: UInt8(ascii: ">")) else { return "unclosed doctype" }
        i = end + 1
        continue
      }
      let closing = i + 1 < s.count && s[i + 1] == UInt8(ascii: "/")
      var j = closing ? i + 2 : i + 1
      let nameStart = j
      while j < s.count && isNameByte(s[j]) { j += 1 }
      let name = String(decoding: s[nameStart..<j], as: UTF8.self)
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" }) else {
        return "bad tag name '\(name)' at \(i)"
      }
      // Attributes: name="value" pairs up to > or />.
      var selfClosing = false
      while true {
        while j < s.count && (s[j] == 0x20 || s[j] == 0x0A || s[j] == 0x09) { j += 1 }
        guard j < s.count else { return "unclosed tag <\(name) at \(i)" }
        if s[j] == UInt8(ascii: ">") { break }
        if s[j] == UInt8(ascii: "/") && j + 1 < s.count && s[j + 1] == UInt8(ascii: ">") {
          selfClosing = true
          j += 1
          break
        }
        guard !closing else { return "attributes on a closing tag at \(i)" }
        while j < s.count && s[j] != UInt8(ascii: "=") && s[j] != UInt8(ascii: ">") { j += 1 }
        guard j + 1 < s.count, s[j] == UInt8(ascii: "="), s[j + 1] == UInt8(ascii: "\"") else {
          return "unquoted attribute in <\(name) at \(i)"
        }
        j += 2
        while j < s.count && s[j] != UInt8(ascii: "\"") {
          if s[j] == UInt8(ascii: "<") { return "< in an attribute of <\(name) at \(i)" }
          j += 1
        }
        j += 1
      }
      if closing {
        guard stack.last == name else { return "</\(name)> at \(i) closes <\(stack.last ?? "nothing")>" }
        stack.removeLast()
      } else if !selfClosing {
        stack.append(name)
      }
      i = j + 1
    default:
      i += 1
    }
  }
  return stack.isEmpty ? nil : "unclosed <\(stack.joined(separator: "> <"))>"
}

/// Checks the page with the stack checker and, where FoundationXML is there, with XMLDocument;
/// returns the number of `circle` and batch `rect` elements XMLDocument finds (nil without it).
private func checkWellFormed(_ html: String) throws -> (circles: Int, bars: Int)? {
  #expect(wellFormedProblem(html) == nil)
  #if canImport(FoundationXML)
    let document = try XMLDocument(data: Data(html.utf8), options: [])
    let circles = try document.nodes(forXPath: "//*[local-name()='circle']").count
    let bars = try document.nodes(forXPath: "//*[local-name()='rect'][@class='b']").count
    return (circles, bars)
  #else
    return nil
  #endif
}

/// A mark of the page: its lane (0 at the top), centre in page units, and its title's first line.
private struct Mark: Equatable {
  var lane: Int
  var x: Double
  var y: Double
  var title: String
}

/// The marks (`<circle class="m">`) of a page, in page order, placed by their lane's `translate`.
private func marks(_ html: String) -> [Mark] {
  var out: [Mark] = []
  var lane = -1
  var laneY = 0.0
  func attribute(_ name: String, in tag: Substring) -> Double? {
    guard let r = tag.range(of: " \(name)=\"") else { return nil }
    return Double(tag[r.upperBound...].prefix { $0 != "\"" })
  }
  for line in html.split(separator: "\n") {
    if line.hasPrefix("<g class=\"p"), let r = line.range(of: "translate(0,") {
      lane += 1
      laneY = Double(line[r.upperBound...].prefix { $0 != ")" }) ?? .nan
    } else if line.hasPrefix("<circle class=\"m\""), let title = line.range(of: "<title>") {
      let tag = line[..<title.lowerBound]
      out.append(
        Mark(
          lane: lane, x: attribute("cx", in: tag) ?? .nan, y: laneY + (attribute("cy", in: tag) ?? 0),
          title: String(line[title.upperBound...])))
    }
  }
  return out
}

/// Pairs of marks whose 8-unit boxes overlap.
private func overlaps(_ marks: [Mark]) -> [(Mark, Mark)] {
  let byX = marks.sorted { $0.x < $1.x }
  var out: [(Mark, Mark)] = []
  for (a, m) in byX.enumerated() {
    for n in byX[(a + 1)...] {
      if n.x - m.x >= 8 { break }
      if abs(n.y - m.y) < 8 { out.append((m, n)) }
    }
  }
  return out
}

/// One commit printed as 2024-01-01 10:00:00 in `zone`, placed at `instant`.
private func commit(
  _ index: Int, _ user: String, at instant: Int64?, log: String? = nil, comment: String? = nil, zone: String = "UTC",
  client: String = "cli"
) -> Commit {
  Commit(
    index: index, localTime: LocalTime(year: 2024, month: 1, day: 1, hour: 10, minute: 0, second: 0), timeZone: zone, user: user,
    client: client, comment: comment, log: log, instant: instant)
}

/// 2024-01-01 10:00:00 UTC.
private let t0: Int64 = 1_704_103_200

@Suite struct TimelineHTMLTests {
  @Test func blogListingHasAMarkPerCommitAndABarPerBatch() throws {
    let h = try history("katerina_blog_show_system_commit.txt")
    let batches = h.batches()
    let html = page(batches, title: "junoscope timeline — blog")
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(html.hasSuffix("</body>\n</html>\n"))
    #expect(html.contains("<title>junoscope timeline — blog</title>"))
    #expect(count("<circle ", in: html) == 33)
    #expect(count("<rect class=\"b\"", in: html) == 6)
    if let xml = try checkWellFormed(html) {
      #expect(xml.circles == 33)
      #expect(xml.bars == 6)
    }
    // Self-contained: nothing fetched.
    for outside in ["<script", "src=", "href=", "@import", "url("] { #expect(!html.contains(outside)) }
    // A commit's tooltip: index, user, client, UTC, as printed, comment.
    #expect(html.contains("<title>commit 31 · stuart via cli\n2019-08-05 08:06:28 UTC\n2019-08-05 09:06:28 BST as printed</title>"))
    #expect(
      html.contains(
        "<title>commit 37 · lewis via cli\n2019-06-19 11:58:03 UTC\n2019-06-19 12:58:03 BST as printed\ncommit confirmed, rollback in 3mins</title>"
      ))
    // A batch's tooltip: range, count, times, on-box command.
    #expect(
      html.contains(
        "<title>stuart 31..28 · 4 commits\n2019-08-05 08:06:28 UTC → 2019-08-07 13:21:33 UTC\nshow system rollback 28 compare 32</title>"
      ))
    #expect(html.contains("<title>lewis 37..32 · 6 commits\n"))
    // Lanes in order of first commit: chris committed first.
    let labels = ["chris", "bart", "lewis", "stuart", "ben", "katerina"].map { user in
      html.range(of: "<text class=\"u\" x=\"152\" y=\"4\">\(user)<title>")?.lowerBound
    }
    #expect(labels.allSatisfy { $0 != nil })
    #expect(labels.compactMap { $0 } == labels.compactMap { $0 }.sorted())
    // Six months: month ticks.
    #expect(html.contains(">2019-06</text>"))
    #expect(html.contains(">2019-11</text>"))
    // The batch table, newest first, and the authors.
    let katerinaRow = try #require(html.range(of: "<tr><td>katerina</td><td>9..0</td><td class=\"n\">10</td>"))
    let stuartRow = try #require(
      html.range(
        of:
          "<tr><td>stuart</td><td>31..28</td><td class=\"n\">4</td><td>2019-08-05 08:06:28</td><td>2019-08-07 13:21:33</td><td><code>show system rollback 28 compare 32</code></td></tr>"
      ))
    #expect(katerinaRow.lowerBound < stuartRow.lowerBound)
    #expect(html.contains("<tr><td>katerina</td><td class=\"n\">10</td><td class=\"n\">1</td>"))
    #expect(html.contains("<p>33 commits by 6 users in 6 batches, from 2019-05-09 13:14:43 to 2019-11-13 15:06:51 UTC.</p>"))
    // Deterministic.
    #expect(CommitHistory.timelineHTML(batches, title: "junoscope timeline — blog") == Array(html.utf8))
  }

  @Test func inputTextIsEscaped() throws {
    let hostile = "<script>alert('x')</script> & \"q\""
    let commits = [
      commit(1, "<b>eve</b>", at: t0, log: hostile, comment: "a < b", zone: "<Z>", client: "c&c"),
      commit(2, "mallory\u{1}'", at: t0 - 60, log: "</title></circle><circle r=\"99\">"),
    ]
    let batches = CommitHistory(commits: commits).batches()
    let html = page(batches, title: "</title><script>x</script>")
    #expect(!html.contains("<script"))
    #expect(!html.contains("<b>"))
    #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"))
    #expect(html.contains("<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>"))
    #expect(html.contains("commit 1 · &lt;b&gt;eve&lt;/b&gt; via c&amp;c\n"))
    #expect(html.contains("10:00:00 &lt;Z&gt; as printed\na &lt; b\n"))
    #expect(html.contains("mallory\u{FFFD}&#39;"))  // a control character XML forbids is replaced
    #expect(count("<circle ", in: html) == 2)
    if let xml = try checkWellFormed(html) { #expect(xml.circles == 2) }
  }

  @Test func zeroSpanAndSingleCommitSitInTheMiddle() throws {
    let single = page(CommitHistory(commits: [commit(0, "ann", at: t0)]).batches())
    #expect(count("<circle ", in: single) == 1)
    #expect(single.contains("<circle class=\"m\" cx=\"573.5\" r=\"4\">"))  // (192 + 955) / 2
    // A one-hour window around it, with hour:minute ticks and the date once.
    #expect(single.contains(">09:30</text>"))
    #expect(single.contains(">10:30</text>"))
    #expect(count(">2024-01-01</text>", in: single) == 1)
    #expect(single.contains("<title>ann 0..0 · 1 commit\n2024-01-01 10:00:00 UTC\nshow system rollback 0 compare 1</title>"))
    #expect(single.contains(", at 2024-01-01 10:00:00 UTC."))
    _ = try checkWellFormed(single)

    let same = page(CommitHistory(commits: [commit(0, "ann", at: t0), commit(1, "bob", at: t0), commit(2, "ann", at: t0)]).batches())
    // One instant: ann's two dots stacked in her lane, bob's in his.
    #expect(count("<circle class=\"m\" cx=\"573.5\" r=\"4\">", in: same) == 2)
    #expect(count("<circle class=\"m\" cx=\"573.5\" cy=\"11\" r=\"4\">", in: same) == 1)
    #expect(count("<rect class=\"b\"", in: same) == 3)
    for bad in ["nan", "inf"] { #expect(!same.lowercased().contains("=\"\(bad)")) }
    _ = try checkWellFormed(same)

    let empty = page([])
    #expect(empty.contains("<p>0 commits by 0 users in 0 batches.</p>"))
    #expect(!empty.contains("<svg"))
    _ = try checkWellFormed(empty)
  }

  @Test func unplacedTimesGoInCommitOrder() throws {
    // No time placed: the axis is commit order, oldest at the left.
    let none = page(CommitHistory(commits: [commit(0, "ann", at: nil), commit(1, "bob", at: nil), commit(2, "bob", at: nil)]).batches())
    #expect(count("<circle ", in: none) == 3)
    #expect(none.contains(">commit order</text>"))
    let oldest = try #require(none.range(of: ">#2</text>"))
    let newest = try #require(none.range(of: ">#0</text>"))
    #expect(oldest.lowerBound < newest.lowerBound)
    #expect(none.contains("<title>commit 0 · ann via cli\ntime not placed: 2024-01-01 10:00:00 UTC as printed</title>"))
    #expect(none.contains("<title>bob 2..1 · 2 commits\ntime not placed\nshow system rollback 1 compare 3</title>"))
    #expect(none.contains("3 commits have no placed time"))
    _ = try checkWellFormed(none)

    // Some placed, some not: a column apart.
    let mixed = page(
      CommitHistory(commits: [commit(0, "ann", at: nil, zone: "XYZ"), commit(1, "bob", at: t0), commit(2, "bob", at: t0 - 7200)])
        .batches())
    #expect(count("<circle ", in: mixed) == 3)
    #expect(mixed.contains(">time not placed</text>"))
    #expect(mixed.contains("1 commit has no placed time"))
    #expect(mixed.contains("<circle class=\"m\" cx=\"895\" r=\"4\"><title>commit 0 · ann via cli\ntime not placed"))  // (835 + 955) / 2
    #expect(mixed.contains("<td>ann</td><td>0..0</td><td class=\"n\">1</td><td>not placed</td><td>not placed</td>"))
    _ = try checkWellFormed(mixed)
  }

  @Test func tenThousandCommits() throws {
    let n = 10_000
    let commits = (0..<n).map { k in
      commit(
        k, "user\(k / 7 % 13)", at: t0 - Int64(k) * 97, log: k % 3 == 0 ? "change \(k): ticket <\(k)> & more" : nil,
        comment: k % 50 == 0 ? "commit confirmed, rollback in 5mins" : nil)
    }
    let batches = CommitHistory(commits: commits).batches()
    #expect(batches.count == (n + 6) / 7)
    let bytes = CommitHistory.timelineHTML(batches, title: "big")
    let html = String(decoding: bytes, as: UTF8.self)
    #expect(count("<circle ", in: html) == n)
    #expect(count("<rect class=\"b\"", in: html) == batches.count)
    #expect(count("<text class=\"u\"", in: html) == 13)
    #expect(bytes.count < 4_000_000)
    if let xml = try checkWellFormed(html) {
      #expect(xml.circles == n)
      #expect(xml.bars == batches.count)
    }
  }

  @Test func markRowsKeepMarksApartInOrder() {
    #expect(CommitHistory.markRows([], separation: 10) == [])
    // Far enough apart: one row.
    #expect(CommitHistory.markRows([0, 10, 25], separation: 10) == [0, 0, 0])
    // One position: a row each, in the given order.
    #expect(CommitHistory.markRows([7, 7, 7, 7], separation: 10) == [0, 1, 2, 3])
    // Each mark into the lowest row it fits: 10 fits after 0, 20 after 10.
    #expect(CommitHistory.markRows([0, 5, 9, 10, 20], separation: 10) == [0, 1, 2, 0, 0])
    // Taken by position, not by the order given; ties in the order given.
    #expect(CommitHistory.markRows([30, 0, 30, 5], separation: 10) == [0, 0, 1, 1])
    #expect(CommitHistory.markRows([-5, 4, -5], separation: 10) == [0, 2, 1])
  }

  @Test func lewissSixCommitsStackInTheirLane() throws {
    // Six commits within seven minutes on a six-month axis: one x, six rows, oldest on top.
    let html = page(try history("katerina_blog_show_system_commit.txt").batches())
    let lewis = marks(html).filter { $0.title.hasPrefix("commit ") && $0.title.contains(" · lewis via ") }
    #expect(
      lewis
        == [37, 36, 35, 34, 33, 32].enumerated().map { k, index in
          Mark(lane: 2, x: 358.1, y: Double(95 + 11 * k), title: "commit \(index) · lewis via cli")
        })
    #expect(html.contains("<g class=\"p2\" transform=\"translate(0,95)\">\n"))
    #expect(html.contains("<circle class=\"m\" cx=\"358.1\" r=\"4\"><title>commit 37 · lewis via cli\n"))
    #expect(html.contains("<circle class=\"m\" cx=\"358.1\" cy=\"55\" r=\"4\"><title>commit 32 · lewis via cli\n"))
    // Their bar covers the six rows: from 7 above the first to 7 below the last.
    #expect(html.contains("<rect class=\"b\" x=\"353.1\" y=\"-7\" width=\"10\" height=\"69\" rx=\"7\"><title>lewis 37..32 ·"))
    // The lanes grow with their rows: chris 1, bart 3, lewis 6, stuart 4, ben 8, katerina 10.
    let tops = ["chris", "bart", "lewis", "stuart", "ben", "katerina"].enumerated().map { k, _ in
      html.range(of: "<g class=\"p\(k)\" transform=\"translate(0,")
        .map { Int(html[$0.upperBound...].prefix { $0 != ")" }) ?? -1 }
    }
    // Lane k's centre row is 13 below its top; a lane is 26 high plus 11 a row after the first.
    #expect(tops == [21, 47, 95, 176, 235, 338])
    #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 490\" width=\"1000\" height=\"490\""))
    let all = marks(html)
    #expect(all.count == 33)
    #expect(overlaps(all).isEmpty)
    _ = try checkWellFormed(html)
  }

  @Test func commitsSecondsAndMinutesApartNeverOverlap() throws {
    // 300 commits 20 s apart by three users taking turns, then a burst of 40 one second apart
    // by one user, then one a day later: every mark apart from every other, in time order.
    var commits: [Commit] = []
    var t = t0
    for k in 0..<300 {
      commits.append(commit(k, ["ann", "bob", "cy"][k % 3], at: t))
      t -= 20
    }
    for k in 300..<340 {
      commits.append(commit(k, "dee", at: t))
      t -= 1
    }
    commits.insert(commit(340, "ann", at: t0 + 86_400), at: 0)
    commits = commits.enumerated().map { k, c in
      var c = c
      c.index = k
      return c
    }
    let html = page(CommitHistory(commits: commits).batches())
    let all = marks(html)
    #expect(all.count == 341)
    #expect(overlaps(all).isEmpty)
    for lane in 0..<4 {
      let laneMarks = all.filter { $0.lane == lane }
      // Page order is time order within a lane (oldest first): x never goes back, and at one x
      // the newer is lower.
      for (a, b) in zip(laneMarks, laneMarks.dropFirst()) {
        #expect(a.x < b.x || (a.x == b.x && a.y < b.y), "\(a) then \(b)")
      }
    }
    // dee's burst: forty commits within 40 s are within a unit of x, in forty rows.
    let dee = all.filter { $0.title.contains(" · dee via ") }
    #expect(dee.count == 40)
    #expect((dee.map(\.x).max() ?? 0) - (dee.map(\.x).min() ?? 0) < 1)
    #expect(dee.map(\.y) == (0..<40).map { Double(dee[0].y) + Double(11 * $0) })
    _ = try checkWellFormed(html)
  }

  @Test func theCheckerCatchesBrokenMarkup() {
    #expect(wellFormedProblem("<p><b>x</b></p>") == nil)
    #expect(wellFormedProblem("<p><b>x</p></b>") != nil)
    #expect(wellFormedProblem("<p>x") != nil)
    #expect(wellFormedProblem("<p>a & b</p>") != nil)
    #expect(wellFormedProblem("<p class=x>a</p>") != nil)
  }

  @Test func longSpansTickByYear() throws {
    let commits = [commit(0, "ann", at: t0), commit(1, "ann", at: t0 - 20 * 365 * 86_400), commit(2, "ann", at: Int64.min)]
    let html = page(CommitHistory(commits: commits).batches())
    #expect(count("<circle ", in: html) == 3)
    #expect(html.contains(">2000</text>"))
    _ = try checkWellFormed(html)
  }
}

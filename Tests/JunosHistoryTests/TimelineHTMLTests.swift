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
    #expect(single.contains("<circle cx=\"573.5\" r=\"4\">"))  // (192 + 955) / 2
    // A one-hour window around it, with hour:minute ticks and the date once.
    #expect(single.contains(">09:30</text>"))
    #expect(single.contains(">10:30</text>"))
    #expect(count(">2024-01-01</text>", in: single) == 1)
    #expect(single.contains("<title>ann 0..0 · 1 commit\n2024-01-01 10:00:00 UTC\nshow system rollback 0 compare 1</title>"))
    #expect(single.contains(", at 2024-01-01 10:00:00 UTC."))
    _ = try checkWellFormed(single)

    let same = page(CommitHistory(commits: [commit(0, "ann", at: t0), commit(1, "bob", at: t0), commit(2, "ann", at: t0)]).batches())
    #expect(count("<circle cx=\"573.5\" r=\"4\">", in: same) == 3)
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
    #expect(mixed.contains("<circle cx=\"895\" r=\"4\"><title>commit 0 · ann via cli\ntime not placed"))  // (835 + 955) / 2
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

import JunosConfig
import JunosHistory
import Testing

/// Parses an XML fixture of the commit list.
private func xmlHistory(_ name: String) throws -> CommitHistory {
  let file = try Fixtures.source("commit-history/xml/\(name)")
  var h = CommitXMLParser.parse(file)
  TimePlacement.place(&h, file: file)
  return h
}

/// Parses listing text given inline.
private func listing(_ text: String) -> CommitHistory {
  let file = SourceFile(path: "listing", bytes: Array(text.utf8))
  var h = CommitListParser.parse(file)
  TimePlacement.place(&h, file: file)
  return h
}

/// A pending confirmation's fields, for comparing.
private func fields(_ p: PendingConfirmation) -> [String] {
  [p.commit.map { "\($0.index ?? -1) \($0.user)" }, p.minutes.map(String.init), p.deadline.map(iso8601UTC), p.minutesLeft.map(String.init)]
    .map { $0 ?? "nil" }
}

@Suite struct TimelineNotesTests {
  @Test func numberingGapsOfTheBlogListing() throws {
    let batches = try history("katerina_blog_show_system_commit.txt").batches()
    #expect(CommitHistory.numberingGaps(batches) == [CommitRange(19, 10)])
    #expect(
      CommitHistory.batchesAndGapsNewestFirst(batches).map { "\($0.range)" } == [
        "9..0", "19..10", "27..20", "31..28", "37..32", "40..38", "42..41",
      ])
    let json = String(decoding: CommitHistory.timelineJSON(batches), as: UTF8.self)
    #expect(json.hasSuffix(#"],"gaps":[{"first":19,"last":10,"commits":10}],"pending":null}"# + "\n"))
    let html = String(decoding: CommitHistory.timelineHTML(batches, title: "t"), as: UTF8.self)
    #expect(html.contains("<p class=\"w\">Not in the listing: commits 19..10 (10).</p>\n"))
    let gapRow = "<tr class=\"w\"><td>—</td><td>19..10</td><td class=\"n\">10</td><td colspan=\"3\">not in the listing</td></tr>\n"
    let katerina = try #require(html.range(of: "<tr><td>katerina</td><td>9..0</td>"))
    let gap = try #require(html.range(of: gapRow))
    let ben = try #require(html.range(of: "<tr><td>ben</td><td>27..20</td>"))
    #expect(katerina.lowerBound < gap.lowerBound && gap.lowerBound < ben.lowerBound)
  }

  @Test func numberingGapsAtTheTopAndOfOne() {
    let h = listing(
      """
      3   2024-01-01 10:00:00 UTC by ann via cli
      4   2024-01-01 09:00:00 UTC by ann via cli
      6   2024-01-01 08:00:00 UTC by bob via cli
      """)
    let batches = h.batches()
    #expect(CommitHistory.numberingGaps(batches) == [CommitRange(5, 5), CommitRange(2, 0)])
    #expect(CommitHistory.numberingGaps([]) == [])
    #expect(CommitHistory.numberingGaps(listing("0   2024-01-01 10:00:00 UTC by ann via cli\n").batches()) == [])
    let html = String(decoding: CommitHistory.timelineHTML(batches, title: "t"), as: UTF8.self)
    #expect(html.contains("<p class=\"w\">Not in the listing: commits 2..0 (3), commit 5 (1).</p>\n"))
  }

  @Test func pendingFromTheNoticeAndCommitZero() throws {
    // The notice line and commit 0's comment agree: rolled back 10 minutes after 10:41:11 UTC.
    let cet = try history("pytraining_commit_confirmed_cet.txt")
    #expect(cet.rollbackNoticeMinutes == 10)
    #expect(cet.diagnostics.isEmpty)
    let pending = try #require(cet.pendingConfirmation)
    #expect(pending.commit?.index == 0)
    #expect(pending.minutes == 10)
    #expect(pending.minutesLeft == 10)
    #expect(pending.deadline.map(iso8601UTC) == "2018-01-23T10:51:11Z")
    #expect(
      pending.summary
        == "commit 0 by pytraining (commit confirmed, rollback in 10mins) is rolled back at 2018-01-23 10:51:11 UTC unless it is confirmed")
    let batches = cet.batches()
    let json = String(decoding: CommitHistory.timelineJSON(batches, pending: pending), as: UTF8.self)
    #expect(
      json.hasSuffix(
        #""gaps":[],"pending":{"commit":0,"user":"pytraining","minutes":10,"deadline":"2018-01-23T10:51:11Z","minutesLeft":10}}"# + "\n"))
    let html = String(decoding: CommitHistory.timelineHTML(batches, title: "t", pending: pending), as: UTF8.self)
    #expect(html.contains("<p class=\"w\">Pending: commit 0 by pytraining (commit confirmed, rollback in 10mins) is rolled back at"))
    #expect(html.contains("<circle class=\"m q\" cx=\"573.5\" r=\"4\"><title>commit 0 · pytraining via cli\n"))
    #expect(html.contains("rollback in 10mins\npending: commit 0 by pytraining"))

    // NETCONF: commit 0 a commit confirmed with no later commit; commit 1 missing.
    let xml = try xmlHistory("napalm_junos_commit_confirm_pending.xml")
    let p = try #require(xml.pendingConfirmation)
    #expect(fields(p) == ["0 admin", "10", "2017-10-29T14:11:59Z", "nil"])
    #expect(CommitHistory.numberingGaps(xml.batches()) == [CommitRange(1, 1)])
  }

  @Test func confirmedByALaterCommitIsNotPending() throws {
    #expect(try xmlHistory("napalm_junos_commit_confirm_not_pending.xml").pendingConfirmation == nil)
    #expect(try history("ben_blog_commit_confirmed_run_show_system_commit.txt").pendingConfirmation == nil)
    #expect(try history("katerina_blog_show_system_commit.txt").pendingConfirmation == nil)
    // The notice alone (commit 0 does not say): pending, deadline unknown.
    let h = listing("# commit confirmed will be rolled back in 1 minute\n0   2024-01-01 10:00:00 UTC by ann via cli\n")
    #expect(h.rollbackNoticeMinutes == 1)
    let p = try #require(h.pendingConfirmation)
    #expect(fields(p) == ["nil", "nil", "nil", "1"])
    #expect(p.summary == "a commit confirmed is rolled back 1 minute after the listing was captured unless it is confirmed")
    let json = String(decoding: CommitHistory.timelineJSON(h.batches(), pending: p), as: UTF8.self)
    #expect(json.hasSuffix(#""pending":{"commit":null,"user":null,"minutes":null,"deadline":null,"minutesLeft":1}}"# + "\n"))
    // Other `#` lines are not notices.
    #expect(listing("# commit confirmed will be rolled back soon\n").rollbackNoticeMinutes == nil)
  }
}

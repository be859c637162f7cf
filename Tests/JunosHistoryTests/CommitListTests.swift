import Foundation
import JunosConfig
import JunosHistory
import Testing

enum Fixtures {
  static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func source(_ relative: String) throws -> SourceFile {
    SourceFile(path: relative, bytes: Array(try Data(contentsOf: root.appendingPathComponent(relative))))
  }
}

/// Parses and places a corpus listing.
func history(_ name: String) throws -> CommitHistory {
  let file = try Fixtures.source("commit-history/text/\(name)")
  var h = CommitListParser.parse(file)
  TimePlacement.place(&h, file: file)
  return h
}

/// One line per entry: `index time zone user client | comment | log`.
func lines(_ h: CommitHistory) -> [String] {
  (h.commits + (h.rescue.map { [$0] } ?? [])).map { c in
    "\(c.index.map(String.init) ?? "rescue") \(c.localTime.map(String.init(describing:)) ?? "?") \(c.timeZone) \(c.user) \(c.client)"
      + (c.comment.map { " | \($0)" } ?? "") + (c.log.map { " || \($0)" } ?? "")
  }
}

@Suite struct CommitListTests {
  @Test func everyLineEndingReadsAlike() {
    let lines = [
      "# commit confirmed will be rolled back in 10 minutes", "ben@r1> show system commit", "0   2018-07-27 08:44:26 BST by ben via cli",
      "    fix uplink", "", "1   2018-07-27 08:44:07 BST by ben via cli commit confirmed, rollback in 5mins", "… output truncated …",
      "rescue  2018-07-01 10:00:00 BST by ops via cli",
    ]
    func read(_ separator: String) -> (String, [String]) {
      let file = SourceFile(path: "l", text: lines.joined(separator: separator) + separator)
      let h = CommitListParser.parse(file)
      let shown = [
        CommitHistory.logText(h.commits), h.rescue.map { CommitHistory.logText([$0]) } ?? "-", "\(h.rollbackNoticeMinutes ?? -1)",
      ]
      #expect(CommitHistory.looksLikeListing(file), "\(separator.debugDescription)")
      return (shown.joined(separator: "|"), h.diagnostics.map(\.rendered))
    }
    let lf = read("\n")
    #expect(lf.1 == ["l:7:1: warning: not a commit entry: '… output truncated …'"])
    #expect(lf.0.contains("fix uplink") && lf.0.hasSuffix("|10"))
    for separator in ["\r\n", "\r"] {
      let other = read(separator)
      #expect(other.0 == lf.0, "\(separator.debugDescription)")
      #expect(other.1 == lf.1, "\(separator.debugDescription)")
    }
  }

  @Test func katerinaBlogBatchesAndRanges() throws {
    let h = try history("katerina_blog_show_system_commit.txt")
    #expect(h.commits.count == 33)
    #expect(h.commits.map(\.index) == Array(0...9) + Array(20...42))
    // The author's "… output truncated …" line is reported, not guessed at.
    #expect(
      h.diagnostics.map(\.rendered) == [
        "commit-history/text/katerina_blog_show_system_commit.txt:12:1: warning: not a commit entry: '… output truncated …'"
      ])
    let batches = h.batches()
    let stuart = try #require(batches.first { $0.user == "stuart" })
    #expect(stuart.range == CommitRange(31, 28))
    #expect(stuart.range.deviceCommand == "show system rollback 28 compare 32")
    let lewis = try #require(batches.first { $0.user == "lewis" })
    #expect(lewis.range.description == "37..32")
    #expect(lewis.range.deviceCommand == "show system rollback 32 compare 38")
    #expect(
      batches.map { "\($0.user) \($0.range)" } == [
        "chris 42..41", "bart 40..38", "lewis 37..32", "stuart 31..28", "ben 27..20", "katerina 9..0",
      ])
    #expect(h.commit(34)?.confirmedMinutes == 3)
    #expect(h.commit(39)?.confirmedMinutes == 1)
  }

  @Test func gmtAndBstLandOnUTC() throws {
    let h = try history("katerina_blog_show_system_commit.txt")
    #expect(h.commit(0)?.instant.map(iso8601UTC) == "2019-11-13T15:06:51Z")  // GMT
    #expect(h.commit(28)?.instant.map(iso8601UTC) == "2019-08-07T13:21:33Z")  // BST = UTC+1
    // Instants decrease down the listing even across the BST → GMT change.
    let instants = h.commits.compactMap(\.instant)
    #expect(instants.count == h.commits.count)
    #expect(zip(instants, instants.dropFirst()).allSatisfy { $0 > $1 })
  }

  @Test func everyCaptureParses() throws {
    #expect(
      lines(try history("adamc_vsrx_junoscript_op_script.txt")) == [
        "0 2014-03-01 18:36:27 UTC adamc junoscript || Apply RPF to all interfaces: 10 interface(s) affected: 6 inet, 8 inet6"
      ])
    #expect(
      lines(try history("ben_blog_commit_confirmed_run_show_system_commit.txt")).prefix(2) == [
        "0 2018-07-27 08:44:26 BST ben cli", "1 2018-07-27 08:44:07 BST ben cli | commit confirmed, rollback in 5mins",
      ])
    #expect(lines(try history("dc-vmx-3_rest_junoscript.txt")) == ["0 2018-01-16 10:01:11 UTC lab junoscript"])
    #expect(lines(try history("mb2-fw1b01_commit_comment.txt")).first == "0 2018-02-07 20:21:04 UTC root cli || --clean start--")
    let cet = try history("pytraining_commit_confirmed_cet.txt")
    #expect(lines(cet) == ["0 2018-01-23 11:41:11 CET pytraining cli | commit confirmed, rollback in 10mins"])
    #expect(cet.commits[0].instant.map(iso8601UTC) == "2018-01-23T10:41:11Z")
    #expect(cet.commits[0].confirmedMinutes == 10)
    let ru = try history("ru_notes_plus03_commit_synchronize.txt")
    #expect(ru.commits.count == 4)
    #expect(ru.commits[0].comment == "commit synchronize")
    #expect(ru.commits[0].instant.map(iso8601UTC) == "2022-02-16T18:55:12Z")
    let srx = try history("srx1-right_show_system_commit_with_comments.txt")
    #expect(
      lines(srx) == [
        "0 2016-12-07 00:25:10 UTC root netconf || Pushing config ... please wait",
        "1 2016-12-06 22:29:09 UTC root cli || Set up NETCONF over SSH", "2 2016-12-06 20:15:23 UTC root cli || Initial configuration",
        "3 2016-12-06 20:07:45 UTC root other",
      ])
    let eest = try history("terraform_eest_commit_synchronize.txt")
    #expect(eest.commits[0].log == "create resource junos_interface")
    #expect(eest.commits[0].instant.map(iso8601UTC) == "2020-10-07T11:34:08Z")
    let completion = try history("vqfx_rollback_completion_list.txt")
    #expect(completion.commits.count == 11)
    #expect(completion.commits[10].client == "other")
    for name in [
      "adamc_vsrx_junoscript_op_script.txt", "ben_blog_commit_confirmed_run_show_system_commit.txt", "dc-vmx-3_rest_junoscript.txt",
      "mb2-fw1b01_commit_comment.txt", "pytraining_commit_confirmed_cet.txt", "ru_notes_plus03_commit_synchronize.txt",
      "srx1-right_show_system_commit_with_comments.txt", "terraform_eest_commit_synchronize.txt", "vqfx_rollback_completion_list.txt",
    ] {
      #expect(try history(name).diagnostics.map(\.rendered) == [], "\(name)")
    }
  }

  @Test func rescueAndPagerAndAmbiguousZones() {
    let file = SourceFile(
      path: "l",
      text: """
        admin@r1> show system commit
        0   2023-03-14 09:12:05 CST by ops via netconf
            nightly-sync
        rescue  2022-12-01 10:15:00 UTC by root via cli
        ---(more)---
        """)
    var h = CommitListParser.parse(file)
    TimePlacement.place(&h, file: file)
    #expect(h.rescue?.index == nil && h.rescue?.user == "root")
    #expect(h.commits[0].log == "nightly-sync")
    #expect(h.commits[0].instant == nil)
    #expect(
      h.diagnostics.map(\.rendered) == [
        "l:5:1: warning: the capture stops at a pager prompt ('---(more)---'): the listing is truncated",
        "l:2:1: error: time zone 'CST' is ambiguous (UTC-06:00, UTC+08:00, UTC-05:00): give the device's time zone (--timezone) or UTC offset (--utc-offset)",
      ])
    // With the device's offset given, it is placed.
    var again = CommitListParser.parse(file)
    TimePlacement.place(&again, zone: -6 * 3600, file: file)
    #expect(again.commits[0].instant.map(iso8601UTC) == "2023-03-14T15:12:05Z")
  }

  @Test func rangeArithmetic() {
    #expect(CommitRange(28, 31).deviceCommand == "show system rollback 28 compare 32")
    #expect(CommitRange(0, 0).deviceCommand == "show system rollback 0 compare 1")
    // The box keeps rollbacks 0–49: commit 49's changes cannot be compared there.
    #expect(CommitRange(48, 0).deviceCommand == "show system rollback 0 compare 49")
    #expect(
      CommitRange(49, 47).deviceCommand
        == "show system rollback 47 compare 49 (commits 48..47 only: rollback 50, before commit 49, is not kept on the box)")
    #expect(CommitRange(49, 49).deviceCommand == "(no on-box command: rollback 50, before commit 49, is not kept on the box)")
    #expect(CommitRange(5, 5).count == 1)
    #expect(CommitRange(48, 40).unavailable(highestRollback: 49) == nil)
    #expect(
      CommitRange(49, 45).unavailable(highestRollback: 49)
        == "the changes of commit 49 need rollback 50, the configuration before it, which the device does not keep (rollbacks 0–49)")
  }

  @Test func gapSplitsAUsersRun() {
    let file = SourceFile(
      path: "g",
      text: """
        0   2024-01-02 10:00:00 UTC by ann via cli
        1   2024-01-02 09:59:00 UTC by ann via cli
        2   2024-01-01 08:00:00 UTC by ann via cli
        3   2024-01-01 07:00:00 UTC by bob via netconf
        """)
    var h = CommitListParser.parse(file)
    TimePlacement.place(&h, file: file)
    #expect(h.batches().map { "\($0.user) \($0.range)" } == ["bob 3..3", "ann 2..0"])
    #expect(h.batches(gap: 3600).map { "\($0.user) \($0.range)" } == ["bob 3..3", "ann 2..2", "ann 1..0"])
  }
}

import JunoscopeCLI
import Testing

/// `junoscope timeline` on the blog's listing.
@Suite struct TimelineCLITests {
  @Test func batchesGiveTheOnBoxCommands() {
    let r = run(["timeline", "--commits", "\(fixtures)/commit-history/text/katerina_blog_show_system_commit.txt", "-f", "json"])
    #expect(r.status == 0)
    #expect(
      r.out.contains(
        #"{"user":"stuart","first":31,"last":28,"commits":4,"start":"2019-08-05T08:06:28Z","end":"2019-08-07T13:21:33Z","compare":"show system rollback 28 compare 32"}"#
      ))
    #expect(r.out.contains(#""user":"lewis","first":37,"last":32,"commits":6,"#))
    #expect(r.out.contains(#""compare":"show system rollback 32 compare 38"}"#))
    #expect(r.out.contains(#""authors":[{"user":"katerina","commits":10,"batches":1,"#))
  }

  @Test func gapSplitsARun() {
    let listing = "0   2024-01-02 10:00:00 UTC by ann via cli\n1   2024-01-01 09:00:00 UTC by ann via cli\n"
    let whole = run(["timeline", "--commits", "-"], stdin: listing)
    let wholeHead = """
      User  Commits  Count  Time (UTC)                                   Device time                                    Command
      ann   1..0     2      2024-01-01 09:00:00Z → 2024-01-02 10:00:00Z  2024-01-01 09:00:00 → 2024-01-02 10:00:00 UTC  show system rollback 0 compare 2

      """
    #expect(whole.out.hasPrefix(wholeHead))
    let split = run(["timeline", "--commits", "-", "--gap", "2h"], stdin: listing)
    let splitHead = """
      User  Commits  Count  Time (UTC)            Device time              Command
      ann   0..0     1      2024-01-02 10:00:00Z  2024-01-02 10:00:00 UTC  show system rollback 0 compare 1
      ann   1..1
      """
    #expect(split.out.hasPrefix(splitHead))
    #expect(run(["timeline", "--commits", "-", "--gap", "soon"], stdin: listing).status == 64)
  }

  @Test func gapsAndPendingInText() {
    let r = run(["timeline", "--commits", "\(fixtures)/commit-history/text/katerina_blog_show_system_commit.txt"])
    let head = """
      User      Commits  Count  Time (UTC)                                   Device time                                    Command
      katerina  9..0     10     2019-11-13 12:23:28Z → 15:06:51Z             2019-11-13 12:23:28 → 15:06:51 GMT             show system rollback 0 compare 10
      (gap)     19..10   10     not in the listing
      ben       27..20   8      2019-09-13 13:06:12Z → 13:16:43Z             2019-09-13 14:06:12 → 14:16:43 BST             show system rollback 20 compare 28

      """
    #expect(r.out.hasPrefix(head))
    #expect(r.out.contains("\n\nUser      Commits  Batches  Time (UTC)\nkaterina  10       1        2019-11-13 12:23:28Z → 15:06:51Z\n"))
    #expect(!r.out.contains("pending"))
    let pending = run(["timeline", "--commits", "\(fixtures)/commit-history/xml/napalm_junos_commit_confirm_pending.xml"])
    #expect(pending.status == 0)
    let pendingHead = """
      User   Commits  Count  Time (UTC)            Device time              Command
      admin  0..0     1      2017-10-29 14:01:59Z  2017-10-29 14:01:59 UTC  show system rollback 0 compare 1
      (gap)  1..1     1      not in the listing

      """
    #expect(pending.out.hasPrefix(pendingHead))
    #expect(
      pending.out.hasSuffix(
        "\npending: commit 0 by admin (commit confirmed, rollback in 10mins) is rolled back at 2017-10-29 14:11:59 UTC unless it is confirmed\n"
      ))
    let html = run(["timeline", "--commits", "\(fixtures)/commit-history/xml/napalm_junos_commit_confirm_pending.xml", "-f", "html"])
    #expect(html.out.contains("<p class=\"w\">Pending: commit 0 by admin"))
    #expect(html.out.contains("<circle class=\"m q\""))
  }

  @Test func asciiLocaleArrow() {
    let listing = "0   2024-01-02 10:00:00 UTC by ann via cli\n1   2024-01-01 09:00:00 UTC by ann via cli\n"
    let c = Captured(stdin: listing)
    var console = c.console
    console.terminal.isUTF8 = Terminal.isUTF8(environment: ["LANG": "C"])
    #expect(Junoscope.run(["timeline", "--commits", "-"], console: console) == 0)
    #expect(c.out.contains("ann   1..0     2      2024-01-01 09:00:00Z -> 2024-01-02 10:00:00Z  2024-01-01 09:00:00 -> 2024-01-02"))
    #expect(!c.out.contains("→"))
  }

  @Test func htmlIsOnePageTitledByTheFile() {
    let r = run(["timeline", "--commits", "\(fixtures)/commit-history/text/katerina_blog_show_system_commit.txt", "--format", "html"])
    #expect(r.status == 0)
    #expect(r.out.hasPrefix("<!DOCTYPE html>\n"))
    #expect(r.out.contains("<title>junoscope timeline — katerina_blog_show_system_commit.txt</title>"))
    #expect(r.out.split(separator: "<circle ").count - 1 == 33)
    #expect(r.out.contains("<td><code>show system rollback 28 compare 32</code></td>"))
    #expect(!r.out.contains("<script"))
    let piped = run(["timeline", "--commits", "-", "-f", "html"], stdin: "0   2024-01-02 10:00:00 UTC by ann via cli\n")
    #expect(piped.out.contains("<title>junoscope timeline — standard input</title>"))
  }
}

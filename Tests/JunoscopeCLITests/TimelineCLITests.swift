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
    #expect(whole.out.hasPrefix("ann   1..0    2 commits  2024-01-01 09:00:00Z → 2024-01-02 10:00:00Z  show system rollback 0 compare 2\n"))
    let split = run(["timeline", "--commits", "-", "--gap", "2h"], stdin: listing)
    #expect(split.out.hasPrefix("ann   0..0    1 commit   2024-01-02 10:00:00Z  show system rollback 0 compare 1\nann   1..1"))
    #expect(run(["timeline", "--commits", "-", "--gap", "soon"], stdin: listing).status == 64)
  }

  @Test func gapsAndPendingInText() {
    let r = run(["timeline", "--commits", "\(fixtures)/commit-history/text/katerina_blog_show_system_commit.txt"])
    #expect(
      r.out.hasPrefix(
        "katerina  9..0    10 commits  2019-11-13 12:23:28Z → 2019-11-13 15:06:51Z  show system rollback 0 compare 10\n"
          + "(gap)     19..10  10 commits  not in the listing\n"
          + "ben       27..20  8 commits  2019-09-13 13:06:12Z → 2019-09-13 13:16:43Z  show system rollback 20 compare 28\n"))
    #expect(!r.out.contains("pending"))
    let pending = run(["timeline", "--commits", "\(fixtures)/commit-history/xml/napalm_junos_commit_confirm_pending.xml"])
    #expect(pending.status == 0)
    #expect(
      pending.out.hasPrefix(
        "admin  0..0    1 commit   2017-10-29 14:01:59Z  show system rollback 0 compare 1\n"
          + "(gap)  1..1    1 commit   not in the listing\n"))
    #expect(
      pending.out.hasSuffix(
        "\npending: commit 0 by admin (commit confirmed, rollback in 10mins) is rolled back at 2017-10-29 14:11:59 UTC unless it is confirmed\n"
      ))
    let html = run(["timeline", "--commits", "\(fixtures)/commit-history/xml/napalm_junos_commit_confirm_pending.xml", "-f", "html"])
    #expect(html.out.contains("<p class=\"w\">Pending: commit 0 by admin"))
    #expect(html.out.contains("<circle class=\"m q\""))
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

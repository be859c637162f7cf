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

import Testing

/// `junoscope log` on captured `show system commit` text.
@Suite struct LogCLITests {
  static let listing = """
    ben@switch> show system commit
    0   2019-11-13 15:06:51 GMT by katerina via cli
    1   2019-08-07 14:21:33 BST by stuart via cli commit confirmed, rollback in 3mins
        fix uplink
    2   2019-08-05 09:06:28 BST by stuart via netconf

    """

  @Test func filtersAndPlacesOnUTC() {
    let r = run(["log", "--commits", "-", "--author", "stuart", "--client", "cli"], stdin: Self.listing)
    #expect(r.status == 0)
    #expect(
      r.out == """
        1       2019-08-07 13:21:33Z  stuart via cli  (14:21:33 BST)  commit confirmed, rollback in 3mins
                fix uplink

        """)
    let since = run(["log", "--commits", "-", "--since", "2019-11-01", "-f", "json"], stdin: Self.listing)
    #expect(
      since.out.hasPrefix(
        #"{"commits":[{"index":0,"time":"2019-11-13T15:06:51Z","localTime":"2019-11-13 15:06:51","timeZone":"GMT","user":"katerina""#))
  }

  @Test func ambiguousZoneNeedsAnOffset() {
    let text = "0   2023-03-14 09:12:05 CST by ops via netconf\n"
    let r = run(["log", "--commits", "-"], stdin: text)
    #expect(r.status == 2)
    #expect(r.err.contains("<stdin>:1:1: error: time zone 'CST' is ambiguous"))
    let given = run(["log", "--commits", "-", "--utc-offset=-06:00"], stdin: text)
    #expect(given.status == 0)
    #expect(given.out.hasPrefix("0       2023-03-14 15:12:05Z  ops via netconf"))
    #expect(run(["log", "--commits", "-", "--since", "yesterday"], stdin: text).status == 64)
  }
}

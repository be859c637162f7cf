import Foundation
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
        #  Time (UTC)            Device time              User    Client  Comment
        1  2019-08-07 13:21:33Z  2019-08-07 14:21:33 BST  stuart  cli     commit confirmed, rollback in 3mins
           fix uplink

        """)
    let since = run(["log", "--commits", "-", "--since", "2019-11-01", "-f", "json"], stdin: Self.listing)
    #expect(
      since.out.hasPrefix(
        #"{"format":"junoscope.log","version":1,"commits":[{"index":0,"time":"2019-11-13T15:06:51Z","localTime":"2019-11-13 15:06:51","timeZone":"GMT","user":"katerina""#
      ))
  }

  @Test func windowBoundsIncludeWhatTheyNameAndAnInvertedWindowIsAUsageError() {
    func indices(_ args: [String]) -> String {
      run(["log", "--commits", "-"] + args, stdin: Self.listing).out.split(separator: "\n").filter { $0.first?.isNumber == true }
        .map { String($0.prefix(1)) }.joined()
    }
    // Commit 1 is at 2019-08-07 13:21:33Z: --until a date takes the whole day, HH:MM the whole minute.
    #expect(indices(["--until", "2019-08-07"]) == "12")
    #expect(indices(["--until", "2019-08-07 13:21"]) == "12")
    #expect(indices(["--until", "2019-08-07 13:20"]) == "2")
    #expect(indices(["--until", "2019-08-07 13:21:32"]) == "2")
    #expect(indices(["--since", "2019-08-07 13:21"]) == "01")
    let inverted = run(["log", "--commits", "-", "--since", "2019-11-13", "--until", "2019-08-01"], stdin: Self.listing)
    #expect(inverted.status == 64)
    #expect(inverted.err == "junoscope: error: --since 2019-11-13 is after --until 2019-08-01: the window is empty\n")
  }

  @Test func somethingThatIsNotAListingHasNoCommitEntries() throws {
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).txt").path
    try "".write(toFile: empty, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: empty) }
    for (path, kind) in [
      (fixtures + "/configs/curly/napalm_initial.conf", "a configuration"), (empty, "an empty file"),
      (fixtures + "/zoneinfo/Europe/London", "a binary file (byte 5 is not text)"),
    ] {
      for command in ["log", "timeline"] {
        let r = run([command, "--commits", path])
        #expect(r.status == 2)
        #expect(r.out == "")
        #expect(r.err == "junoscope: error: \(path): no commit entries: it is \(kind), not a 'show system commit' listing\n")
      }
    }
  }

  @Test func textShowsTheRescueEntryLast() {
    let listing = Self.listing + "rescue  2019-07-01 10:00:00 BST by ops via cli\n"
    let r = run(["log", "--commits", "-"], stdin: listing)
    #expect(r.status == 0)
    #expect(r.out.hasSuffix("\nrescue  2019-07-01 09:00:00Z  2019-07-01 10:00:00 BST  ops       cli\n"))
    // Filters apply to it as to the others.
    #expect(!run(["log", "--commits", "-", "--author", "stuart"], stdin: listing).out.contains("rescue"))
  }

  @Test func ambiguousZoneNeedsAnOffset() {
    let text = "0   2023-03-14 09:12:05 CST by ops via netconf\n"
    let r = run(["log", "--commits", "-"], stdin: text)
    #expect(r.status == 2)
    #expect(r.err.contains("<stdin>:1:1: error: time zone 'CST' is ambiguous"))
    let given = run(["log", "--commits", "-", "--utc-offset=-06:00"], stdin: text)
    #expect(given.status == 0)
    #expect(given.out.hasSuffix("\n0  2023-03-14 15:12:05Z  2023-03-14 09:12:05 CST  ops   netconf\n"))
    #expect(run(["log", "--commits", "-", "--since", "yesterday"], stdin: text).status == 64)
  }

  /// `--timezone` names the device's zone: CST is then Chicago's, and BST/GMT through the
  /// October change land where London put them.
  @Test func ianaTimeZone() {
    let cst = "0   2023-03-14 09:12:05 CST by ops via netconf\n"
    let chicago = run(["log", "--commits", "-", "--timezone", "America/Chicago", "-f", "json"], stdin: cst)
    #expect(chicago.status == 0, "\(chicago.err)")
    #expect(chicago.out.contains(#""time":"2023-03-14T14:12:05Z""#))
    let shanghai = run(["log", "--commits", "-", "--timezone", "Asia/Shanghai", "-f", "json"], stdin: cst)
    #expect(shanghai.out.contains(#""time":"2023-03-14T01:12:05Z""#))
    let overlap = "0   2019-10-27 01:30:00 GMT by a via cli\n1   2019-10-27 01:30:00 BST by b via cli\n"
    let london = run(["log", "--commits", "-", "--timezone", "Europe/London", "-f", "json"], stdin: overlap)
    #expect(london.out.contains(#""time":"2019-10-27T01:30:00Z""#) && london.out.contains(#""time":"2019-10-27T00:30:00Z""#))
    // A time the clocks skipped is an error, not a guess.
    let gap = run(["log", "--commits", "-", "--timezone", "Europe/London"], stdin: "0   2019-03-31 01:30:00 GMT by a via cli\n")
    #expect(gap.status == 2)
    #expect(run(["log", "--commits", "-", "--timezone", "Mars/Olympus"], stdin: cst).status == 2)
    #expect(run(["log", "--commits", "-", "--timezone", "../etc/passwd"], stdin: cst).status == 64)
    #expect(run(["log", "--commits", "-", "--timezone", "UTC", "--utc-offset", "+01:00"], stdin: cst).status == 64)
  }

  /// Without a listing, the saved rollbacks' `## Last commit` headers make one.
  @Test func listFromRollbackHeaders() {
    let r = run(["log", "--rollbacks", "\(fixtures)/rollbacks", "-f", "json"])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.hasPrefix(#"{"format":"junoscope.log","version":1,"commits":[{"index":0,"time":"2024-09-27T14:59:28Z""#))
    #expect(r.out.contains(#""user":"moro""#))
    let t = run(["timeline", "--rollbacks", "\(fixtures)/rollbacks"])
    #expect(t.status == 0)
    #expect(t.out.contains("show system rollback 0 compare 1"))
    #expect(run(["log"]).status == 64)
  }
}

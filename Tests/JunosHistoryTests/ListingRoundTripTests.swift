import Foundation
import JunosConfig
import JunosHistory
import JunoscopeTestSupport
import Testing

/// What the text form holds of an entry: everything but the instant, the revision and the line.
private func held(_ c: Commit) -> Commit {
  var c = c
  c.instant = nil
  c.revision = nil
  c.line = 0
  return c
}

/// Renders a history as a listing and reads it back with the text parser.
private func roundTrip(_ h: CommitHistory) -> (text: String, back: CommitHistory) {
  let bytes = h.renderListing()
  return (String(decoding: bytes, as: UTF8.self), CommitListParser.parse(SourceFile(path: "rendered", bytes: bytes)))
}

/// The fixture files of a directory under `Fixtures/commit-history`, sorted.
private func fixtureNames(_ directory: String) throws -> [String] {
  let url = Fixtures.root.appendingPathComponent("commit-history/\(directory)")
  return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix(".") }.sorted()
}

/// Random histories of entries the text form holds.
private struct HistoryGenerator {
  var rng: SplitMix64

  static let users = [
    "katerina", "root", "admin", "lab", "j.doe", "ops-bot", "user_1", "Ünïcødé", "ж", "名前", "o'brien", "a\"b", "x\ty", "#hash",
    "[edit]", "{master:0}", "by", "via", "rescue", "---(more)---", "0", "|", "🙂", "a;b{c}", "\u{301}accent", "e\u{600}", "\u{200D}z",
    "\u{FEFF}bom", "\tlead",
  ]
  static let zones = ["UTC", "GMT", "BST", "CET", "CEST", "EEST", "MSK", "+03", "-0330", "+05:30", "CST", "XYZ", "Z", "by", "\u{301}"]
  static let clients = ["cli", "netconf", "junoscript", "other", "autoinstall", "button", "rest", "jsd", "\u{301}x", "via"]
  static let comments = [
    "commit synchronize", "commit confirmed, rollback in 7mins", "commit confirmed, rollback in 10mins", "double  spaced  inside",
    "\ttab first", "ü comment", "# not a notice", "commit confirmed, rollback in 99999999999999999999mins", "\u{301} combining first",
    "by x via y", "commit confirmed, rollback in 1min",
  ]
  static let logLines = [
    "Initial configuration", "--clean start--", "Pushing config ... please wait", "two  spaces  inside", "résumé", "0 not an entry",
    "by via", "{master:0}", "[edit]", "root@r1> show system commit", "---(more)---", "# not a notice", "| pipe", "Possible completions:",
    "\u{301}combining first", "tab\tinside",
  ]

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
  mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

  /// A printed time `seconds` after 1970 (as if UTC), with the odd leap second.
  mutating func time(_ seconds: Int64) -> LocalTime {
    // iso8601UTC: Y-MM-DDTHH:MM:SSZ (the year as many digits as it has).
    let f = iso8601UTC(seconds).dropLast().split { $0 == "-" || $0 == "T" || $0 == ":" }.map { Int($0)! }
    var t = LocalTime(year: f[0], month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5])
    if chance(3) { t.second = 60 }
    return t
  }

  mutating func commit(index: Int?, at seconds: Int64) -> Commit {
    var comment: String? = nil
    if chance(40) {
      comment = chance(30) ? "commit confirmed, rollback in \(int(1...60))mins" : pick(Self.comments)
    }
    var log: String? = nil
    if chance(40) { log = (0..<int(1...3)).map { _ in pick(Self.logLines) }.joined(separator: "\n") }
    return Commit(
      index: index, localTime: time(seconds), timeZone: pick(Self.zones), user: pick(Self.users), client: pick(Self.clients),
      comment: comment, log: log)
  }

  mutating func history() -> CommitHistory {
    var h = CommitHistory()
    var index = int(0...2)
    // From years 0001 to 9999, mostly recent ones; the listing goes back in time.
    var seconds: Int64 =
      chance(10) ? Int64(int(-62_100_000_000...253_400_000_000)) : Int64(int(631_152_000...1_900_000_000))
    for _ in 0..<int(0...12) {
      h.commits.append(commit(index: index, at: seconds))
      index += chance(80) ? 1 : int(2...40)
      if chance(5) { index += 1000 }
      seconds -= Int64(chance(70) ? int(1...7200) : int(86_400...3 * 31_536_000))
      seconds = max(seconds, -62_135_596_800)  // 0001-01-01
    }
    if chance(50) { h.rescue = commit(index: nil, at: Int64(int(0...1_900_000_000))) }
    return h
  }
}

@Suite struct ListingRoundTripTests {
  @Test func textFixturesRoundTrip() throws {
    let names = try fixtureNames("text")
    #expect(names.count == 10)
    for name in names {
      let file = try Fixtures.source("commit-history/text/\(name)")
      let h = CommitListParser.parse(file)
      #expect(!h.commits.isEmpty, "\(name)")
      for c in h.commits { #expect(c.listingProblem == nil, "\(name): \(c)") }
      let (text, back) = roundTrip(h)
      #expect(back.diagnostics.map(\.rendered) == [], "\(name)")
      #expect(back.commits.map(held) == h.commits.map(held), "\(name)\n\(text)")
      #expect(back.rescue.map(held) == h.rescue.map(held), "\(name)")
      #expect(back.commits.map(\.confirmedMinutes) == h.commits.map(\.confirmedMinutes), "\(name)")
      // A second pass prints the same bytes.
      #expect(roundTrip(back).text == text, "\(name)")
    }
  }

  /// Where a capture prints the listing at column 0, the rendering is its entry and log lines
  /// byte for byte: Junos's padding (`0   `, `20  `), one space before the comment, logs
  /// indented by four.
  @Test func renderingMatchesTheDevicesSpacing() throws {
    for name in [
      "ben_blog_commit_confirmed_run_show_system_commit.txt", "dc-vmx-3_rest_junoscript.txt", "katerina_blog_show_system_commit.txt",
      "mb2-fw1b01_commit_comment.txt", "pytraining_commit_confirmed_cet.txt", "srx1-right_show_system_commit_with_comments.txt",
      "terraform_eest_commit_synchronize.txt",
    ] {
      let file = try Fixtures.source("commit-history/text/\(name)")
      let original = String(decoding: file.bytes, as: UTF8.self).split(separator: "\n").map(String.init).filter {
        $0.first?.isNumber == true || $0.hasPrefix("rescue") || $0.hasPrefix("    ")
      }
      let rendered = roundTrip(CommitListParser.parse(file)).text
      #expect(rendered.split(separator: "\n").map(String.init) == original, "\(name)")
    }
    let h = CommitHistory(
      commits: [
        Commit(
          index: 9, localTime: LocalTime(year: 2019, month: 1, day: 2, hour: 3, minute: 4, second: 5), timeZone: "UTC", user: "a",
          client: "cli"),
        Commit(
          index: 120, localTime: LocalTime(year: 987, month: 1, day: 2, hour: 3, minute: 4, second: 5), timeZone: "UTC", user: "a",
          client: "cli"),
        Commit(
          index: 1234, localTime: LocalTime(year: 2019, month: 1, day: 2, hour: 3, minute: 4, second: 5), timeZone: "UTC", user: "a",
          client: "cli", comment: "", log: ""),
      ],
      rescue: Commit(
        index: nil, localTime: LocalTime(year: 2019, month: 12, day: 10, hour: 16, minute: 33, second: 58), timeZone: "UTC", user: "root",
        client: "cli", log: "one\ntwo"))
    #expect(
      roundTrip(h).text == """
        9   2019-01-02 03:04:05 UTC by a via cli
        120 0987-01-02 03:04:05 UTC by a via cli
        1234 2019-01-02 03:04:05 UTC by a via cli
        rescue  2019-12-10 16:33:58 UTC by root via cli
            one
            two

        """)
    #expect(CommitHistory().renderListing() == [])
  }

  /// The XML form's entries come back from the text form but for what it does not print: the
  /// `seconds` attribute (``Commit/instant``, set again by placing the printed zone) and the
  /// revision.
  @Test func xmlFixturesAsText() throws {
    let names = try fixtureNames("xml")
    #expect(names.count == 3)
    for name in names {
      let file = try Fixtures.source("commit-history/xml/\(name)")
      let h = CommitHistory.read(file)
      #expect(h.diagnostics.isEmpty && !h.commits.isEmpty, "\(name)")
      for c in h.commits {
        #expect(c.listingProblem == nil, "\(name): \(c)")
        #expect(c.instant != nil, "\(name)")
      }
      let (text, parsed) = roundTrip(h)
      var back = parsed
      #expect(back.diagnostics.isEmpty, "\(name)")
      #expect(back.commits.map(held) == h.commits.map(held), "\(name)\n\(text)")
      #expect(back.commits.allSatisfy { $0.instant == nil && $0.revision == nil }, "\(name)")
      // These fixtures print UTC and MSK: the printed zone places them where `seconds` did.
      TimePlacement.place(&back, file: SourceFile(path: "rendered", text: text))
      #expect(back.commits.map(\.instant) == h.commits.map(\.instant), "\(name)")
    }
  }

  @Test func generatedHistoriesRoundTrip() {
    var generator = HistoryGenerator(rng: SplitMix64(seed: 0x4A75_6E6F_7363_6F70))
    var entries = 0
    var rescues = 0
    var logs = 0
    var confirmed = 0
    for k in 0..<400 {
      let h = generator.history()
      let all = h.commits + (h.rescue.map { [$0] } ?? [])
      let problems = all.compactMap(\.listingProblem)
      #expect(problems.isEmpty, "history \(k): \(problems)")
      let (text, back) = roundTrip(h)
      #expect(back.diagnostics.map(\.rendered) == [], "history \(k)\n\(text)")
      #expect(back.commits.map(held) == h.commits, "history \(k)\n\(text)")
      #expect(back.rescue.map(held) == h.rescue, "history \(k)\n\(text)")
      entries += all.count
      rescues += h.rescue == nil ? 0 : 1
      logs += all.filter { $0.log?.contains("\n") == true }.count
      confirmed += all.filter { $0.confirmedMinutes != nil }.count
    }
    // The generator did reach the interesting cases.
    #expect(entries > 2000 && rescues > 150 && logs > 200 && confirmed > 200)
  }

  /// Each entry ``Commit/listingProblem`` refuses does come back different (the rule is not
  /// stricter than the parser), and alone.
  @Test func whatTheTextFormCannotHold() {
    let t = LocalTime(year: 2020, month: 1, day: 2, hour: 3, minute: 4, second: 5)
    func entry(
      index: Int? = 0, time: LocalTime? = nil, zone: String = "UTC", user: String = "u", client: String = "cli", comment: String? = nil,
      log: String? = nil
    ) -> Commit {
      Commit(index: index, localTime: time ?? t, timeZone: zone, user: user, client: client, comment: comment, log: log)
    }
    var minutes = entry(comment: "commit confirmed, rollback in 5mins")
    minutes.confirmedMinutes = 6
    let refused: [Commit] = [
      entry(index: -1), entry(time: LocalTime(year: 10_000, month: 1, day: 1, hour: 0, minute: 0, second: 0)),
      entry(time: LocalTime(year: 2020, month: 13, day: 1, hour: 0, minute: 0, second: 0)), entry(zone: ""), entry(zone: "U C"),
      entry(user: "a b"), entry(user: "a\nb"), entry(user: "a\rb"), entry(user: ""), entry(client: "cli\t"), entry(client: "c\nli"),
      entry(comment: ""), entry(comment: " lead"), entry(comment: "trail "), entry(comment: "trail\t"), entry(comment: "two\nlines"),
      entry(comment: "cr\rinside"), entry(log: ""), entry(log: "a\n\nb"), entry(log: " lead"), entry(log: "trail\t"), entry(log: "a\r\nb"),
      entry(log: "1   2020-01-01 00:00:00 UTC by x via cli"), entry(log: "ok\nrescue 2020-01-01 00:00:00 UTC by x via cli"), minutes,
    ]
    for c in refused {
      #expect(c.listingProblem != nil, "\(c)")
      let back = roundTrip(CommitHistory(commits: [c])).back
      #expect(back.commits.map(held) != [held(c)] || !back.diagnostics.isEmpty, "\(c)")
    }
    // A tab ends a client well enough when a comment follows it.
    #expect(entry(client: "cli\t", comment: "x").listingProblem == nil)
    #expect(
      roundTrip(CommitHistory(commits: [entry(client: "cli\t", comment: "x")])).back.commits.map(held) == [
        entry(client: "cli\t", comment: "x")
      ])
  }

  // Regressions found by the round trip and the `history` fuzz target.

  /// Words are split at spaces as scalars: a combining mark after a space used to merge with it
  /// into one character, so `by \u{301}x` was no `by` and the entry was not read.
  @Test func combiningMarkAfterASpaceStartsAWord() {
    let text = "0   2020-01-02 03:04:05 UTC by \u{301}x via cli \u{301}note\n1   2020-01-01 00:00:00 \u{301} by e\u{600} via \u{301}c\n"
    let h = CommitListParser.parse(SourceFile(path: "t", text: text))
    #expect(h.diagnostics.isEmpty)
    #expect(h.commits.map(\.user) == ["\u{301}x", "e\u{600}"])
    #expect(h.commits.map(\.comment) == ["\u{301}note", nil])
    #expect(h.commits.map(\.timeZone) == ["UTC", "\u{301}"])
    #expect(h.commits.map(\.client) == ["cli", "\u{301}c"])
    #expect(String(decoding: h.renderListing(), as: UTF8.self) == text)
  }

  /// An index past ``CommitListParser/maxIndex`` trapped in `timelineJSON` (`older + 1` of the
  /// range) and in `batches` (`index + 1`): the text form reads no entry from it, the XML form
  /// reports it like a missing sequence number.
  @Test func hugeIndicesAreNotRead() {
    let text = SourceFile(
      path: "t",
      text: """
        9223372036854775807   2019-01-01 00:00:00 UTC by a via cli
        2147483648   2019-01-01 00:00:00 UTC by a via cli
        2147483647   2019-01-01 00:00:00 UTC by a via cli
        2147483646   2019-01-01 00:00:00 UTC by a via cli

        """)
    var h = CommitListParser.parse(text)
    TimePlacement.place(&h, file: text)
    #expect(h.commits.map(\.index) == [2_147_483_647, 2_147_483_646])
    #expect(h.diagnostics.map(\.severity) == [.warning, .warning])
    let batches = h.batches(gap: 600)
    #expect(
      batches.map(\.range.deviceCommand) == [
        "(no on-box command: rollback 2147483648, before commit 2147483647, is not kept on the box)"
      ])
    _ = CommitHistory.timelineJSON(batches)
    func xml(_ seq: String) -> SourceFile {
      SourceFile(
        path: "x",
        text: "<commit-information><commit-history><sequence-number>\(seq)</sequence-number><user>a</user><client>cli</client>"
          + "<date-time>2019-01-01 00:00:00 UTC</date-time></commit-history></commit-information>")
    }
    for seq in ["9223372036854775807", "-9223372036854775808", "-1", "2147483648"] {
      let x = CommitHistory.read(xml(seq))
      #expect(x.commits.isEmpty, "\(seq)")
      #expect(x.diagnostics.map(\.message) == ["<commit-history> without <sequence-number>"], "\(seq)")
    }
    #expect(CommitHistory.read(xml("+7")).commits.map(\.index) == [7])
  }

  /// A `seconds` attribute far outside the printed years overflowed `batches(gap:)` (the
  /// difference of two instants): it is not taken, and the printed time is placed instead.
  @Test func absurdXMLSecondsAreNotTaken() {
    func entry(_ index: Int, _ seconds: String) -> String {
      "<commit-history><sequence-number>\(index)</sequence-number><user>a</user><client>cli</client>"
        + "<date-time junos:seconds=\"\(seconds)\">2017-10-29 14:02:54 UTC</date-time></commit-history>"
    }
    let file = SourceFile(
      path: "x",
      text: "<commit-information>" + entry(0, "9223372036854775807") + entry(1, "-9223372036854775808") + entry(2, "253402300799")
        + entry(3, "-62167219200") + entry(4, "253402300800") + "</commit-information>")
    var h = CommitHistory.read(file)
    #expect(h.diagnostics.isEmpty)
    #expect(h.commits.map(\.instant) == [nil, nil, 253_402_300_799, -62_167_219_200, nil])
    TimePlacement.place(&h, file: file)
    #expect(h.commits.map(\.instant) == [1_509_285_774, 1_509_285_774, 253_402_300_799, -62_167_219_200, 1_509_285_774])
    #expect(h.batches(gap: 600).map(\.range.description) == ["4..3", "2..0"])
  }

}

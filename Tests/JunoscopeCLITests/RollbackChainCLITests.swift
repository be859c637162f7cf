import Foundation
import JunosHistory
import JunoscopeTestSupport
import Testing

/// End to end over a generated chain of 50 rollbacks written as the device stores them
/// (`juniper.conf.gz`, `juniper.conf.N.gz`).
@Suite struct RollbackChainCLITests {
  static let chain = RollbackChain(seed: 2026, commits: 50, interfaces: 10, editsPerCommit: 1...4)

  /// Writes the chain's rollbacks (and its `show system commit` listing as `commits.txt`).
  static func write(only: [Int]? = nil) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-chain-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for n in only ?? Array(0..<50) {
      let name = n == 0 ? "juniper.conf.gz" : "juniper.conf.\(n).gz"
      try Data(Gzip.compress(Array(chain.rollbacks[n].utf8))).write(to: dir.appendingPathComponent(name))
    }
    try Data(chain.listing.utf8).write(to: dir.appendingPathComponent("commits.txt"))
    return dir.path
  }

  static func file(_ dir: String, _ n: Int) -> String { "\(dir)/" + (n == 0 ? "juniper.conf.gz" : "juniper.conf.\(n).gz") }

  /// `diff X..Y` is `compare` of rollback X+1 and rollback Y, for every range the device can show.
  @Test func everyRangeIsTheCompareOfItsRollbacks() throws {
    let dir = try Self.write()
    var checked = 0
    for older in 0...48 {
      for newer in 0...older {
        let d = run(["diff", "\(older)..\(newer)", "--rollbacks", dir])
        let c = run(["compare", Self.file(dir, older + 1), Self.file(dir, newer)])
        #expect(d.status == 0)
        #expect(d.err == "junoscope: commits \(older)..\(newer): show system rollback \(newer) compare \(older + 1)\n")
        #expect(d.out == c.out, "commits \(older)..\(newer)")
        #expect(c.status == (c.out.isEmpty ? 0 : 1))
        checked += 1
      }
    }
    #expect(checked == 1225)
    // Either order, and the set form too.
    #expect(
      run(["diff", "3..9", "--rollbacks", dir, "-f", "set"]).out
        == run(["compare", "-f", "set", Self.file(dir, 10), Self.file(dir, 3)]).out)
    #expect(run(["diff", "9..3", "--rollbacks", dir]).out == run(["diff", "3..9", "--rollbacks", dir]).out)
    // What commit 49 did needs rollback 50.
    let last = run(["diff", "49", "--rollbacks", dir])
    #expect(last.status == 2)
    #expect(
      last.err.contains(
        "the changes of commit 49 need rollback 50, the configuration before it, which the device does not keep (rollbacks 0–49)"))
  }

  /// By author and by time window, through the listing and through the headers alone.
  @Test func authorsAndWindows() throws {
    let dir = try Self.write()
    let listing = try #require(CommitHistory.read(.init(path: "c", bytes: Array(Self.chain.listing.utf8))).commits.first)
    let batch = try #require(
      {
        var h = CommitHistory.read(.init(path: "c", bytes: Array(Self.chain.listing.utf8)))
        TimePlacement.place(&h, file: .init(path: "c", bytes: []))
        return h.batches().last { $0.user == listing.user }
      }())
    for source in [["--commits", "\(dir)/commits.txt"], []] {
      let r = run(["diff", "--author", listing.user, "--rollbacks", dir] + source)
      #expect(r.status == 0)
      #expect(r.err == "junoscope: commits \(batch.range) by \(listing.user): \(batch.range.deviceCommand)\n")
      #expect(r.out == run(["diff", "\(batch.range)", "--rollbacks", dir]).out)
    }
    // A window: commits 12..7 by their times.
    let since = Self.chain.commits[12].time
    let until = Self.chain.commits[7].time
    let w = run(["diff", "--since", since, "--until", until, "--rollbacks", dir])
    #expect(w.status == 0)
    #expect(w.err == "junoscope: commits 12..7 (6 commits in the window): show system rollback 7 compare 13\n")
    #expect(w.out == run(["diff", "12..7", "--rollbacks", dir]).out)
    #expect(run(["diff", "--since", "2030-01-01", "--rollbacks", dir]).status == 2)
  }

  /// With only the oldest rollback and each commit's compare capture, ranges are composed by
  /// applying the captures, and give the same text.
  @Test func rangesComposedFromCompareCaptures() throws {
    let full = try Self.write()
    let dir = try Self.write(only: [49])
    for n in 0...48 {
      let c = run(["compare", Self.file(full, n + 1), Self.file(full, n)])
      let name = n % 2 == 0 ? "commit-\(n).diff" : "rollback-\(n)-compare-\(n + 1).txt"
      try Data(("user@r1> show system rollback \(n) compare \(n + 1)\n" + c.out).utf8).write(
        to: URL(fileURLWithPath: dir).appendingPathComponent(name))
    }
    // Composed rollbacks are the same configurations; statements whose order does not count
    // (interfaces, routes) may sit elsewhere, so the set commands are compared as a set.
    func lines(_ r: (status: Int32, out: String, err: String)) -> [Substring] { r.out.split(separator: "\n").sorted() }
    for (older, newer) in [(48, 0), (31, 28), (5, 5), (0, 0), (20, 3), (48, 47)] {
      let composed = run(["diff", "\(older)..\(newer)", "--rollbacks", dir, "-f", "set"])
      #expect(composed.status == 0, "\(composed.err)")
      #expect(lines(composed) == lines(run(["diff", "\(older)..\(newer)", "--rollbacks", full, "-f", "set"])), "\(older)..\(newer)")
      #expect(composed.err.contains("junoscope: rollback \(newer) composed from rollback 49 and "))
    }
    #expect(
      run(["diff", "48", "--rollbacks", dir]).err
        == "junoscope: rollback 48 composed from rollback 49 and commit-48.diff\njunoscope: commits 48..48: show system rollback 48 compare 49\n"
    )
    // A capture that does not apply is an error, not a guess.
    try Data("[edit system]\n-  host-name nowhere;\n".utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent("commit-10.diff"))
    let bad = run(["diff", "10", "--rollbacks", dir])
    #expect(bad.status == 2)
    // A capture whose echoed command contradicts its name is refused, not applied as named.
    let capture = URL(fileURLWithPath: dir).appendingPathComponent("rollback-13-compare-14.txt")
    let text = try String(contentsOf: capture, encoding: .utf8)
    try text.replacing("show system rollback 13 compare 14", with: "show system rollback 14 compare 15").write(
      to: capture, atomically: true, encoding: .utf8)
    let named = run(["diff", "13", "--rollbacks", dir])
    #expect(named.status == 2)
    #expect(
      named.err.hasSuffix(
        "rollback-13-compare-14.txt: the capture's command is 'show system rollback 14 compare 15', but its name says rollback 13 compare 14\n"
      ))
  }

  /// With rollbacks 1–9 missing and no captures, what commits 0–9 did is the span `0..9`: its
  /// `candidates` are all ten commits, `commits` holds the listing's entry of each, and the text
  /// names every user of the span, newest first, over the range of their times — or, from the
  /// rollbacks' headers alone (commit 0's), commit 0's user and a `?` for the others.
  @Test func blameSpansNameEveryCandidate() throws {
    let dir = try Self.write(only: [0] + Array(10..<50))
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let chain = Self.chain
    let r = run(["blame", "--rollbacks", dir, "--commits", "\(dir)/commits.txt", "-f", "json"])
    #expect(r.status == 0, "\(r.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let statements = try #require(json["statements"] as? [[String: Any]])
    var candidates = Set<Int>()
    var spans = 0
    for s in statements {
      let commit = try #require(s["commit"] as? Int)
      let oldest = try #require(s["oldestCommit"] as? Int)
      let list = try #require(s["candidates"] as? [Int])
      #expect(list == Array(commit...oldest))
      if oldest > commit {
        spans += 1
        #expect((commit, oldest) == (0, 9))
      }
      candidates.formUnion(list)
    }
    #expect(spans > 0)
    let commits = try #require(json["commits"] as? [[String: Any]])
    #expect(Set(commits.compactMap { $0["index"] as? Int }) == candidates)
    #expect(candidates.isSuperset(of: 0...9))
    #expect(commits.allSatisfy { $0["user"] is String && $0["time"] is String })

    var users: [String] = []
    for c in chain.commits[0...9] where !users.contains(c.user) { users.append(c.user) }
    let newest = String(chain.commits[0].time.prefix(16))
    let oldest = String(chain.commits[9].time.prefix(16))
    let range = oldest + ".." + (oldest.prefix(10) == newest.prefix(10) ? newest.suffix(5) : newest.dropFirst(5))
    // The cells of every row of the span, spaces collapsed.
    func spanCells(_ text: String) -> Set<String> {
      var out = Set<String>()
      for line in text.split(separator: "\n") {
        let cells = line.prefix(upTo: line.range(of: " | ")!.lowerBound).split(separator: " ")
        if cells.first == "0..9" { out.insert(cells.joined(separator: " ")) }
      }
      return out
    }
    let listed = run(["blame", "--rollbacks", dir, "--commits", "\(dir)/commits.txt"])
    #expect(listed.status == 0)
    #expect(spanCells(listed.out) == ["0..9 \(users.joined(separator: ",")) \(range)"])
    let headers = run(["blame", "--rollbacks", dir])
    #expect(headers.status == 0)
    #expect(spanCells(headers.out) == ["0..9 \(chain.commits[0].user),? \(newest)"])
    // The oldest rollback's statements: there by commit 49's time.
    let first = try #require(headers.out.split(separator: "\n").first)
    #expect(first.split(separator: " ").prefix(5).joined(separator: " ") == "^49 (earlier) ≤ \(chain.commits[49].time.prefix(16))")
  }

  /// `blame` attributes every statement of rollback 0 as the generator recorded — with all 50
  /// rollbacks, and with rollbacks 1–9 missing but their commits' compare captures there.
  @Test(arguments: [false, true])
  func blameMatchesTheGeneratorsRecord(composing: Bool) throws {
    let dir = try Self.write(only: composing ? [0] + Array(10..<50) : nil)
    if composing {
      let full = try Self.write()
      for n in 1...9 {
        let c = run(["compare", Self.file(full, n + 1), Self.file(full, n)])
        try Data(c.out.utf8).write(to: URL(fileURLWithPath: dir).appendingPathComponent("commit-\(n).diff"))
      }
    }
    let r = run(["blame", "--rollbacks", dir, "--commits", "\(dir)/commits.txt", "-f", "json"])
    #expect(r.err == (composing ? "junoscope: rollbacks 1, 2, 3, 4, 5, 6, 7, 8, 9 composed from compare captures\n" : ""))
    #expect(r.status == 0, "\(r.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let statements = try #require(json["statements"] as? [[String: Any]])
    #expect(statements.count == Self.chain.record.count)
    // The record's keys in the JSON's terms: the parent's path in set form, then the statement.
    var want: [String: Int] = [:]
    for (key, commit) in Self.chain.record {
      let lines = key.components(separatedBy: " \u{1F} ")
      want[lines.dropLast().joined(separator: " ") + " | " + lines.last!] = commit
    }
    var wrong: [String] = []
    for s in statements {
      let statement = (s["statement"] as! String).replacingOccurrences(of: "inactive: ", with: "")
      let key = (s["path"] as! String) + " | " + statement
      let commit = s["commit"] as! Int
      let boundary = s["boundary"] as! Bool
      guard let w = want[key] else {
        wrong.append("unknown \(key)")
        continue
      }
      if w != commit || boundary != (w == 49) { wrong.append("\(key): \(commit) vs \(w)") }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    let commits = try #require(json["commits"] as? [[String: Any]])
    #expect(commits.allSatisfy { $0["user"] is String && $0["time"] is String })
    // Text: one row per line of the configuration, closing braces without a commit.
    let text = run(["blame", "--rollbacks", dir])
    #expect(text.status == 0)
    // (The `## Last commit` header is not a statement.)
    #expect(text.out.split(separator: "\n").count == run(["show", Self.file(dir, 0)]).out.split(separator: "\n").count - 1)
    let sub = run(["blame", "--rollbacks", dir, "protocols", "ospf"])
    #expect(sub.out.split(separator: "\n").first?.hasSuffix("| [edit protocols]") == true)
    #expect(run(["blame", "--rollbacks", dir, "protocols", "bgp"]).status == 2)
  }

  /// Without a listing, rollbacks missing from the folder are commits whose author is unknown:
  /// `log` and `timeline` show them, and no author's batch spans them.
  @Test func missingRollbacksAreUnknownCommits() throws {
    let dir = try Self.write(only: Array(0..<50).filter { $0 != 7 && $0 != 8 })
    try FileManager.default.removeItem(atPath: "\(dir)/commits.txt")
    let log = run(["log", "--rollbacks", dir])
    #expect(log.status == 0)
    #expect(
      log.err
        == "junoscope: nothing in '\(dir)' says who made commits 7, 8 or when (rollbacks missing or saved without '## Last commit'): shown as user '?'; give --commits FILE for the whole listing\n"
    )
    let lines = log.out.split(separator: "\n").dropFirst().filter { !$0.hasPrefix(" ") }
    #expect(lines.count == 50)
    #expect(lines.filter { $0.contains("who and when not known") }.map { String($0.prefix(2)) } == ["7 ", "8 "])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run(["log", "--rollbacks", dir, "-f", "json"]).out.utf8)) as? [String: Any])
    let commits = try #require(json["commits"] as? [[String: Any]])
    #expect(commits.count == 50)
    #expect(commits.filter { $0["user"] is NSNull }.map { $0["index"] as! Int } == [7, 8])
    // The timeline has a batch of the two unknown commits; no batch of a known author crosses them.
    let t = try #require(
      try JSONSerialization.jsonObject(with: Data(run(["timeline", "--rollbacks", dir, "-f", "json"]).out.utf8)) as? [String: Any])
    let batches = try #require(t["batches"] as? [[String: Any]])
    #expect(batches.filter { $0["user"] as? String == "?" }.map { "\($0["first"]!)..\($0["last"]!)" } == ["8..7"])
    #expect(batches.allSatisfy { b in (b["user"] as? String == "?") || !((b["last"] as! Int)...(b["first"] as! Int)).overlaps(7...8) })
    #expect(batches.map { $0["commits"] as! Int }.reduce(0, +) == 50)
    // A window around them: their changes are in the diff, and the message says so.
    let w = run(["diff", "--since", Self.chain.commits[10].time, "--until", Self.chain.commits[5].time, "--rollbacks", dir])
    #expect(w.status == 0)
    #expect(
      w.err.hasSuffix(
        "junoscope: commits 10..5 (4 commits in the window; also commits 7, 8, whose time is not known): show system rollback 5 compare 11\n"
      ))
  }

  /// A listing captured a commit before (or after) the rollbacks is refused: every batch would
  /// go to the wrong author.
  @Test func listingOfOtherCommitsIsRefused() throws {
    let dir = try Self.write()
    let earlier = Self.chain.commits.dropFirst().map { c in
      var c = c
      c.index -= 1
      return c
    }
    try Data(RollbackChain.listing(earlier).utf8).write(to: URL(fileURLWithPath: "\(dir)/earlier.txt"))
    let user = Self.chain.commits[1].user
    for command in [["diff", "--author", user], ["timeline"], ["log"], ["blame"]] {
      let r = run(command + ["--rollbacks", dir, "--commits", "\(dir)/earlier.txt"])
      #expect(r.status == 2, "\(command)")
      #expect(
        r.err.contains("'\(dir)/earlier.txt' is not the commit list of the rollbacks in '\(dir)': rollback 49's header says"), "\(command)")
      #expect(r.err.hasSuffix("the listing is 1 commit older than the rollbacks; capture both at the same time\n"), "\(command)")
    }
    // The listing taken with them is used.
    #expect(run(["timeline", "--rollbacks", dir, "--commits", "\(dir)/commits.txt"]).status == 0)
  }
}

import Foundation
import JunosChecklist
import JunosConfig
import JunosHistory
import JunosReview
import JunoscopeTestSupport
import Testing

/// A generated chain of rollbacks in a temporary folder.
func chainFolder(_ chain: RollbackChain) throws -> String {
  let dir = NSTemporaryDirectory() + "junoscope-review-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  for (n, text) in chain.rollbacks.enumerated() {
    try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/rollback-\(n).conf"))
  }
  return dir
}

func folderSource(_ device: String, _ dir: String) -> ReviewSource {
  ReviewSource(device: device, kind: "rollbacks", location: dir) { () throws(StoreError) in try RollbackFolder(path: dir) }
}

struct ReviewTests {
  static let chain = RollbackChain(seed: 5, commits: 12, interfaces: 6, editsPerCommit: 1...3)
  /// 2024-01-01 00:00:00 UTC, the chain's first commit.
  static let start: Int64 = 1_704_067_200

  @Test func wholeHistoryBatchesBlameAndDiffs() throws {
    let dir = try chainFolder(Self.chain)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let report = Review.run(
      window: ReviewWindow(since: Self.start, until: Self.start + 86_400 * 30), sources: [folderSource("r5", dir)])
    let d = try #require(report.devices.first)
    #expect(d.status == .changed)
    #expect(d.commits.map(\.rollback) == Array(0..<12).reversed())
    #expect(d.commits.map(\.user) == Self.chain.commits.reversed().map(\.user))
    // Batches: runs of one author, oldest first, covering every commit once.
    #expect(d.batches.flatMap { $0.commits.map(\.rollback) } == Array(0..<12).reversed())
    for (a, b) in zip(d.batches, d.batches.dropFirst()) { #expect(a.author != b.author) }
    // The oldest commit has no configuration before it; every other batch has a diff.
    #expect(d.batches[0].diff == nil && d.batches[0].note != nil)
    for b in d.batches.dropFirst() {
      let diff = try #require(b.diff)
      #expect(diff.hasPrefix("[edit"))
      // Blame names commits older than the batch.
      for x in b.blame { #expect(x.commit > b.commits[0].rollback, "\(x)") }
    }
    #expect(d.batches.dropFirst().contains { !$0.blame.isEmpty })
  }

  @Test func windowLeavesOutOtherCommits() throws {
    let dir = try chainFolder(Self.chain)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Commits 3…0, by their listed times.
    let since = try #require(instant(Self.chain.commits[3].time))
    let report = Review.run(window: ReviewWindow(since: since, until: since + 86_400 * 30), sources: [folderSource("r5", dir)])
    let d = try #require(report.devices.first)
    #expect(d.commits.map(\.rollback) == [3, 2, 1, 0])
    #expect(d.batches.allSatisfy { $0.diff != nil })
    let none = Review.run(window: ReviewWindow(since: 0, until: Self.start - 1), sources: [folderSource("r5", dir)])
    #expect(none.devices.map(\.status) == [.unchanged])
    #expect(none.devices[0].commits.isEmpty)
  }

  @Test func unreadableSourceIsFailedAndDevicesAreSorted() throws {
    let dir = try chainFolder(Self.chain)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let report = Review.run(
      window: ReviewWindow(since: Self.start, until: Self.start + 86_400 * 30),
      sources: [folderSource("zz", dir), folderSource("aa", dir + "/missing"), folderSource("mm", dir)],
      options: ReviewOptions(workers: 3))
    #expect(report.devices.map(\.name) == ["aa", "mm", "zz"])
    guard case .failed(let why) = report.devices[0].status else {
      Issue.record("a missing folder was not a failure")
      return
    }
    #expect(why.contains("missing"))
    #expect(report.failed.map(\.name) == ["aa"])
    #expect(
      report.devices[1]
        == ReviewDevice(
          name: "zz", kind: "rollbacks", location: dir, status: report.devices[2].status,
          commits: report.devices[2].commits, batches: report.devices[2].batches, notes: report.devices[2].notes
        ).with(name: "mm"))
  }

  /// The review prepares each configuration for the checklist once and reuses it for the next
  /// batch: every batch's findings are what a fresh lint of its two configurations finds.
  @Test func findingsAreAFreshLintOfEachBatch() throws {
    let chain = RollbackChain(seed: 11, commits: 16, interfaces: 8, editsPerCommit: 2...4)
    let dir = try chainFolder(chain)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let report = Review.run(window: ReviewWindow(since: Self.start, until: Self.start + 86_400 * 60), sources: [folderSource("r", dir)])
    let d = try #require(report.devices.first)
    var compared = 0
    var found = 0
    for b in d.batches where b.diff != nil {
      let base = b.commits.map(\.rollback).max()! + 1
      let result = b.commits.map(\.rollback).min()!
      let before = SourceFile(path: "rollback \(base)", text: chain.rollbacks[base])
      let after = SourceFile(path: "rollback \(result)", text: chain.rollbacks[result])
      let fresh = Checklist.lint(
        before: ConfigParser.parse(before).tree, beforeFile: before, after: ConfigParser.parse(after).tree, afterFile: after)
      func key(_ rule: String, _ message: String) -> String { rule + " " + message }
      #expect(b.findings.map { key($0.rule, $0.message) }.sorted() == fresh.findings.map { key($0.rule.rawValue, $0.message) }.sorted())
      // Errors first, then warnings, then infos.
      #expect(b.findings.map(\.severity) == b.findings.map(\.severity).sorted(by: >))
      compared += 1
      found += b.findings.count
    }
    #expect(compared == d.batches.count - 1)
    #expect(found > 0)
  }

  /// A change to a group is reported with what it reaches on the device.
  @Test func aGroupChangeSaysWhatItTouched() throws {
    func config(mtu: Int, header: String) -> String {
      """
      \(header)
      system { host-name r1; }
      groups { CORE-IF { interfaces { <ge-*> { mtu \(mtu); } } } }
      interfaces {
          apply-groups CORE-IF;
          ge-0/0/0 { unit 0 { family inet { address 10.0.0.1/31; } } }
          ge-0/0/1 { unit 0 { family inet { address 10.0.0.3/31; } } }
          ge-0/0/2 { unit 0 { family inet { address 10.0.0.5/31; } } }
          xe-0/1/0 { unit 0 { family inet { address 10.0.1.1/31; } } }
      }

      """
    }
    let dir = NSTemporaryDirectory() + "junoscope-review-group-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Data(config(mtu: 9192, header: "## Last commit: 2024-01-01 10:00:00 UTC by alice").utf8).write(
      to: URL(fileURLWithPath: dir + "/juniper.conf.1"))
    try Data(config(mtu: 1500, header: "## Last commit: 2024-01-02 10:00:00 UTC by bob").utf8).write(
      to: URL(fileURLWithPath: dir + "/juniper.conf"))
    let report = Review.run(window: ReviewWindow(since: Self.start, until: Self.start + 86_400 * 2), sources: [folderSource("r1", dir)])
    let batch = try #require(report.devices.first?.batches.last)
    #expect(batch.author == "bob")
    let reach = batch.findings.filter { $0.rule == "group-change-reach" }
    #expect(
      reach.map(\.message) == ["this change to group 'CORE-IF' touched 3 interfaces on r1 (ge-0/0/0, ge-0/0/1, ge-0/0/2)"])
    #expect(reach.allSatisfy { $0.severity == .info })
  }

  @Test func shardsSplitEveryNameOnce() {
    let names = (0..<200).map { "r\($0)" }
    let shards = (1...4).map { k in names.filter { ReviewShard.contains($0, shard: k, of: 4) } }
    #expect(shards.flatMap { $0 }.sorted() == names.sorted())
    #expect(shards.allSatisfy { !$0.isEmpty })
    // FNV-1a 64 of "a" (the published test vector).
    #expect(ReviewShard.hash("a") == 0xaf63_dc4c_8601_ec8c)
  }

  @Test func lintOverTwoTreesFindsADetachedPolicy() {
    let before = SourceFile(
      path: "before",
      text: """
        protocols { bgp { group UP { type external; export EXPORT; import IMPORT; neighbor 192.0.2.1 { peer-as 65001; } } } }
        policy-options { policy-statement EXPORT { then reject; } policy-statement IMPORT { then reject; } }
        """)
    let after = SourceFile(
      path: "after",
      text: """
        protocols { bgp { group UP { type external; neighbor 192.0.2.1 { peer-as 65001; } } } }
        policy-options { policy-statement EXPORT { then reject; } policy-statement IMPORT { then reject; } }
        """)
    let a = ConfigParser.parse(before).tree
    let b = ConfigParser.parse(after).tree
    let result = Checklist.lint(before: a, beforeFile: before, after: b, afterFile: after)
    #expect(!result.findings.isEmpty)
    #expect(result.findings.contains { $0.severity >= .warning })
    #expect(Checklist.lint(before: a, beforeFile: before, after: a, afterFile: before).findings.isEmpty)
  }
}

extension ReviewDevice {
  func with(name: String) -> ReviewDevice {
    var d = self
    d.name = name
    return d
  }
}

/// `YYYY-MM-DD HH:MM:SS` (UTC) as seconds.
func instant(_ s: String) -> Int64? {
  let p = s.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).compactMap { Int($0) }
  guard p.count == 6 else { return nil }
  return LocalTime(year: p[0], month: p[1], day: p[2], hour: p[3], minute: p[4], second: p[5]).secondsAsUTC
}

import Foundation
import JunosConfig
import JunosDiff
import JunosHistory
import Testing

@Suite struct RollbackFileTests {
  func bytes(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: Fixtures.root.appendingPathComponent(relative)))
  }

  @Test func gzipRollbacksReadAsTheirSources() throws {
    for (gz, source) in [
      ("rollbacks/juniper.conf.gz", "configs/curly/poema_after_mx-msk-br1.md"),
      ("rollbacks/juniper.conf.1.gz", "configs/curly/poema_before_mx-msk-br1.md"),
    ] {
      let packed = try bytes(gz)
      #expect(Gzip.isGzip(packed))
      #expect(try Gzip.decompress(packed) == bytes(source), "\(gz)")
    }
  }

  @Test func corruptAndTruncatedGzipAreErrors() throws {
    let packed = try bytes("rollbacks/juniper.conf.gz")
    #expect(throws: Gzip.Failure(message: "the gzip data is truncated")) { try Gzip.decompress(Array(packed.prefix(packed.count / 2))) }
    var broken = packed
    broken[20] ^= 0xFF
    broken[21] ^= 0xFF
    #expect(throws: Gzip.Failure.self) { try Gzip.decompress(broken) }
    // Two members one after the other read as one stream.
    #expect(try Gzip.decompress(packed + packed).count == 2 * (try Gzip.decompress(packed)).count)
  }

  @Test func fileNamesGiveRollbackNumbers() {
    #expect(RollbackFiles.rollbackNumber(fileName: "juniper.conf.gz") == 0)
    #expect(RollbackFiles.rollbackNumber(fileName: "juniper.conf") == 0)
    #expect(RollbackFiles.rollbackNumber(fileName: "juniper.conf.17.gz") == 17)
    #expect(RollbackFiles.rollbackNumber(fileName: "juniper.conf.3") == 3)
    #expect(RollbackFiles.rollbackNumber(fileName: "rollback-32.conf") == 32)
    #expect(RollbackFiles.rollbackNumber(fileName: "rollback_5.txt") == 5)
    #expect(RollbackFiles.rollbackNumber(fileName: "juniper.conf.md5") == nil)
    #expect(RollbackFiles.rollbackNumber(fileName: "notes.txt") == nil)
  }

  @Test func headersGiveTheCommitsAndTheRangeDiff() throws {
    var trees: [Int: ConfigTree] = [:]
    for (name, n) in [("rollbacks/juniper.conf.gz", 0), ("rollbacks/juniper.conf.1.gz", 1)] {
      let text = try Gzip.decompress(try bytes(name))
      trees[n] = ConfigParser.parse(SourceFile(path: name, bytes: text)).tree
    }
    var h = RollbackFiles.history(from: trees)
    TimePlacement.place(&h, file: SourceFile(path: "headers", text: ""))
    #expect(
      h.commits.map { "\($0.index!) \($0.user) \($0.instant.map(iso8601UTC) ?? "-")" } == [
        "0 admin 2024-09-27T14:59:28Z", "1 moro 2024-09-25T16:44:54Z",
      ])
    // What commit 0 did: rollback 1 → rollback 0.
    let range = CommitRange(0, 0)
    #expect(range.deviceCommand == "show system rollback 0 compare 1")
    let diff = ConfigDiff(from: trees[range.baseRollback]!, to: trees[range.resultRollback]!)
    #expect(
      String(decoding: diff.renderJunos(), as: UTF8.self) == "[edit protocols ospf area 0.0.0.0 interface ge-0/0/1.0]\n+     metric 200;\n")
  }

  /// A rollback nothing describes is still a commit: unknown, so batches do not close over it.
  @Test func headersLeaveNoCommitOut() {
    let h = RollbackFiles.history(headers: [
      0: ["## Last commit: 2024-09-27 14:59:28 UTC by admin"], 2: ["## Last commit: 2024-09-25 16:44:54 UTC by moro"],
      3: ["## Last changed: 2024-09-20 10:00:00 UTC"],
    ])
    #expect(h.commits.map { "\($0.index!) \($0.user) \($0.isKnown)" } == ["0 admin true", "1 ? false", "2 moro true", "3 ? false"])
    #expect(h.commits[1].localTime == nil && h.commits[1].instant == nil)
    var json: [UInt8] = []
    h.commits[1].appendJSON(to: &json)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"index":1,"time":null,"localTime":null,"timeZone":null,"user":null,"client":null,"comment":null,"log":null,"confirmedMinutes":null}"#
    )
    #expect(
      CommitHistory.logText([h.commits[1]])
        == "#  Time (UTC)  Device time  User  Client  Comment\n1  who and when not known (no rollback header describes it)\n")
    #expect(h.commits[1].listingProblem != nil)
    // Two users around an unknown commit: three batches, never one.
    var both = RollbackFiles.history(headers: [
      0: ["## Last commit: 2024-09-27 14:59:28 UTC by admin"], 2: ["## Last commit: 2024-09-27 14:50:00 UTC by admin"],
    ])
    TimePlacement.place(&both, file: SourceFile(path: "headers", text: ""))
    #expect(both.batches().map { "\($0.user) \($0.range)" } == ["admin 2..2", "? 1..1", "admin 0..0"])
    #expect(RollbackFiles.history(headers: [:]).commits.isEmpty)
  }

  /// A listing taken a commit before (or after) the rollbacks disagrees with their headers, and
  /// says by how much.
  @Test func listingAgainstHeaders() {
    func listing(_ text: String) -> CommitHistory {
      var h = CommitHistory.read(SourceFile(path: "c", text: text))
      TimePlacement.place(&h, file: SourceFile(path: "c", text: text))
      return h
    }
    func header(_ line: String, _ n: Int) -> Commit {
      var h = CommitHistory(commits: [RollbackFiles.commit(headers: [line], rollback: n)!])
      TimePlacement.place(&h, file: SourceFile(path: "h", text: ""))
      return h.commits[0]
    }
    let now = listing(
      "0   2019-08-07 13:21:33 BST by stuart via cli\n1   2019-08-07 12:00:00 BST by bob via cli\n2   2019-08-06 09:00:00 BST by ann via cli\n"
    )
    let zero = header("## Last commit: 2019-08-07 13:21:33 BST by stuart", 0)
    #expect(RollbackFiles.disagreement(listing: now, header: zero) == nil)
    // The same instant printed in another zone agrees.
    #expect(RollbackFiles.disagreement(listing: now, header: header("## Last commit: 2019-08-07 12:21:33 UTC by stuart", 0)) == nil)
    // Taken one commit earlier: the listing's 0 is the rollbacks' 1.
    let before = listing("0   2019-08-07 12:00:00 BST by bob via cli\n1   2019-08-06 09:00:00 BST by ann via cli\n")
    let d = RollbackFiles.disagreement(listing: before, header: header("## Last commit: 2019-08-07 12:00:00 BST by bob", 1))
    #expect(
      d?.description
        == "rollback 1's header says 2019-08-07 12:00:00 BST by bob, the listing's commit 1 is 2019-08-06 09:00:00 BST by ann; the header is the listing's commit 0: the listing is 1 commit older than the rollbacks"
    )
    #expect(RollbackFiles.disagreement(listing: before, header: zero)?.matchingEntry == nil)
    // Taken after two more commits.
    let after = RollbackFiles.disagreement(listing: now, header: header("## Last commit: 2019-08-06 09:00:00 BST by ann", 0))
    #expect(after?.description.hasSuffix("the header is the listing's commit 2: the listing is 2 commits newer than the rollbacks") == true)
    // Same user, another time: still a disagreement.
    #expect(RollbackFiles.disagreement(listing: now, header: header("## Last commit: 2019-08-07 13:21:34 BST by stuart", 0)) != nil)
    // Nothing to compare with.
    #expect(RollbackFiles.disagreement(listing: now, header: header("## Last commit: 2019-01-01 00:00:00 UTC by zed", 7)) == nil)
  }
}

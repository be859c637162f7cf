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
}

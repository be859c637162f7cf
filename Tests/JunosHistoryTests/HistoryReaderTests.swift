import Foundation
import JunosConfig
import JunosDiff
import JunosHistory
import Testing

/// The history reader over the stores it ships with: a folder of rollbacks (flat, in the box's
/// layout, with compare captures) and a listing alone.
@Suite struct HistoryReaderTests {
  static let fixtures = Fixtures.root.appendingPathComponent("rollbacks").path

  /// A temporary folder holding copies of the fixture rollbacks under the given names.
  func folder(_ names: [String: String]) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-store-\(UUID().uuidString)")
    for (name, fixture) in names {
      let to = dir.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: "\(Self.fixtures)/\(fixture)", toPath: to.path)
    }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
  }

  @Test func folderOfRollbacks() throws {
    let store = try RollbackFolder(path: Self.fixtures)
    #expect(store.rollbackNumbers == [0, 1])
    #expect(store.captures.isEmpty)
    #expect(store.location(ofRollback: 1) == "\(Self.fixtures)/juniper.conf.1.gz")
    #expect(try store.rollback(2) == nil)
    var reader = HistoryReader(store: store)
    let h = try #require(try reader.history())
    #expect(
      h.commits.map { "\($0.index!) \($0.user) \($0.instant.map(iso8601UTC) ?? "-")" } == [
        "0 admin 2024-09-27T14:59:28Z", "1 moro 2024-09-25T16:44:54Z",
      ])
    #expect(reader.drain().notes.isEmpty)
    let (base, result) = try reader.endpoints(CommitRange(0, 0))
    #expect(
      String(decoding: ConfigDiff(from: base, to: result).renderJunos(), as: UTF8.self)
        == "[edit protocols ospf area 0.0.0.0 interface ge-0/0/1.0]\n+     metric 200;\n")
    #expect(reader.highestRollback == 1)
    #expect(
      throws: StoreError(
        "commits 1..1: the changes of commit 1 need rollback 2, the configuration before it, which is not available (rollbacks 0–1)")
    ) {
      _ = try reader.endpoints(CommitRange(1, 1))
    }
  }

  /// The box's own layout: rollbacks 0–3 in config/, 4–49 in var/db/config/.
  @Test func boxLayout() throws {
    let dir = try folder(["config/juniper.conf.gz": "juniper.conf.gz", "var/db/config/juniper.conf.4.gz": "juniper.conf.1.gz"])
    let store = try RollbackFolder(path: dir)
    #expect(store.rollbackNumbers == [0, 4])
    var reader = HistoryReader(store: store)
    let h = try #require(try reader.history())
    #expect(h.commits.map(\.user) == ["admin", "?", "?", "?", "moro"])
    #expect(
      reader.drain().notes == [
        "nothing in '\(dir)' says who made commits 1–3 or when (rollbacks missing or saved without '## Last commit'): shown as user '?'; give --commits FILE for the whole listing"
      ])
  }

  /// A missing rollback is composed from a compare capture, and the reader says how.
  @Test func composedFromACapture() throws {
    let dir = try folder(["juniper.conf.1.gz": "juniper.conf.1.gz"])
    let full = try RollbackFolder(path: Self.fixtures)
    let zero = try HistoryReader.parse(try #require(try full.rollback(0)), model: .standard)
    let one = try HistoryReader.parse(try #require(try full.rollback(1)), model: .standard)
    let text =
      "admin@r1> show system rollback 0 compare 1\n" + String(decoding: ConfigDiff(from: one, to: zero).renderJunos(), as: UTF8.self)
    try Data(text.utf8).write(to: URL(fileURLWithPath: "\(dir)/rollback-0-compare-1.txt"))
    let store = try RollbackFolder(path: dir)
    #expect(store.captures.map { "\($0.newer) \($0.older) \($0.name)" } == ["0 1 rollback-0-compare-1.txt"])
    var reader = HistoryReader(store: store)
    let (base, result) = try reader.endpoints(CommitRange(0, 0))
    #expect(ConfigDiff(from: base, to: one).isEmpty)
    #expect(ConfigDiff(from: result, to: zero).isEmpty)
    #expect(reader.composed[0] == HistoryReader.Composition(base: 1, captures: ["rollback-0-compare-1.txt"]))
    #expect(reader.drain().notes == ["rollback 0 composed from rollback 1 and rollback-0-compare-1.txt"])
    // A capture whose echoed command names other rollbacks is refused.
    try Data(text.replacing("rollback 0 compare 1", with: "rollback 2 compare 3").utf8).write(
      to: URL(fileURLWithPath: "\(dir)/rollback-0-compare-1.txt"))
    var again = HistoryReader(store: try RollbackFolder(path: dir))
    #expect(
      throws: StoreError(
        "\(dir)/rollback-0-compare-1.txt: the capture's command is 'show system rollback 2 compare 3', but its name says rollback 0 compare 1"
      )
    ) {
      _ = try again.configuration(0)
    }
  }

  @Test func folderErrors() throws {
    let empty = try folder([:])
    #expect(
      throws: StoreError(
        "no rollback files in '\(empty)' (juniper.conf[.N][.gz], rollback-N.conf, or the box's config/ and var/db/config/ folders)")
    ) {
      _ = try RollbackFolder(path: empty)
    }
    #expect(try RollbackFolder(path: empty + "/none", allowEmpty: true).rollbackNumbers.isEmpty)
    #expect(throws: StoreError("cannot read the directory '\(empty)/none'")) { _ = try RollbackFolder(path: empty + "/none") }
    let twice = try folder(["juniper.conf.gz": "juniper.conf.gz", "rollback-0.conf": "juniper.conf.gz"])
    #expect(throws: StoreError("'juniper.conf.gz' and 'rollback-0.conf' are both rollback 0")) { _ = try RollbackFolder(path: twice) }
  }

  /// A listing beside the store is read, placed and checked against the rollbacks' headers.
  @Test func listingBesideTheStore() throws {
    let store = try RollbackFolder(path: Self.fixtures)
    let good = SourceFile(
      path: "c.txt", text: "0   2024-09-27 14:59:28 UTC by admin via cli\n1   2024-09-25 16:44:54 UTC by moro via cli\n")
    var reader = HistoryReader(store: store, listing: good)
    #expect(try reader.history()?.commits.map(\.user) == ["admin", "moro"])
    let other = SourceFile(
      path: "c.txt", text: "0   2024-09-27 14:59:28 UTC by root via cli\n1   2024-09-25 16:44:54 UTC by moro via cli\n")
    var wrong = HistoryReader(store: store, listing: other)
    #expect(
      throws: StoreError(
        "'c.txt' is not the commit list of the rollbacks in '\(Self.fixtures)': rollback 0's header says 2024-09-27 14:59:28 UTC by admin, the listing's commit 0 is 2024-09-27 14:59:28 UTC by root; capture both at the same time"
      )
    ) {
      _ = try wrong.history()
    }
    // A listing on its own.
    var alone = HistoryReader(store: EmptyStore(name: "c.txt"), listing: other)
    #expect(try alone.history()?.commits.count == 2)
    #expect(alone.highestRollback == -1)
    var nothing = HistoryReader(store: EmptyStore(name: "c.txt"))
    #expect(throws: StoreError("no commit list: no '## Last commit' header in the rollbacks of 'c.txt'; give --commits FILE")) {
      _ = try nothing.history()
    }
  }
}

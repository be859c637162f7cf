import Foundation
import JunosConfig
import JunosDiff
import JunosHistory
import JunoscopeTestSupport
import Testing

/// ``GitBackupStore`` over repositories written as Oxidized and RANCID write theirs
/// (``BackupRepository/oxidized()``, ``BackupRepository/rancid()``), read through libgit2.
@Suite struct GitBackupStoreTests {
  static func seconds(_ text: String) -> Int64 {
    let p = text.split(separator: " ")
    return CommitListParser.localTime(p[0], p[1])!.secondsAsUTC
  }

  static func error(_ body: () throws(StoreError) -> Void) -> String? {
    do throws(StoreError) {
      try body()
      return nil
    } catch {
      return error.message
    }
  }

  @Test func listsTheDeviceFilesOfARepository() throws {
    let (repo, _) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let files = try GitBackupStore.files(repository: repo.path)
    #expect(
      files == [
        BackupFile(path: "README.md", device: "README.md", format: .oxidized, skipped: "not a Junos configuration"),
        BackupFile(path: "core/mx-rnd-br1", device: "mx-rnd-br1", format: .oxidized),
        BackupFile(path: "lab/mx-rnd-br1", device: "mx-rnd-br1", format: .oxidized),
        BackupFile(path: "mx-msk-br1", device: "mx-msk-br1", format: .oxidized),
        BackupFile(path: "sw-access1", device: "sw-access1", format: .oxidized, skipped: "not a Junos configuration"),
        BackupFile(path: "vsrx", device: "vsrx", format: .oxidized),
      ])
    let (rancid, _) = try BackupRepository.rancid()
    defer { rancid.remove() }
    #expect(
      try GitBackupStore.files(repository: rancid.path) == [
        BackupFile(path: "networks/configs/mx-msk-br4", device: "mx-msk-br4", format: .rancid),
        BackupFile(path: "networks/configs/sw-core1", device: "sw-core1", format: .rancid, skipped: "RANCID content type 'cisco'"),
        BackupFile(path: "networks/router.db", device: "router.db", format: .oxidized, skipped: "not a Junos configuration"),
      ])
    // Devices by name.
    #expect(try GitBackupStore.file(ofDevice: "mx-msk-br1", repository: repo.path) == "mx-msk-br1")
    #expect(try GitBackupStore.file(ofDevice: "lab/mx-rnd-br1", repository: repo.path) == "lab/mx-rnd-br1")
    #expect(
      Self.error { () throws(StoreError) in _ = try GitBackupStore.file(ofDevice: "mx-rnd-br1", repository: repo.path) }
        == "device 'mx-rnd-br1' is ambiguous in '\(repo.path)': core/mx-rnd-br1, lab/mx-rnd-br1; give --file FILE")
    #expect(
      Self.error { () throws(StoreError) in _ = try GitBackupStore.file(ofDevice: "sw-access1", repository: repo.path) }
        == "'sw-access1' in '\(repo.path)' is not read as a Junos configuration: not a Junos configuration")
    #expect(
      Self.error { () throws(StoreError) in _ = try GitBackupStore.file(ofDevice: "mx-msk-br9", repository: repo.path) }
        == "no device 'mx-msk-br9' in '\(repo.path)' (revision HEAD); its Junos devices: mx-msk-br1, mx-rnd-br1, vsrx")
  }

  /// Three recorded states from four backups: the chassis-only backup records nothing new, the
  /// header-only one is a commit that changed nothing.
  @Test func oxidizedStatesAndSpans() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let store = try GitBackupStore(repository: repo.path, file: "mx-msk-br1")
    #expect(store.format == .oxidized)
    #expect(store.numbers == [0, 1, 2])
    #expect(store.rollbackNumbers == [0, 1, 2])
    #expect(store.notes.isEmpty)
    #expect(
      store.states.map(\.span) == [
        BackupSpan(
          backup: ids["after"]!, time: Self.seconds("2024-09-27 18:00:00"), after: Self.seconds("2024-09-27 09:00:00"),
          configurationChanged: true),
        BackupSpan(
          backup: ids["headerOnly"]!, time: Self.seconds("2024-09-27 09:00:00"), after: Self.seconds("2024-09-26 06:00:00"),
          configurationChanged: false),
        BackupSpan(backup: ids["first"]!, time: Self.seconds("2024-09-25 18:00:00"), after: nil, configurationChanged: true),
      ])
    #expect(store.states.map { $0.header?.user } == ["admin", "noc", "moro"])
    #expect(
      store.states.map { $0.header?.instant } == ["2024-09-27 14:59:28", "2024-09-27 08:30:00", "2024-09-25 16:44:54"].map(Self.seconds))
    #expect(store.states.map(\.lastSeen) == ["2024-09-27 18:00:00", "2024-09-27 09:00:00", "2024-09-26 06:00:00"].map(Self.seconds))
    // The configuration with Oxidized's lines blanked: the file's line numbers, the device's text.
    let newest = try #require(try store.rollback(0))
    #expect(newest.path == "\(repo.path)/mx-msk-br1@\(ids["after"]!.prefix(7))")
    #expect(store.location(ofRollback: 2) == "\(repo.path)/mx-msk-br1@\(ids["first"]!.prefix(7))")
    let fixture = try BackupRepository.fixture("configs/curly/poema_after_mx-msk-br1.md")
    let preamble = 5 + 7 + 1  // show version, show chassis hardware (2 FPCs), show system license
    #expect(String(decoding: newest.bytes, as: UTF8.self) == String(repeating: "\n", count: preamble) + fixture)
    #expect(RollbackFiles.headers(in: newest.bytes) == ["## Last commit: 2024-09-27 14:59:28 UTC by admin"])
    #expect(try store.rollback(3) == nil)
    // Through the reader: each commit with its backups.
    var reader = HistoryReader(store: store)
    let history = try #require(try reader.history())
    #expect(history.commits.map(\.user) == ["admin", "noc", "moro"])
    #expect(history.commits.map(\.backup) == store.states.map(\.span))
    #expect(reader.drain().notes.isEmpty)
    let (base, result) = try reader.endpoints(CommitRange(1, 1))
    #expect(ConfigDiff(from: base, to: result).isEmpty)
    #expect(
      reader.drain().notes == [
        "commits 1..1 are the difference between backup \(ids["first"]!.prefix(7)) and backup \(ids["headerOnly"]!.prefix(7)): any commits made after 2024-09-26 06:00:00Z and before 2024-09-27 09:00:00Z that no backup recorded are in it too"
      ])
  }

  /// An older revision reads the history as it was then; a bare clone reads the same.
  @Test func revisionsAndBareRepositories() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let then = try GitBackupStore(repository: repo.path, file: "mx-msk-br1", revision: String(ids["headerOnly"]!.prefix(10)))
    #expect(then.states.map(\.span.backup) == [ids["headerOnly"]!, ids["first"]!])
    #expect(try GitBackupStore(repository: repo.path, file: "mx-msk-br1", revision: "HEAD~4").states.count == 2)
    #expect(try GitBackupStore(repository: repo.path, file: "./core//mx-rnd-br1").file == "core/mx-rnd-br1")
    let bare = repo.path + ".git"
    defer { try? FileManager.default.removeItem(atPath: bare) }
    try repo.git(["clone", "-q", "--bare", repo.path, bare])
    let fromBare = try GitBackupStore(repository: bare, file: "mx-msk-br1")
    #expect(fromBare.states.map(\.span) == (try GitBackupStore(repository: repo.path, file: "mx-msk-br1")).states.map(\.span))
    #expect(try GitBackupStore.files(repository: bare).count == 6)
  }

  /// Only the first parent is followed: a backup made on a side branch counts when it is merged.
  @Test func firstParentHistory() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    try repo.git(["checkout", "-q", "-b", "side", ids["after"]!])
    let text = try String(contentsOfFile: repo.path + "/mx-msk-br1", encoding: .utf8)
    try repo.write(
      "mx-msk-br1",
      text.replacingOccurrences(
        of: "## Last commit: 2024-09-27 14:59:28 UTC by admin", with: "## Last commit: 2024-09-29 10:00:00 UTC by noc"))
    let side = try repo.commit("update mx-msk-br1", at: "2024-09-29T12:00:00Z")
    try repo.git(["checkout", "-q", "main"])
    try repo.git(
      ["merge", "-q", "--no-ff", "-m", "merge side", "side"],
      environment: [
        "GIT_COMMITTER_DATE": "2024-10-02T06:00:00Z", "GIT_AUTHOR_DATE": "2024-10-02T06:00:00Z", "GIT_COMMITTER_NAME": "oxidized",
        "GIT_COMMITTER_EMAIL": "oxidized@backups.example", "GIT_AUTHOR_NAME": "oxidized", "GIT_AUTHOR_EMAIL": "oxidized@backups.example",
      ])
    let merge = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let store = try GitBackupStore(repository: repo.path, file: "mx-msk-br1")
    #expect(store.states.map(\.span.backup) == [merge, ids["after"]!, ids["headerOnly"]!, ids["first"]!])
    #expect(!store.states.map(\.span.backup).contains(side))
    #expect(store.states[0].span.time == Self.seconds("2024-10-02 06:00:00"))
    #expect(store.states[0].span.configurationChanged == false)
    #expect(try GitBackupStore(repository: repo.path, file: "mx-msk-br1", revision: "side").states[0].span.backup == side)
  }

  /// A file deleted and added again starts its history anew; a configuration that changed
  /// under the same `## Last commit` header is a commit of its own, with a note.
  @Test func historyEndsWhereTheFileWasNotThere() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let vsrx = try String(contentsOfFile: repo.path + "/vsrx", encoding: .utf8)
    try repo.delete("vsrx")
    try repo.commit("remove vsrx", at: "2024-10-02T06:00:00Z")
    try repo.write("vsrx", vsrx)
    let again = try repo.commit("update vsrx", at: "2024-10-03T06:00:00Z")
    let store = try GitBackupStore(repository: repo.path, file: "vsrx")
    #expect(store.states.map(\.span.backup) == [again])
    #expect(try GitBackupStore(repository: repo.path, file: "vsrx", revision: ids["vsrx"]!).states.count == 2)
    // The same header over another configuration.
    let lab = try String(contentsOfFile: repo.path + "/lab/mx-rnd-br1", encoding: .utf8)
    try repo.write("lab/mx-rnd-br1", lab.replacingOccurrences(of: "host-name mx-rnd-br1;", with: "host-name mx-rnd-br1-lab;"))
    let edited = try repo.commit("update lab/mx-rnd-br1", at: "2024-10-04T06:00:00Z")
    let labStore = try GitBackupStore(repository: repo.path, file: "lab/mx-rnd-br1")
    #expect(labStore.states.count == 2)
    #expect(
      labStore.notes == [
        "backup \(edited.prefix(7)) of '\(repo.path)/lab/mx-rnd-br1' changes the configuration but not its '## Last commit' header: commit numbers count it as a commit of its own"
      ])
  }

  @Test func errors() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let notRepo = FileManager.default.temporaryDirectory.path
    #expect(
      Self.error { () throws(StoreError) in _ = try GitBackupStore(repository: notRepo, file: "x") }?.hasPrefix(
        "'\(notRepo)' is not a git repository (") == true)
    #expect(
      Self.error { () throws(StoreError) in _ = try GitBackupStore(repository: repo.path, file: "mx-msk-br1", revision: "v9") }
        == "\(repo.path): unknown revision 'v9': revspec 'v9' not found")
    #expect(
      Self.error { () throws(StoreError) in _ = try GitBackupStore(repository: repo.path, file: "core") }
        == "'core' is not a file in revision 'HEAD' (\(ids["vsrx"]!.prefix(7))) of '\(repo.path)'")
    #expect(
      Self.error { () throws(StoreError) in _ = try GitBackupStore(repository: repo.path, file: "vsrx", revision: "HEAD~7") }
        == "\(repo.path): unknown revision 'HEAD~7': parent 0 does not exist")
  }

  /// RANCID drops the `## Last commit` line: commits nobody is named for, bounded by backups.
  @Test func rancidStatesHaveNoHeaders() throws {
    let (repo, ids) = try BackupRepository.rancid()
    defer { repo.remove() }
    let store = try GitBackupStore(repository: repo.path, file: "networks/configs/mx-msk-br4")
    #expect(store.format == .rancid)
    #expect(store.states.map(\.span.backup) == [ids["after"]!, ids["first"]!])
    #expect(store.states.map { $0.header == nil } == [true, true])
    #expect(store.states[0].span.after == Self.seconds("2024-09-26 06:00:00"))
    var reader = HistoryReader(store: store)
    let history = try #require(try reader.history())
    #expect(history.commits.map { $0.isKnown } == [false, false])
    #expect(history.commits.map(\.backup) == store.states.map(\.span))
    #expect(
      reader.drain().notes == [
        "the backups in '\(repo.path)/networks/configs/mx-msk-br4' do not say who made commits 0, 1 (saved without '## Last commit', as RANCID saves them): shown as user '?', their times bounded by the backups; give --commits FILE for the device's listing"
      ])
    // RANCID's filtered lines are comments; the configuration reads.
    let tree = try #require(try reader.configuration(0))
    #expect(tree.statements(at: ["system", "host-name"]).count == 1)
  }

  /// With the device's listing, the backups take the box's numbers.
  @Test func alignedToAListing() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let text = BackupRepository.listingOfMxMskBr1
    var listing = CommitHistory.read(SourceFile(path: "commits.txt", bytes: Array(text.utf8)))
    TimePlacement.place(&listing, file: SourceFile(path: "commits.txt", bytes: []))
    let store = try GitBackupStore(repository: repo.path, file: "mx-msk-br1", listing: listing, listingName: "commits.txt")
    #expect(store.numbers == [0, 2, 4])
    #expect(store.rollbackNumbers == [0, 2, 4])
    var reader = HistoryReader(store: store, listing: SourceFile(path: "commits.txt", bytes: Array(text.utf8)))
    #expect(try reader.history()?.commits.count == 6)
    _ = try reader.endpoints(CommitRange(3, 2))
    #expect(
      Self.error { () throws(StoreError) in _ = try reader.endpoints(CommitRange(0, 0)) }
        == "commits 0..0: rollback 1 is not in '\(repo.path)/mx-msk-br1'")
    // A listing with fewer commits: the oldest backup is left out.
    var short = listing
    short.commits = Array(listing.commits.prefix(3))
    let partial = try GitBackupStore(repository: repo.path, file: "mx-msk-br1", listing: short, listingName: "short.txt")
    #expect(partial.numbers == [0, 2, nil])
    #expect(
      partial.notes == [
        "1 backup of '\(repo.path)/mx-msk-br1' older than the oldest commit of 'short.txt' left out: backup \(ids["first"]!.prefix(7)) (2024-09-25 18:00:00Z)"
      ])
    // Another device's listing.
    var other = listing
    other.commits[0].user = "bob"
    #expect(
      Self.error { () throws(StoreError) in
        _ = try GitBackupStore(repository: repo.path, file: "mx-msk-br1", listing: other, listingName: "other.txt")
      }
        == "'other.txt' does not list the commit backup \(ids["after"]!.prefix(7)) (2024-09-27 18:00:00Z) of '\(repo.path)/mx-msk-br1' records (2024-09-27 14:59:28Z by admin): it is not this device's listing, or not as new as the backups"
    )
  }

  /// Without headers, each backup takes the newest listed commit before it.
  @Test func rancidAlignedToAListing() throws {
    let (repo, ids) = try BackupRepository.rancid()
    defer { repo.remove() }
    func listing(_ text: String) -> CommitHistory {
      var h = CommitHistory.read(SourceFile(path: "c", bytes: Array(text.utf8)))
      TimePlacement.place(&h, file: SourceFile(path: "c", bytes: []))
      return h
    }
    let good = listing("0   2024-09-27 13:28:11 UTC by admin via cli\n1   2024-09-25 16:44:19 UTC by moro via cli\n")
    let store = try GitBackupStore(repository: repo.path, file: "networks/configs/mx-msk-br4", listing: good, listingName: "c")
    #expect(store.numbers == [0, 1])
    // The configuration changed between the backups of 09-26 06:00 and 09-27 18:00, and no
    // listed commit is there.
    let bad = listing("0   2024-09-26 01:00:00 UTC by admin via cli\n1   2024-09-25 16:44:19 UTC by moro via cli\n")
    #expect(
      Self.error { () throws(StoreError) in
        _ = try GitBackupStore(repository: repo.path, file: "networks/configs/mx-msk-br4", listing: bad, listingName: "c")
      }
        == "backup \(ids["after"]!.prefix(7)) (2024-09-27 18:00:00Z) of '\(repo.path)/networks/configs/mx-msk-br4' holds a new configuration, but 'c' lists no commit between it and the backup of 2024-09-26 06:00:00Z"
    )
  }

  /// The tool's lines around the configuration are blanked, line numbers kept; `#` lines
  /// inside it (RANCID's filtered secrets) and the device's `##` headers stay.
  @Test func backupFileConfiguration() {
    let text =
      "#RANCID-CONTENT-TYPE: juniper\n#\n# r1> show configuration\n## Last commit: x\nsystem {\n#    authentication-key <removed>;\n}\n# trailing\n"
    let config = String(decoding: BackupFiles.configuration(Array(text.utf8)), as: UTF8.self)
    #expect(config == "\n\n\n## Last commit: x\nsystem {\n#    authentication-key <removed>;\n}\n\n")
    #expect(BackupFiles.rancidContentType(Array(text.utf8)) == "juniper")
    #expect(BackupFiles.rancidContentType(Array("# x\n".utf8)) == nil)
    #expect(BackupFiles.classify(path: "a/b", bytes: [0x41, 0, 0x0A]).skipped == "not text")
    #expect(BackupFiles.classify(path: "a/b", bytes: Array("# only comments\n".utf8)).skipped == "not a Junos configuration")
    #expect(BackupFiles.classify(path: "a/b", bytes: Array("interfaces {\n}\n".utf8)).skipped == nil)
  }
}

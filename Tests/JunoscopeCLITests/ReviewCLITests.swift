import Foundation
import JunosDevice
import JunoscopeTestSupport
import Testing

/// A device that answers from fixed texts, for writing a capture bundle without SSH.
final class FixedDevice: DeviceSource, CommandRecording {
  let name = "edge1"
  let listing: [UInt8]
  let rollbacks: [String]
  private(set) var sent: [String] = []

  init(listing: String, rollbacks: [String]) {
    self.listing = Array(listing.utf8)
    self.rollbacks = rollbacks
  }

  func commitListXML() throws(DeviceError) -> [UInt8] {
    sent.append("show system commit | display xml")
    return listing
  }
  func commitListText() throws(DeviceError) -> [UInt8]? { nil }
  func rollback(_ n: Int) throws(DeviceError) -> [UInt8] {
    sent.append("show system rollback \(n)")
    guard rollbacks.indices.contains(n) else { throw DeviceError(.device, "no rollback \(n)") }
    return Array(rollbacks[n].utf8)
  }
  func compare(_ n: Int, _ m: Int) throws(DeviceError) -> [UInt8] { throw DeviceError(.device, "no compares") }
  func identity() throws(DeviceError) -> DeviceIdentity { DeviceIdentity(hostName: "edge1", model: "mx480", version: "21.4R3") }
}

/// `review` over three sources of different kinds in one window: a capture bundle (a backbone
/// router whose policy term lost its match conditions), a folder of rollbacks and the tests'
/// Oxidized repository.
@Suite struct ReviewCLITests {
  /// The sources, in a temporary folder, and the git repository.
  struct Sources {
    let root: String
    let repo: BackupRepository
    var bundle: String { root + "/edge1" }
    var folder: String { root + "/br1-saved" }

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-review-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: root + "/br1-saved", withIntermediateDirectories: true)
      for name in ["juniper.conf.gz", "juniper.conf.1.gz"] {
        try FileManager.default.copyItem(atPath: fixtures + "/rollbacks/" + name, toPath: root + "/br1-saved/" + name)
      }
      let before = try String(contentsOfFile: fixtures + "/checklist/incidents/bb-router.conf", encoding: .utf8)
      let after = before.replacingOccurrences(
        of: "            from {\n                prefix-list SITE-LOCAL;",
        with: "            from {\n                inactive: prefix-list SITE-LOCAL;")
      precondition(after != before)
      let listing = RollbackChain.listingXML([
        .init(index: 0, user: "ops", time: "2024-09-27 10:15:00", log: "BB-OUT clean-up"),
        .init(index: 1, user: "root", time: "2024-09-20 09:00:00", log: "initial"),
      ])
      try CaptureBundle.capture(
        FixedDevice(listing: listing, rollbacks: [after, before]), host: "edge1", transport: "cli", rollbacks: .all,
        into: root + "/edge1")
      repo = try BackupRepository.oxidized().repository
    }

    func remove() {
      repo.remove()
      try? FileManager.default.removeItem(atPath: root)
    }

    /// Output with the temporary paths replaced by `TMP` and `GIT`.
    func stable(_ s: String) -> String {
      s.replacingOccurrences(of: repo.path, with: "GIT").replacingOccurrences(of: root, with: "TMP")
    }

    var arguments: [String] {
      ["review", "--since", "2024-09-20", "--until", "2024-09-27 16:00", bundle, folder, "--git", repo.path]
    }
  }

  /// Compares with `Snapshots/NAME`, or writes it when `RECORD_SNAPSHOTS=1`.
  func snapshot(_ text: String, _ name: String) throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/" + name).path
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == expected, "differs from Snapshots/\(name); re-record with RECORD_SNAPSHOTS=1 and read the diff")
  }

  @Test func threeKindsOfSourceInOneWindow() throws {
    let s = try Sources()
    defer { s.remove() }
    let markdown = run(s.arguments)
    #expect(markdown.status == 0, "\(markdown.err)")
    #expect(markdown.err == "")
    try snapshot(s.stable(markdown.out), "review.md")
    let json = run(s.arguments + ["--format", "json"])
    #expect(json.status == 0)
    try snapshot(s.stable(json.out), "review.json")
    let html = run(s.arguments + ["--format", "html"])
    #expect(html.status == 0)
    #expect(html.out.hasPrefix("<!DOCTYPE html>"))
    // Self-contained: no script, link, image or source from elsewhere.
    for needle in ["<script", "<link", "<img", "src=", "url("] { #expect(!html.out.contains(needle), "\(needle)") }
    #expect(html.out.components(separatedBy: "<section class=\"device\"").count - 1 == 6)
    #expect(html.out.components(separatedBy: "<rect class=\"risky\"").count - 1 == 2)
    #expect(html.out.components(separatedBy: "<li class=\"finding ").count - 1 == 4)
  }

  @Test func rollbackFolderIsNamedAfterItsDevice() throws {
    // A device's own folder layout copied off the box, and a folder called `rollbacks`: the
    // device is the folder above the names that only say where rollbacks are kept.
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("review-names-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    for folder in ["r9/var/db/config", "edge2/rollbacks"] {
      try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
      for file in ["juniper.conf.gz", "juniper.conf.1.gz"] {
        try FileManager.default.copyItem(atPath: fixtures + "/rollbacks/" + file, toPath: root + "/" + folder + "/" + file)
      }
    }
    let r = run([
      "review", "--since", "2024-09-20", "--until", "2024-09-30", root + "/r9/var/db/config", root + "/edge2/rollbacks/", "-f", "json",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("\"name\": \"r9\""), "\(r.out.prefix(400))")
    #expect(r.out.contains("\"name\": \"edge2\""))
    #expect(!r.out.contains("\"name\": \"config\"") && !r.out.contains("\"name\": \"rollbacks\""))
  }

  @Test func failedSourceIsListedAndExitsTwo() throws {
    let s = try Sources()
    defer { s.remove() }
    let r = run(["review", "--since", "2024-09-20", "--until", "2024-09-28", s.folder, s.root + "/missing", "--format", "json"])
    #expect(r.status == 2)
    #expect(r.out.contains("\"name\": \"missing\",\n      \"kind\": \"rollbacks\""))
    #expect(r.out.contains("\"status\": \"failed\",\n      \"reason\": \"cannot read the directory '\(s.root)/missing'\""))
    #expect(r.err.contains("junoscope: review: 1 of 2 devices could not be read"))
    let notGit = run(["review", "--since", "2024-09-20", "--until", "2024-09-28", "--git", s.root, "-f", "json"])
    #expect(notGit.status == 2)
    #expect(notGit.out.contains("\"status\": \"failed\""))
    #expect(run(["review", s.folder]).status == 64)
    #expect(run(["review", "--since", "2024-09-20", "--until", "2024-09-28"]).status == 64)
    #expect(run(["review", "--since", "2024-09-20", "--until", "2024-09-28", "--shard", "3/2", s.folder]).status == 64)
  }

  @Test func shardsMergeIntoTheWholeReview() throws {
    let s = try Sources()
    defer { s.remove() }
    let whole = run(s.arguments + ["-f", "json"])
    #expect(whole.status == 0)
    var files: [String] = []
    var names: [[String]] = []
    for k in 1...3 {
      let path = s.root + "/shard\(k).json"
      let r = run(s.arguments + ["-f", "json", "--shard", "\(k)/3", "-o", path])
      #expect(r.status == 0)
      files.append(path)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      names.append(text.matches(of: /\n      "name": "([^"]+)"/).map { String($0.1) })
    }
    // Each device in exactly one shard.
    #expect(names.flatMap { $0 }.sorted() == ["br1-saved", "core/mx-rnd-br1", "edge1", "lab/mx-rnd-br1", "mx-msk-br1", "vsrx"].sorted())
    #expect(names.filter { !$0.isEmpty }.count >= 2)
    let merged = run(["review", "--merge", "-f", "json"] + files)
    #expect(merged.status == 0)
    #expect(merged.out == whole.out)
    let markdown = run(["review", "--merge"] + files)
    #expect(markdown.out == run(s.arguments).out)
  }
}

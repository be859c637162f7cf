import Foundation
import JunoscopeTestSupport
import Testing

/// `lint RANGE` over a history source: the findings of `lint CHANGE --baseline RUNNING` on the
/// same change, whether the rollbacks are files, composed from a compare capture, or backups in a
/// git repository.
@Suite struct LintHistoryCLITests {
  static let incidents = "checklist/incidents/"

  /// A fixture's full path.
  static func path(_ name: String) -> String { fixtures + "/" + incidents + name }

  /// The rule and message of each finding of a JSON report, sorted (locations, and so the
  /// report's order, differ between sources).
  static func findings(_ json: String) -> [String] {
    var out: [String] = []
    for line in json.split(separator: "\n") {
      let t = line.trimmingCharacters(in: .whitespaces)
      if t.hasPrefix("\"rule\"") { out.append(t) } else if t.hasPrefix("\"message\""), !out.isEmpty { out[out.count - 1] += " " + t }
    }
    return out.sorted()
  }

  @Test func aRangeOfARollbackFolderIsLintedAsTheChangeOnItsBaseline() throws {
    let baseline = try BackupRepository.fixture(Self.incidents + "bb-router.conf")
    let change = try BackupRepository.fixture(Self.incidents + "bb-2020-prefix-list-deactivated.compare")
    let expected = run([
      "lint", "-f", "json", Self.path("bb-2020-prefix-list-deactivated.compare"), "--baseline",
      Self.path("bb-router.conf"),
    ])
    #expect(expected.status == 1)
    let rules = Self.findings(expected.out)
    #expect(rules.contains { $0.hasPrefix("\"rule\": \"term-match-conditions-removed\",") })
    #expect(rules.contains { $0.hasPrefix("\"rule\": \"export-leaks-routes\",") })
    #expect(rules.count == 3)

    // Rollback 0 composed from rollback 1 and the capture.
    let composed = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-lint-history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: composed, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: composed) }
    try Data(baseline.utf8).write(to: composed.appendingPathComponent("juniper.conf.1"))
    try Data(change.utf8).write(to: composed.appendingPathComponent("rollback-0-compare-1.txt"))
    let fromCapture = run(["lint", "0", "--rollbacks", composed.path, "-f", "json"])
    #expect(fromCapture.status == 1)
    #expect(Self.findings(fromCapture.out) == rules)
    #expect(fromCapture.err.contains("junoscope: commits 0..0: show system rollback 0 compare 1"))

    // Both rollbacks as files: the finding on the new configuration has its line there.
    let applied = run([
      "apply", composed.appendingPathComponent("juniper.conf.1").path, Self.path("bb-2020-prefix-list-deactivated.compare"),
    ])
    #expect(applied.status == 0)
    let files = composed.appendingPathComponent("files")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    try Data(baseline.utf8).write(to: files.appendingPathComponent("juniper.conf.1"))
    try Data(applied.out.utf8).write(to: files.appendingPathComponent("juniper.conf"))
    let fromFiles = run(["lint", "--rollbacks", files.path, "0..0"])
    #expect(fromFiles.status == 1)
    #expect(fromFiles.out.contains(files.appendingPathComponent("juniper.conf").path + ":"))
    #expect(fromFiles.out.hasSuffix("1 error, 1 warning, 1 info in 1 file\n"))
  }

  @Test func aGitRepositoryOfBackupsIsLintedByDevice() throws {
    let baseline = try BackupRepository.fixture(Self.incidents + "bb-router.conf")
    let applied = run(["apply", Self.path("bb-router.conf"), Self.path("bb-2020-prefix-list-deactivated.compare")])
    #expect(applied.status == 0)
    let repo = try BackupRepository()
    defer { repo.remove() }
    try repo.write("bb1", baseline)
    try repo.commit("bb1", at: "2020-06-01T10:00:00Z")
    try repo.write("bb1", applied.out)
    try repo.commit("bb1", at: "2020-06-02T10:00:00Z")
    let expected = run([
      "lint", "-f", "json", Self.path("bb-2020-prefix-list-deactivated.compare"), "--baseline",
      Self.path("bb-router.conf"),
    ])
    let git = run(["lint", "0", "--git", repo.path, "--device", "bb1", "-f", "json"])
    #expect(git.status == 1)
    #expect(Self.findings(git.out) == Self.findings(expected.out))
    #expect(git.out.contains("\"file\": \"\(repo.path)/bb1@"))
    // A usage error: a history source and --baseline.
    let both = run(["lint", "0", "--git", repo.path, "--device", "bb1", "--baseline", "x.conf"])
    #expect(both.status == 64)
    // No range, author or window.
    let none = run(["lint", "--git", repo.path, "--device", "bb1"])
    #expect(none.status == 64)
    #expect(none.err.contains("give a range X..Y"))
  }
}

import Foundation
import JunoscopeTestSupport
import Testing

/// The inputs shipped for the docs (Fixtures/examples, Fixtures/SOURCES.md) keep their headline
/// behaviours: the switch's rollbacks give the blog's `show system rollback compare 32 28`.
@Suite struct ExampleInputsTests {
  static let rollbacks = "\(fixtures)/examples/switch/rollbacks"
  static let listing = "\(fixtures)/commit-history/text/katerina_blog_show_system_commit.txt"

  @Test func theChainHasRollbacks0To43() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.rollbacks).sorted()
    let expected = (["juniper.conf.gz"] + (1...43).map { "juniper.conf.\($0).gz" }).sorted()
    #expect(names == expected)
  }

  @Test func stuartsCommitsAreTheBlogsCompare() throws {
    let capture = try String(contentsOfFile: "\(fixtures)/diffs/katerina_blog_show_system_rollback_compare_32_28.txt", encoding: .utf8)
    // The capture's diff lines: after the command, up to the blogger's `… more changes …`.
    let shown = capture.split(separator: "\n").dropFirst().prefix { !$0.hasPrefix("…") }.map(String.init)
    #expect(shown.count == 5)
    let range = run(["diff", "31..28", "--rollbacks", Self.rollbacks, "--commits", Self.listing])
    #expect(range.status == 0)
    #expect(Array(range.out.split(separator: "\n").prefix(shown.count).map(String.init)) == shown)
    #expect(range.err.hasSuffix("junoscope: commits 31..28: show system rollback 28 compare 32\n"))
    let author = run(["diff", "--author", "stuart", "--rollbacks", Self.rollbacks, "--commits", Self.listing])
    #expect(author.status == 0)
    #expect(author.out == range.out)
    #expect(author.err.hasSuffix("junoscope: commits 31..28 by stuart: show system rollback 28 compare 32\n"))
  }

  @Test func everyListedCommitHasItsUserAndTimeInTheRollbacksHeaders() throws {
    let fromListing = run(["log", "--commits", Self.listing, "-f", "json"])
    let fromHeaders = run(["log", "--rollbacks", Self.rollbacks, "-f", "json"])
    #expect(fromListing.status == 0)
    #expect(fromHeaders.status == 0)
    struct Log: Decodable {
      struct Commit: Decodable {
        let index: Int
        let user: String?
        let time: String?
      }
      let commits: [Commit]
    }
    let listed = try JSONDecoder().decode(Log.self, from: Data(fromListing.out.utf8)).commits
    let headers = Dictionary(
      uniqueKeysWithValues: try JSONDecoder().decode(Log.self, from: Data(fromHeaders.out.utf8)).commits.map { ($0.index, $0) })
    #expect(listed.count == 33)
    for commit in listed {
      #expect(headers[commit.index]?.user == commit.user, "commit \(commit.index)")
      #expect(headers[commit.index]?.time == commit.time, "commit \(commit.index)")
    }
  }

  @Test func theChangeHasAnErrorAndAWarning() {
    let lint = run([
      "lint", "\(fixtures)/examples/change/change.set", "--baseline", "\(fixtures)/examples/change/baseline.conf",
    ])
    #expect(lint.status == 1)
    #expect(lint.out.contains("error: [aggregate-activated-without-core]"))
    #expect(lint.out.contains("warning: [unconditional-aggregate-exported]"))
  }

  /// The bundle the docs clone is the tests' Oxidized repository, commit for commit.
  @Test func theBackupBundleIsTheTestsRepository() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let bundle = try repo.git(["bundle", "list-heads", "\(fixtures)/examples/backups/oxidized.bundle"])
    #expect(bundle.contains(try repo.git(["rev-parse", "main"]).trimmingCharacters(in: .whitespacesAndNewlines) + " refs/heads/main"))
    #expect(ids.count == 7)
  }
}

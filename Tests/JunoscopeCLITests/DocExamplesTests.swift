import Foundation
import JunoscopeDocTest
import Testing

/// The console examples of README.md and Docs/*.md, run against the `junoscope` built beside the
/// tests (Docs/DocTests.md); and the reader, matcher and runner of those examples.
@Suite struct DocExamplesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// The folder of the test executable, where SwiftPM also puts `junoscope`.
  static var buildFolder: String {
    let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var url = URL(fileURLWithPath: own).deletingLastPathComponent()
    // On Linux the tests are an executable in the build folder; elsewhere inside a bundle there.
    while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("junoscope").path) {
      if url.lastPathComponent == "debug" || url.lastPathComponent == "release" { break }
      url.deleteLastPathComponent()
    }
    return url.path
  }

  /// Every example of the docs prints what its block shows; nothing is skipped but what says why.
  @Test func theDocsExamplesRun() throws {
    let binary = Self.buildFolder + "/junoscope"
    try #require(
      FileManager.default.isExecutableFile(atPath: binary),
      "no junoscope at \(binary): build it with the tests (swift build --build-tests, or swift test builds it)")
    let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/Docs").filter { $0.hasSuffix(".md") }.sorted()
    let files = [Self.root + "/README.md"] + docs.map { Self.root + "/Docs/" + $0 }
    #expect(files.count >= 19, "README.md and Docs/*.md: \(files.count) files")
    let session = DocSession(runner: DocRunner(root: Self.root, binDirectory: Self.buildFolder))
    var failures: [String] = []
    let report = try session.run(files) { failures.append($0) }
    #expect(report.succeeded, "\(failures.joined(separator: "\n"))\n\(report.summary)")
    // A floor, so that examples deleted or turned into skips are noticed.
    #expect(report.commandsRun >= 87, "\(report.summary)")
    #expect(report.blocksRun >= 29, "\(report.summary)")
    #expect(report.skipped.count <= 3, "\(report.summary)")
    #expect(report.skipped.allSatisfy { !($0.skipReason ?? "").isEmpty })
  }

  @Test func aBlockFencedWithFourBackticksHoldsMarkdownOutput() {
    // review prints Markdown with ``` fences of its own: the block is fenced with four, as
    // CommonMark allows, and only a fence of four or more closes it.
    let text = """
      ````console
      $ printf '# x\\n```\\ndiff\\n```\\n'
      # x
      ```
      diff
      ```
      ````
      ```console
      $ true
      ```
      """
    let file = DocFile(path: "four.md", text: text)
    #expect(file.issues.isEmpty, "\(file.issues)")
    #expect(file.blocks.count == 2)
    #expect(file.blocks.first?.commands.first?.expected == ["# x", "```", "diff", "```"])
  }

  @Test func blocksCommandsContinuationsAndSkipsAreRead() {
    let text = """
      # Title

      ```console
      $ echo one \\
          two
      one two

      $ true
      $ printf 'a\\nb\\n'
      a
      b
      ```

      <!-- doctest: skip (needs a live device over SSH) -->
      ```console
      $ junoscope timeline --host r1
      ```

      ```sh
      $ not run
      ```
      """
    let file = DocFile(path: "x.md", text: text)
    #expect(file.issues.isEmpty)
    #expect(file.blocks.count == 2)
    let first = file.blocks[0]
    #expect(first.line == 3)
    #expect(first.skipReason == nil)
    #expect(first.commands.map(\.line) == [4, 8, 9])
    #expect(first.commands.map(\.text) == ["echo one \\\n    two", "true", "printf 'a\\nb\\n'"])
    #expect(first.commands.map(\.expected) == [["one two"], [], ["a", "b"]])
    #expect(first.commands[0].expectedStart == 5)
    #expect(first.commands[0].expectedCount == 1)
    #expect(first.commands[1].expectedStart == 8)
    #expect(first.commands[1].expectedCount == 0)
    #expect(file.blocks[1].skipReason == "needs a live device over SSH")
  }

  @Test func malformedExamplesAreErrors() {
    let text = """
      ```console
      output with no command
      $ echo hi
      hi
      ```
      ```console
      ```
      <!-- doctest: skip -->
      ```console
      $ echo hi
      ```
      <!-- doctest: skip (reason) -->
      Some text.
      <!-- doctest: run -->
      """
    let issues = DocFile(path: "y.md", text: text).issues.map(\.description)
    #expect(
      issues == [
        "y.md:2: error: a console block's lines before its first '$ ' command: each output needs its command (or use a ```text block)",
        "y.md:6: error: a console block with no '$ ' command",
        "y.md:8: error: a doctest skip needs its reason in parentheses: <!-- doctest: skip (reason) -->",
        "y.md:12: error: a doctest skip comment not followed by a console block",
        "y.md:14: error: unknown doctest comment '<!-- doctest: run -->': the only one is <!-- doctest: skip (reason) -->",
      ])
  }

  @Test func elisionsMatchLinesAndTextWithinALine() {
    let actual = ["a", "b", "c", "total 3 in 12ms"]
    #expect(OutputMatch.matches(expected: actual, actual: actual))
    #expect(OutputMatch.matches(expected: ["a", "...", "total 3 in [..]"], actual: actual))
    #expect(OutputMatch.matches(expected: ["...", "b", "..."], actual: actual))
    #expect(OutputMatch.matches(expected: ["a", "b", "...", "c", "...", "total [..] in [..]ms"], actual: actual))
    #expect(OutputMatch.matches(expected: ["..."], actual: []))
    #expect(!OutputMatch.matches(expected: ["a", "...", "b"], actual: actual))
    #expect(!OutputMatch.matches(expected: ["a", "b", "c"], actual: actual))
    #expect(!OutputMatch.matches(expected: [], actual: ["x"]))
    #expect(OutputMatch.lineMatches("[..]", ""))
    #expect(OutputMatch.lineMatches("x[..]x", "xx"))
    #expect(!OutputMatch.lineMatches("x[..]x", "x"))
    #expect(OutputMatch.lineMatches("a [..] c [..] e", "a b c d e"))
    #expect(!OutputMatch.lineMatches("a [..] c", "a b d"))
    // Trailing spaces and trailing blank lines are not compared.
    #expect(OutputMatch.lines(of: "a  \nb\n\n\n") == ["a", "b"])
    #expect(OutputMatch.matches(expected: ["a   "], actual: ["a"]))
    #expect(OutputMatch.diff(expected: ["a", "b", "c"], actual: ["a", "x", "c"]) == [" a", "+x", "-b", " c"])
  }

  /// A block runs in one bash in a scratch folder, with stdout and stderr merged, `$?` and `cd`
  /// kept across commands; a failing example is reported at its line with a diff; --bless writes
  /// the output in, but not over elisions.
  @Test func aFailingExampleIsReportedAtItsLineAndBlessRewritesIt() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-doctest-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir + "/Fixtures", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Data("from the fixture\n".utf8).write(to: URL(fileURLWithPath: dir + "/Fixtures/f.txt"))
    let markdown = dir + "/doc.md"
    let text = """
      Text.

      ```console
      $ cat Fixtures/f.txt
      from the fixture
      $ false
      $ echo $?
      1
      $ echo out; echo err >&2
      out
      err
      $ cd Fixtures && pwd -P | sed 's|.*/||'; printf 'x\\n' > $TMPDIR/t && cat $TMPDIR/t
      Fixtures
      x
      $ echo "HOME=${HOME:+set} TZ=$TZ NO_COLOR=$NO_COLOR COLUMNS=${COLUMNS:-unset}"
      HOME=set TZ=UTC NO_COLOR=1 COLUMNS=unset
      $ echo changed
      as documented
      $ printf 'a\\nb\\n'
      ...
      c
      ```
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: markdown))
    let runner = DocRunner(root: dir, binDirectory: dir)
    var printed: [String] = []
    let report = try DocSession(runner: runner).run([markdown]) { printed.append($0) }
    #expect(report.commandsRun == 8)
    #expect(report.passed == 6)
    #expect(report.failures.map(\.command.line) == [17, 19])
    #expect(printed.first == "\(markdown):17: error: the output differs: $ echo changed\n  +changed\n  -as documented")
    #expect(report.summary == "doc examples: 8 commands in 1 blocks of 1 files run, 6 passed, 2 failed; no block skipped")
    #expect(!report.succeeded)
    // No file was written into the linked folder.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/Fixtures") == ["f.txt"])

    let blessed = try DocSession(runner: runner, bless: true).run([markdown])
    #expect(blessed.blessed == 1)
    #expect(blessed.failures.map(\.command.line) == [19])
    let after = try String(contentsOfFile: markdown, encoding: .utf8)
    #expect(after == text.replacingOccurrences(of: "as documented", with: "changed") + "\n")
  }
}

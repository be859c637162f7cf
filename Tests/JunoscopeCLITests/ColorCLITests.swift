import Foundation
import JunoscopeCLI
import Reports
import Testing

/// `--color`, `NO_COLOR`, a terminal's width and the locale: piped and `never` output is the plain
/// bytes, `always` the same bytes painted.
@Suite struct ColorCLITests {
  static let old = "\(fixtures)/checklist/cr1-dc1-from-mx480.conf"
  static let new = "\(fixtures)/checklist/cr1-dc1-from-mx480.fixed.conf"
  static let plan = "\(fixtures)/checklist/swap-cr1-dc1.plan"

  /// Runs with a console whose streams are described by `terminal`.
  func run(_ args: [String], terminal: Terminal, stdin: String = "") -> (status: Int32, out: String, err: String) {
    let c = Captured(stdin: stdin)
    var console = c.console
    console.terminal = terminal
    let status = Junoscope.run(args, console: console)
    return (status, c.out, c.err)
  }

  @Test func pipedAndNeverAreTheCapturedBytes() throws {
    let golden = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/compare-cr1-dc1.txt"),
      encoding: .utf8)
    #expect(JunoscopeCLITests.run(["compare", Self.old, Self.new]).out == golden)
    #expect(JunoscopeCLITests.run(["compare", "--color", "never", Self.old, Self.new]).out == golden)
    // A terminal with NO_COLOR set, and --color never on a terminal: plain too.
    #expect(run(["compare", Self.old, Self.new], terminal: Terminal(outIsTerminal: true, noColor: true)).out == golden)
    #expect(run(["compare", "--color", "never", Self.old, Self.new], terminal: Terminal(outIsTerminal: true)).out == golden)
    let lint = JunoscopeCLITests.run(["lint", Self.plan])
    #expect(JunoscopeCLITests.run(["lint", "--color", "never", Self.plan]) == lint)
    #expect(!lint.out.contains("\u{1B}"))
  }

  @Test func alwaysPaintsAndStrippingGivesThePlainBytes() {
    let plain = JunoscopeCLITests.run(["compare", Self.old, Self.new]).out
    let painted = JunoscopeCLITests.run(["compare", "--color", "always", Self.old, Self.new]).out
    #expect(painted.hasPrefix("\u{1B}[1m[edit]\u{1B}[0m\n\u{1B}[32m+  class-of-service {\u{1B}[0m\n"))
    #expect(TextStyle.stripped(painted) == plain)
    let lint = JunoscopeCLITests.run(["lint", "--color", "always", Self.plan])
    #expect(lint.out.contains(": \u{1B}[1;31merror:\u{1B}[0m ["))
    #expect(TextStyle.stripped(lint.out) == JunoscopeCLITests.run(["lint", Self.plan]).out)
    // Diagnostics on standard error: the severity painted.
    let bad = JunoscopeCLITests.run(["show", "--color", "always", "-"], stdin: "system {\n    host-name r1\n")
    #expect(bad.err.hasPrefix("<stdin>:2:17: \u{1B}[1;31merror:\u{1B}[0m missing ';'"))
    #expect(TextStyle.stripped(bad.err) == JunoscopeCLITests.run(["show", "-"], stdin: "system {\n    host-name r1\n").err)
  }

  @Test func autoPaintsATerminalUnlessNoColor() {
    let onTerminal = run(["lint", Self.plan], terminal: Terminal(outIsTerminal: true))
    #expect(onTerminal.out.contains("\u{1B}[1;31merror:"))
    #expect(!run(["lint", Self.plan], terminal: Terminal(outIsTerminal: true, noColor: true)).out.contains("\u{1B}"))
    // Standard error is decided on its own.
    let bad = run(["show", "-"], terminal: Terminal(errIsTerminal: true), stdin: "system {\n")
    #expect(bad.err.contains("\u{1B}[1;31merror:"))
    #expect(!run(["show", "-"], terminal: Terminal(outIsTerminal: true), stdin: "system {\n").err.contains("\u{1B}"))
  }

  @Test func lintWrapsOnlyOnATerminal() {
    let plain = JunoscopeCLITests.run(["lint", Self.plan]).out
    #expect(plain.split(separator: "\n").contains { $0.count > 80 })
    // A width without a terminal (COLUMNS exported into a pipe): not wrapped.
    #expect(run(["lint", Self.plan], terminal: Terminal(width: 60)).out == plain)
    let wrapped = run(["lint", "--color", "never", Self.plan], terminal: Terminal(outIsTerminal: true, width: 60)).out
    let lines = wrapped.split(separator: "\n")
    // Every line fits, but for a word longer than the line (a path with its line and column).
    #expect(lines.allSatisfy { $0.count <= 60 || !$0.dropFirst(4).contains(" ") })
    #expect(lines.count > plain.split(separator: "\n").count)
    // Joined again, the findings are the plain report's.
    func findings(_ s: String) -> String { s.components(separatedBy: "\nfindings by rule:")[0] }
    #expect(findings(wrapped).replacing("\n    ", with: " ") == findings(plain))
    // Written to a file, the report is not wrapped.
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-wrap-\(getpid()).txt").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = run(["lint", "-o", out, Self.plan], terminal: Terminal(outIsTerminal: true, width: 60))
    #expect((try? String(contentsOfFile: out, encoding: .utf8)) == plain)
  }

  @Test func localeDecidesUTF8() {
    #expect(Terminal.isUTF8(environment: ["LANG": "C.UTF-8"]))
    #expect(Terminal.isUTF8(environment: ["LANG": "en_GB.utf8"]))
    #expect(!Terminal.isUTF8(environment: ["LANG": "C"]))
    #expect(!Terminal.isUTF8(environment: ["LANG": "POSIX"]))
    #expect(!Terminal.isUTF8(environment: [:]))
    // LC_ALL, then LC_CTYPE, then LANG; an empty one does not count.
    #expect(!Terminal.isUTF8(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"]))
    #expect(Terminal.isUTF8(environment: ["LC_ALL": "", "LC_CTYPE": "de_DE.UTF-8", "LANG": "C"]))
  }

  @Test func helpAndCompletionsOfferColor() {
    for command in ["lint", "compare", "timeline", "log", "diff", "ci"] {
      #expect(JunoscopeCLITests.run([command, "--help"]).out.contains("--color <when>"), "\(command)")
    }
    #expect(JunoscopeCLITests.run(["compare", "--color", "sometimes", "a", "b"]).status == 64)
    #expect(JunoscopeCLITests.run(["completions", "bash"]).out.contains("--color"))
  }
}

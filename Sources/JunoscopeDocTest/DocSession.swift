import Foundation

/// Runs the console examples of Markdown files and tells what passed, failed and was skipped; with
/// `bless`, writes the output of the failing commands into the files instead (not for expected
/// output with `...` or `[..]`: such a command stays a failure, to be edited by hand).
public struct DocSession: Sendable {
  public var runner: DocRunner
  public var bless: Bool

  public init(runner: DocRunner, bless: Bool = false) {
    self.runner = runner
    self.bless = bless
  }

  /// `paths` are read as given and named so in the report. `progress` gets each failure's text
  /// as it is found.
  public func run(_ paths: [String], progress: (String) -> Void = { _ in }) throws -> DocReport {
    var report = DocReport()
    for path in paths {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let file = DocFile(path: path, text: text)
      report.files += 1
      report.issues += file.issues
      file.issues.forEach { progress($0.description) }
      var blessed: [DocResult] = []
      for block in file.blocks {
        if block.skipReason != nil {
          report.skipped.append(block)
          continue
        }
        if block.commands.isEmpty { continue }
        report.blocksRun += 1
        for result in try runner.run(block) {
          report.commandsRun += 1
          if result.passed {
            report.passed += 1
          } else if bless, result.note == nil, !result.command.hasElision {
            blessed.append(result)
          } else {
            report.failures.append(result)
            progress(DocReport.failureText(result))
          }
        }
      }
      if !blessed.isEmpty {
        var lines = file.lines
        for result in blessed.sorted(by: { $0.command.expectedStart > $1.command.expectedStart }) {
          let start = result.command.expectedStart
          lines.replaceSubrange(start..<(start + result.command.expectedCount), with: result.actual)
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        report.blessed += blessed.count
      }
    }
    return report
  }
}

/// The outcome of a session.
public struct DocReport: Sendable {
  public var files = 0
  public var blocksRun = 0
  public var commandsRun = 0
  public var passed = 0
  public var blessed = 0
  public var failures: [DocResult] = []
  public var skipped: [DocBlock] = []
  public var issues: [DocIssue] = []

  public init() {}

  /// Diff lines shown for one failure.
  public static let maximumDiffLines = 40

  public var succeeded: Bool { failures.isEmpty && issues.isEmpty }

  /// `file:line: $ command`, the note if any, then a diff of the shown output (`-`) against the
  /// printed one (`+`).
  public static func failureText(_ result: DocResult) -> String {
    var text = "\(result.file):\(result.command.line): error: the output differs: $ \(result.command.text)"
    if let note = result.note { text += "\n  (\(note))" }
    let diff = OutputMatch.diff(expected: result.command.expected, actual: result.actual)
    for line in diff.prefix(maximumDiffLines) { text += "\n  " + line }
    if diff.count > maximumDiffLines { text += "\n  … \(diff.count - maximumDiffLines) more diff lines" }
    return text
  }

  /// `doc examples: 41 commands in 14 blocks of 4 files run, 41 passed; 3 blocks skipped: Docs/X.md:12 (reason), …`
  public var summary: String {
    var text = "doc examples: \(commandsRun) commands in \(blocksRun) blocks of \(files) files run, \(passed) passed"
    if blessed > 0 { text += ", \(blessed) blessed" }
    if !failures.isEmpty { text += ", \(failures.count) failed" }
    if !issues.isEmpty { text += "; \(issues.count) malformed" }
    if skipped.isEmpty {
      text += "; no block skipped"
    } else {
      text += "; \(skipped.count) \(skipped.count == 1 ? "block" : "blocks") skipped: "
      text += skipped.map { "\($0.file):\($0.line) (\($0.skipReason ?? ""))" }.joined(separator: ", ")
    }
    return text
  }
}

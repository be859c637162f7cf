/// The console examples of Markdown files, read as `Docs/DocTests.md` describes: a ```` ```console ````
/// block holds commands (lines starting with `$ `, a trailing `\` continues on the next line), each
/// followed by the output it prints; an HTML comment `<!-- doctest: skip (reason) -->` right before
/// a block skips it, with the reason.

/// One command of a console block and the output the document shows for it.
public struct DocCommand: Sendable, Equatable {
  /// The line of its `$ `, 1-based.
  public var line: Int
  /// The command without `$ `; continuation lines are kept, joined with newlines.
  public var text: String
  /// The output lines as shown, trailing blank lines left out.
  public var expected: [String]
  /// Where those lines stand in the file: the 0-based index of the first and how many there are
  /// (blank lines after them, before the next command, are not counted).
  public var expectedStart: Int
  public var expectedCount: Int

  public init(line: Int, text: String, expected: [String], expectedStart: Int, expectedCount: Int) {
    self.line = line
    self.text = text
    self.expected = expected
    self.expectedStart = expectedStart
    self.expectedCount = expectedCount
  }

  /// Whether the expected output uses `...` or `[..]`.
  public var hasElision: Bool { expected.contains { $0.trimmingTrailingSpaces == "..." || $0.contains("[..]") } }
}

/// A ```` ```console ```` block.
public struct DocBlock: Sendable, Equatable {
  public var file: String
  /// The line of the opening fence, 1-based.
  public var line: Int
  /// The reason given by a `<!-- doctest: skip (reason) -->` comment before it; nil when it runs.
  public var skipReason: String?
  public var commands: [DocCommand]
}

/// A problem with the examples themselves (not with what they print).
public struct DocIssue: Sendable, Equatable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var message: String
  public var description: String { "\(file):\(line): error: \(message)" }
}

/// The console blocks of one Markdown text.
public struct DocFile: Sendable, Equatable {
  public var path: String
  public var lines: [String]
  public var blocks: [DocBlock]
  public var issues: [DocIssue]

  public init(path: String, text: String) {
    self.path = path
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if text.hasSuffix("\n") { lines.removeLast() }
    self.lines = lines
    (blocks, issues) = DocFile.parse(lines, path: path)
  }

  static let fence = "```"

  /// The number of backticks a fence line opens with (three or more, as CommonMark), or nil. A
  /// block whose output holds a ``` line (Markdown printed by `review`) is fenced with four.
  static func fenceLength(_ trimmed: String) -> Int? {
    let n = trimmed.utf8.prefix { $0 == UInt8(ascii: "`") }.count
    return n >= fence.utf8.count ? n : nil
  }

  /// Whether `line` closes a block opened by `opening` backticks: at least as many, then nothing.
  static func closes(_ line: String, opening: Int) -> Bool {
    let trimmed = line.trimmingLeadingSpaces.trimmingTrailingSpaces
    guard let n = fenceLength(trimmed), n >= opening else { return false }
    return trimmed.utf8.count == n
  }
  static let directive = "<!-- doctest:"

  private static func parse(_ lines: [String], path: String) -> ([DocBlock], [DocIssue]) {
    var blocks: [DocBlock] = []
    var issues: [DocIssue] = []
    var i = 0
    var pendingSkip: (reason: String, line: Int)?
    while i < lines.count {
      let line = lines[i]
      let trimmed = line.trimmingLeadingSpaces.trimmingTrailingSpaces
      if trimmed.hasPrefix(directive) {
        switch skipReason(trimmed) {
        case .success(let reason): pendingSkip = (reason, i + 1)
        case .failure(let problem): issues.append(DocIssue(file: path, line: i + 1, message: problem.text))
        }
        i += 1
        continue
      }
      if let opening = Self.fenceLength(trimmed) {
        let info = String(trimmed.dropFirst(opening)).trimmingLeadingSpaces
        let start = i
        i += 1
        var body: [Int] = []
        while i < lines.count, !Self.closes(lines[i], opening: opening) {
          body.append(i)
          i += 1
        }
        i += 1
        if info == "console" {
          let (commands, problem) = parseBlock(lines, body)
          if let problem {
            issues.append(
              DocIssue(
                file: path, line: problem + 1,
                message: "a console block's lines before its first '$ ' command: each output needs its command (or use a ```text block)"))
          }
          if commands.isEmpty, problem == nil {
            issues.append(DocIssue(file: path, line: start + 1, message: "a console block with no '$ ' command"))
          }
          blocks.append(DocBlock(file: path, line: start + 1, skipReason: pendingSkip?.reason, commands: commands))
        } else if let skip = pendingSkip {
          issues.append(DocIssue(file: path, line: skip.line, message: "a doctest skip comment not followed by a console block"))
        }
        pendingSkip = nil
        continue
      }
      if !trimmed.isEmpty, let skip = pendingSkip {
        issues.append(DocIssue(file: path, line: skip.line, message: "a doctest skip comment not followed by a console block"))
        pendingSkip = nil
      }
      i += 1
    }
    if let skip = pendingSkip {
      issues.append(DocIssue(file: path, line: skip.line, message: "a doctest skip comment not followed by a console block"))
    }
    return (blocks, issues)
  }

  /// `<!-- doctest: skip (reason) -->` → the reason.
  static func skipReason(_ comment: String) -> Result<String, DocIssueMessage> {
    guard comment.hasSuffix("-->") else { return .failure(DocIssueMessage("a doctest comment must end on its line with '-->'")) }
    var body = comment.dropFirst(directive.count).dropLast(3)[...]
    body = Substring(String(body).trimmingLeadingSpaces.trimmingTrailingSpaces)
    guard body.hasPrefix("skip") else {
      return .failure(DocIssueMessage("unknown doctest comment '\(comment)': the only one is <!-- doctest: skip (reason) -->"))
    }
    let rest = String(body.dropFirst(4)).trimmingLeadingSpaces
    guard rest.hasPrefix("("), rest.hasSuffix(")"), rest.count > 2 else {
      return .failure(DocIssueMessage("a doctest skip needs its reason in parentheses: <!-- doctest: skip (reason) -->"))
    }
    return .success(String(rest.dropFirst().dropLast()).trimmingLeadingSpaces.trimmingTrailingSpaces)
  }

  /// The commands of a block whose lines are at `body`; the index of a line before the first
  /// command, if there is one that is not blank.
  private static func parseBlock(_ lines: [String], _ body: [Int]) -> ([DocCommand], Int?) {
    var commands: [DocCommand] = []
    var problem: Int?
    var k = 0
    while k < body.count {
      let line = lines[body[k]]
      guard line.hasPrefix("$ ") || line == "$" else {
        if problem == nil, !line.trimmingTrailingSpaces.isEmpty { problem = body[k] }
        k += 1
        continue
      }
      let first = body[k]
      var text = String(line.dropFirst(2))
      k += 1
      while text.hasSuffix("\\"), k < body.count {
        text += "\n" + lines[body[k]]
        k += 1
      }
      let start = k
      while k < body.count, !lines[body[k]].hasPrefix("$ "), lines[body[k]] != "$" { k += 1 }
      var expected = body[start..<k].map { lines[$0] }
      while let last = expected.last, last.trimmingTrailingSpaces.isEmpty { expected.removeLast() }
      let startIndex = start < body.count ? body[start] : (body.last.map { $0 + 1 } ?? first + 1)
      commands.append(
        DocCommand(line: first + 1, text: text, expected: expected, expectedStart: startIndex, expectedCount: expected.count))
    }
    return (commands, problem)
  }
}

public struct DocIssueMessage: Error, Equatable {
  public var text: String
  init(_ text: String) { self.text = text }
}

extension String {
  var trimmingTrailingSpaces: String {
    var s = Substring(self)
    while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
    return String(s)
  }
  var trimmingLeadingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" })
  }
}

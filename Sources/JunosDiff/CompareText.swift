public import JunosConfig

/// Captured `show | compare` text, parsed: the `[edit …]` hunks and what each line says.
///
/// Accepts what captures contain around and inside the diff: prompts, `{master}`, echoed
/// commands and other command output between compares (skipped), the `[edit]` line config mode
/// prints above a prompt, `{ ... }` context lines (also when a copy-paste lost their leading
/// space), `!` lines, markers indented by a paste, and `> ` quoting. Statements are read by braces
/// and `;`, never by column. A pager prompt (`---(more)---`) is reported as a truncation; a line
/// inside a diff that is none of the above is reported as garbled.
public struct CompareText: Sendable {
  /// The text that was parsed.
  public let file: SourceFile
  /// The hunks in order; several compares in one capture follow each other.
  public internal(set) var hunks: [Hunk] = []
  /// Trees holding the statements of `+`/`-` lines (``Entry/added(fragment:node:range:)``
  /// and ``Entry/deleted(fragment:node:range:)`` point into them).
  public internal(set) var fragments: [ConfigTree] = []
  /// Problems, located in ``file``.
  public internal(set) var diagnostics: [Diagnostic] = []
  /// Lines that were not part of any diff (prompts, other output).
  public internal(set) var skippedLines = 0

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// One `[edit …]` banner and the lines under it.
  public struct Hunk: Sendable {
    /// The banner's words (`["interfaces", "ge-0/0/0", "unit", "0"]`); empty for `[edit]`.
    public var path: [String]
    /// Where the banner is.
    public var range: Range<Int>
    /// What the lines say, in order.
    public var entries: [Entry]
  }

  /// A statement named on one line: `words [ list ] { ... }`.
  public struct Stub: Sendable, Hashable {
    /// Its words.
    public var words: [String]
    /// Its `[ ]` values, if it has a list.
    public var list: [String]?
    /// Where the line is.
    public var range: Range<Int>
  }

  /// What one line (or one `+`/`-` statement with its subtree) of a hunk says.
  public enum Entry: Sendable {
    /// ` stmt { ... }`: an unchanged statement; the next insertion goes after it.
    case context(Stub)
    /// A `+` statement: `node` in `fragments[fragment]`.
    case added(fragment: Int, node: NodeID, range: Range<Int>)
    /// A `-` statement: `node` in `fragments[fragment]`.
    case deleted(fragment: Int, node: NodeID, range: Range<Int>)
    /// `! inactive: stmt { ... }` and the like: the tag is `inactive:`, `active:`, `protect:` or
    /// `unprotect:`.
    case flag(String, Stub)
    /// `! stmt { ... }` without a tag: an ordered-list entry moved to this place.
    case moved(Stub)
    /// `-`/`+` comment lines above a context line: the statement's annotation changed.
    case annotation(old: String?, new: String?, Stub)
  }

  /// Whether a file looks like compare text rather than a configuration or set commands: it
  /// has an `[edit …]` banner followed by a `+`, `-` or `!` line.
  public static func looksLikeCompare(_ file: SourceFile) -> Bool {
    // A banner holds `[edit`: a file without one anywhere (any configuration) is answered in one
    // pass over its bytes, without splitting it into lines.
    guard file.bytes.offset(of: "[edit") != nil else { return false }
    var sawBanner = false
    var result = false
    forEachLine(file, quoted: isQuoted(file)) { start, end in
      guard start < end else { return true }
      let b = file.bytes
      if isBanner(b, start, end) {
        sawBanner = true
      } else if sawBanner, markerAt(b, start, end) != nil {
        result = true
        return false
      }
      return true
    }
    return result
  }

  /// Parses compare text.
  public static func parse(_ file: SourceFile) -> CompareText {
    var p = CompareParser(file: file)
    p.run()
    return p.result
  }

  // MARK: line helpers

  /// Whether every non-empty line starts with `>` (text quoted in mail or Markdown).
  static func isQuoted(_ file: SourceFile) -> Bool {
    var any = false
    var all = true
    forEachLine(file, quoted: false) { s, e in
      if s < e {
        any = true
        if file.bytes[s] != UInt8(ascii: ">") {
          all = false
          return false
        }
      }
      return true
    }
    return any && all
  }

  /// Calls `body(start, end)` for every line, from its first non-blank byte to its end (CR
  /// and trailing blanks dropped); stops when `body` returns false.
  static func forEachLine(_ file: SourceFile, quoted: Bool, _ body: (Int, Int) -> Bool) {
    let b = file.bytes
    var i = 0
    while i < b.count {
      var e = i
      while e < b.count && b[e] != 0x0A { e += 1 }
      let next = e + 1
      var s = i
      while e > s && (b[e - 1] == 0x0D || b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
      while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
      if quoted && s < e && b[s] == UInt8(ascii: ">") {
        s += 1
        while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
      }
      if !body(s, e) { return }
      i = next
    }
  }

  static func isBanner(_ b: [UInt8], _ s: Int, _ e: Int) -> Bool {
    guard e - s >= 6, b[e - 1] == UInt8(ascii: "]") else { return false }
    let head = Array("[edit".utf8)
    guard b[s..<(s + 5)].elementsEqual(head) else { return false }
    return b[s + 5] == UInt8(ascii: "]") || b[s + 5] == 0x20
  }

  /// The marker of a `+`, `-` or `!` line (a marker followed by a blank or the line's end).
  static func markerAt(_ b: [UInt8], _ s: Int, _ e: Int) -> UInt8? {
    let c = b[s]
    guard c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: "!") else { return nil }
    guard s + 1 == e || b[s + 1] == 0x20 || b[s + 1] == 0x09 else { return nil }
    return c
  }

  /// Whether the line ends with `{ ... }` (a context or metadata line).
  static func endsWithStub(_ b: [UInt8], _ s: Int, _ e: Int) -> Bool {
    let tail = Array("{ ... }".utf8)
    return e - s >= tail.count && b[(e - tail.count)..<e].elementsEqual(tail)
  }
}

/// The line-by-line reader behind ``CompareText/parse(_:)``.
struct CompareParser {
  let file: SourceFile
  var result: CompareText

  /// A line of the current hunk, before statements are read.
  struct Line {
    enum Kind { case plus, minus, bang, stub }
    var kind: Kind
    var lineStart: Int
    /// First byte after the marker (for a stub: of the statement).
    var content: Int
    var end: Int
  }

  var lines: [Line] = []
  var hunkOpen = false
  var afterBlank = false
  /// Inside a run of marker lines with no banner (reported once).
  var inOrphanRun = false

  init(file: SourceFile) {
    self.file = file
    self.result = CompareText(file: file)
  }

  mutating func error(_ id: DiagnosticID, _ message: String, _ range: Range<Int>) {
    result.diagnostics.append(Diagnostic(id, message, in: file, at: range))
  }

  mutating func run() {
    let b = file.bytes
    let quoted = CompareText.isQuoted(file)
    CompareText.forEachLine(file, quoted: quoted) { s, e in
      if s == e {
        afterBlank = true
        inOrphanRun = false
        return true
      }
      if CompareText.isBanner(b, s, e) {
        inOrphanRun = false
        closeHunk()
        openHunk(s, e)
        return true
      }
      if let m = CompareText.markerAt(b, s, e) {
        guard hunkOpen else {
          if !inOrphanRun {
            error(
              .missingBanner,
              "'\(Character(Unicode.Scalar(m)))' line with no [edit …] banner above it: the capture starts inside a diff or lost its banner",
              s..<e)
          }
          inOrphanRun = true
          afterBlank = false
          return true
        }
        inOrphanRun = false
        let kind: Line.Kind = m == UInt8(ascii: "+") ? .plus : m == UInt8(ascii: "-") ? .minus : .bang
        lines.append(Line(kind: kind, lineStart: s, content: s + 1, end: e))
        afterBlank = false
        return true
      }
      if hunkOpen && CompareText.endsWithStub(b, s, e) {
        lines.append(Line(kind: .stub, lineStart: s, content: s, end: e))
        afterBlank = false
        return true
      }
      let artefact = CaptureArtefact.classify(b, from: s, to: e, topLevel: true)
      if artefact == .pager {
        error(.truncatedCapture, CaptureArtefact.pagerMessage(b[s..<e], truncated: "diff"), s..<e)
      } else if artefact == nil && hunkOpen && !afterBlank && !lines.isEmpty {
        // (A banner with no lines yet was config mode's `[edit …]` above a prompt such as `root#`.)
        error(.unexpectedLine, "not a diff line: the capture was edited or garbled here", s..<e)
      }
      result.skippedLines += 1
      closeHunk()
      afterBlank = false
      return true
    }
    closeHunk()
  }

  mutating func openHunk(_ s: Int, _ e: Int) {
    let inner = file.bytes[(s + 5)..<(e - 1)]
    var words: [String] = []
    var i = inner.startIndex
    while i < inner.endIndex {
      while i < inner.endIndex && inner[i] == 0x20 { i += 1 }
      guard i < inner.endIndex else { break }
      let start = i
      if inner[i] == UInt8(ascii: "\"") {
        i += 1
        while i < inner.endIndex && inner[i] != UInt8(ascii: "\"") { i += inner[i] == UInt8(ascii: "\\") ? 2 : 1 }
        i = min(i + 1, inner.endIndex)
      } else {
        while i < inner.endIndex && inner[i] != 0x20 { i += 1 }
      }
      words.append(String(decoding: inner[start..<i], as: UTF8.self))
    }
    result.hunks.append(CompareText.Hunk(path: words, range: s..<e, entries: []))
    hunkOpen = true
    afterBlank = false
  }

  /// Reads the statements of the current hunk's lines and ends it (a banner with no lines, as
  /// config mode prints above its prompt, is dropped).
  mutating func closeHunk() {
    defer {
      lines.removeAll()
      hunkOpen = false
    }
    guard hunkOpen else { return }
    guard !lines.isEmpty else {
      result.hunks.removeLast()
      return
    }
    var entries: [CompareText.Entry] = []
    var k = 0
    while k < lines.count {
      let line = lines[k]
      switch line.kind {
      case .stub:
        if let stub = stub(line.content, line.end) { entries.append(.context(stub)) }
        k += 1
      case .bang:
        bang(line, into: &entries)
        k += 1
      case .plus, .minus:
        // Comment lines right above a context line: an annotation change.
        var j = annotationEnd(k)
        if j > k {
          var old: String? = nil
          var new: String? = nil
          var c = k
          while c < j, let (end, text) = comment(at: c) {
            if lines[c].kind == .minus { old = text } else { new = text }
            c = end + 1
          }
          if let s = stub(lines[j].content, lines[j].end) { entries.append(.annotation(old: old, new: new, s)) }
          k = j + 1
          continue
        }
        // A run of lines with the same marker: statements read as curly text.
        j = k + 1
        while j < lines.count && lines[j].kind == line.kind && annotationEnd(j) == j { j += 1 }
        statements(lines[k..<j], into: &entries)
        k = j
      }
    }
    result.hunks[result.hunks.count - 1].entries = entries
  }

  /// If lines `k…` are `+`/`-` comments followed by a context line (an annotation change), the
  /// index of that context line; otherwise `k`.
  func annotationEnd(_ k: Int) -> Int {
    var j = k
    while let (end, _) = comment(at: j) { j = end + 1 }
    return j > k && j < lines.count && lines[j].kind == .stub ? j : k
  }

  /// A comment on `+`/`-` lines starting at line `k` (`/* text */`, or `/*` … `*/` over several
  /// lines with the same marker): the index of its last line and its text.
  func comment(at k: Int) -> (Int, String)? {
    guard k < lines.count, lines[k].kind == .plus || lines[k].kind == .minus else { return nil }
    let b = file.bytes
    var s = lines[k].content
    while s < lines[k].end && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
    guard lines[k].end - s >= 2, b[s] == UInt8(ascii: "/"), b[s + 1] == UInt8(ascii: "*") else { return nil }
    func closes(_ line: Line, from: Int) -> Bool {
      line.end - from >= 2 && b[line.end - 2] == UInt8(ascii: "*") && b[line.end - 1] == UInt8(ascii: "/")
    }
    var text = file.text(s..<lines[k].end)
    var m = k
    var from = s + 2
    while !closes(lines[m], from: from) {
      m += 1
      guard m < lines.count, lines[m].kind == lines[k].kind else { return nil }
      from = lines[m].content
      // The continuation line is the annotation's own text after the marker and one blank.
      let blank = from < lines[m].end && (b[from] == 0x20 || b[from] == 0x09)
      text += "\n" + file.text((blank ? from + 1 : from)..<lines[m].end)
    }
    return (m, Trivia(.annotation, text).annotationText)
  }

  /// Parses `words [ list ] { ... }` between `s` and `e` (the stub suffix included).
  mutating func stub(_ s: Int, _ e: Int) -> CompareText.Stub? {
    let b = file.bytes
    var start = s
    while start < e && (b[start] == 0x20 || b[start] == 0x09) { start += 1 }
    let stmtEnd = e - "{ ... }".utf8.count
    var text = Array(b[start..<stmtEnd])
    text.append(UInt8(ascii: ";"))
    let parsed = ConfigParser.parse(SourceFile(path: file.path, bytes: text), syntax: .curly)
    let tree = parsed.tree
    guard !parsed.hasErrors, let node = tree.firstChild(of: ConfigTree.root), tree.nextSibling(of: node) == nil,
      tree.wordCount(of: node) > 0
    else {
      error(.unexpectedLine, "cannot read the statement of this context line", start..<e)
      return nil
    }
    return CompareText.Stub(words: tree.words(of: node), list: tree.listValues(of: node), range: start..<e)
  }

  mutating func bang(_ line: Line, into entries: inout [CompareText.Entry]) {
    let b = file.bytes
    var s = line.content
    while s < line.end && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
    guard CompareText.endsWithStub(b, s, line.end) else {
      error(.unexpectedLine, "a '!' line names a statement as 'stmt { ... }'", line.lineStart..<line.end)
      return
    }
    for tag in ["inactive:", "active:", "protect:", "unprotect:"] {
      let t = Array(tag.utf8)
      if line.end - s > t.count, b[s..<(s + t.count)].elementsEqual(t), b[s + t.count] == 0x20 {
        if let st = stub(s + t.count, line.end) { entries.append(.flag(tag, st)) }
        return
      }
    }
    if let st = stub(s, line.end) { entries.append(.moved(st)) }
  }

  /// A message's `opened at L:C` (counted in the run's text) counted in the capture.
  func relocated(_ message: String, runFile: SourceFile, base: Int) -> String {
    guard let r = message.firstRange(of: "opened at ") else { return message }
    let rest = message[r.upperBound...]
    let digits = rest.prefix { $0.isNumber || $0 == ":" }
    let parts = digits.split(separator: ":")
    guard parts.count == 2, let line = Int(parts[0]), let column = Int(parts[1]), line >= 1, line <= runFile.lineStarts.count
    else { return message }
    let where_ = file.location(of: base + runFile.lineStarts[line - 1] + column - 1)
    let head = String(message[..<r.upperBound])
    let tail = String(rest.dropFirst(digits.count))
    return head + String(where_.line) + ":" + String(where_.column) + tail
  }

  /// Reads a run of `+` (or `-`) lines as curly text: the markers are blanked, positions kept,
  /// so diagnostics point into the capture.
  mutating func statements(_ run: ArraySlice<Line>, into entries: inout [CompareText.Entry]) {
    guard let first = run.first, let last = run.last else { return }
    let base = first.lineStart
    var text = Array(file.bytes[base..<last.end])
    // Blank everything outside the statements' text: markers, and quoting before them.
    var prevEnd = base
    for line in run {
      for k in prevEnd..<line.content where k - base < text.count && text[k - base] != 0x0A { text[k - base] = 0x20 }
      prevEnd = line.end
    }
    let parsed = ConfigParser.parse(SourceFile(path: file.path, bytes: text), syntax: .curly)
    let runFile = SourceFile(path: file.path, bytes: text)
    for var d in parsed.diagnostics {
      d.range = (d.range.lowerBound + base)..<(d.range.upperBound + base)
      d.location = file.location(of: d.range.lowerBound)
      d.path = file.path
      d.message = relocated(d.message, runFile: runFile, base: base)
      result.diagnostics.append(d)
    }
    var fragment = parsed.tree
    // A multi-line annotation's continuation lines are its own text after the marker and one
    // blank: take off what the blanked prefix and that blank added.
    let prefix = first.content - first.lineStart + 1
    for node in fragment.allStatements() {
      guard let a = fragment.annotation(of: node), a.utf8.contains(0x0A) else { continue }
      let lines = a.split(separator: "\n", omittingEmptySubsequences: false)
      let verbatim = [lines[0]] + lines.dropFirst().map { $0.dropFirst(min(prefix, $0.prefix { $0 == " " || $0 == "\t" }.count)) }
      fragment.setAnnotation(verbatim.joined(separator: "\n"), of: node)
    }
    // Repeated statements inside are one, as in the configurations compared and applied to.
    fragment.mergeDuplicateBlocks()
    let index = result.fragments.count
    result.fragments.append(fragment)
    for node in fragment.children(of: ConfigTree.root) {
      let r = fragment.sourceRange(of: node)
      let range = (r.lowerBound + base)..<(r.upperBound + base)
      entries.append(
        first.kind == .plus ? .added(fragment: index, node: node, range: range) : .deleted(fragment: index, node: node, range: range))
    }
  }
}

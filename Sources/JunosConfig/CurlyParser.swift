/// Recovering parser for curly-brace configuration text.
///
/// One pass over the bytes, no recursion: nesting depth is limited only by memory. On an error
/// it records one diagnostic for the statement, recovers at the next `;`, `}` or line end, and
/// goes on.
struct CurlyParser {
  let file: SourceFile
  var nodes: [NodeRecord] = []
  var words: [WordRef] = []
  var extras: [Extras] = []
  var headers: [String] = []
  var diagnostics: [Diagnostic] = []
  var skippedLines = 0

  /// Open blocks; `stack[0]` is the root.
  var stack: [Int32] = [0]
  // The statement being read.
  var stmtStart = -1
  var wordStart: Int32 = 0
  var listStart: Int32 = -1
  var listOpenedAt = 0
  var inList = false
  var prefixFlags: StatementFlags = []
  var leading: [Trivia] = []
  var inline: [Trivia] = []
  var stanzaHasError = false
  // Where a same-line `#` comment attaches: the statement just ended by `;`, `{` or `}`.
  var trailerTarget: Int32 = -1
  var trailerIsClose = false
  var atLineStart = true
  var sawStatement = false
  // Capture text around the configuration (blank lines, echoed command) is kept verbatim.
  var lineStart = 0
  var lineHasContent = false
  var firstContentLine = -1
  var lastContentEnd = 0

  static func parse(_ file: SourceFile) -> ParseResult {
    var p = CurlyParser(file: file)
    p.nodes.reserveCapacity(file.bytes.count / 40 + 2)
    p.words.reserveCapacity(file.bytes.count / 12 + 2)
    p.nodes.append(NodeRecord(parent: -1, wordStart: 0, wordCount: 0, listCount: -1, flags: .block, source: 0..<file.bytes.count))
    file.bytes.withUnsafeBufferPointer { p.run($0) }
    var tree = ConfigTree(
      storage: file.bytes, nodes: p.nodes, words: p.words, extras: p.extras, headers: p.headers, path: file.path)
    let first = p.firstContentLine < 0 ? file.bytes.count : p.firstContentLine
    tree.leadingCapture = Array(file.bytes[..<first])
    tree.trailingCapture = Array(file.bytes[max(first, p.lastContentEnd)...])
    return ParseResult(tree: tree, diagnostics: p.diagnostics, syntax: .curly, skippedLines: p.skippedLines)
  }

  var hasPendingWords: Bool { Int32(words.count) > wordStart || inList }

  mutating func report(_ id: DiagnosticID, _ message: String, at range: Range<Int>) {
    if stanzaHasError { return }
    stanzaHasError = true
    diagnostics.append(Diagnostic(id, message, in: file, at: range))
  }

  mutating func run(_ buf: UnsafeBufferPointer<UInt8>) {
    let n = buf.count
    guard n < Int(Int32.max) else {
      diagnostics.append(Diagnostic(.invalidByte, "input larger than 2 GiB is not supported", in: file, at: 0..<0))
      return
    }
    var i = 0
    if n >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF { i = 3 }
    while i < n {
      let b = buf[i]
      switch b {
      case 0x20, 0x09, 0x0C, 0x0B:
        i += 1
        while i < n && buf[i] == 0x20 { i += 1 }
      case 0x0A, 0x0D:
        endOfLine(at: i)
        i += (b == 0x0D && i + 1 < n && buf[i + 1] == 0x0A) ? 2 : 1
        atLineStart = true
        if lineHasContent { lastContentEnd = i }
        lineHasContent = false
        lineStart = i
      case UInt8(ascii: "{"):
        if !hasPendingWords && atLineStart, let skip = artefact(buf, i) {
          i = skip
          continue
        }
        content()
        openBlock(at: i)
        i += 1
        atLineStart = false
      case UInt8(ascii: "}"):
        content()
        closeBlock(buf, at: i)
        i += 1
        // `};` closes some blocks (apply-flags omit output).
        var j = i
        while j < n && (buf[j] == 0x20 || buf[j] == 0x09) { j += 1 }
        if j < n && buf[j] == UInt8(ascii: ";") && trailerTarget >= 0 && trailerIsClose {
          nodes[Int(trailerTarget)].flags.insert(.braceSemicolon)
          i = j + 1
        }
        atLineStart = false
      case UInt8(ascii: ";"):
        content()
        closeOpenList()
        if Int32(words.count) > wordStart {
          finishLeaf(end: i + 1)
        } else {
          resetStatement()  // a stray `;` (after an annotation, say) is harmless
        }
        i += 1
        atLineStart = false
      case UInt8(ascii: "["):
        if !hasPendingWords && atLineStart, let skip = artefact(buf, i) {
          i = skip
          continue
        }
        content()
        if Int32(words.count) == wordStart || inList {
          report(.unexpectedToken, "unexpected '['", at: i..<i + 1)
        } else {
          inList = true
          listStart = Int32(words.count)
          listOpenedAt = i
        }
        i += 1
        atLineStart = false
      case UInt8(ascii: "]"):
        content()
        if inList {
          inList = false
        } else {
          report(.unexpectedToken, "unexpected ']' without '['", at: i..<i + 1)
        }
        i += 1
        atLineStart = false
      case UInt8(ascii: "\""):
        content()
        if stmtStart < 0 { stmtStart = i }
        let start = i
        i += 1
        var closed = false
        while i < n {
          let c = buf[i]
          if c == UInt8(ascii: "\"") {
            closed = true
            i += 1
            break
          }
          if c == UInt8(ascii: "\\") && i + 1 < n && buf[i + 1] != 0x0A && buf[i + 1] != 0x0D {
            i += 2
            continue
          }
          if c == 0x0A || c == 0x0D { break }
          i += 1
        }
        if !closed { report(.unterminatedString, "missing '\"' to end the quoted string", at: start..<i) }
        words.append(WordRef(start: Int32(start), end: Int32(i)))
        atLineStart = false
      case UInt8(ascii: "#"):
        content()
        let start = i
        while i < n && buf[i] != 0x0A && buf[i] != 0x0D { i += 1 }
        comment(.hash, start..<i)
      case UInt8(ascii: "/") where i + 1 < n && buf[i + 1] == UInt8(ascii: "*"):
        content()
        let start = i
        i += 2
        var closed = false
        while i + 1 < n {
          if buf[i] == UInt8(ascii: "*") && buf[i + 1] == UInt8(ascii: "/") {
            closed = true
            break
          }
          i += 1
        }
        if closed {
          i += 2
        } else {
          i = n
          report(.unterminatedComment, "missing '*/' to end the comment", at: start..<start + 2)
        }
        comment(.annotation, start..<i)
      default:
        if b < 0x20 || b == 0x7F {
          report(.invalidByte, "unexpected control byte 0x\(String(b, radix: 16, uppercase: true))", at: i..<i + 1)
          i += 1
          continue
        }
        let start = i
        while i < n {
          let c = buf[i]
          if c <= 0x20 || c == UInt8(ascii: ";") || c == UInt8(ascii: "{") || c == UInt8(ascii: "}")
            || c == UInt8(ascii: "[") || c == UInt8(ascii: "]")
          {
            break
          }
          i += 1
        }
        // Only a line's first word can start a capture artefact, and only a few words can.
        if atLineStart && !hasPendingWords && Self.mayStartArtefact(buf, start, i), let skip = artefact(buf, start) {
          i = skip
          continue
        }
        content()
        atLineStart = false
        if Int32(words.count) == wordStart && !inList, let flag = prefix(buf, start, i) {
          if stmtStart < 0 { stmtStart = start }
          prefixFlags.insert(flag)
          continue
        }
        if stmtStart < 0 { stmtStart = start }
        words.append(WordRef(start: Int32(start), end: Int32(i)))
      }
    }
    if lineHasContent { lastContentEnd = n }
    endOfInput(n)
  }

  @inline(__always) mutating func content() {
    if !lineHasContent {
      lineHasContent = true
      if firstContentLine < 0 { firstContentLine = lineStart }
    }
  }

  /// Whether the word `buf[s..<e]` could begin a prompt, pager prompt, fence or echoed command.
  @inline(__always) static func mayStartArtefact(_ buf: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
    let first = buf[s]
    let last = buf[e - 1]
    return first == UInt8(ascii: "-") || first == UInt8(ascii: "`") || last == UInt8(ascii: ">") || last == UInt8(ascii: "#")
      || ((first == UInt8(ascii: "s") || first == UInt8(ascii: "r") || first == UInt8(ascii: "f")) && e - s == 4)
      || (first == UInt8(ascii: "r") && e - s == 3)
  }

  /// Skips a capture artefact line starting at `i`, returning the offset of its line end.
  mutating func artefact(_ buf: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
    var end = i
    while end < buf.count && buf[end] != 0x0A && buf[end] != 0x0D { end += 1 }
    guard let kind = CaptureArtefact.classify(buf, from: i, to: end, topLevel: stack.count == 1) else { return nil }
    skippedLines += 1
    if kind == .pager {
      stanzaHasError = false
      report(.truncatedCapture, CaptureArtefact.pagerMessage(buf[i..<end], truncated: "configuration"), at: i..<end)
      stanzaHasError = false
    }
    return end
  }

  func prefix(_ buf: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> StatementFlags? {
    guard e - s >= 7, buf[e - 1] == UInt8(ascii: ":") else { return nil }
    let w = UnsafeBufferPointer(rebasing: buf[s..<e])
    for (flag, spelling) in StatementFlags.prefixes where w.elementsEqual(spelling.utf8) { return flag }
    return nil
  }

  mutating func comment(_ kind: Trivia.Kind, _ r: Range<Int>) {
    let t = Trivia(kind, file.text(r))
    if hasPendingWords {
      // A `#` comment runs to the line end, so it cannot be printed inside the statement: it is
      // kept with the comments before it.
      if kind == .hash { leading.append(t) } else { inline.append(t) }
    } else if trailerTarget >= 0 {
      var e = extrasOf(trailerTarget)
      if trailerIsClose { e.closeTrailer = t } else { e.trailer = t }
      setExtras(e, trailerTarget)
      trailerTarget = -1
    } else if !sawStatement && stack.count == 1 && leading.isEmpty && kind == .hash
      && (t.text.utf8.starts(with: "## Last commit:".utf8) || t.text.utf8.starts(with: "## Last changed:".utf8))
    {
      headers.append(t.text)
    } else {
      leading.append(t)
    }
    atLineStart = false
  }

  mutating func endOfLine(at i: Int) {
    trailerTarget = -1
    if hasPendingWords && !inList {
      let last = words.last.map { Int($0.end) } ?? i
      report(.missingSemicolon, "missing ';' at the end of the statement", at: last..<last)
      finishLeaf(end: last)
    }
  }

  mutating func openBlock(at i: Int) {
    closeOpenList()
    if Int32(words.count) == wordStart {
      report(.emptyStatement, "'{' without a statement name", at: i..<i + 1)
    }
    let id = makeNode(end: i + 1, block: true)
    stack.append(id)
    if stack.count == ConfigTree.maximumDepth + 2 {
      report(
        .nestingTooDeep, "nesting too deep: more than \(ConfigTree.maximumDepth) levels of blocks (no Junos configuration nests so deep)",
        at: i..<i + 1)
    }
    trailerTarget = id
    trailerIsClose = false
  }

  mutating func closeBlock(_ buf: UnsafeBufferPointer<UInt8>, at i: Int) {
    finishPendingStatement(orAt: i)
    guard stack.count > 1 else {
      report(.unbalancedCloseBrace, "unexpected '}' with no block open", at: i..<i + 1)
      resetStatement()
      return
    }
    let id = stack.removeLast()
    nodes[Int(id)].sourceEnd = Int32(i + 1)
    if !leading.isEmpty || !inline.isEmpty {
      var e = extrasOf(id)
      e.closing.append(contentsOf: leading)
      e.closing.append(contentsOf: inline)
      setExtras(e, id)
    }
    resetStatement()
    trailerTarget = id
    trailerIsClose = true
  }

  mutating func finishLeaf(end: Int) {
    let id = makeNode(end: end, block: false)
    trailerTarget = id
    trailerIsClose = false
  }

  /// Creates the statement read so far as the last child of the innermost open block.
  mutating func makeNode(end: Int, block: Bool) -> Int32 {
    let total = Int32(words.count) - wordStart
    let wc = listStart >= 0 ? listStart - wordStart : total
    let lc = listStart >= 0 ? total - wc : -1
    let parent = stack[stack.count - 1]
    let id = Int32(nodes.count)
    var rec = NodeRecord(
      parent: parent, wordStart: wordStart, wordCount: wc, listCount: lc,
      flags: block ? prefixFlags.union(.block) : prefixFlags, source: max(stmtStart, 0)..<end)
    if stmtStart < 0 { rec.sourceStart = Int32(end - 1) }
    let last = nodes[Int(parent)].lastChild
    rec.prev = last
    if !leading.isEmpty || !inline.isEmpty {
      rec.extras = Int32(extras.count)
      extras.append(Extras(leading: leading, inline: inline))
    }
    nodes.append(rec)
    if last >= 0 { nodes[Int(last)].next = id } else { nodes[Int(parent)].firstChild = id }
    nodes[Int(parent)].lastChild = id
    sawStatement = true
    resetStatement()
    return id
  }

  mutating func resetStatement() {
    stmtStart = -1
    wordStart = Int32(words.count)
    listStart = -1
    inList = false
    prefixFlags = []
    if !leading.isEmpty { leading = [] }
    if !inline.isEmpty { inline = [] }
    stanzaHasError = false
  }

  func extrasOf(_ id: Int32) -> Extras {
    let e = nodes[Int(id)].extras
    return e < 0 ? Extras() : extras[Int(e)]
  }

  mutating func setExtras(_ e: Extras, _ id: Int32) {
    let idx = nodes[Int(id)].extras
    if idx >= 0 {
      extras[Int(idx)] = e
    } else {
      nodes[Int(id)].extras = Int32(extras.count)
      extras.append(e)
    }
  }

  func statementName(_ id: Int32) -> String {
    let r = nodes[Int(id)]
    return (0..<Int(r.wordCount)).map { k -> String in
      let w = words[Int(r.wordStart) + k]
      return file.text(Int(w.start)..<Int(w.end))
    }.joined(separator: " ")
  }

  /// Reports an unclosed `[` of the statement being read, if any, and closes the list.
  mutating func closeOpenList() {
    guard inList else { return }
    report(.unterminatedList, "missing ']' to close the list", at: listOpenedAt..<listOpenedAt + 1)
    inList = false
  }

  /// Ends a statement cut short by `}` or the end of input: one diagnostic (an unclosed list or
  /// a missing `;`), then the statement is kept as a leaf.
  mutating func finishPendingStatement(orAt fallback: Int) {
    guard hasPendingWords else { return }
    let last = words.last.map { Int($0.end) } ?? fallback
    if inList {
      closeOpenList()
    } else {
      report(.missingSemicolon, "missing ';' at the end of the statement", at: last..<last)
    }
    finishLeaf(end: last)
  }

  mutating func endOfInput(_ n: Int) {
    finishPendingStatement(orAt: n)
    if stack.count > 1 {
      let open = stack[1]
      let innermost = stack[stack.count - 1]
      let depth = stack.count - 1
      let opened = file.location(of: Int(nodes[Int(innermost)].sourceStart))
      stanzaHasError = false
      report(
        .missingCloseBrace,
        "missing '}': input ends inside \(depth) open block\(depth == 1 ? "" : "s") (outermost '\(statementName(open))', innermost '\(statementName(innermost))' opened at \(opened))",
        at: n..<n)
      for id in stack.dropFirst() { nodes[Int(id)].sourceEnd = Int32(n) }
      stack.removeSubrange(1...)
    }
    if !leading.isEmpty {
      var e = extrasOf(0)
      e.closing.append(contentsOf: leading)
      setExtras(e, 0)
      leading = []
    }
  }
}

extension ConfigTree {
  /// Renders the configuration as `show configuration | display set` prints it: one `set` line
  /// per leaf, `[ ]` lists expanded one value per line, `deactivate` after the object's `set`
  /// lines, `protect` likewise, `annotate` lines last.
  ///
  /// - Parameters:
  ///   - options: Masking; annotations are printed as `annotate PATH "text"` when
  ///     `options.comments` is on.
  ///   - keywords: Decides how much of a leaf `deactivate` names (`description`, not its value).
  /// - Returns: UTF-8 text, one command per line.
  public func renderSet(_ options: RenderOptions = RenderOptions(), keywords: KeywordTable = .standard) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(storage.count * 2)
    var firsts: [Int32] = []
    var c = nodes[0].lastChild
    while c >= 0 {
      firsts.append(c)
      c = nodes[Int(c)].prev
    }
    appendSet(&out, reversedStatements: firsts, prefix: [], options, keywords: keywords)
    return out
  }

  /// The `set` commands that create one statement and everything under it, below its parent's
  /// path (see ``setPath(of:_:)``).
  public func renderSet(statement node: NodeID, _ options: RenderOptions = RenderOptions(), keywords: KeywordTable = .standard) -> [UInt8] {
    var out: [UInt8] = []
    let prefix = parent(of: node).map { setPath(of: $0, options) } ?? []
    appendSet(&out, reversedStatements: [node.raw], prefix: prefix, options, keywords: keywords)
    return out
  }

  /// The words of a statement and its ancestors as a `set` line spells them (no command word):
  /// `interfaces xe-0/0/0 unit 0`. Empty for the root.
  public func setPath(of node: NodeID, _ options: RenderOptions = RenderOptions()) -> [UInt8] {
    var chain: [NodeID] = []
    var n: NodeID? = node
    while let c = n, c != ConfigTree.root {
      chain.append(c)
      n = parent(of: c)
    }
    var out: [UInt8] = []
    for c in chain.reversed() where wordCount(of: c) > 0 {
      if !out.isEmpty { out.append(0x20) }
      appendStatement(&out, c, options, prefixes: false)
    }
    return out
  }

  /// The path `delete`, `deactivate`, `annotate` and `insert` use to name a statement: its
  /// parent's path and its identifying words (`… description`, not the description itself).
  public func setIdentity(of node: NodeID, _ options: RenderOptions = RenderOptions(), keywords: KeywordTable = .standard) -> [UInt8] {
    var out = parent(of: node).map { setPath(of: $0, options) } ?? []
    var tmp: [UInt8] = []
    appendStatement(&tmp, node, options, prefixes: false)
    if !out.isEmpty && !tmp.isEmpty { out.append(0x20) }
    out.append(contentsOf: firstWords(tmp, keywords.identityWordCount(of: node, in: self)))
    return out
  }

  func appendSet(
    _ out: inout [UInt8], reversedStatements: [Int32], prefix: [UInt8], _ options: RenderOptions, keywords: KeywordTable
  ) {
    // Path of the current statement as rendered bytes, kept incrementally: pathEnds[d] is the
    // length of `path` once the statement at depth d has been added.
    var path: [UInt8] = prefix
    var pathEnds: [Int] = []
    var annotateLines: [UInt8] = []
    var stack: [(node: Int32, depth: Int, closing: Bool)] = reversedStatements.map { ($0, 0, false) }
    while let (id, depth, closing) = stack.popLast() {
      let node = NodeID(id)
      let r = nodes[Int(id)]
      if closing {
        // After the object's set lines: deactivate / protect.
        let base = depth == 0 ? prefix.count : pathEnds[depth - 1]
        if r.flags.contains(.inactive) || r.flags.contains(.protect) {
          let idc = keywords.identityWordCount(of: node, in: self)
          var ident: [UInt8] = Array(path[..<base])
          if base > 0 { ident.append(0x20) }
          var tmp: [UInt8] = []
          appendStatement(&tmp, node, options, prefixes: false)
          ident.append(contentsOf: firstWords(tmp, idc))
          if r.flags.contains(.inactive) {
            out.append(contentsOf: "deactivate ".utf8)
            out.append(contentsOf: ident)
            out.append(0x0A)
          }
          if r.flags.contains(.protect) {
            out.append(contentsOf: "protect ".utf8)
            out.append(contentsOf: ident)
            out.append(0x0A)
          }
        }
        continue
      }
      pathEnds.removeSubrange(min(depth, pathEnds.count)...)
      let base = depth == 0 ? prefix.count : pathEnds[depth - 1]
      path.removeSubrange(base...)
      if base > 0 && r.wordCount > 0 { path.append(0x20) }
      if r.listCount >= 0 {
        // Words, then one line per value.
        var tmp: [UInt8] = []
        appendStatement(&tmp, node, options, prefixes: false)
        let wordsPart = firstWords(tmp, Int(r.wordCount))
        path.append(contentsOf: wordsPart)
        let maskList = !options.showSecrets && SecretMasking.masksList(of: node, in: self)
        for k in 0..<Int(r.listCount) {
          out.append(contentsOf: "set ".utf8)
          out.append(contentsOf: path)
          if !path.isEmpty { out.append(0x20) }
          if maskList {
            out.append(contentsOf: SecretMasking.mask.utf8)
          } else {
            let w = words[Int(r.wordStart + r.wordCount) + k]
            out.append(contentsOf: storage[Int(w.start)..<Int(w.end)])
          }
          out.append(0x0A)
        }
        if r.listCount == 0 {
          out.append(contentsOf: "set ".utf8)
          out.append(contentsOf: path)
          out.append(0x0A)
        }
      } else if r.firstChild < 0, r.wordCount >= 5, r.wordCount % 2 == 1,
        keywords.entry(word(0, of: node), context: keywordContext(of: node))?.kind == .flat
      {
        // `srgb start-label 16000 index-range 80000;` → one line a pair.
        var tmp: [UInt8] = []
        appendStatement(&tmp, node, options, prefixes: false)
        let parts = tmp.split(separator: 0x20)
        for k in stride(from: 1, to: parts.count - 1, by: 2) {
          out.append(contentsOf: "set ".utf8)
          out.append(contentsOf: path)
          out.append(contentsOf: parts[0])
          out.append(0x20)
          out.append(contentsOf: parts[k])
          out.append(0x20)
          out.append(contentsOf: parts[k + 1])
          out.append(0x0A)
        }
        path.append(contentsOf: parts[0])
      } else {
        appendStatement(&path, node, options, prefixes: false)
        if r.firstChild < 0 {
          out.append(contentsOf: "set ".utf8)
          out.append(contentsOf: path)
          out.append(0x0A)
        }
      }
      pathEnds.append(path.count)
      if options.comments, let a = annotation(of: node) {
        annotateLines.append(contentsOf: "annotate ".utf8)
        annotateLines.append(contentsOf: path)
        annotateLines.append(0x20)
        annotateLines.append(contentsOf: Self.quotedAnnotation(a))
        annotateLines.append(0x0A)
      }
      stack.append((id, depth, true))
      var k = r.lastChild
      while k >= 0 {
        stack.append((k, depth + 1, false))
        k = nodes[Int(k)].prev
      }
    }
    out.append(contentsOf: annotateLines)
  }

  /// An annotation as the quoted last word of an `annotate` line: `"`, `\` and line breaks
  /// escaped as `\"`, `\\` and `\n`, so that the line reads back as the same text. (How Junos
  /// escapes them in `display set` is not documented.)
  public static func quotedAnnotation(_ text: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for b in text.utf8 {
      switch b {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        out.append(UInt8(ascii: "\\"))
        out.append(b)
      case 0x0A:
        out.append(contentsOf: "\\n".utf8)
      case 0x0D:
        out.append(contentsOf: "\\r".utf8)
      default: out.append(b)
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }

  /// The first `count` space-separated words of rendered statement text (quoted words with
  /// spaces count as one).
  private func firstWords(_ text: [UInt8], _ count: Int) -> ArraySlice<UInt8> {
    var seen = 0
    var i = 0
    var inQuote = false
    while i < text.count {
      let b = text[i]
      if b == UInt8(ascii: "\\") && inQuote {
        i += 2
        continue
      }
      if b == UInt8(ascii: "\"") { inQuote.toggle() }
      if b == 0x20 && !inQuote {
        seen += 1
        if seen == count { return text[..<i] }
      }
      i += 1
    }
    return text[...]
  }
}

extension ConfigTree {
  /// Renders the configuration as `show configuration | display set` prints it: one `set` line
  /// per leaf (a statement printed on one line with its children gives one line per child),
  /// `[ ]` lists expanded one value per line, `deactivate` after the object's `set` lines,
  /// `protect` likewise, `annotate` lines last.
  ///
  /// - Parameter options: Masking, the model (which words name a statement, which children a
  ///   line holds); annotations are printed as `annotate PATH "text"` when `options.comments`
  ///   is on.
  /// - Returns: UTF-8 text, one command per line.
  public func renderSet(_ options: RenderOptions = RenderOptions()) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(storage.count * 2)
    var firsts: [Int32] = []
    var c = nodes[0].lastChild
    while c >= 0 {
      firsts.append(c)
      c = nodes[Int(c)].prev
    }
    appendSet(&out, reversedStatements: firsts, prefix: [], options, shapes: options.model.shapes(of: self))
    return out
  }

  /// The `set` commands that create one statement and everything under it, below its parent's
  /// path (see ``setPath(of:_:shapes:)``).
  ///
  /// - Parameter shapes: The tree's shapes, if the caller has them (``ConfigModel/shapes(of:)``).
  public func renderSet(statement node: NodeID, _ options: RenderOptions = RenderOptions(), shapes: StatementShapes? = nil) -> [UInt8] {
    var out: [UInt8] = []
    let shapes = shapes ?? options.model.shapes(of: self, around: node)
    let prefix = parent(of: node).map { setPath(of: $0, options, shapes: shapes) } ?? []
    appendSet(&out, reversedStatements: [node.raw], prefix: prefix, options, shapes: shapes)
    return out
  }

  /// The words of a statement and its ancestors as a `set` line spells them (no command word):
  /// `interfaces xe-0/0/0 unit 0`. Empty for the root.
  public func setPath(of node: NodeID, _ options: RenderOptions = RenderOptions(), shapes: StatementShapes? = nil) -> [UInt8] {
    var chain: [NodeID] = []
    var n: NodeID? = node
    while let c = n, c != ConfigTree.root {
      chain.append(c)
      n = parent(of: c)
    }
    let shapes = shapes ?? options.model.shapes(of: self, around: node, subtree: false)
    var out: [UInt8] = []
    for c in chain.reversed() where wordCount(of: c) > 0 {
      if !out.isEmpty { out.append(0x20) }
      appendStatement(&out, c, options, prefixes: false, shapes: shapes)
    }
    return out
  }

  /// The path `delete`, `deactivate`, `annotate` and `insert` use to name a statement: its
  /// parent's path and its identifying words (`… description`, not the description itself).
  public func setIdentity(of node: NodeID, _ options: RenderOptions = RenderOptions(), shapes: StatementShapes? = nil) -> [UInt8] {
    let shapes = shapes ?? options.model.shapes(of: self, around: node, subtree: false)
    var out = parent(of: node).map { setPath(of: $0, options, shapes: shapes) } ?? []
    let words = maskedWords(node, options, shapes[node])
    for w in words.prefix(shapes[node].identity) {
      if !out.isEmpty { out.append(0x20) }
      out.append(contentsOf: w)
    }
    return out
  }

  /// A statement's words as printed, each masked if secret.
  func maskedWords(_ node: NodeID, _ options: RenderOptions, _ shape: StatementShape) -> [[UInt8]] {
    let r = nodes[node.index]
    let masked =
      options.showSecrets ? [] : SecretMasking.secretWordIndices(of: node, in: self, shape: shape, matcher: options.model.matcher)
    return (0..<Int(r.wordCount)).map { k in
      if masked.contains(k) { return Array(SecretMasking.mask.utf8) }
      let w = words[Int(r.wordStart) + k]
      return Array(storage[Int(w.start)..<Int(w.end)])
    }
  }

  func appendSet(
    _ out: inout [UInt8], reversedStatements: [Int32], prefix: [UInt8], _ options: RenderOptions, shapes: StatementShapes
  ) {
    // Path of the current statement as rendered bytes, kept incrementally: pathEnds[d] is the
    // length of `path` once the statement at depth d has been added.
    var path: [UInt8] = prefix
    var pathEnds: [Int] = []
    var annotateLines: [UInt8] = []
    func line(_ parts: [[UInt8]]) {
      out.append(contentsOf: "set".utf8)
      for p in parts where !p.isEmpty {
        out.append(0x20)
        out.append(contentsOf: p)
      }
      out.append(0x0A)
    }
    var stack: [(node: Int32, depth: Int, closing: Bool)] = reversedStatements.map { ($0, 0, false) }
    while let (id, depth, closing) = stack.popLast() {
      let node = NodeID(id)
      let r = nodes[Int(id)]
      let shape = shapes[node]
      if closing {
        // After the object's set lines: deactivate / protect.
        let base = depth == 0 ? prefix.count : pathEnds[depth - 1]
        if r.flags.contains(.inactive) || r.flags.contains(.protect) {
          var ident: [UInt8] = Array(path[..<base])
          for w in maskedWords(node, options, shape).prefix(shape.identity) {
            if !ident.isEmpty { ident.append(0x20) }
            ident.append(contentsOf: w)
          }
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
      let words = maskedWords(node, options, shape)
      let segments = setSegments(node, shape, options.model)
      // The statement's own words extend the path; each child on its line is a line of its own.
      for w in words[segments[0].range] {
        if !path.isEmpty { path.append(0x20) }
        path.append(contentsOf: w)
      }
      if r.firstChild < 0 {
        let maskList =
          r.listCount >= 0 && !options.showSecrets
          && SecretMasking.masksList(of: node, in: self, shape: shape, matcher: options.model.matcher)
        let values: [[UInt8]] = (0..<max(0, Int(r.listCount))).map { k in
          if maskList { return Array(SecretMasking.mask.utf8) }
          let w = self.words[Int(r.wordStart + r.wordCount) + k]
          return Array(storage[Int(w.start)..<Int(w.end)])
        }
        if segments.count == 1 {
          if r.listCount > 0 { for v in values { line([path, v]) } } else { line([path]) }
        } else {
          var inner = path
          for (k, seg) in segments.enumerated().dropFirst() {
            let part = words[seg.range].joined(separator: [0x20])
            if k == segments.count - 1 && r.listCount > 0 {
              for v in values { line([inner, Array(part), v]) }
            } else if seg.interior && k < segments.count - 1 {
              if !inner.isEmpty { inner.append(0x20) }
              inner.append(contentsOf: part)
            } else {
              line([inner, Array(part)])
            }
          }
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

  /// The parts of a leaf statement's line that `display set` prints one line each: the
  /// statement's own words, then each child printed on the same line (schema segments; a
  /// container or list entry among them is `interior`: its words prefix the parts after it), or
  /// for a statement of the keyword table's `flat` kind its `keyword value` pairs.
  func setSegments(_ node: NodeID, _ shape: StatementShape, _ model: ConfigModel) -> [(range: Range<Int>, interior: Bool)] {
    let r = nodes[node.index]
    let n = Int(r.wordCount)
    guard r.firstChild < 0, !r.flags.contains(.block) else { return [(0..<n, true)] }
    if let m = model.matcher, shape.head != nil {
      guard shape.ownWords < n else { return [(0..<n, true)] }
      return m.segments(storage, words[Int(r.wordStart)..<Int(r.wordStart + r.wordCount)], hasList: r.listCount >= 0, shape: shape).map {
        ($0.range, $0.interior)
      }
    }
    // `srgb start-label 16000 index-range 80000;` where the schema does not know it.
    if n >= 5, n % 2 == 1, r.listCount < 0, model.keywords.entry(word(0, of: node), context: keywordContext(of: node))?.kind == .flat {
      return [(0..<1, true)] + stride(from: 1, to: n, by: 2).map { ($0..<($0 + 2), false) }
    }
    return [(0..<n, true)]
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
}

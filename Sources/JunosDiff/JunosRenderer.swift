public import JunosConfig

extension ConfigDiff {
  /// Renders the difference as Junos's `show | compare` prints it: an `[edit …]` banner per
  /// group, `+`/`-` in column 1 for added and deleted statements (with their subtrees), `-` old
  /// then `+` new for a changed value, ` stmt { ... }` context lines before insertions, and `!`
  /// lines for metadata (`inactive:`, `active:`, `protect:`, `unprotect:`) and for an ordered-list
  /// entry that moved. Annotation changes are `-`/`+` comment lines above a context line for the
  /// statement. Indentation follows the rule inferred from real captures (FORMATS.md §2.4).
  ///
  /// - Parameter options: Masking (secrets are masked unless `showSecrets`); `comments: false`
  ///   drops `#` comments inside added or deleted subtrees.
  /// - Returns: UTF-8 text; empty when the configurations are the same.
  public func renderJunos(_ options: RenderOptions = RenderOptions()) -> [UInt8] {
    renderJunos(options, notes: nil)
  }

  /// ``renderJunos(_:)`` with `notes(isOld, node, isTop)` printed as lines before each statement
  /// of an added or deleted subtree (`isTop` for the changed statement itself).
  func renderJunos(_ options: RenderOptions, notes: ((Bool, NodeID, Bool) -> [String])?) -> [UInt8] {
    var out: [UInt8] = []
    func body(_ out: inout [UInt8], _ marker: UInt8, _ tree: ConfigTree, _ node: NodeID, _ depth: Int, _ options: RenderOptions) {
      let isOld = marker == 0x2D
      self.body(&out, marker, tree, node, depth, options, notes: notes.map { n in { id in n(isOld, id, id == node) } })
    }
    for g in groups {
      out.append(contentsOf: "[edit".utf8)
      for w in new.pathWords(of: g.newParent) {
        out.append(0x20)
        out.append(contentsOf: w.utf8)
      }
      out.append(contentsOf: "]\n".utf8)
      let depth = bannerLevels(g.newParent)
      for item in g.items {
        switch item {
        case .context(let n):
          stub(&out, 0x20, new, n, depth, options, tag: nil)
        case .added(let n):
          body(&out, 0x2B, new, n, depth, options)
        case .deleted(let o):
          body(&out, 0x2D, old, o, depth, options)
        case .changed(let o, let n):
          body(&out, 0x2D, old, o, depth, options)
          body(&out, 0x2B, new, n, depth, options)
        case .moved(_, let n):
          stub(&out, 0x21, new, n, depth, options, tag: nil)
        case .flags(let o, let n):
          let was = old.flags(of: o)
          let now = new.flags(of: n)
          if was.contains(.inactive) != now.contains(.inactive) {
            stub(&out, 0x21, new, n, depth, options, tag: now.contains(.inactive) ? "inactive:" : "active:")
          }
          if was.contains(.protect) != now.contains(.protect) {
            stub(&out, 0x21, new, n, depth, options, tag: now.contains(.protect) ? "protect:" : "unprotect:")
          }
        case .annotation(let o, let n):
          let c = column(new, n, depth)
          if let a = old.annotation(of: o) { comment(&out, 0x2D, c, a) }
          if let a = new.annotation(of: n) { comment(&out, 0x2B, c, a) }
          stub(&out, 0x20, new, n, depth, options, tag: nil)
        }
      }
    }
    return out
  }

  /// Configuration levels a banner names: one per statement, two for `family inet` (Junos counts
  /// `family` and `inet` as levels).
  func bannerLevels(_ node: NodeID) -> Int {
    var d = 0
    var n: NodeID? = node
    while let c = n, c != ConfigTree.root {
      d += 1
      if new.wordCount(of: c) > 1 && new.word(0, of: c) == "family" { d += 1 }
      n = new.parent(of: c)
    }
    return d
  }

  /// The column where a statement's text starts (counted from 0, the marker's column) under a
  /// banner of `depth` levels:
  /// `max(depth, 1) + 2` for a bare keyword statement, `depth + 3` for one that carries an
  /// identifier (a keyed statement, a name, `family inet`).
  func column(_ tree: ConfigTree, _ node: NodeID, _ depth: Int) -> Int {
    let n = tree.wordCount(of: node)
    guard n > 0 else { return max(depth, 1) + 2 }
    let first = tree.word(0, of: node)
    let shape = options.model.shape(of: node, in: tree)
    let parentNamed = tree.parent(of: node).map { p in
      guard p != ConfigTree.root, tree.wordCount(of: p) == 1 else { return false }
      let ps = options.model.shape(of: p, in: tree)
      if case .entries = ps.children { return true }
      return ps.head == nil && options.model.keywords.entry(tree.word(0, of: p), context: tree.keywordContext(of: p))?.kind == .named
    }
    let keyed = n > 1 && shape.identity > 1
    let identified = parentNamed == true || !KeywordTable.isKeyword(first) || keyed || (tree.isBlock(node) && n > 1)
    return identified ? depth + 3 : max(depth, 1) + 2
  }

  func body(
    _ out: inout [UInt8], _ marker: UInt8, _ tree: ConfigTree, _ node: NodeID, _ depth: Int, _ options: RenderOptions,
    notes: ((NodeID) -> [String])? = nil
  ) {
    out.append(contentsOf: tree.renderCurly(statement: node, options, lead: [marker], indent: column(tree, node, depth) - 1, notes: notes))
  }

  func stub(
    _ out: inout [UInt8], _ marker: UInt8, _ tree: ConfigTree, _ node: NodeID, _ depth: Int, _ options: RenderOptions, tag: String?
  ) {
    out.append(marker)
    out.append(contentsOf: repeatElement(0x20, count: column(tree, node, depth) - 1))
    if let tag {
      out.append(contentsOf: tag.utf8)
      out.append(0x20)
    }
    out.append(contentsOf: identityText(tree, node, options))
    out.append(contentsOf: " { ... }\n".utf8)
  }

  /// A statement as a context or `!` line names it: a keyed oneliner by its identifier
  /// (`route 0.0.0.0/0` for `route 0.0.0.0/0 next-hop 10.0.0.1`, `address server1` for
  /// `address server1 10.0.0.1/32`), a route filter with its match type (`route-filter
  /// 140.0.0.0/24 exact`, as captures show), anything else in full.
  func identityText(_ tree: ConfigTree, _ node: NodeID, _ options: RenderOptions) -> [UInt8] {
    let text = tree.statementText(node, options)
    let n = tree.wordCount(of: node)
    guard n > 2, !tree.isBlock(node), tree.listValues(of: node) == nil else { return text }
    let first = tree.word(0, of: node)
    let shape = options.model.shape(of: node, in: tree)
    guard !Self.matchTypeKeywords.contains(first), shape.identity > 1 else { return text }
    let count = min(n, shape.identity)
    guard count < n else { return text }
    var seen = 0
    var inQuote = false
    var i = 0
    while i < text.count {
      if text[i] == UInt8(ascii: "\\") && inQuote {
        i += 2
        continue
      }
      if text[i] == UInt8(ascii: "\"") { inQuote.toggle() }
      if text[i] == 0x20 && !inQuote {
        seen += 1
        if seen == count { return Array(text[..<i]) }
      }
      i += 1
    }
    return text
  }

  /// Statements whose match type is part of their name.
  static let matchTypeKeywords: Set<String> = ["route-filter", "prefix-list-filter", "source-address-filter", "destination-address-filter"]

  func comment(_ out: inout [UInt8], _ marker: UInt8, _ column: Int, _ text: String) {
    out.append(marker)
    out.append(contentsOf: repeatElement(0x20, count: column - 1))
    out.append(contentsOf: "/* ".utf8)
    // A multi-line annotation: the marker and a blank before each continuation line, which is
    // the annotation's own text, verbatim (CompareText takes the blank off again).
    for b in text.utf8 {
      out.append(b)
      if b == 0x0A { out.append(contentsOf: [marker, 0x20]) }
    }
    out.append(contentsOf: " */\n".utf8)
  }
}

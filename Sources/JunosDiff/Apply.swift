public import JunosConfig

/// A configuration with changes applied, and what did not apply.
public struct ApplyResult: Sendable {
  /// The resulting configuration (not to be trusted when there are errors).
  public var tree: ConfigTree
  /// Problems, located in the changes' text.
  public var diagnostics: [Diagnostic]
  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// Bundles a result.
  public init(tree: ConfigTree, diagnostics: [Diagnostic]) {
    self.tree = tree
    self.diagnostics = diagnostics
  }
}

extension CompareText {
  /// Applies the hunks, in order, to `base`: the inverse of rendering a ``ConfigDiff`` as Junos
  /// text.
  ///
  /// Banners, context lines, `-` statements (with their whole subtree) and `!` lines must match
  /// the base; a `+` statement the base already has is a conflict. Each is reported with its
  /// line and column, never skipped silently. A `+` statement goes after the line before it
  /// (a context line, another `+`, or where a `-` statement was); a first entry of an ordered
  /// list with nothing above it goes first; anything else goes after its last sibling with the
  /// same keyword, or last.
  ///
  /// - Parameters:
  ///   - base: The configuration the compare was made against.
  ///   - options: Which lists are ordered.
  public func apply(to base: ConfigTree, options: DiffOptions = DiffOptions()) -> ApplyResult {
    var a = Applier(text: self, tree: base, options: options)
    for hunk in hunks { a.apply(hunk) }
    return ApplyResult(tree: a.tree, diagnostics: a.diagnostics)
  }
}

struct Applier {
  let text: CompareText
  var tree: ConfigTree
  let options: DiffOptions
  var diagnostics: [Diagnostic] = []

  mutating func fail(_ message: String, _ range: Range<Int>) {
    diagnostics.append(Diagnostic(.contextMismatch, message, in: text.file, at: range))
  }

  func banner(_ words: [String]) -> String { words.isEmpty ? "[edit]" : "[edit \(words.joined(separator: " "))]" }

  /// The statement a banner names, walking down by the longest child whose words match.
  func resolve(_ path: [String]) -> NodeID? {
    var node = ConfigTree.root
    var i = 0
    while i < path.count {
      var best: (NodeID, Int)? = nil
      for c in tree.children(of: node) {
        let n = tree.wordCount(of: c)
        guard n > 0, n <= path.count - i else { continue }
        var ok = true
        for k in 0..<n where tree.word(k, of: c) != path[i + k] {
          ok = false
          break
        }
        if ok && (best == nil || n > best!.1) { best = (c, n) }
      }
      guard let (c, n) = best else { return nil }
      node = c
      i += n
    }
    return node
  }

  /// The child a context or `!` line names: the one with exactly these words, else the one
  /// whose words start with them (a oneliner named by its identifier: `route 0.0.0.0/0`).
  func find(_ parent: NodeID, _ words: [String], _ list: [String]?) -> NodeID? {
    var prefixMatch: NodeID? = nil
    for c in tree.children(of: parent) {
      let w = tree.words(of: c)
      if w == words && tree.listValues(of: c) == list { return c }
      if prefixMatch == nil, list == nil, w.count > words.count, Array(w.prefix(words.count)) == words { prefixMatch = c }
    }
    return prefixMatch
  }

  /// Whether a statement of the base has the same words and `[ ]` values (bytes compared) as
  /// one of a fragment.
  func sameLine(_ c: NodeID, _ frag: ConfigTree, _ node: NodeID) -> Bool {
    let n = tree.wordCount(of: c)
    guard n == frag.wordCount(of: node) else { return false }
    for i in 0..<n where !tree.wordBytes(i, of: c).elementsEqual(frag.wordBytes(i, of: node)) { return false }
    return tree.listValues(of: c) == frag.listValues(of: node)
  }

  func isOrdered(_ words: [String]) -> Bool { words.count > 1 && options.orderedKeywords.contains(words[0]) }

  /// What `load` does when a statement is added beside one it replaces: a single-valued leaf
  /// replaces the same leaf with another value (`host-name r2` over `host-name r1`), and a
  /// statement of one case of a choice replaces those of the other cases (`reject` over `accept`).
  mutating func replaceSingleValues(by added: NodeID, under parent: NodeID) {
    guard let m = options.model.matcher else { return }
    let ctx = parent == ConfigTree.root ? options.model.rootContext : options.model.shape(of: parent, in: tree).children
    let shape = options.model.shape(of: added, in: tree, context: ctx)
    guard let head = shape.head else { return }
    let single = m.schema.kind(head) == .leaf && !tree.isBlock(added)
    let choice = m.schema.choiceNumber(head)
    guard single || choice != nil else { return }
    let ident = Array(tree.words(of: added).prefix(shape.identity))
    for c in Array(tree.children(of: parent)) where c != added {
      let cs = options.model.shape(of: c, in: tree, context: ctx)
      guard let h = cs.head else { continue }
      let sameLeaf = single && h == head && Array(tree.words(of: c).prefix(cs.identity)) == ident
      let otherCase = choice != nil && m.schema.choiceNumber(h) == choice && m.schema.caseNumber(h) != m.schema.caseNumber(head)
      if sameLeaf || otherCase { tree.remove(c) }
    }
  }

  /// Puts `node` (already a child of `parent`) where the cursor says.
  mutating func place(_ node: NodeID, _ parent: NodeID, _ cursor: Cursor, ordered: Bool) {
    switch cursor {
    case .after(let s):
      if s != node { tree.move(node, after: s) }
    case .front:
      if let f = tree.firstChild(of: parent), f != node { tree.move(node, before: f) }
    case .unset, .unknown:
      if ordered {
        if let f = tree.firstChild(of: parent), f != node { tree.move(node, before: f) }
      } else if tree.wordCount(of: node) > 0 {
        let kw = tree.word(0, of: node)
        let same = tree.children(of: parent).filter { $0 != node && tree.wordCount(of: $0) > 0 && tree.word(0, of: $0) == kw }
        if let last = same.last { tree.move(node, after: last) }
      }
    }
  }

  mutating func apply(_ hunk: CompareText.Hunk) {
    guard let parent = resolve(hunk.path) else {
      fail("\(banner(hunk.path)): the base configuration has no such statement", hunk.range)
      return
    }
    let where_ = banner(hunk.path)
    var cursor = Cursor.unset
    for entry in hunk.entries {
      switch entry {
      case .context(let s):
        guard let c = find(parent, s.words, s.list) else {
          fail("context line '\(s.words.joined(separator: " "))' does not match the base: no such statement under \(where_)", s.range)
          continue
        }
        cursor = .after(c)
      case .added(let f, let node, let range):
        let frag = text.fragments[f]
        let words = frag.words(of: node)
        if tree.children(of: parent).contains(where: { sameLine($0, frag, node) && tree.isBlock($0) == frag.isBlock(node) }) {
          fail("'\(words.joined(separator: " "))' is added, but the base already has it under \(where_)", range)
          continue
        }
        let copy = tree.graft(node, of: frag, under: parent)
        replaceSingleValues(by: copy, under: parent)
        place(copy, parent, cursor, ordered: isOrdered(words))
        cursor = .after(copy)
      case .deleted(let f, let node, let range):
        let frag = text.fragments[f]
        let words = frag.words(of: node)
        let candidates = tree.children(of: parent).filter { sameLine($0, frag, node) }
        guard let c = candidates.first(where: { tree.sameConfiguration($0, as: node, in: frag) }) else {
          if candidates.isEmpty {
            fail("'\(words.joined(separator: " "))' is deleted, but the base has no such statement under \(where_)", range)
          } else {
            fail("'\(words.joined(separator: " "))' is deleted, but the base's statement is not the same (masked secrets?)", range)
          }
          continue
        }
        cursor = tree.previousSibling(of: c).map { .after($0) } ?? .front
        tree.remove(c)
      case .flag(let tag, let s):
        guard let c = find(parent, s.words, s.list) else {
          fail("'\(tag) \(s.words.joined(separator: " "))': no such statement under \(where_)", s.range)
          continue
        }
        let flag: StatementFlags = tag == "inactive:" || tag == "active:" ? .inactive : .protect
        let on = tag == "inactive:" || tag == "protect:"
        guard tree.flags(of: c).contains(flag) != on else {
          fail(
            "'\(tag) \(s.words.joined(separator: " "))': the base's statement is already \(on ? "" : "not ")\(flag == .inactive ? "inactive" : "protected")",
            s.range)
          continue
        }
        tree.setFlags(flag, on, of: c)
        cursor = .after(c)
      case .moved(let s):
        guard let c = find(parent, s.words, s.list) else {
          fail("moved statement '\(s.words.joined(separator: " "))': no such statement under \(where_)", s.range)
          continue
        }
        place(c, parent, cursor == .unset ? .front : cursor, ordered: true)
        cursor = .after(c)
      case .annotation(let old, let new, let s):
        guard let c = find(parent, s.words, s.list) else {
          fail("annotated statement '\(s.words.joined(separator: " "))': no such statement under \(where_)", s.range)
          continue
        }
        if let old, tree.comparableAnnotation(of: c) != Trivia.comparable(old) {
          fail("the base's annotation of '\(s.words.joined(separator: " "))' is not '\(old)'", s.range)
          continue
        }
        tree.setAnnotation(new, of: c)
        cursor = .after(c)
      }
    }
  }
}

/// A parsed Junos configuration: an ordered tree of statements.
///
/// Both curly-brace text and `display set` text build this same tree. Statements are kept in
/// the form the device displays them: a statement is a list of words (`unit 0`,
/// `description "Core link"`, `route 10.0.0.0/8 next-hop 10.1.1.1`), an optional `[ ]` list of
/// values, and, for a block, its children in order. Flags (`inactive:`, `protect:`, …),
/// annotations, comments and the byte range of every statement are kept too.
///
/// The tree is stored flat (an arena of records indexed by ``NodeID``) so that parsing a large
/// configuration allocates a handful of arrays rather than one object per statement; words are
/// byte ranges into ``storage``. It is a value type: copies are cheap until mutated.
public struct ConfigTree: Sendable {
  /// Byte storage the words point into: the source text, plus any words added later.
  public internal(set) var storage: [UInt8]
  @usableFromInline var nodes: [NodeRecord]
  @usableFromInline var words: [WordRef]
  var extras: [Extras]
  /// Header comment lines before the first statement that are not configuration
  /// (`## Last commit: … by user`, `## Last changed: …`), without line ends.
  public var headers: [String]
  /// The path of the file the tree was parsed from, if any.
  public var path: String?
  /// Capture text before the configuration (blank lines, an echoed `show configuration`
  /// command), kept byte for byte so a capture can be reproduced exactly.
  public var leadingCapture: [UInt8] = []
  /// Capture text after the configuration (blank lines, a trailing prompt).
  public var trailingCapture: [UInt8] = []

  /// The identifier of the root (the `[edit]` level).
  public static let root = NodeID(0)

  /// The deepest nesting the parsers accept without an error: real configurations stay under 30
  /// levels, and a tree much deeper cannot be printed in linear time (curly text indents every
  /// line by its depth; `set` lines repeat the whole path).
  public static let maximumDepth = 1_000

  /// Creates an empty configuration.
  public init() {
    storage = []
    nodes = [NodeRecord(parent: -1, wordStart: 0, wordCount: 0, listCount: -1, flags: .block, source: 0..<0)]
    words = []
    extras = []
    headers = []
    path = nil
  }

  init(storage: [UInt8], nodes: [NodeRecord], words: [WordRef], extras: [Extras], headers: [String], path: String?) {
    self.storage = storage
    self.nodes = nodes
    self.words = words
    self.extras = extras
    self.headers = headers
    self.path = path
  }
}

/// Identifies a statement in a ``ConfigTree``. Valid only for the tree that produced it.
public struct NodeID: Hashable, Sendable, Comparable {
  @usableFromInline let raw: Int32
  @inlinable init(_ raw: Int32) { self.raw = raw }
  /// The position of the statement's record in the tree's storage.
  public var index: Int { Int(raw) }
  public static func < (a: NodeID, b: NodeID) -> Bool { a.raw < b.raw }
}

/// Prefix tags and shape of a statement.
public struct StatementFlags: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// The statement is a block (`name { … }`), even when empty.
  public static let block = StatementFlags(rawValue: 1 << 0)
  /// `inactive:` — present in the configuration but ignored by the device.
  public static let inactive = StatementFlags(rawValue: 1 << 1)
  /// `protect:` — cannot be changed without `unprotect`.
  public static let protect = StatementFlags(rawValue: 1 << 2)
  /// `replace:` (load syntax).
  public static let replace = StatementFlags(rawValue: 1 << 3)
  /// `delete:` (load syntax).
  public static let delete = StatementFlags(rawValue: 1 << 4)
  /// `active:` (load syntax).
  public static let active = StatementFlags(rawValue: 1 << 5)
  /// `unprotect:` (load syntax).
  public static let unprotect = StatementFlags(rawValue: 1 << 6)
  /// The block was closed by `};` rather than `}`.
  public static let braceSemicolon = StatementFlags(rawValue: 1 << 7)

  /// The prefix tags in display order, with their spelling.
  static let prefixes: [(StatementFlags, String)] = [
    (.protect, "protect:"), (.unprotect, "unprotect:"), (.inactive, "inactive:"), (.active, "active:"),
    (.replace, "replace:"), (.delete, "delete:"),
  ]
}

/// A comment kept with the statement it belongs to.
public struct Trivia: Sendable, Hashable {
  /// The kind of comment.
  public enum Kind: Sendable, Hashable {
    /// `/* … */` — an annotation (the raw text includes the delimiters).
    case annotation
    /// `# …` to the end of the line (the raw text includes the `#`).
    case hash
  }
  /// The kind of comment.
  public var kind: Kind
  /// The raw text, delimiters included, without the line end.
  public var text: String

  /// Creates a comment.
  public init(_ kind: Kind, _ text: String) {
    self.kind = kind
    self.text = text
  }

  /// Annotation text as compared between configurations: its lines without blanks at their
  /// ends (re-indenting and diff markers change those).
  public static func comparable(_ text: String) -> String {
    // On bytes: "\r\n" is one Character.
    func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
    if let f = text.utf8.first, let l = text.utf8.last, !blank(f), !blank(l), !text.utf8.contains(0x0A) { return text }
    return text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      var l = line.drop(while: blank)
      while let c = l.last, blank(c) { l = l.dropLast() }
      return String(decoding: l, as: UTF8.self)
    }.joined(separator: "\n")
  }

  /// The annotation's text without `/*`, `*/` and the one blank Junos prints inside each, so that
  /// `/* \(annotationText) */` gives the text back verbatim (a multi-line annotation keeps its
  /// lines' own indentation, the one before `*/` included).
  public var annotationText: String {
    guard kind == .annotation else { return text }
    var t = Substring(text)
    if t.hasPrefix("/*") { t = t.dropFirst(2) }
    if t.hasSuffix("*/") { t = t.dropLast(2) }
    if t.first == " " { t = t.dropFirst() }
    if t.last == " " { t = t.dropLast() }
    return String(t)
  }
}

@usableFromInline struct WordRef: Sendable {
  @usableFromInline var start: Int32
  @usableFromInline var end: Int32
  @inlinable init(start: Int32, end: Int32) {
    self.start = start
    self.end = end
  }
}

@usableFromInline struct NodeRecord: Sendable {
  @usableFromInline var parent: Int32
  @usableFromInline var firstChild: Int32 = -1
  @usableFromInline var lastChild: Int32 = -1
  @usableFromInline var next: Int32 = -1
  @usableFromInline var prev: Int32 = -1
  @usableFromInline var wordStart: Int32
  @usableFromInline var wordCount: Int32
  /// Number of `[ ]` values stored after the words; -1 when the statement has no list.
  @usableFromInline var listCount: Int32
  @usableFromInline var extras: Int32 = -1
  @usableFromInline var sourceStart: Int32
  @usableFromInline var sourceEnd: Int32
  @usableFromInline var flags: StatementFlags

  init(parent: Int32, wordStart: Int32, wordCount: Int32, listCount: Int32, flags: StatementFlags, source: Range<Int>) {
    self.parent = parent
    self.wordStart = wordStart
    self.wordCount = wordCount
    self.listCount = listCount
    self.flags = flags
    self.sourceStart = Int32(truncatingIfNeeded: source.lowerBound)
    self.sourceEnd = Int32(truncatingIfNeeded: source.upperBound)
  }
}

/// Comments attached to a statement; most statements have none, so they live in a side table.
struct Extras: Sendable, Hashable {
  /// Annotations and `#` comments on the lines before the statement.
  var leading: [Trivia] = []
  /// Comments between the statement's words (`protocol udp /* note */;`).
  var inline: [Trivia] = []
  /// Comment after `;` or `{` on the same line (`## SECRET-DATA`).
  var trailer: Trivia? = nil
  /// Comments inside a block after its last child.
  var closing: [Trivia] = []
  /// Comment after the closing `}` on the same line.
  var closeTrailer: Trivia? = nil

  var isEmpty: Bool { leading.isEmpty && inline.isEmpty && trailer == nil && closing.isEmpty && closeTrailer == nil }
}

// MARK: - Reading

extension ConfigTree {
  /// Number of statements in the tree, the root excluded (statements removed by edits are not
  /// counted).
  public var statementCount: Int {
    var count = 0
    forEachStatement { _ in count += 1 }
    return count
  }

  /// The statement containing `node`, or `nil` for the root.
  public func parent(of node: NodeID) -> NodeID? {
    let p = nodes[node.index].parent
    return p < 0 ? nil : NodeID(p)
  }

  /// The children of `node`, in order.
  public func children(of node: NodeID) -> Children { Children(tree: self, first: nodes[node.index].firstChild) }

  /// The first child of `node`.
  public func firstChild(of node: NodeID) -> NodeID? {
    let c = nodes[node.index].firstChild
    return c < 0 ? nil : NodeID(c)
  }

  /// The statement after `node` in its parent.
  public func nextSibling(of node: NodeID) -> NodeID? {
    let c = nodes[node.index].next
    return c < 0 ? nil : NodeID(c)
  }

  /// The statement before `node` in its parent.
  public func previousSibling(of node: NodeID) -> NodeID? {
    let c = nodes[node.index].prev
    return c < 0 ? nil : NodeID(c)
  }

  /// Whether `node` has children.
  public func hasChildren(_ node: NodeID) -> Bool { nodes[node.index].firstChild >= 0 }

  /// Number of words of the statement (the `[ ]` values not included).
  public func wordCount(of node: NodeID) -> Int { Int(nodes[node.index].wordCount) }

  /// The words of a statement, as written (quoted words keep their quotes and escapes).
  public func words(of node: NodeID) -> [String] {
    let r = nodes[node.index]
    return (0..<Int(r.wordCount)).map { wordText(Int(r.wordStart) + $0) }
  }

  /// Word `i` of a statement, as written.
  public func word(_ i: Int, of node: NodeID) -> String {
    wordText(Int(nodes[node.index].wordStart) + i)
  }

  /// The bytes of word `i` of a statement.
  public func wordBytes(_ i: Int, of node: NodeID) -> ArraySlice<UInt8> {
    let w = words[Int(nodes[node.index].wordStart) + i]
    return storage[Int(w.start)..<Int(w.end)]
  }

  /// The `[ ]` values of a statement, or `nil` when it has no list.
  public func listValues(of node: NodeID) -> [String]? {
    let r = nodes[node.index]
    guard r.listCount >= 0 else { return nil }
    let base = Int(r.wordStart + r.wordCount)
    return (0..<Int(r.listCount)).map { wordText(base + $0) }
  }

  /// Flags and shape of a statement.
  public func flags(of node: NodeID) -> StatementFlags { nodes[node.index].flags }

  /// Whether the statement is a block (`{ }`), as opposed to a leaf ending in `;`.
  public func isBlock(_ node: NodeID) -> Bool { nodes[node.index].flags.contains(.block) }

  /// The byte range of the statement in the parsed file (empty for statements added later).
  public func sourceRange(of node: NodeID) -> Range<Int> {
    let r = nodes[node.index]
    return Int(r.sourceStart)..<Int(max(r.sourceStart, r.sourceEnd))
  }

  /// Comments and annotations on the lines before the statement.
  public func leadingTrivia(of node: NodeID) -> [Trivia] { extra(node)?.leading ?? [] }

  /// The comment after the statement's `;` or `{` on the same line, such as `## SECRET-DATA`.
  public func trailer(of node: NodeID) -> Trivia? { extra(node)?.trailer }

  /// The statement's annotation (the last `/* … */` before it), without delimiters.
  public func annotation(of node: NodeID) -> String? {
    extra(node)?.leading.last(where: { $0.kind == .annotation })?.annotationText
  }

  /// The annotation as compared between configurations: the lines of a multi-line annotation
  /// without their indentation (which re-indenting a configuration changes).
  public func comparableAnnotation(of node: NodeID) -> String? {
    annotation(of: node).map(Trivia.comparable)
  }

  /// Whether the statement carries the `## SECRET-DATA` marker.
  public func isMarkedSecret(_ node: NodeID) -> Bool {
    extra(node)?.trailer?.text.utf8.starts(with: "## SECRET-DATA".utf8) ?? false
  }

  /// The words from the root down to `node`, the form used in `[edit …]` banners and `set` lines.
  public func pathWords(of node: NodeID) -> [String] {
    var chain: [NodeID] = []
    var n: NodeID? = node
    while let c = n, c != ConfigTree.root {
      chain.append(c)
      n = parent(of: c)
    }
    return chain.reversed().flatMap { words(of: $0) }
  }

  /// Depth of a statement: the root is 0, top-level statements 1.
  public func depth(of node: NodeID) -> Int {
    var d = 0
    var n = nodes[node.index].parent
    while n >= 0 {
      d += 1
      n = nodes[Int(n)].parent
    }
    return d
  }

  /// Every statement in document order (pre-order), the root excluded. Iterative: any depth.
  public func allStatements() -> [NodeID] {
    var out: [NodeID] = []
    out.reserveCapacity(nodes.count)
    forEachStatement { out.append($0) }
    return out
  }

  /// Calls `body` for every statement in document order (pre-order), the root excluded.
  /// Iterative: any depth.
  public func forEachStatement(_ body: (NodeID) -> Void) {
    var stack: [Int32] = []
    var c = nodes[0].firstChild
    while true {
      if c >= 0 {
        body(NodeID(c))
        let r = nodes[Int(c)]
        if r.firstChild >= 0 {
          stack.append(r.next)
          c = r.firstChild
        } else {
          c = r.next
        }
      } else if let n = stack.popLast() {
        c = n
      } else {
        return
      }
    }
  }

  /// The child of `parent` whose words start with `prefix` (compared as written).
  public func child(of parent: NodeID, startingWith prefix: [String]) -> NodeID? {
    children(of: parent).first { node in
      let r = nodes[node.index]
      guard Int(r.wordCount) >= prefix.count else { return false }
      for (i, w) in prefix.enumerated() where !wordEquals(Int(r.wordStart) + i, w) { return false }
      return true
    }
  }

  @inlinable func wordText(_ i: Int) -> String {
    let w = words[i]
    return String(decoding: storage[Int(w.start)..<Int(w.end)], as: UTF8.self)
  }

  func wordEquals(_ i: Int, _ s: String) -> Bool {
    let w = words[i]
    var s = s
    return s.withUTF8 { u in
      Int(w.end - w.start) == u.count && storage[Int(w.start)..<Int(w.end)].elementsEqual(u)
    }
  }

  func wordsEqualAcross(_ i: Int, _ other: ConfigTree, _ j: Int) -> Bool {
    let a = words[i]
    let b = other.words[j]
    return a.end - a.start == b.end - b.start
      && storage[Int(a.start)..<Int(a.end)].elementsEqual(other.storage[Int(b.start)..<Int(b.end)])
  }

  func extra(_ node: NodeID) -> Extras? {
    let e = nodes[node.index].extras
    return e < 0 ? nil : extras[Int(e)]
  }

  /// Sequence of a statement's children.
  public struct Children: Sequence, Sendable {
    let tree: ConfigTree
    let first: Int32
    public struct Iterator: IteratorProtocol {
      let tree: ConfigTree
      var current: Int32
      public mutating func next() -> NodeID? {
        guard current >= 0 else { return nil }
        let id = NodeID(current)
        current = tree.nodes[Int(current)].next
        return id
      }
    }
    public func makeIterator() -> Iterator { Iterator(tree: tree, current: first) }
  }
}

// MARK: - Building and editing

extension ConfigTree {
  /// Appends `bytes` to the storage and returns their range as a word.
  mutating func storeWord(_ bytes: some Collection<UInt8>) -> WordRef {
    let start = Int32(truncatingIfNeeded: storage.count)
    storage.append(contentsOf: bytes)
    return WordRef(start: start, end: Int32(truncatingIfNeeded: storage.count))
  }

  /// Adds a statement as the last child of `parent`.
  ///
  /// - Parameters:
  ///   - words: The statement's words, as they should be displayed (quote values with spaces).
  ///   - list: Its `[ ]` values, or `nil` for no list.
  ///   - parent: Where to add it.
  ///   - block: Whether it is a block (`{ }`).
  /// - Returns: The new statement.
  @discardableResult
  public mutating func append(words: [String], list: [String]? = nil, to parent: NodeID, block: Bool = false) -> NodeID {
    let refs = words.map { storeWord($0.utf8) }
    let listRefs = list?.map { storeWord($0.utf8) }
    return appendNode(wordRefs: refs, listRefs: listRefs, parent: parent.raw, flags: block ? .block : [], source: 0..<0)
  }

  mutating func appendNode(
    wordRefs: some Collection<WordRef>, listRefs: [WordRef]?, parent: Int32, flags: StatementFlags, source: Range<Int>
  ) -> NodeID {
    let ws = Int32(words.count)
    words.append(contentsOf: wordRefs)
    if let listRefs { words.append(contentsOf: listRefs) }
    let id = Int32(nodes.count)
    nodes.append(
      NodeRecord(
        parent: parent, wordStart: ws, wordCount: Int32(wordRefs.count),
        listCount: listRefs.map { Int32($0.count) } ?? -1, flags: flags, source: source))
    link(id, parent: parent)
    if parent >= 0 { nodes[Int(parent)].flags.insert(.block) }
    return NodeID(id)
  }

  /// Links an unlinked record as last child of `parent`.
  mutating func link(_ id: Int32, parent: Int32) {
    nodes[Int(id)].parent = parent
    nodes[Int(id)].next = -1
    let last = nodes[Int(parent)].lastChild
    nodes[Int(id)].prev = last
    if last >= 0 { nodes[Int(last)].next = id } else { nodes[Int(parent)].firstChild = id }
    nodes[Int(parent)].lastChild = id
  }

  /// Removes a statement (and everything under it) from the tree.
  public mutating func remove(_ node: NodeID) {
    precondition(node != ConfigTree.root, "cannot remove the root")
    unlink(node.raw)
    nodes[node.index].parent = -1
  }

  mutating func unlink(_ id: Int32) {
    let r = nodes[Int(id)]
    if r.prev >= 0 { nodes[Int(r.prev)].next = r.next } else if r.parent >= 0 { nodes[Int(r.parent)].firstChild = r.next }
    if r.next >= 0 { nodes[Int(r.next)].prev = r.prev } else if r.parent >= 0 { nodes[Int(r.parent)].lastChild = r.prev }
    nodes[Int(id)].prev = -1
    nodes[Int(id)].next = -1
  }

  /// Moves `node` to just before or after `sibling` (both must have the same parent).
  public mutating func move(_ node: NodeID, before sibling: NodeID) {
    guard node != sibling else { return }
    unlink(node.raw)
    let s = nodes[sibling.index]
    nodes[node.index].next = sibling.raw
    nodes[node.index].prev = s.prev
    if s.prev >= 0 { nodes[Int(s.prev)].next = node.raw } else { nodes[Int(s.parent)].firstChild = node.raw }
    nodes[sibling.index].prev = node.raw
  }

  /// Moves `node` to just after `sibling` (both must have the same parent).
  public mutating func move(_ node: NodeID, after sibling: NodeID) {
    guard node != sibling else { return }
    unlink(node.raw)
    let s = nodes[sibling.index]
    nodes[node.index].prev = sibling.raw
    nodes[node.index].next = s.next
    if s.next >= 0 { nodes[Int(s.next)].prev = node.raw } else { nodes[Int(s.parent)].lastChild = node.raw }
    nodes[sibling.index].next = node.raw
  }

  /// Sets or clears flags of a statement.
  public mutating func setFlags(_ flags: StatementFlags, _ on: Bool, of node: NodeID) {
    if on { nodes[node.index].flags.formUnion(flags) } else { nodes[node.index].flags.subtract(flags) }
  }

  /// Replaces a statement's words (and list), keeping its place, children and flags.
  public mutating func setWords(_ newWords: [String], list: [String]? = nil, of node: NodeID) {
    let refs = newWords.map { storeWord($0.utf8) }
    let listRefs = list?.map { storeWord($0.utf8) }
    setWordRefs(refs, list: listRefs, of: node)
  }

  mutating func setWordRefs(_ refs: some Collection<WordRef>, list: [WordRef]?, of node: NodeID) {
    let ws = Int32(words.count)
    words.append(contentsOf: refs)
    if let list { words.append(contentsOf: list) }
    nodes[node.index].wordStart = ws
    nodes[node.index].wordCount = Int32(refs.count)
    nodes[node.index].listCount = list.map { Int32($0.count) } ?? -1
  }

  /// Sets the annotation of a statement (`annotate` in set syntax); `nil` removes it.
  public mutating func setAnnotation(_ text: String?, of node: NodeID) {
    var e = extra(node) ?? Extras()
    e.leading.removeAll { $0.kind == .annotation }
    if let text { e.leading.append(Trivia(.annotation, "/* \(text) */")) }
    setExtras(e, of: node)
  }

  mutating func setExtras(_ e: Extras, of node: NodeID) {
    let idx = nodes[node.index].extras
    if idx >= 0 {
      extras[Int(idx)] = e
    } else if !e.isEmpty {
      nodes[node.index].extras = Int32(extras.count)
      extras.append(e)
    }
  }

  /// Turns a leaf into a block (used when a oneliner gains a second child).
  mutating func makeBlock(_ node: NodeID) { nodes[node.index].flags.insert(.block) }
}

// MARK: - Equality

extension ConfigTree: Equatable {
  /// Structural equality: the same statements, words, lists, flags, comments and headers in the
  /// same order. Storage layout and source ranges are ignored.
  public static func == (a: ConfigTree, b: ConfigTree) -> Bool {
    a.firstDifference(from: b) == nil
  }

  /// A description of the first structural difference between two trees, for tests.
  public func firstDifference(from other: ConfigTree) -> String? {
    if headers != other.headers { return "headers differ: \(headers) vs \(other.headers)" }
    var stack: [(Int32, Int32)] = [(0, 0)]
    while let (x, y) = stack.popLast() {
      let rx = nodes[Int(x)]
      let ry = other.nodes[Int(y)]
      var path: String { x == 0 ? "[edit]" : pathWords(of: NodeID(x)).joined(separator: " ") }
      if rx.wordCount != ry.wordCount || rx.listCount != ry.listCount {
        return
          "\(path): words \(words(of: NodeID(x))) \(listValues(of: NodeID(x)) ?? []) vs \(other.words(of: NodeID(y))) \(other.listValues(of: NodeID(y)) ?? [])"
      }
      for i in 0..<Int(rx.wordCount + max(rx.listCount, 0)) {
        let wa = words[Int(rx.wordStart) + i]
        let wb = other.words[Int(ry.wordStart) + i]
        if !storage[Int(wa.start)..<Int(wa.end)].elementsEqual(other.storage[Int(wb.start)..<Int(wb.end)]) {
          return "\(path): words \(words(of: NodeID(x))) vs \(other.words(of: NodeID(y)))"
        }
      }
      let fa = rx.flags.subtracting(.braceSemicolon)
      let fb = ry.flags.subtracting(.braceSemicolon)
      if x != 0 && fa != fb { return "\(path): flags \(fa.rawValue) vs \(fb.rawValue)" }
      let ea = extra(NodeID(x)) ?? Extras()
      let eb = other.extra(NodeID(y)) ?? Extras()
      if ea != eb { return "\(path): comments \(ea) vs \(eb)" }
      var cx = rx.firstChild
      var cy = ry.firstChild
      while cx >= 0 || cy >= 0 {
        guard cx >= 0, cy >= 0 else {
          let extra = cx >= 0 ? words(of: NodeID(cx)) : other.words(of: NodeID(cy))
          return "\(path): child \(extra) only in \(cx >= 0 ? "the first" : "the second") tree"
        }
        if nodes[Int(cx)].wordCount > 0, other.nodes[Int(cy)].wordCount > 0,
          !wordsEqualAcross(Int(nodes[Int(cx)].wordStart), other, Int(other.nodes[Int(cy)].wordStart))
        {
          return "\(path): child \(words(of: NodeID(cx))) vs \(other.words(of: NodeID(cy)))"
        }
        stack.append((cx, cy))
        cx = nodes[Int(cx)].next
        cy = other.nodes[Int(cy)].next
      }
    }
    return nil
  }
}

/// A word of a statement without its surrounding double quotes (`"<ge-*>"` → `<ge-*>`); other
/// words as they are. Escapes inside are kept (``XMLWords`` decodes values).
package func unquoted(_ word: some StringProtocol) -> String {
  if word.count >= 2, word.hasPrefix("\""), word.hasSuffix("\"") { return String(word.dropFirst().dropLast()) }
  return String(word)
}

public import JunosSchema

/// Where the children of a statement are looked up in the schema.
public enum SchemaContext: Hashable, Sendable {
  /// Children of a container or a list entry (or of the top level).
  case node(SchemaNode)
  /// Children of a list printed as a block of its entries (`groups { NAME { … } }`,
  /// `name-server { 192.0.2.1; }`): each child's words start with the list's keys.
  case entries(SchemaNode)
  /// Outside the schema: the keyword table's rules apply.
  case unknown
}

/// What the schema says of one statement of a tree: which schema statement it is, how many of its
/// words identify it among its siblings, and where its children are looked up.
public struct StatementShape: Sendable, Hashable {
  /// The schema statement (for `family inet`, `inet`), or `nil` when the schema does not know it.
  public var head: SchemaNode?
  /// The words that identify the statement among its siblings: the keyword and a list entry's
  /// keys; a leaf's keyword without its value; `family inet`; all words of a statement the
  /// schema does not know (as the keyword table has it).
  public var identity: Int
  /// The words of the statement itself: its identity and, for a leaf, its value; the words after
  /// these are children printed on the same line (`route 10.0.0.0/8 next-hop 192.0.2.1`).
  public var ownWords: Int
  /// Where the statement's children, and the words after ``ownWords``, are looked up.
  public var children: SchemaContext
  /// Whether every word was matched by the schema.
  public var complete: Bool
  /// How many of ``ownWords`` (the last ones) are a leaf's value.
  public var valueWords: Int = 0
  /// Whether the statement is printed without its keyword (an interface under `interfaces`, a
  /// `nokeyword` value).
  public var positional: Bool = false

  /// A statement the schema does not know.
  public static func unknown(words: Int) -> StatementShape {
    StatementShape(head: nil, identity: words, ownWords: words, children: .unknown, complete: false)
  }
}

/// Matches statement words against Juniper's schema: the one place that says where a statement's
/// identity ends, which words are values, and which are children printed on the same line. The
/// set parser, the renderers, the diff, `load`/`apply` and the effective configuration all ask it
/// (through ``ConfigModel``).
public struct SchemaMatcher: Sendable {
  /// The schema.
  public let schema: JunosSchema
  /// The families whose statements count (``SchemaFamily/mask`` bits; all by default).
  public let families: UInt8

  /// Creates a matcher.
  public init(schema: JunosSchema = .standard, families: UInt8 = SchemaFamily.all) {
    self.schema = schema
    self.families = families
  }

  /// The child of `parent` that the keyword `w` names, in the selected families.
  ///
  /// YANG names cannot start with a digit: Juniper's modules spell the CLI's `802.3ad` as
  /// `ieee-802.3ad` (their `junos:must` expressions use the CLI's spelling), so a keyword that
  /// starts with a digit is looked up with that prefix too.
  ///
  /// - Parameter mask: The families to look in (the matcher's own by default).
  @inline(__always) func keywordChild(_ parent: SchemaNode, _ w: UnsafeRawBufferPointer, in mask: UInt8? = nil) -> SchemaNode? {
    let mask = mask ?? families
    if let c = schema.child(parent, bytes: w), schema.families(c) & mask != 0 { return c }
    guard let f = w.first, f >= UInt8(ascii: "0"), f <= UInt8(ascii: "9") else { return nil }
    let prefixed = Array("ieee-".utf8) + w
    return prefixed.withUnsafeBytes { b in
      guard let c = schema.child(parent, bytes: b), schema.families(c) & mask != 0 else { return nil }
      return c
    }
  }

  /// The child of `parent` that a word which is not one of its keywords stands for: an entry of a
  /// list printed without its keyword (an interface name under `interfaces`), or a value printed
  /// without its keyword.
  ///
  /// - Parameter after: The positional leaf the same line gave a value to just before: the next
  ///   one takes this word (`priority 6 5`: setup, then reservation priority).
  func positionalChild(_ parent: SchemaNode, after: SchemaNode? = nil) -> SchemaNode? {
    // Without an array: this runs for every word that is not a keyword.
    var first: SchemaNode? = nil
    var seenAfter = false
    for k in 0..<schema.positionalChildCount(parent) {
      let c = schema.positionalChild(parent, at: k)
      guard schema.families(c) & families != 0, case let kind = schema.kind(c), kind != .container else { continue }
      if let after {
        if seenAfter && kind != .list { return c }
        if c == after { seenAfter = true }
        continue
      }
      if kind == .list { return c }
      if first == nil { first = c }
    }
    return first
  }

  /// The shape of a statement with the given words, among the children of a statement whose
  /// children context is `context`.
  ///
  /// - Parameters:
  ///   - words: The statement's words (byte ranges into `storage`).
  ///   - hasList: Whether the statement has `[ ]` values.
  func shape(_ storage: [UInt8], _ words: ArraySlice<WordRef>, hasList: Bool, in context: SchemaContext) -> StatementShape {
    let n = words.count
    guard n > 0 else { return .unknown(words: 0) }
    switch context {
    case .unknown:
      return .unknown(words: n)
    case .entries(let list):
      let k = min(n, max(1, schema.keyWordCount(list)))
      var s = StatementShape(head: list, identity: k, ownWords: k, children: .node(list), complete: true, positional: true)
      if k < n { s.complete = segments(storage, words, hasList: hasList, shape: s).last?.head != nil }
      return s
    case .node(let parent):
      guard var s = head(storage, words, hasList: hasList, in: parent) else { return .unknown(words: n) }
      // Words after its own: children on the same line, complete if the schema places them all.
      if s.ownWords < n { s.complete = segments(storage, words, hasList: hasList, shape: s).last?.head != nil }
      return s
    }
  }

  /// The next statement of a `set` path (one statement per line: no children on the same line,
  /// and a list printed as a block of entries always starts with its keyword alone).
  ///
  /// - Parameter after: See ``positionalChild(_:after:)``.
  ///
  /// - Parameter keyword: The first word's ``keywordChild(_:_:in:)`` in the context's statement,
  ///   when the caller has it (`.some(nil)`: the word is none of its keywords).
  func step(
    _ storage: [UInt8], _ words: ArraySlice<WordRef>, hasList: Bool, in context: SchemaContext, after: SchemaNode? = nil,
    keyword: SchemaNode?? = nil
  ) -> StatementShape? {
    switch context {
    case .unknown:
      return nil
    case .entries(let list):
      let k = min(words.count, max(1, schema.keyWordCount(list)))
      return StatementShape(head: list, identity: k, ownWords: k, children: .node(list), complete: true, positional: true)
    case .node(let parent):
      return head(storage, words, hasList: hasList, in: parent, expanded: true, after: after, keyword: keyword)
    }
  }

  /// The statement that `words` starts, among the children of `parent`.
  ///
  /// - Parameters:
  ///   - expanded: `words` is a `set` path: a list printed as a block of its entries (`groups`,
  ///     `name-server`) is that block even when words follow.
  ///   - after: See ``positionalChild(_:after:)``.
  ///   - keyword: See ``step(_:_:hasList:in:after:keyword:)``.
  func head(
    _ storage: [UInt8], _ words: ArraySlice<WordRef>, hasList: Bool, in parent: SchemaNode, expanded: Bool = false,
    after: SchemaNode? = nil, keyword: SchemaNode?? = nil
  ) -> StatementShape? {
    let first = words[words.startIndex]
    let c: SchemaNode
    let positional: Bool
    let found =
      keyword
      ?? storage.withUnsafeBytes({ keywordChild(parent, UnsafeRawBufferPointer(rebasing: $0[Int(first.start)..<Int(first.end)])) })
    if let k = found {
      c = k
      positional = false
    } else if let p = positionalChild(parent, after: after) {
      c = p
      positional = true
    } else {
      return nil
    }
    let kw = positional ? 0 : 1
    var shape = headShape(storage, words, hasList: hasList, c, kw: kw, positional: positional, expanded: expanded)
    shape?.positional = positional
    return shape
  }

  /// ``head(_:_:hasList:in:expanded:after:)`` once the schema statement `c` is found.
  private func headShape(
    _ storage: [UInt8], _ words: ArraySlice<WordRef>, hasList: Bool, _ c: SchemaNode, kw: Int, positional: Bool, expanded: Bool
  ) -> StatementShape? {
    let n = words.count
    switch schema.kind(c) {
    case .container:
      if schema.flags(c).contains(.homogeneous), n > 1 {
        // `family inet`: the container's keyword and its child's words on one line.
        guard var inner = head(storage, words.dropFirst(), hasList: hasList, in: c, expanded: expanded) else { return nil }
        inner.identity += 1
        inner.ownWords += 1
        return inner
      }
      return StatementShape(head: c, identity: kw, ownWords: kw, children: .node(c), complete: true)
    case .list:
      // A list's keyword alone: a block of its entries, as the device prints `homogeneous` lists
      // (`groups { G1 { … } }`) and older releases printed others (`interface { ge-0/0/0.0; }`).
      if !positional, n == 1 && !hasList || expanded && schema.flags(c).contains(.homogeneous) {
        return StatementShape(head: c, identity: 1, ownWords: 1, children: .entries(c), complete: true)
      }
      let k = min(n, kw + max(1, schema.keyWordCount(c)))
      return StatementShape(head: c, identity: k, ownWords: k, children: .node(c), complete: true)
    case .leaf:
      let own = min(n, kw + valueWords(storage, words.dropFirst(kw)))
      return StatementShape(
        head: c, identity: positional ? own : 1, ownWords: own, children: .node(c), complete: true, valueWords: own - kw)
    case .flag:
      return StatementShape(head: c, identity: max(kw, 1), ownWords: max(kw, 1), children: .node(c), complete: true)
    case .leafList:
      let own = hasList && n == kw ? kw : min(n, kw + valueWords(storage, words.dropFirst(kw)))
      return StatementShape(head: c, identity: max(kw, 1), ownWords: own, children: .node(c), complete: true, valueWords: own - kw)
    }
  }

  /// How many words one value takes: one, or a parenthesised policy expression
  /// (`( A && B )`) up to its closing parenthesis.
  func valueWords(_ storage: [UInt8], _ words: ArraySlice<WordRef>) -> Int {
    guard let f = words.first else { return 0 }
    guard f.end - f.start == 1, storage[Int(f.start)] == UInt8(ascii: "(") else { return 1 }
    var depth = 0
    var k = 0
    for w in words {
      k += 1
      if w.end - w.start == 1 {
        if storage[Int(w.start)] == UInt8(ascii: "(") { depth += 1 }
        if storage[Int(w.start)] == UInt8(ascii: ")") { depth -= 1 }
      }
      if depth == 0 { return k }
    }
    return k
  }

  /// One part of a statement's line: its own words, or a child printed on the same line.
  struct Segment {
    /// Word positions, relative to the statement's first word.
    var range: Range<Int>
    /// The schema statement (`nil` for words the schema cannot place).
    var head: SchemaNode?
    /// A container or list entry: the segments after it are its children.
    var interior: Bool
    /// How many words at the end of ``range`` are a leaf's value.
    var valueWords: Int
  }

  /// The segments of a statement's words: its own words, then each child printed on the same
  /// line (words the schema cannot place make one last segment without a head).
  func segments(_ storage: [UInt8], _ words: ArraySlice<WordRef>, hasList: Bool, shape: StatementShape) -> [Segment] {
    var out = [Segment(range: 0..<shape.ownWords, head: shape.head, interior: true, valueWords: shape.valueWords)]
    if let h = shape.head { out[0].interior = schema.kind(h) == .list || schema.kind(h) == .container }
    guard case .node(var parent) = shape.children, shape.ownWords < words.count else {
      if shape.ownWords < words.count {
        out.append(Segment(range: shape.ownWords..<words.count, head: nil, interior: false, valueWords: 0))
      }
      return out
    }
    var at = shape.ownWords
    var lastPositional: SchemaNode? = nil
    while at < words.count {
      guard let s = head(storage, words.dropFirst(at), hasList: hasList, in: parent, after: lastPositional), s.ownWords > 0, let h = s.head
      else {
        out.append(Segment(range: at..<words.count, head: nil, interior: false, valueWords: 0))
        return out
      }
      let interior = schema.kind(h) == .list || schema.kind(h) == .container
      out.append(Segment(range: at..<(at + s.ownWords), head: h, interior: interior, valueWords: s.valueWords))
      at += s.ownWords
      lastPositional = s.positional && !interior ? h : nil
      if interior, case .node(let p) = s.children { parent = p }
    }
    return out
  }
}

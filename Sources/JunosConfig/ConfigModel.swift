internal import JunosSchema

/// What junoscope knows of the shape of Junos statements: Juniper's schema first
/// (``SchemaMatcher``), and for statements no schema knows (newer releases, hidden commands)
/// the rules of a ``KeywordTable`` learned from real configurations.
///
/// Every question of the kind "which words identify this statement among its siblings", "which
/// words are its value", "which children does the device print on its line" is answered here,
/// through ``shapes(of:)``; the set parser, the renderers, the diff, `load`/`apply` and the
/// effective configuration ask it instead of deciding themselves.
public struct ConfigModel: Sendable {
  /// The schema, or `nil` to use the keyword table alone.
  public var matcher: SchemaMatcher?
  /// The rules for statements the schema does not know.
  public var keywords: KeywordTable

  /// Creates a model.
  public init(matcher: SchemaMatcher? = SchemaMatcher(), keywords: KeywordTable = .standard) {
    self.matcher = matcher
    self.keywords = keywords
  }

  /// Juniper's schema (every family) with the built-in keyword table behind it.
  public static let standard = ConfigModel()

  /// The keyword table alone, as junoscope worked before it read Juniper's schema.
  public static func keywordsOnly(_ keywords: KeywordTable = .standard) -> ConfigModel {
    ConfigModel(matcher: nil, keywords: keywords)
  }

  /// The names of the platform families the schema has (`junos`, `evo`, `srx`, `ex`, `qfx`,
  /// `nfx`), for `--junos-family`.
  public static var familyNames: [String] { SchemaFamily.allCases.map(\.rawValue) }

  /// The same model with the schema narrowed to one family's statements; `nil` for a name not in
  /// ``familyNames``.
  public func narrowed(toFamily name: String) -> ConfigModel? {
    guard let family = SchemaFamily(rawValue: name) else { return nil }
    var m = self
    m.matcher = SchemaMatcher(schema: matcher?.schema ?? .standard, families: family.mask)
    return m
  }

  /// The context of the top level.
  public var rootContext: SchemaContext { matcher.map { .node($0.schema.root) } ?? .unknown }

  /// The shape of every statement of a tree (statements the schema does not know get the
  /// keyword table's shape, ``fallbackShape(of:in:context:)``). One pre-order pass.
  public func shapes(of tree: ConfigTree) -> StatementShapes { shapes(of: tree, everyLeaf: true) }

  /// ``shapes(of:)``; without `everyLeaf`, only the shapes ``ConfigTree/foldOneliners(model:)``
  /// asks for: every block's, and the leaves' below a statement the schema prints on one line
  /// (other leaves are left unknown: most statements are leaves).
  func shapes(of tree: ConfigTree, everyLeaf: Bool) -> StatementShapes {
    var out = [StatementShape](repeating: .unknown(words: 0), count: tree.nodes.count)
    out[0] = topShape
    var stack: [(Int32, KeywordAncestors)] = tree.children(of: ConfigTree.root).reversed().map { ($0.raw, KeywordAncestors()) }
    let schema = matcher?.schema
    while let (c, kw) = stack.popLast() {
      let r = tree.nodes[Int(c)]
      if !everyLeaf, r.firstChild < 0, !r.flags.contains(.block) {
        guard let schema, let h = out[Int(r.parent)].head, case let f = schema.flags(h), f.contains(.oneliner) || f.contains(.onelinerPlus)
        else { continue }
      }
      out[Int(c)] = shape(of: NodeID(c), in: tree, context: out[Int(r.parent)].children, ancestors: kw)
      guard r.firstChild >= 0 else { continue }
      let below = kw.below(NodeID(c), in: tree)
      var k = r.lastChild
      while k >= 0 {
        stack.append((k, below))
        k = tree.nodes[Int(k)].prev
      }
    }
    return StatementShapes(full: out, partial: [:])
  }

  /// The shapes of a statement, its ancestors and (with `subtree`) everything under it: the
  /// ancestors' once each (walking up to the top level), then the subtree's in one pass.
  public func shapes(of tree: ConfigTree, around node: NodeID, subtree: Bool = true) -> StatementShapes {
    if node == ConfigTree.root && subtree { return shapes(of: tree) }
    var partial: [Int32: StatementShape] = [0: topShape]
    var ctx = rootContext
    var kw = KeywordAncestors()
    for q in tree.chain(to: node) {
      let s = shape(of: q, in: tree, context: ctx, ancestors: kw)
      partial[q.raw] = s
      ctx = s.children
      kw = kw.below(q, in: tree)
    }
    var stack: [(Int32, SchemaContext, KeywordAncestors)] = subtree ? tree.children(of: node).map { ($0.raw, ctx, kw) } : []
    while let (id, context, kw) = stack.popLast() {
      let s = shape(of: NodeID(id), in: tree, context: context, ancestors: kw)
      partial[id] = s
      let below = kw.below(NodeID(id), in: tree)
      for c in tree.children(of: NodeID(id)) { stack.append((c.raw, s.children, below)) }
    }
    return StatementShapes(full: [], partial: partial)
  }

  /// The shape of one statement, its ancestors' contexts found on the way down from the top.
  public func shape(of node: NodeID, in tree: ConfigTree) -> StatementShape {
    guard node != ConfigTree.root else { return topShape }
    var ctx = rootContext
    var kw = KeywordAncestors()
    var s = topShape
    for q in tree.chain(to: node) {
      s = shape(of: q, in: tree, context: ctx, ancestors: kw)
      ctx = s.children
      kw = kw.below(q, in: tree)
    }
    return s
  }

  var topShape: StatementShape { StatementShape(head: nil, identity: 0, ownWords: 0, children: rootContext, complete: true) }

  /// The shape of one statement among the children of a statement whose children context is
  /// `context`.
  ///
  /// - Parameter ancestors: The statement's nearest ancestors that start with a keyword, for the
  ///   keyword table's lookups (found by walking up when not given).
  public func shape(of node: NodeID, in tree: ConfigTree, context: SchemaContext, ancestors: KeywordAncestors? = nil) -> StatementShape {
    let r = tree.nodes[node.index]
    // Through optional chaining: the matcher is read in place, not copied (one retain and
    // release a statement otherwise).
    if context != .unknown,
      let s = matcher?.shape(
        tree.storage, tree.words[Int(r.wordStart)..<Int(r.wordStart + r.wordCount)], hasList: r.listCount >= 0, in: context),
      s.head != nil
    {
      return s
    }
    // Only a leaf of two words or more needs the keyword context.
    guard r.wordCount > 1, r.firstChild < 0, r.listCount < 0 else { return .unknown(words: Int(r.wordCount)) }
    return fallbackShape(of: node, in: tree, context: ancestors.map { $0.context(in: tree) } ?? tree.keywordContext(of: node))
  }

  /// The shape the keyword table gives a statement: all the words of a block or of a `[ ]` list
  /// statement identify it; a leaf's keyword and keys (`keyed N`), or its keyword alone (a value
  /// of any other kind in the table); all its words when the table does not know it.
  ///
  /// - Parameter context: The statement's ``ConfigTree/keywordContext(of:)``.
  public func fallbackShape(of node: NodeID, in tree: ConfigTree, context: [String]) -> StatementShape {
    let n = tree.wordCount(of: node)
    var s = StatementShape.unknown(words: n)
    guard n > 1, tree.firstChild(of: node) == nil, tree.listValues(of: node) == nil,
      let e = keywords.entry(tree.word(0, of: node), context: context)
    else { return s }
    switch e.kind {
    case .keyed: s.identity = min(n, 1 + e.keys)
    case .value, .list, .flat, .container, .named: s.identity = 1
    }
    return s
  }
}

/// The shapes of the statements of one tree (all of them, or those around one statement), from
/// ``ConfigModel/shapes(of:)`` or ``ConfigModel/shapes(of:around:)``.
public struct StatementShapes: Sendable {
  var full: [StatementShape]
  var partial: [Int32: StatementShape]

  /// The shape of a statement (the top level's for the root); an unknown shape for a statement
  /// the table was not made for.
  public subscript(_ node: NodeID) -> StatementShape {
    if node.index < full.count { return full[node.index] }
    return partial[node.raw] ?? .unknown(words: 0)
  }

  /// Whether the shape of a statement is in the table.
  public func contains(_ node: NodeID) -> Bool { node.index < full.count || partial[node.raw] != nil }
}

/// The two nearest ancestors of a statement whose first word is a keyword: what the keyword
/// table's context lookups use (`family filter`, `unit family filter`), carried down a walk so
/// that no statement walks up to the top.
public struct KeywordAncestors: Sendable, Hashable {
  var nearest: Int32 = -1
  var second: Int32 = -1

  /// None (the top level's children).
  public init() {}

  /// The ancestors of `node`'s children.
  public func below(_ node: NodeID, in tree: ConfigTree) -> KeywordAncestors {
    guard tree.wordCount(of: node) > 0, KeywordTable.looksLikeKeyword(bytes: tree.wordBytes(0, of: node)) else { return self }
    var k = KeywordAncestors()
    k.nearest = node.raw
    k.second = nearest
    return k
  }

  /// Their keywords, outermost first (the tail of ``ConfigTree/keywordContext(of:)``).
  public func context(in tree: ConfigTree) -> [String] {
    [second, nearest].filter { $0 >= 0 }.map { tree.word(0, of: NodeID($0)) }
  }
}

extension ConfigTree {
  /// The statements from the top level down to `node` (the root excluded), outermost first.
  func chain(to node: NodeID) -> [NodeID] {
    var chain: [NodeID] = []
    var p: NodeID? = node
    while let q = p, q != ConfigTree.root {
      chain.append(q)
      p = parent(of: q)
    }
    return chain.reversed()
  }
}

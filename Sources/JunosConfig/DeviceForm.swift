internal import JunosSchema

/// The device's layout of statements that the schema marks as one-liners, and the edits between
/// that layout and one statement per line.
///
/// Junos prints a `oneliner` statement on one line with all its children when every child is a
/// leaf, a flag or a leaf-list (`srgb start-label 16000 index-range 80000;`,
/// `arp 10.0.0.2 l2-interface ae1.0 mac 00:11:22:33:44:55;`), and a `oneliner-plus` one only when
/// it has exactly one such child (`route 10.0.0.0/8 next-hop 192.0.2.1;`, `then accept;`,
/// `from protocol bgp;`); otherwise, and whenever a child is a container or list entry, as a block
/// (`then { local-preference 200; accept; }`, `from { route-filter 0.0.0.0/0 exact; }`).
/// Children with prefix tags (`inactive:`) or comments are never folded. `Docs/Schema.md` has the
/// counts from real configurations this rule was checked against.
extension ConfigTree {
  /// Whether a block statement would be printed by the device on one line with its children.
  ///
  /// - Parameters:
  ///   - node: A block statement.
  ///   - shapes: ``ConfigModel/shapes(of:)`` of this tree (for the statement and its children).
  func foldsOnOneLine(_ node: NodeID, shapes: StatementShapes, schema: JunosSchema) -> Bool {
    foldsOnOneLine(node, shape: shapes[node], schema: schema) { shapes[$0] }
  }

  /// ``foldsOnOneLine(_:shapes:schema:)`` with the statement's shape, and its children's from
  /// `childShape` (asked only while the answer is not known).
  func foldsOnOneLine(_ node: NodeID, shape: StatementShape, schema: JunosSchema, childShape: (NodeID) -> StatementShape) -> Bool {
    let r = nodes[node.index]
    guard node != ConfigTree.root, r.flags.contains(.block), r.listCount < 0, let head = shape.head else { return false }
    guard shape.ownWords == Int(r.wordCount), case .node = shape.children else { return false }
    let f = schema.flags(head)
    guard f.contains(.oneliner) || f.contains(.onelinerPlus), r.firstChild >= 0 else { return false }
    if let e = extra(node), !e.closing.isEmpty || e.closeTrailer != nil { return false }
    var count = 0
    var c = r.firstChild
    while c >= 0 {
      let x = nodes[Int(c)]
      count += 1
      guard !x.flags.contains(.block), x.firstChild < 0, x.flags.isEmpty, extra(NodeID(c)) == nil,
        case let s = childShape(NodeID(c)), let h = s.head, s.complete, s.ownWords == Int(x.wordCount)
      else { return false }
      switch schema.kind(h) {
      case .leaf, .flag, .leafList: break
      case .container, .list: return false
      }
      // Only the last child may bring a `[ ]` list: the line ends with it.
      if x.listCount >= 0 && x.next >= 0 { return false }
      c = x.next
    }
    return f.contains(.oneliner) || count == 1
  }

  /// Folds every block the device prints on one line (see the rules above) into one statement:
  /// its words, then each child's, the last child's `[ ]` list. Folded children are unlinked;
  /// every other NodeID stays valid.
  ///
  /// - Returns: Whether anything was folded.
  @discardableResult
  public mutating func foldOneliners(model: ConfigModel) -> Bool { foldOneliners(model: model, keeping: []) }

  /// ``foldOneliners(model:)``, except the blocks in `keeping`.
  @discardableResult
  mutating func foldOneliners(model: ConfigModel, keeping: Set<Int32>) -> Bool {
    guard let schema = model.matcher?.schema else { return false }
    let shapes = model.shapes(of: self, everyLeaf: false)
    var folded = false
    for node in allStatements() where !keeping.contains(node.raw) && foldsOnOneLine(node, shapes: shapes, schema: schema) {
      fold(node)
      folded = true
    }
    return folded
  }

  /// Folds one block into one statement: its words, then each child's, the last child's `[ ]`
  /// list. The children are unlinked.
  mutating func fold(_ node: NodeID) {
    var refs = wordRefs(of: node)
    var list: [WordRef]? = nil
    var c = nodes[node.index].firstChild
    while c >= 0 {
      refs += wordRefs(of: NodeID(c))
      list = listRefs(of: NodeID(c))
      let next = nodes[Int(c)].next
      nodes[Int(c)].parent = -1
      c = next
    }
    nodes[node.index].firstChild = -1
    nodes[node.index].lastChild = -1
    nodes[node.index].flags.remove(.block)
    setWordRefs(refs, list: list, of: node)
  }

  /// Turns a statement printed on one line with its children back into a block with one child
  /// per segment (``SchemaMatcher`` segments): `route 10.0.0.0/8 next-hop 192.0.2.1` becomes
  /// `route 10.0.0.0/8 { next-hop 192.0.2.1; }`. A no-op for a statement without such children.
  ///
  /// - Returns: Whether the statement was split.
  @discardableResult
  mutating func unfold(_ node: NodeID, shape: StatementShape, matcher: SchemaMatcher) -> Bool {
    let r = nodes[node.index]
    guard !r.flags.contains(.block), shape.head != nil, shape.ownWords < Int(r.wordCount) else { return false }
    let refs = wordRefs(of: node)
    let list = listRefs(of: node)
    let segments = matcher.segments(storage, refs[...], hasList: list != nil, shape: shape)
    guard segments.count > 1 else { return false }
    setWordRefs(Array(refs[segments[0].range]), list: nil, of: node)
    makeBlock(node)
    // A container or list entry among the segments holds the segments after it.
    var parent = node.raw
    for (k, seg) in segments.enumerated().dropFirst() {
      let interior = seg.interior && k < segments.count - 1
      let id = appendNode(
        wordRefs: Array(refs[seg.range]), listRefs: k == segments.count - 1 ? list : nil, parent: parent, flags: interior ? .block : [],
        source: sourceRange(of: node))
      if interior { parent = id.raw }
    }
    return true
  }
}

internal import JunosSchema

extension ConfigTree {
  /// Renders the configuration as Junos XML, in the shape of `show configuration | display xml`:
  /// a `<configuration>` root (the `## Last commit`/`## Last changed` headers as its
  /// `junos:commit-localtime`, `junos:commit-user` and `junos:changed-localtime` attributes),
  /// one element per statement as Juniper's schema names it (list entries with their key
  /// elements first, leaf-lists one element per value, a `homogeneous` container's statements
  /// inside one element), `inactive="inactive"` and `protect="protect"` attributes, comments as
  /// `<junos:comment>` before the element, 4 spaces a level; secrets masked unless asked for.
  ///
  /// What Junos XML cannot say is written as `<junoscope:statement words="…">`, the statement's
  /// words as curly text gives them: statements the schema does not know beyond the simple forms
  /// (`<x/>`, `<x>value</x>`, `<x><name>N</name>…</x>`), words the schema cannot place, empty
  /// blocks, a `[ ]` list of one value, leaf-list statements the XML would join, values quoted
  /// where they need not be, a comment after `;` other than the `## SECRET-DATA` that reading
  /// XML gives every statement holding a secret. Comments inside a line are not kept.
  /// ``ConfigParser/parse(_:syntax:model:)`` reads the output back into an equal tree when the
  /// tree is in the device's form (secrets marked as the device marks them).
  ///
  /// - Parameter options: Masking, comments and the model that maps statements to elements.
  /// - Returns: UTF-8 XML ending with a newline.
  public func renderXML(_ options: RenderOptions = RenderOptions()) -> [UInt8] {
    var r = XMLRendering(tree: self, options: options)
    r.run()
    var out: [UInt8] = Array(#"<configuration xmlns:junos="http://xml.juniper.net/junos/*/junos""#.utf8)
    if r.usesJunoscope { out.append(contentsOf: #" xmlns:junoscope="urn:junoscope:xml""#.utf8) }
    for h in headers {
      let b = Array(h.utf8)
      if b.starts(with: "## Last commit: ".utf8) {
        let rest = b[16...]
        // The user follows the last " by ".
        var by = rest.endIndex - 4
        while by >= rest.startIndex && !rest[by..<(by + 4)].elementsEqual(" by ".utf8) { by -= 1 }
        if by >= rest.startIndex {
          XMLRendering.attribute(&out, "junos:commit-localtime", Array(rest[..<by]))
          XMLRendering.attribute(&out, "junos:commit-user", Array(rest[(by + 4)...]))
        } else {
          XMLRendering.attribute(&out, "junos:commit-localtime", Array(rest))
        }
      } else if b.starts(with: "## Last changed: ".utf8) {
        XMLRendering.attribute(&out, "junos:changed-localtime", Array(b[17...]))
      }
    }
    out.append(contentsOf: ">\n".utf8)
    out.append(contentsOf: r.out)
    out.append(contentsOf: "</configuration>\n".utf8)
    return out
  }
}

/// One rendering of a tree as XML (``ConfigTree/renderXML(_:)``): an iterative walk over the
/// statements with, per open element, the wrappers (`homogeneous` containers) still open in it.
struct XMLRendering {
  let tree: ConfigTree
  let options: RenderOptions
  let shapes: StatementShapes
  let matcher: SchemaMatcher?
  var out: [UInt8] = []
  var usesJunoscope = false

  /// What was rendered last in an element: leaf-list values and list entries after it would be
  /// read back as part of it.
  enum Last: Equatable {
    case none
    case leafList(SchemaNode, StatementFlags, [SchemaNode])
    case entries(SchemaNode)
  }

  /// An element being filled: its level and the wrappers open in it.
  struct Scope {
    var level: Int
    var wrappers: [SchemaNode] = []
    var last: Last = .none
  }

  /// One element to write for a statement.
  enum Piece {
    case open([UInt8], StatementFlags)
    case key([UInt8], [UInt8])
    case text([UInt8], [UInt8], StatementFlags)
    case empty([UInt8], StatementFlags)
    /// The end of the last `open` (a list entry without children).
    case close
  }

  /// How a statement is written: wrappers to be open in its element, its elements (the last
  /// `open`s stay open for its children).
  struct Plan {
    var wrappers: [SchemaNode]
    var pieces: [Piece]
    var last: Last
  }

  init(tree: ConfigTree, options: RenderOptions) {
    self.tree = tree
    self.options = options
    self.shapes = options.model.shapes(of: tree)
    self.matcher = options.model.matcher
  }

  enum Item {
    case statement(Int32)
    /// After a statement's children: its scope ends, then these elements (the first at `level`).
    case end(Int32, [[UInt8]], level: Int)
    case entriesDone(SchemaNode)
  }

  mutating func run() {
    var scopes = [Scope(level: 1)]
    var stack: [Item] = children(of: 0).reversed().map { .statement($0) }
    while let item = stack.popLast() {
      switch item {
      case .entriesDone(let list):
        scopes[scopes.count - 1].last = .entries(list)
      case .end(let node, let names, let level):
        closeWrappers(&scopes[scopes.count - 1], to: 0)
        comments(tree.extra(NodeID(node))?.closing ?? [], level: level + names.count)
        scopes.removeLast()
        for (k, name) in names.enumerated().reversed() {
          indent(level + k)
          out.append(contentsOf: "</".utf8)
          out.append(contentsOf: name)
          out.append(contentsOf: ">\n".utf8)
        }
      case .statement(let id):
        let node = NodeID(id)
        if let list = transparentEntries(node, scope: scopes[scopes.count - 1]) {
          // `groups { … }`: its entries are elements of the element around it.
          closeWrappers(&scopes[scopes.count - 1], to: 0)
          stack.append(.entriesDone(list))
          for c in children(of: id).reversed() { stack.append(.statement(c)) }
          continue
        }
        let plan = self.plan(node, scope: scopes[scopes.count - 1])
        var scope = scopes[scopes.count - 1]
        if let plan {
          // Wrappers the statement shares with the one before stay open.
          var common = 0
          while common < min(plan.wrappers.count, scope.wrappers.count) && plan.wrappers[common] == scope.wrappers[common] { common += 1 }
          closeWrappers(&scope, to: common)
          for w in plan.wrappers[common...] {
            indent(scope.level + scope.wrappers.count)
            out.append(UInt8(ascii: "<"))
            out.append(contentsOf: elementName(w))
            out.append(contentsOf: ">\n".utf8)
            scope.wrappers.append(w)
          }
        } else {
          closeWrappers(&scope, to: 0)
        }
        let level = scope.level + scope.wrappers.count
        comments(tree.extra(node)?.leading ?? [], level: level)
        var opened: [[UInt8]] = []
        if let plan {
          for piece in plan.pieces {
            switch piece {
            case .open(let name, let flags):
              indent(level + opened.count)
              openTag(name, flags)
              out.append(contentsOf: ">\n".utf8)
              opened.append(name)
            case .close:
              let name = opened.removeLast()
              indent(level + opened.count)
              out.append(contentsOf: "</".utf8)
              out.append(contentsOf: name)
              out.append(contentsOf: ">\n".utf8)
            case .key(let name, let value): element(name, value, [], level: level + opened.count)
            case .text(let name, let value, let flags): element(name, value, flags, level: level + opened.count)
            case .empty(let name, let flags):
              indent(level + opened.count)
              openTag(name, flags)
              out.append(contentsOf: "/>\n".utf8)
            }
          }
          scope.last = plan.last
        } else {
          usesJunoscope = true
          indent(level)
          let name = Array("junoscope:statement".utf8)
          openTag(
            name, tree.flags(of: node), words: tree.statementText(node, options, shapes: shapes),
            comment: options.comments ? tree.trailer(of: node)?.text : nil,
            closeComment: options.comments && tree.isBlock(node) ? tree.extra(node)?.closeTrailer?.text : nil)
          if tree.isBlock(node) {
            out.append(contentsOf: ">\n".utf8)
            opened.append(name)
          } else {
            out.append(contentsOf: "/>\n".utf8)
          }
          scope.last = .none
        }
        scopes[scopes.count - 1] = scope
        guard !opened.isEmpty else { continue }
        // Its children go into its innermost element.
        stack.append(.end(id, opened, level: level))
        scopes.append(Scope(level: level + opened.count))
        for c in children(of: id).reversed() { stack.append(.statement(c)) }
      }
    }
    closeWrappers(&scopes[0], to: 0)
    comments(tree.extra(ConfigTree.root)?.closing ?? [], level: 1)
  }

  func children(of id: Int32) -> [Int32] {
    var out: [Int32] = []
    var c = tree.nodes[Int(id)].firstChild
    while c >= 0 {
      out.append(c)
      c = tree.nodes[Int(c)].next
    }
    return out
  }

  // MARK: Planning

  /// The list whose entries a statement holds as a block (`groups`, `name-server`), when the
  /// XML can say it by the entries alone: no tags, comments (when rendered) or `[ ]` list on the
  /// block, at least one entry, each written as an entry, no such block of the same list just
  /// before, and no entry or block of the same list beside it.
  func transparentEntries(_ node: NodeID, scope: Scope) -> SchemaNode? {
    let r = tree.nodes[node.index]
    guard case .entries(let list) = shapes[node].children, r.wordCount == 1, r.listCount < 0, r.firstChild >= 0,
      r.flags.subtracting([.block, .braceSemicolon]).isEmpty, !options.comments || tree.extra(node) == nil, scope.last != .entries(list)
    else { return nil }
    // Entries of the same list beside it would be read back with its own as one run of entries,
    // and the block lost.
    for s in [r.prev, r.next] where s >= 0 && shapes[NodeID(s)].head == list { return nil }
    var entry = Scope(level: 0)
    for c in children(of: node.raw) {
      guard plan(NodeID(c), scope: entry) != nil else { return nil }
      entry.last = .none
    }
    return list
  }

  /// How a statement maps to elements, or `nil` when Junos XML cannot say it.
  func plan(_ node: NodeID, scope: Scope) -> Plan? {
    let r = tree.nodes[node.index]
    let shape = shapes[node]
    let flags = r.flags.subtracting([.block, .braceSemicolon])
    let block = r.flags.contains(.block)
    guard r.wordCount > 0 else { return nil }
    if block && r.firstChild < 0 { return nil }  // `x { }`: an element without elements is no block
    // Reading XML gives a statement holding a secret the device's `## SECRET-DATA` trailer, and
    // no other: another trailer is said in words.
    if let t = tree.trailer(of: node) {
      guard t.text == "## SECRET-DATA", SecretMasking.holdsSecret(node, in: tree, shape: shape, matcher: matcher) else { return nil }
    }
    // A comment after a block's `}` is said in words too.
    if options.comments && tree.extra(node)?.closeTrailer != nil { return nil }
    guard let matcher, shape.head != nil else { return unknownPlan(node, flags: flags) }
    guard shape.complete else { return nil }
    let schema = matcher.schema
    // A block the device prints on one line is read back on one line.
    if block && tree.foldsOnOneLine(node, shapes: shapes, schema: schema) { return nil }
    let words = maskedWords(node, shape)
    let refs = tree.words[Int(r.wordStart)..<Int(r.wordStart + r.wordCount)]
    let segments = matcher.segments(tree.storage, refs, hasList: r.listCount >= 0, shape: shape)
    guard !block || segments.count == 1 else { return nil }
    if segments.count > 1 {
      // Children on the statement's line are read back as elements and folded by the device's
      // rule: only a one-liner with leaves, flags and leaf-lists (one of them for oneliner-plus).
      guard let h0 = segments[0].head, segments[0].interior, segments.dropFirst().allSatisfy({ !$0.interior }) else { return nil }
      let f = schema.flags(h0)
      guard f.contains(.oneliner) || (f.contains(.onelinerPlus) && segments.count == 2) else { return nil }
      for k in 2..<max(2, segments.count) where segments[k].head == segments[k - 1].head { return nil }
    }
    let parent = tree.nodes[node.index].parent
    let context = shapes[NodeID(parent)].children
    var pieces: [Piece] = []
    var wrappers: [SchemaNode] = []
    var schemaParent: SchemaNode
    var entry = false
    switch context {
    case .node(let p): schemaParent = p
    case .entries(let list):
      schemaParent = list
      entry = true
    case .unknown: return nil
    }
    var last = Last.none
    for (k, seg) in segments.enumerated() {
      guard let h = seg.head else { return nil }
      let isLast = k == segments.count - 1
      var p = seg.range.lowerBound
      // `family inet`: the homogeneous containers' keywords.
      while !(entry && k == 0), p < seg.range.upperBound - 1,
        let c = words[p].withUnsafeBytes({ matcher.keywordChild(schemaParent, $0) }), c != h,
        schema.kind(c) == .container, schema.flags(c).contains(.homogeneous)
      {
        guard words[p].elementsEqual(cliName(c)) else { return nil }
        if k == 0 { wrappers.append(c) } else { pieces.append(.open(elementName(c), [])) }
        schemaParent = c
        p += 1
      }
      let name = elementName(h)
      let own = k == 0 ? flags : []
      var kw = 0
      if !(entry && k == 0) {
        let named = words[p].elementsEqual(cliName(h))
        if schema.flags(h).contains(.nokeyword) {
          if named { return nil }
        } else {
          guard named else { return nil }
          kw = 1
        }
      }
      let rest = Array(words[(p + kw)..<seg.range.upperBound])
      let hasList = isLast && r.listCount >= 0
      switch schema.kind(h) {
      case .container:
        guard rest.isEmpty, !hasList else { return nil }
        if isLast && !block { pieces.append(.empty(name, own)) } else { pieces.append(.open(name, own)) }
      case .list:
        var keys = schema.keys(h)
        // `route-filter 10.0.0.0/8 exact`, `community add C`: no word for an empty `choice-value`.
        if rest.count == keys.count - 1, let j = keys.firstIndex(where: { schema.name($0) == "choice-value" }) { keys.remove(at: j) }
        guard !hasList, !rest.isEmpty, rest.count == keys.count || (keys.isEmpty && rest.count == 1) else { return nil }
        pieces.append(.open(name, own))
        for (j, w) in rest.enumerated() {
          guard let value = keyValue(w), !value.isEmpty else { return nil }
          pieces.append(.key(j < keys.count ? elementName(keys[j]) : Array("name".utf8), value))
        }
        if isLast && !block { pieces.append(.close) }
      case .leaf:
        guard !hasList, !block, rest.count == seg.valueWords else { return nil }
        if rest.isEmpty {
          pieces.append(.empty(name, own))
        } else {
          guard let value = leafValue(rest) else { return nil }
          pieces.append(.text(name, value, own))
        }
      case .flag:
        guard rest.isEmpty, !hasList, !block else { return nil }
        pieces.append(.empty(name, own))
      case .leafList:
        guard !block else { return nil }
        if hasList {
          guard rest.isEmpty, let values = listValues(node, shape), values.count >= 2 else { return nil }
          for v in values { pieces.append(.text(name, v, own)) }
        } else if rest.isEmpty {
          pieces.append(.empty(name, own))
        } else {
          guard let value = leafValue(rest) else { return nil }
          pieces.append(.text(name, value, own))
        }
        if segments.count == 1 {
          let mine = Last.leafList(h, flags, wrappers)
          // The values of a leaf-list statement just before would take these in.
          if scope.last == mine && tree.leadingTrivia(of: node).isEmpty { return nil }
          last = mine
        }
      }
      if seg.interior { schemaParent = h }
    }
    return Plan(wrappers: wrappers, pieces: pieces, last: last)
  }

  /// Statements the schema does not know: `<x/>`, `<x>value</x>`, `<x><name>N</name>…</x>`.
  func unknownPlan(_ node: NodeID, flags: StatementFlags) -> Plan? {
    let r = tree.nodes[node.index]
    guard r.listCount < 0, r.wordCount <= 2 else { return nil }
    let w0 = tree.wordBytes(0, of: node)
    guard Self.isName(w0) else { return nil }
    // An element the schema knows here would be read as that statement.
    if let matcher, case .node(let parent) = shapes[NodeID(tree.nodes[node.index].parent)].children,
      w0.withUnsafeBytes({ matcher.keywordChild(parent, $0) }) != nil
        || matcher.schema.child(parent, named: String(decoding: w0, as: UTF8.self)) != nil
    {
      return nil
    }
    let name = Array(w0)
    let block = r.firstChild >= 0
    if r.wordCount == 1 {
      if !block { return Plan(wrappers: [], pieces: [.empty(name, flags)], last: .none) }
      // A first child `<name>` would read as this statement's name.
      if tree.wordBytes(0, of: NodeID(r.firstChild)).elementsEqual("name".utf8) { return nil }
      return Plan(wrappers: [], pieces: [.open(name, flags)], last: .none)
    }
    let masked = maskedWords(node, shapes[node])
    if block {
      guard let value = keyValue(masked[1]) else { return nil }
      return Plan(wrappers: [], pieces: [.open(name, flags), .key(Array("name".utf8), value)], last: .none)
    }
    guard let value = leafValue([masked[1]]) else { return nil }
    return Plan(wrappers: [], pieces: [.text(name, value, flags)], last: .none)
  }

  /// The statement's words, secrets masked as asked (``SecretMasking/mask``).
  func maskedWords(_ node: NodeID, _ shape: StatementShape) -> [ArraySlice<UInt8>] {
    tree.maskedWords(node, options, shape).map { $0[...] }
  }

  /// A leaf's value for its words, when the XML reads back as them (a masked value need not).
  func leafValue(_ words: [ArraySlice<UInt8>]) -> [UInt8]? {
    if words.count == 1 && words[0].elementsEqual(SecretMasking.mask.utf8) { return XMLWords.value(words[0]) }
    guard XMLWords.roundTrips(words) else { return nil }
    var out: [UInt8] = []
    for (k, w) in words.enumerated() {
      if k > 0 { out.append(0x20) }
      out.append(contentsOf: XMLWords.value(w))
    }
    return out
  }

  /// A key's value for its word, when it reads back as that word.
  func keyValue(_ w: ArraySlice<UInt8>) -> [UInt8]? {
    let v = XMLWords.value(w)
    if w.elementsEqual(SecretMasking.mask.utf8) { return v }
    guard XMLWords.trimmed(v[...]).count == v.count, XMLWords.word(v[...]).elementsEqual(w) else { return nil }
    return v
  }

  /// The `[ ]` values of a leaf-list statement, each as one element's text.
  func listValues(_ node: NodeID, _ shape: StatementShape) -> [[UInt8]]? {
    guard let values = tree.listRefs(of: node) else { return nil }
    let masked = !options.showSecrets && SecretMasking.masksList(of: node, in: tree, shape: shape, matcher: matcher)
    var out: [[UInt8]] = []
    for v in values {
      let w = masked ? Array(SecretMasking.mask.utf8)[...] : tree.storage[Int(v.start)..<Int(v.end)]
      if masked {
        out.append(XMLWords.value(w))
        continue
      }
      guard let value = leafValue([w]) else { return nil }
      out.append(value)
    }
    return out
  }

  /// A schema statement's element name.
  func elementName(_ n: SchemaNode) -> [UInt8] { Array(matcher!.schema.name(n).utf8) }

  /// A schema statement's keyword in curly text (``XMLWords/keyword(_:)``).
  func cliName(_ n: SchemaNode) -> [UInt8] { XMLWords.keyword(matcher!.schema.name(n)) }

  /// Whether a word can be an element name of its own (no prefix: no `:`).
  static func isName(_ w: ArraySlice<UInt8>) -> Bool {
    guard let f = w.first else { return false }
    func letter(_ c: UInt8) -> Bool {
      (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || c == UInt8(ascii: "_")
    }
    guard letter(f) else { return false }
    return w.allSatisfy {
      letter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  // MARK: Writing

  mutating func closeWrappers(_ scope: inout Scope, to count: Int) {
    while scope.wrappers.count > count {
      let w = scope.wrappers.removeLast()
      indent(scope.level + scope.wrappers.count)
      out.append(contentsOf: "</".utf8)
      out.append(contentsOf: elementName(w))
      out.append(contentsOf: ">\n".utf8)
    }
  }

  mutating func indent(_ level: Int) { out.append(contentsOf: repeatElement(0x20, count: 4 * level)) }

  mutating func openTag(
    _ name: [UInt8], _ flags: StatementFlags, words: [UInt8]? = nil, comment: String? = nil, closeComment: String? = nil
  ) {
    out.append(UInt8(ascii: "<"))
    out.append(contentsOf: name)
    if let words { Self.attribute(&out, "words", words) }
    if let comment { Self.attribute(&out, "comment", Array(comment.utf8)) }
    if let closeComment { Self.attribute(&out, "close-comment", Array(closeComment.utf8)) }
    for (flag, attr) in Self.flagAttributes where flags.contains(flag) { Self.attribute(&out, attr, Array(attr.utf8)) }
  }

  static let flagAttributes: [(StatementFlags, String)] = [
    (.inactive, "inactive"), (.protect, "protect"), (.replace, "replace"), (.delete, "delete"), (.active, "active"),
    (.unprotect, "unprotect"),
  ]

  mutating func element(_ name: [UInt8], _ value: [UInt8], _ flags: StatementFlags, level: Int) {
    indent(level)
    openTag(name, flags)
    out.append(UInt8(ascii: ">"))
    Self.escape(value, into: &out, attribute: false)
    out.append(contentsOf: "</".utf8)
    out.append(contentsOf: name)
    out.append(contentsOf: ">\n".utf8)
  }

  mutating func comments(_ trivia: [Trivia], level: Int) {
    guard options.comments else { return }
    for t in trivia {
      indent(level)
      out.append(contentsOf: "<junos:comment>".utf8)
      Self.escape(Array(t.text.utf8), into: &out, attribute: false)
      out.append(contentsOf: "</junos:comment>\n".utf8)
    }
  }

  static func attribute(_ out: inout [UInt8], _ name: String, _ value: [UInt8]) {
    out.append(0x20)
    out.append(contentsOf: name.utf8)
    out.append(contentsOf: "=\"".utf8)
    escape(value, into: &out, attribute: true)
    out.append(UInt8(ascii: "\""))
  }

  /// XML text (or an attribute value): `&`, `<`, `>` (and `"`, line ends and tabs in an
  /// attribute) as references, control bytes as character references.
  static func escape(_ value: [UInt8], into out: inout [UInt8], attribute: Bool) {
    for c in value {
      switch c {
      case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "\"") where attribute: out.append(contentsOf: "&quot;".utf8)
      case 0x0A where !attribute: out.append(c)
      case 0x09 where !attribute: out.append(c)
      case 0..<0x20: out.append(contentsOf: "&#\(c);".utf8)
      default: out.append(c)
      }
    }
  }
}

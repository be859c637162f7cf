internal import JunosSchema

/// Parser for Junos XML configurations: `show configuration | display xml`, and NETCONF or Junos
/// XML protocol replies holding a `<configuration>` (inside `<rpc-reply>`, `<data>`, beside
/// `<cli>`), or configuration text (`<configuration-text>`, `<configuration-output>`,
/// `<configuration-set>`, read as curly or set text in place). It builds the tree the curly
/// parser builds for the device's curly text of the same configuration.
///
/// Juniper's schema maps elements to statements (`Docs/Schema.md`, "XML"): a container is a
/// block; a list entry is its keyword and the text of its key elements, which come first
/// (`<interface><name>ge-0/0/0</name>…` is `ge-0/0/0 {`, the list printed without its keyword);
/// a leaf is its keyword and value, a flag its keyword (`<ssh/>`); repeated leaf-list elements
/// are one `[ ]` list; the entries of a list printed as a block of entries (`groups`,
/// `name-server`) are gathered under one such block; a `homogeneous` container's keyword starts
/// its children's lines (`<family><inet>` is `family inet {`). Statements are built one per
/// element and folded into the device's one-line form at the end, like `display set` text.
/// `inactive="inactive"` and `protect="protect"` (and the load attributes `replace`, `delete`,
/// `active`, `unprotect`) are the prefix tags; `<junos:comment>` is the comment of the element
/// after it (at the end of an element, of the block); the `junos:commit-localtime`,
/// `junos:commit-user` and `junos:changed-localtime` attributes of `<configuration>` are the
/// `## Last commit` and `## Last changed` headers. A statement holding a secret gets the
/// device's `## SECRET-DATA` trailer.
///
/// Elements the schema does not know: one with child elements is a block (its keyword and, when
/// its first child is `<name>` with text only, that name), one with text a leaf (keyword and
/// value), an empty one a flag. `<junoscope:statement words="…">` is a statement given as curly
/// words, for what Junos XML cannot say (``ConfigTree/renderXML(_:)`` writes it).
///
/// One pass over the events of ``XMLReader``, an explicit stack, no recursion; malformed or
/// truncated XML is an error with its line and column and the tree read so far.
struct XMLConfigParser {
  enum Role {
    /// An element around the configuration (`rpc-reply`, `data`, `cli`).
    case outside
    /// `<configuration>`.
    case root
    /// An element that is a statement.
    case statement
    /// A `homogeneous` container: its keyword starts its children's words.
    case wrapper
    /// The key of a list entry (the element below).
    case key
    /// `<junos:comment>`.
    case comment
    /// Configuration text: read as curly or set text when it ends.
    case text
    /// Not part of the configuration (after an error, or a second configuration).
    case ignored
  }

  /// What kind of statement an element is.
  enum Kind { case container, list, leaf, flag, leafList, unknown, given }

  /// How the last statement made from a child element was made: leaf-list values and the
  /// entries of a list printed as a block are gathered into it.
  enum Last {
    case none
    case leafList(SchemaNode, Int32)
    case entries(SchemaNode, Int32)
  }

  struct Frame {
    var role: Role
    var at: Int
    var selfClosing: Bool
    var kind: Kind = .unknown
    var head: SchemaNode? = nil
    /// Where the children are looked up.
    var context: SchemaContext = .unknown
    /// The statement's words so far (a wrapper's: the keywords its children's words start with).
    var words: [WordRef] = []
    /// Keys still to be read (a list entry), in order.
    var keys: [SchemaNode] = []
    /// An unknown element whose first child may be its `<name>`.
    var mayHaveName = false
    /// An entry of a list printed as a block of entries.
    var entry = false
    var node: Int32 = -1
    var depth = 0
    var flags: StatementFlags = []
    var leading: [Trivia] = []
    var text: [UInt8] = []
    /// The comment after the statement on its line (given as words).
    var trailer: Trivia? = nil
    /// The comment after its block's `}` (given as words).
    var closeTrailer: Trivia? = nil
    /// `[ ]` values (a leaf-list's, or given).
    var list: [WordRef]? = nil
    var children = false
    var last: Last = .none
  }

  let file: SourceFile
  let model: ConfigModel
  var reader: XMLReader
  var tree = ConfigTree()
  var diagnostics: [Diagnostic] = []
  var frames: [Frame] = []
  /// `<junos:comment>`s read, for the next statement.
  var pending: [Trivia] = []
  var configurationSeen = false
  var stopped = false
  /// The result of configuration text inside the XML, when that is what the file holds.
  var textResult: ParseResult? = nil
  /// The statements given as words (`<junoscope:statement>`): kept as they are.
  var given: Set<Int32> = []
  /// Each schema statement's keyword, stored once.
  var keywords: [SchemaNode: WordRef] = [:]

  var schema: JunosSchema? { model.matcher?.schema }

  static func parse(_ file: SourceFile, model: ConfigModel) -> ParseResult {
    var p = XMLConfigParser(file: file, model: model, reader: XMLReader(bytes: file.bytes))
    p.tree.path = file.path
    guard file.bytes.count < Int(Int32.max) else {
      p.diagnostics.append(Diagnostic(.invalidByte, "input larger than 2 GiB is not supported", in: file, at: 0..<0))
      return ParseResult(tree: p.tree, diagnostics: p.diagnostics, syntax: .xml, skippedLines: 0)
    }
    p.run()
    if var inner = p.textResult {
      inner.diagnostics = p.diagnostics + inner.diagnostics
      inner.syntax = .xml
      inner.tree.path = file.path
      return inner
    }
    p.tree.foldOneliners(model: model, keeping: p.given)
    p.markSecrets()
    return ParseResult(tree: p.tree, diagnostics: p.diagnostics, syntax: .xml, skippedLines: 0)
  }

  mutating func run() {
    while !stopped, let event = reader.next() {
      switch event {
      case .start(let name, let at, let selfClosing): start(name, at: at, selfClosing: selfClosing)
      case .end(_, let at): end(at: at)
      case .text(let range, let entities): text(range, entities: entities)
      case .cdata(let range): text(range, entities: false)
      case .error(let message, let at):
        let open = frames.count
        let truncated = message.hasSuffix("is never closed") ? " (the input ends inside \(open) open element\(open == 1 ? "" : "s"))" : ""
        diagnostics.append(Diagnostic(.malformedXML, "malformed XML: \(message)\(truncated)", in: file, at: at..<at))
        finishOpenStatements(at: at)
        stopped = true
      }
    }
    if !configurationSeen && textResult == nil && !stopped {
      diagnostics.append(
        Diagnostic(
          .unexpectedXML, "no <configuration> element (nor <configuration-text>, <configuration-output> or <configuration-set>)", in: file,
          at: 0..<0))
    }
  }

  // MARK: Elements

  mutating func start(_ name: XMLReader.Name, at: Int, selfClosing: Bool) {
    guard let p = frames.indices.last else {
      startOutside(name, at: at, selfClosing: selfClosing)
      return
    }
    switch frames[p].role {
    case .outside:
      startOutside(name, at: at, selfClosing: selfClosing)
    case .ignored:
      frames.append(Frame(role: .ignored, at: at, selfClosing: selfClosing))
    case .text, .comment:
      report(.unexpectedXML, "unexpected element <\(reader.string(name.qualified))> inside text", at: at)
      frames.append(Frame(role: .ignored, at: at, selfClosing: selfClosing))
    case .key:
      // `<name>` of an unknown element that has elements inside: a statement of its own.
      guard frames[p].mayHaveName, p > 0 else {
        report(.unexpectedXML, "unexpected element <\(reader.string(name.qualified))> inside a key", at: at)
        frames.append(Frame(role: .ignored, at: at, selfClosing: selfClosing))
        return
      }
      frames[p - 1].mayHaveName = false
      frames[p].role = .statement
      frames[p].kind = .unknown
      frames[p].mayHaveName = false
      frames[p].words = [storeName(p)]
      frames[p].text = []
      child(name, at: at, selfClosing: selfClosing, parent: p)
    case .root, .statement, .wrapper:
      child(name, at: at, selfClosing: selfClosing, parent: p)
    }
  }

  mutating func startOutside(_ name: XMLReader.Name, at: Int, selfClosing: Bool) {
    var f = Frame(role: .outside, at: at, selfClosing: selfClosing)
    if !configurationSeen && textResult == nil {
      if reader.bytes(name.local, equal: "configuration") {
        f.role = .root
        f.context = model.rootContext
        f.node = 0
        tree.headers = headers()
        configurationSeen = true
      } else if reader.bytes(name.local, equal: "configuration-text") || reader.bytes(name.local, equal: "configuration-output")
        || reader.bytes(name.local, equal: "configuration-set")
      {
        f.role = .text
        f.at = reader.offset
      }
    } else if reader.bytes(name.local, equal: "configuration") {
      f.role = .ignored
    }
    frames.append(f)
  }

  /// The `## Last commit` and `## Last changed` headers of `<configuration>`'s attributes (line
  /// breaks in them as blanks).
  func headers() -> [String] {
    func attribute(_ name: StaticString) -> String? {
      reader.attributeBytes(name).map { String(decoding: $0.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self) }
    }
    var order: [Bool] = []  // true: commit, false: changed
    for a in reader.attributes {
      let commit = reader.bytes(a.name.local, equal: "commit-localtime") || reader.bytes(a.name.local, equal: "commit-user")
      if commit && !order.contains(true) { order.append(true) }
      if reader.bytes(a.name.local, equal: "changed-localtime") && !order.contains(false) { order.append(false) }
    }
    return order.map { commit in
      if !commit { return "## Last changed: \(attribute("changed-localtime") ?? "")" }
      let user = attribute("commit-user").map { " by \($0)" } ?? ""
      return "## Last commit: \(attribute("commit-localtime") ?? "")\(user)"
    }
  }

  /// A child element of a statement, a wrapper or the root.
  mutating func child(_ name: XMLReader.Name, at: Int, selfClosing: Bool, parent p: Int) {
    let local = name.local
    // A list entry's keys come first.
    if frames[p].role == .statement {
      if let schema, let j = frames[p].keys.firstIndex(where: { reader.bytes(local, equalText: schema.name($0)) }) {
        // Keys left out before it (an empty `choice-value`) have no word.
        frames[p].keys.removeFirst(j)
        frames.append(Frame(role: .key, at: at, selfClosing: selfClosing))
        return
      }
      if frames[p].mayHaveName && reader.bytes(name.qualified, equal: "name") {
        var f = Frame(role: .key, at: at, selfClosing: selfClosing)
        f.mayHaveName = true
        frames.append(f)
        return
      }
    }
    if reader.bytes(name.qualified, equal: "junos:comment") {
      frames.append(Frame(role: .comment, at: at, selfClosing: selfClosing))
      return
    }
    if frames[p].role == .statement {
      if let missing = missingKeys(p) { report(.unexpectedXML, "list entry without its key \(missing) first", at: frames[p].at) }
      frames[p].keys = []
      switch frames[p].kind {
      case .leaf, .flag, .leafList:
        // A leaf with elements inside: not what the schema says; read it as a block.
        frames[p].kind = .unknown
        frames[p].context = .unknown
        if !XMLWords.trimmed(frames[p].text[...]).isEmpty {
          frames[p].words += XMLWords.valueWords(XMLWords.trimmed(frames[p].text[...])).map { tree.storeWord($0) }
        }
      default: break
      }
      frames[p].mayHaveName = false
      guard materialize(p) else { return }
    }
    var f = Frame(role: .statement, at: at, selfClosing: selfClosing)
    f.flags = flags()
    var prefix: [WordRef] = []
    if frames[p].role == .wrapper {
      prefix = frames[p].words
      f.flags.formUnion(frames[p].flags)
    }
    f.words = prefix
    if reader.bytes(name.qualified, equal: "junoscope:statement") {
      given(&f, parent: p)
    } else {
      classify(&f, name: name, parent: p)
    }
    if f.role == .statement {
      f.leading = pending
      pending = []
    }
    frames.append(f)
  }

  /// Which statement the element names, among the children of its parent.
  mutating func classify(_ f: inout Frame, name: XMLReader.Name, parent p: Int) {
    let local = name.local
    var head: SchemaNode? = nil
    if let schema, let families = model.matcher?.families {
      switch frames[p].context {
      case .entries(let list):
        if reader.bytes(local, equalText: schema.name(list)) {
          head = list
          f.entry = true
        }
      case .node(let parent):
        let c = reader.bytes.withUnsafeBytes { schema.child(parent, bytes: UnsafeRawBufferPointer(rebasing: $0[local])) }
        if let c, schema.families(c) & families != 0 { head = c }
      case .unknown: break
      }
    }
    guard let head, let schema else {
      f.kind = .unknown
      f.mayHaveName = true
      f.words.append(storeName(frames.count, name: name))
      return
    }
    f.head = head
    f.context = .node(head)
    let nokeyword = schema.flags(head).contains(.nokeyword)
    switch schema.kind(head) {
    case .container:
      f.kind = .container
      if schema.flags(head).contains(.homogeneous) {
        f.role = .wrapper
        f.words.append(keyword(head))
        return
      }
      f.words.append(keyword(head))
    case .list:
      f.kind = .list
      f.keys = schema.keys(head)
      if f.entry { return }
      if schema.flags(head).contains(.homogeneous) && !nokeyword {
        // An entry of a list printed as a block of its entries (`groups { G1 { … } }`).
        f.entry = true
        return
      }
      if !nokeyword { f.words.append(keyword(head)) }
    case .leaf, .leafList:
      f.kind = schema.kind(head) == .leaf ? .leaf : .leafList
      if !nokeyword { f.words.append(keyword(head)) }
    case .flag:
      f.kind = .flag
      f.words.append(keyword(head))
    }
  }

  /// `<junoscope:statement words="…">`: the words as curly text gives them.
  mutating func given(_ f: inout Frame, parent p: Int) {
    f.kind = .given
    guard let text = reader.attributeBytes("words") else {
      report(.unexpectedXML, "<junoscope:statement> without its words=\"…\"", at: f.at)
      f.role = .ignored
      return
    }
    // A blank first: a first word starting with U+FEFF is no byte-order mark here.
    let one = CurlyParser.parse(SourceFile(path: file.path, bytes: [0x20] + text + [UInt8(ascii: ";")]))
    let top = one.tree.children(of: ConfigTree.root).map { $0 }
    guard !one.hasErrors, top.count == 1, let s = top.first, !one.tree.hasChildren(s), one.tree.extra(s) == nil,
      one.tree.flags(of: s).isEmpty, one.tree.wordCount(of: s) > 0, one.tree.headers.isEmpty
    else {
      report(.unexpectedXML, "the words of <junoscope:statement> are not one statement: \(String(decoding: text, as: UTF8.self))", at: f.at)
      f.role = .ignored
      return
    }
    f.words += one.tree.wordRefs(of: s).map { tree.storeWord(one.tree.storage[Int($0.start)..<Int($0.end)]) }
    f.list = one.tree.listRefs(of: s).map { $0.map { tree.storeWord(one.tree.storage[Int($0.start)..<Int($0.end)]) } }
    if let c = reader.attributeBytes("comment") { f.trailer = Self.trivia(c[...]).first }
    if let c = reader.attributeBytes("close-comment") { f.closeTrailer = Self.trivia(c[...]).first }
    let ctx = frames[owner(p)].context
    if let m = model.matcher, ctx != .unknown {
      f.context = m.shape(tree.storage, f.words[...], hasList: f.list != nil, in: ctx).children
    }
  }

  /// The frame whose statement holds the statements of frame `p`'s children: `p`, or the
  /// statement or root around its wrappers.
  func owner(_ p: Int) -> Int {
    var o = p
    while o > 0 && frames[o].role == .wrapper { o -= 1 }
    return o
  }

  /// The prefix tags the current start tag's attributes give.
  func flags() -> StatementFlags {
    var out: StatementFlags = []
    for a in reader.attributes {
      let n = a.name.local
      if reader.bytes(n, equal: "inactive") { out.insert(.inactive) }
      if reader.bytes(n, equal: "protect") { out.insert(.protect) }
      if reader.bytes(n, equal: "replace") { out.insert(.replace) }
      if reader.bytes(n, equal: "delete") { out.insert(.delete) }
      if reader.bytes(n, equal: "active") { out.insert(.active) }
      if reader.bytes(n, equal: "unprotect") { out.insert(.unprotect) }
    }
    return out
  }

  /// A schema statement's keyword as curly text spells it (``XMLWords/keyword(_:)``).
  mutating func keyword(_ n: SchemaNode) -> WordRef {
    if let w = keywords[n] { return w }
    let w = tree.storeWord(XMLWords.keyword(schema!.name(n)))
    keywords[n] = w
    return w
  }

  /// The element name of frame `f` (an unknown element's keyword), stored as a word.
  mutating func storeName(_ f: Int, name: XMLReader.Name? = nil) -> WordRef {
    let n = name ?? currentName(f)
    return tree.storeWord(XMLWords.word(reader.bytes[n.local]))
  }

  /// The name of the element frame `f` was opened for, read again from its start tag.
  func currentName(_ f: Int) -> XMLReader.Name {
    var j = frames[f].at + 1
    while j < reader.bytes.count && reader.bytes[j] > 0x20 && reader.bytes[j] != UInt8(ascii: ">") && reader.bytes[j] != UInt8(ascii: "/") {
      j += 1
    }
    return XMLReader.name(reader.bytes, (frames[f].at + 1)..<j)
  }

  /// Creates the statement of frame `f` (a block: something goes inside it) if not yet made.
  ///
  /// - Returns: `false` when the nesting is too deep (parsing stops).
  mutating func materialize(_ f: Int) -> Bool {
    guard frames[f].node < 0 else { return true }
    return create(f, block: true) >= 0
  }

  /// Makes the statement of frame `f` the last child of its owner's statement.
  ///
  /// - Returns: The statement, or -1 when the nesting is too deep (parsing stops).
  @discardableResult
  mutating func create(_ f: Int, block: Bool) -> Int32 {
    let p = f - 1
    let o = owner(p)
    if frames[o].node < 0 && (frames[o].role != .statement || !materialize(o)) { return -1 }
    var parent = frames[o].node
    var depth = frames[o].depth + 1
    var last = Last.none
    if frames[f].entry, let head = frames[f].head, frames[o].context != .entries(head) {
      // The entries of one list are gathered under one block, made at the first entry.
      if case .entries(let h, let b) = frames[p].last, h == head {
        parent = b
      } else {
        let words = frames[p].role == .wrapper ? frames[p].words : []
        parent =
          tree.appendNode(
            wordRefs: words + [keyword(head)], listRefs: nil, parent: parent, flags: .block, source: frames[f].at..<frames[f].at
          ).raw
      }
      depth += 1
      last = .entries(head, parent)
    }
    guard depth <= ConfigTree.maximumDepth else {
      report(
        .nestingTooDeep,
        "nesting too deep: more than \(ConfigTree.maximumDepth) levels of statements (no Junos configuration nests so deep)",
        at: frames[f].at)
      stopped = true
      return -1
    }
    var flags = frames[f].flags
    if block { flags.insert(.block) }
    let id = tree.appendNode(
      wordRefs: frames[f].words, listRefs: frames[f].list, parent: parent, flags: flags, source: frames[f].at..<frames[f].at)
    if !frames[f].leading.isEmpty {
      var e = Extras()
      e.leading = frames[f].leading
      tree.setExtras(e, of: id)
      frames[f].leading = []
    }
    frames[f].node = id.raw
    frames[f].depth = depth
    if frames[f].kind == .given {
      given.insert(id.raw)
      if frames[f].trailer != nil || frames[f].closeTrailer != nil {
        var e = tree.extra(id) ?? Extras()
        e.trailer = frames[f].trailer
        e.closeTrailer = frames[f].closeTrailer
        tree.setExtras(e, of: id)
      }
    }
    if frames[f].kind == .leafList, let h = frames[f].head, !frames[f].entry { last = .leafList(h, id.raw) }
    frames[p].last = last
    frames[p].children = true
    return id.raw
  }

  mutating func end(at: Int) {
    guard let f = frames.indices.last else { return }
    let frame = frames[f]
    switch frame.role {
    case .outside, .ignored:
      break
    case .root:
      closing(0)
    case .text:
      textResult = parseText(frame.at..<at)
    case .comment:
      pending += Self.trivia(frame.text[...])
    case .key:
      let value = XMLWords.trimmed(frame.text[...])
      // An empty key (`<choice-value/>` of `route-filter 10.0.0.0/8 exact`) has no word.
      if !value.isEmpty || frame.mayHaveName { frames[f - 1].words.append(tree.storeWord(XMLWords.word(value))) }
      if frame.mayHaveName {
        frames[f - 1].mayHaveName = false
      } else if !frames[f - 1].keys.isEmpty {
        frames[f - 1].keys.removeFirst()
      }
    case .wrapper:
      if !frame.children {
        // `<family/>`: the container alone.
        frames[f].role = .statement
        frames[f].leading = pending
        pending = []
        create(f, block: false)
      }
    case .statement:
      if frame.node < 0 { finishLeaf(f) }
      let node = frames[f].node
      if node >= 0 {
        if tree.isBlock(NodeID(node)) { closing(node) }
        tree.nodes[Int(node)].sourceEnd = Int32(truncatingIfNeeded: reader.offset)
      }
    }
    frames.removeLast()
  }

  /// Comments read since the last statement, at the end of a block, are its closing comments.
  mutating func closing(_ node: Int32) {
    guard !pending.isEmpty else { return }
    var e = tree.extra(NodeID(node)) ?? Extras()
    e.closing += pending
    pending = []
    tree.setExtras(e, of: NodeID(node))
  }

  /// The comments a `<junos:comment>` (or a `comment` attribute) stands for, as curly text can
  /// hold them: `/* … */` (an inner `*/` written `* /`), one `# …` comment a line, or the text
  /// in `/* */`.
  static func trivia(_ text: ArraySlice<UInt8>) -> [Trivia] {
    let t = XMLWords.trimmed(text)
    if t.first == UInt8(ascii: "#") {
      return t.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).map { line in
        var l = line.drop(while: { $0 == 0x20 || $0 == 0x09 })
        if l.first != UInt8(ascii: "#") { l = ArraySlice(Array("# ".utf8) + l) }
        return Trivia(.hash, String(decoding: l, as: UTF8.self))
      }
    }
    let delimited = t.count >= 4 && t.starts(with: "/*".utf8) && t.suffix(2).elementsEqual("*/".utf8)
    let body = delimited ? t.dropFirst(2).dropLast(2) : t
    var out: [UInt8] = Array((delimited ? "/*" : "/* ").utf8)
    var k = body.startIndex
    while k < body.endIndex {
      out.append(body[k])
      if body[k] == UInt8(ascii: "*"), k + 1 < body.endIndex, body[k + 1] == UInt8(ascii: "/") { out.append(0x20) }
      k += 1
    }
    out += Array((delimited ? "*/" : " */").utf8)
    return [Trivia(.annotation, String(decoding: out, as: UTF8.self))]
  }

  /// The keys frame `f`'s list entry still lacks (`choice-value`, empty for most choices, may
  /// be left out), as `<name>` elements.
  func missingKeys(_ f: Int) -> String? {
    guard let schema else { return nil }
    let missing = frames[f].keys.map { schema.name($0) }.filter { $0 != "choice-value" }
    return missing.isEmpty ? nil : missing.map { "<\($0)>" }.joined(separator: ", ")
  }

  /// The end of a statement's element without elements inside: a leaf, a flag, an empty block.
  mutating func finishLeaf(_ f: Int) {
    let frame = frames[f]
    if let missing = missingKeys(f) { report(.unexpectedXML, "list entry without its key \(missing)", at: frame.at) }
    let value = XMLWords.trimmed(frame.text[...])
    var block = false
    switch frame.kind {
    case .leaf:
      if !frame.selfClosing { frames[f].words += XMLWords.valueWords(value).map { tree.storeWord($0) } }
    case .leafList:
      let words = frame.selfClosing ? [] : XMLWords.valueWords(value)
      if case .leafList(let h, let prev) = frames[f - 1].last, h == frame.head, frame.leading.isEmpty, words.count == 1,
        tree.flags(of: NodeID(prev)) == frame.flags, tree.nodes[Int(prev)].firstChild < 0
      {
        // Another value of the leaf-list before: one `[ ]` list.
        let refs = tree.wordRefs(of: NodeID(prev))
        let keywords = frame.words.count
        if var list = tree.listRefs(of: NodeID(prev)) {
          list.append(tree.storeWord(words[0]))
          tree.setWordRefs(refs, list: list, of: NodeID(prev))
          return
        }
        if refs.count == keywords + 1, keywords > 0 {
          tree.setWordRefs(Array(refs[..<keywords]), list: [refs[keywords], tree.storeWord(words[0])], of: NodeID(prev))
          return
        }
      }
      frames[f].words += words.map { tree.storeWord($0) }
    case .unknown:
      if !value.isEmpty { frames[f].words += XMLWords.valueWords(value).map { tree.storeWord($0) } }
    case .given:
      block = !frame.selfClosing
    case .container, .list, .flag:
      break
    }
    if !value.isEmpty, frame.kind != .leaf, frame.kind != .leafList, frame.kind != .unknown {
      report(.unexpectedXML, "unexpected text in <\(reader.string(currentName(f).qualified))>", at: frame.at)
    }
    create(f, block: block)
  }

  /// Character data: a leaf's value, a key, a comment; blanks elsewhere.
  mutating func text(_ range: Range<Int>, entities: Bool) {
    guard let f = frames.indices.last else { return }
    switch frames[f].role {
    case .statement where frames[f].node < 0 && frames[f].kind != .container && frames[f].kind != .list, .key, .comment:
      reader.appendText(range, entities: entities, to: &frames[f].text)
    case .statement, .root, .wrapper:
      if reader.bytes[range].contains(where: { !XMLWords.isBlank($0) }) {
        report(.unexpectedXML, "unexpected text between the elements of a block", at: range.lowerBound)
      }
    case .outside, .text, .ignored:
      break
    }
  }

  /// Ends the statements still open when the input stops (malformed XML).
  mutating func finishOpenStatements(at: Int) {
    for f in frames.indices where frames[f].node >= 0 {
      tree.nodes[Int(frames[f].node)].sourceEnd = Int32(truncatingIfNeeded: at)
    }
  }

  mutating func report(_ id: DiagnosticID, _ message: String, at: Int) {
    diagnostics.append(Diagnostic(id, message, in: file, at: at..<at))
  }

  /// Configuration text inside an element, read in place: a copy of the file in which
  /// everything else is blank (line ends kept) and the text decoded on its own lines, so that
  /// lines, columns and byte offsets point into the XML file.
  func parseText(_ r: Range<Int>) -> ParseResult {
    let b = reader.bytes
    var out = [UInt8](repeating: 0x20, count: b.count)
    for k in b.indices where b[k] == 0x0A || b[k] == 0x0D { out[k] = b[k] }
    var w = r.lowerBound
    var k = r.lowerBound
    var inCDATA = false
    var decoded: [UInt8] = []
    while k < r.upperBound {
      let c = b[k]
      if inCDATA {
        if c == UInt8(ascii: "]") && reader.has("]]>", at: k) {
          inCDATA = false
          k += 3
          continue
        }
      } else if c == UInt8(ascii: "<") {
        if reader.has("<![CDATA[", at: k) {
          inCDATA = true
          k += 9
          continue
        }
        // Comments and stray tags are no configuration text.
        while k < r.upperBound && b[k] != UInt8(ascii: ">") { k += 1 }
        k += 1
        continue
      } else if c == UInt8(ascii: "&"), let (d, len) = reader.entity(at: k, end: r.upperBound) {
        decoded.removeAll(keepingCapacity: true)
        d.append(to: &decoded)
        for x in decoded {
          out[w] = x
          w += 1
        }
        k += len
        continue
      }
      if c == 0x0A || c == 0x0D {
        while w < k {
          out[w] = 0x20
          w += 1
        }
      }
      out[w] = c
      w += 1
      k += 1
    }
    while w < r.upperBound {
      out[w] = 0x20
      w += 1
    }
    return ConfigParser.parse(SourceFile(path: file.path, bytes: out), model: model)
  }

  /// Gives every statement holding a secret the device's `## SECRET-DATA` trailer (not those
  /// given as words: they say their trailer themselves).
  mutating func markSecrets() {
    let shapes = model.shapes(of: tree)
    for node in tree.allStatements() where tree.trailer(of: node) == nil && !given.contains(node.raw) {
      guard SecretMasking.holdsSecret(node, in: tree, shape: shapes[node], matcher: model.matcher) else { continue }
      var e = tree.extra(node) ?? Extras()
      e.trailer = Trivia(.hash, "## SECRET-DATA")
      tree.setExtras(e, of: node)
    }
  }
}

internal import JunosSchema

/// The commands a `display set` or `load set` file may contain.
enum SetCommand: Equatable {
  case set, delete, deactivate, activate, protect, unprotect, insert, annotate, rename

  init?(_ w: some Collection<UInt8>) {
    guard let f = w.first, f >= UInt8(ascii: "a"), f <= UInt8(ascii: "u"), w.count <= 10 else { return nil }
    if w.count == 3 {  // `set`, nearly every line: no String
      var k = w.startIndex
      let e = w[w.index(after: k)]
      k = w.index(k, offsetBy: 2)
      if f == UInt8(ascii: "s") && e == UInt8(ascii: "e") && w[k] == UInt8(ascii: "t") {
        self = .set
        return
      }
    }
    switch String(decoding: w, as: UTF8.self) {
    case "set": self = .set
    case "delete": self = .delete
    case "deactivate": self = .deactivate
    case "activate": self = .activate
    case "protect": self = .protect
    case "unprotect": self = .unprotect
    case "insert": self = .insert
    case "annotate": self = .annotate
    case "rename": self = .rename
    default: return nil
    }
  }
}

/// Parser for `display set` text: builds the same tree the device's curly text would.
///
/// Lines are applied in order, like `load set`: `set` adds, `delete` removes, `deactivate` and
/// `activate` toggle `inactive:`, `insert` reorders, `annotate` and `rename` edit. Where a line
/// does not say where an identifier ends, the ``ConfigModel`` decides: Juniper's schema, and the
/// keyword table below statements the schema does not know. Statements are built one per line
/// and folded into the device's one-line form at the end (``ConfigTree/foldOneliners(model:)``).
struct SetParser {
  let file: SourceFile
  let model: ConfigModel
  var keywords: KeywordTable { model.keywords }
  var tree: ConfigTree
  /// The schema context of each statement's children, by node index, once computed.
  var contexts: [SchemaContext?] = []
  var diagnostics: [Diagnostic] = []
  var skippedLines = 0
  var index = NodeIndex()
  /// The identity words each statement is known under (-1: none), by node index.
  var identities: [Int32] = []
  /// How many children each statement was given, by node index; -1 once they are indexed.
  var childCounts: [Int32] = []
  /// Below a statement with at most this many children, lookups look at the children.
  static let scannedChildren: Int32 = 16
  /// The statements the schema may print on one line with their children (`oneliner`,
  /// `oneliner-plus`), noted as they are made: the only ones ``foldOneliners()`` looks at.
  var foldCandidates: [Int32] = []
  /// Whether a `rename` ran (see ``parse(_:model:)``).
  var renamed = false
  /// ``keywordChild(_:_:_:)``'s answers, by a hash of the statement and the word.
  var keywordMemo: [KeywordMemo?] = []
  var sawStatement = false
  /// Loading changes over a configuration (`load set`): a `set` of a single-valued statement
  /// replaces its value. Reading `display set` text, repeated values are all kept.
  var replaceValues = false
  /// The previous `set` line's path and the statements it went into (each with the number of
  /// path words consumed down to it): `display set` lines share most of their words with the
  /// line before, so the next line starts below their common statements instead of at the top.
  /// Only while reading (no command removes statements) and while nothing but `set` ran.
  var lastPath: [WordRef] = []
  /// The words of the `set` line being applied (see ``set(_:line:)``).
  var pathBuffer: [WordRef] = []
  var lastChain: [(consumed: Int, node: Int32)] = []

  struct IndexKey: Hashable {
    var parent: Int32
    var hash: UInt64
  }

  /// Statements by parent and identity hash: open addressing with linear probing over one array
  /// of slots (the mixed hash and the statement side by side, so a probe touches one cache
  /// line). The key is a hash already, so it is only mixed with the parent (a Dictionary would
  /// hash it again with SipHash). ``SetParser/lookup(parent:words:)`` checks the statement found.
  struct NodeIndex {
    struct Slot {
      var hash: UInt64
      /// The statement, or -1 for an empty slot, -2 for a removed one.
      var value: Int32
    }
    private var slots: [Slot] = []
    private var used = 0
    private var mask = 0

    @inline(__always) private static func mix(_ k: IndexKey) -> UInt64 {
      (k.hash ^ UInt64(UInt32(bitPattern: k.parent)) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
    }

    @inline(__always) private func start(_ x: UInt64) -> Int { Int(truncatingIfNeeded: x >> 17) & mask }

    private mutating func rehash(_ size: Int) {
      let old = slots
      slots = [Slot](repeating: Slot(hash: 0, value: -1), count: size)
      mask = size - 1
      used = 0
      for s in old where s.value >= 0 { insert(s.hash, s.value) }
    }

    subscript(_ k: IndexKey) -> Int32? {
      get {
        let x = Self.mix(k)
        return slots.withUnsafeBufferPointer { s -> Int32? in
          guard !s.isEmpty else { return nil }
          var i = start(x)
          while s[i].value != -1 {
            if s[i].hash == x && s[i].value >= 0 { return s[i].value }
            i = (i + 1) & mask
          }
          return nil
        }
      }
      set {
        if slots.isEmpty || (used + 1) * 10 > slots.count * 7 { rehash(max(16, slots.count * 2)) }
        let x = Self.mix(k)
        guard let v = newValue else {
          var i = start(x)
          while slots[i].value != -1 {
            if slots[i].hash == x && slots[i].value >= 0 {
              slots[i].value = -2
              return
            }
            i = (i + 1) & mask
          }
          return
        }
        insert(x, v)
      }
    }

    private mutating func insert(_ x: UInt64, _ v: Int32) {
      var i = start(x)
      var free = -1
      while slots[i].value != -1 {
        if slots[i].hash == x && slots[i].value >= 0 {
          slots[i].value = v
          return
        }
        if slots[i].value == -2 && free < 0 { free = i }
        i = (i + 1) & mask
      }
      if free < 0 {
        free = i
        used += 1
      }
      slots[free] = Slot(hash: x, value: v)
    }
  }

  struct Token {
    var word: WordRef
    var isOpenList = false
    var isCloseList = false
  }

  static func parse(_ file: SourceFile, model: ConfigModel) -> ParseResult {
    var tree = ConfigTree()
    tree.storage = file.bytes
    tree.path = file.path
    var p = SetParser(file: file, model: model, tree: tree)
    p.run()
    // After a `rename` the statements noted as they were made may not be the ones that fold.
    if p.renamed { p.tree.foldOneliners(model: model) } else { p.foldOneliners() }
    return ParseResult(tree: p.tree, diagnostics: p.diagnostics, syntax: .set, skippedLines: p.skippedLines)
  }

  static func load(_ file: SourceFile, onto base: ConfigTree, model: ConfigModel) -> ParseResult {
    // The commands' bytes come first in the storage, so that their tokens' ranges stay valid;
    // the base's words move up.
    var tree = base
    let off = Int32(file.bytes.count)
    tree.storage = file.bytes + base.storage
    for k in tree.words.indices {
      tree.words[k].start += off
      tree.words[k].end += off
    }
    for k in tree.nodes.indices {
      tree.nodes[k].sourceStart = 0
      tree.nodes[k].sourceEnd = 0
    }
    var p = SetParser(file: file, model: model, tree: tree)
    p.sawStatement = true
    p.replaceValues = true
    for node in tree.allStatements() {
      p.register(node.raw)
      p.countChild(node.raw)
    }
    p.run()
    p.tree.foldOneliners(model: model)
    return ParseResult(tree: p.tree, diagnostics: p.diagnostics, syntax: .set, skippedLines: p.skippedLines)
  }

  mutating func run() {
    let b = file.bytes
    let lines = file.lineStarts
    guard b.count < Int(Int32.max) else {
      diagnostics.append(Diagnostic(.invalidByte, "input larger than 2 GiB is not supported", in: file, at: 0..<0))
      return
    }
    var tokens: [Token] = []
    for l in 0..<lines.count {
      var i = lines[l]
      var end = l + 1 < lines.count ? lines[l + 1] : b.count
      while end > i && (b[end - 1] == 0x0A || b[end - 1] == 0x0D) { end -= 1 }
      if l == 0 && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
      while i < end && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
      guard i < end else { continue }
      if b[i] == UInt8(ascii: "#") {
        if !sawStatement, b[i..<end].starts(with: "## Last commit:".utf8) || b[i..<end].starts(with: "## Last changed:".utf8) {
          tree.headers.append(file.text(i..<end))
        }
        continue
      }
      // A `set ` line is no capture artefact (nearly every line: no need to look at it twice).
      let setLine =
        end - i > 4 && b[i] == UInt8(ascii: "s") && b[i + 1] == UInt8(ascii: "e") && b[i + 2] == UInt8(ascii: "t") && b[i + 3] == 0x20
      if !setLine, let kind = CaptureArtefact.classify(b, from: i, to: end, topLevel: true) {
        skippedLines += 1
        if kind == .pager {
          diagnostics.append(
            Diagnostic(
              .truncatedCapture, CaptureArtefact.pagerMessage(b[i..<end], truncated: "configuration"), in: file,
              at: i..<end))
        }
        continue
      }
      tokens.removeAll(keepingCapacity: true)
      guard tokenize(i, end, into: &tokens) else { continue }
      apply(tokens, line: i..<end)
    }
  }

  /// The tokenizer's classes of bytes: ``blank`` (space, tab), ``control`` (other bytes below
  /// 0x20, and 0x7F), ``special`` (`;` `{` `}` `[` `]`: the word must be quoted), 0 for the rest.
  static let byteClasses: [UInt8] = (0..<256).map { c in
    switch c {
    case 0x20, 0x09: return blank
    case 0..<0x20, 0x7F: return control
    case 0x3B, 0x7B, 0x7D, 0x5B, 0x5D: return special
    default: return 0
    }
  }
  static let blank: UInt8 = 1
  static let control: UInt8 = 2
  static let special: UInt8 = 3

  /// Splits a line into words, quoted strings and list brackets; reports unterminated strings.
  mutating func tokenize(_ start: Int, _ end: Int, into tokens: inout [Token]) -> Bool {
    let classes = Self.byteClasses
    return file.bytes.withUnsafeBufferPointer { b in
      var i = start
      while i < end {
        let c = b[i]
        if c == 0x20 || c == 0x09 {
          i += 1
          continue
        }
        if c == UInt8(ascii: "#") { break }
        let s = i
        if c < 0x20 || c == 0x7F {
          reportControlByte(c, at: i)
          return false
        }
        if c == UInt8(ascii: "\"") {
          i += 1
          var closed = false
          while i < end {
            if b[i] == UInt8(ascii: "\"") {
              closed = true
              i += 1
              break
            }
            i += b[i] == UInt8(ascii: "\\") ? 2 : 1
          }
          if !closed {
            diagnostics.append(Diagnostic(.unterminatedString, "missing '\"' to end the quoted string", in: file, at: s..<end))
            return false
          }
          i = min(i, end)
        }
        // Unquoted: up to a blank, noting `;` `{` `}` `[` `]` on the way.
        var special = false
        if c != UInt8(ascii: "\"") {
          while i < end {
            let k = classes[Int(b[i])]
            if k != 0 {
              if k == Self.blank { break }
              if k == Self.control {
                reportControlByte(b[i], at: i)
                return false
              }
              special = true
            }
            i += 1
          }
        }
        var t = Token(word: WordRef(start: Int32(s), end: Int32(i)))
        if i - s == 1 {
          t.isOpenList = c == UInt8(ascii: "[")
          t.isCloseList = c == UInt8(ascii: "]")
        }
        if c != UInt8(ascii: "\""), !t.isOpenList, !t.isCloseList,
          special || !SetParser.isPlainWord(UnsafeBufferPointer(rebasing: b[s..<i]))
        {
          let word = String(decoding: UnsafeBufferPointer(rebasing: b[s..<i]), as: UTF8.self)
          diagnostics.append(
            Diagnostic(
              .unexpectedToken, "'\(word)' must be quoted: unquoted words cannot contain ; { } [ ] or start with /*", in: file, at: s..<i))
          return false
        }
        tokens.append(t)
      }
      return true
    }
  }

  mutating func reportControlByte(_ c: UInt8, at i: Int) {
    diagnostics.append(
      Diagnostic(.invalidByte, "unexpected control byte 0x\(String(c, radix: 16, uppercase: true))", in: file, at: i..<i + 1))
  }

  /// Whether an unquoted word that holds none of `; { } [ ]` (the tokenizer looks for them)
  /// reads back as the same single word in curly text: it neither opens a comment nor is a
  /// prefix tag (`inactive:`).
  static func isPlainWord(_ w: UnsafeBufferPointer<UInt8>) -> Bool {
    if w.count >= 2 && w[0] == UInt8(ascii: "/") && w[1] == UInt8(ascii: "*") { return false }
    guard w.last == UInt8(ascii: ":") else { return true }
    return !StatementFlags.prefixes.contains { w.elementsEqual($0.1.utf8) }
  }

  func text(_ t: Token) -> String { file.text(Int(t.word.start)..<Int(t.word.end)) }

  func range(_ t: some BidirectionalCollection<Token>) -> Range<Int> {
    guard let f = t.first, let l = t.last else { return 0..<0 }
    return Int(f.word.start)..<Int(l.word.end)
  }

  mutating func apply(_ tokens: [Token], line: Range<Int>) {
    guard let cmd = SetCommand(file.bytes[Int(tokens[0].word.start)..<Int(tokens[0].word.end)]) else {
      diagnostics.append(
        Diagnostic(
          .unknownSetCommand,
          "unknown command '\(text(tokens[0]))' (expected set, delete, deactivate, activate, protect, unprotect, insert, annotate or rename)",
          in: file, at: range(tokens.prefix(1))))
      return
    }
    if tokens.count - 1 > ConfigTree.maximumDepth {
      diagnostics.append(
        Diagnostic(
          .nestingTooDeep, "nesting too deep: a path of more than \(ConfigTree.maximumDepth) words (no Junos configuration nests so deep)",
          in: file, at: range(tokens)))
      return
    }
    guard tokens.count > 1 else {
      diagnostics.append(Diagnostic(.incompleteSetCommand, "'\(text(tokens[0]))' needs a statement path", in: file, at: range(tokens)))
      return
    }
    sawStatement = true
    if cmd == .set {
      set(tokens[1...], line: line)
      return
    }
    lastChain.removeAll()
    let args = Array(tokens.dropFirst())
    switch cmd {
    case .set:
      return  // above
    case .delete, .deactivate, .activate, .protect, .unprotect:
      guard let node = resolve(args, command: text(tokens[0])) else { return }
      switch cmd {
      case .delete:
        unregister(node)
        tree.remove(node)
      case .deactivate: tree.setFlags(.inactive, true, of: node)
      case .activate: tree.setFlags(.inactive, false, of: node)
      case .protect: tree.setFlags(.protect, true, of: node)
      default: tree.setFlags(.protect, false, of: node)
      }
    case .annotate:
      guard args.count >= 2, let node = resolve(Array(args.dropLast()), command: "annotate") else {
        if args.count < 2 {
          diagnostics.append(
            Diagnostic(.incompleteSetCommand, "'annotate' needs a statement path and a comment", in: file, at: range(tokens)))
        }
        return
      }
      var t = text(args[args.count - 1])
      if t.utf8.count >= 2, t.utf8.first == UInt8(ascii: "\""), t.utf8.last == UInt8(ascii: "\"") {
        // The inverse of `ConfigTree.quotedAnnotation`: \" \\ \n \r.
        var out: [UInt8] = []
        var bytes = t.utf8.dropFirst().dropLast()[...]
        while let b = bytes.popFirst() {
          guard b == UInt8(ascii: "\\"), let e = bytes.first else {
            out.append(b)
            continue
          }
          switch e {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(e)
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "r"): out.append(0x0D)
          default:
            out.append(b)
            continue
          }
          bytes = bytes.dropFirst()
        }
        t = String(decoding: out, as: UTF8.self)
      }
      tree.setAnnotation(t.isEmpty ? nil : t, of: node)
    case .insert:
      guard
        let k = args.lastIndex(where: {
          let w = text($0); return w == "before" || w == "after"
        }), k > 0, k + 1 < args.count
      else {
        diagnostics.append(Diagnostic(.incompleteSetCommand, "'insert' needs: PATH before|after SIBLING", in: file, at: range(tokens)))
        return
      }
      guard let node = resolve(Array(args[..<k]), command: "insert"), let parent = tree.parent(of: node) else { return }
      let rel = args[(k + 1)...].map(text)
      guard let sibling = tree.child(of: parent, startingWith: rel) else {
        diagnostics.append(
          Diagnostic(
            .unknownPath, "'insert': no statement '\(rel.joined(separator: " "))' beside it", in: file, at: range(args[(k + 1)...])))
        return
      }
      if text(args[k]) == "before" { tree.move(node, before: sibling) } else { tree.move(node, after: sibling) }
    case .rename:
      guard let k = args.lastIndex(where: { text($0) == "to" }), k > 0, k + 1 < args.count else {
        diagnostics.append(Diagnostic(.incompleteSetCommand, "'rename' needs: PATH to NEW-NAME", in: file, at: range(tokens)))
        return
      }
      guard let node = resolve(Array(args[..<k]), command: "rename") else { return }
      let idc = indexIdentity(node.raw)
      unregister(node)
      let new = args[(k + 1)...].map(\.word)
      tree.setWordRefs(new + tree.wordRefs(of: node).dropFirst(idc), list: tree.listRefs(of: node), of: node)
      // The schema contexts below it were found through its old words, and what folds may change.
      var stack = [node.raw]
      while let id = stack.popLast() {
        invalidate(id)
        for c in tree.children(of: NodeID(id)) { stack.append(c.raw) }
      }
      renamed = true
      register(node.raw)
    }
  }

  // MARK: set

  func parentKeyword(_ p: Int32) -> String {
    p == 0 || tree.nodes[Int(p)].wordCount == 0 ? "" : tree.wordText(Int(tree.nodes[Int(p)].wordStart))
  }

  func identityCount(_ words: [String], context: [String]) -> Int {
    guard let first = words.first, let e = keywords.entry(first, context: context) else { return words.count }
    switch e.kind {
    case .keyed: return min(words.count, 1 + e.keys)
    case .value: return words.count
    case .list, .flat, .container, .named: return 1
    }
  }

  mutating func set(_ args: ArraySlice<Token>, line: Range<Int>) {
    // Separate an explicit `[ … ]` list at the end.
    var pathEnd = args.endIndex
    var list: [WordRef]? = nil
    if let close = args.firstIndex(where: { $0.isCloseList }), !args[..<close].contains(where: { $0.isOpenList }) {
      diagnostics.append(Diagnostic(.unexpectedToken, "unexpected ']' without '['", in: file, at: range(args[close...close])))
      return
    }
    if let open = args.firstIndex(where: { $0.isOpenList }) {
      guard let close = args.lastIndex(where: { $0.isCloseList }), close > open, close == args.endIndex - 1, open > args.startIndex else {
        diagnostics.append(Diagnostic(.unterminatedList, "a '[' list must end the line with ']'", in: file, at: range(args)))
        return
      }
      if let nested = args[(open + 1)..<close].first(where: { $0.isOpenList || $0.isCloseList }) {
        diagnostics.append(Diagnostic(.unexpectedToken, "unexpected '\(text(nested))' inside a '[ ]' list", in: file, at: range([nested])))
        return
      }
      list = args[(open + 1)..<close].map(\.word)
      pathEnd = open
    }
    // The words go into a buffer kept from line to line (taken out of `self` while in use, so
    // that it is not shared).
    var path = pathBuffer
    pathBuffer = []
    path.removeAll(keepingCapacity: true)
    for t in args[..<pathEnd] { path.append(t.word) }
    setFrom(0, path, list: list, source: line)
    pathBuffer = path
  }

  /// Applies a `set` path below `start` by the keyword table's rules (below statements the schema
  /// does not know), creating statements the way the device would show them.
  mutating func setFromKeywords(_ start: Int32, _ path: [WordRef], list: [WordRef]?, source: Range<Int>) {
    var parent = start
    // The keywords above the next statement, names skipped (as `ConfigTree.keywordContext`).
    var context = start == 0 ? [] : tree.keywordContext(of: NodeID(start))
    if start != 0, case let p = parentKeyword(start), KeywordTable.looksLikeKeyword(p) { context.append(p) }
    var parentIsNamed = start != 0 && keywords.entry(parentKeyword(start), context: tree.keywordContext(of: NodeID(start)))?.kind == .named
    var i = 0
    let n = path.count
    while i < n {
      let w = tree.wordText(path[i])
      let r = n - i
      let entry = parentIsNamed ? nil : keywords.entry(w, context: context)
      // How many words the next statement takes, and whether it is the final leaf.
      let (take, leaf) = parentIsNamed ? (1, r == 1 && list == nil) : shape(path, i, entry: entry, context: context, list: list != nil)
      let words = Array(path[i..<(i + take)])
      if leaf {
        setLeaf(
          parent: parent, context: context, words: words, strings: words.map { tree.wordText($0) }, list: list, entry: entry, source: source
        )
        return
      }
      parentIsNamed = entry?.kind == .named
      if KeywordTable.looksLikeKeyword(w) { context.append(w) }
      if let existing = lookup(parent: parent, words: words[...]) {
        if !tree.nodes[Int(existing)].flags.contains(.block) { splitOneliner(existing, keep: words.count) }
        parent = existing
      } else {
        parent = newNode(parent: parent, words: words[...], list: nil, block: true, source: source, identity: words.count)
      }
      i += take
    }
  }

  /// Applies a `set` path below `start`: statement by statement as the schema shapes them, one
  /// statement per line (folded at the end of the file); by the keyword table's rules from the
  /// first statement the schema does not know.
  mutating func setFrom(_ start: Int32, _ path: [WordRef], list: [WordRef]?, source: Range<Int>) {
    var parent = start
    var i = 0
    let n = path.count
    var after: SchemaNode? = nil
    // Start below the statements this path shares with the previous line's: `lastChain` is
    // cut to them here and grows with the statements this path goes into.
    let tracking = start == 0 && !replaceValues
    if tracking {
      var common = 0
      let m = min(n, lastPath.count)
      while common < m && tree.sameWord(path[common], lastPath[common]) { common += 1 }
      var k = lastChain.count
      while k > 0 && !(lastChain[k - 1].consumed <= common && lastChain[k - 1].consumed < n) { k -= 1 }
      lastChain.removeSubrange(k...)
      if k > 0 {
        parent = lastChain[k - 1].node
        i = lastChain[k - 1].consumed
      }
    }
    defer {
      if tracking {
        lastPath.removeAll(keepingCapacity: true)
        lastPath.append(contentsOf: path)
      }
    }
    // Bound once a line: each copy of the matcher or the storage is a retain and a release.
    let matcher = model.matcher
    let storage = tree.storage
    while i < n {
      guard let m = matcher, case let ctx = childContext(parent), ctx != .unknown,
        var sh = m.step(storage, path[i...], hasList: list != nil, in: ctx, after: after, keyword: keywordChild(ctx, path[i], m)),
        let head = sh.head, sh.ownWords > 0
      else {
        setFromKeywords(parent, Array(path[i...]), list: list, source: source)
        return
      }
      let kind = m.schema.kind(head)
      let interior = (kind == .container || kind == .list) && i + sh.ownWords < n
      let rest = i + sh.ownWords
      if !interior, kind != .container, kind != .list, rest < n,
        let next = m.step(
          storage, path[rest...], hasList: list != nil, in: ctx, after: sh.positional ? head : nil,
          keyword: keywordChild(ctx, path[rest], m)),
        next.head != nil, next.ownWords > 0
      {
        // Several values on one line (`teardown 90 idle-timeout 5`, `priority 6 5`): each is
        // set under the same parent.
        setLeafSchema(parent: parent, words: path[i..<rest], list: nil, shape: sh, source: source)
        after = sh.positional ? head : nil
        i = rest
        continue
      }
      after = nil
      if !interior {
        // The last statement of the path. Words after a leaf's value are kept as its value.
        if kind != .container && kind != .list && i + sh.ownWords < n { sh.ownWords = n - i }
        setLeafSchema(parent: parent, words: path[i...], list: list, shape: sh, source: source)
        return
      }
      let words = path[i..<(i + sh.ownWords)]
      if let existing = lookup(parent: parent, words: words) {
        if !tree.nodes[Int(existing)].flags.contains(.block) { openLeaf(existing) }
        parent = existing
      } else {
        parent = newNode(parent: parent, words: words, list: nil, block: true, source: source, identity: words.count)
        setContext(parent, sh.children)
        noteFoldCandidate(parent, head)
      }
      i += sh.ownWords
      if tracking { lastChain.append((i, parent)) }
    }
  }

  /// The last statement of a `set` path the schema knows: a leaf, flag or leaf-list value, or a
  /// container or list entry without children.
  mutating func setLeafSchema(parent: Int32, words: ArraySlice<WordRef>, list: [WordRef]?, shape: StatementShape, source: Range<Int>) {
    guard let m = model.matcher, let head = shape.head else { return }
    let kind = m.schema.kind(head)
    if replaceValues {
      // `load set`: a statement of one case of a choice replaces those of the other cases
      // (`then reject` over `then accept`).
      if let choice = m.schema.choiceNumber(head), let ownCase = m.schema.caseNumber(head) {
        for c in Array(tree.children(of: NodeID(parent))) {
          guard let h = shapeOf(c.raw).head, m.schema.choiceNumber(h) == choice, m.schema.caseNumber(h) != ownCase else { continue }
          unregister(c)
          tree.remove(c)
        }
      }
      // A single-valued leaf is replaced.
      if kind == .leaf, list == nil, let existing = lookup(parent: parent, words: words.prefix(shape.identity)),
        !tree.isBlock(NodeID(existing))
      {
        unregister(NodeID(existing))
        tree.setWordRefs(words, list: nil, of: NodeID(existing))
        register(existing)
        return
      }
    }
    switch kind {
    case .leaf:
      // Reading `display set` text, a repeated leaf with another value is kept (`check`
      // reports it).
      if lookup(parent: parent, words: words) == nil {
        newNode(
          parent: parent, words: words, list: nil, block: false, source: source, identity: replaceValues ? shape.identity : words.count)
      }
    case .leafList:
      let idc = shape.identity
      guard let existing = lookup(parent: parent, words: words.prefix(idc)), !tree.isBlock(NodeID(existing)) else {
        newNode(parent: parent, words: words, list: list, block: false, source: source, identity: idc)
        return
      }
      // A second value turns `members a` into `members [ a b ]`.
      let node = NodeID(existing)
      let oldRefs = tree.wordRefs(of: node)
      var values = tree.listRefs(of: node) ?? Array(oldRefs.dropFirst(idc))
      for v in list ?? Array(words.dropFirst(idc)) where !values.contains(where: { tree.wordText($0) == tree.wordText(v) }) {
        values.append(v)
      }
      tree.setWordRefs(Array(oldRefs[..<idc]), list: values, of: node)
    default:
      if let existing = lookup(parent: parent, words: words.prefix(shape.identity)) {
        // `set … unit 0` over `unit 0 { … }` changes nothing; a list given for a statement
        // that has none is kept as its list.
        if let list, !tree.isBlock(NodeID(existing)), tree.listRefs(of: NodeID(existing)) == nil {
          tree.setWordRefs(tree.wordRefs(of: NodeID(existing)), list: list, of: NodeID(existing))
        }
        return
      }
      let id = newNode(parent: parent, words: words, list: list, block: false, source: source, identity: shape.identity)
      setContext(id, shape.children)
      noteFoldCandidate(id, head)
    }
  }

  /// Makes a leaf statement a block before a `set` path goes below it: a statement folded on one
  /// line (`route 10.0.0.0/8 next-hop 192.0.2.1`) is split into its children first.
  mutating func openLeaf(_ id: Int32) {
    if let m = model.matcher {
      let sh = shapeOf(id)
      if sh.head != nil, sh.ownWords < tree.wordCount(of: NodeID(id)) {
        unregister(NodeID(id))
        let before = tree.nodes.count
        tree.unfold(NodeID(id), shape: sh, matcher: m)
        invalidate(id)
        register(id)
        for k in before..<tree.nodes.count {
          register(Int32(k))
          countChild(Int32(k))
          if let h = shapeOf(Int32(k)).head { noteFoldCandidate(Int32(k), h) }
        }
        noteFoldCandidate(id, sh.head!)
        return
      }
      if let h = sh.head {
        tree.makeBlock(NodeID(id))
        noteFoldCandidate(id, h)
        return
      }
    }
    splitOneliner(id, keep: tree.wordCount(of: NodeID(id)))
  }

  // MARK: keywords

  /// The keyword `w` names among the children of a context's statement
  /// (``SchemaMatcher/keywordChild(_:_:in:)``), remembered: a `display set` file asks for the
  /// same few hundred keywords over and over, and the schema's binary search is a tenth of its
  /// parse. `nil` for a context without a statement (the question is not asked there).
  mutating func keywordChild(_ ctx: SchemaContext, _ w: WordRef, _ m: SchemaMatcher) -> SchemaNode?? {
    guard case .node(let parent) = ctx else { return nil }
    let h = tree.wordsHash(CollectionOfOne(w), seed: UInt64(parent.number) &* 0x9E37_79B9_7F4A_7C15)
    let slot = Int(truncatingIfNeeded: (h ^ (h >> 29)) & UInt64(Self.keywordMemoSize - 1))
    if keywordMemo.isEmpty { keywordMemo = [KeywordMemo?](repeating: nil, count: Self.keywordMemoSize) }
    if let e = keywordMemo[slot], e.parent == parent, tree.sameWord(e.word, w) { return .some(e.child) }
    let c = tree.storage.withUnsafeBytes { m.keywordChild(parent, UnsafeRawBufferPointer(rebasing: $0[Int(w.start)..<Int(w.end)])) }
    keywordMemo[slot] = KeywordMemo(parent: parent, word: w, child: c)
    return .some(c)
  }

  struct KeywordMemo {
    var parent: SchemaNode
    var word: WordRef
    var child: SchemaNode?
  }
  static let keywordMemoSize = 4096

  // MARK: one-liners

  /// Notes statement `id` (of schema statement `head`) for ``foldOneliners()``.
  mutating func noteFoldCandidate(_ id: Int32, _ head: SchemaNode) {
    guard let m = model.matcher, case let f = m.schema.flags(head), f.contains(.oneliner) || f.contains(.onelinerPlus) else { return }
    foldCandidates.append(id)
  }

  /// ``ConfigTree/foldOneliners(model:)`` for what this parser made: only the blocks noted as
  /// candidates are looked at, with the schema contexts the parser already knows. Every
  /// decision is taken on the tree as it is before any fold (as the whole-tree walk takes them,
  /// parents first: a block whose child is a block never folds, so no fold changes another's
  /// decision).
  mutating func foldOneliners() {
    guard let m = model.matcher, !foldCandidates.isEmpty else { return }
    var fold: [Int32] = []
    let t = tree  // no fold before the decisions are taken; the closure captures this alone
    let candidates = foldCandidates
    for id in candidates where t.nodes[Int(id)].parent >= 0 && t.isBlock(NodeID(id)) {
      let sh = shapeOf(id)
      let folds = t.foldsOnOneLine(NodeID(id), shape: sh, schema: m.schema) { Self.shape($0.raw, of: t, in: sh.children, matcher: m) }
      if folds { fold.append(id) }
    }
    for id in fold where tree.isBlock(NodeID(id)) { tree.fold(NodeID(id)) }
  }

  // MARK: schema contexts

  /// Where the children of statement `id` are looked up in the schema.
  mutating func childContext(_ id: Int32) -> SchemaContext {
    if id == 0 { return model.rootContext }
    if Int(id) < contexts.count, let c = contexts[Int(id)] { return c }
    // Climb to the nearest statement whose context is known, then come down.
    var chain: [Int32] = []
    var p = id
    while p != 0 && !(Int(p) < contexts.count && contexts[Int(p)] != nil) {
      chain.append(p)
      p = tree.nodes[Int(p)].parent
      if p < 0 { return .unknown }
    }
    var ctx = p == 0 ? model.rootContext : contexts[Int(p)]!
    for q in chain.reversed() {
      ctx = Self.shape(q, of: tree, in: ctx, matcher: model.matcher).children
      setContext(q, ctx)
    }
    return ctx
  }

  mutating func setContext(_ id: Int32, _ ctx: SchemaContext) {
    Self.grow(&contexts, toHold: id, with: nil)
    contexts[Int(id)] = ctx
  }

  mutating func invalidate(_ id: Int32) {
    if Int(id) < contexts.count { contexts[Int(id)] = nil }
  }

  func shape(_ id: Int32, in ctx: SchemaContext) -> StatementShape { Self.shape(id, of: tree, in: ctx, matcher: model.matcher) }

  static func shape(_ id: Int32, of tree: ConfigTree, in ctx: SchemaContext, matcher: SchemaMatcher?) -> StatementShape {
    guard let m = matcher, ctx != .unknown else { return .unknown(words: tree.wordCount(of: NodeID(id))) }
    let r = tree.nodes[Int(id)]
    return m.shape(tree.storage, tree.words[Int(r.wordStart)..<Int(r.wordStart + r.wordCount)], hasList: r.listCount >= 0, in: ctx)
  }

  /// The schema's shape of statement `id` among its siblings.
  mutating func shapeOf(_ id: Int32) -> StatementShape {
    let p = tree.nodes[Int(id)].parent
    let ctx = p < 0 ? .unknown : childContext(p)
    return Self.shape(id, of: tree, in: ctx, matcher: model.matcher)
  }

  mutating func setLeaf(
    parent: Int32, context: [String], words: [WordRef], strings: [String], list: [WordRef]?, entry: KeywordTable.Entry?,
    source: Range<Int>
  ) {
    if replaceValues, entry?.kind == .value, list == nil, words.count >= 2,
      let existing = tree.children(of: NodeID(parent)).first(where: {
        !tree.isBlock($0) && tree.listValues(of: $0) == nil && tree.wordCount(of: $0) >= 2 && tree.word(0, of: $0) == strings[0]
      })
    {
      unregister(existing)
      tree.setWordRefs(words, list: nil, of: existing)
      register(existing.raw)
      return
    }
    let idc = min(words.count, identityCount(strings, context: context))
    guard let existing = lookup(parent: parent, words: words[..<idc]) else {
      // A single `set … members X` is shown as a plain leaf; a second value turns it into a list.
      newNode(parent: parent, words: words[...], list: list, block: false, source: source, identity: idc)
      return
    }
    let node = NodeID(existing)
    let rec = tree.nodes[Int(existing)]
    if rec.flags.contains(.block) {
      // `route X next-hop Y` where `route X { … }` exists: add the rest as a child.
      if words.count > idc {
        setFrom(existing, Array(words[idc...]), list: list, source: source)
      }
      return
    }
    // Edits reuse the words' byte ranges (in the source or the tree), never copy text.
    let oldWords = tree.words(of: node)
    let oldRefs = tree.wordRefs(of: node)
    let kind = entry?.kind
    if kind == .flat {
      // Pairs of `keyword value`: a pair with the same keyword is replaced, others appended.
      var pairs = Array(oldRefs.dropFirst())
      let new = Array(words.dropFirst())
      var k = 0
      while k + 1 < new.count {
        let key = tree.wordText(new[k])
        if let at = stride(from: 0, to: pairs.count - 1, by: 2).first(where: { tree.wordText(pairs[$0]) == key }) {
          pairs[at + 1] = new[k + 1]
        } else {
          pairs.append(contentsOf: new[k...(k + 1)])
        }
        k += 2
      }
      tree.setWordRefs([oldRefs[0]] + pairs, list: nil, of: node)
      return
    }
    if kind == .list || (oldWords.count == strings.count && oldWords == strings && list != nil) {
      // Leaf list: merge values.
      var values = tree.listRefs(of: node) ?? Array(oldRefs.dropFirst(idc))
      let add = list ?? Array(words[idc...])
      for v in add where !values.contains(where: { tree.wordText($0) == tree.wordText(v) }) { values.append(v) }
      tree.setWordRefs(Array(oldRefs[..<idc]), list: values, of: node)
      return
    }
    if oldWords == strings && tree.listValues(of: node) == nil && list == nil { return }  // duplicate line
    // A oneliner keyed statement getting a second child: `route X next-hop A` + `route X preference 5`,
    // or a list inside a oneliner: `… code-points cs3` + `… code-points af31`.
    let oldRest = Array(oldWords[idc...])
    let newRest = strings[idc...]
    if !oldRest.isEmpty, !newRest.isEmpty, oldRest.count == newRest.count, Array(oldRest.dropLast()) == Array(newRest.dropLast()),
      let lk = keywords.entry(oldRest[oldRest.count - 2 >= 0 ? oldRest.count - 2 : 0], context: context + [oldWords[0]]), lk.kind == .list,
      oldRest.count >= 2
    {
      let keep = oldWords.count - 1
      var values = tree.listRefs(of: node) ?? [oldRefs[keep]]
      if !values.contains(where: { tree.wordText($0) == strings[strings.count - 1] }) { values.append(words[words.count - 1]) }
      tree.setWordRefs(Array(oldRefs[..<keep]), list: values, of: node)
      return
    }
    if let oldList = tree.listValues(of: node), list == nil, Array(oldWords) == Array(strings.dropLast()) {
      if !oldList.contains(strings[strings.count - 1]) {
        tree.setWordRefs(oldRefs, list: (tree.listRefs(of: node) ?? []) + [words[words.count - 1]], of: node)
      }
      return
    }
    splitOneliner(existing, keep: idc)
    if words.count > idc {
      setFrom(existing, Array(words[idc...]), list: list, source: source)
    }
  }

  /// Turns a leaf into a block: its first `keep` words stay, the rest (a oneliner's child)
  /// becomes its first child.
  mutating func splitOneliner(_ node: Int32, keep: Int) {
    let id = NodeID(node)
    let oldRefs = tree.wordRefs(of: id)
    let oldList = tree.listRefs(of: id)
    tree.makeBlock(id)
    guard oldRefs.count > keep || oldList != nil else { return }
    tree.setWordRefs(Array(oldRefs[..<keep]), list: nil, of: id)
    setFrom(node, Array(oldRefs[keep...]), list: oldList, source: tree.sourceRange(of: id))
  }

  /// How many words of `path[i...]` the next statement takes, and whether it is the last one.
  func shape(_ path: [WordRef], _ i: Int, entry: KeywordTable.Entry?, context: [String], list: Bool) -> (Int, Bool) {
    let r = path.count - i
    if r == 1 { return (1, true) }
    guard let e = entry else { return r == 2 && !list ? (2, true) : (1, false) }
    switch e.kind {
    case .named: return (1, false)
    case .value, .list, .flat: return (r, true)
    case .container:
      // `then accept;`: a oneliner container whose single child is a leaf.
      return e.printsOnOneLine(tree.wordText(path[i + 1]))
        && childIsLeaf(path, i + 1, context: context + [tree.wordText(path[i])], list: list)
        ? (r, true) : (1, false)
    case .keyed:
      if r <= e.keys + 1 { return (r, true) }
      if e.printsOnOneLine(tree.wordText(path[i + 1 + e.keys]))
        && childIsLeaf(path, i + 1 + e.keys, context: context + [tree.wordText(path[i])], list: list)
      {
        return (r, true)
      }
      return (e.keys + 1, false)
    }
  }

  /// Whether `path[i...]` is one leaf statement (not a container path).
  func childIsLeaf(_ path: [WordRef], _ i: Int, context: [String], list: Bool) -> Bool {
    guard i < path.count else { return true }
    if KeywordTable.looksLikeKeyword(tree.wordText(path[i])) == false { return true }  // a positional value
    let (take, leaf) = shape(path, i, entry: keywords.entry(tree.wordText(path[i]), context: context), context: context, list: list)
    return leaf && take == path.count - i
  }

  // MARK: index of children by identity

  func hash(parent: Int32, words: some Collection<WordRef>) -> IndexKey {
    IndexKey(parent: parent, hash: tree.wordsHash(words))
  }

  /// The child of `parent` indexed under exactly these identity words. Below a parent with few
  /// children, its children themselves are looked at, newest first (they are in the cache; a
  /// probe of the index, spread over the whole table, is a cache miss).
  func lookup(parent: Int32, words: ArraySlice<WordRef>) -> Int32? {
    guard isIndexed(parent) else {
      var c = parent >= 0 ? tree.nodes[Int(parent)].lastChild : -1
      while c >= 0 {
        if Int(c) < identities.count, identities[Int(c)] == Int32(words.count), matches(c, words) { return c }
        c = tree.nodes[Int(c)].prev
      }
      return nil
    }
    guard let id = index[hash(parent: parent, words: words)] else { return nil }
    if matches(id, words) && tree.nodes[Int(id)].parent == parent { return id }
    // A hash collision (or a statement since removed): look at the children themselves.
    return tree.children(of: NodeID(parent)).first { matches($0.raw, words) && Int(tree.nodes[$0.index].wordCount) >= words.count }?.raw
  }

  func matches(_ id: Int32, _ words: ArraySlice<WordRef>) -> Bool {
    let r = tree.nodes[Int(id)]
    guard Int(r.wordCount) >= words.count else { return false }
    for (k, w) in words.enumerated() where !tree.sameWord(tree.words[Int(r.wordStart) + k], w) { return false }
    return true
  }

  @discardableResult
  /// Creates a statement and indexes it under its first `identity` words.
  mutating func newNode(parent: Int32, words: ArraySlice<WordRef>, list: [WordRef]?, block: Bool, source: Range<Int>, identity: Int)
    -> Int32
  {
    let id = tree.appendNode(wordRefs: words, listRefs: list, parent: parent, flags: block ? .block : [], source: source)
    setIdentity(id.raw, identity)
    countChild(id.raw)
    return id.raw
  }

  /// Records the identity words of statement `id`, and indexes it there when its parent is.
  mutating func setIdentity(_ id: Int32, _ count: Int) {
    Self.grow(&identities, toHold: id, with: -1)
    identities[Int(id)] = Int32(count)
    let r = tree.nodes[Int(id)]
    if isIndexed(r.parent) {
      index[hash(parent: r.parent, words: tree.words[Int(r.wordStart)..<(Int(r.wordStart) + count)])] = id
    }
  }

  /// Whether the children of `parent` are in the index (``countChild(_:)``).
  func isIndexed(_ parent: Int32) -> Bool { parent >= 0 && Int(parent) < childCounts.count && childCounts[Int(parent)] < 0 }

  /// Makes a table by node index long enough for `id`, growing it by half at least.
  static func grow<T>(_ table: inout [T], toHold id: Int32, with filler: T) {
    guard table.count <= Int(id) else { return }
    table += [T](repeating: filler, count: max(Int(id) + 1 - table.count, table.count / 2 + 16))
  }

  /// Counts a new child of its parent; the parent's children go into the index once they are
  /// more than ``SetParser/scannedChildren``.
  mutating func countChild(_ id: Int32) {
    let p = tree.nodes[Int(id)].parent
    guard p >= 0 else { return }
    Self.grow(&childCounts, toHold: p, with: 0)
    guard childCounts[Int(p)] >= 0 else { return }
    childCounts[Int(p)] += 1
    guard childCounts[Int(p)] > SetParser.scannedChildren else { return }
    childCounts[Int(p)] = -1
    for c in tree.children(of: NodeID(p)) where Int(c.raw) < identities.count && identities[c.index] >= 0 {
      setIdentity(c.raw, Int(identities[c.index]))
    }
  }

  /// The words of statement `id` it is indexed under: the schema's identity (a leaf's keyword
  /// and value when reading, its keyword when loading), or the keyword table's.
  mutating func indexIdentity(_ id: Int32) -> Int {
    let n = tree.wordCount(of: NodeID(id))
    let sh = shapeOf(id)
    if let h = sh.head, let m = model.matcher {
      if m.schema.kind(h) == .leaf && !replaceValues { return min(n, sh.ownWords) }
      return min(n, sh.identity)
    }
    return min(n, identityCount(tree.words(of: NodeID(id)), context: tree.keywordContext(of: NodeID(id))))
  }

  /// Indexes an existing statement under its identity words (after its words changed).
  mutating func register(_ id: Int32) { setIdentity(id, indexIdentity(id)) }

  /// Removes a statement from the index (before its words change or it goes).
  mutating func unregister(_ node: NodeID) {
    guard node.index < identities.count, case let idc = Int(identities[node.index]), idc >= 0 else { return }
    identities[node.index] = -1
    let r = tree.nodes[node.index]
    guard isIndexed(r.parent) else { return }
    index[hash(parent: r.parent, words: tree.words[Int(r.wordStart)..<(Int(r.wordStart) + idc)])] = nil
  }

  // MARK: paths of existing statements

  /// Finds the statement a `delete`/`deactivate`/… path names: each step matches a child's words
  /// in full; the last step may omit a leaf's value (`deactivate … description`).
  mutating func resolve(_ args: [Token], command: String) -> NodeID? {
    var parent = ConfigTree.root
    var i = 0
    let refs = args.map(\.word)
    while i < refs.count {
      guard let (c, m) = step(parent, refs, i) else {
        let shown = args[..<min(args.count, i + 1)].map(text).joined(separator: " ")
        diagnostics.append(
          Diagnostic(.unknownPath, "'\(command)': no statement '\(shown)' in the configuration", in: file, at: range(args)))
        return nil
      }
      var taken = m
      // A path that goes on below a statement folded on one line: split it first.
      if model.matcher != nil, !tree.isBlock(c) {
        let sh = shapeOf(c.raw)
        if sh.head != nil, sh.ownWords < tree.wordCount(of: c), i + sh.ownWords < refs.count {
          openLeaf(c.raw)
          taken = sh.ownWords
        }
      }
      i += taken
      if i == refs.count { return c }
      parent = c
    }
    return nil
  }

  /// The child of `parent` that `words[i...]` names next, and how many words it takes: all of
  /// the child's words, or (at the end of the path) a prefix of them (`description` for
  /// `description "text"`). The longest match wins.
  func step(_ parent: NodeID, _ words: [WordRef], _ i: Int) -> (NodeID, Int)? {
    let remaining = words.count - i
    // Usually the index knows the child by its identity words.
    for k in stride(from: min(remaining, 4), through: 1, by: -1) {
      if let id = lookup(parent: parent.raw, words: words[i..<(i + k)]) {
        let wc = Int(tree.nodes[Int(id)].wordCount)
        if wc == k || k == remaining { return (NodeID(id), k) }
      }
    }
    var best: (NodeID, Int)? = nil
    for c in tree.children(of: parent) {
      let wc = Int(tree.nodes[c.index].wordCount)
      let m = min(wc, remaining)
      guard m > 0, matches(c.raw, words[i..<(i + m)]), m == wc || m == remaining else { continue }
      if best == nil || m > best!.1 { best = (c, m) }
    }
    return best
  }

}

extension ConfigTree {
  /// The byte ranges of a statement's words.
  func wordRefs(of node: NodeID) -> [WordRef] {
    let r = nodes[node.index]
    return Array(words[Int(r.wordStart)..<Int(r.wordStart + r.wordCount)])
  }

  /// The byte ranges of a statement's `[ ]` values, or `nil` without a list.
  func listRefs(of node: NodeID) -> [WordRef]? {
    let r = nodes[node.index]
    guard r.listCount >= 0 else { return nil }
    let base = Int(r.wordStart + r.wordCount)
    return Array(words[base..<(base + Int(r.listCount))])
  }
  func wordText(_ w: WordRef) -> String { String(decoding: storage[Int(w.start)..<Int(w.end)], as: UTF8.self) }
}

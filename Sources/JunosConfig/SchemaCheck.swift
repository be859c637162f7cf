internal import ArgumentKit
internal import JunosSchema

/// An offline `commit check` of syntax against Juniper's schema (`Docs/Schema.md`, "Checking").
///
/// The tree is first put in one statement per level, as the device holds it: statements printed
/// on one line with their children are split (``ConfigTree/unfold(_:shape:matcher:)``) and
/// repeated blocks merged (``ConfigTree/mergeDuplicateBlocks()``), so that `then accept;` and
/// `then reject;` are two children of one `then`. Then every statement the schema covers is
/// checked:
///
/// - its keyword is one of its parent's in the selected families (``DiagnosticID/unknownStatement``,
///   with "did you mean" from the siblings the schema has); words after a value or flag are an
///   error of the same kind;
/// - a list entry has its keys (``DiagnosticID/missingKey``), a leaf its value
///   (``DiagnosticID/missingValue``), and keys and values are of their types
///   (``DiagnosticID/invalidValue``);
/// - a single-valued leaf is given once (``DiagnosticID/repeatedStatement``) and one choice has
///   statements of one case only (``DiagnosticID/choiceConflict``).
///
/// Nothing below an unknown statement is checked (no schema covers it). Values with variables
/// (`$junos-…`) and, under `groups`, wildcards (`<*>`) are not checked.
public struct SchemaCheck: Sendable {
  /// How unknown statements are reported.
  public var lenient: Bool

  /// Whether only statements whose words are in the file are checked: a tree made by loading the
  /// file's commands over another configuration (`lint` of a change or a plan step) has the rest
  /// from elsewhere.
  public var onlyStatementsOfFile: Bool

  /// Whether, when ``lenient``, the unknown statements that are likely mistakes stay errors: one
  /// close to a statement the schema has there (the "did you mean" cases: `unt` for `unit`,
  /// `peer-ass` for `peer-as`), and any at the top level of a file none of whose top-level
  /// statements the schema knows (a dhcpd.conf is not a Junos configuration; an old one's
  /// `ethernet-switching-options` beside `system` is a statement of another release).
  public var likelyMistakesAreErrors: Bool

  /// Creates a check; `lenient` reports unknown statements as warnings instead of errors (with
  /// `likelyMistakesAreErrors`, the likely mistakes stay errors).
  public init(lenient: Bool = false, likelyMistakesAreErrors: Bool = false, onlyStatementsOfFile: Bool = false) {
    self.lenient = lenient
    self.likelyMistakesAreErrors = likelyMistakesAreErrors
    self.onlyStatementsOfFile = onlyStatementsOfFile
  }

  /// The problems of a parsed configuration, in file order.
  ///
  /// - Parameters:
  ///   - tree: A tree parsed from `file` (its words are located there).
  ///   - file: The text it was parsed from.
  ///   - model: The schema and families to check against; a model without a schema finds nothing.
  ///
  /// A tree given up by the caller (`consume`) is put in one statement per level in place;
  /// one still shared is copied first.
  public func diagnostics(of tree: consuming ConfigTree, in file: SourceFile, model: ConfigModel) -> [Diagnostic] {
    guard let matcher = model.matcher else { return [] }
    let (normal, shapes) = Self.normalized(consume tree, model: model, matcher: matcher)
    var run = Run(
      tree: normal, shapes: shapes, file: file, model: model, matcher: matcher, lenient: lenient,
      likelyMistakesAreErrors: likelyMistakesAreErrors,
      onlyStatementsOfFile: onlyStatementsOfFile
    )
    run.walk()
    return run.out.sorted { ($0.range.lowerBound, $0.message) < ($1.range.lowerBound, $1.message) }
  }

  /// One statement per level: one-line children split off, repeated blocks merged; with the
  /// shapes of the result (those of statements unfolding made or changed computed anew, the
  /// others kept: merging moves statements under a parent with the same words).
  static func normalized(_ tree: consuming ConfigTree, model: ConfigModel, matcher: SchemaMatcher) -> (ConfigTree, StatementShapes) {
    let shapes = model.shapes(of: tree)
    var out = consume tree
    let count = out.nodes.count
    var unfolded: [NodeID] = []
    // Unfolding changes only the statement it splits and adds statements after the others.
    for k in 1..<count where out.nodes[k].parent >= 0 {
      let node = NodeID(Int32(k))
      let s = shapes[node]
      if s.head != nil, s.ownWords < out.wordCount(of: node), out.unfold(node, shape: s, matcher: matcher) { unfolded.append(node) }
    }
    var full = shapes.full
    full.reserveCapacity(out.nodes.count)
    for node in unfolded {
      full[node.index] = model.shape(of: node, in: out, context: full[Int(out.nodes[node.index].parent)].children)
    }
    // New statements come after their parents.
    for k in count..<out.nodes.count {
      let parent = out.nodes[k].parent
      full.append(parent < 0 ? .unknown(words: 0) : model.shape(of: NodeID(Int32(k)), in: out, context: full[Int(parent)].children))
    }
    out.mergeDuplicateBlocks()
    return (out, StatementShapes(full: full, partial: [:]))
  }

  /// The state of one check.
  struct Run {
    let tree: ConfigTree
    let file: SourceFile
    let model: ConfigModel
    let matcher: SchemaMatcher
    let lenient: Bool
    let likelyMistakesAreErrors: Bool
    let onlyStatementsOfFile: Bool
    let shapes: StatementShapes
    var values: ValueChecker
    var out: [Diagnostic] = []
    /// Whether the schema knows some top-level statement of the tree (set by ``walk()``).
    var knownTopLevel = false
    /// ``siblings(of:)``'s tables, kept between calls.
    var leaves: [SchemaNode: NodeID] = [:]
    var choices: [UInt32: (case: UInt32, node: NodeID)] = [:]
    /// The children the schema knows, with their schema statements.
    var kids: [(node: NodeID, head: SchemaNode)] = []
    /// The matcher's schema, copied once (a computed one would be copied at every use).
    let schema: JunosSchema

    init(
      tree: ConfigTree, shapes: StatementShapes, file: SourceFile, model: ConfigModel, matcher: SchemaMatcher, lenient: Bool,
      likelyMistakesAreErrors: Bool, onlyStatementsOfFile: Bool
    ) {
      self.onlyStatementsOfFile = onlyStatementsOfFile
      self.tree = tree
      self.file = file
      self.model = model
      self.matcher = matcher
      self.lenient = lenient
      self.likelyMistakesAreErrors = likelyMistakesAreErrors
      self.shapes = shapes
      self.values = ValueChecker(schema: matcher.schema)
      self.schema = matcher.schema
    }

    mutating func walk() {
      var k = tree.nodes[ConfigTree.root.index].firstChild
      while k >= 0 && !knownTopLevel {
        knownTopLevel = shapes[NodeID(k)].head != nil
        k = tree.nodes[Int(k)].next
      }
      // (statement, its parent's schema statement, under `groups`)
      var stack: [(Int32, SchemaNode?, Bool)] = []
      func push(children of: NodeID, head: SchemaNode?, inGroups: Bool) {
        var k = tree.nodes[of.index].lastChild
        while k >= 0 {
          stack.append((k, head, inGroups))
          k = tree.nodes[Int(k)].prev
        }
      }
      siblings(of: ConfigTree.root)
      push(children: ConfigTree.root, head: nil, inGroups: false)
      while let (id, parentHead, inGroups) = stack.popLast() {
        let node = NodeID(id)
        let parentContext = shapes[tree.parent(of: node) ?? ConfigTree.root].children
        // A statement without words (`{` alone) is the parser's error already.
        guard parentContext != .unknown, tree.nodes[node.index].wordCount > 0 else { continue }
        let s = shapes[node]
        let groups = inGroups || (parentHead == nil && tree.word(0, of: node) == "groups")
        if onlyStatementsOfFile && !located(tree.words[Int(tree.nodes[node.index].wordStart)]) {
          // From the other configuration: its children may still come from the file.
          if let head = s.head { push(children: node, head: head, inGroups: groups) }
          continue
        }
        guard let head = s.head else {
          unknown(node, at: 0, parent: parentContext, parentHead: parentHead)
          continue
        }
        statement(node, s, head, parentContext: parentContext, inGroups: groups)
        siblings(of: node)
        push(children: node, head: head, inGroups: groups)
      }
    }

    // MARK: One statement

    mutating func statement(_ node: NodeID, _ s: StatementShape, _ head: SchemaNode, parentContext: SchemaContext, inGroups: Bool) {
      let n = tree.wordCount(of: node)
      let list = tree.nodes[node.index].listCount >= 0
      // Words the schema could not place (a block's, which unfolding leaves on its line).
      if s.ownWords < n {
        unknown(node, at: s.ownWords, parent: s.children, parentHead: head)
      }
      // A list entry's keys and a leaf's value follow its keyword, unless it is printed without.
      let keyword = s.positional ? 0 : 1
      switch schema.kind(head) {
      case .list:
        // A block of the list's entries (`schedulers { S1 { … } }`) has no keys of its own.
        if case .entries = s.children {
          if !tree.hasChildren(node) { report(.missingKey, needsKey(head), node, word: 0, end: true) }
          break
        }
        let keys = schema.keys(head)
        let given = min(n, s.ownWords) - keyword
        if given == 0 { report(.missingKey, needsKey(head), node, word: max(0, n - 1), end: true) }
        // Each key is its value, or its keyword and value.
        var at = keyword
        for key in keys where at < keyword + given {
          if schema.keyPrintsKeyword(key) { at += 1 }
          // A key called `name` is the entry's name: say "a valid neighbor", not "a valid name".
          if at < keyword + given {
            check(node, word: at, type: schema.valueType(key), what: schema.name(key) == "name" ? head : key, inGroups: inGroups)
          }
          at += 1
        }
      case .leaf, .leafList:
        let type = schema.valueType(head)
        if list && schema.kind(head) == .leafList {
          let r = tree.nodes[node.index]
          for k in 0..<Int(r.listCount) { check(node, word: Int(r.wordCount) + k, type: type, what: head, inGroups: inGroups) }
        } else if s.valueWords == 0 && !list {
          report(.missingValue, "'\(schema.name(head))' needs a value", node, word: max(0, n - 1), end: true)
        } else if s.valueWords == 1 {
          check(node, word: s.ownWords - 1, type: type, what: head, inGroups: inGroups)
        }
      case .container, .flag:
        break
      }
    }

    /// The message of a list entry without its key.
    func needsKey(_ list: SchemaNode) -> String {
      "'\(schema.name(list))' needs \(schema.keyCount(list) > 1 ? "its keys" : "a name")"
    }

    /// Checks word `k` (counting `[ ]` values after the words) against a type.
    ///
    /// - Parameter what: The statement whose name says what the value is, in a message.
    mutating func check(_ node: NodeID, word k: Int, type: SchemaValueType?, what: SchemaNode, inGroups: Bool) {
      guard let type else { return }
      let value = XMLWords.valueBytes(tree.wordBytes(k, of: node))
      if value.first == UInt8(ascii: "$") { return }
      if inGroups && value.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "*") }) { return }
      guard let expected = values.problem(value, type: type) else { return }
      let shown = String(decoding: value, as: UTF8.self)
      report(.invalidValue, "'\(shown)' is not a valid \(schema.name(what)): expected \(expected)", node, word: k)
    }

    // MARK: Siblings

    /// Repeated single-valued leaves and statements of different cases of one choice, among a
    /// statement's children (a block of list entries has neither).
    mutating func siblings(of parent: NodeID) {
      guard case .node = shapes[parent].children else { return }
      // One child cannot conflict with itself.
      let r = tree.nodes[parent.index]
      guard r.firstChild >= 0, r.firstChild != r.lastChild else { return }
      kids.removeAll(keepingCapacity: true)
      for c in tree.children(of: parent) {
        if let h = shapes[c].head { kids.append((c, h)) }
      }
      // A few children are compared with each other; more go through tables.
      let hashed = kids.count > ConfigTree.fewChildren
      if hashed {
        leaves.emptyForReuse()
        choices.emptyForReuse()
      }
      let (kids, schema) = (kids, schema)
      for (i, (c, h)) in kids.enumerated() {
        if schema.kind(h) == .leaf, !shapes[c].positional {
          let first: NodeID?
          if hashed {
            first = leaves[h]
            if first == nil { leaves[h] = c }
          } else {
            first = kids[..<i].first { $0.head == h && !shapes[$0.node].positional }?.node
          }
          if let first {
            report(
              .repeatedStatement,
              "'\(schema.name(h))' is set twice: '\(text(c))' here, '\(text(first))' at \(place(first)); it takes one value", c, word: 0)
          }
        }
        if let choice = schema.choiceNumber(h), let kase = schema.caseNumber(h) {
          let first: (case: UInt32, node: NodeID)?
          if hashed {
            first = choices[choice]
            if first == nil { choices[choice] = (kase, c) }
          } else {
            first =
              kids[..<i].lazy.compactMap { k in
                schema.choiceNumber(k.head) == choice ? schema.caseNumber(k.head).map { ($0, k.node) } : nil
              }.first
          }
          if let first, first.case != kase {
            report(
              .choiceConflict,
              "'\(text(c))' conflicts with '\(text(first.node))' at \(place(first.node)): only one of them can be configured", c, word: 0)
          }
        }
      }
    }

    func text(_ node: NodeID) -> String { String(decoding: tree.statementText(node, RenderOptions(model: model)), as: UTF8.self) }

    func place(_ node: NodeID) -> String {
      let l = file.location(of: offset(node, word: 0))
      return "\(l.line):\(l.column)"
    }

    // MARK: Unknown statements

    /// Word `k` of a statement is not one the schema has under `parent`.
    mutating func unknown(_ node: NodeID, at k: Int, parent: SchemaContext, parentHead: SchemaNode?) {
      let word = tree.word(k, of: node)
      let message: String
      var mistake = false
      if let h = parentHead, schema.kind(h) == .leaf || schema.kind(h) == .flag || schema.kind(h) == .leafList {
        message = "'\(word)' is unexpected after '\(schema.name(h))'"
      } else {
        guard case .node(let p) = parent else { return }
        let under = parentHead.map { " under '\(schema.name($0))'" } ?? " at the top level"
        if let other = tree.wordBytes(k, of: node).withUnsafeBytes({ matcher.keywordChild(p, $0, in: SchemaFamily.all) }) {
          message = "'\(word)'\(under) is not in the schema of \(Self.names(matcher.families)) (only \(Self.names(schema.families(other))))"
        } else {
          let candidates = schema.children(p).filter { schema.families($0) & matcher.families != 0 }.map { schema.name($0) }
          // A suggestion only when it is close for the word's length ('unt' → 'unit', not 'do' → 'poe').
          let close = closestMatch(to: word, among: candidates)
          let hint = close.map { "; did you mean '\($0)'?" } ?? ""
          message = "unknown statement '\(word)'\(under)\(hint)"
          mistake = close != nil || (parentHead == nil && !knownTopLevel)
        }
      }
      var d = diagnostic(.unknownStatement, message, node, word: k)
      if lenient && !(mistake && likelyMistakesAreErrors) { d.severity = .warning }
      out.append(d)
    }

    /// The families of a mask, by name (`junos, evo`).
    static func names(_ families: UInt8) -> String {
      SchemaFamily.allCases.filter { families & $0.mask != 0 }.map(\.rawValue).joined(separator: ", ")
    }

    // MARK: Places

    mutating func report(_ id: DiagnosticID, _ message: String, _ node: NodeID, word k: Int, end: Bool = false) {
      var d = diagnostic(id, message, node, word: k)
      if end {
        // After the last word: where the missing part would go.
        let w = tree.words[Int(tree.nodes[node.index].wordStart) + k]
        if located(w) { d = Diagnostic(id, message, in: file, at: Int(w.end)..<Int(w.end)) }
      }
      out.append(d)
    }

    func diagnostic(_ id: DiagnosticID, _ message: String, _ node: NodeID, word k: Int) -> Diagnostic {
      let at = offset(node, word: k)
      return Diagnostic(id, message, in: file, at: at..<at)
    }

    /// Where word `k` of a statement is in the file: the word itself when the tree's words are
    /// the file's bytes (parsed curly and set text), else the statement's start.
    func offset(_ node: NodeID, word k: Int) -> Int {
      let r = tree.nodes[node.index]
      if k < Int(r.wordCount + max(r.listCount, 0)) {
        let w = tree.words[Int(r.wordStart) + k]
        if located(w) { return Int(w.start) }
      }
      return min(tree.sourceRange(of: node).lowerBound, file.bytes.count)
    }

    func located(_ w: WordRef) -> Bool {
      Int(w.end) <= file.bytes.count && w.start < w.end
        && file.bytes[Int(w.start)..<Int(w.end)].elementsEqual(tree.storage[Int(w.start)..<Int(w.end)])
    }
  }
}

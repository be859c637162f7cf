/// Options shared by every renderer.
public struct RenderOptions: Sendable {
  /// Print secret values instead of ``SecretMasking/mask``.
  public var showSecrets: Bool
  /// Print comments and annotations (curly only; `display set` prints annotations as `annotate`).
  public var comments: Bool
  /// What says which words are secret values, and (for `set` output) which children a line
  /// holds and which words name a statement.
  public var model: ConfigModel

  /// Creates options; by default secrets are masked and comments kept.
  public init(showSecrets: Bool = false, comments: Bool = true, model: ConfigModel = .standard) {
    self.showSecrets = showSecrets
    self.comments = comments
    self.model = model
  }

  /// The shapes masking needs for `tree` (none when secrets are shown).
  func maskingShapes(_ tree: ConfigTree, around node: NodeID = ConfigTree.root) -> StatementShapes? {
    showSecrets ? nil : model.shapes(of: tree, around: node)
  }
}

extension ConfigTree {
  /// Renders the configuration as the device displays it: 4-space indentation, prefix tags,
  /// annotations on their own line, `[ ]` lists, `## SECRET-DATA` trailers.
  ///
  /// - Parameter options: Masking and comments.
  /// - Returns: UTF-8 text; device output round-trips byte for byte.
  public func renderCurly(_ options: RenderOptions = RenderOptions()) -> [UInt8] {
    renderCurly(options, shapes: options.maskingShapes(self), notes: nil)
  }

  /// ``renderCurly(_:)`` with `notes(node)` printed as lines of their own before each statement,
  /// at its indentation.
  func renderCurly(_ options: RenderOptions, shapes: StatementShapes?, notes: ((NodeID) -> [String])?) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(storage.count + storage.count / 8)
    for h in headers {
      out.append(contentsOf: h.utf8)
      out.append(0x0A)
    }
    var c = nodes[0].lastChild
    var firsts: [Int32] = []
    while c >= 0 {
      firsts.append(c)
      c = nodes[Int(c)].prev
    }
    appendCurly(&out, reversedStatements: firsts, options, shapes: shapes, lead: [], indent: 0, notes: notes)
    if options.comments, let e = extra(ConfigTree.root) {
      for t in e.closing { line(&out, [], 0, t.text) }
    }
    // A first word that starts with U+FEFF would be read back as a byte-order mark: print one.
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    if out.starts(with: bom) { out.insert(contentsOf: bom, at: 0) }
    return out
  }

  /// Renders one statement and everything under it, each line starting with `lead` and
  /// `indent` spaces more than the device would indent it at top level: the body of a
  /// `show | compare` entry (`lead` is the `+`/`-` marker).
  ///
  /// - Parameters:
  ///   - node: The statement.
  ///   - options: Masking and comments (annotations are printed on their own line before it).
  ///   - lead: Bytes at the start of every line.
  ///   - indent: Spaces after `lead` for the statement itself; nested lines add 4 a level.
  /// - Returns: UTF-8 lines.
  ///   - shapes: The tree's shapes, if the caller has them (``ConfigModel/shapes(of:)``).
  ///   - notes: Lines to print before a statement (after `lead`, at its indentation), e.g. where
  ///     it was inherited from; `nil` for none.
  public func renderCurly(
    statement node: NodeID, _ options: RenderOptions, lead: [UInt8], indent: Int, shapes: StatementShapes? = nil,
    notes: ((NodeID) -> [String])? = nil
  ) -> [UInt8] {
    var out: [UInt8] = []
    appendCurly(
      &out, reversedStatements: [node.raw], options,
      shapes: options.showSecrets ? nil : shapes ?? options.maskingShapes(self, around: node),
      lead: lead, indent: indent, notes: notes)
    return out
  }

  /// Iterative pre-order walk from the given statements (last first); `closing` entries emit the
  /// `}` of a block.
  func appendCurly(
    _ out: inout [UInt8], reversedStatements: [Int32], _ options: RenderOptions, shapes: StatementShapes?, lead: [UInt8], indent base: Int,
    notes: ((NodeID) -> [String])? = nil
  ) {
    var stack: [(node: Int32, depth: Int, closing: Bool)] = reversedStatements.map { ($0, 0, false) }
    func indent(_ out: inout [UInt8], _ depth: Int) {
      out.append(contentsOf: lead)
      out.append(contentsOf: repeatElement(0x20, count: base + depth * 4))
    }
    while let (id, depth, closing) = stack.popLast() {
      let node = NodeID(id)
      let r = nodes[Int(id)]
      let e = extra(node)
      if closing {
        if options.comments, let e {
          for t in e.closing { line(&out, lead, base + (depth + 1) * 4, t.text) }
        }
        indent(&out, depth)
        out.append(UInt8(ascii: "}"))
        if r.flags.contains(.braceSemicolon) { out.append(UInt8(ascii: ";")) }
        if options.comments, let t = e?.closeTrailer { space(&out, t.text) }
        out.append(0x0A)
        continue
      }
      if let notes {
        for t in notes(node) { line(&out, lead, base + depth * 4, t) }
      }
      if options.comments, let e {
        for t in e.leading { line(&out, lead, base + depth * 4, t.text) }
      }
      indent(&out, depth)
      appendStatement(&out, node, options, shapes: shapes)
      if options.comments, let e, !e.inline.isEmpty {
        for t in e.inline { space(&out, t.text) }
      }
      if r.flags.contains(.block) {
        out.append(contentsOf: " {".utf8)
        if options.comments, let t = e?.trailer { space(&out, t.text) }
        out.append(0x0A)
        stack.append((id, depth, true))
        var k = r.lastChild
        while k >= 0 {
          stack.append((k, depth + 1, false))
          k = nodes[Int(k)].prev
        }
      } else {
        out.append(UInt8(ascii: ";"))
        if options.comments, let t = e?.trailer { space(&out, t.text) }
        out.append(0x0A)
      }
    }
  }

  /// A statement's words and `[ ]` values as one line shows them (no `;` or `{`), secrets masked
  /// as asked; with `prefixes`, its `inactive:`/`protect:` tags first.
  ///
  /// - Parameter shapes: The tree's shapes, if the caller has them (``ConfigModel/shapes(of:)``).
  public func statementText(
    _ node: NodeID, _ options: RenderOptions = RenderOptions(), prefixes: Bool = false, shapes: StatementShapes? = nil
  ) -> [UInt8] {
    var out: [UInt8] = []
    appendStatement(
      &out, node, options, prefixes: prefixes, shape: options.showSecrets ? nil : shapes?[node] ?? options.model.shape(of: node, in: self))
    return out
  }

  /// Prefix tags, words and list of a statement on one line, secrets masked as asked.
  func appendStatement(_ out: inout [UInt8], _ node: NodeID, _ options: RenderOptions, prefixes: Bool = true, shapes: StatementShapes?) {
    appendStatement(&out, node, options, prefixes: prefixes, shape: shapes?[node])
  }

  /// - Parameter shape: The statement's shape; `nil` when secrets are shown.
  func appendStatement(_ out: inout [UInt8], _ node: NodeID, _ options: RenderOptions, prefixes: Bool = true, shape: StatementShape?) {
    let r = nodes[node.index]
    if prefixes {
      for (flag, spelling) in StatementFlags.prefixes where r.flags.contains(flag) {
        out.append(contentsOf: spelling.utf8)
        out.append(0x20)
      }
    }
    let shape = shape ?? (options.showSecrets ? .unknown(words: 0) : options.model.shape(of: node, in: self))
    let masked =
      options.showSecrets ? [] : SecretMasking.secretWordIndices(of: node, in: self, shape: shape, matcher: options.model.matcher)
    for k in 0..<Int(r.wordCount) {
      if k > 0 { out.append(0x20) }
      if masked.contains(k) {
        out.append(contentsOf: SecretMasking.mask.utf8)
      } else {
        let w = words[Int(r.wordStart) + k]
        out.append(contentsOf: storage[Int(w.start)..<Int(w.end)])
      }
    }
    if r.listCount >= 0 {
      let maskList = !options.showSecrets && SecretMasking.masksList(of: node, in: self, shape: shape, matcher: options.model.matcher)
      out.append(contentsOf: (r.wordCount > 0 ? " [" : "[").utf8)
      for k in 0..<Int(r.listCount) {
        out.append(0x20)
        if maskList {
          out.append(contentsOf: SecretMasking.mask.utf8)
        } else {
          let w = words[Int(r.wordStart + r.wordCount) + k]
          out.append(contentsOf: storage[Int(w.start)..<Int(w.end)])
        }
      }
      out.append(contentsOf: " ]".utf8)
    }
  }

  /// A comment on its own line. The continuation lines of a multi-line annotation are its own
  /// text, verbatim: after a `lead` (a compare's `+`/`-`) they get the lead and one blank, which
  /// ``CompareText`` takes off again.
  private func line(_ out: inout [UInt8], _ lead: [UInt8], _ spaces: Int, _ text: String) {
    out.append(contentsOf: lead)
    out.append(contentsOf: repeatElement(0x20, count: spaces))
    for b in text.utf8 {
      out.append(b)
      if b == 0x0A && !lead.isEmpty {
        out.append(contentsOf: lead)
        out.append(0x20)
      }
    }
    out.append(0x0A)
  }

  private func space(_ out: inout [UInt8], _ text: String) {
    out.append(0x20)
    out.append(contentsOf: text.utf8)
  }
}

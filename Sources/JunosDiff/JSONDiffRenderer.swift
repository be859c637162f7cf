public import JunosConfig

extension ConfigDiff {
  /// Renders the difference as JSON (schema `junoscope.diff` version 1, `Docs/JSON.md`): the
  /// counts, then one object per group with the banner path and its changes in order.
  ///
  /// - Parameters:
  ///   - options: Masking (secrets are masked unless `showSecrets`).
  ///   - oldPath: Where the old configuration came from, recorded as `"old"`.
  ///   - newPath: Where the new one came from, recorded as `"new"`.
  ///   - notes: What the reader should know of where they came from (a range read from
  ///     backups), recorded as `"notes"` after `"new"` when there are any.
  /// - Returns: One JSON object and a newline.
  public func renderJSON(
    _ options: RenderOptions = RenderOptions(), oldPath: String? = nil, newPath: String? = nil, notes: [String] = []
  ) -> [UInt8] {
    var out: [UInt8] = []
    out.append(contentsOf: #"{"format":"junoscope.diff","version":1,"old":"#.utf8)
    optional(&out, oldPath)
    out.append(contentsOf: #","new":"#.utf8)
    optional(&out, newPath)
    if !notes.isEmpty {
      out.append(contentsOf: #","notes":["#.utf8)
      for (k, n) in notes.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        JSONText.append(n, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    out.append(contentsOf: #","identical":"#.utf8)
    out.append(contentsOf: (isEmpty ? "true" : "false").utf8)
    out.append(contentsOf: #","counts":{"#.utf8)
    let kinds = ["added", "deleted", "changed", "moved", "flags", "annotation"]
    let c = counts
    for (k, kind) in kinds.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      JSONText.append(kind, into: &out)
      out.append(contentsOf: ":\(c[kind] ?? 0)".utf8)
    }
    out.append(contentsOf: #"},"groups":["#.utf8)
    for (gi, g) in groups.enumerated() {
      if gi > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"path":["#.utf8)
      for (k, w) in new.pathWords(of: g.newParent).enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        JSONText.append(w, into: &out)
      }
      out.append(contentsOf: #"],"changes":["#.utf8)
      for (k, item) in g.items.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        change(&out, item, options)
      }
      out.append(contentsOf: "]}".utf8)
    }
    out.append(contentsOf: "]}\n".utf8)
    return out
  }

  func optional(_ out: inout [UInt8], _ s: String?) {
    if let s { JSONText.append(s, into: &out) } else { out.append(contentsOf: "null".utf8) }
  }

  func field(_ out: inout [UInt8], _ name: String, _ value: [UInt8]) {
    out.append(contentsOf: ",\"\(name)\":".utf8)
    JSONText.append(bytes: value, into: &out)
  }

  func change(_ out: inout [UInt8], _ item: Item, _ options: RenderOptions) {
    func open(_ kind: String, _ tree: ConfigTree, _ node: NodeID) {
      out.append(contentsOf: #"{"kind":"#.utf8)
      JSONText.append(kind, into: &out)
      field(&out, "statement", tree.statementText(node, options))
    }
    switch item {
    case .context(let n):
      open("context", new, n)
    case .added(let n):
      open("added", new, n)
      field(&out, "text", new.renderCurly(statement: n, options, lead: [], indent: 0))
    case .deleted(let o):
      open("deleted", old, o)
      field(&out, "text", old.renderCurly(statement: o, options, lead: [], indent: 0))
    case .changed(let o, let n):
      open("changed", new, n)
      field(&out, "oldText", old.renderCurly(statement: o, options, lead: [], indent: 0))
      field(&out, "newText", new.renderCurly(statement: n, options, lead: [], indent: 0))
    case .moved(_, let n):
      open("moved", new, n)
      out.append(contentsOf: #","after":"#.utf8)
      if let p = new.previousSibling(of: n) {
        JSONText.append(bytes: new.statementText(p, options), into: &out)
      } else {
        out.append(contentsOf: "null".utf8)
      }
    case .flags(let o, let n):
      open("flags", new, n)
      let was = old.flags(of: o)
      let now = new.flags(of: n)
      out.append(contentsOf: ",\"inactive\":[\(was.contains(.inactive)),\(now.contains(.inactive))]".utf8)
      out.append(contentsOf: ",\"protect\":[\(was.contains(.protect)),\(now.contains(.protect))]".utf8)
    case .annotation(let o, let n):
      open("annotation", new, n)
      out.append(contentsOf: #","oldAnnotation":"#.utf8)
      optional(&out, old.annotation(of: o))
      out.append(contentsOf: #","newAnnotation":"#.utf8)
      optional(&out, new.annotation(of: n))
    }
    out.append(UInt8(ascii: "}"))
  }
}

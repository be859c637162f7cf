public import JunosConfig

extension ConfigDiff {
  /// Renders the difference as the commands that turn the old configuration into the new one:
  /// `delete`, `set`, `activate`/`deactivate`, `protect`/`unprotect`, `annotate`, and
  /// `insert … before|after …` for ordered-list entries (terms, policies) that moved or were
  /// added (each one placed after the entry before it). A changed value is `delete` then `set` (so that list
  /// values are replaced, not merged). Loading the commands over the old configuration (with
  /// `junoscope apply`) gives the new one.
  ///
  /// - Parameter options: Masking (secrets are masked unless `showSecrets`).
  /// - Returns: UTF-8 text, one command per line; empty when the configurations are the same.
  public func renderSet(_ options: RenderOptions = RenderOptions()) -> [UInt8] {
    var placed = Set<NodeID>()  // new statements added or moved: not anchors for `insert`
    for g in groups {
      for item in g.items {
        switch item {
        case .added(let n), .moved(_, let n), .changed(_, let n): placed.insert(n)
        default: continue
        }
      }
    }
    var options = options
    options.model = self.options.model
    var out: [UInt8] = []
    for g in groups {
      for item in g.items {
        switch item {
        case .context:
          continue
        case .added(let n):
          out.append(contentsOf: new.renderSet(statement: n, options))
          insert(&out, n, placed, options)
        case .deleted(let o):
          delete(&out, o, options)
        case .changed(let o, let n):
          delete(&out, o, options)
          out.append(contentsOf: new.renderSet(statement: n, options))
          insert(&out, n, placed, options)
        case .moved(_, let n):
          insert(&out, n, placed, options)
        case .flags(let o, let n):
          let was = old.flags(of: o)
          let now = new.flags(of: n)
          if was.contains(.inactive) != now.contains(.inactive) {
            command(&out, now.contains(.inactive) ? "deactivate" : "activate", new.setIdentity(of: n, options))
          }
          if was.contains(.protect) != now.contains(.protect) {
            command(&out, now.contains(.protect) ? "protect" : "unprotect", new.setIdentity(of: n, options))
          }
        case .annotation(_, let n):
          var line = new.setIdentity(of: n, options)
          line.append(0x20)
          line.append(contentsOf: ConfigTree.quotedAnnotation(new.annotation(of: n) ?? ""))
          command(&out, "annotate", line)
        }
      }
    }
    return out
  }

  func command(_ out: inout [UInt8], _ verb: String, _ rest: [UInt8]) {
    out.append(contentsOf: verb.utf8)
    out.append(0x20)
    out.append(contentsOf: rest)
    out.append(0x0A)
  }

  /// `delete` naming the statement by its identity (`… host-name`), or by all its words when a
  /// sibling shares that identity (two `virtual-address` values).
  func delete(_ out: inout [UInt8], _ o: NodeID, _ options: RenderOptions) {
    var path = old.setIdentity(of: o, options)
    let idc = shape(old: o).identity
    if idc < old.wordCount(of: o), let p = old.parent(of: o) {
      let head = Array(old.words(of: o).prefix(idc))
      let shared = old.children(of: p).contains { $0 != o && Array(old.words(of: $0).prefix(idc)) == head }
      if shared {
        path = old.parent(of: o).map { old.setPath(of: $0, options) } ?? []
        if !path.isEmpty { path.append(0x20) }
        path.append(contentsOf: old.statementText(o, options))
      }
    }
    command(&out, "delete", path)
  }

  /// `insert` for an ordered-list entry: after the entry of the same list before it, or, for a
  /// new first entry, before the first entry of that list that stays where it was. (`insert`
  /// names a sibling of the same list: `rule R0 after rule R1`, never the rule-set's `to`.)
  func insert(_ out: inout [UInt8], _ n: NodeID, _ placed: Set<NodeID>, _ options: RenderOptions) {
    guard new.wordCount(of: n) > 1, self.options.orderedKeywords.contains(new.word(0, of: n)) else { return }
    let ident = new.setIdentity(of: n, options)
    let list = shape(new: n)
    func sameList(_ x: NodeID) -> Bool {
      guard new.wordCount(of: x) > 0, new.word(0, of: x) == new.word(0, of: n) else { return false }
      let sx = shape(new: x)
      return sx.head == list.head && sx.identity == list.identity
    }
    var before = new.previousSibling(of: n)
    while let x = before, !sameList(x) { before = new.previousSibling(of: x) }
    if let p = before {
      command(&out, "insert", ident + Array(" after ".utf8) + relativeIdentity(p, options))
      return
    }
    var s = new.nextSibling(of: n)
    while let x = s, placed.contains(x) || !sameList(x) { s = new.nextSibling(of: x) }
    guard let anchor = s else { return }
    command(&out, "insert", ident + Array(" before ".utf8) + relativeIdentity(anchor, options))
  }

  /// A statement's identifying words without its parent's path (`term A`, `description`).
  func relativeIdentity(_ n: NodeID, _ options: RenderOptions) -> [UInt8] {
    let full = new.setIdentity(of: n, options)
    let prefix = new.parent(of: n).map { new.setPath(of: $0, options) } ?? []
    return prefix.isEmpty ? full : Array(full.dropFirst(prefix.count + 1))
  }
}

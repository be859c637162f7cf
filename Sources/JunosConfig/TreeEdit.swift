extension ConfigTree {
  /// Copies a statement of `other`, with everything under it (words, lists, flags, comments), as
  /// the last child of `parent`.
  ///
  /// - Returns: The copy.
  @discardableResult
  public mutating func graft(_ node: NodeID, of other: ConfigTree, under parent: NodeID) -> NodeID {
    var top = NodeID(-1)
    var stack: [(Int32, Int32)] = [(node.raw, parent.raw)]
    while let (src, dst) = stack.popLast() {
      let copy = copyStatement(NodeID(src), of: other, under: NodeID(dst))
      if top.raw < 0 { top = copy }
      var c = other.nodes[Int(src)].lastChild
      while c >= 0 {
        stack.append((c, copy.raw))
        c = other.nodes[Int(c)].prev
      }
    }
    return top
  }

  /// Copies one statement of `other` (words, `[ ]` values, flags, comments and annotation, not its
  /// children) as the last child of `parent`.
  mutating func copyStatement(_ node: NodeID, of other: ConfigTree, under parent: NodeID) -> NodeID {
    let r = other.nodes[node.index]
    let refs = (0..<Int(r.wordCount)).map { storeWord(other.wordBytes($0, of: node)) }
    let list: [WordRef]? =
      r.listCount < 0
      ? nil
      : (0..<Int(r.listCount)).map { k in
        let w = other.words[Int(r.wordStart + r.wordCount) + k]
        return storeWord(other.storage[Int(w.start)..<Int(w.end)])
      }
    let copy = appendNode(wordRefs: refs, listRefs: list, parent: parent.raw, flags: r.flags, source: 0..<0)
    if let e = other.extra(node) { setExtras(e, of: copy) }
    return copy
  }

  /// The part of the configuration at one hierarchy, as `show protocols bgp` prints it: the
  /// statements the path reaches, with everything under them, inside copies of their ancestors
  /// (words, tags and annotations kept, other children left out). Ancestors the path passes
  /// through stay even when nothing below them is reached, so a difference under them is placed
  /// where the device places it (`[edit system services]`, not `[edit]`).
  ///
  /// The path is compared word by word with the statements' words as written, so it may end inside
  /// a statement: `protocols bgp group` reaches every `group` entry, `system host-name` the
  /// host-name leaf. An empty path is the whole configuration.
  ///
  /// - Returns: The restricted tree (headers kept) and how many statements the path reached.
  public func restricted(to path: [String]) -> (tree: ConfigTree, reached: Int) {
    if path.isEmpty { return (self, 1) }
    var out = ConfigTree()
    out.headers = headers
    out.path = self.path
    var reached = 0
    // Depth is bounded by the path's length, so recursion is safe.
    func walk(_ node: NodeID, _ rest: ArraySlice<String>, into parent: NodeID) {
      for c in children(of: node) {
        let r = nodes[c.index]
        let n = Int(r.wordCount)
        guard n > 0, zip(0..<n, rest).allSatisfy({ wordEquals(Int(r.wordStart) + $0, $1) }) else { continue }
        if rest.count <= n {
          out.graft(c, of: self, under: parent)
          reached += 1
        } else if r.firstChild >= 0 {
          let copy = out.copyStatement(c, of: self, under: parent)
          walk(c, rest.dropFirst(n), into: copy)
        }
      }
    }
    walk(ConfigTree.root, path[...], into: ConfigTree.root)
    return (out, reached)
  }

  /// Whether a statement of this tree and one of `other` are the same configuration: words,
  /// `[ ]` values, `inactive:`/`protect:` tags, annotations and children in order (`#` comments,
  /// layout and `x { }` versus `x;` do not count).
  public func sameConfiguration(_ node: NodeID, as otherNode: NodeID, in other: ConfigTree) -> Bool {
    let mask: StatementFlags = [.inactive, .protect]
    var stack: [(Int32, Int32)] = [(node.raw, otherNode.raw)]
    while let (x, y) = stack.popLast() {
      let rx = nodes[Int(x)]
      let ry = other.nodes[Int(y)]
      guard rx.wordCount == ry.wordCount, rx.listCount == ry.listCount, rx.flags.intersection(mask) == ry.flags.intersection(mask)
      else { return false }
      for i in 0..<Int(rx.wordCount + max(rx.listCount, 0)) {
        let wa = words[Int(rx.wordStart) + i]
        let wb = other.words[Int(ry.wordStart) + i]
        if !storage[Int(wa.start)..<Int(wa.end)].elementsEqual(other.storage[Int(wb.start)..<Int(wb.end)]) { return false }
      }
      if comparableAnnotation(of: NodeID(x)) != other.comparableAnnotation(of: NodeID(y)) { return false }
      var cx = rx.firstChild
      var cy = ry.firstChild
      while cx >= 0 && cy >= 0 {
        stack.append((cx, cy))
        cx = nodes[Int(cx)].next
        cy = other.nodes[Int(cy)].next
      }
      if cx >= 0 || cy >= 0 { return false }
    }
    return true
  }
}

extension ConfigTree {
  /// Merges sibling statements with the same words (`interfaces { a } … interfaces { b }`,
  /// `unit 0;` beside `unit 0 { … }`) into the first, as Junos does when it loads such text;
  /// their children are merged in turn (`[ ]` values must be the same too).
  ///
  /// - Returns: Whether anything was merged.
  @discardableResult
  public mutating func mergeDuplicateBlocks() -> Bool {
    var merged = false
    // Blocks to look into, parents first; a leaf has nothing below it to merge.
    var queue: [Int32] = [0]
    var firstByWords: [UInt64: Int32] = [:]
    var k = 0
    while k < queue.count {
      let parent = queue[k]
      k += 1
      let only = nodes[Int(parent)].firstChild
      if only >= 0 && nodes[Int(only)].next < 0 {
        // One child: nothing to merge it with.
        if nodes[Int(only)].firstChild >= 0 { queue.append(only) }
        continue
      }
      // A few children are compared with each other (most parents have a few); more through a
      // table of their words' hashes, emptied for each parent.
      var few = 0
      var c = nodes[Int(parent)].firstChild
      while c >= 0 && few <= Self.fewChildren {
        few += 1
        c = nodes[Int(c)].next
      }
      let hashed = few > Self.fewChildren
      if hashed { firstByWords.emptyForReuse() }
      c = nodes[Int(parent)].firstChild
      while c >= 0 {
        let next = nodes[Int(c)].next
        let r = nodes[Int(c)]
        if r.wordCount > 0 {
          var key: UInt64 = 0
          var same: Int32?
          if hashed {
            let all = Int(r.wordStart)..<Int(r.wordStart + r.wordCount + max(r.listCount, 0))
            key = wordsHash(words[all]) ^ UInt64(bitPattern: Int64(r.listCount))
            same = firstByWords[key].flatMap { wordsEqual($0, c) ? $0 : nil }
          } else {
            var e = nodes[Int(parent)].firstChild
            while e != c && !wordsEqual(e, c) { e = nodes[Int(e)].next }
            if e != c { same = e }
          }
          if let first = same {
            // Move the duplicate's children under the first, then drop it.
            if r.firstChild >= 0 {
              nodes[Int(first)].flags.insert(.block)
              // A leaf that gets children is looked into too.
              if nodes[Int(first)].firstChild < 0 { queue.append(first) }
            }
            var g = r.firstChild
            while g >= 0 {
              let gn = nodes[Int(g)].next
              unlink(g)
              link(g, parent: first)
              g = gn
            }
            unlink(c)
            nodes[Int(c)].parent = -1
            merged = true
          } else {
            if hashed && firstByWords[key] == nil { firstByWords[key] = c }
            if r.firstChild >= 0 { queue.append(c) }
          }
        } else if r.firstChild >= 0 {
          queue.append(c)
        }
        c = next
      }
    }
    return merged
  }

  /// Up to this many children of one parent are compared with each other, not hashed.
  static let fewChildren = 8
}

extension Dictionary {
  /// Empties a table that is filled again for each parent's children: its storage is kept,
  /// unless a large parent made it large (every later emptying would pay for that capacity).
  mutating func emptyForReuse() {
    if capacity > 4096 { self = [:] } else { removeAll(keepingCapacity: true) }
  }
}

extension ConfigTree {
  /// Whether two statements have the same words and `[ ]` values.
  func wordsEqual(_ x: Int32, _ y: Int32) -> Bool {
    let a = nodes[Int(x)]
    let b = nodes[Int(y)]
    guard a.wordCount == b.wordCount, a.listCount == b.listCount else { return false }
    for i in 0..<Int(a.wordCount + max(a.listCount, 0)) where !sameWord(words[Int(a.wordStart) + i], words[Int(b.wordStart) + i]) {
      return false
    }
    return true
  }

  /// Whether two words of this tree's storage are the same word: the same bytes once a pair of
  /// surrounding double quotes is set aside (Junos prints `"<ge-*>"` in curly text and
  /// `<ge-*>` in set commands; both name one statement).
  func sameWord(_ a: WordRef, _ b: WordRef) -> Bool {
    if a.start == b.start && a.end == b.end { return true }
    return storage.withUnsafeBufferPointer { s in
      let x = Self.unquoted(a, s)
      let y = Self.unquoted(b, s)
      guard x.count == y.count else { return false }
      var j = 0
      while j < x.count && s[x.lowerBound + j] == s[y.lowerBound + j] { j += 1 }
      return j == x.count
    }
  }

  /// The bytes of a word without a pair of surrounding double quotes.
  static func unquoted(_ w: WordRef, _ s: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    let a = Int(w.start)
    let e = Int(w.end)
    return e - a >= 2 && s[a] == 0x22 && s[e - 1] == 0x22 ? (a + 1)..<(e - 1) : a..<e
  }

  /// FNV-1a of words' bytes (quotes aside, as ``sameWord(_:_:)`` compares them), each followed
  /// by a blank, going on from `seed`.
  func wordsHash(_ refs: some Collection<WordRef>, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
    var h = seed
    storage.withUnsafeBufferPointer { b in
      for w in refs {
        for k in Self.unquoted(w, b) { h = (h ^ UInt64(b[k])) &* 0x0000_0100_0000_01B3 }
        h = (h ^ 0x20) &* 0x0000_0100_0000_01B3
      }
    }
    return h
  }
}

extension ConfigParser {
  /// Loads `display set`-style commands (`set`, `delete`, `activate`, `deactivate`, `insert`,
  /// `annotate`, …) over an existing configuration, as `load set` does on the device.
  ///
  /// - Parameters:
  ///   - file: The commands.
  ///   - base: The configuration they apply to.
  ///   - model: Decides where identifiers end in the commands, and which statements are single
  ///     values (replaced) or of one choice (replacing the others).
  /// - Returns: The resulting tree, with diagnostics located in `file` (a `delete` of a
  ///   statement the base lacks is an `unknownPath` error).
  public static func load(_ file: SourceFile, onto base: ConfigTree, model: ConfigModel = .standard) -> ParseResult {
    SetParser.load(file, onto: base, model: model)
  }
}

extension ConfigTree {
  /// The configuration the device commits: `inactive:` statements (and everything under them)
  /// dropped, `groups` expanded into the places `apply-groups` names, then the `groups` block and
  /// every `apply-groups`/`apply-groups-except` statement removed.
  ///
  /// Group semantics follow Junos: configuration written explicitly wins over inherited
  /// statements, an earlier group in an `apply-groups` list wins over a later one, a group applied
  /// at a deeper level wins over one applied higher up, and within a group the first matching
  /// statement wins. Group identifiers written as wildcards (`<*>`, `"<xe-*>"`, with `*`, `?` and
  /// `[ ]` classes) only add to statements that exist; other group statements are created when
  /// absent. A single-valued leaf (`mtu 9000`) does not override one already there; keyed
  /// statements (`unit 0`) merge by keyword and key; sets of values (`[ ]` lists) inherit all
  /// their values; statements the model does not know merge only when all their words are
  /// equal. `apply-groups-except` stops the named groups at its level and below.
  ///
  /// This is ``inheritance(model:interfaceRanges:)`` without the record of where each statement
  /// came from.
  ///
  /// - Parameters:
  ///   - model: Which words identify a group's statements (Juniper's schema, then the
  ///     keyword table).
  ///   - interfaceRanges: Whether to expand `interfaces interface-range` members into the
  ///     interfaces they name as well.
  ///
  /// The result shares this tree's ``storage``: every statement keeps the source range (and
  /// comments) of the statement it came from, a statement inherited from a group those of the
  /// statement inside `groups`.
  ///
  /// - Returns: The effective configuration; this tree itself when it has nothing to drop or expand.
  public func effective(model: ConfigModel = .standard, interfaceRanges: Bool = false) -> ConfigTree {
    inheritance(model: model, interfaceRanges: interfaceRanges).configuration
  }

  /// The effective configuration (see ``effective(model:interfaceRanges:)``) and, for every
  /// statement a group or an interface range added, where it came from: what Junos's
  /// `show configuration | display inheritance` shows.
  ///
  /// - Parameters:
  ///   - model: Which words identify a group's statements.
  ///   - interfaceRanges: Whether each `interfaces interface-range R` is expanded into the
  ///     interfaces its `member` and `member-range` statements name (created when absent), its
  ///     other statements merged into each as a group would be: explicit interface configuration
  ///     wins over the range, the range over groups. The range itself stays in the result.
  /// - Returns: The effective tree and the origin of its inherited statements.
  public func inheritance(model: ConfigModel = .standard, interfaceRanges: Bool = false) -> InheritedConfiguration {
    guard needsEffectiveExpansion(interfaceRanges: interfaceRanges) else {
      return InheritedConfiguration(configuration: self, explicitCount: nodes.count, createdSource: [], sources: [])
    }
    var builder = EffectiveBuilder(self, model: model)
    builder.copyExplicit()
    if interfaceRanges { builder.expandRanges() }
    builder.expandGroups()
    return InheritedConfiguration(
      configuration: builder.out, explicitCount: Int(builder.explicitCount), createdSource: builder.createdSource,
      sources: builder.sources)
  }

  /// Whether the tree has an `inactive:` statement, a `groups` block or an `apply-groups`
  /// statement (or, with `interfaceRanges`, an `interface-range`): one pass over the records, no
  /// strings built.
  func needsEffectiveExpansion(interfaceRanges: Bool = false) -> Bool {
    nodes.withUnsafeBufferPointer { nodes in
      words.withUnsafeBufferPointer { words in
        storage.withUnsafeBufferPointer { storage in
          var c = nodes[0].firstChild
          while c >= 0 {
            let r = nodes[Int(c)]
            if r.wordCount == 1 && EffectiveBuilder.isGroups(words[Int(r.wordStart)], storage) { return true }
            c = r.next
          }
          for r in nodes.dropFirst() {
            if r.flags.contains(.inactive) { return true }
            if r.wordCount > 0 && EffectiveBuilder.applyKind(words[Int(r.wordStart)], storage) != nil { return true }
            if interfaceRanges && r.wordCount > 1 && EffectiveBuilder.isRange(words[Int(r.wordStart)], storage) { return true }
          }
          return false
        }
      }
    }
  }
}

/// Builds the effective configuration: first the explicit statements (inactive ones, `groups`
/// and `apply-groups*` left out), then each applied group merged in priority order, so that the
/// first statement to arrive at a place wins.
struct EffectiveBuilder {
  /// How a statement inside a group is identified among its siblings.
  struct Identity {
    /// Number of leading words that identify the statement.
    var count: Int
    /// Whether the other statement must have exactly the same number of words.
    var exact: Bool
    /// Whether it is a set of values (`keyword [ … ]`) whose values are all inherited.
    var list: Bool
  }

  /// What inheritance needs of a group statement's children, computed once per statement.
  final class GroupInfo {
    /// The children taking part (see ``groupChildren(_:)``), in order.
    var kids: [Int32] = []
    /// Whether each child has a wildcard word.
    var wildcard: [Bool] = []
    /// How each child is identified.
    var identities: [Identity] = []
    /// Whether each child has children.
    var hasChildren: [Bool] = []
    /// Number of children without wildcards.
    var literals = 0
    /// Positions of the children with wildcards.
    var wildcards: [Int] = []
    /// Positions of the children without wildcards by the hash of all their words, built when
    /// first needed (a group applied at many levels).
    var byWords: [UInt64: [Int]]? = nil
  }

  /// Children of one statement indexed by their first word and by their first two words.
  struct ChildIndex {
    /// The first child by key (most keys have one child: no array per key).
    var first: [UInt64: Int32] = [:]
    /// Later children with the same key, in order.
    var more: [UInt64: [Int32]] = [:]

    init(capacity: Int) { first.reserveCapacity(2 * capacity) }

    mutating func insert(_ y: Int32, _ key: UInt64) {
      if first[key] == nil { first[key] = y } else { more[key, default: []].append(y) }
    }

    /// The children with a key, in order.
    func candidates(_ key: UInt64) -> [Int32] {
      guard let f = first[key] else { return [] }
      return [f] + (more[key] ?? [])
    }
  }

  /// One level carrying `apply-groups`.
  struct Site {
    var depth: Int
    var node: Int32
    var names: [String]
  }

  var src: ConfigTree
  /// The shared bytes: the source's, and interface names an interface range adds (appended to
  /// ``src``, ``out`` and this copy alike, so word ranges mean the same in all three).
  var storage: [UInt8]
  var out: ConfigTree
  let model: ConfigModel
  /// Shapes of the source tree's statements (those inside `groups` among them).
  let shapes: StatementShapes
  /// Group definitions (`groups NAME`) by unquoted name, in document order.
  var groupRoots: [String: [Int32]] = [:]
  /// The `groups` block(s) at the top.
  var groupsBlocks: Set<Int32> = []
  var sites: [Site] = []
  var siteByNode: [Int32: Int] = [:]
  /// `apply-groups-except` names by statement of the result.
  var excepts: [Int32: Set<String>] = [:]
  /// Records of the result below this index are explicit statements.
  var explicitCount: Int32 = 0
  /// For each statement created from a group (index minus ``explicitCount``): its group statement.
  var createdFrom: [Int32] = []
  /// For each statement created from a group (index minus ``explicitCount``): its index in
  /// ``sources``.
  var createdSource: [Int32] = []
  /// The groups and interface ranges statements came from.
  var sources: [InheritedConfiguration.Source] = []
  var sourceIndex: [InheritedConfiguration.Source: Int32] = [:]
  /// The source of the statements ``create(_:under:)`` adds now.
  var currentSource: Int32 = -1
  /// `interface-range` statements of the source tree being expanded (their `member` and
  /// `member-range` children are not inherited).
  var rangeNodes: Set<Int32> = []
  var infoIndex: [Int32: Int] = [:]
  var infos: [GroupInfo] = []
  var contextCache: [Int32: String] = [:]
  /// Buffers of ``merge(_:into:group:)``.
  var scratch:
    (
      pending: [Int32], frames: [(node: Int32, start: Int, count: Int)], reached: [(node: Int32, seq: Int32, source: Int32)],
      targets: [Int32]
    ) = ([], [], [], [])

  init(_ tree: ConfigTree, model: ConfigModel) {
    src = tree
    storage = tree.storage
    self.model = model
    shapes = model.shapes(of: tree)
    var root = tree.nodes[0]
    root.parent = -1
    root.firstChild = -1
    root.lastChild = -1
    root.next = -1
    root.prev = -1
    var nodes: [NodeRecord] = []
    // Room for inherited statements too: pages never written are never touched.
    nodes.reserveCapacity(2 * tree.nodes.count)
    nodes.append(root)
    out = ConfigTree(
      storage: tree.storage, nodes: nodes, words: tree.words, extras: tree.extras, headers: tree.headers, path: tree.path)
    out.leadingCapture = tree.leadingCapture
    out.trailingCapture = tree.trailingCapture
  }

  // MARK: Words

  /// Whether a word is `groups`.
  static func isGroups(_ w: WordRef, _ s: UnsafeBufferPointer<UInt8>) -> Bool {
    guard w.end - w.start == 6 else { return false }
    let i = Int(w.start)
    return s[i] == 0x67 && s[i + 1] == 0x72 && s[i + 2] == 0x6F && s[i + 3] == 0x75 && s[i + 4] == 0x70 && s[i + 5] == 0x73
  }

  static let applyGroupsExcept: [UInt8] = Array("apply-groups-except".utf8)

  /// `false` for `apply-groups`, `true` for `apply-groups-except`, `nil` for any other word.
  static func applyKind(_ w: WordRef, _ s: UnsafeBufferPointer<UInt8>) -> Bool? {
    let n = Int(w.end - w.start)
    guard n == 12 || n == 19, s[Int(w.start)] == UInt8(ascii: "a") else { return nil }
    let i = Int(w.start)
    for k in 0..<n where s[i + k] != applyGroupsExcept[k] { return nil }
    return n == 19
  }

  /// The byte range of a word without surrounding double quotes.
  func bytes(_ w: WordRef) -> Range<Int> {
    let s = Int(w.start)
    let e = Int(w.end)
    if e - s >= 2 && storage[s] == 0x22 && storage[e - 1] == 0x22 { return (s + 1)..<(e - 1) }
    return s..<e
  }

  func text(_ w: WordRef) -> String { String(decoding: storage[bytes(w)], as: UTF8.self) }

  /// Whether two words are the same, quotes aside.
  func same(_ a: WordRef, _ b: WordRef) -> Bool {
    let x = bytes(a)
    let y = bytes(b)
    guard x.count == y.count else { return false }
    var i = x.lowerBound
    var j = y.lowerBound
    while i < x.upperBound {
      if storage[i] != storage[j] { return false }
      i += 1
      j += 1
    }
    return true
  }

  /// The glob pattern of a group identifier written `<pattern>`, or `nil` for a literal word.
  func pattern(_ w: WordRef) -> Range<Int>? {
    let u = bytes(w)
    guard u.count >= 2, storage[u.lowerBound] == UInt8(ascii: "<"), storage[u.upperBound - 1] == UInt8(ascii: ">") else {
      return nil
    }
    return (u.lowerBound + 1)..<(u.upperBound - 1)
  }

  func hash(_ w: WordRef, _ seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
    var h = seed
    for i in bytes(w) { h = (h ^ UInt64(storage[i])) &* 0x0000_0100_0000_01B3 }
    return (h ^ 0x20) &* 0x0000_0100_0000_01B3
  }

  // MARK: Explicit statements

  /// Copies the statements that are neither inactive, the `groups` block nor `apply-groups*`,
  /// recording the groups and where they are applied.
  mutating func copyExplicit() {
    var nodes = out.nodes
    out.nodes = []
    var applies: [(src: Int32, dst: Int32, depth: Int, except: Bool)] = []
    var blocks: [Int32] = []
    let srcNodes = src.nodes
    let srcWords = src.words
    srcNodes.withUnsafeBufferPointer { sn in
      srcWords.withUnsafeBufferPointer { sw in
        storage.withUnsafeBufferPointer { st in
          var stack: [(next: Int32, parent: Int32)] = []
          var c = sn[0].firstChild
          var dst: Int32 = 0
          while true {
            if c >= 0 {
              var r = sn[Int(c)]
              let next = r.next
              if r.flags.contains(.inactive) {
                c = next
                continue
              }
              if r.wordCount > 0 {
                let w0 = sw[Int(r.wordStart)]
                if let except = Self.applyKind(w0, st) {
                  applies.append((c, dst, stack.count, except))
                  c = next
                  continue
                }
                if stack.isEmpty && r.wordCount == 1 && Self.isGroups(w0, st) {
                  blocks.append(c)
                  c = next
                  continue
                }
              }
              let children = r.firstChild
              let id = Int32(nodes.count)
              let last = nodes[Int(dst)].lastChild
              r.parent = dst
              r.firstChild = -1
              r.lastChild = -1
              r.next = -1
              r.prev = last
              nodes.append(r)
              if last >= 0 { nodes[Int(last)].next = id } else { nodes[Int(dst)].firstChild = id }
              nodes[Int(dst)].lastChild = id
              if children >= 0 {
                stack.append((next, dst))
                dst = id
                c = children
              } else {
                c = next
              }
            } else if let (n, p) = stack.popLast() {
              c = n
              dst = p
            } else {
              break
            }
          }
        }
      }
    }
    out.nodes = nodes
    explicitCount = Int32(out.nodes.count)
    for a in applies { record(src.nodes[Int(a.src)], except: a.except, at: a.dst, depth: a.depth) }
    for b in blocks { recordGroups(b) }
  }

  /// Records the group names of an `apply-groups` or `apply-groups-except` statement.
  mutating func record(_ r: NodeRecord, except: Bool, at node: Int32, depth: Int) {
    let all = Int(r.wordCount) + max(Int(r.listCount), 0)
    let names = (1..<max(all, 1)).map { text(src.words[Int(r.wordStart) + $0]) }
    if except {
      excepts[node, default: []].formUnion(names)
    } else if let i = siteByNode[node] {
      sites[i].names.append(contentsOf: names)
    } else {
      siteByNode[node] = sites.count
      sites.append(Site(depth: depth, node: node, names: names))
    }
  }

  /// Records the active group definitions of a `groups` block.
  mutating func recordGroups(_ block: Int32) {
    groupsBlocks.insert(block)
    var g = src.nodes[Int(block)].firstChild
    while g >= 0 {
      let r = src.nodes[Int(g)]
      if !r.flags.contains(.inactive) && r.wordCount > 0 {
        groupRoots[text(src.words[Int(r.wordStart)]), default: []].append(g)
      }
      g = r.next
    }
  }

  // MARK: Groups

  /// Merges every applied group: deepest levels first and, at a level, in the listed order.
  mutating func expandGroups() {
    guard !sites.isEmpty, !groupRoots.isEmpty else { return }
    let order = sites.indices.sorted { (sites[$0].depth, -$0) > (sites[$1].depth, -$1) }
    var chain: [Int32] = []
    for s in order {
      let site = sites[s]
      for (k, name) in site.names.enumerated() where !site.names[..<k].contains(name) {
        if !excepts.isEmpty && excepts[site.node]?.contains(name) == true { continue }
        guard let roots = groupRoots[name] else { continue }
        use(.group(name))
        // The group's statements at the same hierarchy path as the level.
        chain.removeAll(keepingCapacity: true)
        var n = site.node
        while n > 0 {
          chain.append(n)
          n = out.nodes[Int(n)].parent
        }
        var matched = roots
        for step in chain.reversed() where !matched.isEmpty {
          matched = matched.flatMap { children(of: $0, matching: step) }
        }
        merge(matched, into: site.node, group: name)
      }
    }
    prune()
  }

  /// The children of group statement `g` that name result statement `y`, in group order.
  mutating func children(of g: Int32, matching y: Int32) -> [Int32] {
    let info = info(g)
    guard info.literals > 8 else { return info.kids.filter { matches($0, y) } }
    if info.byWords == nil {
      var index: [UInt64: [Int]] = [:]
      for (i, c) in info.kids.enumerated() where !info.wildcard[i] { index[wordsHash(src.nodes[Int(c)], src.words), default: []].append(i) }
      info.byWords = index
    }
    var found = info.byWords?[wordsHash(out.nodes[Int(y)], out.words)] ?? []
    found.append(contentsOf: info.wildcards)
    return found.sorted().map { info.kids[$0] }.filter { matches($0, y) }
  }

  /// A hash of a statement's words, quotes aside.
  func wordsHash(_ r: NodeRecord, _ words: [WordRef]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for i in 0..<Int(r.wordCount) { h = hash(words[Int(r.wordStart) + i], h) }
    return h
  }

  /// The children of a group statement that take part in inheritance: active ones, without
  /// `apply-groups*`, `apply-flags` (display flags of the group) and, at the top of a group,
  /// `when` (the group's conditions, which are not evaluated: the group always applies).
  func groupChildren(_ g: Int32) -> [Int32] {
    let top = groupsBlocks.contains(src.nodes[Int(g)].parent)
    let range = rangeNodes.contains(g)
    return storage.withUnsafeBufferPointer { st in
      var kids: [Int32] = []
      var c = src.nodes[Int(g)].firstChild
      while c >= 0 {
        let id = c
        let r = src.nodes[Int(c)]
        c = r.next
        if r.flags.contains(.inactive) { continue }
        if r.wordCount > 0 {
          let w = src.words[Int(r.wordStart)]
          if Self.applyKind(w, st) != nil { continue }
          let word = st[Int(w.start)..<Int(w.end)]
          if word.elementsEqual("apply-flags".utf8) || (top && word.elementsEqual("when".utf8)) { continue }
          if range && (word.elementsEqual("member".utf8) || word.elementsEqual("member-range".utf8)) { continue }
        }
        kids.append(id)
      }
      return kids
    }
  }

  /// What inheritance needs of group statement `g`'s children (computed once).
  mutating func info(_ g: Int32) -> GroupInfo {
    if let i = infoIndex[g] { return infos[i] }
    let info = GroupInfo()
    info.kids = groupChildren(g)
    let ctx = context(of: g)
    for c in info.kids {
      let r = src.nodes[Int(c)]
      let wild = (0..<Int(r.wordCount)).contains { pattern(src.words[Int(r.wordStart) + $0]) != nil }
      info.wildcard.append(wild)
      info.identities.append(identity(of: c, r, parent: ctx))
      info.hasChildren.append(r.firstChild >= 0)
      if wild { info.wildcards.append(info.wildcard.count - 1) } else { info.literals += 1 }
    }
    infoIndex[g] = infos.count
    infos.append(info)
    return info
  }

  /// The first word of the nearest statement at or above `g` (inside its group) that is a keyword:
  /// the context of keyword lookups for `g`'s children.
  mutating func context(of g: Int32) -> String {
    if let c = contextCache[g] { return c }
    let r = src.nodes[Int(g)]
    var result = ""
    if r.parent >= 0 && !groupsBlocks.contains(r.parent) {
      let w = r.wordCount > 0 ? text(src.words[Int(r.wordStart)]) : ""
      result = KeywordTable.looksLikeKeyword(w) ? w : context(of: r.parent)
    }
    contextCache[g] = result
    return result
  }

  /// How a group statement is identified among the children of a statement whose keyword
  /// context is `parent`.
  func identity(of c: Int32, _ r: NodeRecord, parent: String) -> Identity {
    let n = Int(r.wordCount)
    var id = Identity(count: n, exact: true, list: false)
    guard n > 0 else { return id }
    let keyword = text(src.words[Int(r.wordStart)])
    let leaf = r.firstChild < 0 && !r.flags.contains(.block)
    let shape = shapes[NodeID(c)]
    if let head = shape.head, let m = model.matcher {
      switch m.schema.kind(head) {
      case .leaf where leaf: id = Identity(count: shape.identity, exact: false, list: false)
      case .leafList where leaf: id = Identity(count: shape.identity, exact: false, list: true)
      case .list, .container:
        if shape.identity < n { id = Identity(count: shape.identity, exact: false, list: false) }
      default: break
      }
    } else if KeywordTable.looksLikeKeyword(keyword), let e = model.keywords.entry(keyword, parent: parent) {
      switch e.kind {
      case .keyed where n > e.keys: id = Identity(count: 1 + e.keys, exact: false, list: false)
      case .value where leaf: id = Identity(count: 1, exact: false, list: false)
      case .list where leaf: id = Identity(count: 1, exact: false, list: true)
      default: break
      }
    }
    // A `[ ]` list in the text shows a set of values even for keywords the table lacks.
    if leaf && r.listCount >= 0 { id.list = true }
    return id
  }

  /// Whether group statement `g` names result statement `y`: same number of words, each equal or
  /// matched by a wildcard.
  func matches(_ g: Int32, _ y: Int32) -> Bool {
    let a = src.nodes[Int(g)]
    let b = out.nodes[Int(y)]
    guard a.wordCount == b.wordCount else { return false }
    for i in 0..<Int(a.wordCount) {
      let wa = src.words[Int(a.wordStart) + i]
      let wb = out.words[Int(b.wordStart) + i]
      if let p = pattern(wa) {
        if !glob(p, bytes(wb)) { return false }
      } else if !same(wa, wb) {
        return false
      }
    }
    return true
  }

  /// Whether group statement `g` and result statement `y` have the same words and `[ ]` values.
  func fullyEqual(_ g: Int32, _ y: Int32) -> Bool {
    let a = src.nodes[Int(g)]
    let b = out.nodes[Int(y)]
    guard a.wordCount == b.wordCount, a.listCount == b.listCount else { return false }
    for i in 0..<Int(a.wordCount + max(a.listCount, 0))
    where !same(src.words[Int(a.wordStart) + i], out.words[Int(b.wordStart) + i]) {
      return false
    }
    return true
  }

  /// Whether result statement `y` has the identity of group statement `c`.
  func hasIdentity(_ y: Int32, of c: Int32, _ id: Identity) -> Bool {
    let a = src.nodes[Int(c)]
    let b = out.nodes[Int(y)]
    guard Int(b.wordCount) >= id.count, !id.exact || b.wordCount == a.wordCount else { return false }
    for i in 0..<id.count where !same(src.words[Int(a.wordStart) + i], out.words[Int(b.wordStart) + i]) {
      return false
    }
    return true
  }

  func add(_ y: Int32, to index: inout ChildIndex) {
    let r = out.nodes[Int(y)]
    guard r.wordCount > 0 else { return }
    let h = hash(out.words[Int(r.wordStart)])
    // Keys for lookups by one word and by two words (seeded apart).
    index.insert(y, h)
    if r.wordCount >= 2 { index.insert(y, hash(out.words[Int(r.wordStart) + 1], ~h)) }
  }

  /// The first child of `x` with the identity of group statement `c`.
  func find(_ c: Int32, _ id: Identity, in x: Int32, index: ChildIndex?) -> Int32? {
    if let index {
      let r = src.nodes[Int(c)]
      guard r.wordCount > 0 else { return nil }
      let h = hash(src.words[Int(r.wordStart)])
      let key = id.count >= 2 ? hash(src.words[Int(r.wordStart) + 1], ~h) : h
      return index.candidates(key).first { hasIdentity($0, of: c, id) }
    }
    var y = out.nodes[Int(x)].firstChild
    while y >= 0 {
      if hasIdentity(y, of: c, id) { return y }
      y = out.nodes[Int(y)].next
    }
    return nil
  }

  /// Merges the children of group statements `sources` (in priority order) into result
  /// statement `site`, then recursively the group statements that reached each child.
  ///
  /// Depth first, one result statement at a time: all group statements reaching a statement are
  /// merged into it in priority order before any of its children is visited, so for any one
  /// statement earlier sources arrive first and win.
  mutating func merge(_ sources: [Int32], into site: Int32, group name: String) {
    // Frames of the walk: a result statement and its group statements, a slice of `pending`.
    // Buffers kept between calls (a group applied at many levels merges many times).
    var (pending, frames, reached, targets) = scratch
    scratch = ([], [], [], [])
    defer { scratch = (pending, frames, reached, targets) }
    pending.removeAll(keepingCapacity: true)
    pending.append(contentsOf: sources)
    frames.removeAll(keepingCapacity: true)
    frames.append((site, 0, sources.count))
    while let frame = frames.popLast() {
      let x = frame.node
      reached.removeAll(keepingCapacity: true)
      if excepts.isEmpty || excepts[x]?.contains(name) != true {
        for j in frame.start..<(frame.start + frame.count) {
          mergeChildren(of: pending[j], into: x, targets: &targets, reached: &reached)
        }
      }
      pending.removeSubrange(frame.start..<pending.count)
      guard !reached.isEmpty else { continue }
      // Children come in child order (ids grow along a child list) unless several sources
      // reached them: sort by statement, keeping source order.
      var sorted = true
      for i in 1..<reached.count where reached[i].node < reached[i - 1].node {
        sorted = false
        break
      }
      if !sorted { reached.sort { ($0.node, $0.seq) < ($1.node, $1.seq) } }
      // Push one frame per statement, last first, so the first is visited first.
      var end = reached.count
      while end > 0 {
        var start = end - 1
        while start > 0 && reached[start - 1].node == reached[end - 1].node { start -= 1 }
        frames.append((reached[start].node, pending.count, end - start))
        for i in start..<end { pending.append(reached[i].source) }
        end = start
      }
    }
  }

  /// Merges the children of group statement `g` into result statement `x`: literal statements
  /// find (or create) their statement first, so that wildcards also reach statements the group
  /// itself creates; then the (statement, group child) pairs to descend into are appended to
  /// `reached` in group order.
  mutating func mergeChildren(
    of g: Int32, into x: Int32, targets: inout [Int32], reached: inout [(node: Int32, seq: Int32, source: Int32)]
  ) {
    let info = info(g)
    if info.kids.isEmpty { return }
    targets.removeAll(keepingCapacity: true)
    targets.append(contentsOf: repeatElement(-1, count: info.kids.count))
    if info.literals > 0 {
      var index: ChildIndex? = nil
      if info.literals > 1 {
        var childCount = 0
        var y = out.nodes[Int(x)].firstChild
        while y >= 0 && childCount <= 16 {
          childCount += 1
          y = out.nodes[Int(y)].next
        }
        if childCount > 16 {
          while y >= 0 {
            childCount += 1
            y = out.nodes[Int(y)].next
          }
          var built = ChildIndex(capacity: childCount)
          y = out.nodes[Int(x)].firstChild
          while y >= 0 {
            add(y, to: &built)
            y = out.nodes[Int(y)].next
          }
          index = built
        }
      }
      for (i, c) in info.kids.enumerated() where !info.wildcard[i] {
        let id = info.identities[i]
        if let y = find(c, id, in: x, index: index) {
          if fullyEqual(c, y) {
            targets[i] = y
          } else if id.list && out.nodes[Int(y)].firstChild < 0 {
            unionValues(into: y, from: c, after: id.count)
          }
        } else {
          let y = create(c, under: x)
          if index != nil { add(y, to: &index!) }
          targets[i] = y
        }
      }
    }
    for (i, c) in info.kids.enumerated() where info.hasChildren[i] {
      if info.wildcard[i] {
        var y = out.nodes[Int(x)].firstChild
        while y >= 0 {
          if matches(c, y) { reached.append((y, Int32(truncatingIfNeeded: reached.count), c)) }
          y = out.nodes[Int(y)].next
        }
      } else if targets[i] >= 0 {
        reached.append((targets[i], Int32(truncatingIfNeeded: reached.count), c))
      }
    }
  }

  /// Adds a copy of group statement `c` (without its children) as the last child of `x`.
  mutating func create(_ c: Int32, under x: Int32) -> Int32 {
    var rec = src.nodes[Int(c)]
    rec.firstChild = -1
    rec.lastChild = -1
    let id = Int32(out.nodes.count)
    out.nodes.append(rec)
    out.link(id, parent: x)
    if x > 0 { out.nodes[Int(x)].flags.insert(.block) }
    createdFrom.append(c)
    createdSource.append(currentSource)
    return id
  }

  /// Inherits all values of a set: `keyword [ a b ]` and a group's `keyword [ b c ]` make
  /// `keyword [ a b c ]`; the values are the words after the first `identity` ones.
  mutating func unionValues(into y: Int32, from c: Int32, after identity: Int) {
    func values(_ r: NodeRecord, _ words: [WordRef]) -> [WordRef] {
      let start = Int(r.wordStart) + identity
      let end = Int(r.wordStart + r.wordCount) + max(Int(r.listCount), 0)
      return start < end ? Array(words[start..<end]) : []
    }
    let yr = out.nodes[Int(y)]
    let have = values(yr, out.words)
    let missing = values(src.nodes[Int(c)], src.words).filter { v in !have.contains { same($0, v) } }
    guard !missing.isEmpty else { return }
    let head = Array(out.words[Int(yr.wordStart)..<Int(yr.wordStart) + identity])
    out.setWordRefs(head, list: have + missing, of: NodeID(y))
  }

  /// Removes statements created from a group block that received no children (a block holding
  /// only wildcards that matched nothing), innermost first.
  mutating func prune() {
    var id = Int32(out.nodes.count) - 1
    while id >= explicitCount {
      let r = out.nodes[Int(id)]
      if r.parent >= 0 && r.firstChild < 0 && src.nodes[Int(createdFrom[Int(id - explicitCount)])].firstChild >= 0 {
        out.unlink(id)
        out.nodes[Int(id)].parent = -1
      }
      id -= 1
    }
  }

  // MARK: Wildcards

  /// ``Wildcard/matches(_:_:)`` of the bytes in `s` against the pattern in `p` (both ranges of
  /// ``storage``).
  func glob(_ p: Range<Int>, _ s: Range<Int>) -> Bool { Wildcard.matches(storage[p], storage[s]) }
}

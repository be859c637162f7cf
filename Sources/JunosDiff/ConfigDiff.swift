public import JunosConfig

/// What decides how two configurations are matched.
public struct DiffOptions: Sendable {
  /// Decides which words identify a statement among its siblings (`host-name` for
  /// `host-name r1;`, `route 10.0.0.0/8` for a static-route oneliner): Juniper's schema, and the
  /// keyword table where the schema does not know a statement.
  public var model: ConfigModel
  /// Keywords whose statements form ordered lists: moving one of them is a change (shown with
  /// `!`, or `insert` in set form). Elsewhere Junos orders statements itself, so order does not
  /// count.
  public var orderedKeywords: Set<String>

  /// The lists Junos evaluates in order: policy and firewall-filter terms, security policies,
  /// NAT rules and rule-sets.
  public static let standardOrderedKeywords: Set<String> = ["term", "policy", "rule", "rule-set"]

  /// Creates options with the built-in model and ordered lists.
  public init(model: ConfigModel = .standard, orderedKeywords: Set<String> = DiffOptions.standardOrderedKeywords) {
    self.model = model
    self.orderedKeywords = orderedKeywords
  }
}

/// The hierarchical difference between two configurations, in the shape Junos prints it: groups
/// of changes under one parent statement (one `[edit …]` banner each), in document order.
///
/// `## Last commit` / `## Last changed` headers and `#` comments are not configuration and do not
/// count; annotations (`/* … */`) do.
public struct ConfigDiff: Sendable {
  /// The configuration the changes apply to.
  public let old: ConfigTree
  /// The configuration they produce.
  public let new: ConfigTree
  /// The options the configurations were matched with.
  public let options: DiffOptions
  /// The groups of changes, in document order. The same parent can head several groups when a
  /// change inside one of its children comes between them (Junos repeats the banner then).
  public internal(set) var groups: [Group]
  /// Statements matched by identity under parents whose subtrees differ (old, new), in the order
  /// they were visited. Statements under two subtrees with equal digests are not listed: those
  /// subtrees are the same statement for statement, in order.
  public internal(set) var matches: [(old: NodeID, new: NodeID)]
  /// Whether repeated sibling statements were merged: ``old`` and ``new`` are then merged copies
  /// of the configurations given (with the same node IDs; the repeats are unlinked).
  public let mergedDuplicates: Bool
  /// ``ConfigTree/subtreeDigests()`` of ``old``.
  public let oldDigests: [UInt64]
  /// ``ConfigTree/subtreeDigests()`` of ``new``.
  public let newDigests: [UInt64]

  /// Changes under one parent statement.
  public struct Group: Sendable, Hashable {
    /// The parent in ``ConfigDiff/old`` (the root for `[edit]`).
    public var oldParent: NodeID
    /// The same parent in ``ConfigDiff/new``.
    public var newParent: NodeID
    /// The changes, in the order they are printed.
    public var items: [Item]
  }

  /// One change (or one line of context) under a group's parent.
  public enum Item: Sendable, Hashable {
    /// An unchanged statement shown as `stmt { ... }` to say where the next insertion goes.
    case context(new: NodeID)
    /// A statement (and its subtree) only in the new configuration.
    case added(new: NodeID)
    /// A statement (and its subtree) only in the old configuration.
    case deleted(old: NodeID)
    /// The same statement with another value (`host-name a` → `host-name b`, `route X
    /// next-hop A` → `route X next-hop B`): shown as `-` old then `+` new.
    case changed(old: NodeID, new: NodeID)
    /// An entry of an ordered list (a term, a policy) now after the statement before it.
    case moved(old: NodeID, new: NodeID)
    /// `inactive:` or `protect:` set or cleared.
    case flags(old: NodeID, new: NodeID)
    /// The annotation (`/* … */`) added, changed or removed.
    case annotation(old: NodeID, new: NodeID)
  }

  /// Whether the configurations are the same.
  public var isEmpty: Bool { groups.isEmpty }

  /// Counts of each kind of change (context lines excluded).
  public var counts: [String: Int] {
    var c: [String: Int] = [:]
    for g in groups {
      for item in g.items {
        switch item {
        case .context: continue
        case .added: c["added", default: 0] += 1
        case .deleted: c["deleted", default: 0] += 1
        case .changed: c["changed", default: 0] += 1
        case .moved: c["moved", default: 0] += 1
        case .flags: c["flags", default: 0] += 1
        case .annotation: c["annotation", default: 0] += 1
        }
      }
    }
    return c
  }

  /// Compares two configurations. Sibling blocks with the same words are merged first, as Junos
  /// merges them on load.
  ///
  /// Statements are matched among their siblings by identity (their keyword and keys, see
  /// ``DiffOptions/model``); subtrees with equal digests are skipped without being looked at,
  /// so the cost is linear in the size of the inputs and small where they agree.
  ///
  /// - Parameters:
  ///   - old: The configuration the changes apply to.
  ///   - new: The configuration they produce.
  ///   - options: Keywords and ordered lists.
  ///   - oldDigests: `old.subtreeDigests()` when the caller has them already (a chain of
  ///     comparisons computes each configuration's digests once).
  ///   - newDigests: `new.subtreeDigests()`, likewise.
  public init(
    from old: ConfigTree, to new: ConfigTree, options: DiffOptions = DiffOptions(), oldDigests: [UInt64]? = nil,
    newDigests: [UInt64]? = nil
  ) {
    var engine = DiffEngine(
      old: old, new: new, options: options, oldDigest: oldDigests ?? old.subtreeDigests(),
      newDigest: newDigests ?? new.subtreeDigests())
    var groups = engine.run()
    var old = old
    var new = new
    var merged = false
    if engine.sawDuplicates || engine.sawLayout {
      // Repeated statements (`interfaces { a } interfaces { b }`) are one to Junos, and so are a
      // one-liner and the same statement as a block (`overload timeout 300;`,
      // `overload { timeout 300; }`). Only where the configurations differ can they matter, so
      // they are looked for there, and merged or folded (a copy of both trees) only when found.
      // Both unlink statements and keep every NodeID, so callers' node tables stay valid.
      if engine.sawDuplicates {
        let mergedOld = old.mergeDuplicateBlocks()
        let mergedNew = new.mergeDuplicateBlocks()
        merged = mergedOld || mergedNew
      }
      if engine.sawLayout {
        old.foldOneliners(model: options.model)
        new.foldOneliners(model: options.model)
      }
      engine = DiffEngine(old: old, new: new, options: options, oldDigest: old.subtreeDigests(), newDigest: new.subtreeDigests())
      groups = engine.run()
    }
    self.old = old
    self.new = new
    self.options = options
    self.groups = groups
    self.matches = engine.matches
    self.mergedDuplicates = merged
    self.oldDigests = engine.oldDigest
    self.newDigests = engine.newDigest
    self.oldShapes = engine.oldShapes
    self.newShapes = engine.newShapes
  }

  /// The shapes of the statements the comparison looked at (children of parents whose subtrees
  /// differ, and those parents), by node index.
  let oldShapes: NodeMap<StatementShape>
  let newShapes: NodeMap<StatementShape>

  /// The shape of a statement of ``old``.
  public func shape(old node: NodeID) -> StatementShape { oldShapes[node] ?? options.model.shape(of: node, in: old) }
  /// The shape of a statement of ``new``.
  public func shape(new node: NodeID) -> StatementShape { newShapes[node] ?? options.model.shape(of: node, in: new) }
}

/// Where the next insertion under a parent would go when the changes are applied in order (see
/// `ChangeApplier`): the renderer prints a context line when this is not where it must go.
enum Cursor: Equatable {
  /// Start of a group: placement by default rules.
  case unset
  /// At the start of the parent.
  case front
  /// After this statement (of the new tree).
  case after(NodeID)
  /// Not predictable: print context.
  case unknown
}

struct DiffEngine {
  let old: ConfigTree
  let new: ConfigTree
  let options: DiffOptions
  let oldDigest: [UInt64]
  let newDigest: [UInt64]
  var groups: [ConfigDiff.Group] = []
  /// Whether some parent visited has two children with the same line (see `ConfigDiff.init`).
  var sawDuplicates = false
  /// Whether a statement matched is a block on one side and a line on the other (see
  /// `ConfigDiff.init`).
  var sawLayout = false
  /// Children matched under the parents visited.
  var matches: [(old: NodeID, new: NodeID)] = []
  /// Shapes of the statements looked at, and the keyword ancestors of their children.
  var oldShapes: NodeMap<StatementShape>
  var newShapes: NodeMap<StatementShape>
  var oldAncestors: NodeMap<KeywordAncestors>
  var newAncestors: NodeMap<KeywordAncestors>

  init(old: ConfigTree, new: ConfigTree, options: DiffOptions, oldDigest: [UInt64], newDigest: [UInt64]) {
    self.old = old
    self.new = new
    self.options = options
    self.oldDigest = oldDigest
    self.newDigest = newDigest
    // (The digests have an entry per record of their tree.)
    oldShapes = NodeMap(count: oldDigest.count)
    newShapes = NodeMap(count: newDigest.count)
    oldAncestors = NodeMap(count: oldDigest.count)
    newAncestors = NodeMap(count: newDigest.count)
    oldAncestors[ConfigTree.root] = KeywordAncestors()
    newAncestors[ConfigTree.root] = KeywordAncestors()
  }

  /// The planned changes under one parent, with markers where changes inside a child come.
  enum Event {
    case item(ConfigDiff.Item)
    case descend(old: NodeID, new: NodeID)
  }

  struct Frame {
    var oldParent: NodeID
    var newParent: NodeID
    var events: [Event]
    var next = 0
  }

  mutating func run() -> [ConfigDiff.Group] {
    guard oldDigest[0] != newDigest[0] else { return [] }
    oldShapes[ConfigTree.root] = options.model.shape(of: ConfigTree.root, in: old)
    newShapes[ConfigTree.root] = options.model.shape(of: ConfigTree.root, in: new)
    var stack = [Frame(oldParent: ConfigTree.root, newParent: ConfigTree.root, events: events(ConfigTree.root, ConfigTree.root))]
    var current: [ConfigDiff.Item] = []
    while !stack.isEmpty {
      let top = stack.count - 1
      if stack[top].next == stack[top].events.count {
        flush(&current, stack[top])
        stack.removeLast()
        continue
      }
      let e = stack[top].events[stack[top].next]
      stack[top].next += 1
      switch e {
      case .item(let item):
        current.append(item)
      case .descend(let o, let n):
        flush(&current, stack[top])
        stack.append(Frame(oldParent: o, newParent: n, events: events(o, n)))
      }
    }
    return groups
  }

  mutating func flush(_ items: inout [ConfigDiff.Item], _ frame: Frame) {
    guard !items.isEmpty else { return }
    groups.append(ConfigDiff.Group(oldParent: frame.oldParent, newParent: frame.newParent, items: items))
    items.removeAll()
  }

  // MARK: matching children

  /// How many leading words identify child `c` of `parent` among its siblings (its shape's
  /// ``StatementShape/identity``); the shape is kept for the renderers.
  mutating func identity(old c: NodeID, parent: NodeID) -> Int {
    Self.identity(c, parent: parent, in: old, model: options.model, shapes: &oldShapes, ancestors: &oldAncestors)
  }

  mutating func identity(new c: NodeID, parent: NodeID) -> Int {
    Self.identity(c, parent: parent, in: new, model: options.model, shapes: &newShapes, ancestors: &newAncestors)
  }

  static func identity(
    _ c: NodeID, parent: NodeID, in tree: ConfigTree, model: ConfigModel, shapes: inout NodeMap<StatementShape>,
    ancestors: inout NodeMap<KeywordAncestors>
  ) -> Int {
    let kw = ancestors[parent] ?? KeywordAncestors()
    let s = model.shape(of: c, in: tree, context: shapes[parent]?.children ?? .unknown, ancestors: kw)
    shapes[c] = s
    if tree.firstChild(of: c) != nil { ancestors[c] = kw.below(c, in: tree) }
    return s.identity
  }

  static func hashWords(_ tree: ConfigTree, _ node: NodeID, _ count: Int) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for i in 0..<count {
      for b in tree.wordBytes(i, of: node) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
      h = (h ^ 0x20) &* 0x0000_0100_0000_01B3
    }
    return h
  }

  /// Two siblings Junos would merge: the same words and `[ ]` values.
  static func sameLine(_ t: ConfigTree, _ x: NodeID, _ y: NodeID) -> Bool {
    let n = t.wordCount(of: x)
    guard n > 0, n == t.wordCount(of: y), t.listValues(of: x) == t.listValues(of: y) else { return false }
    return sameWords(t, x, t, y, n)
  }

  static func sameWords(_ a: ConfigTree, _ x: NodeID, _ b: ConfigTree, _ y: NodeID, _ count: Int) -> Bool {
    for i in 0..<count where !a.wordBytes(i, of: x).elementsEqual(b.wordBytes(i, of: y)) { return false }
    return true
  }

  /// Whether two matched statements differ in their own line (words or `[ ]` values), not below.
  /// A leaf that gains children (`ssh;` → `ssh { root-login deny; }`) only changes below, as
  /// Junos shows it (`[edit system services ssh]`).
  func lineDiffers(_ o: NodeID, _ n: NodeID) -> Bool {
    let wc = old.wordCount(of: o)
    let lo = old.listValues(of: o)
    let ln = new.listValues(of: n)
    // A one-value list is the same as that value as a last word (`members [ a ]`, `members a`).
    if let lo, lo.count == 1, ln == nil {
      return wc + 1 != new.wordCount(of: n) || !Self.sameWords(old, o, new, n, wc) || new.word(wc, of: n) != lo[0]
    }
    if let ln, ln.count == 1, lo == nil {
      let nc = new.wordCount(of: n)
      return wc != nc + 1 || !Self.sameWords(old, o, new, n, nc) || old.word(nc, of: o) != ln[0]
    }
    if wc != new.wordCount(of: n) { return true }
    if !Self.sameWords(old, o, new, n, wc) { return true }
    return lo != ln
  }

  static let flagMask: StatementFlags = [.inactive, .protect]

  /// The events under a pair of parents whose subtrees differ.
  mutating func events(_ op: NodeID, _ np: NodeID) -> [Event] {
    let oc = Array(old.children(of: op))
    let nc = Array(new.children(of: np))

    // Match by identity, the k-th occurrence of a key with the k-th.
    var oldByKey: [UInt64: [Int]] = [:]
    oldByKey.reserveCapacity(oc.count)
    var oldIdc = [Int](repeating: 0, count: oc.count)
    for (i, c) in oc.enumerated() {
      let k = identity(old: c, parent: op)
      oldIdc[i] = k
      let h = Self.hashWords(old, c, k)
      if let list = oldByKey[h], list.suffix(8).contains(where: { Self.sameLine(old, oc[$0], c) }) { sawDuplicates = true }
      oldByKey[h, default: []].append(i)
    }
    // Among statements with the same identity, one with the very same line is preferred
    // (`interfaces { … }` pairs with `interfaces { … }`, not with a stray `interfaces x;`).
    var firstFree: [UInt64: Int] = [:]
    var matchOfNew = [Int](repeating: -1, count: nc.count)
    var matchOfOld = [Int](repeating: -1, count: oc.count)
    var newByKey: [UInt64: [Int]] = [:]
    for (j, c) in nc.enumerated() {
      let k = identity(new: c, parent: np)
      let h = Self.hashWords(new, c, k)
      if let list = newByKey[h], list.suffix(8).contains(where: { Self.sameLine(new, nc[$0], c) }) { sawDuplicates = true }
      newByKey[h, default: []].append(j)
      guard let list = oldByKey[h] else { continue }
      var t = firstFree[h, default: 0]
      while t < list.count && matchOfOld[list[t]] >= 0 { t += 1 }
      firstFree[h] = t
      var pick = -1
      var scanned = 0
      var u = t
      while u < list.count && scanned < 8 {
        let i = list[u]
        u += 1
        guard matchOfOld[i] < 0, oldIdc[i] == k, Self.sameWords(old, oc[i], new, c, k) else { continue }
        scanned += 1
        if pick < 0 { pick = i }
        if !lineDiffers(oc[i], c) && (old.firstChild(of: oc[i]) != nil) == (new.firstChild(of: c) != nil) {
          pick = i
          break
        }
      }
      if pick >= 0 {
        matchOfNew[j] = pick
        matchOfOld[pick] = j
        if old.isBlock(oc[pick]) != new.isBlock(c) { sawLayout = true }
      }
    }

    // Ordered-list entries out of order are moves; the longest increasing run stays put.
    var moved = [Bool](repeating: false, count: nc.count)
    var orderedNew: [Int] = []
    for j in 0..<nc.count where matchOfNew[j] >= 0 && isOrdered(new, nc[j]) { orderedNew.append(j) }
    if orderedNew.count > 1 {
      let keep = Set(longestIncreasing(orderedNew.map { matchOfNew[$0] }).map { orderedNew[$0] })
      for j in orderedNew where !keep.contains(j) { moved[j] = true }
    }

    // The old index of the next matched statement that stays put, from each new position.
    var nextAnchor = [Int](repeating: oc.count, count: nc.count + 1)
    if !nc.isEmpty {
      for j in stride(from: nc.count - 1, through: 0, by: -1) {
        nextAnchor[j] = matchOfNew[j] >= 0 && !moved[j] ? matchOfNew[j] : nextAnchor[j + 1]
      }
    }

    var out: [Event] = []
    var deletedUpTo = 0
    var emittedMoved = Set<Int>()  // old indices of moved statements already printed
    var cursor = Cursor.unset

    func deleteBefore(_ limit: Int) {
      while deletedUpTo < min(limit, oc.count) {
        let i = deletedUpTo
        deletedUpTo += 1
        guard matchOfOld[i] < 0 else { continue }
        out.append(.item(.deleted(old: oc[i])))
        // Where an insertion right after this deletion lands: after the nearest earlier
        // statement still there.
        cursor = .front
        var k = i - 1
        while k >= 0 {
          if matchOfOld[k] >= 0 {
            let j = matchOfOld[k]
            if !moved[j] {
              cursor = .after(nc[j])
              break
            }
            if !emittedMoved.contains(k) {
              cursor = .unknown
              break
            }
          }
          k -= 1
        }
      }
    }

    /// Whether `j` needs a context line: its predecessor is not where the cursor is, and
    /// either order counts for it or Junos would show its neighbour in the same list.
    func placeWithContext(_ j: Int) {
      let pred = j > 0 ? nc[j - 1] : nil
      let ordered = isOrdered(new, nc[j])
      let want: Cursor = pred.map { .after($0) } ?? .front
      if cursor == want || (cursor == .unset && want == .front) { return }
      guard let pred else { return }  // a first entry: default placement puts it first
      if ordered || (new.wordCount(of: pred) > 0 && new.wordCount(of: nc[j]) > 0 && new.word(0, of: pred) == new.word(0, of: nc[j])) {
        out.append(.item(.context(new: pred)))
      }
    }

    for j in 0..<nc.count {
      let n = nc[j]
      let i = matchOfNew[j]
      // A new first entry of an ordered list comes before any deletion, so that it lands first;
      // otherwise deletions come first, as Junos prints them.
      if i < 0 {
        if j > 0 || !isOrdered(new, n) { deleteBefore(nextAnchor[j]) }
        placeWithContext(j)
        out.append(.item(.added(new: n)))
        cursor = .after(n)
        continue
      }
      let o = oc[i]
      matches.append((o, n))
      if moved[j] {
        if j > 0 || !isOrdered(new, n) { deleteBefore(nextAnchor[j]) }
        placeWithContext(j)
        out.append(.item(.moved(old: o, new: n)))
        emittedMoved.insert(i)
        cursor = .after(n)
      } else {
        deleteBefore(i)
        deletedUpTo = max(deletedUpTo, i + 1)
      }
      if oldDigest[o.index] == newDigest[n.index] { continue }
      if lineDiffers(o, n) {
        out.append(.item(.changed(old: o, new: n)))
        cursor = .after(n)
        continue
      }
      if old.flags(of: o).intersection(Self.flagMask) != new.flags(of: n).intersection(Self.flagMask) {
        out.append(.item(.flags(old: o, new: n)))
        cursor = .after(n)
      }
      if old.comparableAnnotation(of: o) != new.comparableAnnotation(of: n) {
        out.append(.item(.annotation(old: o, new: n)))
        cursor = .after(n)
      }
      if childrenDiffer(o, n) {
        out.append(.descend(old: o, new: n))
        cursor = .unset
      }
    }
    deleteBefore(oc.count)
    return out
  }

  func childrenDiffer(_ o: NodeID, _ n: NodeID) -> Bool {
    var a = old.firstChild(of: o)
    var b = new.firstChild(of: n)
    while let x = a, let y = b {
      if oldDigest[x.index] != newDigest[y.index] { return true }
      a = old.nextSibling(of: x)
      b = new.nextSibling(of: y)
    }
    return a != nil || b != nil
  }

  func isOrdered(_ tree: ConfigTree, _ node: NodeID) -> Bool {
    tree.wordCount(of: node) > 1 && options.orderedKeywords.contains(tree.word(0, of: node))
  }
}

/// Indices of one longest strictly increasing subsequence of `values` (patience sorting).
func longestIncreasing(_ values: [Int]) -> [Int] {
  var tails: [Int] = []  // index into values of the smallest tail of each length
  var prev = [Int](repeating: -1, count: values.count)
  for (i, v) in values.enumerated() {
    var lo = 0
    var hi = tails.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
    }
    if lo > 0 { prev[i] = tails[lo - 1] }
    if lo == tails.count { tails.append(i) } else { tails[lo] = i }
  }
  var out: [Int] = []
  var k = tails.last ?? -1
  while k >= 0 {
    out.append(k)
    k = prev[k]
  }
  return out.reversed()
}

/// Values by statement in an array indexed by the statement's record (``NodeID/index``): the
/// comparison looks up a shape and keyword ancestors for every statement it visits, and hashing
/// each `NodeID` into a dictionary was a tenth of its time.
struct NodeMap<Value: Sendable>: Sendable {
  private var values: [Value?]

  /// An empty map for a tree of `count` records (a statement past them grows it).
  init(count: Int) { values = Array(repeating: nil, count: count) }

  subscript(node: NodeID) -> Value? {
    get { node.index < values.count ? values[node.index] : nil }
    set {
      if node.index >= values.count { values += repeatElement(nil, count: node.index + 1 - values.count) }
      values[node.index] = newValue
    }
  }
}

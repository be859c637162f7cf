/// Where a statement's identifier ends, per keyword: the one piece of schema knowledge
/// junoscope needs.
///
/// Curly text shows where each statement ends (`unit 0 {`, `family inet {`); `display set`
/// text does not (`set interfaces xe-0/0/0 unit 0 family inet address 10.0.0.1/30`). This table
/// says, for a keyword (optionally in the context of its parent's keyword), what shape its
/// statement has, so `set` lines rebuild the device's own curly form. It is data: the built-in
/// entries were learned from real device configurations (see `Docs/Keywords.md`), and
/// ``learn(from:)`` extends a table from any curly configuration.
public struct KeywordTable: Sendable, Hashable {
  /// The shape of the statements a keyword starts.
  public enum Kind: String, Sendable, Hashable {
    /// `keyword { … }` — a container without identifier (`protocols`, `family inet`'s `filter`).
    case container
    /// A container whose children are named blocks (`interfaces { xe-0/0/0 { … } }`).
    case named
    /// `keyword ID… { … }` or `keyword ID…;` — identified by `keys` words after the keyword.
    case keyed
    /// `keyword VALUE…;` — a single-valued leaf; setting it again replaces the value.
    case value
    /// `keyword [ V1 V2 ];` — a leaf list; each `set` adds a value.
    case list
    /// A container the device prints on one line as `keyword` and pairs of child keyword and
    /// value (`srgb start-label 16000 index-range 80000;`); `display set` prints one line a pair.
    case flat
  }

  /// What is known of one keyword.
  public struct Entry: Sendable, Hashable {
    /// The statement shape.
    public var kind: Kind
    /// For ``Kind/keyed``: number of identifier words after the keyword.
    public var keys: Int
    /// For ``Kind/keyed`` and ``Kind/container``: the device prints `keyword [ID] child…;` on one
    /// line when the statement has a single leaf child (`route 10.0.0.0/8 next-hop 10.1.1.1;`,
    /// `then accept;`).
    public var oneliner: Bool { !onelinerChildren.isEmpty }
    /// The child keywords the device prints on the statement's line (`next-hop`, `accept`);
    /// `*` stands for a positional value (`address NAME 10.0.0.0/24;`).
    public var onelinerChildren: Set<String>

    /// Creates an entry.
    public init(_ kind: Kind, keys: Int = 0, onelinerChildren: Set<String> = []) {
      self.kind = kind
      self.keys = keys
      self.onelinerChildren = onelinerChildren
    }

    /// Whether a child starting with `word` is printed on the statement's line.
    public func printsOnOneLine(_ word: String) -> Bool {
      onelinerChildren.contains(KeywordTable.looksLikeKeyword(word) ? word : "*")
    }
  }

  /// Entries by keyword (`"unit"`) and by parent keyword and keyword (`"then community"`).
  public private(set) var entries: [String: Entry]
  /// Keywords that have at least one context-specific entry (most have none: one lookup).
  private var contextualKeywords: Set<String> = []

  /// An empty table: every `set` line is split by the built-in default rules alone.
  public init() {
    entries = [:]
    contextualKeywords = []
  }

  /// The built-in table (learned from real configurations, plus curated entries).
  public static let standard: KeywordTable = {
    var t = KeywordTable()
    t.load(KeywordTable.builtinData)
    return t
  }()

  /// The entry for `keyword` under a statement whose first word is `parent` (`""` at the top).
  public func entry(_ keyword: some StringProtocol, parent: some StringProtocol) -> Entry? {
    if !parent.isEmpty, contextualKeywords.contains(String(keyword)), let e = entries["\(parent) \(keyword)"] { return e }
    return entries[String(keyword)]
  }

  /// The entry for `keyword` given the first words of its ancestors, outermost first
  /// (`["interfaces", "xe-0/0/0", "unit", "family"]`): the longest matching context wins
  /// (`unit family filter`, then `family filter`, then `filter`).
  public func entry(_ keyword: String, context: [String]) -> Entry? {
    guard contextualKeywords.contains(keyword) else { return entries[keyword] }
    if context.count >= 2, let e = entries["\(context[context.count - 2]) \(context[context.count - 1]) \(keyword)"] {
      return e
    }
    if let p = context.last, let e = entries["\(p) \(keyword)"] { return e }
    return entries[keyword]
  }

  /// Adds or replaces an entry.
  ///
  /// - Parameters:
  ///   - keyword: The keyword.
  ///   - parent: The first word of the parent statement, for an entry valid only there.
  public mutating func set(_ entry: Entry, for keyword: String, parent: String? = nil) {
    entries[parent.map { "\($0) \(keyword)" } ?? keyword] = entry
    if parent != nil { contextualKeywords.insert(keyword) }
  }

  /// Loads entries from the text form: one per line,
  /// `[CONTEXT…] KEYWORD KIND [KEYS] [oneliner=CHILD,…]`, e.g. `unit keyed 1`,
  /// `route keyed 1 oneliner=next-hop,discard`, `then container oneliner=accept,reject`,
  /// `then community value`, `# comment`.
  ///
  /// - Returns: The 1-based numbers of lines that could not be read.
  @discardableResult
  public mutating func load(_ text: String) -> [Int] {
    // On bytes: the built-in table is read at every start of a process.
    let utf8 = Array(text.utf8)
    func string(_ b: ArraySlice<UInt8>) -> String { String(decoding: b, as: UTF8.self) }
    var bad: [Int] = []
    for (n, line) in utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
      let f = line.split(separator: 0x20)
      if f.isEmpty || f[0].first == UInt8(ascii: "#") { continue }
      guard let k = f.firstIndex(where: { Kind(rawValue: string($0)) != nil }), (1...3).contains(k),
        let kind = Kind(rawValue: string(f[k]))
      else {
        bad.append(n + 1)
        continue
      }
      var e = Entry(kind)
      var j = k + 1
      if kind == .keyed {
        guard j < f.count, let keys = Int(string(f[j])), keys > 0 else {
          bad.append(n + 1)
          continue
        }
        e.keys = keys
        j += 1
      }
      if j < f.count && f[j].starts(with: "oneliner=".utf8) {
        e.onelinerChildren = Set(f[j].dropFirst(9).split(separator: UInt8(ascii: ",")).map(string))
        j += 1
      }
      if j != f.count {
        bad.append(n + 1)
        continue
      }
      set(e, for: string(f[k - 1]), parent: k >= 2 ? f[0..<(k - 1)].map(string).joined(separator: " ") : nil)
    }
    return bad
  }

  /// The text form read by ``load(_:)``, sorted.
  public var text: String {
    entries.keys.sorted().map { key in
      let e = entries[key]!
      var parts = key.split(separator: " ").map(String.init)
      parts.append(e.kind.rawValue)
      if e.kind == .keyed { parts.append(String(e.keys)) }
      if e.oneliner { parts.append("oneliner=" + e.onelinerChildren.sorted().joined(separator: ",")) }
      return parts.joined(separator: " ")
    }.joined(separator: "\n") + "\n"
  }

  /// Extends the table with what a curly configuration shows: blocks with identifiers
  /// (`unit 0 {` → `unit keyed 1`), oneliners, lists and single-valued leaves. Entries already
  /// present are kept; only keywords (or parent-and-keyword contexts) not yet known are added.
  ///
  /// - Parameter trees: Configurations parsed from curly text.
  public mutating func learn(from trees: [ConfigTree]) {
    var global: [String: Observation] = [:]
    var contextual: [String: Observation] = [:]
    for tree in trees {
      // Leaf keywords seen twice under one parent name entries (`server 10.0.0.1;`
      // `server 10.0.0.2;`), not a single value.
      var repeated = Set<Int32>()
      for parent in [ConfigTree.root] + tree.allStatements() where tree.isBlock(parent) {
        var seen: [String: NodeID] = [:]
        for c in tree.children(of: parent) where !tree.isBlock(c) && tree.wordCount(of: c) >= 2 {
          let k = tree.word(0, of: c)
          if let first = seen[k] {
            repeated.insert(first.raw)
            repeated.insert(c.raw)
          } else {
            seen[k] = c
          }
        }
      }
      for node in tree.allStatements() {
        let n = tree.wordCount(of: node)
        guard n > 0 else { continue }
        let keyword = tree.word(0, of: node)
        guard Self.looksLikeKeyword(keyword) else { continue }
        var o = Observation()
        if tree.isBlock(node) {
          if n == 1 { o.container = 1 } else { o.blockKeys[n - 1] = 1 }
        } else if tree.listValues(of: node) != nil {
          if n == 1 { o.list = 1 } else { o.leafWords[n - 1] = 1 }
        } else if n >= 2 {
          o.leafWords[n - 1] = 1
          if repeated.contains(node.raw) { o.repeatedLeaf = 1 }
        } else {
          continue
        }
        if !tree.isBlock(node) {
          for k in 1..<max(1, min(n, 4)) {
            let w = tree.word(k, of: node)
            o.leafChild[k] = [Self.looksLikeKeyword(w) ? w : "*"]
          }
        }
        global[keyword, default: Observation()].add(o)
        if let pk = tree.keywordContext(of: node).last {
          contextual["\(pk) \(keyword)", default: Observation()].add(o)
        }
      }
    }
    var learned: [String: Entry] = [:]
    for (keyword, o) in global {
      if let e = o.entry { learned[keyword] = e }
    }
    for (key, o) in contextual {
      let keyword = String(key[key.index(after: key.firstIndex(of: " ")!)...])
      guard let e = o.entry, let g = learned[keyword] else { continue }
      // Only a context whose shape differs from the keyword's overall shape needs its own entry:
      // one value where others have a list is still a list, and oneliner children are merged.
      let sameShape = e.kind == g.kind && e.keys == g.keys
      // A context where only leaves were seen needs its own entry only if the keyword's overall
      // shape would make such a line a container path.
      let weaker = e.kind == .value && !(g.kind == .container || g.kind == .named || g.kind == .flat)
      if !sameShape && !weaker { learned[key] = e }
    }
    for (key, e) in learned where entries[key] == nil {
      let parts = key.split(separator: " ")
      set(e, for: String(parts[parts.count - 1]), parent: parts.count > 1 ? parts.dropLast().joined(separator: " ") : nil)
    }
  }

  /// Extends the table from one configuration; see ``learn(from:)-([ConfigTree])``.
  public mutating func learn(from tree: ConfigTree) { learn(from: [tree]) }

  struct Observation {
    var container = 0
    var list = 0
    var blockKeys: [Int: Int] = [:]
    var leafWords: [Int: Int] = [:]
    /// Leaves that had a sibling with the same keyword.
    var repeatedLeaf = 0
    /// For leaves: the word after position k, by k (the candidate oneliner child).
    var leafChild: [Int: Set<String>] = [:]

    mutating func add(_ o: Observation) {
      for (k, v) in o.leafChild { leafChild[k, default: []].formUnion(v) }
      container += o.container
      repeatedLeaf += o.repeatedLeaf
      list += o.list
      for (k, v) in o.blockKeys { blockKeys[k, default: 0] += v }
      for (k, v) in o.leafWords { leafWords[k, default: 0] += v }
    }

    /// The entry these observations support, if any.
    var entry: Entry? {
      let keyed = blockKeys.max { ($0.value, -$0.key) < ($1.value, -$1.key) }
      if let (keys, count) = keyed, count >= container {
        let oneliner = leafWords.keys.contains { $0 > keys } ? leafChild[keys + 1] ?? [] : []
        return Entry(.keyed, keys: keys, onelinerChildren: oneliner)
      }
      if container > 0 { return Entry(.container, onelinerChildren: leafChild[1] ?? []) }
      if list > 0 { return Entry(.list) }
      if repeatedLeaf > 0 { return Entry(.keyed, keys: 1, onelinerChildren: leafChild[2] ?? []) }
      if !leafWords.isEmpty { return Entry(.value) }
      return nil
    }
  }

  /// Keywords are lower-case words with digits and hyphens (`802.3ad` and `inet6` included);
  /// names such as `xe-0/0/0`, `GR-CORE` or `10.0.0.1` are not.
  /// Whether a word looks like a Junos keyword rather than a name or value.
  public static func isKeyword(_ s: String) -> Bool { looksLikeKeyword(s) }

  static func looksLikeKeyword(bytes s: ArraySlice<UInt8>) -> Bool {
    guard let f = s.first, f >= UInt8(ascii: "a") && f <= UInt8(ascii: "z") else { return false }
    return s.allSatisfy {
      ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  static func looksLikeKeyword(_ s: String) -> Bool {
    guard let f = s.utf8.first, f >= UInt8(ascii: "a") && f <= UInt8(ascii: "z") else { return false }
    return s.utf8.allSatisfy {
      ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  /// How many words name a statement in `deactivate`, `protect` and `delete` commands: the keyword
  /// and its keys for keyed statements, the keyword alone for containers, lists and values
  /// (`deactivate interfaces xe-0/0/0 description`), all words for statements not in the table.
  public func identityWordCount(of node: NodeID, in tree: ConfigTree) -> Int {
    let n = tree.wordCount(of: node)
    guard n > 0 else { return 0 }
    guard let e = entry(tree.word(0, of: node), context: tree.keywordContext(of: node)) else { return n }
    switch e.kind {
    case .keyed: return min(n, 1 + e.keys)
    case .value, .list, .flat, .container, .named: return 1
    }
  }
}

extension ConfigTree {
  /// The first words of a statement's ancestors that are keywords (names such as `xe-0/0/0`
  /// are skipped), outermost first: the context of keyword lookups.
  public func keywordContext(of node: NodeID) -> [String] {
    var out: [String] = []
    var p = parent(of: node)
    while let q = p, q != ConfigTree.root {
      if wordCount(of: q) > 0 {
        let w = word(0, of: q)
        if KeywordTable.looksLikeKeyword(w) { out.append(w) }
      }
      p = parent(of: q)
    }
    return out.reversed()
  }
}

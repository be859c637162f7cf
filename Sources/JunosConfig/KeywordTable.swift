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
  }

  /// What is known of one keyword.
  public struct Entry: Sendable, Hashable {
    /// The statement shape.
    public var kind: Kind
    /// For ``Kind/keyed``: number of identifier words after the keyword.
    public var keys: Int
    /// For ``Kind/keyed``: the device prints `keyword ID child…;` on one line when the statement
    /// has a single leaf child (`route 10.0.0.0/8 next-hop 10.1.1.1;`).
    public var oneliner: Bool

    /// Creates an entry.
    public init(_ kind: Kind, keys: Int = 0, oneliner: Bool = false) {
      self.kind = kind
      self.keys = keys
      self.oneliner = oneliner
    }
  }

  /// Entries by keyword (`"unit"`) and by parent keyword and keyword (`"then community"`).
  public private(set) var entries: [String: Entry]

  /// An empty table: every `set` line is split by the built-in default rules alone.
  public init() { entries = [:] }

  /// The built-in table (learned from real configurations, plus curated entries).
  public static let standard: KeywordTable = {
    var t = KeywordTable()
    t.load(KeywordTable.builtinData)
    return t
  }()

  /// The entry for `keyword` under a statement whose first word is `parent` (`""` at the top).
  public func entry(_ keyword: some StringProtocol, parent: some StringProtocol) -> Entry? {
    if !parent.isEmpty, let e = entries["\(parent) \(keyword)"] { return e }
    return entries[String(keyword)]
  }

  /// Adds or replaces an entry.
  ///
  /// - Parameters:
  ///   - keyword: The keyword.
  ///   - parent: The first word of the parent statement, for an entry valid only there.
  public mutating func set(_ entry: Entry, for keyword: String, parent: String? = nil) {
    entries[parent.map { "\($0) \(keyword)" } ?? keyword] = entry
  }

  /// Loads entries from the text form: one per line, `[PARENT] KEYWORD KIND [KEYS] [oneliner]`,
  /// e.g. `unit keyed 1`, `route keyed 1 oneliner`, `then community value`, `# comment`.
  ///
  /// - Returns: The 1-based numbers of lines that could not be read.
  @discardableResult
  public mutating func load(_ text: String) -> [Int] {
    var bad: [Int] = []
    for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let f = line.split(separator: " ")
      if f.isEmpty || f[0].hasPrefix("#") { continue }
      guard let k = f.firstIndex(where: { Kind(rawValue: String($0)) != nil }), k == 1 || k == 2,
        let kind = Kind(rawValue: String(f[k]))
      else {
        bad.append(n + 1)
        continue
      }
      var e = Entry(kind)
      var j = k + 1
      if kind == .keyed {
        guard j < f.count, let keys = Int(f[j]), keys > 0 else {
          bad.append(n + 1)
          continue
        }
        e.keys = keys
        j += 1
      }
      if j < f.count && f[j] == "oneliner" {
        e.oneliner = true
        j += 1
      }
      if j != f.count {
        bad.append(n + 1)
        continue
      }
      set(e, for: String(f[k - 1]), parent: k == 2 ? String(f[0]) : nil)
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
      if e.oneliner { parts.append("oneliner") }
      return parts.joined(separator: " ")
    }.joined(separator: "\n") + "\n"
  }

  /// Extends the table with what a curly configuration shows: blocks with identifiers
  /// (`unit 0 {` → `unit keyed 1`), oneliners, lists and single-valued leaves. Entries already
  /// present are kept; only new keywords are added.
  ///
  /// - Parameter tree: A configuration parsed from curly text (set-parsed trees add nothing new).
  public mutating func learn(from tree: ConfigTree) {
    var observed: [String: Observation] = [:]
    for node in tree.allStatements() {
      let n = tree.wordCount(of: node)
      guard n > 0 else { continue }
      let keyword = tree.word(0, of: node)
      guard Self.looksLikeKeyword(keyword) else { continue }
      var o = observed[keyword] ?? Observation()
      if tree.isBlock(node) {
        if n == 1 { o.container += 1 } else { o.blockKeys[n - 1, default: 0] += 1 }
      } else if tree.listValues(of: node) != nil {
        if n == 1 { o.list += 1 } else { o.leafWords[n - 1, default: 0] += 1 }
      } else if n >= 2 {
        o.leafWords[n - 1, default: 0] += 1
      }
      observed[keyword] = o
    }
    for (keyword, o) in observed where entries[keyword] == nil {
      if let keys = o.blockKeys.max(by: { $0.value < $1.value })?.key, o.blockKeys[keys, default: 0] >= o.container {
        let oneliner = o.leafWords.keys.contains { $0 > keys }
        entries[keyword] = Entry(.keyed, keys: keys, oneliner: oneliner)
      } else if o.container > 0 {
        entries[keyword] = Entry(.container)
      } else if o.list > 0 {
        entries[keyword] = Entry(.list)
      }
    }
  }

  struct Observation {
    var container = 0
    var list = 0
    var blockKeys: [Int: Int] = [:]
    var leafWords: [Int: Int] = [:]
  }

  /// Keywords are lower-case words with digits and hyphens (`802.3ad` and `inet6` included);
  /// names such as `xe-0/0/0`, `GR-CORE` or `10.0.0.1` are not.
  static func looksLikeKeyword(_ s: String) -> Bool {
    guard let f = s.utf8.first, f >= UInt8(ascii: "a") && f <= UInt8(ascii: "z") else { return false }
    return s.utf8.allSatisfy {
      ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  /// How many words identify a statement (for `deactivate`, `delete` and matching `set` lines):
  /// the keyword and its keys for keyed statements, the keyword alone for single-valued and list
  /// leaves, and all words otherwise.
  public func identityWordCount(of node: NodeID, in tree: ConfigTree) -> Int {
    let n = tree.wordCount(of: node)
    guard n > 0 else { return 0 }
    let parent = tree.parent(of: node).flatMap { tree.wordCount(of: $0) > 0 ? tree.word(0, of: $0) : nil } ?? ""
    guard let e = entry(tree.word(0, of: node), parent: parent) else { return n }
    switch e.kind {
    case .keyed: return min(n, 1 + e.keys)
    case .value, .list: return 1
    case .container, .named: return n
    }
  }
}


import JunosConfig
import JunosDiff
import Testing

// Property tests: for generated pairs (a, b = a with random edits), the Junos and set renderings
// of compare(a, b), applied to a, give b; compare(a, a) is empty. Equality is checked by an
// oracle independent of the diff: a canonical rendering that sorts statements whose order Junos
// decides itself and keeps ordered-list entries (terms, policies) in order.

private struct Mix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

private let table: KeywordTable = {
  var t = KeywordTable()
  for i in 0..<6 { t.set(.init(.container), for: "c\(i)") }
  for i in 0..<4 { t.set(.init(.keyed, keys: 1), for: "k\(i)") }
  t.set(.init(.keyed, keys: 1), for: "term")
  for i in 0..<3 { t.set(.init(.list), for: "l\(i)") }
  for i in 0..<4 { t.set(.init(.value), for: "v\(i)") }
  return t
}()

private let values = [
  "1", "x-y", "10.0.0.1/24", "2001:db8::1/64", "\"a b\"", #""q\"uote""#, "ge-0/0/0.100", "\"Zürich\"", "<*>", "$9$abc",
  "65000:1",
]

private struct Gen {
  var rng: Mix64
  var serial = 0

  mutating func int(_ r: Range<Int>) -> Int { Int.random(in: r, using: &rng) }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
  mutating func pick<T>(_ a: [T]) -> T { a[int(0..<a.count)] }

  mutating func tree(_ budget: Int) -> ConfigTree {
    var t = ConfigTree()
    var b = budget
    fill(&t, ConfigTree.root, 0, &b)
    return t
  }

  /// A statement that does not clash with the parent's other children.
  mutating func statement(_ t: inout ConfigTree, under parent: NodeID, depth: Int, budget: inout Int) -> NodeID? {
    let taken = Set(
      t.children(of: parent).map { child -> String in
        let w = t.words(of: child)
        return w.first.map { ["c", "l", "v", "p"].contains($0.prefix(1)) ? $0 : w.joined(separator: " ") } ?? ""
      })
    budget -= 1
    serial += 1
    let kind = depth >= 5 ? int(2..<6) : int(0..<6)
    var node: NodeID
    switch kind {
    case 0:
      let w = "c\(int(0..<6))"
      guard !taken.contains(w) else { return nil }
      node = t.append(words: [w], to: parent, block: true)
      fill(&t, node, depth + 1, &budget)
    case 1:
      let words = [chance(0.3) ? "term" : "k\(int(0..<4))", chance(0.5) ? pick(values) : "t\(serial)"]
      guard !taken.contains(words.joined(separator: " ")) else { return nil }
      let block = words[0] == "term" || chance(0.6)
      node = t.append(words: words, to: parent, block: block)
      if block { fill(&t, node, depth + 1, &budget) }
    case 2:
      let w = "l\(int(0..<3))"
      guard !taken.contains(w) else { return nil }
      node = t.append(words: [w], list: Array(values.shuffled(using: &rng).prefix(int(2..<5))), to: parent)
    case 3:
      let w = "v\(int(0..<4))"
      guard !taken.contains(w) else { return nil }
      node = t.append(words: [w, pick(values)], to: parent)
    default:
      let w = "p\(int(0..<5))"
      guard !taken.contains(w) else { return nil }
      node = t.append(words: [w], to: parent)
    }
    if chance(0.1) { t.setFlags(.inactive, true, of: node) }
    if chance(0.05) { t.setFlags(.protect, true, of: node) }
    if chance(0.1) { t.setAnnotation("note \(int(0..<100))", of: node) }
    return node
  }

  mutating func fill(_ t: inout ConfigTree, _ parent: NodeID, _ depth: Int, _ budget: inout Int) {
    for _ in 0..<int(1..<5) where budget > 0 {
      _ = statement(&t, under: parent, depth: depth, budget: &budget)
    }
  }

  /// `a` with `count` random edits.
  mutating func mutate(_ a: ConfigTree, edits count: Int) -> ConfigTree {
    var t = a
    for _ in 0..<count {
      let all = t.allStatements()
      guard !all.isEmpty else { break }
      let node = pick(all)
      switch int(0..<9) {
      case 0:  // change a value
        if t.wordCount(of: node) == 2, t.word(0, of: node).hasPrefix("v") {
          t.setWords([t.word(0, of: node), pick(values)], of: node)
        }
      case 1:  // add a statement, somewhere among the children
        let parent = t.isBlock(node) ? node : (t.parent(of: node) ?? ConfigTree.root)
        var budget = 6
        if let n = statement(&t, under: parent, depth: t.depth(of: parent), budget: &budget),
          let first = t.firstChild(of: parent), first != n, chance(0.5)
        {
          let siblings = Array(t.children(of: parent)).filter { $0 != n }
          t.move(n, before: chance(0.3) ? first : pick(siblings))
        }
      case 2:  // delete
        t.remove(node)
      case 3:  // toggle inactive
        t.setFlags(.inactive, !t.flags(of: node).contains(.inactive), of: node)
      case 4:  // annotation added, changed or removed
        t.setAnnotation(chance(0.3) ? nil : "edited \(int(0..<100))", of: node)
      case 5, 6:  // reorder terms
        let parent = t.parent(of: node) ?? ConfigTree.root
        let terms = Array(t.children(of: parent)).filter { t.word(0, of: $0) == "term" && t.wordCount(of: $0) == 2 }
        if terms.count >= 2 {
          let x = pick(terms)
          let y = pick(terms.filter { $0 != x })
          if chance(0.5) { t.move(x, before: y) } else { t.move(x, after: y) }
        }
      case 7:  // list values changed
        if t.listValues(of: node) != nil {
          t.setWords(t.words(of: node), list: Array(values.shuffled(using: &rng).prefix(int(1..<5))), of: node)
        }
      default:  // toggle protect
        t.setFlags(.protect, !t.flags(of: node).contains(.protect), of: node)
      }
    }
    return t
  }
}

/// The configuration as text with statements Junos orders itself sorted, ordered-list entries
/// kept in order after them.
private func canonical(_ t: ConfigTree) -> String {
  func render(_ n: NodeID) -> String {
    var s = ""
    let f = t.flags(of: n)
    if f.contains(.inactive) { s += "inactive: " }
    if f.contains(.protect) { s += "protect: " }
    if let a = t.annotation(of: n) { s += "/* \(a) */ " }
    s += t.words(of: n).joined(separator: " ")
    // A one-value list is the same configuration as a leaf with that value (Junos prints and
    // `display set` spells both alike).
    if let l = t.listValues(of: n) { s += l.count == 1 ? " " + l[0] : " [ " + l.joined(separator: " ") + " ]" }
    // An empty block is the same configuration as a leaf (set form cannot tell them apart).
    if t.isBlock(n) && t.firstChild(of: n) != nil {
      var plain: [String] = []
      var ordered: [String] = []
      for c in t.children(of: n) {
        let text = render(c)
        if t.wordCount(of: c) > 1 && DiffOptions.standardOrderedKeywords.contains(t.word(0, of: c)) {
          ordered.append(text)
        } else {
          plain.append(text)
        }
      }
      s += " {\n" + plain.sorted().joined() + ordered.joined() + "}"
    }
    return s + ";\n"
  }
  return Array(t.children(of: ConfigTree.root)).map(render).sorted().joined()
}

private let shown = RenderOptions(showSecrets: true)

@Suite struct DiffPropertyTests {
  static let seeds: [UInt64] = Array(1...1000)

  static func pair(_ seed: UInt64) -> (ConfigTree, ConfigTree) {
    var g = Gen(rng: Mix64(state: seed))
    let a = g.tree(80)
    let b = g.mutate(a, edits: 1 + Int(seed % 8))
    return (a, b)
  }

  @Test(arguments: seeds)
  func junosTextAppliesBack(_ seed: UInt64) {
    let (a, b) = Self.pair(seed)
    let options = DiffOptions(model: .keywordsOnly(table))
    let diff = ConfigDiff(from: a, to: b, options: options)
    #expect(diff.isEmpty == (canonical(a) == canonical(b)))
    let text = diff.renderJunos(shown)
    let parsed = CompareText.parse(SourceFile(path: "diff", bytes: text))
    #expect(parsed.diagnostics.map(\.rendered) == [], "\(String(decoding: text, as: UTF8.self))")
    let applied = parsed.apply(to: a, options: options)
    #expect(applied.diagnostics.map(\.rendered) == [], "\(String(decoding: text, as: UTF8.self))")
    #expect(canonical(applied.tree) == canonical(b), "\(String(decoding: text, as: UTF8.self))")
  }

  @Test(arguments: seeds)
  func setCommandsApplyBack(_ seed: UInt64) {
    let (a, b) = Self.pair(seed)
    let diff = ConfigDiff(from: a, to: b, options: DiffOptions(model: .keywordsOnly(table)))
    let text = diff.renderSet(shown)
    let loaded = ConfigParser.load(SourceFile(path: "diff.set", bytes: text), onto: a, model: .keywordsOnly(table))
    #expect(loaded.diagnostics.map(\.rendered) == [], "\(String(decoding: text, as: UTF8.self))")
    #expect(canonical(loaded.tree) == canonical(b), "\(String(decoding: text, as: UTF8.self))")
  }

  @Test(arguments: seeds.prefix(100))
  func selfCompareIsEmpty(_ seed: UInt64) {
    let (a, b) = Self.pair(seed)
    #expect(ConfigDiff(from: a, to: a, options: DiffOptions(model: .keywordsOnly(table))).isEmpty)
    #expect(ConfigDiff(from: b, to: b, options: DiffOptions(model: .keywordsOnly(table))).isEmpty)
    // The same configuration reparsed from its own text is still the same.
    let reparsed = ConfigParser.parse(SourceFile(path: "b", bytes: b.renderCurly(shown)), syntax: .curly).tree
    #expect(ConfigDiff(from: b, to: reparsed, options: DiffOptions(model: .keywordsOnly(table))).isEmpty)
    // And from its XML.
    let xml = b.renderXML(RenderOptions(showSecrets: true, model: .keywordsOnly(table)))
    let fromXML = ConfigParser.parse(SourceFile(path: "b.xml", bytes: xml), model: .keywordsOnly(table))
    #expect(fromXML.diagnostics.map(\.rendered) == [])
    #expect(ConfigDiff(from: b, to: fromXML.tree, options: DiffOptions(model: .keywordsOnly(table))).isEmpty)
  }

  @Test(arguments: seeds.prefix(100))
  func reverseDiffAppliesToNew(_ seed: UInt64) {
    let (a, b) = Self.pair(seed)
    let options = DiffOptions(model: .keywordsOnly(table))
    let text = ConfigDiff(from: b, to: a, options: options).renderJunos(shown)
    let applied = CompareText.parse(SourceFile(path: "diff", bytes: text)).apply(to: b, options: options)
    #expect(applied.diagnostics.map(\.rendered) == [])
    #expect(canonical(applied.tree) == canonical(a), "\(String(decoding: text, as: UTF8.self))")
  }
}

extension DiffPropertyTests {
  /// Reordering statements whose order Junos decides itself is not a change; reordering terms is.
  @Test(arguments: seeds.prefix(200))
  func orderCountsOnlyForOrderedLists(_ seed: UInt64) {
    var g = Gen(rng: Mix64(state: seed))
    let a = g.tree(80)
    var b = a
    var movedTerm = false
    for node in a.allStatements() where a.isBlock(node) {
      let kids = Array(b.children(of: node))
      guard kids.count >= 2, let last = kids.last else { continue }
      b.move(last, before: kids[0])
      let ordered = { (n: NodeID) in b.wordCount(of: n) > 1 && b.word(0, of: n) == "term" }
      if ordered(last) && kids.dropLast().contains(where: ordered) { movedTerm = true }
    }
    let diff = ConfigDiff(from: a, to: b, options: DiffOptions(model: .keywordsOnly(table)))
    #expect(diff.isEmpty == !movedTerm)
    #expect(diff.counts.keys.allSatisfy { $0 == "moved" })
  }
}

import JunosConfig
import Testing

/// SplitMix64: deterministic pseudo-random numbers for generated inputs.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random configuration trees in the device's own form, with a keyword table describing them.
struct TreeGenerator {
  var rng: SplitMix64
  static let table: KeywordTable = {
    var t = KeywordTable()
    for i in 0..<6 { t.set(.init(.container), for: "c\(i)") }
    for i in 0..<4 { t.set(.init(.keyed, keys: 1), for: "k\(i)") }
    for i in 0..<3 { t.set(.init(.list), for: "l\(i)") }
    for i in 0..<4 { t.set(.init(.value), for: "v\(i)") }
    return t
  }()
  static let values = [
    "1", "x-y", "10.0.0.1/24", "2001:db8::1/64", "\"a b\"", #""q\"uote""#, "ge-0/0/0.100", "\"Zürich\"", "<*>",
    "\"<[egx][te]-*>\"", "$9$abc", "65000:1",
  ]

  mutating func pick<T>(_ a: [T]) -> T { a[Int.random(in: 0..<a.count, using: &rng)] }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

  mutating func tree(maxNodes: Int, comments: Bool) -> ConfigTree {
    var t = ConfigTree()
    var budget = maxNodes
    fill(&t, ConfigTree.root, depth: 0, budget: &budget, comments: comments)
    return t
  }

  mutating func fill(_ t: inout ConfigTree, _ parent: NodeID, depth: Int, budget: inout Int, comments: Bool) {
    var used = Set<String>()
    let n = Int.random(in: 1...4, using: &rng)
    for _ in 0..<n where budget > 0 {
      budget -= 1
      let kind = depth >= 5 ? Int.random(in: 2...4, using: &rng) : Int.random(in: 0...4, using: &rng)
      var node: NodeID
      switch kind {
      case 0:  // container
        let w = "c\(Int.random(in: 0..<6, using: &rng))"
        guard used.insert(w).inserted else { continue }
        node = t.append(words: [w], to: parent, block: true)
        fill(&t, node, depth: depth + 1, budget: &budget, comments: comments)
      case 1:  // keyed block or leaf
        let words = ["k\(Int.random(in: 0..<4, using: &rng))", pick(Self.values)]
        guard used.insert(words.joined(separator: " ")).inserted else { continue }
        let block = chance(0.6)
        node = t.append(words: words, to: parent, block: block)
        if block { fill(&t, node, depth: depth + 1, budget: &budget, comments: comments) }
      case 2:  // list of two or more distinct values
        let w = "l\(Int.random(in: 0..<3, using: &rng))"
        guard used.insert(w).inserted else { continue }
        var values: [String] = []
        for v in Self.values.shuffled(using: &rng).prefix(Int.random(in: 2...4, using: &rng)) { values.append(v) }
        node = t.append(words: [w], list: values, to: parent)
      case 3:  // value leaf
        let w = "v\(Int.random(in: 0..<4, using: &rng))"
        guard used.insert(w).inserted else { continue }
        node = t.append(words: [w, pick(Self.values)], to: parent)
      default:  // presence leaf
        let w = "p\(Int.random(in: 0..<5, using: &rng))"
        guard used.insert(w).inserted else { continue }
        node = t.append(words: [w], to: parent)
      }
      if chance(0.1) { t.setFlags(.inactive, true, of: node) }
      if chance(0.05) { t.setFlags(.protect, true, of: node) }
      if chance(0.1) { t.setAnnotation("note \(Int.random(in: 0..<100, using: &rng))", of: node) }
      _ = comments
    }
  }
}

@Suite struct PropertyTests {
  static let seeds: [UInt64] = Array(1...200)

  @Test(arguments: seeds)
  func curlyRoundTrip(_ seed: UInt64) {
    var g = TreeGenerator(rng: SplitMix64(state: seed))
    let tree = g.tree(maxNodes: 60, comments: true)
    let text = tree.renderCurly(RenderOptions(showSecrets: true))
    let back = ConfigParser.parse(SourceFile(path: "gen", bytes: text), syntax: .curly, model: .keywordsOnly(TreeGenerator.table))
    #expect(back.diagnostics.map(\.rendered) == [])
    #expect(back.tree.firstDifference(from: tree) == nil)
    #expect(back.tree.renderCurly(RenderOptions(showSecrets: true)) == text)
  }

  @Test(arguments: seeds)
  func setRoundTrip(_ seed: UInt64) {
    var g = TreeGenerator(rng: SplitMix64(state: seed))
    let tree = g.tree(maxNodes: 60, comments: false)
    let text = tree.renderSet(RenderOptions(showSecrets: true, model: .keywordsOnly(TreeGenerator.table)))
    let back = ConfigParser.parse(SourceFile(path: "gen", bytes: text), syntax: .set, model: .keywordsOnly(TreeGenerator.table))
    #expect(back.diagnostics.map(\.rendered) == [])
    #expect(back.tree.firstDifference(from: tree) == nil, "\(text.text)")
  }

  /// Statements no schema knows (the keyword table's alone): XML reads back as the same
  /// configuration (a `$9$…` value comes back with the device's `## SECRET-DATA` marker).
  @Test(arguments: seeds)
  func xmlRoundTrip(_ seed: UInt64) {
    var g = TreeGenerator(rng: SplitMix64(state: seed))
    let tree = g.tree(maxNodes: 60, comments: true)
    let model = ConfigModel.keywordsOnly(TreeGenerator.table)
    let text = tree.renderXML(RenderOptions(showSecrets: true, model: model))
    let back = ConfigParser.parse(SourceFile(path: "gen.xml", bytes: text), model: model)
    #expect(back.diagnostics.map(\.rendered) == [])
    let same = back.tree.sameConfiguration(ConfigTree.root, as: ConfigTree.root, in: tree)
    #expect(same, "\(text.text)")
    #expect(back.tree.renderXML(RenderOptions(showSecrets: true, model: model)) == text)
  }

  @Test(arguments: seeds.prefix(50))
  func jsonIsWellFormed(_ seed: UInt64) {
    var g = TreeGenerator(rng: SplitMix64(state: seed))
    let json = g.tree(maxNodes: 60, comments: true).renderJSON().text
    var depth = 0
    var inString = false
    var escaped = false
    for c in json.unicodeScalars {
      if inString {
        if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
        #expect(c.value >= 0x20)
        continue
      }
      switch c {
      case "\"": inString = true
      case "{", "[": depth += 1
      case "}", "]": depth -= 1
      default: break
      }
      #expect(depth >= 0)
    }
    #expect(depth == 0 && !inString)
  }
}

/// Builds a schema table: statements are interned (two identical subtrees are stored once, so
/// the groupings Juniper's modules repeat in every context cost one copy), families are merged
/// into one tree whose statements record the families that have them, and the result is encoded
/// in the binary form ``JunosSchema`` reads. Used by `junoscope-schemagen` and by tests.
public final class SchemaBuilder {
  /// An interned statement.
  public typealias NodeID = Int32
  /// An interned list of children.
  public typealias BlockID = Int32

  /// A statement as the builder sees it.
  public struct Node: Hashable {
    public var name: String
    public var kind: SchemaKind
    public var flags: SchemaFlags = []
    public var families: UInt8 = 0
    /// Interned ``ValueType`` of a leaf or leaf-list.
    public var type: Int32 = -1
    /// Key leaves of a list, in key order.
    public var keys: [NodeID] = []
    public var children: BlockID = 0
    /// Interned names of the choice and case the statement belongs to (-1: none).
    public var choice: Int32 = -1
    public var caseName: Int32 = -1

    public init(name: String, kind: SchemaKind) {
      self.name = name
      self.kind = kind
    }
  }

  /// A value type as the builder sees it.
  public struct ValueType: Hashable {
    public typealias Kind = ValueKind
    public var kind: ValueKind
    /// Enumeration values, in schema order.
    public var values: [String] = []
    /// Integer or decimal ranges (`"1 .. 16 | 20"`), as written in YANG.
    public var range: String? = nil
    /// Patterns: POSIX extended regular expressions (`junos:posix-pattern`), or XSD patterns
    /// prefixed `xsd:`.
    public var patterns: [String] = []
    /// YANG `length`, as written.
    public var length: String? = nil
    /// A `<…>` or `$…` variable may stand for the value.
    public var variables = false
    /// Union members.
    public var members: [ValueType] = []

    public init(kind: ValueKind) { self.kind = kind }

    /// The full range of a YANG integer type.
    public static func defaultRange(_ name: String) -> String {
      switch name {
      case "int8": "-128 .. 127"
      case "int16": "-32768 .. 32767"
      case "int32": "-2147483648 .. 2147483647"
      case "int64": "-9223372036854775808 .. 9223372036854775807"
      case "uint8": "0 .. 255"
      case "uint16": "0 .. 65535"
      case "uint32": "0 .. 4294967295"
      default: "0 .. 18446744073709551615"
      }
    }
  }

  private(set) var nodes = Interned<Node>()
  private(set) var blocks: [[NodeID]] = [[]]
  private var blockIndex: [[NodeID]: BlockID] = [[]: 0]
  private(set) var types = Interned<ValueType>()
  private(set) var strings = Interned<String>()
  private var mergeMemo: [Int64: NodeID] = [:]
  private var blockMergeMemo: [Int64: BlockID] = [:]
  /// Names that two families define with different kinds (the first family's kind is kept).
  public private(set) var kindConflicts: [String: Int] = [:]

  public init() {}

  public func node(_ id: NodeID) -> Node { nodes[Int(id)] }
  public func block(_ id: BlockID) -> [NodeID] { blocks[Int(id)] }

  public func string(_ s: String) -> Int32 { strings.number(s) }

  public func type(_ t: ValueType) -> Int32 { types.number(t) }

  public func intern(_ n: Node) -> NodeID { nodes.number(n) }

  /// A block of children: sorted by name; two children with one name (from two choices, or two
  /// modules) are merged into one.
  public func block(_ children: [NodeID]) -> BlockID {
    var byName: [String: NodeID] = [:]
    for c in children {
      let name = nodes[Int(c)].name
      if let prior = byName[name] { byName[name] = merge(prior, c) } else { byName[name] = c }
    }
    let sorted = byName.keys.sorted().map { byName[$0]! }
    if let b = blockIndex[sorted] { return b }
    let b = BlockID(blocks.count)
    blocks.append(sorted)
    blockIndex[sorted] = b
    return b
  }

  /// The statement with the given choice and case, unless it already has one.
  public func withChoice(_ id: NodeID, _ choice: (String, String)) -> NodeID {
    var n = nodes[Int(id)]
    guard n.choice < 0 else { return id }
    n.choice = string(choice.0)
    n.caseName = string(choice.1)
    return intern(n)
  }

  /// One statement from two definitions of the same name (two families, or two modules): the
  /// union of their children, flags and families.
  public func merge(_ a: NodeID, _ b: NodeID) -> NodeID {
    if a == b { return a }
    let key = Int64(min(a, b)) << 32 | Int64(max(a, b))
    if let m = mergeMemo[key] { return m }
    let x = nodes[Int(a)]
    let y = nodes[Int(b)]
    var n = x
    if x.kind != y.kind { kindConflicts[x.name, default: 0] += 1 }
    n.flags.formUnion(y.flags)
    n.families |= y.families
    if x.kind == y.kind {
      if x.type != y.type, x.type >= 0, y.type >= 0 { n.type = unionType(x.type, y.type) }
      if x.keys.count == y.keys.count { n.keys = zip(x.keys, y.keys).map { merge($0, $1) } }
      n.children = mergeBlocks(x.children, y.children)
    }
    if n.choice < 0 {
      n.choice = y.choice
      n.caseName = y.caseName
    }
    let m = intern(n)
    mergeMemo[key] = m
    return m
  }

  public func mergeBlocks(_ a: BlockID, _ b: BlockID) -> BlockID {
    if a == b || b == 0 { return a }
    if a == 0 { return b }
    let key = Int64(min(a, b)) << 32 | Int64(max(a, b))
    if let m = blockMergeMemo[key] { return m }
    let m = block(blocks[Int(a)] + blocks[Int(b)])
    blockMergeMemo[key] = m
    return m
  }

  private func unionType(_ a: Int32, _ b: Int32) -> Int32 {
    var u = ValueType(kind: .union)
    for t in [types[Int(a)], types[Int(b)]] {
      u.variables = u.variables || t.variables
      if t.kind == .union { u.members += t.members } else { u.members.append(t) }
    }
    var seen = Set<ValueType>()
    u.members = u.members.filter { seen.insert($0).inserted }
    return type(u)
  }

  // MARK: - Encoding

  /// Counts of what an encoded table holds, reachable from its root.
  public struct Counts: Sendable {
    public var nodes = 0
    public var blocks = 0
    public var types = 0
    public var strings = 0
    public var bytes = 0
  }

  /// Encodes the tree under `root` (a block) in the binary form ``JunosSchema`` reads.
  public func encode(root: BlockID) -> ([UInt8], Counts) {
    // Reachable statements, blocks and types, in a stable order (depth-first from the root).
    var nodeOrder: [NodeID] = []
    var nodeNumber: [NodeID: UInt32] = [:]
    var blockOrder: [BlockID] = []
    var blockSeen: Set<BlockID> = []
    var typeOrder: [Int32] = []
    var typeNumber: [Int32: UInt32] = [:]
    var usedStrings: Set<String> = []
    func visitType(_ t: Int32) {
      guard t >= 0, typeNumber[t] == nil else { return }
      typeNumber[t] = UInt32(typeOrder.count)
      typeOrder.append(t)
      let v = types[Int(t)]
      usedStrings.formUnion(v.values)
      usedStrings.formUnion(v.patterns)
      if let r = v.range { usedStrings.insert(r) }
      if let l = v.length { usedStrings.insert(l) }
      for m in v.members { visitType(type(m)) }
    }
    var stack: [BlockID] = [root]
    blockSeen.insert(root)
    while let b = stack.popLast() {
      blockOrder.append(b)
      for c in blocks[Int(b)] {
        var todo = [c]
        while let id = todo.popLast() {
          guard nodeNumber[id] == nil else { continue }
          nodeNumber[id] = UInt32(nodeOrder.count)
          nodeOrder.append(id)
          let n = nodes[Int(id)]
          usedStrings.insert(n.name)
          if n.choice >= 0 {
            usedStrings.insert(strings[Int(n.choice)])
            usedStrings.insert(strings[Int(n.caseName)])
          }
          visitType(n.type)
          todo += n.keys
          if blockSeen.insert(n.children).inserted { stack.append(n.children) }
        }
      }
    }
    // Strings sorted by their bytes, so a block sorted by string number is sorted by name.
    let stringList = usedStrings.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    var stringNumber: [String: UInt32] = [:]
    for (i, s) in stringList.enumerated() { stringNumber[s] = UInt32(i) }

    var w = TableWriter()
    w.bytes += Array(JunosSchema.magic.utf8)
    let headerAt = w.bytes.count
    for _ in 0..<JunosSchema.headerWords { w.u32(0) }

    // Strings.
    let stringsAt = w.bytes.count
    var offset: UInt32 = 0
    for s in stringList {
      w.u32(offset)
      offset += UInt32(s.utf8.count)
    }
    w.u32(offset)
    for s in stringList { w.bytes += Array(s.utf8) }
    w.align()

    // Types: an offset table, then each type's words.
    var typeWords: [UInt32] = []
    var typeOffsets: [UInt32] = []
    let none = UInt32.max
    for t in typeOrder {
      typeOffsets.append(UInt32(typeWords.count))
      let v = types[Int(t)]
      typeWords.append(UInt32(v.kind.rawValue) | (v.variables ? 1 << 8 : 0))
      switch v.kind {
      case .enumeration:
        typeWords.append(UInt32(v.values.count))
        typeWords += v.values.map { stringNumber[$0]! }
      case .integer, .decimal:
        typeWords.append(v.range.map { stringNumber[$0]! } ?? none)
      case .string:
        typeWords.append(v.length.map { stringNumber[$0]! } ?? none)
        typeWords.append(UInt32(v.patterns.count))
        typeWords += v.patterns.map { stringNumber[$0]! }
      case .union:
        typeWords.append(UInt32(v.members.count))
        typeWords += v.members.map { typeNumber[type($0)]! }
      default:
        break
      }
    }
    typeOffsets.append(UInt32(typeWords.count))
    let typesAt = w.bytes.count
    for o in typeOffsets { w.u32(o) }
    for x in typeWords { w.u32(x) }

    // Blocks: [count, nokeyword count, children by name…, nokeyword children…]; block 0 is empty.
    var blockOffset: [BlockID: UInt32] = [:]
    var blockWords: [UInt32] = [0, 0]
    blockOffset[0] = 0
    for b in blockOrder where b != 0 {
      blockOffset[b] = UInt32(blockWords.count)
      let children = blocks[Int(b)].sorted { stringNumber[nodes[Int($0)].name]! < stringNumber[nodes[Int($1)].name]! }
      let positional = children.filter { nodes[Int($0)].flags.contains(.nokeyword) }
      blockWords.append(UInt32(children.count))
      blockWords.append(UInt32(positional.count))
      blockWords += children.map { nodeNumber[$0]! }
      blockWords += positional.map { nodeNumber[$0]! }
    }
    // Key lists are blocks too, in key order.
    var keyOffset: [NodeID: UInt32] = [:]
    for id in nodeOrder where !nodes[Int(id)].keys.isEmpty {
      keyOffset[id] = UInt32(blockWords.count)
      let keys = nodes[Int(id)].keys
      blockWords.append(UInt32(keys.count))
      blockWords.append(0)
      blockWords += keys.map { nodeNumber[$0]! }
    }

    // Statements: fixed records.
    let nodesAt = w.bytes.count
    for id in nodeOrder {
      let n = nodes[Int(id)]
      w.u32(stringNumber[n.name]!)
      w.u32(UInt32(n.kind.rawValue) | UInt32(n.flags.rawValue) << 8 | UInt32(n.families) << 24)
      w.u32(n.type >= 0 ? typeNumber[n.type]! : none)
      w.u32(keyOffset[id] ?? 0)
      w.u32(blockOffset[n.children]!)
      w.u32(n.choice >= 0 ? stringNumber[strings[Int(n.choice)]]! : none)
      w.u32(n.caseName >= 0 ? stringNumber[strings[Int(n.caseName)]]! : none)
    }
    let blocksAt = w.bytes.count
    for x in blockWords { w.u32(x) }

    let header: [UInt32] = [
      UInt32(stringList.count), UInt32(stringsAt), UInt32(typeOrder.count), UInt32(typesAt), UInt32(nodeOrder.count), UInt32(nodesAt),
      UInt32(blockWords.count), UInt32(blocksAt), blockOffset[root]!, UInt32(w.bytes.count),
    ]
    precondition(header.count == JunosSchema.headerWords)
    for (k, v) in header.enumerated() { w.put(v, at: headerAt + 4 * k) }
    let counts = Counts(
      nodes: nodeOrder.count, blocks: blockOrder.count, types: typeOrder.count, strings: stringList.count, bytes: w.bytes.count)
    return (w.bytes, counts)
  }
}

/// Little-endian writer of the table.
struct TableWriter {
  var bytes: [UInt8] = []
  mutating func u32(_ v: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: v))
    bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    bytes.append(UInt8(truncatingIfNeeded: v >> 16))
    bytes.append(UInt8(truncatingIfNeeded: v >> 24))
  }
  mutating func put(_ v: UInt32, at i: Int) {
    for k in 0..<4 { bytes[i + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
  }
  mutating func align() { while bytes.count % 4 != 0 { bytes.append(0) } }
}

/// Values kept once each, numbered in the order they were first seen.
struct Interned<T: Hashable> {
  private var values: [T] = []
  private var numbers: [T: Int32] = [:]

  var count: Int { values.count }
  subscript(_ i: Int) -> T { values[i] }

  /// The value's number, the next one if it is new.
  mutating func number(_ v: T) -> Int32 {
    if let i = numbers[v] { return i }
    let i = Int32(values.count)
    values.append(v)
    numbers[v] = i
    return i
  }
}

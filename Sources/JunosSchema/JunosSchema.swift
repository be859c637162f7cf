internal import CJunosSchemaTable

/// Juniper's configuration schema, generated from the YANG modules Juniper publishes for each
/// release (`Sources/junoscope-schemagen`, `Docs/Schema.md`): for every statement, its kind,
/// keys, the CLI's printing facts (`nokeyword`, `oneliner`), order, secrecy, value type and the
/// platform families that have it.
///
/// The table is bytes read in place: statements are fixed records, the children of a statement
/// a block sorted by name, found by binary search. ``standard`` is the table compiled into the
/// binary (the union of Junos 24.4R1, Junos OS Evolved 24.4R1 and 22.4R1 for `system` and EX),
/// linked in as it is (`CJunosSchemaTable`): nothing is decoded or copied at start-up, and only
/// the pages a run reads are loaded.
// Unchecked: the bytes are never written, and they outlive every copy of the value (the
// binary's own, or `owner`'s).
public struct JunosSchema: @unchecked Sendable {
  static let magic = "JSC1"
  static let headerWords = 10

  let bytes: UnsafeRawBufferPointer
  /// The copy of a table read from an array (nil for ``standard``).
  private let owner: Copy?
  let stringCount: Int
  let stringsAt: Int
  let typesAt: Int
  let typeCount: Int
  let nodeCount: Int
  let nodesAt: Int
  let blocksAt: Int
  let rootBlock: UInt32

  /// Bytes this process allocated for a table, freed with the last value that reads them.
  private final class Copy: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    init(_ source: [UInt8]) {
      let p = UnsafeMutableRawBufferPointer.allocate(byteCount: source.count, alignment: 16)
      p.copyBytes(from: source)
      bytes = UnsafeRawBufferPointer(p)
    }
    deinit { bytes.deallocate() }
  }

  /// Reads a table made by ``SchemaBuilder/encode(root:)``; `nil` if the bytes are not one.
  public init?(bytes: [UInt8]) {
    let copy = Copy(bytes)
    self.init(in: copy.bytes, owner: copy)
  }

  /// A table read in place; `nil` when the bytes are too few for a header, lack the magic, or
  /// are not as many as the header says.
  private init?(in b: UnsafeRawBufferPointer, owner: Copy?) {
    guard b.count >= 4 + 4 * Self.headerWords, b.prefix(4).elementsEqual(Self.magic.utf8) else { return nil }
    func word(_ k: Int) -> Int { Int(b.loadUnaligned(fromByteOffset: 4 + 4 * k, as: UInt32.self)) }
    guard word(9) == b.count else { return nil }
    bytes = b
    self.owner = owner
    stringCount = word(0)
    stringsAt = word(1)
    typeCount = word(2)
    typesAt = word(3)
    nodeCount = word(4)
    nodesAt = word(5)
    blocksAt = word(7)
    rootBlock = UInt32(word(8))
  }

  /// The table compiled into junoscope.
  public static let standard: JunosSchema = {
    var count = 0
    let b = UnsafeRawBufferPointer(start: junoscope_schema_table(&count), count: count)
    guard let s = JunosSchema(in: b, owner: nil) else { preconditionFailure("the compiled schema table is damaged") }
    return s
  }()

  @inline(__always) func u32(_ at: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self) }

  /// Number of statements in the table (each shared subtree counted once).
  public var statementCount: Int { nodeCount }
  /// Size of the table in bytes.
  public var byteCount: Int { bytes.count }
  /// Number of strings (names, enumeration values, patterns) in the table.
  public var stringTableCount: Int { stringCount }

  // MARK: - Strings

  func stringBytes(_ i: UInt32) -> UnsafeRawBufferPointer.SubSequence {
    let base = stringsAt + 4 * (stringCount + 1)
    let s = Int(u32(stringsAt + 4 * Int(i)))
    let e = Int(u32(stringsAt + 4 * Int(i) + 4))
    return bytes[(base + s)..<(base + e)]
  }

  func string(_ i: UInt32) -> String { String(decoding: stringBytes(i), as: UTF8.self) }

  /// -1, 0 or 1 as string `i` sorts before, equal to or after `key`.
  @inline(__always) func compare(_ i: UInt32, _ key: UnsafeRawBufferPointer) -> Int {
    let base = stringsAt + 4 * (stringCount + 1)
    let s = base + Int(u32(stringsAt + 4 * Int(i)))
    let e = base + Int(u32(stringsAt + 4 * Int(i) + 4))
    let n = min(e - s, key.count)
    for k in 0..<n {
      let x = bytes[s + k]
      let y = key[k]
      if x != y { return x < y ? -1 : 1 }
    }
    return (e - s) == key.count ? 0 : ((e - s) < key.count ? -1 : 1)
  }

  // MARK: - Statements

  /// The top level (`[edit]`).
  public var root: SchemaNode { SchemaNode(raw: UInt32.max) }

  func record(_ n: SchemaNode, _ field: Int) -> UInt32 { u32(nodesAt + 28 * Int(n.raw) + 4 * field) }

  /// The statement's keyword (for a `nokeyword` statement, the name of the value it holds).
  public func name(_ n: SchemaNode) -> String { n.isRoot ? "" : string(record(n, 0)) }
  /// The statement's kind.
  public func kind(_ n: SchemaNode) -> SchemaKind {
    n.isRoot ? .container : SchemaKind(rawValue: UInt8(truncatingIfNeeded: record(n, 1))) ?? .container
  }
  /// The statement's flags.
  public func flags(_ n: SchemaNode) -> SchemaFlags {
    n.isRoot ? [] : SchemaFlags(rawValue: UInt16(truncatingIfNeeded: record(n, 1) >> 8))
  }
  /// The families that have the statement (``SchemaFamily/mask`` bits).
  public func families(_ n: SchemaNode) -> UInt8 { n.isRoot ? SchemaFamily.all : UInt8(truncatingIfNeeded: record(n, 1) >> 24) }
  /// The choice and case the statement belongs to, or `nil`.
  public func choice(_ n: SchemaNode) -> (choice: String, case: String)? {
    guard !n.isRoot else { return nil }
    let c = record(n, 5)
    return c == UInt32.max ? nil : (string(c), string(record(n, 6)))
  }
  /// A number that two statements of one parent share exactly when they are in the same choice
  /// (`nil` outside choices); ``caseNumber(_:)`` tells their cases apart.
  public func choiceNumber(_ n: SchemaNode) -> UInt32? {
    guard !n.isRoot else { return nil }
    let c = record(n, 5)
    return c == UInt32.max ? nil : c
  }
  /// See ``choiceNumber(_:)``.
  public func caseNumber(_ n: SchemaNode) -> UInt32? {
    guard !n.isRoot else { return nil }
    let c = record(n, 6)
    return c == UInt32.max ? nil : c
  }

  /// The key leaves of a list, in key order (empty for other kinds).
  public func keys(_ n: SchemaNode) -> [SchemaNode] {
    guard !n.isRoot else { return [] }
    let off = record(n, 3)
    guard off != 0 else { return [] }
    return blockMembers(off, positional: false)
  }

  /// Number of key words of a list entry.
  public func keyCount(_ n: SchemaNode) -> Int {
    guard !n.isRoot else { return 0 }
    let off = record(n, 3)
    return off == 0 ? 0 : Int(u32(blocksAt + 4 * Int(off)))
  }

  /// Number of words a list entry's keys take: one for a key printed without its keyword
  /// (`nokeyword`, and Juniper's `choice-ident`/`choice-value` pairs: `route-filter 10.0.0.0/8
  /// upto /24`, `community add C1`), two for one printed with it (`drop-profile-map loss-priority
  /// low protocol any`).
  public func keyWordCount(_ n: SchemaNode) -> Int {
    guard !n.isRoot else { return 0 }
    let off = record(n, 3)
    guard off != 0 else { return 0 }
    let at = blocksAt + 4 * Int(off)
    var words = 0
    for i in 0..<Int(u32(at)) {
      words += keyPrintsKeyword(SchemaNode(raw: u32(at + 8 + 4 * i))) ? 2 : 1
    }
    return words
  }

  /// Whether a list key is printed with its keyword before its value.
  public func keyPrintsKeyword(_ key: SchemaNode) -> Bool {
    guard !flags(key).contains(.nokeyword) else { return false }
    return !stringBytes(record(key, 0)).starts(with: "choice-".utf8)
  }

  func childBlock(_ n: SchemaNode) -> UInt32 { n.isRoot ? rootBlock : record(n, 4) }

  func blockMembers(_ off: UInt32, positional: Bool) -> [SchemaNode] {
    let at = blocksAt + 4 * Int(off)
    let count = Int(u32(at))
    let pcount = Int(u32(at + 4))
    let start = at + 8 + (positional ? 4 * count : 0)
    return (0..<(positional ? pcount : count)).map { SchemaNode(raw: u32(start + 4 * $0)) }
  }

  /// The children of a container or list entry, sorted by name.
  public func children(_ n: SchemaNode) -> [SchemaNode] { blockMembers(childBlock(n), positional: false) }

  /// The children printed without their keyword (a `nokeyword` leaf, or a list such as
  /// `interfaces`' interface list whose entries are their names alone).
  public func positionalChildren(_ n: SchemaNode) -> [SchemaNode] { blockMembers(childBlock(n), positional: true) }

  /// The ``positionalChildren(_:)`` of `n`, without making an array: how many, and each.
  public func positionalChildCount(_ n: SchemaNode) -> Int { Int(u32(blocksAt + 4 * Int(childBlock(n)) + 4)) }

  /// The `k`th of the ``positionalChildren(_:)`` of `n` (`k < positionalChildCount(n)`).
  public func positionalChild(_ n: SchemaNode, at k: Int) -> SchemaNode {
    let at = blocksAt + 4 * Int(childBlock(n))
    return SchemaNode(raw: u32(at + 8 + 4 * (Int(u32(at)) + k)))
  }

  /// The child of `n` whose keyword is `name`.
  public func child(_ n: SchemaNode, named name: some StringProtocol) -> SchemaNode? {
    var name = String(name)
    return name.withUTF8 { child(n, bytes: UnsafeRawBufferPointer($0)) }
  }

  /// The child of `n` whose keyword is the given bytes.
  public func child(_ n: SchemaNode, bytes key: UnsafeRawBufferPointer) -> SchemaNode? {
    let at = blocksAt + 4 * Int(childBlock(n))
    var lo = 0
    var hi = Int(u32(at)) - 1
    while lo <= hi {
      let mid = (lo + hi) / 2
      let c = SchemaNode(raw: u32(at + 8 + 4 * mid))
      let r = compare(record(c, 0), key)
      if r == 0 { return c }
      if r < 0 { lo = mid + 1 } else { hi = mid - 1 }
    }
    return nil
  }

  /// The leaf or leaf-list's value type.
  public func valueType(_ n: SchemaNode) -> SchemaValueType? {
    guard !n.isRoot else { return nil }
    let t = record(n, 2)
    return t == UInt32.max ? nil : SchemaValueType(raw: t)
  }
}

/// A statement of a ``JunosSchema`` (valid for the table it came from).
public struct SchemaNode: Hashable, Sendable {
  let raw: UInt32
  /// A number for the statement, different for every statement of its table (for tables keyed
  /// by statement that hash it faster than `Hashable` does).
  public var number: UInt32 { raw }
  /// Whether this is the top level.
  public var isRoot: Bool { raw == UInt32.max }
}

/// A value type of a ``JunosSchema``.
public struct SchemaValueType: Hashable, Sendable {
  let raw: UInt32
  /// A number for the type, different for every type of its table and below
  /// ``JunosSchema/valueTypeCount`` (for tables indexed by type).
  public var number: UInt32 { raw }
}

extension JunosSchema {
  func typeWord(_ t: SchemaValueType, _ k: Int) -> UInt32 {
    let off = u32(typesAt + 4 * Int(t.raw))
    return u32(typesAt + 4 * (typeCount + 1) + 4 * (Int(off) + k))
  }

  /// How many value types the table has.
  public var valueTypeCount: Int { typeCount }
  /// The kind of a value type.
  public func kind(_ t: SchemaValueType) -> ValueKind { ValueKind(rawValue: UInt8(truncatingIfNeeded: typeWord(t, 0))) ?? .string }
  /// Whether a `<…>`/`$…` variable may stand for the value.
  public func allowsVariables(_ t: SchemaValueType) -> Bool { typeWord(t, 0) & (1 << 8) != 0 }
  /// The words of an enumeration.
  public func enumeration(_ t: SchemaValueType) -> [String] {
    guard kind(t) == .enumeration else { return [] }
    return (0..<Int(typeWord(t, 1))).map { string(typeWord(t, 2 + $0)) }
  }
  /// The members of a union.
  public func members(_ t: SchemaValueType) -> [SchemaValueType] {
    guard kind(t) == .union else { return [] }
    return (0..<Int(typeWord(t, 1))).map { SchemaValueType(raw: typeWord(t, 2 + $0)) }
  }
  /// The range of an integer or decimal, as written in YANG (`1 .. 16 | 20`).
  public func range(_ t: SchemaValueType) -> String? {
    guard kind(t) == .integer || kind(t) == .decimal else { return nil }
    let r = typeWord(t, 1)
    return r == UInt32.max ? nil : string(r)
  }
  /// The patterns of a string: POSIX extended regular expressions, or XSD ones prefixed `xsd:`.
  public func patterns(_ t: SchemaValueType) -> [String] {
    guard kind(t) == .string else { return [] }
    return (0..<Int(typeWord(t, 2))).map { string(typeWord(t, 3 + $0)) }
  }
  /// The YANG `length` of a string, as written.
  public func length(_ t: SchemaValueType) -> String? {
    guard kind(t) == .string else { return nil }
    let r = typeWord(t, 1)
    return r == UInt32.max ? nil : string(r)
  }
}

/// A Junos AS-path regular expression (`as-path NAME "65000 .* [64512-65534]+"`), matched against
/// a whole AS path: its tokens are AS numbers, not characters.
///
/// The dialect is in `Docs/PolicySemantics.md`.
public struct ASPathRegex: Sendable, Hashable {
  indirect enum Node: Sendable, Hashable {
    /// One AS in one of these inclusive ranges; `nil` = any AS (`.`).
    case atom([ClosedRange<UInt32>]?)
    case sequence([Node])
    case alternatives([Node])
    /// `min` to `max` repetitions (`max` `nil` = unbounded).
    case repeated(Node, min: Int, max: Int?)
  }

  let root: Node

  /// An expression built by another reader of the same tree (community fields); `nil` when it
  /// is out of the bounds below.
  init?(root: Node) {
    guard Self.withinBounds(root) else { return nil }
    self.root = root
  }

  /// Parses `text`; `nil` when it is not an expression of the dialect.
  public init?(_ text: String) {
    var p = Parser(bytes: Array(text.utf8))
    guard let root = p.alternatives(), p.atEnd else { return nil }
    self.init(root: root)
  }

  /// The longest shortest match, in ASes (or digits), an expression may have.
  static let maxShortestMatch = 1024

  /// Whether matching `root` stays polynomial: repetitions nest at most two deep (`(1+ 2)*`;
  /// each level multiplies the rounds of `step`, so `1+++…` would take time exponential in its
  /// `+`s), and the shortest match is at most `maxShortestMatch` long (`1{1000}{1000}` would
  /// write a million ASes).
  static func withinBounds(_ root: Node) -> Bool {
    /// The repetition depth of `n` and the length of its shortest match (capped), or `nil`
    /// when `n` matches nothing.
    func measure(_ n: Node) -> (depth: Int, length: Int?) {
      switch n {
      case .atom(let ranges): return (0, ranges?.isEmpty == true ? nil : 1)
      case .sequence(let nodes):
        var depth = 0
        var length: Int? = 0
        for m in nodes {
          let x = measure(m)
          depth = max(depth, x.depth)
          length = length.flatMap { a in x.length.map { min(a + $0, maxShortestMatch + 1) } }
        }
        return (depth, length)
      case .alternatives(let nodes):
        let xs = nodes.map(measure)
        return (xs.map(\.depth).max() ?? 0, xs.compactMap(\.length).min())
      case .repeated(let inner, let lo, _):
        let x = measure(inner)
        if lo == 0 { return (x.depth + 1, 0) }
        return (x.depth + 1, x.length.map { min($0 * lo, maxShortestMatch + 1) })
      }
    }
    let m = measure(root)
    return m.depth <= 2 && (m.length ?? 0) <= maxShortestMatch
  }

  /// Whether the whole of `path` matches (`^` and `$` are implicit).
  public func matches(_ path: [UInt32]) -> Bool {
    var start = [Bool](repeating: false, count: path.count + 1)
    start[0] = true
    return Self.step(root, start, path)[path.count]
  }

  /// A shortest AS path the expression matches (the lowest AS of each range); `nil` when it
  /// matches none.
  public var shortestMatch: [UInt32]? { Self.shortest(root) }

  /// The AS numbers the expression names (each range's ends).
  public var numbers: Set<UInt32> {
    var out: Set<UInt32> = []
    func walk(_ n: Node) {
      switch n {
      case .atom(let ranges): for r in ranges ?? [] { out.formUnion([r.lowerBound, r.upperBound]) }
      case .sequence(let nodes), .alternatives(let nodes): nodes.forEach(walk)
      case .repeated(let inner, _, _): walk(inner)
      }
    }
    walk(root)
    return out
  }

  private static func shortest(_ node: Node) -> [UInt32]? {
    switch node {
    case .atom(let ranges):
      guard let ranges else { return [1] }
      return ranges.first.map { [$0.lowerBound] }
    case .sequence(let nodes):
      var out: [UInt32] = []
      for n in nodes {
        guard let part = shortest(n) else { return nil }
        out += part
      }
      return out
    case .alternatives(let nodes):
      return nodes.compactMap(shortest).min { $0.count < $1.count }
    case .repeated(let inner, let min, _):
      if min == 0 { return [] }
      guard let part = shortest(inner) else { return nil }
      return Array([[UInt32]](repeating: part, count: min).joined())
    }
  }

  /// The positions reachable after `node` from the positions set in `from`.
  private static func step(_ node: Node, _ from: [Bool], _ path: [UInt32]) -> [Bool] {
    switch node {
    case .atom(let ranges):
      var out = [Bool](repeating: false, count: from.count)
      for i in path.indices where from[i] {
        if ranges?.contains(where: { $0.contains(path[i]) }) ?? true { out[i + 1] = true }
      }
      return out
    case .sequence(let nodes):
      return nodes.reduce(from) { step($1, $0, path) }
    case .alternatives(let nodes):
      var out = [Bool](repeating: false, count: from.count)
      for n in nodes {
        for (i, b) in step(n, from, path).enumerated() where b { out[i] = true }
      }
      return out
    case .repeated(let inner, let min, let max):
      var current = from
      for _ in 0..<min { current = step(inner, current, path) }
      var all = current
      var count = min
      // Each round adds positions or stops; a path of n ASes needs at most n + 1 rounds.
      while max.map({ count < $0 }) ?? true {
        let next = step(inner, current, path)
        var grew = false
        for (i, b) in next.enumerated() where b && !all[i] {
          all[i] = true
          grew = true
        }
        if !grew { break }
        current = next
        count += 1
      }
      return all
    }
  }
}

/// A recursive-descent reader of the dialect, on bytes.
private struct Parser {
  let bytes: [UInt8]
  var i = 0

  var atEnd: Bool {
    mutating get {
      skipSpace()
      return i == bytes.count
    }
  }

  mutating func skipSpace() {
    while i < bytes.count && (bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t")) { i += 1 }
  }

  mutating func peek() -> UInt8? {
    skipSpace()
    return i < bytes.count ? bytes[i] : nil
  }

  mutating func alternatives() -> ASPathRegex.Node? {
    var options: [ASPathRegex.Node] = []
    repeat {
      if !options.isEmpty { i += 1 }
      guard let s = sequence() else { return nil }
      options.append(s)
    } while peek() == UInt8(ascii: "|")
    return options.count == 1 ? options[0] : .alternatives(options)
  }

  mutating func sequence() -> ASPathRegex.Node? {
    var items: [ASPathRegex.Node] = []
    while let b = peek(), b != UInt8(ascii: "|"), b != UInt8(ascii: ")") {
      if b == UInt8(ascii: "^") || b == UInt8(ascii: "$") {
        i += 1
        continue
      }
      guard var atom = atom() else { return nil }
      while let q = postfix() { atom = .repeated(atom, min: q.0, max: q.1) }
      items.append(atom)
    }
    return items.count == 1 ? items[0] : .sequence(items)
  }

  mutating func atom() -> ASPathRegex.Node? {
    guard let b = peek() else { return nil }
    switch b {
    case UInt8(ascii: "."):
      i += 1
      return .atom(nil)
    case UInt8(ascii: "("):
      i += 1
      guard let inner = alternatives(), peek() == UInt8(ascii: ")") else { return nil }
      i += 1
      return inner
    case UInt8(ascii: "["):
      i += 1
      var ranges: [ClosedRange<UInt32>] = []
      while let c = peek(), c != UInt8(ascii: "]") {
        guard let r = range() else { return nil }
        ranges.append(r)
      }
      guard peek() == UInt8(ascii: "]"), !ranges.isEmpty else { return nil }
      i += 1
      return .atom(ranges)
    default:
      return range().map { .atom([$0]) }
    }
  }

  /// `N` or `N-M`.
  mutating func range() -> ClosedRange<UInt32>? {
    guard let lo = number() else { return nil }
    guard i < bytes.count, bytes[i] == UInt8(ascii: "-") else { return lo...lo }
    i += 1
    guard let hi = number(), lo <= hi else { return nil }
    return lo...hi
  }

  /// A decimal number at `i` (no space skipped inside), at most 2^32 − 1.
  mutating func number() -> UInt32? {
    skipSpace()
    var v: UInt64 = 0
    let start = i
    while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
      v = v * 10 + UInt64(bytes[i] - UInt8(ascii: "0"))
      guard v <= UInt64(UInt32.max) else { return nil }
      i += 1
    }
    return i > start ? UInt32(v) : nil
  }

  /// `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` right after an atom.
  mutating func postfix() -> (Int, Int?)? { regexRepetition(bytes, at: &i) }

}

/// The repetition at `i` right after an atom (`*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`, m and n at
/// most 1024, blanks allowed inside the braces), moving `i` past it; `nil` (and `i` unmoved) when
/// there is none. Shared by the AS-path and community-field readers.
func regexRepetition(_ bytes: [UInt8], at i: inout Int) -> (Int, Int?)? {
  guard i < bytes.count else { return nil }
  switch bytes[i] {
  case UInt8(ascii: "*"):
    i += 1
    return (0, nil)
  case UInt8(ascii: "+"):
    i += 1
    return (1, nil)
  case UInt8(ascii: "?"):
    i += 1
    return (0, 1)
  case UInt8(ascii: "{"):
    var j = i + 1
    func count() -> Int? {
      while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j += 1 }
      var v = 0
      let start = j
      while j < bytes.count, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9") {
        v = min(v * 10 + Int(bytes[j] - UInt8(ascii: "0")), 1025)
        j += 1
      }
      return j > start ? v : nil
    }
    guard let m = count(), m <= 1024 else { return nil }
    var n: Int? = m
    if j < bytes.count && bytes[j] == UInt8(ascii: ",") {
      j += 1
      n = count()
      if let hi = n, hi < m || hi > 1024 { return nil }
    }
    guard j < bytes.count, bytes[j] == UInt8(ascii: "}") else { return nil }
    i = j + 1
    return (m, n)
  default:
    return nil
  }
}

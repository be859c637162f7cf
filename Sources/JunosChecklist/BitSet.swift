/// A set of small indices, as bits: the classes of one part of a route (``RouteSpace``), the
/// atoms of one header field (``HeaderSpace``).
struct BitSet: Hashable, Sendable {
  private(set) var words: [UInt64]

  /// The empty set (`full: false`) or every class of `count`.
  init(count: Int, full: Bool) {
    words = [UInt64](repeating: full ? ~0 : 0, count: (count + 63) / 64)
    if full, count % 64 != 0 { words[words.count - 1] = (UInt64(1) << UInt64(count % 64)) - 1 }
  }

  /// The classes of `count` for which `test` holds.
  init(count: Int, where test: (Int) -> Bool) {
    self.init(count: count, full: false)
    for k in 0..<count where test(k) { insert(k) }
  }

  mutating func insert(_ k: Int) { words[k / 64] |= UInt64(1) << UInt64(k % 64) }

  func contains(_ k: Int) -> Bool { words[k / 64] & (UInt64(1) << UInt64(k % 64)) != 0 }

  var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

  /// The lowest class in the set.
  var first: Int? {
    for (i, w) in words.enumerated() where w != 0 { return i * 64 + w.trailingZeroBitCount }
    return nil
  }

  /// The classes in the set, lowest first.
  var elements: [Int] {
    var out: [Int] = []
    for (i, w) in words.enumerated() {
      var v = w
      while v != 0 {
        out.append(i * 64 + v.trailingZeroBitCount)
        v &= v - 1
      }
    }
    return out
  }

  static func & (a: BitSet, b: BitSet) -> BitSet { a.combined(b) { $0 & $1 } }
  static func | (a: BitSet, b: BitSet) -> BitSet { a.combined(b) { $0 | $1 } }
  static func - (a: BitSet, b: BitSet) -> BitSet { a.combined(b) { $0 & ~$1 } }

  private func combined(_ o: BitSet, _ f: (UInt64, UInt64) -> UInt64) -> BitSet {
    var r = self
    for i in r.words.indices { r.words[i] = f(words[i], o.words[i]) }
    return r
  }
}

internal import JunosConfig
import Synchronization

/// Prefixes by their network at each prefix length present, so that finding the first one that
/// holds an address takes one hash look-up per length instead of a scan of them all.
struct PrefixIndex<Value: Sendable>: Sendable {
  /// An address's first `length` bits, as integers (no allocation).
  struct Key: Hashable {
    var high: UInt64
    var low: UInt64
    var length: Int
    var v6: Bool

    init(_ p: IPPrefix, length: Int) {
      var high: UInt64 = 0
      var low: UInt64 = 0
      for (i, b) in p.bytes.prefix(16).enumerated() {
        if i < 8 { high |= UInt64(b) << UInt64(56 - 8 * i) } else { low |= UInt64(b) << UInt64(56 - 8 * (i - 8)) }
      }
      // Keep the first `length` bits (0...128).
      if length < 64 {
        high &= length == 0 ? 0 : ~UInt64(0) << UInt64(64 - length)
        low = 0
      } else if length < 128 {
        low &= length == 64 ? 0 : ~UInt64(0) << UInt64(128 - length)
      }
      self.high = high
      self.low = low
      self.length = length
      v6 = p.family == .inet6
    }
  }

  private var entries: [Key: (order: Int, value: Value)] = [:]
  /// The (family, length) pairs present, in the order first seen.
  private var lengths: [(v6: Bool, length: Int)] = []
  private var count = 0

  /// Adds `prefix` (host bits ignored) with its value; of two equal networks the first stays.
  mutating func insert(_ prefix: IPPrefix, _ value: Value) {
    let key = Key(prefix, length: prefix.length)
    if !lengths.contains(where: { $0.v6 == key.v6 && $0.length == key.length }) { lengths.append((key.v6, key.length)) }
    if entries[key] == nil { entries[key] = (count, value) }
    count += 1
  }

  /// The value of the first prefix inserted that contains `address`.
  func first(containing address: IPPrefix) -> Value? {
    var best: (order: Int, value: Value)?
    let v6 = address.family == .inet6
    for l in lengths where l.v6 == v6 && l.length <= address.length {
      if let hit = entries[Key(address, length: l.length)], hit.order < best?.order ?? Int.max { best = hit }
    }
    return best?.value
  }
}

/// What several rules derive from one configuration, kept once the first rule has asked (a
/// context relabelled for another plan step shares it).
final class ContextCache: Sendable {
  let chains = Mutex<[AppliedChain]?>(nil)
  let aggregates = Mutex<[AggregateAnalysis]?>(nil)

  init() {}

  /// The value held in `slot`, made by `make` the first time.
  static func value<T: Sendable>(_ slot: borrowing Mutex<T?>, _ make: () -> T) -> T {
    if let v = slot.withLock({ $0 }) { return v }
    let v = make()
    slot.withLock { $0 = v }
    return v
  }
}

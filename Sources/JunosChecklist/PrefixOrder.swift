import JunosConfig

/// Address order, a prefix before the prefixes inside it.
func addressOrder(_ a: IPPrefix, _ b: IPPrefix) -> Bool {
  if a.family != b.family { return a.family == .inet }
  let x = a.network.bytes
  let y = b.network.bytes
  if x != y { return x.lexicographicallyPrecedes(y) }
  return a.length < b.length
}

/// Free space under a prefix, for the examples of the route classes (``RouteSpace``) and of the
/// header-space atoms (``AddressAxis``).
enum PrefixOrder {
  /// The first prefix of `length` inside `node`, in address order, that lies in none of `holes`
  /// (disjoint, in address order, each at most `length` long).
  static func firstFree(in node: IPPrefix, length: Int, avoiding holes: [IPPrefix]) -> IPPrefix? {
    if length == node.length { return holes.isEmpty ? node : nil }
    let width = node.width
    var q = address(node)
    let end = q + hostMask(width - node.length)
    for h in holes {
      let start = address(h)
      if start > q { break }
      let hEnd = start + hostMask(width - h.length)
      if hEnd >= q {
        guard hEnd < end else { return nil }
        q = hEnd + 1
      }
    }
    guard q <= end else { return nil }
    return prefix(q, family: node.family, length: length)
  }

  /// The lowest `bits` bits set.
  private static func hostMask(_ bits: Int) -> UInt128 { bits >= 128 ? .max : (UInt128(1) << UInt128(bits)) - 1 }

  private static func address(_ p: IPPrefix) -> UInt128 { p.network.bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) } }

  private static func prefix(_ a: UInt128, family: IPPrefix.Family, length: Int) -> IPPrefix {
    let n = family == .inet ? 4 : 16
    let bytes = (0..<n).map { UInt8(truncatingIfNeeded: a >> UInt128(8 * (n - 1 - $0))) }
    return IPPrefix(family: family, bytes: bytes, length: length)
  }
}

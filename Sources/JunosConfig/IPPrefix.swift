/// An IPv4 or IPv6 prefix (`10.0.0.0/8`, `2001:db8::/32`), or an interface address with its
/// host bits (`10.254.0.0/31`, `10.255.0.11/32`).
public struct IPPrefix: Sendable, Hashable, CustomStringConvertible {
  /// The address family.
  public enum Family: String, Sendable, Hashable {
    case inet, inet6
  }

  /// `inet` or `inet6`.
  public let family: Family
  /// The address bytes (4 or 16), host bits as written.
  public let bytes: [UInt8]
  /// The prefix length.
  public let length: Int

  /// Creates a prefix from bytes and a length (clamped to the family's width).
  public init(family: Family, bytes: [UInt8], length: Int) {
    self.family = family
    self.bytes = bytes
    self.length = max(0, min(length, bytes.count * 8))
  }

  /// Parses `a.b.c.d[/len]` or an IPv6 address `x:…[/len]`; an address without a length is a
  /// host route (/32, /128). Returns `nil` for anything else.
  public init?(_ text: some StringProtocol) { self.init(utf8: Array(text.utf8)[...]) }

  /// ``init(_:)`` of the text's UTF-8 bytes.
  package init?(utf8: ArraySlice<UInt8>) {
    var addr = utf8
    var len: Int?
    if let slash = utf8.firstIndex(of: UInt8(ascii: "/")) {
      addr = utf8[..<slash]
      let digits = utf8[(slash + 1)...]
      guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
      len = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
    if let v4 = IPPrefix.parseV4(addr) {
      guard (len ?? 32) <= 32 else { return nil }
      self.init(family: .inet, bytes: v4, length: len ?? 32)
    } else if let v6 = IPPrefix.parseV6(addr) {
      guard (len ?? 128) <= 128 else { return nil }
      self.init(family: .inet6, bytes: v6, length: len ?? 128)
    } else {
      return nil
    }
  }

  package static func parseV4(_ s: ArraySlice<UInt8>) -> [UInt8]? {
    var out: [UInt8] = []
    var value = -1
    for c in s {
      if c == UInt8(ascii: ".") {
        guard value >= 0, out.count < 3 else { return nil }
        out.append(UInt8(value))
        value = -1
      } else if c >= 48 && c <= 57 {
        value = (value < 0 ? 0 : value * 10) + Int(c - 48)
        if value > 255 { return nil }
      } else {
        return nil
      }
    }
    guard value >= 0, out.count == 3 else { return nil }
    out.append(UInt8(value))
    return out
  }

  /// The value of a hexadecimal digit (either case), or `nil` for another byte.
  package static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case 48...57: c - 48
    case 97...102: c - 87
    case 65...70: c - 55
    default: nil
    }
  }

  package static func parseV6(_ s: ArraySlice<UInt8>) -> [UInt8]? {
    guard s.contains(UInt8(ascii: ":")) else { return nil }
    var head: [UInt16] = []
    var tail: [UInt16] = []
    var sawGap = false
    let text = Array(s)
    var i = 0
    if text.starts(with: [58, 58]) {
      sawGap = true
      i = 2
    }
    var v4Tail: [UInt8]?
    while i < text.count {
      var j = i
      while j < text.count && text[j] != 58 { j += 1 }
      let group = text[i..<j]
      if group.contains(UInt8(ascii: ".")) {
        guard j == text.count, let v4 = parseV4(group) else { return nil }
        v4Tail = v4
      } else {
        guard !group.isEmpty, group.count <= 4 else { return nil }
        var v: UInt16 = 0
        for c in group {
          guard let d = hexValue(c) else { return nil }
          v = v << 4 | UInt16(d)
        }
        if sawGap { tail.append(v) } else { head.append(v) }
      }
      if j == text.count { break }
      // j is at ':'
      if j + 1 < text.count && text[j + 1] == 58 {
        guard !sawGap else { return nil }
        sawGap = true
        i = j + 2
      } else {
        guard j + 1 < text.count else { return nil }
        i = j + 1
      }
    }
    if let v4Tail {
      let a = UInt16(v4Tail[0]) << 8 | UInt16(v4Tail[1])
      let b = UInt16(v4Tail[2]) << 8 | UInt16(v4Tail[3])
      if sawGap { tail += [a, b] } else { head += [a, b] }
    }
    let total = head.count + tail.count
    if sawGap { guard total <= 7 else { return nil } } else { guard total == 8 else { return nil } }
    let groups = head + Array(repeating: 0, count: 8 - total) + tail
    return groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
  }

  /// The prefix with its host bits cleared (`10.254.0.1/31` → `10.254.0.0/31`).
  public var network: IPPrefix {
    var b = bytes
    for i in 0..<b.count {
      let bitsHere = max(0, min(8, length - i * 8))
      b[i] &= bitsHere == 0 ? 0 : UInt8(truncatingIfNeeded: 0xff << (8 - bitsHere))
    }
    return IPPrefix(family: family, bytes: b, length: length)
  }

  /// Whether the first `bits` bits of two addresses agree.
  package func samePrefixBits(_ other: IPPrefix, bits: Int) -> Bool {
    guard family == other.family else { return false }
    var remaining = bits
    var i = 0
    while remaining >= 8 {
      if bytes[i] != other.bytes[i] { return false }
      remaining -= 8
      i += 1
    }
    if remaining > 0 {
      let mask = UInt8(truncatingIfNeeded: 0xff << (8 - remaining))
      if bytes[i] & mask != other.bytes[i] & mask { return false }
    }
    return true
  }

  /// Whether `other` lies inside this prefix (the same prefix counts).
  public func contains(_ other: IPPrefix) -> Bool {
    other.length >= length && samePrefixBits(other, bits: length)
  }

  /// Whether the two prefixes share any address.
  public func overlaps(_ other: IPPrefix) -> Bool { contains(other) || other.contains(self) }

  /// The number of address bits: 32 or 128.
  public var width: Int { bytes.count * 8 }

  /// Whether address bit `i` (0 = most significant) is set.
  package func bit(_ i: Int) -> Bool { bytes[i / 8] & (0x80 >> UInt8(i % 8)) != 0 }

  /// The number of leading bits two addresses of one family share, at most both lengths.
  package func commonLength(_ other: IPPrefix) -> Int {
    let limit = min(length, other.length)
    var n = 0
    for (a, b) in zip(bytes, other.bytes) {
      let x = a ^ b
      if x != 0 { return min(limit, n + x.leadingZeroBitCount) }
      n += 8
      if n >= limit { break }
    }
    return min(limit, n)
  }

  /// The half of this prefix one bit longer whose new bit is `one`.
  package func half(_ one: Bool) -> IPPrefix {
    var b = network.bytes
    if one { b[length / 8] |= 0x80 >> UInt8(length % 8) }
    return IPPrefix(family: family, bytes: b, length: length + 1)
  }

  /// The address alone, without the length (`192.0.2.1`, `2001:db8::1`).
  public var addressText: String { String(description.prefix { $0 != "/" }) }

  /// `10.0.0.0/8`; IPv6 in the RFC 5952 form (lower case, the longest run of two or more zero
  /// groups as `::`, IPv4-mapped addresses as `::ffff:a.b.c.d`).
  public var description: String {
    switch family {
    case .inet:
      return bytes.map(String.init).joined(separator: ".") + "/\(length)"
    case .inet6:
      if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
        return "::ffff:" + bytes[12...].map(String.init).joined(separator: ".") + "/\(length)"
      }
      let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
      var bestStart = -1
      var bestLen = 0
      var k = 0
      while k < 8 {
        if groups[k] == 0 {
          var e = k
          while e < 8 && groups[e] == 0 { e += 1 }
          if e - k > bestLen && e - k > 1 {
            bestStart = k
            bestLen = e - k
          }
          k = e
        } else {
          k += 1
        }
      }
      func hex(_ g: ArraySlice<UInt16>) -> String { g.map { String($0, radix: 16) }.joined(separator: ":") }
      let text =
        bestStart < 0
        ? hex(groups[...])
        : hex(groups[..<bestStart]) + "::" + hex(groups[(bestStart + bestLen)...])
      return text + "/\(length)"
    }
  }
}

/// A small JSON reader (RFC 8259; nesting limited to 64 levels), for bundle manifests and reports.
///
/// Objects keep the last value of a repeated key and do not keep key order. Strings are decoded
/// from UTF-8 (invalid UTF-8 and lone surrogates become U+FFFD); numbers are read as `Double`.
package enum MiniJSON {
  /// A parsed JSON value.
  package indirect enum Value: Sendable, Equatable {
    case object([String: Value])
    case array([Value])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The string, if this is a string.
    package var string: String? {
      if case .string(let s) = self { return s }
      return nil
    }
    /// The number, if this is a number.
    package var number: Double? {
      if case .number(let n) = self { return n }
      return nil
    }
    /// The members, if this is an object.
    package var object: [String: Value]? {
      if case .object(let o) = self { return o }
      return nil
    }
    /// The elements, if this is an array.
    package var array: [Value]? {
      if case .array(let a) = self { return a }
      return nil
    }
    /// The truth value, if this is `true` or `false`.
    package var bool: Bool? {
      if case .bool(let b) = self { return b }
      return nil
    }
    /// The member `key` of an object, or nil.
    package subscript(_ key: String) -> Value? { object?[key] }
    /// Element `k` of an array, or nil.
    package subscript(_ k: Int) -> Value? {
      guard let a = array, a.indices.contains(k) else { return nil }
      return a[k]
    }
  }

  /// The input is not JSON; `offset` is the byte at which reading failed.
  package struct Failure: Error, Sendable, Equatable {
    /// 0-based byte offset into the input.
    package var offset: Int
    /// Creates a failure at `offset`.
    package init(offset: Int = 0) { self.offset = offset }
  }

  /// Parses one JSON value (surrounded by optional whitespace) from UTF-8 bytes.
  package static func parse(_ bytes: [UInt8]) throws(Failure) -> Value {
    var p = Parser(b: bytes)
    let v = try p.value(depth: 0)
    p.blanks()
    guard p.i == bytes.count else { throw Failure(offset: p.i) }
    return v
  }

  private struct Parser {
    let b: [UInt8]
    var i = 0

    var failure: Failure { Failure(offset: i) }

    mutating func blanks() { while i < b.count && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 } }

    mutating func literal(_ s: String) throws(Failure) {
      let u = Array(s.utf8)
      guard i + u.count <= b.count, b[i..<(i + u.count)].elementsEqual(u) else { throw failure }
      i += u.count
    }

    mutating func value(depth: Int) throws(Failure) -> Value {
      guard depth < 64 else { throw failure }
      blanks()
      guard i < b.count else { throw failure }
      switch b[i] {
      case UInt8(ascii: "{"):
        i += 1
        var o: [String: Value] = [:]
        blanks()
        if i < b.count && b[i] == UInt8(ascii: "}") {
          i += 1
          return .object(o)
        }
        while true {
          blanks()
          let k = try string()
          blanks()
          try literal(":")
          o[k] = try value(depth: depth + 1)
          blanks()
          guard i < b.count else { throw failure }
          if b[i] == UInt8(ascii: ",") {
            i += 1
            continue
          }
          try literal("}")
          return .object(o)
        }
      case UInt8(ascii: "["):
        i += 1
        var a: [Value] = []
        blanks()
        if i < b.count && b[i] == UInt8(ascii: "]") {
          i += 1
          return .array(a)
        }
        while true {
          a.append(try value(depth: depth + 1))
          blanks()
          guard i < b.count else { throw failure }
          if b[i] == UInt8(ascii: ",") {
            i += 1
            continue
          }
          try literal("]")
          return .array(a)
        }
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"):
        try literal("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try literal("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try literal("null")
        return .null
      default:
        let start = i
        guard b[i] == 0x2D || (b[i] >= 0x30 && b[i] <= 0x39) else { throw failure }  // no leading '+'
        while i < b.count, b[i] == 0x2D || b[i] == 0x2B || b[i] == 0x2E || b[i] == 0x45 || b[i] == 0x65 || (b[i] >= 0x30 && b[i] <= 0x39) {
          i += 1
        }
        guard let n = Double(String(decoding: b[start..<i], as: UTF8.self)) else { throw Failure(offset: start) }
        return .number(n)
      }
    }

    mutating func string() throws(Failure) -> String {
      try literal("\"")
      var out: [UInt8] = []
      while i < b.count {
        let c = b[i]
        i += 1
        if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
        guard c == UInt8(ascii: "\\") else {
          guard c >= 0x20 else { throw Failure(offset: i - 1) }
          out.append(c)
          continue
        }
        guard i < b.count else { throw failure }
        let e = b[i]
        i += 1
        switch e {
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "u"):
          guard i + 4 <= b.count, b[i..<(i + 4)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
            var code = UInt32(String(decoding: b[i..<(i + 4)], as: UTF8.self), radix: 16)
          else { throw failure }
          i += 4
          if (0xD800..<0xDC00).contains(code), i + 6 <= b.count, b[i] == 0x5C, b[i + 1] == UInt8(ascii: "u"),
            let low = UInt32(String(decoding: b[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16), (0xDC00..<0xE000).contains(low)
          {
            code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
            i += 6
          }
          out.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
        default: throw Failure(offset: i - 1)  // RFC 8259 allows no other escapes
        }
      }
      throw failure
    }
  }
}

/// How an XML value and the words of curly text stand for each other: the one place the XML
/// parser and the XML renderer agree on quoting.
///
/// A value is one word, quoted when curly text could not read it bare: empty, or with a blank or
/// control byte, `"`, `;`, `{`, `}`, `[`, `]` or `$` (Junos quotes its encrypted `$9$…` and
/// `$1$…` secrets), starting with `#` or `/*`, or spelled like a prefix tag (`inactive:`).
/// Inside the quotes `"` is written `\"`, a backslash before `"`, another backslash or the end
/// `\\`, a line break `\n`, a carriage return `\r`; other backslashes stay as they are (regular
/// expressions keep `\.`). A value in parentheses (`( A && B )`, a policy expression) is its
/// blank-separated words, as the device prints it.
enum XMLWords {
  /// Statements whose YANG name (an element name) is their CLI keyword with `ieee-` before it,
  /// because a YANG name cannot start with a digit: `gigether-options 802.3ad ae0` is
  /// `<ieee-802.3ad>`. (Others keep the prefix in the CLI too: `classifiers ieee-802.1`.)
  static let prefixedKeywords: Set<String> = ["ieee-802.3ad"]

  /// The CLI keyword of a schema statement named `name`.
  static func keyword(_ name: String) -> [UInt8] {
    prefixedKeywords.contains(name) ? Array(name.utf8.dropFirst(5)) : Array(name.utf8)
  }

  @inline(__always) static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  /// The value without blanks at either end.
  static func trimmed(_ v: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var s = v.startIndex
    var e = v.endIndex
    while s < e && isBlank(v[s]) { s += 1 }
    while e > s && isBlank(v[e - 1]) { e -= 1 }
    return v[s..<e]
  }

  /// Whether curly text must quote the value to read it back as one word.
  static func needsQuotes(_ v: ArraySlice<UInt8>) -> Bool {
    guard let first = v.first else { return true }
    if first == UInt8(ascii: "#") { return true }
    if first == UInt8(ascii: "/") && v.count >= 2 && v[v.startIndex + 1] == UInt8(ascii: "*") { return true }
    for c in v {
      switch c {
      case 0...0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["),
        UInt8(ascii: "]"), UInt8(ascii: "$"):
        return true
      default: continue
      }
    }
    if v.last == UInt8(ascii: ":") {
      return StatementFlags.prefixes.contains { v.elementsEqual($0.1.utf8) }
    }
    return false
  }

  /// The word for one value: the value itself, or quoted.
  static func word(_ v: ArraySlice<UInt8>) -> [UInt8] {
    guard needsQuotes(v) else { return Array(v) }
    var out: [UInt8] = [UInt8(ascii: "\"")]
    out.reserveCapacity(v.count + 2)
    var k = v.startIndex
    while k < v.endIndex {
      let c = v[k]
      switch c {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), c])
      case UInt8(ascii: "\\"):
        let next = k + 1 < v.endIndex ? v[k + 1] : nil
        if next == nil || next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next == 0x0A || next == 0x0D {
          out.append(contentsOf: [c, c])
        } else {
          out.append(c)
        }
      case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      default: out.append(c)
      }
      k += 1
    }
    out.append(UInt8(ascii: "\""))
    return out
  }

  /// The words a leaf's text stands for (blanks at the ends already removed).
  static func valueWords(_ v: ArraySlice<UInt8>) -> [[UInt8]] {
    if v.count >= 2, v.first == UInt8(ascii: "("), v.last == UInt8(ascii: ")") {
      return v.split(whereSeparator: isBlank).map { Array($0) }
    }
    return [word(v)]
  }

  /// The value a word stands for: a quoted word without its quotes and escapes, any other as it is.
  static func value(_ w: ArraySlice<UInt8>) -> [UInt8] {
    guard w.count >= 2, w.first == UInt8(ascii: "\""), w.last == UInt8(ascii: "\"") else { return Array(w) }
    var out: [UInt8] = []
    out.reserveCapacity(w.count)
    var k = w.startIndex + 1
    let end = w.endIndex - 1
    while k < end {
      let c = w[k]
      if c == UInt8(ascii: "\\"), k + 1 < end {
        switch w[k + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
          out.append(w[k + 1])
          k += 2
          continue
        default: break
        }
      }
      out.append(c)
      k += 1
    }
    return out
  }

  /// ``value(_:)`` without a copy where the word has no escapes: the word itself, or its bytes
  /// between the quotes.
  static func valueBytes(_ w: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    guard w.count >= 2, w.first == UInt8(ascii: "\""), w.last == UInt8(ascii: "\"") else { return w }
    let inside = w[(w.startIndex + 1)..<(w.endIndex - 1)]
    return inside.contains(UInt8(ascii: "\\")) ? value(w)[...] : inside
  }

  /// Whether `words` are what the value they stand for reads back as (a word quoted where it need
  /// not be, or with escapes of its own, is not).
  static func roundTrips(_ words: [ArraySlice<UInt8>]) -> Bool {
    guard !words.isEmpty else { return false }
    var joined: [UInt8] = []
    for (k, w) in words.enumerated() {
      if k > 0 { joined.append(0x20) }
      joined.append(contentsOf: value(w))
    }
    let back = trimmed(joined[...])
    guard back.count == joined.count else { return false }
    let again = valueWords(back)
    return again.count == words.count && zip(again, words).allSatisfy { $0.elementsEqual($1) }
  }
}

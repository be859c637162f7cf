/// One `members` entry of a `community`: a literal (`65000:100`, `no-export`,
/// `target:65000:1`), or a pattern over a standard community `AS:VALUE` whose two fields are
/// each a regular expression over the digits of the number (`65000:*`, `^65000:1....$`,
/// `(65000|65001):.*`, `3:[1-5]..`).
///
/// A pattern matches a community when each field's expression matches the whole of that field
/// (a field of `*` alone is any number); `^` at the start and `$` at the end are accepted and
/// ignored. The dialect and the sources are in `Docs/PolicySemantics.md`.
struct CommunityMember: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case literal(String)
    case pattern(ASPathRegex, ASPathRegex)
  }

  let kind: Kind

  /// Reads a member; `nil` for a regular expression outside the dialect (matched as not
  /// modelled, never guessed).
  init?(_ text: String) {
    guard text.utf8.contains(where: isCommunityRegexByte) else {
      kind = .literal(text)
      return
    }
    var bytes = Array(text.utf8)[...]
    if bytes.first == UInt8(ascii: "^") { bytes = bytes.dropFirst() }
    if bytes.last == UInt8(ascii: "$") { bytes = bytes.dropLast() }
    // The one colon outside brackets and parentheses splits the fields.
    var depth = 0
    var colon: Int?
    for i in bytes.indices {
      switch bytes[i] {
      case UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ":") where depth == 0:
        guard colon == nil else { return nil }
        colon = i
      default: break
      }
    }
    guard let colon, let a = Self.field(bytes[..<colon]), let b = Self.field(bytes[(colon + 1)...]) else { return nil }
    kind = .pattern(a, b)
  }

  /// A field's expression: `*` alone is any number; otherwise digits, `.`, `[…]`, `(…|…)` and the
  /// repetitions of the AS-path dialect, over single digits.
  private static func field(_ bytes: ArraySlice<UInt8>) -> ASPathRegex? {
    if bytes.elementsEqual("*".utf8) { return ASPathRegex(root: .repeated(.atom([0...9]), min: 1, max: nil)) }
    var p = DigitParser(bytes: Array(bytes))
    guard let root = p.alternatives(), p.atEnd else { return nil }
    return ASPathRegex(root: root)
  }

  /// Whether `community` (as Junos writes it) matches.
  func matches(_ community: String) -> Bool {
    switch kind {
    case .literal(let text): return text == community
    case .pattern(let a, let b):
      let parts = community.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
      guard parts.count == 2, let x = Self.digits(parts[0]), let y = Self.digits(parts[1]) else { return false }
      return a.matches(x) && b.matches(y)
    }
  }

  /// A community this member matches: the literal, or each field's shortest match (`0` for an
  /// empty one when `0` matches).
  var witness: String? {
    switch kind {
    case .literal(let text): return text
    case .pattern(let a, let b):
      guard let x = Self.number(a), let y = Self.number(b) else { return nil }
      return "\(x):\(y)"
    }
  }

  private static func number(_ re: ASPathRegex) -> String? {
    guard var d = re.shortestMatch else { return nil }
    if d.isEmpty {
      guard re.matches([0]) else { return nil }
      d = [0]
    }
    return d.map(String.init).joined()
  }

  private static func digits(_ bytes: Substring.UTF8View.SubSequence) -> [UInt32]? {
    guard !bytes.isEmpty, bytes.count <= 10, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return bytes.map { UInt32($0 - 0x30) }
  }
}

/// A byte that makes a community member a regular expression rather than a literal.
func isCommunityRegexByte(_ b: UInt8) -> Bool {
  switch b {
  case UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"),
    UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "|"), UInt8(ascii: "{"),
    UInt8(ascii: "}"), UInt8(ascii: "\\"):
    true
  default: false
  }
}

/// A recursive-descent reader of one field, on bytes: atoms are single digits.
private struct DigitParser {
  let bytes: [UInt8]
  var i = 0

  var atEnd: Bool { i == bytes.count }

  mutating func alternatives() -> ASPathRegex.Node? {
    var options: [ASPathRegex.Node] = []
    repeat {
      guard let s = sequence() else { return nil }
      options.append(s)
    } while eat(UInt8(ascii: "|"))
    return options.count == 1 ? options[0] : .alternatives(options)
  }

  mutating func sequence() -> ASPathRegex.Node? {
    var items: [ASPathRegex.Node] = []
    while i < bytes.count, bytes[i] != UInt8(ascii: "|"), bytes[i] != UInt8(ascii: ")") {
      guard var a = atom() else { return nil }
      while let (lo, hi) = postfix() { a = .repeated(a, min: lo, max: hi) }
      items.append(a)
    }
    return .sequence(items)
  }

  mutating func atom() -> ASPathRegex.Node? {
    let b = bytes[i]
    i += 1
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return .atom([UInt32(b - 0x30)...UInt32(b - 0x30)])
    case UInt8(ascii: "."): return .atom([0...9])
    case UInt8(ascii: "("):
      guard let inner = alternatives(), eat(UInt8(ascii: ")")) else { return nil }
      return inner
    case UInt8(ascii: "["):
      let negated = eat(UInt8(ascii: "^"))
      var set = Set<UInt32>()
      while i < bytes.count, bytes[i] != UInt8(ascii: "]") {
        guard let lo = digit() else { return nil }
        var hi = lo
        if eat(UInt8(ascii: "-")) {
          guard let h = digit(), h >= lo else { return nil }
          hi = h
        }
        for d in lo...hi { set.insert(d) }
      }
      guard eat(UInt8(ascii: "]")) else { return nil }
      let digits = (0...9).filter { set.contains($0) != negated }
      guard !digits.isEmpty else { return nil }
      return .atom(digits.map { $0...$0 })
    default: return nil
    }
  }

  mutating func digit() -> UInt32? {
    guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
    i += 1
    return UInt32(bytes[i - 1] - 0x30)
  }

  mutating func postfix() -> (Int, Int?)? { regexRepetition(bytes, at: &i) }

  mutating func eat(_ b: UInt8) -> Bool {
    guard i < bytes.count, bytes[i] == b else { return false }
    i += 1
    return true
  }
}

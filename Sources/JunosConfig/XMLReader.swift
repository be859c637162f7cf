/// A small pull reader for the XML Junos prints: elements, attributes, text with the five named
/// entities and numeric references, comments, processing instructions, CDATA, `<!DOCTYPE …>`.
///
/// It works on the bytes and allocates nothing per event: names, attribute values and text are
/// byte ranges into ``bytes`` (``string(_:)``, ``appendText(_:entities:to:)`` and
/// ``attribute(_:)`` make values of them). Text outside the root element is reported like any
/// other text. Used by the XML configuration parser, JunosHistory's commit listings and
/// JunosDevice's NETCONF replies.
package struct XMLReader {
  /// An element name: the qualified name's bytes (`junos:comment`) and its local part (`comment`).
  package struct Name: Sendable, Equatable {
    /// The name as written, prefix included.
    package var qualified: Range<Int>
    /// The part after the prefix's `:` (all of it without a prefix).
    package var local: Range<Int>
  }

  /// An attribute of the current start tag.
  package struct Attribute: Sendable {
    /// Its name.
    package var name: Name
    /// Its value as written, between the quotes (entities not decoded).
    package var value: Range<Int>
  }

  /// What the reader found next.
  package enum Event: Sendable, Equatable {
    /// A start tag at byte `at`; its attributes are in ``attributes`` until the next call. A
    /// self-closing tag (`<ssh/>`) is followed by its `.end` at the same offset.
    case start(Name, at: Int, selfClosing: Bool)
    /// An end tag (or the end of a self-closing tag) at byte `at`.
    case end(Name, at: Int)
    /// Character data as written: `entities` when it holds references to decode
    /// (``appendText(_:entities:to:)``).
    case text(Range<Int>, entities: Bool)
    /// The contents of a `<![CDATA[…]]>` section, taken as they are.
    case cdata(Range<Int>)
    /// Malformed XML at byte `at`; the reader stops.
    case error(String, at: Int)
  }

  /// The document.
  package let bytes: [UInt8]
  /// The attributes of the last start tag, in document order.
  package private(set) var attributes: [Attribute] = []
  /// Where the next event starts.
  package private(set) var offset = 0
  var pendingEnd: (Name, Int)? = nil
  var stack: [Name] = []

  /// A reader of `bytes` (a byte-order mark at the start is skipped).
  package init(bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { offset = 3 }
  }

  /// The number of elements open.
  package var depth: Int { stack.count }

  /// The bytes of a range as a `String` (invalid UTF-8 repaired).
  package func string(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }

  /// Whether the bytes of `r` are `s`.
  package func bytes(_ r: Range<Int>, equal s: StaticString) -> Bool {
    guard r.count == s.utf8CodeUnitCount else { return false }
    let p = s.utf8Start
    for k in 0..<r.count where bytes[r.lowerBound + k] != p[k] { return false }
    return true
  }

  /// Whether the bytes of `r` are those of `s`.
  package func bytes(_ r: Range<Int>, equalText s: String) -> Bool { s.utf8.elementsEqual(bytes[r]) }

  /// The value of the current start tag's attribute whose local name is `local`, entities decoded.
  package func attribute(_ local: StaticString) -> String? {
    attributeBytes(local).map { String(decoding: $0, as: UTF8.self) }
  }

  /// ``attribute(_:)`` as bytes (invalid UTF-8 kept).
  package func attributeBytes(_ local: StaticString) -> [UInt8]? {
    guard let a = attributes.first(where: { bytes($0.name.local, equal: local) }) else { return nil }
    var out: [UInt8] = []
    appendText(a.value, entities: true, to: &out)
    return out
  }

  /// Appends text (or an attribute value) with its references decoded. Unknown references are
  /// kept as written (the reader reported them already for text).
  package func appendText(_ r: Range<Int>, entities: Bool, to out: inout [UInt8]) {
    guard entities else {
      out.append(contentsOf: bytes[r])
      return
    }
    var k = r.lowerBound
    while k < r.upperBound {
      if bytes[k] == UInt8(ascii: "&"), let (decoded, len) = entity(at: k, end: r.upperBound) {
        decoded.append(to: &out)
        k += len
      } else {
        out.append(bytes[k])
        k += 1
      }
    }
  }

  /// The next event, or `nil` at the end of a well-formed document.
  package mutating func next() -> Event? {
    if let (name, at) = pendingEnd {
      pendingEnd = nil
      return .end(name, at: at)
    }
    let n = bytes.count
    // Comments, processing instructions and declarations give no event: skip them in a loop.
    while offset < n {
      let i = offset
      if bytes[i] != UInt8(ascii: "<") { return text(from: i) }
      if has("<!--", at: i) {
        guard let e = find("-->", from: i + 4) else { return fail("unterminated comment", i) }
        offset = e + 3
      } else if has("<?", at: i) {
        guard let e = find("?>", from: i + 2) else { return fail("unterminated processing instruction", i) }
        offset = e + 2
      } else if has("<![CDATA[", at: i) {
        guard let e = find("]]>", from: i + 9) else { return fail("unterminated CDATA", i) }
        offset = e + 3
        return .cdata((i + 9)..<e)
      } else if has("<!", at: i) {
        guard let e = find(">", from: i + 2) else { return fail("unterminated declaration", i) }
        offset = e + 1
      } else if has("</", at: i) {
        return endTag(at: i)
      } else {
        return startTag(at: i)
      }
    }
    if let open = stack.last { return fail("<\(string(open.qualified))> is never closed", n) }
    return nil
  }

  mutating func text(from i: Int) -> Event {
    var j = i
    var entities = false
    while j < bytes.count && bytes[j] != UInt8(ascii: "<") {
      if bytes[j] == UInt8(ascii: "&") {
        guard let (_, len) = entity(at: j, end: bytes.count) else { return fail("unknown entity", j) }
        entities = true
        j += len
      } else {
        j += 1
      }
    }
    offset = j
    return .text(i..<j, entities: entities)
  }

  mutating func endTag(at i: Int) -> Event {
    var j = i + 2
    while j < bytes.count && bytes[j] != UInt8(ascii: ">") { j += 1 }
    guard j < bytes.count else { return fail("unterminated end tag", i) }
    var e = j
    while e > i + 2 && bytes[e - 1] <= 0x20 { e -= 1 }
    let name = Self.name(bytes, (i + 2)..<e)
    offset = j + 1
    guard let open = stack.last, bytes[open.qualified].elementsEqual(bytes[name.qualified]) else {
      let expected = stack.last.map { string($0.qualified) } ?? ""
      return fail("</\(string(name.qualified))> does not close <\(expected)>", i)
    }
    stack.removeLast()
    return .end(open, at: i)
  }

  mutating func startTag(at i: Int) -> Event {
    let n = bytes.count
    var j = i + 1
    while j < n && bytes[j] > 0x20 && bytes[j] != UInt8(ascii: ">") && bytes[j] != UInt8(ascii: "/") { j += 1 }
    let name = Self.name(bytes, (i + 1)..<j)
    guard !name.local.isEmpty else { return fail("a '<' that starts no tag", i) }
    attributes.removeAll(keepingCapacity: true)
    while true {
      while j < n && bytes[j] <= 0x20 { j += 1 }
      guard j < n else { return fail("unterminated start tag <\(string(name.qualified))>", i) }
      if bytes[j] == UInt8(ascii: ">") {
        offset = j + 1
        stack.append(name)
        return .start(name, at: i, selfClosing: false)
      }
      if bytes[j] == UInt8(ascii: "/") && j + 1 < n && bytes[j + 1] == UInt8(ascii: ">") {
        offset = j + 2
        pendingEnd = (name, i)
        return .start(name, at: i, selfClosing: true)
      }
      let n0 = j
      while j < n && bytes[j] != UInt8(ascii: "=") && bytes[j] > 0x20 && bytes[j] != UInt8(ascii: ">") { j += 1 }
      let key = Self.name(bytes, n0..<j)
      while j < n && bytes[j] <= 0x20 { j += 1 }
      guard j + 1 < n, bytes[j] == UInt8(ascii: "="), !key.local.isEmpty else {
        return fail("malformed attribute in <\(string(name.qualified))>", j)
      }
      j += 1
      while j < n && bytes[j] <= 0x20 { j += 1 }
      guard j < n, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") else {
        return fail("unquoted attribute value in <\(string(name.qualified))>", j)
      }
      let quote = bytes[j]
      let v0 = j + 1
      j = v0
      while j < n && bytes[j] != quote { j += 1 }
      guard j < n else { return fail("unterminated attribute value in <\(string(name.qualified))>", v0) }
      attributes.append(Attribute(name: key, value: v0..<j))
      j += 1
    }
  }

  static func name(_ bytes: [UInt8], _ r: Range<Int>) -> Name {
    var local = r.lowerBound
    for k in r where bytes[k] == UInt8(ascii: ":") { local = k + 1 }
    return Name(qualified: r, local: local..<r.upperBound)
  }

  mutating func fail(_ message: String, _ at: Int) -> Event {
    offset = bytes.count
    stack.removeAll()
    pendingEnd = nil
    return .error(message, at: at)
  }

  /// Whether the document has `s` at byte `i`.
  func has(_ s: StaticString, at i: Int) -> Bool { bytes.has(s, at: i) }

  /// The first offset at or after `from` where `s` (a short delimiter) starts.
  func find(_ s: StaticString, from: Int) -> Int? { bytes.offset(of: s, from: from) }

  /// A decoded reference: one byte or one scalar.
  enum Decoded {
    case byte(UInt8)
    case scalar(Unicode.Scalar)

    func append(to out: inout [UInt8]) {
      switch self {
      case .byte(let b): out.append(b)
      case .scalar(let s): out.append(contentsOf: UTF8.encode(s)!)
      }
    }
  }

  /// `&amp;` and friends, `&#60;`, `&#x3C;` at `k` (before `end`): the value and the reference's
  /// length.
  func entity(at k: Int, end: Int) -> (Decoded, Int)? {
    var semi = k + 1
    while semi < end && semi < k + 12 && bytes[semi] != UInt8(ascii: ";") { semi += 1 }
    guard semi < end, bytes[semi] == UInt8(ascii: ";") else { return nil }
    let body = (k + 1)..<semi
    let len = semi - k + 1
    if bytes(body, equal: "amp") { return (.byte(UInt8(ascii: "&")), len) }
    if bytes(body, equal: "lt") { return (.byte(UInt8(ascii: "<")), len) }
    if bytes(body, equal: "gt") { return (.byte(UInt8(ascii: ">")), len) }
    if bytes(body, equal: "quot") { return (.byte(UInt8(ascii: "\"")), len) }
    if bytes(body, equal: "apos") { return (.byte(UInt8(ascii: "'")), len) }
    guard body.count >= 2, bytes[body.lowerBound] == UInt8(ascii: "#") else { return nil }
    var d = body.lowerBound + 1
    let hex = bytes[d] == UInt8(ascii: "x") || bytes[d] == UInt8(ascii: "X")
    if hex { d += 1 }
    guard d < semi else { return nil }
    var value: UInt32 = 0
    for k in d..<semi {
      let c = bytes[k]
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(c - UInt8(ascii: "A") + 10)
      default: return nil
      }
      // At most 10 characters between `&` and `;`: no overflow below 0xFFFF_FFFF.
      value = value &* (hex ? 16 : 10) &+ digit
      if value > 0x10_FFFF { return nil }
    }
    guard let scalar = Unicode.Scalar(value) else { return nil }
    return (.scalar(scalar), len)
  }
}

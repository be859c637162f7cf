public import JunosConfig

/// Reads `show system commit | display xml` and the NETCONF `<get-commit-information/>` reply:
/// `<commit-information>` with one `<commit-history>` per entry (`sequence-number`, `user`,
/// `client`, `date-time`, optional `comment` and `log`). Namespace prefixes are ignored
/// (`junos:seconds` and a stripped `seconds` alike); the `seconds` attribute of `date-time`, when
/// present, is the commit's instant and wins over the printed time, unless it lies outside the
/// years the printed time can have (0000–9999: then the printed time is placed as in the text
/// form). A `sequence-number` that is negative or above ``CommitListParser/maxIndex`` is an
/// error, like a missing one.
public enum CommitXMLParser {
  /// The instants of the printed form's years, 0000-01-01 to 9999-12-31 UTC.
  static let instants: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// Parses the XML form. Malformed XML and entries missing a field are errors with their place.
  public static func parse(_ file: SourceFile) -> CommitHistory {
    var history = CommitHistory()
    var reader = XMLReader(bytes: file.bytes)
    var entry: [String: String] = [:]
    var seconds: Int64? = nil
    var entryStart = 0
    var inEntry = false
    var text: [UInt8] = []
    while let event = reader.next() {
      switch event {
      case .start(let name, let attributes, let at):
        text.removeAll()
        if name == "commit-history" {
          inEntry = true
          entry = [:]
          seconds = nil
          entryStart = at
        } else if inEntry && name == "date-time" {
          seconds = attributes["seconds"].flatMap { Int64($0) }.flatMap { instants.contains($0) ? $0 : nil }
        }
      case .text(let bytes):
        text.append(contentsOf: bytes)
      case .end(let name, _):
        if name == "commit-history" {
          inEntry = false
          if let c = commit(entry, seconds: seconds, file: file, at: entryStart, history: &history) {
            history.commits.append(c)
          }
        } else if inEntry {
          entry[name] = String(decoding: text, as: UTF8.self).trimmingBlanks
        }
        text.removeAll()
      case .error(let message, let at):
        history.diagnostics.append(Diagnostic(.unexpectedToken, "malformed XML: \(message)", in: file, at: at..<at))
        return history
      }
    }
    return history
  }

  static func commit(_ e: [String: String], seconds: Int64?, file: SourceFile, at: Int, history: inout CommitHistory) -> Commit? {
    func missing(_ what: String) -> Commit? {
      history.diagnostics.append(Diagnostic(.unexpectedLine, "<commit-history> without <\(what)>", in: file, at: at..<at))
      return nil
    }
    guard let seq = e["sequence-number"], let index = Int(seq), (0...CommitListParser.maxIndex).contains(index) else {
      return missing("sequence-number")
    }
    guard let user = e["user"] else { return missing("user") }
    guard let client = e["client"] else { return missing("client") }
    guard let dt = e["date-time"] else { return missing("date-time") }
    let words = dt.split(separator: " ")
    guard words.count == 3, let time = CommitListParser.localTime(words[0], words[1]) else { return missing("date-time") }
    var c = Commit(
      index: index, localTime: time, timeZone: String(words[2]), user: user, client: client, comment: e["comment"], log: e["log"],
      instant: seconds, line: file.location(of: at).line)
    if let r = e["revision"] { c.revision = r }
    return c
  }
}

extension CommitHistory {
  /// Reads a commit listing in either form: XML when it starts with `<`, text otherwise.
  public static func read(_ file: SourceFile) -> CommitHistory {
    let first = file.bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    return first == UInt8(ascii: "<") ? CommitXMLParser.parse(file) : CommitListParser.parse(file)
  }
}

extension String {
  var trimmingBlanks: String {
    let b = Array(utf8)
    var s = 0
    var e = b.count
    while s < e && (b[s] == 0x20 || b[s] == 0x09 || b[s] == 0x0A || b[s] == 0x0D) { s += 1 }
    while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09 || b[e - 1] == 0x0A || b[e - 1] == 0x0D) { e -= 1 }
    return String(decoding: b[s..<e], as: UTF8.self)
  }
}

/// A small pull reader for the XML Junos prints: elements, attributes, text with the five named
/// entities and numeric references, comments, processing instructions, CDATA. Names are given
/// without their namespace prefix. (Also used by JunosDevice for NETCONF replies.)
package struct XMLReader {
  package enum Event {
    case start(String, [String: String], Int)
    case end(String, Int)
    case text([UInt8])
    case error(String, Int)
  }

  let bytes: [UInt8]
  var i = 0
  var pendingEnd: (String, Int)? = nil
  var stack: [String] = []

  package init(bytes: [UInt8]) { self.bytes = bytes }

  static func localName(_ raw: ArraySlice<UInt8>) -> String {
    let name = raw.lastIndex(of: UInt8(ascii: ":")).map { raw[($0 + 1)...] } ?? raw
    return String(decoding: name, as: UTF8.self)
  }

  package mutating func next() -> Event? {
    if let (name, at) = pendingEnd {
      pendingEnd = nil
      return .end(name, at)
    }
    guard i < bytes.count else {
      if let open = stack.last { return fail("<\(open)> is never closed", bytes.count) }
      return nil
    }
    if bytes[i] != UInt8(ascii: "<") {
      var text: [UInt8] = []
      while i < bytes.count && bytes[i] != UInt8(ascii: "<") {
        if bytes[i] == UInt8(ascii: "&") {
          guard let (decoded, len) = entity(at: i) else { return fail("unknown entity", i) }
          text.append(contentsOf: decoded)
          i += len
        } else {
          text.append(bytes[i])
          i += 1
        }
      }
      return .text(text)
    }
    let at = i
    if starts("<!--") {
      guard let e = find("-->", from: i + 4) else { return fail("unterminated comment", at) }
      i = e + 3
      return next()
    }
    if starts("<?") {
      guard let e = find("?>", from: i + 2) else { return fail("unterminated processing instruction", at) }
      i = e + 2
      return next()
    }
    if starts("<![CDATA[") {
      guard let e = find("]]>", from: i + 9) else { return fail("unterminated CDATA", at) }
      let text = Array(bytes[(i + 9)..<e])
      i = e + 3
      return .text(text)
    }
    if starts("<!") {
      guard let e = find(">", from: i + 2) else { return fail("unterminated declaration", at) }
      i = e + 1
      return next()
    }
    if starts("</") {
      var j = i + 2
      while j < bytes.count && bytes[j] != UInt8(ascii: ">") { j += 1 }
      guard j < bytes.count else { return fail("unterminated end tag", at) }
      let name = Self.localName(bytes[(i + 2)..<j].filter { $0 > 0x20 }[...])
      i = j + 1
      guard stack.last == name else { return fail("</\(name)> does not close <\(stack.last ?? "")>", at) }
      stack.removeLast()
      return .end(name, at)
    }
    // Start tag: name, attributes, optional self-closing slash.
    var j = i + 1
    while j < bytes.count && bytes[j] > 0x20 && bytes[j] != UInt8(ascii: ">") && bytes[j] != UInt8(ascii: "/") { j += 1 }
    let name = Self.localName(bytes[(i + 1)..<j])
    guard !name.isEmpty else { return fail("a '<' that starts no tag", at) }
    var attributes: [String: String] = [:]
    while true {
      while j < bytes.count && bytes[j] <= 0x20 { j += 1 }
      guard j < bytes.count else { return fail("unterminated start tag <\(name)>", at) }
      if bytes[j] == UInt8(ascii: ">") {
        i = j + 1
        stack.append(name)
        return .start(name, attributes, at)
      }
      if bytes[j] == UInt8(ascii: "/") && j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: ">") {
        i = j + 2
        pendingEnd = (name, at)
        return .start(name, attributes, at)
      }
      let n0 = j
      while j < bytes.count && bytes[j] != UInt8(ascii: "=") && bytes[j] > 0x20 && bytes[j] != UInt8(ascii: ">") { j += 1 }
      let key = Self.localName(bytes[n0..<j])
      while j < bytes.count && bytes[j] <= 0x20 { j += 1 }
      guard j + 1 < bytes.count, bytes[j] == UInt8(ascii: "="), !key.isEmpty else { return fail("malformed attribute in <\(name)>", j) }
      j += 1
      while j < bytes.count && bytes[j] <= 0x20 { j += 1 }
      guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") else {
        return fail("unquoted attribute value in <\(name)>", j)
      }
      let quote = bytes[j]
      let v0 = j + 1
      j = v0
      while j < bytes.count && bytes[j] != quote { j += 1 }
      guard j < bytes.count else { return fail("unterminated attribute value in <\(name)>", v0) }
      attributes[key] = String(decoding: bytes[v0..<j], as: UTF8.self)
      j += 1
    }
  }

  mutating func fail(_ message: String, _ at: Int) -> Event {
    i = bytes.count
    stack.removeAll()
    return .error(message, at)
  }

  func starts(_ s: String) -> Bool {
    let u = Array(s.utf8)
    return i + u.count <= bytes.count && bytes[i..<(i + u.count)].elementsEqual(u)
  }

  func find(_ s: String, from: Int) -> Int? {
    let u = Array(s.utf8)
    var k = from
    while k + u.count <= bytes.count {
      if bytes[k..<(k + u.count)].elementsEqual(u) { return k }
      k += 1
    }
    return nil
  }

  /// `&amp;` and friends, `&#60;`, `&#x3C;`: the bytes and the reference's length.
  func entity(at k: Int) -> ([UInt8], Int)? {
    guard let semi = bytes[k...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
    let name = String(decoding: bytes[(k + 1)..<semi], as: UTF8.self)
    let len = semi - k + 1
    switch name {
    case "amp": return ([UInt8(ascii: "&")], len)
    case "lt": return ([UInt8(ascii: "<")], len)
    case "gt": return ([UInt8(ascii: ">")], len)
    case "quot": return ([UInt8(ascii: "\"")], len)
    case "apos": return ([UInt8(ascii: "'")], len)
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let hex = digits.hasPrefix("x") || digits.hasPrefix("X")
      let number = hex ? digits.dropFirst() : digits
      // Digits only: UInt32("+41") would read a sign.
      guard !number.isEmpty, number.allSatisfy({ hex ? $0.isHexDigit : ($0.isASCII && $0.isNumber) }) else { return nil }
      let value = hex ? UInt32(number, radix: 16) : UInt32(number)
      guard let v = value, let scalar = Unicode.Scalar(v) else { return nil }
      return (Array(String(Character(scalar)).utf8), len)
    }
  }
}

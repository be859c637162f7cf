/// A YANG statement: `keyword argument;` or `keyword argument { substatements }`.
///
/// Only what Juniper's modules use is read: statements, braces, unquoted words, double-quoted
/// strings (with `\n \t \" \\` escapes; Juniper also writes `\'`, kept as `'`), single-quoted
/// strings, `+` concatenation and both comment forms. Extension keywords keep their prefix
/// (`junos:cli-feature`).
final class YANGStatement {
  let keyword: String
  let argument: String?
  var children: [YANGStatement]
  /// 1-based line of the keyword, for error messages.
  let line: Int

  init(keyword: String, argument: String?, children: [YANGStatement], line: Int) {
    self.keyword = keyword
    self.argument = argument
    self.children = children
    self.line = line
  }

  /// The substatements with this keyword.
  func all(_ keyword: String) -> [YANGStatement] { children.filter { $0.keyword == keyword } }

  /// The argument of the first substatement with this keyword.
  func value(_ keyword: String) -> String? { children.first { $0.keyword == keyword }?.argument }
}

/// A syntax error in a YANG file.
struct YANGError: Error, CustomStringConvertible {
  let path: String
  let line: Int
  let message: String
  var description: String { "\(path):\(line): error: \(message)" }
}

/// Reads one YANG module's text into its statement tree.
///
/// Juniper's modules hold a few strings with unescaped quotes inside
/// (`"Invalid radius-key string ", \, ', ` or space"`): a `"` ends a string only where a
/// statement can go on after it (a blank, `;`, `{`, `}` or `+`, or the end of the line).
struct YANGReader {
  private let b: [UInt8]
  private let path: String
  private var i = 0
  private var line = 1

  /// Parses a whole file: one top-level statement (`module …`).
  static func parse(_ bytes: [UInt8], path: String) throws(YANGError) -> YANGStatement {
    var r = YANGReader(b: bytes, path: path)
    guard let top = try r.statement() else { throw YANGError(path: path, line: r.line, message: "empty file") }
    r.skipBlanks()
    if r.i < r.b.count { throw r.error("text after the module's closing brace") }
    return top
  }

  private init(b: [UInt8], path: String) {
    self.b = b
    self.path = path
  }

  private func error(_ m: String) -> YANGError { YANGError(path: path, line: line, message: m) }

  private mutating func skipBlanks() {
    while i < b.count {
      let c = b[i]
      if c == 0x0A {
        line += 1
        i += 1
      } else if c == 0x20 || c == 0x09 || c == 0x0D {
        i += 1
      } else if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
        while i < b.count && b[i] != 0x0A { i += 1 }
      } else if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "*") {
        i += 2
        while i + 1 < b.count && !(b[i] == UInt8(ascii: "*") && b[i + 1] == UInt8(ascii: "/")) {
          if b[i] == 0x0A { line += 1 }
          i += 1
        }
        i += 2
      } else {
        return
      }
    }
  }

  /// One statement, or `nil` at a closing brace or the end of the input.
  private mutating func statement() throws(YANGError) -> YANGStatement? {
    skipBlanks()
    guard i < b.count, b[i] != UInt8(ascii: "}") else { return nil }
    let at = line
    guard let keyword = try token(), !keyword.quoted else { throw error("expected a statement keyword") }
    skipBlanks()
    var argument: String? = nil
    if i < b.count && b[i] != UInt8(ascii: ";") && b[i] != UInt8(ascii: "{") {
      argument = try argumentString()
      skipBlanks()
    }
    guard i < b.count else { throw error("input ends inside '\(keyword.text)'") }
    if b[i] == UInt8(ascii: ";") {
      i += 1
      return YANGStatement(keyword: keyword.text, argument: argument, children: [], line: at)
    }
    guard b[i] == UInt8(ascii: "{") else { throw error("expected ';' or '{' after '\(keyword.text)'") }
    i += 1
    var children: [YANGStatement] = []
    while let c = try statement() { children.append(c) }
    guard i < b.count else { throw error("missing '}' for '\(keyword.text)' opened at line \(at)") }
    i += 1
    return YANGStatement(keyword: keyword.text, argument: argument, children: children, line: at)
  }

  /// An argument: a word, or quoted strings joined by `+`.
  private mutating func argumentString() throws(YANGError) -> String {
    guard var t = try token() else { throw error("expected an argument") }
    guard t.quoted else { return t.text }
    while true {
      let save = (i, line)
      skipBlanks()
      guard i < b.count, b[i] == UInt8(ascii: "+") else {
        (i, line) = save
        return t.text
      }
      i += 1
      skipBlanks()
      guard let next = try token(), next.quoted else { throw error("expected a quoted string after '+'") }
      t.text += next.text
    }
  }

  /// Whether the `"` at `q` can close a string: what follows it is a blank, `;`, `{`, `}`, `+` or
  /// the end of the input.
  private func closesString(_ q: Int) -> Bool {
    let k = q + 1
    guard k < b.count else { return true }
    let c = b[k]
    return c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ";") || c == UInt8(ascii: "{") || c == UInt8(ascii: "}")
      || c == UInt8(ascii: "+")
  }

  private mutating func token() throws(YANGError) -> (text: String, quoted: Bool)? {
    guard i < b.count else { return nil }
    let c = b[i]
    if c == UInt8(ascii: "\"") {
      i += 1
      var out: [UInt8] = []
      while i < b.count && !(b[i] == UInt8(ascii: "\"") && closesString(i)) {
        if b[i] == 0x0A { line += 1 }
        if b[i] == UInt8(ascii: "\\"), i + 1 < b.count {
          switch b[i + 1] {
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "t"): out.append(0x09)
          default: out.append(b[i + 1])  // \" \\ and Juniper's \'
          }
          i += 2
          continue
        }
        out.append(b[i])
        i += 1
      }
      guard i < b.count else { throw error("unterminated string") }
      i += 1
      return (String(decoding: out, as: UTF8.self), true)
    }
    if c == UInt8(ascii: "'") {
      i += 1
      let s = i
      while i < b.count && b[i] != UInt8(ascii: "'") {
        if b[i] == 0x0A { line += 1 }
        i += 1
      }
      guard i < b.count else { throw error("unterminated string") }
      i += 1
      return (String(decoding: b[s..<(i - 1)], as: UTF8.self), true)
    }
    let s = i
    while i < b.count {
      let d = b[i]
      if d == 0x20 || d == 0x09 || d == 0x0A || d == 0x0D || d == UInt8(ascii: ";") || d == UInt8(ascii: "{") || d == UInt8(ascii: "}") {
        break
      }
      i += 1
    }
    guard i > s else { throw error("unexpected '\(Character(Unicode.Scalar(c)))'") }
    return (String(decoding: b[s..<i], as: UTF8.self), false)
  }
}

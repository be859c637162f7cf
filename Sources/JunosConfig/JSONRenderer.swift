extension ConfigTree {
  /// Renders the configuration as JSON (schema in `Docs/JSON.md`, `"format": "junoscope.config"`,
  /// `"version": 1`).
  ///
  /// Every statement is an object with `words` (quotes removed, backslash escapes kept as
  /// written), and, only when present, `list`, `inactive`, `protect`, `annotation`,
  /// `comments`, `secret` (true when values were masked), `line`/`column` (when `source` is
  /// given) and `children`.
  ///
  /// - Parameters:
  ///   - options: Masking.
  ///   - source: The file the tree was parsed from, to add line and column of each statement.
  /// - Returns: UTF-8 JSON text ending with a newline.
  public func renderJSON(_ options: RenderOptions = RenderOptions(), source: SourceFile? = nil) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(storage.count * 2)
    out.append(contentsOf: #"{"format":"junoscope.config","version":1,"headers":["#.utf8)
    for (k, h) in headers.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      JSON.string(h, into: &out)
    }
    out.append(contentsOf: #"],"statements":["#.utf8)
    // Iterative walk: `closing` entries end a statement's children array and object.
    var stack: [(node: Int32, closing: Bool, first: Bool)] = []
    var c = nodes[0].lastChild
    var firsts: [Int32] = []
    while c >= 0 {
      firsts.append(c)
      c = nodes[Int(c)].prev
    }
    for (k, id) in firsts.enumerated() { stack.append((id, false, k == firsts.count - 1)) }
    let shapes = options.maskingShapes(self)
    let matcher = options.model.matcher
    while let (id, closing, first) = stack.popLast() {
      let node = NodeID(id)
      let r = nodes[Int(id)]
      if closing {
        out.append(contentsOf: "]}".utf8)
        continue
      }
      if !first { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"words":["#.utf8)
      let shape = shapes?[node] ?? .unknown(words: 0)
      let masked = options.showSecrets ? [] : SecretMasking.secretWordIndices(of: node, in: self, shape: shape, matcher: matcher)
      for k in 0..<Int(r.wordCount) {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        if masked.contains(k) {
          JSON.string("<masked>", into: &out)
        } else {
          JSON.word(storage, words[Int(r.wordStart) + k], into: &out)
        }
      }
      out.append(UInt8(ascii: "]"))
      if r.listCount >= 0 {
        let maskList = !options.showSecrets && SecretMasking.masksList(of: node, in: self, shape: shape, matcher: matcher)
        out.append(contentsOf: #","list":["#.utf8)
        for k in 0..<Int(r.listCount) {
          if k > 0 { out.append(UInt8(ascii: ",")) }
          if maskList {
            JSON.string("<masked>", into: &out)
          } else {
            JSON.word(storage, words[Int(r.wordStart + r.wordCount) + k], into: &out)
          }
        }
        out.append(UInt8(ascii: "]"))
      }
      if !masked.isEmpty || (!options.showSecrets && SecretMasking.masksList(of: node, in: self, shape: shape, matcher: matcher)) {
        out.append(contentsOf: #","secret":true"#.utf8)
      }
      if r.flags.contains(.inactive) { out.append(contentsOf: #","inactive":true"#.utf8) }
      if r.flags.contains(.protect) { out.append(contentsOf: #","protect":true"#.utf8) }
      for (flag, name) in [(StatementFlags.replace, "replace"), (.delete, "delete"), (.active, "active"), (.unprotect, "unprotect")]
      where r.flags.contains(flag) {
        out.append(contentsOf: ",\"\(name)\":true".utf8)
      }
      if options.comments, let e = extra(node) {
        if let a = e.leading.last(where: { $0.kind == .annotation }) {
          out.append(contentsOf: #","annotation":"#.utf8)
          JSON.string(a.annotationText, into: &out)
        }
        let comments = e.leading.filter { $0.kind == .hash } + e.inline + (e.trailer.map { [$0] } ?? [])
        if !comments.isEmpty {
          out.append(contentsOf: #","comments":["#.utf8)
          for (k, t) in comments.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            JSON.string(t.text, into: &out)
          }
          out.append(UInt8(ascii: "]"))
        }
      }
      if let source, r.sourceEnd > r.sourceStart {
        let loc = source.location(of: Int(r.sourceStart))
        out.append(contentsOf: ",\"line\":\(loc.line),\"column\":\(loc.column)".utf8)
      }
      if r.firstChild >= 0 || r.flags.contains(.block) {
        out.append(contentsOf: #","children":["#.utf8)
        stack.append((id, true, false))
        var kids: [Int32] = []
        var k = r.lastChild
        while k >= 0 {
          kids.append(k)
          k = nodes[Int(k)].prev
        }
        for (n, kid) in kids.enumerated() { stack.append((kid, false, n == kids.count - 1)) }
      } else {
        out.append(UInt8(ascii: "}"))
      }
    }
    out.append(contentsOf: "]}\n".utf8)
    return out
  }
}

/// Minimal JSON string encoding on bytes (no Foundation).
enum JSON {
  static func string(_ s: String, into out: inout [UInt8]) {
    var s = s
    s.withUTF8 { bytes(UnsafeBufferPointer(rebasing: $0[...]), into: &out) }
  }

  /// A word as JSON: quotes of a quoted word removed, its contents kept as written.
  static func word(_ storage: [UInt8], _ w: WordRef, into out: inout [UInt8]) {
    var s = Int(w.start)
    var e = Int(w.end)
    if e - s >= 2 && storage[s] == UInt8(ascii: "\"") && storage[e - 1] == UInt8(ascii: "\"") {
      s += 1
      e -= 1
    }
    storage.withUnsafeBufferPointer { bytes(UnsafeBufferPointer(rebasing: $0[s..<e]), into: &out) }
  }

  static func bytes(_ b: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    out.append(UInt8(ascii: "\""))
    // Invalid UTF-8 is replaced (JSON must be valid UTF-8); valid text is copied as is.
    let text = String(decoding: b, as: UTF8.self)
    for c in text.utf8 {
      switch c {
      case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
      case 0x0A: out.append(contentsOf: #"\n"#.utf8)
      case 0x0D: out.append(contentsOf: #"\r"#.utf8)
      case 0x09: out.append(contentsOf: #"\t"#.utf8)
      case 0..<0x20:
        out.append(contentsOf: #"\u00"#.utf8)
        out.append(hex[Int(c >> 4)])
        out.append(hex[Int(c & 0xF)])
      default: out.append(c)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

/// JSON string encoding for other modules' renderers.
public enum JSONText {
  /// Appends `s` as a JSON string literal (quotes and escapes included).
  public static func append(_ s: String, into out: inout [UInt8]) { JSON.string(s, into: &out) }

  /// Appends UTF-8 bytes as a JSON string literal (invalid UTF-8 is replaced).
  public static func append(bytes: [UInt8], into out: inout [UInt8]) {
    bytes.withUnsafeBufferPointer { JSON.bytes($0, into: &out) }
  }
}

// FuzzDevice.swift: libFuzzer target for JunosDevice's parsers of device and file bytes: the
// NETCONF framer (end-of-message and chunked), NetconfReply, MiniJSON, the bundle manifest reader and
// the read-only command allow-list.
//
// Not a SwiftPM target. Tests/Fuzz/run.sh compiles it with Sources/JunosConfig/*.swift,
// Sources/JunosDiff/*.swift, Sources/JunosHistory/*.swift and Sources/JunosDevice/*.swift as ONE
// module (their `import JunosConfig` / `import JunosDiff` / `import JunosHistory` lines are
// dropped; CZlib and CLibSSH come from `-I Sources/CZlib -I Sources/CLibSSH -lz -lssh`), so the
// internal types are visible here without an import:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzJunos \
//     -I Sources/CZlib -I Sources/CLibSSH -lz -lssh Sources/JunosConfig/*.swift FLAT/*.swift \
//     Tests/Fuzz/FuzzDevice.swift
//
// Every input goes to all five checks (none may trap; a failed check calls fatalError with what
// it saw):
//   1. NetconfFramer: the input fed in pieces (sizes from the input) in both framings, and to an
//      end-of-message framer that switches to chunks after its first message (as NetconfSession
//      does after the hello); pieces or one piece must give the same messages and failure.
//      Round trip: the input split at its first byte is a list of messages; framed in chunks of
//      random sizes and fed in random pieces they must come back exactly; framed with `]]>]]>`
//      too, when no message ends early (its text followed by `]]>]]>` holds the marker only at
//      the end).
//   2. NetconfReply (JunosConfig's XMLReader): the input as a reply, its elements and
//      errors; any text escaped inside an element (`& < > " '`) reads back as itself.
//   3. MiniJSON.parse: when it parses, render the value and parse it again to an equal value.
//   4. CaptureBundle.Manifest.parse: no accepted file path starts with `/` or has a `..`
//      component (bytewise, up to a NUL as the C library reads it); render and parse again give
//      the same manifest.
//   5. ReadOnlyCommand for every line: an accepted command's text is accepted again as itself,
//      holds only `a-z 0-9 space - |`, starts with `show `, has none of the words that change a
//      device, and its rollback numbers are one or two digits.

/// A small deterministic generator (SplitMix64).
private struct Random {
  var state: UInt64

  init(_ bytes: [UInt8]) {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
    state = h
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in 1...limit.
  mutating func size(_ limit: Int) -> Int { Int(next() % UInt64(limit)) + 1 }
}

private func failure(_ what: String, _ texts: [[UInt8]]) -> Never {
  let shown = texts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n--- next ---\n")
  fatalError("\(what)\n--- texts ---\n\(shown)\n--- end ---")
}

// MARK: 1. NETCONF framing

private func feed(_ framer: inout NetconfFramer, _ bytes: ArraySlice<UInt8>) {
  bytes.withUnsafeBytes { framer.feed($0) }
}

/// Feeds `bytes` in pieces of the given sizes (cycled); the whole at once when `sizes` is empty.
private func framed(_ bytes: [UInt8], chunked: Bool, sizes: [Int]) -> NetconfFramer {
  var framer = NetconfFramer()
  framer.chunked = chunked
  guard !sizes.isEmpty else {
    feed(&framer, bytes[...])
    return framer
  }
  var at = 0
  var k = 0
  while at < bytes.count {
    let end = min(bytes.count, at + sizes[k % sizes.count])
    feed(&framer, bytes[at..<end])
    at = end
    k += 1
  }
  return framer
}

private func checkFramerNoCrash(_ bytes: [UInt8]) {
  let sizes = bytes.prefix(16).map { Int($0 % 23) + 1 }
  for chunked in [false, true] {
    let whole = framed(bytes, chunked: chunked, sizes: [])
    let pieces = framed(bytes, chunked: chunked, sizes: sizes)
    if whole.messages != pieces.messages || (whole.failure == nil) != (pieces.failure == nil) {
      failure(
        "chunked=\(chunked): pieces \(sizes) give \(pieces.messages.count) messages (failure \(pieces.failure ?? "none")), "
          + "one piece \(whole.messages.count) (failure \(whole.failure ?? "none"))",
        [bytes] + whole.messages + [[]] + pieces.messages)
    }
  }
  // The session's path: a hello in end-of-message framing, then chunks.
  var framer = NetconfFramer()
  var at = 0
  var k = 0
  while at < bytes.count {
    let end = min(bytes.count, at + sizes[k % sizes.count])
    feed(&framer, bytes[at..<end])
    if !framer.chunked && !framer.messages.isEmpty {
      framer.chunked = true
      framer.parseChunks()
    }
    at = end
    k += 1
  }
}

private func checkFramerRoundTrip(_ bytes: [UInt8]) {
  guard let separator = bytes.first else { return }
  let messages = bytes.dropFirst().split(separator: separator, omittingEmptySubsequences: false).map { Array($0) }
  var random = Random(bytes)

  // Chunked: every message as chunks of random sizes, then "\n##\n".
  var stream: [UInt8] = []
  for m in messages {
    var at = 0
    while at < m.count {
      let n = min(m.count - at, random.next() % 4 == 0 ? random.size(4000) : random.size(12))
      stream += Array("\n#\(n)\n".utf8)
      stream += m[at..<(at + n)]
      at += n
    }
    stream += Array("\n##\n".utf8)
  }
  let sizes = (0..<8).map { _ in random.size(40) }
  let chunked = framed(stream, chunked: true, sizes: sizes)
  if chunked.messages != messages || chunked.failure != nil || !chunked.message.isEmpty {
    failure(
      "chunked framing of \(messages.count) messages read back as \(chunked.messages.count) (failure \(chunked.failure ?? "none"))",
      [stream] + chunked.messages)
  }

  // End of message: only messages the framing can carry (the marker's first occurrence in
  // message + marker is at the end; a message ending in "]]>" cannot be told apart).
  let eom = NetconfFramer.eom
  let carried = messages.filter { m in
    let s = m + eom
    var i = 0
    while i + eom.count < s.count {
      if s[i..<(i + eom.count)].elementsEqual(eom) { return false }
      i += 1
    }
    return true
  }
  let eomStream = carried.flatMap { $0 + eom }
  let ended = framed(eomStream, chunked: false, sizes: sizes)
  if ended.messages != carried || ended.failure != nil {
    failure("end-of-message framing of \(carried.count) messages read back as \(ended.messages.count)", [eomStream] + ended.messages)
  }
}

// MARK: 2. NetconfReply

private func escape(_ s: String) -> String {
  var out = ""
  for c in s.unicodeScalars {
    switch c {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "\"": out += "&quot;"
    case "'": out += "&apos;"
    default: out.unicodeScalars.append(c)
    }
  }
  return out
}

private func checkXML(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  if let reply = try? NetconfReply(text) {
    for name in ["capability", "rpc-error", "error-message", "x"] {
      _ = reply.all(name)
      _ = reply.first(name)
    }
    _ = reply.errorMessage
  }
  // Any text escaped inside an element reads back as itself.
  let escaped = "<t>" + escape(text) + "</t>"
  guard let back = try? NetconfReply(escaped) else {
    failure("escaped text is not a readable reply", [bytes, Array(escaped.utf8)])
    return
  }
  if !(back.first("t") ?? "").utf8.elementsEqual(text.utf8) {
    failure("the text of <t>escape(s)</t> != s", [bytes, Array(escaped.utf8)])
  }
}

// MARK: 3. MiniJSON

private func render(_ v: MiniJSON.Value, into o: inout [UInt8]) {
  switch v {
  case .null: o += Array("null".utf8)
  case .bool(let b): o += Array((b ? "true" : "false").utf8)
  case .number(let n):
    if n.isInfinite {
      o += Array((n < 0 ? "-1e999" : "1e999").utf8)
    } else {
      o += Array("\(n)".utf8)
    }
  case .string(let s): renderString(s, into: &o)
  case .array(let a):
    o.append(UInt8(ascii: "["))
    for (k, e) in a.enumerated() {
      if k > 0 { o.append(UInt8(ascii: ",")) }
      render(e, into: &o)
    }
    o.append(UInt8(ascii: "]"))
  case .object(let d):
    o.append(UInt8(ascii: "{"))
    for (k, key) in d.keys.sorted().enumerated() {
      if k > 0 { o.append(UInt8(ascii: ",")) }
      renderString(key, into: &o)
      o.append(UInt8(ascii: ":"))
      render(d[key]!, into: &o)
    }
    o.append(UInt8(ascii: "}"))
  }
}

private func renderString(_ s: String, into o: inout [UInt8]) {
  let hex = Array("0123456789abcdef".utf8)
  o.append(UInt8(ascii: "\""))
  for b in s.utf8 {
    switch b {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): o += [UInt8(ascii: "\\"), b]
    case 0..<0x20: o += Array("\\u00".utf8) + [hex[Int(b >> 4)], hex[Int(b & 15)]]
    default: o.append(b)
    }
  }
  o.append(UInt8(ascii: "\""))
}

private func same(_ a: MiniJSON.Value, _ b: MiniJSON.Value) -> Bool {
  switch (a, b) {
  case (.null, .null): return true
  case (.bool(let x), .bool(let y)): return x == y
  case (.number(let x), .number(let y)): return x == y
  case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
  case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
  case (.object(let x), .object(let y)):
    return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
  default: return false
  }
}

private func checkJSON(_ bytes: [UInt8]) {
  guard let v = try? MiniJSON.parse(bytes) else { return }
  var text: [UInt8] = []
  render(v, into: &text)
  guard let again = try? MiniJSON.parse(text) else { failure("the rendered value does not parse", [bytes, text]) }
  if !same(v, again) { failure("parse(render(v)) != v", [bytes, text]) }
}

// MARK: 4. Manifest

/// Whether a bundle path, as the C library reads it (up to a NUL), leaves the bundle.
private func escapes(_ path: String) -> Bool {
  let c = Array(path.utf8.prefix { $0 != 0 })
  return c.first == 0x2F || c.split(separator: 0x2F).contains { $0.elementsEqual("..".utf8) }
}

private func checkManifest(_ bytes: [UInt8]) {
  guard let m = try? CaptureBundle.Manifest.parse(bytes, path: "fuzz") else { return }
  for f in m.files where escapes(f.path) {
    failure("the manifest was accepted with the file path '\(f.path)' (\(Array(f.path.utf8)))", [bytes])
  }
  // Round trip; rendering writes the checksums unquoted, as captures make them (hex).
  guard m.files.allSatisfy({ $0.sha256.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) } }) else {
    return
  }
  let text = m.render()
  let back: CaptureBundle.Manifest
  do {
    back = try CaptureBundle.Manifest.parse(text, path: "fuzz")
  } catch {
    failure("the rendered manifest does not parse: \(error)", [bytes, text])
  }
  let equal =
    back.host == m.host && back.transport == m.transport && back.device == m.device && back.commands == m.commands
    && back.restarts == m.restarts && back.files.count == m.files.count
    && zip(back.files, m.files).allSatisfy { $0.path == $1.path && $0.bytes == $1.bytes && $0.sha256 == $1.sha256 }
  if !equal { failure("parse(render(manifest)) differs", [bytes, text]) }
}

// MARK: 5. ReadOnlyCommand

private let forbidden = ["request", "file", "start", "configure", "save", "load", ";", "`", "\n"]

private func checkCommands(_ bytes: [UInt8]) {
  for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
    let text = String(decoding: line, as: UTF8.self)
    guard let command = ReadOnlyCommand(text) else { continue }
    let t = command.text
    let b = Array(t.utf8)
    guard ReadOnlyCommand(t)?.text == t else { failure("the accepted command '\(t)' is not accepted again as itself", [Array(line)]) }
    if !b.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 || $0 == 0x2D || $0 == 0x7C }) {
      failure("the accepted command '\(t)' has a character outside a-z 0-9 space - |", [Array(line)])
    }
    if !b.starts(with: "show ".utf8) { failure("the accepted command '\(t)' does not start with 'show '", [Array(line)]) }
    if let word = forbidden.first(where: { t.contains($0) }) {
      failure("the accepted command '\(t)' contains '\(word)'", [Array(line)])
    }
    let words = t.split(separator: "|")[0].split(separator: " ")
    for (k, w) in words.enumerated() where k > 0 && (words[k - 1] == "rollback" || words[k - 1] == "compare") {
      if w.isEmpty || w.count > 2 || !w.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        failure("the accepted command '\(t)' has the rollback number '\(w)'", [Array(line)])
      }
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  checkFramerNoCrash(bytes)
  checkFramerRoundTrip(bytes)
  checkXML(bytes)
  checkJSON(bytes)
  checkManifest(bytes)
  checkCommands(bytes)
  return 0
}

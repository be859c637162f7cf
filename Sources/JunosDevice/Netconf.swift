internal import CLibSSH

/// A NETCONF request junoscope may send: only RPCs that read. Nothing else can be built.
public enum NetconfRequest: Sendable, Hashable {
  /// `<get-commit-information/>`: the commit list.
  case commitInformation
  /// `<get-rollback-information>`: rollback N as text, or with `compare` the difference from
  /// rollback `compare` to rollback N (as `show system rollback N compare M`).
  case rollback(Int, compare: Int?)
  /// `<get-software-information/>`: host name, model, version.
  case softwareInformation
  /// `<get-configuration rollback="N" format="text"/>`: rollback N as configuration text.
  case configuration(rollback: Int)

  /// The RPC body.
  var body: String {
    switch self {
    case .commitInformation: return "<get-commit-information/>"
    case .softwareInformation: return "<get-software-information/>"
    case .configuration(let n): return "<get-configuration rollback=\"\(n)\" format=\"text\"/>"
    case .rollback(let n, let m):
      return "<get-rollback-information><rollback>\(n)</rollback>" + (m.map { "<compare>\($0)</compare>" } ?? "")
        + "<format>text</format></get-rollback-information>"
    }
  }

  /// Whether the numbers are rollbacks a device keeps (0–49).
  var isValid: Bool {
    switch self {
    case .rollback(let n, let m): return (0...49).contains(n) && (m.map { (0...49).contains($0) } ?? true)
    case .configuration(let n): return (0...49).contains(n)
    case .commitInformation, .softwareInformation: return true
    }
  }
}

/// Which NETCONF framing to use.
public enum NetconfFraming: Sendable {
  /// Offer base:1.0 and base:1.1; chunked framing (RFC 6242 §4.2) when the device offers 1.1.
  case negotiate
  /// Offer base:1.0 only: end-of-message framing (`]]>]]>`).
  case endOfMessage
}

/// Splits a NETCONF byte stream into messages, in either framing. Linear: each byte is looked
/// at a bounded number of times.
struct NetconfFramer {
  var chunked = false
  var buffer: [UInt8] = []
  var scanFrom = 0
  /// Chunked state: the message being assembled.
  var message: [UInt8] = []
  var messages: [[UInt8]] = []
  var failure: String?

  static let eom: [UInt8] = Array("]]>]]>".utf8)

  mutating func feed(_ bytes: UnsafeRawBufferPointer) {
    buffer.append(contentsOf: bytes)
    chunked ? parseChunks() : parseEOM()
  }

  mutating func parseEOM() {
    while true {
      let eom = Self.eom
      var i = max(scanFrom, 0)
      var found = -1
      while i + eom.count <= buffer.count {
        if buffer[i] == eom[0] && buffer[i..<(i + eom.count)].elementsEqual(eom) {
          found = i
          break
        }
        i += 1
      }
      guard found >= 0 else {
        scanFrom = max(0, buffer.count - eom.count + 1)
        return
      }
      messages.append(Array(buffer[..<found]))
      buffer.removeSubrange(..<(found + eom.count))
      scanFrom = 0
      if chunked {
        parseChunks()
        return
      }
    }
  }

  /// `\n#LEN\n` + LEN bytes, repeated, then `\n##\n` ends the message.
  mutating func parseChunks() {
    var p = 0
    defer { buffer.removeSubrange(..<p) }
    func blank(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D || b == 0x20 || b == 0x09 }
    while true {
      // Between messages, blanks before the header's "\n#" are tolerated (the hello's "]]>]]>"
      // is followed by a line end).
      if message.isEmpty { while p + 1 < buffer.count && blank(buffer[p]) && blank(buffer[p + 1]) { p += 1 } }
      guard buffer.count - p >= 4 else { return }
      guard buffer[p] == 0x0A, buffer[p + 1] == 0x23 else {
        failure = "bad NETCONF chunk header"
        return
      }
      if buffer[p + 2] == 0x23 {
        guard buffer[p + 3] == 0x0A else {
          failure = "bad NETCONF end-of-chunks marker"
          return
        }
        messages.append(message)
        message = []
        p += 4
        continue
      }
      var q = p + 2
      var length = 0
      while q < buffer.count, buffer[q] >= 0x30, buffer[q] <= 0x39, q - p - 2 < 10 {
        length = length * 10 + Int(buffer[q] - 0x30)
        q += 1
      }
      guard q < buffer.count else { return }
      guard buffer[q] == 0x0A, length > 0 else {
        failure = "bad NETCONF chunk size"
        return
      }
      guard buffer.count - (q + 1) >= length else { return }
      message.append(contentsOf: buffer[(q + 1)..<(q + 1 + length)])
      p = q + 1 + length
    }
  }
}

/// A NETCONF session on the `netconf` subsystem of an ``SSHSession``: hello exchange, then one
/// RPC at a time.
public final class NetconfSession {
  let ssh: SSHSession
  let channel: SSHChannel
  let box: FramerBox
  var messageID = 0
  /// The capabilities the device announced.
  public private(set) var capabilities: [String] = []
  /// Whether chunked framing (base:1.1) is in use.
  public var isChunked: Bool { box.framer.chunked }

  final class FramerBox {
    var framer = NetconfFramer()
  }

  /// Opens the subsystem and exchanges hellos.
  public init(_ ssh: SSHSession, framing: NetconfFraming = .negotiate) throws(DeviceError) {
    self.ssh = ssh
    let box = FramerBox()
    self.box = box
    channel = try ssh.openSubsystem("netconf") { box.framer.feed($0) }
    var caps = "<capability>urn:ietf:params:netconf:base:1.0</capability>"
    if framing == .negotiate { caps += "<capability>urn:ietf:params:netconf:base:1.1</capability>" }
    try channel.write(
      Array(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><hello xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\"><capabilities>\(caps)</capabilities></hello>]]>]]>"
          .utf8))
    let hello = try next(what: "the device's NETCONF hello")
    let text = String(decoding: hello, as: UTF8.self)
    guard text.contains("<hello") else { throw DeviceError(.protocolError, "the device did not start with a NETCONF <hello>") }
    capabilities = XMLText.all("capability", in: text)
    if framing == .negotiate && capabilities.contains("urn:ietf:params:netconf:base:1.1") {
      box.framer.chunked = true
      box.framer.parseChunks()
    }
  }

  deinit {
    // Best effort: say goodbye, do not wait long.
    if let frame = try? frame("<close-session/>") {
      try? channel.write(frame)
      try? channel.wait(until: { self.channel.sink.closed || !self.box.framer.messages.isEmpty }, deadline: nowMs() + 1000, what: "close")
    }
  }

  func frame(_ body: String) throws(DeviceError) -> [UInt8] {
    messageID += 1
    let rpc = Array("<rpc xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\" message-id=\"\(messageID)\">\(body)</rpc>".utf8)
    if box.framer.chunked { return Array("\n#\(rpc.count)\n".utf8) + rpc + Array("\n##\n".utf8) }
    return rpc + Array("]]>]]>".utf8)
  }

  func next(what: String) throws(DeviceError) -> [UInt8] {
    let deadline = ssh.commandDeadline(nil)
    try channel.wait(
      until: { !self.box.framer.messages.isEmpty || self.box.framer.failure != nil || self.channel.sink.closed || self.channel.sink.eof },
      deadline: deadline, what: what)
    if let f = box.framer.failure { throw DeviceError(.protocolError, "\(what): \(f)") }
    guard !box.framer.messages.isEmpty else { throw DeviceError(.io, "the device closed the NETCONF session during \(what)") }
    return box.framer.messages.removeFirst()
  }

  /// Sends one read-only RPC and returns its `<rpc-reply>`.
  ///
  /// - Throws: `device` for an `<rpc-error>` of severity error (with its message), `timeout`,
  ///   `io`, `protocolError`, `notReadOnly` for a rollback number outside 0–49.
  public func call(_ request: NetconfRequest) throws(DeviceError) -> String {
    guard request.isValid else { throw DeviceError(.notReadOnly, "rollback numbers are 0–49") }
    try channel.write(try frame(request.body))
    let reply = String(decoding: try next(what: "the reply to \(request.body)"), as: UTF8.self)
    for error in XMLText.elements("rpc-error", in: reply) where XMLText.first("error-severity", in: error) != "warning" {
      let message = XMLText.first("error-message", in: error) ?? XMLText.first("error-tag", in: error) ?? "unknown error"
      throw DeviceError(.device, "the device answered \(request.body) with an error: \(message)")
    }
    return reply
  }
}

/// Just enough XML for replies: elements by name (any namespace prefix), text unescaped.
enum XMLText {
  /// The inner text of every `<name …>…</name>` (prefixes like `junos:` ignored), unescaped.
  static func all(_ name: String, in text: String) -> [String] { elements(name, in: text).map(unescape) }

  /// The first, unescaped.
  static func first(_ name: String, in text: String) -> String? { elements(name, in: text).first.map(unescape) }

  /// The raw inner XML of every `<name …>…</name>` (not nested in one another).
  static func elements(_ name: String, in text: String) -> [String] {
    let b = Array(text.utf8)
    let n = Array(name.utf8)
    var out: [String] = []
    var i = 0
    while i < b.count {
      guard b[i] == 0x3C, let (nameEnd, isClose) = tagName(b, i, matching: n), !isClose else {
        i += 1
        continue
      }
      // Find the end of the start tag.
      var j = nameEnd
      while j < b.count && b[j] != 0x3E { j += 1 }
      guard j < b.count else { break }
      if b[j - 1] == 0x2F {  // <name/>
        out.append("")
        i = j + 1
        continue
      }
      var k = j + 1
      var found = false
      while k < b.count {
        if b[k] == 0x3C, let (_, close) = tagName(b, k, matching: n), close {
          out.append(String(decoding: b[(j + 1)..<k], as: UTF8.self))
          found = true
          break
        }
        k += 1
      }
      guard found else { break }
      i = k + 1
    }
    return out
  }

  /// If a tag at `i` (`<name`, `</name`, `<p:name`, `</p:name`) has the local name `n`: the index
  /// after the name, and whether it closes.
  static func tagName(_ b: [UInt8], _ i: Int, matching n: [UInt8]) -> (Int, Bool)? {
    var p = i + 1
    var close = false
    if p < b.count && b[p] == 0x2F {
      close = true
      p += 1
    }
    var q = p
    while q < b.count && b[q] != 0x20 && b[q] != 0x3E && b[q] != 0x2F && b[q] != 0x0A && b[q] != 0x09 && b[q] != 0x0D { q += 1 }
    var local = p
    for r in p..<q where b[r] == 0x3A { local = r + 1 }
    guard q - local == n.count, b[local..<q].elementsEqual(n) else { return nil }
    return (q, close)
  }

  /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#N;` `&#xN;`; CDATA sections kept as they are.
  static func unescape(_ s: String) -> String {
    guard s.utf8.contains(0x26) || s.contains("<![CDATA[") else { return s }
    var out: [UInt8] = []
    let b = Array(s.utf8)
    var i = 0
    while i < b.count {
      if b[i] == 0x3C, b[i...].starts(with: "<![CDATA[".utf8) {
        var k = i + 9
        while k + 2 < b.count && !(b[k] == 0x5D && b[k + 1] == 0x5D && b[k + 2] == 0x3E) { k += 1 }
        guard k + 2 < b.count else {  // never closed: the rest is its text
          out.append(contentsOf: b[min(i + 9, b.count)...])
          break
        }
        out.append(contentsOf: b[(i + 9)..<k])
        i = k + 3
        continue
      }
      guard b[i] == 0x26, let semi = b[i...].prefix(12).firstIndex(of: 0x3B) else {
        out.append(b[i])
        i += 1
        continue
      }
      let entity = String(decoding: b[(i + 1)..<semi], as: UTF8.self)
      var scalar: Unicode.Scalar? = nil
      switch entity {
      case "lt": scalar = "<"
      case "gt": scalar = ">"
      case "amp": scalar = "&"
      case "quot": scalar = "\""
      case "apos": scalar = "'"
      default:
        let hex = entity.dropFirst(2)
        let dec = entity.dropFirst()
        if (entity.hasPrefix("#x") || entity.hasPrefix("#X")) && !hex.isEmpty && hex.allSatisfy(\.isHexDigit) {
          scalar = UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init)
        } else if entity.hasPrefix("#") && !dec.isEmpty && dec.allSatisfy({ $0.isASCII && $0.isNumber }) {
          scalar = UInt32(dec).flatMap(Unicode.Scalar.init)
        }
      }
      if let scalar {
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
        i = semi + 1
      } else {
        out.append(b[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

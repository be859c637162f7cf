internal import CLibSSH
internal import JunosConfig

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
    let reply = try NetconfReply(String(decoding: hello, as: UTF8.self))
    guard reply.first("hello") != nil else { throw DeviceError(.protocolError, "the device did not start with a NETCONF <hello>") }
    capabilities = reply.all("capability").map { $0.trimmingBlanks() }
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
  ///   `io`, `protocolError` (also for a reply that is not well-formed XML), `notReadOnly` for a
  ///   rollback number outside 0–49.
  public func call(_ request: NetconfRequest) throws(DeviceError) -> NetconfReply {
    guard request.isValid else { throw DeviceError(.notReadOnly, "rollback numbers are 0–49") }
    try channel.write(try frame(request.body))
    let reply = try NetconfReply(String(decoding: try next(what: "the reply to \(request.body)"), as: UTF8.self))
    if let message = reply.errorMessage {
      throw DeviceError(.device, "the device answered \(request.body) with an error: \(message)")
    }
    return reply
  }
}

/// A NETCONF message as received, and the text of its elements by local name (namespace prefixes
/// like `junos:` ignored), read with JunosConfig's `XMLReader`.
public struct NetconfReply: Sendable {
  /// The message as received.
  public let xml: String
  /// Local name → the direct text of each occurrence, in document order.
  let texts: [String: [String]]
  /// For each `<rpc-error>`: its children's text by local name.
  let errors: [[String: String]]

  /// Reads a message.
  ///
  /// - Throws: `protocolError` when it is not well-formed XML.
  public init(_ xml: String) throws(DeviceError) {
    self.xml = xml
    var reader = XMLReader(bytes: Array(xml.utf8))
    var texts: [String: [String]] = [:]
    var errors: [[String: String]] = []
    var open: [(name: String, text: [UInt8])] = []
    var errorDepth: Int? = nil  // depth of the <rpc-error> being read
    while let event = reader.next() {
      switch event {
      case .start(let tag, _, _):
        let name = reader.string(tag.local)
        if name == "rpc-error" && errorDepth == nil {
          errorDepth = open.count
          errors.append([:])
        }
        open.append((name, []))
      case .text(let range, let entities):
        if !open.isEmpty { reader.appendText(range, entities: entities, to: &open[open.count - 1].text) }
      case .cdata(let range):
        if !open.isEmpty { open[open.count - 1].text += reader.bytes[range] }
      case .end:
        let e = open.removeLast()
        let name = e.name
        let text = String(decoding: e.text, as: UTF8.self)
        texts[name, default: []].append(text)
        if let d = errorDepth {
          if open.count == d {
            errorDepth = nil
          } else if open.count == d + 1 {
            errors[errors.count - 1][name] = text.trimmingBlanks()
          }
        }
      case .error(let message, let at):
        throw DeviceError(.protocolError, "the device sent XML that cannot be read: \(message) at byte \(at)")
      }
    }
    self.texts = texts
    self.errors = errors
  }

  /// The text of the first `<name>`.
  public func first(_ name: String) -> String? { texts[name]?.first }

  /// The text of every `<name>`.
  public func all(_ name: String) -> [String] { texts[name] ?? [] }

  /// The message of the first `<rpc-error>` whose severity is not `warning`, if any.
  public var errorMessage: String? {
    errors.first { $0["error-severity"] != "warning" }.map { $0["error-message"] ?? $0["error-tag"] ?? "unknown error" }
  }
}

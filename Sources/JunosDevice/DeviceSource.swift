/// Where history comes from: a live device (over the CLI or NETCONF) or a capture bundle. Every
/// history command works the same on any of them.
public protocol DeviceSource {
  /// A name for messages (the host, or the bundle's folder).
  var name: String { get }
  /// The commit list: `show system commit | display xml` or a `<get-commit-information/>`
  /// reply (anything `CommitHistory.read` reads).
  func commitListXML() throws(DeviceError) -> [UInt8]
  /// The commit list as the CLI prints it; nil where the source has only XML (NETCONF).
  func commitListText() throws(DeviceError) -> [UInt8]?
  /// Rollback N (0–49) as configuration text.
  func rollback(_ n: Int) throws(DeviceError) -> [UInt8]
  /// What changed from rollback M to rollback N, as `show system rollback N compare M`.
  func compare(_ n: Int, _ m: Int) throws(DeviceError) -> [UInt8]
  /// `Hostname`, `Model` and `Junos` of `show version`, where known.
  func identity() throws(DeviceError) -> DeviceIdentity
}

/// What a device says it is.
public struct DeviceIdentity: Sendable, Hashable {
  /// Host name.
  public var hostName: String?
  /// Model (`vsrx`, `mx480`).
  public var model: String?
  /// Junos version (`17.3R2.10`).
  public var version: String?

  /// Creates an identity.
  public init(hostName: String? = nil, model: String? = nil, version: String? = nil) {
    self.hostName = hostName
    self.model = model
    self.version = version
  }
}

/// Every command sent, in order (for a bundle's manifest).
public protocol CommandRecording: AnyObject {
  /// The commands or RPCs sent so far.
  var sent: [String] { get }
}

/// A device through its CLI: one exec channel per command on one SSH session.
public final class SSHDevice: DeviceSource, CommandRecording {
  /// The session.
  public let session: SSHSession
  /// Commands sent so far.
  public private(set) var sent: [String] = []

  /// Uses an open session.
  public init(_ session: SSHSession) { self.session = session }

  /// The host.
  public var name: String { session.options.host }

  /// Runs an allow-listed command; a non-zero exit, or an `error:` line where the output should
  /// be, is a ``DeviceError/Kind/device`` error with the device's words.
  public func run(_ command: ReadOnlyCommand) throws(DeviceError) -> [UInt8] {
    sent.append(command.text)
    let r = try session.exec(command)
    let out = r.stdout
    let firstLine = out.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: true).first.map {
      String(decoding: $0, as: UTF8.self).trimmingBlanks()
    }
    if let firstLine, firstLine.hasPrefix("error:") {
      throw DeviceError(.device, "\(name): '\(command)' failed: \(firstLine)")
    }
    if let status = r.exitStatus, status != 0 {
      let why = String(decoding: r.stderr, as: UTF8.self).trimmingBlanks()
      throw DeviceError(.device, "\(name): '\(command)' exited with status \(status)\(why.isEmpty ? "" : ": \(why)")")
    }
    if r.exitStatus == nil, let signal = r.exitSignal {
      throw DeviceError(.device, "\(name): '\(command)' was killed by signal \(signal)")
    }
    return out
  }

  /// Checks a command line against the allow-list and runs it: what is not allowed never reaches
  /// the device (``DeviceError/Kind/notReadOnly``).
  public func run(line: String) throws(DeviceError) -> [UInt8] {
    guard let c = ReadOnlyCommand(line) else {
      throw DeviceError(.notReadOnly, "'\(line)' is not one of the read-only commands junoscope sends; not sent")
    }
    return try run(c)
  }

  public func commitListXML() throws(DeviceError) -> [UInt8] { try run(.commitListXML) }
  public func commitListText() throws(DeviceError) -> [UInt8]? { try run(.commitList) }

  public func rollback(_ n: Int) throws(DeviceError) -> [UInt8] {
    guard let c = ReadOnlyCommand.rollback(n) else { throw DeviceError(.notReadOnly, "rollback numbers are 0–49, not \(n)") }
    return try run(c)
  }

  public func compare(_ n: Int, _ m: Int) throws(DeviceError) -> [UInt8] {
    guard let c = ReadOnlyCommand.compare(n, m) else { throw DeviceError(.notReadOnly, "rollback numbers are 0–49") }
    return try run(c)
  }

  public func identity() throws(DeviceError) -> DeviceIdentity {
    var id = DeviceIdentity()
    for line in String(decoding: try run(.version), as: UTF8.self).split(separator: "\n") {
      let t = line.trimmingBlanks()
      if t.hasPrefix("Hostname:") { id.hostName = t.dropFirst(9).trimmingBlanks() }
      if t.hasPrefix("Model:") { id.model = t.dropFirst(6).trimmingBlanks() }
      if t.hasPrefix("Junos:") { id.version = t.dropFirst(6).trimmingBlanks() }
    }
    return id
  }
}

/// A device through NETCONF (the `netconf` subsystem) on one SSH session.
public final class NetconfDevice: DeviceSource, CommandRecording {
  /// The NETCONF session.
  public let netconf: NetconfSession
  /// RPCs sent so far.
  public private(set) var sent: [String] = []

  /// Opens NETCONF on a session.
  public init(_ session: SSHSession, framing: NetconfFraming = .negotiate) throws(DeviceError) {
    netconf = try NetconfSession(session, framing: framing)
  }

  /// The host.
  public var name: String { netconf.ssh.options.host }

  func call(_ r: NetconfRequest) throws(DeviceError) -> NetconfReply {
    sent.append(r.body)
    return try netconf.call(r)
  }

  public func commitListXML() throws(DeviceError) -> [UInt8] { Array(try call(.commitInformation).xml.utf8) }
  public func commitListText() throws(DeviceError) -> [UInt8]? { nil }

  func output(_ reply: NetconfReply, _ what: String) throws(DeviceError) -> [UInt8] {
    guard let text = reply.first("configuration-output") ?? reply.first("configuration-text") else {
      throw DeviceError(.protocolError, "\(name): the reply to \(what) has no configuration text")
    }
    var bytes = Array(text.utf8)
    if bytes.first == 0x0A { bytes.removeFirst() }
    return bytes
  }

  public func rollback(_ n: Int) throws(DeviceError) -> [UInt8] { try output(try call(.configuration(rollback: n)), "rollback \(n)") }
  public func compare(_ n: Int, _ m: Int) throws(DeviceError) -> [UInt8] {
    try output(try call(.rollback(n, compare: m)), "rollback \(n) compare \(m)")
  }

  public func identity() throws(DeviceError) -> DeviceIdentity {
    let r = try call(.softwareInformation)
    return DeviceIdentity(
      hostName: r.first("host-name"), model: r.first("product-model"), version: r.first("junos-version"))
  }
}

extension StringProtocol {
  func trimmingBlanks() -> String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\n" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" { s = s.dropLast() }
    return String(s)
  }
}

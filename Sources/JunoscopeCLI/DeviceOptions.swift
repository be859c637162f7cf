import ArgumentKit
import Foundation
import JunosDevice

/// Connection options shared by every command that talks to a device.
enum DeviceOptions {
  static let arguments: [ArgumentSpec] = [
    .option("port", valueName: "n", help: "SSH port (default: the ssh config's, else 22; NETCONF devices often use 830)."),
    .option("user", valueName: "name", help: "Login name (default: the ssh config's, else yours; or write user@host)."),
    .option("identity", short: "i", valueName: "file", help: "Private key to try (repeatable).", repeating: true, completion: .file),
    .option(
      "known-hosts", valueName: "file", help: "known_hosts to check host keys against (default ~/.ssh/known_hosts).", completion: .file),
    .flag("accept-new-host-key", help: "Record the key of a host not yet in known_hosts (a changed key is always refused)."),
    .option("ssh-config", short: "F", valueName: "file", help: "ssh config file to read instead of ~/.ssh/config.", completion: .file),
    .flag("no-ssh-config", help: "Read no ssh config file."),
    .option("timeout", valueName: "seconds", help: "Connect and authentication time limit (default 10)."),
    .option("command-timeout", valueName: "seconds", help: "Time limit of each command (default 120)."),
    .option("deadline", valueName: "seconds", help: "Time limit of a whole host's work."),
    .flag("ask-password", help: "Ask for a password on the terminal (no echo); JUNOSCOPE_PASSWORD is used when set."),
    .flag("netconf", help: "Use NETCONF (the netconf subsystem) instead of the CLI."),
  ]

  /// SSH options for `host` (which may be `user@host`).
  static func sshOptions(_ host: String, _ inv: Invocation, console: Console) throws(CommandFailure) -> SSHOptions {
    var name = host
    var user = inv.option("user")
    if let at = host.lastIndex(of: "@") {
      user = user ?? String(host[..<at])
      name = String(host[host.index(after: at)...])
    }
    guard !name.isEmpty, !name.hasPrefix("-") else {
      throw CommandFailure(message: "'\(host)' is not a host name", status: ExitStatus.usage)
    }
    var o = SSHOptions(host: name)
    o.user = user
    if let p = inv.option("port") {
      guard let n = Int(p), (1...65535).contains(n) else {
        throw CommandFailure(message: "--port wants 1–65535, not '\(p)'", status: ExitStatus.usage)
      }
      o.port = n
    }
    o.identityFiles = inv.options("identity")
    o.knownHostsFile = inv.option("known-hosts")
    o.hostKeyPolicy = inv.flag("accept-new-host-key") ? .acceptNew : .strict
    o.configFile = inv.option("ssh-config")
    o.ignoreConfig = inv.flag("no-ssh-config")
    if o.ignoreConfig && o.configFile != nil {
      throw CommandFailure(message: "give -F FILE or --no-ssh-config, not both", status: ExitStatus.usage)
    }
    func seconds(_ flag: String) throws(CommandFailure) -> Double? {
      guard let t = inv.option(flag) else { return nil }
      guard let v = Double(t), v > 0, v < 86_400 else {
        throw CommandFailure(message: "--\(flag) wants a number of seconds, not '\(t)'", status: ExitStatus.usage)
      }
      return v
    }
    if let t = try seconds("timeout") { o.connectTimeout = t }
    if let t = try seconds("command-timeout") { o.commandTimeout = t }
    o.deadline = try seconds("deadline")
    if let pw = ProcessInfo.processInfo.environment["JUNOSCOPE_PASSWORD"], !pw.isEmpty {
      o.password = pw
    } else if inv.flag("ask-password") {
      o.password = try askPassword("Password for \(user.map { $0 + "@" } ?? "")\(name): ")
    }
    return o
  }

  /// Reads a password from the terminal with echo off.
  static func askPassword(_ prompt: String) throws(CommandFailure) -> String {
    let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard fd >= 0 else {
      throw CommandFailure(message: "--ask-password needs a terminal; set JUNOSCOPE_PASSWORD instead", status: ExitStatus.usage)
    }
    defer { close(fd) }
    var old = termios()
    tcgetattr(fd, &old)
    var quiet = old
    quiet.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(fd, TCSAFLUSH, &quiet)
    defer {
      tcsetattr(fd, TCSAFLUSH, &old)
      _ = write(fd, "\n", 1)
    }
    _ = prompt.withCString { write(fd, $0, strlen($0)) }
    var bytes: [UInt8] = []
    var c: UInt8 = 0
    while read(fd, &c, 1) == 1 && c != 0x0A && c != 0x0D { bytes.append(c) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Connects and opens the device over the CLI or NETCONF.
  static func connect(_ options: SSHOptions, netconf: Bool) throws(DeviceError) -> any DeviceSource & CommandRecording {
    let session = try SSHSession(options)
    return netconf ? try NetconfDevice(session) : SSHDevice(session)
  }

  /// A file or folder name for a host (`r1`, `10.0.0.1`, `user@r1` → `r1`).
  static func fileName(_ host: String) -> String {
    let name = host.split(separator: "@").last.map(String.init) ?? host
    return String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" })
  }
}

internal import CLibSSH
internal import Glibc

/// libssh is initialised once per process.
private let libsshReady: Bool = ssh_init() == 0

func nowMs() -> Int64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}

func lastError(_ session: OpaquePointer) -> String {
  guard let p = ssh_get_error(UnsafeMutableRawPointer(session)) else { return "" }
  return String(cString: p)
}

/// What one command printed, and how it ended.
public struct ExecResult: Sendable {
  /// Standard output.
  public var stdout: [UInt8]
  /// Standard error.
  public var stderr: [UInt8]
  /// The exit status, when the server sent one.
  public var exitStatus: Int32?
  /// The signal that ended the command, if one did.
  public var exitSignal: String?
}

/// One authenticated SSH connection to a device (libssh), on which every command gets a channel
/// of its own: connect and authenticate once, run many. Not for use from several threads at
/// once; give each thread its own session.
public final class SSHSession {
  let session: OpaquePointer
  /// The options it was opened with.
  public let options: SSHOptions
  /// `host:port` as connected, for messages.
  public let endpoint: String
  /// The server's host key fingerprint (`SHA256:…`).
  public private(set) var fingerprint = ""
  /// The address the connection went to (digits: `192.0.2.1`, `2001:db8::1`); nil when the ssh
  /// config's `ProxyCommand` made the connection.
  public private(set) var address: String?
  /// Milliseconds connect + host key check + authentication took.
  public private(set) var connectMs: Int64 = 0
  let openedMs = nowMs()

  /// The time limit of a command starting now: its own, capped by the session's deadline.
  func commandDeadline(_ seconds: Double?) -> Int64 {
    let own = nowMs() + Int64((seconds ?? options.commandTimeout) * 1000)
    guard let d = options.deadline else { return own }
    return min(own, openedMs + Int64(d * 1000))
  }

  /// Connects, checks the host key and authenticates.
  ///
  /// The host (after the ssh config's `HostName`) is resolved and each of its addresses is tried
  /// in turn, as OpenSSH does, within ``SSHOptions/connectTimeout`` (or the config's
  /// `ConnectTimeout`) each, limited to ``SSHOptions/addressFamily`` (or the config's
  /// `AddressFamily`); only a refused, unreachable or silent address moves on to the next. The
  /// host key is checked against known_hosts under the host's name, whichever address answered.
  /// With a `ProxyCommand` (or `ProxyJump`) in the config, libssh runs it instead.
  ///
  /// - Throws: ``DeviceError`` — `connect` (naming each address tried and what happened),
  ///   `timeout`, `hostKeyUnknown` (with the key's fingerprint and the flag that accepts it),
  ///   `hostKeyChanged` (always refused, with both fingerprints), `hostKeyError`, `authDenied`,
  ///   `config`.
  public convenience init(_ options: SSHOptions) throws(DeviceError) {
    try self.init(options, addresses: nil)
  }

  /// As ``init(_:)``, trying `addresses` (when given) instead of the host's own.
  init(_ options: SSHOptions, addresses: [SocketAddress]?) throws(DeviceError) {
    let start = nowMs()
    guard libsshReady, let s = ssh_new() else { throw DeviceError(.config, "libssh could not start") }
    session = s
    self.options = options
    endpoint = "\(options.host):\(options.port.map(String.init) ?? "22")"
    let config = try configure()
    var port: UInt32 = 22
    ssh_options_get_port(session, &port)
    let where_ = "\(options.host):\(port)"
    if addresses != nil || stringOption(SSH_OPTIONS_PROXYCOMMAND) == nil {
      let name = stringOption(SSH_OPTIONS_HOST) ?? options.host
      let family = options.addressFamily ?? config?.addressFamily ?? .any
      var list = addresses ?? []
      if addresses == nil { list = try SocketAddress.resolve(name, port: Int(port), family: family, where_: where_) }
      let seconds = config?.connectTimeout ?? options.connectTimeout
      let (fd, answered) = try SocketAddress.connectFirst(list, host: options.host, timeoutMs: Int(seconds * 1000), where_: where_)
      address = answered.text
      // libssh owns the socket from here (ssh_disconnect/ssh_free close it); SSH_OPTIONS_HOST
      // stays the name, which is what known_hosts is checked against.
      set(SSH_OPTIONS_FD, number: Int32(fd))
    }
    if ssh_connect(session) != SSH_OK {
      let text = lastError(session)
      if text.contains("Timeout") || text.contains("timed out") {
        throw DeviceError(
          .timeout, "\(where_): no SSH handshake within \(Self.seconds(options.connectTimeout)) (\(text))")
      }
      throw DeviceError(.connect, "\(where_): \(text.isEmpty ? "cannot connect" : text)")
    }
    try verifyHostKey(where_)
    try authenticate(where_)
    connectMs = nowMs() - start
  }

  deinit {
    ssh_disconnect(session)
    ssh_free(session)
  }

  static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }

  private func set(_ option: ssh_options_e, _ value: String) throws(DeviceError) {
    if ssh_options_set(session, option, value) != SSH_OK { throw DeviceError(.config, "bad ssh option value '\(value)'") }
  }

  private func set<T>(_ option: ssh_options_e, number: T) {
    var v = number
    _ = withUnsafePointer(to: &v) { ssh_options_set(session, option, UnsafeRawPointer($0)) }
  }

  /// Options in the order libssh 0.10 needs: defaults, host, the config file, then explicit
  /// choices (the config would overwrite them otherwise). Returns what junoscope reads from the
  /// config itself (nil: no config).
  private func configure() throws(DeviceError) -> SSHConfigLookup? {
    var lookup: SSHConfigLookup? = nil
    set(SSH_OPTIONS_LOG_VERBOSITY, number: Int32(0))
    if let dir = options.sshDirectory { try set(SSH_OPTIONS_SSH_DIR, dir) }
    set(SSH_OPTIONS_TIMEOUT, number: Int(options.connectTimeout.rounded(.up)))
    try set(SSH_OPTIONS_HOST, options.host)
    if options.ignoreConfig {
      set(SSH_OPTIONS_PROCESS_CONFIG, number: false)
    } else {
      let file = options.configFile ?? (options.sshDirectory ?? "%d").replacing("%d", with: homeSSHDirectory()) + "/config"
      if options.configFile != nil && access(file, R_OK) != 0 {
        throw DeviceError(.config, "cannot read the ssh config file '\(file)'")
      }
      if access(file, R_OK) == 0 && ssh_options_parse_config(session, file) != SSH_OK {
        throw DeviceError(.config, "cannot use the ssh config file '\(file)': \(lastError(session))")
      }
      let home = homeSSHDirectory()
      lookup = SSHConfigLookup(
        host: options.host, file: file, sshDirectory: options.sshDirectory ?? home, home: String(home.dropLast("/.ssh".count)))
      set(SSH_OPTIONS_PROCESS_CONFIG, number: false)  // no second, implicit read at connect time
    }
    if let port = options.port {
      guard (1...65535).contains(port) else { throw DeviceError(.config, "port \(port) is not 1–65535") }
      set(SSH_OPTIONS_PORT, number: UInt32(port))
    }
    if let user = options.user { try set(SSH_OPTIONS_USER, user) }
    if let kh = options.knownHostsFile { try set(SSH_OPTIONS_KNOWNHOSTS, kh) }
    if let agent = options.agentSocket { try set(SSH_OPTIONS_IDENTITY_AGENT, agent) }
    try set(SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null")
    set(SSH_OPTIONS_NODELAY, number: Int32(1))
    // (SSH_OPTIONS_STRICTHOSTKEYCHECK stays on: off, libssh 0.10 reports every key as known.)
    return lookup
  }

  /// A string option as libssh holds it now (after the config), nil when unset.
  private func stringOption(_ option: ssh_options_e) -> String? {
    var p: UnsafeMutablePointer<CChar>? = nil
    guard ssh_options_get(session, option, &p) == SSH_OK, let p else { return nil }
    defer { ssh_string_free_char(p) }
    let value = String(cString: p)
    return value.isEmpty ? nil : value
  }

  private func homeSSHDirectory() -> String {
    if let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir { return String(cString: dir) + "/.ssh" }
    return "~/.ssh"
  }

  static func fingerprint(of key: OpaquePointer?) -> String {
    guard let key else { return "?" }
    var hash: UnsafeMutablePointer<UInt8>? = nil
    var length = 0
    guard ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) == SSH_OK, let hash else { return "?" }
    defer {
      var h: UnsafeMutablePointer<UInt8>? = hash
      ssh_clean_pubkey_hash(&h)
    }
    guard let fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length) else { return "?" }
    defer { ssh_string_free_char(fp) }
    return String(cString: fp)
  }

  static func keyType(_ key: OpaquePointer?) -> String {
    guard let key, let name = ssh_key_type_to_char(ssh_key_type(key)) else { return "key" }
    return String(cString: name)
  }

  private func knownHostsPath() -> String {
    stringOption(SSH_OPTIONS_KNOWNHOSTS) ?? options.knownHostsFile ?? "~/.ssh/known_hosts"
  }

  private func verifyHostKey(_ where_: String) throws(DeviceError) {
    var key: OpaquePointer? = nil
    guard ssh_get_server_publickey(session, &key) == SSH_OK else {
      throw DeviceError(.hostKeyError, "\(where_): the server sent no host key: \(lastError(session))")
    }
    defer { ssh_key_free(key) }
    fingerprint = Self.fingerprint(of: key)
    let type = Self.keyType(key)
    let file = knownHostsPath()
    let state = ssh_session_is_known_server(session)
    switch state {
    case SSH_KNOWN_HOSTS_OK:
      return
    case SSH_KNOWN_HOSTS_CHANGED, SSH_KNOWN_HOSTS_OTHER:
      let recordedKeys = recordedFingerprints(file, where_: where_)
      let recorded = recordedKeys.isEmpty ? "another key" : recordedKeys.joined(separator: " and ")
      throw DeviceError(
        .hostKeyChanged,
        "HOST KEY CHANGED for \(where_): it presented \(type) \(fingerprint), but \(file) records \(recorded). "
          + "This can be a man-in-the-middle attack; refusing to connect. If the device's key really changed, "
          + "remove its line from \(file) and check the new fingerprint with the device's owner.")
    case SSH_KNOWN_HOSTS_UNKNOWN, SSH_KNOWN_HOSTS_NOT_FOUND:
      guard options.hostKeyPolicy == .acceptNew else {
        throw DeviceError(
          .hostKeyUnknown,
          "unknown host \(where_) (\(type) \(fingerprint)) is not in \(file); refusing to connect. "
            + "Check the fingerprint, then run again with --accept-new-host-key to record it.")
      }
      if ssh_session_update_known_hosts(session) != SSH_OK {
        throw DeviceError(.hostKeyError, "cannot record the host key of \(where_) in \(file): \(lastError(session))")
      }
    default:
      throw DeviceError(.hostKeyError, "cannot check the host key of \(where_) against \(file): \(lastError(session))")
    }
  }

  /// `type SHA256:…` of every key known_hosts records for this host and port (hashed entries
  /// included).
  private func recordedFingerprints(_ file: String, where_: String) -> [String] {
    var port: UInt32 = 22
    ssh_options_get_port(session, &port)
    guard let name = stringOption(SSH_OPTIONS_HOST) else { return [] }
    let pattern = port == 22 ? name : "[\(name)]:\(port)"
    guard let f = fopen(file, "r") else { return [] }
    defer { fclose(f) }
    var out: [String] = []
    var line: UnsafeMutablePointer<CChar>? = nil
    var cap = 0
    defer { free(line) }
    while case let n = getline(&line, &cap, f), n > 0, let l = line {
      if l[n - 1] == 0x0A { l[n - 1] = 0 }
      var entry: UnsafeMutablePointer<ssh_knownhosts_entry>? = nil
      if ssh_known_hosts_parse_line(pattern, l, &entry) == SSH_OK, let e = entry {
        out.append("\(Self.keyType(e.pointee.publickey)) \(Self.fingerprint(of: e.pointee.publickey))")
        ssh_knownhosts_entry_free(e)
      }
    }
    return out
  }

  private func authenticate(_ where_: String) throws(DeviceError) {
    let success = Int32(SSH_AUTH_SUCCESS.rawValue)
    // Ask for the methods first (and get `none` out of the way).
    if ssh_userauth_none(session, nil) == success { return }
    let methods = UInt32(bitPattern: ssh_userauth_list(session, nil))
    var tried: [String] = []
    if methods & UInt32(SSH_AUTH_METHOD_PUBLICKEY) != 0 {
      if options.identityFiles.isEmpty {
        tried.append("agent and default keys")
        if ssh_userauth_publickey_auto(session, nil, options.passphrase) == success { return }
      } else {
        for path in options.identityFiles {
          var key: OpaquePointer? = nil
          let rc = ssh_pki_import_privkey_file(path, options.passphrase, nil, nil, &key)
          if rc == SSH_EOF { throw DeviceError(.config, "cannot read the private key '\(path)': missing or unreadable") }
          if rc != SSH_OK {
            throw DeviceError(
              .config, "cannot load the private key '\(path)': not a private key, or it needs a passphrase that was not given")
          }
          tried.append(path)
          let r = ssh_userauth_publickey(session, nil, key)
          ssh_key_free(key)
          if r == success { return }
        }
      }
    }
    if let password = options.password, methods & UInt32(SSH_AUTH_METHOD_PASSWORD) != 0 {
      tried.append("password")
      if ssh_userauth_password(session, nil, password) == success { return }
    }
    var allowed: [String] = []
    if methods & UInt32(SSH_AUTH_METHOD_PUBLICKEY) != 0 { allowed.append("publickey") }
    if methods & UInt32(SSH_AUTH_METHOD_PASSWORD) != 0 { allowed.append("password") }
    if methods & UInt32(SSH_AUTH_METHOD_INTERACTIVE) != 0 { allowed.append("keyboard-interactive") }
    let who = stringOption(SSH_OPTIONS_USER).map { $0 + "@" } ?? ""
    throw DeviceError(
      .authDenied,
      "authentication refused for \(who)\(where_) (tried: \(tried.isEmpty ? "nothing usable" : tried.joined(separator: ", ")); "
        + "the server allows: \(allowed.isEmpty ? "none" : allowed.joined(separator: ", ")))")
  }

  /// Runs one read-only command on a channel of its own and collects its output.
  ///
  /// - Parameters:
  ///   - command: The command (only allow-listed commands can be built).
  ///   - timeout: Seconds it may take (default ``SSHOptions/commandTimeout``).
  /// - Throws: `timeout`, `io` (connection lost), `channel`.
  public func exec(_ command: ReadOnlyCommand, timeout: Double? = nil) throws(DeviceError) -> ExecResult {
    var out: [UInt8] = []
    var err: [UInt8] = []
    let channel = try SSHChannel(owner: self)
    channel.sink.onStdout = { out.append(contentsOf: $0) }
    channel.sink.onStderr = { err.append(contentsOf: $0) }
    defer {
      channel.sink.onStdout = { _ in }
      channel.sink.onStderr = { _ in }
    }
    guard ssh_channel_request_exec(channel.raw, command.text) == SSH_OK else {
      throw DeviceError(.channel, "the device refused to run '\(command)': \(lastError(session))")
    }
    let deadline = commandDeadline(timeout)
    try channel.wait(
      until: { channel.sink.closed || (channel.sink.eof && channel.sink.exitStatus != nil) }, deadline: deadline,
      what: "command '\(command)'")
    if channel.sink.eof && channel.sink.exitStatus == nil && !channel.sink.closed {
      // The status usually follows EOF at once.
      try? channel.wait(
        until: { channel.sink.closed || channel.sink.exitStatus != nil }, deadline: min(deadline, nowMs() + 2000), what: "exit status")
    }
    return ExecResult(stdout: out, stderr: err, exitStatus: channel.sink.exitStatus, exitSignal: channel.sink.exitSignal)
  }

  /// Opens the `netconf` subsystem on a channel of its own.
  func openSubsystem(_ name: String, onData: @escaping (UnsafeRawBufferPointer) -> Void) throws(DeviceError) -> SSHChannel {
    let channel = try SSHChannel(owner: self)
    channel.sink.onStdout = onData
    guard ssh_channel_request_subsystem(channel.raw, name) == SSH_OK else {
      throw DeviceError(.channel, "the device refused the '\(name)' subsystem: \(lastError(session))")
    }
    return channel
  }

  /// Sends a keepalive (SSH_MSG_IGNORE).
  func keepalive() { _ = ssh_send_ignore(session, "") }
}

/// What a channel's callbacks have seen.
final class ChannelSink {
  var onStdout: (UnsafeRawBufferPointer) -> Void = { _ in }
  var onStderr: (UnsafeRawBufferPointer) -> Void = { _ in }
  var eof = false
  var closed = false
  var exitStatus: Int32? = nil
  var exitSignal: String? = nil
}

/// One channel with libssh callbacks: data is delivered while packets are processed, so nothing
/// waits in libssh's buffers and the only blocking point is `ssh_event_dopoll`.
final class SSHChannel {
  let owner: SSHSession  // a channel must not outlive its session
  let raw: OpaquePointer
  let sink = ChannelSink()
  private let callbacks: UnsafeMutablePointer<ssh_channel_callbacks_struct>

  init(owner: SSHSession) throws(DeviceError) {
    self.owner = owner
    let session = owner.session
    guard let ch = ssh_channel_new(session) else { throw DeviceError(.channel, "cannot create a channel: \(lastError(session))") }
    raw = ch
    callbacks = .allocate(capacity: 1)
    callbacks.initialize(to: ssh_channel_callbacks_struct())
    callbacks.pointee.size = MemoryLayout<ssh_channel_callbacks_struct>.size
    callbacks.pointee.userdata = Unmanaged.passUnretained(sink).toOpaque()
    callbacks.pointee.channel_data_function = { _, _, data, len, isStderr, ud in
      let sink = Unmanaged<ChannelSink>.fromOpaque(ud!).takeUnretainedValue()
      let buf = UnsafeRawBufferPointer(start: data, count: Int(len))
      if isStderr != 0 { sink.onStderr(buf) } else { sink.onStdout(buf) }
      return Int32(bitPattern: len)
    }
    callbacks.pointee.channel_eof_function = { _, _, ud in Unmanaged<ChannelSink>.fromOpaque(ud!).takeUnretainedValue().eof = true }
    callbacks.pointee.channel_close_function = { _, _, ud in Unmanaged<ChannelSink>.fromOpaque(ud!).takeUnretainedValue().closed = true }
    callbacks.pointee.channel_exit_status_function = { _, _, status, ud in
      Unmanaged<ChannelSink>.fromOpaque(ud!).takeUnretainedValue().exitStatus = Int32(status)
    }
    callbacks.pointee.channel_exit_signal_function = { _, _, signal, _, _, _, ud in
      Unmanaged<ChannelSink>.fromOpaque(ud!).takeUnretainedValue().exitSignal = signal.map { String(cString: $0) } ?? "?"
    }
    // (deinit frees what was set up if a step below throws.)
    guard ssh_set_channel_callbacks(ch, callbacks) == SSH_OK else { throw DeviceError(.channel, "cannot set channel callbacks") }
    guard ssh_channel_open_session(ch) == SSH_OK else {
      throw DeviceError(.channel, "cannot open a session channel: \(lastError(session))")
    }
  }

  deinit {
    sink.onStdout = { _ in }
    sink.onStderr = { _ in }
    if ssh_channel_is_open(raw) != 0 {
      ssh_channel_send_eof(raw)
      ssh_channel_close(raw)
    }
    ssh_remove_channel_callbacks(raw, callbacks)
    ssh_channel_free(raw)
    callbacks.deinitialize(count: 1)
    callbacks.deallocate()
  }

  /// Writes all of `bytes`.
  func write(_ bytes: [UInt8]) throws(DeviceError) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { ssh_channel_write(raw, $0.baseAddress, UInt32($0.count)) }
      if n < 0 { throw DeviceError(.io, "cannot write to the device: \(lastError(owner.session))") }
      offset += Int(n)
    }
  }

  /// Drives libssh until `done()` or the deadline, sending keepalives on long quiet waits.
  func wait(until done: () -> Bool, deadline: Int64?, what: String) throws(DeviceError) {
    if done() { return }
    let session = owner.session
    guard let event = ssh_event_new() else { throw DeviceError(.io, "ssh_event_new failed") }
    defer { ssh_event_free(event) }
    ssh_event_add_session(event, session)
    defer { ssh_event_remove_session(event, session) }
    var lastKeepalive = nowMs()
    let keepaliveMs = Int64(owner.options.keepaliveInterval * 1000)
    while !done() {
      var slice: Int32 = 1000
      if let deadline {
        let left = deadline - nowMs()
        if left <= 0 { throw DeviceError(.timeout, "\(what) did not finish within its time limit") }
        slice = Int32(min(left, 1000))
      }
      let rc = ssh_event_dopoll(event, slice)
      if done() { return }
      if rc == SSH_ERROR || ssh_is_connected(session) == 0 {
        throw DeviceError(.io, "connection lost during \(what): \(lastError(session))")
      }
      if keepaliveMs > 0 && nowMs() - lastKeepalive >= keepaliveMs {
        owner.keepalive()
        lastKeepalive = nowMs()
      }
    }
  }
}

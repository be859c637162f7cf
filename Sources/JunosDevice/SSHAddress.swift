internal import Glibc

/// One address of a host, as the resolver gave it, with the port.
struct SocketAddress: Sendable {
  var storage = sockaddr_storage()
  var length: socklen_t = 0
  /// `AF_INET` or `AF_INET6`.
  var family: Int32 = 0
  /// The address as digits (`192.0.2.1`, `2001:db8::1`).
  var text = ""

  init(_ ai: addrinfo) {
    length = ai.ai_addrlen
    family = ai.ai_family
    withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: ai.ai_addr, count: Int(ai.ai_addrlen))) }
    var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    if getnameinfo(ai.ai_addr, ai.ai_addrlen, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
      text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// The address for a message: IPv6 in brackets.
  var shown: String { family == AF_INET6 ? "[\(text)]" : text }

  /// The addresses of `host` (a name or digits) for a TCP connection to `port`, in the
  /// resolver's order (RFC 6724: usually IPv6 first), limited to `family`.
  ///
  /// - Throws: ``DeviceError/Kind/connect`` when the name has no such address.
  static func resolve(_ host: String, port: Int, family: SSHOptions.AddressFamily, where_: String) throws(DeviceError)
    -> [SocketAddress]
  {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV  // (no AI_ADDRCONFIG: glibc ignores loopback for it, so ::1 would vanish)
    switch family {
    case .any: hints.ai_family = AF_UNSPEC
    case .inet: hints.ai_family = AF_INET
    case .inet6: hints.ai_family = AF_INET6
    }
    var list: UnsafeMutablePointer<addrinfo>? = nil
    let rc = getaddrinfo(host, String(port), &hints, &list)
    defer { if let list { freeaddrinfo(list) } }
    guard rc == 0 else {
      let why = rc == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(rc))
      switch family {
      case .any: throw DeviceError(.connect, "\(where_): cannot resolve '\(host)': \(why)")
      case .inet: throw DeviceError(.connect, "\(where_): '\(host)' has no IPv4 address (AddressFamily inet): \(why)")
      case .inet6: throw DeviceError(.connect, "\(where_): '\(host)' has no IPv6 address (AddressFamily inet6): \(why)")
      }
    }
    var out: [SocketAddress] = []
    var p = list
    while let ai = p {
      if ai.pointee.ai_family == AF_INET || ai.pointee.ai_family == AF_INET6 { out.append(SocketAddress(ai.pointee)) }
      p = ai.pointee.ai_next
    }
    guard !out.isEmpty else { throw DeviceError(.connect, "\(where_): '\(host)' has no IP address") }
    return out
  }

  /// Why one address could not be reached.
  struct Failure: Error {
    /// The OS's words (`Connection refused`), or the time limit.
    var reason: String
    /// Whether the time limit ran out.
    var timedOut: Bool
  }

  /// A TCP connection to this address within `timeoutMs`, as a blocking socket (as libssh leaves
  /// the sockets it connects itself), with TCP_NODELAY.
  func connect(timeoutMs: Int) -> Result<Int32, Failure> {
    let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)), timedOut: false)) }
    var s = storage
    let rc = withUnsafePointer(to: &s) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) } }
    if rc != 0 {
      guard errno == EINPROGRESS else {
        let why = String(cString: strerror(errno))
        close(fd)
        return .failure(Failure(reason: why, timedOut: false))
      }
      let end = nowMs() + Int64(timeoutMs)
      var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      while true {
        let left = Int32(clamping: max(0, end - nowMs()))
        let n = poll(&pfd, 1, left)
        if n > 0 { break }
        if n < 0 && errno == EINTR { continue }
        close(fd)
        if n == 0 { return .failure(Failure(reason: "no answer within \(SSHSession.seconds(Double(timeoutMs) / 1000))", timedOut: true)) }
        return .failure(Failure(reason: String(cString: strerror(errno)), timedOut: false))
      }
      var err: Int32 = 0
      var len = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
      if err != 0 {
        close(fd)
        return .failure(Failure(reason: String(cString: strerror(err)), timedOut: err == ETIMEDOUT))
      }
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return .success(fd)
  }

  /// Connects to the first of `addresses` that accepts a TCP connection, each within
  /// `timeoutMs`; only connection failures (refused, unreachable, no answer) move on to the
  /// next one. `host` is the name the user gave, for messages.
  ///
  /// - Throws: ``DeviceError/Kind/connect``, or ``DeviceError/Kind/timeout`` when every address
  ///   was silent, naming each address tried and what happened.
  static func connectFirst(_ addresses: [SocketAddress], host: String, timeoutMs: Int, where_: String) throws(DeviceError)
    -> (fd: Int32, address: SocketAddress)
  {
    var failures: [(SocketAddress, Failure)] = []
    for a in addresses {
      switch a.connect(timeoutMs: timeoutMs) {
      case .success(let fd): return (fd, a)
      case .failure(let f): failures.append((a, f))
      }
    }
    let kind: DeviceError.Kind = failures.allSatisfy { $0.1.timedOut } ? .timeout : .connect
    if failures.count == 1, let (a, f) = failures.first {
      throw DeviceError(kind, a.text == host ? "\(where_): \(f.reason)" : "\(where_): cannot connect to \(a.shown): \(f.reason)")
    }
    let each = failures.map { "\($0.0.shown) \($0.1.reason)" }.joined(separator: ", ")
    throw DeviceError(kind, "\(where_): cannot connect to any of its \(failures.count) addresses: \(each)")
  }
}

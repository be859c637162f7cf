import Foundation
import Testing

/// The test sshd (Harness/start-sshd.sh): a real OpenSSH server on 127.0.0.1 started once per
/// test process, whose sessions run the fake Junos CLI and NETCONF responder of Harness/. It is
/// stopped, with everything below it, when the process exits — and, should the process die
/// without running its exit handlers, by the harness's watcher.
struct SSHServer: Sendable {
  let stateDir: String
  /// The listening sshd.
  let pid: Int32
  let host: String
  let port: Int
  let user: String
  let key: String
  let otherKey: String
  let knownHosts: String
  let knownHostsWrong: String

  static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Harness").path

  /// Why the server could not start (nil when it did).
  nonisolated(unsafe) static var failure: String?

  /// The shared server, or nil (with ``failure`` saying why) when it cannot run here.
  static let shared: SSHServer? = start()
  /// A server whose commit list changes once, after the first read (a commit landing during a
  /// capture).
  static let drifting: SSHServer? = start(.drift)
  /// A server whose commit list changes at every read.
  static let alwaysDrifting: SSHServer? = start(.driftAlways)

  /// The shared server, or the reason it did not start as a test failure.
  static func required() throws -> SSHServer {
    try #require(shared, "the test sshd did not start: \(failure ?? "")")
  }

  /// Whether the SSH integration tests can run. Under CI (`CI` set) they must: a missing sshd
  /// is a failure there, not a skip.
  static var available: Bool { shared != nil }

  static func start(_ variant: DeviceFixtures.Variant = .normal) -> SSHServer? {
    do {
      let server = try launch(variant)
      stopAtExit(server)
      return server
    } catch {
      failure = error.description
      return nil
    }
  }

  /// Starts a server listening on `addresses` (one port for all), its fixtures beside its state
  /// folder. A watcher stops it when the process `owner` is gone, however that ended.
  static func launch(_ variant: DeviceFixtures.Variant = .normal, listen addresses: [String] = [], owner: Int32 = getpid())
    throws(HarnessFailure) -> SSHServer
  {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-sshd-\(getpid())-\(UUID().uuidString.prefix(8))")
    let fixtures = base.path + ".fixtures"
    do {
      try DeviceFixtures.write(to: fixtures, variant: variant)
    } catch {
      throw HarnessFailure("cannot write the fake device's fixtures: \(error)")
    }
    let env = ProcessInfo.processInfo.environment.merging(["OWNER_PID": String(owner)]) { $1 }
    let start: Helper
    do {
      start = try Helper.spawn("/bin/bash", [harness + "/start-sshd.sh", base.path, fixtures] + addresses, environment: env, stderr: true)
    } catch {
      throw HarnessFailure("cannot run start-sshd.sh: \(error)")
    }
    let message = start.readAll()
    guard start.wait() == 0, let env = try? String(contentsOfFile: base.path + "/env", encoding: .utf8) else {
      try? FileManager.default.removeItem(atPath: fixtures)
      throw HarnessFailure("start-sshd.sh failed: " + message)
    }
    var v: [String: String] = [:]
    for line in env.split(separator: "\n") {
      let kv = line.split(separator: "=", maxSplits: 1)
      if kv.count == 2 { v[String(kv[0])] = String(kv[1]) }
    }
    return SSHServer(
      stateDir: base.path, pid: Int32(v["SSHD_PID"] ?? "") ?? 0, host: v["SSH_TEST_HOST"] ?? "127.0.0.1",
      port: Int(v["SSH_TEST_PORT"] ?? "") ?? 0, user: v["SSH_TEST_USER"] ?? "root", key: v["SSH_TEST_KEY"] ?? "",
      otherKey: v["SSH_TEST_OTHER_KEY"] ?? "", knownHosts: v["SSH_TEST_KNOWN_HOSTS"] ?? "",
      knownHostsWrong: v["SSH_TEST_KNOWN_HOSTS_WRONG"] ?? "")
  }

  /// Stops the server and everything below it, and removes its folders.
  func stop() {
    _ = try? Helper.spawn("/bin/bash", [SSHServer.harness + "/stop-sshd.sh", stateDir]).wait()
  }

  /// What sshd logged so far.
  func log() -> String { (try? String(contentsOfFile: stateDir + "/sshd.log", encoding: .utf8)) ?? "" }

  /// Commands the fake device received so far.
  func commandsLog() -> [String] {
    ((try? String(contentsOfFile: stateDir + "/commands.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }
}

nonisolated(unsafe) private var serversToStop: [SSHServer] = []

private func stopAtExit(_ server: SSHServer) {
  serversToStop.append(server)
  if serversToStop.count == 1 { atexit { for s in serversToStop { s.stop() } } }
}

/// Whether SSH tests must run (CI) even if no server can start.
let sshRequired = ProcessInfo.processInfo.environment["CI"] != nil

/// Why a test helper could not start.
struct HarnessFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A server of one test's own, stopped when the test lets go of it — pass, fail or throw (keep it
/// alive to the end with `defer { own.stop() }`).
final class OwnedSSHServer {
  let server: SSHServer
  private var stopped = false

  init(listen addresses: [String] = [], owner: Int32 = getpid()) throws {
    server = try SSHServer.launch(listen: addresses, owner: owner)
  }

  func stop() {
    guard !stopped else { return }
    stopped = true
    server.stop()
  }

  deinit { stop() }
}

/// A process the harness starts. Not Foundation's `Process`: a child started from a test's thread
/// inherits that thread's blocked signals (SIGTERM among them), so `terminate()` never reached
/// it, and an ssh-agent outlived its test. Here the child gets an empty signal mask, default
/// signal handlers, `/dev/null` for what it is not given, and none of our other descriptors.
struct Helper {
  let pid: pid_t
  /// Our end of the child's standard output (or error), when asked for.
  let output: Int32?

  /// Starts `executable`; with `stdout` (or `stderr`), that stream comes back through ``output``.
  static func spawn(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdout: Bool = false, stderr: Bool = false
  ) throws(HarnessFailure) -> Helper {
    var fds: [Int32] = [-1, -1]
    if stdout || stderr { guard pipe2(&fds, O_CLOEXEC) == 0 else { throw HarnessFailure("pipe: \(String(cString: strerror(errno)))") } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    for (target, wanted) in [(Int32(1), stdout), (2, stderr)] {
      if wanted {
        posix_spawn_file_actions_adddup2(&actions, fds[1], target)
      } else {
        posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
      }
    }
    _ = closeFrom(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    if fds[1] >= 0 { close(fds[1]) }
    guard rc == 0 else {
      if fds[0] >= 0 { close(fds[0]) }
      throw HarnessFailure("cannot start \(executable): \(String(cString: strerror(rc)))")
    }
    return Helper(pid: pid, output: fds[0] >= 0 ? fds[0] : nil)
  }

  /// Reads a line of ``output`` (without its newline); nil at its end.
  func readLine() -> String? {
    guard let output else { return nil }
    var bytes: [UInt8] = []
    var c: UInt8 = 0
    while read(output, &c, 1) == 1 {
      if c == 0x0A { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(c)
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  /// Reads ``output`` to its end and closes it.
  func readAll() -> String {
    guard let output else { return "" }
    defer { close(output) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let n = read(output, &buffer, buffer.count), n > 0 { bytes += buffer[..<n] }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Waits for the process to end: its exit status (128 + N after signal N).
  @discardableResult
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// Ends the process: TERM, then KILL after two seconds; waits for it.
  func end() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<200 {
      if waitpid(pid, &status, WNOHANG) != 0 { return }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    wait()
  }
}

/// A helper process a test starts (ssh-agent…), run through Harness/owned.sh: ended when the test
/// lets go of it — pass, fail or throw (keep it alive to the end with `defer { helper.stop() }`) —
/// and, should the test process die, by owned.sh itself.
final class HelperProcess {
  private let helper: Helper
  private var stopped = false
  /// The helper's own pid (not owned.sh's).
  let pid: Int32

  init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, owner: Int32 = getpid()) throws {
    helper = try Helper.spawn(
      "/bin/bash", [SSHServer.harness + "/owned.sh", String(owner), executable] + arguments, environment: environment, stdout: true)
    guard let line = helper.readLine(), let pid = Int32(line) else {
      helper.end()
      throw HarnessFailure("owned.sh did not start \(executable)")
    }
    self.pid = pid
    if let output = helper.output { close(output) }
  }

  /// Ends the helper (TERM, then KILL) and waits for it.
  func stop() {
    guard !stopped else { return }
    stopped = true
    helper.end()
  }

  deinit { stop() }
}

/// glibc's `pipe2` and `posix_spawn_file_actions_addclosefrom_np` (GNU extensions the Glibc module
/// does not show).
private let pipe2 = unsafeBitCast(
  dlsym(nil, "pipe2"), to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
private let closeFrom = unsafeBitCast(
  dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"),
  to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

/// Whether a process exists and is not a zombie.
func isRunning(_ pid: Int32) -> Bool {
  guard pid > 0, kill(pid, 0) == 0 else { return false }
  let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
  guard let close = stat.lastIndex(of: ")") else { return true }
  return !stat[close...].dropFirst(2).hasPrefix("Z")
}

/// Why the machine cannot listen on IPv6 loopback, or nil when it can (`::1` can be bound).
let noIPv6Loopback: String? = {
  let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return "no IPv6 sockets: \(String(cString: strerror(errno)))" }
  defer { close(fd) }
  var addr = sockaddr_in6()
  addr.sin6_family = sa_family_t(AF_INET6)
  addr.sin6_addr = in6addr_loopback
  let rc = withUnsafePointer(to: &addr) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
  }
  return rc == 0 ? nil : "cannot bind ::1: \(String(cString: strerror(errno)))"
}()

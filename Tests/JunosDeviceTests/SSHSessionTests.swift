import Foundation
import JunosDevice
import Testing

/// Options for the test server, with the test client key and the right known_hosts.
func testOptions(_ s: SSHServer) -> SSHOptions {
  var o = SSHOptions(host: s.host)
  o.port = s.port
  o.user = s.user
  o.identityFiles = [s.key]
  o.knownHostsFile = s.knownHosts
  o.ignoreConfig = true
  o.sshDirectory = s.stateDir + "/empty-ssh-dir"
  o.connectTimeout = 5
  o.commandTimeout = 20
  return o
}

/// Against a real OpenSSH sshd on 127.0.0.1 (Harness/). Under CI the server must start.
@Suite(.enabled(if: SSHServer.available || sshRequired, "no sshd here: \(SSHServer.failure ?? "")"))
struct SSHSessionTests {
  let server: SSHServer
  init() throws { server = try SSHServer.required() }

  @Test func commandsOnOneSession() throws {
    let s = try SSHSession(testOptions(server))
    #expect(s.fingerprint.hasPrefix("SHA256:"))
    let list = try s.exec(.commitList)
    #expect(list.exitStatus == 0)
    #expect(String(decoding: list.stdout, as: UTF8.self) == DeviceFixtures.chain.listing)
    for n in [0, 3, 9] {
      let r = try s.exec(try #require(ReadOnlyCommand.rollback(n)))
      #expect(String(decoding: r.stdout, as: UTF8.self) == DeviceFixtures.chain.rollbacks[n])
    }
    let xml = try s.exec(.commitListXML)
    #expect(String(decoding: xml.stdout, as: UTF8.self).contains("<commit-history>"))
  }

  @Test func unknownHostKeyIsRefusedWithItsFingerprintThenAccepted() throws {
    var o = testOptions(server)
    let dir = NSTemporaryDirectory() + "junoscope-kh-\(UUID().uuidString)"
    o.knownHostsFile = dir + "/sub/known_hosts"
    do {
      _ = try SSHSession(o)
      Issue.record("an unknown host was accepted")
    } catch {
      #expect(error.kind == .hostKeyUnknown)
      #expect(error.message.contains("SHA256:") && error.message.contains("--accept-new-host-key"))
    }
    o.hostKeyPolicy = .acceptNew
    _ = try SSHSession(o)
    let recorded = try String(contentsOfFile: dir + "/sub/known_hosts", encoding: .utf8)
    #expect(recorded.hasPrefix("[127.0.0.1]:\(server.port) ssh-ed25519 "))
    o.hostKeyPolicy = .strict
    _ = try SSHSession(o)  // now known
  }

  @Test func changedHostKeyIsAlwaysRefusedWithBothFingerprints() {
    for policy in [SSHOptions.HostKeyPolicy.strict, .acceptNew] {
      var o = testOptions(server)
      o.knownHostsFile = server.knownHostsWrong
      o.hostKeyPolicy = policy
      do {
        _ = try SSHSession(o)
        Issue.record("a changed host key was accepted")
      } catch {
        #expect(error.kind == .hostKeyChanged)
        #expect(error.message.components(separatedBy: "SHA256:").count == 3, "\(error.message)")
      }
    }
  }

  /// Keys from an ssh-agent (no identity file given, an empty ~/.ssh).
  @Test func agentAuthentication() throws {
    let socket = tempPath("agent") + ".sock"
    let agent = try HelperProcess("/usr/bin/ssh-agent", ["-D", "-a", socket])
    defer {
      agent.stop()
      try? FileManager.default.removeItem(atPath: socket)
    }
    for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
    let add = try Helper.spawn("/usr/bin/ssh-add", ["-q", server.key], environment: ["SSH_AUTH_SOCK": socket])
    #expect(add.wait() == 0)
    var o = testOptions(server)
    o.identityFiles = []
    o.agentSocket = socket
    let s = try SSHSession(o)
    #expect(try s.exec(.version).exitStatus == 0)
    // The same without the agent's key: refused.
    o.agentSocket = socket + ".none"
    #expect(throws: DeviceError.self) { _ = try SSHSession(o) }
  }

  @Test func refusedAuthentication() {
    var o = testOptions(server)
    o.identityFiles = [server.otherKey]
    do {
      _ = try SSHSession(o)
      Issue.record("an unauthorised key was accepted")
    } catch {
      #expect(error.kind == .authDenied)
      #expect(error.message.contains("the server allows: publickey"))
    }
    o.identityFiles = ["/nonexistent/key"]
    #expect(throws: DeviceError.self) { _ = try SSHSession(o) }
  }

  @Test func commandTimeoutAndDeviceErrors() throws {
    let s = try SSHSession(testOptions(server))
    let start = Date()
    do {
      _ = try s.exec(try #require(ReadOnlyCommand.rollback(40)), timeout: 1.5)
      Issue.record("a silent command did not time out")
    } catch let e as DeviceError {
      #expect(e.kind == .timeout)
    }
    #expect(Date().timeIntervalSince(start) < 5)
    // Junos prints its errors on standard output: that is a failure too, with the device's words.
    do {
      _ = try SSHDevice(s).rollback(41)
      Issue.record("an 'error:' answer was taken for a configuration")
    } catch {
      #expect(error.kind == .device)
      #expect(error.message.contains("error: could not open configuration database"))
    }
    do {
      _ = try SSHDevice(s).rollback(42)
      Issue.record("a non-zero exit was taken for a configuration")
    } catch {
      #expect(error.message.contains("exited with status 7: error: permission denied"))
    }
    let exit7 = try s.exec(try #require(ReadOnlyCommand.rollback(42)))
    #expect(exit7.exitStatus == 7)
    #expect(String(decoding: exit7.stderr, as: UTF8.self) == "error: permission denied\n")
    // The session still works after all that.
    #expect(try s.exec(.version).exitStatus == 0)
  }

  /// An ssh config file: the alias resolves to the server, its port, user, key and known_hosts.
  @Test func sshConfigFile() throws {
    let file = tempPath("ssh-config")
    try """
    Host lab-r77
      HostName 127.0.0.1
      Port \(server.port)
      User \(server.user)
      IdentityFile \(server.key)
      UserKnownHostsFile \(server.knownHosts)
      ConnectTimeout 5
    """.write(toFile: file, atomically: true, encoding: .utf8)
    var o = SSHOptions(host: "lab-r77")
    o.configFile = file
    o.sshDirectory = server.stateDir + "/empty-ssh-dir"
    let s = try SSHSession(o)
    #expect(try s.exec(.version).exitStatus == 0)
    o.configFile = "/nonexistent/config"
    #expect(throws: DeviceError.self) { _ = try SSHSession(o) }
  }

  /// The session's overall deadline cuts a command short.
  @Test func overallDeadline() throws {
    var o = testOptions(server)
    o.deadline = 1
    let s = try SSHSession(o)
    do {
      _ = try s.exec(try #require(ReadOnlyCommand.rollback(40)))
      Issue.record("the deadline did not stop the command")
    } catch let e as DeviceError {
      #expect(e.kind == .timeout)
    }
  }

  @Test func fiftyMebibytes() throws {
    let s = try SSHSession(testOptions(server))
    let r = try s.exec(try #require(ReadOnlyCommand.rollback(43)))
    #expect(r.stdout.count == 52_428_800)
    #expect(r.exitStatus == 0)
  }

  @Test func serverKilledMidOutput() throws {
    let s = try SSHSession(testOptions(server))
    do {
      _ = try s.exec(try #require(ReadOnlyCommand.rollback(44)))
      Issue.record("a connection killed mid-output went unnoticed")
    } catch let e as DeviceError {
      #expect(e.kind == .io || e.kind == .channel, "\(e)")
    }
  }

  /// Only allow-listed commands exist; whatever else is asked never reaches the device.
  @Test func onlyReadOnlyCommandsReachTheDevice() throws {
    for bad in [
      "request system reboot", "show system commit; request system halt", "configure", "show system commit | save /tmp/x",
      "show configuration | display set | load merge terminal", "show system rollback 50", "file delete /config/juniper.conf.gz",
      "show system commit\nrequest system reboot", "show `reboot`", "start shell",
    ] {
      #expect(ReadOnlyCommand(bad) == nil, "\(bad)")
    }
    #expect(ReadOnlyCommand("show system rollback 3 compare 4 | no-more")?.text == "show system rollback 3 compare 4 | no-more")
    let s = try SSHSession(testOptions(server))
    _ = try s.exec(.version)
    let device = SSHDevice(s)
    do {
      _ = try device.run(line: "request system reboot")
      Issue.record("a reboot was sent")
    } catch {
      #expect(error.kind == .notReadOnly)
    }
    #expect(try device.run(line: "show version | no-more").count > 0)
    #expect(!server.commandsLog().contains { $0.contains("reboot") })
    let rpcs = [
      #"^netconf: <get-commit-information/>$"#, #"^netconf: <get-software-information/>$"#, #"^netconf: <close-session/>$"#,
      #"^netconf: <get-configuration rollback="\d+" format="text"/>$"#,
      #"^netconf: <get-rollback-information><rollback>\d+</rollback>(<compare>\d+</compare>)?<format>text</format></get-rollback-information>$"#,
    ].map { try! Regex($0) }
    let log = server.commandsLog()
    #expect(!log.isEmpty)
    for line in log {
      let ok = ReadOnlyCommand(line) != nil || line.hasSuffix("fake-netconf.sh") || rpcs.contains { line.wholeMatch(of: $0) != nil }
      #expect(ok, "the device received '\(line)'")
    }
  }
}

/// Failures that need no server.
@Suite struct SSHOfflineTests {
  @Test func connectionRefused() throws {
    let port = try closedPort()
    var o = SSHOptions(host: "127.0.0.1")
    o.port = port
    o.ignoreConfig = true
    do {
      _ = try SSHSession(o)
      Issue.record("connected to a closed port")
    } catch {
      #expect(error.kind == .connect)
      #expect(error.message.contains("127.0.0.1:\(port)"))
    }
  }

  @Test func silentServerTimesOut() throws {
    // A listener that never accepts: the handshake completes in the kernel, then nothing.
    let (fd, port) = try loopbackSocket(listening: true)
    defer { close(fd) }
    var o = SSHOptions(host: "127.0.0.1")
    o.port = port
    o.ignoreConfig = true
    o.connectTimeout = 1
    let start = Date()
    do {
      _ = try SSHSession(o)
      Issue.record("a silent server did not time out")
    } catch {
      #expect(error.kind == .timeout, "\(error)")
    }
    #expect(Date().timeIntervalSince(start) < 4)
  }
}

/// A TCP socket bound to a free port of 127.0.0.1, listening (but never accepting) if asked.
func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: Int) {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  try #require(fd >= 0)
  var addr = sockaddr_in()
  addr.sin_family = sa_family_t(AF_INET)
  addr.sin_addr.s_addr = inet_addr("127.0.0.1")
  var len = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
  if listening { listen(fd, 4) }
  _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
  return (fd, Int(UInt16(bigEndian: addr.sin_port)))
}

/// A TCP port with no listener on 127.0.0.1 (bound, noted, closed).
func closedPort() throws -> Int {
  let (fd, port) = try loopbackSocket(listening: false)
  close(fd)
  return port
}

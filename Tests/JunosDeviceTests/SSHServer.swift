import Foundation
import Testing

/// The test sshd (Harness/start-sshd.sh): a real OpenSSH server on 127.0.0.1 started once per
/// test process, whose sessions run the fake Junos CLI and NETCONF responder of Harness/. It is
/// stopped, with everything below it, when the process exits.
struct SSHServer: Sendable {
  let stateDir: String
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

  /// Whether the SSH integration tests can run. Under CI (`CI` set) they must: a missing sshd
  /// is a failure there, not a skip.
  static var available: Bool { shared != nil }

  static func start(_ variant: DeviceFixtures.Variant = .normal) -> SSHServer? {
    let fm = FileManager.default
    let base = fm.temporaryDirectory.appendingPathComponent("junoscope-sshd-\(getpid())-\(UUID().uuidString.prefix(8))")
    let fixtures = base.path + ".fixtures"
    do {
      try DeviceFixtures.write(to: fixtures, variant: variant)
    } catch {
      failure = "cannot write the fake device's fixtures: \(error)"
      return nil
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    p.arguments = [harness + "/start-sshd.sh", base.path, fixtures]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    do { try p.run() } catch {
      failure = "cannot run start-sshd.sh: \(error)"
      return nil
    }
    p.waitUntilExit()
    guard p.terminationStatus == 0, let env = try? String(contentsOfFile: base.path + "/env", encoding: .utf8) else {
      failure = "start-sshd.sh failed: " + String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return nil
    }
    var v: [String: String] = [:]
    for line in env.split(separator: "\n") {
      let kv = line.split(separator: "=", maxSplits: 1)
      if kv.count == 2 { v[String(kv[0])] = String(kv[1]) }
    }
    let server = SSHServer(
      stateDir: base.path, host: v["SSH_TEST_HOST"] ?? "127.0.0.1", port: Int(v["SSH_TEST_PORT"] ?? "") ?? 0,
      user: v["SSH_TEST_USER"] ?? "root", key: v["SSH_TEST_KEY"] ?? "", otherKey: v["SSH_TEST_OTHER_KEY"] ?? "",
      knownHosts: v["SSH_TEST_KNOWN_HOSTS"] ?? "", knownHostsWrong: v["SSH_TEST_KNOWN_HOSTS_WRONG"] ?? "")
    stopAtExit(base.path)
    return server
  }

  /// Commands the fake device received so far.
  func commandsLog() -> [String] {
    ((try? String(contentsOfFile: stateDir + "/commands.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }
}

nonisolated(unsafe) private var stateDirsToStop: [String] = []

private func stopAtExit(_ dir: String) {
  stateDirsToStop.append(dir)
  if stateDirsToStop.count == 1 {
    atexit {
      for d in stateDirsToStop {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [SSHServer.harness + "/stop-sshd.sh", d]
        try? p.run()
        p.waitUntilExit()
        try? FileManager.default.removeItem(atPath: d + ".fixtures")
      }
    }
  }
}

/// Whether SSH tests must run (CI) even if no server can start.
let sshRequired = ProcessInfo.processInfo.environment["CI"] != nil

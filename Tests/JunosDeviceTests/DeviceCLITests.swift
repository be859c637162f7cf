import Foundation
import JunoscopeCLI
import Synchronization
import Testing

final class CapturedConsole: Sendable {
  let stdout = Mutex<[UInt8]>([])
  let stderr = Mutex<[UInt8]>([])
  var console: Console {
    Console(out: { b in self.stdout.withLock { $0 += b } }, err: { b in self.stderr.withLock { $0 += b } }, readStandardInput: { [] })
  }
}

func junoscope(_ args: [String]) -> (status: Int32, out: String, err: String) {
  let c = CapturedConsole()
  let status = Junoscope.run(args, console: c.console)
  return (status, c.stdout.withLock { String(decoding: $0, as: UTF8.self) }, c.stderr.withLock { String(decoding: $0, as: UTF8.self) })
}

/// `fetch`, `--bundle` and `--host` end to end against the test sshd.
@Suite(.enabled(if: SSHServer.available || sshRequired, "no sshd here: \(SSHServer.failure ?? "")"))
struct DeviceCLITests {
  let server: SSHServer

  init() throws {
    server = try #require(SSHServer.shared, "the test sshd did not start: \(SSHServer.failure ?? "")")
  }

  var connection: [String] {
    ["--port", "\(server.port)", "--user", server.user, "-i", server.key, "--known-hosts", server.knownHosts, "--no-ssh-config"]
  }

  @Test(arguments: [false, true])
  func fetchThenTheSameAnswersFromBundleAndHost(netconf: Bool) throws {
    let out = tempPath("fetch")
    let nc = netconf ? ["--netconf"] : []
    let f = junoscope(["fetch", "127.0.0.1", "--out", out] + connection + nc)
    #expect(f.status == 0, "\(f.err)")
    let bundle = out + "/127.0.0.1"
    #expect(FileManager.default.fileExists(atPath: bundle + "/manifest.json"))
    let chain = DeviceFixtures.chain
    // log, diff, blame: the bundle and the live device agree, and with the files themselves.
    let host = ["--host", "127.0.0.1"] + connection + nc
    let logB = junoscope(["log", "--bundle", bundle, "-f", "json"])
    let logH = junoscope(["log"] + host + ["-f", "json"])
    #expect(logB.status == 0 && logB.out == logH.out, "\(logB.err) \(logH.err)")
    #expect(logB.out.contains(#""user":"\#(chain.commits[0].user)""#))
    let diffB = junoscope(["diff", "5..2", "--bundle", bundle])
    let diffH = junoscope(["diff", "5..2"] + host)
    #expect(diffB.status == 0 && diffH.status == 0, "\(diffB.err) \(diffH.err)")
    #expect(diffB.out == diffH.out && !diffB.out.isEmpty)
    let dir = tempPath("plain")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for n in [2, 6] { try chain.rollbacks[n].write(toFile: "\(dir)/rollback-\(n).conf", atomically: true, encoding: .utf8) }
    #expect(junoscope(["diff", "5..2", "--rollbacks", dir]).out == diffB.out)
    let blameB = junoscope(["blame", "--bundle", bundle, "-f", "json"])
    let blameH = junoscope(["blame"] + host + ["-f", "json"])
    #expect(blameB.status == 0 && blameB.out == blameH.out, "\(blameB.err) \(blameH.err)")
    #expect(junoscope(["timeline", "--bundle", bundle]).status == 0)
    // A tampered bundle is refused.
    try Data("x".utf8).write(to: URL(fileURLWithPath: bundle + "/commits.xml"))
    #expect(junoscope(["log", "--bundle", bundle]).status == 2)
  }

  /// A bundle of the commit list only is read as it is (reading never writes into a bundle).
  @Test func bundleWithoutRollbacks() throws {
    let out = tempPath("no-rollbacks")
    #expect(junoscope(["fetch", "127.0.0.1", "--out", out, "--rollbacks", "none"] + connection).status == 0)
    let bundle = out + "/127.0.0.1"
    let log = junoscope(["log", "--bundle", bundle])
    #expect(log.status == 0, "\(log.err)")
    #expect(!FileManager.default.fileExists(atPath: bundle + "/rollbacks"))
    let diff = junoscope(["diff", "0", "--bundle", bundle])
    #expect(diff.status == 2)
  }

  @Test func fleetKeepsGoodHostsAndExitsThree() throws {
    let out = tempPath("fleet")
    // "localhost" reaches the same server (IPv4 only, whatever else it resolves to on this
    // machine), but its known_hosts entry is for 127.0.0.1: refused.
    let config = tempPath("fleet-ssh-config")
    try "Host localhost\n  AddressFamily inet\n".write(toFile: config, atomically: true, encoding: .utf8)
    let options = connection.filter { $0 != "--no-ssh-config" } + ["-F", config]
    let r = junoscope(["fetch", "127.0.0.1", "localhost", "--out", out, "--rollbacks", "0-2", "--jobs", "2"] + options)
    #expect(r.status == 3)
    #expect(r.err.contains("localhost: hostKeyUnknown"), "\(r.err)")
    #expect(r.err.contains("1 of 2 hosts captured; failed: localhost"))
    #expect(FileManager.default.fileExists(atPath: out + "/127.0.0.1/rollbacks/rollback-2.conf"))
    #expect(!FileManager.default.fileExists(atPath: out + "/localhost"))
  }

  /// `review --host` reads the live device as `review` reads its bundle; a host that cannot be
  /// reached is a failed device (exit 2), the others still reviewed.
  @Test func reviewOfAHostIsTheReviewOfItsBundle() throws {
    let out = tempPath("review-fetch")
    #expect(junoscope(["fetch", "127.0.0.1", "--out", out] + connection).status == 0)
    let window = ["review", "--since", "2024-01-01", "--until", "2024-02-01", "-f", "json"]
    let bundle = junoscope(window + [out + "/127.0.0.1"])
    let host = junoscope(window + ["--host", "127.0.0.1"] + connection)
    #expect(bundle.status == 0 && host.status == 0, "\(bundle.err) \(host.err)")
    func withoutSource(_ json: String) -> String {
      json.split(separator: "\n").filter { l in
        !(l.contains("\"kind\":") || l.contains("\"location\":") || l.hasPrefix("    \"bundle ") || l.hasPrefix("    \"host "))
      }.joined(separator: "\n")
    }
    #expect(withoutSource(bundle.out) == withoutSource(host.out))
    #expect(host.out.contains("\"status\": \"changed\"") && host.out.contains("\"kind\": \"host\""))
    #expect(host.out.contains("\"user\": \"\(DeviceFixtures.chain.commits[0].user)\""))
    let refused = junoscope(window + ["--host", "127.0.0.1", "--port", "1", "--no-ssh-config", out + "/127.0.0.1"])
    #expect(refused.status == 2)
    #expect(refused.out.contains("\"kind\": \"host\",\n      \"location\": \"127.0.0.1\",\n      \"status\": \"failed\""))
    #expect(refused.out.contains("\"kind\": \"bundle\""))
  }

  @Test func usageAndDeviceErrors() {
    #expect(junoscope(["fetch", "--out", "/tmp/x"]).status == 64)
    #expect(junoscope(["fetch", "h", "--out", "/tmp/x", "--rollbacks", "7-99"]).status == 64)
    #expect(junoscope(["log", "--host", "127.0.0.1", "--commits", "x"]).status == 64)
    let refused = junoscope(["log", "--host", "127.0.0.1", "--port", "1", "--no-ssh-config"])
    #expect(refused.status == 3)
    #expect(refused.err.contains("connect"))
  }
}

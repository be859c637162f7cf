import Foundation
import JunosConfig
import JunosHistory
import Testing

@testable import JunosDevice

func tempPath(_ name: String) -> String { NSTemporaryDirectory() + "junoscope-\(name)-\(UUID().uuidString.prefix(8))" }

/// Capture bundles written from the test sshd, over the CLI and NETCONF.
@Suite(.enabled(if: SSHServer.available || sshRequired, "no sshd here: \(SSHServer.failure ?? "")"))
struct BundleTests {
  let server: SSHServer

  init() throws {
    server = try #require(SSHServer.shared, "the test sshd did not start: \(SSHServer.failure ?? "")")
  }

  @Test(arguments: ["cli", "netconf"])
  func captureAndReadBack(transport: String) throws {
    let session = try SSHSession(testOptions(server))
    let dir = tempPath("bundle")
    let bundle: CaptureBundle
    if transport == "cli" {
      bundle = try CaptureBundle.capture(SSHDevice(session), host: "r77", transport: "cli", rollbacks: .all, into: dir)
    } else {
      bundle = try CaptureBundle.capture(try NetconfDevice(session), host: "r77", transport: "netconf", rollbacks: .all, into: dir)
    }
    #expect(bundle.rollbackNumbers == Array(0..<10))
    for n in [0, 4, 9] { #expect(try bundle.rollback(n) == Array(DeviceFixtures.chain.rollbacks[n].utf8)) }
    #expect(try bundle.identity() == DeviceIdentity(hostName: "r77", model: "vsrx", version: "17.3R2.10"))
    #expect((try bundle.commitListText() != nil) == (transport == "cli"))
    let manifest = bundle.manifest
    #expect(manifest.host == "r77" && manifest.transport == transport && manifest.restarts == 0)
    #expect(manifest.files.count == (transport == "cli" ? 12 : 11))
    // The commit list was read twice (start and end), then every rollback once.
    #expect(manifest.commands.count == (transport == "cli" ? 14 : 13))
    let json = try String(contentsOfFile: dir + "/manifest.json", encoding: .utf8)
    #expect(json.contains("\"sha256\":\"\(SHA256.hex(try bundle.commitListXML()))\""))
    // A changed file is caught when the bundle is read.
    try Data("tampered".utf8).write(to: URL(fileURLWithPath: dir + "/rollbacks/rollback-3.conf"))
    #expect(throws: DeviceError.self) { _ = try CaptureBundle(path: dir) }
    // Nothing but the bundle is left in the folder.
    let siblings = try FileManager.default.contentsOfDirectory(atPath: (dir as NSString).deletingLastPathComponent)
    #expect(!siblings.contains { $0.hasPrefix("." + (dir as NSString).lastPathComponent + ".partial") })
  }

  @Test func driftRestartsTheCapture() throws {
    let drifting = try #require(SSHServer.drifting)
    let dir = tempPath("drift")
    let b = try CaptureBundle.capture(
      SSHDevice(try SSHSession(testOptions(drifting))), host: "r77", transport: "cli", rollbacks: .range(0...2), into: dir)
    #expect(b.manifest.restarts == 1)
    let h = CommitHistory.read(SourceFile(path: "x", bytes: try b.commitListXML()))
    #expect(h.commits.first?.user == "intruder")
    #expect(String(decoding: try #require(try b.commitListText()), as: UTF8.self).contains("intruder"))
  }

  @Test func endlessDriftFailsAndLeavesNoBundle() throws {
    let drifting = try #require(SSHServer.alwaysDrifting)
    let dir = tempPath("drift-always")
    do {
      try CaptureBundle.capture(
        SSHDevice(try SSHSession(testOptions(drifting))), host: "r77", transport: "cli", rollbacks: .none, into: dir)
      Issue.record("an endlessly drifting device gave a bundle")
    } catch {
      #expect(error.message.contains("commits kept landing during the capture"))
    }
    #expect(!FileManager.default.fileExists(atPath: dir))
  }

  @Test func deviceErrorsFailTheCaptureCleanly() throws {
    let dir = tempPath("bad")
    do {
      try CaptureBundle.capture(
        SSHDevice(try SSHSession(testOptions(server))), host: "r77", transport: "cli", rollbacks: .range(40...41), into: dir)
      Issue.record("a failing rollback gave a bundle")
    } catch {
      #expect(error.kind == .timeout || error.kind == .device)
    }
    #expect(!FileManager.default.fileExists(atPath: dir))
  }
}

@Suite struct SHA256Tests {
  @Test func knownVectors() {
    #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    var s = SHA256()
    for chunk in stride(from: 0, to: 1_000_000, by: 777) { s.update([UInt8](repeating: 0x61, count: min(777, 1_000_000 - chunk))) }
    #expect(s.finish().count == 32)
  }
}

import JunosConfig
import Testing

@testable import JunosDevice

/// Inputs found with the `device` fuzz target (Tests/Fuzz/FuzzDevice.swift, see Docs/Fuzzing.md),
/// reduced, one test per finding.
struct FuzzRegressionTests {
  private func manifest(_ files: String, restarts: String = "0") -> [UInt8] {
    Array("{\"format\":\"junoscope.bundle\",\"version\":1,\"restarts\":\(restarts),\"files\":[\(files)]}".utf8)
  }

  /// `Int(_:)` trapped on a size that is no exact integer (1e300, 1e999 = infinity).
  @Test(arguments: ["1e300", "1e999", "-1e999", "9223372036854775807", "1.5", "-1"])
  func hugeOrFractionalFileSizesAreRefused(bytes: String) {
    let m = manifest("{\"path\":\"commits.xml\",\"bytes\":\(bytes),\"sha256\":\"ab\"}")
    #expect(throws: DeviceError.self) { try CaptureBundle.Manifest.parse(m, path: "b") }
  }

  /// The same for `restarts`.
  @Test(arguments: ["1e19", "1e999", "0.5"])
  func hugeOrFractionalRestartCountsAreRefused(restarts: String) {
    #expect(throws: DeviceError.self) { try CaptureBundle.Manifest.parse(manifest("", restarts: restarts), path: "b") }
  }

  /// A `/` followed by a combining mark is one Character: the Character-wise checks let
  /// `/\u{301}etc` (absolute) and `../\u{301}x` (parent folder) through. A NUL ends the path
  /// for the file system.
  @Test(arguments: ["/\\u0301etc/passwd", "../\\u0301x", "a/../\\u0301/x", "..\\u0000", "/etc", "a/../b", ".."])
  func pathsLeavingTheBundleAreRefused(path: String) {
    let m = manifest("{\"path\":\"\(path)\",\"bytes\":1,\"sha256\":\"ab\"}")
    #expect(throws: DeviceError.self) { try CaptureBundle.Manifest.parse(m, path: "b") }
  }

  /// Paths inside the bundle, sizes and counts that are integers, still read.
  @Test func goodManifestsStillRead() throws {
    let m = manifest(
      "{\"path\":\"rollbacks/rollback-0.conf\",\"bytes\":12,\"sha256\":\"ab\"},{\"path\":\"a..b/.x\",\"bytes\":0,\"sha256\":\"cd\"}",
      restarts: "2")
    let read = try CaptureBundle.Manifest.parse(m, path: "b")
    #expect(read.files.map(\.path) == ["rollbacks/rollback-0.conf", "a..b/.x"])
    #expect(read.files.map(\.bytes) == [12, 0])
    #expect(read.restarts == 2)
  }

  /// `Int("-0")` is 0, so `show system rollback -0` was on the allow-list.
  @Test(arguments: ["show system rollback -0", "show system rollback -0 | no-more", "show system rollback 1 compare -0"])
  func signedRollbackNumbersAreRefused(line: String) {
    #expect(ReadOnlyCommand(line) == nil)
  }

  /// Unsigned ones up to two digits still pass.
  @Test func rollbackNumbersStillPass() {
    #expect(ReadOnlyCommand("show system rollback 0 compare 49 | no-more")?.text == "show system rollback 0 compare 49 | no-more")
    #expect(ReadOnlyCommand("show system rollback 07")?.text == "show system rollback 07")
    #expect(ReadOnlyCommand("show system rollback 50") == nil)
  }

  /// Found by reading the fuzz target's notes: an unclosed CDATA is not a reply, a character
  /// reference needs digits only, and JSON numbers do not start with '+'.
  @Test func unescapeAndJSONEdges() throws {
    #expect(throws: DeviceError.self) { _ = try NetconfReply("<t>a<![CDATA[xyz</t>") }
    #expect(try NetconfReply("<t><![CDATA[a]]>b</t>").first("t") == "ab")
    #expect(throws: DeviceError.self) { _ = try NetconfReply("<t>&#x+41;</t>") }
    #expect(throws: DeviceError.self) { _ = try NetconfReply("<t>&#+65;</t>") }
    #expect(try NetconfReply("<t>&#x41;&#65;&#X42;</t>").first("t") == "AAB")
    #expect((try? MiniJSON.parse(Array("+1".utf8))) == nil)
    #expect((try? MiniJSON.parse(Array("\"\\u+abc\"".utf8))) == nil)
    #expect((try? MiniJSON.parse(Array("-1.5e3".utf8)))?.number == -1500)
  }
}

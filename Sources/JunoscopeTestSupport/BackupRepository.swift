import Foundation

/// A git repository of device backups written the way Oxidized and RANCID write theirs, made with
/// the `git` binary in a temporary folder (removed by ``remove()``): files are written, then
/// committed with the backup's time as author and committer date.
public final class BackupRepository {
  /// The work tree (the repository is its `.git`).
  public let path: String

  /// Creates an empty repository (branch `main`).
  public init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-backups-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try git(["init", "-q", "-b", "main"])
  }

  /// Runs `git` in the work tree; its standard output. Fails when it exits non-zero.
  @discardableResult
  public func git(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.gitPath)
    p.arguments = ["-C", path] + arguments
    var env = ProcessInfo.processInfo.environment
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["HOME"] = path  // no user configuration
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let problem = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else {
      throw BackupRepositoryError(message: "git \(arguments.joined(separator: " ")): " + String(decoding: problem, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The `git` binary: the first on `PATH` (Debian's is `/usr/bin/git`; `.ci/setup` installs it).
  static let gitPath: String = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let found = path.split(separator: ":").map { "\($0)/git" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    return found ?? "/usr/bin/git"
  }()

  /// Removes a file of the work tree.
  public func delete(_ file: String) throws {
    try FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).appendingPathComponent(file).path)
  }

  /// Writes a file of the work tree (folders made as needed).
  public func write(_ file: String, _ text: String) throws {
    let url = URL(fileURLWithPath: path).appendingPathComponent(file)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  /// Commits everything written, as `author`, at `time` (`2024-09-25T18:00:00Z`); the new
  /// commit's id.
  @discardableResult
  public func commit(_ message: String, at time: String, author: String = "oxidized") throws -> String {
    try git(["add", "-A"])
    let env = [
      "GIT_AUTHOR_DATE": time, "GIT_COMMITTER_DATE": time, "GIT_AUTHOR_NAME": author, "GIT_COMMITTER_NAME": author,
      "GIT_AUTHOR_EMAIL": "\(author)@backups.example", "GIT_COMMITTER_EMAIL": "\(author)@backups.example",
    ]
    try git(["commit", "-q", "-m", message], environment: env)
    return try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Removes the repository.
  public func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// The top-level `Fixtures/` folder.
  static let fixtures: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// A fixture configuration's text, without the Markdown fence some captures are wrapped in.
  public static func fixture(_ relative: String) throws -> String {
    let text = try String(contentsOf: fixtures.appendingPathComponent(relative), encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("```") }.joined(separator: "\n")
  }
}

/// A `git` command that failed.
public struct BackupRepositoryError: Error, CustomStringConvertible {
  /// What git said.
  public var message: String
  public var description: String { message }
}

/// The files backup tools write for a Junos device.
public enum BackupTool {
  /// Lines as the tools comment them: `# ` before each, `#` alone for a blank one (Oxidized
  /// strips trailing blanks from every line).
  static func commented(_ output: String) -> String {
    output.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "#" : "# \($0)" }.joined(separator: "\n")
  }

  /// Oxidized's `junos` model: `show version`, `show chassis hardware` and `show system
  /// license` as `# ` lines, then `show configuration | display omit` as the device printed it
  /// (its `## Last commit` header kept), each line without trailing blanks.
  public static func oxidized(configuration: String, version: String, chassis: String, license: String = "License usage: none") -> String {
    let config = configuration.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    var text = [commented(version), commented(chassis), commented(license)].joined(separator: "\n") + "\n"
    text += config.joined(separator: "\n")
    return text.hasSuffix("\n") ? text : text + "\n"
  }

  /// RANCID's `jrancid`: `#RANCID-CONTENT-TYPE: juniper` and `#`, each command echoed after the
  /// prompt (`# host> show version`, the user dropped) with its output as `# ` lines, then
  /// `show configuration` with blank lines, the `## Last commit` line and ` ## SECRET-DATA`
  /// marks dropped and `authentication-key` values filtered (`FILTER_PWDS YES`) into `#` lines.
  public static func rancid(configuration: String, host: String, version: String, chassis: String) -> String {
    var text = "#RANCID-CONTENT-TYPE: juniper\n#\n"
    text += "# \(host)> show chassis hardware\n" + commented(chassis) + "\n"
    text += "# \(host)> show version\n" + commented(version) + "\n#\n"
    text += "# \(host)> show configuration\n"
    for line in configuration.split(separator: "\n") {
      if line.allSatisfy({ $0 == " " }) || line.hasPrefix("## Last commit: ") { continue }
      var l = String(line)
      if l.hasSuffix(" ## SECRET-DATA") { l = String(l.dropLast(" ## SECRET-DATA".count)) }
      if let r = l.range(of: "authentication-key ") {
        text += "#" + l[..<r.upperBound] + "<removed>;\n"
        continue
      }
      text += l + "\n"
    }
    return text
  }
}

extension BackupRepository {
  /// `show version` of the vMX routers the fixtures were captured on.
  static func version(_ host: String) -> String {
    "Hostname: \(host)\nModel: vmx\nJunos: 14.1R4.8\nJUNOS Base OS boot [14.1R4.8]\nJUNOS Base OS Software Suite [14.1R4.8]"
  }

  /// `show chassis hardware`, with or without a second FPC.
  static func chassis(fpcs: Int) -> String {
    var s =
      "Hardware inventory:\nItem             Version  Part number  Serial number     Description\nChassis                                VM5F0C2B6E2B      VMX\n"
    s += "Midplane\nRouting Engine 0                                         RE-VMX"
    for k in 0..<fpcs { s += "\nFPC \(k)                                                    Virtual FPC" }
    return s
  }

  /// The tests' Oxidized repository (one file per device; `core/` and `lab/` are group
  /// folders), over a week of backups of real configurations from `Fixtures/` (POEMA's vMX
  /// captures, NAPALM's vSRX test configuration):
  ///
  /// | backup | time (UTC) | file | what changed |
  /// |---|---|---|---|
  /// | `first` | 2024-09-25 18:00 | mx-msk-br1, core/mx-rnd-br1, lab/mx-rnd-br1, vsrx, sw-access1 (IOS), README.md | everything |
  /// | `chassis` | 2024-09-26 06:00 | mx-msk-br1 | only `show chassis hardware` (a second FPC) |
  /// | `headerOnly` | 2024-09-27 09:00 | mx-msk-br1 | only `## Last commit` (2024-09-27 08:30:00 UTC by noc) |
  /// | `after` | 2024-09-27 18:00 | mx-msk-br1 | POEMA's after configuration (14:59:28 by admin) |
  /// | `rnd` | 2024-09-27 18:05 | core/mx-rnd-br1 | POEMA's after configuration |
  /// | `cisco` | 2024-09-28 06:00 | sw-access1 | a line of the IOS file |
  /// | `vsrx` | 2024-10-01 06:00 | vsrx | NAPALM's new_good configuration |
  public static func oxidized() throws -> (repository: BackupRepository, commits: [String: String]) {
    let r = try BackupRepository()
    var ids: [String: String] = [:]
    let br1Before = try fixture("configs/curly/poema_before_mx-msk-br1.md")
    let br1After = try fixture("configs/curly/poema_after_mx-msk-br1.md")
    let rnd = try fixture("configs/curly/poema_before_mx-rnd-br1.md")
    func br1(_ config: String, fpcs: Int) -> String {
      BackupTool.oxidized(configuration: config, version: version("mx-msk-br1"), chassis: chassis(fpcs: fpcs))
    }
    try r.write("mx-msk-br1", br1(br1Before, fpcs: 1))
    try r.write("core/mx-rnd-br1", BackupTool.oxidized(configuration: rnd, version: version("mx-rnd-br1"), chassis: chassis(fpcs: 1)))
    try r.write("lab/mx-rnd-br1", BackupTool.oxidized(configuration: rnd, version: version("mx-rnd-br1"), chassis: chassis(fpcs: 1)))
    try r.write(
      "vsrx", BackupTool.oxidized(configuration: try fixture("configs/curly/napalm_initial.conf"), version: "Model: vsrx", chassis: ""))
    let ios = "!\nversion 15.2\nhostname sw-access1\n!\ninterface GigabitEthernet0/1\n description uplink\n!\nend\n"
    try r.write("sw-access1", ios)
    try r.write("README.md", "Backups written by Oxidized.\n")
    ids["first"] = try r.commit("update mx-msk-br1", at: "2024-09-25T18:00:00Z")
    try r.write("mx-msk-br1", br1(br1Before, fpcs: 2))
    ids["chassis"] = try r.commit("update mx-msk-br1", at: "2024-09-26T06:00:00Z")
    let moved = br1Before.replacingOccurrences(
      of: "## Last commit: 2024-09-25 16:44:54 UTC by moro", with: "## Last commit: 2024-09-27 08:30:00 UTC by noc")
    try r.write("mx-msk-br1", br1(moved, fpcs: 2))
    ids["headerOnly"] = try r.commit("update mx-msk-br1", at: "2024-09-27T09:00:00Z")
    try r.write("mx-msk-br1", br1(br1After, fpcs: 2))
    ids["after"] = try r.commit("update mx-msk-br1", at: "2024-09-27T18:00:00Z")
    try r.write(
      "core/mx-rnd-br1",
      BackupTool.oxidized(
        configuration: try fixture("configs/curly/poema_after_mx-rnd-br1.md"), version: version("mx-rnd-br1"), chassis: chassis(fpcs: 1)))
    ids["rnd"] = try r.commit("update core/mx-rnd-br1", at: "2024-09-27T18:05:00Z")
    try r.write("sw-access1", ios.replacingOccurrences(of: "uplink", with: "uplink to core"))
    ids["cisco"] = try r.commit("update sw-access1", at: "2024-09-28T06:00:00Z")
    try r.write(
      "vsrx", BackupTool.oxidized(configuration: try fixture("configs/curly/napalm_new_good.conf"), version: "Model: vsrx", chassis: ""))
    ids["vsrx"] = try r.commit("update vsrx", at: "2024-10-01T06:00:00Z")
    return (r, ids)
  }

  /// A `show system commit` of mx-msk-br1 for ``oxidized()``'s backups: its commits 0, 2 and 4
  /// are the ones the backups recorded; 1 and 3 came between backups, unrecorded; 5 is older
  /// than the first backup.
  public static let listingOfMxMskBr1 = """
    0   2024-09-27 14:59:28 UTC by admin via cli
    1   2024-09-27 10:12:00 UTC by admin via cli
    2   2024-09-27 08:30:00 UTC by noc via cli
    3   2024-09-26 11:00:00 UTC by moro via netconf
    4   2024-09-25 16:44:54 UTC by moro via cli
    5   2024-09-20 10:00:00 UTC by root via cli

    """

  /// The tests' RANCID repository (group `networks`: `networks/router.db`,
  /// `networks/configs/<device>`): mx-msk-br4 backed up on 2024-09-25 18:00 (POEMA's before
  /// configuration), 2024-09-26 06:00 (only the chassis output changed) and 2024-09-27 18:00
  /// (the after configuration), and a Cisco switch (`!RANCID-CONTENT-TYPE: cisco`).
  public static func rancid() throws -> (repository: BackupRepository, commits: [String: String]) {
    let r = try BackupRepository()
    var ids: [String: String] = [:]
    func br4(_ relative: String, fpcs: Int) throws -> String {
      BackupTool.rancid(
        configuration: try fixture(relative), host: "mx-msk-br4", version: version("mx-msk-br4"), chassis: chassis(fpcs: fpcs))
    }
    try r.write("networks/router.db", "mx-msk-br4;juniper;up\nsw-core1;cisco;up\n")
    try r.write("networks/configs/mx-msk-br4", try br4("configs/curly/poema_before_mx-msk-br4.md", fpcs: 1))
    try r.write("networks/configs/sw-core1", "!RANCID-CONTENT-TYPE: cisco\n!\nhostname sw-core1\n!\nend\n")
    ids["first"] = try r.commit("updates", at: "2024-09-25T18:00:00Z", author: "rancid")
    try r.write("networks/configs/mx-msk-br4", try br4("configs/curly/poema_before_mx-msk-br4.md", fpcs: 2))
    ids["chassis"] = try r.commit("updates", at: "2024-09-26T06:00:00Z", author: "rancid")
    try r.write("networks/configs/mx-msk-br4", try br4("configs/curly/poema_after_mx-msk-br4.md", fpcs: 2))
    ids["after"] = try r.commit("updates", at: "2024-09-27T18:00:00Z", author: "rancid")
    return (r, ids)
  }
}

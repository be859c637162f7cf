import Foundation
import JunosHistory
import JunoscopeTestSupport
import Testing

/// `log`, `diff`, `blame` and `timeline` over `--git`: the same answers as the same history in
/// a rollback folder, and the backups' spans said.
@Suite struct GitBackupCLITests {
  /// mx-msk-br1's three recorded configurations as rollback files (`juniper.conf.2` the oldest).
  static func rollbackFolder() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-git-rollbacks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let before = try BackupRepository.fixture("configs/curly/poema_before_mx-msk-br1.md")
    let moved = before.replacingOccurrences(
      of: "## Last commit: 2024-09-25 16:44:54 UTC by moro", with: "## Last commit: 2024-09-27 08:30:00 UTC by noc")
    for (name, text) in [
      ("juniper.conf.2", before), ("juniper.conf.1", moved),
      ("juniper.conf", try BackupRepository.fixture("configs/curly/poema_after_mx-msk-br1.md")),
    ] {
      try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }
    return dir.path
  }

  /// The `backup` objects of commits in JSON, taken out.
  static func withoutBackupObjects(_ json: String) -> String {
    json.replacing(/,"backup":\{[^}]*\}/, with: "")
  }

  /// The lines `log` adds for backups, taken out.
  static func withoutBackups(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !($0.first == " " && $0.drop { $0 == " " }.hasPrefix("(backup "))
    }
    .joined(separator: "\n")
  }

  @Test func sameAnswersAsTheRollbackFolder() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let dir = try Self.rollbackFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let git = ["--git", repo.path, "--device", "mx-msk-br1"]
    let folder = ["--rollbacks", dir]
    // log: the same commits, each with its backups.
    let log = run(["log"] + git)
    #expect(log.status == 0)
    #expect(log.err == "")
    let short = ids.mapValues { $0.prefix(7) }
    #expect(
      log.out == """
        #  Time (UTC)            Device time              User   Client  Comment
        0  2024-09-27 14:59:28Z  2024-09-27 14:59:28 UTC  admin
           (backup \(short["after"]!) 2024-09-27 18:00:00Z, with any commits not backed up since the backup of 2024-09-27 09:00:00Z)
        1  2024-09-27 08:30:00Z  2024-09-27 08:30:00 UTC  noc
           (backup \(short["headerOnly"]!) 2024-09-27 09:00:00Z, with any commits not backed up since the backup of 2024-09-26 06:00:00Z; configuration unchanged)
        2  2024-09-25 16:44:54Z  2024-09-25 16:44:54 UTC  moro
           (backup \(short["first"]!) 2024-09-25 18:00:00Z, with any commits not backed up since before the first backup)

        """)
    #expect(Self.withoutBackups(log.out) == run(["log"] + folder).out)
    let json = run(["log", "-f", "json"] + git).out
    #expect(
      json.contains(
        "\"user\":\"noc\",\"client\":null,\"comment\":null,\"log\":null,\"confirmedMinutes\":null,\"backup\":{\"id\":\"\(ids["headerOnly"]!)\",\"time\":\"2024-09-27T09:00:00Z\",\"after\":\"2024-09-26T06:00:00Z\",\"configurationChanged\":false}}"
      ))
    var stripped = json
    for (key, time, after, changed) in [
      ("after", "2024-09-27T18:00:00Z", "\"2024-09-27T09:00:00Z\"", true),
      ("headerOnly", "2024-09-27T09:00:00Z", "\"2024-09-26T06:00:00Z\"", false),
      ("first", "2024-09-25T18:00:00Z", "null", true),
    ] {
      let object = ",\"backup\":{\"id\":\"\(ids[key]!)\",\"time\":\"\(time)\",\"after\":\(after),\"configurationChanged\":\(changed)}"
      #expect(stripped.contains(object))
      stripped = stripped.replacingOccurrences(of: object, with: "")
    }
    #expect(stripped == run(["log", "-f", "json"] + folder).out)
    // diff: the same difference; standard error says what the backups cover.
    for range in ["1..0", "0", "1"] {
      for format in ["junos", "set"] {
        let d = run(["diff", range, "-f", format] + git)
        #expect(d.status == 0)
        #expect(d.out == run(["diff", range, "-f", format] + folder).out, "\(range) \(format)")
      }
    }
    #expect(!run(["diff", "1..0"] + git).out.isEmpty)
    // What commit 2 did needs a configuration before the first backup.
    let first = run(["diff", "2"] + git)
    #expect(first.status == 2)
    #expect(
      first.err
        == "junoscope: error: commits 2..2: the changes of commit 2 need rollback 3, the configuration before it, which is not available (rollbacks 0–2)\n"
    )
    #expect(run(["diff", "1"] + git).out.isEmpty)
    #expect(
      run(["diff", "0"] + git).err == """
        junoscope: commits 0..0 are the difference between backup \(short["headerOnly"]!) and backup \(short["after"]!): any commits made after 2024-09-27 09:00:00Z and before 2024-09-27 18:00:00Z that no backup recorded are in it too
        junoscope: commits 0..0: (from backups, numbered by them: may include commits no backup recorded)

        """)
    // The JSON form names the backups and says what they cover.
    let json0 = run(["diff", "0", "-f", "json"] + git).out
    #expect(
      json0.hasPrefix(
        "{\"format\":\"junoscope.diff\",\"version\":1,\"old\":\"\(repo.path)/mx-msk-br1@\(short["headerOnly"]!)\",\"new\":\"\(repo.path)/mx-msk-br1@\(short["after"]!)\",\"notes\":[\"commits 0..0 are the difference between backup \(short["headerOnly"]!) and backup \(short["after"]!): any commits made after 2024-09-27 09:00:00Z and before 2024-09-27 18:00:00Z that no backup recorded are in it too\"],\"identical\":false,"
      ))
    #expect(
      run(["timeline", "-f", "html"] + git).out.contains(
        "<code>(from backups, numbered by them: may include commits no backup recorded)</code>"))
    #expect(run(["diff", "--author", "moro"] + git).out == run(["diff", "--author", "moro"] + folder).out)
    // blame: the same commit for every statement.
    for format in ["text", "json"] {
      let b = run(["blame", "-f", format] + git)
      #expect(b.status == 0)
      #expect(Self.withoutBackupObjects(b.out) == run(["blame", "-f", format] + folder).out)
    }
    #expect(run(["blame", "protocols", "ospf"] + git).out == run(["blame", "protocols", "ospf"] + folder).out)
    // timeline: batches from backups say so, in place of an on-box command.
    let t = run(["timeline"] + git)
    #expect(
      t.out == """
        User   Commits  Count  Time (UTC)            Device time              Command
        admin  0..0     1      2024-09-27 14:59:28Z  2024-09-27 14:59:28 UTC  (from backups, numbered by them: may include commits no backup recorded)
        noc    1..1     1      2024-09-27 08:30:00Z  2024-09-27 08:30:00 UTC  (from backups, numbered by them: may include commits no backup recorded)
        moro   2..2     1      2024-09-25 16:44:54Z  2024-09-25 16:44:54 UTC  (from backups, numbered by them: may include commits no backup recorded)

        User   Commits  Batches  Time (UTC)
        admin  1        1        2024-09-27 14:59:28Z
        moro   1        1        2024-09-25 16:44:54Z
        noc    1        1        2024-09-27 08:30:00Z

        """)
    #expect(
      run(["timeline", "-f", "json"] + git).out.hasPrefix(
        "{\"format\":\"junoscope.timeline\",\"version\":1,\"batches\":[{\"user\":\"moro\",\"first\":2,\"last\":2,\"commits\":1,\"start\":\"2024-09-25T16:44:54Z\",\"end\":\"2024-09-25T16:44:54Z\",\"compare\":null,\"mayIncludeUnrecorded\":true},"
      ))
  }

  /// With the device's listing the backups take the box's numbers: `diff 3..2` is what the
  /// box's commits 3 and 2 did.
  @Test func alignedToTheListing() throws {
    let (repo, ids) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let listing = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-git-listing-\(UUID().uuidString).txt")
    try Data(BackupRepository.listingOfMxMskBr1.utf8).write(to: listing)
    defer { try? FileManager.default.removeItem(at: listing) }
    let dir = try Self.rollbackFolder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let git = ["--git", repo.path, "--file", "mx-msk-br1", "--commits", listing.path]
    let log = run(["log"] + git)
    #expect(log.status == 0)
    #expect(log.out == run(["log", "--commits", listing.path]).out)
    let d = run(["diff", "3..2"] + git)
    #expect(d.status == 0)
    #expect(d.out == run(["diff", "1", "--rollbacks", dir]).out)
    #expect(d.err.hasSuffix("junoscope: commits 3..2: show system rollback 2 compare 4\n"))
    let missing = run(["diff", "0"] + git)
    #expect(missing.status == 2)
    #expect(missing.err.contains("junoscope: error: commits 0..0: rollback 1 is not in '\(repo.path)/mx-msk-br1'"))
    // An older revision (before the last backup): the listing is newer than the backups.
    let old = run(["log", "--rev", ids["headerOnly"]!] + git)
    #expect(old.status == 0)
  }

  /// RANCID's files: no header, so commits nobody is named for, their times bounded.
  @Test func rancidBackups() throws {
    let (repo, ids) = try BackupRepository.rancid()
    defer { repo.remove() }
    let git = ["--git", repo.path, "--device", "mx-msk-br4"]
    let log = run(["log"] + git)
    #expect(log.status == 0)
    #expect(
      log.out == """
        #  Time (UTC)  Device time  User  Client  Comment
        0  who and when not known (no rollback header describes it)
           (backup \(ids["after"]!.prefix(7)) 2024-09-27 18:00:00Z, with any commits not backed up since the backup of 2024-09-26 06:00:00Z)
        1  who and when not known (no rollback header describes it)
           (backup \(ids["first"]!.prefix(7)) 2024-09-25 18:00:00Z, with any commits not backed up since before the first backup)

        """)
    #expect(
      log.err
        == "junoscope: the backups in '\(repo.path)/networks/configs/mx-msk-br4' do not say who made commits 0, 1 (saved without '## Last commit', as RANCID saves them): shown as user '?', their times bounded by the backups; give --commits FILE for the device's listing\n"
    )
    // What commit 0 did is the difference between the fixtures RANCID saved.
    let d = run(["diff", "0"] + git)
    #expect(d.status == 0)
    let compare = run([
      "compare", "\(fixtures)/configs/curly/poema_before_mx-msk-br4.md", "\(fixtures)/configs/curly/poema_after_mx-msk-br4.md",
    ])
    #expect(!d.out.isEmpty)
    #expect(d.out == compare.out)
  }

  /// A generated chain of 50 commits, each backed up by Oxidized five minutes after it: every
  /// range the device can show, and blame, as from the rollback files.
  @Test func chainBackedUpAfterEveryCommit() throws {
    let chain = RollbackChainCLITests.chain
    let dir = try RollbackChainCLITests.write()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let repo = try BackupRepository()
    defer { repo.remove() }
    for n in stride(from: 49, through: 0, by: -1) {
      let parts = chain.commits[n].time.split(separator: " ")
      let t = CommitListParser.localTime(parts[0], parts[1])!.secondsAsUTC + 300
      try repo.write("r1", BackupTool.oxidized(configuration: chain.rollbacks[n], version: "Model: mx204", chassis: "Chassis MX204"))
      try repo.commit("update r1", at: iso8601UTC(t))
    }
    let git = ["--git", repo.path, "--file", "r1"]
    #expect(Self.withoutBackups(run(["log"] + git).out) == run(["log", "--rollbacks", dir]).out)
    var checked = 0
    for older in stride(from: 0, through: 48, by: 3) {
      for newer in stride(from: 0, through: older, by: 4) {
        #expect(run(["diff", "\(older)..\(newer)"] + git).out == run(["diff", "\(older)..\(newer)", "--rollbacks", dir]).out)
        checked += 1
      }
    }
    #expect(checked == 113)
    #expect(run(["blame"] + git).out == run(["blame", "--rollbacks", dir]).out)
    let json = run(["blame", "-f", "json"] + git).out
    #expect(json.contains(",\"backup\":{"))
    #expect(Self.withoutBackupObjects(json) == run(["blame", "-f", "json", "--rollbacks", dir]).out)
  }

  @Test func optionErrors() throws {
    let (repo, _) = try BackupRepository.oxidized()
    defer { repo.remove() }
    let cases: [([String], Int32, String)] = [
      (
        ["log", "--git", repo.path, "--rollbacks", "x", "--file", "a"], 64,
        "junoscope: error: --git replaces --rollbacks; give one source\n"
      ),
      (
        ["log", "--git", repo.path, "--bundle", "b", "--file", "a"], 64,
        "junoscope: error: --bundle replaces --commits, --rollbacks and --git; give one source\n"
      ),
      (["log", "--file", "mx-msk-br1"], 64, "junoscope: error: --file names a file of a git repository: give --git REPO too\n"),
      (["log", "--git", repo.path], 64, "junoscope: error: --git wants the device's file: give --file FILE or --device NAME\n"),
      (["log", "--git", repo.path, "--file", "a", "--device", "b"], 64, "junoscope: error: give --file or --device, not both\n"),
      (
        ["log", "--git", repo.path, "--device", "mx-rnd-br1"], 2,
        "junoscope: error: device 'mx-rnd-br1' is ambiguous in '\(repo.path)': core/mx-rnd-br1, lab/mx-rnd-br1; give --file FILE\n"
      ),
      (
        ["diff", "0", "--git", repo.path, "--file", "mx-msk-br1", "--rev", "nope"], 2,
        "junoscope: error: \(repo.path): unknown revision 'nope': revspec 'nope' not found\n"
      ),
      (
        ["blame", "--git", repo.path, "--file", "sw-access1"], 2,
        "junoscope: error: \(repo.path)/sw-access1@"
      ),
    ]
    for (args, status, err) in cases {
      let r = run(args)
      #expect(r.status == status, "\(args)")
      #expect(r.err.contains(err), "\(args)")
    }
  }
}

import Foundation
import Testing

/// `junoscope diff` over a directory of rollback files.
@Suite struct DiffCLITests {
  /// A directory with rollbacks 0 and 1 (gzip fixtures) and 2 (plain text, another name form).
  func rollbacks() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-rb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for name in ["juniper.conf.gz", "juniper.conf.1.gz"] {
      try FileManager.default.copyItem(
        atPath: "\(fixtures)/rollbacks/\(name)", toPath: dir.appendingPathComponent(name).path)
    }
    let before = try String(contentsOfFile: "\(fixtures)/configs/curly/poema_before_mx-msk-br1.md", encoding: .utf8)
    let older = before.replacingOccurrences(
      of: "## Last commit: 2024-09-25 16:44:54 UTC by moro", with: "## Last commit: 2024-09-20 08:00:00 UTC by ann"
    )
    .replacingOccurrences(of: "metric 100;", with: "metric 50;")
    try Data(older.utf8).write(to: dir.appendingPathComponent("rollback-2.conf"))
    return dir.path
  }

  @Test func rangeAndAuthorBatch() throws {
    let dir = try rollbacks()
    let one = run(["diff", "0", "--rollbacks", dir])
    #expect(one.status == 0)
    #expect(one.err == "junoscope: commits 0..0: show system rollback 0 compare 1\n")
    #expect(one.out == "[edit protocols ospf area 0.0.0.0 interface ge-0/0/1.0]\n+     metric 200;\n")
    let both = run(["diff", "0..1", "--rollbacks", dir, "-f", "set"])
    #expect(both.err == "junoscope: commits 1..0: show system rollback 0 compare 2\n")
    let moro = run(["diff", "--author", "moro", "--rollbacks", dir])
    #expect(moro.status == 0)
    #expect(moro.err == "junoscope: commits 1..1 by moro: show system rollback 1 compare 2\n")
  }

  @Test func oneSelectorAtATimeAndAnAuthorWithoutCommitsIsSaid() throws {
    let dir = try rollbacks()
    for (args, both) in [
      (["5", "--author", "moro"], "a range and --author"), (["--author", "moro", "--until", "2024-09-26"], "--author and --since/--until"),
      (["0..1", "--since", "2024-09-01"], "a range and --since/--until"),
    ] {
      let r = run(["diff", "--rollbacks", dir] + args)
      #expect(r.status == 64)
      #expect(r.err == "junoscope: error: give one of a range, --author or --since/--until, not \(both)\n")
    }
    let nobody = run(["diff", "--author", "nobody", "--rollbacks", dir])
    #expect(nobody.status == 2)
    #expect(nobody.err == "junoscope: error: nobody has no commits in the listing (authors: admin, ann, moro)\n")
    let since = run(["diff", "--since", "2030-01-01", "--rollbacks", dir])
    #expect(since.status == 2)
    #expect(since.err == "junoscope: error: no commit in the listing is in the window --since 2030-01-01\n")
  }

  @Test func aCopyOfTheBoxsLayoutIsReadAndAnEmptyFolderIsSaid() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-box-\(UUID().uuidString)").path
    // On the box: /config/juniper.conf.gz and juniper.conf.1.gz–.3.gz, /var/db/config/juniper.conf.4.gz–.49.gz.
    try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/var/db/config", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: "\(fixtures)/rollbacks/juniper.conf.gz", toPath: root + "/config/juniper.conf.gz")
    try FileManager.default.copyItem(atPath: "\(fixtures)/rollbacks/juniper.conf.1.gz", toPath: root + "/var/db/config/juniper.conf.1.gz")
    let r = run(["diff", "0", "--rollbacks", root])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out == "[edit protocols ospf area 0.0.0.0 interface ge-0/0/1.0]\n+     metric 200;\n")
    let empty = root + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let none = run(["diff", "0", "--rollbacks", empty])
    #expect(none.status == 2)
    #expect(
      none.err
        == "junoscope: error: no rollback files in '\(empty)' (juniper.conf[.N][.gz], rollback-N.conf, or the box's config/ and var/db/config/ folders)\n"
    )
  }

  @Test func missingRollbacksAreSaid() throws {
    let dir = try rollbacks()
    let r = run(["diff", "2", "--rollbacks", dir])
    #expect(r.status == 2)
    #expect(r.err.contains("the changes of commit 2 need rollback 3, the configuration before it, which is not available (rollbacks 0–2)"))
    #expect(run(["diff", "--author", "nobody", "--rollbacks", dir]).status == 2)
    #expect(run(["diff", "x..y", "--rollbacks", dir]).status == 64)
  }
}

import Foundation
import JunosConfig
import JunosHistory
import Testing

/// `junoscope lint` and `junoscope ci` end to end: formats, exit codes, sharding, merging.
@Suite struct LintCLITests {
  let plans = fixtures + "/checklist"

  func temp(_ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-lint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
  }

  @Test func theBadPlanFailsWithTextFindingsAndTheFixedOnePasses() {
    let bad = run(["lint", plans + "/swap-cr1-dc1.plan"])
    #expect(bad.status == 1)
    #expect(
      bad.out.contains(
        "swap-cr1-dc1.plan:9:1: error: [client-links-before-core-links] client-facing links et-0/0/4, et-0/0/5 go live in step move-fabric")
    )
    #expect(bad.out.contains("(step move-fabric)"))
    // Errors first, then warnings, then infos; then the findings by rule, most severe first.
    let severities = bad.out.split(separator: "\n").compactMap { line in
      ["error", "warning", "info"].firstIndex { line.contains(": \($0): [") }
    }
    #expect(severities.count == 21 && severities == severities.sorted())
    #expect(
      bad.out.hasSuffix(
        """

        findings by rule:
            3  error    unconditional-aggregate-exported
            1  error    aggregate-activated-without-core
            1  error    node-not-costed-out
            1  error    client-links-before-core-links
            1  error    protocol-references-undefined-interface
            1  error    core-link-without-cos
            5  warning  step-without-verification
            2  warning  ldp-igp-sync-missing
            1  warning  core-link-without-cos
            1  warning  bgp-missing-prefix-limit
            2  info     core-link-without-bfd
            1  info     empty-confirming-commit
            1  info     bgp-session-without-policy
        8 errors, 9 warnings, 4 infos in 1 file

        """))
    let good = run(["lint", plans + "/swap-cr1-dc1.fixed.plan"])
    #expect(good.status == 0, "\(good.out)\(good.err)")
    // Infos and warnings do not fail without --strict; with it they do.
    #expect(run(["lint", "--strict", plans + "/swap-cr1-dc1.fixed.plan"]).status == 1)
    let errorsOnly = run(["lint", "--min-severity", "error", plans + "/swap-cr1-dc1.plan"])
    #expect(!errorsOnly.out.contains("warning:") && !errorsOnly.out.contains("info:"))
  }

  @Test func jsonHasTheIssuesShape() throws {
    let r = run(["lint", "-f", "json", plans + "/swap-cr1-dc1.plan"])
    #expect(r.status == 1)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let findings = try #require(json["findings"] as? [[String: Any]])
    let first = try #require(findings.first { ($0["rule"] as? String) == "client-links-before-core-links" })
    #expect(first["severity"] as? String == "error")
    #expect(first["line"] as? Int == 9)
    #expect(first["column"] as? Int == 1)
    #expect(first["step"] as? String == "move-fabric")
    #expect(first["path"] as? String == "interfaces et-0/0/4")
    let summary = try #require(json["summary"] as? [String: Int])
    #expect(summary["error"] == findings.filter { ($0["severity"] as? String) == "error" }.count)
  }

  /// Runs .ci/validate-sarif (Python's jsonschema against the SARIF 2.1.0 schema in Fixtures/)
  /// on reports; its exit status and output.
  func validateSARIF(_ reports: [String]) throws -> (status: Int32, output: String) {
    var paths: [String] = []
    for (k, text) in reports.enumerated() {
      let path = try temp("report\(k).sarif")
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      paths.append(path)
    }
    return try runScript(".ci/validate-sarif", paths)
  }

  @Test func sarifIsValid210WithRelativeURIs() throws {
    // Against the schema: a plan's findings, and a folder's report with an unparsable and a
    // skipped file (tool-execution notifications).
    let plan = run(["lint", "-f", "sarif", plans + "/swap-cr1-dc1.plan"]).out
    let folder = run(["ci", "-f", "sarif", try mixedRepository()]).out
    let valid = try validateSARIF([plan, folder])
    #expect(valid.status == 0, "\(valid.output)")
    #expect(valid.output.split(separator: "\n").filter { $0.hasSuffix(": valid SARIF 2.1.0") }.count == 2)
    // The validator can fail: a level SARIF does not have.
    let broken = try validateSARIF([folder.replacing("\"level\": \"note\"", with: "\"level\": \"notice\"")])
    #expect(broken.status == 1, "\(broken.output)")
    #expect(broken.output.contains("'notice' is not one of"))
    let r = run(["lint", "-f", "sarif", plans + "/swap-cr1-dc1.plan"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    #expect(json["version"] as? String == "2.1.0")
    let runs = try #require(json["runs"] as? [[String: Any]])
    let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(rules.count == 31)
    let results = try #require(runs[0]["results"] as? [[String: Any]])
    #expect(!results.isEmpty)
    for res in results {
      let index = try #require(res["ruleIndex"] as? Int)
      #expect(rules[index]["id"] as? String == res["ruleId"] as? String)
      let loc = try #require((res["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
      let uri = try #require((loc["artifactLocation"] as? [String: Any])?["uri"] as? String)
      #expect(!uri.hasPrefix("/"))
    }
  }

  @Test func changesNeedABaselineAndBadInputExits2() throws {
    let changes = try temp("c.set")
    try "delete policy-options policy-statement X term T\n".write(toFile: changes, atomically: true, encoding: .utf8)
    #expect(run(["lint", changes]).status == 64)
    let broken = try temp("broken.conf")
    try "system {\n    host-name r1\n".write(toFile: broken, atomically: true, encoding: .utf8)
    let r = run(["lint", broken])
    #expect(r.status == 2)
    #expect(r.err.contains("broken.conf:2:17: error:"))
    // The report says the file could not be read; it never reads as clean.
    #expect(
      r.out
        == "\(broken):2:17: input error: 2 errors; the first: missing ';' at the end of the statement\n0 errors, 0 warnings, 0 infos in 1 file; 1 could not be read\n"
    )
  }

  /// A folder as a user's backup repository holds it: a real Junos configuration, a real ISC
  /// dhcpd.conf (Debian's), a real commit listing that starts with a pending `commit confirmed`
  /// notice, and a compiled zoneinfo file.
  func mixedRepository() throws -> String {
    let dir = (try temp("x") as NSString).deletingLastPathComponent + "/backups"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (from, to) in [
      ("configs/curly/jvd_bbe_sw2_qfx5210-64c.conf", "sw2.conf"), ("other/dhcpd.conf", "dhcpd.conf"),
      ("commit-history/text/pytraining_commit_confirmed_cet.txt", "newname-commits.txt"), ("zoneinfo/Europe/London", "London"),
    ] {
      try FileManager.default.copyItem(atPath: fixtures + "/" + from, toPath: dir + "/" + to)
    }
    return dir
  }

  @Test func ciReportsAnUnparsableFileAsAnErrorInEveryFormat() throws {
    let dir = try mixedRepository()
    let dhcpd = dir + "/dhcpd.conf"
    let problem = "5 errors; the first: unknown statement 'option' at the top level"
    let text = run(["ci", dir])
    #expect(text.status == 2)
    #expect(text.out.contains("\(dhcpd):7:1: input error: \(problem)\n"))
    #expect(text.out.contains("\(dir)/London: skipped: a binary file (byte 5 is not text), not a configuration\n"))
    #expect(text.out.hasSuffix(" in 4 files; 1 could not be read; 1 skipped\n"))
    // The binary file: one notice, none of its bytes. The unparsable one: its first diagnostics.
    #expect(
      text.err.split(separator: "\n").filter { $0.contains("London") } == [
        "junoscope: \(dir)/London: skipped: a binary file (byte 5 is not text), not a configuration"
      ])
    #expect(text.err.contains("\(dhcpd):17:1: error: unknown statement 'ddns-update-style' at the top level\n"))
    #expect(!text.err.contains("\(dhcpd):1:"))
    #expect(!text.err.contains("newname-commits"))

    let junit = run(["ci", "-f", "junit", dir])
    #expect(junit.status == 2)
    #expect(junit.out.contains("<testsuites name=\"junoscope\" tests=\"\(2 * 31 + 2)\" failures="))
    #expect(junit.out.contains("errors=\"1\" skipped=\"1\">\n"))
    #expect(junit.out.contains("<testsuite name=\"\(dhcpd)\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">"))
    #expect(junit.out.contains("<error message=\"\(problem.replacing("'", with: "&apos;"))\" type=\"input-error\">"))
    #expect(!junit.out.contains("<testcase classname=\"\(dhcpd)\" name=\"bgp-session-without-policy\""))
    #expect(junit.out.contains("<skipped message=\"a binary file (byte 5 is not text), not a configuration\"/>"))

    let sarif = run(["ci", "-f", "sarif", dir])
    #expect(sarif.status == 2)
    let root = try MiniJSON.parse(Array(sarif.out.utf8))
    let invocation = try #require(root["runs"]?[0]?["invocations"]?[0])
    #expect(invocation["executionSuccessful"] == .bool(false))
    let notes = try #require(invocation["toolExecutionNotifications"]?.array)
    #expect(notes.map { $0["level"]?.string } == ["error", "note"])
    #expect(notes[0]["message"]?["text"]?.string == problem)
    let place = notes[0]["locations"]?[0]?["physicalLocation"]
    #expect(place?["artifactLocation"]?["uri"]?.string?.hasSuffix("/backups/dhcpd.conf") == true)
    #expect(place?["region"]?["startLine"] == .number(7))

    let json = run(["ci", "-f", "json", dir])
    #expect(json.status == 2)
    let report = try MiniJSON.parse(Array(json.out.utf8))
    #expect(
      report["failures"]
        == .array([.object(["file": .string(dhcpd), "line": .number(7), "column": .number(1), "message": .string(problem)])]))
    #expect(report["skipped"]?.array?.count == 1)

    // Exit 2 survives sharding and merging: every shard is a file here (4/4 by a path hash is not
    // one file per shard, so the shard holding dhcpd.conf is found by its report).
    var shards: [String] = []
    var statuses: [Int32] = []
    for k in 1...4 {
      let path = try temp("shard\(k).json")
      let s = run(["ci", "-f", "json", "--shard", "\(k)/4", "-o", path, dir])
      statuses.append(s.status)
      shards.append(path)
    }
    #expect(statuses.filter { $0 == 2 }.count == 1)
    let merged = run(["ci", "--merge", "-f", "junit"] + shards)
    #expect(merged.status == 2)
    #expect(merged.out.contains("<error message=\"\(problem.replacing("'", with: "&apos;"))\" type=\"input-error\">"))
    let mergedJSON = run(["ci", "--merge", "-f", "json"] + shards)
    #expect(try MiniJSON.parse(Array(mergedJSON.out.utf8))["failures"] == report["failures"])
  }

  @Test func aListingThatStartsWithAPendingCommitConfirmedIsLintedAsOne() {
    let r = run(["lint", fixtures + "/commit-history/text/pytraining_commit_confirmed_cet.txt"])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.err == "")
    #expect(r.out == "0 errors, 0 warnings, 0 infos in 1 file\n")
  }

  /// Beside the listing, rollbacks as a box keeps them: rollback 1 is a real configuration (the
  /// `## Last commit` header of Fixtures/rollbacks/juniper.conf.1.gz, set to commit 1's time and
  /// author), rollback 0 the same configuration under commit 0's header (an empty commit writes a
  /// new header and nothing else), rollbacks 2 and 3 the real pair of Fixtures/rollbacks.
  @Test func emptyConfirmingCommitComparesTheRollbacksNotTheirHeaders() throws {
    let dir = (try temp("x") as NSString).deletingLastPathComponent + "/device"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let listing = dir + "/commits.txt"
    try FileManager.default.copyItem(
      atPath: fixtures + "/commit-history/text/ben_blog_commit_confirmed_run_show_system_commit.txt", toPath: listing)
    let before = try Gzip.decompress(Array(try Data(contentsOf: URL(fileURLWithPath: fixtures + "/rollbacks/juniper.conf.1.gz"))))
    let text = String(decoding: before, as: UTF8.self)
    let header = "## Last commit: 2024-09-25 16:44:54 UTC by moro"
    #expect(text.contains(header))
    for (name, stamp) in [("juniper.conf", "2018-07-27 07:44:26 UTC by ben"), ("juniper.conf.1", "2018-07-27 07:44:07 UTC by ben")] {
      try text.replacing(header, with: "## Last commit: " + stamp).write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }
    try FileManager.default.copyItem(atPath: fixtures + "/rollbacks/juniper.conf.gz", toPath: dir + "/juniper.conf.2.gz")
    try FileManager.default.copyItem(atPath: fixtures + "/rollbacks/juniper.conf.1.gz", toPath: dir + "/juniper.conf.3.gz")
    let r = run(["lint", listing])
    #expect(r.status == 0, "\(r.err)")
    // Commit 0 changed nothing; commit 2 changed an IS-IS metric, so it is not reported.
    #expect(
      r.out == """
        \(listing):3:1: info: [empty-confirming-commit] commit 0 by ben, 19 s after the commit confirmed 5 (commit 1), changed nothing: confirm with commit check instead

        findings by rule:
            1  info  empty-confirming-commit
        0 errors, 0 warnings, 1 info in 1 file

        """)
  }

  @Test func ciHelpAndCLIReferenceListTheSameSkippedFiles() throws {
    let help = run(["ci", "--help"]).out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let reference = try String(contentsOfFile: fixtures + "/../Docs/CLI.md", encoding: .utf8)
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let list = "files ending in .md, .json, .yaml, .yml, .sarif, .html, .csv, .png or .sha256 (in any case)"
    #expect(help.contains(list))
    #expect(reference.contains(list))
    // Which rollback files are not read, without the quotes and backticks of either.
    let rollbacks = "rollback files (juniper.conf.gz and every name starting juniper.conf., such as juniper.conf.N[.gz]"
    let linted = "juniper.conf itself is linted"
    for text in [help, reference].map({ $0.filter { $0 != "'" && $0 != "`" } }) {
      #expect(text.contains(rollbacks))
      #expect(text.contains(linted))
    }
  }

  @Test func ciLintsJuniperConfButNotItsRollbacksNorHiddenFilesNorReports() throws {
    let dir = (try temp("x") as NSString).deletingLastPathComponent + "/saved"
    try FileManager.default.createDirectory(atPath: dir + "/.git", withIntermediateDirectories: true)
    let config = "system { host-name r1; }\n"
    for name in ["juniper.conf", "r1.conf", "juniper.conf.1", "juniper.conf.bak", "NOTES.MD", "report.Json", ".r2.conf", ".git/r3.conf"] {
      try config.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }
    try FileManager.default.copyItem(atPath: fixtures + "/rollbacks/juniper.conf.gz", toPath: dir + "/juniper.conf.gz")
    let r = run(["ci", "-f", "json", dir])
    #expect(r.status == 0, "\(r.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    #expect(json["files"] as? [String] == [dir + "/juniper.conf", dir + "/r1.conf"])
  }

  @Test func checkOnABinaryFileIsOneError() {
    let r = run(["check", fixtures + "/zoneinfo/Europe/London"])
    #expect(r.status == 2)
    #expect(r.err == "junoscope: \(fixtures)/zoneinfo/Europe/London: a binary file (byte 5 is not text), not a configuration\n")
    #expect(r.out == "")
    let lint = run(["lint", fixtures + "/zoneinfo/Europe/London"])
    #expect(lint.status == 2)
    #expect(lint.err == "junoscope: error: \(fixtures)/zoneinfo/Europe/London: a binary file (byte 5 is not text), not a configuration\n")
    let listing = run(["check", fixtures + "/commit-history/text/pytraining_commit_confirmed_cet.txt"])
    #expect(listing.status == 2)
    #expect(listing.err.hasSuffix("is a 'show system commit' listing, not a configuration (use 'junoscope log')\n"))
  }

  @Test func ciLintsAFolderShardsAndMerges() throws {
    let dir = (try temp("x") as NSString).deletingLastPathComponent + "/repo"
    try FileManager.default.createDirectory(atPath: dir + "/.git", withIntermediateDirectories: true)
    try "garbage {\n".write(toFile: dir + "/.git/config", atomically: true, encoding: .utf8)
    try "# notes\n".write(toFile: dir + "/README.md", atomically: true, encoding: .utf8)
    let configs = [
      "r1": "set protocols ldp interface xe-1/0/0.0\n",
      "r2": "set routing-options aggregate route 172.16.0.0/12 passive\n",
      "r3": "set system host-name r3\n",
      "r4": "set protocols bgp group T type external\nset protocols bgp group T neighbor 192.0.2.1 peer-as 64999\n",
    ]
    for (name, text) in configs { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
    let all = run(["ci", "-f", "json", "--jobs", "2", dir])
    #expect(all.status == 1, "\(all.err)")
    let whole = try #require(try JSONSerialization.jsonObject(with: Data(all.out.utf8)) as? [String: Any])
    #expect((whole["files"] as? [String])?.count == 4)
    var shards: [String] = []
    var seen: [String] = []
    for k in 1...3 {
      let path = try temp("shard\(k).json")
      let s = run(["ci", "-f", "json", "--shard", "\(k)/3", "-o", path, dir])
      #expect(s.status == 0 || s.status == 1)
      shards.append(path)
      let j = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
      seen += (j["files"] as? [String]) ?? []
    }
    #expect(seen.sorted() == (whole["files"] as? [String])?.sorted())
    let merged = run(["ci", "--merge", "-f", "json"] + shards)
    #expect(merged.status == 1)
    let m = try #require(try JSONSerialization.jsonObject(with: Data(merged.out.utf8)) as? [String: Any])
    #expect((m["findings"] as? [[String: Any]])?.count == (whole["findings"] as? [[String: Any]])?.count)
    #expect(run(["ci", "--shard", "4/3", dir]).status == 64)
    let junit = run(["ci", "-f", "junit", dir])
    #expect(junit.out.hasPrefix("<?xml"))
    #expect(junit.out.contains("<testcase classname=\"\(dir)/r1\" name=\"protocol-references-undefined-interface\""))
  }
}

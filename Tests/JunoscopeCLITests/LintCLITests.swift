import Foundation
import JunosConfig
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

  @Test func sarifIsValid210WithRelativeURIs() throws {
    let r = run(["lint", "-f", "sarif", plans + "/swap-cr1-dc1.plan"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    #expect(json["version"] as? String == "2.1.0")
    let runs = try #require(json["runs"] as? [[String: Any]])
    let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(rules.count == 29)
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
    #expect(r.out == "")
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

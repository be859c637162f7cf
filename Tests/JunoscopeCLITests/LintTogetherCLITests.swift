import Foundation
import Testing

/// `junoscope lint A --baseline A0 B --baseline B0`: several files linted together, the two
/// routers of a redundant pair compared (Fixtures/checklist/pair/).
@Suite struct LintTogetherCLITests {
  let pair = fixtures + "/checklist/pair"

  @Test func bothRoutersChangingTheSharedMEDExits1WithAnErrorInEachFile() {
    let r = run([
      "lint", pair + "/as1border1-med.set", "--baseline", pair + "/as1border1.set", pair + "/as1border2-med.set", "--baseline",
      pair + "/as1border2.set",
    ])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.contains("\(pair)/as1border1-med.set:1:1: error: [redundant-pair-attribute-change] MED set to 100"))
    #expect(r.out.contains("\(pair)/as1border2-med.set:1:1: error: [redundant-pair-attribute-change] MED set to 100"))
    #expect(r.out.hasSuffix("2 errors, 0 warnings, 0 infos in 2 files\n"))
  }

  @Test func oneRouterChangingItExits0WithAWarningAndStrictFails() {
    let args = [
      "lint", pair + "/as1border1-med.set", "--baseline", pair + "/as1border1.set", pair + "/as1border2.set", "--baseline",
      pair + "/as1border2.set",
    ]
    let r = run(args)
    #expect(r.status == 0, "\(r.out)\(r.err)")
    #expect(r.out.contains("\(pair)/as1border1-med.set:1:1: warning: [redundant-pair-attribute-change]"))
    #expect(r.out.hasSuffix("0 errors, 1 warning, 0 infos in 2 files\n"))
    #expect(run(args + ["--strict"]).status == 1)
    // Alone, the same change says nothing (nothing in the configuration names a partner).
    let alone = run(["lint", pair + "/as1border1-med.set", "--baseline", pair + "/as1border1.set"])
    #expect(alone.status == 0 && alone.out == "0 errors, 0 warnings, 0 infos in 1 file\n")
  }

  @Test func twoPlansAreComparedToo() {
    let r = run(["lint", pair + "/med-as1border1.plan", pair + "/med-as1border2.plan"])
    #expect(r.status == 1)
    #expect(r.out.contains("\(pair)/med-as1border1.plan:6:1: error: [redundant-pair-attribute-change]"))
    #expect(r.out.contains("(step med)"))
  }

  @Test func jsonSARIFAndJUnitCoverEveryFile() throws {
    let args = [
      "lint", pair + "/as1border1-med.set", "--baseline", pair + "/as1border1.set", pair + "/as1border2-med.set", "--baseline",
      pair + "/as1border2.set",
    ]
    let json = run(args + ["-f", "json"])
    #expect(json.status == 1)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    #expect(report["files"] as? [String] == [pair + "/as1border1-med.set", pair + "/as1border2-med.set"])
    let findings = try #require(report["findings"] as? [[String: Any]])
    #expect(findings.map { $0["file"] as? String } == [pair + "/as1border1-med.set", pair + "/as1border2-med.set"])
    #expect(findings.allSatisfy { $0["rule"] as? String == "redundant-pair-attribute-change" && $0["line"] as? Int == 1 })
    let sarif = run(args + ["-f", "sarif"])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(sarif.out.utf8)) as? [String: Any])
    let runs = try #require(root["runs"] as? [[String: Any]])
    let results = try #require(runs.first?["results"] as? [[String: Any]])
    #expect(results.count == 2)
    #expect(results.allSatisfy { $0["ruleId"] as? String == "redundant-pair-attribute-change" && $0["level"] as? String == "error" })
    let junit = run(args + ["-f", "junit"])
    #expect(junit.out.contains("<testsuite name=\"\(pair)/as1border1-med.set\""))
    #expect(junit.out.contains("<testsuite name=\"\(pair)/as1border2-med.set\""))
  }

  @Test func baselinesMustMatchTheFilesThatAreNotPlans() throws {
    let one = run(["lint", pair + "/as1border1-med.set", "--baseline", pair + "/as1border1.set", pair + "/as1border2-med.set"])
    #expect(one.status == 64)
    #expect(one.err.contains("1 --baseline for 2 files that are not a plan"))
    // A plan takes none: one --baseline for the one change.
    let mixed = run(["lint", pair + "/med-as1border1.plan", pair + "/as1border2-med.set", "--baseline", pair + "/as1border2.set"])
    #expect(mixed.status == 1, "\(mixed.out)\(mixed.err)")
    #expect(mixed.out.contains("\(pair)/as1border2-med.set:1:1: error: [redundant-pair-attribute-change]"))
    // A file that cannot be parsed is exit 2, and the other file is still reported.
    let broken = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-pair-\(UUID().uuidString).conf").path
    try "system {\n    host-name r1\n".write(toFile: broken, atomically: true, encoding: .utf8)
    let r = run(["lint", broken, pair + "/ix-port.plan"])
    #expect(r.status == 2)
    #expect(r.out.contains("\(broken):2:17: input error:"))
    #expect(r.out.contains("[link-up-before-sessions]"))
  }
}

import JunosChecklist
import JunosConfig
import Testing

@testable import Reports

@Suite struct SARIFTests {
  /// Files under the working directory (absolute and relative, one with a space), outside it
  /// (absolute, and relative with `..`).
  let report = LintReport(
    findings: [
      Finding(
        rule: .bgpMissingPrefixLimit, message: "BGP group EXT has no prefix limit.", hint: "Add a prefix limit.",
        location: FindingLocation(file: "/work/repo/configs/cr1.conf", line: 0, column: 0), path: "protocols bgp group EXT"),
      Finding(
        rule: .coreLinkWithoutBFD, message: "IS-IS interface et-0/0/0.0 has no BFD.", hint: "Add BFD.",
        location: FindingLocation(file: "/work/repo/configs/cr1.conf", line: 40, column: 5), path: "protocols isis interface et-0/0/0.0"),
      Finding(
        rule: .clientLinksBeforeCoreLinks, message: "Client link ae1 goes live before any core link.", hint: "Patch core links first.",
        location: FindingLocation(file: "plans/my swap.plan", line: 12, column: 1), step: "dc", path: "interfaces ae1"),
      Finding(
        rule: .stepWithoutVerification, message: "Step dc changes forwarding without a verification.", hint: "",
        location: FindingLocation(file: "plans/my swap.plan", line: 30, column: 0), step: "dc"),
      Finding(
        rule: .emptyConfirmingCommit, severity: .error, message: "Empty confirming commit.", hint: "Use commit check.",
        location: FindingLocation(file: "/etc/junos/other.conf", line: 3, column: 2)),
    ],
    files: ["/work/repo/configs/cr1.conf", "plans/my swap.plan", "/etc/junos/other.conf", "../outside.conf"], toolVersion: "0.9.0")

  @Test func topLevelAndDriver() throws {
    let root = try parseJSON(ReportWriter.sarif(report, workingDirectory: "/work/repo"))
    #expect(root["version"]?.string == "2.1.0")
    #expect(root["$schema"]?.string == "https://json.schemastore.org/sarif-2.1.0.json")
    #expect(root["runs"]?.array?.count == 1)
    let run = try #require(root["runs"]?[0])
    let driver = try #require(run["tool"]?["driver"])
    #expect(driver["name"]?.string == "junoscope")
    #expect(driver["version"]?.string == "0.9.0")
    #expect(driver["informationUri"]?.string == "https://github.com/junoscope/junoscope")
    #expect(run["invocations"] == .array([.object(["executionSuccessful": .bool(true)])]))
    #expect(run["columnKind"]?.string == "utf16CodeUnits")
    #expect(run["originalUriBaseIds"]?["%SRCROOT%"]?["uri"]?.string == "file:///work/repo/")
    let artifacts = try #require(run["artifacts"]?.array)
    #expect(
      artifacts.map { $0["location"]?["uri"]?.string } == [
        "configs/cr1.conf", "plans/my%20swap.plan", "file:///etc/junos/other.conf", "file:///work/outside.conf",
      ])
    #expect(artifacts.map { $0["location"]?["uriBaseId"]?.string } == ["%SRCROOT%", "%SRCROOT%", nil, nil])
  }

  @Test func everyRuleIsDescribedInCatalogueOrder() throws {
    let root = try parseJSON(ReportWriter.sarif(report, workingDirectory: "/work/repo"))
    let rules = try #require(root["runs"]?[0]?["tool"]?["driver"]?["rules"]?.array)
    #expect(rules.count == RuleID.allCases.count)
    #expect(rules.map { $0["id"]?.string } == RuleID.allCases.map(\.rawValue))
    for (rule, d) in zip(RuleID.allCases, rules) {
      #expect(d["shortDescription"]?["text"]?.string == rule.title)
      #expect(d["fullDescription"]?["text"]?.string?.hasPrefix(rule.title + ". Inspects: ") == true)
      #expect(d["help"]?["text"]?.string == rule.hint)
      #expect(d["help"]?["markdown"]?.string?.contains("Docs/Rules.md#\(rule.rawValue))") == true)
      #expect(d["helpUri"]?.string == "https://github.com/junoscope/junoscope/blob/main/Docs/Rules.md#\(rule.rawValue)")
      let level = d["defaultConfiguration"]?["level"]?.string
      #expect(level == ["error": "error", "warning": "warning", "info": "note"][rule.defaultSeverity.rawValue])
      #expect(d["properties"]?["tags"]?[0]?.string == "outage-checklist")
    }
    let client = rules[RuleID.clientLinksBeforeCoreLinks.number - 1]
    #expect(client["name"]?.string == "ClientLinksBeforeCoreLinks")
    #expect(
      client["fullDescription"]?["text"]?.string
        == "Client-facing links go live before the node has verified core reachability. Inspects: plan. Default severity: error.")
    #expect(client["properties"]?["tags"] == .array([.string("outage-checklist"), .string("plan")]))
    let empty = rules[RuleID.emptyConfirmingCommit.number - 1]
    #expect(empty["fullDescription"]?["text"]?.string?.hasSuffix("Inspects: commit history, plan. Default severity: info.") == true)
    #expect(empty["defaultConfiguration"]?["level"]?.string == "note")
    #expect(
      empty["help"]?["markdown"]?.string
        == "Confirm a `commit confirmed` with `commit check`, which does not add a rollback.\n\n"
        + "See [Docs/Rules.md#empty-confirming-commit](https://github.com/junoscope/junoscope/blob/main/Docs/Rules.md#empty-confirming-commit)."
    )
  }

  @Test func resultsPointAtTheirRulesAndFiles() throws {
    let root = try parseJSON(ReportWriter.sarif(report, workingDirectory: "/work/repo/"))
    let run = try #require(root["runs"]?[0])
    let rules = try #require(run["tool"]?["driver"]?["rules"]?.array)
    let results = try #require(run["results"]?.array)
    #expect(results.count == 5)
    for r in results {
      let index = try #require(r["ruleIndex"]?.number.flatMap { Int(exactly: $0) })
      #expect(rules[index]["id"]?.string == r["ruleId"]?.string)
      #expect(r["locations"]?.array?.count == 1)
      #expect(r["locations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"]?.string != nil)
    }
    #expect(results.map { $0["ruleId"]?.string } == report.findings.map(\.rule.rawValue))
    #expect(results.map { $0["level"]?.string } == ["error", "warning", "note", "error", "warning"])
    func physical(_ k: Int) -> MiniJSON.Value? { results[k]["locations"]?[0]?["physicalLocation"] }
    #expect(physical(0)?["artifactLocation"] == .object(["uri": .string("file:///etc/junos/other.conf"), "index": .number(2)]))
    #expect(physical(0)?["region"] == .object(["startLine": .number(3), "startColumn": .number(2)]))
    #expect(
      physical(1)?["artifactLocation"]
        == .object(["uri": .string("configs/cr1.conf"), "uriBaseId": .string("%SRCROOT%"), "index": .number(0)]))
    #expect(physical(1)?["region"] == nil)  // line 0: the file as a whole
    #expect(physical(2)?["region"] == .object(["startLine": .number(40), "startColumn": .number(5)]))
    #expect(physical(3)?["artifactLocation"]?["uri"]?.string == "plans/my%20swap.plan")
    #expect(physical(3)?["region"] == .object(["startLine": .number(12), "startColumn": .number(1)]))
    #expect(physical(4)?["region"] == .object(["startLine": .number(30), "startColumn": .number(1)]))  // column 0 -> 1

    #expect(results[3]["message"]?["text"]?.string == "Client link ae1 goes live before any core link. Fix: Patch core links first.")
    #expect(results[4]["message"]?["text"]?.string == "Step dc changes forwarding without a verification.")
    #expect(results[3]["locations"]?[0]?["logicalLocations"] == .array([.object(["fullyQualifiedName": .string("interfaces ae1")])]))
    #expect(results[4]["locations"]?[0]?["logicalLocations"] == nil)
    #expect(results[3]["properties"]?["step"]?.string == "dc")
    #expect(results[0]["properties"] == nil)
    #expect(results[3]["partialFingerprints"]?["junoscope/v1"]?.string == "e14388d10a17e7b5")
  }

  @Test func fingerprintsIgnoreLinesButNotMessages() {
    let a = Finding(rule: .policyDetached, message: "m", location: FindingLocation(file: "f", line: 1, column: 1), path: "p")
    var b = a
    b.location.line = 99
    var c = a
    c.message = "n"
    #expect(ReportWriter.fingerprint(a, uri: "f") == ReportWriter.fingerprint(b, uri: "f"))
    #expect(ReportWriter.fingerprint(a, uri: "f") != ReportWriter.fingerprint(c, uri: "f"))
    let d = Finding(rule: .policyDetached, message: "", location: FindingLocation(file: "", line: 0, column: 0))
    #expect(ReportWriter.fingerprint(d, uri: "").count == 16)
  }

  @Test func uris() {
    let base = URIBase("/work/repo")
    #expect(base.uri("./a/./b/../c.conf") == ("a/c.conf", true))
    #expect(base.uri("/work/repo//x/ü#1?.conf") == ("x/%C3%BC%231%3F.conf", true))
    #expect(base.uri("/work/repository/a") == ("file:///work/repository/a", false))
    #expect(base.uri("../../../../etc/x") == ("file:///etc/x", false))
    #expect(base.uri("/work/repo") == ("file:///work/repo", false))
    #expect(URIBase("/").uri("/etc/x") == ("etc/x", true))
    #expect(URIBase("/").rootURI == "file:///")
    #expect(URIBase("/a b/").rootURI == "file:///a%20b/")
    #expect(URIBase("").uri("../x") == ("../x", true))
    #expect(URIBase("").rootURI == nil)
    #expect(ReportWriter.upperCamel("ldp-igp-sync-missing") == "LdpIgpSyncMissing")
  }

  @Test func unreadableInputsAreFailedNotificationsAndSkippedOnesNotes() throws {
    let r = LintReport(
      findings: [], files: ["r/cr1.conf", "r/dhcpd.conf", "r/London"], toolVersion: "1",
      failures: [InputProblem(file: "r/dhcpd.conf", line: 17, column: 1, message: "5 errors; the first: unknown statement 'x'")],
      skipped: [InputProblem(file: "r/London", message: "a binary file")])
    let root = try parseJSON(ReportWriter.sarif(r, workingDirectory: "/w"))
    let invocation = try #require(root["runs"]?[0]?["invocations"]?[0])
    #expect(invocation["executionSuccessful"] == .bool(false))
    #expect(
      invocation["toolExecutionNotifications"]
        == .array([
          .object([
            "level": .string("error"), "message": .object(["text": .string("5 errors; the first: unknown statement 'x'")]),
            "locations": .array([
              .object([
                "physicalLocation": .object([
                  "artifactLocation": .object(["uri": .string("r/dhcpd.conf"), "uriBaseId": .string("%SRCROOT%"), "index": .number(1)]),
                  "region": .object(["startLine": .number(17), "startColumn": .number(1)]),
                ])
              ])
            ]),
            "descriptor": .object(["id": .string("input-error")]),
          ]),
          .object([
            "level": .string("note"), "message": .object(["text": .string("a binary file")]),
            "locations": .array([
              .object([
                "physicalLocation": .object([
                  "artifactLocation": .object(["uri": .string("r/London"), "uriBaseId": .string("%SRCROOT%"), "index": .number(2)])
                ])
              ])
            ]),
            "descriptor": .object(["id": .string("skipped-input")]),
          ]),
        ]))
    // Only skipped inputs: the run succeeded.
    let skippedOnly = LintReport(findings: [], files: ["a"], toolVersion: "1", skipped: [InputProblem(file: "a", message: "empty")])
    #expect(
      try parseJSON(ReportWriter.sarif(skippedOnly, workingDirectory: "/w"))["runs"]?[0]?["invocations"]?[0]?["executionSuccessful"]
        == .bool(true))
  }

  @Test func noResultsStillAValidRun() throws {
    let root = try parseJSON(ReportWriter.sarif(LintReport(findings: [], files: [], toolVersion: "1"), workingDirectory: "/w"))
    #expect(root["runs"]?[0]?["results"] == .array([]))
    #expect(root["runs"]?[0]?["artifacts"] == .array([]))
  }
}

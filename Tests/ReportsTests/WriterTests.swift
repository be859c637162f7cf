import JunosChecklist
import JunosConfig
import Testing

@testable import Reports

@Suite struct WriterTests {
  @Test func reportFormatsAreTheFourTheCLIOffers() {
    #expect(ReportFormat.allCases.map(\.rawValue) == ["text", "json", "sarif", "junit"])
  }

  @Test func initSortsFindingsAndCountsEverySeverity() {
    #expect(
      sample.findings.map(\.rule) == [.bgpMissingPrefixLimit, .coreLinkWithoutBFD, .clientLinksBeforeCoreLinks, .stepWithoutVerification])
    #expect(sample.summary == [.error: 1, .warning: 2, .info: 1])
    #expect(LintReport(findings: [], files: [], toolVersion: "1").summary == [.error: 0, .warning: 0, .info: 0])
  }

  @Test func textIsOneRenderedLinePerFindingMostSevereFirstThenTheRulesThenTheSummary() {
    #expect(
      ReportWriter.text(sample) == """
        plans/swap.plan:12:1: error: [client-links-before-core-links] Client link ae1 goes live before any core link. (step dc)
        configs/cr1.conf:0:0: warning: [bgp-missing-prefix-limit] BGP group EXT has no prefix limit.
        plans/swap.plan:30:0: warning: [step-without-verification] Step dc changes forwarding without a verification. (step dc)
        configs/cr1.conf:40:5: info: [core-link-without-bfd] IS-IS interface et-0/0/0.0 has no BFD.

        findings by rule:
            1  error    client-links-before-core-links
            1  warning  bgp-missing-prefix-limit
            1  warning  step-without-verification
            1  info     core-link-without-bfd
        1 error, 2 warnings, 1 info in 3 files

        """)
    #expect(ReportWriter.text(LintReport(findings: [], files: ["a"], toolVersion: "1")) == "0 errors, 0 warnings, 0 infos in 1 file\n")
    let failed = LintReport(
      findings: [], files: ["a", "b", "c"], toolVersion: "1",
      failures: [InputProblem(file: "a", line: 2, column: 17, message: "missing ';'")],
      skipped: [InputProblem(file: "c", message: "a binary file")])
    #expect(
      ReportWriter.text(failed) == """
        a:2:17: input error: missing ';'
        c: skipped: a binary file
        0 errors, 0 warnings, 0 infos in 3 files; 1 could not be read; 1 skipped

        """)
  }

  @Test func styledTextPaintsSeveritiesAndWrapsUnderTheLocation() {
    let r = LintReport(findings: [sampleFindings[1]], files: ["plans/swap.plan"], toolVersion: "1")
    let painted = ReportWriter.text(r, style: TextStyle(color: true))
    #expect(painted.hasPrefix("plans/swap.plan:12:1: \u{1B}[1;31merror:\u{1B}[0m [client-links-before-core-links] Client"))
    #expect(painted.contains("\n    1  \u{1B}[1;31merror\u{1B}[0m  client-links-before-core-links\n"))
    #expect(TextStyle.stripped(painted) == ReportWriter.text(r))
    #expect(
      ReportWriter.text(r, style: TextStyle(width: 50)).hasPrefix(
        """
        plans/swap.plan:12:1: error:
            [client-links-before-core-links] Client link
            ae1 goes live before any core link. (step dc)

        """))
  }

  @Test func jsonIsByteExact() {
    let r = LintReport(
      findings: [sampleFindings[1], sampleFindings[3]], files: ["configs/cr1.conf", "plans/swap.plan"], toolVersion: "0.9.0")
    #expect(
      ReportWriter.json(r) == """
        {
          "format": "junoscope.lint",
          "version": 1,
          "findings": [
            {
              "rule": "bgp-missing-prefix-limit",
              "severity": "warning",
              "message": "BGP group EXT has no prefix limit.",
              "hint": "Add a prefix limit.",
              "file": "configs/cr1.conf",
              "line": 0,
              "column": 0,
              "step": null,
              "path": "protocols bgp group EXT"
            },
            {
              "rule": "client-links-before-core-links",
              "severity": "error",
              "message": "Client link ae1 goes live before any core link.",
              "hint": "Patch core links first.",
              "file": "plans/swap.plan",
              "line": 12,
              "column": 1,
              "step": "dc",
              "path": "interfaces ae1"
            }
          ],
          "failures": [],
          "skipped": [],
          "summary": {
            "error": 1,
            "warning": 1,
            "info": 0,
            "failures": 0,
            "skipped": 0
          },
          "files": [
            "configs/cr1.conf",
            "plans/swap.plan"
          ],
          "tool": {
            "name": "junoscope",
            "version": "0.9.0"
          }
        }

        """)
  }

  @Test func emptyJSONReport() {
    #expect(
      ReportWriter.json(LintReport(findings: [], files: [], toolVersion: "")) == """
        {
          "format": "junoscope.lint",
          "version": 1,
          "findings": [],
          "failures": [],
          "skipped": [],
          "summary": {
            "error": 0,
            "warning": 0,
            "info": 0,
            "failures": 0,
            "skipped": 0
          },
          "files": [],
          "tool": {
            "name": "junoscope",
            "version": ""
          }
        }

        """)
  }

  @Test func jsonEscapesQuotesBackslashesAndControlsAndKeepsUTF8() throws {
    let message = "say \"hi\" \\ path\nnext\tcol\u{1}\u{1F} café 🚀"
    let f = Finding(
      rule: .guardTermRemoved, message: message, hint: "h\r", location: FindingLocation(file: "dir/ü \"x\".conf", line: 1, column: 1))
    let text = ReportWriter.json(LintReport(findings: [f], files: ["dir/ü \"x\".conf"], toolVersion: "1"))
    #expect(text.contains(#"      "message": "say \"hi\" \\ path\nnext\tcol\u0001\u001f café 🚀","#))
    #expect(text.contains(#"      "hint": "h\r","#))
    #expect(text.contains(#"    "dir/ü \"x\".conf""#))
    #expect(!text.utf8.contains { $0 < 0x20 && $0 != 0x0A })
    let parsed = try parseJSON(text)
    #expect(parsed["findings"]?[0]?["message"]?.string == message)
    #expect(parsed["files"]?[0]?.string == "dir/ü \"x\".conf")
  }

  @Test func renderPicksTheFormat() {
    #expect(ReportWriter.render(sample, as: .text, workingDirectory: "/w") == ReportWriter.text(sample))
    #expect(ReportWriter.render(sample, as: .json, workingDirectory: "/w") == ReportWriter.json(sample))
    #expect(ReportWriter.render(sample, as: .sarif, workingDirectory: "/w") == ReportWriter.sarif(sample, workingDirectory: "/w"))
    #expect(ReportWriter.render(sample, as: .junit, workingDirectory: "/w") == ReportWriter.junit(sample))
  }

  @Test func miniJSONReportsTheOffsetAndRefusesUnknownEscapes() {
    #expect(throws: MiniJSON.Failure(offset: 14)) { try MiniJSON.parse(Array(#"{"findings": [}"#.utf8)) }
    #expect(throws: MiniJSON.Failure(offset: 2)) { try MiniJSON.parse(Array(#""\x""#.utf8)) }
    #expect(throws: MiniJSON.Failure(offset: 4)) { try MiniJSON.parse(Array("[1] x".utf8)) }
    #expect((try? MiniJSON.parse(Array(#"["\/\"\\"]"#.utf8))) == .array([.string("/\"\\")]))
  }
}

import JunosChecklist
import Testing

@testable import Reports

@Suite struct MergeTests {
  @Test func oneReportRoundTripsByteForByte() throws {
    let text = ReportWriter.json(sample)
    let merged = try ReportMerge.merge([(name: "all.json", text: text)])
    #expect(merged == sample)
    #expect(ReportWriter.json(merged) == text)
  }

  @Test func escapedTextRoundTrips() throws {
    let f = Finding(
      rule: .policyDetached, message: "q\"b\\n\nt\t\u{1}é🚀", hint: "", location: FindingLocation(file: "ü x.conf", line: 3, column: 9),
      step: "s \"1\"", path: "policy-options policy-statement \"A B\"")
    let r = LintReport(findings: [f], files: ["ü x.conf"], toolVersion: "1.0-dev")
    let text = ReportWriter.json(r)
    #expect(try ReportWriter.json(ReportMerge.merge([(name: "r", text: text)])) == text)
  }

  @Test func shardsMergeToTheReportOfAllFindings() throws {
    let shard1 = LintReport(findings: [sampleFindings[0], sampleFindings[1]], files: ["plans/swap.plan"], toolVersion: "0.9.0")
    let shard2 = LintReport(
      findings: [sampleFindings[2], sampleFindings[3]], files: ["configs/cr1.conf", "configs/clean.conf"], toolVersion: "0.9.0")
    let merged = try ReportMerge.merge([
      (name: "s1.json", text: ReportWriter.json(shard1)), (name: "s2.json", text: ReportWriter.json(shard2)),
    ])
    #expect(merged.findings == sample.findings)
    #expect(merged.files == ["plans/swap.plan", "configs/cr1.conf", "configs/clean.conf"])
    #expect(merged.summary == sample.summary)
    let reordered = LintReport(findings: sampleFindings, files: merged.files, toolVersion: "0.9.0")
    #expect(ReportWriter.json(merged) == ReportWriter.json(reordered))
  }

  @Test func overlappingShardsDoNotRepeatFindings() throws {
    let a = LintReport(findings: [sampleFindings[2], sampleFindings[2]], files: ["configs/cr1.conf"], toolVersion: "1")
    let b = LintReport(findings: [sampleFindings[2], sampleFindings[3]], files: ["configs/cr1.conf", "x"], toolVersion: "2")
    let merged = try ReportMerge.merge([(name: "a", text: ReportWriter.json(a)), (name: "b", text: ReportWriter.json(b))])
    #expect(merged.findings == [sampleFindings[3], sampleFindings[2], sampleFindings[2]])
    #expect(merged.files == ["configs/cr1.conf", "x"])
    #expect(merged.toolVersion == "1")
    #expect(try ReportMerge.merge([]) == LintReport(findings: [], files: [], toolVersion: ""))
  }

  /// A one-finding report with `field` of the finding replaced by `value` (JSON text), or removed.
  private func report(_ field: String, _ value: String?, problems: String = #""failures": [], "skipped": []"#) -> String {
    var members = [
      ("rule", "\"policy-detached\""), ("severity", "\"error\""), ("message", "\"m\""), ("hint", "\"h\""), ("file", "\"f\""),
      ("line", "1"), ("column", "2"), ("step", "null"), ("path", "\"p\""),
    ]
    if let i = members.firstIndex(where: { $0.0 == field }) {
      if let value { members[i].1 = value } else { members.remove(at: i) }
    }
    let finding = members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
    return
      "{\"format\": \"junoscope.lint\", \"version\": 1, \"findings\": [{\(finding)}], \(problems), \"files\": [\"f\"], \"tool\": {\"name\": \"junoscope\", \"version\": \"1\"}}"
  }

  @Test func failuresAndSkippedInputsSurviveTheMerge() throws {
    let failure = #"{"file": "r/dhcpd.conf", "line": 17, "column": 1, "message": "5 errors"}"#
    let skip = #"{"file": "r/London", "line": 0, "column": 0, "message": "a binary file"}"#
    let one = report("line", "1", problems: "\"failures\": [\(failure)], \"skipped\": [\(skip)]")
    let two = report("line", "1", problems: "\"failures\": [\(failure)], \"skipped\": []")
    let r = try ReportMerge.merge([(name: "1.json", text: report("line", "1")), (name: "2.json", text: one), (name: "3.json", text: two)])
    #expect(r.failures == [InputProblem(file: "r/dhcpd.conf", line: 17, column: 1, message: "5 errors")])
    #expect(r.skipped == [InputProblem(file: "r/London", message: "a binary file")])
    func error(_ problems: String) -> ReportMergeError? {
      do {
        _ = try ReportMerge.merge([(name: "s.json", text: report("line", "1", problems: problems))])
        return nil
      } catch {
        return error
      }
    }
    // A shard report without its failures cannot be merged: the merged report would hide them.
    #expect(error(#""skipped": []"#) == .missingField(report: "s.json", field: "failures"))
    #expect(error(#""failures": [], "x": 1"#) == .missingField(report: "s.json", field: "skipped"))
    #expect(
      error(#""failures": [{"file": "f", "line": -1, "column": 0, "message": "m"}], "skipped": []"#)
        == .invalidField(report: "s.json", field: "failures[0].line", expected: "a non-negative integer"))
    #expect(
      error(#""failures": [], "skipped": [{"file": "f", "line": 0, "column": 0}]"#)
        == .missingField(report: "s.json", field: "skipped[0].message"))
  }

  @Test func aMinimalHandWrittenReportIsRead() throws {
    let r = try ReportMerge.merge([(name: "r", text: report("step", "\"s\""))])
    #expect(
      r.findings == [
        Finding(
          rule: .policyDetached, message: "m", hint: "h", location: FindingLocation(file: "f", line: 1, column: 2), step: "s", path: "p")
      ])
  }

  @Test func errorsNameTheReportAndTheField() {
    func error(_ text: String) -> ReportMergeError? {
      do {
        _ = try ReportMerge.merge([(name: "ok.json", text: report("line", "1")), (name: "shard-2.json", text: text)])
        return nil
      } catch {
        return error
      }
    }
    #expect(error(#"{"findings": [}"#) == .badJSON(report: "shard-2.json", offset: 14))
    #expect(error("") == .badJSON(report: "shard-2.json", offset: 0))
    #expect(error("[]") == .invalidField(report: "shard-2.json", field: "report", expected: "an object"))
    #expect(
      error(#"{"findings": [], "files": [], "tool": {"name": "junoscope", "version": "1"}}"#)
        == .missingField(report: "shard-2.json", field: "format"))
    #expect(
      error(#"{"format": "junoscope.review", "version": 1}"#)
        == .invalidField(report: "shard-2.json", field: "format", expected: "\"junoscope.lint\""))
    #expect(
      error(#"{"format": "junoscope.lint", "version": 2}"#) == .invalidField(report: "shard-2.json", field: "version", expected: "1"))
    #expect(
      error(#"{"format": "junoscope.lint", "version": 1, "findings": [], "files": []}"#)
        == .missingField(report: "shard-2.json", field: "tool"))
    #expect(
      error(#"{"format": "junoscope.lint", "version": 1, "files": [], "tool": {"name": "junoscope", "version": "1"}}"#)
        == .missingField(report: "shard-2.json", field: "findings"))
    #expect(
      error(#"{"format": "junoscope.lint", "version": 1, "findings": [], "files": [], "tool": {"name": "eslint", "version": "1"}}"#)
        == .invalidField(report: "shard-2.json", field: "tool.name", expected: "\"junoscope\""))
    #expect(
      error(#"{"format": "junoscope.lint", "version": 1, "findings": [], "files": [3], "tool": {"name": "junoscope", "version": "1"}}"#)
        == .invalidField(report: "shard-2.json", field: "files[0]", expected: "a string"))
    #expect(error(report("line", nil)) == .missingField(report: "shard-2.json", field: "findings[0].line"))
    #expect(error(report("step", nil)) == .missingField(report: "shard-2.json", field: "findings[0].step"))
    #expect(
      error(report("rule", "\"no-such-rule\"")) == .unknownRule(report: "shard-2.json", field: "findings[0].rule", id: "no-such-rule"))
    #expect(
      error(report("severity", "\"fatal\"")) == .unknownSeverity(report: "shard-2.json", field: "findings[0].severity", severity: "fatal"))
    #expect(
      error(report("line", "1.5")) == .invalidField(report: "shard-2.json", field: "findings[0].line", expected: "a non-negative integer"))
    #expect(
      error(report("column", "-1"))
        == .invalidField(report: "shard-2.json", field: "findings[0].column", expected: "a non-negative integer"))
    #expect(error(report("column", "1e300")) != nil)
    #expect(error(report("step", "3")) == .invalidField(report: "shard-2.json", field: "findings[0].step", expected: "a string or null"))
    #expect(error(report("message", "null")) == .invalidField(report: "shard-2.json", field: "findings[0].message", expected: "a string"))
  }

  @Test func errorMessages() {
    #expect(
      ReportMergeError.badJSON(report: "s.json", offset: 14).description
        == "s.json: not a junoscope JSON report: bad JSON at byte offset 14")
    #expect(
      ReportMergeError.missingField(report: "s.json", field: "findings[0].line").description == "s.json: missing field 'findings[0].line'")
    #expect(
      ReportMergeError.unknownRule(report: "s.json", field: "findings[1].rule", id: "x").description
        == "s.json: unknown rule id 'x' in 'findings[1].rule'")
    #expect(
      ReportMergeError.unknownSeverity(report: "s.json", field: "findings[0].severity", severity: "fatal").description
        == "s.json: unknown severity 'fatal' in 'findings[0].severity' (expected error, warning or info)")
    #expect(
      ReportMergeError.invalidField(report: "s.json", field: "tool", expected: "an object").description
        == "s.json: field 'tool' must be an object")
  }
}

import JunosChecklist
import Testing

@testable import Reports

@Suite struct JUnitTests {
  @Test func everyRuleIsATestCaseForEveryFile() {
    let xml = ReportWriter.junit(sample)
    let rules = RuleID.allCases.count
    #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"))
    #expect(xml.contains("<testsuites name=\"junoscope\" tests=\"\(3 * rules)\" failures=\"4\" errors=\"0\" skipped=\"0\">\n"))
    #expect(occurrences(of: "<testsuite ", in: xml) == 3)
    #expect(occurrences(of: "<testcase ", in: xml) == 3 * rules)
    #expect(occurrences(of: "<failure ", in: xml) == 4)
    #expect(xml.hasSuffix("</testsuites>\n"))
    #expect(xml.contains("  <testsuite name=\"configs/cr1.conf\" tests=\"\(rules)\" failures=\"2\" errors=\"0\" skipped=\"0\">\n"))
    #expect(xml.contains("  <testsuite name=\"configs/clean.conf\" tests=\"\(rules)\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"))
    #expect(xml.contains("    <testcase classname=\"configs/clean.conf\" name=\"bgp-missing-prefix-limit\"/>\n"))
    #expect(
      xml.contains(
        """
            <testcase classname="plans/swap.plan" name="client-links-before-core-links">
              <failure message="Client link ae1 goes live before any core link." type="error">\
        plans/swap.plan:12:1: error: [client-links-before-core-links] Client link ae1 goes live before any core link. (step dc)\
        </failure>
            </testcase>

        """))
  }

  @Test func severalFindingsOfOneRuleAreOneFailure() {
    let fs = [
      Finding(rule: .policyDetached, severity: .warning, message: "first", location: FindingLocation(file: "a", line: 1, column: 1)),
      Finding(rule: .policyDetached, message: "second", location: FindingLocation(file: "a", line: 2, column: 1)),
      Finding(rule: .guardTermRemoved, message: "elsewhere", location: FindingLocation(file: "b", line: 2, column: 1)),
    ]
    let xml = ReportWriter.junit(LintReport(findings: fs, files: ["a"], toolVersion: "1"))
    // "b" is not an input but a finding points at it: it gets a suite too.
    #expect(
      xml.contains("<testsuites name=\"junoscope\" tests=\"\(2 * RuleID.allCases.count)\" failures=\"2\" errors=\"0\" skipped=\"0\">"))
    #expect(
      xml.contains(
        """
              <failure message="first (and 1 more)" type="error">a:1:1: warning: [policy-detached] first
        a:2:1: error: [policy-detached] second</failure>

        """))
    #expect(xml.contains("<testsuite name=\"b\" tests=\"\(RuleID.allCases.count)\" failures=\"1\""))
  }

  @Test func escapesMarkupAndDropsControls() {
    let f = Finding(
      rule: .matchAllAcceptTerm, message: "term \"a&b\" <accepts>\u{1}\tall\nx 'q' é",
      location: FindingLocation(file: "r&d <1>.conf", line: 1, column: 1))
    let xml = ReportWriter.junit(LintReport(findings: [f], files: ["r&d <1>.conf"], toolVersion: "1"))
    #expect(xml.contains("<testsuite name=\"r&amp;d &lt;1&gt;.conf\""))
    #expect(xml.contains("<testcase classname=\"r&amp;d &lt;1&gt;.conf\" name=\"match-all-accept-term\">"))
    #expect(
      xml.contains(
        "<failure message=\"term &quot;a&amp;b&quot; &lt;accepts&gt;&#9;all&#10;x &apos;q&apos; é\" type=\"warning\">"
          + "r&amp;d &lt;1&gt;.conf:1:1: warning: [match-all-accept-term] term &quot;a&amp;b&quot; &lt;accepts&gt;\tall\nx &apos;q&apos; é</failure>"
      ))
    #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    #expect(XML.escape("a\rb\u{FFFE}\u{1F}c", attribute: false) == "a&#13;bc")
  }

  @Test func anUnreadableFileIsOneErrorAndASkippedFileOneSkip() {
    let r = LintReport(
      findings: [], files: ["r/cr1.conf", "r/dhcpd.conf", "r/London"], toolVersion: "1",
      failures: [InputProblem(file: "r/dhcpd.conf", line: 17, column: 1, message: "5 errors; the first: unknown statement 'x'")],
      skipped: [InputProblem(file: "r/London", message: "a binary file")])
    let xml = ReportWriter.junit(r)
    let rules = RuleID.allCases.count
    #expect(xml.contains("<testsuites name=\"junoscope\" tests=\"\(rules + 2)\" failures=\"0\" errors=\"1\" skipped=\"1\">\n"))
    // No rule ran on the failed or the skipped file: none of them is listed as passing there.
    #expect(!xml.contains("<testcase classname=\"r/dhcpd.conf\" name=\"bgp"))
    #expect(occurrences(of: "<testcase ", in: xml) == rules + 2)
    #expect(
      xml.contains(
        """
          <testsuite name="r/dhcpd.conf" tests="1" failures="0" errors="1" skipped="0">
            <testcase classname="r/dhcpd.conf" name="read">
              <error message="5 errors; the first: unknown statement &apos;x&apos;" type="input-error">\
        r/dhcpd.conf:17:1: input error: 5 errors; the first: unknown statement &apos;x&apos;</error>
            </testcase>
          </testsuite>
          <testsuite name="r/London" tests="1" failures="0" errors="0" skipped="1">
            <testcase classname="r/London" name="read">
              <skipped message="a binary file"/>
            </testcase>
          </testsuite>

        """))
  }

  @Test func noFilesNoSuites() {
    #expect(
      ReportWriter.junit(LintReport(findings: [], files: [], toolVersion: "1"))
        == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"junoscope\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n</testsuites>\n"
    )
  }
}

import JunosChecklist
import JunosConfig
import Testing

/// Rules 15 and 17 on compare texts in the shape of the Cloudflare 2020 and 2022 incidents,
/// against baselines of their own (Fixtures/checklist/incidents).
@Suite struct IncidentDiffTests {
  func lint(_ compare: String, over base: String) throws -> LintResult {
    let r = Checklist.lint(
      changes: try ChecklistFixtures.source("checklist/incidents/\(compare)"),
      baseline: try ChecklistFixtures.source("checklist/incidents/\(base)"))
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    return r
  }

  @Test func aDeactivatedPrefixListIsCaughtAtItsBangLine() throws {
    let r = try lint("bb-2020-prefix-list-deactivated.compare", over: "bb-router.conf")
    let f = r.findings.filter { $0.rule == .termMatchConditionsRemoved }
    #expect(f.count == 1)
    #expect(f.first?.severity == .error)
    #expect(f.first?.location == FindingLocation(file: "checklist/incidents/bb-2020-prefix-list-deactivated.compare", line: 2, column: 1))
    #expect(f.first?.message.contains("policy BB-OUT term SITE-LOCAL lost its match conditions (prefix-list)") == true)
  }

  @Test func deactivatingTheWholeTermIsQuiet() throws {
    let r = try lint("bb-2020-term-deactivated.compare", over: "bb-router.conf")
    #expect(!r.findings.contains { $0.rule == .termMatchConditionsRemoved || $0.rule == .guardTermRemoved })
  }

  @Test func aTermMovedBehindTheRejectIsAnError() throws {
    let r = try lint("spine-2022-terms-moved.compare", over: "spine.conf")
    let f = r.findings.filter { $0.rule == .policyTermReordered }
    #expect(f.map(\.severity) == [.error])
    #expect(f.first?.message.contains("term 4-ADV-SITE-LOCALS now comes after term REJECT-THE-REST") == true)
    #expect(f.first?.path == "policy-options policy-statement AGGREGATES-OUT term 4-ADV-SITE-LOCALS")
  }

  @Test func theCommunityOnlyChangeIsQuiet() throws {
    let r = try lint("spine-2022-community-only.compare", over: "spine.conf")
    #expect(r.findings.map(\.rendered) == [])
  }

  /// The same changes as set commands give the same findings as their compare texts.
  @Test func setCommandsAndCompareTextsAgree() throws {
    let base = try ChecklistFixtures.source("checklist/incidents/spine.conf")
    let moved = Checklist.lint(
      changes: SourceFile(
        path: "moved.set",
        text: "insert policy-options policy-statement AGGREGATES-OUT term 4-ADV-SITE-LOCALS after term REJECT-THE-REST\n"),
      baseline: base)
    #expect(moved.findings.map(\.rule) == [.policyTermReordered])
    let compare = try lint("spine-2022-terms-moved.compare", over: "spine.conf")
    #expect(moved.findings.map(\.message) == compare.findings.map(\.message))
  }
}

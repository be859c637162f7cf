import Foundation
import JunosChecklist
import Testing

@Suite struct RuleCatalogTests {
  @Test func theCatalogueHasItsThirtySixRulesInOrder() {
    #expect(RuleID.allCases.count == 36)
    #expect(RuleID.unconditionalAggregateExported.number == 1)
    #expect(RuleID.policyTermReordered.number == 17)
    #expect(RuleID.flowspecRouteOverbroad.number == 28)
    #expect(RuleID.groupChangeReach.number == 29)
    #expect(RuleID.igpExportWidened.number == 32)
    #expect(RuleID.redundantPairAttributeChange.number == 33)
    #expect(RuleID.linkUpBeforeSessions.number == 34)
    #expect(RuleID.reFilterCutsProtocol.number == 35)
    #expect(RuleID.suppressionWithoutReason.number == 36)
    #expect(Set(RuleID.allCases.map(\.rawValue)).count == RuleID.allCases.count)
  }

  /// Docs/Rules.md has a row and a section for every rule, in the catalogue's order, and the
  /// README's count is the catalogue's.
  @Test func theDocsNameEveryRuleAndCountThem() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let rules = try String(contentsOf: root.appendingPathComponent("Docs/Rules.md"), encoding: .utf8)
    for rule in RuleID.allCases {
      #expect(rules.contains("| \(rule.number) | [`\(rule.rawValue)`](#\(rule.rawValue)) |"), "no table row for \(rule.rawValue)")
      #expect(rules.contains("<a id=\"\(rule.rawValue)\"></a>"), "no section for \(rule.rawValue)")
    }
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("(\(RuleID.allCases.count) rules, [Docs/Rules.md]"), "README's rule count")
  }

  @Test func severitiesFollowTheCatalogue() {
    #expect(RuleID.clientLinksBeforeCoreLinks.defaultSeverity == .error)
    #expect(RuleID.emptyConfirmingCommit.defaultSeverity == .info)
    #expect(RuleID.ldpIGPSyncMissing.defaultSeverity == .warning)
    #expect(Severity.info < Severity.warning && Severity.warning < Severity.error)
  }
}

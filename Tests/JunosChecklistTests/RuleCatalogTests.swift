import JunosChecklist
import Testing

@Suite struct RuleCatalogTests {
  @Test func theCatalogueHasTheTwentyEightRulesOfChecklistMdInOrder() {
    #expect(RuleID.allCases.count == 30)
    #expect(RuleID.unconditionalAggregateExported.number == 1)
    #expect(RuleID.policyTermReordered.number == 17)
    #expect(RuleID.flowspecRouteOverbroad.number == 28)
    #expect(RuleID.groupChangeReach.number == 29)
    #expect(Set(RuleID.allCases.map(\.rawValue)).count == RuleID.allCases.count)
  }

  @Test func severitiesFollowTheCatalogue() {
    #expect(RuleID.clientLinksBeforeCoreLinks.defaultSeverity == .error)
    #expect(RuleID.emptyConfirmingCommit.defaultSeverity == .info)
    #expect(RuleID.ldpIGPSyncMissing.defaultSeverity == .warning)
    #expect(Severity.info < Severity.warning && Severity.warning < Severity.error)
  }
}

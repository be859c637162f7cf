import Foundation
import JunosChecklist
import JunosConfig
import Testing

enum ChecklistFixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static func source(_ relative: String) throws -> SourceFile {
    SourceFile(path: relative, bytes: Array(try Data(contentsOf: root.appendingPathComponent(relative))))
  }

  /// Lints a plan under Fixtures/, reading its files beside it.
  static func lintPlan(_ relative: String, options: LintOptions = LintOptions()) throws -> LintResult {
    let folder = (relative as NSString).deletingLastPathComponent
    return Checklist.lint(plan: try source(relative), options: options) { try source(folder + "/" + $0) }
  }
}

/// The two example plans of CHECKLIST.md §4.2 and §4.3.
@Suite struct ExamplePlanTests {
  @Test func theBadSwapPlanGivesTheExpectedTable() throws {
    let r = try ChecklistFixtures.lintPlan("checklist/swap-cr1-dc1.plan")
    #expect(!r.hasErrors)
    // rule → severity, as in CHECKLIST.md §4.2's table.
    let expected: [(RuleID, Severity)] = [
      (.unconditionalAggregateExported, .error), (.aggregateActivatedWithoutCore, .error), (.nodeNotCostedOut, .error),
      (.clientLinksBeforeCoreLinks, .error), (.protocolReferencesUndefinedInterface, .error), (.coreLinkWithoutCoS, .error),
      (.emptyConfirmingCommit, .info), (.stepWithoutVerification, .warning), (.ldpIGPSyncMissing, .warning),
      (.bgpMissingPrefixLimit, .warning),
      // CHECKLIST.md §4.2 says warning; an iBGP group without export policy is info since the retune.
      (.bgpSessionWithoutPolicy, .info),
    ]
    for (rule, severity) in expected {
      #expect(r.findings.contains { $0.rule == rule && $0.severity == severity }, "\(rule.rawValue) \(severity)")
    }
    // The three RFC 1918 aggregates, each advertised to DC-FABRIC.
    let aggregates = r.findings.filter { $0.rule == .unconditionalAggregateExported }
    #expect(aggregates.map(\.path) == ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map { "routing-options aggregate route \($0)" })
    #expect(aggregates.allSatisfy { $0.location.file.hasSuffix("cr1-dc1-from-mx480.conf") && $0.step == "preload" })
    // The loopback and the /31s keep 10/8 up; the fabric's 10.40/16 too.
    let activated = try #require(r.findings.first { $0.rule == .aggregateActivatedWithoutCore })
    #expect(activated.message.contains("lo0.0 10.255.0.11/32") && activated.message.contains("group DC-FABRIC"))
    let clients = try #require(r.findings.first { $0.rule == .clientLinksBeforeCoreLinks })
    #expect(clients.step == "move-fabric")
    #expect(clients.location == FindingLocation(file: "checklist/swap-cr1-dc1.plan", line: 9, column: 1))
    let cos = r.findings.filter { $0.rule == .coreLinkWithoutCoS && $0.severity == .error }
    #expect(cos.map(\.step) == ["move-core-a"])
    let stale = try #require(r.findings.first { $0.rule == .protocolReferencesUndefinedInterface })
    #expect(stale.path == "protocols ldp interface xe-1/0/0.0")
    #expect(stale.location.line == 26)
    // Nothing outside the table fires (BFD hygiene aside).
    let table = Set(expected.map(\.0)).union([.coreLinkWithoutBFD])
    #expect(r.findings.filter { !table.contains($0.rule) }.map(\.rendered) == [])
  }

  @Test func theCorrectedPlanKeepsTheOutageRulesQuiet() throws {
    let r = try ChecklistFixtures.lintPlan("checklist/swap-cr1-dc1.fixed.plan")
    #expect(!r.hasErrors)
    let quiet: [RuleID] = [
      .unconditionalAggregateExported, .aggregateActivatedWithoutCore, .nodeNotCostedOut, .costedOutNodeStillAttractsViaBGP,
      .deactivateInsteadOfDisable, .overloadTimeoutAsCostOut, .uncostAndEnableSameStep, .stepWithoutVerification,
      .clientLinksBeforeCoreLinks,
      .interfaceRoleUnclassified, .protocolReferencesUndefinedInterface, .changeWithoutCommitConfirmed, .emptyConfirmingCommit,
      .coreLinkWithoutCoS, .ldpIGPSyncMissing, .bgpMissingPrefixLimit, .bgpSessionWithoutPolicy, .policyDetached,
    ]
    #expect(r.findings.filter { quiet.contains($0.rule) }.map(\.rendered) == [])
    #expect(r.findings.allSatisfy { $0.severity == .info })
  }

  @Test func planAcceptsSuppressAndAskForAReason() throws {
    var text = String(decoding: try ChecklistFixtures.source("checklist/swap-cr1-dc1.plan").bytes, as: UTF8.self)
    text = text.replacingFirst(
      "#@ patch et-0/0/4 dc1-spine1:et-0/0/48\n",
      with:
        "#@ patch et-0/0/4 dc1-spine1:et-0/0/48\n#@ accept client-links-before-core-links \"lab: the fabric has no other path\"\n#@ accept node-not-costed-out\n"
    )
    let r = Checklist.lint(plan: SourceFile(path: "checklist/p.plan", text: text)) { try ChecklistFixtures.source("checklist/" + $0) }
    #expect(!r.findings.contains { $0.rule == .clientLinksBeforeCoreLinks || $0.rule == .nodeNotCostedOut })
    let why = r.findings.filter { $0.rule == .suppressionWithoutReason }
    #expect(why.map(\.location.line) == [11])
    #expect(r.suppressed == 2)
  }
}

/// Plan rules, from CHECKLIST.md's plan snippets.
@Suite struct PlanRuleSnippetTests {
  static let config = """
    set interfaces lo0 unit 0 family inet address 10.255.0.11/32
    set interfaces et-0/0/0 description "Core: cr2-dc2"
    set interfaces et-0/0/0 unit 0 family inet address 10.254.0.0/31
    set interfaces et-0/0/0 unit 0 family iso
    set interfaces et-0/0/1 description "Core: cr3-dc3"
    set interfaces et-0/0/1 unit 0 family iso
    set interfaces et-0/0/4 description "Client: spine1"
    set interfaces et-0/0/4 unit 0 family inet address 10.32.0.0/31
    set protocols isis interface et-0/0/0.0 point-to-point
    set protocols isis interface et-0/0/1.0 point-to-point

    """

  @Test func rule4NotCostedOutAndRule5TimeoutOnly() {
    let plan = """
      #@ plan node=cr1 kind=swap
      #@ step preload "Load config from old node"
      #@ load override old.conf
      #@ commit confirmed 10
      #@ step patch-core "Patch core link"
      #@ patch et-0/0/0 cr2-dc2:et-1/0/0

      """
    let fire = lintPlan(plan, files: ["old.conf": Self.config])
    #expect(fire.findings.filter { $0.rule == .nodeNotCostedOut }.map(\.step) == ["patch-core"])
    let quiet = lintPlan(plan, files: ["old.conf": Self.config + "set protocols isis overload\n"])
    #expect(!quiet.findings.contains { $0.rule == .nodeNotCostedOut || $0.rule == .overloadTimeoutAsCostOut })
    let timed = lintPlan(plan, files: ["old.conf": Self.config + "set protocols isis overload timeout 300\n"])
    #expect(timed.findings.filter { $0.rule == .overloadTimeoutAsCostOut }.map(\.severity) == [.warning])
    #expect(!timed.findings.contains { $0.rule == .nodeNotCostedOut })
  }

  @Test func rule6UncostAndEnableInOneStep() {
    let base = Self.config + "set protocols isis overload\nset interfaces et-0/0/4 disable\n"
    let fire = """
      #@ plan node=cr1 kind=bring-up
      #@ baseline base.conf
      #@ step pre "checks"
      #@ verify manual "neighbours recorded"
      #@ step core "core"
      #@ patch et-0/0/0 cr2:et-1/0/0
      #@ patch et-0/0/4 spine1:et-0/0/48
      #@ verify isis-adjacency et-0/0/0.0 up
      #@ step go "uncost and enable"
      delete protocols isis overload
      delete interfaces et-0/0/4 disable
      #@ commit confirmed 10
      #@ verify manual "ok"
      #@ confirm check
      #@ rollback
      #@ step rb "back"
      set protocols isis overload
      #@ commit

      """
    let r = lintPlan(fire, files: ["base.conf": base])
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    #expect(r.findings.filter { $0.rule == .uncostAndEnableSameStep }.map(\.severity) == [.error])
    let split = fire.replacingFirst(
      "delete interfaces et-0/0/4 disable\n#@ commit confirmed 10\n",
      with:
        "#@ commit confirmed 10\n#@ verify manual \"transit ok\"\n#@ confirm check\n#@ step enable \"clients\"\ndelete interfaces et-0/0/4 disable\n#@ commit confirmed 10\n"
    )
    let q = lintPlan(split, files: ["base.conf": base])
    #expect(!q.hasErrors, "\(q.diagnostics.map(\.rendered))")
    #expect(!q.findings.contains { $0.rule == .uncostAndEnableSameStep })
    #expect(!q.findings.contains { $0.rule == .clientLinksBeforeCoreLinks })
  }

  @Test func rule8ClientBeforeCoreAndRule9Unclassified() {
    let plan = """
      #@ plan node=cr1 kind=swap
      #@ step load "load"
      #@ load override new.conf
      #@ commit confirmed 10
      #@ confirm check
      #@ step clients "client first"
      #@ patch et-0/0/4 spine1:et-0/0/48
      #@ step core "core"
      #@ patch et-0/0/0 cr2:et-1/0/0
      #@ verify isis-adjacency et-0/0/0.0 up
      #@ step odd "an unknown port"
      #@ patch et-0/0/7 x:y

      """
    let r = lintPlan(plan, files: ["new.conf": Self.config + "set protocols isis overload\n"])
    #expect(r.findings.filter { $0.rule == .clientLinksBeforeCoreLinks }.map(\.step) == ["clients"])
    #expect(r.findings.filter { $0.rule == .interfaceRoleUnclassified }.map(\.path) == ["interfaces et-0/0/7"])
    let roled = lintPlan(
      plan.replacingFirst("#@ step load", with: "#@ role client et-0/0/7\n#@ step load"), files: ["new.conf": Self.config])
    #expect(!roled.findings.contains { $0.rule == .interfaceRoleUnclassified })
  }

  @Test func rule13And14Commits() {
    let plan = """
      #@ plan node=cr1 kind=change mgmt=192.0.2.0/24
      #@ baseline base.conf
      #@ step uncost "remove overload"
      delete protocols isis overload
      #@ commit
      #@ step mgmt "management route"
      set routing-options static route 192.0.2.0/24 next-hop 10.254.0.1
      #@ commit
      #@ step good "confirmed"
      set protocols isis interface et-0/0/1.0 point-to-point
      #@ commit confirmed 10
      #@ confirm commit

      """
    let r = lintPlan(plan, files: ["base.conf": Self.config + "set protocols isis overload\n"])
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    #expect(
      r.findings.filter { $0.rule == .changeWithoutCommitConfirmed }.map { "\($0.step!) \($0.severity)" } == [
        "uncost warning", "mgmt error",
      ])
    #expect(r.findings.filter { $0.rule == .emptyConfirmingCommit }.map(\.step) == ["good"])
  }

  @Test func rule24DeactivateInsteadOfDisable() {
    let plan = """
      #@ plan node=cr1 kind=swap
      #@ step preload "preload"
      #@ load override new.conf
      deactivate interfaces et-0/0/4
      #@ commit confirmed 10
      #@ step later "bring back"
      activate interfaces et-0/0/4
      #@ commit confirmed 10

      """
    let r = lintPlan(plan, files: ["new.conf": Self.config])
    #expect(r.findings.filter { $0.rule == .deactivateInsteadOfDisable }.map(\.location.line) == [4])
    let disable = plan.replacingFirst("deactivate interfaces et-0/0/4", with: "set interfaces et-0/0/4 disable").replacingFirst(
      "activate interfaces et-0/0/4", with: "delete interfaces et-0/0/4 disable")
    #expect(!lintPlan(disable, files: ["new.conf": Self.config]).findings.contains { $0.rule == .deactivateInsteadOfDisable })
  }

  @Test func rule25ShutdownWithoutDrain() {
    let base =
      Self.config + """
        set protocols bgp group TRANSIT-A type external
        set protocols bgp group TRANSIT-A peer-as 64999
        set protocols bgp group TRANSIT-A export OUT
        set protocols bgp group TRANSIT-A neighbor 10.32.0.1
        set policy-options policy-statement OUT term a from protocol aggregate
        set policy-options policy-statement OUT term a then accept

        """
    let fire = """
      #@ plan node=cr1 kind=change
      #@ baseline base.conf
      #@ step off "shut transit"
      deactivate protocols bgp group TRANSIT-A
      #@ commit confirmed 10

      """
    #expect(lintPlan(fire, files: ["base.conf": base]).findings.filter { $0.rule == .bgpShutdownWithoutDrain }.count == 1)
    let drained = fire.replacingFirst(
      "#@ step off",
      with:
        "#@ step drain \"drain\"\nset protocols bgp group TRANSIT-A graceful-shutdown sender\n#@ commit confirmed 10\n#@ wait 300\n#@ step off"
    )
    #expect(!lintPlan(drained, files: ["base.conf": base]).findings.contains { $0.rule == .bgpShutdownWithoutDrain })
  }

  @Test func rule26StepsWithoutVerification() {
    let fire = """
      #@ plan node=cr1 kind=change
      #@ baseline base.conf
      #@ step a "Enable core link"
      delete interfaces et-0/0/1 disable
      #@ commit confirmed 10
      #@ confirm check
      #@ step b "Enable client link"
      delete interfaces et-0/0/4 disable
      #@ commit confirmed 10
      #@ confirm check

      """
    let base = Self.config + "set interfaces et-0/0/1 disable\nset interfaces et-0/0/4 disable\n"
    let r = lintPlan(fire, files: ["base.conf": base])
    #expect(r.findings.filter { $0.rule == .stepWithoutVerification }.count == 3)
    let good =
      fire.replacingFirst("#@ step a", with: "#@ step pre \"pre-checks\"\n#@ verify manual \"record state\"\n#@ step a").replacingFirst(
        "#@ confirm check\n#@ step b", with: "#@ verify isis-adjacency et-0/0/1.0 up\n#@ confirm check\n#@ step b")
      + "#@ rollback\n#@ step rb \"undo\"\nset interfaces et-0/0/4 disable\n#@ commit confirmed 10\n"
    let q = lintPlan(good, files: ["base.conf": base])
    #expect(!q.hasErrors, "\(q.diagnostics.map(\.rendered))")
    #expect(!q.findings.contains { $0.rule == .stepWithoutVerification })
  }

  @Test func aPlanNamingAMissingFileIsAnInputError() {
    let r = lintPlan("#@ plan node=x kind=swap\n#@ step a \"a\"\n#@ load override nowhere.conf\n")
    #expect(r.hasErrors)
    #expect(r.diagnostics.first?.location.line == 3)
  }
}

/// Suppressions by annotation and by file; rule 14 on a real commit listing.
@Suite struct SuppressionAndHistoryTests {
  @Test func anAnnotationSuppressesItsStatementAndAsksForAReason() {
    let text = """
      routing-options {
          /* checklist: allow aggregate-passive-always-installed PI anchor, announced on purpose */
          aggregate {
              route 172.16.0.0/12 passive;
          }
          /* checklist: allow protocol-references-undefined-interface */
          static {
              route 0.0.0.0/0 next-hop 192.0.2.1;
          }
      }
      protocols {
          ldp {
              interface xe-1/0/0.0;
          }
      }

      """
    let r = Checklist.lint(config: SourceFile(path: "a.conf", text: text))
    #expect(!r.findings.contains { $0.rule == .aggregatePassiveAlwaysInstalled })
    #expect(r.findings.filter { $0.rule == .suppressionWithoutReason }.map(\.location.line) == [7])
    #expect(r.findings.contains { $0.rule == .protocolReferencesUndefinedInterface })  // not under the annotated statement
  }

  @Test func aSuppressionFileMatchesPathsByGlob() {
    let (entries, diagnostics) = SuppressionEntry.parse(
      SourceFile(
        path: "s.txt",
        text:
          "# lab\nprotocol-references-undefined-interface protocols ldp interface xe-* \"optics arrive next week\"\nldp-igp-sync-missing protocols *\nno-such-rule x \"y\"\n"
      ))
    #expect(diagnostics.map(\.location.line) == [4])
    #expect(entries.map(\.reason) == ["optics arrive next week", ""])
    let r = Checklist.lint(
      config: SourceFile(path: "c.set", text: "set protocols ldp interface xe-1/0/0.0\n"), options: LintOptions(suppressions: entries))
    #expect(!r.findings.contains { $0.rule == .protocolReferencesUndefinedInterface })
    #expect(r.findings.filter { $0.rule == .suppressionWithoutReason }.map(\.location.line) == [3])
    #expect(r.suppressed == 1)
  }

  @Test func emptyConfirmingCommitsInARealListing() throws {
    let file = try ChecklistFixtures.source("commit-history/text/ben_blog_commit_confirmed_run_show_system_commit.txt")
    #expect(InputKind.detect(file) == .history)
    let unknown = Checklist.lint(history: file)
    #expect(unknown.findings.map { String($0.message.prefix(9)) } == ["commit 0 ", "commit 2 "])
    #expect(unknown.findings.allSatisfy { $0.rule == .emptyConfirmingCommit && $0.severity == .info })
    // With the rollbacks at hand: commit 0 changed nothing, commit 2 changed something.
    let known = Checklist.lint(history: file) { $0 == 0 }
    #expect(known.findings.count == 1)
    #expect(known.findings.first?.message.contains("changed nothing") == true)
  }
}

/// Rule 25 recognises a drain by the community's value, in the one-line form set commands give.
@Suite struct DrainCommunityTests {
  @Test func aGracefulShutdownCommunityInAnExportTermIsADrain() {
    let base =
      PlanRuleSnippetTests.config + """
        set protocols bgp group TRANSIT-A type external
        set protocols bgp group TRANSIT-A peer-as 64999
        set protocols bgp group TRANSIT-A export OUT
        set protocols bgp group TRANSIT-A neighbor 10.32.0.1
        set policy-options community GSHUT members 65535:0
        set policy-options policy-statement OUT term a from protocol aggregate
        set policy-options policy-statement OUT term a then accept

        """
    let plan = """
      #@ plan node=cr1 kind=change
      #@ baseline base.conf
      #@ step drain "drain"
      set policy-options policy-statement OUT term a then community add GSHUT
      #@ commit confirmed 10
      #@ wait 300
      #@ step off "shut transit"
      deactivate protocols bgp group TRANSIT-A
      #@ commit confirmed 10

      """
    let r = lintPlan(plan, files: ["base.conf": base])
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    #expect(!r.findings.contains { $0.rule == .bgpShutdownWithoutDrain })
    let undrained = lintPlan(plan.replacingFirst("then community add GSHUT", with: "then local-preference 50"), files: ["base.conf": base])
    #expect(undrained.findings.filter { $0.rule == .bgpShutdownWithoutDrain }.map(\.step) == ["off"])
  }
}

/// Regressions found by the `checklist` fuzz target.
@Suite struct ChecklistFuzzRegressionTests {
  @Test func aRolesFileWithCRLFLineEndsKeepsItsLastWords() {
    let (rules, diagnostics) = RoleRules.parse(SourceFile(path: "r", text: "core et-0/0/0\r\npattern client ^uplink\r\n"))
    #expect(diagnostics.isEmpty)
    #expect(rules.explicit == ["et-0/0/0": .core])
    #expect(rules.patterns.first?.pattern == "^uplink")
  }

  @Test func aStarInAGlobIsAWildcardEvenWhereThePathHasAStar() {
    let here = FindingLocation(file: "s", line: 1, column: 1)
    #expect(SuppressionEntry(rule: "x", pathGlob: "*", reason: "r", location: here).matches(path: "*x"))
    #expect(SuppressionEntry(rule: "x", pathGlob: "a*", reason: "r", location: here).matches(path: "a*b"))
    #expect(
      SuppressionEntry(rule: "x", pathGlob: "class-of-service interfaces *", reason: "r", location: here).matches(
        path: "class-of-service interfaces et-*"))
    #expect(!SuppressionEntry(rule: "x", pathGlob: "a?c", reason: "r", location: here).matches(path: "abd"))
  }
}

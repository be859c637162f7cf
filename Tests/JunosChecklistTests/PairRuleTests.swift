import Foundation
import JunosChecklist
import JunosConfig
import Testing

/// `redundant-pair-attribute-change` over the two border routers of AS 1 of batfish's example
/// network (Fixtures/checklist/pair/, SOURCES.md): they share BGP group `as1` to 1.10.1.1 and its
/// export policy `as1_to_as1`.
@Suite struct RedundantPairAttributeChangeTests {
  static let folder = "checklist/pair/"

  func change(_ name: String, over baseline: String) throws -> LintInput {
    LintInput(
      file: try ChecklistFixtures.source(Self.folder + name), kind: .change(baseline: try ChecklistFixtures.source(Self.folder + baseline)))
  }

  func plan(_ name: String) throws -> LintInput {
    LintInput(file: try ChecklistFixtures.source(Self.folder + name), kind: .plan(read: { try ChecklistFixtures.source(Self.folder + $0) }))
  }

  func pairFindings(_ r: LintResult) -> [Finding] { r.findings.filter { $0.rule == .redundantPairAttributeChange } }

  @Test func bothRoutersChangingTheSharedMEDIsAnErrorOnEach() throws {
    let results = Checklist.lint(
      together: [try change("as1border1-med.set", over: "as1border1.set"), try change("as1border2-med.set", over: "as1border2.set")])
    #expect(results.count == 2 && results.allSatisfy { !$0.hasErrors })
    for (k, r) in results.enumerated() {
      let found = pairFindings(r)
      #expect(found.count == 1)
      let f = try #require(found.first)
      #expect(f.severity == .error)
      #expect(f.location == FindingLocation(file: Self.folder + "as1border\(k + 1)-med.set", line: 1, column: 1))
      #expect(f.path == "policy-options policy-statement as1_to_as1 term originate then metric")
      #expect(f.message.contains("MED set to 100 on policy as1_to_as1 term originate (export to iBGP group as1)"))
      #expect(f.message.contains("pair partner \(Self.folder)as1border\(2 - k)-med.set changes it too"))
      #expect(f.message.contains("both have BGP group as1 with neighbor 1.10.1.1"))
    }
  }

  @Test func oneRouterChangingItIsAWarningAndThePartnerHasNone() throws {
    let results = Checklist.lint(
      together: [try change("as1border1-med.set", over: "as1border1.set"), try change("as1border2.set", over: "as1border2.set")])
    let f = try #require(pairFindings(results[0]).first)
    #expect(pairFindings(results[0]).count == 1)
    #expect(f.severity == .warning)
    #expect(f.message.contains("but not on its pair partner \(Self.folder)as1border2.set"))
    #expect(pairFindings(results[1]).isEmpty)
  }

  /// Local preference set in a policy exported only to eBGP peers never reaches them: no pair
  /// change, though both routers change it. The same in the iBGP export they share is one.
  @Test func localPreferenceTowardEBGPAloneIsNoPairChange() throws {
    let transit = """

      set protocols bgp group transit type external
      set protocols bgp group transit peer-as 174
      set protocols bgp group transit neighbor 192.0.2.1
      set protocols bgp group transit export TO-TRANSIT
      set policy-options policy-statement TO-TRANSIT term a then accept

      """
    func lint(_ line: String) throws -> [[Finding]] {
      let changes = try ["as1border1.set", "as1border2.set"].map { name in
        let base = String(decoding: try ChecklistFixtures.source(Self.folder + name).bytes, as: UTF8.self) + transit
        return LintInput(
          file: SourceFile(path: "lp-\(name)", text: line + "\n"), kind: .change(baseline: SourceFile(path: name, text: base)))
      }
      return Checklist.lint(together: changes).map(pairFindings)
    }
    #expect(try lint("set policy-options policy-statement TO-TRANSIT term a then local-preference 50").allSatisfy(\.isEmpty))
    #expect(try lint("set policy-options policy-statement TO-TRANSIT term a then metric 50").map(\.count) == [1, 1])
    #expect(try lint("set policy-options policy-statement as1_to_as1 term originate then local-preference 50").map(\.count) == [1, 1])
  }

  /// MED removed from the shared policy: the baselines are the fixtures with the MED this change
  /// removes added to `as1_to_as1`.
  @Test func removingTheSharedMEDOnBothIsAnErrorAndOnOneAWarning() throws {
    func withMED(_ name: String) throws -> SourceFile {
      let text = String(decoding: try ChecklistFixtures.source(Self.folder + name).bytes, as: UTF8.self)
      return SourceFile(path: name, text: text + "\nset policy-options policy-statement as1_to_as1 term originate then metric 50\n")
    }
    let removal = SourceFile(path: "remove.set", text: "delete policy-options policy-statement as1_to_as1 term originate then metric\n")
    let nothing = SourceFile(path: "nothing.set", text: "set system host-name as1border2\n")
    let both = Checklist.lint(
      together: [
        LintInput(file: removal, kind: .change(baseline: try withMED("as1border1.set"))),
        LintInput(file: removal, kind: .change(baseline: try withMED("as1border2.set"))),
      ])
    for r in both {
      let f = try #require(pairFindings(r).first)
      #expect(f.severity == .error && f.message.hasPrefix("MED removed (was 50) on policy as1_to_as1 term originate"))
    }
    let one = Checklist.lint(
      together: [
        LintInput(file: removal, kind: .change(baseline: try withMED("as1border1.set"))),
        LintInput(file: nothing, kind: .change(baseline: try withMED("as1border2.set"))),
      ])
    #expect(pairFindings(one[0]).map(\.severity) == [.warning])
    #expect(pairFindings(one[1]).isEmpty)
  }

  @Test func aMEDOnAPolicyThePartnerLacksIsNotReported() throws {
    // as1_to_as3 (export to AS 3) exists on as1border2 only.
    let results = Checklist.lint(
      together: [try change("as1border1.set", over: "as1border1.set"), try change("as1border2-unshared.set", over: "as1border2.set")])
    #expect(results.flatMap(pairFindings).isEmpty)
    // Alone, nothing in either configuration says it has a partner (iBGP to a loopback only).
    let alone = Checklist.lint(
      changes: try ChecklistFixtures.source(Self.folder + "as1border1-med.set"),
      baseline: try ChecklistFixtures.source(Self.folder + "as1border1.set"))
    #expect(pairFindings(alone).isEmpty)
  }

  @Test func twoPlansForThePairAreCheckedTogether() throws {
    let results = Checklist.lint(together: [try plan("med-as1border1.plan"), try plan("med-as1border2.plan")])
    for r in results {
      let f = try #require(pairFindings(r).first)
      #expect(f.severity == .error && f.step == "med" && f.location.line == 6)
    }
    // The undo in the rollback section is not a change to report.
    #expect(results.flatMap(pairFindings).count == 2)
  }

  /// Both routers in one plan: `#@ node as1border2 as1border2.set` and `#@ on as1border2`.
  @Test func bothRoutersInOnePlanIsAnErrorAtEachLine() throws {
    let r = try ChecklistFixtures.lintPlan(Self.folder + "med-pair.plan")
    #expect(!r.hasErrors, "\(r.diagnostics)")
    let found = pairFindings(r)
    #expect(found.map(\.location.line) == [7, 9])
    #expect(found.allSatisfy { $0.severity == .error && $0.step == "med" && $0.location.file == Self.folder + "med-pair.plan" })
    #expect(found[0].message.contains("its pair partner node as1border2 changes it too (set to 100, \(Self.folder)med-pair.plan:9:1)"))
    #expect(found[1].message.contains("its pair partner node as1border1 changes it too"))
    // The partner's lines are not the plan's own node's: no other rule sees them.
    #expect(r.findings.filter { $0.location.line == 9 }.map(\.rule) == [.redundantPairAttributeChange])
    // Only one of the two changing it (its line and its undo left out): a warning, at that one's line.
    let text = String(decoding: try ChecklistFixtures.source(Self.folder + "med-pair.plan").bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (line, dropped) in [(9, [7, 15]), (7, [8, 9, 16, 17])] {
      // Dropped lines are emptied, so the others keep their numbers.
      let one = lines.enumerated().map { dropped.contains($0.offset + 1) ? "" : $0.element }.joined(separator: "\n")
      let result = Checklist.lint(plan: SourceFile(path: Self.folder + "one.plan", text: one)) {
        try ChecklistFixtures.source(Self.folder + $0)
      }
      #expect(!result.hasErrors, "\(result.diagnostics)")
      #expect(pairFindings(result).map(\.severity) == [.warning])
      #expect(pairFindings(result).map(\.location.line) == [line])
    }
    // A node whose file cannot be read is an input error.
    let missing = text.replacingOccurrences(of: "#@ node as1border2 as1border2.set", with: "#@ node as1border2 nowhere.set")
    let broken = Checklist.lint(plan: SourceFile(path: "p.plan", text: missing)) { path in
      guard path != "nowhere.set" else { throw CocoaError(.fileNoSuchFile) }
      return try ChecklistFixtures.source(Self.folder + path)
    }
    #expect(broken.hasErrors && broken.diagnostics.contains { $0.location.line == 3 })
  }

  /// A two-node plan linted with a third input: every router's view is compared, and the plan
  /// keeps the findings about its own node and its other node.
  @Test func aTwoNodePlanLintedWithAnotherChange() throws {
    let results = Checklist.lint(together: [try plan("med-pair.plan"), try change("as1border2-med.set", over: "as1border2.set")])
    #expect(pairFindings(results[0]).map(\.location.line) == [7, 9])
    #expect(pairFindings(results[0]).allSatisfy { $0.severity == .error })
    // The change is as1border2's, like the plan's other node: one router, so its partner is the
    // plan's own node (as1border1), which changes it too.
    let f = try #require(pairFindings(results[1]).first)
    #expect(pairFindings(results[1]).count == 1)
    #expect(f.severity == .error && f.message.contains("its pair partner \(Self.folder)med-pair.plan changes it too"))
  }

  @Test func aPlansAcceptCoversItsJointFindingAndOneRouterIsNoPair() throws {
    let text = String(decoding: try ChecklistFixtures.source(Self.folder + "med-as1border1.plan").bytes, as: UTF8.self)
      .replacingOccurrences(of: "#@ step pre", with: "#@ accept redundant-pair-attribute-change \"agreed with the core team\"\n#@ step pre")
    let accepted = LintInput(
      file: SourceFile(path: Self.folder + "accepted.plan", text: text),
      kind: .plan(read: { try ChecklistFixtures.source(Self.folder + $0) }))
    let results = Checklist.lint(together: [accepted, try plan("med-as1border2.plan")])
    #expect(pairFindings(results[0]).isEmpty && results[0].suppressed == 1)
    #expect(pairFindings(results[1]).map(\.severity) == [.error])
    // Two changes of one router (the same host-name) are not a pair.
    let same = Checklist.lint(
      together: [try change("as1border1-med.set", over: "as1border1.set"), try change("as1border1-med.set", over: "as1border1.set")])
    #expect(same.flatMap(pairFindings).isEmpty)
  }

  /// Three routers that share the group: any partner changing the statement too makes it an
  /// error, whatever the order of the inputs.
  @Test func withThreeRoutersAnyPartnerThatChangesItTooMakesItAnError() throws {
    let b2 = String(decoding: try ChecklistFixtures.source(Self.folder + "as1border2.set").bytes, as: UTF8.self)
    let b3 = SourceFile(path: "as1border3.set", text: b2.replacingOccurrences(of: "host-name as1border2", with: "host-name as1border3"))
    let results = Checklist.lint(
      together: [
        try change("as1border1-med.set", over: "as1border1.set"), try change("as1border2.set", over: "as1border2.set"),
        LintInput(file: try ChecklistFixtures.source(Self.folder + "as1border2-med.set"), kind: .change(baseline: b3)),
      ])
    let f = try #require(pairFindings(results[0]).first)
    #expect(pairFindings(results[0]).count == 1)
    #expect(f.severity == .error && f.message.contains("pair partner \(Self.folder)as1border2-med.set changes it too"))
    #expect(pairFindings(results[1]).isEmpty)
    #expect(pairFindings(results[2]).map(\.severity) == [.error])
  }

  @Test func aSuppressionFileEntryCoversTheJointFinding() throws {
    let options = LintOptions(suppressions: [
      SuppressionEntry(
        rule: "redundant-pair-attribute-change", pathGlob: "policy-options policy-statement as1_to_as1", reason: "agreed",
        location: FindingLocation(file: "s", line: 1, column: 1))
    ])
    let results = Checklist.lint(
      together: [try change("as1border1-med.set", over: "as1border1.set"), try change("as1border2-med.set", over: "as1border2.set")],
      options: options)
    #expect(results.flatMap(pairFindings).isEmpty)
    #expect(results.map(\.suppressed) == [1, 1])
  }

  /// One input alone: the configuration must say it has a partner.
  @Test func aloneItNeedsEvidenceOfAPartner() {
    let base = """
      set system host-name r1
      set routing-options autonomous-system 64500
      set interfaces et-0/0/0 unit 0 family inet address 10.0.0.0/31
      set interfaces et-0/0/1 unit 0 family inet address 192.0.2.1/31
      set protocols bgp group IBGP type internal
      set protocols bgp group IBGP neighbor 10.0.0.1
      set protocols bgp group TRANSIT type external
      set protocols bgp group TRANSIT peer-as 64511
      set protocols bgp group TRANSIT metric-out 10
      set protocols bgp group TRANSIT neighbor 192.0.2.0

      """
    let change = SourceFile(path: "c.set", text: "delete protocols bgp group TRANSIT metric-out\n")
    let r = Checklist.lint(changes: change, baseline: SourceFile(path: "b.set", text: base))
    let f = r.findings.filter { $0.rule == .redundantPairAttributeChange }
    #expect(f.count == 1)
    #expect(f.first?.severity == .warning)
    #expect(f.first?.message.hasPrefix("MED removed (was 10) on BGP group TRANSIT") == true)
    #expect(f.first?.message.contains("iBGP group IBGP has neighbor 10.0.0.1 on the directly connected et-0/0/0.0") == true)
    #expect(f.first?.location == FindingLocation(file: "c.set", line: 1, column: 1))
    // A session that `local-as` makes external is no partner (as in Juniper's validated WAN edge design).
    let localAS = base.replacingOccurrences(
      of: "neighbor 10.0.0.1\n", with: "neighbor 10.0.0.1 peer-as 64500\nset protocols bgp group IBGP neighbor 10.0.0.1 local-as 64501\n")
    #expect(
      Checklist.lint(changes: change, baseline: SourceFile(path: "b.set", text: localAS)).findings.allSatisfy {
        $0.rule != .redundantPairAttributeChange
      })
    // The partner iBGP session over a loopback is no evidence; a description saying so is.
    let loopback = base.replacingOccurrences(of: "neighbor 10.0.0.1", with: "neighbor 10.255.0.2")
    #expect(
      Checklist.lint(changes: change, baseline: SourceFile(path: "b.set", text: loopback)).findings.allSatisfy {
        $0.rule != .redundantPairAttributeChange
      })
    let described = loopback + "set protocols bgp group IBGP description \"redundant pair r2\"\n"
    let g = Checklist.lint(changes: change, baseline: SourceFile(path: "b.set", text: described)).findings.filter {
      $0.rule == .redundantPairAttributeChange
    }
    #expect(g.map(\.severity) == [.warning])
    // Removing the whole group is not a MED change.
    let gone = SourceFile(path: "c.set", text: "delete protocols bgp group TRANSIT\n")
    #expect(
      Checklist.lint(changes: gone, baseline: SourceFile(path: "b.set", text: base)).findings.allSatisfy {
        $0.rule != .redundantPairAttributeChange
      })
  }

  @Test func localPreferenceCountsToo() {
    let base = """
      set system host-name r1
      set interfaces et-0/0/0 unit 0 family inet address 10.0.0.0/31
      set protocols bgp group PAIR type internal
      set protocols bgp group PAIR neighbor 10.255.0.2
      set protocols bgp group PAIR local-preference 200

      """
    let change = SourceFile(path: "c.set", text: "set protocols bgp group PAIR local-preference 50\n")
    let f = Checklist.lint(changes: change, baseline: SourceFile(path: "b.set", text: base)).findings.filter {
      $0.rule == .redundantPairAttributeChange
    }
    #expect(f.count == 1)
    #expect(f.first?.message.hasPrefix("local-preference changed from 200 to 50 on BGP group PAIR") == true)
    // So does MED for every group, under protocols bgp.
    let all = SourceFile(path: "c.set", text: "set protocols bgp metric-out 5\n")
    let g = Checklist.lint(changes: all, baseline: SourceFile(path: "b.set", text: base)).findings.filter {
      $0.rule == .redundantPairAttributeChange
    }
    #expect(g.count == 1)
    #expect(g.first?.message.hasPrefix("MED set to 5 on protocols bgp (every group)") == true)
    #expect(g.first?.path == "protocols bgp metric-out")
  }
}

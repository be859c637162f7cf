import Foundation
import JunosChecklist
import JunosConfig
import Testing

/// `link-up-before-sessions` over plans on as1border2 (in service).
@Suite struct LinkUpBeforeSessionsTests {
  func findings(_ plan: String) throws -> [Finding] {
    let r = try ChecklistFixtures.lintPlan(plan)
    #expect(!r.hasErrors, "\(r.diagnostics)")
    return r.findings.filter { $0.rule == .linkUpBeforeSessions }
  }

  @Test func anExchangePortEnabledBeforeItsSessionsIsAWarning() throws {
    let found = try findings("checklist/pair/ix-port.plan")
    #expect(found.count == 1)
    let f = try #require(found.first)
    #expect(f.severity == .warning && f.step == "port")
    #expect(f.location == FindingLocation(file: "checklist/pair/ix-port.plan", line: 7, column: 1))
    #expect(f.path == "interfaces fe-0/0/1 unit 0")
    #expect(f.message.contains("fe-0/0/1.0, an exchange LAN port"))
    #expect(f.message.contains("BGP neighbor 198.51.100.1 (step sessions), BGP neighbor 198.51.100.2 (step sessions)"))
  }

  @Test func theCorrectedOrderHasNoFinding() throws {
    #expect(try findings("checklist/pair/ix-port.fixed.plan").isEmpty)
  }

  @Test func wholeNodeBringUpsAreLeftToTheirOwnRules() throws {
    #expect(try findings("checklist/swap-cr1-dc1.plan").isEmpty)
  }

  /// A plan for r1 (in service) over an inline baseline: its header, then `steps`.
  func lint(_ steps: String, baseline: String, kind: String = "change") -> [Finding] {
    let plan = "#@ plan node=r1 platform=mx kind=\(kind)\n#@ baseline b.set\n" + steps
    let r = Checklist.lint(plan: SourceFile(path: "p.plan", text: plan)) { _ in SourceFile(path: "b.set", text: baseline) }
    #expect(!r.hasErrors, "\(r.diagnostics)")
    return r.findings.filter { $0.rule == .linkUpBeforeSessions }
  }

  /// One finding, whose message says each of `says` and not `not`.
  func expectOne(_ found: [Finding], saying says: [String], notSaying not: String) {
    #expect(found.count == 1)
    let message = found.first?.message ?? ""
    for s in says { #expect(message.contains(s), "\(message)") }
    #expect(!message.contains(not), "\(message)")
  }

  static let base = """
    set system host-name r1
    set interfaces lo0 unit 0 family inet address 10.255.0.1/32
    set interfaces et-0/0/0 description "Core: r2"
    set interfaces et-0/0/0 unit 0 family inet address 10.0.0.0/31
    set protocols isis interface et-0/0/0.0 point-to-point

    """

  @Test func aPointToPointLinkWhoseIGPComesLater() {
    let plan = """
      #@ step link "Address the new core link"
      set interfaces et-0/0/1 description "Core: r3"
      set interfaces et-0/0/1 unit 0 family inet address 10.0.0.2/31
      #@ commit confirmed 5
      #@ step igp "Add it to IS-IS"
      set protocols isis interface et-0/0/1.0 point-to-point
      #@ commit confirmed 5
      #@ verify isis-adjacency et-0/0/1.0 up

      """
    expectOne(
      lint(plan, baseline: Self.base), saying: ["et-0/0/1.0, a point-to-point link", "isis on et-0/0/1.0 (step igp)"],
      notSaying: "no later #@ verify")
    // IS-IS configured in the same step and verified: nothing.
    let together = plan.replacingOccurrences(of: "#@ commit confirmed 5\n#@ step igp \"Add it to IS-IS\"\n", with: "")
    #expect(lint(together, baseline: Self.base).isEmpty)
  }

  @Test func aWideSubnetIsAMultiAccessLANAndAnUnverifiedSessionIsReported() {
    let plan = """
      #@ step lan "Address the LAN port with its session"
      set interfaces et-0/0/2 description "Client: campus"
      set interfaces et-0/0/2 unit 0 family inet address 192.0.2.1/28
      set protocols bgp group CAMPUS type external
      set protocols bgp group CAMPUS peer-as 64511
      set protocols bgp group CAMPUS neighbor 192.0.2.2
      #@ commit confirmed 5

      """
    expectOne(
      lint(plan, baseline: Self.base),
      saying: ["a multi-access LAN port (subnet 192.0.2.0/28)", "with no later #@ verify of BGP neighbor 192.0.2.2"],
      notSaying: "before its sessions are configured")
    // A port that stays disabled is not up; a plan for a new node is not this rule's.
    let disabled = plan.replacingOccurrences(of: "#@ commit", with: "set interfaces et-0/0/2 disable\n#@ commit")
    #expect(lint(disabled, baseline: Self.base).isEmpty)
    #expect(lint(plan, baseline: Self.base, kind: "bring-up").isEmpty)
  }
}

import JunosChecklist
import Testing

/// `rule|severity|message` of each finding: what the retune tests compare.
func summary(_ findings: [Finding]) -> [String] { findings.map { "\($0.rule.rawValue)|\($0.severity.rawValue)|\($0.message)" } }

/// Rule 23 for IGP and LDP isolation by interface (issue 13): deleting every core interface of a
/// protocol, or making them all passive, isolates the node as surely as deactivating the protocol.
@Suite struct ProtocolIsolationTests {
  /// Two core links in IS-IS, OSPF and LDP, and a client link: a node that carries traffic.
  static let node = """
    set interfaces et-0/0/0 description "Core: cr2-dc2 et-1/0/0"
    set interfaces et-0/0/0 unit 0 family inet address 10.254.0.0/31
    set interfaces et-0/0/0 unit 0 family iso
    set interfaces et-0/0/0 unit 0 family mpls
    set interfaces et-0/0/1 description "Core: cr3-dc3 xe-2/0/0"
    set interfaces et-0/0/1 unit 0 family inet address 10.254.0.2/31
    set interfaces et-0/0/1 unit 0 family iso
    set interfaces et-0/0/1 unit 0 family mpls
    set interfaces et-0/0/4 description "Client: dc1-spine1 et-0/0/48"
    set interfaces et-0/0/4 unit 0 family inet address 10.32.0.0/31
    set interfaces lo0 unit 0 family inet address 10.255.0.11/32
    set protocols isis interface et-0/0/0.0 point-to-point
    set protocols isis interface et-0/0/1.0 point-to-point
    set protocols isis interface lo0.0 passive
    set protocols ospf reference-bandwidth 100g
    set protocols ospf area 0.0.0.0 interface et-0/0/0.0 interface-type p2p
    set protocols ospf area 0.0.0.0 interface et-0/0/1.0 interface-type p2p
    set protocols ospf area 0.0.0.1 interface lo0.0 passive
    set protocols ldp interface et-0/0/0.0
    set protocols ldp interface et-0/0/1.0
    set protocols ldp interface lo0.0

    """

  static func isolation(_ base: String, _ change: String) -> [String] {
    summary(fired(lintChange(base, change), .bulkCoreIsolation))
  }

  @Test func deletingEveryCoreISISInterfaceIsAnError() throws {
    let f = fired(
      lintChange(Self.node, "delete protocols isis interface et-0/0/0.0\ndelete protocols isis interface et-0/0/1.0\n"), .bulkCoreIsolation)
    #expect(
      summary(f) == [
        "bulk-core-isolation|error|one change takes isis off 2 of 2 core interfaces (et-0/0/0.0 removed, et-0/0/1.0 removed) of a node that carries traffic"
      ])
    let one = try #require(f.first)
    #expect(one.path == "protocols isis interface et-0/0/0.0")
    #expect(one.location == FindingLocation(file: "d.set", line: 1, column: 1))
  }

  /// Changes that take a protocol off both core links, and the finding each gives.
  static let isolating: [(change: String, how: String)] = [
    (
      "set protocols isis interface et-0/0/0.0 passive\nset protocols isis interface et-0/0/1.0 passive\n",
      "isis off 2 of 2 core interfaces (et-0/0/0.0 passive, et-0/0/1.0 passive)"
    ),
    (
      "set protocols isis interface et-0/0/0.0 disable\nset protocols isis interface et-0/0/1.0 passive\n",
      "isis off 2 of 2 core interfaces (et-0/0/0.0 disabled, et-0/0/1.0 passive)"
    ),
    ("delete protocols ospf area 0.0.0.0\n", "ospf off 2 of 2 core interfaces (et-0/0/0.0 removed, et-0/0/1.0 removed)"),
    (
      "delete protocols ldp interface et-0/0/0.0\nset protocols ldp interface et-0/0/1.0 disable\n",
      "ldp off 2 of 2 core interfaces (et-0/0/0.0 removed, et-0/0/1.0 disabled)"
    ),
    // Neither half alone is "most" core connectivity; together they are all of it.
    (
      "set interfaces et-0/0/0 disable\nset protocols isis interface et-0/0/1.0 passive\n",
      "isis off 2 of 2 core interfaces (et-0/0/0.0 link down, et-0/0/1.0 passive)"
    ),
  ]

  @Test func passiveDisabledOrDeletedOnEveryCoreLinkIsAnError() {
    for c in Self.isolating {
      #expect(
        Self.isolation(Self.node, c.change) == ["bulk-core-isolation|error|one change takes \(c.how) of a node that carries traffic"],
        "\(c.change)")
    }
  }

  @Test func twoOfThreeIsAWarning() {
    let three =
      Self.node + """
        set interfaces et-0/0/2 description "Core: cr4-dc4 et-0/0/9"
        set interfaces et-0/0/2 unit 0 family iso
        set protocols isis interface et-0/0/2.0 point-to-point

        """
    #expect(
      Self.isolation(three, "set protocols isis interface et-0/0/0.0 passive\nset protocols isis interface et-0/0/1.0 passive\n") == [
        "bulk-core-isolation|warning|one change takes isis off 2 of 3 core interfaces (et-0/0/0.0 passive, et-0/0/1.0 passive) of a node that carries traffic"
      ])
  }

  @Test func oneOfTwoOrACostedOutNodeIsQuiet() {
    #expect(Self.isolation(Self.node, "set protocols isis interface et-0/0/0.0 passive\n") == [])
    #expect(Self.isolation(Self.node, "delete protocols ldp interface et-0/0/1.0\n") == [])
    let drained = Self.node + "set protocols isis overload\n"
    #expect(Self.isolation(drained, "delete protocols isis interface et-0/0/0.0\ndelete protocols isis interface et-0/0/1.0\n") == [])
    // Links alone are the link check's (one finding, not two).
    #expect(
      Self.isolation(Self.node, "set interfaces et-0/0/0 disable\nset interfaces et-0/0/1 disable\n") == [
        "bulk-core-isolation|error|one change takes down 2 of 2 core links (et-0/0/0, et-0/0/1) of a node that carries traffic"
      ])
    // The protocol removed as a whole: the protocol check's finding only.
    #expect(
      Self.isolation(Self.node, "delete protocols ldp\n") == [
        "bulk-core-isolation|error|protocols ldp is removed or deactivated on a node that carries traffic"
      ])
  }

  @Test func aPlanStepThatMakesTheCorePassiveFires() throws {
    let plan = """
      #@ plan node=cr1-dc1 platform=mx10003 kind=change
      #@ baseline node.set
      #@ step passive "Make the core passive"
      set protocols isis interface et-0/0/0.0 passive
      set protocols isis interface et-0/0/1.0 passive
      #@ commit confirmed 10
      #@ verify manual "adjacencies"
      #@ confirm check

      """
    let r = lintPlan(plan, files: ["node.set": Self.node])
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    let f = fired(r.findings, .bulkCoreIsolation)
    #expect(
      summary(f) == [
        "bulk-core-isolation|error|one change takes isis off 2 of 2 core interfaces (et-0/0/0.0 passive, et-0/0/1.0 passive) of a node that carries traffic"
      ])
    #expect(f.first?.step == "passive")
    #expect(f.first?.location == FindingLocation(file: "p.plan", line: 4, column: 1))
  }
}

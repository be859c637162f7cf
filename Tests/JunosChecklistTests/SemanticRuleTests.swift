import JunosChecklist
import JunosConfig
import Testing

/// Rules 30–32 on changes to real configurations (Fixtures/checklist/semantic) and on snippets.
@Suite struct SemanticRuleTests {
  func lint(_ change: String, over base: String) throws -> [Finding] {
    let r = Checklist.lint(
      changes: try ChecklistFixtures.source("checklist/semantic/\(change)"),
      baseline: try ChecklistFixtures.source(base.contains("/") ? base : "checklist/semantic/\(base)"))
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    return r.findings
  }

  /// The leak on Batfish's as1border2: the prefix-list of the export to AS 3 replaced by
  /// `route-type internal`.
  @Test func routeTypeInternalLeaksToTheExternalPeer() throws {
    let f = fired(try lint("as1border2-route-type-leak.set", over: "as1border2.set"), .exportLeaksRoutes)
    let one = try #require(f.first)
    #expect(f.count == 1)
    #expect(one.severity == .error)
    #expect(one.location == FindingLocation(file: "checklist/semantic/as1border2-route-type-leak.set", line: 1, column: 1))
    #expect(one.path == "policy-options policy-statement as1_to_as3 term as3")
    // Active iBGP routes went out before (the BGP export default); internal routes of the IGPs did not.
    #expect(
      one.message.hasPrefix(
        "export to eBGP group as3 now accepts ospf internal, isis internal routes of any IPv4 prefix except 1.0.1.0/24, 1.0.2.0/24, 2.0.0.0/8, 2.128.0.0/16"
      ))
    #expect(
      one.message.contains(
        "(example 198.51.100.0/24 from ospf internal: rejected by the default policy before, accepted by as1_to_as3 term as3 now)"
      ))
  }

  /// The JVD border leaf exports to its spines through `( LEAF_TO_SPINE_FABRIC_OUT &&
  /// BGP-AOS-Policy )`. Rewritten as the list `[ A B ]`, the first policy's accept-all term decides
  /// alone: every static, OSPF, … route goes to the spines.
  @Test func anAndRewrittenAsAListLeaks() throws {
    let f = fired(
      try lint("jvd-borderleaf1-and-to-list.set", over: "configs/curly/jvd_dc_borderleaf1_ptx10001-36mr_evo.conf"), .exportLeaksRoutes)
    #expect(f.map(\.severity) == [.error])
    #expect(
      f.first?.message
        == "export to eBGP group l3clos-l neighbor 10.0.1.0 now accepts ospf, isis, static, local, aggregate, rip routes of any prefix (example 198.51.100.0/24 from ospf internal: rejected by BGP-AOS-Policy term BGP-AOS-Policy-100 before, accepted by LEAF_TO_SPINE_FABRIC_OUT term LEAF_TO_SPINE_FABRIC_OUT-20 now)"
    )
    #expect(f.first?.path == "policy-options policy-statement LEAF_TO_SPINE_FABRIC_OUT term LEAF_TO_SPINE_FABRIC_OUT-20")
  }

  /// A `!` put in front of the loop guard: the routes learned from the spine tier (community
  /// 0:15) go back to the spines.
  @Test func aNegatedGuardSendsTheSpinesRoutesBack() throws {
    let f = fired(
      try lint("jvd-borderleaf1-negated.set", over: "configs/curly/jvd_dc_borderleaf1_ptx10001-36mr_evo.conf"), .exportLeaksRoutes)
    #expect(f.map(\.severity) == [.error])
    #expect(
      f.first?.message.hasPrefix(
        "export to eBGP group l3clos-l neighbor 10.0.1.10 now accepts bgp routes of any prefix (example 198.51.100.0/24 from bgp internal community 0:15: rejected by LEAF_TO_SPINE_FABRIC_OUT term LEAF_TO_SPINE_FABRIC_OUT-10 before"
      ) == true)
  }

  /// A sanity check tightened from /25 to /24 rejects the ISP's only /24 at mx-msk-br1.
  @Test func aTightenedSanityCheckDropsTheProviderRoute() throws {
    let f = fired(try lint("mx-msk-br1-sanity-too-strict.set", over: "mx-msk-br1.conf"), .importDropsRoutes)
    #expect(f.map(\.severity) == [.error])
    #expect(
      f.first?.message
        == "import from eBGP group eBGP now rejects routes of 1.1.1.0/24 (example 1.1.1.0/24 from bgp external neighbor 198.18.255.1: accepted by POL-BGP-EBGP-IN term T-ISP before, rejected by POL-BGP-SANITY-CHECK term long-prefixes-reject now)"
    )
  }

  /// OSPF's export of connected routes starts taking BGP routes: an error, with the default route
  /// as the example.
  @Test func anIGPExportThatTakesBGPRoutesIsAnError() throws {
    let f = fired(try lint("as1border2-ospf-takes-bgp.set", over: "as1border2.set"), .igpExportWidened)
    #expect(f.map(\.severity) == [.error])
    #expect(f.first?.message.hasPrefix("ospf export now accepts bgp routes of any prefix (example 0.0.0.0/0 from bgp internal:") == true)
  }

  static let base = """
    set routing-options autonomous-system 64500
    set policy-options prefix-list OURS 203.0.113.0/24
    set policy-options prefix-list STATICS 192.168.36.0/25
    set policy-options policy-statement OUT term OURS from prefix-list OURS
    set policy-options policy-statement OUT term OURS then accept
    set policy-options policy-statement OUT term REST then reject
    set policy-options policy-statement OSPF-OUT term S from protocol static
    set policy-options policy-statement OSPF-OUT term S from prefix-list STATICS
    set policy-options policy-statement OSPF-OUT term S then accept
    set protocols ospf export OSPF-OUT
    set protocols ospf area 0 interface ge-0/0/0.0
    set protocols bgp group T1 type external
    set protocols bgp group T1 peer-as 174
    set protocols bgp group T1 export OUT
    set protocols bgp group T1 neighbor 192.0.2.1
    set protocols bgp group T2 type external
    set protocols bgp group T2 peer-as 3356
    set protocols bgp group T2 export OUT
    set protocols bgp group T2 neighbor 192.0.2.5
    set protocols bgp group IBGP type internal
    set protocols bgp group IBGP export OUT
    set protocols bgp group IBGP neighbor 10.255.0.2

    """

  /// One finding for the groups a policy change affects alike; eBGP makes it an error.
  @Test func groupsChangedAlikeAreReportedOnce() throws {
    let f = fired(lintChange(Self.base, "set policy-options policy-statement OUT term REST then accept\n"), .exportLeaksRoutes)
    let one = try #require(f.first)
    #expect(f.count == 1)
    #expect(one.severity == .error)
    #expect(one.message.hasPrefix("export to eBGP group T1, export to eBGP group T2, export to iBGP group IBGP now accepts routes of"))
    #expect(one.path == "policy-options policy-statement OUT term REST")
  }

  /// Toward iBGP alone, a leak is a warning.
  @Test func anIBGPLeakIsAWarning() {
    // (`set … export OPEN` alone would append OPEN behind OUT's final reject: no change at all.)
    let change =
      "delete protocols bgp group IBGP export\nset protocols bgp group IBGP export OPEN\nset policy-options policy-statement OPEN then accept\n"
    #expect(fired(lintChange(Self.base, change), .exportLeaksRoutes).map(\.severity) == [.warning])
  }

  /// A change that decides every route as before is silent, whatever its text.
  @Test func anEquivalentRewriteIsSilent() {
    let change = """
      delete policy-options policy-statement OUT term OURS from prefix-list OURS
      set policy-options policy-statement OUT term OURS from route-filter 203.0.113.0/24 exact

      """
    let f = lintChange(Self.base, change)
    #expect(fired(f, .exportLeaksRoutes).isEmpty && fired(f, .importDropsRoutes).isEmpty && fired(f, .igpExportWidened).isEmpty)
    // The syntactic rule sees a lost prefix-list; the semantic comparison lowers it to info.
    #expect(fired(f, .termMatchConditionsRemoved).map(\.severity).allSatisfy { $0 == .info })
  }

  /// A widened IGP export that stays within static routes of named prefixes is a warning.
  @Test func aNarrowIGPWideningIsAWarning() {
    let change = "set policy-options prefix-list STATICS 192.168.37.0/24\n"
    let f = fired(lintChange(Self.base, change), .igpExportWidened)
    #expect(f.map(\.severity) == [.warning])
    #expect(
      f.first?.message.hasPrefix("ospf export now accepts static routes of 192.168.37.0/24 (example 192.168.37.0/24 from static:") == true)
  }
}

import JunosChecklist
import Testing

/// Rules 18, 19, 21, 22 and 1 retuned on real configurations (JVD snippets, issue 13).
@Suite struct RetunedConfigRuleTests {
  /// jvd_llq_an4_acx7024: an iBGP group with a next-hop-self export and no import policy.
  static let an4IBGP = """
    set routing-options autonomous-system 64520
    set policy-options policy-statement nhs_commu_out term SET-REGION then community add FRONTHAUL
    set policy-options policy-statement nhs_commu_out term SET-REGION then next term
    set policy-options policy-statement nhs_commu_out term term2 from family evpn
    set policy-options policy-statement nhs_commu_out term term2 from protocol bgp
    set policy-options policy-statement nhs_commu_out term term2 then accept
    set policy-options policy-statement nhs_commu_out term nhs then next-hop self
    set policy-options policy-statement nhs_commu_out term nhs then accept
    set policy-options community FRONTHAUL members 65535:200
    set policy-options policy-statement PPLB then load-balance per-packet
    set policy-options policy-statement PPLB then accept
    set routing-options forwarding-table export PPLB
    set protocols bgp group ibgp_pag type internal
    set protocols bgp group ibgp_pag local-address 192.168.1.7
    set protocols bgp group ibgp_pag family evpn signaling
    set protocols bgp group ibgp_pag export nhs_commu_out
    set protocols bgp group ibgp_pag neighbor 192.168.1.3
    set protocols bgp group ibgp_pag neighbor 192.168.1.4

    """

  @Test func iBGPWithoutImportAndPPLBAndNextHopSelfAreQuiet() {
    let f = lintConfig(Self.an4IBGP)
    #expect(summary(fired(f, .bgpSessionWithoutPolicy)) == [])
    #expect(summary(fired(f, .matchAllAcceptTerm)) == [])
  }

  @Test func iBGPWithoutAnyPolicyIsOneInfo() {
    let text = """
      set routing-options autonomous-system 64512
      set protocols bgp group macsec type internal
      set protocols bgp group macsec neighbor 192.168.0.1
      set protocols bgp group macsec neighbor 192.168.0.2

      """
    #expect(
      summary(fired(lintConfig(text), .bgpSessionWithoutPolicy)) == [
        "bgp-session-without-policy|info|iBGP group macsec: 192.168.0.1, 192.168.0.2 have no export policy (none at neighbor, group or protocol level): the default advertises only the BGP routes"
      ])
  }

  @Test func eBGPStaysAnErrorOncePerGroup() throws {
    // jvd_ewan_wanedge2_mx10008: a PE-CE session in a VRF with no policy at all.
    let vrf = """
      set routing-instances l3vpn_Spoke_2_1 instance-type vrf
      set routing-instances l3vpn_Spoke_2_1 protocols bgp group v4spirent type external
      set routing-instances l3vpn_Spoke_2_1 protocols bgp group v4spirent family inet any
      set routing-instances l3vpn_Spoke_2_1 protocols bgp group v4spirent neighbor 10.50.0.1 local-address 10.50.0.2
      set routing-instances l3vpn_Spoke_2_1 protocols bgp group v4spirent neighbor 10.50.0.1 peer-as 64510
      set routing-instances l3vpn_Spoke_2_1 protocols bgp group v4spirent neighbor 10.50.0.1 as-override

      """
    let f = lintConfig(vrf)
    #expect(
      summary(fired(f, .bgpSessionWithoutPolicy)) == [
        "bgp-session-without-policy|error|eBGP group v4spirent in routing-instance l3vpn_Spoke_2_1: 10.50.0.1 has no import or export policy (none at neighbor, group or protocol level)"
      ])
    // One finding for the group, whatever each neighbor lacks.
    let mixed = """
      set policy-options policy-statement TRANSIT-IN term rest then reject
      set protocols bgp group TRANSIT type external
      set protocols bgp group TRANSIT neighbor 198.51.100.1 peer-as 64511
      set protocols bgp group TRANSIT neighbor 198.51.100.1 export TRANSIT-IN
      set protocols bgp group TRANSIT neighbor 198.51.100.3 peer-as 64511
      set protocols bgp group TRANSIT neighbor 198.51.100.5 peer-as 64511
      set protocols bgp group TRANSIT neighbor 198.51.100.5 import TRANSIT-IN

      """
    let m = fired(lintConfig(mixed), .bgpSessionWithoutPolicy)
    #expect(
      summary(m) == [
        "bgp-session-without-policy|error|eBGP group TRANSIT: 198.51.100.1 has no import policy; 198.51.100.3 has no import or export policy; 198.51.100.5 has no export policy (none at neighbor, group or protocol level)"
      ])
    #expect(try #require(m.first).path == "protocols bgp group TRANSIT")
  }

  @Test func matchAllAcceptStillFiresWhereRoutesSpread() {
    // The same next-hop-self term toward eBGP exports everything.
    let ebgp =
      Self.an4IBGP + """
        set protocols bgp group CUSTOMER type external
        set protocols bgp group CUSTOMER peer-as 65001
        set protocols bgp group CUSTOMER import nhs_commu_out
        set protocols bgp group CUSTOMER export nhs_commu_out
        set protocols bgp group CUSTOMER neighbor 192.0.2.1

        """
    #expect(
      summary(fired(lintConfig(ebgp), .matchAllAcceptTerm)) == [
        "match-all-accept-term|error|policy nhs_commu_out term nhs has no match conditions and accepts every route; it is applied as export to eBGP group CUSTOMER"
      ])
    // PPLB applied as an IGP export too.
    let igp = Self.an4IBGP + "set protocols isis export PPLB\n"
    #expect(
      summary(fired(lintConfig(igp), .matchAllAcceptTerm)) == [
        "match-all-accept-term|error|policy PPLB has no match conditions and accepts every route; it is applied as isis export"
      ])
  }

  @Test func aCommunityConditionRestrictsIGPExport() {
    let tagged = """
      set policy-options community REDISTRIBUTE members 64500:999
      set policy-options policy-statement IGP-EXPORT term bgp from protocol bgp
      set policy-options policy-statement IGP-EXPORT term bgp from community REDISTRIBUTE
      set policy-options policy-statement IGP-EXPORT term bgp then accept
      set policy-options policy-statement IGP-EXPORT term rest then reject
      set protocols isis export IGP-EXPORT

      """
    #expect(summary(fired(lintConfig(tagged), .igpExportAdmitsBGP)) == [])
    let untagged = tagged.replacingFirst("set policy-options policy-statement IGP-EXPORT term bgp from community REDISTRIBUTE\n", with: "")
    #expect(
      summary(fired(lintConfig(untagged), .igpExportAdmitsBGP)) == [
        "igp-export-admits-bgp|error|isis export accepts every BGP route (policy IGP-EXPORT term bgp)"
      ])
  }

  /// The BBE JVD's PPPoE subscriber VRF (bng1_mx304): the pool's aggregate is exported to the VPN.
  static let bng = """
    set policy-options community PPPOE_SUBS_COMM_1 members target:20000:1031
    set policy-options community PPPOE_SUBS_COMM_2 members target:20000:1032
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 1 from protocol direct
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 1 then community add PPPOE_SUBS_COMM_1
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 1 then next-hop self
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 1 then accept
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 2 from protocol aggregate
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 2 from route-filter 10.25.0.0/16 exact
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 2 then community add PPPOE_SUBS_COMM_2
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 2 then next-hop self
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-EXPORT term 2 then accept
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-IMPORT term 1 from community PPPOE_SUBS_COMM_1
    set policy-options policy-statement PS-PPPOE-SUBS-1-VRF-IMPORT term 1 then accept
    set routing-instances PPPOE_SUBS_1 instance-type vrf
    set routing-instances PPPOE_SUBS_1 routing-options aggregate route 10.25.0.0/16
    set routing-instances PPPOE_SUBS_1 access address-assignment pool pppv4-pool family inet network 10.25.0.0/16
    set routing-instances PPPOE_SUBS_1 route-distinguisher 207.207.207.207:1031
    set routing-instances PPPOE_SUBS_1 vrf-import PS-PPPOE-SUBS-1-VRF-IMPORT
    set routing-instances PPPOE_SUBS_1 vrf-export PS-PPPOE-SUBS-1-VRF-EXPORT
    set routing-instances PPPOE_SUBS_1 vrf-table-label

    """

  @Test func aSubscriberPoolExportedByVRFExportIsQuiet() {
    #expect(summary(fired(lintConfig(Self.bng), .unconditionalAggregateExported)) == [])
    // The pool declared globally (top-level access) counts for the instance too.
    let global = Self.bng.replacingFirst(
      "set routing-instances PPPOE_SUBS_1 access address-assignment pool pppv4-pool family inet network 10.25.0.0/16\n",
      with: "set access address-assignment pool pppv4-pool family inet network 10.25.0.0/16\n")
    #expect(summary(fired(lintConfig(global), .unconditionalAggregateExported)) == [])
    // Without the pool it is an aggregate like any other.
    let noPool = Self.bng.replacingFirst(
      "set routing-instances PPPOE_SUBS_1 access address-assignment pool pppv4-pool family inet network 10.25.0.0/16\n", with: "")
    #expect(
      summary(fired(lintConfig(noPool), .unconditionalAggregateExported)) == [
        "unconditional-aggregate-exported|error|aggregate route 10.25.0.0/16 has no contributor policy and is advertised by vrf-export of PPPOE_SUBS_1 (policy PS-PPPOE-SUBS-1-VRF-EXPORT term 2)"
      ])
  }

  @Test func thePrefixLimitHintNamesTheGroupsFamily() throws {
    let v6 = """
      set policy-options policy-statement IN term rest then reject
      set protocols bgp group v6ixia type external
      set protocols bgp group v6ixia family inet6 unicast
      set protocols bgp group v6ixia import IN
      set protocols bgp group v6ixia export IN
      set protocols bgp group v6ixia neighbor 2001:db8::11:1:7:7cf peer-as 64510

      """
    let f = try #require(fired(lintConfig(v6), .bgpMissingPrefixLimit).first)
    #expect(f.message == "eBGP group v6ixia has no prefix-limit (neighbors: 2001:db8::11:1:7:7cf)")
    #expect(f.hint == "Add `family inet6 unicast prefix-limit maximum N` (with `teardown`) to the group or neighbor.")
    // No family configured: by the neighbors' addresses.
    let bare = v6.replacingFirst("set protocols bgp group v6ixia family inet6 unicast\n", with: "")
    #expect(
      try #require(fired(lintConfig(bare), .bgpMissingPrefixLimit).first).hint
        == "Add `family inet6 unicast prefix-limit maximum N` (with `teardown`) to the group or neighbor.")
    let dual = bare + "set protocols bgp group v6ixia neighbor 10.11.7.206 peer-as 64510\n"
    #expect(
      try #require(fired(lintConfig(dual), .bgpMissingPrefixLimit).first).hint
        == "Add `family inet unicast prefix-limit maximum N` and `family inet6 unicast prefix-limit maximum N` (with `teardown`) to the group or neighbor."
    )
  }
}

/// jvd_dc_borderleaf1_ptx10001-36mr_evo: an accept-all policy AND-ed with a filtering one.
@Suite struct PolicyExpressionTests {
  @Test func anAcceptAllOperandOfAndIsQuiet() {
    let text = """
      set policy-options community FROM_SPINE_EVPN_TIER members 0:14
      set policy-options policy-statement EVPN_EXPORT term EVPN_EXPORT-4095 then accept
      set policy-options policy-statement LEAF_TO_SPINE_EVPN_OUT term LEAF_TO_SPINE_EVPN_OUT-10 from protocol bgp
      set policy-options policy-statement LEAF_TO_SPINE_EVPN_OUT term LEAF_TO_SPINE_EVPN_OUT-10 from community FROM_SPINE_EVPN_TIER
      set policy-options policy-statement LEAF_TO_SPINE_EVPN_OUT term LEAF_TO_SPINE_EVPN_OUT-10 then reject
      set policy-options policy-statement LEAF_TO_SPINE_EVPN_OUT term LEAF_TO_SPINE_EVPN_OUT-20 then accept
      set protocols bgp group l3clos-l-evpn type external
      set protocols bgp group l3clos-l-evpn export ( LEAF_TO_SPINE_EVPN_OUT && EVPN_EXPORT )
      set protocols bgp group l3clos-l-evpn neighbor 10.0.1.0 peer-as 4200000001

      """
    #expect(
      summary(fired(lintConfig(text), .matchAllAcceptTerm)) == [
        "match-all-accept-term|warning|policy LEAF_TO_SPINE_EVPN_OUT term LEAF_TO_SPINE_EVPN_OUT-20 has no match conditions and accepts every route; it is applied as export to eBGP group l3clos-l-evpn"
      ])
  }
}

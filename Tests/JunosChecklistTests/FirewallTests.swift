import Foundation
import JunosChecklist
import JunosConfig
import Testing

/// The filters of `set` lines (effective tree), and the chain applied as lo0.0's input.
func firewall(_ text: String) -> FirewallConfig {
  let parsed = ConfigParser.parse(SourceFile(path: "t.set", text: text))
  #expect(!parsed.hasErrors, "\(parsed.diagnostics.map(\.rendered))")
  return FirewallConfig(tree: parsed.tree.effective())
}

func lo0Chain(_ fw: FirewallConfig) -> FilterChain? {
  guard let a = fw.attachments.first(where: { $0.isRoutingEngine }) else { return nil }
  return fw.chain(a.filters, family: a.family)
}

func v4(_ s: String) -> IPPrefix { IPPrefix(s)! }

func packet(
  _ src: String, _ dst: String = "10.255.0.1", proto: Int = 6, sport: Int = 40000, dport: Int = 0, flags: Int = 0, icmp: Int = 0
) -> Packet {
  Packet(
    source: v4(src), destination: v4(dst), protocolNumber: proto, sourcePort: sport, destinationPort: dport, tcpFlags: flags, icmpType: icmp
  )
}

@Suite struct FirewallEvaluationTests {
  let head = "set interfaces lo0 unit 0 family inet filter input F\nset interfaces lo0 unit 0 family inet address 10.255.0.1/32\n"

  func chain(_ lines: String) -> FilterChain {
    let c = lo0Chain(firewall(head + lines))
    #expect(c != nil)
    return c!
  }

  @Test func theFirstMatchingTermDecides() {
    let c = chain(
      """
      set firewall family inet filter F term A from protocol tcp
      set firewall family inet filter F term A then discard
      set firewall family inet filter F term B from destination-port 22
      set firewall family inet filter F term B then accept
      """)
    let e = c.evaluate(packet("192.0.2.1", dport: 22))
    #expect(e.verdict == .discard)
    #expect(e.term == FilterTermRef(filter: "F", term: "A"))
    #expect(c.evaluate(packet("192.0.2.1", proto: 17, dport: 22)).term?.term == "B")
  }

  @Test func noMatchingTermIsTheImplicitDiscard() {
    let c = chain(
      """
      set firewall family inet filter F term A from protocol udp
      set firewall family inet filter F term A then accept
      """)
    let e = c.evaluate(packet("192.0.2.1"))
    #expect(e.verdict == .discard)
    #expect(e.term == nil)
  }

  @Test func aTermWithoutATerminatingActionAccepts() {
    let c = chain(
      """
      set firewall filter F term COUNT-ONLY from protocol tcp
      set firewall filter F term COUNT-ONLY then count seen
      set firewall filter F term NEXT from protocol udp
      set firewall filter F term NEXT then count u
      set firewall filter F term NEXT then next term
      set firewall filter F term NO-THEN from protocol udp
      """)
    #expect(c.evaluate(packet("192.0.2.1")).verdict == .accept)
    let u = c.evaluate(packet("192.0.2.1", proto: 17))
    #expect(u.verdict == .accept)
    #expect(u.term?.term == "NO-THEN")
    #expect(u.trace.map(\.term) == ["NEXT", "NO-THEN"])
    #expect(c.evaluate(packet("192.0.2.1", proto: 1)).verdict == .discard)
  }

  @Test func exceptEntriesGoByLongestMatch() {
    let c = chain(
      """
      set firewall family inet filter F term A from source-address 10.0.0.0/8
      set firewall family inet filter F term A from source-address 10.1.0.0/16 except
      set firewall family inet filter F term A from source-address 10.1.1.0/24
      set firewall family inet filter F term A then accept
      """)
    #expect(c.evaluate(packet("10.1.1.5")).verdict == .accept)
    #expect(c.evaluate(packet("10.1.2.5")).verdict == .discard)
    #expect(c.evaluate(packet("10.2.0.1")).verdict == .accept)
    #expect(c.evaluate(packet("11.0.0.1")).verdict == .discard)
  }

  @Test func applyPathPrefixListsExpandOverTheConfiguration() {
    let c = chain(
      """
      set protocols bgp group G neighbor 192.0.2.1
      set protocols bgp group H neighbor 198.51.100.7
      set policy-options prefix-list PEERS apply-path "protocols bgp group <*> neighbor <*>"
      set firewall family inet filter F term BGP from source-prefix-list PEERS
      set firewall family inet filter F term BGP from protocol tcp
      set firewall family inet filter F term BGP from port bgp
      set firewall family inet filter F term BGP then accept
      """)
    #expect(c.evaluate(packet("192.0.2.1", dport: 179)).verdict == .accept)
    #expect(c.evaluate(packet("198.51.100.7", sport: 179, dport: 50000)).verdict == .accept)
    #expect(c.evaluate(packet("198.51.100.8", dport: 179)).verdict == .discard)
  }

  @Test func portNamesAndRanges() {
    let c = chain(
      """
      set firewall family inet filter F term A from destination-port [ ssh ntp 1024-2048 ftp-data snmp-snmptrap ]
      set firewall family inet filter F term A then accept
      """)
    for p in [22, 123, 1024, 1500, 2048, 20, 161, 162] { #expect(c.evaluate(packet("192.0.2.1", dport: p)).verdict == .accept, "\(p)") }
    for p in [21, 1023, 2049, 179, 163] { #expect(c.evaluate(packet("192.0.2.1", dport: p)).verdict == .discard, "\(p)") }
  }

  @Test func tcpEstablishedIsAckOrRst() {
    let c = chain(
      """
      set firewall family inet filter F term A from protocol tcp
      set firewall family inet filter F term A from tcp-established
      set firewall family inet filter F term A then accept
      set firewall family inet filter F term B from tcp-flags "syn & !ack"
      set firewall family inet filter F term B then reject
      """)
    #expect(c.evaluate(packet("192.0.2.1", flags: 0x10)).verdict == .accept)
    #expect(c.evaluate(packet("192.0.2.1", flags: 0x04)).verdict == .accept)
    #expect(c.evaluate(packet("192.0.2.1", flags: 0x12)).verdict == .accept)
    #expect(c.evaluate(packet("192.0.2.1", flags: 0x02)).verdict == .reject)
    #expect(c.evaluate(packet("192.0.2.1", flags: 0x01)).verdict == .discard)
  }

  @Test func aNestedFilterTermStandsForItsTerms() {
    let c = chain(
      """
      set firewall family inet filter COMMON term SSH from protocol tcp
      set firewall family inet filter COMMON term SSH from destination-port ssh
      set firewall family inet filter COMMON term SSH then accept
      set firewall family inet filter F term C filter COMMON
      set firewall family inet filter F term ICMP from protocol icmp
      set firewall family inet filter F term ICMP then accept
      """)
    #expect(c.terms.map(\.ref.description) == ["filter COMMON term SSH", "filter F term ICMP"])
    #expect(c.evaluate(packet("192.0.2.1", dport: 22)).term == FilterTermRef(filter: "COMMON", term: "SSH"))
    #expect(c.evaluate(packet("192.0.2.1", proto: 1)).verdict == .accept)
    #expect(c.evaluate(packet("192.0.2.1", dport: 23)).verdict == .discard)
  }

  @Test func anInputListIsOneChainWithOneImplicitDiscard() {
    let fw = firewall(
      """
      set interfaces lo0 unit 0 family inet filter input-list [ FIRST SECOND ]
      set firewall family inet filter FIRST term A from protocol udp
      set firewall family inet filter FIRST term A then discard
      set firewall family inet filter SECOND term B from protocol udp
      set firewall family inet filter SECOND term B then accept
      set firewall family inet filter SECOND term C from protocol tcp
      set firewall family inet filter SECOND term C then accept
      """)
    #expect(fw.attachments.map(\.filters) == [["FIRST", "SECOND"]])
    let c = lo0Chain(fw)!
    #expect(c.evaluate(packet("192.0.2.1", proto: 17)).term == FilterTermRef(filter: "FIRST", term: "A"))
    #expect(c.evaluate(packet("192.0.2.1", proto: 6)).term == FilterTermRef(filter: "SECOND", term: "C"))
    #expect(c.evaluate(packet("192.0.2.1", proto: 1)).verdict == .discard)
  }

  @Test func anUnmodelledConditionIsNeverSilentlyMatched() {
    let old = chain(
      """
      set firewall family inet filter F term A from protocol udp
      set firewall family inet filter F term A from packet-length 100
      set firewall family inet filter F term A then discard
      set firewall family inet filter F term B then accept
      """)
    #expect(old.evaluate(packet("192.0.2.1", proto: 17)).verdict == .unmodelled)
    #expect(old.evaluate(packet("192.0.2.1", proto: 6)).verdict == .accept)
    let new = chain(
      """
      set firewall family inet filter F term B then accept
      """)
    let changes = FirewallComparison.compare(old: old, new: new)
    #expect(changes.count == 1)
    #expect(changes.allSatisfy { !$0.isDetermined && $0.reproduces })
    #expect(changes.first?.contains(packet("192.0.2.9", proto: 17)) == true)
  }

  @Test func theComparisonNamesTheRegionAndBothTerms() {
    let old = chain(
      """
      set firewall family inet filter F term BFD from protocol udp
      set firewall family inet filter F term BFD from destination-port 3784
      set firewall family inet filter F term BFD then accept
      """)
    let new = chain(
      """
      set firewall family inet filter F term BFD from source-address 192.0.2.1/32
      set firewall family inet filter F term BFD from protocol udp
      set firewall family inet filter F term BFD from destination-port 3784
      set firewall family inet filter F term BFD then accept
      """)
    let changes = FirewallComparison.compare(old: old, new: new)
    #expect(changes.count == 1)
    let c = changes[0]
    #expect(c.reproduces)
    #expect(c.oldVerdict == .accept && c.newVerdict == .discard && c.newTerm == nil)
    #expect(c.region.contains("protocol 17") && c.region.contains("destination-port 3784"))
    #expect(!c.contains(packet("192.0.2.1", proto: 17, dport: 3784)))
    #expect(c.contains(packet("192.0.2.2", proto: 17, dport: 3784)))
  }
}

/// Issue 16's pattern over a real router (Fixtures/checklist/incidents/re-filter-*).
@Suite struct REFilterIncidentTests {
  @Test func narrowingBFDToTheBGPPeersCutsTheOSPFNeighbours() throws {
    let r = Checklist.lint(
      changes: try ChecklistFixtures.source("checklist/incidents/re-filter-bfd-narrowed.set"),
      baseline: try ChecklistFixtures.source("checklist/incidents/re-filter-baseline.conf"))
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    let f = r.findings.filter { $0.rule == .reFilterCutsProtocol }
    #expect(f.map(\.severity) == [.error, .error, .error])
    #expect(f.allSatisfy { $0.location == FindingLocation(file: "checklist/incidents/re-filter-bfd-narrowed.set", line: 1, column: 1) })
    #expect(
      f.map(\.message).contains(
        "lo0 filter PROTECT-RE now discards BFD (udp 3784) from 10.12.99.9, the OSPF neighbour on ge-0/0/1.0 (term REST, was accepted by term BFD), e.g. udp 10.12.99.9:49152 → 10.12.99.8:3784"
      ))
    #expect(Set(f.map { $0.message.split(separator: " ")[9] }) == ["10.12.99.9,", "10.12.99.7,", "10.12.99.1,"])
    #expect(f.allSatisfy { $0.path == "firewall family inet filter PROTECT-RE term REST" })
  }

  @Test func theBaselineIsQuietAndTheNarrowedConfigurationWarns() throws {
    let base = try ChecklistFixtures.source("checklist/incidents/re-filter-baseline.conf")
    #expect(!Checklist.lint(config: base).findings.contains { $0.rule == .reFilterCutsProtocol })
    var text = String(decoding: base.bytes, as: UTF8.self)
    text = text.replacingOccurrences(
      of: "            term BFD {\n                from {\n",
      with:
        "            term BFD {\n                from {\n                    source-prefix-list {\n                        BGP-PEERS;\n                    }\n"
    )
    let r = Checklist.lint(config: SourceFile(path: "narrowed.conf", text: text))
    let f = r.findings.filter { $0.rule == .reFilterCutsProtocol }
    #expect(f.count == 3)
    #expect(f.allSatisfy { $0.severity == .warning && $0.message.contains("(term REST)") })
  }

  @Test func theComparisonAPIFindsTheSameRegions() throws {
    let base = ConfigParser.parse(try ChecklistFixtures.source("checklist/incidents/re-filter-baseline.conf")).tree
    let after = ConfigParser.load(try ChecklistFixtures.source("checklist/incidents/re-filter-bfd-narrowed.set"), onto: base).tree
    let diffs = FirewallComparison.compare(old: base.effective(), new: after.effective())
    #expect(diffs.map(\.attachment.key) == ["lo0.0 family inet input"])
    let changes = diffs.flatMap(\.changes)
    #expect(!changes.isEmpty)
    #expect(changes.allSatisfy { $0.reproduces })
    #expect(changes.allSatisfy { $0.oldTerm?.term == "BFD" && $0.newTerm?.term == "REST" })
    #expect(diffs[0].text.hasPrefix("lo0.0 family inet input: PROTECT-RE → PROTECT-RE:"))
    // The plain-values form encodes as JSON, for a `compare --semantic`.
    let json = String(decoding: try JSONEncoder().encode(diffs.map(\.record)), as: UTF8.self)
    #expect(json.contains("\"unit\":\"lo0.0\"") && json.contains("\"oldVerdict\":\"accept\"") && json.contains("\"term\":\"REST\""))
  }
}

@Suite struct ControlPlaneFlowTests {
  @Test func theFixtureRouterNeedsItsProtocolsAndServers() throws {
    let tree = ConfigParser.parse(try ChecklistFixtures.source("checklist/incidents/re-filter-baseline.conf")).tree.effective()
    let flows = ControlPlane.flows(RouterModel(effective: tree))
    let labels = Set(flows.map(\.label))
    #expect(labels.contains("BFD (udp 3784) from 10.12.99.9, the OSPF neighbour on ge-0/0/1.0"))
    #expect(labels.contains("OSPF (protocol 89) from 10.12.99.1, the OSPF neighbour on ge-0/0/3.0"))
    #expect(labels.contains("BGP (tcp 179) from 10.255.99.2, BGP neighbor of group iBGP"))
    #expect(labels.contains("BFD (udp 3784) from 198.18.255.1, BGP neighbor of group eBGP"))
    #expect(labels.contains("NTP (udp source-port 123) from 10.253.0.1, an NTP server"))
    #expect(labels.contains("DNS (udp source-port 53) from 10.253.0.53, a name server"))
    // The passive lo0.0 of OSPF has no neighbour; iBGP has no BFD.
    #expect(!flows.contains { $0.role.contains("lo0") })
    #expect(!labels.contains { $0.hasPrefix("BFD") && $0.contains("group iBGP") })
    let ibgp = flows.first { $0.peer == "10.255.99.2" }
    #expect(ibgp?.packets.destinations == [IPPrefix("10.255.99.1/32")!])
  }

  @Test func aThirtyPrefixImpliesTheOtherHostAndALanTheSubnet() throws {
    let text = """
      set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/30
      set interfaces ge-0/0/1 unit 0 family inet address 10.1.0.10/24
      set interfaces ge-0/0/1 unit 0 family inet6 address 2001:db8::1/127
      set protocols ospf area 0 interface ge-0/0/0.0 bfd-liveness-detection minimum-interval 100
      set protocols ospf area 0 interface ge-0/0/1.0
      set protocols rsvp interface ge-0/0/1.0
      set protocols bgp group V6 neighbor 2001:db8::
      set protocols bgp group V6 bfd-liveness-detection minimum-interval 100
      set snmp community public clients 192.0.2.0/24
      set snmp community public clients 0.0.0.0/0 restrict
      """
    let tree = ConfigParser.parse(SourceFile(path: "t.set", text: text)).tree.effective()
    let labels = Set(ControlPlane.flows(RouterModel(effective: tree)).map(\.label))
    #expect(labels.contains("BFD (udp 3784) from 10.0.0.2, the OSPF neighbour on ge-0/0/0.0"))
    #expect(labels.contains("OSPF (protocol 89) from 10.1.0.0/24, the OSPF neighbour on ge-0/0/1.0"))
    #expect(labels.contains("RSVP (protocol 46) from 10.1.0.0/24, the RSVP neighbour on ge-0/0/1.0"))
    #expect(labels.contains("BFD (udp 3784) from 2001:db8::, BGP neighbor of group V6"))
    #expect(labels.contains("SNMP (udp 161) from 192.0.2.0/24, an SNMP client"))
    #expect(!labels.contains { $0.contains("0.0.0.0/0") })
  }
}

@Suite struct REFilterChangeTests {
  let base = """
    set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/31
    set interfaces ge-0/0/0 unit 0 family inet6 address 2001:db8::1/127
    set interfaces lo0 unit 0 family inet address 10.255.0.1/32
    set protocols bgp group V6 neighbor 2001:db8::
    set protocols bgp group V4 neighbor 10.0.0.0
    set firewall family inet6 filter RE6 term BGP from next-header tcp
    set firewall family inet6 filter RE6 term BGP from port bgp
    set firewall family inet6 filter RE6 term BGP then accept
    set firewall family inet6 filter RE6 term ICMP from next-header icmp6
    set firewall family inet6 filter RE6 term ICMP from icmp6-type [ neighbor-solicit neighbor-advertisement ]
    set firewall family inet6 filter RE6 term ICMP then accept
    set firewall filter RE4 term BGP from protocol tcp
    set firewall filter RE4 term BGP from destination-port bgp
    set firewall filter RE4 term BGP then accept

    """

  func lint(_ before: String, _ change: String) -> [Finding] {
    let r = Checklist.lint(changes: SourceFile(path: "change.set", text: change), baseline: SourceFile(path: "base.set", text: before))
    #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
    return r.findings.filter { $0.rule == .reFilterCutsProtocol }
  }

  @Test func anIPv6FilterIsCheckedAgainstTheIPv6Peers() {
    // `port bgp` takes both directions: applying RE6 cuts nothing.
    #expect(lint(base, "set interfaces lo0 unit 0 family inet6 filter input RE6\n").isEmpty)
    let applied = base + "set interfaces lo0 unit 0 family inet6 filter input RE6\n"
    let f = lint(
      applied,
      "delete firewall family inet6 filter RE6 term BGP from port\nset firewall family inet6 filter RE6 term BGP from destination-port bgp\n"
    )
    #expect(f.count == 1)
    #expect(
      f.first?.message.hasPrefix(
        "lo0 filter RE6 now discards BGP (tcp source-port 179) from 2001:db8::, BGP neighbor of group V6 (the implicit discard at the end, was accepted by term BGP)"
      ) == true)
    #expect(f.first?.location.line == 1)
  }

  @Test func aFilterThatTakesOnlyOneDirectionOfBGPCutsTheOther() {
    let f = lint(base, "set interfaces lo0 unit 0 family inet filter input RE4\n")
    #expect(f.count == 1)
    #expect(
      f.first?.message.hasPrefix(
        "lo0 filter RE4 now discards BGP (tcp source-port 179) from 10.0.0.0, BGP neighbor of group V4 (the implicit discard at the end, was accepted by no filter)"
      ) == true)
  }

  @Test func removingTheFilterOrAnUnrelatedChangeIsQuiet() {
    let applied = base + "set interfaces lo0 unit 0 family inet filter input RE4\n"
    #expect(lint(applied, "delete interfaces lo0 unit 0 family inet filter\n").isEmpty)
    #expect(lint(applied, "set system host-name r1\n").isEmpty)
  }

  /// The common "to the router's own addresses" list: an `apply-path` over the interface
  /// addresses (their subnets), with BGP from a connected eBGP neighbor to the unit's address.
  @Test func aDestinationListOfTheRoutersOwnSubnetsKeepsBGP() {
    let own = """
      set interfaces lo0 unit 0 family inet filter input RE
      set policy-options prefix-list OWN apply-path "interfaces <*> unit <*> family inet address <*>"
      set firewall filter RE term BGP from destination-prefix-list OWN
      set firewall filter RE term BGP from protocol tcp
      set firewall filter RE term BGP from port bgp
      set firewall filter RE term BGP then accept

      """
    let f = lint(base + own, "set firewall filter RE term BGP from destination-prefix-list OWN except\n")
    #expect(f.count == 2)
    #expect(f.allSatisfy { $0.message.contains("from 10.0.0.0, BGP neighbor of group V4") && $0.message.contains("→ 10.0.0.1:") })
    let tree = ConfigParser.parse(SourceFile(path: "t.set", text: base + own)).tree.effective()
    let v4 = ControlPlane.flows(RouterModel(effective: tree)).first { $0.peer == "10.0.0.0" }
    #expect(v4?.packets.destinations == [IPPrefix("10.0.0.1/32")!])
    #expect(
      lint(
        base,
        "set interfaces lo0 unit 0 family inet filter input RE\n" + own.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n"
      ).isEmpty)
  }

  @Test func aFlowThatNowReachesAnUnmodelledTermIsAWarningNotAGuess() {
    let applied = """
      set interfaces lo0 unit 0 family inet filter input RE
      set firewall filter RE term BGP from protocol tcp
      set firewall filter RE term BGP from port bgp
      set firewall filter RE term BGP then accept

      """
    let f = lint(base + applied, "set firewall filter RE term BGP from packet-length 100\n")
    #expect(f.map(\.severity) == [.warning, .warning])
    #expect(
      f.first?.message.hasPrefix(
        "lo0 filter RE may now discard BGP (tcp 179) from 10.0.0.0, BGP neighbor of group V4: it reaches term BGP, whose packet-length 100 is not modelled, e.g. tcp 10.0.0.0:179 → 10.0.0.1:179"
      ) == true, "\(f.map(\.message))")
  }

  @Test func aNestingDeeperThanOneLevelIsNotAChain() {
    let fw = firewall(
      """
      set interfaces lo0 unit 0 family inet filter input A
      set firewall filter A term X filter B
      set firewall filter B term Y filter C
      set firewall filter C term Z then accept
      """)
    #expect(lo0Chain(fw) == nil)
  }
}

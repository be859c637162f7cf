import JunosConfig
import Testing

@testable import JunosChecklist

/// Parses `display set` lines into policy options.
private func options(_ lines: [String]) -> PolicyOptions {
  let parsed = ConfigParser.parse(SourceFile(path: "t", text: lines.map { "set policy-options \($0)\n" }.joined()))
  #expect(parsed.diagnostics.isEmpty)
  return PolicyOptions(tree: parsed.tree)
}

private func compare(
  _ old: [String], _ new: [String], chain: [String] = ["P"], _ attachment: DefaultPolicy, scope: RouteScope = .any
) -> PolicyDifference {
  PolicyDifference.compare(old: options(old), oldChain: chain, new: options(new), newChain: chain, attachment: attachment, scope: scope)
}

/// The symbolic comparison on the Junos subtleties it must get right, one per test; every
/// reported example is re-run through the concrete evaluator (`verified`).
@Suite struct PolicyComparisonTests {
  /// The issue's leak: the prefix-list goes, `route-type internal` stays.
  @Test func aTermLeftWithRouteTypeInternalLeaksEveryInternalRoute() throws {
    let old = [
      "prefix-list OURS 203.0.113.0/24", "policy-statement P term T from prefix-list OURS",
      "policy-statement P term T from route-type internal", "policy-statement P term T then accept",
      "policy-statement P term R then reject",
    ]
    let new = old.filter { !$0.hasSuffix("from prefix-list OURS") }
    let d = compare(old, new, .bgpExport)
    let c = try #require(d.changes.first)
    #expect(d.changes.map(\.kind) == [.nowAccepts])
    #expect(c.verified)
    #expect(c.example.routeType == .internal)
    #expect(c.origins == ["bgp internal", "ospf internal", "isis internal"])
    #expect(c.prefixes == ["any IPv4 prefix except 203.0.113.0/24", "any IPv6 prefix"])
    #expect(c.before.decision == .reject(TermRef(policy: "P", term: "R")))
    #expect(c.after.decision == .accept(TermRef(policy: "P", term: "T")))
  }

  /// A longer filter added to a term hides the shorter one for the routes inside it: no fallback.
  @Test func aLongerFilterShadowsTheShorterOneWithoutFallback() throws {
    let old = ["policy-statement P term T from route-filter 10.0.0.0/8 orlonger", "policy-statement P term T then accept"]
    let new = old + ["policy-statement P term T from route-filter 10.1.0.0/16 exact"]
    let d = compare(old, new, .igpExport)
    let c = try #require(d.changes.first)
    #expect(d.changes.count == 1)
    #expect(c.kind == .nowRejects && c.verified)
    #expect(c.prefixes == ["10.1.0.0/16 longer"])
    #expect(IPPrefix("10.1.0.0/16")!.contains(c.example.prefix) && c.example.prefix.length > 16)
  }

  /// `next policy` hands routes to the next policy of the chain, whose change then shows.
  @Test func nextPolicySendsRoutesToTheChangedPolicy() throws {
    let common = [
      "policy-statement A term T from route-filter 10.0.0.0/8 orlonger", "policy-statement A term T then next policy",
      "policy-statement A term R then reject",
    ]
    let d = compare(
      common + ["policy-statement B term T then accept"], common + ["policy-statement B term T then reject"], chain: ["A", "B"], .bgpImport)
    let c = try #require(d.changes.first)
    #expect(d.changes.count == 1)
    #expect(c.kind == .nowRejects && c.verified)
    #expect(c.prefixes == ["10.0.0.0/8 orlonger"])
    #expect(c.after.trace.map(\.term) == [TermRef(policy: "A", term: "T"), TermRef(policy: "B", term: "T")])
  }

  /// Removing a catch-all reject matters where the default accepts (BGP import), not where it
  /// rejects (IGP export).
  @Test func theDefaultOfEachAttachmentPointDecidesWhatARemovedRejectMeans() {
    let old = [
      "policy-statement P term T from route-filter 10.0.0.0/8 orlonger", "policy-statement P term T then accept",
      "policy-statement P term R then reject",
    ]
    let new = Array(old.dropLast())
    #expect(compare(old, new, .bgpImport).changes.map(\.kind) == [.nowAccepts])
    #expect(compare(old, new, .igpExport).changes.isEmpty)
    #expect(compare(old, new, .vrf).changes.isEmpty)
    // The BGP export default takes active BGP routes only.
    let export = compare(old, new, .bgpExport).changes
    #expect(export.map(\.kind) == [.nowAccepts])
    #expect(export.first?.origins == ["bgp internal active", "bgp external active"])
  }

  /// A changed action on an accepted route is a change of its own kind.
  @Test func aChangedAttributeActionIsReported() throws {
    let old = ["policy-statement P term T then local-preference 200", "policy-statement P term T then accept"]
    let new = ["policy-statement P term T then local-preference 100", "policy-statement P term T then accept"]
    let c = try #require(compare(old, new, .bgpImport).changes.first)
    #expect(c.kind == .attributesChanged && c.verified)
    #expect(c.before.actions == ["local-preference 200"] && c.after.actions == ["local-preference 100"])
  }

  /// `from tag`: the set that changes is the tagged routes, said in words and shown in the example.
  @Test func aTagConditionCutsTheRoutes() throws {
    let old = [
      "policy-statement P term T from protocol static", "policy-statement P term T from tag 100",
      "policy-statement P term T then accept",
    ]
    let new = old.map { $0.replacingOccurrences(of: "tag 100", with: "tag 200") }
    let changes = compare(old, new, .igpExport).changes
    #expect(changes.map(\.kind) == [.nowAccepts, .nowRejects])
    #expect(changes.map { $0.routesText() } == ["static routes with tag 200 of any prefix", "static routes with tag 100 of any prefix"])
    #expect(changes.allSatisfy { $0.verified })
    #expect(changes.first?.exampleText == "0.0.0.0/0 from static tag 200")
  }

  /// A change about the labeled-unicast table (`from rib inet.3`) says so.
  @Test func aRibConditionCutsTheRoutes() throws {
    let old = [
      "policy-statement P term LU from rib inet.3", "policy-statement P term LU then reject", "policy-statement P term ALL then accept",
    ]
    let new = Array(old.dropFirst(2))
    let c = try #require(compare(old, new, .bgpExport).changes.first)
    #expect(c.kind == .nowAccepts && c.verified)
    #expect(c.attributes == ["rib inet.3"])
  }

  /// A community condition after a term that adds a community is not modelled; when the chain is
  /// written the same from that term on, the routes that stop there are not a change.
  @Test func anUnmodelledTermWrittenTheSameAfterAChangeIsNotReported() throws {
    let base = [
      "community TAGGED members 65000:1", "policy-statement P term TAG then community add TAGGED",
      "policy-statement P term MATCH from community TAGGED", "policy-statement P term MATCH then accept",
      "policy-statement Q term REST then reject",
    ]
    // Unchanged chain, compared anyway (as --every does): nothing.
    #expect(compare(base, base, chain: ["P", "Q"], .bgpImport).changes.isEmpty)
    // A term put in front: only its routes (undetermined before, rejected now) are listed, not
    // every route that still stops at the unmodelled term.
    let prefixed = ["policy-statement P term DROP from route-filter 10.0.0.0/8 exact", "policy-statement P term DROP then reject"] + base
    let d = compare(base, prefixed, chain: ["P", "Q"], .bgpImport)
    #expect(d.changes.map(\.kind) == [.undetermined])
    #expect(d.changes.first?.prefixes == ["10.0.0.0/8"])
    // The chain after the term changes: the routes that stop there may meet it.
    let changedAfter = base.map { $0.replacingOccurrences(of: "term REST then reject", with: "term REST then accept") }
    #expect(compare(base, changedAfter, chain: ["P", "Q"], .bgpImport).changes.map(\.kind) == [.undetermined])
  }

  /// A condition that is not modelled (`area`) makes the routes that reach it undetermined, never
  /// silently equal.
  @Test func anUnmodelledConditionGivesUndeterminedNotSilence() {
    let old = ["policy-statement P term T from area 0.0.0.0", "policy-statement P term T then accept"]
    let new = old + ["policy-statement P term R then reject"]
    let kinds = compare(old, new, .bgpImport).changes.map(\.kind)
    #expect(kinds == [.undetermined])
  }

  /// Community patterns: each field matched whole, `*` any number; the set that changes is found
  /// through a witness community, and the output says communities were sampled.
  @Test func aCommunityPatternIsCompared() throws {
    let old = [
      "community FROM-3 members \"^3:.*$\"", "policy-statement P term T from community FROM-3", "policy-statement P term T then accept",
    ]
    let new = old + ["policy-statement P term R then reject"]
    let d = compare(old, new, .bgpImport)
    let c = try #require(d.changes.first)
    #expect(d.changes.map(\.kind) == [.nowRejects])
    #expect(c.verified)
    #expect(!c.example.communities.contains { $0.hasPrefix("3:") })
    #expect(d.limits.contains { $0.hasPrefix("communities are sampled") })
  }

  @Test func communityMembersMatchFieldByField() {
    func m(_ pattern: String, _ community: String) -> Bool? { CommunityMember(pattern)?.matches(community) }
    #expect(m("65000:100", "65000:100") == true)
    #expect(m("65000:100", "65000:1000") == false)
    #expect(m("65000:*", "65000:7") == true)
    #expect(m("65000:*", "65001:7") == false)
    #expect(m("^65000:1....$", "65000:12345") == true)
    #expect(m("^65000:1....$", "65000:1234") == false)
    #expect(m("(65000|65001):[1-3]", "65001:2") == true)
    #expect(m("(65000|65001):[1-3]", "65001:4") == false)
    #expect(m("3:*", "13:5") == false)
    #expect(m("no-export", "no-export") == true)
    #expect(m(".*", "1:2") == nil)
    #expect(CommunityMember("^65000:[12]{2}$")?.witness == "65000:11")
  }

  /// An import sees only the group's routes: BGP, of the group's route type, from its neighbors.
  @Test func anImportComparesOnlyTheRoutesItCanSee() throws {
    let old = [
      "policy-statement P term T from route-filter 0.0.0.0/0 prefix-length-range /25-/32", "policy-statement P term T then reject",
    ]
    let new = [
      "policy-statement P term T from route-filter 0.0.0.0/0 prefix-length-range /24-/32", "policy-statement P term T then reject",
    ]
    let scope = RouteScope(protocolName: "bgp", routeType: .external, neighbors: [IPPrefix("192.0.2.1")!])
    let c = try #require(compare(old, new, .bgpImport, scope: scope).changes.first)
    #expect(c.kind == .nowRejects && c.verified)
    #expect(c.origins.isEmpty)
    #expect(c.prefixes == ["any IPv4 prefix of length /24"])
    #expect(c.exampleText == "198.51.100.0/24 from bgp external neighbor 192.0.2.1")
  }

  /// `through` matches only the prefixes on the path to its end, and `upto` only the lengths up
  /// to its bound; `prefix-list-filter longer` not the entry itself.
  @Test func throughUptoAndLongerCutTheRightClasses() throws {
    let old = ["policy-statement P term T from route-filter 10.0.0.0/8 through 10.1.0.0/16", "policy-statement P term T then accept"]
    let new = ["policy-statement P term T from route-filter 10.0.0.0/8 upto /16", "policy-statement P term T then accept"]
    let d = compare(old, new, .igpExport)
    #expect(d.changes.map(\.kind) == [.nowAccepts])
    #expect(d.changes.allSatisfy { $0.verified })
    let lists = compare(
      [
        "prefix-list L 10.0.0.0/8", "policy-statement P term T from prefix-list-filter L orlonger", "policy-statement P term T then accept",
      ],
      ["prefix-list L 10.0.0.0/8", "policy-statement P term T from prefix-list-filter L longer", "policy-statement P term T then accept"],
      .igpExport)
    let c = try #require(lists.changes.first)
    #expect(c.kind == .nowRejects && c.prefixes == ["10.0.0.0/8"])
  }
}

import JunosChecklist
import JunosConfig
import Testing

/// Parses a snippet (curly or `display set`) that has no inactive statements.
private func policyOptions(_ text: String) -> PolicyOptions {
  let parsed = ConfigParser.parse(SourceFile(path: "t", text: text))
  #expect(parsed.diagnostics.isEmpty)
  return PolicyOptions(tree: parsed.tree)
}

private func route(_ proto: String?, _ prefix: String?, orLonger: Bool = false, neighbor: String? = nil) -> RouteQuery {
  RouteQuery(protocolName: proto, prefix: prefix.flatMap { IPPrefix($0) }, orLonger: orLonger, neighbor: neighbor.flatMap { IPPrefix($0) })
}

private func ref(_ policy: String, _ term: String) -> TermRef { TermRef(policy: policy, term: term) }

private func filter(_ prefix: String, _ match: RouteFilter.Match, _ action: PolicyActions.Terminal? = nil) -> RouteFilter {
  RouteFilter(prefix: IPPrefix(prefix)!, match: match, action: action)
}

/// Every parsed field, one line per term, for comparing two readings.
private func dump(_ o: PolicyOptions) -> [String] {
  func conditions(_ c: MatchConditions) -> String {
    "\(c.protocols) \(c.routeFilters.map { "\($0.prefix) \($0.match) \(String(describing: $0.action))" }) \(c.prefixLists) "
      + "\(c.prefixListFilters.map { "\($0.name) \($0.modifier)" }) \(c.routeFilterLists) \(c.communities) \(c.asPaths) "
      + "\(c.neighbors) \(c.conditions) \(c.families) \(c.instances) \(c.ribs) \(c.tags) \(c.other)"
  }
  var lines: [String] = []
  for name in o.policies.keys.sorted() {
    for t in o.policies[name]!.terms {
      lines.append("\(name)/\(t.name) from \(conditions(t.from)) to \(conditions(t.to)) then \(t.then)")
    }
  }
  for name in o.prefixLists.keys.sorted() { lines.append("prefix-list \(name) \(o.prefixLists[name]!)") }
  for name in o.routeFilterLists.keys.sorted() {
    lines.append(
      "route-filter-list \(name) \(o.routeFilterLists[name]!.map { "\($0.prefix) \($0.match) \(String(describing: $0.action))" })")
  }
  lines.append("open \(o.openPrefixLists.sorted()) communities \(o.communities.sorted()) conditions \(o.conditions.sorted())")
  lines.append("as-paths \(o.asPaths.sorted())")
  return lines
}

private let everyShapeSet = """
  set policy-options policy-statement P term T from protocol [ direct local ]
  set policy-options policy-statement P term T from route-filter 10.0.0.0/8 orlonger
  set policy-options policy-statement P term T from route-filter 10.1.0.0/16 upto /24
  set policy-options policy-statement P term T from route-filter 10.2.0.0/16 exact reject
  set policy-options policy-statement P term T from route-filter 10.3.0.0/16 prefix-length-range /24-/32
  set policy-options policy-statement P term T from route-filter 10.4.0.0/16 through 10.4.1.0/24
  set policy-options policy-statement P term T from route-filter 10.5.0.0/16 longer accept
  set policy-options policy-statement P term T from route-filter 10.6.0.0/16 orlonger next policy
  set policy-options policy-statement P term T from prefix-list PL
  set policy-options policy-statement P term T from prefix-list-filter PL orlonger
  set policy-options policy-statement P term T from community C
  set policy-options policy-statement P term T from neighbor 10.0.0.1
  set policy-options policy-statement P term T from condition X
  set policy-options policy-statement P term T from route-filter-list RFL
  set policy-options policy-statement P term T from tag 5
  set policy-options policy-statement P term T to level 2
  set policy-options policy-statement P term T then local-preference 200
  set policy-options policy-statement P term T then community add C
  set policy-options policy-statement P term T then accept
  set policy-options policy-statement P term U then accept
  set policy-options policy-statement P term V then next policy
  set policy-options policy-statement P term W from protocol aggregate
  set policy-options policy-statement P term W then next term
  set policy-options policy-statement P from protocol static
  set policy-options policy-statement P then reject
  set policy-options policy-statement Q then accept
  set policy-options prefix-list PL 10.0.0.0/8
  set policy-options prefix-list PL 2001:db8::/32
  set policy-options prefix-list PA apply-path "interfaces <*> unit <*> family inet address <*>"
  set policy-options route-filter-list RFL 10.0.0.0/8 orlonger
  set policy-options route-filter-list RFL 10.9.0.0/16 exact reject
  set policy-options community C members 65000:1
  set policy-options condition X if-route-exists 10.255.0.12/32
  set policy-options condition X if-route-exists table inet.0
  set policy-options as-path AP ".* 65000"

  """

private let everyShapeCurly = """
  policy-options {
      policy-statement P {
          term T {
              from {
                  protocol [ direct local ];
                  route-filter 10.0.0.0/8 orlonger;
                  route-filter 10.1.0.0/16 upto /24;
                  route-filter 10.2.0.0/16 exact reject;
                  route-filter 10.3.0.0/16 prefix-length-range /24-/32;
                  route-filter 10.4.0.0/16 through 10.4.1.0/24;
                  route-filter 10.5.0.0/16 longer accept;
                  route-filter 10.6.0.0/16 orlonger next policy;
                  prefix-list PL;
                  prefix-list-filter PL orlonger;
                  community C;
                  neighbor 10.0.0.1;
                  condition X;
                  route-filter-list RFL;
                  tag 5;
              }
              to level 2;
              then {
                  local-preference 200;
                  community add C;
                  accept;
              }
          }
          term U {
              then accept;
          }
          term V {
              then next policy;
          }
          term W {
              from protocol aggregate;
              then next term;
          }
          from protocol static;
          then reject;
      }
      policy-statement Q {
          then accept;
      }
      prefix-list PL {
          10.0.0.0/8;
          2001:db8::/32;
      }
      prefix-list PA {
          apply-path "interfaces <*> unit <*> family inet address <*>";
      }
      route-filter-list RFL {
          10.0.0.0/8 orlonger;
          10.9.0.0/16 exact reject;
      }
      community C members 65000:1;
      condition X {
          if-route-exists {
              10.255.0.12/32;
              table inet.0;
          }
      }
      as-path AP ".* 65000";
  }

  """

@Suite struct PolicyParsingTests {
  @Test func readsEveryStatementShapeFromSetText() throws {
    let o = policyOptions(everyShapeSet)
    let p = try #require(o.policies["P"])
    #expect(p.name == "P")
    #expect(p.terms.map(\.name) == ["T", "U", "V", "W", ""])
    let t = p.terms[0]
    #expect(t.from.protocols == ["direct", "local"])
    #expect(
      t.from.routeFilters == [
        filter("10.0.0.0/8", .orlonger), filter("10.1.0.0/16", .upto(24)), filter("10.2.0.0/16", .exact, .reject),
        filter("10.3.0.0/16", .prefixLengthRange(24, 32)), filter("10.4.0.0/16", .through(IPPrefix("10.4.1.0/24")!)),
        filter("10.5.0.0/16", .longer, .accept), filter("10.6.0.0/16", .orlonger, .nextPolicy),
      ])
    #expect(t.from.prefixLists == ["PL"])
    #expect(t.from.prefixListFilters == [PrefixListFilter(name: "PL", modifier: "orlonger")])
    #expect(t.from.routeFilterLists == ["RFL"])
    #expect(t.from.communities == ["C"])
    #expect(t.from.neighbors == ["10.0.0.1"])
    #expect(t.from.conditions == ["X"])
    #expect(t.from.tags == ["5"])
    #expect(t.from.other.isEmpty)
    #expect(t.to.other == ["level"])
    #expect(t.to.keywords == ["level"])
    #expect(
      t.then
        == PolicyActions(
          terminal: .accept, modifiesRoute: true, communitiesAdded: ["C"], setsLocalPreference: true,
          modifications: ["local-preference 200", "community add C"]))
    #expect(p.terms[1].then == PolicyActions(terminal: .accept))
    #expect(!p.terms[1].hasMatchConditions)
    #expect(p.terms[2].then.terminal == .nextPolicy)
    #expect(p.terms[3].then.terminal == .nextTerm)
    #expect(p.terms[3].from.protocols == ["aggregate"])
    let unnamed = p.terms[4]
    #expect(unnamed.node == p.node)
    #expect(unnamed.from.protocols == ["static"])
    #expect(unnamed.then.terminal == .reject)
    #expect(o.policies["Q"]?.terms.map(\.name) == [""])
    #expect(o.policies["Q"]?.terms.first?.then.terminal == .accept)
    #expect(o.prefixLists["PL"] == [IPPrefix("10.0.0.0/8")!, IPPrefix("2001:db8::/32")!])
    #expect(o.prefixLists["PA"] == [])
    #expect(o.openPrefixLists == ["PA"])
    #expect(o.routeFilterLists["RFL"] == [filter("10.0.0.0/8", .orlonger), filter("10.9.0.0/16", .exact, .reject)])
    #expect(o.communities == ["C"])
    #expect(o.conditions == ["X"])
    #expect(o.asPaths == ["AP"])
  }

  @Test func curlyTextReadsExactlyAsSetText() {
    let fromSet = dump(policyOptions(everyShapeSet))
    let fromCurly = dump(policyOptions(everyShapeCurly))
    #expect(fromSet.count == 11)
    #expect(fromCurly == fromSet)
  }

  @Test func routeFilterWithABlockOfActionsIsOneFilter() {
    let o = policyOptions(
      """
      policy-options {
          policy-statement P {
              term t {
                  from {
                      route-filter 10.0.0.0/8 orlonger {
                          local-preference 50;
                          reject;
                      }
                      route-filter 10.0.0.0/8 exact;
                      route-filter 10.9.0.0/16 upto 24;
                      route-filter bogus exact;
                  }
                  then accept;
              }
          }
      }

      """)
    let t = o.policies["P"]?.terms.first
    #expect(
      t?.from.routeFilters == [filter("10.0.0.0/8", .orlonger, .reject), filter("10.0.0.0/8", .exact), filter("10.9.0.0/16", .upto(24))])
    #expect(t?.from.other == ["route-filter"])
  }

  @Test func readsAGivenPolicyOptionsBlock() throws {
    let parsed = ConfigParser.parse(
      SourceFile(
        path: "t",
        text: """
          set logical-systems LS policy-options policy-statement X then accept
          set policy-options policy-statement Y then reject

          """))
    let tree = parsed.tree
    let ls = try #require(tree.child(of: ConfigTree.root, startingWith: ["logical-systems"]))
    let lsName = try #require(tree.child(of: ls, startingWith: ["LS"]))
    let block = try #require(tree.child(of: lsName, startingWith: ["policy-options"]))
    let inLS = PolicyOptions(tree: tree, at: block)
    #expect(inLS.policies.keys.sorted() == ["X"])
    #expect(PolicyOptions(tree: tree).policies.keys.sorted() == ["Y"])
    let statement = try #require(tree.child(of: block, startingWith: ["policy-statement", "X"]))
    let x = PolicyStatement(tree: tree, node: statement)
    #expect(x.name == "X")
    #expect(x.node == statement)
    #expect(x.terms.map(\.name) == [""])
    #expect(x.terms.first?.then.terminal == .accept)
  }

  @Test func noPolicyOptionsGivesNothing() {
    let o = policyOptions("set system host-name r1\n")
    #expect(o.policies.isEmpty && o.prefixLists.isEmpty && o.routeFilterLists.isEmpty && o.conditions.isEmpty)
    #expect(o.evaluate(chain: [], route("bgp", nil)) == .noDecision)
  }
}

@Suite struct PolicyEvaluationTests {
  // MARK: Rule 1

  @Test func rule1FiresDCFabricOutAcceptsTheAggregate() {
    let o = policyOptions(
      """
      set routing-options aggregate route 10.0.0.0/8
      set policy-options policy-statement DC-FABRIC-OUT term summaries from protocol aggregate
      set policy-options policy-statement DC-FABRIC-OUT term summaries then accept
      set policy-options policy-statement DC-FABRIC-OUT term rest then reject
      set protocols bgp group DC-FABRIC type external
      set protocols bgp group DC-FABRIC peer-as 65100
      set protocols bgp group DC-FABRIC export DC-FABRIC-OUT
      set protocols bgp group DC-FABRIC neighbor 10.32.0.1

      """)
    let chain = ["DC-FABRIC-OUT"]
    #expect(o.evaluate(chain: chain, route("aggregate", "10.0.0.0/8")) == .accepted(ref("DC-FABRIC-OUT", "summaries")))
    #expect(o.evaluate(chain: chain, route("static", "10.0.0.0/8")) == .rejected(ref("DC-FABRIC-OUT", "rest")))
    #expect(o.evaluate(chain: chain, route(nil, nil)) == .mayBeAccepted(ref("DC-FABRIC-OUT", "summaries")))
  }

  @Test func rule1DoesNotFireContributorPolicyRejectsLocalRoutes() {
    let o = policyOptions(
      """
      set routing-options aggregate route 10.0.0.0/8 policy AGG-FROM-CORE
      set policy-options policy-statement AGG-FROM-CORE term core-igp from protocol isis
      set policy-options policy-statement AGG-FROM-CORE term core-igp then accept
      set policy-options policy-statement AGG-FROM-CORE term rest then reject

      """)
    let chain = ["AGG-FROM-CORE"]
    #expect(o.evaluate(chain: chain, route("direct", "10.255.0.11/32")) == .rejected(ref("AGG-FROM-CORE", "rest")))
    #expect(o.evaluate(chain: chain, route("isis", "10.1.0.0/16")) == .accepted(ref("AGG-FROM-CORE", "core-igp")))
  }

  /// The conditional variant (`condition CORE-REACHABLE`) can only be "may be accepted": the
  /// condition depends on the routing table. Rule 1 should treat a `mayBeAccepted` whose term has
  /// a `condition` as gated (not unconditional).
  @Test(arguments: [false, true])
  func rule1DoesNotFireConditionGatedSummary(asSet: Bool) throws {
    let curly = """
      policy-options {
          condition CORE-REACHABLE {
              if-route-exists {
                  10.255.0.12/32;
                  table inet.0;
              }
          }
          policy-statement DC-FABRIC-OUT {
              term summaries {
                  from {
                      protocol aggregate;
                      condition CORE-REACHABLE;
                  }
                  then accept;
              }
              term rest {
                  then reject;
              }
          }
      }

      """
    let set = """
      set policy-options condition CORE-REACHABLE if-route-exists 10.255.0.12/32
      set policy-options condition CORE-REACHABLE if-route-exists table inet.0
      set policy-options policy-statement DC-FABRIC-OUT term summaries from protocol aggregate
      set policy-options policy-statement DC-FABRIC-OUT term summaries from condition CORE-REACHABLE
      set policy-options policy-statement DC-FABRIC-OUT term summaries then accept
      set policy-options policy-statement DC-FABRIC-OUT term rest then reject

      """
    let o = policyOptions(asSet ? set : curly)
    #expect(o.conditions == ["CORE-REACHABLE"])
    let term = try #require(o.policies["DC-FABRIC-OUT"]?.term("summaries"))
    #expect(term.from.conditions == ["CORE-REACHABLE"])
    #expect(o.match(term, route("aggregate", "10.0.0.0/8")) == .some)
    #expect(o.evaluate(chain: ["DC-FABRIC-OUT"], route("aggregate", "10.0.0.0/8")) == .mayBeAccepted(ref("DC-FABRIC-OUT", "summaries")))
    #expect(o.evaluate(chain: ["DC-FABRIC-OUT"], route("isis", "10.0.0.0/8")) == .rejected(ref("DC-FABRIC-OUT", "rest")))
  }

  // MARK: Rule 2

  @Test func rule2DoesNotFireLocalContributorsAreRejected() {
    let o = policyOptions(
      """
      set interfaces lo0 unit 0 family inet address 10.255.0.11/32
      set routing-options aggregate route 10.0.0.0/8 policy AGG-FROM-CORE
      set policy-options policy-statement AGG-FROM-CORE term not-local from protocol [ direct local static aggregate ]
      set policy-options policy-statement AGG-FROM-CORE term not-local then reject
      set policy-options policy-statement AGG-FROM-CORE term core-igp from protocol isis
      set policy-options policy-statement AGG-FROM-CORE term core-igp then accept
      set policy-options policy-statement AGG-FROM-CORE term rest then reject

      """)
    let chain = ["AGG-FROM-CORE"]
    let notLocal = ChainOutcome.rejected(ref("AGG-FROM-CORE", "not-local"))
    #expect(o.evaluate(chain: chain, route("direct", "10.255.0.11/32")) == notLocal)
    #expect(o.evaluate(chain: chain, route("local", "10.255.0.11/32")) == notLocal)
    #expect(o.evaluate(chain: chain, route("static", "10.9.0.0/16")) == notLocal)
    #expect(o.evaluate(chain: chain, route("aggregate", "10.1.0.0/16")) == notLocal)
    #expect(o.evaluate(chain: chain, route("isis", "10.255.0.12/32")) == .accepted(ref("AGG-FROM-CORE", "core-igp")))
    #expect(o.evaluate(chain: chain, route("bgp", "10.32.0.0/16")) == .rejected(ref("AGG-FROM-CORE", "rest")))
    #expect(o.evaluate(chain: chain, route(nil, "10.0.0.0/8", orLonger: true)) == .mayBeAccepted(ref("AGG-FROM-CORE", "core-igp")))
  }

  // MARK: Rule 18

  @Test func rule18FiresMatchAllAcceptTerm() throws {
    let o = policyOptions(
      """
      set policy-options policy-statement ISIS-EXPORT term all then accept
      set protocols isis export ISIS-EXPORT

      """)
    let term = try #require(o.policies["ISIS-EXPORT"]?.term("all"))
    #expect(!term.hasMatchConditions)
    #expect(o.match(term, RouteQuery()) == .all)
    #expect(o.evaluate(chain: ["ISIS-EXPORT"], RouteQuery()) == .accepted(ref("ISIS-EXPORT", "all")))
    #expect(o.evaluate(chain: ["ISIS-EXPORT"], route("bgp", "0.0.0.0/0", orLonger: true)) == .accepted(ref("ISIS-EXPORT", "all")))
  }

  @Test func rule18DoesNotFireLoopbackOnlyTerm() throws {
    let o = policyOptions(
      """
      policy-options {
          policy-statement ISIS-EXPORT {
              term lo {
                  from {
                      protocol direct;
                      route-filter 10.255.0.11/32 exact;
                  }
                  then accept;
              }
          }
      }

      """)
    let term = try #require(o.policies["ISIS-EXPORT"]?.term("lo"))
    #expect(term.hasMatchConditions)
    #expect(o.match(term, RouteQuery()) == .some)
    #expect(o.match(term, route("direct", "10.255.0.11/32")) == .all)
    #expect(o.match(term, route("direct", "10.255.0.12/32")) == .none)
    #expect(o.match(term, route("bgp", "10.255.0.11/32")) == .none)
    #expect(o.evaluate(chain: ["ISIS-EXPORT"], RouteQuery()) == .mayBeAccepted(ref("ISIS-EXPORT", "lo")))
    #expect(o.evaluate(chain: ["ISIS-EXPORT"], route("direct", "10.255.0.11/32")) == .accepted(ref("ISIS-EXPORT", "lo")))
    #expect(o.evaluate(chain: ["ISIS-EXPORT"], route("bgp", "0.0.0.0/0", orLonger: true)) == .noDecision)
  }

  // MARK: Rule 21

  @Test func rule21FiresBGPIntoTheIGP() {
    let o = policyOptions(
      """
      set policy-options policy-statement IGP-EXPORT term bgp from protocol bgp
      set policy-options policy-statement IGP-EXPORT term bgp then accept
      set protocols isis export IGP-EXPORT

      """)
    #expect(o.evaluate(chain: ["IGP-EXPORT"], route("bgp", "0.0.0.0/0", orLonger: true)) == .accepted(ref("IGP-EXPORT", "bgp")))
    #expect(o.evaluate(chain: ["IGP-EXPORT"], route("isis", "0.0.0.0/0", orLonger: true)) == .noDecision)
  }

  /// Rule 21 should fire on `.accepted`, and on `.mayBeAccepted(t)` only when `t` has no prefix
  /// condition (`!from.hasPrefixConditions`: BGP routes gated by community or tag alone are
  /// unbounded). A tight route filter gives `.mayBeAccepted` with prefix conditions: no finding.
  @Test func rule21DoesNotFireTightRouteFilter() throws {
    let o = policyOptions(
      """
      policy-options {
          policy-statement IGP-EXPORT {
              term bgp {
                  from {
                      protocol bgp;
                      route-filter 192.0.2.0/24 exact;
                  }
                  then accept;
              }
              term rest {
                  then reject;
              }
          }
      }

      """)
    let chain = ["IGP-EXPORT"]
    let outcome = o.evaluate(chain: chain, route("bgp", "0.0.0.0/0", orLonger: true))
    #expect(outcome == .mayBeAccepted(ref("IGP-EXPORT", "bgp")))
    #expect(o.term(ref("IGP-EXPORT", "bgp"))?.from.hasPrefixConditions == true)
    #expect(o.evaluate(chain: chain, route("bgp", "192.0.2.0/24")) == .accepted(ref("IGP-EXPORT", "bgp")))
    #expect(o.evaluate(chain: chain, route("bgp", "192.0.2.0/25")) == .rejected(ref("IGP-EXPORT", "rest")))
    #expect(o.evaluate(chain: chain, route("bgp", "198.51.100.0/24")) == .rejected(ref("IGP-EXPORT", "rest")))
    #expect(o.evaluate(chain: chain, route("isis", "192.0.2.0/24")) == .rejected(ref("IGP-EXPORT", "rest")))
    #expect(o.evaluate(chain: chain, route("bgp", "::/0", orLonger: true)) == .rejected(ref("IGP-EXPORT", "rest")))
    #expect(o.evaluate(chain: chain, route("bgp", nil)) == .mayBeAccepted(ref("IGP-EXPORT", "bgp")))
  }

  @Test func aMaybeAcceptBeatsALaterCatchAllReject() {
    let o = policyOptions(
      """
      set policy-options policy-statement OUT term tagged from community C
      set policy-options policy-statement OUT term tagged then accept
      set policy-options policy-statement OUT term rest then reject
      set policy-options community C members 65000:1

      """)
    #expect(o.evaluate(chain: ["OUT"], route("bgp", "10.0.0.0/8")) == .mayBeAccepted(ref("OUT", "tagged")))
  }

  @Test func aTermWithoutActionContinues() {
    let o = policyOptions(
      """
      set policy-options policy-statement OUT term pref from protocol bgp
      set policy-options policy-statement OUT term pref then local-preference 200
      set policy-options policy-statement OUT term skip then next term
      set policy-options policy-statement OUT term last from protocol bgp
      set policy-options policy-statement OUT term last then accept

      """)
    #expect(o.evaluate(chain: ["OUT"], route("bgp", "10.0.0.0/8")) == .accepted(ref("OUT", "last")))
    #expect(o.evaluate(chain: ["OUT"], route("static", "10.0.0.0/8")) == .noDecision)
  }

  // MARK: Chains

  @Test func nextPolicyJumpsToTheNextPolicyOfTheChain() {
    let o = policyOptions(
      """
      set policy-options policy-statement FIRST term statics from protocol static
      set policy-options policy-statement FIRST term statics then next policy
      set policy-options policy-statement FIRST term rest then reject
      set policy-options policy-statement SECOND term statics from protocol static
      set policy-options policy-statement SECOND term statics then accept

      """)
    #expect(o.evaluate(chain: ["FIRST", "SECOND"], route("static", "10.0.0.0/8")) == .accepted(ref("SECOND", "statics")))
    #expect(o.evaluate(chain: ["FIRST", "SECOND"], route("bgp", "10.0.0.0/8")) == .rejected(ref("FIRST", "rest")))
    #expect(o.evaluate(chain: ["FIRST"], route("static", "10.0.0.0/8")) == .noDecision)
    #expect(o.evaluate(chain: ["SECOND", "FIRST"], route("bgp", "10.0.0.0/8")) == .rejected(ref("FIRST", "rest")))
    #expect(o.evaluate(chain: ["SECOND", "FIRST"], route("static", "10.0.0.0/8")) == .accepted(ref("SECOND", "statics")))
  }

  @Test func aPartialNextPolicySplitsTheQuery() {
    let o = policyOptions(
      """
      set policy-options policy-statement P1 term ten from route-filter 10.0.0.0/8 orlonger
      set policy-options policy-statement P1 term ten then next policy
      set policy-options policy-statement P1 term rest then reject
      set policy-options policy-statement P2 term all then accept

      """)
    let chain = ["P1", "P2"]
    #expect(o.evaluate(chain: chain, route("bgp", "10.1.0.0/16")) == .accepted(ref("P2", "all")))
    #expect(o.evaluate(chain: chain, route("bgp", "192.0.2.0/24")) == .rejected(ref("P1", "rest")))
    #expect(o.evaluate(chain: chain, route("bgp", "0.0.0.0/0", orLonger: true)) == .mayBeAccepted(ref("P2", "all")))
    #expect(o.evaluate(chain: ["P1"], route("bgp", "0.0.0.0/0", orLonger: true)) == .noDecision)
    #expect(o.evaluate(chain: chain, route("bgp", "10.0.0.0/8", orLonger: true)) == .accepted(ref("P2", "all")))
    // Routes that jump out of the last policy fall through to the default.
    #expect(o.evaluate(chain: ["P1", "P1"], route("bgp", "0.0.0.0/0", orLonger: true)) == .noDecision)
  }

  @Test func unnamedTermsMatchLikeTerms() {
    let o = policyOptions(
      """
      set policy-options policy-statement U from protocol direct
      set policy-options policy-statement U then accept
      set policy-options policy-statement MIXED term t1 from protocol static
      set policy-options policy-statement MIXED term t1 then reject
      set policy-options policy-statement MIXED then accept

      """)
    #expect(o.policies["U"]?.terms.map(\.name) == [""])
    #expect(o.policies["MIXED"]?.terms.map(\.name) == ["t1", ""])
    #expect(o.evaluate(chain: ["U"], route("direct", "10.0.0.0/24")) == .accepted(ref("U", "")))
    #expect(o.evaluate(chain: ["U"], route("static", "10.0.0.0/24")) == .noDecision)
    #expect(o.evaluate(chain: ["MIXED"], route("static", "10.0.0.0/24")) == .rejected(ref("MIXED", "t1")))
    #expect(o.evaluate(chain: ["MIXED"], route("bgp", "10.0.0.0/24")) == .accepted(ref("MIXED", "")))
    #expect(ref("MIXED", "").description == "MIXED")
    #expect(ref("MIXED", "t1").description == "MIXED term t1")
  }

  @Test func anUndefinedPolicyIsReportedWhateverTheRoute() {
    let o = policyOptions("set policy-options policy-statement U then accept\n")
    #expect(o.evaluate(chain: ["NOPE"], route("bgp", "10.0.0.0/8")) == .undefinedPolicy("NOPE"))
    #expect(o.evaluate(chain: ["U", "NOPE"], route("bgp", "10.0.0.0/8")) == .undefinedPolicy("NOPE"))
    #expect(o.evaluate(chain: ["U"], route("bgp", "10.0.0.0/8")) == .accepted(ref("U", "")))
    #expect(o.evaluate(chain: [], route("bgp", "10.0.0.0/8")) == .noDecision)
  }

  // MARK: Prefix conditions

  @Test(arguments: [
    // (match type, query prefix, orLonger, expected)
    ("10.0.0.0/8 exact", "10.0.0.0/8", false, TermMatch.all),
    ("10.0.0.0/8 exact", "10.1.0.0/16", false, .none),
    ("10.0.0.0/8 exact", "10.0.0.0/7", false, .none),
    ("10.0.0.0/8 exact", "10.0.0.0/8", true, .some),
    ("10.0.0.0/8 exact", "0.0.0.0/0", true, .some),
    ("10.0.0.0/8 exact", "11.0.0.0/8", true, .none),
    ("10.0.0.0/8 orlonger", "10.0.0.0/8", false, .all),
    ("10.0.0.0/8 orlonger", "10.1.0.0/16", true, .all),
    ("10.0.0.0/8 orlonger", "10.0.0.0/8", true, .all),
    ("10.0.0.0/8 orlonger", "10.0.0.0/7", true, .some),
    ("10.0.0.0/8 orlonger", "172.16.0.0/12", true, .none),
    ("10.0.0.0/8 longer", "10.0.0.0/8", false, .none),
    ("10.0.0.0/8 longer", "10.1.0.0/16", false, .all),
    ("10.0.0.0/8 longer", "10.0.0.0/8", true, .some),
    ("10.0.0.0/8 longer", "10.0.0.0/9", true, .all),
    ("10.1.0.0/16 upto /24", "10.1.0.0/16", false, .all),
    ("10.1.0.0/16 upto /24", "10.1.2.0/24", false, .all),
    ("10.1.0.0/16 upto /24", "10.1.2.0/25", false, .none),
    ("10.1.0.0/16 upto /24", "10.1.0.0/16", true, .some),
    ("10.1.0.0/16 upto /24", "10.1.2.0/25", true, .none),
    ("10.3.0.0/16 prefix-length-range /24-/32", "10.3.0.0/16", false, .none),
    ("10.3.0.0/16 prefix-length-range /24-/32", "10.3.1.0/24", true, .all),
    ("10.3.0.0/16 prefix-length-range /24-/32", "10.3.0.0/23", true, .some),
    ("10.3.0.0/16 prefix-length-range /24-/32", "10.3.1.1/32", false, .all),
    ("10.4.0.0/16 through 10.4.1.0/24", "10.4.0.0/16", false, .all),
    ("10.4.0.0/16 through 10.4.1.0/24", "10.4.0.0/23", false, .all),
    ("10.4.0.0/16 through 10.4.1.0/24", "10.4.1.0/24", false, .all),
    ("10.4.0.0/16 through 10.4.1.0/24", "10.4.2.0/24", false, .none),
    ("10.4.0.0/16 through 10.4.1.0/24", "10.4.1.0/25", false, .none),
    ("10.4.0.0/16 through 10.4.1.0/24", "10.4.1.0/24", true, .some),
    ("10.4.0.0/16 through 10.4.1.0/24", "10.4.2.0/24", true, .none),
    ("10.0.0.0/8 orlonger", "2001:db8::/32", true, .none),
    ("2001:db8::/32 orlonger", "2001:db8:1::/48", false, .all),
    ("2001:db8::/32 orlonger", "10.0.0.0/8", false, .none),
    ("2001:db8::/32 upto /48", "2001:db8::/32", true, .some),
    ("2001:db8::/32 upto /48", "2001:db8:1::/64", true, .none),
  ])
  func routeFilterMatchTypes(filter: String, prefix: String, orLonger: Bool, expected: TermMatch) throws {
    let o = policyOptions(
      "set policy-options policy-statement P term t from route-filter \(filter)\nset policy-options policy-statement P term t then accept\n"
    )
    let term = try #require(o.policies["P"]?.terms.first)
    #expect(term.from.routeFilters.count == 1)
    #expect(o.match(term, route(nil, prefix, orLonger: orLonger)) == expected)
  }

  @Test func routeFiltersAreLookedUpByLongestMatchFirst() throws {
    let o = policyOptions(
      """
      set policy-options policy-statement P term t from route-filter 10.0.0.0/8 orlonger
      set policy-options policy-statement P term t from route-filter 10.1.0.0/16 exact
      set policy-options policy-statement P term t then accept

      """)
    let term = try #require(o.policies["P"]?.terms.first)
    // 10.1.1.0/24 finds 10.1.0.0/16 first, whose `exact` fails: the /8 `orlonger` is not tried.
    #expect(o.match(term, route(nil, "10.1.1.0/24")) == .none)
    #expect(o.match(term, route(nil, "10.1.0.0/16")) == .all)
    #expect(o.match(term, route(nil, "10.2.0.0/16")) == .all)
    #expect(o.match(term, route(nil, "10.2.0.0/16", orLonger: true)) == .all)
    #expect(o.match(term, route(nil, "10.1.0.0/16", orLonger: true)) == .some)
    #expect(o.match(term, route(nil, "10.0.0.0/8", orLonger: true)) == .some)
    #expect(o.match(term, route(nil, nil)) == .some)
  }

  /// The set-of-routes answers agree with asking about every route of the set one by one
  /// (route filters around and inside the query prefix, with and without actions).
  @Test func orLongerQueriesAgreeWithEveryRouteAskedAlone() {
    var seed: UInt64 = 0x2545_f491_4f6c_dd1d
    func next(_ n: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(n))
    }
    func mask(_ length: Int) -> Int { length >= 32 ? 0xff : ~((1 << (32 - length)) - 1) & 0xff }
    for _ in 0..<400 {
      let qLength = 26 + next(5)
      let qHost = next(256) & mask(qLength)
      var text = ""
      for _ in 0..<(1 + next(5)) {
        // Around the query (containing it) or inside it.
        let length = next(2) == 0 ? 24 + next(qLength - 23) : qLength + 1 + next(32 - qLength)
        let host = (qHost | next(256) & ~mask(qLength)) & mask(length)
        let match = [
          "exact", "orlonger", "longer", "upto /\(length + next(33 - length))",
          "prefix-length-range /\(length + next(3))-/\(length + 2 + next(3))",
        ][next(5)]
        let action = ["", " reject", " accept", ""][next(4)]
        text += "set policy-options policy-statement P term t from route-filter 10.0.0.\(host)/\(length) \(match)\(action)\n"
      }
      text += "set policy-options policy-statement P term t then accept\n"
      let o = policyOptions(text)
      var outcomes: [ChainOutcome] = []
      for length in qLength...32 {
        for k in 0..<(1 << (length - qLength)) {
          let p = IPPrefix(family: .inet, bytes: [10, 0, 0, UInt8(qHost | k << (32 - length))], length: length)
          outcomes.append(o.evaluate(chain: ["P"], RouteQuery(prefix: p)))
        }
      }
      let t = ref("P", "t")
      let accepted = outcomes.filter { $0 == .accepted(t) }.count
      let rejected = outcomes.filter { $0 == .rejected(t) }.count
      let expected: ChainOutcome =
        accepted == outcomes.count
        ? .accepted(t) : accepted > 0 ? .mayBeAccepted(t) : rejected == outcomes.count ? .rejected(t) : .noDecision
      let q = IPPrefix(family: .inet, bytes: [10, 0, 0, UInt8(qHost)], length: qLength)
      #expect(o.evaluate(chain: ["P"], RouteQuery(prefix: q, orLonger: true)) == expected, "\(text)\(q)")
    }
  }

  @Test func aRouteFilterActionDecidesForTheRoutesItMatches() {
    let o = policyOptions(
      """
      set policy-options policy-statement P term t from route-filter 10.0.0.0/8 exact reject
      set policy-options policy-statement P term t from route-filter 10.0.0.0/8 orlonger
      set policy-options policy-statement P term t then accept
      set policy-options policy-statement N term t from route-filter 10.6.0.0/16 orlonger next policy
      set policy-options policy-statement N term t then reject
      set policy-options policy-statement N2 term t then accept

      """)
    #expect(o.evaluate(chain: ["P"], route("bgp", "10.0.0.0/8")) == .rejected(ref("P", "t")))
    #expect(o.evaluate(chain: ["P"], route("bgp", "10.1.0.0/16")) == .accepted(ref("P", "t")))
    #expect(o.evaluate(chain: ["P"], route("bgp", "10.0.0.0/8", orLonger: true)) == .mayBeAccepted(ref("P", "t")))
    #expect(o.evaluate(chain: ["P"], route("bgp", "11.0.0.0/8")) == .noDecision)
    #expect(o.evaluate(chain: ["N", "N2"], route("bgp", "10.6.1.0/24")) == .accepted(ref("N2", "t")))
    #expect(o.evaluate(chain: ["N"], route("bgp", "10.6.1.0/24")) == .noDecision)
    #expect(o.evaluate(chain: ["N"], route("bgp", "10.7.0.0/16")) == .noDecision)
    #expect(o.evaluate(chain: ["N", "N2"], route("bgp", "10.7.0.0/16")) == .accepted(ref("N2", "t")))
  }

  @Test func prefixListsAndFilterLists() throws {
    let o = policyOptions(
      everyShapeSet + """
        set policy-options policy-statement L term exact from prefix-list PL
        set policy-options policy-statement L term exact then accept
        set policy-options policy-statement L term longer from prefix-list-filter PL orlonger
        set policy-options policy-statement L term longer then accept
        set policy-options policy-statement L term dynamic from prefix-list PA
        set policy-options policy-statement L term dynamic then accept
        set policy-options policy-statement L term missing from prefix-list NOT-DEFINED
        set policy-options policy-statement L term missing then accept
        set policy-options policy-statement L term rfl from route-filter-list RFL
        set policy-options policy-statement L term rfl then accept
        set policy-options policy-statement R term rfl from route-filter-list RFL
        set policy-options policy-statement R term rfl then accept

        """)
    let l = try #require(o.policies["L"])
    let exact = try #require(l.term("exact"))
    #expect(o.match(exact, route(nil, "10.0.0.0/8")) == .all)
    #expect(o.match(exact, route(nil, "2001:db8::/32")) == .all)
    #expect(o.match(exact, route(nil, "10.1.0.0/16")) == .none)
    #expect(o.match(exact, route(nil, "10.0.0.0/8", orLonger: true)) == .some)
    #expect(o.match(exact, route(nil, "10.1.0.0/16", orLonger: true)) == .none)
    let longer = try #require(l.term("longer"))
    #expect(o.match(longer, route(nil, "10.1.0.0/16", orLonger: true)) == .all)
    #expect(o.match(longer, route(nil, "2001:db8:1::/48")) == .all)
    #expect(o.match(longer, route(nil, "11.0.0.0/8")) == .none)
    let dynamic = try #require(l.term("dynamic"))
    #expect(o.match(dynamic, route(nil, "10.0.0.0/8")) == .some)
    #expect(o.match(try #require(l.term("missing")), route(nil, "10.0.0.0/8")) == .some)
    let rfl = try #require(l.term("rfl"))
    #expect(o.match(rfl, route(nil, "10.8.0.0/16")) == .all)
    #expect(o.match(rfl, route(nil, "11.0.0.0/8")) == .none)
    #expect(o.evaluate(chain: ["R"], route("bgp", "10.9.0.0/16")) == .rejected(ref("R", "rfl")))
    #expect(o.evaluate(chain: ["R"], route("bgp", "10.9.1.0/24")) == .noDecision)
    #expect(o.evaluate(chain: ["R"], route("bgp", "10.8.0.0/16")) == .accepted(ref("R", "rfl")))
    #expect(o.evaluate(chain: ["L"], route("bgp", "10.9.0.0/16")) == .accepted(ref("L", "longer")))
    #expect(o.evaluate(chain: ["L"], route("bgp", "10.8.0.0/16")) == .accepted(ref("L", "longer")))
    #expect(o.evaluate(chain: ["L"], route("bgp", "172.16.0.0/12")) == .mayBeAccepted(ref("L", "dynamic")))
  }

  @Test func ipv6Policies() {
    let o = policyOptions(
      """
      set policy-options prefix-list V6 2001:db8:1::/48
      set policy-options policy-statement V6-OUT term own from route-filter 2001:db8::/32 orlonger
      set policy-options policy-statement V6-OUT term own from route-filter 2001:db8:ff::/48 exact reject
      set policy-options policy-statement V6-OUT term own then accept
      set policy-options policy-statement V6-OUT term listed from prefix-list V6
      set policy-options policy-statement V6-OUT term listed then accept
      set policy-options policy-statement V6-OUT term rest then reject

      """)
    let chain = ["V6-OUT"]
    #expect(o.evaluate(chain: chain, route("bgp", "2001:db8:1::/48")) == .accepted(ref("V6-OUT", "own")))
    #expect(o.evaluate(chain: chain, route("bgp", "2001:db8:ff::/48")) == .rejected(ref("V6-OUT", "own")))
    #expect(o.evaluate(chain: chain, route("bgp", "2001:db8:ff::/64")) == .rejected(ref("V6-OUT", "rest")))
    #expect(o.evaluate(chain: chain, route("bgp", "10.0.0.0/8")) == .rejected(ref("V6-OUT", "rest")))
    #expect(o.evaluate(chain: chain, route("bgp", "2001:db8::/32", orLonger: true)) == .mayBeAccepted(ref("V6-OUT", "own")))
    #expect(o.evaluate(chain: chain, route("bgp", "::/0", orLonger: true)) == .mayBeAccepted(ref("V6-OUT", "own")))
    #expect(o.evaluate(chain: chain, route("bgp", "2001:db9::/32", orLonger: true)) == .rejected(ref("V6-OUT", "rest")))
  }

  // MARK: Other conditions

  @Test func conditionsTheQueryDoesNotDescribeGiveSome() throws {
    let o = policyOptions(everyShapeSet)
    let t = try #require(o.policies["P"]?.term("T"))
    #expect(o.match(t, route("direct", "10.0.0.0/8", neighbor: "10.0.0.1")) == .some)
    #expect(o.match(t, route("static", "10.0.0.0/8")) == .none)
  }

  @Test func neighborsAndFamilies() throws {
    let o = policyOptions(
      """
      set policy-options policy-statement P term n from neighbor 10.0.0.1
      set policy-options policy-statement P term n then accept
      set policy-options policy-statement P term f from family inet6
      set policy-options policy-statement P term f then accept

      """)
    let n = try #require(o.policies["P"]?.term("n"))
    #expect(o.match(n, route("bgp", "10.0.0.0/8")) == .some)
    #expect(o.match(n, route("bgp", "10.0.0.0/8", neighbor: "10.0.0.1")) == .all)
    #expect(o.match(n, route("bgp", "10.0.0.0/8", neighbor: "10.0.0.2")) == .none)
    #expect(o.match(n, route("bgp", "10.0.0.0/8", neighbor: "10.0.0.0/24")) == .some)
    let f = try #require(o.policies["P"]?.term("f"))
    #expect(o.match(f, route("bgp", "2001:db8::/32")) == .all)
    #expect(o.match(f, route("bgp", "10.0.0.0/8")) == .none)
    #expect(o.match(f, route("bgp", nil)) == .some)
  }

  @Test func ospfCoversBothVersions() throws {
    let o = policyOptions(
      """
      set policy-options policy-statement P term any from protocol ospf
      set policy-options policy-statement P term any then accept
      set policy-options policy-statement P term v3 from protocol ospf3
      set policy-options policy-statement P term v3 then accept

      """)
    let any = try #require(o.policies["P"]?.term("any"))
    let v3 = try #require(o.policies["P"]?.term("v3"))
    #expect(o.match(any, route("ospf3", nil)) == .all)
    #expect(o.match(any, route("ospf3", "10.0.0.0/8")) == .all)
    #expect(o.match(any, route("OSPF", "10.0.0.0/8")) == .all)
    #expect(o.match(v3, route("ospf", "10.0.0.0/8")) == .none)
    #expect(o.match(any, route("isis", "10.0.0.0/8")) == .none)
  }
}

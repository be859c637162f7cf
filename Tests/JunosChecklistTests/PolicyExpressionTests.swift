import JunosConfig
import Testing

@testable import JunosChecklist

/// Parses a `display set` snippet into policy options.
private func options(_ lines: [String]) -> PolicyOptions {
  let parsed = ConfigParser.parse(SourceFile(path: "t", text: lines.joined(separator: "\n") + "\n"))
  #expect(parsed.diagnostics.isEmpty)
  return PolicyOptions(tree: parsed.tree)
}

private func ref(_ policy: String, _ term: String) -> TermRef { TermRef(policy: policy, term: term) }

private func route(_ proto: String, _ prefix: String = "10.1.0.0/16") -> Route {
  Route(prefix: IPPrefix(prefix)!, protocolName: proto, routeType: proto == "bgp" ? .external : nil)
}

/// Policies with one decision each: `ACCEPT` accepts, `REJECT` rejects, `NEXT` says `next
/// policy`, `NONE` decides nothing (static routes only, so every other route falls through);
/// `STATIC` accepts static routes and rejects the rest; `TAG` sets a metric and goes on.
private let fixed = options([
  "set policy-options policy-statement ACCEPT term A then accept",
  "set policy-options policy-statement REJECT term R then reject",
  "set policy-options policy-statement NEXT term N then next policy",
  "set policy-options policy-statement NONE term X from protocol aggregate",
  "set policy-options policy-statement NONE term X then metric 9",
  "set policy-options policy-statement STATIC term S from protocol static",
  "set policy-options policy-statement STATIC term S then accept",
  "set policy-options policy-statement STATIC term OTHER then reject",
  "set policy-options policy-statement TAG term M then metric 5",
  "set policy-options policy-statement TAG term M then next policy",
  "set policy-options policy-statement SUBR term T from policy ( ! STATIC )",
  "set policy-options policy-statement SUBR term T then accept",
  "set policy-options policy-statement SUBR term U then reject",
])

private func decide(_ chain: String, _ r: Route, _ attachment: DefaultPolicy = .igpExport) -> RouteEvaluation {
  fixed.evaluate(chain: chain.split(separator: " ").map(String.init), route: r, attachment: attachment)
}

@Suite struct PolicyExpressionEvaluationTests {
  @Test func chainsParseWithPrecedenceAndGluedOperators() {
    let e = parsePolicyChain(["(", "A", "&&", "!", "B", "||", "C", ")", "D"])
    #expect(e == [.expression(.or(.and(.policy("A"), .not(.policy("B"))), .policy("C"))), .policy("D")])
    #expect(parsePolicyChain(["(A&&!B||C)", "D"]) == e)
    #expect(parsePolicyChain(["(", "!", "(", "A", "||", "B", ")", ")"]) == [.expression(.not(.or(.policy("A"), .policy("B"))))])
    #expect(parsePolicyChain([]) == [])
    // What Junos prints parses back to the same expression.
    for c in [["( A && ! B || C )"], ["( ! ( A || B ) && C )"], ["( A )"]] {
      let parsed = parsePolicyChain(c)
      #expect(parsed != nil)
      #expect(parsePolicyChain(parsed!.map(\.description)) == parsed)
    }
    for bad in [["(", "A"], ["A", "&&", "B"], ["(", ")"], ["(", "A", "&&", ")"], ["A", ")"], ["(", "!", ")"], ["(", "A", "B", ")"]] {
      #expect(parsePolicyChain(bad) == nil, "\(bad)")
    }
    // Hostile nesting is refused, not recursed into.
    #expect(parsePolicyChain(Array(repeating: "(", count: 100_000) + ["A"] + Array(repeating: ")", count: 100_000)) == nil)
    #expect(parsePolicyChain(["("] + Array(repeating: "!", count: 100_000) + ["A", ")"]) == nil)
    #expect(policyNames(["(", "A", "&&", "!B", ")", "C"]) == ["A", "B", "C"])
  }

  /// Juniper's conversion table: accept is true and accept, reject false and reject, `next
  /// policy` true and goes on; `&&` and `||` short-circuit; the last policy evaluated decides.
  @Test func valuesAndFlowActions() {
    #expect(decide("( ACCEPT && REJECT )", route("ospf")).decision == .reject(ref("REJECT", "R")))
    #expect(decide("( ACCEPT && STATIC )", route("static")).decision == .accept(ref("STATIC", "S")))
    // `&&` stops at the first false: REJECT decides, ACCEPT is never reached.
    let short = decide("( REJECT && ACCEPT )", route("ospf"))
    #expect(short.decision == .reject(ref("REJECT", "R")))
    #expect(short.trace.map(\.term.policy) == ["REJECT"])
    #expect(decide("( REJECT || ACCEPT )", route("ospf")).decision == .accept(ref("ACCEPT", "A")))
    #expect(decide("( ACCEPT || REJECT )", route("ospf")).trace.map(\.term.policy) == ["ACCEPT"])
    // `next policy` is true and goes on to the next element of the chain.
    #expect(decide("( NEXT && STATIC ) REJECT", route("static")).decision == .accept(ref("STATIC", "S")))
    #expect(decide("( NEXT ) REJECT", route("static")).decision == .reject(ref("REJECT", "R")))
    #expect(decide("( NEXT || REJECT )", route("static")).decision == .defaultPolicy(accepts: false))
    #expect(decide("( NEXT || REJECT )", route("static"), .bgpImport).decision == .defaultPolicy(accepts: true))
  }

  /// `!` inverts the value and turns accept and `next policy` into reject, reject into accept.
  @Test func negation() {
    #expect(decide("( ! ACCEPT )", route("ospf")).decision == .expression("( ! ACCEPT )", accepts: false))
    #expect(decide("( ! REJECT )", route("ospf")).decision == .expression("( ! REJECT )", accepts: true))
    #expect(decide("( ! NEXT ) ACCEPT", route("ospf")).decision == .expression("( ! NEXT )", accepts: false))
    // `! STATIC && ACCEPT`: everything but static routes.
    #expect(decide("( ! STATIC && ACCEPT )", route("ospf")).decision == .accept(ref("ACCEPT", "A")))
    #expect(decide("( ! STATIC && ACCEPT )", route("static")).decision == .expression("( ! STATIC && ACCEPT )", accepts: false))
    // Double negation gives the term's action back.
    #expect(decide("( ! ! ACCEPT )", route("ospf")).decision == .accept(ref("ACCEPT", "A")))
  }

  /// A policy that decides nothing takes the attachment point's default as its value; a true
  /// value without an action goes on, a false one rejects.
  @Test func aPolicyThatDecidesNothingTakesTheDefault() {
    // BGP import accepts by default: NONE is true, so STATIC is evaluated.
    #expect(decide("( NONE && STATIC )", route("bgp"), .bgpImport).decision == .reject(ref("STATIC", "OTHER")))
    // IGP export rejects by default: NONE is false and the `&&` stops there.
    let r = decide("( NONE && ACCEPT ) ACCEPT", route("bgp"), .igpExport)
    #expect(r.decision == .expression("( NONE && ACCEPT )", accepts: false))
    #expect(decide("( NONE ) ACCEPT", route("bgp"), .bgpImport).decision == .accept(ref("ACCEPT", "A")))
    // `! NONE` where the default rejects: true without an action, so the chain goes on.
    #expect(decide("( ! NONE ) STATIC", route("static"), .igpExport).decision == .accept(ref("STATIC", "S")))
    // The actions of every policy evaluated are collected.
    #expect(decide("( TAG && STATIC )", route("static")).actions == ["metric 5"])
  }

  /// Juniper's example: `[ A B ]` is not `( A && B )`.
  @Test func aSequentialListIsNotAnAnd() {
    #expect(decide("ACCEPT STATIC", route("ospf")).decision == .accept(ref("ACCEPT", "A")))
    #expect(decide("( ACCEPT && STATIC )", route("ospf")).decision == .reject(ref("STATIC", "OTHER")))
  }

  /// `from policy ( ! STATIC )`: the expression's value is the condition.
  @Test func expressionsAsSubroutines() {
    #expect(decide("SUBR", route("ospf")).decision == .accept(ref("SUBR", "T")))
    #expect(decide("SUBR", route("static")).decision == .reject(ref("SUBR", "U")))
  }

  @Test func undefinedAndMalformedChains() {
    #expect(decide("( ACCEPT && MISSING )", route("ospf")).decision == .undefinedPolicy("MISSING"))
    #expect(decide("( ACCEPT &&", route("ospf")).decision == .malformedChain("( ACCEPT &&"))
    #expect(decide("( ACCEPT &&", route("ospf")).accepted == nil)
  }
}

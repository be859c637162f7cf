import JunosChecklist
import JunosConfig
import Testing

private let protocols = ["static", "bgp", "direct"]
private let actions = ["accept", "reject", "next term", "next policy", "metric 5"]

/// A random chain of one or two policies, as `set` lines.
private func randomPolicies(_ g: inout SplitMix64) -> (text: String, chain: [String]) {
  var lines: [String] = []
  for l in 0..<2 {
    for _ in 0..<Int.random(in: 1...2, using: &g) {
      lines.append("set policy-options prefix-list L\(l) \(nearPrefix(&g, lengths: 8...24))")
    }
  }
  let chain = (0..<Int.random(in: 1...2, using: &g)).map { "P\($0)" }
  for p in chain {
    for t in 0..<Int.random(in: 1...4, using: &g) {
      let head = "set policy-options policy-statement \(p) term T\(t)"
      if Int.random(in: 0..<3, using: &g) == 0 {
        let names = protocols.shuffled(using: &g).prefix(Int.random(in: 1...2, using: &g))
        lines.append("\(head) from protocol [ \(names.joined(separator: " ")) ]")
      }
      lines += randomPrefixConditions(&g, head: head)
      lines.append("\(head) then \(actions.randomElement(using: &g)!)")
    }
  }
  return (lines.joined(separator: "\n") + "\n", chain)
}

@Suite struct PolicyConcretePropertyTests {
  /// The concrete evaluator agrees with the set evaluator wherever the latter is certain about
  /// a single route.
  @Test func agreesWithTheSetEvaluator() {
    var g = SplitMix64(seed: 16)
    var compared = 0
    var uncertain = 0
    for _ in 0..<250 {
      let (text, chain) = randomPolicies(&g)
      let parsed = ConfigParser.parse(SourceFile(path: "t", text: text))
      #expect(parsed.diagnostics.isEmpty)
      let o = PolicyOptions(tree: parsed.tree)
      for _ in 0..<400 {
        let r = Route(prefix: nearPrefix(&g, lengths: 8...32), protocolName: protocols.randomElement(using: &g)!)
        let concrete = o.evaluate(chain: chain, route: r, attachment: .igpExport).decision
        let set = o.evaluate(chain: chain, RouteQuery(protocolName: r.protocolName, prefix: r.prefix))
        let agrees: Bool
        switch set {
        case .accepted(let t): agrees = concrete == .accept(t)
        case .rejected(let t): agrees = concrete == .reject(t)
        case .noDecision: agrees = concrete == .defaultPolicy(accepts: false)
        case .mayBeAccepted, .undefinedPolicy:
          uncertain += 1
          continue
        }
        compared += 1
        if !agrees {
          Issue.record("\(r.prefix) \(r.protocolName): set \(set), concrete \(concrete)\n\(text)")
          return
        }
      }
    }
    #expect(compared >= 90_000)
    #expect(uncertain < 10_000)
  }
}

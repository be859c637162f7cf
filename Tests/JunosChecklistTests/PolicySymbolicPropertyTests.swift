import JunosConfig
import Testing

@testable import JunosChecklist

private let protocols = ["static", "bgp", "direct", "ospf", "aggregate"]
private let neighbors = ["192.0.2.1", "192.0.2.2", "198.51.100.9"]
private let communities = ["65000:1", "65000:2", "65000:3", "no-export"]
private let asPaths = ["65001 .*", ".* 65002", "65001", "[64512-65534]+"]

/// One random term line of policy `p`, term `t`.
private func randomTermLines(_ g: inout SplitMix64, policy p: String, term t: Int, policies: Int) -> [String] {
  let head = "set policy-options policy-statement \(p) term T\(t)"
  var lines: [String] = []
  func maybe(_ one: Int) -> Bool { Int.random(in: 0..<one, using: &g) == 0 }
  if maybe(3) {
    lines.append("\(head) from protocol [ \(protocols.shuffled(using: &g).prefix(.random(in: 1...2, using: &g)).joined(separator: " ")) ]")
  }
  if maybe(5) { lines.append("\(head) from route-type \(Bool.random(using: &g) ? "internal" : "external")") }
  if maybe(6) { lines.append("\(head) from neighbor \(neighbors.randomElement(using: &g)!)") }
  if maybe(8) { lines.append("\(head) from tag \(["100", "200"].randomElement(using: &g)!)") }
  if maybe(8) { lines.append("\(head) from rib \(["inet.0", "inet.3"].randomElement(using: &g)!)") }
  if maybe(5) { lines.append("\(head) from community C\(Int.random(in: 0...5, using: &g))") }
  if maybe(6) { lines.append("\(head) from as-path A\(Int.random(in: 0...3, using: &g))") }
  if maybe(12), p != "SUB" { lines.append("\(head) from policy \(maybe(3) ? "( ! SUB )" : "SUB")") }
  lines += randomPrefixConditions(&g, head: head)
  if maybe(4) { lines.append("\(head) then \(["metric 5", "local-preference 200", "community add C1"].randomElement(using: &g)!)") }
  lines.append("\(head) then \(["accept", "reject", "next term", "next policy", "accept", "reject"].randomElement(using: &g)!)")
  return lines
}

/// A random chain over `policies`: plain names, or a policy expression (`&&`, `||`, `!`,
/// nested) followed now and then by a plain policy.
private func randomChain(_ g: inout SplitMix64, policies: [String]) -> [String] {
  guard policies.count > 1, Int.random(in: 0..<2, using: &g) == 0 else { return policies }
  func operand(_ depth: Int) -> [String] {
    var words: [String]
    if depth < 2 && Int.random(in: 0..<4, using: &g) == 0 {
      words = ["("] + expression(depth + 1) + [")"]
    } else {
      words = [policies.randomElement(using: &g)!]
    }
    return Int.random(in: 0..<3, using: &g) == 0 ? ["!"] + words : words
  }
  func expression(_ depth: Int) -> [String] {
    var words = operand(depth)
    for _ in 0..<Int.random(in: 0...2, using: &g) { words += [Bool.random(using: &g) ? "&&" : "||"] + operand(depth) }
    return words
  }
  var chain = ["("] + expression(0) + [")"]
  if Bool.random(using: &g) { chain.append(policies.last!) }
  return chain
}

/// The named sets, the subroutine and a chain of up to three policies (their names, for
/// `randomChain`).
private func randomPolicies(_ g: inout SplitMix64) -> (lines: [String], chain: [String]) {
  var lines: [String] = []
  for l in 0..<2 {
    for _ in 0..<Int.random(in: 1...3, using: &g) {
      lines.append("set policy-options prefix-list L\(l) \(nearPrefix(&g, lengths: 8...24))")
    }
  }
  for c in 0..<4 {
    let members = communities.shuffled(using: &g).prefix(.random(in: 1...2, using: &g))
    lines.append("set policy-options community C\(c) members [ \(members.joined(separator: " ")) ]")
    if c == 3 { lines.append("set policy-options community C3 invert-match") }
  }
  // Patterns: a field wildcard and a digit class.
  lines.append("set policy-options community C4 members \"65000:*\"")
  lines.append("set policy-options community C5 members \"^65000:[2-3]$\"")
  for (a, re) in asPaths.enumerated() { lines.append("set policy-options as-path A\(a) \"\(re)\"") }
  for t in 0..<Int.random(in: 1...2, using: &g) { lines += randomTermLines(&g, policy: "SUB", term: t, policies: 1) }
  let chain = (0..<Int.random(in: 1...3, using: &g)).map { "P\($0)" }
  for p in chain {
    for t in 0..<Int.random(in: 1...4, using: &g) { lines += randomTermLines(&g, policy: p, term: t, policies: chain.count) }
  }
  return (lines, chain)
}

/// A few random edits: a line removed, a line added, an action changed.
private func edited(_ lines: [String], _ chain: [String], _ g: inout SplitMix64) -> [String] {
  var out = lines
  for _ in 0..<Int.random(in: 1...3, using: &g) {
    switch Int.random(in: 0..<3, using: &g) {
    case 0 where !out.isEmpty: out.remove(at: .random(in: 0..<out.count, using: &g))
    case 1: out += randomTermLines(&g, policy: chain.randomElement(using: &g)!, term: .random(in: 0...4, using: &g), policies: chain.count)
    default:
      let thens = out.indices.filter { out[$0].contains(" then ") }
      if let k = thens.randomElement(using: &g) {
        let head = out[k].components(separatedBy: " then ")[0]
        out[k] = "\(head) then \(["accept", "reject", "next term", "next policy"].randomElement(using: &g)!)"
      }
    }
  }
  return out
}

private func options(_ lines: [String]) -> PolicyOptions {
  let parsed = ConfigParser.parse(SourceFile(path: "t", text: lines.joined(separator: "\n") + "\n"))
  #expect(parsed.diagnostics.isEmpty)
  return PolicyOptions(tree: parsed.tree)
}

private func randomRoute(_ g: inout SplitMix64) -> Route {
  let proto = protocols.randomElement(using: &g)!
  let typed = proto == "bgp" || proto == "ospf"
  let pathLength = Int.random(in: 0...3, using: &g)
  return Route(
    prefix: nearPrefix(&g, lengths: 8...32), protocolName: proto,
    neighbor: Bool.random(using: &g) ? IPPrefix(neighbors.randomElement(using: &g)!) : nil,
    isActive: proto != "bgp" || Bool.random(using: &g),
    communities: Array(communities.shuffled(using: &g).prefix(.random(in: 0...3, using: &g))),
    asPath: (0..<pathLength).map { _ in [65001, 65002, 64600, 174].randomElement(using: &g)! },
    routeType: typed ? (Bool.random(using: &g) ? .internal : .external) : nil,
    tag: [nil, 100, 200, 7].randomElement(using: &g)!, rib: [nil, "inet.0", "inet.3", "inet6.0"].randomElement(using: &g)!)
}

@Suite struct PolicySymbolicPropertyTests {
  /// For generated policies and edits, the symbolic run gives every sampled route's class the
  /// decision and actions the concrete evaluator gives the route, on both sides; and every
  /// reported change's example reproduces.
  @Test func theSymbolicRunAgreesWithTheConcreteEvaluator() {
    var g = SplitMix64(seed: 1616)
    var sampled = 0
    var outsideSampledPaths = 0
    var changes = 0
    var changedRoutes = 0
    var expressions = 0
    for _ in 0..<200 {
      let (lines, policies) = randomPolicies(&g)
      let old = options(lines)
      let new = options(edited(lines, policies, &g))
      let oldChain = randomChain(&g, policies: policies)
      let newChain = Int.random(in: 0..<4, using: &g) == 0 ? randomChain(&g, policies: policies) : oldChain
      if oldChain.contains("(") || newChain.contains("(") { expressions += 1 }
      let attachment = DefaultPolicy.allCases.randomElement(using: &g)!
      let run = SymbolicComparison(old: old, oldChain: oldChain, new: new, newChain: newChain, attachment: attachment)
      let difference = PolicyDifference.compare(old: old, oldChain: oldChain, new: new, newChain: newChain, attachment: attachment)
      for change in difference.changes {
        changes += 1
        #expect(change.verified, "example \(change.exampleText) does not reproduce\n\(lines.joined(separator: "\n"))")
      }
      for _ in 0..<500 {
        let route = randomRoute(&g)
        guard let index = run.space.classIndex(of: route) else {
          outsideSampledPaths += 1
          continue
        }
        sampled += 1
        for (outcomes, o, chain, name) in [(run.before, old, oldChain, "old"), (run.after, new, newChain, "new")] {
          let concrete = o.evaluate(chain: chain, route: route, attachment: attachment)
          guard let s = SymbolicComparison.outcome(outcomes, at: index) else {
            Issue.record("no symbolic outcome covers \(route)")
            return
          }
          if s.decision != concrete.decision || s.actions != concrete.actions {
            Issue.record(
              "\(name) \(chain.joined(separator: " ")): \(route) symbolic \(s.decision) \(s.actions), concrete \(concrete.decision) \(concrete.actions)\n\(lines.joined(separator: "\n"))"
            )
            return
          }
        }
        let a = old.evaluate(chain: oldChain, route: route, attachment: attachment)
        let b = new.evaluate(chain: newChain, route: route, attachment: attachment)
        if a.decision.accepts != b.decision.accepts || a.actions != b.actions { changedRoutes += 1 }
      }
    }
    #expect(sampled >= 100_000 - outsideSampledPaths)
    #expect(sampled >= 95_000)
    #expect(changes >= 100)
    #expect(changedRoutes >= 5_000)
    #expect(expressions >= 60)
  }
}

import JunosChecklist
import JunosConfig
import Testing

/// One generated term: its `from` conditions and `then` actions, as `set` words.
private struct GenTerm {
  var name: String
  var from: [String]
  var then: [String]
}

private let ports = ["22", "53", "ssh", "bgp", "ntp", "179", "3784", "4784", "1024-65535", "100-200", "646", "snmp-snmptrap"]
private let protocolNames = ["tcp", "udp", "icmp", "ospf", "89", "17", "6", "46"]

private func randomPrefix(_ g: inout SplitMix64) -> String {
  let len = [8, 12, 16, 24, 28, 30, 31, 32].randomElement(using: &g)!
  let b: [UInt8] = [10, .random(in: 0...3, using: &g), .random(in: 0...3, using: &g), .random(in: 0...255, using: &g)]
  return IPPrefix(family: .inet, bytes: b, length: len).network.description
}

private func randomTerm(_ g: inout SplitMix64, _ name: String, lists: [String]) -> GenTerm {
  var from: [String] = []
  func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &g) == 0 }
  for key in ["source-address", "destination-address", "address"] where chance(3) {
    for _ in 0..<Int.random(in: 1...3, using: &g) { from.append("\(key) \(randomPrefix(&g))" + (chance(3) ? " except" : "")) }
  }
  if chance(4), let l = lists.randomElement(using: &g) { from.append("source-prefix-list \(l)" + (chance(4) ? " except" : "")) }
  if chance(2) {
    from.append("protocol [ \(protocolNames.shuffled(using: &g).prefix(Int.random(in: 1...2, using: &g)).joined(separator: " ")) ]")
  }
  if chance(5) { from.append("protocol-except udp") }
  for key in ["source-port", "destination-port", "port", "destination-port-except"] where chance(4) {
    from.append("\(key) [ \(ports.shuffled(using: &g).prefix(Int.random(in: 1...2, using: &g)).joined(separator: " ")) ]")
  }
  if chance(6) { from.append("tcp-established") }
  if chance(8) { from.append("tcp-initial") }
  if chance(8) { from.append("tcp-flags \"(syn | fin) & !rst\"") }
  if chance(6) { from.append("icmp-type [ echo-request unreachable ]") }
  if chance(8) { from.append("dscp [ ef af11 ]") }
  if chance(25) { from.append("packet-length 100") }
  let actions = [["accept"], ["discard"], ["reject"], ["count c", "next term"], ["count c"], ["log", "accept"]]
  var then = actions.randomElement(using: &g)!
  if chance(30) { then = ["routing-instance R"] }
  if from.isEmpty && then.contains("next term") { then = ["count c"] }
  return GenTerm(name: name, from: from, then: then)
}

/// Random edits of the kinds a change makes: a term's action, a condition dropped or added, an
/// `except` entry, terms swapped, removed or inserted.
private func edit(_ terms: [GenTerm], _ g: inout SplitMix64, lists: [String]) -> [GenTerm] {
  var t = terms
  for _ in 0..<Int.random(in: 1...3, using: &g) {
    guard !t.isEmpty else {
      t.append(randomTerm(&g, "N\(Int.random(in: 0...99, using: &g))", lists: lists))
      continue
    }
    let k = Int.random(in: 0..<t.count, using: &g)
    switch Int.random(in: 0..<7, using: &g) {
    case 0: t[k].then = [["accept"], ["discard"], ["reject"], ["count c"]].randomElement(using: &g)!
    case 1: if !t[k].from.isEmpty { t[k].from.remove(at: Int.random(in: 0..<t[k].from.count, using: &g)) }
    case 2: t[k].from += randomTerm(&g, "x", lists: lists).from.prefix(1)
    case 3: t[k].from.append("source-address \(randomPrefix(&g)) except")
    case 4: t.swapAt(k, Int.random(in: 0..<t.count, using: &g))
    case 5: t.remove(at: k)
    default: t.insert(randomTerm(&g, "N\(Int.random(in: 0...99, using: &g))", lists: lists), at: k)
    }
    if t.indices.contains(k), t[k].from.isEmpty, t[k].then.contains("next term") { t[k].then = ["count c"] }
  }
  var seen: Set<String> = []
  return t.filter { seen.insert($0.name).inserted }
}

private func render(_ filters: [(String, [GenTerm])], lists: [(String, [String])], applied: [String]) -> String {
  var lines = [
    "set interfaces lo0 unit 0 family inet address 10.255.0.1/32",
    "set interfaces lo0 unit 0 family inet filter input-list [ \(applied.joined(separator: " ")) ]",
  ]
  for (name, entries) in lists { for e in entries { lines.append("set policy-options prefix-list \(name) \(e)") } }
  for (f, terms) in filters {
    for t in terms {
      let head = "set firewall family inet filter \(f) term \(t.name)"
      if t.from.first?.hasPrefix("filter ") == true {
        lines.append("\(head) \(t.from[0])")
        continue
      }
      for c in t.from { lines.append("\(head) from \(c)") }
      for a in t.then { lines.append("\(head) then \(a)") }
    }
  }
  return lines.joined(separator: "\n") + "\n"
}

/// A packet near the atoms the filters use: addresses in 10.0–3.x (often on a prefix's edge),
/// ports and protocols from the pools, random flags, types and DSCP.
private func randomPacket(_ g: inout SplitMix64) -> Packet {
  func addr() -> IPPrefix {
    IPPrefix(
      family: .inet, bytes: [10, .random(in: 0...3, using: &g), .random(in: 0...3, using: &g), .random(in: 0...255, using: &g)], length: 32)
  }
  func port() -> Int {
    switch Int.random(in: 0..<4, using: &g) {
    case 0: [22, 53, 123, 161, 162, 179, 646, 3784, 4784, 100, 200, 1023, 1024, 65535].randomElement(using: &g)!
    case 1: Int.random(in: 0...65535, using: &g)
    default: [21, 22, 23, 99, 100, 101, 178, 179, 180, 199, 201, 3783, 3784, 3785].randomElement(using: &g)!
    }
  }
  return Packet(
    source: addr(), destination: addr(),
    protocolNumber: [1, 6, 17, 46, 89, 6, 17, Int.random(in: 0...255, using: &g)].randomElement(using: &g)!,
    sourcePort: port(), destinationPort: port(), tcpFlags: Int.random(in: 0...63, using: &g),
    icmpType: [0, 3, 8, 11, Int.random(in: 0...255, using: &g)].randomElement(using: &g)!,
    dscp: [0, 10, 46, Int.random(in: 0...63, using: &g)].randomElement(using: &g)!)
}

@Suite struct FirewallPropertyTests {
  static let cases = 250
  static let packetsPerCase = 500

  /// Seeded filters (one or two in an input list, sometimes with a nested filter term) and
  /// edits of them: on every sampled packet the symbolic comparison's verdict (in a changed
  /// region or not, and the verdicts and terms of that region) agrees with the concrete
  /// evaluator, and every reported region's example reproduces.
  @Test func symbolicRegionsAgreeWithTheConcreteEvaluator() {
    var g = SplitMix64(seed: 0xF1_7E12)
    var sampled = 0
    var regions = 0
    var changedPackets = 0
    var inBox = 0
    var mismatches: [String] = []
    for n in 0..<Self.cases {
      let lists = [("L0", (0..<Int.random(in: 1...3, using: &g)).map { _ in randomPrefix(&g) })]
      let names = Int.random(in: 0..<3, using: &g) == 0 ? ["F0", "F1"] : ["F0"]
      var old: [(String, [GenTerm])] = names.map { f in
        (f, (0..<Int.random(in: 1...6, using: &g)).map { randomTerm(&g, "T\($0)", lists: ["L0"]) })
      }
      let nested = Int.random(in: 0..<4, using: &g) == 0
      if nested {
        old.append(("COMMON", (0..<2).map { randomTerm(&g, "C\($0)", lists: ["L0"]) }))
        old[0].1.insert(GenTerm(name: "NEST", from: ["filter COMMON"], then: []), at: 0)
      }
      var new = old
      let k = Int.random(in: 0..<new.count, using: &g)
      new[k].1 = edit(new[k].1, &g, lists: ["L0"])
      if new[k].1.isEmpty { new[k].1 = [randomTerm(&g, "T0", lists: ["L0"])] }
      for i in old.indices where old[i].1.isEmpty { old[i].1 = [randomTerm(&g, "T0", lists: ["L0"])] }
      let oldText = render(old, lists: lists, applied: names)
      let newText = render(new, lists: lists, applied: names)
      guard let oc = lo0Chain(firewall(oldText)), let nc = lo0Chain(firewall(newText)) else {
        mismatches.append("case \(n): no chain\n\(oldText)")
        continue
      }
      // Half the cases ask about a box of packets (as the lo0 rule asks about one flow).
      var within = PacketSet.all
      if Int.random(in: 0..<2, using: &g) == 0 {
        within = PacketSet(
          sources: Int.random(in: 0..<2, using: &g) == 0 ? [IPPrefix(randomPrefix(&g))!] : nil,
          protocols: Int.random(in: 0..<2, using: &g) == 0 ? IntRanges([6...6, 17...17]) : nil,
          destinationPorts: Int.random(in: 0..<2, using: &g) == 0 ? IntRanges([100...3784]) : nil)
      }
      let changes = FirewallComparison.compare(old: oc, new: nc, within: within)
      regions += changes.count
      for c in changes where !c.reproduces || !c.contains(c.example) {
        mismatches.append("case \(n): example does not reproduce: \(c.text)")
      }
      for _ in 0..<Self.packetsPerCase {
        let p = randomPacket(&g)
        sampled += 1
        let eo = oc.evaluate(p)
        let en = nc.evaluate(p)
        let hits = changes.filter { $0.contains(p) }
        if hits.count > 1 { mismatches.append("case \(n): \(p) in \(hits.count) regions") }
        let hit = hits.first
        if !within.contains(p) {
          if hit != nil { mismatches.append("case \(n): \(p) outside the box but in \(hit!.text)") }
          continue
        }
        inBox += 1
        if eo.verdict == .unmodelled || en.verdict == .unmodelled {
          if hit == nil && !(eo.verdict == en.verdict && eo.term == en.term) {
            mismatches.append("case \(n): \(p) unmodelled on one side but in no region")
          }
          continue
        }
        let changed = eo.verdict != en.verdict
        if changed { changedPackets += 1 }
        if changed != (hit != nil) {
          mismatches.append(
            "case \(n): \(p): concrete \(eo.verdict)/\(en.verdict), symbolic \(hit?.text ?? "unchanged")\n\(oldText)\n\(newText)")
        } else if let hit, hit.oldVerdict != eo.verdict || hit.newVerdict != en.verdict || hit.oldTerm != eo.term || hit.newTerm != en.term
        {
          mismatches.append("case \(n): \(p): region \(hit.text) but concrete \(eo.verdict) \(eo.termText) / \(en.verdict) \(en.termText)")
        }
      }
    }
    #expect(sampled >= 100_000)
    #expect(inBox >= 60_000, "most packets are compared inside their box: \(inBox)")
    #expect(regions > 0 && changedPackets > 0, "the edits change something")
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches; first: \(mismatches.prefix(3).joined(separator: "\n---\n"))")
  }
}

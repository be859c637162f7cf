// FuzzPolicy.swift: libFuzzer target for the route-policy and firewall-filter evaluators: the
// concrete policy evaluator (PolicyConcrete.swift), the symbolic run and comparison
// (RouteSpace.swift, PolicySymbolic.swift, PolicyComparison.swift), ASPathRegex and community
// patterns, and the filter evaluator and comparison (FirewallConcrete.swift,
// FirewallComparison.swift).
//
// Not a SwiftPM target. Tests/Fuzz/run.sh (mode `policy`) compiles it with the same sources as
// the checklist target, as ONE module, so internal types (SymbolicComparison, RouteSpace) are
// visible here without an import.
//
// Input: a configuration (curly or `display set`), optionally followed by a line `====` and the
// change: `set`/`delete` commands applied to it, a `show | compare` text, or a whole new
// configuration. Without a change, a `display set` input is changed by dropping one of its
// `policy-options` lines (chosen by the input's hash). The chain is one or two of the policies
// either side defines, or a policy expression over up to three of them (`( A && ! B )`,
// `( A || B ) C`, …), one for each side; the attachment point's default and scope are chosen by
// the hash too.
// Seeds: run.sh writes them (the semantic and incident fixtures of Fixtures/checklist, and the
// small configurations of Fixtures/configs that define policies).
//
// Checks (a failed one calls fatalError with the input as a Swift string literal):
//   1. For up to 64 route classes spread over the space, and up to 16 routes read from the input's
//      bytes (located with RouteSpace.classIndex), the symbolic outcome of the class holding the
//      route is the concrete evaluator's decision and actions, on both sides.
//   2. Every change PolicyDifference.compare reports is verified (its example reproduces).
//   3. Every quoted word of the input that reads as an AS-path expression matches its own
//      shortestMatch; every one that reads as a community pattern matches its own witness.
//   5. Every line of the input with a parenthesis, read as chain words, that parses as a chain
//      parses back to the same elements from their printed form.
//   4. Filters (both sides' effective configurations): every region FirewallComparison.compare
//      reports reproduces; for its example packet and packets derived from it by the input's
//      bytes, the old and new chains' concrete verdicts are the region's when the region holds
//      the packet, and a packet the two chains decide differently (both determined) lies in a
//      reported region of its attachment.
// Input size is bounded by -max_len (run.sh: 4096) and time by -timeout.

internal import Glibc

nonisolated(unsafe) private var pfTally: [String: Int] = [:]
nonisolated(unsafe) private var pfInput: [UInt8] = []

private func pfCount(_ what: String) { pfTally[what, default: 0] += 1 }

private func pfFail(_ what: String) -> Never {
  let text = String(decoding: pfInput, as: UTF8.self).debugDescription
  fatalError("policy fuzz: \(what)\n--- whole input (Swift literal) ---\n\(text)\n--- end ---")
}

/// FNV-1a over the input: the choices the input does not spell out.
private func pfHash(_ bytes: [UInt8]) -> UInt64 {
  var h: UInt64 = 0xcbf2_9ce4_8422_2325
  for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
  return h
}

/// The new configuration: the change section applied to (or replacing) the base, or the base
/// without one of its `policy-options` lines.
private func pfChanged(_ base: ConfigTree, _ baseBytes: [UInt8], _ change: [UInt8]?, _ h: UInt64) -> ConfigTree? {
  guard let change else {
    let lines = baseBytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    let candidates = lines.indices.filter { String(decoding: lines[$0], as: UTF8.self).contains("policy-options") }
    guard !candidates.isEmpty else { return base }
    var kept = lines
    kept.remove(at: candidates[Int(h % UInt64(candidates.count))])
    let r = ConfigParser.parse(SourceFile(path: "new", bytes: Array(kept.joined(separator: [0x0A]))))
    return r.hasErrors ? nil : r.tree
  }
  let file = SourceFile(path: "change", bytes: change)
  if CompareText.looksLikeCompare(file) {
    let text = CompareText.parse(file)
    guard !text.hasErrors else { return nil }
    let r = text.apply(to: base)
    return r.hasErrors ? nil : r.tree
  }
  if ConfigParser.detectSyntax(file) == .set {
    let r = ConfigParser.load(file, onto: base)
    return r.hasErrors ? nil : r.tree
  }
  let r = ConfigParser.parse(file)
  return r.hasErrors ? nil : r.tree
}

/// A route read from eight bytes of the input: a prefix near the policies' own, a protocol, a
/// route type, a neighbor, communities, an AS path, a tag and a table from the space's atoms.
private func pfRoute(_ b: ArraySlice<UInt8>, _ space: RouteSpace) -> Route {
  let v = Array(b) + [UInt8](repeating: 0, count: max(0, 8 - b.count))
  let base = space.prefixes[Int(v[0]) % space.prefixes.count].example
  var bytes = base.bytes
  bytes[min(bytes.count - 1, Int(v[1]) % bytes.count)] ^= v[2]
  let length = min(base.width, max(0, base.length + Int(v[3] % 9) - 2))
  let o = space.origins[Int(v[4]) % space.origins.count]
  let protocols = ["bgp", "ospf", "static", "direct", "isis", "aggregate", "ospf3", "local"]
  let proto = v[4] & 0x80 != 0 ? protocols[Int(v[4]) % protocols.count] : o.protocolName
  let typed = proto == "bgp" || proto.hasPrefix("ospf") || proto == "isis"
  var communities: [String] = []
  for (i, atom) in space.communityAtoms.enumerated() where v[5] & (1 << UInt8(i % 8)) != 0 {
    communities += (atom.parsed ?? []).compactMap(\.witness)
  }
  return Route(
    prefix: IPPrefix(family: base.family, bytes: bytes, length: length).network, protocolName: proto,
    neighbor: space.neighbors[Int(v[6]) % space.neighbors.count], isActive: v[7] & 1 == 0, communities: communities,
    asPath: space.asPaths[Int(v[7] >> 1) % space.asPaths.count] + (v[7] & 0x80 != 0 ? [UInt32(v[2])] : []),
    routeType: typed ? (v[3] & 0x80 != 0 ? .internal : .external) : nil,
    tag: v[6] & 0x40 != 0 ? UInt32(v[1]) : space.attributes[Int(v[5]) % space.attributes.count].tag,
    rib: space.attributes[Int(v[6] >> 2) % space.attributes.count].rib)
}

/// A chain over `names` chosen by `h`: one or two policies, or an expression over up to three
/// with `&&`, `||` and `!`, sometimes followed by a plain policy.
private func pfChain(_ names: [String], _ h: UInt64) -> [String] {
  func name(_ k: UInt64) -> String { names[Int(k % UInt64(names.count))] }
  guard h & 0x1 == 0 else {
    var chain = [name(h >> 2)]
    if names.count > 1 && h & 0x100 != 0 { chain.append(name(h >> 9)) }
    return chain
  }
  var words = ["("]
  for k in 0..<(1 + Int((h >> 4) % 3)) {
    if k > 0 { words.append((h >> (12 + UInt64(k))) & 1 == 0 ? "&&" : "||") }
    if (h >> (16 + UInt64(k))) & 1 == 1 { words.append("!") }
    words.append(name(h >> (20 + 7 * UInt64(k))))
  }
  words.append(")")
  if (h >> 44) & 1 == 1 { words.append(name(h >> 45)) }
  return words
}

/// Check 1 for one route.
private func pfAgree(_ run: SymbolicComparison, _ index: [Int], _ route: Route, _ sides: [(PolicyOptions, [String])], _ a: DefaultPolicy) {
  for (side, (options, chain)) in zip([run.before, run.after], sides) {
    guard let s = SymbolicComparison.outcome(side, at: index) else {
      // Outside the attachment's scope: not compared.
      pfCount("out-of-scope")
      continue
    }
    let c = options.evaluate(chain: chain, route: route, attachment: a)
    if s.decision != c.decision || s.actions != c.actions {
      pfFail("\(route): symbolic \(s.decision) \(s.actions), concrete \(c.decision) \(c.actions), chain \(chain), \(a)")
    }
    pfCount("routes-compared")
  }
}

/// Check 4.
private func pfFilters(_ oldTree: ConfigTree, _ newTree: ConfigTree, _ bytes: [UInt8]) {
  let old = FirewallConfig(tree: oldTree.effective())
  let new = FirewallConfig(tree: newTree.effective())
  guard !old.attachments.isEmpty || !new.attachments.isEmpty else { return }
  let diffs = FirewallComparison.compare(old: old, new: new)
  var derived: [String: [Packet]] = [:]
  for d in diffs {
    for c in d.changes {
      pfCount("filter-regions")
      if !c.reproduces { pfFail("filter region \(c.text) at \(d.attachment.key) does not reproduce") }
      var packets = [c.example]
      for k in stride(from: 0, to: min(bytes.count, 64), by: 4) {
        var p = c.example
        let b = bytes[k]
        switch b % 5 {
        case 0: p.destinationPort = (p.destinationPort &+ Int(b)) & 0xFFFF
        case 1: p.sourcePort = (p.sourcePort ^ Int(b) << 4) & 0xFFFF
        case 2: p.protocolNumber = Int(b)
        case 3:
          var a = p.source.bytes
          a[Int(b) % a.count] ^= bytes[min(bytes.count - 1, k + 1)]
          p.source = IPPrefix(family: p.source.family, bytes: a, length: p.source.length)
        default: p.tcpFlags = Int(b) & 0x3F
        }
        packets.append(p)
      }
      derived[d.attachment.key, default: []] += packets
    }
  }
  // Every attachment on both sides, with the packets derived from its regions.
  let newByKey = Dictionary(new.attachments.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
  for a in old.attachments {
    guard let b = newByKey[a.key], let oc = old.chain(a.filters, family: a.family), let nc = new.chain(b.filters, family: b.family) else {
      continue
    }
    let regions = diffs.first { $0.attachment.key == a.key }?.changes ?? []
    for p in derived[a.key] ?? [] where p.source.family == p.destination.family {
      let x = oc.evaluate(p)
      let y = nc.evaluate(p)
      pfCount("packets-compared")
      for r in regions where r.contains(p) && (r.oldVerdict != x.verdict || r.newVerdict != y.verdict) {
        pfFail("packet \(p) in region \(r.text) at \(a.key): concrete \(x.verdict) -> \(y.verdict)")
      }
      if x.verdict != y.verdict && x.verdict != .unmodelled && y.verdict != .unmodelled && !regions.contains(where: { $0.contains(p) }) {
        pfFail("packet \(p) at \(a.key) goes \(x.verdict) -> \(y.verdict) outside every reported region")
      }
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  pfInput = bytes
  pfCount("inputs")
  let h = pfHash(bytes)
  // Check 3: AS-path expressions in quotes.
  for (i, piece) in bytes.split(separator: UInt8(ascii: "\""), omittingEmptySubsequences: false).enumerated() where i % 2 == 1 {
    guard piece.count < 200, let re = ASPathRegex(String(decoding: piece, as: UTF8.self)) else { continue }
    pfCount("as-path-expressions")
    if let w = re.shortestMatch, !re.matches(w) {
      pfFail("as-path \(String(decoding: piece, as: UTF8.self)) does not match its shortest match \(w)")
    }
  }
  // Check 5: chains with parentheses print and parse back alike.
  for line in bytes.split(separator: 0x0A) where line.count < 400 && line.contains(UInt8(ascii: "(")) {
    let words = String(decoding: line, as: UTF8.self).split(separator: " ").map(String.init)
    guard let elements = parsePolicyChain(words) else { continue }
    pfCount("chains-parsed")
    if parsePolicyChain(elements.map(\.description)) != elements { pfFail("chain \(words) does not parse back from \(elements)") }
  }
  // The sections.
  var base = bytes[...]
  var change: [UInt8]?
  if let r = bytes.firstRange(of: Array("\n====\n".utf8)) {
    base = bytes[..<r.lowerBound]
    change = Array(bytes[r.upperBound...])
  }
  let parsed = ConfigParser.parse(SourceFile(path: "base", bytes: Array(base)))
  guard !parsed.hasErrors, let newTree = pfChanged(parsed.tree, Array(base), change, h) else {
    pfCount("unparsed")
    return 0
  }
  pfFilters(parsed.tree, newTree, bytes)
  let old = PolicyOptions(tree: parsed.tree)
  let new = PolicyOptions(tree: newTree)
  let names = Set(old.policies.keys).union(new.policies.keys).sorted()
  guard !names.isEmpty else {
    pfCount("no-policies")
    return 0
  }
  let chain = pfChain(names, h)
  let newChain = h & 0x4_0000_0000_0000 != 0 ? pfChain(names, pfHash(bytes + [1])) : chain
  if chain.contains("(") || newChain.contains("(") { pfCount("expressions") }
  let attachment = DefaultPolicy.allCases[Int((h >> 20) % UInt64(DefaultPolicy.allCases.count))]
  let scope: RouteScope =
    h & 0x1000_0000 != 0 && attachment == .bgpImport
    ? RouteScope(protocolName: "bgp", routeType: .external, neighbors: [IPPrefix("192.0.2.1")!]) : .any
  let run = SymbolicComparison(old: old, oldChain: chain, new: new, newChain: newChain, attachment: attachment, scope: scope)
  let sides = [(old, chain), (new, newChain)]
  let space = run.space
  // Check 1: classes spread over the space, and routes read from the input.
  let n = space.prefixes.count
  let step = max(1, n / 64)
  for k in stride(from: 0, to: n, by: step) {
    let index = [
      k, (k &* 7 &+ Int(h % 97)) % space.origins.count, (k &* 3) % space.neighbors.count, (k &* 5) % space.communities.count,
      (k &* 11) % space.asPaths.count, (k &* 13) % space.attributes.count,
    ]
    pfAgree(run, index, space.route(index), sides, attachment)
  }
  for start in stride(from: 0, to: min(bytes.count, 128), by: 8) {
    let route = pfRoute(bytes[start..<min(bytes.count, start + 8)], space)
    guard let index = space.classIndex(of: route) else {
      pfCount("as-path-not-sampled")
      continue
    }
    pfAgree(run, index, route, sides, attachment)
  }
  // Check 2.
  let difference = PolicyDifference.compare(
    old: old, oldChain: chain, new: new, newChain: newChain, attachment: attachment, scope: scope)
  for c in difference.changes {
    pfCount("changes-\(c.kind.rawValue)")
    if !c.verified { pfFail("example \(c.exampleText) of a \(c.kind.rawValue) set does not reproduce, chain \(chain), \(attachment)") }
  }
  return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
  atexit {
    let line = pfTally.keys.sorted().map { "\($0)=\(pfTally[$0]!)" }.joined(separator: " ")
    var text = "policy-tally: \(line)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }
  return 0
}

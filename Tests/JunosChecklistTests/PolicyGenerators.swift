import JunosConfig

/// A random IPv4 prefix near 10.0.0.0/14, so that generated filters and routes often overlap.
func nearPrefix(_ g: inout SplitMix64, lengths: ClosedRange<Int>) -> IPPrefix {
  let bytes: [UInt8] = [10, .random(in: 0...3, using: &g), .random(in: 0...7, using: &g), .random(in: 0...255, using: &g)]
  return IPPrefix(family: .inet, bytes: bytes, length: .random(in: lengths, using: &g)).network
}

/// A random `route-filter PREFIX MATCH-TYPE` (every match type), with its own action now and
/// then when `ownAction`.
func randomRouteFilter(_ g: inout SplitMix64, ownAction: Bool) -> String {
  let f = nearPrefix(&g, lengths: 8...24)
  var match: String
  switch Int.random(in: 0..<6, using: &g) {
  case 0: match = "exact"
  case 1: match = "orlonger"
  case 2: match = "longer"
  case 3: match = "upto /\(Int.random(in: f.length...32, using: &g))"
  case 4:
    let a = Int.random(in: f.length...32, using: &g)
    match = "prefix-length-range /\(a)-/\(Int.random(in: a...32, using: &g))"
  default:
    let end = IPPrefix(family: .inet, bytes: f.bytes, length: Int.random(in: f.length...32, using: &g)).network
    match = "through \(end)"
  }
  if ownAction && Int.random(in: 0..<5, using: &g) == 0 { match += Bool.random(using: &g) ? " accept" : " reject" }
  return "route-filter \(f) \(match)"
}

/// The prefix conditions of one generated term (`head` is its `set … term T` prefix): up to
/// three route filters, and sometimes a `prefix-list` or `prefix-list-filter` of L0 or L1.
///
/// A route filter gets its own action only where no list competes with it: which of two matching
/// alternatives with different actions wins is not documented (Docs/PolicySemantics.md).
func randomPrefixConditions(_ g: inout SplitMix64, head: String) -> [String] {
  var lines: [String] = []
  let list = Int.random(in: 0..<4, using: &g)
  for _ in 0..<Int.random(in: 0...3, using: &g) { lines.append("\(head) from \(randomRouteFilter(&g, ownAction: list > 1))") }
  switch list {
  case 0: lines.append("\(head) from prefix-list L\(Int.random(in: 0...1, using: &g))")
  case 1:
    let modifier = ["exact", "orlonger", "longer"].randomElement(using: &g)!
    lines.append("\(head) from prefix-list-filter L\(Int.random(in: 0...1, using: &g)) \(modifier)")
  default: break
  }
  return lines
}

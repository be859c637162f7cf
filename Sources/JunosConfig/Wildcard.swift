/// Shell-style wildcards as Junos reads them in group patterns (`<ge-*>`, `<[xg]e-*>`),
/// `interface-range` members and `apply-path` paths: `*` any run, `?` one byte, `[a-z]` /
/// `[!…]` a class (an unclosed `[` is literal). On bytes; linear backtracking to the last `*`.
enum Wildcard {
  /// Whether all of `s` matches the pattern `p`.
  static func matches(_ p: ArraySlice<UInt8>, _ s: ArraySlice<UInt8>) -> Bool {
    var pi = p.startIndex
    var si = s.startIndex
    var starP = -1
    var starS = 0
    while si < s.endIndex {
      if pi < p.endIndex {
        let ch = p[pi]
        if ch == UInt8(ascii: "*") {
          starP = pi
          starS = si
          pi += 1
          continue
        }
        if ch == UInt8(ascii: "?") {
          pi += 1
          si += 1
          continue
        }
        if ch == UInt8(ascii: "["), let (ok, next) = matchClass(p[pi...], s[si]) {
          if ok {
            pi = next
            si += 1
            continue
          }
        } else if ch == s[si] {
          pi += 1
          si += 1
          continue
        }
      }
      guard starP >= 0 else { return false }
      starS += 1
      si = starS
      pi = starP + 1
    }
    while pi < p.endIndex && p[pi] == UInt8(ascii: "*") { pi += 1 }
    return pi == p.endIndex
  }

  /// Matches byte `b` against the class at the start of `p` (`p.first == "["`): whether it
  /// matches and the index after the class, or `nil` when the class is not closed (the `[` is
  /// then literal).
  static func matchClass(_ p: ArraySlice<UInt8>, _ b: UInt8) -> (Bool, Int)? {
    var i = p.startIndex + 1
    let end = p.endIndex
    let negate = i < end && (p[i] == UInt8(ascii: "!") || p[i] == UInt8(ascii: "^"))
    if negate { i += 1 }
    var found = false
    var first = true
    while i < end && (first || p[i] != UInt8(ascii: "]")) {
      first = false
      if i + 2 < end && p[i + 1] == UInt8(ascii: "-") && p[i + 2] != UInt8(ascii: "]") {
        if p[i] <= b && b <= p[i + 2] { found = true }
        i += 3
      } else {
        if p[i] == b { found = true }
        i += 1
      }
    }
    guard i < end else { return nil }
    return (found != negate, i + 1)
  }
}

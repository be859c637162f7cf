public import JunosConfig

/// One line of a suppression file: `RULE-ID PATH-GLOB "reason"`.
public struct SuppressionEntry: Sendable, Hashable {
  /// The rule id as written.
  public var rule: String
  /// A glob over the finding's path in `set` form (`*` any run of characters, `?` one).
  public var pathGlob: String
  /// Why; empty when none was given (itself a finding).
  public var reason: String
  /// The line.
  public var location: FindingLocation

  /// Creates an entry.
  public init(rule: String, pathGlob: String, reason: String, location: FindingLocation) {
    self.rule = rule
    self.pathGlob = pathGlob
    self.reason = reason
    self.location = location
  }

  /// Whether the glob matches a finding's path (the whole path, or a statement above it).
  public func matches(path: String) -> Bool {
    Self.glob(Array(pathGlob.utf8)[...], Array(path.utf8)[...]) || Self.glob(Array((pathGlob + " *").utf8)[...], Array(path.utf8)[...])
  }

  static func glob(_ p: ArraySlice<UInt8>, _ s: ArraySlice<UInt8>) -> Bool {
    var pi = p.startIndex
    var si = s.startIndex
    var star: Int?
    var mark = si
    while si < s.endIndex {
      if pi < p.endIndex && p[pi] == UInt8(ascii: "*") {
        // A star is always a wildcard, even where the path holds a literal `*` (`et-*`).
        star = pi
        pi += 1
        mark = si
      } else if pi < p.endIndex && (p[pi] == UInt8(ascii: "?") || p[pi] == s[si]) {
        pi += 1
        si += 1
      } else if let st = star {
        pi = st + 1
        mark += 1
        si = mark
      } else {
        return false
      }
    }
    while pi < p.endIndex && p[pi] == UInt8(ascii: "*") { pi += 1 }
    return pi == p.endIndex
  }

  /// Reads a suppression file; `#` starts a comment. Unknown rule ids and malformed lines are
  /// diagnostics.
  public static func parse(_ file: SourceFile) -> ([SuppressionEntry], [Diagnostic]) {
    var out: [SuppressionEntry] = []
    var diagnostics: [Diagnostic] = []
    let starts = file.lineStarts
    for (i, start) in starts.enumerated() {
      let end = i + 1 < starts.count ? starts[i + 1] : file.bytes.count
      let text = String(decoding: file.bytes[start..<end], as: UTF8.self)
      let trimmed = text.drop { $0 == " " || $0 == "\t" }
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.allSatisfy(\.isWhitespace) { continue }
      let words = trimmed.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
      guard words.count == 2, RuleID(rawValue: String(words[0])) != nil else {
        diagnostics.append(
          Diagnostic(
            .invalidChecklistInput, "expected 'RULE-ID PATH-GLOB \"reason\"' with a rule id of Docs/Rules.md", in: file,
            at: start..<max(start, end - 1)))
        continue
      }
      var rest = words[1].trimmingCharacters(in: " \t\r\n")
      var reason = ""
      if let q = rest.firstIndex(of: "\"") {
        reason = String(rest[rest.index(after: q)...]).trimmingCharacters(in: "\" \t")
        rest = String(rest[..<q]).trimmingCharacters(in: " \t")
      }
      out.append(SuppressionEntry(rule: String(words[0]), pathGlob: rest, reason: reason, location: FindingLocation(file, offset: start)))
    }
    return (out, diagnostics)
  }
}

extension String {
  func trimmingCharacters(in set: String) -> String { self[...].trimmingCharacters(in: set) }
}

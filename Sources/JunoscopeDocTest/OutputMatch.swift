/// Matching a command's output against the lines a document shows, with elisions as trycmd has
/// them: a line `...` alone matches any number of lines (none too), `[..]` inside a line any text
/// within that line. Trailing spaces of every line and trailing blank lines are not compared.
public enum OutputMatch {
  /// The output's lines as they are compared: split at newlines, trailing spaces and trailing blank
  /// lines dropped.
  public static func lines(of output: String) -> [String] {
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingTrailingSpaces }
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    return lines
  }

  /// Whether `actual` is what `expected` shows, its `...` lines and `[..]` elisions matching
  /// anything (no quadratic blow-up: one table of lines × lines).
  public static func matches(expected: [String], actual: [String]) -> Bool {
    let expected = expected.map(\.trimmingTrailingSpaces)
    let actual = actual.map(\.trimmingTrailingSpaces)
    // can[i][j]: expected[i...] matches actual[j...].
    var can = Array(repeating: Array(repeating: false, count: actual.count + 1), count: expected.count + 1)
    can[expected.count][actual.count] = true
    for i in stride(from: expected.count - 1, through: 0, by: -1) {
      for j in stride(from: actual.count, through: 0, by: -1) {
        if expected[i] == "..." {
          can[i][j] = can[i + 1][j] || (j < actual.count && can[i][j + 1])
        } else {
          can[i][j] = j < actual.count && lineMatches(expected[i], actual[j]) && can[i + 1][j + 1]
        }
      }
    }
    return can[0][0]
  }

  /// One line against a pattern line whose `[..]` match any text.
  public static func lineMatches(_ pattern: String, _ line: String) -> Bool {
    guard pattern.contains("[..]") else { return pattern == line }
    let parts = pattern.split(separator: "[..]", omittingEmptySubsequences: false)
    guard let first = parts.first, let last = parts.last, line.hasPrefix(first) else { return false }
    var rest = line.dropFirst(first.count)
    for part in parts.dropFirst().dropLast() {
      guard let range = rest.firstRange(of: part) else { return false }
      rest = rest[range.upperBound...]
    }
    return rest.hasSuffix(last)
  }

  /// A line diff of what is shown against what was printed: ` ` kept, `-` shown only, `+`
  /// printed only (longest common subsequence, lines compared as `lineMatches` does; a `...` line
  /// is shown as not matched).
  public static func diff(expected: [String], actual: [String]) -> [String] {
    let n = expected.count
    let m = actual.count
    var lcs = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lcs[i][j] =
          lineMatches(expected[i], actual[j])
          ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
      }
    }
    var out: [String] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, lineMatches(expected[i], actual[j]) {
        out.append(" " + actual[j])
        i += 1
        j += 1
      } else if j < m, i == n || lcs[i][j + 1] >= lcs[i + 1][j] {
        out.append("+" + actual[j])
        j += 1
      } else {
        out.append("-" + expected[i])
        i += 1
      }
    }
    return out
  }
}

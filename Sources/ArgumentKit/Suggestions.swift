/// The optimal-string-alignment edit distance between two strings: the fewest single-character
/// insertions, deletions, substitutions and transpositions of two adjacent characters that turn
/// one into the other (`lgo` → `log` is 1), no substring edited twice.
///
/// - Parameters:
///   - source: The first string.
///   - target: The second string.
/// - Returns: The edit distance, counted in characters.
public func editDistance(_ source: String, _ target: String) -> Int {
  let source = Array(source)
  let target = Array(target)
  if source.isEmpty { return target.count }
  if target.isEmpty { return source.count }
  // Rows i-2, i-1 and i: row[j] is the distance between the first i characters of source and
  // the first j of target.
  var before = Array(repeating: 0, count: target.count + 1)
  var previous = Array(0...target.count)
  var current = Array(repeating: 0, count: target.count + 1)
  for i in 1...source.count {
    current[0] = i
    for j in 1...target.count {
      let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
        current[j] = min(current[j], before[j - 2] + 1)
      }
    }
    (before, previous, current) = (previous, current, before)
  }
  return previous[target.count]
}

/// The largest edit distance at which a candidate is still suggested.
public let maximumSuggestionDistance = 3

/// The largest edit distance at which a candidate is suggested for `input`: one edit per three
/// characters (at least one, at most ``maximumSuggestionDistance``), so that a short word is not
/// "corrected" into an unrelated one (`bogus` is not close to `log`, `do` not to `poe`).
public func suggestionDistance(for input: String) -> Int { min(maximumSuggestionDistance, max(1, input.count / 3)) }

/// Picks the candidate closest to a mistyped word, for a "Did you mean" hint.
///
/// - Parameters:
///   - input: The word that was not recognised.
///   - candidates: The words that would have been accepted, in preference order for ties.
/// - Returns: The closest candidate if its distance is at most ``suggestionDistance(for:)``, else `nil`.
public func closestMatch(to input: String, among candidates: [String]) -> String? {
  let limit = suggestionDistance(for: input)
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = editDistance(input, candidate)
    if distance <= limit, distance < (best?.distance ?? Int.max) {
      best = (candidate, distance)
    }
  }
  return best?.candidate
}

/// The Levenshtein edit distance between two strings: the fewest single-character
/// insertions, deletions and substitutions that turn one into the other.
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
  // previous[j] is the distance between the first i-1 characters of source and the first j of target.
  var previous = Array(0...target.count)
  var current = Array(repeating: 0, count: target.count + 1)
  for i in 1...source.count {
    current[0] = i
    for j in 1...target.count {
      let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
    }
    swap(&previous, &current)
  }
  return previous[target.count]
}

/// The largest edit distance at which a candidate is still suggested.
public let maximumSuggestionDistance = 3

/// Picks the candidate closest to a mistyped word, for a "Did you mean" hint.
///
/// - Parameters:
///   - input: The word that was not recognised.
///   - candidates: The words that would have been accepted, in preference order for ties.
/// - Returns: The closest candidate if its distance is at most ``maximumSuggestionDistance``, else `nil`.
public func closestMatch(to input: String, among candidates: [String]) -> String? {
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = editDistance(input, candidate)
    if distance <= maximumSuggestionDistance, distance < (best?.distance ?? Int.max) {
      best = (candidate, distance)
    }
  }
  return best?.candidate
}

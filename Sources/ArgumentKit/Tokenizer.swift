/// One command-line word, classified by its shape alone, without knowing the command's arguments.
enum Token: Equatable, Sendable {
  /// `--name` or `--name=value`.
  case long(name: String, value: String?)
  /// `-abc`: the letters after the dash (one or more short flags, or a short option and its value).
  case short(letters: [Character])
  /// A word that is not an option: a positional, a subcommand name or an option's value.
  /// A lone `-` and every word after `--` are values.
  case value(String)
  /// `--`, after which every word is a value.
  case terminator
}

/// Splits the arguments into tokens.
///
/// - Parameters:
///   - arguments: The command-line words, without the program name.
/// - Returns: One token per word.
func tokenize(_ arguments: [String]) -> [Token] {
  var tokens: [Token] = []
  var optionsEnded = false
  for argument in arguments {
    if optionsEnded {
      tokens.append(.value(argument))
    } else if argument == "--" {
      optionsEnded = true
      tokens.append(.terminator)
    } else if argument.hasPrefix("--") {
      let body = argument.dropFirst(2)
      if let equals = body.firstIndex(of: "=") {
        let name = String(body[..<equals])
        let value = String(body[body.index(after: equals)...])
        tokens.append(.long(name: name, value: value))
      } else {
        tokens.append(.long(name: String(body), value: nil))
      }
    } else if argument.hasPrefix("-") && argument.count > 1 {
      tokens.append(.short(letters: Array(argument.dropFirst())))
    } else {
      tokens.append(.value(argument))
    }
  }
  return tokens
}

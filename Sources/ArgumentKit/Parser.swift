/// Parses a command line against a command tree.
///
/// Accepted forms: `--name`, `--name=value`, `--name value`, `-x`, `-x value`, `-xvalue`,
/// grouped short flags `-abc`, `--` (every later word is positional) and a lone `-` (a positional,
/// conventionally standard input). Options may come before or after positionals. An option's
/// value is the next word unless that word looks like an option; write `--name=-5` for a value
/// that starts with a dash.
///
/// - `-h` or `--help` anywhere before `--` returns the help of the deepest command named,
///   even when the rest of the line has errors.
/// - `help <subcommand> ...` returns the help of that subcommand; `help --man`,
///   ``ParseOutcome/manualPage``.
/// - `--version` on the root command returns ``ParseOutcome/version``.
/// - A command with subcommands given none returns its help; so does an empty command line
///   when the root has subcommands.
///
/// - Parameters:
///   - arguments: The command-line words, without the program name (`argv[0]`).
///   - root: The root command.
/// - Returns: What to do: run a command, print help or print the version.
/// - Throws: ``UsageError`` when the command line does not match the spec.
public func parse(_ arguments: [String], root: CommandSpec) throws(UsageError) -> ParseOutcome {
  var parser = Parser(root: root, tokens: tokenize(arguments))
  return try parser.parse()
}

/// The state of one parse: the command reached so far and the values collected for it.
struct Parser {
  /// The root command.
  let root: CommandSpec
  /// The tokenized command line.
  let tokens: [Token]
  /// Index of the next token to read.
  var index = 0
  /// The deepest command reached so far.
  var command: CommandSpec
  /// The path of ``command``, starting with the root's name.
  var path: [String]
  /// Whether `--` has been read.
  var optionsEnded = false
  /// Whether `h` appeared in a group of short flags such as `-vh`.
  var helpRequested = false
  /// How many times each flag was given, by long name.
  var flags: [String: Int] = [:]
  /// Every value of each option, by long name.
  var options: [String: [String]] = [:]
  /// Positional words for ``command``, in order.
  var positionalWords: [String] = []

  init(root: CommandSpec, tokens: [Token]) {
    self.root = root
    self.tokens = tokens
    self.command = root
    self.path = [root.name]
  }

  /// Whether `-h` or `--help` appears before `--`.
  var helpAnywhere: Bool {
    for token in tokens {
      switch token {
      case .terminator: return false
      case .long(name: BuiltIn.helpName, value: nil): return true
      case .short(letters: [BuiltIn.helpShort]): return true
      default: continue
      }
    }
    return false
  }

  /// The help text of the command reached so far.
  var currentHelp: String {
    helpText(for: path, root: root)
  }

  /// Parses the whole command line.
  mutating func parse() throws(UsageError) -> ParseOutcome {
    let wantsHelp = helpAnywhere
    do throws(UsageError) {
      if let outcome = try readTokens(wantsHelp: wantsHelp) {
        return outcome
      }
    } catch {
      if wantsHelp { return .help(currentHelp) }
      throw error
    }
    if wantsHelp || helpRequested {
      return .help(currentHelp)
    }
    if !command.subcommands.isEmpty {
      if let extra = positionalWords.first {
        throw usageError("Unexpected argument '\(extra)'.")
      }
      return .missingSubcommand(currentHelp)
    }
    let positionals = try assignPositionals()
    return .run(Invocation(commandPath: path, flags: flags, options: options, positionals: positionals))
  }

  /// Reads every token, descending into subcommands.
  ///
  /// - Returns: An outcome that ends parsing early (`--version`, the `help` subcommand), or `nil`.
  mutating func readTokens(wantsHelp: Bool) throws(UsageError) -> ParseOutcome? {
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      switch token {
      case .terminator:
        optionsEnded = true
      case .long(let name, let value):
        if let outcome = try readLong(name: name, value: value, wantsHelp: wantsHelp) {
          return outcome
        }
      case .short(let letters):
        try readShort(letters)
      case .value(let word):
        if optionsEnded || command.subcommands.isEmpty {
          positionalWords.append(word)
        } else if let subcommand = command.subcommand(named: word) {
          command = subcommand
          path.append(word)
        } else if word == BuiltIn.helpCommandName {
          return try readHelpCommand()
        } else {
          throw unknownCommand(word, offeringHelp: true)
        }
      }
    }
    return nil
  }

  /// Reads `--name` or `--name=value`.
  mutating func readLong(name: String, value: String?, wantsHelp: Bool) throws(UsageError) -> ParseOutcome? {
    let isRoot = path.count == 1
    if name == BuiltIn.helpName || (isRoot && name == BuiltIn.versionName) {
      if value != nil {
        throw usageError("The flag '--\(name)' does not take a value.")
      }
      // --help was already noticed by `helpAnywhere`; --version loses to it.
      return name == BuiltIn.versionName && !wantsHelp ? .version : nil
    }
    guard let spec = command.namedArgument(long: name) else {
      var candidates = command.namedArguments.map(\.name) + [BuiltIn.helpName]
      if isRoot { candidates.append(BuiltIn.versionName) }
      let hint = closestMatch(to: name, among: candidates).map { " Did you mean '--\($0)'?" } ?? ""
      throw usageError("Unknown option '--\(name)'.\(hint)")
    }
    switch spec.kind {
    case .flag:
      if value != nil {
        throw usageError("The flag '--\(name)' does not take a value.")
      }
      flags[spec.name, default: 0] += 1
    case .option:
      if let value {
        try record(value, for: spec)
      } else {
        try record(nextValue(for: spec), for: spec)
      }
    case .positional:
      break  // `namedArgument` never returns positionals.
    }
    return nil
  }

  /// Reads `-x`, `-abc`, `-x value` or `-xvalue`.
  mutating func readShort(_ letters: [Character]) throws(UsageError) {
    var rest = letters[...]
    while let letter = rest.popFirst() {
      if letter == BuiltIn.helpShort {
        helpRequested = true
        continue
      }
      guard let spec = command.namedArgument(short: letter) else {
        throw usageError("Unknown option '-\(letter)'.")
      }
      switch spec.kind {
      case .flag:
        flags[spec.name, default: 0] += 1
      case .option:
        let value = try rest.isEmpty ? nextValue(for: spec) : String(rest)
        try record(value, for: spec)
        return
      case .positional:
        break  // `namedArgument` never returns positionals.
      }
    }
  }

  /// Reads the words after the `help` pseudo-subcommand as a subcommand path.
  /// `--man` among them asks for the manual page instead (of the whole program).
  mutating func readHelpCommand() throws(UsageError) -> ParseOutcome {
    var manual = false
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      if case .long(name: BuiltIn.manName, value: nil) = token { manual = true }
      guard case .value(let word) = token else { continue }
      guard let subcommand = command.subcommand(named: word) else {
        throw unknownCommand(word, offeringHelp: false)
      }
      command = subcommand
      path.append(word)
    }
    return manual ? .manualPage : .help(currentHelp)
  }

  /// Takes the next word as the value of an option.
  mutating func nextValue(for spec: ArgumentSpec) throws(UsageError) -> String {
    if index < tokens.count, case .value(let word) = tokens[index] {
      index += 1
      return word
    }
    throw usageError("Missing value for '\(spec.displayName)'.")
  }

  /// Checks an option's value against its allowed values and stores it.
  mutating func record(_ value: String, for spec: ArgumentSpec) throws(UsageError) {
    if let allowed = spec.allowedValues, !allowed.contains(value) {
      let hint = closestMatch(to: value, among: allowed).map { " Did you mean '\($0)'?" } ?? ""
      throw usageError(
        "The value '\(value)' is invalid for '\(spec.displayName)'. "
          + "Expected one of: \(allowed.joined(separator: ", ")).\(hint)")
    }
    options[spec.name, default: []].append(value)
  }

  /// Hands the positional words to the command's positional specs, in order.
  ///
  /// Required positionals take a word first; an optional one takes a word only when enough remain
  /// for the required ones after it; a repeating one takes every word not needed after it.
  func assignPositionals() throws(UsageError) -> [String: [String]] {
    let specs = command.positionalArguments
    var remaining = positionalWords[...]
    var assigned: [String: [String]] = [:]
    for (position, spec) in specs.enumerated() {
      let neededAfter = specs[(position + 1)...].filter { !$0.isOptional }.count
      let spare = max(remaining.count - neededAfter, 0)
      let count: Int
      if spec.isRepeating {
        count = spec.isOptional ? spare : min(max(spare, 1), remaining.count)
      } else {
        count = spec.isOptional ? min(spare, 1) : min(1, remaining.count)
      }
      if count == 0 && !spec.isOptional {
        throw usageError("Missing expected argument '\(spec.displayName)'.")
      }
      if count > 0 {
        assigned[spec.name] = Array(remaining.prefix(count))
        remaining = remaining.dropFirst(count)
      }
    }
    if let extra = remaining.first {
      throw usageError("Unexpected argument '\(extra)'.")
    }
    return assigned
  }

  /// An error for a word that names no subcommand of the current command.
  func unknownCommand(_ word: String, offeringHelp: Bool) -> UsageError {
    var candidates = command.subcommands.map(\.name)
    if offeringHelp { candidates.append(BuiltIn.helpCommandName) }
    let hint = closestMatch(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    return usageError("Unknown command '\(word)'.\(hint)")
  }

  /// A usage error about the current command.
  func usageError(_ message: String) -> UsageError {
    UsageError(message: message, usage: usageLine(for: command, path: path), commandPath: path)
  }
}

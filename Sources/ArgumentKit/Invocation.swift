/// Result of parsing: the command that was chosen and the values given to it.
///
/// Values are looked up by long name (flags, options) or by positional name. Flags and options
/// given to a parent command before the subcommand name are included too.
public struct Invocation: Sendable, Equatable {
  /// The chosen command's path, starting with the root, e.g. `["junoscope", "show"]`.
  public var commandPath: [String]
  /// How many times each flag was given, by long name.
  var flagCounts: [String: Int]
  /// Every value of each option, in command-line order, by long name.
  var optionValues: [String: [String]]
  /// The words taken by each positional, by name.
  var positionalValues: [String: [String]]

  /// Creates an invocation, e.g. to test code that consumes one.
  ///
  /// - Parameters:
  ///   - commandPath: The command's path, starting with the root's name.
  ///   - flags: How many times each flag was given, by long name.
  ///   - options: Every value of each option, in order, by long name.
  ///   - positionals: The words taken by each positional, by name.
  public init(
    commandPath: [String], flags: [String: Int] = [:], options: [String: [String]] = [:],
    positionals: [String: [String]] = [:]
  ) {
    self.commandPath = commandPath
    self.flagCounts = flags
    self.optionValues = options
    self.positionalValues = positionals
  }

  /// Tells whether a flag was given.
  ///
  /// - Parameters:
  ///   - long: The flag's long name without dashes.
  /// - Returns: `true` if the flag was given at least once.
  public func flag(_ long: String) -> Bool {
    flagCount(long) > 0
  }

  /// Counts how many times a flag was given, e.g. 3 for `-vvv`.
  ///
  /// - Parameters:
  ///   - long: The flag's long name without dashes.
  /// - Returns: The number of times the flag was given.
  public func flagCount(_ long: String) -> Int {
    flagCounts[long] ?? 0
  }

  /// Returns the value of an option.
  ///
  /// - Parameters:
  ///   - long: The option's long name without dashes.
  /// - Returns: The last value given, or `nil` if the option was not given.
  public func option(_ long: String) -> String? {
    optionValues[long]?.last
  }

  /// Returns every value of a (repeating) option.
  ///
  /// - Parameters:
  ///   - long: The option's long name without dashes.
  /// - Returns: All values in command-line order; empty if the option was not given.
  public func options(_ long: String) -> [String] {
    optionValues[long] ?? []
  }

  /// Returns the value of a positional.
  ///
  /// - Parameters:
  ///   - name: The positional's name.
  /// - Returns: The first word it took, or `nil` if it was left out.
  public func positional(_ name: String) -> String? {
    positionalValues[name]?.first
  }

  /// Returns every word taken by a (repeating) positional.
  ///
  /// - Parameters:
  ///   - name: The positional's name.
  /// - Returns: The words in command-line order; empty if it was left out.
  public func positionals(_ name: String) -> [String] {
    positionalValues[name] ?? []
  }
}

/// What the caller should do after parsing.
public enum ParseOutcome: Sendable, Equatable {
  /// Run the command described by the invocation.
  case run(Invocation)
  /// Print this help text to standard output and exit with ``ExitStatus/success``.
  /// The text does not end with a newline.
  case help(String)
  /// Print the program's version to standard output and exit with ``ExitStatus/success``.
  case version
  /// `help --man`: print the program's manual page (``manPage(root:section:version:sections:)``)
  /// to standard output and exit with ``ExitStatus/success``.
  case manualPage
  /// A command that only groups subcommands was given none: print this help text to standard
  /// error and exit with ``ExitStatus/usage``. The text does not end with a newline.
  case missingSubcommand(String)
}

/// A command line that does not match the command's spec.
public struct UsageError: Error, Sendable, Equatable {
  /// What is wrong, e.g. `"Unknown option '--prot'. Did you mean '--port'?"`.
  public var message: String
  /// The usage line of the command at fault, e.g. `"junoscope connect [--port <port>] <host>"`.
  public var usage: String
  /// The path of the command at fault, starting with the root's name.
  public var commandPath: [String]

  /// Creates a usage error.
  ///
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - usage: The usage line of the command at fault.
  ///   - commandPath: The path of the command at fault.
  public init(message: String, usage: String, commandPath: [String]) {
    self.message = message
    self.usage = usage
    self.commandPath = commandPath
  }

  /// Full text for standard error, without a trailing newline:
  ///
  ///     Error: <message>
  ///     Usage: <usage>
  ///       See '<command path> --help' for more information.
  public var rendered: String {
    """
    Error: \(message)
    Usage: \(usage)
      See '\(commandPath.joined(separator: " ")) --help' for more information.
    """
  }
}

/// How a shell should complete the value of an option or a positional argument.
public enum Completion: Sendable, Equatable {
  /// No completion is offered.
  case none
  /// File names are completed.
  case file
  /// Directory names are completed.
  case directory
  /// One of a fixed list of words is completed.
  case values([String])
}

/// Declarative description of one argument: a flag, an option that takes a value, or a positional.
///
/// Build specs with the factory methods ``flag(_:short:help:)``,
/// ``option(_:short:valueName:help:allowedValues:repeating:completion:)`` and
/// ``positional(_:help:optional:repeating:completion:)``.
///
/// The names `help` and `h` are reserved for the built-in `-h, --help` flag in every command,
/// and `version` for the built-in `--version` flag of the root command.
public struct ArgumentSpec: Sendable, Equatable {
  /// The three kinds of arguments.
  public enum Kind: Sendable, Equatable {
    /// A switch such as `--verbose` that never takes a value.
    case flag
    /// A named argument that takes a value, such as `--format json`.
    case option
    /// An unnamed argument identified by its position.
    case positional
  }

  /// Whether this is a flag, an option or a positional.
  public let kind: Kind
  /// The long name without dashes (`"format"` for `--format`), or the name of a positional.
  public let name: String
  /// The single-letter name used as `-x`, if any. Positionals have none.
  public let short: Character?
  /// The placeholder shown for an option's value (`"format"` shows as `<format>`); `nil` for flags.
  public let valueName: String?
  /// One-line description shown in help and in shell completions.
  public let help: String
  /// The only values an option accepts, or `nil` to accept any value.
  public let allowedValues: [String]?
  /// Whether the argument may be given several times (options) or take several words (positionals).
  public let isRepeating: Bool
  /// Whether the argument may be left out. Flags and options are always optional.
  public let isOptional: Bool
  /// How shells complete the argument's value.
  public let completion: Completion

  /// Describes a flag such as `--verbose` or `-v`.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes, e.g. `"verbose"`.
  ///   - short: An optional single-letter name, e.g. `"v"` for `-v`.
  ///   - help: A one-line description.
  /// - Returns: The flag's spec.
  public static func flag(_ long: String, short: Character? = nil, help: String) -> ArgumentSpec {
    ArgumentSpec(
      kind: .flag, name: long, short: short, valueName: nil, help: help,
      allowedValues: nil, isRepeating: false, isOptional: true, completion: .none)
  }

  /// Describes an option that takes a value, such as `--format json` or `-f json`.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes, e.g. `"format"`.
  ///   - short: An optional single-letter name, e.g. `"f"` for `-f`.
  ///   - valueName: The placeholder for the value in help, e.g. `"format"` for `<format>`.
  ///   - help: A one-line description.
  ///   - allowedValues: The only accepted values, or `nil` to accept any value.
  ///   - repeating: Whether the option may be given several times, keeping every value.
  ///   - completion: How shells complete the value; allowed values are completed when this is `.none`.
  /// - Returns: The option's spec.
  public static func option(
    _ long: String, short: Character? = nil, valueName: String, help: String,
    allowedValues: [String]? = nil, repeating: Bool = false, completion: Completion = .none
  ) -> ArgumentSpec {
    ArgumentSpec(
      kind: .option, name: long, short: short, valueName: valueName, help: help,
      allowedValues: allowedValues, isRepeating: repeating, isOptional: true, completion: completion)
  }

  /// Describes a positional argument, such as an input file.
  ///
  /// - Parameters:
  ///   - name: The name shown as `<name>` and used to look the value up in an ``Invocation``.
  ///   - help: A one-line description.
  ///   - optional: Whether the argument may be left out.
  ///   - repeating: Whether the argument takes all remaining words (at least one unless `optional`).
  ///   - completion: How shells complete the argument.
  /// - Returns: The positional's spec.
  public static func positional(
    _ name: String, help: String, optional: Bool = false, repeating: Bool = false,
    completion: Completion = .none
  ) -> ArgumentSpec {
    ArgumentSpec(
      kind: .positional, name: name, short: nil, valueName: nil, help: help,
      allowedValues: nil, isRepeating: repeating, isOptional: optional, completion: completion)
  }
}

/// A command (the root or a subcommand); subcommands nest.
///
/// A command that has subcommands reads its first positional word as a subcommand name;
/// positional specs declared on such a command are ignored.
public struct CommandSpec: Sendable, Equatable {
  /// The command's name, e.g. `"junoscope"` for the root or `"show"` for a subcommand.
  public let name: String
  /// One-line summary, shown after `OVERVIEW:` and in the parent's subcommand list.
  public let abstract: String
  /// Longer text shown in help below the overview; may contain line breaks.
  public let discussion: String
  /// The command's flags, options and positionals, in the order shown in usage and help.
  public let arguments: [ArgumentSpec]
  /// The command's subcommands.
  public let subcommands: [CommandSpec]

  /// Creates a command.
  ///
  /// - Parameters:
  ///   - name: The command's name.
  ///   - abstract: One-line summary.
  ///   - discussion: Longer text for help; empty to leave it out.
  ///   - arguments: Flags, options and positionals, in display order.
  ///   - subcommands: Nested commands.
  public init(
    name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
    subcommands: [CommandSpec] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.subcommands = subcommands
  }
}

extension CommandSpec {
  /// The flags and options (everything but positionals), in declaration order.
  var namedArguments: [ArgumentSpec] {
    arguments.filter { $0.kind != .positional }
  }

  /// The positionals this command accepts; none when it has subcommands.
  var positionalArguments: [ArgumentSpec] {
    subcommands.isEmpty ? arguments.filter { $0.kind == .positional } : []
  }

  /// The flag or option with the given long name.
  func namedArgument(long: String) -> ArgumentSpec? {
    namedArguments.first { $0.name == long }
  }

  /// The flag or option with the given short name.
  func namedArgument(short: Character) -> ArgumentSpec? {
    namedArguments.first { $0.short == short }
  }

  /// The direct subcommand with the given name.
  func subcommand(named name: String) -> CommandSpec? {
    subcommands.first { $0.name == name }
  }
}

import ArgumentKit

/// A small command tree shaped like a real tool, used by every suite.
enum Fixtures {
  static let show = CommandSpec(
    name: "show", abstract: "Parse and print configurations.",
    arguments: [
      .positional("file", help: "Config file(s), or - for stdin.", repeating: true, completion: .file),
      .option("format", valueName: "format", help: "Output format.", allowedValues: ["curly", "set", "json"]),
      .flag("show-secrets", help: "Reveal secrets."),
    ])

  static let connect = CommandSpec(
    name: "connect", abstract: "Connect to a device.",
    arguments: [
      .option("port", short: "p", valueName: "port", help: "SSH port."),
      .flag("verbose", short: "v", help: "Print more."),
      .positional("host", help: "Device address."),
    ])

  static let grep = CommandSpec(
    name: "grep", abstract: "Search configurations.",
    arguments: [
      .flag("ignore-case", short: "i", help: "Ignore case."),
      .flag("count", short: "c", help: "Print only a count."),
      .option("tag", short: "t", valueName: "tag", help: "Only lines with this tag.", repeating: true),
      .option("output", short: "o", valueName: "path", help: "Write here.", completion: .file),
      .option("dir", valueName: "dir", help: "Search this directory.", completion: .directory),
      .positional("pattern", help: "What to look for."),
      .positional("file", help: "Files to search.", optional: true, repeating: true, completion: .file),
    ])

  static let diff = CommandSpec(
    name: "diff", abstract: "Compare two configurations.",
    arguments: [
      .positional("old", help: "The old file.", completion: .file),
      .positional("new", help: "The new file.", completion: .file),
      .positional("label", help: "A label.", optional: true, completion: .values(["a", "b"])),
    ])

  static let list = CommandSpec(name: "list", abstract: "List stored configurations.")

  static let config = CommandSpec(
    name: "config", abstract: "Work with stored configurations.", subcommands: [diff, list])

  static let root = CommandSpec(
    name: "junoscope", abstract: "Inspect configurations.",
    discussion: "Reads configuration files and prints them in other formats.",
    arguments: [.flag("quiet", short: "q", help: "Print less.")],
    subcommands: [show, connect, grep, config])

  /// Parses and expects a `.run` outcome.
  static func run(_ arguments: [String]) throws -> Invocation {
    guard case .run(let invocation) = try parse(arguments, root: root) else {
      throw Unexpected.outcome
    }
    return invocation
  }

  /// Parses and returns the usage error, or `nil` if parsing succeeded.
  static func error(_ arguments: [String]) -> UsageError? {
    do {
      _ = try parse(arguments, root: root)
      return nil
    } catch {
      return error
    }
  }

  enum Unexpected: Error { case outcome }
}

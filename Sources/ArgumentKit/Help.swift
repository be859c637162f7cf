/// Names and descriptions of the arguments and the subcommand that every tool gets for free.
enum BuiltIn {
  /// `--help`, accepted by every command.
  static let helpName = "help"
  /// `-h`, accepted by every command.
  static let helpShort: Character = "h"
  /// Description of `-h, --help`.
  static let helpDescription = "Show help information."
  /// `--version`, accepted by the root command.
  static let versionName = "version"
  /// Description of `--version`.
  static let versionDescription = "Show the version."
  /// The `help` pseudo-subcommand, accepted by every command that has subcommands.
  static let helpCommandName = "help"
  /// Description of the `help` pseudo-subcommand.
  static let helpCommandDescription = "Show subcommand help information."
  /// `--man` after the `help` pseudo-subcommand: the manual page.
  static let manName = "man"
}

/// Column at which help descriptions start.
let helpColumn = 26
/// Indentation of the entries in a help section.
let helpIndent = 2
/// Narrowest description column used when wrapping, however small the requested width.
let minimumDescriptionWidth = 20

extension ArgumentSpec {
  /// How the argument is named in messages: `--verbose`, `--format <format>` or `<file>`.
  var displayName: String {
    switch kind {
    case .flag: "--\(name)"
    case .option: "--\(name) <\(valueName ?? name)>"
    case .positional: "<\(name)>"
    }
  }

  /// How the argument is named in help: like ``displayName`` with the short name first (`-f, --format <format>`).
  var helpLabel: String {
    if let short { "-\(short), \(displayName)" } else { displayName }
  }

  /// How the argument appears in a usage line, e.g. `[--format <format>]` or `<file> ...`.
  var usageToken: String {
    let repeated = isRepeating ? "\(displayName) ..." : displayName
    return isOptional ? "[\(repeated)]" : repeated
  }

  /// The description shown in help, with the allowed values appended.
  var helpDescription: String {
    guard let allowedValues else { return help }
    let values = "(values: \(allowedValues.joined(separator: ", ")))"
    return help.isEmpty ? values : "\(help) \(values)"
  }
}

/// Finds the command at the end of a path.
///
/// - Parameters:
///   - path: Command names; the root's name may come first. Resolution stops at the first unknown name.
///   - root: The root command.
/// - Returns: The deepest command found and its full path, starting with the root's name.
func resolve(_ path: [String], root: CommandSpec) -> (command: CommandSpec, path: [String]) {
  var names = path[...]
  if names.first == root.name { names = names.dropFirst() }
  var command = root
  var resolved = [root.name]
  for name in names {
    guard let subcommand = command.subcommand(named: name) else { break }
    command = subcommand
    resolved.append(name)
  }
  return (command, resolved)
}

/// The usage line of a command, e.g. `junoscope show <file> ... [--format <format>]`.
///
/// - Parameters:
///   - command: The command.
///   - path: The command's full path, starting with the root's name.
/// - Returns: The usage line without the `USAGE:` prefix.
func usageLine(for command: CommandSpec, path: [String]) -> String {
  var parts = [path.joined(separator: " ")]
  for argument in command.arguments where argument.kind != .positional || command.subcommands.isEmpty {
    parts.append(argument.usageToken)
  }
  if !command.subcommands.isEmpty {
    parts.append("<subcommand>")
  }
  return parts.joined(separator: " ")
}

/// Produces the help text for a command, laid out like swift-argument-parser's.
///
/// The text has an `OVERVIEW:` line, the discussion, a `USAGE:` line, and `ARGUMENTS:`,
/// `OPTIONS:` and `SUBCOMMANDS:` sections (each only when it has entries). Descriptions start
/// at column 26 and wrap to `width`; names longer than 22 characters put their description on
/// the next line.
///
/// - Parameters:
///   - path: The command's path, e.g. `["junoscope", "show"]`; the root's name may be left out, and
///     an empty path means the root. Unknown names are ignored from the first one on.
///   - root: The root command.
///   - width: The maximum line width for wrapped text.
/// - Returns: The help text, without a trailing newline.
public func helpText(for path: [String], root: CommandSpec, width: Int = 80) -> String {
  let (command, fullPath) = resolve(path, root: root)
  let formatter = HelpFormatter(width: width)
  var sections: [String] = []

  if !command.abstract.isEmpty {
    sections.append(formatter.wrap("OVERVIEW: \(command.abstract)").joined(separator: "\n"))
  }
  if !command.discussion.isEmpty {
    sections.append(formatter.wrapPreservingIndentation(command.discussion))
  }
  sections.append("USAGE: \(usageLine(for: command, path: fullPath))")

  let positionals = command.positionalArguments
  if !positionals.isEmpty {
    let entries = positionals.map { formatter.entry(label: $0.helpLabel, description: $0.helpDescription) }
    sections.append((["ARGUMENTS:"] + entries).joined(separator: "\n"))
  }

  var options = command.namedArguments.map {
    formatter.entry(label: $0.helpLabel, description: $0.helpDescription)
  }
  if fullPath.count == 1 {
    options.append(formatter.entry(label: "--\(BuiltIn.versionName)", description: BuiltIn.versionDescription))
  }
  options.append(
    formatter.entry(
      label: "-\(BuiltIn.helpShort), --\(BuiltIn.helpName)", description: BuiltIn.helpDescription))
  sections.append((["OPTIONS:"] + options).joined(separator: "\n"))

  if !command.subcommands.isEmpty {
    var entries = command.subcommands.map { formatter.entry(label: $0.name, description: $0.abstract) }
    if fullPath.count == 1 {
      entries.append(
        formatter.entry(label: BuiltIn.helpCommandName, description: BuiltIn.helpCommandDescription))
    }
    sections.append((["SUBCOMMANDS:"] + entries).joined(separator: "\n"))
    let helpPath = ([fullPath[0], BuiltIn.helpCommandName] + fullPath.dropFirst()).joined(separator: " ")
    sections.append("  See '\(helpPath) <subcommand>' for detailed help.")
  }
  return sections.joined(separator: "\n\n")
}

/// Lays out help entries and wraps text to a width.
struct HelpFormatter {
  /// The maximum line width.
  let width: Int

  /// Formats one `  name    description` entry, wrapping the description at the help column.
  ///
  /// - Parameters:
  ///   - label: The name, e.g. `-f, --format <format>`.
  ///   - description: The description; may be empty.
  /// - Returns: One or more lines joined by newlines.
  func entry(label: String, description: String) -> String {
    let name = String(repeating: " ", count: helpIndent) + label
    let descriptionLines =
      description.isEmpty
      ? [] : wrap(description, width: max(width - helpColumn, minimumDescriptionWidth))
    guard let first = descriptionLines.first else { return name }
    let margin = String(repeating: " ", count: helpColumn)
    var lines: [String]
    if name.count + 2 > helpColumn {
      lines = [name, margin + first]
    } else {
      lines = [name + String(repeating: " ", count: helpColumn - name.count) + first]
    }
    lines += descriptionLines.dropFirst().map { margin + $0 }
    return lines.joined(separator: "\n")
  }

  /// Wraps text to the formatter's width.
  ///
  /// - Parameters:
  ///   - text: The text; its line breaks are kept.
  /// - Returns: The wrapped lines.
  func wrap(_ text: String) -> [String] {
    wrap(text, width: width)
  }

  /// Wraps a text to the formatter's width. Consecutive unindented lines are one paragraph (the
  /// source's line breaks are not kept there), except that a line starting with `- `, `* ` or
  /// `Exit status:` starts a new one; indented lines (examples) keep their breaks and indentation,
  /// and continuation lines are indented like the line they continue.
  ///
  /// - Parameters:
  ///   - text: The text, e.g. a discussion with indented examples.
  /// - Returns: The wrapped text joined by newlines.
  func wrapPreservingIndentation(_ text: String) -> String {
    var lines: [String] = []
    for line in discussionLines(text) {
      let indentation = String(line.prefix { $0 == " " })
      let body = String(line.dropFirst(indentation.count))
      let available = max(width - indentation.count, minimumDescriptionWidth)
      lines += wrap(body, width: available).map { $0.isEmpty ? "" : indentation + $0 }
    }
    return lines.joined(separator: "\n")
  }

  /// Greedily breaks text into lines of at most `width` characters at spaces.
  /// A word longer than `width` stands on a line of its own.
  ///
  /// - Parameters:
  ///   - text: The text; its line breaks are kept.
  ///   - width: The maximum line length.
  /// - Returns: The lines.
  func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ") {
        if line.isEmpty {
          line = String(word)
        } else if line.count + 1 + word.count <= width {
          line += " " + word
        } else {
          lines.append(line)
          line = String(word)
        }
      }
      lines.append(line)
    }
    return lines
  }
}

/// The lines of a discussion with each paragraph on one line: consecutive unindented lines are
/// joined with spaces, except that a line starting with `- `, `* ` or `Exit status:` starts a new
/// paragraph; indented lines (examples) and empty lines are kept as they are.
///
/// - Parameter text: A command's discussion.
/// - Returns: Paragraphs, indented lines and empty lines, in order.
func discussionLines(_ text: String) -> [String] {
  var joined: [String] = []
  var open = false  // whether the last joined line is an unindented paragraph that can continue
  for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
    let starts = line.hasPrefix("- ") || line.hasPrefix("* ") || line.hasPrefix("Exit status:")
    if open, !line.isEmpty, line.first != " ", !starts {
      joined[joined.count - 1] += " " + line
      continue
    }
    joined.append(String(line))
    open = !line.isEmpty && line.first != " "
  }
  return joined
}

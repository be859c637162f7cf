/// A section of a manual page that the command tree does not describe, such as EXIT STATUS,
/// ENVIRONMENT, FILES or SEE ALSO.
public struct ManSection: Sendable, Equatable {
  /// One tagged paragraph: a term (an exit status, a variable, a file) and what it means.
  public struct Entry: Sendable, Equatable {
    /// The term, shown in bold.
    public var term: String
    /// Its description.
    public var text: String

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - term: The term, shown in bold.
    ///   - text: Its description.
    public init(_ term: String, _ text: String) {
      self.term = term
      self.text = text
    }
  }

  /// The section's heading; shown in capitals.
  public var title: String
  /// Text before the entries (paragraphs separated by empty lines); empty for none.
  public var text: String
  /// Tagged paragraphs after the text.
  public var entries: [Entry]

  /// Creates a section.
  ///
  /// - Parameters:
  ///   - title: The heading, e.g. `"EXIT STATUS"`.
  ///   - text: Paragraphs before the entries, separated by empty lines.
  ///   - entries: Tagged paragraphs.
  public init(_ title: String, text: String = "", entries: [Entry] = []) {
    self.title = title
    self.text = text
    self.entries = entries
  }
}

/// Generates a manual page (roff with the `man` macros) from a command tree: NAME, SYNOPSIS,
/// DESCRIPTION (the root's discussion), OPTIONS (the root's), COMMANDS (every subcommand, depth
/// first, with its usage, abstract, discussion, arguments and options: value names and allowed
/// values), then `sections`.
///
/// Text is escaped for roff: backslashes, a `.` or `'` at the start of a line, and hyphens that
/// start a word (`--format`, `-o`) or stand in option names, which are minus signs (`\-`).
/// Indented lines of a discussion are shown as unfilled examples.
///
/// - Parameters:
///   - root: The root command; its name is the page's title.
///   - section: The manual section, `1` for user commands.
///   - version: The program's version, shown in the page's footer.
///   - sections: Sections after COMMANDS.
/// - Returns: The page, ending with a newline.
public func manPage(root: CommandSpec, section: Int = 1, version: String, sections: [ManSection] = []) -> String {
  var page = ManWriter()
  let name = root.name
  page.request(".\\\" Generated from the command-line specification by '\(name) help --man'; do not edit.")
  page.request(".TH \(roffQuoted(name.uppercased())) \(section) \"\" \(roffQuoted("\(name) \(version)")) \"User Commands\"")
  // No hyphenation (option names must not break), ragged right.
  page.request(".nh")
  page.request(".ad l")
  page.request(".SH NAME")
  page.text("\(name) - \(root.abstract)")
  page.request(".SH SYNOPSIS")
  var synopses = [usageRoff(for: root, path: [name])]
  if !root.subcommands.isEmpty {
    synopses += [
      bold("\(name) \(BuiltIn.helpCommandName)") + " [" + italic("command") + "]",
      bold("\(name) \(BuiltIn.helpCommandName) --\(BuiltIn.manName)"),
    ]
  }
  synopses.append(bold("\(name) --\(BuiltIn.versionName)"))
  for (k, line) in synopses.enumerated() {
    if k > 0 { page.request(".br") }
    page.raw(line)
  }
  if !root.discussion.isEmpty {
    page.request(".SH DESCRIPTION")
    page.discussion(root.discussion)
  }
  page.request(".SH OPTIONS")
  page.arguments(root.arguments + [versionFlag, helpFlag])
  if !root.subcommands.isEmpty {
    page.request(".SH COMMANDS")
    for entry in flatten(root, path: [name]).dropFirst() {
      page.request(".SS " + roffQuoted(entry.path.dropFirst().joined(separator: " ")))
      page.raw(usageRoff(for: entry.command, path: entry.path))
      page.request(".PP")
      page.text(entry.command.abstract)
      if !entry.command.discussion.isEmpty {
        page.request(".PP")
        page.discussion(entry.command.discussion)
      }
      page.arguments(entry.command.positionalArguments + entry.command.namedArguments + [helpFlag])
    }
  }
  for s in sections {
    page.request(".SH " + roffQuoted(s.title.uppercased()))
    if !s.text.isEmpty { page.discussion(s.text) }
    for e in s.entries {
      page.request(".TP")
      page.raw(bold(e.term))
      page.text(e.text)
    }
  }
  return page.lines.joined(separator: "\n") + "\n"
}

/// The built-in `--version` flag of the root, for the page.
private let versionFlag = ArgumentSpec.flag(BuiltIn.versionName, help: BuiltIn.versionDescription)
/// The built-in `-h, --help` flag of every command, for the page.
private let helpFlag = ArgumentSpec.flag(BuiltIn.helpName, short: BuiltIn.helpShort, help: BuiltIn.helpDescription)

/// The lines of a page, escaped as they are added.
struct ManWriter {
  var lines: [String] = []

  /// Adds a request (`.SH`, `.TP`…) or any line already in roff.
  mutating func request(_ line: String) { lines.append(line) }

  /// Adds roff text as it is (already escaped).
  mutating func raw(_ line: String) { lines.append(line) }

  /// Adds plain text, escaped.
  mutating func text(_ text: String) {
    lines.append(roffEscaped(text))
  }

  /// Adds a discussion: paragraphs filled, indented lines as unfilled examples.
  mutating func discussion(_ text: String) {
    var example = false
    var first = true
    var indentation = 0  // of the example's first line, taken off every line of it
    for line in discussionLines(text) {
      let indented = line.first == " "
      if line.isEmpty {
        if example { continue }
        request(".PP")
        first = true
        continue
      }
      if indented != example {
        request(indented ? ".RS 4\n.nf" : ".fi\n.RE\n.PP")
        example = indented
        indentation = line.prefix { $0 == " " }.count
      } else if !indented && !first {
        request(".PP")
      }
      first = false
      // An example keeps its indentation beyond its first line's (spaces are kept in no-fill mode).
      self.text(indented ? String(line.dropFirst(min(indentation, line.prefix { $0 == " " }.count))) : line)
    }
    if example { request(".fi\n.RE") }
  }

  /// Adds each argument as a tagged paragraph: its names and value name, then its help and
  /// allowed values (a repeatable one shows `...` in the usage line).
  mutating func arguments(_ arguments: [ArgumentSpec]) {
    for a in arguments {
      request(".TP")
      raw(labelRoff(a))
      var help = a.help
      let values: [String]? =
        if let allowed = a.allowedValues { allowed } else if case .values(let v) = a.completion { v } else { nil }
      if let values { help += (help.isEmpty ? "" : " ") + "Values: \(values.joined(separator: ", "))." }
      text(help)
    }
  }
}

/// A string as a roff argument in double quotes (a `"` inside is doubled, as groff reads it).
func roffQuoted(_ s: String) -> String {
  "\"" + roffEscaped(s).replacing("\"", with: "\"\"") + "\""
}

/// Bold roff text (escaped; every hyphen a minus: option names).
func bold(_ s: String) -> String { "\\fB" + roffEscaped(s, allMinus: true) + "\\fR" }

/// Italic roff text (escaped).
func italic(_ s: String) -> String { "\\fI" + roffEscaped(s) + "\\fR" }

/// Escapes text for roff: `\` as `\e`; a character beyond ASCII as `\[uXXXX]`; a hyphen as `\-` (a minus: what options are written
/// with) when it starts a word, and every hyphen of such a word (`--show-secrets`), or with
/// `allMinus` every hyphen; `\&` before a `.` or `'` that starts the text (it would be read as a
/// request).
func roffEscaped(_ s: String, allMinus: Bool = false) -> String {
  var out = ""
  var previous: Character? = nil
  var option = false  // inside a word that started with a hyphen
  for c in s {
    switch c {
    case "\\": out += "\\e"
    case "-":
      if previous.map({ !($0.isLetter || $0.isNumber || $0 == "-") }) ?? true { option = true }
      out += allMinus || option ? "\\-" : "-"
    default:
      // Beyond ASCII: groff's Unicode escapes (`\[u2026]` for …), read without a preprocessor.
      for u in c.unicodeScalars {
        if u.isASCII {
          out.unicodeScalars.append(u)
        } else {
          let hex = String(u.value, radix: 16, uppercase: true)
          out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
        }
      }
    }
    if !(c.isLetter || c.isNumber || c == "-" || c == "_") { option = false }
    previous = c
  }
  if out.first == "." || out.first == "'" { out = "\\&" + out }
  return out
}

/// An argument's label in roff: `\fB\-f\fR, \fB\-\-format\fR \fIformat\fR`, or `\fIfile\fR`.
func labelRoff(_ a: ArgumentSpec) -> String {
  switch a.kind {
  case .positional:
    return italic(a.name) + (a.isRepeating ? " ..." : "")
  case .flag, .option:
    var label = a.short.map { bold("-\($0)") + ", " } ?? ""
    label += bold("--\(a.name)")
    if a.kind == .option { label += " " + italic(a.valueName ?? a.name) }
    return label
  }
}

/// A command's usage line in roff: the path in bold, then each argument as in ``usageLine(for:path:)``.
func usageRoff(for command: CommandSpec, path: [String]) -> String {
  var parts = [bold(path.joined(separator: " "))]
  for a in command.arguments where a.kind != .positional || command.subcommands.isEmpty {
    var token = labelRoff(a)
    if a.kind != .positional {
      // Only the long name in the synopsis, as the usage line has it.
      token = bold("--\(a.name)") + (a.kind == .option ? " " + italic(a.valueName ?? a.name) : "")
      if a.isRepeating { token += " ..." }
    }
    parts.append(a.isOptional ? "[\(token)]" : token)
  }
  if !command.subcommands.isEmpty { parts.append(italic("command")) }
  return parts.joined(separator: " ")
}

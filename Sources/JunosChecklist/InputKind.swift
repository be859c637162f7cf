public import JunosConfig
import JunosDiff
import JunosHistory

/// What a file handed to junoscope is: the one detector every command uses (`lint`, `ci`,
/// `check`, `log`, `timeline`), so that a file is recognised the same way everywhere.
///
/// The order of the tests is part of the contract (Docs/Rules.md, "How junoscope lint picks the
/// kind"): binary, empty, plan, compare text, commit listing, commands, configuration.
public enum InputKind: Sendable, Equatable {
  /// Not text: a NUL byte, or too many control bytes, at `offset` (``SourceFile/binaryOffset``).
  case binary(offset: Int)
  /// No bytes, or only blanks and line ends.
  case empty
  /// A change plan: the first line that is neither blank nor a plain `#` comment starts with `#@`.
  case plan
  /// A captured `show | compare`: `[edit …]` banners followed by `+`/`-`/`!` lines.
  case compare
  /// A `show system commit` listing, text or XML (``CommitHistory/looksLikeListing(_:)``).
  case history
  /// `display set` text holding `delete`, `activate`, `insert` or `rename` lines: commands to
  /// apply to a configuration, not one (`deactivate` lines are part of `display set` output).
  case commands
  /// A configuration in the given syntax (the syntax ``ConfigParser/detectSyntax(_:)`` picks).
  case configuration(ConfigSyntax)

  /// Detects the kind of `file` (already gunzipped).
  public static func detect(_ file: SourceFile) -> InputKind {
    if let offset = file.binaryOffset { return .binary(offset: offset) }
    if file.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return .empty }
    if ChangePlan.looksLikePlan(file) { return .plan }
    if CompareText.looksLikeCompare(file) { return .compare }
    if CommitHistory.looksLikeListing(file) { return .history }
    let syntax = ConfigParser.detectSyntax(file)
    if syntax == .set {
      for start in file.lineStarts.prefix(100_000) {
        let b = file.bytes[start...].prefix(11)
        for verb in ["delete ", "activate ", "insert ", "rename "] where b.starts(with: verb.utf8) { return .commands }
      }
    }
    return .configuration(syntax)
  }

  /// What the kind is, in words, for messages: "a binary file (byte 5 is not text)", "an empty
  /// file", "a change plan"…
  public var description: String {
    switch self {
    case .binary(let offset): "a binary file (byte \(offset) is not text)"
    case .empty: "an empty file"
    case .plan: "a change plan"
    case .compare: "a captured 'show | compare'"
    case .history: "a 'show system commit' listing"
    case .commands: "configuration commands (set/delete…)"
    case .configuration: "a configuration"
    }
  }
}

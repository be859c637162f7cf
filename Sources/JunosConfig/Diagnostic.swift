/// A problem found in an input, with the byte range it concerns.
public struct Diagnostic: Sendable, Hashable {
  /// How serious a diagnostic is.
  public enum Severity: String, Sendable, Hashable {
    case error, warning, note
  }

  /// Stable identifier of the kind of problem (see `Docs/Diagnostics.md`).
  public var id: String
  /// Severity.
  public var severity: Severity
  /// Human-readable message, one line.
  public var message: String
  /// Path of the file the diagnostic is about.
  public var path: String
  /// Byte range in that file.
  public var range: Range<Int>
  /// Location of `range.lowerBound`.
  public var location: SourceLocation

  /// Creates a diagnostic located in `file`.
  public init(_ id: DiagnosticID, _ message: String, in file: SourceFile, at range: Range<Int>) {
    self.id = id.rawValue
    self.severity = id.severity
    self.message = message
    self.path = file.path
    self.range = range
    self.location = file.location(of: range.lowerBound)
  }

  /// The canonical one-line form: `path:line:col: severity: message`, with every control
  /// character of path and message (C0, DEL, C1: a quoted line of a binary file, a terminal escape
  /// sequence) written as `\xNN` or `\u{NN}`, so a diagnostic is one line that cannot drive the terminal.
  public var rendered: String {
    "\(Self.printable(path)):\(location.line):\(location.column): \(severity.rawValue): \(Self.printable(message))"
  }

  /// `s` with control characters written as escapes (`\x1B`, `\u{9B}`); `s` itself when it has none.
  public static func printable(_ s: String) -> String {
    func isControl(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || (0x7F...0x9F).contains(u.value) }
    guard s.unicodeScalars.contains(where: isControl) else { return s }
    var out = ""
    for u in s.unicodeScalars {
      if !isControl(u) {
        out.unicodeScalars.append(u)
      } else if u.value < 0x80 {
        let hex = String(u.value, radix: 16, uppercase: true)
        out += "\\x" + (hex.count == 1 ? "0" : "") + hex
      } else {
        out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
      }
    }
    return out
  }
}

/// The catalogue of diagnostics the configuration parsers emit.
public enum DiagnosticID: String, Sendable, CaseIterable {
  /// A `}` with no block open.
  case unbalancedCloseBrace
  /// End of input while blocks are still open.
  case missingCloseBrace
  /// A statement not ended by `;` or `{` before `}` or end of input.
  case missingSemicolon
  /// A `"` string that reaches the end of the line or input.
  case unterminatedString
  /// A `/*` comment never closed.
  case unterminatedComment
  /// A `[` list never closed, or a `]` without `[`.
  case unterminatedList
  /// A token that cannot start or continue a statement here.
  case unexpectedToken
  /// `{`, `;` or `[` with no statement words before it.
  case emptyStatement
  /// Blocks nested deeper than ``ConfigTree/maximumDepth`` levels.
  case nestingTooDeep
  /// A pager prompt such as `---(more)---`: the capture stops here.
  case truncatedCapture
  /// A `display set` line whose command is not one Junos prints or loads.
  case unknownSetCommand
  /// A `display set` command with missing words.
  case incompleteSetCommand
  /// A `deactivate`/`delete`/`insert`/... naming a statement that does not exist.
  case unknownPath
  /// Compare text: a `+`/`-`/`!` line with no `[edit …]` banner above it.
  case missingBanner
  /// Compare text: a line inside a diff that is none of banner, marker line or context line
  /// (an edited or garbled capture).
  case unexpectedLine
  /// Applying changes: a banner, context line or deleted statement that the base configuration
  /// does not have, or an added statement it already has.
  case contextMismatch
  /// Commit history: a commit time whose zone abbreviation is ambiguous (`CST`) or unknown, with
  /// no device zone given.
  case unplacedTime
  /// Schema check: a keyword the schema does not have here (with "did you mean" from its
  /// siblings), or words after a value that take none.
  case unknownStatement
  /// Schema check: a value its type does not accept (enumeration, range, address, pattern).
  case invalidValue
  /// Schema check: a leaf without its value.
  case missingValue
  /// Schema check: a list entry without its key.
  case missingKey
  /// Schema check: a single-valued statement given twice with different values.
  case repeatedStatement
  /// Schema check: two statements of one choice (`then accept; then reject;`).
  case choiceConflict
  /// A NUL byte or other control byte in the text, or an input too large to address.
  case invalidByte
  /// XML that is not well-formed: a tag, comment or reference cut short or never closed (a
  /// truncated capture), an end tag that closes another element.
  case malformedXML
  /// Well-formed XML that is not a Junos configuration where one is expected: no
  /// `<configuration>`, text between the elements of a block, a list entry without its keys.
  case unexpectedXML
  /// Checklist inputs: a line of a change plan, a roles file or a suppression file that is not
  /// one of its forms.
  case invalidChecklistInput

  /// The severity of this kind of diagnostic.
  public var severity: Diagnostic.Severity { .error }
}

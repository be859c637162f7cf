public import JunosChecklist
public import JunosConfig

/// How text is laid out for the person reading it: whether it is coloured (ANSI SGR sequences) and
/// the width long lines wrap to. ``plain`` (no colour, no wrapping) gives the bytes a pipe or a
/// file gets; the CLI decides from the terminal and `--color`.
public struct TextStyle: Sendable, Equatable {
  /// Whether text is painted with ANSI SGR sequences.
  public var color: Bool
  /// The columns long lines wrap to (with a hanging indent), or nil not to wrap.
  public var width: Int?

  /// Creates a style.
  public init(color: Bool = false, width: Int? = nil) {
    self.color = color
    self.width = width
  }

  /// No colour, no wrapping.
  public static let plain = TextStyle()

  /// The paints used: one SGR parameter list each.
  public enum Paint: String, Sendable {
    /// Bold: `[edit …]` banners.
    case bold = "1"
    /// Bold red: errors.
    case error = "1;31"
    /// Bold yellow: warnings.
    case warning = "1;33"
    /// Cyan: infos and notes.
    case note = "36"
    /// Green: added lines.
    case added = "32"
    /// Red: removed lines.
    case removed = "31"
    /// Yellow: changed lines.
    case changed = "33"
  }

  /// `s` painted with `paint` (reset after it), or `s` itself without colour.
  public func paint(_ s: String, _ paint: Paint) -> String {
    color && !s.isEmpty ? "\u{1B}[\(paint.rawValue)m\(s)\u{1B}[0m" : s
  }

  /// Appends `bytes` to `out`, painted with `paint` (reset after it) when the style colours.
  public func paint(_ bytes: ArraySlice<UInt8>, _ paint: Paint, into out: inout [UInt8]) {
    guard color && !bytes.isEmpty else { return out.append(contentsOf: bytes) }
    out.append(contentsOf: "\u{1B}[\(paint.rawValue)m".utf8)
    out.append(contentsOf: bytes)
    out.append(contentsOf: "\u{1B}[0m".utf8)
  }

  /// A Junos-form difference painted line by line when the style colours: `+` lines green, `-` red,
  /// `!` yellow, `[edit …]` banners bold, `##` notes cyan; the same bytes otherwise.
  public func paintedDiff(_ junos: [UInt8]) -> [UInt8] {
    guard color else { return junos }
    var out: [UInt8] = []
    out.reserveCapacity(junos.count + junos.count / 4)
    for (k, line) in junos.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
      if k > 0 { out.append(UInt8(ascii: "\n")) }
      let paint: TextStyle.Paint? =
        switch line.first {
        case UInt8(ascii: "+"): .added
        case UInt8(ascii: "-"): .removed
        case UInt8(ascii: "!"): .changed
        case UInt8(ascii: "["): line.starts(with: "[edit".utf8) ? .bold : nil
        case UInt8(ascii: "#"): .note
        default: nil
        }
      if let paint { self.paint(line, paint, into: &out) } else { out.append(contentsOf: line) }
    }
    return out
  }

  /// The paint of a finding's severity.
  public static func paint(of severity: Severity) -> Paint {
    switch severity {
    case .error: .error
    case .warning: .warning
    case .info: .note
    }
  }

  /// The paint of a diagnostic's severity.
  public static func paint(of severity: Diagnostic.Severity) -> Paint {
    switch severity {
    case .error: .error
    case .warning: .warning
    case .note: .note
    }
  }

  /// `s` with every SGR sequence (`ESC [ … m`) removed: what the text is without colour.
  public static func stripped(_ s: String) -> String {
    var out = ""
    var scalars = s.unicodeScalars.makeIterator()
    while let u = scalars.next() {
      guard u == "\u{1B}" else {
        out.unicodeScalars.append(u)
        continue
      }
      while let v = scalars.next(), v != "m" {}
    }
    return out
  }

  /// One line laid out: `words` joined by single spaces, each painted as given; when it is wider
  /// than ``width``, broken between words into lines of at most that width (a word wider than the
  /// line stays whole), each after the first indented by `indent` spaces. Widths count characters
  /// and leave the paint out.
  public func line(_ words: [(text: String, paint: Paint?)], indent: Int = 4) -> String {
    var out = ""
    var column = 0
    for (k, w) in words.enumerated() {
      let painted = w.paint.map { paint(w.text, $0) } ?? w.text
      if k > 0 {
        if let width, column + 1 + w.text.count > width, column > indent {
          out += "\n" + String(repeating: " ", count: indent)
          column = indent
        } else {
          out += " "
          column += 1
        }
      }
      out += painted
      column += w.text.count
    }
    return out
  }

  /// `s` split into words at single spaces, unpainted, for ``line(_:indent:)``.
  public static func words(_ s: String) -> [(text: String, paint: Paint?)] {
    s.split(separator: " ", omittingEmptySubsequences: false).map { (String($0), nil) }
  }
}

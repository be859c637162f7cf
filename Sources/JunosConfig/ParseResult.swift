/// The syntaxes of a Junos configuration.
public enum ConfigSyntax: String, Sendable, CaseIterable {
  /// Curly-brace text, as `show configuration` prints it and `juniper.conf` stores it.
  case curly
  /// One command per line, as `show configuration | display set` prints it.
  case set
  /// Junos XML, as `show configuration | display xml` prints it and NETCONF
  /// `<get-configuration>` replies hold it (configuration text inside such a reply is read as
  /// curly or set text).
  case xml
}

/// What parsing produced: a tree, even for broken input, and the problems found.
public struct ParseResult: Sendable {
  /// The configuration as far as it could be understood.
  public var tree: ConfigTree
  /// Problems, in file order.
  public var diagnostics: [Diagnostic]
  /// Which syntax the text was read as.
  public var syntax: ConfigSyntax
  /// Capture artefacts that were recognised and skipped (prompts, `[edit]`, echoed commands).
  public var skippedLines: Int

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Entry point for parsing configuration text in either syntax.
public enum ConfigParser {
  /// Parses configuration text, detecting its syntax unless given.
  ///
  /// - Parameters:
  ///   - file: The text to parse.
  ///   - syntax: Force a syntax; `nil` detects it from the first statement.
  ///   - model: Where `display set` identifiers end and which statements the device prints on
  ///     one line.
  /// - Returns: The tree and diagnostics. Never throws and never traps on bad input.
  public static func parse(_ file: SourceFile, syntax: ConfigSyntax? = nil, model: ConfigModel = .standard) -> ParseResult {
    switch syntax ?? detectSyntax(file) {
    case .curly: return CurlyParser.parse(file)
    case .set: return SetParser.parse(file, model: model)
    case .xml: return XMLConfigParser.parse(file, model: model)
    }
  }

  /// Guesses the syntax from the first line that is neither blank, a comment nor a capture
  /// artefact: XML when it starts with `<`.
  public static func detectSyntax(_ file: SourceFile) -> ConfigSyntax {
    let b = file.bytes
    var start = b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0
    while start < b.count {
      var end = start
      while end < b.count && b[end] != 0x0A && b[end] != 0x0D { end += 1 }
      defer { start = end + 1 }
      var i = start
      while i < end && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
      guard i < end, b[i] != UInt8(ascii: "#") else { continue }
      if b[i] == UInt8(ascii: "<") { return .xml }
      if CaptureArtefact.classify(b, from: i, to: end, topLevel: true) != nil { continue }
      var j = i
      while j < end && b[j] > 0x20 { j += 1 }
      return SetCommand(b[i..<j]) != nil ? .set : .curly
    }
    return .curly
  }

}

/// Lines of captured terminal text that are not configuration.
public enum CaptureArtefact: Equatable, Sendable {
  /// `user@host>` or `user@host#`, possibly followed by the command typed.
  case prompt
  /// `{master:0}`, `{backup}`, optionally followed by `[edit …]` and a prompt.
  case routingEngineBanner
  /// `[edit]` or `[edit interfaces]`.
  case editBanner
  /// `show configuration | display set | no-more` echoed without a prompt.
  case echoedCommand
  /// A Markdown code fence around a pasted capture.
  case markdownFence
  /// `---(more)---`, `---(more 27%)---`: the pager stopped the capture.
  case pager

  /// The diagnostic message for a pager prompt, quoting it as it appears (`---(more 14%)---`,
  /// trailing blanks dropped): `the capture stops at a pager prompt ('…'): the WHAT is truncated`.
  public static func pagerMessage(_ line: some Collection<UInt8>, truncated what: String) -> String {
    var text = Array(line.prefix(64))
    while let last = text.last, last == 0x20 || last == 0x09 || last == 0x0D { text.removeLast() }
    return "the capture stops at a pager prompt ('\(String(decoding: text, as: UTF8.self))'): the \(what) is truncated"
  }

  /// Classifies the line `bytes[from..<to]` (from its first non-blank byte).
  ///
  /// - Parameter topLevel: Whether the parser is outside any block; an echoed command is only
  ///   recognised there.
  public static func classify(_ b: [UInt8], from: Int, to: Int, topLevel: Bool) -> CaptureArtefact? {
    b.withUnsafeBufferPointer { classify($0, from: from, to: to, topLevel: topLevel) }
  }

  static func classify(_ b: UnsafeBufferPointer<UInt8>, from: Int, to end: Int, topLevel: Bool) -> CaptureArtefact? {
    guard from < end else { return nil }
    // A line holding `;`, `{` or `}` is configuration, whatever it starts with (a statement may
    // be followed by a comment: `x; ## SECRET-DATA`): prompts, echoed commands, fences and pager
    // prompts hold none. (`{master:0}` is matched below, before this applies.)
    var endsStatement = false
    for k in from..<end where b[k] == UInt8(ascii: ";") || b[k] == UInt8(ascii: "{") || b[k] == UInt8(ascii: "}") {
      endsStatement = true
      break
    }
    func starts(_ s: StaticString, at i: Int) -> Bool {
      let n = s.utf8CodeUnitCount
      guard i + n <= end else { return false }
      let p = s.utf8Start
      for k in 0..<n where b[i + k] != p[k] { return false }
      return true
    }
    switch b[from] {
    case UInt8(ascii: "-"):
      return !endsStatement && starts("---(more", at: from) ? .pager : nil
    case UInt8(ascii: "`"):
      return !endsStatement && starts("```", at: from) ? .markdownFence : nil
    case UInt8(ascii: "{"):
      // {master}, {master:0}, {backup:1}, {linecard:2}, {primary:node0}
      var i = from + 1
      while i < end, b[i] >= UInt8(ascii: "a"), b[i] <= UInt8(ascii: "z") { i += 1 }
      guard i > from + 1 else { return nil }
      if i < end && b[i] == UInt8(ascii: ":") {
        i += 1
        while i < end, isWordByte(b[i]), b[i] != UInt8(ascii: "}") { i += 1 }
      }
      return i < end && b[i] == UInt8(ascii: "}") ? .routingEngineBanner : nil
    case UInt8(ascii: "["):
      return starts("[edit]", at: from) || starts("[edit ", at: from) ? .editBanner : nil
    default:
      // First word: a prompt `user@host>` / `user@host#`, or an echoed `show …` / `run show …`.
      if endsStatement { return nil }
      var i = from
      var at = false
      while i < end, b[i] > 0x20 {
        if b[i] == UInt8(ascii: "@") { at = true }
        i += 1
      }
      let last = b[i - 1]
      if at && i - from > 2 && (last == UInt8(ascii: ">") || last == UInt8(ascii: "#")) { return .prompt }
      if topLevel
        && (starts("show ", at: from) || starts("run show ", at: from) || starts("file show ", at: from)
          || (i - from == 4 && starts("show", at: from)))
      {
        return .echoedCommand
      }
      return nil
    }
  }

  @inline(__always) static func isWordByte(_ b: UInt8) -> Bool {
    b > 0x20 && b != UInt8(ascii: ";") && b != UInt8(ascii: "{") && b != UInt8(ascii: "}")
      && b != UInt8(ascii: "[") && b != UInt8(ascii: "]")
  }
}

public import JunosConfig

/// Reads `show system commit | display xml` and the NETCONF `<get-commit-information/>` reply:
/// `<commit-information>` with one `<commit-history>` per entry (`sequence-number`, `user`,
/// `client`, `date-time`, optional `comment` and `log`). Namespace prefixes are ignored
/// (`junos:seconds` and a stripped `seconds` alike); the `seconds` attribute of `date-time`, when
/// present, is the commit's instant and wins over the printed time, unless it lies outside the
/// years the printed time can have (0000–9999: then the printed time is placed as in the text
/// form). A `sequence-number` that is negative or above ``CommitListParser/maxIndex`` is an
/// error, like a missing one.
public enum CommitXMLParser {
  /// The instants of the printed form's years, 0000-01-01 to 9999-12-31 UTC.
  static let instants: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

  /// Parses the XML form. Malformed XML and entries missing a field are errors with their place.
  public static func parse(_ file: SourceFile) -> CommitHistory {
    var history = CommitHistory()
    var reader = XMLReader(bytes: file.bytes)
    var entry: [String: String] = [:]
    var seconds: Int64? = nil
    var entryStart = 0
    var inEntry = false
    var text: [UInt8] = []
    while let event = reader.next() {
      switch event {
      case .start(let name, let at, _):
        text.removeAll()
        if reader.bytes(name.local, equal: "commit-history") {
          inEntry = true
          entry = [:]
          seconds = nil
          entryStart = at
        } else if inEntry && reader.bytes(name.local, equal: "date-time") {
          seconds = reader.attribute("seconds").flatMap { Int64($0) }.flatMap { instants.contains($0) ? $0 : nil }
        }
      case .text(let range, let entities):
        reader.appendText(range, entities: entities, to: &text)
      case .cdata(let range):
        text.append(contentsOf: reader.bytes[range])
      case .end(let name, _):
        if reader.bytes(name.local, equal: "commit-history") {
          inEntry = false
          if let c = commit(entry, seconds: seconds, file: file, at: entryStart, history: &history) {
            history.commits.append(c)
          }
        } else if inEntry {
          entry[reader.string(name.local)] = String(decoding: text, as: UTF8.self).trimmingBlanks
        }
        text.removeAll()
      case .error(let message, let at):
        history.diagnostics.append(Diagnostic(.unexpectedToken, "malformed XML: \(message)", in: file, at: at..<at))
        return history
      }
    }
    return history
  }

  static func commit(_ e: [String: String], seconds: Int64?, file: SourceFile, at: Int, history: inout CommitHistory) -> Commit? {
    func missing(_ what: String) -> Commit? {
      history.diagnostics.append(Diagnostic(.unexpectedLine, "<commit-history> without <\(what)>", in: file, at: at..<at))
      return nil
    }
    guard let seq = e["sequence-number"], let index = Int(seq), (0...CommitListParser.maxIndex).contains(index) else {
      return missing("sequence-number")
    }
    guard let user = e["user"] else { return missing("user") }
    guard let client = e["client"] else { return missing("client") }
    guard let dt = e["date-time"] else { return missing("date-time") }
    let words = dt.split(separator: " ")
    guard words.count == 3, let time = CommitListParser.localTime(words[0], words[1]) else { return missing("date-time") }
    var c = Commit(
      index: index, localTime: time, timeZone: String(words[2]), user: user, client: client, comment: e["comment"], log: e["log"],
      instant: seconds, line: file.location(of: at).line)
    if let r = e["revision"] { c.revision = r }
    return c
  }
}

extension CommitHistory {
  /// Reads a commit listing in either form: XML when it starts with `<`, text otherwise.
  public static func read(_ file: SourceFile) -> CommitHistory {
    isXML(file) ? CommitXMLParser.parse(file) : CommitListParser.parse(file)
  }

  /// Whether the first byte that is not blank is `<`.
  static func isXML(_ file: SourceFile) -> Bool {
    file.bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } == UInt8(ascii: "<")
  }

  /// Whether `file` is a commit listing: XML whose first 4 KB hold `<commit-information` or
  /// `<commit-history`, or text whose first line that is not blank, a capture artefact (prompt,
  /// `{master:0}`, `[edit]`, pager), an echoed `show system commit`, a `#` notice (`# commit
  /// confirmed will be rolled back in 10 minutes`) or a line of the `rollback ?` list's frame is
  /// an entry (`0   2018-01-23 11:41:11 CET by pytraining via cli …` or `rescue …`).
  public static func looksLikeListing(_ file: SourceFile) -> Bool {
    if isXML(file) {
      let head = Array(file.bytes.prefix(4096))
      return head.offset(of: "<commit-information") != nil || head.offset(of: "<commit-history") != nil
    }
    return CommitListParser.startsWithEntry(file)
  }
}

extension String {
  var trimmingBlanks: String {
    let b = Array(utf8)
    var s = 0
    var e = b.count
    while s < e && (b[s] == 0x20 || b[s] == 0x09 || b[s] == 0x0A || b[s] == 0x0D) { s += 1 }
    while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09 || b[e - 1] == 0x0A || b[e - 1] == 0x0D) { e -= 1 }
    return String(decoding: b[s..<e], as: UTF8.self)
  }
}

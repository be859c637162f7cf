/// What wrote a backup file into a git repository.
public enum BackupFormat: String, Sendable, Hashable {
  /// Oxidized's `junos` model: `show version`, `show chassis hardware` and `show system license`
  /// output as `# ` lines, then `show configuration | display omit` as the device printed it
  /// (its `## Last commit` header kept), and for some models more `# ` output after it.
  case oxidized
  /// RANCID's `jrancid` (`junos.pm`): a `#RANCID-CONTENT-TYPE: juniper` line and `#`, the
  /// output of its chassis, system and version commands as `# ` lines, then the configuration
  /// with blank lines and its `## Last commit` line dropped, secrets it filters written as
  /// `#… <removed>` lines.
  case rancid
}

/// A file of a backup repository, and whether it is a Junos configuration.
public struct BackupFile: Sendable, Hashable {
  /// Its path from the top of the repository.
  public var path: String
  /// The device it is named after (the file name: Oxidized and RANCID name a device's file
  /// after the device).
  public var device: String
  /// What wrote it.
  public var format: BackupFormat
  /// Why it is not read as a Junos configuration, nil when it is.
  public var skipped: String?

  /// Creates an entry.
  public init(path: String, device: String, format: BackupFormat, skipped: String? = nil) {
    self.path = path
    self.device = device
    self.format = format
    self.skipped = skipped
  }
}

/// The configuration inside a backup tool's file, and what a file is.
public enum BackupFiles {
  /// A line the backup tool added around the configuration: `#` alone or followed by anything
  /// but a second `#` (`# show version`, `#RANCID-CONTENT-TYPE: juniper`). The device's own
  /// `## Last commit` header is not one.
  static func isToolLine(_ b: [UInt8], _ start: Int, _ end: Int) -> Bool {
    start < end && b[start] == UInt8(ascii: "#") && (start + 1 == end || b[start + 1] != UInt8(ascii: "#"))
  }

  /// The line of `b` that starts at `start`: where its text ends (without a CR) and where the
  /// next line starts (`b.count` after the last).
  static func line(_ b: [UInt8], at start: Int) -> (end: Int, next: Int) {
    var end = start
    while end < b.count && b[end] != 0x0A { end += 1 }
    return (end > start && b[end - 1] == 0x0D ? end - 1 : end, min(end + 1, b.count))
  }

  /// Where the line that ends just before `end` (at a newline, or at the end of `b`) starts.
  static func lineStart(_ b: [UInt8], before end: Int) -> Int {
    var s = end
    while s > 0 && b[s - 1] != 0x0A { s -= 1 }
    return s
  }

  static func isBlank(_ b: [UInt8], _ r: Range<Int>) -> Bool { b[r].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

  /// Whether the line `r` is the backup tool's or blank.
  static func isTool(_ b: [UInt8], _ r: Range<Int>) -> Bool { isBlank(b, r) || isToolLine(b, r.lowerBound, r.upperBound) }

  /// The configuration of a backup file: the tool's lines before and after it (``isToolLine``
  /// or blank) are blanked, so that the text left is what the device printed and line numbers
  /// are still the file's. `#` lines inside the configuration (RANCID's filtered secrets) stay:
  /// the configuration reader takes them as comments. Only the lines blanked are read one by
  /// one; the configuration is copied as it is.
  public static func configuration(_ bytes: [UInt8]) -> [UInt8] {
    // The tool's lines before: up to the first other line.
    var first = 0
    var leading = 0
    while first < bytes.count {
      let (end, next) = line(bytes, at: first)
      guard isTool(bytes, first..<end) else { break }
      first = next
      leading += 1
    }
    // The tool's lines after: back from the end, up to the last other line.
    var last = bytes.count
    var trailing = 0
    if last > 0 && bytes[last - 1] == 0x0A { last -= 1 }  // the last line's newline
    while last > first {
      let s = lineStart(bytes, before: last)
      guard isTool(bytes, s..<last) else { break }
      last = s > 0 ? s - 1 : 0
      trailing += 1
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    out += repeatElement(0x0A, count: leading)
    guard first < last else { return out }
    out += bytes[first..<last]
    out += repeatElement(0x0A, count: trailing + 1)
    return out
  }

  /// What identifies a configuration apart from its headers (``configuration(_:)``'s text from
  /// its first line that is neither blank nor a `## Last commit` / `## Last changed` header,
  /// without the blank lines at its end): two backups with the same key hold the same
  /// configuration, whatever the tool's lines around it.
  static func configurationKey(_ configuration: [UInt8]) -> ArraySlice<UInt8> {
    var start = 0
    while start < configuration.count {
      let (end, next) = line(configuration, at: start)
      let text = configuration[start..<end]
      guard isBlank(configuration, start..<end) || text.starts(with: "## Last commit".utf8) || text.starts(with: "## Last changed".utf8)
      else { break }
      start = next
    }
    var end = configuration.count
    while end > start && [0x0A, 0x0D, 0x20, 0x09].contains(configuration[end - 1]) { end -= 1 }
    return configuration[start..<end]
  }

  /// The content type of a RANCID file (`juniper` of `#RANCID-CONTENT-TYPE: juniper`; RANCID
  /// writes `!` in place of `#` for some vendors), nil when the first line is not one.
  public static func rancidContentType(_ bytes: [UInt8]) -> String? {
    guard !bytes.isEmpty else { return nil }
    let line = String(decoding: bytes[0..<Self.line(bytes, at: 0).end], as: UTF8.self)
    for prefix in ["#RANCID-CONTENT-TYPE:", "!RANCID-CONTENT-TYPE:"] where line.hasPrefix(prefix) {
      return line.dropFirst(prefix.count).trimmingPrefix(" ").split(separator: " ").first.map(String.init) ?? ""
    }
    return nil
  }

  /// What a file of a backup repository is: RANCID's when its first line is RANCID's content
  /// type (a Junos one: `juniper`, `junos`, `juniper-srx`…), else Oxidized's (or any file of a
  /// `show configuration`). It is skipped, with the reason, when it holds NUL bytes, is a RANCID
  /// file of another vendor, or its configuration does not start as a Junos one does (a
  /// `## Last commit` or `## Last changed` header, `version …;`, or a top-level block such as
  /// `system {`).
  public static func classify(path: String, bytes: [UInt8]) -> BackupFile {
    let device = String(path.split(separator: "/").last ?? Substring(path))
    if bytes.contains(0) { return BackupFile(path: path, device: device, format: .oxidized, skipped: "not text") }
    let format: BackupFormat
    if let type = rancidContentType(bytes) {
      guard type.hasPrefix("juniper") || type.hasPrefix("junos") else {
        return BackupFile(path: path, device: device, format: .rancid, skipped: "RANCID content type '\(type)'")
      }
      format = .rancid
    } else {
      format = .oxidized
    }
    let text = configuration(bytes)
    var start = 0
    while start < text.count && text[start] == 0x0A { start += 1 }
    guard start < text.count, startsJunosConfiguration(text[start..<line(text, at: start).end]) else {
      return BackupFile(path: path, device: device, format: format, skipped: "not a Junos configuration")
    }
    return BackupFile(path: path, device: device, format: format)
  }

  /// Whether a configuration's first line is one a Junos `show configuration` starts with.
  static func startsJunosConfiguration(_ line: ArraySlice<UInt8>) -> Bool {
    if line.starts(with: "## Last commit: ".utf8) || line.starts(with: "## Last changed: ".utf8) { return true }
    if line.starts(with: "version ".utf8) && line.last == UInt8(ascii: ";") { return true }
    // `system {`, `groups {`, `interfaces {`: a word of lower-case letters and dashes, then `{`.
    let words = line.split(separator: 0x20)
    return words.count == 2 && words[1].elementsEqual("{".utf8)
      && words[0].allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "-") }
  }
}

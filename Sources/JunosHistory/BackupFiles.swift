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

  /// The lines of `b` as (start, end without CR) ranges.
  static func lines(_ b: [UInt8]) -> [Range<Int>] {
    var out: [Range<Int>] = []
    var start = 0
    while start < b.count {
      var end = start
      while end < b.count && b[end] != 0x0A { end += 1 }
      out.append(start..<(end > start && b[end - 1] == 0x0D ? end - 1 : end))
      start = end + 1
    }
    return out
  }

  static func isBlank(_ b: [UInt8], _ r: Range<Int>) -> Bool { b[r].allSatisfy { $0 == 0x20 || $0 == 0x09 } }

  /// The configuration of a backup file: the tool's lines before and after it (``isToolLine``
  /// or blank) are blanked, so that the text left is what the device printed and line numbers
  /// are still the file's. `#` lines inside the configuration (RANCID's filtered secrets) stay:
  /// the configuration reader takes them as comments.
  public static func configuration(_ bytes: [UInt8]) -> [UInt8] {
    let all = lines(bytes)
    func tool(_ r: Range<Int>) -> Bool { isBlank(bytes, r) || isToolLine(bytes, r.lowerBound, r.upperBound) }
    guard let first = all.firstIndex(where: { !tool($0) }), let last = all.lastIndex(where: { !tool($0) }) else {
      return Array(repeating: 0x0A, count: all.count)
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    out += repeatElement(0x0A, count: first)
    out += bytes[all[first].lowerBound..<all[last].upperBound]
    out += repeatElement(0x0A, count: all.count - last)
    return out
  }

  /// What identifies a configuration apart from its headers: its lines that are not blank and
  /// not a `## Last commit` / `## Last changed` header, joined. Two backups with the same key
  /// hold the same configuration.
  static func configurationKey(_ configuration: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(configuration.count)
    for r in lines(configuration) where !isBlank(configuration, r) {
      let line = configuration[r]
      if line.starts(with: "## Last commit".utf8) || line.starts(with: "## Last changed".utf8) { continue }
      out += line
      out.append(0x0A)
    }
    return out
  }

  /// The content type of a RANCID file (`juniper` of `#RANCID-CONTENT-TYPE: juniper`; RANCID
  /// writes `!` in place of `#` for some vendors), nil when the first line is not one.
  public static func rancidContentType(_ bytes: [UInt8]) -> String? {
    guard let first = lines(bytes).first else { return nil }
    let line = String(decoding: bytes[first], as: UTF8.self)
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
    guard let r = lines(text).first(where: { !isBlank(text, $0) }), startsJunosConfiguration(text[r]) else {
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

internal import Glibc

/// The few ssh_config keywords junoscope applies itself, because libssh 0.10 ignores them
/// (`AddressFamily`) or keeps them where they cannot be read back (`ConnectTimeout`), read from
/// the same file libssh reads with OpenSSH's rules: the first value given for the host wins;
/// `Host` patterns (`*`, `?`, `!`) match the name as given; `Match all`, `Match host` and
/// `Match originalhost` are understood (any other `Match` block is skipped); `Include` is
/// followed (relative to `~/.ssh`, with wildcards).
struct SSHConfigLookup {
  /// The keywords looked up, lowercased.
  static let keywords: Set<String> = ["addressfamily", "connecttimeout"]

  /// Values found, by lowercased keyword.
  private(set) var values: [String: String] = [:]
  private let host: String
  private let sshDirectory: String
  private let home: String

  /// Reads `file` for `host`; a file that cannot be read gives no values. Relative `Include`
  /// paths are in `sshDirectory`, `~` is `home`.
  init(host: String, file: String, sshDirectory: String, home: String) {
    self.host = host
    self.sshDirectory = sshDirectory
    self.home = home
    read(file, depth: 0)
  }

  /// `AddressFamily` as given, if it is one of the three words.
  var addressFamily: SSHOptions.AddressFamily? { values["addressfamily"].flatMap { SSHOptions.AddressFamily(rawValue: $0.lowercased()) } }

  /// `ConnectTimeout` in seconds, if given and positive.
  var connectTimeout: Double? { values["connecttimeout"].flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil } }

  private mutating func read(_ file: String, depth: Int) {
    guard depth < 16, let f = fopen(file, "r") else { return }
    defer { fclose(f) }
    var line: UnsafeMutablePointer<CChar>? = nil
    var cap = 0
    defer { free(line) }
    var applies = true
    while case let n = getline(&line, &cap, f), n > 0, let l = line {
      let words = Self.words(String(cString: l))
      guard let first = words.first else { continue }
      let keyword = first.lowercased()
      let args = Array(words.dropFirst())
      switch keyword {
      case "host": applies = Self.hostMatches(host, patterns: args)
      case "match": applies = matchApplies(args)
      case "include" where applies:
        for pattern in args { for path in expand(pattern) { read(path, depth: depth + 1) } }
      default:
        if applies, Self.keywords.contains(keyword), values[keyword] == nil, let value = args.first { values[keyword] = value }
      }
    }
  }

  /// The words of a line: `Keyword value`, `Keyword=value`, double quotes, `#` comments.
  static func words(_ line: String) -> [String] {
    var out: [String] = []
    var word = ""
    var quoted = false
    var started = false
    for c in line {
      if c == "\"" {
        quoted.toggle()
        started = true
      } else if !quoted && c == "#" && !started && word.isEmpty {
        break
      } else if !quoted && (c == " " || c == "\t" || c == "\r" || c == "\n" || (c == "=" && out.isEmpty)) {
        if started || !word.isEmpty { out.append(word) }
        word = ""
        started = false
      } else {
        word.append(c)
        started = true
      }
    }
    if started || !word.isEmpty { out.append(word) }
    return out
  }

  /// Whether `name` matches a `Host` line's patterns: one positive match and no negated one.
  static func hostMatches(_ name: String, patterns: [String]) -> Bool {
    var matched = false
    for p in patterns {
      if p.hasPrefix("!") {
        if wildcard(String(p.dropFirst()), name) { return false }
      } else if wildcard(p, name) {
        matched = true
      }
    }
    return matched
  }

  /// `*` and `?` matching, case-insensitive (host names).
  static func wildcard(_ pattern: String, _ name: String) -> Bool {
    fnmatch(pattern.lowercased(), name.lowercased(), 0) == 0
  }

  private func matchApplies(_ args: [String]) -> Bool {
    var i = 0
    while i < args.count {
      let criterion = args[i].lowercased()
      switch criterion {
      case "all":
        i += 1
      case "host", "originalhost":
        guard i + 1 < args.count else { return false }
        if !Self.hostMatches(host, patterns: args[i + 1].split(separator: ",").map(String.init)) { return false }
        i += 2
      default:
        return false  // exec, user, localuser, canonical, final…: not evaluated here
      }
    }
    return true
  }

  private func expand(_ pattern: String) -> [String] {
    var path = pattern
    if path.hasPrefix("~/") {
      path = home + path.dropFirst()
    } else if !path.hasPrefix("/") {
      path = sshDirectory + "/" + path
    }
    var g = glob_t()
    defer { globfree(&g) }
    guard glob(path, 0, nil, &g) == 0 else { return [] }
    return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }
  }
}

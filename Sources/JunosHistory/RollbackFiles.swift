public import JunosConfig

/// Saved configurations named after their rollback number, and what their headers say.
public enum RollbackFiles {
  /// The rollback a file name stands for: `juniper.conf` / `juniper.conf.gz` → 0 (the active
  /// configuration), `juniper.conf.N` / `juniper.conf.N.gz` → N (as the device stores them in
  /// /config and /var/db/config), `rollback-N.conf` / `rollback_N.conf` / `rollback-N.txt` (a
  /// captured `show system rollback N`) → N. Anything else → nil.
  public static func rollbackNumber(fileName: String) -> Int? {
    var name = Substring(fileName)
    if name.hasSuffix(".gz") { name = name.dropLast(3) }
    if name == "juniper.conf" { return 0 }
    if name.hasPrefix("juniper.conf.") { return number(name.dropFirst("juniper.conf.".count)) }
    for prefix in ["rollback-", "rollback_"] where name.hasPrefix(prefix) {
      var rest = name.dropFirst(prefix.count)
      for ext in [".conf", ".txt", ".cfg"] where rest.hasSuffix(ext) { rest = rest.dropLast(ext.count) }
      return number(rest)
    }
    return nil
  }

  static func number(_ s: Substring) -> Int? {
    guard !s.isEmpty, s.count <= 3, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(s)
  }

  /// The commit a configuration's `## Last commit: 2019-11-13 15:06:51 GMT by katerina` header
  /// names, as entry `rollback` of a history (client and log are not in the header: `client`
  /// is empty). nil when there is no such header.
  public static func commit(headers: [String], rollback: Int) -> Commit? {
    for h in headers where h.hasPrefix("## Last commit: ") {
      let words = h.dropFirst("## Last commit: ".count).split(separator: " ")
      guard words.count >= 5, words[3] == "by", let time = CommitListParser.localTime(words[0], words[1]) else { continue }
      return Commit(index: rollback, localTime: time, timeZone: String(words[2]), user: String(words[4]), client: "")
    }
    return nil
  }

  /// A commit list made from the headers of rollback configurations (number → tree), for when no
  /// `show system commit` capture is at hand. Rollbacks without the header are left out.
  public static func history(from rollbacks: [Int: ConfigTree]) -> CommitHistory {
    var h = CommitHistory()
    for n in rollbacks.keys.sorted() {
      if let c = commit(headers: rollbacks[n]!.headers, rollback: n) { h.commits.append(c) }
    }
    return h
  }
}

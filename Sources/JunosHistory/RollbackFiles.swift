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

  /// The rollbacks a captured compare's file name says it goes between, as (newer, older):
  /// `rollback-N-compare-M.txt` (the output of `show system rollback N compare M`, M > N) →
  /// (N, M); `commit-N.diff` / `commit-N.txt` (what commit N did) → (N, N+1). Anything else → nil.
  public static func compareCapture(fileName: String) -> (newer: Int, older: Int)? {
    var name = Substring(fileName)
    for ext in [".txt", ".diff", ".compare"] where name.hasSuffix(ext) { name = name.dropLast(ext.count) }
    for prefix in ["commit-", "commit_"] where name.hasPrefix(prefix) {
      return number(name.dropFirst(prefix.count)).map { ($0, $0 + 1) }
    }
    for (prefix, separator) in [("rollback-", "-" as Character), ("rollback_", "_")] where name.hasPrefix(prefix) {
      let parts = name.dropFirst(prefix.count).split(separator: separator, omittingEmptySubsequences: false)
      guard parts.count == 3, parts[1] == "compare", let n = number(parts[0]), let m = number(parts[2]), m > n else { return nil }
      return (n, m)
    }
    return nil
  }

  /// The rollbacks a capture's echoed command compares, as (newer, older): the first line among
  /// its first 20 that holds `show system rollback N compare M` (after a prompt, or alone), in
  /// the order the device reads it (`rollback 13 compare 14` → (13, 14); the lower number is the
  /// newer rollback whichever way round it was typed). nil when no such line is there.
  public static func echoedCompare(in bytes: [UInt8]) -> (newer: Int, older: Int)? {
    let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
    for line in text.split(separator: "\n", maxSplits: 20, omittingEmptySubsequences: false).prefix(20) {
      guard let r = line.firstRange(of: "show system rollback ") else { continue }
      let words = line[r.upperBound...].split(separator: " ", omittingEmptySubsequences: true)
      guard words.count >= 3, words[1] == "compare", let a = number(words[0]), let b = number(words[2].prefix { $0 != "|" && $0 != "\r" })
      else { continue }
      return (min(a, b), max(a, b))
    }
    return nil
  }

  /// The `## …` header lines at the top of a saved configuration (`## Last commit: … by user`),
  /// read without parsing the rest (capture artefacts before them, such as a prompt or a
  /// Markdown fence, are skipped as the parser skips them).
  public static func headers(in bytes: [UInt8]) -> [String] {
    var out: [String] = []
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      var e = end
      while e > start && (bytes[e - 1] == 0x0D || bytes[e - 1] == 0x20) { e -= 1 }
      let line = bytes[start..<e]
      if line.starts(with: "## ".utf8) {
        out.append(String(decoding: line, as: UTF8.self))
      } else if !line.isEmpty && CaptureArtefact.classify(bytes, from: start, to: e, topLevel: true) == nil {
        break
      }
      start = end + 1
    }
    return out
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

  /// How a commit listing and a saved rollback's `## Last commit` header disagree about the
  /// rollback's commit: a listing captured some commits before or after the rollbacks were
  /// saved would give every batch to the wrong author.
  public struct Disagreement: Sendable, Hashable, CustomStringConvertible {
    /// The header's commit (its index is the rollback's number).
    public var header: Commit
    /// The listing's entry with the same number, if it has one.
    public var listed: Commit?
    /// The listing's entry the header does describe, if one does.
    public var matchingEntry: Int?

    /// `rollback 3's header says 2019-08-05 09:06:28 BST by stuart, the listing's commit 3 is
    /// … by bob; the header is the listing's commit 2: the listing is 1 commit older than the
    /// rollbacks`.
    public var description: String {
      func said(_ c: Commit) -> String { "\(c.localTime.map(String.init(describing:)) ?? "?") \(c.timeZone) by \(c.user)" }
      let n = header.index ?? 0
      var s = "rollback \(n)'s header says \(said(header)), "
      s += listed.map { "the listing's commit \(n) is \(said($0))" } ?? "the listing has no commit \(n)"
      if let k = matchingEntry {
        let by = abs(n - k)
        s +=
          "; the header is the listing's commit \(k): the listing is \(by) commit\(by == 1 ? "" : "s") \(k < n ? "older" : "newer") than the rollbacks"
      }
      return s
    }
  }

  /// Checks a listing against the commit a rollback's header names (``commit(headers:rollback:)``,
  /// with its time placed as the listing's are). Entries agree when their users are the same and
  /// so are their times: their instants when both are placed, else the printed local times when
  /// printed in the same zone. nil when they agree, or when the listing has no entry to compare
  /// and none elsewhere matches the header.
  public static func disagreement(listing: CommitHistory, header: Commit) -> Disagreement? {
    guard let n = header.index, header.isKnown else { return nil }
    func same(_ a: Commit) -> Bool {
      guard a.isKnown, a.user == header.user else { return false }
      if let x = a.instant, let y = header.instant { return x == y }
      return a.timeZone != header.timeZone || a.localTime == header.localTime
    }
    let listed = listing.commit(n)
    if let listed, same(listed) { return nil }
    let match = listing.commits.filter { $0.index != n && same($0) }.compactMap(\.index).min { abs($0 - n) < abs($1 - n) }
    if listed == nil && match == nil { return nil }
    return Disagreement(header: header, listed: listed, matchingEntry: match)
  }

  /// A commit list made from the headers of rollback configurations (number → tree), for when no
  /// `show system commit` capture is at hand (see ``history(headers:)``).
  public static func history(from rollbacks: [Int: ConfigTree]) -> CommitHistory {
    history(headers: rollbacks.mapValues(\.headers))
  }

  /// A commit list made from the `## …` header lines of saved rollbacks (number → lines, as
  /// ``headers(in:)`` reads them). Every commit from 0 to the oldest rollback given is an entry,
  /// newest first: one whose rollback is not given or has no `## Last commit` header is
  /// ``Commit/unknown(index:)``, so that it still separates the commits around it (a batch or an
  /// author's range never spans a commit nobody can vouch for). Empty when nothing is given.
  public static func history(headers: [Int: [String]]) -> CommitHistory {
    var h = CommitHistory()
    guard let oldest = headers.keys.max(), oldest >= 0 else { return h }
    for n in 0...oldest {
      h.commits.append(headers[n].flatMap { commit(headers: $0, rollback: n) } ?? .unknown(index: n))
    }
    return h
  }
}

import JunosConfig

extension Commit {
  /// The commit as JSON: `{"index":0,"time":"2019-11-13T15:06:51Z","timeZone":"GMT",
  /// "user":"katerina","client":"cli","comment":null,"log":null,"confirmedMinutes":null}`
  /// (`time` null when the time could not be placed; `index` null for `rescue`; `client` null
  /// when the source does not say, as in a rollback's `## Last commit` header; `localTime`,
  /// `timeZone` and `user` null too for a commit nothing describes, ``unknown(index:)``).
  public func appendJSON(to out: inout [UInt8]) {
    func field(_ name: String, _ value: String?) {
      out.append(contentsOf: ",\"\(name)\":".utf8)
      if let value { JSONText.append(value, into: &out) } else { out.append(contentsOf: "null".utf8) }
    }
    out.append(contentsOf: "{\"index\":\(index.map(String.init) ?? "null")".utf8)
    field("time", instant.map(iso8601UTC))
    field("localTime", localTime?.description)
    field("timeZone", isKnown ? timeZone : nil)
    field("user", isKnown ? user : nil)
    field("client", client.isEmpty ? nil : client)
    field("comment", comment)
    field("log", log)
    out.append(contentsOf: ",\"confirmedMinutes\":\(confirmedMinutes.map(String.init) ?? "null")".utf8)
    if let revision { field("revision", revision) }
    if let backup {
      out.append(contentsOf: ",\"backup\":{\"id\":\"\(backup.backup)\"".utf8)
      field("time", iso8601UTC(backup.time))
      field("after", backup.after.map(iso8601UTC))
      out.append(contentsOf: ",\"configurationChanged\":\(backup.configurationChanged)}".utf8)
    }
    out.append(UInt8(ascii: "}"))
  }
}

extension CommitHistory {
  /// The `log` JSON, format `junoscope.log` version 1 (Docs/JSON.md):
  /// `{"format":"junoscope.log","version":1,"commits":[…],"rescue":{…}|null}` (see
  /// ``Commit/appendJSON(to:)``).
  public func renderJSON() -> [UInt8] {
    var out: [UInt8] = Array("{\"format\":\"junoscope.log\",\"version\":1,\"commits\":[".utf8)
    for (k, c) in commits.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      c.appendJSON(to: &out)
    }
    out.append(contentsOf: "],\"rescue\":".utf8)
    if let rescue { rescue.appendJSON(to: &out) } else { out.append(contentsOf: "null".utf8) }
    out.append(contentsOf: "}\n".utf8)
    return out
  }
}

/// One author's share of a history.
public struct AuthorSummary: Sendable, Hashable {
  /// The user.
  public var user: String
  /// Commits by them.
  public var commits: Int
  /// Batches by them.
  public var batches: Int
  /// Their oldest and newest commit instants, when placed.
  public var first: Int64?
  public var last: Int64?
}

extension CommitHistory {
  /// Per-author counts from batches, most commits first (ties by name).
  public static func authors(_ batches: [Batch]) -> [AuthorSummary] {
    var by: [String: AuthorSummary] = [:]
    for b in batches {
      var a = by[b.user] ?? AuthorSummary(user: b.user, commits: 0, batches: 0, first: nil, last: nil)
      a.commits += b.commits.count
      a.batches += 1
      if let s = b.start { a.first = min(a.first ?? s, s) }
      if let e = b.end { a.last = max(a.last ?? e, e) }
      by[b.user] = a
    }
    return by.values.sorted { ($0.commits, $1.user) > ($1.commits, $0.user) }
  }

  /// The `timeline` JSON, format `junoscope.timeline` version 1 (Docs/JSON.md):
  /// `{"format":"junoscope.timeline","version":1,"batches":[{"user":"stuart","first":31,"last":28,"commits":4,
  /// "start":"…Z","end":"…Z","compare":"show system rollback 28 compare 32"}],"authors":[{"user":…,
  /// "commits":…,"batches":…,"first":"…Z","last":"…Z"}],"gaps":[{"first":19,"last":10,"commits":10}],
  /// "pending":{"commit":0,"user":"admin","minutes":10,"deadline":"…Z","minutesLeft":null}|null}`
  /// (batches oldest first; a batch read from backups, ``Batch/isFromBackups``, has `compare`
  /// null — its numbers are the backups', not the box's — and `"mayIncludeUnrecorded":true`; gaps are ``numberingGaps(_:)``, oldest first; `pending` is
  /// `pending`, its `commit` and `user` null when only the listing's notice tells of it).
  public static func timelineJSON(_ batches: [Batch], pending: PendingConfirmation? = nil) -> [UInt8] {
    func time(_ t: Int64?) -> String { t.map { "\"\(iso8601UTC($0))\"" } ?? "null" }
    var out: [UInt8] = Array("{\"format\":\"junoscope.timeline\",\"version\":1,\"batches\":[".utf8)
    for (k, b) in batches.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: "{\"user\":".utf8)
      JSONText.append(b.user, into: &out)
      out.append(
        contentsOf:
          ",\"first\":\(b.range.older),\"last\":\(b.range.newer),\"commits\":\(b.commits.count),\"start\":\(time(b.start)),\"end\":\(time(b.end)),\"compare\":"
          .utf8)
      // Numbered by backups, a batch has no on-box command.
      out.append(contentsOf: (b.deviceCommand.map { "\"\($0)\"" } ?? "null,\"mayIncludeUnrecorded\":true").utf8)
      out.append(UInt8(ascii: "}"))
    }
    out.append(contentsOf: "],\"authors\":[".utf8)
    for (k, a) in authors(batches).enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: "{\"user\":".utf8)
      JSONText.append(a.user, into: &out)
      out.append(
        contentsOf: ",\"commits\":\(a.commits),\"batches\":\(a.batches),\"first\":\(time(a.first)),\"last\":\(time(a.last))}".utf8)
    }
    out.append(contentsOf: "],\"gaps\":[".utf8)
    for (k, g) in numberingGaps(batches).enumerated() {
      out.append(contentsOf: "\(k > 0 ? "," : ""){\"first\":\(g.older),\"last\":\(g.newer),\"commits\":\(g.count)}".utf8)
    }
    out.append(contentsOf: "],\"pending\":".utf8)
    if let p = pending {
      func number(_ n: Int?) -> String { n.map(String.init) ?? "null" }
      out.append(contentsOf: "{\"commit\":\(number(p.commit?.index)),\"user\":".utf8)
      if let user = p.commit?.user { JSONText.append(user, into: &out) } else { out.append(contentsOf: "null".utf8) }
      out.append(
        contentsOf: ",\"minutes\":\(number(p.minutes)),\"deadline\":\(time(p.deadline)),\"minutesLeft\":\(number(p.minutesLeft))}".utf8)
    } else {
      out.append(contentsOf: "null".utf8)
    }
    out.append(contentsOf: "}\n".utf8)
    return out
  }
}

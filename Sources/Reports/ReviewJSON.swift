import JunosChecklist
import JunosConfig
import JunosHistory
public import JunosReview

/// The review as JSON (format `junoscope.review`, version 1; Docs/JSON.md): members in a fixed
/// order, so the same review gives the same bytes, and ``read(_:)`` to read it back (joining
/// shards with `review --merge`).
public enum ReviewJSON {
  /// The format's name (the `format` member).
  public static let format = "junoscope.review"
  /// The format's version.
  public static let version = 1

  /// The report as pretty JSON, with a final newline.
  public static func encode(_ report: ReviewReport) -> [UInt8] {
    let window: JSONTree = .object([
      ("since", .string(iso8601UTC(report.window.since))), ("until", .string(iso8601UTC(report.window.until))),
      ("sinceSeconds", .int(Int(report.window.since))), ("untilSeconds", .int(Int(report.window.until))),
    ])
    let counts: JSONTree = .object([
      ("devices", .int(report.devices.count)),
      ("changed", .int(report.devices.filter { $0.status == .changed }.count)),
      ("unchanged", .int(report.devices.filter { $0.status == .unchanged }.count)),
      ("failed", .int(report.failed.count)),
      ("batches", .int(report.devices.reduce(0) { $0 + $1.batches.count })),
      ("riskyBatches", .int(report.devices.reduce(0) { $0 + $1.batches.filter(\.isRisky).count })),
    ])
    let root: JSONTree = .object([
      ("format", .string(format)), ("version", .int(version)), ("window", window),
      ("sources", .array(report.sources.map { .string($0) })), ("summary", counts),
      ("devices", .array(report.devices.map(device))),
    ])
    return Array(root.pretty.utf8)
  }

  static func device(_ d: ReviewDevice) -> JSONTree {
    var members: [(String, JSONTree)] = [
      ("name", .string(d.name)), ("kind", .string(d.kind)), ("location", .string(d.location)), ("status", .string(d.status.label)),
    ]
    if case .failed(let why) = d.status { members.append(("reason", .string(why))) }
    members += [
      ("risky", .bool(d.isRisky)), ("commits", .array(d.commits.map(commit))), ("batches", .array(d.batches.map(batch))),
      ("notes", .array(d.notes.map { .string($0) })),
    ]
    return .object(members)
  }

  static func commit(_ c: ReviewCommit) -> JSONTree {
    let time: JSONTree = c.instant.map { .string(iso8601UTC($0)) } ?? .null
    let seconds: JSONTree = c.instant.map { .int(Int($0)) } ?? .null
    let comment: JSONTree = c.comment.map { .string($0) } ?? .null
    return .object([
      ("rollback", .int(c.rollback)), ("time", time), ("seconds", seconds), ("user", .string(c.user)), ("client", .string(c.client)),
      ("comment", comment),
    ])
  }

  static func batch(_ b: ReviewBatch) -> JSONTree {
    let findings: [JSONTree] = b.findings.map(finding)
    let blame: [JSONTree] = b.blame.map(blame)
    let diff: JSONTree = b.diff.map { .string($0) } ?? .null
    let note: JSONTree = b.note.map { .string($0) } ?? .null
    return .object([
      ("author", .string(b.author)), ("risky", .bool(b.isRisky)), ("commits", .array(b.commits.map(commit))), ("diff", diff),
      ("findings", .array(findings)), ("blame", .array(blame)), ("note", note),
    ])
  }

  static func finding(_ f: ReviewFinding) -> JSONTree {
    .object([
      ("rule", .string(f.rule)), ("severity", .string(f.severity.rawValue)), ("message", .string(f.message)), ("hint", .string(f.hint)),
      ("path", .string(f.path)),
    ])
  }

  static func blame(_ x: ReviewBlame) -> JSONTree {
    let user: JSONTree = x.user.map { .string($0) } ?? .null
    let time: JSONTree = x.instant.map { .string(iso8601UTC($0)) } ?? .null
    let seconds: JSONTree = x.instant.map { .int(Int($0)) } ?? .null
    return .object([
      ("statement", .string(x.statement)), ("change", .string(x.change)), ("commit", .int(x.commit)),
      ("oldestCommit", .int(x.oldestCommit)), ("boundary", .bool(x.isBoundary)), ("user", user), ("time", time), ("seconds", seconds),
    ])
  }

  /// Why a review's JSON could not be read back.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without a file name.
    public var message: String
    public var description: String { message }
  }

  /// Reads a report ``encode(_:)`` wrote.
  ///
  /// - Throws: When the bytes are not JSON, not of this format and version, or a member is
  ///   missing or of the wrong type (the message names it).
  public static func read(_ bytes: [UInt8]) throws(Failure) -> ReviewReport {
    let root: MiniJSON.Value
    do { root = try MiniJSON.parse(bytes) } catch { throw Failure(message: "not JSON (at byte \(error.offset))") }
    guard root["format"]?.string == format else { throw Failure(message: "not a review report (format is not '\(format)')") }
    guard root["version"]?.number == Double(version) else { throw Failure(message: "review report version is not \(version)") }
    let since = try int(root["window"]?["sinceSeconds"], "window.sinceSeconds")
    let until = try int(root["window"]?["untilSeconds"], "window.untilSeconds")
    guard since <= until else { throw Failure(message: "window.sinceSeconds is after window.untilSeconds") }
    var devices: [ReviewDevice] = []
    for (k, d) in (root["devices"]?.array ?? []).enumerated() {
      let at = "devices[\(k)]"
      let status: ReviewDevice.Status
      switch try string(d["status"], at + ".status") {
      case "changed": status = .changed
      case "unchanged": status = .unchanged
      case "failed": status = .failed(try string(d["reason"], at + ".reason"))
      case let other: throw Failure(message: "\(at).status: unknown status '\(other)'")
      }
      var batches: [ReviewBatch] = []
      for (j, b) in (d["batches"]?.array ?? []).enumerated() {
        let bat = "\(at).batches[\(j)]"
        var findings: [ReviewFinding] = []
        for (i, f) in (b["findings"]?.array ?? []).enumerated() {
          let fat = "\(bat).findings[\(i)]"
          guard let severity = Severity(rawValue: try string(f["severity"], fat + ".severity")) else {
            throw Failure(message: "\(fat).severity: not info, warning or error")
          }
          findings.append(
            ReviewFinding(
              rule: try string(f["rule"], fat + ".rule"), severity: severity, message: try string(f["message"], fat + ".message"),
              hint: try string(f["hint"], fat + ".hint"), path: try string(f["path"], fat + ".path")))
        }
        var blame: [ReviewBlame] = []
        for (i, x) in (b["blame"]?.array ?? []).enumerated() {
          let xat = "\(bat).blame[\(i)]"
          blame.append(
            ReviewBlame(
              statement: try string(x["statement"], xat + ".statement"), change: try string(x["change"], xat + ".change"),
              commit: try int(x["commit"], xat + ".commit"), oldestCommit: try int(x["oldestCommit"], xat + ".oldestCommit"),
              isBoundary: x["boundary"]?.bool ?? false, user: x["user"]?.string, instant: x["seconds"]?.number.map { Int64($0) }))
        }
        batches.append(
          ReviewBatch(
            author: try string(b["author"], bat + ".author"), commits: try commits(b["commits"], bat), diff: b["diff"]?.string,
            findings: findings, blame: blame, note: b["note"]?.string))
      }
      devices.append(
        ReviewDevice(
          name: try string(d["name"], at + ".name"), kind: try string(d["kind"], at + ".kind"),
          location: try string(d["location"], at + ".location"), status: status, commits: try commits(d["commits"], at),
          batches: batches, notes: (d["notes"]?.array ?? []).compactMap(\.string)))
    }
    return ReviewReport(window: ReviewWindow(since: Int64(since), until: Int64(until)), devices: devices)
  }

  static func commits(_ v: MiniJSON.Value?, _ at: String) throws(Failure) -> [ReviewCommit] {
    var out: [ReviewCommit] = []
    for (i, c) in (v?.array ?? []).enumerated() {
      let cat = "\(at).commits[\(i)]"
      out.append(
        ReviewCommit(
          rollback: try int(c["rollback"], cat + ".rollback"), instant: c["seconds"]?.number.map { Int64($0) },
          user: try string(c["user"], cat + ".user"), client: try string(c["client"], cat + ".client"), comment: c["comment"]?.string))
    }
    return out
  }

  static func string(_ v: MiniJSON.Value?, _ name: String) throws(Failure) -> String {
    guard let s = v?.string else { throw Failure(message: "\(name): missing or not a string") }
    return s
  }

  static func int(_ v: MiniJSON.Value?, _ name: String) throws(Failure) -> Int {
    guard let n = v?.number, n == n.rounded(), abs(n) < 9e15 else { throw Failure(message: "\(name): missing or not an integer") }
    return Int(n)
  }
}

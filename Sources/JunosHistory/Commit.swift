/// One entry of `show system commit`.
public struct Commit: Sendable, Hashable {
  /// The entry's number (0 = the active configuration's commit, higher = older); `nil` for the
  /// `rescue` entry.
  public var index: Int?
  /// The moment of the commit, seconds since 1970-01-01 UTC; `nil` while the time zone is not
  /// known (see ``CommitHistory/resolveTimes(_:)``).
  public var instant: Int64?
  /// The local date and time as printed (`2019-11-13 15:06:51`); nil for an entry nothing
  /// describes (``unknown(index:)``).
  public var localTime: LocalTime?
  /// The time zone as printed: an abbreviation (`GMT`, `BST`, `EEST`) or a numeric offset (`+03`).
  public var timeZone: String
  /// Who committed.
  public var user: String
  /// How: `cli`, `netconf`, `junoscript`, `other`, `autoinstall`, or any other word the device prints.
  public var client: String
  /// The system comment after the client (`commit confirmed, rollback in 5mins`,
  /// `commit synchronize`), if any.
  public var comment: String?
  /// The user's commit message (`commit comment "…"` or a NETCONF `<log>`), if any.
  public var log: String?
  /// For a `commit confirmed`, the minutes it gave before rolling back.
  public var confirmedMinutes: Int?
  /// The revision id (`re0-1605288042-335`) when the source gives it.
  public var revision: String?
  /// Where the entry is in its source (1-based line), 0 when unknown.
  public var line: Int
  /// For a commit read from backups: the backups that recorded its configuration, and so the
  /// span it may stand for (other commits in it were not recorded). nil otherwise.
  public var backup: BackupSpan? = nil

  /// Creates an entry.
  public init(
    index: Int?, localTime: LocalTime?, timeZone: String, user: String, client: String, comment: String? = nil, log: String? = nil,
    instant: Int64? = nil, revision: String? = nil, line: Int = 0
  ) {
    self.index = index
    self.localTime = localTime
    self.timeZone = timeZone
    self.user = user
    self.client = client
    self.comment = comment
    self.log = log
    self.instant = instant
    self.revision = revision
    self.line = line
    self.confirmedMinutes = comment.flatMap(Commit.confirmedMinutes(in:))
  }

  /// The user of an entry nothing describes (no Junos user name can be `?`).
  public static let unknownUser = "?"

  /// Commit `index` when nothing says who made it or when: its rollback is missing from the
  /// saved files, or was saved without its `## Last commit` header. It still counts as a commit,
  /// so batches and ranges do not close over it: `user` is ``unknownUser``, `localTime` and
  /// `instant` nil, `timeZone` and `client` empty.
  public static func unknown(index: Int) -> Commit {
    Commit(index: index, localTime: nil, timeZone: "", user: unknownUser, client: "")
  }

  /// Whether the source describes this entry (false for ``unknown(index:)``).
  public var isKnown: Bool { localTime != nil }

  /// The minutes of a `commit confirmed, rollback in Nmins` comment.
  static func confirmedMinutes(in comment: String) -> Int? {
    let prefix = "commit confirmed, rollback in "
    guard comment.hasPrefix(prefix) else { return nil }
    let rest = comment.dropFirst(prefix.count)
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix("min") else { return nil }
    return Int(digits)
  }
}

/// A date and time without a zone, as the device prints it.
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int

  /// Creates a local time (fields are not range-checked here; the parsers check them).
  public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Seconds since 1970-01-01 00:00:00 if this local time were UTC.
  public var secondsAsUTC: Int64 {
    Int64(Self.daysFromCivil(year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
  static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (m + 9) % 12
    let doy = (153 * mp + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// `YYYY-MM-DD HH:MM:SS`.
  public var description: String {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
  }

  public static func < (a: LocalTime, b: LocalTime) -> Bool { a.secondsAsUTC < b.secondsAsUTC }
}

/// An instant as `YYYY-MM-DDTHH:MM:SSZ`.
public func iso8601UTC(_ seconds: Int64) -> String {
  var days = seconds / 86_400
  var rem = seconds % 86_400
  if rem < 0 {
    rem += 86_400
    days -= 1
  }
  // civil_from_days (H. Hinnant)
  let z = Int(days) + 719_468
  let era = (z >= 0 ? z : z - 146_096) / 146_097
  let doe = z - era * 146_097
  let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
  let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
  let mp = (5 * doy + 2) / 153
  let d = doy - (153 * mp + 2) / 5 + 1
  let m = mp < 10 ? mp + 3 : mp - 9
  let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
  let t = LocalTime(year: y, month: m, day: d, hour: Int(rem / 3600), minute: Int(rem % 3600 / 60), second: Int(rem % 60))
  return t.description.replacing(" ", with: "T") + "Z"
}

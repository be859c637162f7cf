/// What commits X..Y did, in Junos's numbering.
///
/// Junos numbers commits newest first: commit 0 made the active configuration (rollback 0), and
/// rollback N is the configuration commit N produced. The changes of commits X..Y (X the older,
/// higher number) are therefore the difference from rollback X+1 (the configuration before the
/// oldest of them) to rollback Y: on the device, `show system rollback Y compare X+1`. Commits
/// 28..31 are `show system rollback 28 compare 32`. The device keeps rollbacks 0–49, so what
/// commit 49 did cannot be shown: there is no rollback 50.
public struct CommitRange: Sendable, Hashable, CustomStringConvertible {
  /// The older end (the higher index).
  public let older: Int
  /// The newer end (the lower index).
  public let newer: Int

  /// The range between two commits, given in either order.
  public init(_ a: Int, _ b: Int) {
    older = max(a, b)
    newer = min(a, b)
  }

  /// The rollback the range starts from: the configuration before its oldest commit.
  public var baseRollback: Int { older + 1 }
  /// The rollback the range ends at.
  public var resultRollback: Int { newer }
  /// Number of commits in the range.
  public var count: Int { older - newer + 1 }
  /// The highest rollback a device keeps (`show system rollback 0`–`49`).
  public static let highestDeviceRollback = 49

  /// The on-box command that shows the same difference. A range whose base is past the rollbacks
  /// a device keeps (it reaches commit 49) cannot be compared on the box as a whole: the command
  /// given then shows what can be (the range without its oldest commits) and says so, e.g.
  /// `show system rollback 47 compare 49 (commits 48..47 only: rollback 50, before commit 49, is not kept on the box)`.
  public var deviceCommand: String {
    let top = Self.highestDeviceRollback
    guard baseRollback > top else { return "show system rollback \(newer) compare \(baseRollback)" }
    let missing = "rollback \(baseRollback), before commit \(older), is not kept on the box"
    guard newer < top else { return "(no on-box command: \(missing))" }
    return "show system rollback \(newer) compare \(top) (commits \(CommitRange(top - 1, newer)) only: \(missing))"
  }

  /// Why the range cannot be shown when only rollbacks `0...highest` exist, or nil.
  public func unavailable(highestRollback: Int) -> String? {
    guard baseRollback > highestRollback else { return nil }
    return "the changes of commit \(older) need rollback \(baseRollback), the configuration before it, which "
      + (highestRollback == Self.highestDeviceRollback
        ? "the device does not keep (rollbacks 0–49)" : "is not available (rollbacks 0–\(highestRollback))")
  }

  /// `31..28`.
  public var description: String { "\(older)..\(newer)" }
}

/// Consecutive commits by one user.
public struct Batch: Sendable, Hashable {
  /// Who made them.
  public var user: String
  /// The commits, oldest first.
  public var commits: [Commit]
  /// The range they span.
  public var range: CommitRange { CommitRange(commits.first?.index ?? 0, commits.last?.index ?? 0) }
  /// The first commit's instant, if placed.
  public var start: Int64? { commits.first?.instant }
  /// The last commit's instant, if placed.
  public var end: Int64? { commits.last?.instant }
  /// Whether its commits were read from backups (``Commit/backup``): each may stand for more
  /// commits than the backups recorded.
  public var isFromBackups: Bool { commits.contains { $0.backup != nil } }
  /// The on-box command that shows what the batch did (``CommitRange/deviceCommand``); nil when
  /// it was read from backups without the device's listing: its numbers are then the backups',
  /// not the box's.
  public var deviceCommand: String? { isFromBackups ? nil : range.deviceCommand }
  /// What is said in place of the on-box command for commits numbered by backups.
  public static let numberedByBackups = "(from backups, numbered by them: may include commits no backup recorded)"
}

extension CommitHistory {
  /// The batches of the listing, oldest first: runs of consecutive commits by the same user,
  /// also split where two of a user's commits are more than `gap` seconds apart.
  public func batches(gap: Int64? = nil) -> [Batch] {
    var out: [Batch] = []
    let oldestFirst = commits.filter { $0.index != nil }.sorted { $0.index! > $1.index! }
    for c in oldestFirst {
      if var last = out.last, last.user == c.user, let prev = last.commits.last, prev.index! == c.index! + 1,
        !(gap.map { g in (prev.instant.flatMap { p in c.instant.map { $0 - p } } ?? 0) > g } ?? false)
      {
        last.commits.append(c)
        out[out.count - 1] = last
      } else {
        out.append(Batch(user: c.user, commits: [c]))
      }
    }
    return out
  }
}

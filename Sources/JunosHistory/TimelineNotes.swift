/// A `commit confirmed` that had not been confirmed when the listing was taken: the device rolls
/// it back at its deadline unless a `commit` (or `commit check`) confirms it first.
public struct PendingConfirmation: Sendable, Hashable {
  /// The `commit confirmed` entry: commit 0 with a `commit confirmed, rollback in Nmins`
  /// comment; nil when only the listing's notice tells of it.
  public var commit: Commit?
  /// The minutes the `commit confirmed` gave, from its comment.
  public var minutes: Int?
  /// When the device rolls it back (seconds since 1970 UTC): the commit's instant plus its
  /// minutes, when both are known.
  public var deadline: Int64?
  /// The minutes left when the listing was captured, from its notice (`# commit confirmed will
  /// be rolled back in N minutes`), if it has one.
  public var minutesLeft: Int?

  /// `commit 0 by pytraining (commit confirmed, rollback in 10mins) is rolled back at
  /// 2018-01-23 10:51:11 UTC unless it is confirmed`, or, from the notice alone, `a commit
  /// confirmed is rolled back 10 minutes after the listing was captured unless it is confirmed`.
  public var summary: String {
    var s: String
    if let commit {
      s = "commit \(commit.index.map(String.init) ?? "rescue") by \(commit.user)"
      if let comment = commit.comment { s += " (\(comment))" }
      if let deadline {
        s += " is rolled back at \(iso8601UTC(deadline).replacing("T", with: " ").dropLast()) UTC"
      } else {
        s += " is rolled back \(minutes.map { "\($0) minutes after it was made" } ?? "at its deadline")"
        s += " (its time is not placed)"
      }
    } else {
      s = "a commit confirmed is rolled back"
      s += minutesLeft.map { " \($0) minute\($0 == 1 ? "" : "s") after the listing was captured" } ?? " at its deadline"
    }
    return s + " unless it is confirmed"
  }
}

extension CommitHistory {
  /// The `commit confirmed` still waiting to be confirmed, if any: commit 0 when its comment is
  /// `commit confirmed, rollback in Nmins` (no later commit has confirmed it), or the listing's
  /// notice (``rollbackNoticeMinutes``) when commit 0 does not say.
  public var pendingConfirmation: PendingConfirmation? {
    if let c = commit(0), let minutes = c.confirmedMinutes {
      return PendingConfirmation(
        commit: c, minutes: minutes, deadline: c.instant.map { $0 + Int64(minutes) * 60 }, minutesLeft: rollbackNoticeMinutes)
    }
    guard let left = rollbackNoticeMinutes else { return nil }
    return PendingConfirmation(commit: nil, minutes: nil, deadline: nil, minutesLeft: left)
  }

  /// The commit numbers missing from the batches' listing, oldest first: each run of numbers
  /// between two listed commits that no entry has (entries 10–19 cut from a capture are
  /// `19..10`), and the newest numbers when commit 0 is not listed (`2..0` before commit 3).
  public static func numberingGaps(_ batches: [Batch]) -> [CommitRange] {
    let listed = batches.flatMap { $0.commits.compactMap(\.index) }.sorted(by: >)
    var gaps: [CommitRange] = []
    for (older, newer) in zip(listed, listed.dropFirst()) where older - newer > 1 {
      gaps.append(CommitRange(older - 1, newer + 1))
    }
    if let newest = listed.last, newest > 0 { gaps.append(CommitRange(newest - 1, 0)) }
    return gaps
  }

  /// The batches, newest first, with each numbering gap (``numberingGaps(_:)``) in its place.
  public static func batchesAndGapsNewestFirst(_ batches: [Batch]) -> [BatchOrGap] {
    let items = batches.map(BatchOrGap.batch) + numberingGaps(batches).map(BatchOrGap.gap)
    return items.sorted { $0.range.newer < $1.range.newer }
  }
}

/// A line of the timeline's batch list: a batch, or a run of commit numbers not listed.
public enum BatchOrGap: Sendable, Hashable {
  /// A batch of commits.
  case batch(Batch)
  /// Commit numbers the listing does not have.
  case gap(CommitRange)

  /// The commits the line covers.
  public var range: CommitRange {
    switch self {
    case .batch(let b): b.range
    case .gap(let r): r
    }
  }
}

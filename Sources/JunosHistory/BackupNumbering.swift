/// What one configuration recorded by backups stands for: the backup that first recorded it, and
/// the span of time in which the Junos commit (or commits) that made it happened.
///
/// A backup tool takes the configuration now and then, so a recorded configuration is the
/// result of every commit since the previous backup. The device's `## Last commit` header names
/// only the last of them; the others — if any — were made after ``after`` and are not recorded.
public struct BackupSpan: Sendable, Hashable {
  /// The id of the backup commit that first recorded the configuration (40 hex digits).
  public var backup: String
  /// When that backup was committed (seconds since 1970, UTC): the Junos commit was before it.
  public var time: Int64
  /// When the last backup of the configuration before it was committed: the Junos commit (and
  /// any unrecorded ones) came after it. nil for the oldest configuration recorded.
  public var after: Int64?
  /// Whether the configuration differs from the one recorded before it (false: only its
  /// `## Last commit` header moved, a commit that changed nothing).
  public var configurationChanged: Bool

  /// Creates a span.
  public init(backup: String, time: Int64, after: Int64?, configurationChanged: Bool) {
    self.backup = backup
    self.time = time
    self.after = after
    self.configurationChanged = configurationChanged
  }

  /// `backup 3f2a9c1 2024-09-27 18:00:00Z, with any commits not backed up since the backup of
  /// 2024-09-26 06:00:00Z` (`…; configuration unchanged` for a header-only change).
  public var summary: String {
    var s = "backup \(backup.prefix(7)) \(HistoryTime.utc(self.time)), with any commits not backed up since "
    s += after.map { "the backup of \(HistoryTime.utc($0))" } ?? "before the first backup"
    if !configurationChanged { s += "; configuration unchanged" }
    return s
  }
}

/// One configuration recorded by backups, before it is numbered.
public struct RecordedState: Sendable {
  /// The commit its `## Last commit` header names (index unset), nil without one.
  public var header: Commit?
  /// The backups that recorded it.
  public var span: BackupSpan
  /// When the last backup that still held it was committed (a later backup whose file changed
  /// only in the tool's own lines, or the first one).
  public var lastSeen: Int64

  /// Creates a state.
  public init(header: Commit?, span: BackupSpan, lastSeen: Int64) {
    self.header = header
    self.span = span
    self.lastSeen = lastSeen
  }
}

/// How configurations recorded by backups get commit numbers — the one place that decides it.
///
/// **Without a commit listing** the recorded states are the rollbacks, newest first: the newest
/// is rollback 0, the one before it rollback 1, and so on. Commit `k` is what made rollback `k`:
/// the commit its `## Last commit` header names (a header that moved over an unchanged
/// configuration is a commit that changed nothing: listed, its difference empty), or, without a
/// header (RANCID drops it), a commit nobody is named for, whose time is only bounded by the
/// backups. Commit `k` stands for every commit between the backups around it
/// (``BackupSpan``): `diff 3..1` is the difference between recorded configurations, whatever
/// commits no backup saw in between.
///
/// **With the device's commit listing** (`show system commit`, numbered as the box numbers
/// them) each recorded state takes the number of the listing's commit that made it, so that
/// `diff 31..28` means the box's commits: a state with a header takes the entry with the same
/// user and time; one without takes the newest entry at or before its backup, which must come
/// after the previous backup (otherwise the configuration changed without a listed commit).
/// States older than the listing's oldest entry cannot be numbered and are left out, with a
/// note; a state the listing should hold but does not is an error (the listing is another
/// device's, or older than the backups). Numbers the backups did not record are missing
/// rollbacks, as in a folder with gaps.
public enum BackupNumbering {
  /// Numbers without a listing: state `k` (newest first) is rollback `k`.
  public static func recorded(_ states: [RecordedState]) -> [Int] { Array(states.indices) }

  /// Numbers from a listing, newest first (nil: older than the listing, left out), and notes.
  ///
  /// - Parameters:
  ///   - states: The recorded states, newest first, their headers' times placed.
  ///   - listing: The device's commit list, times placed.
  ///   - name: The backup file, for messages.
  ///   - listingName: The listing, for messages.
  /// - Throws: When a state the listing should hold matches none of its entries, or two states
  ///   match entries out of order.
  public static func aligned(_ states: [RecordedState], to listing: CommitHistory, name: String, listingName: String) throws(StoreError)
    -> (numbers: [Int?], notes: [String])
  {
    let entries = listing.commits.filter { $0.index != nil && $0.instant != nil }
    guard let oldest = entries.min(by: { $0.instant! < $1.instant! }) else {
      throw StoreError("'\(listingName)' has no commit with a placed time to number the backups of '\(name)' by")
    }
    var numbers: [Int?] = []
    var left: [String] = []
    for (k, s) in states.enumerated() {
      let backup = "backup \(s.span.backup.prefix(7)) (\(HistoryTime.utc(s.span.time)))"
      if let h = s.header, let t = h.instant {
        if let e = entries.first(where: { $0.user == h.user && $0.instant == t }) {
          numbers.append(e.index)
          continue
        }
        if t < oldest.instant! {
          numbers.append(nil)
          left.append(backup)
          continue
        }
        throw StoreError(
          "'\(listingName)' does not list the commit \(backup) of '\(name)' records (\(HistoryTime.utc(t)) by \(h.user)): it is not this device's listing, or not as new as the backups"
        )
      }
      // No header: the newest listed commit before the backup made it, if it came after the
      // backup before.
      let before = entries.filter { $0.instant! <= s.span.time }
      guard let e = before.max(by: { $0.instant! < $1.instant! }) else {
        numbers.append(nil)
        left.append(backup)
        continue
      }
      let previous = k + 1 < states.count ? states[k + 1].lastSeen : nil
      if let previous, e.instant! <= previous {
        throw StoreError(
          "\(backup) of '\(name)' holds a new configuration, but '\(listingName)' lists no commit between it and the backup of \(HistoryTime.utc(previous))"
        )
      }
      numbers.append(e.index)
    }
    // Newer states take smaller numbers.
    let given = numbers.compactMap { $0 }
    for (a, b) in zip(given, given.dropFirst()) where a >= b {
      throw StoreError(
        "the backups of '\(name)' and '\(listingName)' disagree: two recorded configurations are commit \(b) and \(a) in that order")
    }
    var notes: [String] = []
    if !left.isEmpty {
      notes.append(
        "\(left.count) backup\(left.count == 1 ? "" : "s") of '\(name)' older than the oldest commit of '\(listingName)' left out: \(left.joined(separator: ", "))"
      )
    }
    return (numbers, notes)
  }
}

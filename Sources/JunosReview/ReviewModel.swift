public import JunosChecklist
public import JunosConfig
public import JunosHistory

/// The time window of a review: UTC instants (seconds since 1970), both ends included.
public struct ReviewWindow: Sendable, Hashable {
  /// The first second of the window.
  public var since: Int64
  /// The last second of the window.
  public var until: Int64

  /// Creates a window; `since` must not be after `until`.
  public init(since: Int64, until: Int64) {
    precondition(since <= until, "a review window starts before it ends")
    self.since = since
    self.until = until
  }

  /// Whether an instant is in the window.
  public func contains(_ instant: Int64) -> Bool { instant >= since && instant <= until }
}

/// One device's history to review: where it is kept, and how to open it. The store is opened
/// by the review itself, so a source that cannot be opened is reported as a failed device.
public struct ReviewSource: Sendable {
  /// The device's name (a bundle's host, a folder's name, a git backup file's device).
  public var device: String
  /// What kind of source it is, as a label: `bundle`, `rollbacks`, `git`, `host`.
  public var kind: String
  /// The source as given (a folder, a repository, a host), for the report's list of sources.
  public var location: String
  /// A commit list read apart from the store (nil: the store's own, or the rollbacks' headers).
  public var listing: SourceFile?
  /// Where the listing's times are placed.
  public var zone: TimePlacement.Zone
  /// Opens the store; called once, on any thread.
  public var open: @Sendable () throws(StoreError) -> any RollbackStore

  /// Creates a source.
  public init(
    device: String, kind: String, location: String, listing: SourceFile? = nil, zone: TimePlacement.Zone = .offset(nil),
    open: @escaping @Sendable () throws(StoreError) -> any RollbackStore
  ) {
    self.device = device
    self.kind = kind
    self.location = location
    self.listing = listing
    self.zone = zone
    self.open = open
  }

  /// A source whose store is already open.
  public init(device: String, kind: String, location: String, store: any RollbackStore, zone: TimePlacement.Zone = .offset(nil)) {
    self.init(device: device, kind: kind, location: location, zone: zone) { () throws(StoreError) in store }
  }
}

/// A commit in a review: its rollback number on the device (or among the backups) and what the
/// listing says of it.
public struct ReviewCommit: Sendable, Hashable {
  /// Its rollback number when the history was read.
  public var rollback: Int
  /// When it was made (UTC seconds); nil when nothing says.
  public var instant: Int64?
  /// Who made it (``Commit/unknownUser`` when nothing says).
  public var user: String
  /// How (`cli`, `netconf`, …); empty when unknown.
  public var client: String
  /// Its comment (the user's log message, else the system's comment), if any.
  public var comment: String?

  /// Creates a commit.
  public init(rollback: Int, instant: Int64?, user: String, client: String, comment: String?) {
    self.rollback = rollback
    self.instant = instant
    self.user = user
    self.client = client
    self.comment = comment
  }

  /// The commit as a review lists it.
  public init(_ c: Commit) {
    // The user's words (`commit comment "…"`, the listing's indented line) first, else the
    // system's (`commit confirmed, rollback in 5mins`).
    let log = c.log.flatMap { $0.isEmpty ? nil : $0 }
    self.init(rollback: c.index ?? 0, instant: c.instant, user: c.user, client: c.client, comment: log ?? c.comment)
  }
}

/// A checklist finding on a batch, as a review reports it (no file positions: the change was
/// read from a history, not a file the reader has at hand).
public struct ReviewFinding: Sendable, Hashable {
  /// The rule's id (`term-match-conditions-removed`…).
  public var rule: String
  /// How serious it is.
  public var severity: Severity
  /// What the rule found.
  public var message: String
  /// What to do about it (may be empty).
  public var hint: String
  /// The statement it is about, in `set` form without `set` (may be empty).
  public var path: String

  /// Creates a finding.
  public init(rule: String, severity: Severity, message: String, hint: String, path: String) {
    self.rule = rule
    self.severity = severity
    self.message = message
    self.hint = hint
    self.path = path
  }

  /// The finding of a lint.
  public init(_ f: Finding) {
    self.init(rule: f.rule.rawValue, severity: f.severity, message: f.message, hint: f.hint, path: f.path)
  }

  /// Whether it makes its batch risky: a warning or an error.
  public var isRisky: Bool { severity >= .warning }
}

/// For a statement a batch changed or deleted: the earlier commit that last touched it.
public struct ReviewBlame: Sendable, Hashable {
  /// The statement, in `set` form without `set`, secrets masked.
  public var statement: String
  /// What the batch did to it: `deleted`, `changed`, `moved`, `flags`, `annotation`.
  public var change: String
  /// The newest commit it can be from (rollback number).
  public var commit: Int
  /// The oldest commit it can be from (`commit` unless rollbacks were missing).
  public var oldestCommit: Int
  /// Whether it was already in the oldest configuration read: from that commit or earlier.
  public var isBoundary: Bool
  /// Who made ``commit``, when the listing says.
  public var user: String?
  /// When, when the listing says.
  public var instant: Int64?

  /// Creates an attribution.
  public init(
    statement: String, change: String, commit: Int, oldestCommit: Int, isBoundary: Bool, user: String?, instant: Int64?
  ) {
    self.statement = statement
    self.change = change
    self.commit = commit
    self.oldestCommit = oldestCommit
    self.isBoundary = isBoundary
    self.user = user
    self.instant = instant
  }

  /// The commit as a report says it: `commit 5`, `commits 5..7` (a rollback was missing between
  /// them), or `commit 9 or earlier` (already in the oldest configuration read).
  public var commitText: String {
    if isBoundary { return "commit \(commit) or earlier" }
    return commit == oldestCommit ? "commit \(commit)" : "commits \(commit)..\(oldestCommit)"
  }
}

/// Consecutive commits by one author in the window, and what they did together.
public struct ReviewBatch: Sendable, Hashable {
  /// Who made them.
  public var author: String
  /// The commits, oldest first.
  public var commits: [ReviewCommit]
  /// The difference from the configuration before the first commit to the one after the last,
  /// in Junos `[edit …]` form, secrets masked; empty when they changed nothing, nil when it
  /// could not be computed (``note`` says why).
  public var diff: String?
  /// The checklist's findings on the change.
  public var findings: [ReviewFinding]
  /// The earlier commits that last touched the statements the batch changed or deleted.
  public var blame: [ReviewBlame]
  /// Why something is missing (a configuration not available), if anything is.
  public var note: String?

  /// Creates a batch.
  public init(
    author: String, commits: [ReviewCommit], diff: String?, findings: [ReviewFinding], blame: [ReviewBlame], note: String? = nil
  ) {
    self.author = author
    self.commits = commits
    self.diff = diff
    self.findings = findings
    self.blame = blame
    self.note = note
  }

  /// Whether any finding is a warning or an error.
  public var isRisky: Bool { findings.contains { $0.isRisky } }
}

/// One device's part of a review.
public struct ReviewDevice: Sendable, Hashable {
  /// What the review found.
  public enum Status: Sendable, Hashable {
    /// Its configuration changed in the window.
    case changed
    /// Nothing changed in the window (it may still list commits that changed nothing).
    case unchanged
    /// Its history could not be read: the reason.
    case failed(String)

    /// `changed`, `unchanged` or `failed`.
    public var label: String {
      switch self {
      case .changed: "changed"
      case .unchanged: "unchanged"
      case .failed: "failed"
      }
    }
  }

  /// The device's name.
  public var name: String
  /// The kind of source (``ReviewSource/kind``).
  public var kind: String
  /// The source as given (``ReviewSource/location``).
  public var location: String
  /// What the review found.
  public var status: Status
  /// Its commits in the window, oldest first.
  public var commits: [ReviewCommit]
  /// Those commits in batches by author, oldest first.
  public var batches: [ReviewBatch]
  /// Things the reader said about the history (composed rollbacks, unknown authors).
  public var notes: [String]

  /// Creates a device's review.
  public init(
    name: String, kind: String, location: String, status: Status, commits: [ReviewCommit] = [], batches: [ReviewBatch] = [],
    notes: [String] = []
  ) {
    self.name = name
    self.kind = kind
    self.location = location
    self.status = status
    self.commits = commits
    self.batches = batches
    self.notes = notes
  }

  /// Whether any batch is risky.
  public var isRisky: Bool { batches.contains { $0.isRisky } }
}

/// What a review found over every source: devices sorted by name.
public struct ReviewReport: Sendable, Hashable {
  /// The window reviewed.
  public var window: ReviewWindow
  /// The devices, sorted by name (then kind and location).
  public var devices: [ReviewDevice]

  /// Creates a report; the devices are sorted.
  public init(window: ReviewWindow, devices: [ReviewDevice]) {
    self.window = window
    self.devices = devices.sorted { ($0.name, $0.kind, $0.location) < ($1.name, $1.kind, $1.location) }
  }

  /// The sources reviewed, `kind location`, sorted, each once.
  public var sources: [String] { Array(Set(devices.map { "\($0.kind) \($0.location)" })).sorted() }
  /// `5 devices: 4 changed, 1 failed; 2 risky batches.`, the report's first line.
  public var summary: String {
    let changed = devices.filter { $0.status == .changed }.count
    let risky = devices.reduce(0) { $0 + $1.batches.filter(\.isRisky).count }
    return "\(devices.count) device\(devices.count == 1 ? "" : "s"): \(changed) changed, \(failed.count) failed; "
      + "\(risky) risky batch\(risky == 1 ? "" : "es")."
  }

  /// The devices whose history could not be read.
  public var failed: [ReviewDevice] { devices.filter { if case .failed = $0.status { true } else { false } } }

  /// Joins reports of the same window (shards of one review) into one.
  ///
  /// - Returns: nil when the windows differ.
  public static func merge(_ reports: [ReviewReport]) -> ReviewReport? {
    guard let first = reports.first else { return nil }
    guard reports.allSatisfy({ $0.window == first.window }) else { return nil }
    return ReviewReport(window: first.window, devices: reports.flatMap(\.devices))
  }
}

/// Which shard of `count` a device belongs to (0-based): FNV-1a of its name. `ci --shard` uses
/// the same hash over file paths, so one function decides every split.
public enum ReviewShard {
  /// 64-bit FNV-1a of a string's UTF-8 bytes.
  public static func hash(_ s: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in s.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
  }

  /// Whether `name` falls in shard `k` (1-based) of `n`.
  public static func contains(_ name: String, shard k: Int, of n: Int) -> Bool { Int(hash(name) % UInt64(n)) == k - 1 }
}

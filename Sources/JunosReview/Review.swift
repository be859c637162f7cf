internal import Dispatch
public import JunosChecklist
public import JunosConfig
public import JunosDiff
public import JunosHistory
internal import Synchronization

/// How a review reads and judges the histories.
public struct ReviewOptions: Sendable {
  /// Keywords and statement shapes, for parsing, matching and rendering.
  public var model: ConfigModel
  /// The checklist's options for each batch.
  public var lint: LintOptions
  /// Devices reviewed at once (at least 1).
  public var workers: Int

  /// Creates options.
  public init(model: ConfigModel = .standard, lint: LintOptions = LintOptions(), workers: Int = 2) {
    self.model = model
    self.lint = lint
    self.workers = workers
  }
}

/// The outage review: for every source, the device's commits in a window, its batches by
/// author, each batch's diff, the checklist's findings on it, and the earlier commits that last
/// touched what it changed. Reads the histories through ``HistoryReader``; prints nothing.
public enum Review {
  /// Reviews every source, `options.workers` devices at a time.
  ///
  /// - Parameters:
  ///   - window: The time window.
  ///   - sources: The devices' histories.
  ///   - options: Model, checklist options, concurrency.
  ///   - progress: Called (on any thread) as each device is done, with its review.
  /// - Returns: The report, devices sorted by name. A source that cannot be read is a failed
  ///   device, never an unchanged one.
  public static func run(
    window: ReviewWindow, sources: [ReviewSource], options: ReviewOptions = ReviewOptions(),
    progress: @Sendable (ReviewDevice) -> Void = { _ in }
  ) -> ReviewReport {
    let results = Mutex<[ReviewDevice?]>(Array(repeating: nil, count: sources.count))
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(options.workers, sources.count))) { _ in
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < sources.count else { return }
        let d = device(sources[i], window: window, options: options)
        results.withLock { $0[i] = d }
        progress(d)
      }
    }
    return ReviewReport(window: window, devices: results.withLock { $0.compactMap { $0 } })
  }

  /// One device's review; a failure to read is its status.
  public static func device(_ source: ReviewSource, window: ReviewWindow, options: ReviewOptions = ReviewOptions()) -> ReviewDevice {
    do throws(StoreError) {
      return try read(source, window: window, options: options)
    } catch {
      return ReviewDevice(name: source.device, kind: source.kind, location: source.location, status: .failed(error.message))
    }
  }

  static func read(_ source: ReviewSource, window: ReviewWindow, options: ReviewOptions) throws(StoreError) -> ReviewDevice {
    let store = try source.open()
    var reader = HistoryReader(store: store, listing: source.listing, model: options.model, zone: source.zone)
    guard let history = try reader.history() else {
      let errors = reader.diagnostics.filter { $0.severity == .error }.map(\.message)
      throw StoreError("the commit list of '\(store.name)' has errors: \(errors.joined(separator: "; "))")
    }
    let inWindow = history.commits.filter { c in c.index != nil && c.instant.map(window.contains) == true }
    let batches = CommitHistory(commits: inWindow).batches()
    let reviewed = try Self.batches(batches, history: history, reader: &reader, options: options)
    let changed = reviewed.contains { $0.diff != "" }
    var notes = reader.drain().notes
    notes += store.notes
    return ReviewDevice(
      name: source.device, kind: source.kind, location: source.location, status: changed ? .changed : .unchanged,
      commits: inWindow.sorted { $0.index! > $1.index! }.map(ReviewCommit.init), batches: reviewed, notes: notes)
  }

  /// Reads the chain of configurations from the oldest the store has to the newest a batch
  /// needs, carrying blame along, and makes each batch's review (``batch(_:before:after:history:options:)``)
  /// as its last configuration is reached.
  static func batches(
    _ batches: [Batch], history: CommitHistory, reader: inout HistoryReader, options: ReviewOptions
  ) throws(StoreError) -> [ReviewBatch] {
    guard let newest = batches.map(\.range.resultRollback).min() else { return [] }
    let oldest = reader.highestRollback
    let diffOptions = DiffOptions(model: options.model)
    var blame: Blame? = nil
    // The blame as it stood at each batch's base rollback, until the batch's result is read.
    var atBase: [Int: Blame] = [:]
    var out: [ReviewBatch?] = Array(repeating: nil, count: batches.count)
    // The checklist's states of the rollbacks batches end at: the next batch starts there.
    var states: [Int: Checklist.State] = [:]
    // The batches by the rollback they start from and the one they end at (a one-commit batch
    // starts at n + 1 and ends at n, so its start is always reached first).
    let startingAt = Dictionary(grouping: batches.indices, by: { batches[$0].range.baseRollback })
    let endingAt = Dictionary(grouping: batches.indices, by: { batches[$0].range.resultRollback })
    if oldest >= newest {
      for n in stride(from: oldest, through: newest, by: -1) {
        guard let tree = try load(n, reader: &reader) else { continue }
        // The step's comparison, from the rollback read before: a one-commit batch's diff.
        var step: (from: Int, diff: ConfigDiff)? = nil
        if var b = blame {
          step = (b.rollback, b.advance(to: tree, rollback: n))
          blame = b
        } else {
          blame = Blame(oldest: tree, rollback: n, options: diffOptions)
        }
        for k in startingAt[n] ?? [] { atBase[k] = blame }
        for k in endingAt[n] ?? [] {
          guard let before = atBase.removeValue(forKey: k) else { continue }
          let diff = step.flatMap { $0.from == before.rollback ? $0.diff : nil }
          out[k] = Self.batch(
            batches[k], before: before, after: tree, diff: diff, history: history, options: options, states: &states)
        }
      }
    }
    return batches.enumerated().map { k, batch in
      out[k] ?? Self.batch(batch, before: nil, after: nil, history: history, options: options)
    }
  }

  /// A rollback's configuration: read from the store's file (not kept by the reader, so memory
  /// stays at a few configurations), or composed from compare captures.
  static func load(_ n: Int, reader: inout HistoryReader) throws(StoreError) -> ConfigTree? {
    if let file = try reader.store.rollback(n) { return try HistoryReader.parse(file, model: reader.model) }
    return try reader.configuration(n)
  }

  /// One batch's review: the diff of its configurations, the checklist over them, and blame of
  /// the statements it changed or deleted. Every ``ReviewBatch`` of a review is made here, so
  /// what a batch carries is added in one place.
  ///
  /// - Parameters:
  ///   - before: The blame of the configuration before the batch (its tree is that
  ///     configuration); nil when the history does not have it.
  ///   - after: The configuration after it; nil when the history does not have it.
  ///   - diff: The comparison of `before.tree` with `after`, when already made (a one-commit
  ///     batch's is the blame's step).
  ///   - history: The device's commits, for blame's users and times.
  public static func batch(
    _ batch: Batch, before: Blame?, after: ConfigTree?,
    diff: ConfigDiff? = nil, history: CommitHistory, options: ReviewOptions
  ) -> ReviewBatch {
    var states: [Int: Checklist.State] = [:]
    return Self.batch(batch, before: before, after: after, diff: diff, history: history, options: options, states: &states)
  }

  /// ``batch(_:before:after:diff:history:options:)`` with the checklist's states of rollbacks
  /// already prepared (by rollback number): it takes the one of its first configuration from
  /// `states` and leaves only the one of its last there, for the batch that follows.
  static func batch(
    _ batch: Batch, before: Blame?, after: ConfigTree?,
    diff: ConfigDiff? = nil, history: CommitHistory, options: ReviewOptions, states: inout [Int: Checklist.State]
  ) -> ReviewBatch {
    let commits = batch.commits.map(ReviewCommit.init)
    guard let before, let after else {
      let which = batch.commits.count == 1 ? "commit \(batch.range.newer)" : "commits \(batch.range)"
      return ReviewBatch(
        author: batch.user, commits: commits, diff: nil, findings: [], blame: [],
        note: "rollback \(batch.range.baseRollback), the configuration before \(which), is not in the history: the change cannot be shown")
    }
    let diff = diff ?? ConfigDiff(from: before.tree, to: after, options: DiffOptions(model: options.model))
    let text = String(decoding: diff.renderJunos(RenderOptions(showSecrets: false, model: options.model)), as: UTF8.self)
    let range = batch.range
    var findings: [ReviewFinding] = []
    if !diff.isEmpty {
      func state(_ n: Int, _ tree: ConfigTree) -> Checklist.State {
        states[n] ?? Checklist.state(of: tree, file: SourceFile(path: "rollback \(n)", bytes: []), options: options.lint)
      }
      let from = state(range.baseRollback, before.tree)
      let to = state(range.resultRollback, after)
      states = [range.resultRollback: to]
      // Errors first: the finding that matters is read first.
      let found = Checklist.lint(from: from, to: to, options: options.lint).findings
      findings = found.indices.sorted { (found[$0].severity, $1) > (found[$1].severity, $0) }.map { ReviewFinding(found[$0]) }
    }
    var blamed: [ReviewBlame] = []
    var seen: Set<String> = []
    for g in diff.groups {
      for item in g.items {
        let old: NodeID
        let change: String
        switch item {
        case .context, .added: continue
        case .deleted(let o): (old, change) = (o, "deleted")
        case .changed(let o, _): (old, change) = (o, "changed")
        case .moved(let o, _): (old, change) = (o, "moved")
        case .flags(let o, _): (old, change) = (o, "flags")
        case .annotation(let o, _): (old, change) = (o, "annotation")
        }
        let statement = maskedPath(old, in: diff.old)
        guard seen.insert(statement).inserted else { continue }
        // A diff that merged repeated blocks compared a copy whose nodes are not the blame's.
        guard !diff.mergedDuplicates else { continue }
        let origin = before.origin(of: old)
        let by = history.commit(origin.commit)
        blamed.append(
          ReviewBlame(
            statement: statement, change: change, commit: origin.commit, oldestCommit: origin.oldestCommit,
            isBoundary: origin.isBoundary, user: by.map(\.user), instant: by?.instant))
      }
    }
    return ReviewBatch(author: batch.user, commits: commits, diff: text, findings: findings, blame: blamed)
  }

  /// A statement's path in `set` form without `set`, words quoted where needed, and everything
  /// after a secret's keyword masked.
  static func maskedPath(_ node: NodeID, in tree: ConfigTree) -> String {
    var steps: [[String]] = []
    var n: NodeID? = node
    while let x = n, x != ConfigTree.root {
      steps.append(tree.words(of: x))
      n = tree.parent(of: x)
    }
    var words: [String] = []
    for w in steps.reversed().joined() {
      if let last = words.last, SecretMasking.secretKeywords.contains(last) {
        words.append(SecretMasking.mask)
        break
      }
      let quoted = w.utf8.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x3B || $0 == 0x7B || $0 == 0x7D } || w.isEmpty
      words.append(quoted && !w.hasPrefix("\"") ? "\"\(w)\"" : w)
    }
    return words.joined(separator: " ")
  }
}

public import JunosConfig
internal import JunosDiff

/// Reads one device's history out of any ``RollbackStore``: the commit list (the store's, one
/// given beside it, or one made from the rollbacks' `## Last commit` headers), rollback
/// configurations (read, or composed from compare captures), and the two configurations a range
/// of commits is the difference of. The store's own failures and the checks made here are
/// ``StoreError``s; diagnostics of the files read (a listing's warnings, a capture's problems)
/// and notes for the user are collected in ``diagnostics`` and ``notes`` for the caller to show.
public struct HistoryReader: Sendable {
  /// Where the history is kept.
  public let store: any RollbackStore
  /// The statement model configurations are parsed with.
  public let model: ConfigModel
  /// How the listing's times are placed on UTC.
  public let zone: TimePlacement.Zone
  /// A commit list given apart from the store (`--commits`), which wins over the store's.
  public let listingFile: SourceFile?
  /// Diagnostics of what was read so far (listing warnings, capture and apply problems).
  public private(set) var diagnostics: [Diagnostic] = []
  /// Things the user should be told, in the order they were found (`rollback 3 composed from
  /// rollback 5 and 2 compare captures`).
  public private(set) var notes: [String] = []

  /// How a composed rollback was made: the saved rollback it starts from and the captures applied.
  public struct Composition: Sendable, Hashable {
    /// The saved rollback.
    public var base: Int
    /// The captures' names, in the order applied.
    public var captures: [String]
    /// Creates a composition.
    public init(base: Int, captures: [String]) {
      self.base = base
      self.captures = captures
    }
  }
  /// The rollbacks composed so far.
  public private(set) var composed: [Int: Composition] = [:]
  private var trees: [Int: ConfigTree] = [:]

  /// Creates a reader.
  ///
  /// - Parameters:
  ///   - store: Where the history is kept.
  ///   - listing: A commit list given apart from the store; checked against the rollbacks.
  ///   - model: The statement model.
  ///   - zone: How times are placed.
  public init(store: any RollbackStore, listing: SourceFile? = nil, model: ConfigModel = .standard, zone: TimePlacement.Zone = .offset(nil))
  {
    self.store = store
    self.listingFile = listing
    self.model = model
    self.zone = zone
    self.notes = store.notes
  }

  /// Takes the diagnostics and notes collected so far (for the caller to print).
  public mutating func drain() -> (diagnostics: [Diagnostic], notes: [String]) {
    defer {
      diagnostics = []
      notes = []
    }
    return (diagnostics, notes)
  }

  /// The highest rollback a configuration exists or can be composed for (−1: none).
  public var highestRollback: Int {
    max(store.rollbackNumbers.max() ?? -1, store.captures.map(\.older).max() ?? -1)
  }

  // MARK: the commit list

  /// The commit list, times placed: ``listingFile`` or the store's, else one made from the
  /// rollbacks' `## Last commit` headers (``RollbackFiles/history(headers:)``: a commit whose
  /// rollback is missing or has no header is ``Commit/unknown(index:)``, and a note names them).
  /// nil when the listing has errors (they are in ``diagnostics``).
  ///
  /// - Throws: When the rollbacks have no header at all, or the listing given apart from the
  ///   store is not the rollbacks' (``check(_:listing:)``).
  public mutating func history() throws(StoreError) -> CommitHistory? {
    var given = listingFile
    if given == nil { given = try store.listing() }
    if let file = given {
      var h = CommitHistory.read(file)
      TimePlacement.place(&h, zone, file: file)
      diagnostics += h.diagnostics
      if h.hasErrors { return nil }
      if listingFile != nil || !store.listingIsWithRollbacks { try check(h, listing: file.path) }
      return h
    }
    var headers: [Int: [String]] = [:]
    for n in store.rollbackNumbers {
      if let file = try store.rollback(n) { headers[n] = RollbackFiles.headers(in: file.bytes) }
    }
    var h = RollbackFiles.history(headers: headers)
    for k in h.commits.indices { h.commits[k].backup = h.commits[k].index.flatMap(store.backupSpan(ofRollback:)) }
    let unknown = h.commits.filter { !$0.isKnown }.compactMap(\.index)
    // Backups (RANCID's drop the header) still bound each commit's time.
    let fromBackups = h.commits.contains { $0.backup != nil }
    guard unknown.count < h.commits.count || fromBackups else {
      throw StoreError("no commit list: no '## Last commit' header in the rollbacks of '\(store.name)'; give --commits FILE")
    }
    if !unknown.isEmpty && fromBackups {
      let s = unknown.count == 1 ? "" : "s"
      notes.append(
        "the backups in '\(store.name)' do not say who made commit\(s) \(Self.numberList(unknown)) (saved without '## Last commit', as RANCID saves them): shown as user '\(Commit.unknownUser)', their times bounded by the backups; give --commits FILE for the device's listing"
      )
    } else if !unknown.isEmpty {
      let s = unknown.count == 1 ? "" : "s"
      notes.append(
        "nothing in '\(store.name)' says who made commit\(s) \(Self.numberList(unknown)) or when (rollback\(s) missing or saved without '## Last commit'): shown as user '\(Commit.unknownUser)'; give --commits FILE for the whole listing"
      )
    }
    TimePlacement.place(&h, zone, file: SourceFile(path: store.name, bytes: []))
    diagnostics += h.diagnostics
    return h.hasErrors ? nil : h
  }

  /// Fails when a listing does not describe the store's rollbacks: the `## Last commit` headers
  /// of the newest and the oldest saved rollback must be the listing's entries of the same
  /// numbers (``RollbackFiles/disagreement(listing:header:)``). A listing captured a commit
  /// before the rollbacks would otherwise give each batch to the wrong author.
  public func check(_ listing: CommitHistory, listing name: String) throws(StoreError) {
    guard let newest = store.rollbackNumbers.min(), let oldest = store.rollbackNumbers.max() else { return }
    var found: [RollbackFiles.Disagreement] = []
    for n in Set([newest, oldest]).sorted() {
      guard let file = try store.rollback(n), let c = RollbackFiles.commit(headers: RollbackFiles.headers(in: file.bytes), rollback: n)
      else { continue }
      var one = CommitHistory(commits: [c])
      TimePlacement.place(&one, zone, file: SourceFile(path: file.path, bytes: []))
      if let d = RollbackFiles.disagreement(listing: listing, header: one.commits[0]) { found.append(d) }
    }
    // The one that tells by how much, if either does (the newest commit of a listing taken
    // after the rollbacks is in none of them).
    if let d = found.first(where: { $0.matchingEntry != nil }) ?? found.first {
      throw StoreError("'\(name)' is not the commit list of the rollbacks in '\(store.name)': \(d); capture both at the same time")
    }
  }

  // MARK: configurations

  /// Parses a configuration; its first error is the failure.
  public static func parse(_ file: SourceFile, model: ConfigModel) throws(StoreError) -> ConfigTree {
    let result = ConfigParser.parse(file, model: model)
    if result.hasErrors {
      throw StoreError(result.diagnostics.first { $0.severity == .error }.map(\.rendered) ?? "\(file.path): invalid configuration")
    }
    return result.tree
  }

  /// Rollback `n`: its saved configuration, or one composed by applying compare captures to an
  /// older one (`rollback-N-compare-M.txt` turns rollback M into rollback N; the nearest older
  /// rollback that can be had is used). nil when neither is possible.
  ///
  /// - Throws: When a file does not parse, a capture's echoed command contradicts its name, or a
  ///   capture does not apply.
  public mutating func configuration(_ n: Int) throws(StoreError) -> ConfigTree? {
    if let t = trees[n] { return t }
    if let file = try store.rollback(n) {
      let t = try Self.parse(file, model: model)
      trees[n] = t
      return t
    }
    for c in store.captures.filter({ $0.newer == n }).sorted(by: { $0.older < $1.older }) {
      guard let base = try configuration(c.older) else { continue }
      let input = try store.capture(c)
      // The command echoed in the capture is what it compares: a file named for other rollbacks
      // would be applied to the wrong configuration.
      if let echoed = RollbackFiles.echoedCompare(in: input.bytes), echoed != (c.newer, c.older) {
        throw StoreError(
          "\(c.location): the capture's command is 'show system rollback \(echoed.newer) compare \(echoed.older)', but its name says rollback \(c.newer) compare \(c.older)"
        )
      }
      let text = CompareText.parse(input)
      diagnostics += text.diagnostics
      if text.hasErrors { throw StoreError("\(c.location): not a usable compare capture") }
      var b = base
      b.mergeDuplicateBlocks()
      let result = text.apply(to: b, options: DiffOptions(model: model))
      diagnostics += result.diagnostics
      if result.hasErrors { throw StoreError("\(c.name) does not apply to rollback \(c.older)") }
      trees[n] = result.tree
      let before = composed[c.older] ?? Composition(base: c.older, captures: [])
      composed[n] = Composition(base: before.base, captures: before.captures + [c.name])
      return result.tree
    }
    return nil
  }

  /// The configurations before and after a range of commits (rollback `range.baseRollback` and
  /// `range.resultRollback`); a composed one gets a note.
  ///
  /// - Throws: Which rollback is missing, and why (``CommitRange/unavailable(highestRollback:)``).
  public mutating func endpoints(_ range: CommitRange) throws(StoreError) -> (base: ConfigTree, result: ConfigTree) {
    guard let base = try configuration(range.baseRollback) else {
      let why = range.unavailable(highestRollback: highestRollback) ?? "rollback \(range.baseRollback) is not in '\(store.name)'"
      throw StoreError("commits \(range): \(why)")
    }
    guard let result = try configuration(range.resultRollback) else {
      throw StoreError(
        "commits \(range): rollback \(range.resultRollback) is not in '\(store.name)' and no compare capture leads to it")
    }
    for n in [range.baseRollback, range.resultRollback] {
      guard let how = composed[n] else { continue }
      let what = how.captures.count == 1 ? how.captures[0] : "\(how.captures.count) compare captures"
      notes.append("rollback \(n) composed from rollback \(how.base) and \(what)")
    }
    if let note = backupNote(range) { notes.append(note) }
    return (base, result)
  }

  /// What a range read from the store's backups covers (``backupNote(_:base:oldest:result:)``),
  /// nil when the store does not keep backups.
  public func backupNote(_ range: CommitRange) -> String? {
    store.backupSpan(ofRollback: range.resultRollback).map { result in
      Self.backupNote(
        range, base: store.backupSpan(ofRollback: range.baseRollback), oldest: store.backupSpan(ofRollback: range.older), result: result)
    }
  }

  /// What a range read from backups covers: every commit between the two backups, recorded or
  /// not (``BackupSpan``): those after the last backup of the configuration before the range
  /// (`oldest`'s ``BackupSpan/after``, else `base`'s time) and before `result`'s backup.
  public static func backupNote(_ range: CommitRange, base: BackupSpan?, oldest: BackupSpan?, result: BackupSpan) -> String {
    let from = base.map { "backup \($0.backup.prefix(7))" } ?? "rollback \(range.baseRollback)"
    let since = (oldest?.after ?? base?.time).map { " after \(HistoryTime.utc($0))" } ?? ""
    return
      "commits \(range) are the difference between \(from) and backup \(result.backup.prefix(7)): any commits made\(since) and before \(HistoryTime.utc(result.time)) that no backup recorded are in it too"
  }

  /// `2, 5–7, 9`: numbers in order, runs of three or more as ranges.
  public static func numberList(_ numbers: [Int]) -> String {
    var parts: [String] = []
    var run: [Int] = []
    func close() {
      if run.count >= 3 { parts.append("\(run[0])–\(run[run.count - 1])") } else { parts += run.map(String.init) }
      run = []
    }
    for n in Set(numbers).sorted() {
      if let last = run.last, n != last + 1 { close() }
      run.append(n)
    }
    close()
    return parts.joined(separator: ", ")
  }
}

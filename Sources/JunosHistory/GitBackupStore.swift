public import JunosConfig

/// One device's history in a git repository of backups (Oxidized's, RANCID's): the device's file
/// along the first-parent history of a revision, read through libgit2 (no checkout, no `git`
/// binary). Each commit that changed the file is a backup; the configurations they record, with
/// the backup tool's own lines taken out (``BackupFiles/configuration(_:)``), are the store's
/// rollbacks, numbered by ``BackupNumbering``: newest first, or by the device's commit listing
/// when one is given. A backup whose file changed only in the tool's lines (chassis or version
/// output) records no new configuration.
///
/// The history ends, going back, at the first commit whose tree does not have the file.
public struct GitBackupStore: RollbackStore {
  /// The repository's folder.
  public let repository: String
  /// The device's file, from the top of the repository.
  public let file: String
  /// The revision read (`HEAD`, a branch, a tag, an id).
  public let revision: String
  /// What wrote the file (at the revision).
  public let format: BackupFormat
  /// The configurations recorded, newest first.
  public let states: [RecordedState]
  /// The rollback number of each state (nil: older than the listing, left out).
  public let numbers: [Int?]
  /// Things the user should be told (states left out, a configuration whose header did not move).
  public let notes: [String]
  private let blobs: [GitObjectID]
  private let byNumber: [Int: Int]
  private let git: GitRepository

  public var name: String { LocalFiles.join(repository, file) }
  public var rollbackNumbers: Set<Int> { Set(byNumber.keys) }
  public var captures: [CompareCapture] { [] }

  /// Reads the file's history.
  ///
  /// - Parameters:
  ///   - repository: The repository (its work tree, its `.git`, or a bare one).
  ///   - file: The device's file, from the top of the repository (`configs/core1`; `./` and
  ///     doubled slashes are ignored).
  ///   - revision: Where to start (default `HEAD`).
  ///   - listing: The device's commit listing, times placed: the states take its numbers
  ///     (``BackupNumbering/aligned(_:to:name:listingName:)``).
  ///   - listingName: The listing's name, for messages.
  ///   - zone: How the `## Last commit` headers' times are placed.
  /// - Throws: When the folder is not a repository, the revision is unknown, the file is not in
  ///   it, a blob cannot be read, or the listing does not number the backups.
  public init(
    repository: String, file: String, revision: String = "HEAD", listing: CommitHistory? = nil, listingName: String = "",
    zone: TimePlacement.Zone = .offset(nil)
  ) throws(StoreError) {
    // `./configs/r1` and `configs//r1` name `configs/r1`.
    let file = file.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    let git = try GitRepository(path: repository)
    let start = try git.commit(revision)
    let history = try git.firstParentHistory(from: start, path: file)
    guard let newest = history.first?.blob else {
      throw StoreError("'\(file)' is not a file in revision '\(revision)' (\(start.short)) of '\(repository)'")
    }
    let name = LocalFiles.join(repository, file)
    // The commits that changed the file, oldest first.
    let life = history.prefix { $0.blob != nil }
    var changes: [GitRepository.CommitInfo] = []
    for (k, c) in life.enumerated() where k + 1 == life.count || life[life.startIndex + k + 1].blob != c.blob {
      changes.append(c)
    }
    changes.reverse()
    var states: [RecordedState] = []  // oldest first while built
    var blobs: [GitObjectID] = []
    var key: GitObjectID? = nil  // the newest state's configuration, hashed
    var headerLines: [[String]] = []
    var notes: [String] = []
    for c in changes {
      let text = BackupFiles.configuration(try git.blob(c.blob!))
      let newKey = GitRepository.blobID(of: BackupFiles.configurationKey(text))
      let lines = RollbackFiles.headers(in: text).filter { $0.hasPrefix("## Last c") }
      if let last = states.indices.last {
        if key == newKey && headerLines[last] == lines {
          states[last].lastSeen = c.time  // only the tool's lines changed
          continue
        }
        if key != newKey && headerLines[last] == lines && !lines.isEmpty {
          notes.append(
            "backup \(c.id.short) of '\(name)' changes the configuration but not its '## Last commit' header: commit numbers count it as a commit of its own"
          )
        }
      }
      var header = RollbackFiles.commit(headers: lines, rollback: 0)
      if let h = header {
        var one = CommitHistory(commits: [h])
        TimePlacement.place(&one, zone, file: SourceFile(path: name, bytes: []))
        header = one.commits[0]
        header?.index = nil
      }
      let span = BackupSpan(
        backup: c.id.hex, time: c.time, after: states.last?.lastSeen, configurationChanged: states.isEmpty || key != newKey)
      states.append(RecordedState(header: header, span: span, lastSeen: c.time))
      blobs.append(c.blob!)
      key = newKey
      headerLines.append(lines)
    }
    states.reverse()
    blobs.reverse()
    var numbers = BackupNumbering.recorded(states).map(Optional.some)
    if let listing {
      let aligned = try BackupNumbering.aligned(states, to: listing, name: name, listingName: listingName)
      numbers = aligned.numbers
      notes += aligned.notes
    }
    var byNumber: [Int: Int] = [:]
    for (k, n) in numbers.enumerated() { if let n { byNumber[n] = k } }
    self.repository = repository
    self.file = file
    self.revision = revision
    self.format = BackupFiles.rancidContentType(try git.blob(newest)) == nil ? .oxidized : .rancid
    self.states = states
    self.numbers = numbers
    self.notes = notes
    self.blobs = blobs
    self.byNumber = byNumber
    self.git = git
  }

  public func listing() throws(StoreError) -> SourceFile? { nil }

  public func rollback(_ n: Int) throws(StoreError) -> SourceFile? {
    guard let k = byNumber[n] else { return nil }
    return SourceFile(path: location(state: k), bytes: BackupFiles.configuration(try git.blob(blobs[k])))
  }

  public func capture(_ c: CompareCapture) throws(StoreError) -> SourceFile { throw StoreError("'\(name)' has no compare captures") }

  public func location(ofRollback n: Int) -> String? { byNumber[n].map(location(state:)) }

  /// `REPO/FILE@3f2a9c1`: the file as the backup that first recorded the state has it.
  private func location(state k: Int) -> String { "\(name)@\(states[k].span.backup.prefix(7))" }

  public func backupSpan(ofRollback n: Int) -> BackupSpan? { byNumber[n].map { states[$0].span } }

  /// The files of a backup repository at a revision, each with what wrote it and, when it is
  /// not read as a Junos configuration, why (``BackupFiles/classify(path:bytes:)``), in path order.
  ///
  /// - Throws: When the folder is not a repository or the revision is unknown.
  public static func files(repository: String, revision: String = "HEAD") throws(StoreError) -> [BackupFile] {
    let git = try GitRepository(path: repository)
    var out: [BackupFile] = []
    for f in try git.files(in: try git.commit(revision)) {
      out.append(BackupFiles.classify(path: f.path, bytes: try git.blob(f.blob)))
    }
    return out.sorted { $0.path < $1.path }
  }

  /// The file of the device called `device` among a repository's Junos files
  /// (``files(repository:revision:)``): the one whose name, or path, it is.
  ///
  /// - Throws: When no Junos file is the device's (the message names the devices there, and a
  ///   skipped file of that name with the reason), or several are (it names them).
  public static func file(ofDevice device: String, repository: String, revision: String = "HEAD") throws(StoreError) -> String {
    try file(ofDevice: device, among: try files(repository: repository, revision: revision), repository: repository, revision: revision)
  }

  /// ``file(ofDevice:repository:revision:)`` among files already listed by
  /// ``files(repository:revision:)`` (so that naming several devices lists the repository once).
  public static func file(ofDevice device: String, among all: [BackupFile], repository: String, revision: String = "HEAD")
    throws(StoreError) -> String
  {
    let junos = all.filter { $0.skipped == nil }
    let found = junos.filter { $0.path == device }.isEmpty ? junos.filter { $0.device == device } : junos.filter { $0.path == device }
    if found.count == 1 { return found[0].path }
    if found.count > 1 {
      throw StoreError(
        "device '\(device)' is ambiguous in '\(repository)': \(found.map(\.path).joined(separator: ", ")); give --file FILE")
    }
    if let skipped = all.first(where: { $0.device == device || $0.path == device }), let why = skipped.skipped {
      throw StoreError("'\(skipped.path)' in '\(repository)' is not read as a Junos configuration: \(why)")
    }
    let names = Set(junos.map(\.device)).sorted()
    throw StoreError(
      "no device '\(device)' in '\(repository)' (revision \(revision)); its Junos devices: \(names.isEmpty ? "none" : names.joined(separator: ", "))"
    )
  }
}

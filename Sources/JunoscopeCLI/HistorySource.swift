import ArgumentKit
import Foundation
import JunosConfig
import JunosDevice
import JunosDiff
import JunosHistory

/// Where a history command reads commits and configurations: `--commits FILE` and/or
/// `--rollbacks DIR` (saved configurations and per-commit compare captures), a capture bundle
/// (`--bundle DIR`, as `fetch` writes it), a live device (`--host H`: its commit list read at
/// the start, its rollbacks as they are needed), or a git repository of backups (`--git REPO`
/// with `--file FILE` or `--device NAME`, `--rev REV`; `--commits` numbers its backups as the
/// box does). Options become a ``RollbackStore`` and a
/// ``HistoryReader``; this maps their failures to exit statuses and prints what they collected.
struct HistorySource {
  static let bundleOption = ArgumentSpec.option(
    "bundle", valueName: "dir", help: "A capture bundle written by 'junoscope fetch'.", completion: .directory)
  static let hostOption = ArgumentSpec.option("host", valueName: "host", help: "Read the history from this device over SSH.")
  /// Every option of a history source, connection options included.
  static let arguments: [ArgumentSpec] =
    [commitsOption, rollbacksOption, bundleOption, hostOption] + gitArguments
    + [CommonOptions.utcOffsetOption, CommonOptions.timeZoneOption] + DeviceOptions.arguments
  /// A git repository of backups and the device's file in it.
  static let gitArguments: [ArgumentSpec] = [
    .option(
      "git", valueName: "repo", help: "A git repository of backups (Oxidized, RANCID); with --file or --device.", completion: .directory),
    .option("file", valueName: "file", help: "With --git: the device's file, from the top of the repository."),
    .option("device", valueName: "name", help: "With --git: the device whose file this is (its file name)."),
    .option("rev", valueName: "rev", help: "With --git: the revision to read back from (default HEAD)."),
  ]
  /// What a command that compares configurations says when it has none.
  static let needConfigurations = "give the saved configurations with --rollbacks DIR (or --bundle DIR, --host HOST, --git REPO)"

  static let rollbacksOption = ArgumentSpec.option(
    "rollbacks", valueName: "dir",
    help: "Directory of saved rollbacks (juniper.conf[.N][.gz], rollback-N.conf) and compare captures (rollback-N-compare-M.txt).",
    completion: .directory)
  static let commitsOption = ArgumentSpec.option(
    "commits", valueName: "file", help: "'show system commit' text or XML, or - for standard input.", completion: .file)

  let inv: Invocation
  let io: FileIO
  let console: Console
  let model: ConfigModel
  /// Whether configurations were given (`--rollbacks`, `--bundle`, `--host` or `--git`).
  let hasRollbacks: Bool
  /// Whether a commit list is there (`--commits`, or the bundle's or device's own).
  let hasListing: Bool
  /// Everything read goes through it.
  private(set) var reader: HistoryReader

  init(_ inv: Invocation, io: FileIO, console: Console, model: ConfigModel = .standard) throws(CommandFailure) {
    self.inv = inv
    self.io = io
    self.console = console
    self.model = model
    let given = ["commits", "rollbacks", "bundle", "host", "git"].filter { inv.option($0) != nil }
    if given.contains("bundle") || given.contains("host") {
      guard given.count == 1 else {
        throw CommandFailure(
          message: "--\(given.contains("bundle") ? "bundle" : "host") replaces --commits, --rollbacks and --git; give one source",
          status: ExitStatus.usage)
      }
    }
    if given.contains("git") && given.contains("rollbacks") {
      throw CommandFailure(message: "--git replaces --rollbacks; give one source", status: ExitStatus.usage)
    }
    if !given.contains("git"), let other = ["file", "device", "rev"].first(where: { inv.option($0) != nil }) {
      throw CommandFailure(message: "--\(other) names a file of a git repository: give --git REPO too", status: ExitStatus.usage)
    }
    let zone = try CommonOptions.deviceZone(inv)
    let listing = try inv.option("commits").map { p throws(CommandFailure) in try CommonOptions.listingFile(p, io: io) }
    let store: any RollbackStore
    if let b = inv.option("bundle") {
      store = try Self.map { () throws(StoreError) in try Self.bundleStore(b) }
    } else if let h = inv.option("host") {
      let options = try DeviceOptions.sshOptions(h, inv, console: console)
      store = try Self.map { () throws(StoreError) in try Self.hostStore(options, host: h, netconf: inv.flag("netconf")) }
    } else if let repo = inv.option("git") {
      store = try Self.gitStore(repo, inv, listing: listing, model: model, zone: zone, console: console)
    } else if let dir = inv.option("rollbacks") {
      store = try Self.map { () throws(StoreError) in try RollbackFolder(path: dir) }
    } else {
      store = EmptyStore(name: inv.option("commits") ?? "-")
    }
    hasRollbacks = given.contains { $0 != "commits" }
    hasListing = listing != nil || given.contains("bundle") || given.contains("host")
    reader = HistoryReader(store: store, listing: listing, model: model, zone: zone)
  }

  /// The store of a capture bundle (`fetch`'s folder): opening it checks every file against the
  /// manifest; its rollbacks and commit list (`fetch --rollbacks none`: no rollbacks folder).
  static func bundleStore(_ path: String) throws(StoreError) -> RollbackFolder {
    let bundle: CaptureBundle
    do throws(DeviceError) { bundle = try CaptureBundle(path: path) } catch { throw StoreError(error.message) }
    return try RollbackFolder(path: path + "/rollbacks", listing: path + "/commits.xml", allowEmpty: bundle.rollbackNumbers.isEmpty)
  }

  /// The store of a live device, connected over SSH (the CLI, or NETCONF); a connection that
  /// fails is a device failure.
  static func hostStore(_ options: SSHOptions, host: String, netconf: Bool) throws(StoreError) -> DeviceStore {
    let device: any DeviceSource
    do throws(DeviceError) { device = try DeviceOptions.connect(options, netconf: netconf) } catch {
      throw StoreError("\(host): \(error)", kind: .device)
    }
    return try DeviceStore(device, name: host)
  }

  /// The store of `--git REPO` (`--file FILE` or `--device NAME`, `--rev REV`), its backups
  /// numbered by the listing when one is given.
  static func gitStore(
    _ repo: String, _ inv: Invocation, listing: SourceFile?, model: ConfigModel, zone: TimePlacement.Zone, console: Console
  ) throws(CommandFailure) -> GitBackupStore {
    let revision = inv.option("rev") ?? "HEAD"
    let file: String
    switch (inv.option("file"), inv.option("device")) {
    case (let f?, nil): file = f
    case (nil, let d?):
      file = try map { () throws(StoreError) in try GitBackupStore.file(ofDevice: d, repository: repo, revision: revision) }
    case (_?, _?): throw CommandFailure(message: "give --file or --device, not both", status: ExitStatus.usage)
    case (nil, nil):
      throw CommandFailure(message: "--git wants the device's file: give --file FILE or --device NAME", status: ExitStatus.usage)
    }
    var placed: CommitHistory? = nil
    if let listing {
      // The listing's times placed as the reader places them, to number the backups by.
      var first = HistoryReader(store: EmptyStore(name: listing.path), listing: listing, model: model, zone: zone)
      placed = try map { () throws(StoreError) in try first.history() }
      guard placed != nil else {
        CommonOptions.report(first.drain().diagnostics, console: console)
        throw CommandFailure(message: "\(listing.path): the commit list cannot number the backups", status: ExitStatus.invalidInput)
      }
    }
    return try map { () throws(StoreError) in
      try GitBackupStore(repository: repo, file: file, revision: revision, listing: placed, listingName: listing?.path ?? "", zone: zone)
    }
  }

  /// A store's failure as the command's: exit 3 for a device, 2 otherwise.
  static func failure(_ e: StoreError) -> CommandFailure {
    CommandFailure(message: e.message, status: e.kind == .device ? ExitStatus.deviceFailure : ExitStatus.invalidInput)
  }

  static func map<T>(_ body: () throws(StoreError) -> T) throws(CommandFailure) -> T {
    do throws(StoreError) { return try body() } catch { throw failure(error) }
  }

  /// Prints what the reader collected (diagnostics, then notes).
  private mutating func report() {
    let (diagnostics, notes) = reader.drain()
    CommonOptions.report(diagnostics, console: console)
    for n in notes { console.error("junoscope: \(n)") }
  }

  /// Where the history is kept (for messages).
  var name: String { reader.store.name }
  /// The rollbacks saved (or, on a device, listed).
  var rollbackNumbers: Set<Int> { reader.store.rollbackNumbers }

  /// Fails if a commit landed on a live device while the command read it.
  func finish() throws(CommandFailure) { try Self.map { () throws(StoreError) in try reader.store.checkStable() } }

  /// The highest rollback a configuration exists or can be composed for.
  var highestRollback: Int { reader.highestRollback }

  /// The commit list (``HistoryReader/history()``); nil (after reporting) when the listing has
  /// errors.
  mutating func history() throws(CommandFailure) -> CommitHistory? {
    guard hasListing || hasRollbacks else {
      throw CommandFailure(
        message: "give the commit list with --commits FILE, or --rollbacks DIR, --bundle DIR, --host HOST or --git REPO",
        status: ExitStatus.usage)
    }
    defer { report() }
    return try Self.map { () throws(StoreError) in try reader.history() }
  }

  /// Rollback `n`, read or composed; nil when neither is possible.
  mutating func config(_ n: Int) throws(CommandFailure) -> ConfigTree? {
    defer { report() }
    return try Self.map { () throws(StoreError) in try reader.configuration(n) }
  }

  /// The configurations before and after a range of commits, or a failure that says which
  /// rollback is missing.
  mutating func endpoints(_ range: CommitRange) throws(CommandFailure) -> (base: ConfigTree, result: ConfigTree) {
    guard hasRollbacks else {
      throw CommandFailure(message: Self.needConfigurations, status: ExitStatus.usage)
    }
    defer { report() }
    return try Self.map { () throws(StoreError) in try reader.endpoints(range) }
  }
}

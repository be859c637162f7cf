import ArgumentKit
import Foundation
import JunosConfig
import JunosDevice
import JunosDiff
import JunosHistory

/// Where a history command reads commits and configurations: `--commits FILE` and/or
/// `--rollbacks DIR` (saved configurations and per-commit compare captures), a capture bundle
/// (`--bundle DIR`, as `fetch` writes it), or a live device (`--host H`, whose commit list and
/// rollbacks are read into a temporary folder as they are needed — the same path from there on).
struct HistorySource {
  static let bundleOption = ArgumentSpec.option(
    "bundle", valueName: "dir", help: "A capture bundle written by 'junoscope fetch'.", completion: .directory)
  static let hostOption = ArgumentSpec.option("host", valueName: "host", help: "Read the history from this device over SSH.")
  /// Every option of a history source, connection options included.
  static let arguments: [ArgumentSpec] =
    [commitsOption, rollbacksOption, bundleOption, hostOption, CommonOptions.utcOffsetOption, CommonOptions.timeZoneOption]
    + DeviceOptions.arguments

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
  /// The `--rollbacks` directory (or the bundle's, or the live device's temporary one).
  let dir: String?
  /// Rollback number → saved configuration file.
  private(set) var files: [Int: String]
  /// The commit list file: `--commits`, or the bundle's or live device's `commits.xml`.
  let commitsPath: String?
  /// The live device, for `--host`.
  let live: LiveDevice?

  /// A device read during the command; its temporary folder goes when the process ends.
  final class LiveDevice {
    let device: any DeviceSource & CommandRecording
    let host: String
    let folder: String
    let firstList: [UInt8]
    /// The entry numbers of `firstList`: the rollbacks the device has.
    let listed: Set<Int>

    init(_ host: String, _ inv: Invocation, console: Console) throws(CommandFailure) {
      let options = try DeviceOptions.sshOptions(host, inv, console: console)
      do {
        device = try DeviceOptions.connect(options, netconf: inv.flag("netconf"))
        firstList = try device.commitListXML()
      } catch {
        throw CommandFailure(message: "\(host): \(error)", status: ExitStatus.deviceFailure)
      }
      self.host = host
      listed = Set(CommitHistory.read(SourceFile(path: "commits", bytes: firstList)).commits.compactMap(\.index))
      folder = NSTemporaryDirectory() + "junoscope-live-\(getpid())-\(UUID().uuidString.prefix(8))"
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw CommandFailure(message: "cannot make the folder '\(folder)'", status: ExitStatus.invalidInput)
      }
      try FileIO.writeAtomically(firstList, to: folder + "/commits.xml")
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Reads rollback n into the folder.
    func fetch(_ n: Int) throws(CommandFailure) -> String {
      let path = folder + "/rollback-\(n).conf"
      let bytes: [UInt8]
      do { bytes = try device.rollback(n) } catch {
        throw CommandFailure(message: "\(host): \(error)", status: ExitStatus.deviceFailure)
      }
      try FileIO.writeAtomically(bytes, to: path)
      return path
    }

    /// Fails when the commit list changed since the start: the rollback numbers read may then
    /// belong to different commits.
    func checkStable() throws(CommandFailure) {
      let last: [UInt8]
      do { last = try device.commitListXML() } catch {
        throw CommandFailure(message: "\(host): \(error)", status: ExitStatus.deviceFailure)
      }
      guard CaptureBundle.sameCommitLists(firstList, last) else {
        throw CommandFailure(
          message: "\(host): a commit landed while junoscope was reading; the rollback numbers moved. Run again.",
          status: ExitStatus.deviceFailure)
      }
    }
  }
  /// Compare captures: what the configuration became from rollback `older` to rollback `newer`.
  let captures: [(newer: Int, older: Int, path: String)]
  private var trees: [Int: ConfigTree] = [:]
  /// How each composed rollback was made: the saved rollback it starts from and the captures
  /// applied (for the message on standard error).
  private(set) var composed: [Int: (base: Int, captures: [String])] = [:]

  init(_ inv: Invocation, io: FileIO, console: Console, model: ConfigModel = .standard) throws(CommandFailure) {
    self.inv = inv
    self.io = io
    self.console = console
    self.model = model
    let given = ["commits", "rollbacks", "bundle", "host"].filter { inv.option($0) != nil }
    if given.contains("bundle") || given.contains("host") {
      guard given.count == 1 else {
        throw CommandFailure(
          message: "--\(given.contains("bundle") ? "bundle" : "host") replaces --commits and --rollbacks; give one source",
          status: ExitStatus.usage)
      }
    }
    var dir = inv.option("rollbacks")
    var commitsPath = inv.option("commits")
    var live: LiveDevice? = nil
    var bundleWithoutRollbacks = false
    if let b = inv.option("bundle") {
      // Opening checks every file against the manifest.
      let bundle: CaptureBundle
      do { bundle = try CaptureBundle(path: b) } catch {
        throw CommandFailure(message: error.message, status: ExitStatus.invalidInput)
      }
      dir = b + "/rollbacks"
      commitsPath = b + "/commits.xml"
      bundleWithoutRollbacks = bundle.rollbackNumbers.isEmpty  // (`fetch --rollbacks none`: no folder)
    } else if let h = inv.option("host") {
      let l = try LiveDevice(h, inv, console: console)
      live = l
      dir = l.folder
      commitsPath = l.folder + "/commits.xml"
    }
    self.dir = dir
    self.commitsPath = commitsPath
    self.live = live
    guard let dir, !bundleWithoutRollbacks else {
      files = [:]
      captures = []
      return
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: dir)
    } catch {
      throw CommandFailure(message: "cannot read the directory '\(dir)'", status: ExitStatus.invalidInput)
    }
    // A copy of the box's own layout: rollbacks 0–3 in config/, 4–49 in var/db/config/.
    var entries = names.sorted().map { (name: $0, path: (dir as NSString).appendingPathComponent($0)) }
    for sub in ["config", "var/db/config"] {
      let folder = (dir as NSString).appendingPathComponent(sub)
      guard let more = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      entries += more.sorted().map { (name: $0, path: (folder as NSString).appendingPathComponent($0)) }
    }
    var files: [Int: String] = [:]
    var captures: [(newer: Int, older: Int, path: String)] = []
    for (name, path) in entries {
      if let n = RollbackFiles.rollbackNumber(fileName: name) {
        if let other = files[n] {
          throw CommandFailure(
            message: "'\((other as NSString).lastPathComponent)' and '\(name)' are both rollback \(n)", status: ExitStatus.invalidInput)
        }
        files[n] = path
      } else if let c = RollbackFiles.compareCapture(fileName: name) {
        captures.append((c.newer, c.older, path))
      }
    }
    if files.isEmpty && captures.isEmpty && live == nil {
      throw CommandFailure(
        message:
          "no rollback files in '\(dir)' (juniper.conf[.N][.gz], rollback-N.conf, or the box's config/ and var/db/config/ folders)",
        status: ExitStatus.invalidInput)
    }
    self.files = files
    self.captures = captures
  }

  /// For `--host`: reads the given rollbacks now (those the device lists).
  mutating func prefetch(_ numbers: [Int]) throws(CommandFailure) {
    guard let live else { return }
    for n in numbers where files[n] == nil && live.listed.contains(n) { files[n] = try live.fetch(n) }
  }

  /// For `--host`: fails if a commit landed while the command read the device.
  func finish() throws(CommandFailure) { try live?.checkStable() }

  /// The highest rollback a configuration exists or can be composed for.
  var highestRollback: Int {
    if let live { return live.listed.max() ?? -1 }
    return max(files.keys.max() ?? -1, captures.map(\.older).max() ?? -1)
  }

  /// The commit list: `--commits` when given, else the `## Last commit` headers of the saved
  /// rollbacks. nil (after reporting) when the listing has errors.
  func history() throws(CommandFailure) -> CommitHistory? {
    if let path = commitsPath {
      guard let h = try CommonOptions.commitHistory(path, inv, io: io, console: console) else { return nil }
      try check(h, against: path)
      return h
    }
    guard let dir else {
      throw CommandFailure(
        message: "give the commit list with --commits FILE, or --rollbacks DIR, --bundle DIR or --host HOST", status: ExitStatus.usage)
    }
    var headers: [Int: [String]] = [:]
    for (n, path) in files { headers[n] = RollbackFiles.headers(in: try Self.bytes(path)) }
    var h = RollbackFiles.history(headers: headers)
    let unknown = h.commits.filter { !$0.isKnown }.compactMap(\.index)
    guard unknown.count < h.commits.count else {
      throw CommandFailure(
        message: "no commit list: no '## Last commit' header in the rollbacks of '\(dir)'; give --commits FILE",
        status: ExitStatus.invalidInput)
    }
    if !unknown.isEmpty {
      let which = Self.numberList(unknown)
      console.error(
        "junoscope: nothing in '\(dir)' says who made commit\(unknown.count == 1 ? "" : "s") \(which) or when (rollback\(unknown.count == 1 ? "" : "s") missing or saved without '## Last commit'): shown as user '\(Commit.unknownUser)'; give --commits FILE for the whole listing"
      )
    }
    CommonOptions.placeTimes(&h, try CommonOptions.deviceZone(inv), file: SourceFile(path: dir, bytes: []))
    CommonOptions.report(h.diagnostics, console: console)
    return h.hasErrors ? nil : h
  }

  /// `2, 5–7, 9`: numbers in order, runs of three or more as ranges.
  static func numberList(_ numbers: [Int]) -> String {
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

  /// Fails when the listing does not describe the saved rollbacks: the `## Last commit` headers
  /// of the newest and the oldest saved rollback must be the listing's entries of the same
  /// numbers (a listing captured a commit before the rollbacks would give each batch to the
  /// wrong author). A live device's list and rollbacks are read together (see ``finish()``).
  func check(_ listing: CommitHistory, against path: String) throws(CommandFailure) {
    guard live == nil, let dir, let newest = files.keys.min(), let oldest = files.keys.max() else { return }
    let zone = try CommonOptions.deviceZone(inv)
    var found: [RollbackFiles.Disagreement] = []
    for n in Set([newest, oldest]).sorted() {
      guard let c = RollbackFiles.commit(headers: RollbackFiles.headers(in: try Self.bytes(files[n]!)), rollback: n) else { continue }
      var one = CommitHistory(commits: [c])
      CommonOptions.placeTimes(&one, zone, file: SourceFile(path: files[n]!, bytes: []))
      if let d = RollbackFiles.disagreement(listing: listing, header: one.commits[0]) { found.append(d) }
    }
    // The one that tells by how much, if either does (the newest commit of a listing taken
    // after the rollbacks is in none of them).
    if let d = found.first(where: { $0.matchingEntry != nil }) ?? found.first {
      throw CommandFailure(
        message: "'\(path)' is not the commit list of the rollbacks in '\(dir)': \(d); capture both at the same time",
        status: ExitStatus.invalidInput)
    }
  }

  /// Reads a saved configuration, gunzipping when needed (safe from any thread).
  static func bytes(_ path: String) throws(CommandFailure) -> [UInt8] {
    try CommonOptions.gunzipped(FileIO.readFile(path), path: path)
  }

  /// Reads and parses one saved configuration (safe from any thread).
  static func parse(_ path: String, model: ConfigModel) throws(CommandFailure) -> ConfigTree {
    let result = ConfigParser.parse(SourceFile(path: path, bytes: try bytes(path)), model: model)
    if result.hasErrors {
      throw CommandFailure(
        message: result.diagnostics.first { $0.severity == .error }.map(\.rendered) ?? "\(path): invalid configuration",
        status: ExitStatus.invalidInput)
    }
    return result.tree
  }

  /// Rollback `n`: its saved configuration, or one composed by applying compare captures to an
  /// older saved rollback (`rollback-N-compare-M.txt` turns rollback M into rollback N). nil
  /// when neither is possible.
  mutating func config(_ n: Int) throws(CommandFailure) -> ConfigTree? {
    if let t = trees[n] { return t }
    if files[n] == nil, let live, (0...49).contains(n), live.listed.contains(n) { files[n] = try live.fetch(n) }
    if let path = files[n] {
      let t = try Self.parse(path, model: model)
      trees[n] = t
      return t
    }
    // Compose: the capture leading to n from the nearest older rollback that can be had.
    for c in captures.filter({ $0.newer == n }).sorted(by: { $0.older < $1.older }) {
      guard let base = try config(c.older) else { continue }
      let input = try io.read(c.path)
      // The command echoed in the capture is what it compares: a file named for other rollbacks
      // would be applied to the wrong configuration.
      if let echoed = RollbackFiles.echoedCompare(in: input.bytes), echoed != (c.newer, c.older) {
        throw CommandFailure(
          message:
            "\(c.path): the capture's command is 'show system rollback \(echoed.newer) compare \(echoed.older)', but its name says rollback \(c.newer) compare \(c.older)",
          status: ExitStatus.invalidInput)
      }
      let text = CompareText.parse(SourceFile(path: input.path, bytes: input.bytes))
      CommonOptions.report(text.diagnostics, console: console)
      if text.hasErrors { throw CommandFailure(message: "\(c.path): not a usable compare capture", status: ExitStatus.invalidInput) }
      var b = base
      b.mergeDuplicateBlocks()
      let result = text.apply(to: b, options: DiffOptions(model: model))
      CommonOptions.report(result.diagnostics, console: console)
      if result.hasErrors {
        throw CommandFailure(
          message: "\((c.path as NSString).lastPathComponent) does not apply to rollback \(c.older)", status: ExitStatus.invalidInput)
      }
      trees[n] = result.tree
      let before = composed[c.older] ?? (c.older, [])
      composed[n] = (before.base, before.captures + [(c.path as NSString).lastPathComponent])
      return result.tree
    }
    return nil
  }

  /// The configurations before and after a range of commits, or a failure that says which
  /// rollback is missing.
  mutating func endpoints(_ range: CommitRange) throws(CommandFailure) -> (base: ConfigTree, result: ConfigTree) {
    let where_ = dir.map { " in '\($0)'" } ?? ""
    guard dir != nil else {
      throw CommandFailure(
        message: "give the saved configurations with --rollbacks DIR (or --bundle DIR, --host HOST)", status: ExitStatus.usage)
    }
    guard let base = try config(range.baseRollback) else {
      let why = range.unavailable(highestRollback: highestRollback) ?? "rollback \(range.baseRollback) is not\(where_)"
      throw CommandFailure(message: "commits \(range): \(why)", status: ExitStatus.invalidInput)
    }
    guard let result = try config(range.resultRollback) else {
      throw CommandFailure(
        message: "commits \(range): rollback \(range.resultRollback) is not\(where_) and no compare capture leads to it",
        status: ExitStatus.invalidInput)
    }
    for n in [range.baseRollback, range.resultRollback] {
      guard let how = composed[n] else { continue }
      let what = how.captures.count == 1 ? how.captures[0] : "\(how.captures.count) compare captures"
      console.error("junoscope: rollback \(n) composed from rollback \(how.base) and \(what)")
    }
    return (base, result)
  }
}

internal import Glibc
internal import JunosConfig
internal import JunosHistory

/// A capture of one device kept for later: its commit list (XML, and text from the CLI), the
/// rollbacks asked for, and `manifest.json` (host, device, software version, capture start and
/// end, every command sent, and the SHA-256 of every file).
///
/// ```
/// BUNDLE/manifest.json
/// BUNDLE/commits.xml        BUNDLE/commits.txt (CLI only)
/// BUNDLE/rollbacks/rollback-N.conf
/// ```
///
/// Reading a bundle checks every file against the manifest; writing one goes to a temporary
/// folder beside the target that is renamed into place when complete, so a failed capture
/// leaves no half bundle.
public struct CaptureBundle: DeviceSource, Sendable {
  /// The bundle's folder.
  public let path: String
  /// What the manifest says.
  public let manifest: Manifest

  /// A bundle's `manifest.json`.
  public struct Manifest: Sendable {
    /// The host as given to `fetch`.
    public var host: String
    /// `cli` or `netconf`.
    public var transport: String
    /// What the device said it is.
    public var device: DeviceIdentity
    /// UTC instants (seconds) of the capture's start and end.
    public var start: Int64
    /// End of the capture.
    public var end: Int64
    /// Commands (or RPCs) sent, in order.
    public var commands: [String]
    /// Files relative to the bundle: bytes and SHA-256.
    public var files: [(path: String, bytes: Int, sha256: String)]
    /// Times the capture started over because a commit landed during it.
    public var restarts: Int
  }

  /// Opens a bundle and checks its files against the manifest.
  ///
  /// - Throws: `config` when the folder is not a bundle, `protocolError` when a file is missing
  ///   or its checksum differs.
  public init(path: String) throws(DeviceError) {
    self.path = path
    guard let bytes = FileIO.read(path + "/manifest.json") else {
      throw DeviceError(.config, "'\(path)' is not a capture bundle (no manifest.json)")
    }
    manifest = try Manifest.parse(bytes, path: path)
    for f in manifest.files {
      guard let data = FileIO.read(path + "/" + f.path) else {
        throw DeviceError(.protocolError, "\(path): \(f.path) is listed in manifest.json but missing")
      }
      guard data.count == f.bytes, SHA256.hex(data) == f.sha256 else {
        throw DeviceError(.protocolError, "\(path): \(f.path) does not match its SHA-256 in manifest.json (changed after the capture?)")
      }
    }
  }

  /// The bundle's folder.
  public var name: String { path }

  func file(_ relative: String) throws(DeviceError) -> [UInt8] {
    guard manifest.files.contains(where: { $0.path == relative }), let data = FileIO.read(path + "/" + relative) else {
      throw DeviceError(.config, "\(path) has no \(relative)")
    }
    return data
  }

  public func commitListXML() throws(DeviceError) -> [UInt8] { try file("commits.xml") }
  public func commitListText() throws(DeviceError) -> [UInt8]? { try? file("commits.txt") }
  public func rollback(_ n: Int) throws(DeviceError) -> [UInt8] { try file("rollbacks/rollback-\(n).conf") }
  public func compare(_ n: Int, _ m: Int) throws(DeviceError) -> [UInt8] { try file("compares/rollback-\(n)-compare-\(m).txt") }
  public func identity() throws(DeviceError) -> DeviceIdentity { manifest.device }

  /// The rollback numbers the bundle holds.
  public var rollbackNumbers: [Int] {
    manifest.files.compactMap { f in
      guard f.path.hasPrefix("rollbacks/") else { return nil }
      return RollbackFiles.rollbackNumber(fileName: String(f.path.dropFirst("rollbacks/".count)))
    }.sorted()
  }

  // MARK: writing

  /// Which rollbacks to capture.
  public enum RollbackSelection: Sendable, Hashable {
    /// Every rollback the commit list has an entry for (0–49).
    case all
    /// Rollbacks N…M.
    case range(ClosedRange<Int>)
    /// None.
    case none
  }

  /// Captures a device into `directory` (replaced if it exists), atomically.
  ///
  /// The commit list is read at the start and again at the end; if they differ, a commit landed
  /// during the capture and the rollback numbers no longer mean the same configurations, so
  /// the capture starts over, up to `attempts` times, then fails — never a silent mix.
  ///
  /// - Parameters:
  ///   - source: The device.
  ///   - host: The host as the user named it (for the manifest).
  ///   - transport: `cli` or `netconf`.
  ///   - rollbacks: Which rollbacks.
  ///   - directory: The bundle folder to create.
  ///   - attempts: Captures tried before giving up on a device that keeps committing.
  /// - Returns: The bundle, read back.
  @discardableResult
  public static func capture(
    _ source: some DeviceSource & CommandRecording, host: String, transport: String, rollbacks: RollbackSelection,
    into directory: String, attempts: Int = 3
  ) throws(DeviceError) -> CaptureBundle {
    var restarts = 0
    while true {
      let start = Int64(time(nil))
      var files: [(String, [UInt8])] = []
      let firstList = try source.commitListXML()
      files.append(("commits.xml", firstList))
      var consistent = true
      if let text = try source.commitListText() {
        files.append(("commits.txt", text))
        consistent = Self.sameCommits(firstList, text)
      }
      let id = try source.identity()
      let listed = Self.indices(firstList)
      let numbers: [Int]
      switch rollbacks {
      case .all: numbers = listed.filter { $0 <= 49 }
      case .range(let r): numbers = Array(r)
      case .none: numbers = []
      }
      for n in numbers { files.append(("rollbacks/rollback-\(n).conf", try source.rollback(n))) }
      let lastList = try source.commitListXML()
      guard consistent, Self.sameCommits(firstList, lastList) else {
        restarts += 1
        if restarts >= attempts {
          throw DeviceError(
            .device,
            "\(host): commits kept landing during the capture (\(restarts) tries); the rollback numbers would not be consistent. Try again later."
          )
        }
        continue
      }
      let manifest = Manifest(
        host: host, transport: transport, device: id, start: start, end: Int64(time(nil)), commands: source.sent,
        files: files.map { ($0.0, $0.1.count, SHA256.hex($0.1)) }, restarts: restarts)
      try write(files + [("manifest.json", manifest.render())], to: directory)
      return try CaptureBundle(path: directory)
    }
  }

  /// Whether two reads of a commit list (XML or text) show the same commits: when not, a commit
  /// landed in between and rollback numbers moved.
  public static func sameCommitLists(_ a: [UInt8], _ b: [UInt8]) -> Bool { sameCommits(a, b) }

  /// Entry indices of a commit list.
  static func indices(_ xml: [UInt8]) -> [Int] {
    CommitHistory.read(SourceFile(path: "commits", bytes: xml)).commits.compactMap(\.index)
  }

  /// Whether two reads of the commit list (XML or text) show the same commits (index, time,
  /// user, client).
  static func sameCommits(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    if a == b { return true }
    func key(_ x: [UInt8]) -> [String] {
      CommitHistory.read(SourceFile(path: "commits", bytes: x)).commits.map {
        "\($0.index ?? -1) \($0.localTime.map(String.init(describing:)) ?? "?") \($0.timeZone) \($0.user) \($0.client)"
      }
    }
    return key(a) == key(b)
  }

  /// Writes the files into a fresh folder beside `directory`, then renames it into place.
  static func write(_ files: [(String, [UInt8])], to directory: String) throws(DeviceError) {
    var dir = directory
    while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
    let parent = dir.contains("/") ? String(dir[..<dir.lastIndex(of: "/")!]) : "."
    let base = dir.contains("/") ? String(dir[dir.index(after: dir.lastIndex(of: "/")!)...]) : dir
    let temp = (parent.isEmpty ? "/" : parent) + "/.\(base).partial-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    func fail(_ what: String) -> DeviceError {
      let e = String(cString: strerror(errno))
      FileIO.removeTree(temp)
      return DeviceError(.config, "cannot write the bundle \(directory): \(what): \(e)")
    }
    guard mkdir(temp, 0o755) == 0 else { throw fail("cannot create \(temp)") }
    for (name, bytes) in files {
      if name.contains("/") {
        let sub = temp + "/" + name[..<name.lastIndex(of: "/")!]
        if mkdir(sub, 0o755) != 0 && errno != EEXIST { throw fail("cannot create \(sub)") }
      }
      guard FileIO.write(temp + "/" + name, bytes) else { throw fail("cannot write \(name)") }
    }
    // Replace an older bundle: move it aside, put the new one in place, then delete the old.
    var aside: String? = nil
    if access(dir, F_OK) == 0 {
      let old = temp + ".old"
      guard rename(dir, old) == 0 else { throw fail("cannot move the old \(dir) aside") }
      aside = old
    }
    guard rename(temp, dir) == 0 else {
      if let aside { _ = rename(aside, dir) }
      throw fail("cannot rename \(temp) to \(dir)")
    }
    if let aside { FileIO.removeTree(aside) }
  }
}

extension CaptureBundle.Manifest {
  /// `manifest.json`.
  func render() -> [UInt8] {
    var o: [UInt8] = Array("{\"format\":\"junoscope.bundle\",\"version\":1,\"host\":".utf8)
    JSONText.append(host, into: &o)
    o += Array(",\"transport\":".utf8)
    JSONText.append(transport, into: &o)
    o += Array(",\"device\":{\"hostName\":".utf8)
    func opt(_ s: String?) {
      if let s { JSONText.append(s, into: &o) } else { o += Array("null".utf8) }
    }
    opt(device.hostName)
    o += Array(",\"model\":".utf8)
    opt(device.model)
    o += Array(",\"version\":".utf8)
    opt(device.version)
    o += Array(
      "},\"captureStart\":\"\(iso8601UTC(start))\",\"captureEnd\":\"\(iso8601UTC(end))\",\"restarts\":\(restarts),\"commands\":[".utf8)
    for (k, c) in commands.enumerated() {
      if k > 0 { o.append(0x2C) }
      JSONText.append(c, into: &o)
    }
    o += Array("],\"files\":[".utf8)
    for (k, f) in files.enumerated() {
      if k > 0 { o.append(0x2C) }
      o += Array("{\"path\":".utf8)
      JSONText.append(f.path, into: &o)
      o += Array(",\"bytes\":\(f.bytes),\"sha256\":\"\(f.sha256)\"}".utf8)
    }
    o += Array("]}\n".utf8)
    return o
  }

  /// Reads `manifest.json` (the form ``render()`` writes).
  static func parse(_ bytes: [UInt8], path: String) throws(DeviceError) -> Self {
    guard let v = try? MiniJSON.parse(bytes), case .object(let o) = v, o["format"]?.string == "junoscope.bundle",
      o["version"]?.number == 1
    else {
      throw DeviceError(.config, "\(path)/manifest.json is not a junoscope bundle manifest")
    }
    func str(_ k: String) -> String? { o[k]?.string }
    var files: [(String, Int, String)] = []
    if case .array(let list)? = o["files"] {
      for f in list {
        // Sizes must be exact integers (`Int(_:)` traps on 1e300). Paths are checked as bytes, as
        // the file system reads them: a `/` followed by a combining mark is one Character, so a
        // Character-wise check missed `/\u{301}etc` and `../\u{301}x`; a NUL would end the path.
        guard case .object(let fo) = f, let p = fo["path"]?.string, let b = fo["bytes"]?.number.flatMap({ Int(exactly: $0) }), b >= 0,
          let h = fo["sha256"]?.string, !Self.leavesBundle(p)
        else { throw DeviceError(.config, "\(path)/manifest.json has a bad file entry") }
        files.append((p, b, h))
      }
    }
    let restarts = o["restarts"]?.number ?? 0
    guard let restartCount = Int(exactly: restarts) else { throw DeviceError(.config, "\(path)/manifest.json has a bad restarts count") }
    var commands: [String] = []
    if case .array(let list)? = o["commands"] { commands = list.compactMap(\.string) }
    var device = DeviceIdentity()
    if case .object(let d)? = o["device"] {
      device = DeviceIdentity(hostName: d["hostName"]?.string, model: d["model"]?.string, version: d["version"]?.string)
    }
    return Self(
      host: str("host") ?? "", transport: str("transport") ?? "", device: device, start: 0, end: 0, commands: commands,
      files: files, restarts: restartCount)
  }

  /// Whether a file path from a manifest could name something outside the bundle: a leading
  /// `/`, a `..` component or a NUL, looked at byte by byte.
  static func leavesBundle(_ p: String) -> Bool {
    p.utf8.first == 0x2F || p.utf8.contains(0) || p.utf8.split(separator: 0x2F).contains { $0.elementsEqual("..".utf8) }
  }
}

/// Whole-file reads and writes without Foundation.
enum FileIO {
  static func read(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return nil }
      if n == 0 { return out }
      out.append(contentsOf: chunk[0..<n])
    }
  }

  static func write(_ path: String, _ bytes: [UInt8]) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    var ok = true
    bytes.withUnsafeBytes { buf in
      var off = 0
      while off < buf.count {
        let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
          ok = false
          return
        }
        off += n
      }
    }
    if fsync(fd) != 0 { ok = false }
    return close(fd) == 0 && ok
  }

  /// Removes a folder and everything in it (no symbolic links are followed).
  static func removeTree(_ path: String) {
    guard let d = opendir(path) else {
      unlink(path)
      return
    }
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name == "." || name == ".." { continue }
      let p = path + "/" + name
      var st = stat()
      if lstat(p, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { removeTree(p) } else { unlink(p) }
    }
    closedir(d)
    rmdir(path)
  }
}

public import JunosConfig

/// Where one device's history is kept: its saved configurations by rollback number, compare
/// captures that stand in for missing ones, and (for some stores) its commit list. A folder of
/// rollback files (``RollbackFolder``), a capture bundle or a live device (JunosDevice) are
/// stores; ``HistoryReader`` does everything else over any of them — composing rollbacks from
/// captures, commits from `## Last commit` headers, the listing checks, range endpoints — so
/// each history command works the same on every source.
///
/// ``rollback(_:)`` and ``capture(_:)`` may be called from several threads at once.
public protocol RollbackStore: Sendable {
  /// For messages: the folder, bundle or host.
  var name: String { get }
  /// The rollbacks the store has a configuration for, without composing.
  var rollbackNumbers: Set<Int> { get }
  /// The compare captures it holds.
  var captures: [CompareCapture] { get }
  /// Whether ``listing()`` and the rollbacks were read together (a bundle, a live device), so
  /// that checking one against the other is not needed.
  var listingIsWithRollbacks: Bool { get }
  /// The commit list the store keeps (`show system commit` text or XML), nil when it has none.
  func listing() throws(StoreError) -> SourceFile?
  /// Rollback `n` as text (gunzipped), nil when the store does not have it.
  func rollback(_ n: Int) throws(StoreError) -> SourceFile?
  /// A capture's text.
  func capture(_ c: CompareCapture) throws(StoreError) -> SourceFile
  /// Where rollback `n` is read from, for a report's file names (a path), if it is a file.
  func location(ofRollback n: Int) -> String?
  /// Fails when the history moved while it was read (a commit landed on a live device): the
  /// rollback numbers read may then belong to other commits. Nothing to do for saved files.
  func checkStable() throws(StoreError)
  /// For a store of backups (``GitBackupStore``): the backups rollback `n` was recorded by, and
  /// so the span of time commit `n` (and any commits no backup recorded) happened in. nil for a
  /// store that keeps every rollback the device made.
  func backupSpan(ofRollback n: Int) -> BackupSpan?
  /// Things the user should be told about the store itself, found when it was opened.
  var notes: [String] { get }
}

extension RollbackStore {
  public var listingIsWithRollbacks: Bool { false }
  public func checkStable() throws(StoreError) {}
  public func location(ofRollback n: Int) -> String? { nil }
  public func backupSpan(ofRollback n: Int) -> BackupSpan? { nil }
  public var notes: [String] { [] }
}

/// A store with nothing in it: for a commit list read on its own (`--commits` without
/// rollbacks), so that the same ``HistoryReader`` reads it.
public struct EmptyStore: RollbackStore {
  public let name: String
  /// Creates an empty store named for messages.
  public init(name: String) { self.name = name }
  public var rollbackNumbers: Set<Int> { [] }
  public var captures: [CompareCapture] { [] }
  public func listing() throws(StoreError) -> SourceFile? { nil }
  public func rollback(_ n: Int) throws(StoreError) -> SourceFile? { nil }
  public func capture(_ c: CompareCapture) throws(StoreError) -> SourceFile { throw StoreError("\(name): no compare captures") }
}

/// A compare capture: what rollback `older` became in rollback `newer` (`show system rollback
/// NEWER compare OLDER`).
public struct CompareCapture: Sendable, Hashable {
  /// The newer rollback (the smaller number).
  public var newer: Int
  /// The older rollback.
  public var older: Int
  /// Its name for messages (a file name).
  public var name: String
  /// Where the store finds it (a path).
  public var location: String

  /// Creates a capture reference.
  public init(newer: Int, older: Int, name: String, location: String) {
    self.newer = newer
    self.older = older
    self.name = name
    self.location = location
  }
}

/// Why a history could not be read, and what kind of failure it is (the command line maps the
/// kind to its exit status).
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure.
  public enum Kind: Sendable, Equatable {
    /// A file that cannot be read or does not parse, a configuration that is not there, a
    /// listing that does not match the rollbacks.
    case invalidInput
    /// The device could not be reached or answered with an error.
    case device
  }
  /// The kind.
  public var kind: Kind
  /// The message, without a `junoscope:` prefix.
  public var message: String

  /// Creates an error.
  public init(_ message: String, kind: Kind = .invalidInput) {
    self.kind = kind
    self.message = message
  }
  public var description: String { message }
}

/// A folder of saved configurations named by their rollback number (``RollbackFiles/rollbackNumber(fileName:)``)
/// and compare captures (``RollbackFiles/compareCapture(fileName:)``). A copy of the box's own
/// folders is read too: `config/` (rollbacks 0–3) and `var/db/config/` (4–49) under it. A
/// capture bundle's `rollbacks/` folder with its `commits.xml` is one too.
public struct RollbackFolder: RollbackStore {
  /// The folder.
  public let path: String
  /// Rollback number → file.
  public let files: [Int: String]
  public let captures: [CompareCapture]
  /// The commit list kept with the rollbacks (a bundle's `commits.xml`), if any.
  public let listingPath: String?
  public var name: String { path }
  public var rollbackNumbers: Set<Int> { Set(files.keys) }
  public var listingIsWithRollbacks: Bool { listingPath != nil }

  /// Lists the folder.
  ///
  /// - Parameters:
  ///   - path: The folder.
  ///   - listing: A commit list captured together with the rollbacks (a bundle's).
  ///   - allowEmpty: Whether a folder with no rollback files or captures, or none at all, is
  ///     accepted (a bundle fetched without rollbacks); otherwise it is an error that says which
  ///     names are read.
  /// - Throws: When the folder cannot be read, two files are the same rollback, or (unless
  ///   `allowEmpty`) nothing in it is a rollback or capture.
  public init(path: String, listing: String? = nil, allowEmpty: Bool = false) throws(StoreError) {
    self.path = path
    self.listingPath = listing
    let top: [String]
    if allowEmpty && !LocalFiles.isFolder(path) {
      top = []
    } else {
      do { top = try LocalFiles.names(in: path) } catch { throw StoreError("cannot read the directory '\(path)'") }
    }
    var entries = top.map { (name: $0, path: LocalFiles.join(path, $0)) }
    for sub in ["config", "var/db/config"] {
      let folder = LocalFiles.join(path, sub)
      guard let more = try? LocalFiles.names(in: folder) else { continue }
      entries += more.map { (name: $0, path: LocalFiles.join(folder, $0)) }
    }
    var files: [Int: String] = [:]
    var captures: [CompareCapture] = []
    for (name, file) in entries {
      if let n = RollbackFiles.rollbackNumber(fileName: name) {
        if let other = files[n] {
          throw StoreError("'\(other.split(separator: "/").last ?? "")' and '\(name)' are both rollback \(n)")
        }
        files[n] = file
      } else if let c = RollbackFiles.compareCapture(fileName: name) {
        captures.append(CompareCapture(newer: c.newer, older: c.older, name: name, location: file))
      }
    }
    if files.isEmpty && captures.isEmpty && !allowEmpty {
      throw StoreError(
        "no rollback files in '\(path)' (juniper.conf[.N][.gz], rollback-N.conf, or the box's config/ and var/db/config/ folders)")
    }
    self.files = files
    self.captures = captures
  }

  public func listing() throws(StoreError) -> SourceFile? { try listingPath.map { p throws(StoreError) in try Self.read(p) } }

  public func rollback(_ n: Int) throws(StoreError) -> SourceFile? {
    guard let file = files[n] else { return nil }
    return try Self.read(file)
  }

  public func capture(_ c: CompareCapture) throws(StoreError) -> SourceFile { try Self.read(c.location) }

  public func location(ofRollback n: Int) -> String? { files[n] }

  /// A file's text, gunzipped when it is gzip data.
  public static func read(_ path: String) throws(StoreError) -> SourceFile {
    let bytes: [UInt8]
    do { bytes = try LocalFiles.read(path) } catch { throw StoreError(error.description) }
    guard Gzip.isGzip(bytes) else { return SourceFile(path: path, bytes: bytes) }
    do {
      return SourceFile(path: path, bytes: try Gzip.decompress(bytes))
    } catch {
      throw StoreError("\(path): \(error.message)")
    }
  }
}

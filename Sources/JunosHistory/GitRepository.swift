internal import CGit2
internal import Synchronization

/// A git object id (SHA-1), as 40 hexadecimal digits.
public struct GitObjectID: Sendable, Hashable, CustomStringConvertible {
  /// The 40 hexadecimal digits.
  public let hex: String
  /// The first 7 digits, as `git log --oneline` prints them.
  public var short: String { String(hex.prefix(7)) }
  public var description: String { hex }

  /// A commit's id.
  init(commit: OpaquePointer) { self.init(git_commit_id(commit)) }

  init(_ oid: UnsafePointer<git_oid>) {
    var buffer = [CChar](repeating: 0, count: 41)
    git_oid_tostr(&buffer, buffer.count, oid)
    hex = String(decoding: buffer.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The libgit2 form.
  var oid: git_oid {
    var o = git_oid()
    _ = hex.withCString { git_oid_fromstr(&o, $0) }
    return o
  }
}

/// The few things junoscope reads from a git repository, through libgit2: a revision resolved to
/// a commit, the first-parent history from it, a path's blob in each commit's tree, blob bytes and
/// the files of a tree. Nothing is checked out and no `git` binary is run; a bare repository and
/// one with a work tree open alike.
///
/// libgit2 objects must not be used by two threads at once: every call goes through one lock, so
/// an instance may be shared between threads (a history's rollbacks are read by the blame
/// workers). Every libgit2 object is freed before the call that made it returns; the repository
/// is freed with the instance.
final class GitRepository: Sendable {
  /// One commit of the first-parent history.
  struct CommitInfo: Sendable {
    /// Its id.
    var id: GitObjectID
    /// The committer time, seconds since 1970 (UTC).
    var time: Int64
    /// The id of the file's blob in the commit's tree, nil when the path is not there (or is not
    /// a file).
    var blob: GitObjectID?
  }

  /// A file of a tree.
  struct FileEntry: Sendable {
    /// Its path from the top of the repository.
    var path: String
    /// Its blob.
    var blob: GitObjectID
  }

  private struct Handle: ~Copyable {
    let repository: OpaquePointer
    deinit { git_repository_free(repository) }
  }

  /// The repository's folder, for messages.
  let path: String
  private let handle: Mutex<Handle>

  /// `git_libgit2_init` once per process (a static's initializer runs once, under a lock).
  private static let initialized: Int32 = git_libgit2_init()

  /// Opens the repository at `path` exactly (its work tree, its `.git` folder, or a bare
  /// repository; parent folders are not searched).
  init(path: String) throws(StoreError) {
    _ = Self.initialized
    var repo: OpaquePointer? = nil
    let status = git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
    guard status == 0, let repo else {
      throw StoreError("'\(path)' is not a git repository (\(Self.lastError(status)))")
    }
    self.path = path
    handle = Mutex(Handle(repository: repo))
  }

  /// libgit2's message for the last failure on this thread.
  private static func lastError(_ status: Int32) -> String {
    if let e = git_error_last(), let m = e.pointee.message {
      return String(cString: m).trimmingSuffix(while: { $0 == "\n" || $0 == "." })
    }
    return "libgit2 error \(status)"
  }

  private func failure(_ what: String, _ status: Int32) -> StoreError {
    StoreError("\(path): \(what): \(Self.lastError(status))")
  }

  /// The id git would give `bytes` as a blob (SHA-1, computed by libgit2): equal bytes, equal
  /// ids, without keeping or comparing the bytes themselves.
  static func blobID(of bytes: ArraySlice<UInt8>) -> GitObjectID {
    _ = initialized
    var oid = git_oid()
    _ = bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
    return GitObjectID(&oid)
  }

  /// The commit a revision names (`HEAD`, a branch, a tag, an id or `HEAD~3`), peeled through tags.
  func commit(_ revision: String) throws(StoreError) -> GitObjectID {
    let result: Result<GitObjectID, StoreError> = handle.withLock { h in
      var object: OpaquePointer? = nil
      var status = git_revparse_single(&object, h.repository, revision)
      guard status == 0, let object else {
        return .failure(failure("unknown revision '\(revision)'", status))
      }
      defer { git_object_free(object) }
      var peeled: OpaquePointer? = nil
      status = git_object_peel(&peeled, object, GIT_OBJECT_COMMIT)
      guard status == 0, let peeled else { return .failure(failure("revision '\(revision)' is not a commit", status)) }
      defer { git_object_free(peeled) }
      return .success(GitObjectID(git_object_id(peeled)))
    }
    return try result.get()
  }

  /// The first-parent history from `start`, newest first, with the blob `path` has in each
  /// commit (`path` relative to the top, `/` between folders). Stops after `limit` commits.
  func firstParentHistory(from start: GitObjectID, path: String, limit: Int = .max) throws(StoreError) -> [CommitInfo] {
    let result: Result<[CommitInfo], StoreError> = handle.withLock { h in
      var out: [CommitInfo] = []
      var next: git_oid? = start.oid
      while let oid = next, out.count < limit {
        let step = withCommit(h.repository, oid) { commit, tree in
          out.append(CommitInfo(id: GitObjectID(commit: commit), time: Int64(git_commit_time(commit)), blob: Self.blob(at: path, in: tree)))
          next = git_commit_parentcount(commit) > 0 ? git_commit_parent_id(commit, 0)?.pointee : nil
        }
        if case .failure(let e) = step { return .failure(e) }
      }
      return .success(out)
    }
    return try result.get()
  }

  /// Calls `body` with a commit and its tree, freed when it returns.
  private func withCommit<T>(_ repository: OpaquePointer, _ id: git_oid, _ body: (OpaquePointer, OpaquePointer) -> T) -> Result<
    T, StoreError
  > {
    var oid = id
    var commit: OpaquePointer? = nil
    var status = git_commit_lookup(&commit, repository, &oid)
    guard status == 0, let commit else { return .failure(failure("cannot read commit \(GitObjectID(&oid).short)", status)) }
    defer { git_commit_free(commit) }
    var tree: OpaquePointer? = nil
    status = git_commit_tree(&tree, commit)
    guard status == 0, let tree else { return .failure(failure("cannot read the tree of commit \(GitObjectID(&oid).short)", status)) }
    defer { git_tree_free(tree) }
    return .success(body(commit, tree))
  }

  /// The blob at `path` in a tree, nil when there is none (or it is a folder or a submodule).
  private static func blob(at path: String, in tree: OpaquePointer) -> GitObjectID? {
    var entry: OpaquePointer? = nil
    guard git_tree_entry_bypath(&entry, tree, path) == 0, let entry else { return nil }
    defer { git_tree_entry_free(entry) }
    guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return nil }
    return GitObjectID(git_tree_entry_id(entry))
  }

  /// A blob's bytes.
  func blob(_ id: GitObjectID) throws(StoreError) -> [UInt8] {
    let result: Result<[UInt8], StoreError> = handle.withLock { h in
      var blob: OpaquePointer? = nil
      var oid = id.oid
      let status = git_blob_lookup(&blob, h.repository, &oid)
      guard status == 0, let blob else { return .failure(failure("cannot read blob \(id.short)", status)) }
      defer { git_blob_free(blob) }
      let size = Int(git_blob_rawsize(blob))
      guard size > 0, let raw = git_blob_rawcontent(blob) else { return .success([]) }
      return .success(Array(UnsafeRawBufferPointer(start: raw, count: size)))
    }
    return try result.get()
  }

  /// Every file of a commit's tree, in tree order (folders walked depth first).
  func files(in commit: GitObjectID) throws(StoreError) -> [FileEntry] {
    let result: Result<[FileEntry], StoreError> = handle.withLock { h in
      withCommit(h.repository, commit.oid) { _, root in Self.files(under: root, h.repository) }
    }
    return try result.get()
  }

  /// The files under a tree (its folders' trees are looked up and freed here).
  private static func files(under root: OpaquePointer, _ repository: OpaquePointer) -> [FileEntry] {
    var out: [FileEntry] = []
    // (tree, its path, whether it is freed here).
    var pending: [(OpaquePointer, String, Bool)] = [(root, "", false)]
    while let item = pending.popLast() {
      let (tree, prefix, owned) = item
      defer { if owned { git_tree_free(tree) } }
      var subtrees: [(OpaquePointer, String, Bool)] = []
      for k in 0..<git_tree_entrycount(tree) {
        guard let entry = git_tree_entry_byindex(tree, k), let name = git_tree_entry_name(entry) else { continue }
        let path = prefix + String(cString: name)
        switch git_tree_entry_type(entry) {
        case GIT_OBJECT_BLOB:
          out.append(FileEntry(path: path, blob: GitObjectID(git_tree_entry_id(entry))))
        case GIT_OBJECT_TREE:
          var sub: OpaquePointer? = nil
          if git_tree_lookup(&sub, repository, git_tree_entry_id(entry)) == 0, let sub { subtrees.append((sub, path + "/", true)) }
        default:
          continue
        }
      }
      pending += subtrees.reversed()
    }
    return out
  }
}

extension String {
  /// The string without the characters at its end that match.
  fileprivate func trimmingSuffix(while match: (Character) -> Bool) -> String {
    var s = Substring(self)
    while let last = s.last, match(last) { s = s.dropLast() }
    return String(s)
  }
}

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Reading files and folders of the local file system, for the libraries that read saved
/// histories (and for the command line). POSIX calls only; safe from any thread.
public enum LocalFiles {
  /// A file or folder that could not be read: `cannot read 'r1/juniper.conf.gz': permission denied`.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// What went wrong, in words (``reason(_:)``).
    public var reason: String
    /// Creates a failure.
    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }
    public var description: String { "cannot read '\(path)': \(reason)" }
  }

  /// Reads a file to its end: a regular file, or a pipe, FIFO or device (`<(ssh r1 …)`,
  /// `/dev/stdin`; `/dev/null` is empty). A folder is a failure (`is a directory`).
  public static func read(_ path: String) throws(Failure) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw Failure(path: path, reason: reason(errno)) }
    defer { close(fd) }
    var st = stat()
    if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { throw Failure(path: path, reason: "is a directory") }
    var out = [UInt8]()
    if (st.st_mode & S_IFMT) == S_IFREG { out.reserveCapacity(Int(st.st_size)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if n == 0 { return out }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(path: path, reason: reason(errno))
      }
      out.append(contentsOf: chunk[..<n])
    }
  }

  /// The names in a folder (not `.` or `..`), sorted by their bytes.
  public static func names(in folder: String) throws(Failure) -> [String] {
    guard let d = opendir(folder) else { throw Failure(path: folder, reason: reason(errno)) }
    defer { closedir(d) }
    var out: [String] = []
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { out.append(name) }
    }
    return out.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }

  /// Whether `path` is a folder (following symbolic links).
  public static func isFolder(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// `folder/name`, without doubling a trailing `/`.
  public static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The words of an `open`/`read` failure.
  public static func reason(_ e: Int32) -> String {
    switch e {
    case ENOENT: "no such file"
    case EACCES, EPERM: "permission denied"
    case EISDIR: "is a directory"
    case ENOTDIR: "not a folder"
    case ENOSPC: "no space left on the device"
    case EROFS: "read-only file system"
    default: String(cString: strerror(e))
    }
  }

  private static func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, p, n)
    #else
      Darwin.read(fd, p, n)
    #endif
  }
}

// BenchSystem.swift
//
// The few operating-system services the benchmark needs, on top of Glibc only: a monotonic
// clock, whole-file I/O, temporary directories, spawning a process and timing it, and the
// resident-memory counters of /proc/self/status.

import Glibc

/// A failure that ends the benchmark with a message on standard error.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ message: String) { description = message }
}

/// Nanoseconds on `CLOCK_MONOTONIC` (never jumps with wall-clock changes).
@inline(never)
func monotonicNanos() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Writes a string to standard error (progress and failures; standard output stays clean for JSON).
func printError(_ text: String) {
  var line = text
  line += "\n"
  line.withUTF8 { buf in
    var off = 0
    while off < buf.count {
      let n = write(2, buf.baseAddress! + off, buf.count - off)
      if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
      off += n
    }
  }
}

func errnoText() -> String { String(cString: strerror(errno)) }

/// Reads a whole file into memory with exactly one allocation of the file's size (regular files).
func readWholeFile(_ path: String) throws -> [UInt8] {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { throw BenchError("cannot open \(path): \(errnoText())") }
  defer { close(fd) }
  var st = stat()
  guard fstat(fd, &st) == 0 else { throw BenchError("cannot stat \(path): \(errnoText())") }
  let size = Int(st.st_size)
  var failure: String?
  var bytes = [UInt8](unsafeUninitializedCapacity: size) { buf, count in
    count = 0
    while count < size {
      let n = read(fd, buf.baseAddress! + count, size - count)
      if n < 0 && errno == EINTR { continue }
      if n < 0 { failure = errnoText(); return }
      if n == 0 { break }
      count += n
    }
  }
  if let failure { throw BenchError("cannot read \(path): \(failure)") }
  // Files whose size fstat does not know (/proc) are read in chunks.
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { break }
    bytes.append(contentsOf: chunk[0..<n])
  }
  return bytes
}

/// Creates or truncates a file and writes `bytes` to it.
func writeWholeFile(_ path: String, _ bytes: [UInt8]) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw BenchError("cannot create \(path): \(errnoText())") }
  defer { close(fd) }
  try bytes.withUnsafeBytes { buf in
    var off = 0
    while off < buf.count {
      let n = write(fd, buf.baseAddress! + off, buf.count - off)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { throw BenchError("cannot write \(path): \(errnoText())") }
      off += n
    }
  }
}

/// A fresh private directory under `$TMPDIR` (or /tmp).
func makeTemporaryDirectory() throws -> String {
  let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
  var template = Array("\(base)/junoscope-bench.XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { buf in
    mkdtemp(buf.baseAddress!).map { String(cString: $0) }
  }
  guard let path else { throw BenchError("cannot create a temporary directory in \(base): \(errnoText())") }
  return path
}

/// Creates a directory if it does not exist yet (one level).
func ensureDirectory(_ path: String) throws {
  if mkdir(path, 0o755) != 0 && errno != EEXIST {
    throw BenchError("cannot create directory \(path): \(errnoText())")
  }
}

/// Removes the listed files, then the directory (which must then be empty).
func removeDirectory(_ dir: String, files: [String]) {
  for f in files { unlink(f) }
  rmdir(dir)
}

/// The absolute path of the running executable, to re-execute it for child measurements.
func currentExecutablePath() throws -> String {
  var buf = [CChar](repeating: 0, count: 4097)
  let n = readlink("/proc/self/exe", &buf, 4096)
  guard n > 0 else { throw BenchError("cannot read /proc/self/exe: \(errnoText())") }
  return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// What a child process did: its exit status, its standard output and how long it ran.
struct ChildOutcome {
  /// Exit code, or 128 + signal number if it was killed.
  var status: Int32
  /// Everything it wrote to standard output.
  var output: [UInt8]
  /// Nanoseconds from just before `posix_spawnp` to `wait4` returning.
  var nanos: UInt64
  /// CPU time of the child (user + system), nanoseconds, microsecond resolution: unlike `nanos`,
  /// hardly affected by other processes competing for the cores.
  var cpuNanos: UInt64
  /// Peak resident memory of the child (`ru_maxrss`), bytes.
  var maxRSSBytes: Int = 0
}

/// Runs `argv` (looked up in `$PATH`) with exactly the environment `env`, capturing its
/// standard output through a pipe, or sending it to the file `stdout` (e.g. /dev/null) and
/// capturing nothing; standard error is inherited.
func runChild(_ argv: [String], env: [String], stdout: String? = nil) throws -> ChildOutcome {
  var fds: [Int32] = [-1, -1]
  guard pipe(&fds) == 0 else { throw BenchError("pipe failed: \(errnoText())") }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  // In the child: the pipe's write end (or the file) becomes standard output; both original
  // ends are closed, so the parent's read end sees end-of-file once the child has started.
  if let stdout {
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY, 0)
  } else {
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
  }
  posix_spawn_file_actions_addclose(&actions, fds[0])
  posix_spawn_file_actions_addclose(&actions, fds[1])

  let cArgv: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
  let cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
  defer {
    for p in cArgv { free(p) }
    for p in cEnv { free(p) }
  }

  var pid: pid_t = 0
  let t0 = monotonicNanos()
  let rc = posix_spawnp(&pid, argv[0], &actions, nil, cArgv, cEnv)
  close(fds[1])
  guard rc == 0 else {
    close(fds[0])
    throw BenchError("cannot run \(argv[0]): \(String(cString: strerror(rc)))")
  }
  var output: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress!, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { break }
    output.append(contentsOf: chunk[0..<n])
  }
  close(fds[0])
  var wstatus: Int32 = 0
  var usage = rusage()
  while wait4(pid, &wstatus, 0, &usage) < 0 {
    guard errno == EINTR else { throw BenchError("wait4 failed: \(errnoText())") }
  }
  let t1 = monotonicNanos()
  func nanos(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1000 }
  // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
  let signal = wstatus & 0x7F
  let status = signal == 0 ? (wstatus >> 8) & 0xFF : 128 + signal
  return ChildOutcome(
    status: status, output: output, nanos: t1 - t0, cpuNanos: nanos(usage.ru_utime) + nanos(usage.ru_stime),
    maxRSSBytes: Int(usage.ru_maxrss) * 1024)
}

/// Resident-set figures of this process from /proc/self/status, in bytes.
struct ResidentMemory {
  /// `VmRSS`: resident now.
  var current: Int
  /// `VmHWM`: the peak resident size since start or since the last `resetPeak()`.
  var peak: Int

  /// Reads the current figures.
  static func read() throws -> ResidentMemory {
    let text = try readWholeFile("/proc/self/status")
    var rss = -1
    var hwm = -1
    for line in text.split(separator: 0x0A) {
      // "VmRSS:\t   13600 kB"
      let s = String(decoding: line, as: UTF8.self)
      let kb = Int(String(s.filter(\.isASCII).filter(\.isNumber))) ?? -1
      if s.hasPrefix("VmRSS:") { rss = kb * 1024 }
      if s.hasPrefix("VmHWM:") { hwm = kb * 1024 }
    }
    guard rss >= 0, hwm >= 0 else { throw BenchError("no VmRSS/VmHWM in /proc/self/status") }
    return ResidentMemory(current: rss, peak: hwm)
  }

  /// Resets `VmHWM` to the current resident size (`echo 5 > /proc/self/clear_refs`, Linux 4.0+).
  /// Returns false where the kernel or a sandbox does not allow it.
  static func resetPeak() -> Bool {
    let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var five: UInt8 = 0x35
    return write(fd, &five, 1) == 1
  }
}

// ReviewBench.swift
//
// `junoscope-bench review`: a git repository of backups written the way Oxidized keeps one (a
// file per device, a commit per backup, interleaved in time across the fleet), made of D devices
// × C commits of a generated configuration of N lines each (RollbackChain: every backup carries
// the device's `## Last commit` header), then, each in a fresh child process:
//   - review: `junoscope review --git REPO --since … --until …` over the whole history, JSON to
//     /dev/null — every device's commits, batches, diffs, findings and blame;
// against the baseline measured in the same run: `git log -p` over the same repository to
// /dev/null (reading every version and diffing each against the one before it). Wall time, CPU
// time and peak resident memory (the child's `ru_maxrss`).

import Glibc
import JunosHistory
import JunoscopeTestSupport

/// The issue's target: review at most twice the wall time of `git log -p`.
let reviewTargetRatio = 2.0

/// One run's figures.
struct ReviewRun {
  var devices: Int
  var commits: Int
  var lines: Int
  var fileBytes: Int
  var repositoryBytes: Int
  var review: [ChildOutcome]
  var gitLog: [ChildOutcome]
  /// What the review reported (devices changed, batches), from its JSON.
  var summary: String
}

/// Options of `review` beyond the common ones.
struct ReviewBenchOptions {
  var devices = 50
  var commits = 50
}

/// The device file names: `r00`, `r01`, … as Oxidized names files after the node.
func benchDeviceName(_ d: Int, of count: Int) -> String {
  let width = String(max(1, count - 1)).count
  let digits = String(d)
  return "r" + String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Writes the repository with `git fast-import`: each device's versions as blobs first (so that
/// one device's versions are neighbours, as git's deltas want them, and only one chain is in
/// memory at a time), then one commit per backup in time order, the backup made a minute after
/// the Junos commit it records. Returns the first and last Junos commit times (UTC seconds) and
/// the size of the newest configuration.
func writeBackupRepository(_ repo: String, devices: Int, commits: Int, lines: Int) throws -> (first: Int64, last: Int64, bytes: Int) {
  guard runChildQuietly(["git", "init", "-q", "-b", "main", repo]) == 0 else { throw BenchError("git init \(repo) failed") }
  guard let pipe = popen("git -C '\(repo)' fast-import --quiet", "w") else { throw BenchError("cannot run git fast-import") }
  var pipeClosed = false
  defer { if !pipeClosed { pclose(pipe) } }
  func emit(_ bytes: [UInt8]) throws {
    let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, pipe) }
    guard n == bytes.count else { throw BenchError("git fast-import stopped reading: \(errnoText())") }
  }
  func emit(_ text: String) throws { try emit(Array(text.utf8)) }

  struct Backup {
    var time: Int64
    var device: Int
    var mark: Int
    var user: String
  }
  var backups: [Backup] = []
  var newestBytes = 0
  for d in 0..<devices {
    let chain = RollbackChain(
      seed: benchSeed &+ UInt64(d), commits: commits, interfaces: max(4, lines / 19), editsPerCommit: 3...8)
    newestBytes = max(newestBytes, chain.rollbacks[0].utf8.count)
    for k in stride(from: commits - 1, through: 0, by: -1) {
      let mark = d * commits + (commits - 1 - k) + 1
      let text = Array(chain.rollbacks[k].utf8)
      try emit("blob\nmark :\(mark)\ndata \(text.count)\n")
      try emit(text)
      try emit("\n")
      let info = chain.commits[k]
      guard let t = utcSeconds(info.time) else { throw BenchError("generated time '\(info.time)' does not read back") }
      backups.append(Backup(time: t + 60, device: d, mark: mark, user: info.user))
    }
  }
  backups.sort { ($0.time, $0.device) < ($1.time, $1.device) }
  for b in backups {
    let name = benchDeviceName(b.device, of: devices)
    let message = "\(name): backup after a commit by \(b.user)\n"
    try emit("commit refs/heads/main\ncommitter oxidized <oxidized@example.net> \(b.time) +0000\n")
    try emit("data \(message.utf8.count)\n\(message)M 100644 :\(b.mark) \(name)\n\n")
  }
  pipeClosed = true
  guard pclose(pipe) == 0 else { throw BenchError("git fast-import failed") }
  guard let first = backups.first, let last = backups.last else { throw BenchError("no backups generated") }
  return (first.time - 60, last.time - 60, newestBytes)
}

/// `YYYY-MM-DD HH:MM:SS` (UTC) → seconds since 1970, as the history parser reads it.
func utcSeconds(_ text: String) -> Int64? {
  let parts = text.split(separator: " ")
  guard parts.count == 2 else { return nil }
  return CommitListParser.localTime(parts[0], parts[1])?.secondsAsUTC
}

/// Runs a command with its output discarded; its exit status.
func runChildQuietly(_ argv: [String]) -> Int32 {
  (try? runChild(argv, env: benchChildEnvironment, stdout: "/dev/null").status) ?? 127
}

/// The environment of the timed children: the C locale, the caller's PATH (git and junoscope are
/// looked up there or given as paths) and HOME (git reads its configuration from there).
var benchChildEnvironment: [String] {
  var env = ["LC_ALL=C"]
  for name in ["PATH", "HOME"] { if let v = getenv(name) { env.append("\(name)=\(String(cString: v))") } }
  return env
}

/// Disk use of a folder, in bytes (`du -sb`).
func folderBytes(_ path: String) -> Int {
  guard let r = try? runChild(["du", "-sb", path], env: benchChildEnvironment), r.status == 0 else { return -1 }
  return Int(String(decoding: r.output.prefix { $0 != 0x09 }, as: UTF8.self)) ?? -1
}

/// Generates the repository, then times the review and `git log -p` in child processes, one
/// warm-up each, samples interleaved.
func runReviewBench(_ options: BenchOptions, _ fleet: ReviewBenchOptions) throws -> ReviewRun {
  let exe = try currentExecutablePath()
  let junoscope = String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/junoscope"
  guard access(junoscope, X_OK) == 0 else {
    throw BenchError("no junoscope beside junoscope-bench (\(junoscope)): build it with the same configuration first")
  }
  let lines = options.lines.first ?? 100_000
  let directory = try options.keepDirectory ?? makeTemporaryDirectory()
  try ensureDirectory(directory)
  let repo = directory + "/backups"
  let made = try writeBackupRepository(repo, devices: fleet.devices, commits: fleet.commits, lines: lines)
  // The whole history: from the oldest Junos commit to the newest, both included.
  let since = iso8601UTC(made.first)
  let until = iso8601UTC(made.last)
  let reviewArgv = [junoscope, "review", "--git", repo, "--since", since, "--until", until, "--format", "json"]
  let gitArgv = ["git", "-C", repo, "log", "-p", "--no-color", "--no-ext-diff"]
  func checked(_ argv: [String], stdout: String? = "/dev/null") throws -> ChildOutcome {
    let r = try runChild(argv, env: benchChildEnvironment, stdout: stdout)
    guard r.status == 0 else { throw BenchError("\(argv.prefix(3).joined(separator: " ")) exited with status \(r.status)") }
    return r
  }
  // Correctness first (untimed): every device changed, with its commits in the report.
  let report = try checked(reviewArgv, stdout: nil)
  let summary = reviewSummary(report.output, devices: fleet.devices)
  _ = try checked(gitArgv)
  var run = ReviewRun(
    devices: fleet.devices, commits: fleet.commits, lines: lines, fileBytes: made.bytes, repositoryBytes: folderBytes(repo),
    review: [], gitLog: [], summary: summary)
  for _ in 0..<options.samples {
    run.review.append(try checked(reviewArgv))
    run.gitLog.append(try checked(gitArgv))
  }
  run.review.sort { $0.nanos < $1.nanos }
  run.gitLog.sort { $0.nanos < $1.nanos }
  if options.keepDirectory == nil { _ = runChildQuietly(["rm", "-rf", directory]) }
  return run
}

/// `50 of 50 devices changed in the review, 612 batches (3 risky)` from the review's JSON
/// (`junoscope.review`: the devices' `status`, the `summary` counts), or why it does not look right.
func reviewSummary(_ json: [UInt8], devices: Int) -> String {
  let text = String(decoding: json, as: UTF8.self)
  func count(_ needle: String) -> Int { text.ranges(of: needle).count }
  /// The first `"key": N` of the text (the summary comes before the devices).
  func first(_ key: String) -> String {
    guard let r = text.firstRange(of: "\"\(key)\": ") else { return "?" }
    return String(text[r.upperBound...].prefix { $0.isNumber })
  }
  let changed = count("\"status\": \"changed\"") + count("\"status\":\"changed\"")
  guard text.contains("\"format\": \"junoscope.review\"") else { return "not a junoscope.review report" }
  return "\(changed) of \(devices) devices changed in the review, \(first("batches")) batches (\(first("riskyBatches")) risky)"
}

func reviewTableReport(_ run: ReviewRun) -> String {
  func ms(_ ns: UInt64) -> String { fixed(Double(ns) / 1e6, 1) + " ms" }
  func mb(_ n: Int) -> String { fixed(Double(n) / 1_048_576, 1) + " MiB" }
  let best = Double(run.review[0].nanos) / Double(run.gitLog[0].nanos)
  var s = "junoscope-bench review: a git repository of backups (Oxidized layout), best / median of \(run.review.count) samples\n\n"
  s +=
    "\(run.devices) devices × \(run.commits) commits of \(grouped(run.lines)) lines (\(fixed(Double(run.fileBytes) / 1e6, 2)) MB a version); "
  s += "repository \(mb(run.repositoryBytes)) on disk\n"
  s += "  check: \(run.summary)\n"
  func line(_ name: String, _ v: [ChildOutcome]) {
    let median = v[v.count / 2]
    s += "  " + pad(name, 30, right: false) + pad(ms(v[0].nanos), 12, right: true) + " / " + pad(ms(median.nanos), 12, right: true)
    s += "   CPU " + ms(v[0].cpuNanos) + ", peak memory " + mb(v.map(\.maxRSSBytes).max() ?? 0) + "\n"
  }
  line("junoscope review (whole window)", run.review)
  line("git log -p", run.gitLog)
  s += "  ratio: \(fixed(best, 2))× git log -p (best against best); target ≤ \(fixed(reviewTargetRatio, 0))×: "
  s += best <= reviewTargetRatio ? "met\n" : "NOT met\n"
  return s
}

func reviewJSONReport(_ run: ReviewRun) -> String {
  object([
    ("benchmark", string("review")), ("seed", "\(benchSeed)"), ("devices", "\(run.devices)"), ("commits", "\(run.commits)"),
    ("lines", "\(run.lines)"), ("fileBytes", "\(run.fileBytes)"), ("repositoryBytes", "\(run.repositoryBytes)"),
    ("check", string(run.summary)),
    ("reviewBestMs", number(Double(run.review[0].nanos) / 1e6)),
    ("reviewMedianMs", number(Double(run.review[run.review.count / 2].nanos) / 1e6)),
    ("reviewCPUBestMs", number(Double(run.review[0].cpuNanos) / 1e6)),
    ("reviewPeakBytes", "\(run.review.map(\.maxRSSBytes).max() ?? 0)"),
    ("gitLogBestMs", number(Double(run.gitLog[0].nanos) / 1e6)),
    ("gitLogMedianMs", number(Double(run.gitLog[run.gitLog.count / 2].nanos) / 1e6)),
    ("gitLogPeakBytes", "\(run.gitLog.map(\.maxRSSBytes).max() ?? 0)"),
    ("ratio", number(Double(run.review[0].nanos) / Double(run.gitLog[0].nanos))),
  ])
}

/// Takes `--devices N` and `--commits N` (or `--name=N`) out of the arguments; nil when one is
/// not a positive count.
func reviewBenchOptions(_ arguments: inout [String]) -> ReviewBenchOptions? {
  var fleet = ReviewBenchOptions()
  var rest: [String] = []
  var k = 0
  while k < arguments.count {
    let a = arguments[k]
    let name = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
    guard name == "--devices" || name == "--commits" else {
      rest.append(a)
      k += 1
      continue
    }
    var value: Substring?
    if a.contains("=") {
      value = a.split(separator: "=", maxSplits: 1).last
    } else if k + 1 < arguments.count {
      value = arguments[k + 1][...]
      k += 1
    }
    guard let value, let n = parseCount(value) else { return nil }
    if name == "--devices" { fleet.devices = n } else { fleet.commits = n }
    k += 1
  }
  guard fleet.commits >= 2 else { return nil }
  arguments = rest
  return fleet
}

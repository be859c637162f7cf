// ParseBench.swift
//
// `junoscope-bench parse`: generates curly configurations of the requested sizes and their
// `display set` renderings, then measures for each file
//   - the parse time (warm-up + N timed samples, in this process),
//   - the time of `wc -l FILE` as a baseline (N runs, spawn to exit),
//   - the peak memory of one parse, in a fresh child process (`_parse-once`).

import Glibc
import JunosConfig

/// Options of `junoscope-bench parse` and `junoscope-bench compare`.
struct BenchOptions {
  /// Sizes of the generated curly configurations, in lines.
  var lines: [Int] = [10_000, 100_000, 1_000_000]
  /// Timed samples per file (or pair of files) after one untimed warm-up.
  var samples = 10
  /// Where to write the generated files and keep them; nil: a temporary directory, removed.
  var keepDirectory: String?
  /// Print JSON instead of the table.
  var json = false
}

/// Seed of the generated configurations, fixed so that every run parses the same bytes.
let benchSeed: UInt64 = 0x4A55_4E4F_5343_4F50

/// The peak-memory target: peak extra resident memory at most this many times the file size.
let peakMemoryTargetRatio = 4.0
/// The speed target: curly parsing of the 1M-line configuration at this many MB/s or more.
let curlySpeedTargetMBps = 200.0
/// The configuration size the speed target is about.
let curlySpeedTargetLines = 1_000_000

/// Resident-memory figures of one parse in a fresh child process, in bytes.
struct MemoryFigures {
  /// Size of the parsed file.
  var fileBytes: Int
  /// `VmRSS` just after resetting `VmHWM`, before the file is read.
  var baseline: Int
  /// `VmRSS` once the file's bytes are in memory.
  var afterRead: Int
  /// `VmHWM` after the parse: the highest resident size while reading and parsing.
  var peak: Int
  /// `VmRSS` after the parse, file bytes and `ParseResult` still alive.
  var end: Int
  /// Whether `VmHWM` could be reset before the baseline (if not, `peak` may include start-up).
  var peakWasReset: Bool
  /// Statements in the parsed tree (cross-check with the timed parses).
  var statements: Int

  /// Peak resident memory added by reading and parsing the file.
  var peakExtra: Int { peak - baseline }
  /// Resident memory still added after the parse (file bytes + result).
  var heldExtra: Int { end - baseline }
  /// `peakExtra` / file size.
  var peakRatio: Double { Double(peakExtra) / Double(max(fileBytes, 1)) }
  /// `heldExtra` / file size.
  var heldRatio: Double { Double(heldExtra) / Double(max(fileBytes, 1)) }
}

/// Measurements of one file (one configuration size in one syntax).
struct BenchRow {
  /// The size asked of the generator (the curly file's nominal line count).
  var configLines: Int
  var syntax: ConfigSyntax
  var path: String
  /// Newline count of the file itself.
  var lines: Int
  var bytes: Int
  var statements: Int
  /// Timed parse samples, nanoseconds, sorted ascending.
  var samples: [UInt64]
  /// Best `wc -l` wall time, nanoseconds.
  var wcBest: UInt64
  var memory: MemoryFigures

  var best: UInt64 { samples[0] }
  var median: Double {
    let n = samples.count
    return n % 2 == 1 ? Double(samples[n / 2]) : (Double(samples[n / 2 - 1]) + Double(samples[n / 2])) / 2
  }
  /// Throughput of the best sample, 10^6 bytes per second.
  var mbps: Double { megabytesPerSecond(bytes, Double(best)) }
  /// Throughput of the median sample.
  var medianMBps: Double { megabytesPerSecond(bytes, median) }
  /// Throughput of the best `wc -l` run.
  var wcMBps: Double { megabytesPerSecond(bytes, Double(wcBest)) }
  /// Parse throughput as a fraction of `wc -l` throughput.
  var parseOverWc: Double { mbps / wcMBps }
}

func megabytesPerSecond(_ bytes: Int, _ nanos: Double) -> Double {
  nanos > 0 ? Double(bytes) * 1000 / nanos : .infinity
}

/// Everything one `parse` run measured.
struct BenchRun {
  var options: BenchOptions
  var rows: [BenchRow]
  /// Sum of the statement counts of every timed parse (keeps the work observable).
  var checksum: Int
  var directory: String
  var kept: Bool
}

/// Where a run writes its files: `--keep DIR` (created if needed), or a new temporary directory.
func benchDirectory(_ options: BenchOptions) throws -> String {
  guard let keep = options.keepDirectory else { return try makeTemporaryDirectory() }
  try ensureDirectory(keep)
  return keep
}

/// Runs the whole benchmark; progress goes to standard error.
func runParseBench(_ options: BenchOptions) throws -> BenchRun {
  let executable = try currentExecutablePath()
  let directory = try benchDirectory(options)
  var created: [String] = []
  defer { if options.keepDirectory == nil { removeDirectory(directory, files: created) } }

  var rows: [BenchRow] = []
  var checksum = 0
  for n in options.lines {
    let curlyPath = "\(directory)/bench-\(n).conf"
    let setPath = "\(directory)/bench-\(n).set"
    printError("[\(n) lines] generating \(curlyPath) and \(setPath)")
    do {
      var generator = ConfigGenerator(seed: benchSeed)
      let curly = generator.curly(lines: n)
      try writeWholeFile(curlyPath, curly)
      created.append(curlyPath)
      let parsed = ConfigParser.parse(SourceFile(path: curlyPath, bytes: curly), syntax: .curly)
      try requireNoErrors(parsed, curlyPath, .curly)
      try writeWholeFile(setPath, parsed.tree.renderSet(RenderOptions(showSecrets: true)))
      created.append(setPath)
    }
    for (syntax, path) in [(ConfigSyntax.curly, curlyPath), (.set, setPath)] {
      printError("[\(n) lines] measuring \(syntax.rawValue)")
      rows.append(try measure(path, syntax, configLines: n, samples: options.samples, executable: executable, checksum: &checksum))
    }
  }
  return BenchRun(options: options, rows: rows, checksum: checksum, directory: directory, kept: options.keepDirectory != nil)
}

func requireNoErrors(_ result: ParseResult, _ path: String, _ syntax: ConfigSyntax) throws {
  guard result.hasErrors else { return }
  let first = result.diagnostics.filter { $0.severity == .error }.prefix(5).map(\.rendered)
  throw BenchError(
    "parsing \(path) as \(syntax.rawValue) reported \(result.diagnostics.count) diagnostics, e.g.\n  "
      + first.joined(separator: "\n  "))
}

/// Measures one file: `wc -l` baseline, timed parses, one child process for memory.
private func measure(
  _ path: String, _ syntax: ConfigSyntax, configLines: Int, samples: Int, executable: String, checksum: inout Int
) throws -> BenchRow {
  // Read once, untimed; every sample parses these same bytes.
  let bytes = try readWholeFile(path)
  let lines = bytes.withUnsafeBufferPointer { buf in buf.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }

  // Baseline: `wc -l FILE` as a subprocess, from spawn to exit.
  var wcBest = UInt64.max
  for _ in 0..<samples {
    let run = try runChild(["wc", "-l", path], env: ["LC_ALL=C"])
    guard run.status == 0 else { throw BenchError("wc -l \(path) exited with status \(run.status)") }
    let count = Int(String(decoding: run.output, as: UTF8.self).split(separator: " ").first ?? "")
    guard count == lines else { throw BenchError("wc -l \(path) counted \(count ?? -1) lines, expected \(lines)") }
    wcBest = min(wcBest, run.nanos)
  }

  // Parse: one warm-up, then the timed samples.
  var statements = 0
  func once() throws -> UInt64 {
    let t0 = monotonicNanos()
    let result = ConfigParser.parse(SourceFile(path: path, bytes: bytes), syntax: syntax)
    let t1 = monotonicNanos()
    try requireNoErrors(result, path, syntax)
    statements = result.tree.statementCount
    checksum &+= statements
    return t1 - t0
  }
  _ = try once()
  var times: [UInt64] = []
  for _ in 0..<samples { times.append(try once()) }
  times.sort()

  // Memory: a fresh process parses the file once and reports its resident-set counters.
  let child = try runChild([executable, "_parse-once", path, syntax.rawValue], env: [])
  guard child.status == 0 else { throw BenchError("_parse-once \(path) \(syntax.rawValue) exited with status \(child.status)") }
  let memory = try decodeMemoryReport(child.output)
  guard memory.statements == statements, memory.fileBytes == bytes.count else {
    throw BenchError("_parse-once \(path) disagrees: \(memory.statements) statements / \(memory.fileBytes) bytes")
  }
  return BenchRow(
    configLines: configLines, syntax: syntax, path: path, lines: lines, bytes: bytes.count, statements: statements,
    samples: times, wcBest: wcBest, memory: memory)
}

// MARK: - Memory child

/// `junoscope-bench _parse-once FILE curly|set`: parses FILE once in this fresh process and prints
/// its resident-memory counters as `key=value` pairs; the exit status is 0 only for a clean parse.
func parseOnceChild(_ arguments: [String]) -> Int32 {
  guard arguments.count == 2, let syntax = ConfigSyntax(rawValue: arguments[1]) else {
    printError("usage: junoscope-bench _parse-once FILE curly|set")
    return 2
  }
  let path = arguments[0]
  do {
    // The built-in keyword table and Juniper's schema (decoded when the standard model is first
    // made) are process-wide constants; build them before the baseline.
    _ = KeywordTable.standard.entries.count
    _ = ConfigModel.standard.matcher != nil
    let reset = ResidentMemory.resetPeak()
    let before = try ResidentMemory.read()
    let bytes = try readWholeFile(path)
    let afterRead = try ResidentMemory.read()
    let result = ConfigParser.parse(SourceFile(path: path, bytes: bytes), syntax: syntax)
    let after = try ResidentMemory.read()
    try requireNoErrors(result, path, syntax)
    print(
      "file_bytes=\(bytes.count) baseline_rss=\(before.current) baseline_hwm=\(before.peak)"
        + " after_read_rss=\(afterRead.current) peak_hwm=\(after.peak) end_rss=\(after.current)"
        + " statements=\(result.tree.statementCount) peak_reset=\(reset ? 1 : 0)")
    withExtendedLifetime((bytes, result)) {}
    return 0
  } catch {
    printError("junoscope-bench _parse-once: \(error)")
    return 1
  }
}

private func decodeMemoryReport(_ output: [UInt8]) throws -> MemoryFigures {
  var values: [String: Int] = [:]
  for pair in String(decoding: output, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
    let kv = pair.split(separator: "=", maxSplits: 1)
    if kv.count == 2, let v = Int(kv[1]) { values[String(kv[0])] = v }
  }
  func get(_ key: String) throws -> Int {
    guard let v = values[key] else { throw BenchError("_parse-once printed no \(key): \(String(decoding: output, as: UTF8.self))") }
    return v
  }
  return MemoryFigures(
    fileBytes: try get("file_bytes"), baseline: try get("baseline_rss"), afterRead: try get("after_read_rss"),
    peak: try get("peak_hwm"), end: try get("end_rss"), peakWasReset: try get("peak_reset") == 1,
    statements: try get("statements"))
}

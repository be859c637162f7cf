// CompareBench.swift
//
// `junoscope-bench compare`: for each size, generates a curly configuration and a copy with
// `compareEdits` edits spread through it (CompareEdits.swift), then measures in the same run
//   - GNU `diff OLD NEW > /dev/null`, spawn to exit,
//   - junoscope's whole compare in a fresh process (`_compare-once OLD NEW`: read both files,
//     parse, ConfigDiff, renderJunos, write to /dev/null), spawn to exit, with the time of each
//     step as the child measured it,
//   - the peak memory of that process (one more `_compare-once --memory` run),
// and checks that the difference found is the one the edits made.

import Glibc
import JunosConfig
import JunosDiff

/// Edits between the two configurations of each size.
let compareEdits = 100
/// Seed of the edits (the configuration itself uses `benchSeed`, as `parse` does).
let compareEditSeed: UInt64 = benchSeed ^ 0xED17_0000_0000_0001
/// The speed target: junoscope's compare within this many times GNU diff's wall time...
let compareSpeedTargetRatio = 2.0
/// ...on the configuration of this many lines.
let compareSpeedTargetLines = 1_000_000
/// The memory target: peak extra resident memory at most this many times the two inputs.
let compareMemoryTargetRatio = 4.0

/// What one `_compare-once` run printed: counts, sizes and the steps' times in nanoseconds.
struct CompareOnceReport {
  var values: [String: Int]

  init(_ output: [UInt8]) throws {
    values = [:]
    for pair in String(decoding: output, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      let kv = pair.split(separator: "=", maxSplits: 1)
      if kv.count == 2, let v = Int(kv[1]) { values[String(kv[0])] = v }
    }
    for key in ["old_bytes", "new_bytes", "rendered_bytes", "groups", "total_ns"] where values[key] == nil {
      throw BenchError("_compare-once printed no \(key): \(String(decoding: output, as: UTF8.self))")
    }
  }

  subscript(_ key: String) -> Int { values[key] ?? 0 }

  /// `ConfigDiff.counts`, as printed.
  var counts: [String: Int] {
    var c: [String: Int] = [:]
    for k in diffCategories where self[k] > 0 { c[k] = self[k] }
    return c
  }
}

/// The keys of `ConfigDiff.counts`, in the order they are reported.
let diffCategories = ["changed", "added", "deleted", "flags", "moved", "annotation"]

/// The steps `_compare-once` times, in order.
let comparePhases = ["read", "parse", "diff", "render", "write"]

/// Peak memory of one `_compare-once --memory` run, in bytes.
struct CompareMemory {
  /// Size of the two inputs together.
  var inputBytes: Int
  /// `VmRSS` after resetting `VmHWM`, before reading (keyword table already built).
  var baseline: Int
  /// `VmRSS` once both trees are parsed (file bytes and parse results alive).
  var afterParse: Int
  /// `VmHWM` after writing the rendering: the highest resident size of the whole compare.
  var peak: Int
  var peakWasReset: Bool
  /// `ConfigTree.subtreeDigests()` of both trees, timed again after the measurement.
  var digestNanos: Int
  /// Building `KeywordTable.standard` (done before the baseline in this run).
  var keywordTableNanos: Int

  var peakExtra: Int { peak - baseline }
  var peakRatio: Double { Double(peakExtra) / Double(max(inputBytes, 1)) }
  var parsedRatio: Double { Double(afterParse - baseline) / Double(max(inputBytes, 1)) }
}

/// Measurements of one size.
struct CompareRow {
  var configLines: Int
  var oldPath: String
  var newPath: String
  var oldLines: Int
  var newLines: Int
  var oldBytes: Int
  var newBytes: Int
  var edits: EditedConfig
  /// What the diff found (the same in every run, checked).
  var found: CompareOnceReport
  /// Lines of GNU diff's normal output (`<`, `>`, `---` and hunk headers), from one untimed run.
  var gnuDiffLines: Int
  /// Wall times, nanoseconds, sorted ascending.
  var diffSamples: [UInt64]
  var junoSamples: [UInt64]
  /// CPU times (user + system) of the same runs, sorted ascending.
  var diffCPU: [UInt64]
  var junoCPU: [UInt64]
  /// Per step, the child's own times over the timed samples, sorted ascending.
  var phaseSamples: [String: [UInt64]]
  /// The child's time from before reading to after writing, sorted ascending.
  var inProcessSamples: [UInt64]
  var memory: CompareMemory

  var inputBytes: Int { oldBytes + newBytes }
  var inputMB: Double { Double(inputBytes) / 1e6 }
  var ratioBest: Double { Double(junoSamples[0]) / Double(diffSamples[0]) }
  var ratioMedian: Double { medianOf(junoSamples) / medianOf(diffSamples) }
  var cpuRatioBest: Double { Double(junoCPU[0]) / Double(diffCPU[0]) }
  /// Whether the changes found are exactly the ones the edits should produce.
  var countsMatch: Bool { found.counts == edits.expectedCounts }
}

/// The median of sorted samples.
func medianOf(_ s: [UInt64]) -> Double {
  let n = s.count
  guard n > 0 else { return .nan }
  return n % 2 == 1 ? Double(s[n / 2]) : (Double(s[n / 2 - 1]) + Double(s[n / 2])) / 2
}

/// Everything one `compare` run measured.
struct CompareRun {
  var options: BenchOptions
  var rows: [CompareRow]
  var directory: String
  var kept: Bool
}

/// Runs the whole benchmark; progress goes to standard error.
func runCompareBench(_ options: BenchOptions) throws -> CompareRun {
  let executable = try currentExecutablePath()
  let directory = try benchDirectory(options)
  var created: [String] = []
  defer { if options.keepDirectory == nil { removeDirectory(directory, files: created) } }

  var rows: [CompareRow] = []
  for n in options.lines {
    let oldPath = "\(directory)/compare-\(n)-old.conf"
    let newPath = "\(directory)/compare-\(n)-new.conf"
    printError("[\(n) lines] generating \(oldPath) and \(newPath)")
    var generator = ConfigGenerator(seed: benchSeed)
    let old = generator.curly(lines: n)
    let edited = makeEditedConfig(old, edits: compareEdits, seed: compareEditSeed)
    try writeWholeFile(oldPath, old)
    created.append(oldPath)
    try writeWholeFile(newPath, edited.bytes)
    created.append(newPath)
    var renderedPath: String?
    if options.keepDirectory != nil { renderedPath = "\(directory)/compare-\(n).junos-diff" }
    printError("[\(n) lines] measuring (\(edited.total) edits)")
    rows.append(
      try measureCompare(
        oldPath, newPath, configLines: n, old: old, edited: edited, samples: options.samples, executable: executable,
        renderedPath: renderedPath))
  }
  return CompareRun(options: options, rows: rows, directory: directory, kept: options.keepDirectory != nil)
}

private func newlines(_ bytes: [UInt8]) -> Int {
  bytes.withUnsafeBufferPointer { buf in buf.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
}

/// Measures one pair: GNU diff and `_compare-once`, alternately, then the memory run.
private func measureCompare(
  _ oldPath: String, _ newPath: String, configLines: Int, old: [UInt8], edited: EditedConfig, samples: Int,
  executable: String, renderedPath: String?
) throws -> CompareRow {
  let diffArgv = ["diff", oldPath, newPath]
  let junoArgv = [executable, "_compare-once", oldPath, newPath]

  // GNU diff must see a difference: exit status 1 (0 = same, 2 = trouble). One untimed run
  // through a pipe counts its output lines.
  let shown = try runChild(diffArgv, env: ["LC_ALL=C"])
  guard shown.status == 1 else { throw BenchError("diff \(oldPath) \(newPath) exited with status \(shown.status), expected 1") }
  let gnuDiffLines = newlines(shown.output)

  var found: CompareOnceReport?
  func diffOnce() throws -> ChildOutcome {
    let run = try runChild(diffArgv, env: ["LC_ALL=C"], stdout: "/dev/null")
    guard run.status == 1 else { throw BenchError("diff \(oldPath) \(newPath) exited with status \(run.status), expected 1") }
    return run
  }
  func junoOnce() throws -> (ChildOutcome, CompareOnceReport) {
    let run = try runChild(junoArgv, env: [])
    guard run.status == 0 else { throw BenchError("_compare-once \(oldPath) \(newPath) exited with status \(run.status)") }
    let report = try CompareOnceReport(run.output)
    // Every run must have done the same work.
    if let f = found, f.values["rendered_bytes"] != report.values["rendered_bytes"] || f.counts != report.counts {
      throw BenchError("_compare-once runs disagree: \(f.values) / \(report.values)")
    }
    found = report
    return (run, report)
  }

  // One warm-up of each, then the timed samples, alternating so that both see the same load.
  _ = try diffOnce()
  _ = try junoOnce()
  var diffTimes: [UInt64] = []
  var junoTimes: [UInt64] = []
  var diffCPU: [UInt64] = []
  var junoCPU: [UInt64] = []
  var inProcess: [UInt64] = []
  var phases: [String: [UInt64]] = [:]
  for _ in 0..<samples {
    let d = try diffOnce()
    diffTimes.append(d.nanos)
    diffCPU.append(d.cpuNanos)
    let (j, report) = try junoOnce()
    junoTimes.append(j.nanos)
    junoCPU.append(j.cpuNanos)
    inProcess.append(UInt64(report["total_ns"]))
    for p in comparePhases { phases[p, default: []].append(UInt64(report["\(p)_ns"])) }
  }
  diffTimes.sort()
  junoTimes.sort()
  diffCPU.sort()
  junoCPU.sort()
  inProcess.sort()
  for p in comparePhases { phases[p]?.sort() }

  // Memory (and the digest share of the diff step) in one more fresh process.
  var memArgv = junoArgv + ["--memory"]
  if let renderedPath { memArgv += ["--output", renderedPath] }
  let memRun = try runChild(memArgv, env: [])
  guard memRun.status == 0 else { throw BenchError("_compare-once --memory exited with status \(memRun.status)") }
  let m = try CompareOnceReport(memRun.output)
  let memory = CompareMemory(
    inputBytes: m["old_bytes"] + m["new_bytes"], baseline: m["baseline_rss"], afterParse: m["after_parse_rss"],
    peak: m["peak_hwm"], peakWasReset: m["peak_reset"] == 1, digestNanos: m["digest_ns"],
    keywordTableNanos: m["keyword_table_ns"])

  guard let found else { throw BenchError("no _compare-once run") }
  guard found["old_bytes"] == old.count, found["new_bytes"] == edited.bytes.count else {
    throw BenchError(
      "_compare-once read \(found["old_bytes"]) + \(found["new_bytes"]) bytes, expected \(old.count) + \(edited.bytes.count)")
  }
  // The bench must not time a no-op: the diff has to find about as many changes as were made.
  let changes = found.counts.values.reduce(0, +)
  guard found["groups"] > 0, found["rendered_bytes"] > 0, changes > 0 else {
    throw BenchError("ConfigDiff found no difference between \(oldPath) and \(newPath)")
  }
  guard abs(changes - edited.total) * 10 <= edited.total else {
    throw BenchError("ConfigDiff found \(changes) changes (\(found.counts)) for \(edited.total) edits (\(edited.expectedCounts))")
  }
  return CompareRow(
    configLines: configLines, oldPath: oldPath, newPath: newPath, oldLines: newlines(old), newLines: newlines(edited.bytes),
    oldBytes: old.count, newBytes: edited.bytes.count, edits: edited, found: found, gnuDiffLines: gnuDiffLines,
    diffSamples: diffTimes, junoSamples: junoTimes, diffCPU: diffCPU, junoCPU: junoCPU, phaseSamples: phases, inProcessSamples: inProcess,
    memory: memory)
}

// MARK: - Worker

/// `junoscope-bench _compare-once OLD NEW [--memory] [--output FILE]`: what `junoscope compare
/// OLD NEW` does (read both files, parse them, `ConfigDiff`, `renderJunos()`, write the text to
/// /dev/null or FILE), in this fresh process; prints `key=value` pairs: sizes, the counts of
/// changes and each step's time. With `--memory`, also resident-memory figures (the keyword
/// table is then built before the baseline) and the time of the trees' digests alone.
func compareOnceChild(_ arguments: [String]) -> Int32 {
  var paths: [String] = []
  var memory = false
  var output = "/dev/null"
  var rest = arguments[...]
  while let a = rest.popFirst() {
    switch a {
    case "--memory": memory = true
    case "--output":
      guard let o = rest.popFirst() else { paths = []; break }
      output = o
    default: paths.append(a)
    }
  }
  guard paths.count == 2 else {
    printError("usage: junoscope-bench _compare-once OLD NEW [--memory] [--output FILE]")
    return 2
  }
  do {
    var keywordNanos: UInt64 = 0
    var reset = false
    var before = ResidentMemory(current: 0, peak: 0)
    if memory {
      let k0 = monotonicNanos()
      _ = KeywordTable.standard.entries.count
      keywordNanos = monotonicNanos() - k0
      reset = ResidentMemory.resetPeak()
      before = try ResidentMemory.read()
    }
    let t0 = monotonicNanos()
    let oldBytes = try readWholeFile(paths[0])
    let newBytes = try readWholeFile(paths[1])
    let t1 = monotonicNanos()
    let a = ConfigParser.parse(SourceFile(path: paths[0], bytes: oldBytes))
    let b = ConfigParser.parse(SourceFile(path: paths[1], bytes: newBytes))
    let t2 = monotonicNanos()
    try requireNoErrors(a, paths[0], a.syntax)
    try requireNoErrors(b, paths[1], b.syntax)
    let afterParse = memory ? try ResidentMemory.read() : before
    let t2b = monotonicNanos()
    let diff = ConfigDiff(from: a.tree, to: b.tree)
    let t3 = monotonicNanos()
    let text = diff.renderJunos()
    let t4 = monotonicNanos()
    try writeWholeFile(output, text)
    let t5 = monotonicNanos()
    let after = memory ? try ResidentMemory.read() : before

    let counts = diff.counts
    var line = "old_bytes=\(oldBytes.count) new_bytes=\(newBytes.count) rendered_bytes=\(text.count) groups=\(diff.groups.count)"
    for k in diffCategories { line += " \(k)=\(counts[k] ?? 0)" }
    line += " read_ns=\(t1 - t0) parse_ns=\(t2 - t1) diff_ns=\(t3 - t2b) render_ns=\(t4 - t3) write_ns=\(t5 - t4)"
    line += " total_ns=\((t5 - t0) - (t2b - t2))"
    if memory {
      // The digests once more, alone: the part of the diff step that reads every statement.
      let d0 = monotonicNanos()
      let digests = a.tree.subtreeDigests().count + b.tree.subtreeDigests().count
      let d1 = monotonicNanos()
      line += " baseline_rss=\(before.current) after_parse_rss=\(afterParse.current) peak_hwm=\(after.peak)"
      line += " end_rss=\(after.current) peak_reset=\(reset ? 1 : 0) digest_ns=\(d1 - d0) digests=\(digests)"
      line += " keyword_table_ns=\(keywordNanos)"
    }
    print(line)
    withExtendedLifetime((oldBytes, newBytes, a, b, diff, text)) {}
    return 0
  } catch {
    printError("junoscope-bench _compare-once: \(error)")
    return 1
  }
}

// BenchReport.swift
//
// Prints a `BenchRun` as a table with explanations, or as JSON. No Foundation: numbers are
// formatted by hand.

import JunosConfig

// MARK: - Targets

/// How the figures compare with the targets (reported, never enforced).
struct TargetCheck {
  /// The curly row of the 1M-line configuration, if that size was measured.
  var speedRow: BenchRow?
  /// The row with the highest peak-memory ratio.
  var worstMemoryRow: BenchRow?

  init(_ run: BenchRun) {
    speedRow = run.rows.first { $0.syntax == .curly && $0.configLines == curlySpeedTargetLines }
    worstMemoryRow = run.rows.max { $0.memory.peakRatio < $1.memory.peakRatio }
  }

  var speedMet: Bool? { speedRow.map { $0.mbps >= curlySpeedTargetMBps } }
  var memoryMet: Bool? { worstMemoryRow.map { $0.memory.peakRatio <= peakMemoryTargetRatio } }
}

// MARK: - Table

/// The human-readable report.
func tableReport(_ run: BenchRun) -> String {
  let header = [
    "config", "syntax", "lines", "bytes", "best ms", "median ms", "MB/s", "wc -l MB/s", "parse/wc", "peak mem",
    "held mem",
  ]
  var cells: [[String]] = [header]
  for r in run.rows {
    cells.append([
      sizeLabel(r.configLines), r.syntax.rawValue, grouped(r.lines), grouped(r.bytes),
      fixed(Double(r.best) / 1e6, 2), fixed(r.median / 1e6, 2), fixed(r.mbps, 1), fixed(r.wcMBps, 1),
      fixed(r.parseOverWc, 3), fixed(r.memory.peakRatio, 2) + "x", fixed(r.memory.heldRatio, 2) + "x",
    ])
  }
  let widths = header.indices.map { c in cells.map { $0[c].count }.max() ?? 0 }
  var out = "junoscope-bench parse: seed 0x\(String(benchSeed, radix: 16)), \(run.options.samples) timed samples"
  out += " after 1 warm-up per file; MB = 10^6 bytes\n\n"
  for (i, row) in cells.enumerated() {
    var line = ""
    for c in row.indices {
      // Text columns left-aligned, numbers right-aligned.
      line += c < 2 ? pad(row[c], widths[c], right: false) : pad(row[c], widths[c], right: true)
      line += c == row.count - 1 ? "" : "  "
    }
    out += line + "\n"
    if i == 0 { out += String(repeating: "-", count: line.count) + "\n" }
  }

  let check = TargetCheck(run)
  out += "\nTargets (reported, not enforced):\n"
  if let r = check.speedRow {
    out += "  curly parse >= \(fixed(curlySpeedTargetMBps, 0)) MB/s on the 1M-line config: "
    out += "\(fixed(r.mbps, 1)) MB/s best, \(fixed(r.medianMBps, 1)) MB/s median -> \(check.speedMet! ? "met" : "NOT met")\n"
  } else {
    out += "  curly parse >= \(fixed(curlySpeedTargetMBps, 0)) MB/s on the 1M-line config: not measured (add 1000000 to --lines)\n"
  }
  if let r = check.worstMemoryRow {
    out += "  peak extra memory <= \(fixed(peakMemoryTargetRatio, 0))x the file size: worst \(fixed(r.memory.peakRatio, 2))x"
    out += " (\(sizeLabel(r.configLines)) \(r.syntax.rawValue)) -> \(check.memoryMet! ? "met" : "NOT met")\n"
  }

  out += """

    Columns:
      lines, bytes  of the file parsed (the set file is the curly one rendered by renderSet(showSecrets: true)).
      best/median   of the timed samples of ConfigParser.parse(SourceFile(path:bytes:), syntax:) on bytes read
                    beforehand: includes SourceFile's line-start scan, excludes reading the file and freeing
                    the result. CLOCK_MONOTONIC.
      MB/s          file bytes / best time.  (median MB/s is in --format json.)
      wc -l MB/s    file bytes / best wall time of `wc -l FILE` (LC_ALL=C, same file, same run), from
                    posix_spawn to wait4: process start-up included, page cache warm.
      parse/wc      parse MB/s / wc -l MB/s.
      peak mem      (VmHWM after the parse - VmRSS before reading the file) / file bytes, in a fresh child
                    process (junoscope-bench _parse-once FILE SYNTAX) whose VmHWM is reset through
                    /proc/self/clear_refs just before the baseline. Counts: the file's bytes held in memory
                    (1.00x by themselves), SourceFile.lineStarts, the ConfigTree and diagnostics, and every
                    transient allocation during the parse (array growth, parser stacks), in whole pages.
                    Not counted: process start-up, KeywordTable.standard and the schema table (built before
                    the baseline).
      held mem      the same with VmRSS after the parse, file bytes and ParseResult still alive: what stays.

    """
  if run.rows.contains(where: { !$0.memory.peakWasReset }) {
    out += "  WARNING: VmHWM could not be reset in the child; peak figures may include start-up memory.\n"
  }
  out += "checksum: \(run.checksum) statements over all timed parses\n"
  out += "files: \(run.directory) (\(run.kept ? "kept" : "removed"))"
  return out
}

// MARK: - JSON

/// The same data as JSON (one object; times in milliseconds, memory in bytes).
func jsonReport(_ run: BenchRun) -> String {
  let check = TargetCheck(run)
  var rows: [String] = []
  for r in run.rows {
    let m = r.memory
    let memory = object([
      ("baseline_rss_bytes", "\(m.baseline)"), ("after_read_rss_bytes", "\(m.afterRead)"),
      ("peak_hwm_bytes", "\(m.peak)"), ("end_rss_bytes", "\(m.end)"),
      ("peak_extra_bytes", "\(m.peakExtra)"), ("held_extra_bytes", "\(m.heldExtra)"),
      ("peak_ratio", number(m.peakRatio)), ("held_ratio", number(m.heldRatio)),
      ("peak_reset", m.peakWasReset ? "true" : "false"),
    ])
    rows.append(
      object(
        [
          ("config_lines", "\(r.configLines)"), ("syntax", string(r.syntax.rawValue)), ("path", string(r.path)),
          ("lines", "\(r.lines)"), ("bytes", "\(r.bytes)"), ("statements", "\(r.statements)"),
          ("best_ms", number(Double(r.best) / 1e6)), ("median_ms", number(r.median / 1e6)),
          ("samples_ms", "[" + r.samples.map { number(Double($0) / 1e6) }.joined(separator: ", ") + "]"),
          ("mbps", number(r.mbps)), ("median_mbps", number(r.medianMBps)),
          ("wc_l_best_ms", number(Double(r.wcBest) / 1e6)), ("wc_l_mbps", number(r.wcMBps)),
          ("parse_over_wc", number(r.parseOverWc)), ("memory", memory),
        ], indent: "    "))
  }
  let targets = object(
    [
      ("curly_1m_min_mbps", number(curlySpeedTargetMBps)),
      ("curly_1m_mbps", check.speedRow.map { number($0.mbps) } ?? "null"),
      ("curly_1m_met", check.speedMet.map { $0 ? "true" : "false" } ?? "null"),
      ("peak_memory_max_ratio", number(peakMemoryTargetRatio)),
      ("peak_memory_worst_ratio", check.worstMemoryRow.map { number($0.memory.peakRatio) } ?? "null"),
      ("peak_memory_met", check.memoryMet.map { $0 ? "true" : "false" } ?? "null"),
    ], indent: "  ")
  return object(
    [
      ("benchmark", string("parse")), ("seed", "\(benchSeed)"), ("samples", "\(run.options.samples)"),
      ("warmups", "1"), ("megabyte", "1000000"), ("clock", string("CLOCK_MONOTONIC")),
      ("targets", targets),
      ("results", "[\n" + rows.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"),
      ("checksum_statements", "\(run.checksum)"),
      ("directory", string(run.directory)), ("kept", run.kept ? "true" : "false"),
    ], indent: "")
}

func object(_ fields: [(String, String)], indent: String = "") -> String {
  "{\n" + fields.map { "\(indent)  \(string($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n\(indent)}"
}

func string(_ s: String) -> String {
  var out = "\""
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    default:
      if u.value < 0x20 {
        let hex = String(u.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(u)
      }
    }
  }
  return out + "\""
}

func number(_ x: Double) -> String { x.isFinite ? fixed(x, 4) : "null" }

// MARK: - Formatting

/// `x` with exactly `decimals` digits after the point (0...9).
func fixed(_ x: Double, _ decimals: Int) -> String {
  guard x.isFinite else { return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf") }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let negative = x < 0
  let scaled = (abs(x) * scale).rounded()
  guard scaled < 9.0e18 else { return "\(x)" }
  let n = UInt64(scaled)
  let s = UInt64(scale)
  var text = "\(n / s)"
  if decimals > 0 {
    let frac = "\(n % s)"
    text += "." + String(repeating: "0", count: decimals - frac.count) + frac
  }
  return (negative && n != 0 ? "-" : "") + text
}

/// 1234567 -> "1,234,567".
func grouped(_ n: Int) -> String {
  let digits = Array(String(n.magnitude))
  var out = ""
  for (i, d) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
    out.append(d)
  }
  return (n < 0 ? "-" : "") + out
}

/// 10000 -> "10k", 1000000 -> "1M", 12345 -> "12345".
func sizeLabel(_ n: Int) -> String {
  if n >= 1_000_000 && n % 1_000_000 == 0 { return "\(n / 1_000_000)M" }
  if n >= 1000 && n % 1000 == 0 { return "\(n / 1000)k" }
  return "\(n)"
}

func pad(_ s: String, _ width: Int, right: Bool) -> String {
  let fill = String(repeating: " ", count: max(0, width - s.count))
  return right ? fill + s : s + fill
}

// CompareReport.swift
//
// Prints a `CompareRun` as tables with explanations, or as JSON (helpers in BenchReport.swift).

/// How the figures compare with the targets (reported, never enforced).
struct CompareTargetCheck {
  /// The row of the 1M-line configuration, if that size was measured.
  var speedRow: CompareRow?
  /// The row with the highest peak-memory ratio.
  var worstMemoryRow: CompareRow?

  init(_ run: CompareRun) {
    speedRow = run.rows.first { $0.configLines == compareSpeedTargetLines }
    worstMemoryRow = run.rows.max { $0.memory.peakRatio < $1.memory.peakRatio }
  }

  var speedMet: Bool? { speedRow.map { $0.ratioBest <= compareSpeedTargetRatio } }
  var memoryMet: Bool? { worstMemoryRow.map { $0.memory.peakRatio <= compareMemoryTargetRatio } }
}

/// Cost per line at the largest size over cost per line at the smallest (1.00 = linear).
struct CompareGrowth {
  var small: CompareRow
  var large: CompareRow

  init?(_ run: CompareRun) {
    guard let s = run.rows.min(by: { $0.oldLines < $1.oldLines }), let l = run.rows.max(by: { $0.oldLines < $1.oldLines }),
      l.oldLines > s.oldLines
    else { return nil }
    small = s
    large = l
  }

  func ratio(_ nanos: (CompareRow) -> Double) -> Double {
    (nanos(large) / Double(large.oldLines)) / (nanos(small) / Double(small.oldLines))
  }

  var diff: Double { ratio { Double($0.diffSamples[0]) } }
  var junoscope: Double { ratio { Double($0.junoSamples[0]) } }
  var inProcess: Double { ratio { Double($0.inProcessSamples[0]) } }
}

private func ms(_ nanos: Double) -> String { fixed(nanos / 1e6, 2) }
private func ms(_ nanos: UInt64) -> String { ms(Double(nanos)) }

/// Lays out rows of cells; the first `textColumns` columns are left-aligned, the rest right-aligned.
private func table(_ cells: [[String]], textColumns: Int = 1) -> String {
  let widths = cells[0].indices.map { c in cells.map { $0[c].count }.max() ?? 0 }
  var out = ""
  for (i, row) in cells.enumerated() {
    var line = ""
    for c in row.indices {
      line += pad(row[c], widths[c], right: c >= textColumns)
      line += c == row.count - 1 ? "" : "  "
    }
    out += line + "\n"
    if i == 0 { out += String(repeating: "-", count: line.count) + "\n" }
  }
  return out
}

/// The human-readable report.
func compareTableReport(_ run: CompareRun) -> String {
  var out = "junoscope-bench compare: seed 0x\(String(benchSeed, radix: 16)), \(compareEdits) edits per size"
  out += " (seed 0x\(String(compareEditSeed, radix: 16))), \(run.options.samples) timed samples of each command"
  out += " after 1 warm-up; MB = 10^6 bytes\n\n"

  var cells = [
    [
      "config", "lines", "old+new bytes", "diff best ms", "diff median ms", "junoscope best ms", "junoscope median ms",
      "ratio best", "ratio median", "cpu diff ms", "cpu junoscope ms", "cpu ratio", "peak mem",
    ]
  ]
  for r in run.rows {
    cells.append([
      sizeLabel(r.configLines), grouped(r.oldLines), grouped(r.inputBytes), ms(r.diffSamples[0]), ms(medianOf(r.diffSamples)),
      ms(r.junoSamples[0]), ms(medianOf(r.junoSamples)), fixed(r.ratioBest, 2) + "x", fixed(r.ratioMedian, 2) + "x",
      ms(r.diffCPU[0]), ms(r.junoCPU[0]), fixed(r.cpuRatioBest, 2) + "x",
      fixed(r.memory.peakRatio, 2) + "x",
    ])
  }
  out += table(cells)

  out += "\nTime per MB of input (old + new; best samples) and growth:\n"
  cells = [["config", "MB", "diff ms/MB", "junoscope ms/MB", "in-process ms/MB", "junoscope us/1k lines"]]
  for r in run.rows {
    cells.append([
      sizeLabel(r.configLines), fixed(r.inputMB, 2), fixed(Double(r.diffSamples[0]) / 1e6 / r.inputMB, 2),
      fixed(Double(r.junoSamples[0]) / 1e6 / r.inputMB, 2), fixed(Double(r.inProcessSamples[0]) / 1e6 / r.inputMB, 2),
      fixed(Double(r.junoSamples[0]) / 1e3 / (Double(r.oldLines) / 1000), 1),
    ])
  }
  out += table(cells)
  if let g = CompareGrowth(run) {
    out += "growth \(sizeLabel(g.small.configLines)) -> \(sizeLabel(g.large.configLines)) (cost per line at "
    out += "\(sizeLabel(g.large.configLines)) / at \(sizeLabel(g.small.configLines)); 1.00 = linear): diff "
    out += "\(fixed(g.diff, 2)), junoscope wall \(fixed(g.junoscope, 2)), junoscope in-process \(fixed(g.inProcess, 2))\n"
  }

  out += "\nWhere junoscope's time goes (medians of the timed samples, ms):\n"
  cells = [["config", "read", "parse", "diff", "(digests)", "render", "write", "in-process", "start+exit", "wall"]]
  for r in run.rows {
    let inProcess = medianOf(r.inProcessSamples)
    let wall = medianOf(r.junoSamples)
    var row = [sizeLabel(r.configLines)]
    for p in comparePhases {
      row.append(ms(medianOf(r.phaseSamples[p] ?? [])))
      if p == "diff" { row.append(ms(Double(r.memory.digestNanos))) }
    }
    row += [ms(inProcess), ms(wall - inProcess), ms(wall)]
    cells.append(row)
  }
  out += table(cells)

  out += "\nChanges found (ConfigDiff.counts, found/expected from the edits):\n"
  cells = [["config", "edits"] + diffCategories + ["groups", "rendered bytes", "diff(1) lines", "check"]]
  for r in run.rows {
    let expected = r.edits.expectedCounts
    var row = [sizeLabel(r.configLines), "\(r.edits.total)"]
    for k in diffCategories { row.append("\(r.found[k])/\(expected[k] ?? 0)") }
    row += [
      grouped(r.found["groups"]), grouped(r.found["rendered_bytes"]), grouped(r.gnuDiffLines),
      r.countsMatch ? "exact" : "DIFFERS",
    ]
    cells.append(row)
  }
  out += table(cells)
  out += "edit kinds: "
  out += EditKind.allCases.map { k in "\(k.name) " + run.rows.map { "\($0.edits.made[k.rawValue])" }.joined(separator: "/") }
    .joined(separator: ", ")
  out += " (per size, in the order above)\n"

  let check = CompareTargetCheck(run)
  out += "\nTargets (reported, not enforced):\n"
  if let r = check.speedRow {
    out += "  junoscope compare <= \(fixed(compareSpeedTargetRatio, 0))x GNU diff wall time on the 1M-line config: "
    out += "\(fixed(r.ratioBest, 2))x best, \(fixed(r.ratioMedian, 2))x median -> \(check.speedMet! ? "met" : "NOT met")\n"
  } else {
    out += "  junoscope compare <= \(fixed(compareSpeedTargetRatio, 0))x GNU diff wall time on the 1M-line config: "
    out += "not measured (add 1000000 to --lines)\n"
  }
  if let r = check.worstMemoryRow {
    out += "  peak extra memory <= \(fixed(compareMemoryTargetRatio, 0))x the two inputs: worst \(fixed(r.memory.peakRatio, 2))x"
    out += " (\(sizeLabel(r.configLines))) -> \(check.memoryMet! ? "met" : "NOT met")\n"
  }

  out += """

    Columns:
      lines         of the old file; the new one differs by the edits (compare-N-old.conf / -new.conf).
      diff          wall time of `diff OLD NEW > /dev/null` (GNU diffutils, LC_ALL=C; exit status 1 checked),
                    from posix_spawn to wait4: process start-up included, page cache warm.
      junoscope     wall time, measured the same way, of `junoscope-bench _compare-once OLD NEW`: read both
                    files, ConfigParser.parse each (syntax detected), ConfigDiff(from:to:), renderJunos(),
                    write the text to /dev/null -- what `junoscope compare OLD NEW` does.
      ratio         junoscope / diff, best over best and median over median.
      cpu           best CPU time (user + system, from wait4's rusage) of the same runs, and its ratio:
                    a cross-check that other processes competing for the cores hardly affect.
      peak mem      (VmHWM at the end - VmRSS before reading) / (old + new bytes), in one more fresh
                    _compare-once process (VmHWM reset through /proc/self/clear_refs; the keyword table is
                    built before the baseline). Counts both files' bytes (1.00x by themselves), both trees,
                    the digests and matching tables, the rendering, and every transient allocation.
      in-process    the child's own time from before reading to after writing (CLOCK_MONOTONIC);
                    start+exit = wall - in-process: exec, dynamic loading, Swift runtime start-up, freeing
                    and exit.
      read .. write the child's steps; `diff` is all of ConfigDiff(from:to:) (both trees' subtree
                    digests, matching the subtrees that differ, and merging repeated sibling statements
                    when some are found there); (digests) is ConfigTree.subtreeDigests() of both trees timed alone once more in
                    the memory run (a part of `diff`, not added to it).
      changes       ConfigDiff.counts / the counts the edits should produce; the run stops if the diff is
                    empty or the number of changes is more than 10% off the number of edits.

    """
  if run.rows.contains(where: { !$0.memory.peakWasReset }) {
    out += "  WARNING: VmHWM could not be reset in the child; peak figures may include start-up memory.\n"
  }
  out += "files: \(run.directory) (\(run.kept ? "kept" : "removed"))"
  return out
}

/// The same data as JSON (one object; times in milliseconds, memory in bytes).
func compareJSONReport(_ run: CompareRun) -> String {
  let check = CompareTargetCheck(run)
  func samples(_ s: [UInt64]) -> String { "[" + s.map { number(Double($0) / 1e6) }.joined(separator: ", ") + "]" }
  func counts(_ c: [String: Int]) -> String {
    object(diffCategories.map { ($0, "\(c[$0] ?? 0)") }, indent: "      ")
  }
  var rows: [String] = []
  for r in run.rows {
    let m = r.memory
    let memory = object(
      [
        ("input_bytes", "\(m.inputBytes)"), ("baseline_rss_bytes", "\(m.baseline)"),
        ("after_parse_rss_bytes", "\(m.afterParse)"), ("peak_hwm_bytes", "\(m.peak)"), ("peak_extra_bytes", "\(m.peakExtra)"),
        ("peak_ratio", number(m.peakRatio)), ("after_parse_ratio", number(m.parsedRatio)),
        ("peak_reset", m.peakWasReset ? "true" : "false"),
      ], indent: "      ")
    let phases = object(
      comparePhases.map { ($0 + "_median_ms", number(medianOf(r.phaseSamples[$0] ?? []) / 1e6)) }
        + [
          ("digests_ms", number(Double(m.digestNanos) / 1e6)), ("keyword_table_ms", number(Double(m.keywordTableNanos) / 1e6)),
          ("in_process_median_ms", number(medianOf(r.inProcessSamples) / 1e6)),
          ("in_process_best_ms", number(Double(r.inProcessSamples[0]) / 1e6)),
        ], indent: "      ")
    let edits = object(EditKind.allCases.map { ($0.name, "\(r.edits.made[$0.rawValue])") }, indent: "      ")
    rows.append(
      object(
        [
          ("config_lines", "\(r.configLines)"), ("old_path", string(r.oldPath)), ("new_path", string(r.newPath)),
          ("old_lines", "\(r.oldLines)"), ("new_lines", "\(r.newLines)"), ("old_bytes", "\(r.oldBytes)"),
          ("new_bytes", "\(r.newBytes)"), ("edits", "\(r.edits.total)"), ("edit_kinds", edits),
          ("expected_counts", counts(r.edits.expectedCounts)), ("counts", counts(r.found.counts)),
          ("counts_match", r.countsMatch ? "true" : "false"), ("groups", "\(r.found["groups"])"),
          ("rendered_bytes", "\(r.found["rendered_bytes"])"), ("gnu_diff_output_lines", "\(r.gnuDiffLines)"),
          ("diff_best_ms", number(Double(r.diffSamples[0]) / 1e6)), ("diff_median_ms", number(medianOf(r.diffSamples) / 1e6)),
          ("diff_samples_ms", samples(r.diffSamples)),
          ("junoscope_best_ms", number(Double(r.junoSamples[0]) / 1e6)),
          ("junoscope_median_ms", number(medianOf(r.junoSamples) / 1e6)), ("junoscope_samples_ms", samples(r.junoSamples)),
          ("ratio_best", number(r.ratioBest)), ("ratio_median", number(r.ratioMedian)),
          ("diff_cpu_samples_ms", samples(r.diffCPU)), ("junoscope_cpu_samples_ms", samples(r.junoCPU)),
          ("cpu_ratio_best", number(r.cpuRatioBest)),
          ("diff_ms_per_mb", number(Double(r.diffSamples[0]) / 1e6 / r.inputMB)),
          ("junoscope_ms_per_mb", number(Double(r.junoSamples[0]) / 1e6 / r.inputMB)),
          ("in_process_ms_per_mb", number(Double(r.inProcessSamples[0]) / 1e6 / r.inputMB)),
          ("phases", phases), ("memory", memory),
        ], indent: "    "))
  }
  let growth = CompareGrowth(run)
  let targets = object(
    [
      ("speed_max_ratio", number(compareSpeedTargetRatio)), ("speed_config_lines", "\(compareSpeedTargetLines)"),
      ("speed_ratio_best", check.speedRow.map { number($0.ratioBest) } ?? "null"),
      ("speed_ratio_median", check.speedRow.map { number($0.ratioMedian) } ?? "null"),
      ("speed_met", check.speedMet.map { $0 ? "true" : "false" } ?? "null"),
      ("peak_memory_max_ratio", number(compareMemoryTargetRatio)),
      ("peak_memory_worst_ratio", check.worstMemoryRow.map { number($0.memory.peakRatio) } ?? "null"),
      ("peak_memory_met", check.memoryMet.map { $0 ? "true" : "false" } ?? "null"),
    ], indent: "  ")
  let growthJSON =
    growth.map { g in
      object(
        [
          ("from_config_lines", "\(g.small.configLines)"), ("to_config_lines", "\(g.large.configLines)"),
          ("diff_per_line_ratio", number(g.diff)), ("junoscope_per_line_ratio", number(g.junoscope)),
          ("in_process_per_line_ratio", number(g.inProcess)),
        ], indent: "  ")
    } ?? "null"
  return object(
    [
      ("benchmark", string("compare")), ("seed", "\(benchSeed)"), ("edit_seed", "\(compareEditSeed)"),
      ("edits", "\(compareEdits)"), ("samples", "\(run.options.samples)"), ("warmups", "1"), ("megabyte", "1000000"),
      ("clock", string("CLOCK_MONOTONIC")), ("targets", targets), ("growth", growthJSON),
      ("results", "[\n" + rows.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"),
      ("directory", string(run.directory)), ("kept", run.kept ? "true" : "false"),
    ], indent: "")
}

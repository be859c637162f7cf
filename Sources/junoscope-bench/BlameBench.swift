// BlameBench.swift
//
// `junoscope-bench blame`: a generated chain of 50 rollbacks (`juniper.conf.N.gz`) of a
// configuration of N lines, then, each in a fresh child process:
//   - blame: read, gunzip and parse all 50 and blame rollback 0 (Blame.chain, one reader thread
//     per core), rendering the text form to /dev/null — what `junoscope blame` does;
//   - range: what commits 48..0 did (rollback 49 → rollback 0), Junos text to /dev/null — what
//     `junoscope diff 48..0` does;
// against baselines measured in the same run: `gzip -dc` of the 50 files (reading them at all),
// GNU `diff` over the 49 consecutive pairs (the same work as text), and GNU `diff` of rollback 49
// against rollback 0. One untimed in-process run checks the blame against the generator's record.

import Glibc
import JunosConfig
import JunosDiff
import JunosHistory
import JunoscopeTestSupport

/// Targets of the issue: blame of 50 rollbacks of 100k lines, and the diff of 49 commits.
let blameTargetSeconds = 2.0
let rangeTargetSeconds = 1.0

/// One size's figures.
struct BlameRow {
  var lines: Int
  var statements: Int
  var fileBytes: Int
  var gzipBytes: Int
  var edits: Int
  var mismatches: Int
  var blame: [UInt64]
  var blameCPU: [UInt64]
  var range: [UInt64]
  var gunzipAll: [UInt64]
  var diffPairs: [UInt64]
  var diffRange: [UInt64]
}

func runBlameBench(_ options: BenchOptions) throws -> [BlameRow] {
  let exe = try currentExecutablePath()
  var rows: [BlameRow] = []
  for lines in options.lines {
    let directory = try options.keepDirectory ?? makeTemporaryDirectory()
    try ensureDirectory(directory)
    // About 19 lines an interface (with its OSPF interface, policy term and route).
    let chain = RollbackChain(seed: benchSeed, commits: 50, interfaces: max(4, lines / 19), editsPerCommit: 3...8)
    var gz: [String] = []
    var plain: [String] = []
    var gzipBytes = 0
    for n in 0..<50 {
      let bytes = Array(chain.rollbacks[n].utf8)
      let g = Gzip.compress(bytes)
      gzipBytes += g.count
      let name = n == 0 ? "juniper.conf.gz" : "juniper.conf.\(n).gz"
      try writeWholeFile("\(directory)/\(name)", g)
      try writeWholeFile("\(directory)/plain.\(n).conf", bytes)
      gz.append("\(directory)/\(name)")
      plain.append("\(directory)/plain.\(n).conf")
    }
    // Correctness first (untimed, in process): the blame must be the generator's record.
    let mismatches = try checkBlame(directory, chain)

    let blameArgv = [exe, "_blame-once", directory]
    let rangeArgv = [exe, "_range-once", gz[49], gz[0]]
    let gunzipArgv = ["gzip", "-dc"] + gz
    var row = BlameRow(
      lines: chain.rollbacks[0].utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }, statements: chain.record.count,
      fileBytes: chain.rollbacks[0].utf8.count, gzipBytes: gzipBytes, edits: chain.edits.values.reduce(0) { $0 + $1.count },
      mismatches: mismatches, blame: [], blameCPU: [], range: [], gunzipAll: [], diffPairs: [], diffRange: [])
    func checked(_ argv: [String], ok: Set<Int32>) throws -> ChildOutcome {
      let r = try runChild(argv, env: ["LC_ALL=C"], stdout: "/dev/null")
      guard ok.contains(r.status) else { throw BenchError("\(argv.prefix(3).joined(separator: " ")) exited with status \(r.status)") }
      return r
    }
    // One warm-up each, then the samples, interleaved.
    _ = try checked(blameArgv, ok: [0])
    _ = try checked(rangeArgv, ok: [0])
    _ = try checked(gunzipArgv, ok: [0])
    for _ in 0..<options.samples {
      let b = try checked(blameArgv, ok: [0])
      row.blame.append(b.nanos)
      row.blameCPU.append(b.cpuNanos)
      row.range.append(try checked(rangeArgv, ok: [0]).nanos)
      row.gunzipAll.append(try checked(gunzipArgv, ok: [0]).nanos)
      var pairs: UInt64 = 0
      for n in 0..<49 { pairs += try checked(["diff", plain[n + 1], plain[n]], ok: [0, 1]).nanos }
      row.diffPairs.append(pairs)
      row.diffRange.append(try checked(["diff", plain[49], plain[0]], ok: [1]).nanos)
    }
    for k in [\BlameRow.blame, \.blameCPU, \.range, \.gunzipAll, \.diffPairs, \.diffRange] { row[keyPath: k].sort() }
    rows.append(row)
    if options.keepDirectory == nil { removeDirectory(directory, files: gz + plain) }
  }
  return rows
}

/// Statements whose blame differs from the generator's record.
func checkBlame(_ directory: String, _ chain: RollbackChain) throws -> Int {
  guard let blame = try blameChain(directory) else { throw BenchError("no rollbacks in \(directory)") }
  var wrong = 0
  blame.tree.forEachStatement { node in
    var lines: [String] = []
    var n: NodeID? = node
    while let c = n, c != ConfigTree.root {
      lines.append(String(decoding: blame.tree.statementText(c, RenderOptions(showSecrets: true)), as: UTF8.self))
      n = blame.tree.parent(of: c)
    }
    let o = blame.origin(of: node)
    let want = chain.record[RollbackChain.key(lines.reversed())]
    if want != o.commit || o.isBoundary != (want == 49) { wrong += 1 }
  }
  return wrong
}

/// Blame of a directory of `juniper.conf[.N].gz` (0–49), as `junoscope blame` reads it.
func blameChain(_ directory: String) throws -> Blame? {
  let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  return try Blame.chain(rollbacks: Array(0..<50), workers: cores) { (n: Int) throws(BenchError) -> ConfigTree in
    try loadRollback(directory + "/" + (n == 0 ? "juniper.conf.gz" : "juniper.conf.\(n).gz"))
  }
}

func loadRollback(_ path: String) throws(BenchError) -> ConfigTree {
  let bytes: [UInt8]
  do {
    bytes = try Gzip.decompress(try readWholeFile(path))
  } catch let e as BenchError {
    throw e
  } catch {
    throw BenchError("\(path): \(error)")
  }
  let result = ConfigParser.parse(SourceFile(path: path, bytes: bytes))
  guard !result.hasErrors else { throw BenchError("\(path): \(result.diagnostics[0].rendered)") }
  return result.tree
}

/// `_blame-once DIR`: the timed child of `blame`.
func blameOnceChild(_ arguments: [String]) -> Int32 {
  guard arguments.count == 1 else { return 2 }
  do {
    guard let blame = try blameChain(arguments[0]) else { return 1 }
    let text = blame.renderText(commits: CommitHistory())
    try writeWholeFile("/dev/null", text)
    return 0
  } catch {
    printError("junoscope-bench _blame-once: \(error)")
    return 1
  }
}

/// `_range-once OLD NEW`: the timed child of the range diff.
func rangeOnceChild(_ arguments: [String]) -> Int32 {
  guard arguments.count == 2 else { return 2 }
  do {
    let diff = ConfigDiff(from: try loadRollback(arguments[0]), to: try loadRollback(arguments[1]))
    try writeWholeFile("/dev/null", diff.renderJunos())
    return diff.isEmpty ? 1 : 0
  } catch {
    printError("junoscope-bench _range-once: \(error)")
    return 1
  }
}

// MARK: - Report

func blameTableReport(_ rows: [BlameRow]) -> String {
  func ms(_ ns: UInt64) -> String { fixed(Double(ns) / 1e6, 1) + " ms" }
  func med(_ s: [UInt64]) -> UInt64 { UInt64(medianOf(s)) }
  var s = "junoscope-bench blame: a chain of 50 rollbacks (juniper.conf.N.gz), best / median of the samples\n\n"
  for r in rows {
    s += "\(grouped(r.lines)) lines, \(grouped(r.statements)) statements, \(fixed(Double(r.fileBytes) / 1e6, 2)) MB a rollback, "
    s += "\(fixed(Double(r.gzipBytes) / 1e6, 2)) MB gzipped for all 50; \(r.edits) edits over 49 commits\n"
    s += "  blame check against the generator's record: \(r.mismatches == 0 ? "all statements right" : "\(r.mismatches) WRONG")\n"
    func line(_ name: String, _ v: [UInt64], _ base: [UInt64]?, _ baseName: String) {
      s += "  " + pad(name, 34, right: false) + pad(ms(v[0]), 11, right: true) + " / " + pad(ms(med(v)), 11, right: true)
      if let base { s += "   \(fixed(Double(v[0]) / Double(base[0]), 2))× \(baseName) (\(ms(base[0])))" }
      s += "\n"
    }
    line("blame (50 rollbacks)", r.blame, r.gunzipAll, "gzip -dc of the 50 files")
    line("", r.blame, r.diffPairs, "GNU diff of the 49 pairs")
    line("  CPU time", r.blameCPU, nil, "")
    line("diff 48..0 (49 commits)", r.range, r.diffRange, "GNU diff rollback 49 → 0")
    if r.lines >= 90_000 && r.lines <= 110_000 {
      s += "  targets: blame ≤ \(fixed(blameTargetSeconds, 0)) s: \(Double(r.blame[0]) / 1e9 <= blameTargetSeconds ? "met" : "NOT met"); "
      s += "diff of 49 commits ≤ \(fixed(rangeTargetSeconds, 0)) s: \(Double(r.range[0]) / 1e9 <= rangeTargetSeconds ? "met" : "NOT met")\n"
    }
    s += "\n"
  }
  return s
}

func blameJSONReport(_ rows: [BlameRow]) -> String {
  let items = rows.map { r in
    object([
      ("lines", "\(r.lines)"), ("statements", "\(r.statements)"), ("fileBytes", "\(r.fileBytes)"), ("gzipBytes", "\(r.gzipBytes)"),
      ("edits", "\(r.edits)"), ("mismatches", "\(r.mismatches)"),
      ("blameBestMs", number(Double(r.blame[0]) / 1e6)), ("blameMedianMs", number(medianOf(r.blame) / 1e6)),
      ("blameCPUBestMs", number(Double(r.blameCPU[0]) / 1e6)),
      ("rangeBestMs", number(Double(r.range[0]) / 1e6)), ("rangeMedianMs", number(medianOf(r.range) / 1e6)),
      ("gunzipAllBestMs", number(Double(r.gunzipAll[0]) / 1e6)), ("diffPairsBestMs", number(Double(r.diffPairs[0]) / 1e6)),
      ("diffRangeBestMs", number(Double(r.diffRange[0]) / 1e6)),
    ])
  }
  return "{\"bench\":\"blame\",\"rows\":[" + items.joined(separator: ",") + "]}"
}

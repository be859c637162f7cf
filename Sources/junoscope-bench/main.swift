// junoscope-bench: performance measurements of JunosConfig and JunosDiff.
//
//   junoscope-bench parse   [--lines 10000,100000,1000000] [--samples 10] [--keep DIR] [--format text|json]
//   junoscope-bench compare [--lines 10000,100000,1000000] [--samples 10] [--keep DIR] [--format text|json]
//   junoscope-bench blame   [--lines 100000] [--samples 5] [--keep DIR] [--format text|json]
//   junoscope-bench lint    [--lines 1000000] [--samples 3] [--inputs curly,set,plan] [--keep DIR] [--format text|json]
//   junoscope-bench semantic [--lines 100000] [--samples 3] [--keep DIR] [--format text|json]
//   junoscope-bench ssh     [--samples 5] [--harness DIR]
//   junoscope-bench review  [--devices 50] [--commits 50] [--lines 100000] [--samples 3] [--keep DIR] [--format text|json]
//
// This file only reads the arguments; see ParseBench.swift, CompareBench.swift, BlameBench.swift
// LintBench.swift and ReviewBench.swift (measurements), CompareEdits.swift (the edited copy), BenchReport.swift
// and CompareReport.swift (output) and BenchSystem.swift (clock, files, processes, /proc).

import Glibc

let usage = """
  usage: junoscope-bench parse [--lines N[,N...]] [--samples N] [--keep DIR] [--format text|json]
         junoscope-bench compare [--lines N[,N...]] [--samples N] [--keep DIR] [--format text|json]
         junoscope-bench blame [--lines N[,N...]] [--samples N] [--keep DIR] [--format text|json]
         junoscope-bench lint [--lines N[,N...]] [--samples N] [--inputs curly,set,plan] [--keep DIR] [--format text|json]
         junoscope-bench semantic [--lines N[,N...]] [--samples N] [--keep DIR] [--format text|json]
         junoscope-bench ssh [--samples N] [--harness DIR]
         junoscope-bench review [--devices N] [--commits N] [--lines N] [--samples N] [--keep DIR] [--format text|json]

  parse: generates curly configurations of N lines (default 10000,100000,1000000; k and M
  suffixes allowed) plus their `display set` form, and measures ConfigParser.parse on each: best
  and median time, MB/s, `wc -l` on the same file as a baseline, and peak memory in a child process.

  compare: generates the same curly configurations and a copy of each with 100 edits spread
  through it, and times GNU `diff OLD NEW > /dev/null` against junoscope's whole compare (read,
  parse both, ConfigDiff, renderJunos, write to /dev/null) in a child process: best and median,
  ratio, time per MB, where the time goes, peak memory, and the changes found.

  blame: generates a chain of 50 rollbacks (juniper.conf.N.gz) of a configuration of N lines
  (default 100000), checks the blame against the generator's record, and times `blame` of all 50
  and the diff of commits 48..0 in child processes, against `gzip -dc` of the 50 files, GNU diff
  over the 49 consecutive pairs and GNU diff of rollback 49 against 0 (default 5 samples).

  lint: generates the same curly configuration of N lines (default 1000000), its `display set` form
  and a 3-step plan that `#@ load override`s it, and times Checklist.lint on each (config: for curly
  and set, plan:read: for the plan) against ConfigParser.parse of the same bytes, in this process,
  lint and parse interleaved (default 3 samples): best and median, ratio, CPU time, findings by
  severity and rule, where the time goes; exits 1 if a lint reports an input error.

  semantic: generates the same curly configuration of N lines (default 100000) and a copy with 100
  edits, and times the whole lint of the pair (target ≤ 2 s) against the semantic comparison of
  every attachment point (BGP import/export, IGP export, VRF, forwarding table) and of the changed
  ones, in this process, interleaved (default 3 samples); exits 1 if the lint reports an input error.

  ssh: starts the tests' OpenSSH sshd on 127.0.0.1 (Tests/JunosDeviceTests/Harness, needs
  openssh-server) serving 50 generated rollbacks, and measures connect + auth, one command on an
  open session, a bundle of 50 rollbacks over the CLI and NETCONF, and 50 MiB from one command,
  against the OpenSSH client in the same run (default 5 samples).

  review: writes a git repository of backups as Oxidized keeps one (a file per device, a commit
  per backup, the fleet interleaved in time) of D devices (default 50) × C commits (default 50) of
  a generated configuration of N lines (default 100000), with `git fast-import`, then times
  `junoscope review --git REPO` over the whole history (JSON to /dev/null; the junoscope binary
  beside this one) against `git log -p` over the same repository, in child processes (default 3
  samples): best and median wall time, CPU time, peak memory, and the ratio (target ≤ 2×).

    --samples N     timed samples per file or pair after one warm-up (default 10)
    --keep DIR      write the generated files to DIR and keep them (default: a temporary directory)
    --format F      text (default; also `table`) or json
  """

/// Parses `10000`, `10k`, `1M`, `1_000_000`.
func parseCount(_ text: Substring) -> Int? {
  var digits = text.filter { $0 != "_" }
  var scale = 1
  if digits.hasSuffix("k") || digits.hasSuffix("K") {
    scale = 1000; digits.removeLast()
  } else if digits.hasSuffix("m") || digits.hasSuffix("M") {
    scale = 1_000_000; digits.removeLast()
  }
  guard let n = Int(digits), n > 0 else { return nil }
  return n * scale
}

func parseBenchOptions(_ command: String, _ arguments: [String]) -> BenchOptions {
  func fail(_ message: String) -> Never {
    printError("junoscope-bench \(command): \(message)\n\n\(usage)")
    exit(2)
  }
  var options = BenchOptions()
  var rest = arguments[...]
  while let argument = rest.popFirst() {
    // Accept both `--name value` and `--name=value`.
    var name = argument
    var value: String?
    if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
      name = String(argument[..<eq])
      value = String(argument[argument.index(after: eq)...])
    }
    func takeValue() -> String {
      if let value { return value }
      guard let next = rest.popFirst() else { fail("\(name) needs a value") }
      return next
    }
    switch name {
    case "--lines":
      let list = takeValue().split(separator: ",").map { parseCount($0) }
      guard !list.isEmpty, list.allSatisfy({ $0 != nil }) else { fail("--lines wants positive counts, e.g. 10k,1M") }
      options.lines = list.map { $0! }
    case "--samples":
      guard let n = Int(takeValue()), n >= 1 else { fail("--samples wants a positive integer") }
      options.samples = n
    case "--keep":
      options.keepDirectory = takeValue()
    case "--format":
      switch takeValue() {
      case "text", "table": options.json = false
      case "json": options.json = true
      case let other: fail("unknown format '\(other)' (text or json)")
      }
    case "-h", "--help":
      print(usage)
      exit(0)
    default:
      fail("unknown argument '\(argument)'")
    }
  }
  return options
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "parse":
  let options = parseBenchOptions("parse", Array(arguments.dropFirst()))
  do {
    let run = try runParseBench(options)
    print(options.json ? jsonReport(run) : tableReport(run))
  } catch {
    printError("junoscope-bench: \(error)")
    exit(1)
  }
case "compare":
  let options = parseBenchOptions("compare", Array(arguments.dropFirst()))
  do {
    let run = try runCompareBench(options)
    print(options.json ? compareJSONReport(run) : compareTableReport(run))
  } catch {
    printError("junoscope-bench: \(error)")
    exit(1)
  }
case "blame":
  var options = parseBenchOptions("blame", Array(arguments.dropFirst()))
  if !arguments.contains(where: { $0.hasPrefix("--lines") }) { options.lines = [100_000] }
  if !arguments.contains(where: { $0.hasPrefix("--samples") }) { options.samples = 5 }
  do {
    let rows = try runBlameBench(options)
    print(options.json ? blameJSONReport(rows) : blameTableReport(rows))
    if rows.contains(where: { $0.mismatches > 0 }) { exit(1) }
  } catch {
    printError("junoscope-bench: \(error)")
    exit(1)
  }
case "lint":
  var rest = Array(arguments.dropFirst())
  guard let inputs = lintInputs(&rest) else {
    printError("junoscope-bench lint: --inputs wants a list of curly, set and plan\n\n\(usage)")
    exit(2)
  }
  var options = parseBenchOptions("lint", rest)
  if !rest.contains(where: { $0.hasPrefix("--lines") }) { options.lines = [1_000_000] }
  if !rest.contains(where: { $0.hasPrefix("--samples") }) { options.samples = 3 }
  do {
    let run = try runLintBench(options, inputs: inputs)
    print(options.json ? lintJSONReport(run) : lintTableReport(run))
  } catch {
    printError("junoscope-bench: \(error)")
    exit(1)
  }
case "semantic":
  let rest = Array(arguments.dropFirst())
  var options = parseBenchOptions("semantic", rest)
  if !rest.contains(where: { $0.hasPrefix("--lines") }) { options.lines = [100_000] }
  if !rest.contains(where: { $0.hasPrefix("--samples") }) { options.samples = 3 }
  do {
    let rows = try runSemanticBench(options)
    print(options.json ? semanticJSONReport(rows) : semanticTableReport(rows))
  } catch {
    printError("junoscope-bench: \(error)")
    exit(1)
  }
case "ssh":
  var samples = 5
  var harness = "Tests/JunosDeviceTests/Harness"
  var rest = Array(arguments.dropFirst())[...]
  while let a = rest.popFirst() {
    switch a {
    case "--samples": samples = Int(rest.popFirst() ?? "") ?? 0
    case "--harness": harness = rest.popFirst() ?? harness
    default:
      printError("junoscope-bench ssh: unknown argument '\(a)'\n\n\(usage)")
      exit(2)
    }
  }
  guard samples >= 1 else {
    printError("junoscope-bench ssh: --samples wants a positive integer")
    exit(2)
  }
  do {
    let (rows, bytes) = try runSSHBench(harness: harness, samples: samples, interfaces: 500)
    print(sshTableReport(rows, rollbackBytes: bytes))
  } catch {
    printError("junoscope-bench: \(error)")
    exit(1)
  }
case "review":
  var rest = Array(arguments.dropFirst())
  guard let fleet = reviewBenchOptions(&rest) else {
    printError("junoscope-bench review: --devices wants a positive count and --commits one of at least 2\n\n\(usage)")
    exit(2)
  }
  var options = parseBenchOptions("review", rest)
  if !rest.contains(where: { $0.hasPrefix("--lines") }) { options.lines = [100_000] }
  if !rest.contains(where: { $0.hasPrefix("--samples") }) { options.samples = 3 }
  do {
    let run = try runReviewBench(options, fleet)
    print(options.json ? reviewJSONReport(run) : reviewTableReport(run))
  } catch {
    printError("junoscope-bench: \(error)")
    exit(1)
  }
case "_blame-once":  // hidden: the timed child process of `blame`
  exit(blameOnceChild(Array(arguments.dropFirst())))
case "_range-once":  // hidden: the timed range-diff child process of `blame`
  exit(rangeOnceChild(Array(arguments.dropFirst())))
case "_parse-once":  // hidden: the memory measurement's child process
  exit(parseOnceChild(Array(arguments.dropFirst())))
case "_compare-once":  // hidden: the timed and memory child process of `compare`
  exit(compareOnceChild(Array(arguments.dropFirst())))
case "-h", "--help", "help":
  print(usage)
default:
  printError(usage)
  exit(2)
}

// LintBench.swift
//
// `junoscope-bench lint`: generates the same curly configurations as `parse` (ConfigGenerator,
// same seed), their `display set` rendering and a 3-step change plan that `#@ load override`s the
// curly file, then measures in this process, interleaved, after one untimed warm-up each:
//   - Checklist.lint(config:) on the curly and on the set bytes (end to end: parse, effective
//     configuration, model, roles, the 27 rules, suppressions, sorting),
//   - Checklist.lint(plan:read:) on the plan (the loaded file comes from memory),
// against ConfigParser.parse of the same bytes in the same run (for the plan: of the curly file
// it loads). Each config input is also taken apart once per sample into the public steps
// (parse, effective(), RouterModel, InterfaceRoles) to show where the time goes.
// The bench exits 1 if any lint reports an input error.

import Glibc
import JunosChecklist
import JunosConfig

/// The lint target: the 1M-line curly configuration linted in at most this many seconds.
let lintTargetSeconds = 2.0
/// The configuration size the lint target is about.
let lintTargetLines = 1_000_000

/// What `lint` measures for each size.
enum LintInput: String, CaseIterable {
  /// The curly file.
  case curly
  /// Its `display set` rendering.
  case set
  /// A 3-step plan loading the curly file.
  case plan
}

/// Splits `--inputs curly,set,plan` off the arguments (the rest are `BenchOptions`).
func lintInputs(_ arguments: inout [String]) -> [LintInput]? {
  var inputs = LintInput.allCases
  var rest: [String] = []
  var k = 0
  while k < arguments.count {
    let a = arguments[k]
    var value: String?
    if a == "--inputs" {
      guard k + 1 < arguments.count else { return nil }
      value = arguments[k + 1]
      k += 1
    } else if a.hasPrefix("--inputs=") {
      value = String(a.dropFirst("--inputs=".count))
    } else {
      rest.append(a)
    }
    if let value {
      let list = value.split(separator: ",").map { LintInput(rawValue: String($0)) }
      guard !list.isEmpty, list.allSatisfy({ $0 != nil }) else { return nil }
      inputs = LintInput.allCases.filter { list.contains($0) }
    }
    k += 1
  }
  arguments = rest
  return inputs
}

/// Medians of the public steps of one configuration lint, nanoseconds.
struct LintSteps {
  /// `ConfigParser.parse` (syntax detected).
  var parse: Double
  /// `ConfigTree.effective()`: groups applied, inactive statements dropped.
  var effective: Double
  /// `RouterModel(effective:)`.
  var model: Double
  /// `InterfaceRoles(model:rules:)`.
  var roles: Double
}

/// Figures of one input of one size.
struct LintRow {
  /// The size asked of the generator.
  var configLines: Int
  var input: LintInput
  /// The file linted (for the plan: the plan file; the configuration it loads is `configPath`).
  var path: String
  var configPath: String
  /// Newline count and size of the configuration file.
  var lines: Int
  var bytes: Int
  /// Statements of the parsed configuration.
  var statements: Int
  /// Findings by severity and by rule (catalogue id, count), after suppressions.
  var errors: Int
  var warnings: Int
  var infos: Int
  var byRule: [(String, Int)]
  /// FNV-1a digest of every finding (rule, severity, file name, line, column, step, path, message) in
  /// order: equal digests mean equal findings, across runs and implementations.
  var digest: UInt64
  /// Wall time of the lint and of the baseline parse, nanoseconds, sorted ascending.
  var lint: [UInt64]
  var parse: [UInt64]
  /// CPU time of this process during each lint (user + system), sorted ascending.
  var lintCPU: [UInt64]
  /// The steps, for configuration inputs.
  var steps: LintSteps?

  var findings: Int { errors + warnings + infos }
  var ratioBest: Double { Double(lint[0]) / Double(parse[0]) }
  var ratioMedian: Double { medianOf(lint) / medianOf(parse) }
  /// Whether this row is the one the target is about.
  var isTargetRow: Bool { input == .curly && configLines == lintTargetLines }
}

/// Everything one `lint` run measured.
struct LintRun {
  var options: BenchOptions
  var inputs: [LintInput]
  var rows: [LintRow]
  /// Findings plus statements over every timed lint (keeps the work observable).
  var checksum: Int
  var directory: String
  var kept: Bool
}

/// CPU time of this process so far (all threads), nanoseconds.
func processCPUNanos() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Runs the whole benchmark; progress goes to standard error.
func runLintBench(_ options: BenchOptions, inputs: [LintInput]) throws -> LintRun {
  let directory = try benchDirectory(options)
  var created: [String] = []
  defer { if options.keepDirectory == nil { removeDirectory(directory, files: created) } }

  var rows: [LintRow] = []
  var checksum = 0
  for n in options.lines {
    let curlyPath = "\(directory)/lint-\(n).conf"
    let setPath = "\(directory)/lint-\(n).set"
    let planPath = "\(directory)/lint-\(n).plan"
    printError("[\(n) lines] generating \(curlyPath)")
    var generator = ConfigGenerator(seed: benchSeed)
    let curly = generator.curly(lines: n)
    try writeWholeFile(curlyPath, curly)
    created.append(curlyPath)
    let parsed = ConfigParser.parse(SourceFile(path: curlyPath, bytes: curly), syntax: .curly)
    try requireNoErrors(parsed, curlyPath, .curly)
    // Read back: every sample lints the bytes of the file as written.
    let curlyBytes = try readWholeFile(curlyPath)
    for input in inputs {
      switch input {
      case .curly:
        printError("[\(n) lines] measuring lint of the curly file")
        rows.append(
          try measureConfigLint(curlyPath, curlyBytes, input: .curly, configLines: n, samples: options.samples, checksum: &checksum))
      case .set:
        printError("[\(n) lines] writing \(setPath) and measuring its lint")
        try writeWholeFile(setPath, parsed.tree.renderSet(RenderOptions(showSecrets: true)))
        created.append(setPath)
        let setBytes = try readWholeFile(setPath)
        rows.append(try measureConfigLint(setPath, setBytes, input: .set, configLines: n, samples: options.samples, checksum: &checksum))
      case .plan:
        printError("[\(n) lines] writing \(planPath) and measuring its lint")
        let plan = benchPlan(loading: "lint-\(n).conf", tree: parsed.tree)
        try writeWholeFile(planPath, plan)
        created.append(planPath)
        let planBytes = try readWholeFile(planPath)
        rows.append(
          try measurePlanLint(
            planPath, planBytes, configPath: curlyPath, configBytes: curlyBytes, configLines: n, samples: options.samples,
            checksum: &checksum))
      }
    }
  }
  return LintRun(options: options, inputs: inputs, rows: rows, checksum: checksum, directory: directory, kept: options.keepDirectory != nil)
}

/// A plan of 3 steps over the generated configuration: load it (override) under a confirmed
/// commit, overload IS-IS, change a core link's description; each step verified. The file is
/// named as a plan beside it would name it; `tree` gives the core link (the first `et-` interface).
func benchPlan(loading configName: String, tree: ConfigTree) -> [UInt8] {
  var core = "et-0/0/0"
  if let interfaces = tree.child(of: ConfigTree.root, startingWith: ["interfaces"]) {
    for c in tree.children(of: interfaces) {
      let name = tree.word(0, of: c)
      if name.hasPrefix("et-") {
        core = name
        break
      }
    }
  }
  let text = """
    #@ plan node=pe1-bench platform=mx10008 kind=change
    #@ step preload "Load the generated configuration"
    #@ load override \(configName)
    #@ commit confirmed 5
    #@ confirm check
    #@ verify manual "configuration loaded, no alarms"
    #@ step cost-out "Overload IS-IS before the work"
    set protocols isis overload
    #@ commit confirmed 5
    #@ confirm check
    #@ verify isis-adjacency \(core).0 up
    #@ step describe "Re-describe the core link"
    set interfaces \(core) description "Core link under maintenance CHG0050001"
    #@ commit confirmed 5
    #@ confirm check
    #@ verify isis-adjacency \(core).0 up

    """
  return Array(text.utf8)
}

/// Findings by severity and by rule, and their digest.
private struct Tally {
  var errors = 0
  var warnings = 0
  var infos = 0
  var byRule: [(String, Int)] = []
  var digest: UInt64 = 0xcbf2_9ce4_8422_2325
}

/// Counts findings by severity and by rule and digests them; throws on input errors.
private func tally(_ result: LintResult, _ path: String) throws -> Tally {
  if result.hasErrors {
    let first = result.diagnostics.filter { $0.severity == .error }.prefix(5).map(\.rendered)
    throw BenchError("lint of \(path) reported input errors, e.g.\n  " + first.joined(separator: "\n  "))
  }
  var t = Tally()
  var rules: [String: Int] = [:]
  for f in result.findings {
    switch f.severity {
    case .error: t.errors += 1
    case .warning: t.warnings += 1
    case .info: t.infos += 1
    }
    rules[f.rule.rawValue, default: 0] += 1
    let l = f.location
    // The file's name without its folder: the temporary folder differs from run to run.
    let file = l.file.split(separator: "/").last.map(String.init) ?? l.file
    let text = "\(f.rule.rawValue)\t\(f.severity.rawValue)\t\(file)\t\(l.line)\t\(l.column)\t\(f.step ?? "")\t\(f.path)\t\(f.message)\n"
    for b in text.utf8 { t.digest = (t.digest ^ UInt64(b)) &* 0x100_0000_01b3 }
  }
  t.byRule = rules.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
  return t
}

/// What the timed loop of one input measured.
private struct LintTimes {
  var tally: Tally
  var statements: Int
  /// Sorted ascending, nanoseconds.
  var lint: [UInt64]
  var cpu: [UInt64]
  var parse: [UInt64]
}

/// One untimed warm-up of each, then `samples` rounds of: `lint` (wall and CPU time), the parse of
/// the configuration bytes, and `extra` (untimed here). Every lint must find the same findings.
private func timeLint(
  _ path: String, configPath: String, configBytes: [UInt8], samples: Int, checksum: inout Int, lint: () -> LintResult,
  extra: () -> Void = {}
) throws -> LintTimes {
  var first: Tally?
  var statements = 0
  func lintOnce() throws -> (wall: UInt64, cpu: UInt64) {
    let c0 = processCPUNanos()
    let t0 = monotonicNanos()
    let result = lint()
    let t1 = monotonicNanos()
    let c1 = processCPUNanos()
    let t = try tally(result, path)
    if let first, first.digest != t.digest {
      throw BenchError(
        "lint of \(path) found \(t.errors + t.warnings + t.infos) findings, then \(first.errors + first.warnings + first.infos)")
    }
    first = t
    checksum &+= result.findings.count
    return (t1 - t0, c1 - c0)
  }
  // A fresh SourceFile each time: its line table is built on first use and must not be reused.
  func parseOnce() throws -> UInt64 {
    let t0 = monotonicNanos()
    let result = ConfigParser.parse(SourceFile(path: configPath, bytes: configBytes))
    let t1 = monotonicNanos()
    try requireNoErrors(result, configPath, result.syntax)
    statements = result.tree.statementCount
    checksum &+= statements
    return t1 - t0
  }
  _ = try lintOnce()
  _ = try parseOnce()
  var times = LintTimes(tally: first!, statements: 0, lint: [], cpu: [], parse: [])
  for _ in 0..<samples {
    let l = try lintOnce()
    times.lint.append(l.wall)
    times.cpu.append(l.cpu)
    times.parse.append(try parseOnce())
    extra()
  }
  times.statements = statements
  times.lint.sort()
  times.cpu.sort()
  times.parse.sort()
  return times
}

/// Times `Checklist.lint(config:)` on one configuration file's bytes against their parse, and
/// takes the lint apart into its public steps once per sample.
private func measureConfigLint(
  _ path: String, _ bytes: [UInt8], input: LintInput, configLines: Int, samples: Int, checksum: inout Int
) throws -> LintRow {
  var step: [String: [UInt64]] = [:]
  var sink = 0
  func stepsOnce() {
    var t = monotonicNanos()
    func lap(_ name: String) {
      let now = monotonicNanos()
      step[name, default: []].append(now - t)
      t = now
    }
    let parsed = ConfigParser.parse(SourceFile(path: path, bytes: bytes))
    lap("parse")
    let effective = parsed.tree.effective()
    lap("effective")
    let model = RouterModel(effective: effective)
    lap("model")
    let roles = InterfaceRoles(model: model, rules: RoleRules())
    lap("roles")
    sink &+= roles.roles.count
  }
  let t = try timeLint(
    path, configPath: path, configBytes: bytes, samples: samples, checksum: &checksum,
    lint: { Checklist.lint(config: SourceFile(path: path, bytes: bytes)) }, extra: stepsOnce)
  checksum &+= sink
  func med(_ name: String) -> Double { medianOf((step[name] ?? []).sorted()) }
  return LintRow(
    configLines: configLines, input: input, path: path, configPath: path, lines: newlines(bytes), bytes: bytes.count,
    statements: t.statements, errors: t.tally.errors, warnings: t.tally.warnings, infos: t.tally.infos, byRule: t.tally.byRule,
    digest: t.tally.digest, lint: t.lint, parse: t.parse, lintCPU: t.cpu,
    steps: LintSteps(parse: med("parse"), effective: med("effective"), model: med("model"), roles: med("roles")))
}

/// Times `Checklist.lint(plan:read:)` (the configuration it loads handed over from memory)
/// against the parse of that configuration.
private func measurePlanLint(
  _ planPath: String, _ planBytes: [UInt8], configPath: String, configBytes: [UInt8], configLines: Int, samples: Int,
  checksum: inout Int
) throws -> LintRow {
  // The plan names the file without its folder; any other name is an unreadable file: an input
  // error, which stops the bench.
  let configName = configPath.split(separator: "/").last.map(String.init) ?? configPath
  let t = try timeLint(
    planPath, configPath: configPath, configBytes: configBytes, samples: samples, checksum: &checksum,
    lint: {
      Checklist.lint(plan: SourceFile(path: planPath, bytes: planBytes)) { name in
        guard name == configName else { throw BenchError("the plan names \(name), not \(configName)") }
        return SourceFile(path: configPath, bytes: configBytes)
      }
    })
  return LintRow(
    configLines: configLines, input: .plan, path: planPath, configPath: configPath, lines: newlines(configBytes),
    bytes: configBytes.count, statements: t.statements, errors: t.tally.errors, warnings: t.tally.warnings, infos: t.tally.infos,
    byRule: t.tally.byRule, digest: t.tally.digest, lint: t.lint, parse: t.parse, lintCPU: t.cpu, steps: nil)
}

private func newlines(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }

// MARK: - Report

/// The human-readable report.
func lintTableReport(_ run: LintRun) -> String {
  func ms(_ ns: Double) -> String { fixed(ns / 1e6, 1) }
  let header = [
    "config", "input", "lines", "bytes", "statements", "error", "warn", "info", "lint best ms", "median ms", "CPU ms",
    "parse best ms", "median ms", "lint/parse",
  ]
  var cells: [[String]] = [header]
  for r in run.rows {
    cells.append([
      sizeLabel(r.configLines), r.input.rawValue, grouped(r.lines), grouped(r.bytes), grouped(r.statements), grouped(r.errors),
      grouped(r.warnings), grouped(r.infos), ms(Double(r.lint[0])), ms(medianOf(r.lint)), ms(Double(r.lintCPU[0])),
      ms(Double(r.parse[0])), ms(medianOf(r.parse)), fixed(r.ratioBest, 2) + "× / " + fixed(r.ratioMedian, 2) + "×",
    ])
  }
  var out = "junoscope-bench lint: seed 0x\(String(benchSeed, radix: 16)), \(run.options.samples) timed samples"
  out += " after 1 warm-up per input, lint and parse interleaved; MB = 10^6 bytes\n\n"
  out += layout(cells, textColumns: 2)

  let stepRows = run.rows.filter { $0.steps != nil }
  if !stepRows.isEmpty {
    var s: [[String]] = [["config", "input", "parse", "effective", "model", "roles", "rest", "lint median ms"]]
    for r in stepRows {
      let st = r.steps!
      let rest = medianOf(r.lint) - st.parse - st.effective - st.model - st.roles
      s.append([
        sizeLabel(r.configLines), r.input.rawValue, ms(st.parse), ms(st.effective), ms(st.model), ms(st.roles), ms(rest),
        ms(medianOf(r.lint)),
      ])
    }
    out += "\nWhere the time goes (medians, ms; rest = lint median − the four steps: locator, 27 rules, suppressions, sort):\n\n"
    out += layout(s, textColumns: 2)
  }

  out += "\nFindings by rule:\n"
  for r in run.rows {
    out += "  \(sizeLabel(r.configLines)) \(r.input.rawValue) (digest \(String(r.digest, radix: 16))): "
    out += r.byRule.isEmpty ? "none" : r.byRule.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    out += "\n"
  }

  out += "\nTarget (reported, not enforced):\n"
  out += "  lint of the \(sizeLabel(lintTargetLines))-line curly config ≤ \(fixed(lintTargetSeconds, 0)) s: "
  if let r = run.rows.first(where: \.isTargetRow) {
    let met = Double(r.lint[0]) / 1e9 <= lintTargetSeconds
    out += "\(fixed(Double(r.lint[0]) / 1e9, 2)) s best, \(fixed(medianOf(r.lint) / 1e9, 2)) s median -> \(met ? "met" : "NOT met")\n"
  } else {
    out += "not measured (add 1000000 to --lines and curly to --inputs)\n"
  }
  out += """

    Columns:
      lines, bytes   of the configuration file (for plan: the curly file the plan loads with #@ load override).
      statements     of the parsed configuration.
      error/warn/info findings of the lint by severity, after suppressions (there are none in the bench).
      lint           Checklist.lint(config: SourceFile(path:bytes:)) on bytes read beforehand: parse, effective
                     configuration, model, roles, every rule, suppressions, sorting; for plan,
                     Checklist.lint(plan:read:) whose read hands over the configuration's bytes from memory.
                     CPU ms: the least CPU time of this process over the lint samples (hardly affected by load).
      parse          ConfigParser.parse(SourceFile(path:bytes:)) of the same configuration bytes, same run.
      lint/parse     best / best and median / median.

    """
  out += "checksum: \(run.checksum)\n"
  out += "files: \(run.directory) (\(run.kept ? "kept" : "removed"))"
  return out
}

/// Lays out a table: a header, a rule, the first `textColumns` columns left-aligned.
private func layout(_ cells: [[String]], textColumns: Int) -> String {
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

/// The same data as JSON (times in milliseconds).
func lintJSONReport(_ run: LintRun) -> String {
  func list(_ s: [UInt64]) -> String { "[" + s.map { number(Double($0) / 1e6) }.joined(separator: ", ") + "]" }
  var rows: [String] = []
  for r in run.rows {
    var fields: [(String, String)] = [
      ("config_lines", "\(r.configLines)"), ("input", string(r.input.rawValue)), ("path", string(r.path)),
      ("config_path", string(r.configPath)), ("lines", "\(r.lines)"), ("bytes", "\(r.bytes)"), ("statements", "\(r.statements)"),
      ("findings", object([("error", "\(r.errors)"), ("warning", "\(r.warnings)"), ("info", "\(r.infos)")], indent: "      ")),
      ("findings_by_rule", object(r.byRule.map { ($0.0, "\($0.1)") }, indent: "      ")),
      ("findings_digest", string(String(r.digest, radix: 16))),
      ("lint_best_ms", number(Double(r.lint[0]) / 1e6)), ("lint_median_ms", number(medianOf(r.lint) / 1e6)),
      ("lint_samples_ms", list(r.lint)), ("lint_cpu_best_ms", number(Double(r.lintCPU[0]) / 1e6)),
      ("parse_best_ms", number(Double(r.parse[0]) / 1e6)), ("parse_median_ms", number(medianOf(r.parse) / 1e6)),
      ("parse_samples_ms", list(r.parse)), ("lint_over_parse_best", number(r.ratioBest)),
      ("lint_over_parse_median", number(r.ratioMedian)),
    ]
    if let st = r.steps {
      fields.append(
        (
          "steps_median_ms",
          object(
            [
              ("parse", number(st.parse / 1e6)), ("effective", number(st.effective / 1e6)), ("model", number(st.model / 1e6)),
              ("roles", number(st.roles / 1e6)),
              ("rest", number((medianOf(r.lint) - st.parse - st.effective - st.model - st.roles) / 1e6)),
            ], indent: "      ")
        ))
    }
    rows.append(object(fields, indent: "    "))
  }
  let target = run.rows.first(where: \.isTargetRow)
  let targets = object(
    [
      ("lint_1m_max_seconds", number(lintTargetSeconds)),
      ("lint_1m_best_seconds", target.map { number(Double($0.lint[0]) / 1e9) } ?? "null"),
      ("lint_1m_met", target.map { Double($0.lint[0]) / 1e9 <= lintTargetSeconds ? "true" : "false" } ?? "null"),
    ], indent: "  ")
  return object(
    [
      ("benchmark", string("lint")), ("seed", "\(benchSeed)"), ("samples", "\(run.options.samples)"), ("warmups", "1"),
      ("inputs", "[" + run.inputs.map { string($0.rawValue) }.joined(separator: ", ") + "]"), ("clock", string("CLOCK_MONOTONIC")),
      ("targets", targets), ("results", "[\n" + rows.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"),
      ("checksum", "\(run.checksum)"), ("directory", string(run.directory)), ("kept", run.kept ? "true" : "false"),
    ], indent: "")
}

import ArgumentKit
import Foundation
import JunosChecklist
import JunosConfig
import JunosDiff
import JunosHistory
import Reports

/// A file a plan names that cannot be read.
struct PlanFileError: Error, CustomStringConvertible {
  var description: String
}

/// `junoscope lint FILE`: the outage checklist on a configuration, a change or a plan.
enum LintCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "lint",
    abstract: "Check a planned configuration, change or change plan against the outage checklist.",
    discussion: """
      FILE is a full configuration (curly or 'display set'), a change plan ('#@ plan' directives,
      replayed step by step over its '#@ baseline'), a 'show system commit' listing (rule
      empty-confirming-commit), or, with --baseline, set/delete commands or a captured 'show | compare'
      applied to the running configuration (a full configuration given with --baseline is compared
      with it). Paths inside a plan are relative to the plan's folder.
      Several FILEs (each change followed by its own --baseline) are linted together: the changes or
      plans for the two routers of a redundant pair are compared (rule redundant-pair-attribute-change).
      With a history source (--rollbacks DIR, --bundle DIR, --host HOST or --git REPO with --device or
      --file), lint checks what commits X..Y did, as 'diff' shows it (RANGE, --author NAME [--batch K]
      or --since/--until): the change rules, and the configuration findings the change adds.
      Text output is 'file:line:col: severity: [rule-id] message', with the step for plans.
      Exit status: 0 when no reported finding is an error (with --strict: when nothing is reported),
      1 when one is, 2 when an input cannot be read or parsed. Rules: Docs/Rules.md.
      """,
    arguments: [
      .positional(
        "file",
        help:
          "The configuration, change, plan or commit listing (- for standard input); several are linted together; with a history source, commits X..Y.",
        optional: true, repeating: true, completion: .file),
      .option(
        "baseline", short: "b", valueName: "running",
        help: "The running configuration a change applies to; with several files, one per file that is not a plan, in order.",
        repeating: true, completion: .file),
      formatOption,
      severityOption,
      .flag("strict", help: "Fail (exit 1) on any reported finding, not only on errors."),
      rolesOption,
      minCoreLinksOption,
      suppressOption,
      outputOption,
      CommonOptions.keywords,
    ] + HistorySource.selectionArguments + HistorySource.arguments)

  static let minCoreLinksOption = ArgumentSpec.option(
    "min-core-links", valueName: "n", help: "Verified live core links a node needs before client links go live (default 1).")

  static let formatOption = ArgumentSpec.option(
    "format", short: "f", valueName: "format", help: "Report format.", allowedValues: ReportFormat.allCases.map(\.rawValue))
  static let severityOption = ArgumentSpec.option(
    "min-severity", valueName: "severity", help: "Report findings at or above this severity (default info).",
    allowedValues: ["error", "warning", "info"])
  static let rolesOption = ArgumentSpec.option(
    "roles", valueName: "file", help: "Interface roles and description patterns ('core IFD…', 'pattern client REGEX').", completion: .file)
  static let suppressOption = ArgumentSpec.option(
    "suppress", valueName: "file", help: "Suppression file: 'RULE-ID PATH-GLOB \"reason\"' per line.", completion: .file)
  static let outputOption = ArgumentSpec.option(
    "output", short: "o", valueName: "file", help: "Write the report to this file (atomically) instead of standard output.",
    completion: .file)

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let options = try lintOptions(inv, io: io)
    if historySourceOptions.contains(where: { inv.option($0) != nil }) {
      return try lintHistory(inv, options: options, console: console)
    }
    if let other = (HistorySource.selectionArguments + HistorySource.arguments).first(where: { inv.option($0.name) != nil }) {
      throw CommandFailure(
        message: "--\(other.name) reads a history: give --rollbacks DIR, --bundle DIR, --host HOST or --git REPO too",
        status: ExitStatus.usage)
    }
    let paths = inv.positionals("file")
    guard let path = paths.first else {
      throw CommandFailure(message: "give the file to lint, or a history source and a range", status: ExitStatus.usage)
    }
    if paths.count > 1 { return try lintTogether(paths, baselines: inv.options("baseline"), options: options, inv: inv, io: io) }
    let file = try readSource(path, io: io)
    let baseline = try inv.option("baseline").map { b throws(CommandFailure) in try readSource(b, io: io) }
    let result = try lint(file, baseline: baseline, options: options)
    CommonOptions.report(result.diagnostics, console: console)
    // An input that cannot be parsed is still reported (as an input error), so that a CI job
    // reading the report sees it.
    let failures = result.hasErrors ? [InputProblem(file: file.path, diagnostics: result.diagnostics)] : []
    return try emit(result.hasErrors ? [] : [result], files: [file.path], failures: failures, inv: inv, io: io)
  }

  /// Reads an input, gunzipped when it is compressed.
  static func readSource(_ path: String, io: FileIO) throws(CommandFailure) -> SourceFile {
    let input = try io.read(path)
    return SourceFile(path: input.path, bytes: try CommonOptions.gunzipped(input.bytes, path: input.path))
  }

  /// `lint A B …`: the files linted together (``Checklist/lint(together:options:)``). The
  /// `--baseline`s go, in order, to the files that are not plans: one each, or none at all.
  static func lintTogether(_ paths: [String], baselines: [String], options: LintOptions, inv: Invocation, io: FileIO)
    throws(CommandFailure) -> Int32
  {
    var files: [(SourceFile, InputKind)] = []
    for p in paths {
      let f = try readSource(p, io: io)
      files.append((f, InputKind.detect(f)))
    }
    let needing = files.filter { $0.1 != .plan }.count
    guard baselines.isEmpty || baselines.count == needing else {
      throw CommandFailure(
        message:
          "\(baselines.count) --baseline for \(needing) file\(needing == 1 ? "" : "s") that \(needing == 1 ? "is" : "are") not a plan: give one after each change, or none",
        status: ExitStatus.usage)
    }
    var next = baselines.makeIterator()
    var inputs: [LintInput] = []
    for (file, kind) in files {
      switch kind {
      case .binary, .empty, .history:
        let what = kind == .history ? "a commit listing is linted alone" : "\(kind.description), not a configuration"
        throw CommandFailure(message: "\(file.path): \(what)", status: kind == .history ? ExitStatus.usage : ExitStatus.invalidInput)
      case .plan:
        inputs.append(LintInput(file: file, kind: .plan(read: planReader(file))))
      case .compare, .commands, .configuration:
        let baseline = try next.next().map { b throws(CommandFailure) in try readSource(b, io: io) }
        if let baseline {
          inputs.append(LintInput(file: file, kind: .change(baseline: baseline)))
        } else if case .configuration = kind {
          inputs.append(LintInput(file: file, kind: .configuration))
        } else {
          throw CommandFailure(
            message: "\(file.path) is \(kind.description): give the running configuration it applies to with --baseline",
            status: ExitStatus.usage)
        }
      }
    }
    let results = Checklist.lint(together: inputs, options: options)
    var failures: [InputProblem] = []
    for (input, result) in zip(inputs, results) {
      CommonOptions.report(result.diagnostics, console: io.console)
      if result.hasErrors { failures.append(InputProblem(file: input.file.path, diagnostics: result.diagnostics)) }
    }
    return try emit(results.filter { !$0.hasErrors }, files: inputs.map(\.file.path), failures: failures, inv: inv, io: io)
  }

  /// Reads the files a plan names, relative to the plan's folder.
  static func planReader(_ file: SourceFile) -> (String) throws -> SourceFile {
    let folder = (file.path as NSString).deletingLastPathComponent
    return { p in
      let full = p.hasPrefix("/") || folder.isEmpty ? p : folder + "/" + p
      do throws(CommandFailure) {
        let bytes = try FileIO.readFile(full)
        return SourceFile(path: full, bytes: try CommonOptions.gunzipped(bytes, path: full))
      } catch {
        throw PlanFileError(description: error.message)
      }
    }
  }

  /// Reads `--roles` and `--suppress`.
  static func lintOptions(_ inv: Invocation, io: FileIO) throws(CommandFailure) -> LintOptions {
    var options = LintOptions()
    if let n = inv.option("min-core-links") {
      guard let k = Int(n), (1...64).contains(k) else {
        throw CommandFailure(message: "--min-core-links wants 1–64", status: ExitStatus.usage)
      }
      options.minCoreLinks = k
    }
    if let r = inv.option("roles") {
      let f = try io.read(r)
      let (rules, diagnostics) = RoleRules.parse(SourceFile(path: f.path, bytes: f.bytes))
      CommonOptions.report(diagnostics, console: io.console)
      if !diagnostics.isEmpty { throw CommandFailure(message: "\(f.path): invalid roles file", status: ExitStatus.invalidInput) }
      options.roleRules = rules
    }
    if let s = inv.option("suppress") {
      let f = try io.read(s)
      let (entries, diagnostics) = SuppressionEntry.parse(SourceFile(path: f.path, bytes: f.bytes))
      CommonOptions.report(diagnostics, console: io.console)
      if !diagnostics.isEmpty { throw CommandFailure(message: "\(f.path): invalid suppression file", status: ExitStatus.invalidInput) }
      options.suppressions = entries
    }
    return options
  }

  /// Lints one input of any kind (``InputKind/detect(_:)``); a binary or empty file is an input
  /// error.
  static func lint(_ file: SourceFile, kind detected: InputKind? = nil, baseline: SourceFile?, options: LintOptions)
    throws(CommandFailure) -> LintResult
  {
    let kind = detected ?? InputKind.detect(file)
    switch kind {
    case .binary:
      throw CommandFailure(message: "\(file.path): \(kind.description), not a configuration", status: ExitStatus.invalidInput)
    case .empty:
      throw CommandFailure(message: "\(file.path): \(kind.description): nothing to lint", status: ExitStatus.invalidInput)
    case .plan:
      return Checklist.lint(plan: file, options: options, read: planReader(file))
    case .history:
      let folder = (file.path as NSString).deletingLastPathComponent
      // The rollbacks beside the listing, read through the same store and reader as the history
      // commands (any name they read, compare captures composed); none there: not checked.
      var reader = (try? RollbackFolder(path: folder.isEmpty ? "." : folder)).map { HistoryReader(store: $0) }
      return Checklist.lint(history: file, options: options) { i in emptyCommit(i, reader: &reader) }
    case .compare, .commands:
      guard let baseline else {
        throw CommandFailure(
          message: "\(file.path) is \(kind.description): give the running configuration it applies to with --baseline",
          status: ExitStatus.usage)
      }
      return Checklist.lint(changes: file, baseline: baseline, options: options)
    case .configuration:
      // A configuration given with a baseline is the change from the baseline to it.
      if let baseline { return Checklist.lint(changes: file, baseline: baseline, options: options) }
      return Checklist.lint(config: file, options: options)
    }
  }

  /// Whether commit `i` changed nothing: the diff from rollback i+1 to rollback i is empty; nil
  /// when either is missing or does not parse. The diff, not tree equality: each file's
  /// `## Last commit` header names its own commit, so two rollbacks are never equal as trees.
  static func emptyCommit(_ i: Int, reader: inout HistoryReader?) -> Bool? {
    guard var r = reader else { return nil }
    defer { reader = r }
    guard let new = (try? r.configuration(i)) ?? nil, let old = (try? r.configuration(i + 1)) ?? nil else { return nil }
    return ConfigDiff(from: old, to: new).isEmpty
  }

  /// Filters by severity, writes the report, picks the exit status: 2 when an input could not be
  /// read or parsed, else 1 when a reported finding is an error (with `--strict`: when any is
  /// reported), else 0.
  static func emit(
    _ results: [LintResult], files: [String], failures: [InputProblem] = [], skipped: [InputProblem] = [], inv: Invocation, io: FileIO
  ) throws(CommandFailure) -> Int32 {
    let minimum = Severity(rawValue: inv.option("min-severity") ?? "info") ?? .info
    let findings = results.flatMap(\.findings).filter { $0.severity >= minimum }.sorted()
    let report = LintReport(findings: findings, files: files, toolVersion: Junoscope.version, failures: failures, skipped: skipped)
    let format = ReportFormat(rawValue: inv.option("format") ?? "text") ?? .text
    let output = inv.option("output")
    let text = ReportWriter.render(
      report, as: format, workingDirectory: FileManager.default.currentDirectoryPath, style: io.console.style(output: output))
    try io.write(Array(text.utf8), to: output)
    if !failures.isEmpty { return ExitStatus.invalidInput }
    let failing = inv.flag("strict") ? !findings.isEmpty : findings.contains { $0.severity == .error }
    return failing ? ExitStatus.failure : ExitStatus.success
  }
}

import ArgumentKit
import Foundation
import JunosChecklist
import JunosConfig
import JunosReview
import Reports
import Synchronization

/// `junoscope ci DIR`: every saved configuration under a folder, one report.
enum CICommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "ci",
    abstract: "Lint every configuration under a folder (an Oxidized or RANCID repository) into one report.",
    discussion: """
      Every regular file under DIR is read and linted in parallel as lint would: configurations with
      the configuration rules, change plans replayed, 'show system commit' listings with the history
      rules (using juniper.conf.N[.gz] rollbacks beside them when present). Not read: hidden files and
      folders (.git), rollback files (juniper.conf.gz and every name starting 'juniper.conf.', such as
      juniper.conf.N[.gz]; juniper.conf itself is linted) and files ending in \(skippedList) (in any
      case). Binary files (zoneinfo, images), empty files and changes (compare text; set files with
      delete, activate, insert or rename lines: they need the configuration they apply to, see
      lint --baseline) are skipped with one notice each and listed as skipped in the report. A file that
      cannot be read or parsed is an input error in every format (text 'input error:' line, JSON
      'failures', SARIF tool-execution notification with executionSuccessful false, JUnit <error>)
      and does not stop the others.
      --shard K/N keeps a stable 1/N of the files (by a hash of their path under DIR), so that CI
      jobs can split a fleet; write each shard's report with --format json and join them with
      'junoscope ci --merge REPORT…', which writes the merged report in any format.
      Exit status: 2 when an input cannot be read or parsed (also after --merge, when any shard had
      one), else 1 when a reported finding is an error (with --strict: any finding), else 0.
      """,
    arguments: [
      .positional(
        "dir", help: "Folder of saved configurations (or, with --merge, JSON reports).", optional: true, repeating: true, completion: .file),
      LintCommand.formatOption,
      LintCommand.severityOption,
      .flag("strict", help: "Fail (exit 1) on any reported finding, not only on errors."),
      .option("jobs", short: "j", valueName: "n", help: "Files linted at once (default: the number of processors)."),
      .option("shard", valueName: "k/n", help: "Lint only shard K of N (1-based), chosen by a stable hash of each file's path."),
      .flag("merge", help: "Merge JSON reports written by 'ci --format json' instead of linting."),
      LintCommand.rolesOption,
      LintCommand.minCoreLinksOption,
      LintCommand.suppressOption,
      LintCommand.outputOption,
    ])

  /// Extensions of files `ci` does not read: reports, documentation and checksums a backup
  /// repository holds beside the configurations (Docs/CLI.md lists the same).
  static let skippedExtensions = ["md", "json", "yaml", "yml", "sarif", "html", "csv", "png", "sha256"]
  /// ``skippedExtensions`` as the help and Docs/CLI.md give them: `.md, .json, … or .sha256`.
  static let skippedList = skippedExtensions.dropLast().map { "." + $0 }.joined(separator: ", ") + " or ." + skippedExtensions.last!

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let args = inv.positionals("dir")
    if inv.flag("merge") { return try merge(args, inv: inv, io: io) }
    guard args.count == 1 else { throw CommandFailure(message: "give one folder (or --merge REPORT…)", status: ExitStatus.usage) }
    let root = args[0]
    let jobs = try CommonOptions.jobs(inv, default: ProcessInfo.processInfo.activeProcessorCount)
    let shard = try CommonOptions.shard(inv)
    let options = try LintCommand.lintOptions(inv, io: io)
    var files = try listFiles(root)
    if let shard { files = files.filter { ReviewShard.contains($0.relative, shard: shard.k, of: shard.n) } }
    let results = Mutex<[Int: Outcome]>([:])
    let next = Atomic<Int>(0)
    let list = files
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, list.count))) { _ in
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < list.count else { return }
        let r = outcome(list[i].path, options: options)
        results.withLock { $0[i] = r }
      }
    }
    var linted: [LintResult] = []
    var failures: [InputProblem] = []
    var skipped: [InputProblem] = []
    let done = results.withLock { $0 }
    for i in files.indices {
      switch done[i]! {
      case .linted(let r):
        CommonOptions.report(r.diagnostics, console: console)
        linted.append(r)
      case .failed(let problem, let diagnostics):
        // The first few diagnostics show what is wrong; the report holds the count.
        let shown = diagnostics.prefix(diagnosticsShown)
        CommonOptions.report(Array(shown), console: console)
        if diagnostics.count > shown.count {
          console.err(Array("\(problem.file): … and \(diagnostics.count - shown.count) more\n".utf8))
        }
        if diagnostics.isEmpty { console.err(Array("junoscope: \(problem.rendered("error"))\n".utf8)) }
        failures.append(problem)
      case .skipped(let problem):
        console.err(Array("junoscope: \(problem.rendered("skipped"))\n".utf8))
        skipped.append(problem)
      }
    }
    return try LintCommand.emit(linted, files: files.map(\.path), failures: failures, skipped: skipped, inv: inv, io: io)
  }

  /// Diagnostics printed per file that cannot be parsed; the rest are counted.
  static let diagnosticsShown = 5

  /// What became of one file.
  enum Outcome {
    case linted(LintResult)
    /// Could not be read or parsed: the problem for the report, and the diagnostics (if parsed).
    case failed(InputProblem, [Diagnostic])
    /// Not linted on its own: binary, empty, or a change that needs its baseline.
    case skipped(InputProblem)
  }

  /// Reads, detects and lints one file.
  static func outcome(_ path: String, options: LintOptions) -> Outcome {
    do throws(CommandFailure) {
      let bytes = try FileIO.readFile(path)
      let file = SourceFile(path: path, bytes: try CommonOptions.gunzipped(bytes, path: path))
      let kind = InputKind.detect(file)
      switch kind {
      case .binary:
        return .skipped(InputProblem(file: path, message: "\(kind.description), not a configuration"))
      case .empty:
        return .skipped(InputProblem(file: path, message: kind.description))
      case .compare, .commands:
        // A change is linted against the configuration it applies to, which a folder does not say.
        return .skipped(InputProblem(file: path, message: "\(kind.description): lint it with --baseline RUNNING"))
      default:
        let r = try LintCommand.lint(file, kind: kind, baseline: nil, options: options)
        return r.hasErrors ? .failed(InputProblem(file: path, diagnostics: r.diagnostics), r.diagnostics) : .linted(r)
      }
    } catch {
      let prefix = path + ": "
      let message = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
      return .failed(InputProblem(file: path, message: message), [])
    }
  }

  struct Entry {
    var path: String
    var relative: String
  }

  /// Regular files under `root`, sorted by relative path; hidden entries and reports skipped.
  static func listFiles(_ root: String) throws(CommandFailure) -> [Entry] {
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
      throw CommandFailure(message: "'\(root)' is not a folder", status: ExitStatus.invalidInput)
    }
    guard let e = FileManager.default.enumerator(atPath: root) else {
      throw CommandFailure(message: "cannot list '\(root)'", status: ExitStatus.invalidInput)
    }
    var out: [Entry] = []
    while let rel = e.nextObject() as? String {
      let name = (rel as NSString).lastPathComponent
      let full = (root as NSString).appendingPathComponent(rel)
      var d: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: full, isDirectory: &d)
      if name.hasPrefix(".") {
        if d.boolValue { e.skipDescendants() }
        continue
      }
      if d.boolValue { continue }
      let ext = (name as NSString).pathExtension.lowercased()
      if skippedExtensions.contains(ext) { continue }
      if name.hasPrefix("juniper.conf.") || name == "juniper.conf.gz" { continue }
      out.append(Entry(path: full, relative: rel))
    }
    return out.sorted { $0.relative < $1.relative }
  }

  static func merge(_ paths: [String], inv: Invocation, io: FileIO) throws(CommandFailure) -> Int32 {
    guard !paths.isEmpty else { throw CommandFailure(message: "give the JSON reports to merge", status: ExitStatus.usage) }
    var texts: [(name: String, text: String)] = []
    for p in paths {
      let input = try io.read(p)
      texts.append((input.path, String(decoding: input.bytes, as: UTF8.self)))
    }
    let report: LintReport
    do throws(ReportMergeError) {
      report = try ReportMerge.merge(texts)
    } catch {
      throw CommandFailure(message: error.description, status: ExitStatus.invalidInput)
    }
    return try LintCommand.emit(
      [LintResult(findings: report.findings, diagnostics: [])], files: report.files, failures: report.failures, skipped: report.skipped,
      inv: inv, io: io)
  }
}

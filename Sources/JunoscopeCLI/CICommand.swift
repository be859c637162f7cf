import ArgumentKit
import Foundation
import JunosChecklist
import JunosConfig
import Reports
import Synchronization

/// `junoscope ci DIR`: every saved configuration under a folder, one report.
enum CICommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "ci",
    abstract: "Lint every configuration under a folder (an Oxidized or RANCID repository) into one report.",
    discussion: """
      Every regular file under DIR (hidden folders and files, and .md/.json/.yaml/.sarif/.xml reports
      aside) is read and linted in parallel as lint would: configurations with the configuration rules,
      change plans replayed, 'show system commit' listings with the history rules (using
      juniper.conf.N[.gz] rollbacks beside them when present). Files that are not configurations are
      reported as input errors.
      --shard K/N keeps a stable 1/N of the files (by a hash of their path under DIR), so that CI
      jobs can split a fleet; write each shard's report with --format json and join them with
      'junoscope ci --merge REPORT…', which writes the merged report in any format.
      Exit status: 0 when no reported finding is an error (with --strict: none at all), 1 when one
      is, 2 when an input cannot be read or parsed.
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

  static let skippedExtensions: Set<String> = ["md", "json", "yaml", "yml", "sarif", "html", "csv", "png", "gitignore", "sha256"]

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let args = inv.positionals("dir")
    if inv.flag("merge") { return try merge(args, inv: inv, io: io) }
    guard args.count == 1 else { throw CommandFailure(message: "give one folder (or --merge REPORT…)", status: ExitStatus.usage) }
    let root = args[0]
    let jobs = Int(inv.option("jobs") ?? "\(ProcessInfo.processInfo.activeProcessorCount)") ?? 0
    guard (1...256).contains(jobs) else { throw CommandFailure(message: "--jobs wants 1–256", status: ExitStatus.usage) }
    var shard: (k: Int, n: Int)?
    if let s = inv.option("shard") {
      let parts = s.split(separator: "/").compactMap { Int($0) }
      guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
        throw CommandFailure(message: "--shard wants K/N with 1 ≤ K ≤ N, e.g. 2/8", status: ExitStatus.usage)
      }
      shard = (parts[0], parts[1])
    }
    let options = try LintCommand.lintOptions(inv, io: io)
    var files = try listFiles(root)
    if let shard { files = files.filter { Int(fnv1a($0.relative) % UInt64(shard.n)) == shard.k - 1 } }
    let results = Mutex<[Int: Result<LintResult, CommandFailure>]>([:])
    let next = Atomic<Int>(0)
    let list = files
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, list.count))) { _ in
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < list.count else { return }
        let r: Result<LintResult, CommandFailure>
        do throws(CommandFailure) {
          let bytes = try FileIO.readFile(list[i].path)
          let file = SourceFile(path: list[i].path, bytes: try CommonOptions.gunzipped(bytes, path: list[i].path))
          r = .success(try LintCommand.lint(file, baseline: nil, options: options))
        } catch {
          r = .failure(error)
        }
        results.withLock { $0[i] = r }
      }
    }
    var all: [LintResult] = []
    var status = ExitStatus.success
    let done = results.withLock { $0 }
    for i in files.indices {
      switch done[i]! {
      case .success(let r):
        CommonOptions.report(r.diagnostics, console: console)
        if r.hasErrors { status = ExitStatus.invalidInput } else { all.append(r) }
      case .failure(let e):
        console.err(Array("junoscope: \(e.message)\n".utf8))
        status = ExitStatus.invalidInput
      }
    }
    let lintStatus = try LintCommand.emit(all, files: files.map(\.path), inv: inv, io: io)
    return status == ExitStatus.invalidInput ? status : lintStatus
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

  /// FNV-1a of a path: stable across runs and machines.
  static func fnv1a(_ s: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in s.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
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
    return try LintCommand.emit([LintResult(findings: report.findings, diagnostics: [])], files: report.files, inv: inv, io: io)
  }
}

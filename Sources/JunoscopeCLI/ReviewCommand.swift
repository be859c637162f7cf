import ArgumentKit
import Foundation
import JunosConfig
import JunosHistory
import JunosReview
import Reports
import Synchronization

/// `junoscope review --since T1 --until T2 [SOURCE…] [--git REPO [--device D]…] [--host H…]`:
/// what changed on every device in a window, by whom, and which change is risky.
enum ReviewCommand: JunoscopeCommand {
  enum Format: String, CaseIterable { case markdown, json, html }

  static let spec = CommandSpec(
    name: "review",
    abstract: "The outage review: every device's commits in a time window, batches by author, diffs, findings, blame.",
    discussion: """
      Sources: each SOURCE folder is a capture bundle (it has manifest.json) or a folder of rollbacks;
      --git REPO adds every Junos file of a git repository of backups (Oxidized, RANCID), or only
      those of --device; --host adds a live device over SSH (as fetch). For every device: its commits
      between --since and --until (UTC, or in the zone of --tz), in batches by author, each batch's
      diff in [edit …] form (secrets masked), the checklist's findings on the batch, and for each
      statement it changed or deleted the earlier commit that last touched it. A batch with a warning
      or an error is risky. Devices are reviewed --jobs at a time (default: the number of processors); on a terminal each device
      is reported on standard error as it is done. --shard K/N keeps the devices whose name hashes to
      shard K (the hash ci --shard uses); write each shard with --format json and join them with
      --merge A.json B.json … (files as the sources) into any format.
      Exit status: 0 reviewed, 2 a source could not be read (the report lists it as failed) or an
      input is invalid, 64 usage error.
      """,
    arguments: [
      .positional("source", help: "Capture bundles or folders of rollbacks.", optional: true, repeating: true, completion: .directory),
      .option("since", valueName: "time", help: "Start of the window: YYYY-MM-DD or 'YYYY-MM-DD HH:MM[:SS]'."),
      .option("until", valueName: "time", help: "End of the window (included)."),
      .option("tz", valueName: "zone", help: "The IANA zone --since and --until are given in (default UTC)."),
      .option(
        "git", valueName: "repo", help: "A git repository of backups: every device in it (or --device).", repeating: true,
        completion: .directory),
      .option("device", valueName: "name", help: "With --git: only this device (repeatable).", repeating: true),
      .option("host", valueName: "host", help: "A live device over SSH (repeatable).", repeating: true),
      .option(
        "format", short: "f", valueName: "format", help: "Output form (default markdown).", allowedValues: Format.allCases.map(\.rawValue)),
      CommonOptions.output,
      .option("jobs", short: "j", valueName: "n", help: "Devices reviewed at once (default: the number of processors)."),
      .option("shard", valueName: "k/n", help: "Review only shard K of N (1-based), chosen by a stable hash of each device's name."),
      .flag("merge", help: "Join review JSON reports (of shards), given as the sources, instead of reviewing."),
      CommonOptions.utcOffsetOption, CommonOptions.timeZoneOption,
    ] + DeviceOptions.arguments)

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let io = FileIO(console: console)
    let format = inv.option("format").flatMap(Format.init(rawValue:)) ?? .markdown
    let report: ReviewReport
    if inv.flag("merge") {
      let other = ["since", "until", "git", "host", "shard"].first { inv.option($0) != nil }
      if let other { throw CommandFailure(message: "--merge joins reports: --\(other) does not apply", status: ExitStatus.usage) }
      guard !inv.positionals("source").isEmpty else {
        throw CommandFailure(message: "--merge joins reports: give the JSON files", status: ExitStatus.usage)
      }
      report = try merge(inv.positionals("source"), io: io)
    } else {
      let window = try window(inv)
      let shard = try CommonOptions.shard(inv)
      let jobs = try CommonOptions.jobs(inv, default: ProcessInfo.processInfo.activeProcessorCount)
      var sources = try ReviewSources.collect(inv, console: console)
      guard !sources.isEmpty else {
        throw CommandFailure(
          message: "give the sources to review: bundle or rollback folders, --git REPO or --host HOST", status: ExitStatus.usage)
      }
      if let shard { sources = sources.filter { ReviewShard.contains($0.device, shard: shard.k, of: shard.n) } }
      let terminal = isatty(2) == 1
      let done = Mutex(0)
      let total = sources.count
      report = Review.run(window: window, sources: sources, options: ReviewOptions(workers: jobs)) { d in
        guard terminal else { return }
        let k = done.withLock { n in
          n += 1
          return n
        }
        console.error("review: [\(k)/\(total)] \(d.name): \(d.status.label)")
      }
    }
    let out: [UInt8]
    switch format {
    case .markdown: out = ReviewMarkdown.encode(report)
    case .json: out = ReviewJSON.encode(report)
    case .html: out = ReviewHTML.encode(report)
    }
    try io.write(out, to: inv.option("output"))
    let failed = report.failed
    guard failed.isEmpty else {
      for d in failed {
        if case .failed(let why) = d.status { console.error("junoscope: review: \(d.name) (\(d.kind) \(d.location)): \(why)") }
      }
      console.error("junoscope: review: \(failed.count) of \(report.devices.count) devices could not be read")
      return ExitStatus.invalidInput
    }
    return ExitStatus.success
  }

  /// `--since` and `--until` (both required) as UTC seconds; with `--tz`, read as that zone's
  /// wall time.
  static func window(_ inv: Invocation) throws(CommandFailure) -> ReviewWindow {
    guard inv.option("since") != nil, inv.option("until") != nil else {
      throw CommandFailure(message: "give the window with --since T1 --until T2", status: ExitStatus.usage)
    }
    var (since, until) = try LogCommand.window(inv)
    if let name = inv.option("tz") {
      let zone = try CommonOptions.timeZone(named: name, option: "tz")
      // Wall time → UTC: the zone's offset at the instant, settled in a second pass.
      func utc(_ wall: Int64) -> Int64 {
        let first = wall - Int64(zone.offset(atUTC: wall).offset)
        return wall - Int64(zone.offset(atUTC: first).offset)
      }
      since = since.map(utc)
      until = until.map(utc)
    }
    return ReviewWindow(since: since!, until: until!)
  }

  /// The shards' reports joined.
  static func merge(_ paths: [String], io: FileIO) throws(CommandFailure) -> ReviewReport {
    var reports: [ReviewReport] = []
    for p in paths {
      let input = try io.read(p)
      do throws(ReviewJSON.Failure) { reports.append(try ReviewJSON.read(input.bytes)) } catch {
        throw CommandFailure(message: "\(input.path): \(error.message)", status: ExitStatus.invalidInput)
      }
    }
    guard let joined = ReviewReport.merge(reports) else {
      throw CommandFailure(message: "the reports to merge are of different windows", status: ExitStatus.invalidInput)
    }
    return joined
  }
}

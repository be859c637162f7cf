import ArgumentKit
import Dispatch
import Foundation
import JunosDevice
import Synchronization

/// `junoscope fetch HOST… --out DIR [--rollbacks all|N-M|none] [--netconf] [--jobs N]`.
enum FetchCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "fetch",
    abstract: "Capture devices over SSH into bundles for later: commit list, rollbacks, manifest with checksums.",
    discussion: """
      Writes one bundle per host, DIR/HOST: commits.xml (and commits.txt from the CLI), rollbacks/rollback-N.conf,
      and manifest.json (host, device name and version, capture start and end, every command sent, the
      SHA-256 of every file). Each bundle is written to a temporary folder and renamed into place: a failed
      capture leaves none. The commit list is read at the start and at the end; when a commit landed in
      between, the capture starts over (three tries), and fails rather than mix two histories. Only
      read-only commands are ever sent. Hosts are fetched --jobs at a time (default 4); on a terminal each
      host gets a progress line. Use a bundle with --bundle DIR/HOST on log, timeline, diff and blame.
      Exit status: 0 all captured, 3 a host failed (the others are kept), 64 usage error.
      """,
    arguments: [
      .positional("host", help: "Hosts (or ssh config aliases, or user@host).", repeating: true),
      .option("out", short: "o", valueName: "dir", help: "Folder to write the bundles into (created if missing).", completion: .directory),
      .option("rollbacks", valueName: "which", help: "Which rollbacks: all (default), N-M, or none."),
      .option("jobs", short: "j", valueName: "n", help: "Hosts fetched at once (default 4)."),
    ] + DeviceOptions.arguments)

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let hosts = inv.positionals("host")
    guard !hosts.isEmpty else { throw CommandFailure(message: "give at least one host", status: ExitStatus.usage) }
    guard let out = inv.option("out") else {
      throw CommandFailure(message: "give the folder for the bundles with --out DIR", status: ExitStatus.usage)
    }
    let selection = try rollbackSelection(inv.option("rollbacks") ?? "all")
    let jobs = try CommonOptions.jobs(inv, default: 4)
    let names = hosts.map(DeviceOptions.fileName)
    if Set(names).count != names.count {
      throw CommandFailure(message: "two hosts would share a bundle folder name: \(names)", status: ExitStatus.usage)
    }
    do {
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    } catch {
      throw CommandFailure(message: "cannot create '\(out)'", status: ExitStatus.invalidInput)
    }
    var collected: [SSHOptions] = []
    for h in hosts { collected.append(try DeviceOptions.sshOptions(h, inv, console: console)) }
    let options = collected
    let netconf = inv.flag("netconf")
    let progress = Progress(console: console, enabled: isatty(2) == 1, hosts: hosts)
    let results = fetchAll(
      hosts: hosts, jobs: jobs, progress: progress
    ) { i throws(DeviceError) in
      let device = try DeviceOptions.connect(options[i], netconf: netconf)
      progress.say(i, "capturing")
      return try CaptureBundle.capture(
        device, host: hosts[i], transport: netconf ? "netconf" : "cli", rollbacks: selection, into: out + "/" + names[i])
    }
    var failed: [String] = []
    for (i, r) in results.enumerated() {
      switch r {
      case .success(let b):
        if !progress.enabled {
          console.error("\(hosts[i]): \(b.rollbackNumbers.count) rollbacks in \(b.path)")
        }
      case .failure(let e):
        failed.append(hosts[i])
        console.error("junoscope: \(hosts[i]): \(e)")
      }
    }
    if failed.isEmpty { return ExitStatus.success }
    console.error(
      "junoscope: fetch: \(hosts.count - failed.count) of \(hosts.count) hosts captured; failed: \(failed.joined(separator: ", "))")
    return ExitStatus.deviceFailure
  }

  static func rollbackSelection(_ text: String) throws(CommandFailure) -> CaptureBundle.RollbackSelection {
    switch text {
    case "all": return .all
    case "none": return .none
    default:
      let parts = text.split(separator: "-")
      if parts.count == 1, let n = Int(parts[0]), (0...49).contains(n) { return .range(n...n) }
      guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), (0...49).contains(a), (0...49).contains(b) else {
        throw CommandFailure(message: "--rollbacks wants all, none, N or N-M (0–49), not '\(text)'", status: ExitStatus.usage)
      }
      return .range(min(a, b)...max(a, b))
    }
  }

  /// Runs `work` for every host, `jobs` at a time; a failure of one host does not stop the others.
  static func fetchAll<T: Sendable>(
    hosts: [String], jobs: Int, progress: Progress,
    _ work: @escaping @Sendable (Int) throws(DeviceError) -> T
  ) -> [Result<T, DeviceError>] {
    let results = Mutex<[Int: Result<T, DeviceError>]>([:])
    let next = Atomic<Int>(0)
    let group = DispatchGroup()
    for _ in 0..<min(jobs, hosts.count) {
      group.enter()
      DispatchQueue.global().async {
        defer { group.leave() }
        while true {
          let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
          guard i < hosts.count else { return }
          progress.say(i, "connecting")
          let start = Date()
          let r: Result<T, DeviceError>
          do throws(DeviceError) {
            r = .success(try work(i))
            progress.say(i, "done in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
          } catch {
            r = .failure(error)
            progress.say(i, "FAILED: \(error.kind.rawValue)")
          }
          results.withLock { $0[i] = r }
        }
      }
    }
    group.wait()
    return results.withLock { r in hosts.indices.map { r[$0]! } }
  }

  /// One status line per host on a terminal (standard error), quiet otherwise.
  final class Progress: Sendable {
    let console: Console
    let enabled: Bool
    let hosts: [String]
    let lock = Mutex(())

    init(console: Console, enabled: Bool, hosts: [String]) {
      self.console = console
      self.enabled = enabled
      self.hosts = hosts
    }

    func say(_ i: Int, _ what: String) {
      guard enabled else { return }
      lock.withLock { _ in console.error("\(hosts[i]): \(what)") }
    }
  }
}

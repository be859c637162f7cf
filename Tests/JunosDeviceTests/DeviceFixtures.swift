import Foundation
import JunoscopeTestSupport

/// What the fake device serves (see Harness/fake-junos-cli.sh for the file layout): a generated
/// history of 10 commits — its `show system commit` text and XML, and every rollback — plus a
/// `show version`. For drift tests, the same history after one more commit.
enum DeviceFixtures {
  static let chain = RollbackChain(seed: 77, commits: 10, interfaces: 6, editsPerCommit: 1...3)

  /// The chain's commits, or the same after one more commit (every index shifted by one).
  static func commits(after: Bool) -> [RollbackChain.CommitInfo] {
    guard after else { return chain.commits }
    let intruder = RollbackChain.CommitInfo(index: 0, user: "intruder", time: "2030-01-01 00:00:00", log: "landed during the capture")
    return [intruder] + chain.commits.map { RollbackChain.CommitInfo(index: $0.index + 1, user: $0.user, time: $0.time, log: $0.log) }
  }

  static func text(after: Bool) -> String { RollbackChain.listing(commits(after: after)) }
  static func xml(after: Bool) -> String { RollbackChain.listingXML(commits(after: after)) }

  enum Variant { case normal, drift, driftAlways }

  static func write(to dir: String, variant: Variant = .normal) throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: dir + "/rollback", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: dir + "/compare", withIntermediateDirectories: true)
    try text(after: false).write(toFile: dir + "/commit.txt", atomically: true, encoding: .utf8)
    try xml(after: false).write(toFile: dir + "/commit.xml", atomically: true, encoding: .utf8)
    try text(after: true).write(toFile: dir + "/commit-after.txt", atomically: true, encoding: .utf8)
    try xml(after: true).write(toFile: dir + "/commit-after.xml", atomically: true, encoding: .utf8)
    switch variant {
    case .normal: break
    case .drift: try "".write(toFile: dir + "/drift", atomically: true, encoding: .utf8)
    case .driftAlways: try "".write(toFile: dir + "/drift-always", atomically: true, encoding: .utf8)
    }
    try "".write(toFile: dir + "/misbehave", atomically: true, encoding: .utf8)  // rollbacks 40–44
    // Only the version line is from a capture (scrapli's vSRX, 17.3R2.10); the rest is made up.
    try "Hostname: r77\nModel: vsrx\nJunos: 17.3R2.10\n".write(toFile: dir + "/version.txt", atomically: true, encoding: .utf8)
    for (n, text) in chain.rollbacks.enumerated() {
      try text.write(toFile: dir + "/rollback/\(n).txt", atomically: true, encoding: .utf8)
    }
    for n in 0..<9 {
      try "[edit]\n+  commit-\(n) placeholder;\n".write(toFile: dir + "/compare/\(n)-\(n + 1).txt", atomically: true, encoding: .utf8)
    }
  }
}

import Foundation
import JunosHistory
import JunoscopeTestSupport

/// What the fake device serves (see Harness/fake-junos-cli.sh for the file layout): a generated
/// history of 10 commits — its `show system commit` text and XML, and every rollback — plus a
/// `show version`. For drift tests, the same history after one more commit.
enum DeviceFixtures {
  static let chain = RollbackChain(seed: 77, commits: 10, interfaces: 6, editsPerCommit: 1...3)

  /// The chain's commits as `(index, user, time, log)`, optionally after one more commit.
  static func commits(after: Bool) -> [(Int, String, String, String)] {
    var list = chain.commits.map { ($0.index, $0.user, $0.time, $0.log) }
    if after {
      list = [(0, "intruder", "2030-01-01 00:00:00", "landed during the capture")] + list.map { ($0.0 + 1, $0.1, $0.2, $0.3) }
    }
    return list
  }

  static func text(after: Bool) -> String {
    commits(after: after).map { c in
      "\(c.0)".padding(toLength: 4, withPad: " ", startingAt: 0) + "\(c.2) UTC by \(c.1) via cli\n    \(c.3)\n"
    }.joined()
  }

  static func xml(after: Bool) -> String {
    var s = "<commit-information>\n"
    for c in commits(after: after) {
      let parts = c.2.split(separator: " ")
      let t = CommitListParser.localTime(parts[0], parts[1])!
      s += "<commit-history>\n<sequence-number>\(c.0)</sequence-number>\n<user>\(c.1)</user>\n<client>cli</client>\n"
      s += "<date-time junos:seconds=\"\(t.secondsAsUTC)\">\(c.2) UTC</date-time>\n<log>\(c.3)</log>\n</commit-history>\n"
    }
    return s + "</commit-information>\n"
  }

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

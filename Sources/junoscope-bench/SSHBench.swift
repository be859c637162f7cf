// SSHBench.swift
//
// `junoscope-bench ssh`: talks to the tests' real OpenSSH sshd on 127.0.0.1 (started here with
// Tests/JunosDeviceTests/Harness/start-sshd.sh, stopped at the end) and measures, in process:
//   - connect + host key check + authentication (a new session each sample);
//   - one command on an open session (`show version`, a new channel each);
//   - a capture bundle of 50 rollbacks over the CLI and over NETCONF (one session each);
//   - 50 MiB of output from one command;
// against the OpenSSH client doing the same (`ssh … 'show version'`, `ssh … > /dev/null` of the
// 50 MiB), timed in the same run.

import Glibc
import JunosDevice
import JunoscopeTestSupport

let sshFetchTargetSeconds = 3.0

struct SSHRow {
  var name: String
  var samples: [UInt64]
  var baseline: [UInt64]?
  var baselineName: String
  var bytes: Int = 0
}

func runSSHBench(harness: String, samples: Int, interfaces: Int) throws -> (rows: [SSHRow], rollbackBytes: Int) {
  let base = try makeTemporaryDirectory()
  let state = base + "/sshd"
  let fixtures = base + "/fixtures"
  try ensureDirectory(fixtures)
  try ensureDirectory(fixtures + "/rollback")
  try ensureDirectory(fixtures + "/compare")
  let chain = RollbackChain(seed: benchSeed, commits: 50, interfaces: interfaces, editsPerCommit: 1...4)
  try writeWholeFile(fixtures + "/commit.txt", Array(chain.listing.utf8))
  try writeWholeFile(fixtures + "/commit.xml", Array(chain.listingXML.utf8))
  try writeWholeFile(fixtures + "/version.txt", Array("Hostname: bench\nModel: vsrx\nJunos: 17.3R2.10\n".utf8))
  // 50 MiB of configuration-like lines, served as `show system rollback 0 compare 1`.
  let line = Array("    set interfaces ge-0/0/0 unit 0 family inet address 192.0.2.1/24;\n".utf8)
  var big: [UInt8] = []
  big.reserveCapacity(52_428_800)
  while big.count < 52_428_800 { big += line }
  try writeWholeFile(fixtures + "/compare/0-1.txt", Array(big[..<52_428_800]))
  var rollbackBytes = 0
  for (n, text) in chain.rollbacks.enumerated() {
    rollbackBytes += text.utf8.count
    try writeWholeFile(fixtures + "/rollback/\(n).txt", Array(text.utf8))
  }
  let start = try runChild(
    ["bash", harness + "/start-sshd.sh", state, fixtures], env: ["PATH=/usr/sbin:/usr/bin:/bin"], stdout: "/dev/null")
  guard start.status == 0 else { throw BenchError("start-sshd.sh failed (status \(start.status)); is openssh-server installed?") }
  defer { _ = try? runChild(["bash", harness + "/stop-sshd.sh", state], env: ["PATH=/usr/sbin:/usr/bin:/bin"], stdout: "/dev/null") }
  var env: [String: String] = [:]
  for line in String(decoding: try readWholeFile(state + "/env"), as: UTF8.self).split(separator: "\n") {
    let kv = line.split(separator: "=", maxSplits: 1)
    if kv.count == 2 { env[String(kv[0])] = String(kv[1]) }
  }
  guard let port = Int(env["SSH_TEST_PORT"] ?? ""), let key = env["SSH_TEST_KEY"], let kh = env["SSH_TEST_KNOWN_HOSTS"],
    let user = env["SSH_TEST_USER"]
  else { throw BenchError("the harness wrote no usable env file") }
  var o = SSHOptions(host: "127.0.0.1")
  o.port = port
  o.user = user
  o.identityFiles = [key]
  o.knownHostsFile = kh
  o.ignoreConfig = true
  o.sshDirectory = state + "/no-ssh-dir"
  let ssh = [
    "ssh", "-q", "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "UserKnownHostsFile=\(kh)", "-o", "GlobalKnownHostsFile=/dev/null",
    "-p", "\(port)", "-i", key, "\(user)@127.0.0.1",
  ]
  func timed(_ body: () throws -> Void) rethrows -> UInt64 {
    let t = monotonicNanos()
    try body()
    return monotonicNanos() - t
  }
  func sorted(_ s: [UInt64]) -> [UInt64] { s.sorted() }
  var rows: [SSHRow] = []

  // Connect + auth.
  var connect: [UInt64] = []
  var sshRuns: [UInt64] = []
  for _ in 0..<(samples * 3) {
    connect.append(try timed { _ = try SSHSession(o) })
    sshRuns.append(try runChild(ssh + ["show version"], env: [], stdout: "/dev/null").nanos)
  }
  rows.append(
    SSHRow(name: "connect + host key + auth", samples: sorted(connect), baseline: sorted(sshRuns), baselineName: "OpenSSH ssh, whole run"))

  // One command on an open session.
  let session = try SSHSession(o)
  _ = try session.exec(.version)
  var commands: [UInt64] = []
  for _ in 0..<(samples * 5) { commands.append(try timed { _ = try session.exec(.version) }) }
  rows.append(SSHRow(name: "command on an open session", samples: sorted(commands), baseline: nil, baselineName: ""))

  // 50 rollbacks into a bundle, CLI and NETCONF.
  for netconf in [false, true] {
    var fetches: [UInt64] = []
    for k in 0..<samples {
      let dir = base + "/bundle-\(netconf)-\(k)"
      fetches.append(
        try timed {
          let s = try SSHSession(o)
          let device: any DeviceSource & CommandRecording = netconf ? try NetconfDevice(s) : SSHDevice(s)
          let b = try CaptureBundle.capture(device, host: "bench", transport: netconf ? "netconf" : "cli", rollbacks: .all, into: dir)
          guard b.rollbackNumbers.count == 50 else { throw BenchError("the bundle has \(b.rollbackNumbers.count) rollbacks, not 50") }
        })
    }
    var row = SSHRow(
      name: "bundle of 50 rollbacks (\(netconf ? "NETCONF" : "CLI"))", samples: sorted(fetches), baseline: nil, baselineName: "")
    row.bytes = rollbackBytes
    rows.append(row)
  }

  // 50 MiB from one command.
  var bigRuns: [UInt64] = []
  var sshBig: [UInt64] = []
  for _ in 0..<samples {
    bigRuns.append(
      try timed {
        let r = try session.exec(ReadOnlyCommand.compare(0, 1)!)
        guard r.stdout.count == 52_428_800 else { throw BenchError("50 MiB came as \(r.stdout.count) bytes") }
      })
    sshBig.append(try runChild(ssh + ["show system rollback 0 compare 1"], env: [], stdout: "/dev/null").nanos)
  }
  var row = SSHRow(
    name: "50 MiB from one command", samples: sorted(bigRuns), baseline: sorted(sshBig), baselineName: "OpenSSH ssh > /dev/null")
  row.bytes = 52_428_800
  rows.append(row)
  return (rows, rollbackBytes)
}

func sshTableReport(_ rows: [SSHRow], rollbackBytes: Int) -> String {
  func ms(_ ns: UInt64) -> String { fixed(Double(ns) / 1e6, 1) + " ms" }
  var s = "junoscope-bench ssh: a real OpenSSH sshd on 127.0.0.1, best / median\n"
  s += "(rollbacks of \(fixed(Double(rollbackBytes) / 50 / 1e3, 0)) KB each, \(fixed(Double(rollbackBytes) / 1e6, 1)) MB for 50)\n\n"
  for r in rows {
    s += "  " + pad(r.name, 36, right: false) + pad(ms(r.samples[0]), 11, right: true) + " / "
    s += pad(ms(UInt64(medianOf(r.samples))), 11, right: true)
    if r.bytes > 0 { s += "   \(fixed(Double(r.bytes) / 1_048_576 / (medianOf(r.samples) / 1e9), 0)) MiB/s" }
    if let b = r.baseline {
      s += "   \(fixed(medianOf(r.samples) / medianOf(b), 2))× \(r.baselineName) (\(ms(UInt64(medianOf(b)))))"
    }
    s += "\n"
  }
  if let cli = rows.first(where: { $0.name.contains("(CLI)") }) {
    s +=
      "\n  target: 50 rollbacks ≤ \(fixed(sshFetchTargetSeconds, 0)) s: \(medianOf(cli.samples) / 1e9 <= sshFetchTargetSeconds ? "met" : "NOT met") (median)\n"
  }
  return s
}

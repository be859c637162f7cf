import Foundation

/// What one command printed, and whether it is what the document shows.
public struct DocResult: Sendable {
  public var file: String
  public var command: DocCommand
  /// The output lines (standard output and standard error, in the order written), compared as
  /// `OutputMatch.lines(of:)` gives them.
  public var actual: [String]
  public var passed: Bool
  /// Set when the block did not get to run the command (a timeout, an `exit`).
  public var note: String?
}

/// Runs console blocks: each block in one `bash` process (so `cd`, variables and `$?` carry from
/// one command to the next), in a scratch folder of its own where the repository's top-level
/// entries appear as symbolic links, with a fixed environment. A marker line printed before each
/// command splits the output.
public struct DocRunner: Sendable {
  /// The repository whose top-level entries the scratch folders link to.
  public var root: String
  /// The folder of the `junoscope` to run: first on PATH.
  public var binDirectory: String
  /// Seconds a block may take before it is stopped.
  public var timeout: Int

  public init(root: String, binDirectory: String, timeout: Int = 300) {
    self.root = root
    self.binDirectory = binDirectory
    self.timeout = timeout
  }

  public func run(_ block: DocBlock) throws -> [DocResult] {
    let fm = FileManager.default
    let scratch = fm.temporaryDirectory.appendingPathComponent("junoscope-doctest-\(UUID().uuidString)").path
    let work = scratch + "/work"
    let home = scratch + "/home"
    let tmp = scratch + "/tmp"
    for dir in [work, home, tmp] { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    defer { try? fm.removeItem(atPath: scratch) }
    for entry in try fm.contentsOfDirectory(atPath: root).sorted() where !entry.hasPrefix(".") {
      try fm.createSymbolicLink(atPath: work + "/" + entry, withDestinationPath: root + "/" + entry)
    }
    let marker = "@@junoscope-doctest-\(UUID().uuidString)@@"
    var script = "set +e\n"
    for (k, command) in block.commands.enumerated() {
      // `$?` is kept across the marker for an `echo $?` command.
      script += "__doctest_status=$?; printf '\\n%s\\n' '\(marker) \(k)'; (exit $__doctest_status)\n\(command.text)\n"
    }
    script += "printf '\\n%s\\n' '\(marker) end'\n"
    let output = try runBash(script, in: work, home: home, tmp: tmp)
    return split(output, marker: marker, block: block)
  }

  /// The environment every block runs in.
  public func environment(home: String, tmp: String) -> [String: String] {
    [
      "PATH": "\(binDirectory):/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": tmp, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
      "TZ": "UTC", "NO_COLOR": "1", "TERM": "dumb",
    ]
  }

  private func runBash(_ script: String, in work: String, home: String, tmp: String) throws -> String {
    let process = Process()
    // timeout(1) runs bash in a process group of its own and stops the whole group.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    process.arguments = ["-k", "5", "\(timeout)", "/bin/bash", "--noprofile", "--norc", "-c", script]
    process.currentDirectoryURL = URL(fileURLWithPath: work)
    process.environment = environment(home: home, tmp: tmp)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  private func split(_ output: String, marker: String, block: DocBlock) -> [DocResult] {
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var at: [String: Int] = [:]
    for (index, line) in lines.enumerated() where line.hasPrefix(marker + " ") {
      at[String(line.dropFirst(marker.count + 1))] = index
    }
    var results: [DocResult] = []
    for (k, command) in block.commands.enumerated() {
      guard let start = at["\(k)"] else {
        results.append(
          DocResult(file: block.file, command: command, actual: [], passed: false, note: "not run: the block stopped before it"))
        continue
      }
      let next = at["\(k + 1)"] ?? at["end"]
      var segment = Array(lines[(start + 1)..<(next ?? lines.count)])
      // The newline printed before the next marker.
      if next != nil, segment.last == "" { segment.removeLast() }
      let actual = OutputMatch.lines(of: segment.joined(separator: "\n"))
      let note = next == nil ? "the block stopped in this command (timeout after \(timeout)s, or exit)" : nil
      results.append(
        DocResult(
          file: block.file, command: command, actual: actual,
          passed: note == nil && OutputMatch.matches(expected: command.expected, actual: actual), note: note))
    }
    return results
  }
}

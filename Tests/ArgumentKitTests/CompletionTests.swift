import Foundation
import Testing

@testable import ArgumentKit

/// Runs programs for the completion tests (only the tests use Foundation).
enum Shells {
  /// The full path of an executable found on `PATH`, or `nil`.
  static func find(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  static func isInstalled(_ shell: Shell) -> Bool { find(shell.rawValue) != nil }

  /// Runs a program and returns its exit status, standard output and standard error.
  static func run(_ executable: String, _ arguments: [String], directory: URL? = nil) throws
    -> (status: Int32, output: String, error: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }

  /// Makes a fresh temporary directory.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("argkit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Writes the completion script for a shell into a fresh directory and returns its path.
  static func writeScript(for shell: Shell, in directory: URL) throws -> String {
    let file = directory.appendingPathComponent("completion.\(shell.rawValue)")
    try completionScript(for: shell, root: Fixtures.root).write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }
}

@Suite("Completion scripts")
struct CompletionTests {
  @Test("Bash script passes bash -n") func bashSyntax() throws {
    try checkSyntax(of: .bash)
  }

  @Test("Zsh script passes zsh -n", .enabled(if: Shells.isInstalled(.zsh))) func zshSyntax() throws {
    try checkSyntax(of: .zsh)
  }

  @Test("Fish script passes fish -n", .enabled(if: Shells.isInstalled(.fish))) func fishSyntax() throws {
    try checkSyntax(of: .fish)
  }

  /// Runs `<shell> -n` on the generated script and expects silence and success.
  func checkSyntax(of shell: Shell) throws {
    let executable = try #require(Shells.find(shell.rawValue))
    let directory = try Shells.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Shells.writeScript(for: shell, in: directory)
    let result = try Shells.run(executable, ["-n", script])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.error.isEmpty, "\(result.error)")
  }

  @Test func scriptsNameTheirCommand() {
    let bash = completionScript(for: .bash, root: Fixtures.root)
    #expect(bash.contains("_junoscope() {"))
    #expect(bash.hasSuffix("complete -F _junoscope 'junoscope'\n"))
    let zsh = completionScript(for: .zsh, root: Fixtures.root)
    #expect(zsh.hasPrefix("#compdef junoscope\n"))
    #expect(zsh.contains("_arguments"))
    #expect(zsh.contains("compdef _junoscope 'junoscope'"))
    #expect(zsh.contains("_junoscope_config_diff() {"))
    let fish = completionScript(for: .fish, root: Fixtures.root)
    #expect(fish.contains("complete -c 'junoscope' -f\n"))
    #expect(fish.contains("-l 'format' -d 'Output format.' -x -a 'curly set json'"))
  }

  @Test func shellNamesMakeIdentifiers() {
    #expect(identifier("my-tool.v2") == "my_tool_v2")
    #expect(shellQuote("it's") == "'it'\\''s'")
    #expect(fishQuote("it's \\") == "'it\\'s \\\\'")
  }

  /// Cases for the bash function: the words on the line (the last one is being completed) and the expected replies.
  static let bashCases: [([String], [String])] = [
    (["junoscope", "sh"], ["show"]),
    (["junoscope", ""], ["show", "connect", "grep", "config", "help"]),
    (["junoscope", "c"], ["connect", "config"]),
    (["junoscope", "-q", "sh"], ["show"]),
    (["junoscope", "-"], ["--quiet", "-q", "--version", "-h", "--help"]),
    (["junoscope", "show", "--f"], ["--format"]),
    (["junoscope", "show", "x", "--"], ["--format", "--show-secrets", "--help"]),
    (["junoscope", "show", "--format", "j"], ["json"]),
    (["junoscope", "show", "--format", ""], ["curly", "set", "json"]),
    (["junoscope", "connect", "-"], ["--port", "-p", "--verbose", "-v", "-h", "--help"]),
    (["junoscope", "connect", "-p", ""], []),
    (["junoscope", "config", ""], ["diff", "list"]),
    (["junoscope", "config", "diff", "x", "y", ""], ["a", "b"]),
    (["junoscope", "help", "co"], ["connect", "config"]),
  ]

  @Test("Bash completes words", arguments: bashCases)
  func bashCompletes(words: [String], expected: [String]) throws {
    #expect(try bashReplies(words) == expected)
  }

  @Test func bashCompletesFilesAndDirectories() throws {
    let directory = try Shells.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("subdir"), withIntermediateDirectories: true)
    try "x".write(to: directory.appendingPathComponent("sample.conf"), atomically: true, encoding: .utf8)
    // Positionals with file completion, an option with file completion, and one with directories.
    #expect(try bashReplies(["junoscope", "show", "sa"], in: directory) == ["sample.conf"])
    #expect(try bashReplies(["junoscope", "grep", "needle", "s"], in: directory).sorted() == ["sample.conf", "subdir"])
    #expect(try bashReplies(["junoscope", "grep", "-o", "sa"], in: directory) == ["sample.conf"])
    #expect(try bashReplies(["junoscope", "grep", "--dir", "s"], in: directory) == ["subdir"])
    // The first positional of grep completes nothing.
    #expect(try bashReplies(["junoscope", "grep", "s"], in: directory) == [])
    // After `--`, words are positionals even when they look like options.
    #expect(try bashReplies(["junoscope", "show", "--", "-"], in: directory) == [])
  }

  /// Sources the bash script, fills COMP_WORDS and COMP_CWORD, calls the function and returns COMPREPLY.
  func bashReplies(_ words: [String], in directory: URL? = nil) throws -> [String] {
    let bash = try #require(Shells.find("bash"))
    let scriptDirectory = try Shells.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: scriptDirectory) }
    let script = try Shells.writeScript(for: .bash, in: scriptDirectory)
    let program = """
      source "$1" || exit 9
      shift
      COMP_WORDS=("$@")
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
      _junoscope
      if [[ ${#COMPREPLY[@]} -gt 0 ]]; then printf '%s\\n' "${COMPREPLY[@]}"; fi
      """
    let result = try Shells.run(bash, ["-c", program, "bash", script] + words, directory: directory)
    #expect(result.status == 0)
    #expect(result.error.isEmpty, "\(result.error)")
    return result.output.split(separator: "\n").map(String.init)
  }

  @Test(
    "Fish completes words",
    .enabled(if: Shells.isInstalled(.fish)),
    arguments: [
      ("junoscope sh", ["show\tParse and print configurations."]),
      ("junoscope config ", ["diff\tCompare two configurations.", "list\tList stored configurations."]),
      ("junoscope show --format ", ["curly\tOutput format.", "json\tOutput format.", "set\tOutput format."]),
      ("junoscope connect --p", ["--port\tSSH port."]),
      ("junoscope config diff --", ["--help\tShow help information."]),
    ] as [(String, [String])])
  func fishCompletes(line: String, expected: [String]) throws {
    let fish = try #require(Shells.find("fish"))
    let directory = try Shells.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Shells.writeScript(for: .fish, in: directory)
    let result = try Shells.run(fish, ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, line])
    #expect(result.status == 0)
    #expect(result.error.isEmpty, "\(result.error)")
    #expect(result.output.split(separator: "\n").map(String.init).sorted() == expected.sorted())
  }

  /// Drives an interactive zsh through zpty: types a line and a Tab, and prints every match that
  /// `compadd` receives between `<<` and `>>` lines, then `<<END>>`.
  static let zshCapture = #"""
    zmodload zsh/zpty || exit 7
    zpty z zsh -f -i
    zpty -w z "PROMPT=''; RPROMPT=''"
    zpty -w z "autoload -U compinit; compinit -u -D -d ${(q)3}/zcompdump"
    zpty -w z "source ${(q)1}"
    zpty -w z "compadd () { builtin compadd -O __hits \"\$@\"; print -l -- '<<' \"\${__hits[@]}\" '>>'; builtin compadd \"\$@\" }"
    zpty -w z "_argkit_complete() { zle complete-word; print -n -- '<<END''>>' }; zle -N _argkit_complete; bindkey '^I' _argkit_complete; print READY''MARK"
    zpty -r z line '*READYMARK*' || exit 8
    zpty -n -w z "$2"$'\t'
    zpty -r z out '*<<END>>*' || exit 9
    print -r -- "$out"
    zpty -d z
    """#

  @Test(
    "Zsh completes words",
    .enabled(if: Shells.isInstalled(.zsh) && Shells.find("timeout") != nil),
    arguments: [
      ("junoscope sh", ["show"]),
      ("junoscope c", ["connect", "config"]),
      ("junoscope show --format ", ["curly", "set", "json"]),
      ("junoscope connect --", ["--port", "--verbose", "--help"]),
      ("junoscope config d", ["diff"]),
      ("junoscope config diff a b ", ["a", "b"]),
      ("junoscope grep --dir s", ["subdir"]),
      ("junoscope grep needle s", ["sample.conf", "subdir"]),
    ] as [(String, Set<String>)])
  func zshCompletes(line: String, expected: Set<String>) throws {
    let zsh = try #require(Shells.find("zsh"))
    let timeout = try #require(Shells.find("timeout"))
    let directory = try Shells.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Shells.writeScript(for: .zsh, in: directory)
    let capture = directory.appendingPathComponent("capture.zsh")
    try Self.zshCapture.write(to: capture, atomically: true, encoding: .utf8)
    // A working directory with one file and one directory starting with "s", for file completion.
    let work = directory.appendingPathComponent("work")
    try FileManager.default.createDirectory(
      at: work.appendingPathComponent("subdir"), withIntermediateDirectories: true)
    try "x".write(to: work.appendingPathComponent("sample.conf"), atomically: true, encoding: .utf8)
    let result = try Shells.run(
      timeout, ["30", zsh, "-f", capture.path, script, line, directory.path], directory: work)
    #expect(result.status == 0, "\(result.error)")
    // Each `compadd` call prints a "<<" line, its matches, and a ">>" line (lines end in CR LF).
    var matches: Set<String> = []
    var inside = false
    for rawLine in result.output.split(whereSeparator: \.isNewline) {
      if rawLine.hasSuffix("<<") && !rawLine.hasSuffix("<<END>>") {
        inside = true
      } else if rawLine == ">>" {
        inside = false
      } else if inside {
        matches.insert(String(rawLine))
      }
    }
    #expect(matches == expected)
  }

  @Test("Zsh loads the script after compinit", .enabled(if: Shells.isInstalled(.zsh)))
  func zshLoads() throws {
    let zsh = try #require(Shells.find("zsh"))
    let directory = try Shells.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Shells.writeScript(for: .zsh, in: directory)
    let program = """
      autoload -U compinit && compinit -u -D -d "$2/zcompdump" || exit 8
      source "$1" || exit 9
      print -r -- "${_comps[junoscope]}"
      whence -w _junoscope_config_diff
      """
    let result = try Shells.run(zsh, ["-f", "-c", program, "zsh", script, directory.path])
    #expect(result.status == 0)
    #expect(result.error.isEmpty, "\(result.error)")
    #expect(result.output == "_junoscope\n_junoscope_config_diff: function\n")
  }
}

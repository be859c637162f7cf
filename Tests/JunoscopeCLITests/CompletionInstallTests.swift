import Foundation
import Testing

/// The completion scripts installed where Docs/CLI.md says, for one user (a temporary HOME), are
/// found and loaded by each shell (bash from its user folder only with the bash-completion
/// package, which .ci/setup installs).
@Suite struct CompletionInstallTests {
  /// Writes `junoscope completions SHELL` to `path` under a temporary home folder, with a
  /// stand-in `junoscope` in its `bin` (fish completes only a command it finds), then runs
  /// `executable` with `arguments` there, HOME set to it and no XDG or bash-completion
  /// variables; its output.
  static func load(_ shell: String, at path: String, _ executable: String?, _ arguments: [String]) throws -> String {
    let executable = try #require(executable)
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-home-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: home) }
    for folder in [(home + "/" + path as NSString).deletingLastPathComponent, home + "/bin"] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    let script = run(["completions", shell])
    #expect(script.status == 0)
    try script.out.write(toFile: home + "/" + path, atomically: true, encoding: .utf8)
    try "#!/bin/sh\n".write(toFile: home + "/bin/junoscope", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home + "/bin/junoscope")
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("XDG_") && !$0.key.hasPrefix("BASH_COMPLETION") }
    environment["HOME"] = home
    environment["PATH"] = home + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
    return try runProcess(executable, arguments, environment: environment).output
  }

  static func installed(_ name: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static let bashCompletion = "/usr/share/bash-completion/bash_completion"

  @Test(.enabled(if: FileManager.default.fileExists(atPath: bashCompletion), "no bash-completion package"))
  func bashLoadsItFromTheUserFolder() throws {
    let command = "source \(Self.bashCompletion); __load_completion junoscope; complete -p junoscope"
    let out = try Self.load("bash", at: ".local/share/bash-completion/completions/junoscope", "/bin/bash", ["-c", command])
    #expect(out == "complete -F _junoscope junoscope\n")
  }

  @Test func bashLoadsItWhenSourced() throws {
    let out = try Self.load("bash", at: "junoscope.bash", "/bin/bash", ["-c", "source ~/junoscope.bash; complete -p junoscope"])
    #expect(out == "complete -F _junoscope junoscope\n")
  }

  @Test(.enabled(if: installed("zsh") != nil, "no zsh"))
  func zshFindsItInFpath() throws {
    let command = "fpath=(~/.zsh/completions $fpath); autoload -Uz compinit && compinit -u -d ~/.zcompdump; print -r -- $_comps[junoscope]"
    #expect(try Self.load("zsh", at: ".zsh/completions/_junoscope", Self.installed("zsh"), ["-fc", command]) == "_junoscope\n")
  }

  @Test(.enabled(if: installed("fish") != nil, "no fish"))
  func fishFindsItInItsCompletionsFolder() throws {
    let out = try Self.load(
      "fish", at: ".config/fish/completions/junoscope.fish", Self.installed("fish"), ["-c", "complete -C 'junoscope sh'"])
    #expect(out.hasPrefix("show\tParse configurations"), "\(out)")
  }
}

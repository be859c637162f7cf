import Foundation
import Testing

/// The completion scripts installed where Docs/CLI.md says, for one user (a temporary HOME), are
/// found and loaded by each shell (bash from its user folder only with the bash-completion
/// package, which .ci/setup does not install).
@Suite struct CompletionInstallTests {
  /// A temporary home folder holding `script` at `path` (relative to it).
  static func home(with shell: String, at path: String) throws -> String {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-home-\(UUID().uuidString)").path
    let file = home + "/" + path
    try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let script = run(["completions", shell])
    #expect(script.status == 0)
    try script.out.write(toFile: file, atomically: true, encoding: .utf8)
    return home
  }

  /// Runs `executable` with `arguments` and HOME (and the XDG folders) in `home`; its output.
  static func shell(_ executable: String, _ arguments: [String], home: String) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("XDG_") && !$0.key.hasPrefix("BASH_COMPLETION") }
    environment["HOME"] = home
    p.environment = environment
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    try p.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, output)
  }

  static func installed(_ name: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static let bashCompletion = "/usr/share/bash-completion/bash_completion"

  @Test(.enabled(if: FileManager.default.fileExists(atPath: bashCompletion), "no bash-completion package"))
  func bashLoadsItFromTheUserFolder() throws {
    let home = try Self.home(with: "bash", at: ".local/share/bash-completion/completions/junoscope")
    defer { try? FileManager.default.removeItem(atPath: home) }
    let r = try Self.shell(
      "/bin/bash", ["-c", "source \(Self.bashCompletion); __load_completion junoscope; complete -p junoscope"], home: home)
    #expect(r.output == "complete -F _junoscope junoscope\n")
  }

  @Test func bashLoadsItWhenSourced() throws {
    let home = try Self.home(with: "bash", at: "junoscope.bash")
    defer { try? FileManager.default.removeItem(atPath: home) }
    let r = try Self.shell("/bin/bash", ["-c", "source ~/junoscope.bash; complete -p junoscope"], home: home)
    #expect(r.output == "complete -F _junoscope junoscope\n")
  }

  @Test(.enabled(if: installed("zsh") != nil, "no zsh"))
  func zshFindsItInFpath() throws {
    let home = try Self.home(with: "zsh", at: ".zsh/completions/_junoscope")
    defer { try? FileManager.default.removeItem(atPath: home) }
    let zsh = try #require(Self.installed("zsh"))
    let r = try Self.shell(
      zsh,
      ["-fc", "fpath=(~/.zsh/completions $fpath); autoload -Uz compinit && compinit -u -d ~/.zcompdump; print -r -- $_comps[junoscope]"],
      home: home)
    #expect(r.output == "_junoscope\n")
  }

  @Test(.enabled(if: installed("fish") != nil, "no fish"))
  func fishFindsItInItsCompletionsFolder() throws {
    let home = try Self.home(with: "fish", at: ".config/fish/completions/junoscope.fish")
    defer { try? FileManager.default.removeItem(atPath: home) }
    let fish = try #require(Self.installed("fish"))
    // fish completes a command it can find: a stand-in junoscope on the PATH.
    try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
    try "#!/bin/sh\n".write(toFile: home + "/bin/junoscope", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home + "/bin/junoscope")
    let r = try Self.shell(fish, ["-c", "set PATH ~/bin $PATH; complete -C 'junoscope sh'"], home: home)
    #expect(r.output.hasPrefix("show\tParse configurations"), "\(r.output)")
  }
}

import Foundation
import JunoscopeCLI
import Synchronization
import Testing

/// Runs `junoscope` in process with captured streams.
final class Captured: Sendable {
  let stdout = Mutex<[UInt8]>([])
  let stderr = Mutex<[UInt8]>([])
  let stdin: [UInt8]

  init(stdin: String = "") { self.stdin = Array(stdin.utf8) }

  var console: Console {
    Console(
      out: { b in self.stdout.withLock { $0 += b } }, err: { b in self.stderr.withLock { $0 += b } },
      readStandardInput: { self.stdin })
  }
  var out: String { stdout.withLock { String(decoding: $0, as: UTF8.self) } }
  var err: String { stderr.withLock { String(decoding: $0, as: UTF8.self) } }
}

func run(_ args: [String], stdin: String = "") -> (status: Int32, out: String, err: String) {
  let c = Captured(stdin: stdin)
  let status = Junoscope.run(args, console: c.console)
  return (status, c.out, c.err)
}

/// Runs a bash script of the repository (`.ci/validate-sarif`, `.ci/validate-json`) with
/// `arguments`; its exit status and its standard output and error, together.
func runScript(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
  try runProcess("/bin/bash", [fixtures + "/../" + script] + arguments)
}

/// Runs a program with `arguments` (and `environment`, else this process's); its exit status and
/// its standard output and error, together.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (
  status: Int32, output: String
) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: executable)
  p.arguments = arguments
  if let environment { p.environment = environment }
  let pipe = Pipe()
  p.standardOutput = pipe
  p.standardError = pipe
  try p.run()
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  p.waitUntilExit()
  return (p.terminationStatus, output)
}

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Fixtures").path

@Suite struct CLITests {
  @Test func showPrintsCurlySetAndJSON() {
    let input = "set system host-name r1\nset system ntp server 10.0.0.1\n"
    let curly = run(["show", "-"], stdin: input)
    #expect(curly.status == 0)
    #expect(curly.out == "system {\n    host-name r1;\n    ntp {\n        server 10.0.0.1;\n    }\n}\n")
    let set = run(["show", "--format", "set", "-"], stdin: "system { host-name r1; }\n")
    #expect(set.out == "set system host-name r1\n")
    let json = run(["show", "--format=json", "-"], stdin: "system { host-name r1; }\n")
    #expect(json.out.hasPrefix(#"{"format":"junoscope.config","version":1"#))
  }

  @Test func showMasksSecretsUnlessAsked() {
    let input = "system { root-authentication { encrypted-password \"$6$x\"; } }\n"
    #expect(!run(["show", "-"], stdin: input).out.contains("$6$x"))
    #expect(run(["show", "--show-secrets", "-"], stdin: input).out.contains("$6$x"))
  }

  @Test func invalidInputPrintsNothingAndExits2() {
    let r = run(["show", "-"], stdin: "system {\n    host-name r1\n")
    #expect(r.status == 2)
    #expect(r.out == "")
    #expect(
      r.err == """
        <stdin>:2:17: error: missing ';' at the end of the statement
        <stdin>:3:1: error: missing '}': input ends inside 1 open block (outermost 'system', innermost 'system' opened at 1:1)

        """)
  }

  @Test func checkExitCodes() {
    let ok = run(["check", "\(fixtures)/configs/curly/jvd_bbe_sw2_qfx5210-64c.conf"])
    #expect(ok.status == 0)
    #expect(ok.out.hasSuffix("jvd_bbe_sw2_qfx5210-64c.conf: curly configuration, 204 statements (1 capture line skipped)\n"))
    let bad = run(["check", "-"], stdin: "set system host-name r1\n---(more)---\n")
    #expect(bad.status == 2)
    #expect(bad.out == "<stdin>: set configuration, 2 statements, 1 error, truncated capture (1 capture line skipped)\n")
    let missing = run(["check", "/nonexistent/file.conf"])
    #expect(missing.status == 2)
    #expect(missing.err == "junoscope: error: cannot read '/nonexistent/file.conf': no such file\n")
  }

  @Test func usageErrorsExit64WithSuggestion() {
    let r = run(["show", "--fromat", "set", "x"])
    #expect(r.status == 64)
    #expect(r.err.hasPrefix("Error: Unknown option '--fromat'. Did you mean '--format'?\nUsage: junoscope show"))
    #expect(run(["shwo"]).err.hasPrefix("Error: Unknown command 'shwo'. Did you mean 'show'?"))
    // Only a close match is suggested.
    #expect(run(["bogus"]).err.hasPrefix("Error: Unknown command 'bogus'.\nUsage: junoscope"))
    #expect(run(["show", "--format", "yaml", "x"]).status == 64)
    #expect(run(["show"]).status == 64)
  }

  @Test func helpAndVersion() {
    #expect(run(["--version"]).out == "junoscope \(Junoscope.version)\n")
    let help = run(["show", "--help"])
    #expect(help.status == 0)
    #expect(help.out.contains("USAGE: junoscope show <file> ..."))
    let bare = run([])
    #expect(bare.status == 64)
    #expect(bare.out == "")
    #expect(bare.err.contains("SUBCOMMANDS:"))
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completions(_ shell: String) {
    let r = run(["completions", shell])
    #expect(r.status == 0)
    #expect(r.out.contains("show"))
    #expect(r.out.contains("check"))
    #expect(r.out.contains("show-secrets"))
  }

  @Test func outputIsWrittenAtomically() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("out.conf").path
    try "previous".write(toFile: target, atomically: true, encoding: .utf8)
    // A failing run leaves the previous file untouched.
    #expect(run(["show", "-o", target, "-"], stdin: "system {").status == 2)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "previous")
    #expect(run(["show", "-o", target, "-"], stdin: "system { host-name r1; }").status == 0)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "system {\n    host-name r1;\n}\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.conf"])
  }

  @Test func anOutputThatCannotBeWrittenIsAPlainMessageAndExit2() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let config = fixtures + "/configs/curly/napalm_initial.conf"
    let folder = run(["show", config, "-o", dir.path])
    #expect(folder.status == 2)
    #expect(folder.err == "junoscope: error: cannot write '\(dir.path)': is a folder (give a file name)\n")
    // 2, not 1: for compare, 1 means "different".
    let missing = run(["compare", config, fixtures + "/configs/curly/napalm_merge_good.conf", "-o", "/nonexistent/x"])
    #expect(missing.status == 2)
    #expect(missing.err == "junoscope: error: cannot write '/nonexistent/x': no such folder '/nonexistent'\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    // A file that exists keeps its permissions.
    let target = dir.appendingPathComponent("out.conf").path
    try "previous".write(toFile: target, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
    #expect(run(["show", config, "-o", target]).status == 0)
    #expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o600)
    let fresh = dir.appendingPathComponent("new.conf").path
    #expect(run(["show", config, "-o", fresh]).status == 0)
    #expect((try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int) == 0o644)
  }

  @Test func completionsHelpKeepsOneLinePerShell() {
    let help = run(["completions", "--help"]).out
    #expect(
      help.contains(
        """

          bash: dir=~/.local/share/bash-completion/completions
                mkdir -p $dir && junoscope completions bash > $dir/junoscope
          zsh: mkdir -p ~/.zsh/completions
               junoscope completions zsh > ~/.zsh/completions/_junoscope
               and in ~/.zshrc, before compinit: fpath=(~/.zsh/completions $fpath)

        """))
    #expect(help.contains("\n  fish: junoscope completions fish > ~/.config/fish/completions/junoscope.fish\n"))
  }

  @Test func keywordsLearnWithoutFilesIsAUsageError() {
    let r = run(["keywords", "learn"])
    #expect(r.status == 64)
    #expect(r.err == "junoscope: error: keywords learn: give the curly configuration files to learn from (- for standard input)\n")
  }

  @Test func keywordsLearnPrintsWhatTheBuiltinTableLacks() throws {
    let r = run(["keywords", "learn", "-"], stdin: "widgets {\n    gizmo g1 {\n        size 3;\n    }\n}\n")
    #expect(r.status == 0)
    #expect(r.out == "gizmo keyed 1\nsize value\nwidgets container\n")
    // ... and --keywords makes set text use it.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kw-\(UUID().uuidString).txt").path
    try r.out.write(toFile: dir, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let with = run(["show", "--keywords", dir, "-"], stdin: "set widgets gizmo g1 size 3\n")
    #expect(with.out == "widgets {\n    gizmo g1 {\n        size 3;\n    }\n}\n")
  }
}

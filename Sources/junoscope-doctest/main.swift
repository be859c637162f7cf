import ArgumentKit
import Foundation
import JunoscopeDocTest

// junoscope-doctest [--bless] [--junoscope PATH] [--root DIR] [--timeout SECONDS] FILE.md…
// Runs the ```console examples of the Markdown files (Docs/DocTests.md): one line per failure with
// file:line: and a diff, then a count. Exit status: 0 all passed, 1 a failure or a malformed
// example, 64 usage error.

let spec = CommandSpec(
  name: "junoscope-doctest",
  abstract: "Runs the console examples of Markdown files against the built junoscope (Docs/DocTests.md).",
  arguments: [
    .flag("bless", help: "Write what each failing command printed into the Markdown."),
    .option("junoscope", valueName: "path", help: "The junoscope to run (default: the one built beside this program).", completion: .file),
    .option("root", valueName: "dir", help: "The repository the examples run in (default: the current folder).", completion: .directory),
    .option("timeout", valueName: "seconds", help: "Time limit of a block (default 300)."),
    .positional("file", help: "Markdown files.", repeating: true, completion: .file),
  ])

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("junoscope-doctest: error: \(message)\n".utf8))
  exit(status)
}

let invocation: Invocation
do {
  switch try parse(Array(CommandLine.arguments.dropFirst()), root: spec) {
  case .run(let parsed): invocation = parsed
  case .help(let text), .missingSubcommand(let text):
    print(text)
    exit(0)
  case .version, .manualPage: fail("no version or manual page: see Docs/DocTests.md", status: ExitStatus.usage)
  }
} catch {
  FileHandle.standardError.write(Data((error.rendered + "\n").utf8))
  exit(ExitStatus.usage)
}
let bless = invocation.flag("bless")
let junoscope = invocation.option("junoscope")
let root = invocation.option("root") ?? FileManager.default.currentDirectoryPath
let files = invocation.positionals("file")
var timeout = 300
if let t = invocation.option("timeout") {
  guard let value = Int(t), value > 0 else { fail("--timeout needs a number of seconds", status: ExitStatus.usage) }
  timeout = value
}

// The junoscope built beside this program, unless --junoscope names one.
let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let binary = URL(fileURLWithPath: junoscope ?? (URL(fileURLWithPath: own).deletingLastPathComponent().path + "/junoscope"))
  .standardizedFileURL
guard FileManager.default.isExecutableFile(atPath: binary.path) else {
  fail("no junoscope at \(binary.path): build it first (swift build)", status: 1)
}
if binary.lastPathComponent != "junoscope" {
  fail("--junoscope must name a file called junoscope (the examples call it by that name)", status: ExitStatus.usage)
}
let rootURL = URL(fileURLWithPath: root).standardizedFileURL
let session = DocSession(
  runner: DocRunner(root: rootURL.path, binDirectory: binary.deletingLastPathComponent().path, timeout: timeout), bless: bless)
do {
  let report = try session.run(files) { print($0) }
  print(report.summary)
  exit(report.succeeded ? 0 : 1)
} catch {
  fail("\(error)", status: 1)
}

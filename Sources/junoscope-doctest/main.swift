import Foundation
import JunoscopeDocTest

// junoscope-doctest [--bless] [--junoscope PATH] [--root DIR] [--timeout SECONDS] FILE.md…
// Runs the ```console examples of the Markdown files (Docs/DocTests.md): one line per failure with
// file:line: and a diff, then a count. Exit status: 0 all passed, 1 a failure or a malformed
// example, 64 usage error.

func usage(_ message: String) -> Never {
  FileHandle.standardError.write(Data("junoscope-doctest: error: \(message)\n".utf8))
  FileHandle.standardError.write(
    Data("usage: junoscope-doctest [--bless] [--junoscope PATH] [--root DIR] [--timeout SECONDS] FILE.md...\n".utf8))
  exit(64)
}

var arguments = CommandLine.arguments.dropFirst()
var bless = false
var junoscope: String?
var root = FileManager.default.currentDirectoryPath
var timeout = 300
var files: [String] = []
while let argument = arguments.popFirst() {
  switch argument {
  case "--bless": bless = true
  case "--junoscope":
    guard let value = arguments.popFirst() else { usage("--junoscope needs a path") }
    junoscope = value
  case "--root":
    guard let value = arguments.popFirst() else { usage("--root needs a folder") }
    root = value
  case "--timeout":
    guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { usage("--timeout needs a number of seconds") }
    timeout = value
  case "-h", "--help":
    print("junoscope-doctest: runs the console examples of Markdown files against the built junoscope (Docs/DocTests.md)")
    print("usage: junoscope-doctest [--bless] [--junoscope PATH] [--root DIR] [--timeout SECONDS] FILE.md...")
    exit(0)
  default:
    if argument.hasPrefix("-") { usage("unknown option '\(argument)'") }
    files.append(argument)
  }
}
if files.isEmpty { usage("give the Markdown files to run") }

// The junoscope built beside this program, unless --junoscope names one.
let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let binary = URL(fileURLWithPath: junoscope ?? (URL(fileURLWithPath: own).deletingLastPathComponent().path + "/junoscope"))
  .standardizedFileURL
guard FileManager.default.isExecutableFile(atPath: binary.path) else {
  FileHandle.standardError.write(Data("junoscope-doctest: error: no junoscope at \(binary.path): build it first (swift build)\n".utf8))
  exit(1)
}
if binary.lastPathComponent != "junoscope" {
  usage("--junoscope must name a file called junoscope (the examples call it by that name)")
}
let rootURL = URL(fileURLWithPath: root).standardizedFileURL
let session = DocSession(
  runner: DocRunner(root: rootURL.path, binDirectory: binary.deletingLastPathComponent().path, timeout: timeout), bless: bless)
do {
  let report = try session.run(files) { print($0) }
  print(report.summary)
  exit(report.succeeded ? 0 : 1)
} catch {
  FileHandle.standardError.write(Data("junoscope-doctest: error: \(error)\n".utf8))
  exit(1)
}

import ArgumentKit
import Foundation
import JunoscopeCLI
import Testing

/// `junoscope help --man` and the page committed as Docs/junoscope.1.
@Suite struct ManualTests {
  static let committed = fixtures + "/../Docs/junoscope.1"

  @Test func theCommittedPageIsWhatHelpManPrints() throws {
    let r = run(["help", "--man"])
    #expect(r.status == 0)
    #expect(r.err == "")
    let page = try String(contentsOfFile: Self.committed, encoding: .utf8)
    #expect(r.out == page, "Docs/junoscope.1 is stale: swift run junoscope help --man > Docs/junoscope.1")
  }

  /// Every command of `--help` has its section, with every argument and allowed value.
  @Test func everyCommandAndOptionIsInThePage() {
    let page = run(["help", "--man"]).out
    let parts = page.components(separatedBy: "\n.SS ")
    let sections = Dictionary(
      parts.dropFirst().map { part in (String(part.prefix { $0 != "\n" }.dropFirst().dropLast()), part) }, uniquingKeysWith: { a, _ in a })
    #expect(sections.count == Junoscope.spec.subcommands.count)
    var options = 0
    for command in Junoscope.spec.subcommands {
      guard let section = sections[command.name] else {
        Issue.record("no section for \(command.name)")
        continue
      }
      #expect(section.contains("\\fBjunoscope \(command.name)\\fR"))
      for a in command.arguments {
        let name = a.kind == .positional ? "\\fI\(a.name)\\fR" : "\\fB\\-\\-" + a.name.replacing("-", with: "\\-") + "\\fR"
        #expect(section.contains(".TP\n" + (a.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + name), "\(command.name) \(a.name)")
        if let values = a.allowedValues { #expect(section.contains("Values: \(values.joined(separator: ", ")).")) }
        options += 1
      }
    }
    #expect(options > 150)
  }

  /// EXIT STATUS lists the statuses of Docs/CLI.md's table.
  @Test func exitStatusesAreThoseOfTheReference() throws {
    let reference = try String(contentsOfFile: fixtures + "/../Docs/CLI.md", encoding: .utf8)
    let table = reference.components(separatedBy: "## Exit status")[1].components(separatedBy: "\n## ")[0]
    let statuses = table.split(separator: "\n").compactMap { line in
      line.hasPrefix("| ") ? Int(line.dropFirst(2).prefix { $0.isNumber }) : nil
    }
    #expect(statuses == [0, 1, 2, 3, 64])
    let page = run(["help", "--man"]).out
    let section = page.components(separatedBy: ".SH \"EXIT STATUS\"")[1].components(separatedBy: "\n.SH ")[0]
    #expect(statuses.map { ".TP\n\\fB\($0)\\fR" }.allSatisfy(section.contains))
    #expect(section.components(separatedBy: ".TP\n").count - 1 == statuses.count)
  }
}

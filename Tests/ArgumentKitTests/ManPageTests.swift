import Testing

@testable import ArgumentKit

@Suite struct ManPageTests {
  @Test func helpDashDashManAsksForTheManualPage() throws {
    #expect(try parse(["help", "--man"], root: Fixtures.root) == .manualPage)
    #expect(try parse(["help", "show", "--man"], root: Fixtures.root) == .manualPage)
    #expect(try parse(["help", "show"], root: Fixtures.root) == .help(helpText(for: ["show"], root: Fixtures.root)))
  }

  @Test func everyCommandWithItsUsageArgumentsAndValues() {
    let page = manPage(
      root: Fixtures.root, version: "1.2",
      sections: [ManSection("Exit status", text: "Statuses.", entries: [.init("64", "Usage error.")])])
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines.prefix(6) == [
        ".\\\" Generated from the command-line specification by 'junoscope help --man'; do not edit.",
        ".TH \"JUNOSCOPE\" 1 \"\" \"junoscope 1.2\" \"User Commands\"",
        ".nh", ".ad l", ".SH NAME", "junoscope \\- Inspect configurations.",
      ])
    #expect(page.hasSuffix(".SH \"EXIT STATUS\"\nStatuses.\n.TP\n\\fB64\\fR\nUsage error.\n"))
    // Subcommands depth first, each with its usage line.
    #expect(
      lines.filter { $0.hasPrefix(".SS ") } == [
        ".SS \"show\"", ".SS \"connect\"", ".SS \"grep\"", ".SS \"config\"", ".SS \"config diff\"", ".SS \"config list\"",
      ])
    #expect(
      lines.contains(
        "\\fBjunoscope grep\\fR [\\fB\\-\\-ignore\\-case\\fR] [\\fB\\-\\-count\\fR] [\\fB\\-\\-tag\\fR \\fItag\\fR ...] "
          + "[\\fB\\-\\-output\\fR \\fIpath\\fR] [\\fB\\-\\-dir\\fR \\fIdir\\fR] \\fIpattern\\fR [\\fIfile\\fR ...]"))
    #expect(lines.contains("\\fBjunoscope config\\fR \\fIcommand\\fR"))
    // Options with short names, value names and allowed values; positionals' completion values.
    #expect(page.contains(".TP\n\\fB\\-p\\fR, \\fB\\-\\-port\\fR \\fIport\\fR\nSSH port.\n"))
    #expect(page.contains(".TP\n\\fB\\-\\-format\\fR \\fIformat\\fR\nOutput format. Values: curly, set, json.\n"))
    #expect(page.contains(".TP\n\\fB\\-t\\fR, \\fB\\-\\-tag\\fR \\fItag\\fR\nOnly lines with this tag.\n"))
    #expect(page.contains(".TP\n\\fIlabel\\fR\nA label. Values: a, b.\n"))
    #expect(page.contains(".SH OPTIONS\n.TP\n\\fB\\-q\\fR, \\fB\\-\\-quiet\\fR\nPrint less.\n.TP\n\\fB\\-\\-version\\fR\n"))
  }

  @Test func textIsEscapedForRoff() {
    #expect(roffEscaped(".TH not a request") == "\\&.TH not a request")
    #expect(roffEscaped("'quoted' first") == "\\&'quoted' first")
    #expect(roffEscaped("a \\ b") == "a \\e b")
    #expect(
      roffEscaped("use --show-secrets or -o FILE; read-only, 2019-11-13") == "use \\-\\-show\\-secrets or \\-o FILE; read-only, 2019-11-13")
    #expect(roffEscaped("x … → y") == "x \\[u2026] \\[u2192] y")
    #expect(roffEscaped("read-only", allMinus: true) == "read\\-only")
    #expect(roffQuoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
  }

  @Test func discussionsKeepTheirParagraphsAndExamples() {
    let root = CommandSpec(
      name: "tool", abstract: "A tool.",
      discussion: """
        First paragraph
        continues here.
          example --one
            deeper \\ line
        .starts with a dot.
        Exit status: 0.
        """)
    let page = manPage(root: root, version: "1")
    #expect(
      page.contains(
        """
        .SH DESCRIPTION
        First paragraph continues here.
        .RS 4
        .nf
        example \\-\\-one
          deeper \\e line
        .fi
        .RE
        .PP
        \\&.starts with a dot.
        .PP
        Exit status: 0.
        .SH OPTIONS
        """))
  }
}

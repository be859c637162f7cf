import Testing

@testable import ArgumentKit

@Suite("Help text")
struct HelpTests {
  @Test func leafCommand() {
    #expect(
      helpText(for: ["junoscope", "show"], root: Fixtures.root) == """
        OVERVIEW: Parse and print configurations.

        USAGE: junoscope show <file> ... [--format <format>] [--show-secrets]

        ARGUMENTS:
          <file>                  Config file(s), or - for stdin.

        OPTIONS:
          --format <format>       Output format. (values: curly, set, json)
          --show-secrets          Reveal secrets.
          -h, --help              Show help information.
        """)
  }

  @Test func rootCommand() {
    #expect(
      helpText(for: ["junoscope"], root: Fixtures.root) == """
        OVERVIEW: Inspect configurations.

        Reads configuration files and prints them in other formats.

        USAGE: junoscope [--quiet] <subcommand>

        OPTIONS:
          -q, --quiet             Print less.
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          show                    Parse and print configurations.
          connect                 Connect to a device.
          grep                    Search configurations.
          config                  Work with stored configurations.
          help                    Show subcommand help information.

          See 'junoscope help <subcommand>' for detailed help.
        """)
  }

  @Test func nestedCommandWithSubcommands() {
    #expect(
      helpText(for: ["junoscope", "config"], root: Fixtures.root) == """
        OVERVIEW: Work with stored configurations.

        USAGE: junoscope config <subcommand>

        OPTIONS:
          -h, --help              Show help information.

        SUBCOMMANDS:
          diff                    Compare two configurations.
          list                    List stored configurations.

          See 'junoscope help config <subcommand>' for detailed help.
        """)
  }

  @Test func shortNamesRepeatingAndOptionalArguments() {
    #expect(
      helpText(for: ["junoscope", "grep"], root: Fixtures.root) == """
        OVERVIEW: Search configurations.

        USAGE: junoscope grep [--ignore-case] [--count] [--tag <tag> ...] [--output <path>] [--dir <dir>] <pattern> [<file> ...]

        ARGUMENTS:
          <pattern>               What to look for.
          <file>                  Files to search.

        OPTIONS:
          -i, --ignore-case       Ignore case.
          -c, --count             Print only a count.
          -t, --tag <tag>         Only lines with this tag.
          -o, --output <path>     Write here.
          --dir <dir>             Search this directory.
          -h, --help              Show help information.
        """)
  }

  /// Source line breaks inside a paragraph do not survive: the paragraph is wrapped as one.
  @Test func discussionParagraphsAreJoined() {
    let root = CommandSpec(
      name: "tool", abstract: "A tool.",
      discussion: "A paragraph written over\nseveral short source lines\nthat is wrapped as one.\n- an item\n- another\n"
        + "  indented example\nExit status: 0 fine.",
      arguments: [])
    #expect(
      helpText(for: [], root: root, width: 40).hasPrefix(
        """
        OVERVIEW: A tool.

        A paragraph written over several short
        source lines that is wrapped as one.
        - an item
        - another
          indented example
        Exit status: 0 fine.

        """))
  }

  @Test func wrapsLongDescriptionsAndLongNames() {
    let root = CommandSpec(
      name: "tool", abstract: "A tool whose overview is long enough to need wrapping at fifty columns.",
      discussion: "First paragraph line.\n\nExamples:\n  tool --a-very-long-option-name value --and-even-more",
      arguments: [
        .flag("short", help: "A description that is long enough to wrap twice at fifty columns wide."),
        .option("a-very-long-option", valueName: "value", help: "Goes on the next line."),
        .flag("exactly-twenty-chars", help: "Fits."),
        .flag("twenty-three-chars-xy", help: "Does not fit."),
        .flag("no-help", help: ""),
      ])
    #expect(
      helpText(for: [], root: root, width: 50) == """
        OVERVIEW: A tool whose overview is long enough to
        need wrapping at fifty columns.

        First paragraph line.

        Examples:
          tool --a-very-long-option-name value
          --and-even-more

        USAGE: tool [--short] [--a-very-long-option <value>] [--exactly-twenty-chars] [--twenty-three-chars-xy] [--no-help]

        OPTIONS:
          --short                 A description that is
                                  long enough to wrap
                                  twice at fifty columns
                                  wide.
          --a-very-long-option <value>
                                  Goes on the next line.
          --exactly-twenty-chars  Fits.
          --twenty-three-chars-xy
                                  Does not fit.
          --no-help
          --version               Show the version.
          -h, --help              Show help information.
        """)
  }

  @Test(
    "Path forms resolve to the same command",
    arguments: [
      ["show"], ["junoscope", "show"], ["junoscope", "show", "nonexistent"], ["show", "extra", "words"],
    ])
  func pathForms(path: [String]) {
    #expect(helpText(for: path, root: Fixtures.root) == helpText(for: ["show"], root: Fixtures.root))
  }

  @Test func emptyOrUnknownPathMeansRoot() {
    let root = helpText(for: ["junoscope"], root: Fixtures.root)
    #expect(helpText(for: [], root: Fixtures.root) == root)
    #expect(helpText(for: ["nonexistent"], root: Fixtures.root) == root)
  }

  @Test func usageLines() {
    #expect(
      usageLine(for: Fixtures.show, path: ["junoscope", "show"])
        == "junoscope show <file> ... [--format <format>] [--show-secrets]")
    #expect(
      usageLine(for: Fixtures.diff, path: ["junoscope", "config", "diff"])
        == "junoscope config diff <old> <new> [<label>]")
    #expect(usageLine(for: Fixtures.list, path: ["x", "list"]) == "x list")
  }
}

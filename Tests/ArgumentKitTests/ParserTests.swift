import Testing

@testable import ArgumentKit

@Suite("Tokenizing and parsing")
struct ParserTests {
  @Test(
    "Every option form gives the same value",
    arguments: [
      ["connect", "--port", "2222", "host"],
      ["connect", "--port=2222", "host"],
      ["connect", "-p", "2222", "host"],
      ["connect", "-p2222", "host"],
      ["connect", "host", "--port", "2222"],
      ["connect", "host", "-p2222"],
    ])
  func optionForms(arguments: [String]) throws {
    let invocation = try Fixtures.run(arguments)
    #expect(invocation.commandPath == ["junoscope", "connect"])
    #expect(invocation.option("port") == "2222")
    #expect(invocation.positional("host") == "host")
    #expect(!invocation.flag("verbose"))
  }

  @Test func mixedFormsAndOrder() throws {
    let invocation = try Fixtures.run(["grep", "-i", "needle", "--output=out.txt", "a", "-t", "x", "b"])
    #expect(invocation.flag("ignore-case"))
    #expect(!invocation.flag("count"))
    #expect(invocation.option("output") == "out.txt")
    #expect(invocation.options("tag") == ["x"])
    #expect(invocation.positional("pattern") == "needle")
    #expect(invocation.positionals("file") == ["a", "b"])
  }

  @Test func groupedShortFlags() throws {
    let invocation = try Fixtures.run(["grep", "-ic", "needle"])
    #expect(invocation.flag("ignore-case"))
    #expect(invocation.flag("count"))
    #expect(invocation.positional("pattern") == "needle")
  }

  @Test func groupedFlagsEndingInAnOption() throws {
    let separate = try Fixtures.run(["connect", "-vp", "22", "host"])
    #expect(separate.flag("verbose"))
    #expect(separate.option("port") == "22")
    let attached = try Fixtures.run(["connect", "-vp22", "host"])
    #expect(attached.flag("verbose"))
    #expect(attached.option("port") == "22")
    #expect(attached.positional("host") == "host")
  }

  @Test func repeatedFlagsAreCounted() throws {
    let invocation = try Fixtures.run(["connect", "-vvv", "host", "--verbose"])
    #expect(invocation.flagCount("verbose") == 4)
    #expect(invocation.flagCount("port") == 0)
  }

  @Test func doubleDashEndsOptions() throws {
    let invocation = try Fixtures.run(["grep", "-c", "--", "-i", "--count", "-"])
    #expect(invocation.flag("count"))
    #expect(!invocation.flag("ignore-case"))
    #expect(invocation.positional("pattern") == "-i")
    #expect(invocation.positionals("file") == ["--count", "-"])
  }

  @Test func loneDashIsPositional() throws {
    let invocation = try Fixtures.run(["show", "-", "--format", "set"])
    #expect(invocation.positionals("file") == ["-"])
    #expect(invocation.option("format") == "set")
  }

  @Test func loneDashIsAnOptionValue() throws {
    let invocation = try Fixtures.run(["grep", "-o", "-", "needle"])
    #expect(invocation.option("output") == "-")
    #expect(invocation.positional("pattern") == "needle")
  }

  @Test func valueStartingWithDashNeedsEquals() throws {
    let invocation = try Fixtures.run(["grep", "--tag=-x", "needle"])
    #expect(invocation.options("tag") == ["-x"])
  }

  @Test func repeatingOptionsKeepEveryValue() throws {
    let invocation = try Fixtures.run(["grep", "-t", "a", "--tag", "b", "needle", "--tag=c", "-td"])
    #expect(invocation.options("tag") == ["a", "b", "c", "d"])
    #expect(invocation.option("tag") == "d")
    #expect(invocation.options("output").isEmpty)
    #expect(invocation.option("output") == nil)
  }

  @Test func nonRepeatingOptionKeepsLastValue() throws {
    let invocation = try Fixtures.run(["connect", "-p", "1", "--port", "2", "host"])
    #expect(invocation.option("port") == "2")
  }

  @Test func repeatingPositionals() throws {
    let invocation = try Fixtures.run(["show", "a.conf", "b.conf", "c.conf"])
    #expect(invocation.positionals("file") == ["a.conf", "b.conf", "c.conf"])
    #expect(invocation.positional("file") == "a.conf")
  }

  @Test func optionalRepeatingPositionalMayBeEmpty() throws {
    let invocation = try Fixtures.run(["grep", "needle"])
    #expect(invocation.positionals("file").isEmpty)
    #expect(invocation.positional("file") == nil)
  }

  @Test func optionalPositionalTakesAWordOnlyWhenOneIsLeft() throws {
    let two = try Fixtures.run(["config", "diff", "a", "b"])
    #expect(two.commandPath == ["junoscope", "config", "diff"])
    #expect(two.positional("old") == "a")
    #expect(two.positional("new") == "b")
    #expect(two.positional("label") == nil)
    let three = try Fixtures.run(["config", "diff", "a", "b", "c"])
    #expect(three.positional("label") == "c")
  }

  @Test func parentOptionsBeforeTheSubcommand() throws {
    let invocation = try Fixtures.run(["-q", "show", "x"])
    #expect(invocation.commandPath == ["junoscope", "show"])
    #expect(invocation.flag("quiet"))
    #expect(invocation.positionals("file") == ["x"])
  }

  @Test func optionValueIsNotMistakenForASubcommand() throws {
    let root = CommandSpec(
      name: "tool", abstract: "",
      arguments: [.option("profile", valueName: "name", help: "")],
      subcommands: [CommandSpec(name: "show", abstract: ""), CommandSpec(name: "run", abstract: "")])
    guard case .run(let invocation) = try parse(["--profile", "show", "run"], root: root) else {
      Issue.record("expected .run")
      return
    }
    #expect(invocation.commandPath == ["tool", "run"])
    #expect(invocation.option("profile") == "show")
  }

  @Test func commandWithoutSubcommands() throws {
    let root = CommandSpec(name: "cat", abstract: "", arguments: [.positional("file", help: "", optional: true)])
    #expect(try parse([], root: root) == .run(Invocation(commandPath: ["cat"])))
    #expect(try parse(["x"], root: root) == .run(Invocation(commandPath: ["cat"], positionals: ["file": ["x"]])))
  }

  @Test func tokenizerClassifiesWords() {
    #expect(
      tokenize(["--a", "--b=c", "--d=", "-xyz", "-", "", "w", "--", "--e", "-f"]) == [
        .long(name: "a", value: nil), .long(name: "b", value: "c"), .long(name: "d", value: ""),
        .short(letters: ["x", "y", "z"]), .value("-"), .value(""), .value("w"), .terminator,
        .value("--e"), .value("-f"),
      ])
  }

  @Test func exitStatuses() {
    #expect(ExitStatus.success == 0)
    #expect(ExitStatus.failure == 1)
    #expect(ExitStatus.invalidInput == 2)
    #expect(ExitStatus.deviceFailure == 3)
    #expect(ExitStatus.usage == 64)
  }
}

@Suite("Help and version outcomes")
struct OutcomeTests {
  let rootHelp = helpText(for: [], root: Fixtures.root)
  let showHelp = helpText(for: ["junoscope", "show"], root: Fixtures.root)
  let diffHelp = helpText(for: ["junoscope", "config", "diff"], root: Fixtures.root)

  @Test func emptyCommandLineIsAMissingSubcommand() throws {
    #expect(try parse([], root: Fixtures.root) == .missingSubcommand(rootHelp))
  }

  @Test func commandWithSubcommandsAloneIsAMissingSubcommand() throws {
    #expect(try parse(["config"], root: Fixtures.root) == .missingSubcommand(helpText(for: ["config"], root: Fixtures.root)))
    #expect(try parse(["-q"], root: Fixtures.root) == .missingSubcommand(rootHelp))
    // Asked for, help is help.
    #expect(try parse(["config", "--help"], root: Fixtures.root) == .help(helpText(for: ["config"], root: Fixtures.root)))
  }

  @Test(
    "--help and -h anywhere",
    arguments: [
      (["--help"], []), (["-h"], []), (["-q", "--help"], []),
      (["show", "--help"], ["show"]), (["show", "-h"], ["show"]), (["--help", "show"], ["show"]),
      (["show", "a", "--format", "json", "-h"], ["show"]),
      (["show", "--bogus", "--help"], ["show"]), (["show", "--format", "-h"], ["show"]),
      (["config", "diff", "-h"], ["config", "diff"]), (["connect", "-vh"], ["connect"]),
      (["shwo", "--help"], []),
    ] as [([String], [String])])
  func helpFlag(arguments: [String], path: [String]) throws {
    #expect(try parse(arguments, root: Fixtures.root) == .help(helpText(for: path, root: Fixtures.root)))
  }

  @Test func helpAfterDoubleDashIsPositional() throws {
    let invocation = try Fixtures.run(["show", "--", "--help", "-h"])
    #expect(invocation.positionals("file") == ["--help", "-h"])
  }

  @Test func helpSubcommand() throws {
    #expect(try parse(["help"], root: Fixtures.root) == .help(rootHelp))
    #expect(try parse(["help", "show"], root: Fixtures.root) == .help(showHelp))
    #expect(try parse(["help", "config", "diff"], root: Fixtures.root) == .help(diffHelp))
    #expect(try parse(["config", "help", "diff"], root: Fixtures.root) == .help(diffHelp))
  }

  @Test func helpSubcommandRejectsUnknownNames() {
    let error = Fixtures.error(["help", "shwo"])
    #expect(error?.message == "Unknown command 'shwo'. Did you mean 'show'?")
    #expect(error?.commandPath == ["junoscope"])
  }

  @Test func versionAtTheRoot() throws {
    #expect(try parse(["--version"], root: Fixtures.root) == .version)
    #expect(try parse(["-q", "--version"], root: Fixtures.root) == .version)
    #expect(try parse(["--version", "--help"], root: Fixtures.root) == .help(rootHelp))
  }

  @Test func versionOnlyAtTheRoot() {
    #expect(Fixtures.error(["show", "--version"])?.message == "Unknown option '--version'.")
    #expect(Fixtures.error(["--version=2"])?.message == "The flag '--version' does not take a value.")
  }
}

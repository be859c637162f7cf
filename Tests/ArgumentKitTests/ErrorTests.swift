import Testing

@testable import ArgumentKit

@Suite("Usage errors")
struct ErrorTests {
  @Test(
    "Exact messages",
    arguments: [
      (["show", "--format"], "Missing value for '--format <format>'."),
      (["show", "x", "--format", "--show-secrets"], "Missing value for '--format <format>'."),
      (["connect", "host", "-p"], "Missing value for '--port <port>'."),
      (["show", "x", "--format", "--", "y"], "Missing value for '--format <format>'."),
      (["connect", "--prot", "22", "host"], "Unknown option '--prot'. Did you mean '--port'?"),
      (["connect", "--prot=22", "host"], "Unknown option '--prot'. Did you mean '--port'?"),
      (["shwo"], "Unknown command 'shwo'. Did you mean 'show'?"),
      (["config", "dif"], "Unknown command 'dif'. Did you mean 'diff'?"),
      (["show"], "Missing expected argument '<file>'."),
      (["show", "--format", "set"], "Missing expected argument '<file>'."),
      (["connect"], "Missing expected argument '<host>'."),
      (["config", "diff", "a"], "Missing expected argument '<new>'."),
      (["connect", "host", "x"], "Unexpected argument 'x'."),
      (["config", "list", "x"], "Unexpected argument 'x'."),
      (["config", "--", "diff"], "Unexpected argument 'diff'."),
      (
        ["show", "x", "--format", "yaml"],
        "The value 'yaml' is invalid for '--format <format>'. Expected one of: curly, set, json."
      ),
      (
        ["show", "x", "--format=jsn"],
        "The value 'jsn' is invalid for '--format <format>'. Expected one of: curly, set, json. Did you mean 'json'?"
      ),
      (["connect", "--verbose=x", "host"], "The flag '--verbose' does not take a value."),
      (["connect", "--help=x"], "The flag '--help' does not take a value."),
      (["connect", "-x", "host"], "Unknown option '-x'."),
      (["connect", "-vx", "host"], "Unknown option '-x'."),
    ] as [([String], String)])
  func message(arguments: [String], expected: String) {
    #expect(Fixtures.error(arguments)?.message == expected)
  }

  @Test func renderedText() throws {
    let error = try #require(Fixtures.error(["connect", "--prot", "22", "host"]))
    #expect(error.usage == "junoscope connect [--port <port>] [--verbose] <host>")
    #expect(error.commandPath == ["junoscope", "connect"])
    #expect(
      error.rendered == """
        Error: Unknown option '--prot'. Did you mean '--port'?
        Usage: junoscope connect [--port <port>] [--verbose] <host>
          See 'junoscope connect --help' for more information.
        """)
  }

  @Test func errorsNameTheCommandAtFault() throws {
    let error = try #require(Fixtures.error(["config", "diff", "a", "b", "c", "d"]))
    #expect(error.commandPath == ["junoscope", "config", "diff"])
    #expect(error.usage == "junoscope config diff <old> <new> [<label>]")
    let rootError = try #require(Fixtures.error(["frobnicate"]))
    #expect(rootError.commandPath == ["junoscope"])
    #expect(rootError.usage == "junoscope [--quiet] <subcommand>")
  }

  @Test(
    "No suggestion when nothing is close",
    arguments: [
      (["connect", "--zzzzzz", "host"], "Unknown option '--zzzzzz'."),
      (["frobnicate"], "Unknown command 'frobnicate'."),
      (
        ["show", "x", "--format", "yaml"],
        "The value 'yaml' is invalid for '--format <format>'. Expected one of: curly, set, json."
      ),
    ] as [([String], String)])
  func noSuggestion(arguments: [String], expected: String) {
    #expect(Fixtures.error(arguments)?.message == expected)
  }

  @Test func shortNamesAreNeverSuggested() {
    // -P is one edit away from -p, but short names get no suggestion.
    #expect(Fixtures.error(["connect", "-P", "22", "host"])?.message == "Unknown option '-P'.")
  }

  @Test func helpCommandIsSuggested() {
    #expect(Fixtures.error(["halp"])?.message == "Unknown command 'halp'. Did you mean 'help'?")
  }
}

@Suite("Suggestions")
struct SuggestionTests {
  @Test(
    "Edit distance",
    arguments: [
      ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("same", "same", 0),
      ("kitten", "sitting", 3), ("prot", "port", 1), ("flaw", "lawn", 2), ("shwo", "show", 1),
      // A transposition is one edit; optimal string alignment edits no substring twice.
      ("lgo", "log", 1), ("ab", "ba", 1), ("ca", "abc", 3),
    ] as [(String, String, Int)])
  func distance(source: String, target: String, expected: Int) {
    #expect(editDistance(source, target) == expected)
    #expect(editDistance(target, source) == expected)
  }

  @Test func closestCandidateWins() {
    #expect(closestMatch(to: "verbos", among: ["version", "verbose"]) == "verbose")
    #expect(closestMatch(to: "prot", among: ["pour", "port", "print"]) == "port")
  }

  @Test func tiesGoToTheFirstCandidate() {
    #expect(closestMatch(to: "cat", among: ["bat", "hat"]) == "bat")
    #expect(closestMatch(to: "cat", among: ["hat", "bat"]) == "hat")
  }

  @Test func theDistanceSuggestedGrowsWithTheWord() {
    // One edit per three characters, at least one, at most three.
    #expect(closestMatch(to: "lgo", among: ["log", "diff"]) == "log")
    #expect(closestMatch(to: "bogus", among: ["log", "lint", "blame"]) == nil)
    #expect(closestMatch(to: "abc", among: ["xyz"]) == nil)
    #expect(closestMatch(to: "abcdefghi", among: ["xyzdefghi"]) == "xyzdefghi")
    #expect(closestMatch(to: "abcdefghijkl", among: ["wxyzefghijkl"]) == nil)
    #expect(suggestionDistance(for: "") == 1)
    #expect(suggestionDistance(for: "abcdefghijklmnop") == maximumSuggestionDistance)
    #expect(closestMatch(to: "anything", among: []) == nil)
  }
}

public import ArgumentKit
import Reports

/// The `junoscope` command: its specification and the dispatch to subcommands.
public enum Junoscope {
  /// The version printed by `junoscope --version`.
  public static let version = "0.1.0"

  /// Every subcommand, in the order help lists them.
  static let commands: [Subcommand] = [
    Subcommand(ShowCommand.self), Subcommand(CompareCommand.self), Subcommand(ApplyCommand.self), Subcommand(LogCommand.self),
    Subcommand(DiffCommand.self), Subcommand(BlameCommand.self), Subcommand(TimelineCommand.self), Subcommand(FetchCommand.self),
    Subcommand(CheckCommand.self), Subcommand(LintCommand.self), Subcommand(CICommand.self), Subcommand(ReviewCommand.self),
    Subcommand(KeywordsCommand.self),
    Subcommand(CompletionsCommand.self),
  ]

  /// The command-line specification (drives parsing, help and completions).
  public static let spec = CommandSpec(
    name: "junoscope",
    abstract: "Who changed what on a Junos device, what commits X..Y did, and is the next change safe.",
    discussion: """
      Reads Junos configurations in curly-brace or 'display set' form (files, or - for standard input).
      Every command takes --color auto|always|never (auto: on a terminal, unless NO_COLOR is set).
      Exit status: 0 success, 1 differences or findings, 2 invalid input, 3 device failure, 64 usage error.
      'junoscope help --man' prints the manual page (roff), from the same specifications as --help.
      """,
    subcommands: commands.map(\.spec))

  /// Runs the command line `arguments` (without the program name) and returns the exit status.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after `junoscope`.
  ///   - console: Output streams and standard input.
  /// - Returns: The process exit status (see `Docs/CLI.md`).
  public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
    let outcome: ParseOutcome
    do {
      outcome = try parse(arguments, root: spec)
    } catch {
      console.error(error.rendered)
      return ExitStatus.usage
    }
    switch outcome {
    case .help(let text):
      console.print(text)
      return ExitStatus.success
    case .version:
      console.print("junoscope \(version)")
      return ExitStatus.success
    case .manualPage:
      console.out(Array(manual.utf8))
      return ExitStatus.success
    case .missingSubcommand(let text):
      console.error(text)
      return ExitStatus.usage
    case .run(let invocation):
      guard invocation.commandPath.count >= 2,
        let command = commands.first(where: { $0.spec.name == invocation.commandPath[1] })
      else {
        console.error(helpText(for: [], root: spec))
        return ExitStatus.usage
      }
      var console = console
      console.color = invocation.option("color").flatMap(Terminal.ColorChoice.init(rawValue:)) ?? .auto
      do {
        return try command.run(invocation, console)
      } catch {
        console.error("junoscope: \(TextStyle(color: console.colorsErr).paint("error:", .error)) \(error.message)")
        return error.status
      }
    }
  }
}

/// A subcommand: its specification and how it runs.
protocol JunoscopeCommand: SendableMetatype {
  static var spec: CommandSpec { get }
  static func run(_ invocation: Invocation, console: Console) throws(CommandFailure) -> Int32
}

/// A subcommand as values (existential metatypes with typed throws crash the 6.3.1 compiler).
struct Subcommand: Sendable {
  let spec: CommandSpec
  let run: @Sendable (Invocation, Console) throws(CommandFailure) -> Int32

  /// The command `C`, taking the options every command takes (`--color`) after its own.
  init<C: JunoscopeCommand>(_ command: C.Type) {
    let own = C.spec
    spec = CommandSpec(
      name: own.name, abstract: own.abstract, discussion: own.discussion, arguments: own.arguments + [Terminal.colorOption],
      subcommands: own.subcommands)
    run = { (inv, console) throws(CommandFailure) in try C.run(inv, console: console) }
  }
}

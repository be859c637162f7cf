import ArgumentKit

/// `junoscope completions bash|zsh|fish`.
enum CompletionsCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "completions",
    abstract: "Print a shell completion script.",
    discussion: """
      Install the script where the shell looks for completions:
        bash: junoscope completions bash > /etc/bash_completion.d/junoscope
        zsh: junoscope completions zsh > "${fpath[1]}/_junoscope"
        fish: junoscope completions fish > ~/.config/fish/completions/junoscope.fish
      """,
    arguments: [
      .positional("shell", help: "The shell.", completion: .values(Shell.allCases.map(\.rawValue)))
    ])

  static func run(_ inv: Invocation, console: Console) throws(CommandFailure) -> Int32 {
    let name = inv.positional("shell") ?? ""
    guard let shell = Shell(rawValue: name) else {
      let e = UsageError(
        message: "The value '\(name)' is invalid for '<shell>'. Expected one of: bash, zsh, fish.",
        usage: "junoscope completions <shell>", commandPath: ["junoscope", "completions"])
      console.error(e.rendered)
      return ExitStatus.usage
    }
    console.print(completionScript(for: shell, root: Junoscope.spec))
    return ExitStatus.success
  }
}

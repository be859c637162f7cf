import ArgumentKit

/// `junoscope completions bash|zsh|fish`.
enum CompletionsCommand: JunoscopeCommand {
  static let spec = CommandSpec(
    name: "completions",
    abstract: "Print a shell completion script.",
    discussion: """
      Install the script where the shell looks for completions (for yourself; Docs/CLI.md gives
      the folders for every user, and how to check), then open a new shell:
        bash: dir=~/.local/share/bash-completion/completions
              mkdir -p $dir && junoscope completions bash > $dir/junoscope
        zsh: mkdir -p ~/.zsh/completions
             junoscope completions zsh > ~/.zsh/completions/_junoscope
             and in ~/.zshrc, before compinit: fpath=(~/.zsh/completions $fpath)
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

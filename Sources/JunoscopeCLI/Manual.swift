import ArgumentKit

extension Junoscope {
  /// The manual page `junoscope help --man` prints (`Docs/junoscope.1`): the commands from
  /// ``spec``, as `--help` shows them, then exit status, environment, files and references.
  public static var manual: String {
    manPage(root: spec, version: version, sections: manualSections)
  }

  /// The sections of the manual page that the command specifications do not hold.
  static let manualSections: [ManSection] = [
    ManSection(
      "Exit status", text: "Every command uses these statuses (Docs/CLI.md); scripts may rely on them.",
      entries: [
        .init(
          "\(ExitStatus.success)",
          "Success: the output was produced; no differences (compare, diff); no error findings (lint, ci; with --strict, no findings); every source reviewed (review)."
        ),
        .init("\(ExitStatus.failure)", "Differences (compare, diff) or findings (lint, ci)."),
        .init(
          "\(ExitStatus.invalidInput)",
          "Invalid input: a syntax error, a truncated or garbled capture, an unreadable or missing file, changes that do not apply to the base (apply), a source review could not read, an output file that cannot be written."
        ),
        .init("\(ExitStatus.deviceFailure)", "A device or connection failure (commands that talk to a device)."),
        .init(
          "\(ExitStatus.usage)", "Usage error: an unknown command or option, a missing or invalid argument (BSD EX_USAGE)."),
      ]),
    ManSection(
      "Environment",
      text: "Times are printed in UTC whatever TZ says; --timezone and --tz name a device's zone.",
      entries: [
        .init("NO_COLOR", "When set and not empty, --color auto (the default) does not colour (https://no-color.org)."),
        .init("COLUMNS", "The width text reports wrap to on a terminal, instead of the window's."),
        .init(
          "LC_ALL, LC_CTYPE, LANG",
          "The first set and not empty says whether the terminal takes UTF-8 (else arrows are written ->)."),
        .init(
          "JUNOSCOPE_PASSWORD",
          "The SSH password for commands that reach a device (fetch, --host, review --host); when set, --ask-password does not prompt."),
        .init("SSH_AUTH_SOCK", "The ssh-agent whose keys are tried when no -i key is given."),
        .init("TZDIR", "Where --timezone NAME reads the zone file NAME, before /usr/share/zoneinfo."),
      ]),
    ManSection(
      "Files",
      entries: [
        .init("~/.ssh/config", "Host aliases, users, ports, keys and proxies (-F FILE or --no-ssh-config instead)."),
        .init("~/.ssh/known_hosts", "The host keys checked (--known-hosts FILE instead); the system-wide file is never read."),
        .init("~/.ssh/id_*", "Keys tried after the agent's when no -i key is given."),
        .init(
          "DIR/HOST/manifest.json",
          "A capture bundle written by fetch: the manifest (format junoscope.bundle), commits.xml and rollbacks/rollback-N.conf."),
        .init("juniper.conf.N[.gz]", "Saved rollbacks, read by --rollbacks DIR."),
      ]),
    ManSection(
      "See also",
      text: """
        ssh(1), ssh_config(5), git(1).
        Docs/CLI.md (every command and option), Docs/JSON.md (the JSON outputs and their schemas), Docs/UserGuide.md, https://github.com/junoscope/junoscope
        """),
  ]
}

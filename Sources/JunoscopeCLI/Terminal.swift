import ArgumentKit
import Foundation

/// What the process's output streams are and what its environment asks of text: the one place
/// that asks `isatty`, the terminal's width, `NO_COLOR` and the locale. ``Console`` carries one, so
/// that tests can fake a terminal.
public struct Terminal: Sendable, Equatable {
  /// Whether standard output is a terminal.
  public var outIsTerminal: Bool
  /// Whether standard error is a terminal.
  public var errIsTerminal: Bool
  /// The columns of the terminal on standard output (`COLUMNS`, else its window size), if known.
  public var width: Int?
  /// Whether `NO_COLOR` is set to something (https://no-color.org).
  public var noColor: Bool
  /// Whether the locale's characters are UTF-8 (else text falls back to ASCII, `->` for `→`).
  public var isUTF8: Bool

  /// Creates a description of the streams.
  public init(outIsTerminal: Bool = false, errIsTerminal: Bool = false, width: Int? = nil, noColor: Bool = false, isUTF8: Bool = true) {
    self.outIsTerminal = outIsTerminal
    self.errIsTerminal = errIsTerminal
    self.width = width
    self.noColor = noColor
    self.isUTF8 = isUTF8
  }

  /// Neither stream a terminal, UTF-8: what a pipe to another program gets.
  public static let piped = Terminal()

  /// The process's own streams and environment.
  public static func current() -> Terminal {
    let environment = ProcessInfo.processInfo.environment
    let out = isatty(STDOUT_FILENO) == 1
    var width: Int? = nil
    if out {
      if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 {
        width = c
      } else {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { width = Int(size.ws_col) }
      }
    }
    return Terminal(
      outIsTerminal: out, errIsTerminal: isatty(STDERR_FILENO) == 1, width: width,
      noColor: !(environment["NO_COLOR"] ?? "").isEmpty, isUTF8: isUTF8(environment: environment))
  }

  /// Whether the locale is UTF-8: the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not
  /// empty names `UTF-8` or `utf8` (in any case); `C`, `POSIX` or none is ASCII.
  public static func isUTF8(environment: [String: String]) -> Bool {
    guard let value = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
      return false
    }
    let v = value.lowercased()
    return v.contains("utf-8") || v.contains("utf8")
  }

  /// `→`, or `->` when the locale is not UTF-8.
  var arrow: String { isUTF8 ? "→" : "->" }

  /// `--color auto|always|never`: whether the command colours. `auto` colours a stream that is a
  /// terminal when `NO_COLOR` is unset or empty.
  enum ColorChoice: String, CaseIterable {
    case auto, always, never
  }

  /// The `--color` option every command takes.
  static let colorOption = ArgumentSpec.option(
    "color", valueName: "when",
    help: "Colour the output; auto: only on a terminal, and not when NO_COLOR is set.",
    allowedValues: ColorChoice.allCases.map(\.rawValue))

  /// Whether to colour standard output (or, with `error`, standard error) under `--color choice`.
  func colors(_ choice: ColorChoice, error: Bool = false) -> Bool {
    switch choice {
    case .always: true
    case .never: false
    case .auto: !noColor && (error ? errIsTerminal : outIsTerminal)
    }
  }
}

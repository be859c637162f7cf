/// A CLI command junoscope may send to a device: only `show` commands that read the commit
/// list, rollbacks, the configuration and the software version, with the output pipes `|
/// display xml`, `| display set` and `| no-more`. Nothing else can be built, so nothing else can
/// reach a device: the SSH layer takes only this type.
public struct ReadOnlyCommand: Sendable, Hashable, CustomStringConvertible {
  /// The command line as sent.
  public let text: String

  /// The read-only commands (before pipes), as word patterns; `N` stands for a rollback number
  /// 0–49.
  static let allowed: [[String]] = [
    ["show", "system", "commit"],
    ["show", "system", "rollback", "N"],
    ["show", "system", "rollback", "N", "compare", "N"],
    ["show", "configuration"],
    ["show", "version"],
  ]
  /// Pipes that only change how output is shown.
  static let pipes: Set<String> = ["display xml", "display set", "no-more"]

  /// Validates a command line; nil when it is not on the allow-list (any other command, any
  /// other pipe, or a character outside lowercase letters, digits, blanks, `-` and `|`).
  public init?(_ line: String) {
    guard
      line.utf8.allSatisfy({ b in
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x20 || b == 0x2D || b == 0x7C
      })
    else { return nil }
    let parts = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.split(separator: " ").map(String.init) }
    guard let words = parts.first, !words.isEmpty else { return nil }
    let fits = Self.allowed.contains { pattern in
      pattern.count == words.count
        && zip(pattern, words).allSatisfy { p, w in
          p == "N" ? Self.isRollbackNumber(w) : p == w
        }
    }
    guard fits else { return nil }
    var seen = Set<String>()
    for pipe in parts.dropFirst() {
      let p = pipe.joined(separator: " ")
      guard Self.pipes.contains(p), seen.insert(p).inserted else { return nil }
    }
    if seen.contains("display xml") && seen.contains("display set") { return nil }
    text = ([words.joined(separator: " ")] + parts.dropFirst().map { $0.joined(separator: " ") }).joined(separator: " | ")
  }

  /// One or two digits, 0–49 (`Int` alone also reads `-0`, which is no rollback number).
  static func isRollbackNumber(_ w: String) -> Bool {
    w.count <= 2 && w.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (Int(w).map { (0...49).contains($0) } ?? false)
  }

  /// `show system commit | no-more`.
  public static let commitList = ReadOnlyCommand("show system commit | no-more")!
  /// `show system commit | display xml | no-more`.
  public static let commitListXML = ReadOnlyCommand("show system commit | display xml | no-more")!
  /// `show version | no-more`.
  public static let version = ReadOnlyCommand("show version | no-more")!

  /// `show system rollback N | no-more`, for N in 0–49.
  public static func rollback(_ n: Int) -> ReadOnlyCommand? { ReadOnlyCommand("show system rollback \(n) | no-more") }

  /// `show system rollback N compare M | no-more`, for N and M in 0–49.
  public static func compare(_ n: Int, _ m: Int) -> ReadOnlyCommand? {
    ReadOnlyCommand("show system rollback \(n) compare \(m) | no-more")
  }

  /// The command line.
  public var description: String { text }
}

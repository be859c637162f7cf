/// Process exit statuses used by command-line tools built on ArgumentKit.
public enum ExitStatus {
  /// The command did what was asked.
  public static let success: Int32 = 0
  /// The command failed for a reason not covered below.
  public static let failure: Int32 = 1
  /// The input (e.g. a file given to the command) could not be read or understood.
  public static let invalidInput: Int32 = 2
  /// A device the command talked to failed or could not be reached.
  public static let deviceFailure: Int32 = 3
  /// The command line itself was wrong (a ``UsageError``); the value of BSD's `EX_USAGE`.
  public static let usage: Int32 = 64
}

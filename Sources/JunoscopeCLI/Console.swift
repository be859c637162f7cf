import ArgumentKit
import Foundation
import JunosConfig
import Reports

/// Where a command's output goes and its input comes from; tests substitute buffers.
public struct Console: Sendable {
  /// Writes bytes to standard output.
  public var out: @Sendable ([UInt8]) -> Void
  /// Writes bytes to standard error.
  public var err: @Sendable ([UInt8]) -> Void
  /// Reads all of standard input.
  public var readStandardInput: @Sendable () -> [UInt8]
  /// Whether the streams are terminals, their width, `NO_COLOR` and the locale.
  public var terminal: Terminal
  /// The command's `--color`, set before it runs; `never` until then.
  var color = Terminal.ColorChoice.never

  /// Creates a console from closures; `terminal` defaults to ``Terminal/piped``.
  public init(
    out: @escaping @Sendable ([UInt8]) -> Void, err: @escaping @Sendable ([UInt8]) -> Void,
    readStandardInput: @escaping @Sendable () -> [UInt8], terminal: Terminal = .piped
  ) {
    self.out = out
    self.err = err
    self.readStandardInput = readStandardInput
    self.terminal = terminal
  }

  /// The process's own standard streams.
  public static let standard = Console(
    out: { bytes in FileHandle.standardOutput.write(Data(bytes)) },
    err: { bytes in FileHandle.standardError.write(Data(bytes)) },
    readStandardInput: { Array(FileHandle.standardInput.readDataToEndOfFile()) }, terminal: .current())

  /// The style of text written to `output` (a command's `-o`; nil or `-`: standard output):
  /// coloured as `--color` says (a file only with `always`), wrapped to the terminal's width only
  /// when standard output is a terminal and the text goes there.
  func style(output: String?) -> TextStyle {
    if let output, output != "-" { return TextStyle(color: color == .always) }
    return TextStyle(color: terminal.colors(color), width: terminal.outIsTerminal ? terminal.width : nil)
  }

  /// Whether standard error is coloured (diagnostics, `error:`).
  var colorsErr: Bool { terminal.colors(color, error: true) }

  func print(_ s: String) { out(Array((s + "\n").utf8)) }
  func error(_ s: String) { err(Array((s + "\n").utf8)) }
}

/// A failure that ends a command with a message and an exit status.
struct CommandFailure: Error {
  var message: String
  var status: Int32
}

/// Reading inputs and writing outputs: files, `-` for standard input, atomic replacement.
struct FileIO {
  let console: Console

  /// Reads a file, or standard input for `-`.
  func read(_ path: String) throws(CommandFailure) -> SourceInput {
    if path == "-" { return SourceInput(path: "<stdin>", bytes: console.readStandardInput()) }
    return SourceInput(path: path, bytes: try Self.readFile(path))
  }

  /// Reads a file (safe from any thread) to its end: a regular file, or a pipe, FIFO or device
  /// (`<(ssh r1 …)`, `/dev/stdin`; `/dev/null` is empty).
  static func readFile(_ path: String) throws(CommandFailure) -> [UInt8] {
    do throws(LocalFiles.Failure) { return try LocalFiles.read(path) } catch { throw CommandFailure(message: error.description, status: 2) }
  }

  /// The words of an `open`/`read` failure.
  static func reason(_ e: Int32) -> String { LocalFiles.reason(e) }

  /// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename), or to
  /// standard output when `path` is nil or `-`.
  func write(_ bytes: [UInt8], to path: String?) throws(CommandFailure) {
    guard let path, path != "-" else {
      console.out(bytes)
      return
    }
    try Self.writeAtomically(bytes, to: path)
  }

  /// Writes `bytes` to a temporary file beside `path` and renames it over `path`: a reader sees
  /// the old file or the whole new one. A file that exists keeps its permissions; a new one is
  /// 0644. Failures are exit 2 with the reason in words (`is a folder`, `no such folder`,
  /// `permission denied`), and leave no temporary file behind.
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
    func failure(_ why: String) -> CommandFailure {
      CommandFailure(message: "cannot write '\(path)': \(why)", status: ExitStatus.invalidInput)
    }
    var st = stat()
    let exists = stat(path, &st) == 0
    if exists && (st.st_mode & S_IFMT) == S_IFDIR { throw failure("is a folder (give a file name)") }
    let folder = (path as NSString).deletingLastPathComponent
    var dir = stat()
    guard stat(folder.isEmpty ? "." : folder, &dir) == 0, (dir.st_mode & S_IFMT) == S_IFDIR else {
      throw failure("no such folder '\(folder)'")
    }
    let name = (path as NSString).lastPathComponent
    var template = Array(((folder.isEmpty ? "" : folder + "/") + ".\(name).junoscope-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw failure(reason(errno)) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var problem: Int32 = 0
    var written = 0
    while written < bytes.count && problem == 0 {
      let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + written, $0.count - written) }
      if n > 0 {
        written += n
      } else if n < 0 && errno != EINTR {
        problem = errno
      }
    }
    if problem == 0 && fchmod(fd, exists ? st.st_mode & 0o7777 : 0o644) != 0 { problem = errno }
    if close(fd) != 0 && problem == 0 { problem = errno }
    if problem == 0 && rename(temporary, path) != 0 { problem = errno }
    if problem != 0 {
      unlink(temporary)
      throw failure(reason(problem))
    }
  }
}

/// Bytes read from a file or standard input.
struct SourceInput {
  var path: String
  var bytes: [UInt8]
}

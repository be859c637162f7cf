internal import Synchronization

/// A file's bytes with a table of line starts, so any byte offset maps to a line and column.
///
/// Columns are 1-based UTF-8 byte columns: a tab or a multi-byte character counts as its bytes.
public struct SourceFile: Sendable {
  /// The path shown in diagnostics (`-` or `<stdin>` for standard input).
  public let path: String
  /// The raw bytes, exactly as read. Invalid UTF-8 is kept as it is.
  public let bytes: [UInt8]
  /// Byte offset of the first byte of every line; `lineStarts[0] == 0`. Computed on first use
  /// (parsing curly text never needs it; diagnostics and locations do).
  public var lineStarts: [Int] { lines.table(for: bytes) }
  private let lines = LineTable()

  /// Creates a source file from raw bytes.
  ///
  /// - Parameters:
  ///   - path: The name used in diagnostics.
  ///   - bytes: The content, in any line-ending convention (LF, CRLF or CR).
  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  /// Creates a source file from a string (tests and generated text).
  public init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }

  /// The 1-based line and UTF-8 byte column of a byte offset.
  ///
  /// - Parameter offset: A byte offset in `0...bytes.count`.
  /// - Returns: The location; offsets past the end map to the end.
  public func location(of offset: Int) -> SourceLocation {
    let offset = max(0, min(offset, bytes.count))
    var lo = 0
    var hi = lineStarts.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
    }
    return SourceLocation(line: lo + 1, column: offset - lineStarts[lo] + 1)
  }

  /// Decodes a byte range as text (invalid UTF-8 becomes U+FFFD).
  public func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }
}

/// A 1-based line and 1-based UTF-8 byte column.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Line number, starting at 1.
  public var line: Int
  /// Byte column, starting at 1.
  public var column: Int

  /// Creates a location.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}

/// The line-start table of a ``SourceFile``, built once on first use (thread-safe).
private final class LineTable: Sendable {
  private let cache = Mutex<[Int]?>(nil)

  func table(for bytes: [UInt8]) -> [Int] {
    cache.withLock { cached in
      if let cached { return cached }
      let built = LineTable.build(bytes)
      cached = built
      return built
    }
  }

  /// One pass over the bytes; LF, CRLF and CR all end a line.
  static func build(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    starts.reserveCapacity(bytes.count / 24 + 1)
    bytes.withUnsafeBufferPointer { buf in
      let n = buf.count
      var i = 0
      /// Handles the byte at `i` and moves past it (past both bytes of a CRLF).
      func step() {
        let b = buf[i]
        if b == 0x0A {
          starts.append(i + 1)
        } else if b == 0x0D {
          if i + 1 < n && buf[i + 1] == 0x0A { i += 1 }
          starts.append(i + 1)
        }
        i += 1
      }
      // Eight bytes at a time: skip words that hold neither LF nor CR.
      if let base = buf.baseAddress, n >= 8 {
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
          let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          let lf = v ^ (ones &* 0x0A)
          let cr = v ^ (ones &* 0x0D)
          if ((lf &- ones) & ~lf & highs) | ((cr &- ones) & ~cr & highs) == 0 {
            i += 8
            continue
          }
          let stop = i + 8
          while i < stop { step() }
        }
      }
      while i < n { step() }
    }
    return starts
  }
}

extension [UInt8] {
  /// Whether the bytes hold `s` (ASCII) at offset `i`.
  package func has(_ s: StaticString, at i: Int) -> Bool {
    let count = s.utf8CodeUnitCount
    guard i >= 0, i + count <= self.count else { return false }
    let p = s.utf8Start
    for k in 0..<count where self[i + k] != p[k] { return false }
    return true
  }

  /// The first offset at or after `from` where `s` (ASCII, not empty) starts.
  package func offset(of s: StaticString, from: Int = 0) -> Int? {
    let first = s.utf8Start[0]
    var k = from
    while k < count {
      if self[k] == first && has(s, at: k) { return k }
      k += 1
    }
    return nil
  }
}

extension SourceFile {
  /// How many leading bytes ``binaryOffset`` looks at (git's heuristic looks at 8,000).
  public static let binaryProbeLength = 8192

  /// The offset of the first byte that shows the file is not text, or nil when it is text.
  ///
  /// Looks at the first ``binaryProbeLength`` bytes: a NUL byte (zoneinfo, images, executables
  /// and compressed archives hold one there; a configuration or capture never does) makes the
  /// file binary, and so does a probe in which one byte in ten is a control byte other than tab,
  /// line feed, carriage return, backspace, form feed and escape (raw terminal sessions hold those).
  /// Invalid UTF-8 alone does not: a Latin-1 description is still configuration text.
  public var binaryOffset: Int? {
    let probe = bytes.prefix(Self.binaryProbeLength)
    var controls = 0
    var first: Int?
    for (i, b) in probe.enumerated() where b < 0x20 || b == 0x7F {
      switch b {
      case 0x00: return i
      case 0x09, 0x0A, 0x0D, 0x08, 0x0C, 0x1B: continue
      default:
        controls += 1
        if first == nil { first = i }
      }
    }
    return controls * 10 >= max(probe.count, 1) && controls > 0 ? first : nil
  }
}

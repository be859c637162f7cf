internal import CZlib

/// gzip decompression through the system's zlib (`juniper.conf.N.gz` rollback files).
public enum Gzip {
  /// Why a gzip stream could not be read.
  public struct Failure: Error, Sendable, Equatable {
    /// zlib's description.
    public var message: String

    /// Creates a failure with a message.
    public init(message: String) { self.message = message }
  }

  /// Whether the bytes start with the gzip magic number.
  public static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }

  /// Decompresses a gzip file (several members, as `cat a.gz b.gz` makes, are read in turn).
  ///
  /// - Throws: ``Failure`` for corrupt or truncated data.
  public static func decompress(_ input: [UInt8]) throws(Failure) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(input.count * 4)
    var offset = 0
    while offset < input.count {
      // Trailing zero padding after the last member is allowed.
      if input[offset...].allSatisfy({ $0 == 0 }) { break }
      offset += try member(input, from: offset, into: &out)
    }
    return out
  }

  /// Inflates one member starting at `from`; returns the bytes it used.
  static func member(_ input: [UInt8], from: Int, into out: inout [UInt8]) throws(Failure) -> Int {
    var stream = z_stream()
    // 15 + 16: a gzip header and trailer around the deflate data.
    guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw Failure(message: "zlib could not start")
    }
    defer { inflateEnd(&stream) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let result: Result<Int, Failure> = input.withUnsafeBufferPointer { inBuf in
      stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress! + from)
      stream.avail_in = uInt(inBuf.count - from)
      while true {
        let status: Int32 = chunk.withUnsafeMutableBufferPointer { c in
          stream.next_out = c.baseAddress
          stream.avail_out = uInt(c.count)
          return inflate(&stream, Z_NO_FLUSH)
        }
        let produced = chunk.count - Int(stream.avail_out)
        out.append(contentsOf: chunk[..<produced])
        switch status {
        case Z_STREAM_END:
          return .success(inBuf.count - from - Int(stream.avail_in))
        case Z_OK:
          if stream.avail_in == 0 && produced == 0 { return .failure(Failure(message: "the gzip data is truncated")) }
        case Z_BUF_ERROR:
          if stream.avail_in == 0 { return .failure(Failure(message: "the gzip data is truncated")) }
        default:
          let text = stream.msg.map { String(cString: $0) } ?? "error \(status)"
          return .failure(Failure(message: "corrupt gzip data (\(text))"))
        }
      }
    }
    return try result.get()
  }

  /// Compresses bytes into one gzip member (no file name or time in the header, so the output
  /// depends on the input only), as the device writes `juniper.conf.N.gz`.
  public static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
    var stream = z_stream()
    guard
      deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { preconditionFailure("zlib could not start") }
    defer { deflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
    let written: Int = input.withUnsafeBufferPointer { inBuf in
      out.withUnsafeMutableBufferPointer { outBuf in
        stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
        stream.avail_in = uInt(inBuf.count)
        stream.next_out = outBuf.baseAddress
        stream.avail_out = uInt(outBuf.count)
        let status = deflate(&stream, Z_FINISH)
        precondition(status == Z_STREAM_END, "deflateBound was too small")
        return outBuf.count - Int(stream.avail_out)
      }
    }
    out.removeSubrange(written...)
    return out
  }
}

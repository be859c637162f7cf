// FuzzFiles.swift: reading a file in the fuzz binaries that read fixtures (no Foundation):
// Tests/Fuzz/run.sh compiles it into the parsers', history and checklist targets.

internal import Glibc

/// The bytes of the file at `path`, or `nil` when it cannot be opened.
func fuzzRead(_ path: String) -> [UInt8]? {
  guard let f = fopen(path, "rb") else { return nil }
  defer { fclose(f) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = fread(&chunk, 1, chunk.count, f)
    if n <= 0 { break }
    bytes += chunk[..<n]
  }
  return bytes
}

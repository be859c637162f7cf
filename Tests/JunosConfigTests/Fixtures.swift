import Foundation
import JunosConfig

/// Locates files under the top-level `Fixtures/` folder.
enum Fixtures {
  static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

  static func bytes(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: url(relative)))
  }

  static func source(_ relative: String) throws -> SourceFile {
    SourceFile(path: relative, bytes: try bytes(relative))
  }

  /// Relative paths of the files in a fixture folder, sorted.
  static func files(in folder: String, extensions: Set<String>? = nil) -> [String] {
    let dir = url(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    return names.filter { name in
      extensions.map { $0.contains((name as NSString).pathExtension) } ?? true
    }.sorted().map { "\(folder)/\($0)" }
  }
}

/// Parses text given inline in a test.
func parse(_ text: String, syntax: ConfigSyntax? = nil, path: String = "test.conf", model: ConfigModel = .standard) -> ParseResult {
  ConfigParser.parse(SourceFile(path: path, text: text), syntax: syntax, model: model)
}

extension Array where Element == UInt8 {
  var text: String { String(decoding: self, as: UTF8.self) }
}

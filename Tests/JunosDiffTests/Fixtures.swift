import Foundation
import JunosConfig
import JunosDiff
import Testing

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
  static func files(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
    return names.sorted().map { "\(folder)/\($0)" }
  }
}

/// Secrets shown: the only way a rendered diff can carry a changed secret back.
let secretsShown = RenderOptions(showSecrets: true)

/// UTF-8 bytes as a string, for expectations and messages.
func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// Parses curly text written in a test; any diagnostic is a mistake in the test.
func curly(_ text: String, path: String = "test.conf") -> ConfigTree {
  let result = ConfigParser.parse(SourceFile(path: path, text: text), syntax: .curly)
  if !result.diagnostics.isEmpty { Issue.record("test configuration does not parse: \(result.diagnostics.map(\.rendered))") }
  return result.tree
}

/// An order-insensitive text of a configuration: siblings sorted by their text, except entries
/// of the lists Junos evaluates in order (`term`, `policy`, `rule`, `rule-set`), which keep their
/// relative order after the others. Words, `[ ]` values, `inactive:`/`protect:` and annotations
/// count; `#` comments, `## Last commit` headers and layout do not. Secrets are shown.
func orderInsensitiveText(_ tree: ConfigTree) -> String {
  func render(_ n: NodeID) -> String {
    var s = ""
    if let a = tree.annotation(of: n) { s += "/* \(a) */ " }
    s += string(tree.statementText(n, secretsShown, prefixes: true))
    // `x { }` and `x;` are the same configuration.
    guard tree.isBlock(n), tree.firstChild(of: n) != nil else { return s + ";\n" }
    return s + " {\n" + childrenText(n) + "}\n"
  }
  func childrenText(_ p: NodeID) -> String {
    var plain: [String] = []
    var ordered: [String] = []
    for c in tree.children(of: p) {
      let isOrdered = tree.wordCount(of: c) > 1 && DiffOptions.standardOrderedKeywords.contains(tree.word(0, of: c))
      if isOrdered { ordered.append(render(c)) } else { plain.append(render(c)) }
    }
    return plain.sorted().joined() + ordered.joined()
  }
  return childrenText(ConfigTree.root)
}

/// The order-insensitive text of a tree's curly rendering (rendered with secrets, read back).
func orderInsensitiveCurly(_ tree: ConfigTree) -> String {
  let reparsed = ConfigParser.parse(SourceFile(path: "rendered", bytes: tree.renderCurly(secretsShown)), syntax: .curly)
  let problems = reparsed.diagnostics.map { "! \($0.rendered)\n" }.joined()
  return problems + orderInsensitiveText(reparsed.tree)
}

/// One line per entry of parsed compare text: `kind words`, for expectations.
func describe(_ text: CompareText) -> [String] {
  var out: [String] = []
  for hunk in text.hunks {
    out.append(hunk.path.isEmpty ? "[edit]" : "[edit \(hunk.path.joined(separator: " "))]")
    for entry in hunk.entries {
      switch entry {
      case .context(let s): out.append("context \(stubText(s))")
      case .added(let f, let n, _): out.append("added \(fragmentText(text.fragments[f], n))")
      case .deleted(let f, let n, _): out.append("deleted \(fragmentText(text.fragments[f], n))")
      case .flag(let tag, let s): out.append("flag \(tag) \(stubText(s))")
      case .moved(let s): out.append("moved \(stubText(s))")
      case .annotation(let old, let new, let s):
        out.append("annotation \(old.map { "'\($0)'" } ?? "nil") -> \(new.map { "'\($0)'" } ?? "nil") \(stubText(s))")
      }
    }
  }
  return out
}

private func stubText(_ s: CompareText.Stub) -> String {
  (s.words + (s.list.map { ["[", $0.joined(separator: " "), "]"] } ?? [])).joined(separator: " ")
}

/// A statement of a fragment: its line, and `{…N}` with the number of statements below it.
private func fragmentText(_ tree: ConfigTree, _ node: NodeID) -> String {
  var count = 0
  var stack = Array(tree.children(of: node))
  while let n = stack.popLast() {
    count += 1
    stack.append(contentsOf: tree.children(of: n))
  }
  let line = string(tree.statementText(node, secretsShown, prefixes: true))
  return tree.isBlock(node) ? "\(line) {…\(count)}" : line
}

/// Records an issue, with the differences left as Junos text, unless `to` is `from`'s
/// configuration.
func expectNoDifference(
  from: ConfigTree, to: ConfigTree, _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let diff = ConfigDiff(from: from, to: to)
  if !diff.isEmpty {
    Issue.record("\(comment): differences left:\n\(string(diff.renderJunos(secretsShown)))", sourceLocation: sourceLocation)
  }
}

/// Records an issue, with the lines only in one of them, unless two order-insensitive texts
/// are equal.
func expectSameText(_ actual: String, _ expected: String, _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  guard actual != expected else { return }
  let a = actual.split(separator: "\n")
  let e = expected.split(separator: "\n")
  let onlyActual = a.filter { !e.contains($0) }.prefix(10)
  let onlyExpected = e.filter { !a.contains($0) }.prefix(10)
  Issue.record(
    "\(comment): texts differ; only in actual: \(onlyActual), only in expected: \(onlyExpected)", sourceLocation: sourceLocation)
}

// FuzzCompare.swift: libFuzzer target for JunosDiff (compare-text parser, diff, apply).
//
// Not a SwiftPM target. Tests/Fuzz/run.sh compiles it with Sources/JunosConfig/*.swift and
// Sources/JunosDiff/*.swift as ONE module (their `import JunosConfig` lines are dropped), so
// there is no import here.
//
// FUZZ_SYNTAX=compare: the input is compare text. It must parse without trapping; when it parses
//   cleanly it is applied to an empty configuration and to a small fixed one (must not trap).
// FUZZ_SYNTAX=diff: the input is two curly configurations separated by a line `====`. When both
//   parse cleanly: the Junos rendering of their diff must parse cleanly and, applied to the
//   first, give a configuration with no difference from the second; the set rendering loaded
//   over the first must too (when both sides' own set renderings read back as themselves).
//   Traps print both renderings first.

internal import Glibc

let fuzzMode: String = {
  guard let value = getenv("FUZZ_SYNTAX") else { return "compare" }
  return String(cString: value)
}()

let fixedBase = ConfigParser.parse(
  SourceFile(
    path: "base",
    text: "system {\n    host-name r1;\n    services {\n        ssh;\n    }\n}\n"
      + "interfaces {\n    ge-0/0/0 {\n        unit 0 {\n            family inet {\n                address 10.0.0.1/24;\n            }\n        }\n    }\n}\n"
  ), syntax: .curly
).tree

private func failure(_ what: String, _ texts: [[UInt8]]) -> Never {
  let shown = texts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n--- next ---\n")
  fatalError("\(what)\n--- rendered ---\n\(shown)\n--- end ---")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if fuzzMode == "compare" {
    let text = CompareText.parse(SourceFile(path: "fuzz-input", bytes: bytes))
    _ = CompareText.looksLikeCompare(text.file)
    if !text.hasErrors {
      _ = text.apply(to: ConfigTree())
      _ = text.apply(to: fixedBase)
    }
    return 0
  }
  // diff: split at the first line that is exactly "====". Text that is not UTF-8 is left out:
  // context lines name statements by their words as text.
  guard String(validating: bytes, as: UTF8.self) != nil else { return 0 }
  let sep: [UInt8] = Array("\n====\n".utf8)
  var cut = -1
  if bytes.count >= sep.count {
    for i in 0...(bytes.count - sep.count) where bytes[i..<(i + sep.count)].elementsEqual(sep) {
      cut = i
      break
    }
  }
  guard cut >= 0 else { return 0 }
  let a = ConfigParser.parse(SourceFile(path: "a", bytes: Array(bytes[..<(cut + 1)])), syntax: .curly)
  let b = ConfigParser.parse(SourceFile(path: "b", bytes: Array(bytes[(cut + sep.count)...])), syntax: .curly)
  guard !a.hasErrors, !b.hasErrors else { return 0 }
  var aTree = a.tree
  aTree.mergeDuplicateBlocks()
  let shown = RenderOptions(showSecrets: true)
  let diff = ConfigDiff(from: a.tree, to: b.tree)
  let junos = diff.renderJunos(shown)
  let parsed = CompareText.parse(SourceFile(path: "junos", bytes: junos))
  if parsed.hasErrors { failure("Junos rendering does not parse: \(parsed.diagnostics.map(\.rendered))", [junos]) }
  let applied = parsed.apply(to: aTree)
  if applied.hasErrors { failure("Junos rendering does not apply: \(applied.diagnostics.map(\.rendered))", [junos]) }
  if !ConfigDiff(from: applied.tree, to: b.tree).isEmpty {
    failure("apply(compare(a, b), a) != b", [junos, ConfigDiff(from: applied.tree, to: b.tree).renderJunos(shown)])
  }
  // Set form names statements by the keyword table; where a side's own set rendering does not
  // read back as itself (`family in# et { … }`: three words where the table expects two), its
  // changes cannot be spelled as set commands either; nor where it has two values for a
  // single-valued statement (`load set` keeps the last).
  for side in [aTree, b.tree] {
    let own = ConfigParser.load(SourceFile(path: "own", bytes: side.renderSet(shown)), onto: ConfigTree())
    if own.hasErrors || !ConfigDiff(from: own.tree, to: side).isEmpty { return 0 }
  }
  let set = diff.renderSet(shown)
  let loaded = ConfigParser.load(SourceFile(path: "set", bytes: set), onto: aTree)
  if loaded.hasErrors { failure("set rendering does not load: \(loaded.diagnostics.map(\.rendered))", [set]) }
  if !ConfigDiff(from: loaded.tree, to: b.tree).isEmpty {
    failure("load(set(compare(a, b)), a) != b", [set, ConfigDiff(from: loaded.tree, to: b.tree).renderJunos(shown)])
  }
  return 0
}

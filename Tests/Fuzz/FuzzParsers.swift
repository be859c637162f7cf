// FuzzParsers.swift: libFuzzer target for JunosConfig's three parsers.
//
// Not a SwiftPM target. Tests/Fuzz/run.sh compiles this file together with
// Sources/JunosConfig/*.swift as ONE module (so there is no `import JunosConfig`):
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzJunos \
//     Sources/JunosConfig/*.swift Tests/Fuzz/FuzzParsers.swift -o /tmp/fuzz-junos
//
// Parser selection: the environment variable FUZZ_SYNTAX, read once per process:
// `curly` (the default when unset), `set` or `xml`. The whole input is configuration text (no
// selector byte), so the corpus can be real configuration files (run.sh adds their XML renderings
// for `xml`).
//
// For every input:
//   1. parse it with the selected parser and run the schema check (SchemaCheck) on the tree
//      (must never trap: ASan/libFuzzer report it if it does);
//   2. if there are no errors: render curly (secrets shown, comments kept), re-parse that as
//      curly, and trap if the re-parse reports errors or its tree differs from the first tree
//      (ConfigTree.firstDifference(from:));
//   3. render set as well (only checked for not crashing);
//   4. render XML (secrets shown, comments kept), re-parse that as XML (trap on errors), and
//      check parse(renderXML(t)) == t for that tree t: a statement holding a secret without the
//      device's `## SECRET-DATA` marker comes back with it, so the check is made on a tree read
//      from XML, which is in the device's form.
// Traps print the difference and the rendered text on standard error first.
//
// To go on fuzzing past a finding, either run libFuzzer in fork mode
// (FUZZ_ARGS="-fork=1 -ignore_crashes=1" Tests/Fuzz/run.sh ...), or temporarily skip the
// round-trip check for inputs that match the finding (that is how the first campaign went on;
// the findings were fixed and those filters removed).

internal import Glibc

/// The parser under test, from FUZZ_SYNTAX (read once, at the first input).
let fuzzSyntax: ConfigSyntax = {
  guard let value = getenv("FUZZ_SYNTAX") else { return .curly }
  switch String(cString: value) {
  case "", "curly": return .curly
  case "set": return .set
  case "xml": return .xml
  case let other:
    fputs("FuzzParsers: FUZZ_SYNTAX must be curly, set or xml, not '\(other)'\n", stderr)
    exit(2)
  }
}()

private func fuzzFailure(_ what: String, _ rendered: [UInt8], _ form: String = "curly") -> Never {
  let text = String(decoding: rendered, as: UTF8.self)
  fatalError("\(what)\n--- rendered \(form) (\(rendered.count) bytes) ---\n\(text)\n--- end ---")
}

/// parse(renderXML(tree)) == tree, for a tree in the device's form (secrets marked).
private func checkXML(_ tree: ConfigTree, _ options: RenderOptions) {
  let xml = tree.renderXML(options)
  let back = ConfigParser.parse(SourceFile(path: "rendered.xml", bytes: xml), syntax: .xml)
  if back.hasErrors {
    let messages = back.diagnostics.map(\.rendered).joined(separator: "\n")
    fuzzFailure("round trip: the rendered XML does not parse cleanly:\n\(messages)", xml, "XML")
  }
  if let difference = back.tree.firstDifference(from: tree) {
    fuzzFailure("round trip: parse(renderXML(tree)) != tree: \(difference)", xml, "XML")
  }
}

/// libFuzzer entry point: one input per call; returns 0 (the input may be kept in the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let input = SourceFile(path: "fuzz-input", bytes: bytes)
  let first = ConfigParser.parse(input, syntax: fuzzSyntax)
  // The schema check runs on whatever was read, broken input included (must not trap).
  _ = SchemaCheck().diagnostics(of: first.tree, in: input, model: .standard)
  guard !first.hasErrors else { return 0 }

  let options = RenderOptions(showSecrets: true, comments: true)
  let curly = first.tree.renderCurly(options)
  let again = ConfigParser.parse(SourceFile(path: "rendered", bytes: curly), syntax: .curly)
  if again.hasErrors {
    let messages = again.diagnostics.map(\.rendered).joined(separator: "\n")
    fuzzFailure("round trip: the rendered curly text does not parse cleanly:\n\(messages)", curly)
  }
  if let difference = again.tree.firstDifference(from: first.tree) {
    fuzzFailure("round trip: parse(renderCurly(tree)) != tree: \(difference)", curly)
  }

  let set = first.tree.renderSet(options)
  precondition(set.isEmpty || set.last == 0x0A, "renderSet output does not end with a newline")

  let xml = first.tree.renderXML(options)
  let fromXML = ConfigParser.parse(SourceFile(path: "rendered.xml", bytes: xml), syntax: .xml)
  if fromXML.hasErrors {
    let messages = fromXML.diagnostics.map(\.rendered).joined(separator: "\n")
    fuzzFailure("the rendered XML does not parse cleanly:\n\(messages)", xml, "XML")
  }
  checkXML(fromXML.tree, options)
  return 0
}

// MARK: - XML seeds

/// With FUZZ_XML_SEEDS=DIR (run.sh, for `xml`): the XML rendering of every file in DIR, and of
/// each of its top-level statements alone, as `xml_…` files beside them (those of at most 4096
/// bytes, the run's -max_len).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
  guard let dir = getenv("FUZZ_XML_SEEDS").map({ String(cString: $0) }), let d = opendir(dir) else { return 0 }
  var names: [String] = []
  while let e = readdir(d) {
    let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if !name.hasPrefix(".") && !name.hasPrefix("xml_") { names.append(name) }
  }
  closedir(d)
  let options = RenderOptions(showSecrets: true, comments: true)
  func write(_ bytes: [UInt8], _ name: String) {
    guard bytes.count <= 4096, let f = fopen("\(dir)/\(name)", "wb") else { return }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
  }
  for name in names {
    guard let bytes = fuzzRead("\(dir)/\(name)") else { continue }
    let tree = ConfigParser.parse(SourceFile(path: name, bytes: bytes)).tree
    write(tree.renderXML(options), "xml_\(name)")
    for (k, top) in tree.children(of: ConfigTree.root).enumerated() {
      var one = ConfigTree()
      one.graft(top, of: tree, under: ConfigTree.root)
      write(one.renderXML(options), "xml_\(name)_\(k)")
    }
  }
  return 0
}

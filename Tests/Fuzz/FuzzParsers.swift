// FuzzParsers.swift: libFuzzer target for JunosConfig's two parsers.
//
// Not a SwiftPM target. Tests/Fuzz/run.sh compiles this file together with
// Sources/JunosConfig/*.swift as ONE module (so there is no `import JunosConfig`):
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzJunos \
//     Sources/JunosConfig/*.swift Tests/Fuzz/FuzzParsers.swift -o /tmp/fuzz-junos
//
// Parser selection: the environment variable FUZZ_SYNTAX, read once per process:
// `curly` (the default when unset) or `set`. The whole input is configuration text (no selector
// byte), so the corpus can be real configuration files.
//
// For every input:
//   1. parse it with the selected parser and run the schema check (SchemaCheck) on the tree
//      (must never trap: ASan/libFuzzer report it if it does);
//   2. if there are no errors: render curly (secrets shown, comments kept), re-parse that as
//      curly, and trap if the re-parse reports errors or its tree differs from the first tree
//      (ConfigTree.firstDifference(from:));
//   3. render set as well (only checked for not crashing).
// Traps print the difference and the rendered text on standard error first.
//
// To go on fuzzing past a finding, either run libFuzzer in fork mode
// (FUZZ_ARGS="-fork=1 -ignore_crashes=1" Tests/Fuzz/run.sh ...), or temporarily skip the
// round-trip check for inputs that match the finding (that is how the first campaign went on;
// the findings were fixed and those filters removed).

import Glibc

/// The parser under test, from FUZZ_SYNTAX (read once, at the first input).
let fuzzSyntax: ConfigSyntax = {
  guard let value = getenv("FUZZ_SYNTAX") else { return .curly }
  switch String(cString: value) {
  case "", "curly": return .curly
  case "set": return .set
  case let other:
    fputs("FuzzParsers: FUZZ_SYNTAX must be curly or set, not '\(other)'\n", stderr)
    exit(2)
  }
}()

private func fuzzFailure(_ what: String, _ rendered: [UInt8]) -> Never {
  let text = String(decoding: rendered, as: UTF8.self)
  fatalError("\(what)\n--- rendered curly (\(rendered.count) bytes) ---\n\(text)\n--- end ---")
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
  return 0
}

import JunosConfig
import Testing

/// A catalogue of malformed inputs, each with the exact diagnostics it must produce.
@Suite struct DiagnosticTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var syntax: ConfigSyntax? = nil
    var expected: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "missing semicolon", text: "system {\n    host-name r1\n    domain-name x;\n}\n",
      expected: ["t:2:17: error: missing ';' at the end of the statement"]),
    Case(
      name: "missing close brace", text: "system {\n    host-name r1;\n",
      expected: ["t:3:1: error: missing '}': input ends inside 1 open block (outermost 'system', innermost 'system' opened at 1:1)"]),
    Case(
      name: "nested missing braces", text: "interfaces {\n    xe-0/0/0 {\n        unit 0 {\n",
      expected: ["t:4:1: error: missing '}': input ends inside 3 open blocks (outermost 'interfaces', innermost 'unit 0' opened at 3:9)"]),
    Case(
      name: "unbalanced close brace", text: "system {\n}\n}\nchassis;\n",
      expected: ["t:3:1: error: unexpected '}' with no block open"]),
    Case(
      name: "unterminated string", text: "system {\n    host-name \"r1;\n}\n",
      expected: ["t:2:15: error: missing '\"' to end the quoted string"]),
    Case(
      name: "unterminated comment", text: "/* note\nsystem { }\n",
      expected: ["t:1:1: error: missing '*/' to end the comment"]),
    Case(
      name: "unterminated list", text: "apply-groups [ a b;\n",
      expected: ["t:1:14: error: missing ']' to close the list"]),
    Case(
      name: "stray close bracket", text: "apply-groups a ];\n",
      expected: ["t:1:16: error: unexpected ']' without '['"]),
    Case(
      name: "block without name", text: "{\n}\n",
      expected: ["t:1:1: error: '{' without a statement name"]),
    Case(
      name: "control byte", text: "system {\u{1} host-name r1; }\n",
      expected: ["t:1:9: error: unexpected control byte 0x1"]),
    Case(
      name: "pager remnant", text: "system {\n    host-name r1;\n---(more 27%)---\n",
      expected: [
        "t:3:1: error: the capture stops at a pager prompt ('---(more 27%)---'): the configuration is truncated",
        "t:4:1: error: missing '}': input ends inside 1 open block (outermost 'system', innermost 'system' opened at 1:1)",
      ]),
    Case(
      name: "one diagnostic per bad stanza, no cascade",
      text: "system {\n    host-name r1\n    ntp {\n        server 10.0.0.1\n    }\n}\nchassis {\n    x \"y;\n}\n",
      expected: [
        "t:2:17: error: missing ';' at the end of the statement",
        "t:4:24: error: missing ';' at the end of the statement",
        "t:8:7: error: missing '\"' to end the quoted string",
      ]),
    Case(
      name: "columns are UTF-8 byte columns", text: "system {\n    location \"Zürich\" building\n}\n",
      expected: ["t:2:32: error: missing ';' at the end of the statement"]),
    Case(
      name: "CRLF line ends", text: "system {\r\n    host-name r1\r\n}\r\n",
      expected: ["t:2:17: error: missing ';' at the end of the statement"]),
    Case(
      name: "set: unknown command", text: "set system host-name r1\nsett system ntp\n",
      expected: [
        "t:2:1: error: unknown command 'sett' (expected set, delete, deactivate, activate, protect, unprotect, insert, annotate or rename)"
      ]),
    Case(
      name: "set: missing path", text: "set system host-name r1\ndeactivate\n",
      expected: ["t:2:1: error: 'deactivate' needs a statement path"]),
    Case(
      name: "set: unknown path", text: "set system host-name r1\ndeactivate system ntp\n",
      expected: ["t:2:12: error: 'deactivate': no statement 'system ntp' in the configuration"]),
    Case(
      name: "set: unterminated string", text: "set system host-name r1\nset system location \"Zürich\n",
      expected: ["t:2:21: error: missing '\"' to end the quoted string"]),
    Case(
      name: "set: insert without anchor", text: "set a term x\ninsert a term x before\n",
      expected: ["t:2:1: error: 'insert' needs: PATH before|after SIBLING"]),
    Case(
      name: "set: pager remnant", text: "set system host-name r1\n---(more)---\n",
      expected: ["t:2:1: error: the capture stops at a pager prompt ('---(more)---'): the configuration is truncated"]),
  ]

  @Test(arguments: cases)
  func diagnostics(_ c: Case) {
    let result = ConfigParser.parse(SourceFile(path: "t", text: c.text), syntax: c.syntax)
    #expect(result.diagnostics.map(\.rendered) == c.expected)
    #expect(result.hasErrors)
  }

  @Test func everyDiagnosticHasAStableID() {
    let result = parse("system {\n    host-name r1\n")
    #expect(result.diagnostics.map(\.id) == ["missingSemicolon", "missingCloseBrace"])
  }

  @Test func recoveryKeepsWhatCanBeUnderstood() {
    let result = parse("system {\n    host-name r1\n    domain-name example.net;\n}\nchassis {\n    alarm;\n}\n")
    let tree = result.tree
    let system = tree.child(of: ConfigTree.root, startingWith: ["system"])
    #expect(system != nil)
    #expect(tree.children(of: system!).map { tree.words(of: $0) } == [["host-name", "r1"], ["domain-name", "example.net"]])
    #expect(tree.child(of: ConfigTree.root, startingWith: ["chassis"]) != nil)
  }
}

import JunosConfig
import Testing

/// `check` as an offline `commit check` of syntax: each kind of problem, in both syntaxes, with
/// its place; real configurations stay clean.
@Suite struct SchemaCheckTests {
  func check(_ text: String, syntax: ConfigSyntax? = nil, lenient: Bool = false, model: ConfigModel = .standard) -> [String] {
    let file = SourceFile(path: "c.conf", text: text)
    let parsed = ConfigParser.parse(file, syntax: syntax, model: model)
    #expect(parsed.diagnostics.map(\.rendered) == [])
    return SchemaCheck(lenient: lenient).diagnostics(of: parsed.tree, in: file, model: model).map(\.rendered)
  }

  @Test func unknownKeywordIsAnErrorWithItsPlaceAndASuggestion() {
    #expect(
      check("system {\n    hots-name r1;\n}\n")
        == ["c.conf:2:5: error: unknown statement 'hots-name' under 'system'; did you mean 'host-name'?"])
    #expect(
      check("set system hots-name r1\n") == ["c.conf:1:12: error: unknown statement 'hots-name' under 'system'; did you mean 'host-name'?"])
    // Nothing below an unknown statement is reported again; no far-fetched suggestion.
    #expect(check("frobnicate {\n    host-name r1;\n}\n") == ["c.conf:1:1: error: unknown statement 'frobnicate' at the top level"])
    #expect(check("system {\n    hots-name r1;\n}\n", lenient: true).map { $0.contains(": warning: unknown statement") } == [true])
  }

  @Test func lenientWithLikelyMistakesKeepsTyposAndForeignFilesErrors() {
    func lint(_ text: String) -> [String] {
      let file = SourceFile(path: "c.conf", text: text)
      let parsed = ConfigParser.parse(file)
      return SchemaCheck(lenient: true, likelyMistakesAreErrors: true).diagnostics(of: parsed.tree, in: file, model: .standard).map(
        \.rendered)
    }
    // A statement of another release (an old EX's), beside statements the schema knows: a warning.
    #expect(
      lint("ethernet-switching-options {\n    storm-control;\n}\nsystem {\n    host-name r1;\n}\n")
        == ["c.conf:1:1: warning: unknown statement 'ethernet-switching-options' at the top level"])
    #expect(
      lint("routing-options {\n    no-multi-topology-routing;\n}\n")
        == ["c.conf:2:5: warning: unknown statement 'no-multi-topology-routing' under 'routing-options'"])
    // A typo, and a file none of whose top-level statements is Junos: errors.
    #expect(
      lint("system {\n    hots-name r1;\n}\n") == [
        "c.conf:2:5: error: unknown statement 'hots-name' under 'system'; did you mean 'host-name'?"
      ])
    #expect(
      lint("option domain-name \"example.org\";\ndefault-lease-time 600;\n") == [
        "c.conf:1:1: error: unknown statement 'option' at the top level",
        "c.conf:2:1: error: unknown statement 'default-lease-time' at the top level",
      ])
  }

  @Test func wordsAfterAValueOrFlag() {
    #expect(check("system {\n    host-name r1 extra;\n}\n") == ["c.conf:2:18: error: 'extra' is unexpected after 'host-name'"])
    #expect(check("set system no-redirects now\n") == ["c.conf:1:25: error: 'now' is unexpected after 'no-redirects'"])
  }

  @Test func valuesAreCheckedAgainstTheirTypes() {
    #expect(
      check("interfaces {\n    ge-0/0/0 {\n        mtu jumbo;\n    }\n}\n")
        == ["c.conf:3:13: error: 'jumbo' is not a valid mtu: expected an integer"])
    #expect(
      check("set protocols bgp group G hold-time 70000\n")
        == ["c.conf:1:37: error: '70000' is not a valid hold-time: expected an integer in 0 .. 65535"])
    #expect(
      check("set protocols bgp group G neighbor 10.0.0.300\n").map {
        $0.contains("'10.0.0.300' is not a valid neighbor: expected an IP address")
      }
        == [true])
    // Juniper's patterns, as POSIX reads them; a quoted value is checked without its quotes.
    #expect(
      check("set system host-name \"a b\"\n")
        == ["c.conf:1:22: error: 'a b' is not a valid host-name: expected a value matching '^[[:alnum:]._-]+$'"])
    #expect(check("set system host-name \"r1.lab\"\n") == [])
    #expect(check("set routing-options static route 10.0.0.0/33 discard\n").count == 1)
    #expect(check("set protocols ospf area 0.0.0.0 interface ge-0/0/0.0 interface-type pt2pt\n").count == 1)
    // Valid values, variables and group wildcards pass.
    #expect(check("set protocols bgp group G neighbor 2001:db8::1 peer-as 65000\nset interfaces ge-0/0/0 mtu 9192\n") == [])
    #expect(
      check("groups {\n    G {\n        interfaces {\n            <*> {\n                mtu 9192;\n            }\n        }\n    }\n}\n")
        == [])
  }

  /// One set line may give several values under one parent, as the CLI accepts it: `teardown 90
  /// idle-timeout 5` is the threshold and the idle timeout of `teardown`, not one odd value.
  @Test func severalValuesOnOneSetLine() {
    let text = "set protocols bgp group G family inet unicast prefix-limit teardown 90 idle-timeout 5\n"
    #expect(check(text) == [])
    let tree = parse(text).tree
    #expect(
      tree.renderSet(RenderOptions(showSecrets: true)).text
        == """
        set protocols bgp group G family inet unicast prefix-limit teardown 90
        set protocols bgp group G family inet unicast prefix-limit teardown idle-timeout 5

        """)
  }

  @Test func missingKeysAndValues() {
    #expect(check("system {\n    host-name;\n}\n") == ["c.conf:2:14: error: 'host-name' needs a value"])
    #expect(check("protocols {\n    bgp {\n        group;\n    }\n}\n") == ["c.conf:3:14: error: 'group' needs a name"])
  }

  @Test func aRepeatedSingleValuedLeafInBothSyntaxes() {
    let expected = ["c.conf:3:5: error: 'host-name' is set twice: 'host-name r2' here, 'host-name r1' at 2:5; it takes one value"]
    #expect(check("system {\n    host-name r1;\n    host-name r2;\n}\n") == expected)
    #expect(
      check("set system host-name r1\nset system host-name r2\n")
        == ["c.conf:2:12: error: 'host-name' is set twice: 'host-name r2' here, 'host-name r1' at 1:12; it takes one value"])
    // The same value twice is one statement.
    #expect(check("system {\n    host-name r1;\n    host-name r1;\n}\n") == [])
  }

  @Test func twoCasesOfOneChoice() {
    let text = """
      policy-options {
          policy-statement P {
              term T {
                  then accept;
                  then reject;
              }
          }
      }

      """
    #expect(check(text) == ["c.conf:5:18: error: 'reject' conflicts with 'accept' at 4:18: only one of them can be configured"])
    let set = "set policy-options policy-statement P term T then accept\nset policy-options policy-statement P term T then reject\n"
    #expect(check(set).count == 1)
    #expect(
      check("set policy-options policy-statement P term T then accept\nset policy-options policy-statement P term T then metric 5\n") == [])
  }

  @Test func oneFamilysSchema() throws {
    // `security policies` is SRX's; Junos on MX has no such hierarchy.
    let text = "set security policies from-zone trust to-zone untrust policy P then permit\n"
    #expect(check(text) == [])
    let mx = try #require(ConfigModel.standard.narrowed(toFamily: "junos"))
    let found = check(text, model: mx)
    #expect(found.count == 1 && found[0].contains("not in the schema of junos"), "\(found)")
    #expect(ConfigModel.standard.narrowed(toFamily: "ios") == nil)
  }

  /// Juniper's public configurations (Fixtures/configs/curly and set) check clean but for two
  /// hidden commands and NAPALM's deliberate typo.
  @Test func realConfigurationsCheckClean() throws {
    let files = Fixtures.files(in: "configs/curly") + Fixtures.files(in: "configs/set")
    #expect(files.count == 17)
    var found: [String] = []
    for path in files {
      let file = try Fixtures.source(path)
      let parsed = ConfigParser.parse(file)
      found += SchemaCheck().diagnostics(of: parsed.tree, in: file, model: .standard).map {
        "\(path.split(separator: "/").last!): \($0.message)"
      }
    }
    #expect(
      found.sorted() == [
        "jvd_ewan_wanedge2_mx10008.conf: unknown statement 'traceoptions' under 'ppm'",
        "jvd_llq_an4_acx7024.conf: unknown statement 'no-multi-topology-routing' under 'routing-options'",
        "jvd_llq_an4_acx7024.set: unknown statement 'no-multi-topology-routing' under 'routing-options'",
        "napalm_merge_typo.conf: unknown statement 'unt' under 'interface'; did you mean 'unit'?",
        "napalm_new_typo.conf: unknown statement 'unt' under 'interface'; did you mean 'unit'?",
      ])
  }
}

/// Inputs the fuzzer found (Tests/Fuzz, `SchemaCheck` in the loop).
@Suite struct SchemaCheckFuzzRegressionTests {
  /// A block without a statement name (`}{`) is a node without words: no word to report.
  @Test func statementWithoutWords() {
    let file = SourceFile(path: "f", bytes: Array("#\nif { something& s\u{FF} }{\n".utf8))
    let parsed = ConfigParser.parse(file)
    #expect(parsed.hasErrors)
    let found = SchemaCheck().diagnostics(of: parsed.tree, in: file, model: .standard)
    #expect(found.map(\.rendered) == ["f:2:1: error: unknown statement 'if' at the top level"])
  }
}

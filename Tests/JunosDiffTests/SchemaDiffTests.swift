import JunosConfig
import JunosDiff
import Testing

/// Differences by the schema's identities: a changed single value is one change in its block,
/// `insert` names an entry of the same list, and applying a compare replaces single values.
@Suite struct SchemaDiffTests {
  static func tree(_ text: String) -> ConfigTree {
    let r = ConfigParser.parse(SourceFile(path: "t", text: text), syntax: .curly)
    #expect(r.diagnostics.map(\.rendered) == [])
    return r.tree
  }

  @Test func changedHostNameIsOneChange() {
    let diff = ConfigDiff(from: Self.tree("system {\n    host-name r1;\n}\n"), to: Self.tree("system {\n    host-name r2;\n}\n"))
    #expect(diff.counts == ["changed": 1])
    #expect(String(decoding: diff.renderJunos(), as: UTF8.self) == "[edit system]\n-  host-name r1;\n+  host-name r2;\n")
    #expect(String(decoding: diff.renderSet(), as: UTF8.self) == "delete system host-name\nset system host-name r2\n")
  }

  @Test func insertNamesAnEntryOfTheSameList() {
    let base = """
      security {
          nat {
              source {
                  rule-set RS {
                      from zone trust;
                      to zone untrust;
                      rule R1 {
                          match {
                              source-address 10.0.0.0/8;
                          }
                          then {
                              source-nat {
                                  interface;
                              }
                          }
                      }
                  }
              }
          }
      }
      firewall {
          family inet {
              filter F {
                  interface-specific;
                  term A {
                      then accept;
                  }
              }
          }
      }

      """
    let new =
      base
      .replacingOccurrences(
        of: "                to zone untrust;\n",
        with: """
                          to zone untrust;
                          rule R0 {
                              match {
                                  source-address 192.0.2.0/24;
                              }
                              then {
                                  source-nat {
                                      off;
                                  }
                              }
                          }

          """
      )
      .replacingOccurrences(
        of: "            interface-specific;\n",
        with: "            interface-specific;\n            term BGP {\n                then accept;\n            }\n")
    let diff = ConfigDiff(from: Self.tree(base), to: Self.tree(new))
    let set = String(decoding: diff.renderSet(), as: UTF8.self)
    #expect(set.contains("insert security nat source rule-set RS rule R0 before rule R1\n"), "\(set)")
    #expect(set.contains("insert firewall family inet filter F term BGP before term A\n"), "\(set)")
    #expect(!set.contains(" after to"))
    #expect(!set.contains(" after interface-specific"))
    let loaded = ConfigParser.load(SourceFile(path: "set", bytes: Array(set.utf8)), onto: diff.old)
    #expect(loaded.diagnostics.map(\.rendered) == [])
    #expect(ConfigDiff(from: loaded.tree, to: diff.new).isEmpty)
  }

  @Test func applyingAnAddedSingleValueReplacesIt() {
    let base = Self.tree("system {\n    host-name r1;\n}\n")
    let text = CompareText.parse(SourceFile(path: "c", text: "[edit system]\n+  host-name r2;\n"))
    #expect(text.diagnostics.map(\.rendered) == [])
    let applied = text.apply(to: base)
    #expect(applied.diagnostics.map(\.rendered) == [])
    #expect(String(decoding: applied.tree.renderCurly(), as: UTF8.self) == "system {\n    host-name r2;\n}\n")
  }

  @Test func oneLinerAndBlockAreTheSameStatement() {
    let a = Self.tree("protocols {\n    isis {\n        overload timeout 300;\n    }\n}\n")
    let b = Self.tree("protocols {\n    isis {\n        overload {\n            timeout 300;\n        }\n    }\n}\n")
    #expect(ConfigDiff(from: a, to: b).isEmpty)
    let c = Self.tree("protocols {\n    isis {\n        overload {\n            timeout 600;\n        }\n    }\n}\n")
    let diff = ConfigDiff(from: a, to: c)
    #expect(diff.counts == ["changed": 1])
  }
}

import JunosConfig
import Testing

@Suite struct SetSyntaxTests {
  func curly(_ set: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
    let result = parse(set, syntax: .set)
    #expect(result.diagnostics.map(\.rendered) == [], sourceLocation: sourceLocation)
    return result.tree.renderCurly(RenderOptions(showSecrets: true)).text
  }

  @Test func keyedKeywordsAndOneliners() {
    let text = curly(
      """
      set interfaces xe-0/0/0 unit 0 family inet address 10.0.0.1/30
      set interfaces xe-0/0/0 unit 0 family iso
      set interfaces xe-0/0/0 disable
      set routing-options static route 10.32.32.130/32 next-hop 10.32.0.102
      set protocols bgp group EBGP neighbor 192.0.2.1 peer-as 65001
      set policy-options community C members 65000:1
      set policy-options community C members 65000:2
      set policy-options policy-statement P term T1 then accept
      set apply-groups G1
      set apply-groups G2
      """)
    #expect(
      text == """
        interfaces {
            xe-0/0/0 {
                unit 0 {
                    family inet {
                        address 10.0.0.1/30;
                    }
                    family iso;
                }
                disable;
            }
        }
        routing-options {
            static {
                route 10.32.32.130/32 next-hop 10.32.0.102;
            }
        }
        protocols {
            bgp {
                group EBGP {
                    neighbor 192.0.2.1 {
                        peer-as 65001;
                    }
                }
            }
        }
        policy-options {
            community C members [ 65000:1 65000:2 ];
            policy-statement P {
                term T1 {
                    then accept;
                }
            }
        }
        apply-groups [ G1 G2 ];

        """)
  }

  @Test func onelinerBecomesBlockWithASecondChild() {
    let text = curly(
      """
      set routing-options static route 0.0.0.0/0 next-hop 10.0.0.1
      set routing-options static route 0.0.0.0/0 preference 250
      """)
    #expect(text.contains("route 0.0.0.0/0 {\n            next-hop 10.0.0.1;\n            preference 250;\n        }"))
  }

  @Test func editingCommands() {
    let result = parse(
      """
      set policy-options policy-statement P term A from protocol bgp
      set policy-options policy-statement P term A then accept
      set policy-options policy-statement P term B then reject
      set policy-options policy-statement P term C then reject
      insert policy-options policy-statement P term C before term A
      deactivate policy-options policy-statement P term B
      annotate policy-options policy-statement P term A "main term"
      rename policy-options policy-statement P term B to term B2
      set system host-name r1
      set system ntp server 10.0.0.1
      delete system ntp
      protect system
      set snmp location "Zürich office"
      """, syntax: .set)
    #expect(result.diagnostics.map(\.rendered) == [])
    let tree = result.tree
    let ps = tree.child(of: tree.child(of: ConfigTree.root, startingWith: ["policy-options"])!, startingWith: ["policy-statement"])!
    #expect(tree.children(of: ps).map { tree.words(of: $0) } == [["term", "C"], ["term", "A"], ["term", "B2"]])
    let b2 = tree.child(of: ps, startingWith: ["term", "B2"])!
    #expect(tree.flags(of: b2).contains(.inactive))
    #expect(tree.annotation(of: tree.child(of: ps, startingWith: ["term", "A"])!) == "main term")
    let system = tree.child(of: ConfigTree.root, startingWith: ["system"])!
    #expect(tree.flags(of: system).contains(.protect))
    #expect(tree.child(of: system, startingWith: ["ntp"]) == nil)
    let snmp = tree.child(of: ConfigTree.root, startingWith: ["snmp"])!
    #expect(tree.words(of: tree.child(of: snmp, startingWith: ["location"])!) == ["location", "\"Zürich office\""])
  }

  @Test func deactivateLinesFollowTheObjectsSetLines() {
    let result = parse(
      """
      interfaces {
          xe-0/0/0 {
              inactive: unit 1 {
                  description "to core";
                  family inet {
                      address 10.1.1.1/30;
                  }
              }
              inactive: description down;
          }
      }
      protect: system {
          host-name r1;
      }

      """)
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.tree.renderSet().text == """
        set interfaces xe-0/0/0 unit 1 description "to core"
        set interfaces xe-0/0/0 unit 1 family inet address 10.1.1.1/30
        deactivate interfaces xe-0/0/0 unit 1
        set interfaces xe-0/0/0 description down
        deactivate interfaces xe-0/0/0 description
        set system host-name r1
        protect system

        """)
    // ... and they load back into the same tree.
    let back = parse(result.tree.renderSet().text, syntax: .set)
    #expect(back.diagnostics.isEmpty)
    #expect(back.tree.firstDifference(from: result.tree) == nil)
  }

  @Test func deleteThenSetAgainStartsAfresh() {
    #expect(
      curly(
        """
        set system ntp server 10.0.0.1
        delete system ntp
        set system ntp server 10.0.0.2
        """) == "system {\n    ntp {\n        server 10.0.0.2;\n    }\n}\n")
  }

  @Test func explicitListsInSetLines() {
    #expect(curly("set apply-groups [ a b c ]\n") == "apply-groups [ a b c ];\n")
  }

  /// Below a statement with few children the parser looks at the children, below one with many
  /// it asks its index: a deleted statement is found by neither.
  @Test(arguments: [2, 40])
  func aDeletedStatementIsNotFoundAgain(siblings: Int) {
    let others = (1..<siblings).map { "set interfaces ge-0/0/0 unit \($0) description u\($0)\n" }.joined()
    let text = curly(
      "set interfaces ge-0/0/0 unit 0 description old\n" + others
        + "delete interfaces ge-0/0/0 unit 0\nset interfaces ge-0/0/0 unit 0 family inet\n")
    #expect(!text.contains("old"), "\(text)")
    #expect(text.contains("        unit 0 {\n            family inet;\n        }\n"), "\(text)")
  }

  /// After a `rename`, what folds onto one line is decided by the statements' new shapes.
  @Test func renamedStatementsFoldByTheirNewShape() {
    let text = curly("set policy-options policy-statement P term T then accept\nrename policy-options policy-statement P term T to then\n")
    #expect(text.contains("then {\n            then {\n                accept;"), "\(text)")
  }
}

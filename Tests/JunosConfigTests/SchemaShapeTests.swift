import JunosConfig
import Testing

/// The answers that the learned keyword table got wrong on real configurations, now given by
/// Juniper's schema: set ↔ curly layout, `display set` lines, `load set` semantics and secrets.
@Suite struct SchemaShapeTests {
  func curly(_ set: String) -> String {
    let r = parse(set, syntax: .set)
    #expect(r.diagnostics.map(\.rendered) == [])
    return r.tree.renderCurly(RenderOptions(showSecrets: true)).text
  }

  func setLines(_ curly: String, showSecrets: Bool = true) -> [String] {
    let r = parse(curly, syntax: .curly)
    #expect(r.diagnostics.map(\.rendered) == [])
    return r.tree.renderSet(RenderOptions(showSecrets: showSecrets)).text.split(separator: "\n").map(String.init)
  }

  @Test func policyFromAndThen() {
    // One leaf child goes on the line (`from protocol bgp;`, `then accept;`); a list entry child
    // (`prefix-list PL1`, `route-filter …`) or two children make a block, as the device prints.
    let text = curly(
      """
      set policy-options policy-statement P term A from protocol bgp
      set policy-options policy-statement P term A then accept
      set policy-options policy-statement P term B from prefix-list PL1
      set policy-options policy-statement P term B then local-preference 200
      set policy-options policy-statement P term B then accept
      set policy-options policy-statement P term C from route-filter 0.0.0.0/0 exact
      set policy-options policy-statement P term C then reject
      """)
    #expect(
      text == """
        policy-options {
            policy-statement P {
                term A {
                    from protocol bgp;
                    then accept;
                }
                term B {
                    from {
                        prefix-list PL1;
                    }
                    then {
                        local-preference 200;
                        accept;
                    }
                }
                term C {
                    from {
                        route-filter 0.0.0.0/0 exact;
                    }
                    then reject;
                }
            }
        }

        """)
  }

  @Test func filterInputIsALeafOfFilter() {
    let text = curly(
      "set interfaces xe-0/0/0 unit 0 family inet filter input IN\nset interfaces xe-0/0/0 unit 0 family inet filter output OUT\n")
    #expect(
      text.contains("            family inet {\n                filter {\n                    input IN;\n                    output OUT;\n")
    )
  }

  @Test func onelinersWithSeveralLeaves() {
    // `oneliner` statements hold all their leaves on the line; `display set` prints one line a leaf.
    let device = """
      interfaces {
          irb {
              unit 351 {
                  family inet {
                      address 10.31.1.1/24 {
                          arp 10.31.1.2 l2-interface ae26.351 mac 00:11:22:33:44:55;
                      }
                  }
              }
          }
      }
      protocols {
          isis {
              source-packet-routing {
                  srgb start-label 16000 index-range 80000;
              }
          }
      }

      """
    let lines = setLines(device)
    #expect(
      lines == [
        "set interfaces irb unit 351 family inet address 10.31.1.1/24 arp 10.31.1.2 l2-interface ae26.351",
        "set interfaces irb unit 351 family inet address 10.31.1.1/24 arp 10.31.1.2 mac 00:11:22:33:44:55",
        "set protocols isis source-packet-routing srgb start-label 16000",
        "set protocols isis source-packet-routing srgb index-range 80000",
      ])
    #expect(curly(lines.joined(separator: "\n")) == device)
  }

  @Test func staticRoutes() {
    let device = """
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 192.0.2.1;
              route 10.0.0.0/8 {
                  next-hop 192.0.2.2;
                  preference 200;
              }
              route 10.1.0.0/16 next-hop [ 192.0.2.3 192.0.2.4 ];
              route 10.2.0.0/16 discard;
          }
      }

      """
    let lines = setLines(device)
    #expect(
      lines == [
        "set routing-options static route 0.0.0.0/0 next-hop 192.0.2.1",
        "set routing-options static route 10.0.0.0/8 next-hop 192.0.2.2",
        "set routing-options static route 10.0.0.0/8 preference 200",
        "set routing-options static route 10.1.0.0/16 next-hop 192.0.2.3",
        "set routing-options static route 10.1.0.0/16 next-hop 192.0.2.4",
        "set routing-options static route 10.2.0.0/16 discard",
      ])
    #expect(curly(lines.joined(separator: "\n")) == device)
  }

  @Test func groupsAndListsPrintedAsBlocks() {
    let text = curly(
      """
      set groups G1 system ntp server 192.0.2.1
      set system name-server 192.0.2.53
      set system host-name r1
      set apply-groups G1
      """)
    #expect(
      text == """
        groups {
            G1 {
                system {
                    ntp {
                        server 192.0.2.1;
                    }
                }
            }
        }
        system {
            name-server {
                192.0.2.53;
            }
            host-name r1;
        }
        apply-groups G1;

        """)
  }

  @Test func loadSetReplacesSingleValuesAndChoices() {
    let base = parse("system {\n    host-name r1;\n}\npolicy-options {\n    policy-statement P {\n        term T then accept;\n    }\n}\n")
      .tree
    let changes = SourceFile(
      path: "c.set",
      text: "set system host-name r2\nset policy-options policy-statement P term T then reject\nset system ntp server 192.0.2.1\n")
    let loaded = ConfigParser.load(changes, onto: base)
    #expect(loaded.diagnostics.map(\.rendered) == [])
    #expect(
      loaded.tree.renderSet().text == """
        set system host-name r2
        set system ntp server 192.0.2.1
        set policy-options policy-statement P term T then reject

        """)
  }

  @Test func readingDisplaySetKeepsARepeatedLeaf() {
    // A capture never repeats a single-valued leaf; a hand-made file that does keeps both, so
    // that `check` can say so.
    let r = parse("set system host-name r1\nset system host-name r2\n", syntax: .set)
    #expect(r.tree.renderSet().text == "set system host-name r1\nset system host-name r2\n")
  }

  @Test func secretsAreMaskedByTheSchema() {
    let device = """
      system {
          ntp {
              authentication-key 1 type md5 value "$9$abcdefgh";
              server 192.0.2.1 key 1;
          }
      }
      protocols {
          isis {
              interface et-0/0/0.0 {
                  level 2 hello-authentication-key "$9$isiskey";
              }
          }
          ospf {
              area 0.0.0.0 {
                  interface et-0/0/1.0 {
                      authentication {
                          md5 1 key "$9$ospfkey";
                      }
                  }
              }
          }
          bgp {
              group G {
                  authentication-key "$9$bgpkey";
              }
          }
      }
      snmp {
          v3 {
              usm {
                  local-engine {
                      user u1 {
                          authentication-sha {
                              authentication-key "$9$authkey";
                          }
                          privacy-aes128 {
                              privacy-key "$9$privkey";
                          }
                      }
                  }
              }
          }
      }

      """
    let tree = parse(device).tree
    let masked = tree.renderCurly().text
    let set = tree.renderSet().text
    let json = tree.renderJSON().text
    for secret in ["abcdefgh", "isiskey", "ospfkey", "bgpkey", "authkey", "privkey"] {
      #expect(!masked.contains(secret), "\(secret) in curly")
      #expect(!set.contains(secret), "\(secret) in set")
      #expect(!json.contains(secret), "\(secret) in JSON")
    }
    // The key id, type and other words stay.
    #expect(masked.contains(#"authentication-key 1 type md5 value "<masked>";"#))
    #expect(masked.contains(#"md5 1 key "<masked>";"#))
    #expect(masked.contains(#"level 2 hello-authentication-key "<masked>";"#))
    #expect(set.contains(#"set system ntp authentication-key 1 type md5"#))
    #expect(set.contains(#"set system ntp authentication-key 1 value "<masked>""#))
    #expect(tree.renderCurly(RenderOptions(showSecrets: true)).text == device)
  }

  @Test func curlyAndSetOfOneConfigurationAreEqual() {
    let device = """
      interfaces {
          xe-0/0/0 {
              hold-time up 2000 down 0;
              unit 0 {
                  family inet {
                      filter {
                          input IN;
                      }
                      address 10.0.0.1/31;
                  }
                  family iso;
              }
          }
      }
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 192.0.2.1;
          }
      }

      """
    let tree = parse(device).tree
    let set = tree.renderSet().text
    let back = parse(set, syntax: .set).tree
    #expect(back.firstDifference(from: tree) == nil)
    #expect(back.renderCurly().text == device)
  }
}

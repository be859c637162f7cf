import JunosConfig
import Testing

/// `ConfigTree.inheritance()`: the effective configuration with the origin of inherited
/// statements, and its `display inheritance` rendering.
///
/// The corpus has no `display inheritance` capture of group expansion (only of `apply-path`), so
/// the expected texts here are hand-checked against the form of public captures: a vSRX
/// (JUNOS 24.4R1) `show configuration | display inheritance` printing
/// `##` / `## 'vsrx-bert' was inherited from group 'node1'` / `##` at the statement's indentation
/// before `host-name vsrx-bert;`, and a switch capture naming the value of an inherited
/// `members` list.
@Suite struct InheritanceTests {
  func inherited(_ text: String, ranges: Bool = true) -> InheritedConfiguration {
    let parsed = parse(text)
    let ok = !parsed.hasErrors
    #expect(ok, "\(parsed.diagnostics.map(\.rendered))")
    return parsed.tree.inheritance(interfaceRanges: ranges)
  }

  @Test func aLeafFromAGroupIsNamedByItsValueAtItsIndentation() {
    let text = """
      groups {
          node1 {
              system {
                  host-name fw-b;
              }
          }
      }
      apply-groups node1;
      system {
          time-zone UTC;
      }
      """
    let out = inherited(text).renderCurly().text
    #expect(
      out == """
        system {
            time-zone UTC;
            ##
            ## 'fw-b' was inherited from group 'node1'
            ##
            host-name fw-b;
        }

        """)
    // no-comments: the same configuration without the notes; groups and apply-groups gone.
    #expect(inherited(text).renderCurly(RenderOptions(comments: false)).text == "system {\n    time-zone UTC;\n    host-name fw-b;\n}\n")
  }

  @Test func everyInheritedStatementIsNotedAndExplicitOnesAreNot() {
    let text = """
      groups {
          CORE {
              interfaces {
                  <ge-*> {
                      mtu 9192;
                      unit <*> {
                          family inet {
                              mtu 9000;
                          }
                      }
                  }
              }
          }
      }
      interfaces {
          apply-groups CORE;
          ge-0/0/0 {
              mtu 1500;
              unit 0 {
                  family inet {
                      address 10.0.0.1/31;
                  }
              }
          }
          xe-0/0/0 {
              unit 0;
          }
      }
      """
    let i = inherited(text)
    #expect(
      i.renderCurly().text == """
        interfaces {
            ge-0/0/0 {
                mtu 1500;
                unit 0 {
                    family inet {
                        address 10.0.0.1/31;
                        ##
                        ## '9000' was inherited from group 'CORE'
                        ##
                        mtu 9000;
                    }
                }
            }
            xe-0/0/0 {
                unit 0;
            }
        }

        """)
    #expect(i.sources == [.group("CORE")])
  }

  @Test func localWinsThenTheFirstListedGroupThenDeeperApplyGroups() {
    let text = """
      groups {
          A { interfaces { <*> { mtu 1000; description A; } } }
          B { interfaces { <*> { mtu 2000; description B; speed 10g; } } }
          C { interfaces { ge-0/0/1 { description C; } } }
      }
      apply-groups [ A B ];
      interfaces {
          ge-0/0/0 { mtu 9000; }
          ge-0/0/1 { apply-groups C; }
      }
      """
    let i = inherited(text)
    let set = i.configuration.renderSet(RenderOptions()).text
    #expect(
      set == """
        set interfaces ge-0/0/0 mtu 9000
        set interfaces ge-0/0/0 description A
        set interfaces ge-0/0/0 speed 10g
        set interfaces ge-0/0/1 description C
        set interfaces ge-0/0/1 mtu 1000
        set interfaces ge-0/0/1 speed 10g

        """)
    let t = i.configuration
    var origin: [String: String] = [:]
    for ifd in t.children(of: t.children(of: ConfigTree.root).first { _ in true }!) {
      for s in t.children(of: ifd) { origin["\(t.word(0, of: ifd)) \(t.word(0, of: s))"] = i.source(of: s)?.name ?? "-" }
    }
    #expect(
      origin == [
        "ge-0/0/0 mtu": "-", "ge-0/0/0 description": "A", "ge-0/0/0 speed": "B", "ge-0/0/1 description": "C",
        "ge-0/0/1 mtu": "A", "ge-0/0/1 speed": "B",
      ])
  }

  @Test func applyGroupsExceptStopsAGroupBelowItsLevel() {
    let text = """
      groups { G { interfaces { <*> { mtu 9000; } } } }
      apply-groups G;
      interfaces {
          ge-0/0/0 { description a; }
          ge-0/0/1 { apply-groups-except G; description b; }
      }
      """
    let set = inherited(text).configuration.renderSet(RenderOptions()).text
    #expect(set.contains("set interfaces ge-0/0/0 mtu 9000\n"))
    #expect(!set.contains("ge-0/0/1 mtu"))
  }

  @Test func interfaceRangeMembersAreExpandedAndExplicitConfigurationWins() {
    let text = """
      interfaces {
          interface-range ACCESS {
              member "ge-0/0/[0-2]";
              member ge-0/0/7;
              member-range ge-0/0/9 to ge-0/0/10;
              description access;
              mtu 1514;
          }
          ge-0/0/1 {
              description uplink;
          }
      }
      """
    let i = inherited(text)
    let set = i.configuration.renderSet(RenderOptions()).text.split(separator: "\n").filter { !$0.contains("interface-range") }
    #expect(
      set == [
        "set interfaces ge-0/0/1 description uplink", "set interfaces ge-0/0/1 mtu 1514",
        "set interfaces ge-0/0/0 description access", "set interfaces ge-0/0/0 mtu 1514",
        "set interfaces ge-0/0/2 description access", "set interfaces ge-0/0/2 mtu 1514",
        "set interfaces ge-0/0/7 description access", "set interfaces ge-0/0/7 mtu 1514",
        "set interfaces ge-0/0/9 description access", "set interfaces ge-0/0/9 mtu 1514",
        "set interfaces ge-0/0/10 description access", "set interfaces ge-0/0/10 mtu 1514",
      ])
    #expect(i.sources == [.interfaceRange("ACCESS")])
    #expect(i.renderCurly().text.contains("    ##\n    ## 'ge-0/0/0' was expanded from interface-range 'ACCESS'\n    ##\n    ge-0/0/0 {\n"))
    // Without interface ranges the tree is the one written.
    #expect(!inherited(text, ranges: false).hasInherited)
  }

  @Test func anInheritedSecretIsMaskedInTheNoteToo() {
    let text = """
      groups { AUTH { system { root-authentication { encrypted-password "$6$secret"; } } } }
      apply-groups AUTH;
      """
    let out = inherited(text).renderCurly().text
    #expect(!out.contains("secret"))
    #expect(out.contains("## '<masked>' was inherited from group 'AUTH'"))
    #expect(inherited(text).renderCurly(RenderOptions(showSecrets: true)).text.contains("## '$6$secret' was inherited from group 'AUTH'"))
  }

  /// A real device with `<*>` and `<ae*>` groups: the `display inheritance` text, its notes
  /// removed, parses back to the effective configuration.
  @Test func theNotesOfARealConfigurationStripToItsEffectiveTree() throws {
    let parsed = ConfigParser.parse(try Fixtures.source("configs/curly/jvd_mebs_an1_mx204.conf"))
    #expect(!parsed.hasErrors)
    let i = parsed.tree.inheritance(interfaceRanges: true)
    #expect(i.hasInherited)
    let shown = i.renderCurly(RenderOptions(showSecrets: true))
    let back = parse(InheritanceProperties.stripNotes(shown.text))
    let backOK = !back.hasErrors
    #expect(backOK)
    let same = back.tree.sameConfiguration(ConfigTree.root, as: ConfigTree.root, in: i.configuration)
    #expect(same)
  }
}

import JunosConfig
import Testing

/// `ConfigTree.effective()`: inactive statements dropped, groups expanded.
@Suite struct EffectiveConfigTests {
  /// The effective configuration of curly text, rendered as curly text.
  func effective(_ text: String) -> String {
    let parsed = parse(text)
    #expect(parsed.diagnostics.isEmpty)
    return parsed.tree.effective().renderCurly().text
  }

  /// The effective configuration of text, rendered as `display set` lines.
  func effectiveSet(_ text: String) -> [String] {
    parse(text).tree.effective().renderSet().text.split(separator: "\n").map(String.init)
  }

  // MARK: Inactive statements

  @Test func inactiveLeavesAndSubtreesAreDropped() {
    let text = """
      system {
          host-name r1;
          inactive: domain-name example.net;
      }
      inactive: interfaces {
          et-0/0/0 {
              mtu 9000;
          }
      }
      protocols {
          inactive: ospf {
              area 0.0.0.0 {
                  interface lo0.0;
              }
          }
          isis {
              interface et-0/0/0.0;
              inactive: interface et-0/0/1.0;
          }
      }

      """
    #expect(
      effective(text) == """
        system {
            host-name r1;
        }
        protocols {
            isis {
                interface et-0/0/0.0;
            }
        }

        """)
  }

  @Test func treeWithNothingToExpandComesBackUnchanged() throws {
    let parsed = parse(
      """
      /* core uplink */
      interfaces {
          et-0/0/0 {
              mtu 9000;
          }
      }

      """)
    let tree = parsed.tree
    let eff = tree.effective()
    #expect(eff.firstDifference(from: tree) == nil)
    let interfaces = try #require(eff.child(of: ConfigTree.root, startingWith: ["interfaces"]))
    let et = try #require(eff.child(of: interfaces, startingWith: ["et-0/0/0"]))
    let mtu = try #require(eff.child(of: et, startingWith: ["mtu"]))
    #expect(eff.words(of: mtu) == ["mtu", "9000"])
    #expect(eff.sourceRange(of: mtu) == 54..<63)
    #expect(eff.sourceRange(of: mtu) == tree.sourceRange(of: mtu))
    #expect(eff.annotation(of: interfaces) == "core uplink")
  }

  // MARK: Groups

  @Test func rootLevelGroupIsInheritedAndGroupsAreRemoved() {
    // `when` (conditions) and `apply-flags` belong to the group, not to the configuration.
    let text = """
      groups {
          COMMON {
              when {
                  model mx960;
              }
              system {
                  apply-flags omit;
                  domain-name example.net;
                  ntp {
                      server 192.0.2.1;
                  }
              }
              snmp {
                  community public;
              }
          }
      }
      apply-groups COMMON;
      system {
          host-name r1;
      }

      """
    #expect(
      effective(text) == """
        system {
            host-name r1;
            domain-name example.net;
            ntp {
                server 192.0.2.1;
            }
        }
        snmp {
            community public;
        }

        """)
  }

  @Test func groupAppliedAtANestedLevelInheritsOnlyThatLevel() {
    let text = """
      groups {
          JUMBO {
              system {
                  host-name from-group;
              }
              interfaces {
                  et-0/0/0 {
                      mtu 9192;
                      unit 0 {
                          family inet;
                      }
                  }
                  et-0/0/1 {
                      mtu 1500;
                  }
              }
          }
      }
      interfaces {
          et-0/0/0 {
              apply-groups JUMBO;
              description core;
          }
          et-0/0/1 {
              description edge;
          }
      }

      """
    #expect(
      effective(text) == """
        interfaces {
            et-0/0/0 {
                description core;
                mtu 9192;
                unit 0 {
                    family inet;
                }
            }
            et-0/0/1 {
                description edge;
            }
        }

        """)
  }

  @Test func wildcardsMatchExistingInterfacesOnly() {
    let text = """
      groups {
          ALL {
              interfaces {
                  <*> {
                      hold-time up 2000 down 0;
                  }
                  <ge-*> {
                      gigether-options {
                          flow-control;
                      }
                  }
                  "<[ex][te]-*/1>" {
                      mtu 9192;
                  }
                  <ae?> {
                      aggregated-ether-options {
                          minimum-links 1;
                      }
                  }
              }
          }
      }
      apply-groups ALL;
      interfaces {
          ge-0/0/0 {
              description a;
          }
          xe-0/0/1 {
              description b;
          }
          ae10 {
              description c;
          }
      }

      """
    #expect(
      effectiveSet(text) == [
        "set interfaces ge-0/0/0 description a",
        "set interfaces ge-0/0/0 hold-time up 2000",
        "set interfaces ge-0/0/0 hold-time down 0",
        "set interfaces ge-0/0/0 gigether-options flow-control",
        "set interfaces xe-0/0/1 description b",
        "set interfaces xe-0/0/1 hold-time up 2000",
        "set interfaces xe-0/0/1 hold-time down 0",
        "set interfaces xe-0/0/1 mtu 9192",
        "set interfaces ae10 description c",
        "set interfaces ae10 hold-time up 2000",
        "set interfaces ae10 hold-time down 0",
      ])
  }

  @Test func wildcardOnlyGroupCreatesNothingWithoutMatches() {
    let text = """
      groups {
          MTU {
              interfaces {
                  <et-*> {
                      mtu 9192;
                  }
              }
          }
      }
      apply-groups MTU;
      system {
          host-name r1;
      }

      """
    #expect(effectiveSet(text) == ["set system host-name r1"])
  }

  @Test func wildcardAtTheLevelWhereTheGroupIsApplied() {
    // Juniper's "peer entities" example: groups applied inside the statements they configure.
    let text = """
      groups {
          some-isp {
              interfaces {
                  <xe-*> {
                      gigether-options {
                          flow-control;
                      }
                  }
              }
              protocols {
                  bgp {
                      group <*> {
                          neighbor <*> {
                              remove-private;
                          }
                      }
                  }
                  pim {
                      interface <*> {
                          version 1;
                      }
                  }
              }
          }
      }
      interfaces {
          xe-0/0/0 {
              apply-groups some-isp;
              unit 0 {
                  family inet {
                      address 10.0.0.1/24;
                  }
              }
          }
      }
      protocols {
          bgp {
              group main {
                  neighbor 10.254.0.1 {
                      apply-groups some-isp;
                  }
              }
          }
          pim {
              interface xe-0/0/0.0 {
                  apply-groups some-isp;
              }
          }
      }

      """
    #expect(
      effectiveSet(text) == [
        "set interfaces xe-0/0/0 unit 0 family inet address 10.0.0.1/24",
        "set interfaces xe-0/0/0 gigether-options flow-control",
        "set protocols bgp group main neighbor 10.254.0.1 remove-private",
        "set protocols pim interface xe-0/0/0.0 version 1",
      ])
  }

  @Test func explicitBeatsEarlierGroupBeatsLaterGroup() {
    let text = """
      groups {
          FIRST {
              system {
                  host-name first;
                  domain-name first.example;
                  time-zone Europe/Paris;
              }
          }
          SECOND {
              system {
                  host-name second;
                  domain-name second.example;
                  time-zone UTC;
                  location {
                      building b2;
                  }
              }
          }
      }
      apply-groups [ FIRST SECOND ];
      system {
          host-name explicit;
      }

      """
    #expect(
      effectiveSet(text) == [
        "set system host-name explicit",
        "set system domain-name first.example",
        "set system time-zone Europe/Paris",
        "set system location building b2",
      ])
  }

  @Test func deeperApplyGroupsBeatsHigherOne() {
    // After Juniper's "regional configurations" example.
    let text = """
      groups {
          standard {
              interfaces {
                  <t3-*> {
                      encapsulation cisco-hdlc;
                      t3-options {
                          idle-cycle-flag ones;
                      }
                  }
              }
          }
          northwest {
              interfaces {
                  <t3-*> {
                      encapsulation ppp;
                      t3-options {
                          long-buildout;
                      }
                  }
              }
          }
      }
      apply-groups standard;
      interfaces {
          t3-0/0/0 {
              apply-groups northwest;
          }
      }

      """
    #expect(
      effectiveSet(text) == [
        "set interfaces t3-0/0/0 encapsulation ppp",
        "set interfaces t3-0/0/0 t3-options long-buildout",
        "set interfaces t3-0/0/0 t3-options idle-cycle-flag ones",
      ])
  }

  @Test func withinAGroupTheFirstMatchingStatementWins() {
    // After Juniper's wildcard example: values from <*a*> beat <*b*>, <*c*> beats <*d*>, and
    // any of them beats the literal `group abcd` listed after them.
    let text = """
      groups {
          one {
              protocols {
                  bgp {
                      group <*a*> {
                          preference 1;
                      }
                      group <*b*> {
                          preference 2;
                      }
                      group <*c*> {
                          local-as 65003;
                      }
                      group <*d*> {
                          local-as 65004;
                      }
                      group abcd {
                          preference 10;
                          local-as 65010;
                          peer-as 65100;
                      }
                  }
              }
          }
      }
      apply-groups one;
      protocols {
          bgp {
              group abcd {
                  type internal;
              }
              group xyz {
                  type external;
              }
          }
      }

      """
    #expect(
      effectiveSet(text) == [
        "set protocols bgp group abcd type internal",
        "set protocols bgp group abcd preference 1",
        "set protocols bgp group abcd local-as 65003",
        "set protocols bgp group abcd peer-as 65100",
        "set protocols bgp group xyz type external",
      ])
  }

  @Test func setSyntaxGroupsWithQuotedNamesApplyInListedOrder() {
    let text = """
      set groups "A" system domain-name a.example
      set groups "A" system location building a
      set groups B system domain-name b.example
      set groups B system time-zone UTC
      set apply-groups B
      set apply-groups "A"
      set system host-name r1

      """
    #expect(
      effectiveSet(text) == [
        "set system host-name r1",
        "set system domain-name b.example",
        "set system time-zone UTC",
        "set system location building a",
      ])
  }

  @Test func keyedStatementsMergeAndSingleValuesDoNotOverride() {
    let text = """
      groups {
          G {
              interfaces {
                  <*> {
                      mtu 9000;
                      description "from group";
                      unit 0 {
                          family inet {
                              address 10.9.9.9/32;
                          }
                      }
                      unit 100 {
                          vlan-id 100;
                      }
                  }
              }
          }
      }
      apply-groups G;
      interfaces {
          et-0/0/0 {
              description "explicit";
              mtu 1500;
              unit 0 {
                  family inet {
                      address 10.0.0.1/31;
                  }
              }
          }
      }

      """
    #expect(
      effectiveSet(text) == [
        "set interfaces et-0/0/0 description \"explicit\"",
        "set interfaces et-0/0/0 mtu 1500",
        "set interfaces et-0/0/0 unit 0 family inet address 10.0.0.1/31",
        "set interfaces et-0/0/0 unit 0 family inet address 10.9.9.9/32",
        "set interfaces et-0/0/0 unit 100 vlan-id 100",
      ])
  }

  @Test func setsInheritAllTheirValues() {
    let text = """
      groups {
          basic {
              system {
                  name-server {
                      10.0.0.100;
                  }
                  domain-search [ b.example c.example ];
              }
          }
      }
      apply-groups basic;
      system {
          name-server {
              10.0.0.1;
          }
          domain-search [ a.example b.example ];
      }

      """
    #expect(
      effectiveSet(text) == [
        "set system name-server 10.0.0.1",
        "set system name-server 10.0.0.100",
        "set system domain-search a.example",
        "set system domain-search b.example",
        "set system domain-search c.example",
      ])
  }

  @Test func applyGroupsExceptStopsTheGroupAtAndBelowItsLevel() {
    let text = """
      groups {
          MTU {
              interfaces {
                  <*> {
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
      apply-groups MTU;
      interfaces {
          et-0/0/0 {
              unit 0 {
                  apply-groups-except MTU;
                  family inet;
              }
          }
          et-0/0/1 {
              apply-groups-except MTU;
              unit 0 {
                  family inet;
              }
          }
      }

      """
    #expect(
      effectiveSet(text) == [
        "set interfaces et-0/0/0 unit 0 family inet",
        "set interfaces et-0/0/0 mtu 9192",
        "set interfaces et-0/0/1 unit 0 family inet",
      ])
  }

  @Test func inactiveGroupsAndApplyGroupsDoNotApply() {
    let text = """
      groups {
          inactive: A {
              system {
                  host-name from-a;
              }
          }
          B {
              system {
                  domain-name from-b.example;
                  inactive: time-zone UTC;
              }
          }
          C {
              system {
                  location {
                      building c;
                  }
              }
          }
          re0 {
              system {
                  backup-router 192.0.2.254;
              }
          }
      }
      apply-groups [ A B re0 ];
      inactive: apply-groups C;
      system {
          login {
              message hello;
          }
      }

      """
    #expect(
      effectiveSet(text) == [
        "set system login message hello",
        "set system domain-name from-b.example",
        "set system backup-router 192.0.2.254",
      ])
  }

  @Test func groupAddsStatementsAbsentFromTheConfiguration() {
    let text = """
      groups {
          NEW {
              interfaces {
                  lo0 {
                      unit 0 {
                          family inet {
                              address 192.0.2.1/32;
                          }
                      }
                  }
              }
              protocols {
                  lldp {
                      interface all;
                  }
              }
          }
      }
      apply-groups NEW;

      """
    #expect(
      effective(text) == """
        interfaces {
            lo0 {
                unit 0 {
                    family inet {
                        address 192.0.2.1/32;
                    }
                }
            }
        }
        protocols {
            lldp {
                interface all;
            }
        }

        """)
  }

  @Test func inheritedStatementsKeepTheGroupsSourceRangeAndAnnotation() throws {
    let text = """
      groups {
          G {
              interfaces {
                  <et-*> {
                      /* jumbo frames */
                      mtu 9192;
                  }
              }
              system {
                  domain-name example.net;
              }
          }
      }
      apply-groups G;
      interfaces {
          et-0/0/0 {
              description core;
          }
      }

      """
    let file = SourceFile(path: "g.conf", text: text)
    let tree = ConfigParser.parse(file).tree
    let eff = tree.effective()
    let interfaces = try #require(eff.child(of: ConfigTree.root, startingWith: ["interfaces"]))
    let et = try #require(eff.child(of: interfaces, startingWith: ["et-0/0/0"]))
    let description = try #require(eff.child(of: et, startingWith: ["description"]))
    let mtu = try #require(eff.child(of: et, startingWith: ["mtu"]))
    let system = try #require(eff.child(of: ConfigTree.root, startingWith: ["system"]))
    let domain = try #require(eff.child(of: system, startingWith: ["domain-name"]))
    #expect(file.location(of: eff.sourceRange(of: mtu).lowerBound).line == 6)
    #expect(file.text(eff.sourceRange(of: mtu)) == "mtu 9192;")
    #expect(eff.annotation(of: mtu) == "jumbo frames")
    #expect(file.location(of: eff.sourceRange(of: system).lowerBound).line == 9)
    #expect(file.location(of: eff.sourceRange(of: domain).lowerBound).line == 10)
    #expect(file.location(of: eff.sourceRange(of: interfaces).lowerBound).line == 15)
    #expect(file.location(of: eff.sourceRange(of: description).lowerBound).line == 17)
    #expect(eff.storage == tree.storage)
  }

  // MARK: Real configurations

  @Test func batfishApplyGroupsWildcardGroup() throws {
    // `groups EBGP protocols bgp group <EBGP-*> type external`, applied at `protocols bgp`;
    // RO and ROS are not defined.
    let parsed = ConfigParser.parse(try Fixtures.source("configs/mixed/batfish_apply-groups.txt"))
    let lines = parsed.tree.effective().renderSet().text.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "set system host-name apply-groups",
        "set protocols bgp group EBGP-FOO peer-as 65001",
        "set protocols bgp group EBGP-FOO local-as 65002",
        "set protocols bgp group EBGP-FOO type external",
        "set routing-options static",
      ])
  }

  @Test func batfishApplyGroupsListsRootGroup() throws {
    let file = try Fixtures.source("configs/mixed/batfish_apply-groups-lists.txt")
    let eff = ConfigParser.parse(file).tree.effective()
    let lines = eff.renderSet().text.split(separator: "\n").map(String.init)
    #expect(lines.first == "set system host-name apply-groups-lists")
    #expect(lines.contains("set firewall family inet filter F term T then accept"))
    #expect(lines.contains("set interfaces xe-0/0/0 unit 0 family inet filter input-list F"))
    #expect(lines.contains("set system domain-search foo.net"))
    #expect(lines.contains("set security policies from-zone Z to-zone Z policy P then permit"))
    #expect(lines.count == 14)
    #expect(lines.filter { $0.hasPrefix("set groups") || $0.hasPrefix("set apply-groups") }.isEmpty)
    // Inherited statements point at the group's `set` lines.
    let system = try #require(eff.child(of: ConfigTree.root, startingWith: ["system"]))
    let search = try #require(eff.child(of: system, startingWith: ["domain-search"]))
    #expect(file.location(of: eff.sourceRange(of: search).lowerBound).line == 15)
  }

  @Test func jvdDeviceDeeperGroupWinsOverRootGroup() throws {
    // ae11 applies GR-EDGE-INTF-MH (`<*> { mtu 9102; }`); the root applies AE-INTERFACE-MTU
    // (`<ae*> { mtu 9192; }`): the deeper level wins.
    let file = try Fixtures.source("configs/curly/jvd_mebs_an1_mx204.conf")
    let eff = ConfigParser.parse(file).tree.effective()
    let interfaces = try #require(eff.child(of: ConfigTree.root, startingWith: ["interfaces"]))
    let ae11 = try #require(eff.child(of: interfaces, startingWith: ["ae11"]))
    let mtu = try #require(eff.child(of: ae11, startingWith: ["mtu"]))
    #expect(eff.words(of: mtu) == ["mtu", "9102"])
    #expect(file.location(of: eff.sourceRange(of: mtu).lowerBound).line == 153)
    #expect(eff.children(of: ae11).filter { eff.word(0, of: $0) == "mtu" }.count == 1)
    // et-0/0/1 applies GR-CORE-INTF-LAG-MEMBER: `hold-time up 2000 down 0;` and optics alarms.
    let et1 = try #require(eff.child(of: interfaces, startingWith: ["et-0/0/1"]))
    let holdTime = try #require(eff.child(of: et1, startingWith: ["hold-time"]))
    #expect(eff.words(of: holdTime) == ["hold-time", "up", "2000", "down", "0"])
    let optics = try #require(eff.child(of: et1, startingWith: ["optics-options"]))
    #expect(
      eff.renderSet(statement: optics).text == """
        set interfaces et-0/0/1 optics-options alarm low-light-alarm link-down
        set interfaces et-0/0/1 optics-options warning low-light-warning syslog

        """)
    #expect(eff.child(of: ConfigTree.root, startingWith: ["groups"]) == nil)
    #expect(!eff.allStatements().contains { eff.wordCount(of: $0) > 0 && eff.word(0, of: $0).hasPrefix("apply-groups") })
  }

  // MARK: Property

  @Test func withoutGroupsEffectiveDropsExactlyTheInactiveStatements() {
    var rng = EffectiveTestRNG(state: 0x5EED_0F_EFFEC7)
    for round in 0..<200 {
      var tree = ConfigTree()
      var budget = 40
      grow(&tree, ConfigTree.root, depth: 0, budget: &budget, rng: &rng)
      var expected = ConfigTree()
      copyActive(tree, ConfigTree.root, into: &expected, ConfigTree.root)
      let difference = tree.effective().firstDifference(from: expected)
      #expect(difference == nil, "round \(round)")
    }
  }

  /// Adds random statements (containers, keyed blocks, values, lists, flags, annotations).
  func grow(_ t: inout ConfigTree, _ parent: NodeID, depth: Int, budget: inout Int, rng: inout EffectiveTestRNG) {
    let keywords = ["system", "interfaces", "protocols", "unit", "mtu", "description", "family", "export", "disable"]
    let values = ["0", "et-0/0/0", "\"a b\"", "10.0.0.1/31", "<*>", "9000"]
    for _ in 0..<Int.random(in: 1...4, using: &rng) where budget > 0 {
      budget -= 1
      let keyword = keywords.randomElement(using: &rng)!
      let block = depth < 4 && Bool.random(using: &rng)
      let words = Bool.random(using: &rng) ? [keyword] : [keyword, values.randomElement(using: &rng)!]
      let list = !block && Int.random(in: 0..<5, using: &rng) == 0 ? ["a", "b"] : nil
      let node = t.append(words: words, list: list, to: parent, block: block)
      if Int.random(in: 0..<5, using: &rng) == 0 { t.setFlags(.inactive, true, of: node) }
      if Int.random(in: 0..<8, using: &rng) == 0 { t.setFlags(.protect, true, of: node) }
      if Int.random(in: 0..<6, using: &rng) == 0 { t.setAnnotation("note", of: node) }
      if block { grow(&t, node, depth: depth + 1, budget: &budget, rng: &rng) }
    }
  }

  /// The naive reference: copies every statement that is not `inactive:`, recursively.
  func copyActive(_ t: ConfigTree, _ node: NodeID, into out: inout ConfigTree, _ dst: NodeID) {
    for c in t.children(of: node) where !t.flags(of: c).contains(.inactive) {
      let copy = out.append(words: t.words(of: c), list: t.listValues(of: c), to: dst, block: t.isBlock(c))
      out.setFlags(t.flags(of: c), true, of: copy)
      out.setAnnotation(t.annotation(of: c), of: copy)
      copyActive(t, c, into: &out, copy)
    }
  }
}

/// SplitMix64, seeded: the random trees are the same on every run.
struct EffectiveTestRNG: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

import JunosConfig
import JunosDiff
import Testing

/// `compare --inheritance` and what a group change reaches.
@Suite struct InheritanceDiffTests {
  /// A configuration with `count` interfaces ge-0/0/N and a group giving every `ge-` interface
  /// an MTU (and, when given, a description).
  static func config(count: Int, mtu: Int, description: String? = nil, applied: Bool = true) -> ConfigTree {
    var s = "groups {\n    CORE-IF {\n        interfaces {\n            \"<ge-*>\" {\n                mtu \(mtu);\n"
    if let d = description { s += "                description \"\(d)\";\n" }
    s += "            }\n        }\n    }\n}\n"
    if applied { s += "apply-groups CORE-IF;\n" }
    s += "system {\n    host-name r1;\n}\ninterfaces {\n"
    for i in 0..<count { s += "    ge-0/0/\(i) {\n        unit 0;\n    }\n" }
    s += "    xe-0/0/0 {\n        unit 0;\n    }\n}\n"
    return curly(s)
  }

  @Test func aGroupChangeReachesEveryInterfaceItMatches() {
    let reach = ConfigDiff.groupReach(from: Self.config(count: 48, mtu: 1500), to: Self.config(count: 48, mtu: 9192))
    #expect(reach.count == 1)
    let r = reach[0]
    #expect(r.group == "CORE-IF")
    #expect(r.definitionChanged)
    #expect(r.interfaces == (0..<48).map { "ge-0/0/\($0)" })
    #expect(r.statements.isEmpty)
    #expect(r.changes == 96)
    #expect(
      r.summary(device: "r1")
        == "this change to group 'CORE-IF' touched 48 interfaces on r1 (ge-0/0/0, ge-0/0/1, ge-0/0/2, ge-0/0/3, ge-0/0/4, … and 43 more)")
  }

  @Test func applyingAGroupIsAttributedToItAndAnUnchangedGroupIsNot() {
    let reach = ConfigDiff.groupReach(from: Self.config(count: 2, mtu: 1500, applied: false), to: Self.config(count: 2, mtu: 1500))
    #expect(reach.map(\.group) == ["CORE-IF"])
    #expect(reach.first?.definitionChanged == false)
    #expect(reach.first?.summary(device: "r1") == "this change to group 'CORE-IF' touched 2 interfaces on r1 (ge-0/0/0, ge-0/0/1)")
    // Nothing about groups changed: no reach, even though a new interface matches the group.
    #expect(ConfigDiff.groupReach(from: Self.config(count: 2, mtu: 1500), to: Self.config(count: 3, mtu: 1500)).isEmpty)
    #expect(ConfigDiff.groupReach(from: Self.config(count: 2, mtu: 1500), to: Self.config(count: 2, mtu: 1500)).isEmpty)
  }

  @Test func aGroupThatIsNotAppliedTouchesNothingAndOtherStatementsAreListed() {
    let unapplied = ConfigDiff.groupReach(
      from: Self.config(count: 2, mtu: 1500, applied: false), to: Self.config(count: 2, mtu: 9000, applied: false))
    #expect(unapplied.map(\.group) == ["CORE-IF"])
    #expect(
      unapplied[0].summary(device: "r1")
        == "this change to group 'CORE-IF' touched nothing on r1 (the effective configuration is the same where it applies)")
    let old = curly("groups { G { protocols { isis { level 2 wide-metrics-only; } } } }\napply-groups G;\n")
    let new = curly("groups { G { protocols { isis { overload; } } } }\napply-groups G;\n")
    let r = ConfigDiff.groupReach(from: old, to: new)
    #expect(r.count == 1)
    #expect(
      r.first?.summary(device: "r2")
        == "this change to group 'G' touched 2 statements on r2 ([edit protocols isis] level 2 wide-metrics-only, [edit protocols isis] overload)"
    )
  }

  @Test func compareInheritanceMarksInheritedStatementsWithTheirGroup() {
    let d = InheritanceDiff(from: Self.config(count: 1, mtu: 1500), to: Self.config(count: 1, mtu: 9192, description: "core"))
    #expect(
      string(d.renderJunos()) == """
        [edit interfaces ge-0/0/0]
        -   ## inherited from group 'CORE-IF'
        -   mtu 1500;
        +   ## inherited from group 'CORE-IF'
        +   mtu 9192;
        +   ## inherited from group 'CORE-IF'
        +   description "core";

        """)
    // The plain difference of the same inputs is only the group's lines.
    let plain = string(ConfigDiff(from: Self.config(count: 1, mtu: 1500), to: Self.config(count: 1, mtu: 9192)).renderJunos())
    #expect(plain.hasPrefix("[edit groups CORE-IF interfaces \"<ge-*>\"]\n"))
  }

  @Test func aWholeInheritedBlockIsMarkedOnceAndExplicitStatementsAreNot() {
    let old = curly("interfaces { ge-0/0/0 { unit 0; } }\n")
    let new = curly(
      """
      groups { G { interfaces { <*> { unit 0 { family inet { mtu 9000; } family iso; } } } } }
      apply-groups G;
      interfaces { ge-0/0/0 { unit 0; } ge-0/0/1 { description new; } }
      """)
    let d = InheritanceDiff(from: old, to: new)
    let text = string(d.renderJunos())
    #expect(
      text.hasPrefix(
        "[edit interfaces ge-0/0/0 unit 0]\n+     ## inherited from group 'G'\n+     family inet {\n+         mtu 9000;\n+     }\n"))
    #expect(
      text.contains(
        "+   ge-0/0/1 {\n+       description new;\n+       ## inherited from group 'G'\n+       unit 0 {\n+           family inet {\n"))
    // family inet, family iso, and the unit of ge-0/0/1 (not what is inside it).
    #expect(text.components(separatedBy: "## inherited").count - 1 == 3)
  }
}

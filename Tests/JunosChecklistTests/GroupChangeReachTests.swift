import JunosChecklist
import JunosConfig
import Testing

/// Rule 29, `group-change-reach`.
@Suite struct GroupChangeReachTests {
  /// `display set` text of a router with `count` ge- interfaces and a group setting their MTU.
  static func base(_ count: Int) -> String {
    var s = "set system host-name r1\nset groups CORE-IF interfaces <ge-*> mtu 9192\nset apply-groups CORE-IF\n"
    for i in 0..<count { s += "set interfaces ge-0/0/\(i) unit 0 family inet address 10.0.\(i).1/31\n" }
    return s + "set interfaces lo0 unit 0 family inet address 10.255.0.1/32\n"
  }

  @Test func aGroupChangeIsReportedWithTheInterfacesItReaches() {
    let findings = lintChange(Self.base(12), "set groups CORE-IF interfaces <ge-*> mtu 1500\n").filter { $0.rule == .groupChangeReach }
    #expect(findings.count == 1)
    let f = findings.first
    #expect(f?.severity == .info)
    #expect(
      f?.message
        == "this change to group 'CORE-IF' touched 12 interfaces on r1 (ge-0/0/0, ge-0/0/1, ge-0/0/2, ge-0/0/3, ge-0/0/4, … and 7 more)")
    #expect(f?.location.file == "d.set")
    #expect(f?.location.line == 1)
  }

  @Test func removingTheApplyGroupsIsAGroupChangeToo() {
    let findings = lintChange(Self.base(3), "delete apply-groups CORE-IF\n").filter { $0.rule == .groupChangeReach }
    #expect(findings.map(\.message) == ["this change to group 'CORE-IF' touched 3 interfaces on r1 (ge-0/0/0, ge-0/0/1, ge-0/0/2)"])
  }

  @Test func silentWhenNoGroupChanged() {
    let findings = lintChange(
      Self.base(3), "set interfaces ge-0/0/7 unit 0 family inet address 10.0.7.1/31\nset interfaces ge-0/0/1 mtu 1400\n")
    #expect(!findings.contains { $0.rule == .groupChangeReach })
  }
}

extension GroupChangeReachTests {
  /// Junos prints a wildcard quoted in curly text and bare in set commands: a set change reaches
  /// the group statement of a curly baseline.
  @Test func aSetChangeToAQuotedWildcardOfACurlyBaselineReachesIt() {
    let base = """
      system { host-name r1; }
      groups { CORE-IF { interfaces { "<ge-*>" { mtu 9192; } } } }
      apply-groups CORE-IF;
      interfaces { ge-0/0/0 { unit 0; } ge-0/0/1 { unit 0; } }
      """
    let r = Checklist.lint(
      changes: SourceFile(path: "d.set", text: "set groups CORE-IF interfaces <ge-*> mtu 1500\n"),
      baseline: SourceFile(path: "base.conf", text: base))
    #expect(!r.hasErrors)
    #expect(
      r.findings.filter { $0.rule == .groupChangeReach }.map(\.message) == [
        "this change to group 'CORE-IF' touched 2 interfaces on r1 (ge-0/0/0, ge-0/0/1)"
      ])
  }
}

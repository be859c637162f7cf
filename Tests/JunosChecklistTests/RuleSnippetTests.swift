import JunosChecklist
import JunosConfig
import Testing

/// Lints `display set` text as a full configuration.
func lintConfig(_ text: String, options: LintOptions = LintOptions()) -> [Finding] {
  let r = Checklist.lint(config: SourceFile(path: "c.set", text: text), options: options)
  #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
  return r.findings
}

/// Lints set/delete commands over a baseline in set form.
func lintChange(_ base: String, _ changes: String) -> [Finding] {
  let r = Checklist.lint(changes: SourceFile(path: "d.set", text: changes), baseline: SourceFile(path: "base.set", text: base))
  #expect(!r.hasErrors, "\(r.diagnostics.map(\.rendered))")
  return r.findings
}

/// Lints a plan whose files are given by name.
func lintPlan(_ plan: String, files: [String: String] = [:], options: LintOptions = LintOptions()) -> LintResult {
  Checklist.lint(plan: SourceFile(path: "p.plan", text: plan), options: options) { name in
    guard let text = files[name] else { throw PlanFileMissing(name: name) }
    return SourceFile(path: name, text: text)
  }
}

struct PlanFileMissing: Error {
  var name: String
}

func rules(_ findings: [Finding]) -> Set<String> { Set(findings.map(\.rule.rawValue)) }

func fired(_ findings: [Finding], _ rule: RuleID) -> [Finding] { findings.filter { $0.rule == rule } }

/// CHECKLIST.md's fire / does-not-fire snippets, one pair per configuration rule.
@Suite struct ConfigRuleSnippetTests {
  static let aggregateExported = """
    set routing-options aggregate route 10.0.0.0/8
    set policy-options policy-statement DC-FABRIC-OUT term summaries from protocol aggregate
    set policy-options policy-statement DC-FABRIC-OUT term summaries then accept
    set policy-options policy-statement DC-FABRIC-OUT term rest then reject
    set protocols bgp group DC-FABRIC type external
    set protocols bgp group DC-FABRIC peer-as 65100
    set protocols bgp group DC-FABRIC export DC-FABRIC-OUT
    set protocols bgp group DC-FABRIC neighbor 10.32.0.1

    """

  static let aggFromCore = """
    set policy-options policy-statement AGG-FROM-CORE term not-local from protocol [ direct local static aggregate ]
    set policy-options policy-statement AGG-FROM-CORE term not-local then reject
    set policy-options policy-statement AGG-FROM-CORE term core-igp from protocol isis
    set policy-options policy-statement AGG-FROM-CORE term core-igp then accept
    set policy-options policy-statement AGG-FROM-CORE term rest then reject

    """

  @Test func rule1UnconditionalAggregateExported() throws {
    let f = fired(lintConfig(Self.aggregateExported), .unconditionalAggregateExported)
    #expect(f.count == 1)
    let one = try #require(f.first)
    #expect(one.severity == .error)
    #expect(one.path == "routing-options aggregate route 10.0.0.0/8")
    #expect(one.location == FindingLocation(file: "c.set", line: 1, column: 1))
    #expect(one.message.contains("eBGP group DC-FABRIC") && one.message.contains("term summaries"))
    let quiet = Self.aggregateExported.replacingFirst(
      "set routing-options aggregate route 10.0.0.0/8\n", with: "set routing-options aggregate route 10.0.0.0/8 policy AGG-FROM-CORE\n")
    #expect(fired(lintConfig(quiet + Self.aggFromCore), .unconditionalAggregateExported).isEmpty)
    // Exported only to iBGP: a warning.
    let ibgp = Self.aggregateExported.replacingFirst("type external", with: "type internal").replacingFirst(
      "set protocols bgp group DC-FABRIC peer-as 65100\n", with: "")
    #expect(
      fired(lintConfig(ibgp + "set routing-options autonomous-system 64500\n"), .unconditionalAggregateExported).map(\.severity) == [
        .warning
      ])
    // Gated by a condition on a core route (CHECKLIST.md's third alternative): quiet.
    let gated =
      Self.aggregateExported + """
        set policy-options condition CORE-REACHABLE if-route-exists 10.255.0.12/32
        set policy-options condition CORE-REACHABLE if-route-exists table inet.0
        set policy-options policy-statement DC-FABRIC-OUT term summaries from condition CORE-REACHABLE

        """
    #expect(fired(lintConfig(gated), .unconditionalAggregateExported).isEmpty)
    // Not exported at all: quiet.
    #expect(fired(lintConfig("set routing-options aggregate route 10.0.0.0/8\n"), .unconditionalAggregateExported).isEmpty)
  }

  @Test func rule2AggregateActivatedWithoutCore() throws {
    let fire = """
      set interfaces lo0 unit 0 family inet address 10.255.0.11/32
      set routing-options aggregate route 10.0.0.0/8

      """
    let f = fired(lintConfig(fire), .aggregateActivatedWithoutCore)
    #expect(f.count == 1)
    #expect(f.first?.severity == .warning)  // not exported
    #expect(f.first?.message.contains("lo0.0 10.255.0.11/32") == true)
    let quiet = """
      set interfaces lo0 unit 0 family inet address 10.255.0.11/32
      set routing-options aggregate route 10.0.0.0/8 policy AGG-FROM-CORE

      """
    #expect(fired(lintConfig(quiet + Self.aggFromCore), .aggregateActivatedWithoutCore).isEmpty)
    // Exported and kept up by the loopback: an error.
    let exported = fired(
      lintConfig(Self.aggregateExported + "set interfaces lo0 unit 0 family inet address 10.255.0.11/32\n"), .aggregateActivatedWithoutCore)
    #expect(exported.map(\.severity) == [.error])
  }

  @Test func rule3PassiveAggregate() {
    #expect(
      fired(lintConfig("set routing-options aggregate route 172.16.0.0/12 passive\n"), .aggregatePassiveAlwaysInstalled).map(\.severity)
        == [.warning])
    #expect(
      fired(
        lintConfig("set routing-options aggregate route 172.16.0.0/12 policy AGG-FROM-CORE\n" + Self.aggFromCore),
        .aggregatePassiveAlwaysInstalled
      ).isEmpty)
  }

  @Test func rule7CostedOutButAttractingViaBGP() {
    let base = """
      set interfaces et-0/0/4 description "Client: spine1"
      set interfaces et-0/0/4 unit 0 family inet address 10.32.0.0/31
      set routing-options aggregate route 10.0.0.0/8
      set policy-options policy-statement DC-FABRIC-OUT term rfc1918 from protocol aggregate
      set policy-options policy-statement DC-FABRIC-OUT term rfc1918 then accept
      set protocols bgp group DC-FABRIC type external
      set protocols bgp group DC-FABRIC export DC-FABRIC-OUT
      set protocols bgp group DC-FABRIC neighbor 10.32.0.1 peer-as 65100
      set protocols isis overload

      """
    #expect(fired(lintConfig(base), .costedOutNodeStillAttractsViaBGP).count == 1)
    #expect(fired(lintConfig(base + "deactivate protocols bgp group DC-FABRIC\n"), .costedOutNodeStillAttractsViaBGP).isEmpty)
    #expect(fired(lintConfig(base + "set interfaces et-0/0/4 disable\n"), .costedOutNodeStillAttractsViaBGP).isEmpty)
  }

  @Test func rule9ConflictingEvidence() {
    let conflict = """
      set interfaces et-0/0/7 unit 0 family inet address 10.9.9.0/31
      set interfaces et-0/0/7 unit 0 family ethernet-switching
      set protocols isis interface et-0/0/7.0

      """
    #expect(fired(lintConfig(conflict), .interfaceRoleUnclassified).count == 1)
    var options = LintOptions()
    options.roleRules.explicit["et-0/0/7"] = .client
    #expect(fired(lintConfig(conflict, options: options), .interfaceRoleUnclassified).isEmpty)
  }

  @Test func rule10UndefinedInterface() {
    let f = fired(lintConfig("set protocols ldp interface xe-1/0/0.0\n"), .protocolReferencesUndefinedInterface)
    #expect(f.count == 1)
    #expect(f.first?.severity == .warning)
    let quiet = """
      set interfaces et-0/0/0 unit 0 family mpls
      set protocols ldp interface et-0/0/0.0
      set protocols ldp interface all

      """
    #expect(fired(lintConfig(quiet), .protocolReferencesUndefinedInterface).isEmpty)
  }

  @Test func rule11LDPSync() {
    let fire = """
      set interfaces et-0/0/0 unit 0 family iso
      set protocols isis interface et-0/0/0.0 point-to-point
      set protocols ldp interface et-0/0/0.0

      """
    #expect(fired(lintConfig(fire), .ldpIGPSyncMissing).map(\.path) == ["protocols isis interface et-0/0/0.0"])
    #expect(fired(lintConfig(fire + "set protocols isis interface et-0/0/0.0 ldp-synchronization\n"), .ldpIGPSyncMissing).isEmpty)
  }

  static let cos = """
    set class-of-service forwarding-classes class best-effort queue-num 0
    set class-of-service classifiers dscp CORE-DSCP forwarding-class bulk loss-priority high code-points 001000
    set class-of-service schedulers SCHED-BE transmit-rate percent 55
    set class-of-service scheduler-maps CORE-MAP forwarding-class best-effort scheduler SCHED-BE
    set class-of-service interfaces et-0/0/0 scheduler-map CORE-MAP
    set class-of-service interfaces et-0/0/0 unit 0 classifiers dscp CORE-DSCP

    """

  @Test func rule12CoreLinkWithoutCoS() {
    let core = """
      set interfaces et-0/0/0 description "Core: cr2-dc2 et-1/0/0"
      set interfaces et-0/0/0 unit 0 family iso

      """
    #expect(fired(lintConfig(core), .coreLinkWithoutCoS).map(\.severity) == [.warning])
    #expect(fired(lintConfig(core + Self.cos), .coreLinkWithoutCoS).isEmpty)
  }

  @Test func rule18MatchAllAccept() {
    let fire = """
      set policy-options policy-statement ISIS-EXPORT term all then accept
      set protocols isis export ISIS-EXPORT

      """
    #expect(fired(lintConfig(fire), .matchAllAcceptTerm).map(\.severity) == [.error])
    let quiet = """
      set policy-options policy-statement ISIS-EXPORT term lo from protocol direct
      set policy-options policy-statement ISIS-EXPORT term lo from route-filter 10.255.0.11/32 exact
      set policy-options policy-statement ISIS-EXPORT term lo then accept
      set protocols isis export ISIS-EXPORT

      """
    #expect(fired(lintConfig(quiet), .matchAllAcceptTerm).isEmpty)
  }

  @Test func rule19SessionWithoutPolicy() {
    let fire = """
      set protocols bgp group TRANSIT type external
      set protocols bgp group TRANSIT neighbor 198.51.100.1 peer-as 64511

      """
    let f = fired(lintConfig(fire), .bgpSessionWithoutPolicy)
    #expect(f.map(\.severity) == [.error])
    #expect(f.first?.message.contains("import or export") == true)
    let quiet =
      fire + """
        set protocols bgp group TRANSIT import TRANSIT-IN
        set protocols bgp group TRANSIT export TRANSIT-OUT
        set policy-options policy-statement TRANSIT-IN term a then reject
        set policy-options policy-statement TRANSIT-OUT term a then reject

        """
    #expect(fired(lintConfig(quiet), .bgpSessionWithoutPolicy).isEmpty)
    // Protocol-level policies count (the packetsource script's false negative).
    let protocolLevel =
      fire
      + "set protocols bgp import TRANSIT-IN\nset protocols bgp export TRANSIT-IN\nset policy-options policy-statement TRANSIT-IN term a then reject\n"
    #expect(fired(lintConfig(protocolLevel), .bgpSessionWithoutPolicy).isEmpty)
  }

  @Test func rule21IGPExportAdmitsBGP() {
    let fire = """
      set policy-options policy-statement IGP-EXPORT term bgp from protocol bgp
      set policy-options policy-statement IGP-EXPORT term bgp then accept
      set protocols isis export IGP-EXPORT

      """
    #expect(fired(lintConfig(fire), .igpExportAdmitsBGP).count == 1)
    let quiet = """
      set policy-options policy-statement IGP-EXPORT term bgp from protocol bgp
      set policy-options policy-statement IGP-EXPORT term bgp from route-filter 192.0.2.0/24 exact
      set policy-options policy-statement IGP-EXPORT term bgp then accept
      set policy-options policy-statement IGP-EXPORT term rest then reject
      set protocols isis export IGP-EXPORT

      """
    #expect(fired(lintConfig(quiet), .igpExportAdmitsBGP).isEmpty)
  }

  @Test func rule22PrefixLimit() {
    let fire = """
      set protocols bgp group DC-FABRIC type external
      set protocols bgp group DC-FABRIC neighbor 10.32.0.1 peer-as 65100

      """
    #expect(fired(lintConfig(fire), .bgpMissingPrefixLimit).count == 1)
    let quiet =
      fire + """
        set protocols bgp group DC-FABRIC family inet unicast prefix-limit maximum 2000
        set protocols bgp group DC-FABRIC family inet unicast prefix-limit teardown 90 idle-timeout 5

        """
    #expect(fired(lintConfig(quiet), .bgpMissingPrefixLimit).isEmpty)
  }

  @Test func rule27BFD() {
    let fire = """
      set interfaces et-0/0/0 unit 0 family inet address 10.254.0.0/31
      set protocols ospf area 0.0.0.0 interface et-0/0/0.0 interface-type p2p

      """
    #expect(fired(lintConfig(fire), .coreLinkWithoutBFD).map(\.severity) == [.info])
    #expect(
      fired(
        lintConfig(fire + "set protocols ospf area 0.0.0.0 interface et-0/0/0.0 bfd-liveness-detection minimum-interval 300\n"),
        .coreLinkWithoutBFD
      ).isEmpty)
  }

  @Test func rule28Flowspec() {
    let fire = "set routing-options flow route BLOCK match protocol tcp\nset routing-options flow route BLOCK then discard\n"
    #expect(fired(lintConfig(fire), .flowspecRouteOverbroad).count == 1)
    let quiet = "set routing-options flow route BLOCK match destination 192.0.2.10/32\nset routing-options flow route BLOCK then discard\n"
    #expect(fired(lintConfig(quiet), .flowspecRouteOverbroad).isEmpty)
  }
}

/// The change rules, from CHECKLIST.md's diffs.
@Suite struct ChangeRuleSnippetTests {
  static let base = """
    set routing-options autonomous-system 64500
    set policy-options prefix-list SITE-LOCAL 10.10.0.0/16
    set policy-options policy-statement BB-OUT term SITE-LOCAL from prefix-list SITE-LOCAL
    set policy-options policy-statement BB-OUT term SITE-LOCAL then local-preference 200
    set policy-options policy-statement BB-OUT term SITE-LOCAL then accept
    set policy-options policy-statement BB-OUT term REST then reject
    set policy-options policy-statement EDGE-OUT term SITE-LOCAL from prefix-list SITE-LOCAL
    set policy-options policy-statement EDGE-OUT term SITE-LOCAL then accept
    set policy-options policy-statement EDGE-OUT term REJECT-REST then reject
    set policy-options policy-statement IGP-EXPORT term no-bgp from protocol bgp
    set policy-options policy-statement IGP-EXPORT term no-bgp then reject
    set policy-options policy-statement IGP-EXPORT term lo from protocol direct
    set policy-options policy-statement IGP-EXPORT term lo then accept
    set protocols isis export IGP-EXPORT
    set protocols bgp group BACKBONE type internal
    set protocols bgp group BACKBONE import BB-OUT
    set protocols bgp group BACKBONE export BB-OUT
    set protocols bgp group BACKBONE neighbor 10.255.0.2
    set protocols bgp group EDGE type external
    set protocols bgp group EDGE peer-as 64999
    set protocols bgp group EDGE import EDGE-OUT
    set protocols bgp group EDGE export EDGE-OUT
    set protocols bgp group EDGE neighbor 192.0.2.1

    """

  @Test func rule15TermLosesItsMatch() throws {
    let f = fired(
      lintChange(Self.base, "deactivate policy-options policy-statement BB-OUT term SITE-LOCAL from prefix-list SITE-LOCAL\n"),
      .termMatchConditionsRemoved)
    let one = try #require(f.first)
    #expect(f.count == 1)
    #expect(one.severity == .error)
    #expect(one.location == FindingLocation(file: "d.set", line: 1, column: 1))
    #expect(one.path == "policy-options policy-statement BB-OUT term SITE-LOCAL from")
    #expect(
      fired(lintChange(Self.base, "deactivate policy-options policy-statement BB-OUT term SITE-LOCAL\n"), .termMatchConditionsRemoved)
        .isEmpty)
  }

  @Test func rule16GuardTermRemoved() {
    // With the guard gone, BGP routes still meet no accepting term: the IS-IS default rejects
    // them, so the semantic comparison lowers the finding to info.
    let f = fired(lintChange(Self.base, "delete policy-options policy-statement IGP-EXPORT term no-bgp\n"), .guardTermRemoved)
    #expect(f.map(\.severity) == [.info])
    #expect(f.first?.message.hasSuffix("the semantic comparison finds no route decided differently where it is applied") == true)
    // When a later term accepts everything, the guard kept BGP routes out of IS-IS.
    let open =
      "delete policy-options policy-statement IGP-EXPORT term no-bgp\ndelete policy-options policy-statement IGP-EXPORT term lo from\n"
    let g = fired(lintChange(Self.base, open), .guardTermRemoved)
    #expect(g.map(\.severity) == [.error])
    #expect(g.first?.message.contains("for example 0.0.0.0/0 from bgp") == true)
    #expect(fired(lintChange(Self.base, "delete policy-options policy-statement IGP-EXPORT term lo\n"), .guardTermRemoved).isEmpty)
  }

  @Test func rule17TermsMoveBehindReject() {
    let recreate = """
      delete policy-options policy-statement EDGE-OUT term SITE-LOCAL
      set policy-options policy-statement EDGE-OUT term SITE-LOCAL from prefix-list SITE-LOCAL
      set policy-options policy-statement EDGE-OUT term SITE-LOCAL then community add SITE-LOCAL-ROUTE
      set policy-options policy-statement EDGE-OUT term SITE-LOCAL then accept

      """
    let f = fired(lintChange(Self.base, recreate), .policyTermReordered)
    #expect(f.map(\.severity) == [.error])
    #expect(f.first?.message.contains("after term REJECT-REST") == true)
    let inPlace = "set policy-options policy-statement EDGE-OUT term SITE-LOCAL then community add SITE-LOCAL-ROUTE\n"
    #expect(fired(lintChange(Self.base, inPlace), .policyTermReordered).isEmpty)
    let putBack = recreate + "insert policy-options policy-statement EDGE-OUT term SITE-LOCAL before term REJECT-REST\n"
    #expect(fired(lintChange(Self.base, putBack), .policyTermReordered).isEmpty)
  }

  @Test func rule20PolicyDetached() {
    let f = fired(lintChange(Self.base, "delete protocols isis export IGP-EXPORT\n"), .policyDetached)
    #expect(f.map(\.severity) == [.error])
    #expect(f.first?.location == FindingLocation(file: "d.set", line: 1, column: 1))
    // Replaced by a policy with the same reject terms: info.
    let v2 = """
      set policy-options policy-statement IGP-EXPORT-V2 term no-bgp from protocol bgp
      set policy-options policy-statement IGP-EXPORT-V2 term no-bgp then reject
      delete protocols isis export
      set protocols isis export IGP-EXPORT-V2

      """
    #expect(fired(lintChange(Self.base, v2), .policyDetached).map(\.severity) == [.info])
    // A group removed as a whole is not a detached policy.
    #expect(fired(lintChange(Self.base, "deactivate protocols bgp group EDGE\n"), .policyDetached).isEmpty)
  }

  @Test func rule23BulkCoreIsolation() {
    let node = """
      set interfaces et-0/0/0 description "Core: a"
      set interfaces et-0/0/0 unit 0 family iso
      set interfaces et-0/0/4 description "Client: b"
      set interfaces et-0/0/4 unit 0 family inet address 10.32.0.0/31
      set protocols isis interface et-0/0/0.0

      """
    #expect(fired(lintChange(node, "deactivate protocols isis\n"), .bulkCoreIsolation).map(\.severity) == [.error])
    let drained = node + "set protocols isis overload\nset interfaces et-0/0/4 disable\n"
    #expect(fired(lintChange(drained, "deactivate protocols isis\n"), .bulkCoreIsolation).isEmpty)
  }
}

extension String {
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let r = firstRange(of: target) else { return self }
    return self[..<r.lowerBound] + replacement + self[r.upperBound...]
  }
}

/// Groups are expanded before the rules run; inventories and role files.
@Suite struct EffectiveInputTests {
  @Test func aStatementInheritedFromAGroupIsCheckedAndLocatedInTheGroup() throws {
    let text = """
      groups {
          OLD-CHASSIS {
              protocols {
                  ldp {
                      interface xe-1/0/0.0;
                  }
              }
          }
      }
      apply-groups OLD-CHASSIS;

      """
    let f = Checklist.lint(config: SourceFile(path: "g.conf", text: text)).findings.filter {
      $0.rule == .protocolReferencesUndefinedInterface
    }
    #expect(f.count == 1)
    #expect(f.first?.location == FindingLocation(file: "g.conf", line: 5, column: 17))
    // An inactive group applies nothing.
    let inactive = text.replacingFirst("    OLD-CHASSIS {", with: "    inactive: OLD-CHASSIS {")
    #expect(Checklist.lint(config: SourceFile(path: "g.conf", text: inactive)).findings.isEmpty)
  }

  @Test func theInventoryFlagsPortsTheNewChassisLacks() throws {
    let plan = """
      #@ plan node=cr1 kind=swap
      #@ inventory ports.txt
      #@ step preload "load"
      #@ load override new.conf
      set protocols isis overload
      #@ commit confirmed 10

      """
    let conf =
      "set interfaces et-0/0/0 unit 0 family iso\nset interfaces xe-1/0/0 unit 0 family iso\nset interfaces lo0 unit 0 family iso\n"
    let r = lintPlan(plan, files: ["ports.txt": "et-0/0/0\net-0/0/1\n", "new.conf": conf])
    #expect(r.findings.filter { $0.rule == .protocolReferencesUndefinedInterface }.map(\.path) == ["interfaces xe-1/0/0"])
  }

  @Test func aRolesFileAssignsRolesAndPatterns() {
    let (rules, diagnostics) = RoleRules.parse(
      SourceFile(path: "roles", text: "# site conventions\ncore et-0/0/9 ae3\npattern client ^srv-\npattern core ([\nbogus line\n"))
    #expect(diagnostics.map(\.location.line) == [4, 5])
    #expect(rules.explicit == ["et-0/0/9": .core, "ae3": .core])
    let model = RouterModel(
      effective: ConfigParser.parse(
        SourceFile(path: "c.set", text: "set interfaces et-0/0/1 description \"SRV-rack1\"\nset interfaces et-0/0/1 unit 0\n")
      ).tree
        .effective())
    #expect(InterfaceRoles(model: model, rules: rules).role(of: "et-0/0/1") == .client)
    #expect(InterfaceRoles(model: model, rules: rules).role(of: "ae3") == .core)
  }
}

/// `lint` runs `check`'s schema checks on what it is given to review (a planned configuration,
/// the commands of a change, each step of a plan), not on the baseline: a configuration that
/// `commit check` would refuse is reported and not linted further.
@Suite struct LintSchemaCheckTests {
  @Test func aPlannedConfigurationWithATypo() {
    let r = Checklist.lint(
      config: SourceFile(path: "c.set", text: "set system host-name r1\nset protocols bgp group G neighbor 10.0.0.1 peer-ass 65000\n"))
    #expect(r.hasErrors)
    #expect(r.findings.isEmpty)
    #expect(r.diagnostics.map(\.rendered) == ["c.set:2:45: error: unknown statement 'peer-ass' under 'neighbor'; did you mean 'peer-as'?"])
  }

  @Test func aChangeIsCheckedButNotItsBaseline() {
    // The baseline's own unknown statement is not the change's problem.
    let base = SourceFile(path: "base.set", text: "set system host-name r1\nset system frobnicate\n")
    let good = Checklist.lint(changes: SourceFile(path: "d.set", text: "set system domain-name example.net\n"), baseline: base)
    #expect(!good.hasErrors, "\(good.diagnostics.map(\.rendered))")
    let bad = Checklist.lint(
      changes: SourceFile(path: "d.set", text: "set system domain-name example.net\nset interfaces ge-0/0/0 mtu jumbo\n"), baseline: base)
    #expect(bad.diagnostics.map(\.rendered) == ["d.set:2:29: error: 'jumbo' is not a valid mtu: expected an integer"])
  }

  @Test func aPlanStepWithATypo() {
    let plan = """
      #@ plan node=r1 platform=mx kind=maintenance
      #@ baseline base.set
      #@ step s1 "set the name"
      set system host-name r2
      set system hots-name r3
      #@ commit confirmed 5

      """
    let r = lintPlan(plan, files: ["base.set": "set system host-name r1\n"])
    #expect(
      r.diagnostics.map(\.rendered).contains("p.plan:5:12: error: unknown statement 'hots-name' under 'system'; did you mean 'host-name'?"),
      "\(r.diagnostics.map(\.rendered))")
    #expect(r.hasErrors)
  }
}

import Foundation
import JunosChecklist
import JunosConfig
import Testing

/// The files under `Fixtures/checklist`.
private enum PlanFixtures {
  static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/checklist")

  static func source(_ name: String) throws -> SourceFile {
    SourceFile(path: name, bytes: Array(try Data(contentsOf: root.appendingPathComponent(name))))
  }
}

// MARK: - Shorthands for expected values

private func at(_ line: Int, _ column: Int = 1) -> JunosConfig.SourceLocation { JunosConfig.SourceLocation(line: line, column: column) }

private func command(_ line: Int, _ text: String) -> PlanAction {
  .command(line: line, verb: String(text.prefix { $0 != " " }), text: text)
}

private func commitConfirmed(_ minutes: Int, _ line: Int) -> PlanAction {
  .commit(PlanCommit(confirmed: true, minutes: minutes, location: at(line)))
}

private func confirm(_ method: PlanConfirm.Method, _ line: Int) -> PlanAction {
  .confirm(PlanConfirm(method: method, location: at(line)))
}

private func patch(_ ifd: String, _ remote: String, _ line: Int) -> PlanAction {
  .patch(interface: ifd, remote: remote, location: at(line))
}

private func verify(_ kind: PlanVerify.Kind, _ args: [String], _ line: Int) -> PlanAction {
  .verify(PlanVerify(kind: kind, args: args, location: at(line)))
}

private func manual(_ text: String, _ line: Int) -> PlanAction { verify(.manual, [text], line) }

private func parse(_ text: String, path: String = "t.plan") -> (plan: ChangePlan, diagnostics: [Diagnostic]) {
  ChangePlan.parse(SourceFile(path: path, text: text))
}

/// A diagnostic as `line:column id severity`, for exact comparisons.
private func brief(_ d: Diagnostic) -> String { "\(d.location) \(d.id) \(d.severity.rawValue)" }

@Suite struct ChangePlanTests {
  // MARK: The CHECKLIST.md examples

  @Test func theBadSwapPlanOfSection4_2() throws {
    let (plan, diagnostics) = ChangePlan.parse(try PlanFixtures.source("swap-cr1-dc1.plan"))
    #expect(diagnostics.map(brief) == [])
    #expect(
      plan.header
        == PlanHeader(
          node: "cr1-dc1", platform: "mx10003", kind: "swap", replaces: "cr1-dc1-old", mgmt: "192.0.2.0/24", location: at(1)))
    #expect(plan.baseline == nil)
    #expect(plan.inventory == nil)
    #expect(
      plan.roles == [
        PlanRole(role: .core, interface: "et-0/0/0", location: at(2, 14)),
        PlanRole(role: .core, interface: "et-0/0/1", location: at(2, 23)),
        PlanRole(role: .client, interface: "et-0/0/4", location: at(3, 16)),
        PlanRole(role: .client, interface: "et-0/0/5", location: at(3, 25)),
      ])
    #expect(plan.accepts == [])
    #expect(plan.hasRollbackSection == false)
    #expect(plan.rollbackSteps == [])
    #expect(
      plan.steps == [
        PlanStep(
          id: "preload", title: "Preload running config copied from the MX480", location: at(4),
          actions: [
            .load(mode: .override, file: PlanFileRef(path: "cr1-dc1-from-mx480.conf", location: at(5, 18))),
            commitConfirmed(10, 6), confirm(.commit, 7),
          ]),
        PlanStep(
          id: "move-fabric", title: "Move DC fabric links to the new node", location: at(8),
          actions: [patch("et-0/0/4", "dc1-spine1:et-0/0/48", 9), patch("et-0/0/5", "dc1-spine2:et-0/0/48", 10)]),
        PlanStep(
          id: "move-core-a", title: "Move core link to cr2-dc2", location: at(11), actions: [patch("et-0/0/0", "cr2-dc2:et-1/0/0", 12)]),
        PlanStep(
          id: "move-core-b", title: "Move core link to cr3-dc3", location: at(13), actions: [patch("et-0/0/1", "cr3-dc3:xe-2/0/0", 14)]),
      ])
    let preload = try #require(plan.steps.first)
    #expect(preload.loads == [PlanLoad(mode: .override, file: PlanFileRef(path: "cr1-dc1-from-mx480.conf", location: at(5, 18)))])
    #expect(preload.commit?.confirmedMinutes == 10)
    #expect(preload.confirm?.method == .commit)
    #expect(plan.steps[1].patches.map(\.interface) == ["et-0/0/4", "et-0/0/5"])
    #expect(plan.steps[1].commit == nil)
  }

  @Test func theFixedSwapPlanOfSection4_3WithItsRollback() throws {
    let (plan, diagnostics) = ChangePlan.parse(try PlanFixtures.source("swap-cr1-dc1.fixed.plan"))
    #expect(diagnostics.map(brief) == [])
    #expect(
      plan.header
        == PlanHeader(
          node: "cr1-dc1", platform: "mx10003", kind: "swap", replaces: "cr1-dc1-old", mgmt: "192.0.2.0/24", duration: 120,
          location: at(1)))
    #expect(plan.inventory == PlanFileRef(path: "mx10003-cr1-dc1-ports.txt", location: at(2, 14)))
    #expect(plan.roles.map(\.interface) == ["et-0/0/0", "et-0/0/1", "et-0/0/4", "et-0/0/5"])
    #expect(plan.roles.map(\.role) == [.core, .core, .client, .client])
    #expect(plan.steps.map(\.id) == ["precheck", "preload", "patch-core", "uncost", "patch-fabric-dark", "enable-fabric"])
    #expect(plan.hasRollbackSection)

    let expected: [PlanStep] = [
      PlanStep(
        id: "precheck", title: "Baseline on neighbours before touching anything", location: at(5),
        actions: [
          manual("cr2-dc2/cr3-dc3: record ISIS adjacencies, LDP sessions, link utilisation per class", 6),
          manual("dc1-spine1/2: record BGP routes received from cr1-dc1-old", 7),
        ]),
      PlanStep(
        id: "preload", title: "Preload config: costed out, client links dark, client BGP inactive", location: at(8),
        actions: [
          .load(mode: .override, file: PlanFileRef(path: "cr1-dc1-from-mx480.fixed.conf", location: at(9, 18))),
          command(10, "set protocols isis overload"),
          command(11, "set interfaces et-0/0/4 disable"),
          command(12, "set interfaces et-0/0/5 disable"),
          command(13, "deactivate protocols bgp group DC-FABRIC"),
          commitConfirmed(10, 14),
          manual("show route protocol aggregate: no active aggregates (no core routes yet)", 15),
          confirm(.check, 16),
        ],
        commandLines: [10, 11, 12, 13]),
      PlanStep(
        id: "patch-core", title: "Patch both core links (node still overloaded)", location: at(17),
        actions: [
          patch("et-0/0/0", "cr2-dc2:et-1/0/0", 18),
          patch("et-0/0/1", "cr3-dc3:xe-2/0/0", 19),
          verify(.isisAdjacency, ["et-0/0/0.0", "up"], 20),
          verify(.isisAdjacency, ["et-0/0/1.0", "up"], 21),
          verify(.ldpSession, ["10.255.0.12", "operational"], 22),
          verify(.ldpSession, ["10.255.0.13", "operational"], 23),
          verify(.routePresent, ["10.255.0.12/32", "protocol", "isis"], 24),
        ]),
      PlanStep(
        id: "uncost", title: "Remove overload after core reachability is verified", location: at(25),
        actions: [
          command(26, "delete protocols isis overload"),
          commitConfirmed(10, 27),
          .wait(seconds: 120, location: at(28)),
          manual("transit via cr1-dc1 healthy; no drops in any queue on et-0/0/0, et-0/0/1", 29),
          confirm(.check, 30),
        ],
        commandLines: [26]),
      PlanStep(
        id: "patch-fabric-dark", title: "Patch DC fabric links while they are disabled", location: at(31),
        actions: [
          patch("et-0/0/4", "dc1-spine1:et-0/0/48", 32),
          patch("et-0/0/5", "dc1-spine2:et-0/0/48", 33),
          manual("far end shows link down (disabled on our side)", 34),
        ]),
      PlanStep(
        id: "enable-fabric", title: "Enable DC fabric links and BGP", location: at(35),
        actions: [
          command(36, "delete interfaces et-0/0/4 disable"),
          command(37, "delete interfaces et-0/0/5 disable"),
          command(38, "activate protocols bgp group DC-FABRIC"),
          commitConfirmed(10, 39),
          verify(.bgpSession, ["10.32.0.1", "established"], 40),
          verify(.bgpSession, ["10.32.0.5", "established"], 41),
          manual("spines receive the three aggregates from cr1-dc1; traffic shifts as expected", 42),
          confirm(.check, 43),
        ],
        commandLines: [36, 37, 38]),
    ]
    #expect(plan.steps.count == expected.count)
    for (got, want) in zip(plan.steps, expected) { #expect(got == want) }
    #expect(
      plan.rollbackSteps == [
        PlanStep(
          id: "rb-isolate", title: "Isolate the new node", location: at(45),
          actions: [
            command(46, "set protocols isis overload"),
            command(47, "set interfaces et-0/0/4 disable"),
            command(48, "set interfaces et-0/0/5 disable"),
            command(49, "deactivate protocols bgp group DC-FABRIC"),
            .commit(PlanCommit(location: at(50))),
            manual("re-patch links to cr1-dc1-old in reverse order: core first, then fabric", 51),
          ],
          commandLines: [46, 47, 48, 49])
      ])
    // Convenience views.
    let uncost = plan.steps[3]
    #expect(uncost.waits == [PlanWait(seconds: 120, location: at(28))])
    #expect(uncost.commit == PlanCommit(confirmed: true, minutes: 10, location: at(27)))
    #expect(uncost.confirm == PlanConfirm(method: .check, location: at(30)))
    #expect(uncost.commands == [PlanCommand(line: 26, verb: "delete", text: "delete protocols isis overload")])
    #expect(plan.steps[2].verifies.map(\.kind.name) == ["isis-adjacency", "isis-adjacency", "ldp-session", "ldp-session", "route-present"])
    #expect(plan.rollbackSteps[0].commit?.confirmedMinutes == nil)
  }

  @Test func theFixedPlansFilesExistBesideIt() throws {
    let (plan, _) = ChangePlan.parse(try PlanFixtures.source("swap-cr1-dc1.fixed.plan"))
    let named = [plan.inventory?.path].compactMap { $0 } + (plan.steps + plan.rollbackSteps).flatMap { $0.loads.map(\.file.path) }
    #expect(named == ["mx10003-cr1-dc1-ports.txt", "cr1-dc1-from-mx480.fixed.conf"])
    for name in named { #expect(FileManager.default.fileExists(atPath: PlanFixtures.root.appendingPathComponent(name).path)) }
    let ports = String(decoding: try PlanFixtures.source("mx10003-cr1-dc1-ports.txt").bytes, as: UTF8.self)
    #expect(ports.split(separator: "\n").count == 14)
    #expect(ports.hasPrefix("et-0/0/0\net-0/0/1\n"))
  }

  @Test func theFixedConfigurationIsTheOriginalWithTheSection4_3Edits() throws {
    let original = ConfigParser.parse(try PlanFixtures.source("cr1-dc1-from-mx480.conf"))
    #expect(original.diagnostics.isEmpty)
    let edits = SourceFile(
      path: "edits",
      text: """
        delete protocols ldp interface xe-1/0/0.0
        set policy-options policy-statement AGG-FROM-CORE term not-local from protocol [ direct local static aggregate ]
        set policy-options policy-statement AGG-FROM-CORE term not-local then reject
        set policy-options policy-statement AGG-FROM-CORE term core-igp from protocol isis
        set policy-options policy-statement AGG-FROM-CORE term core-igp then accept
        set policy-options policy-statement AGG-FROM-CORE term rest then reject
        set routing-options aggregate route 10.0.0.0/8 policy AGG-FROM-CORE
        set routing-options aggregate route 172.16.0.0/12 policy AGG-FROM-CORE
        set routing-options aggregate route 192.168.0.0/16 policy AGG-FROM-CORE
        set protocols isis interface et-0/0/0.0 ldp-synchronization
        set protocols isis interface et-0/0/1.0 ldp-synchronization
        set protocols bgp group DC-FABRIC family inet unicast prefix-limit maximum 2000
        set protocols bgp group DC-FABRIC family inet unicast prefix-limit teardown 90 idle-timeout 5
        set protocols bgp group IBGP-CORE import IBGP-IN
        set protocols bgp group IBGP-CORE export IBGP-OUT

        """)
    let edited = ConfigParser.load(edits, onto: original.tree)
    #expect(edited.diagnostics.isEmpty)
    let fixed = ConfigParser.parse(try PlanFixtures.source("cr1-dc1-from-mx480.fixed.conf"))
    #expect(fixed.diagnostics.isEmpty)
    func lines(_ t: ConfigTree) -> Set<String> {
      Set(String(decoding: t.renderSet(), as: UTF8.self).split(separator: "\n").map(String.init))
    }
    let a = lines(edited.tree)
    let b = lines(fixed.tree)
    #expect(a.subtracting(b) == [])
    let added = b.subtracting(a)
    #expect(added.filter { $0.hasPrefix("set class-of-service ") }.count == 22)
    #expect(added.filter { $0.hasPrefix("set policy-options policy-statement IBGP-") }.count == 6)
    #expect(added.count == 28)
    #expect(added.contains("set class-of-service interfaces et-0/0/1 scheduler-map CORE-MAP"))
    #expect(added.contains("set class-of-service interfaces et-0/0/1 unit 0 classifiers dscp CORE-DSCP"))
  }

  // MARK: Commands as a file at the plan's lines

  @Test func commandsFileKeepsOnlyTheStepsLinesAtTheirPlace() throws {
    let source = try PlanFixtures.source("swap-cr1-dc1.fixed.plan")
    let (plan, _) = ChangePlan.parse(source)
    let preload = plan.steps[1]
    let commands = plan.commandsFile(for: preload)
    #expect(commands.path == "swap-cr1-dc1.fixed.plan")
    let planLines = String(decoding: source.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let lines = String(decoding: commands.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == planLines.count)
    for (k, line) in lines.enumerated() {
      // Other lines are blanked with spaces, so byte offsets stay the plan's too.
      #expect(
        line == ((10...13).contains(k + 1) ? planLines[k] : Substring(String(repeating: " ", count: planLines[k].utf8.count))),
        "line \(k + 1)")
    }
    #expect(commands.bytes.count == source.bytes.count)
    // A step without commands gives only blanks and line ends.
    #expect(plan.commandsFile(for: plan.steps[0]).bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A })
  }

  @Test func loadingAStepsCommandsLocatesStatementsAndDiagnosticsAtPlanLines() throws {
    let (plan, _) = ChangePlan.parse(try PlanFixtures.source("swap-cr1-dc1.fixed.plan"))
    let base = ConfigParser.parse(
      SourceFile(
        path: "base.conf",
        text: """
          set interfaces et-0/0/4 unit 0 family inet address 10.32.0.0/31
          set protocols isis interface et-0/0/0.0 point-to-point
          set protocols bgp group DC-FABRIC type external

          """))
    #expect(base.diagnostics.isEmpty)
    let commands = plan.commandsFile(for: plan.steps[1])
    let loaded = ConfigParser.load(commands, onto: base.tree)
    #expect(loaded.diagnostics.map(brief) == [])
    let tree = loaded.tree
    let protocols = try #require(tree.child(of: ConfigTree.root, startingWith: ["protocols"]))
    let isis = try #require(tree.child(of: protocols, startingWith: ["isis"]))
    let overload = try #require(tree.child(of: isis, startingWith: ["overload"]))
    #expect(commands.location(of: tree.sourceRange(of: overload).lowerBound).line == 10)
    let interfaces = try #require(tree.child(of: ConfigTree.root, startingWith: ["interfaces"]))
    let et5 = try #require(tree.child(of: interfaces, startingWith: ["et-0/0/5"]))
    let disable = try #require(tree.child(of: et5, startingWith: ["disable"]))
    #expect(commands.location(of: tree.sourceRange(of: disable).lowerBound).line == 12)
    let bgp = try #require(tree.child(of: protocols, startingWith: ["bgp"]))
    let group = try #require(tree.child(of: bgp, startingWith: ["group", "DC-FABRIC"]))
    #expect(tree.flags(of: group).contains(.inactive))

    // A delete of something the base lacks is reported at the plan's line and column.
    let uncost = ConfigParser.load(plan.commandsFile(for: plan.steps[3]), onto: base.tree)
    #expect(uncost.diagnostics.map(\.id) == ["unknownPath"])
    #expect(uncost.diagnostics.first?.location.line == 26)
    #expect(uncost.diagnostics.first?.path == "swap-cr1-dc1.fixed.plan")
  }

  /// `#@ node` and `#@ on`: the other node's lines are kept apart from the plan's own.
  @Test func otherNodesCommandsAreKeptApart() {
    let (plan, diagnostics) = parse(
      """
      #@ plan node=r1
      #@ node r2 r2.conf
      #@ step a
      set system host-name r1
      #@ on r2
      set system host-name r2
      delete system domain-name
      #@ on r1
      set system domain-name example.net
      #@ commit
      #@ step b
      set system location building 1

      """)
    #expect(diagnostics.isEmpty)
    #expect(plan.nodes.map(\.name) == ["r2"])
    #expect(plan.nodes.map(\.baseline) == [PlanFileRef(path: "r2.conf", location: SourceLocation(line: 2, column: 12))])
    #expect(plan.steps[0].commandLines == [4, 9])
    #expect(plan.steps[0].commands.map(\.line) == [4, 9])
    #expect(plan.steps[0].nodeCommands["r2"]?.map(\.text) == ["set system host-name r2", "delete system domain-name"])
    #expect(plan.steps[0].nodeCommands["r2"]?.map(\.line) == [6, 7])
    // A new step is for the plan's own node again.
    #expect(plan.steps[1].commandLines == [12] && plan.steps[1].nodeCommands.isEmpty)
  }

  @Test func commandsFileKeepsCRLFAndIndentation() throws {
    let text =
      "#@ plan node=r1\r\n#@ step a\r\n  set system host-name r1\r\n# note\r\n\tset system domain-name example.net\r\n#@ commit\r\n"
    let (plan, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    #expect(plan.steps[0].commandLines == [3, 5])
    #expect(plan.steps[0].commands.map(\.text) == ["set system host-name r1", "set system domain-name example.net"])
    let commands = plan.commandsFile(for: plan.steps[0])
    #expect(
      String(decoding: commands.bytes, as: UTF8.self)
        == "               \r\n         \r\n  set system host-name r1\r\n      \r\n\tset system domain-name example.net\r\n         \r\n")
    // A lone CR stays a line end of its own: the line after it is blanked, not joined to it.
    let cr = parse("#@ plan node=r1\n#@ step s\nset a\r#\n").plan
    #expect(String(decoding: cr.commandsFile(for: cr.steps[0]).bytes, as: UTF8.self) == "               \n         \nset a\r \n")
    let loaded = ConfigParser.load(commands, onto: ConfigTree())
    #expect(loaded.diagnostics.isEmpty)
    let system = try #require(loaded.tree.child(of: ConfigTree.root, startingWith: ["system"]))
    let domain = try #require(loaded.tree.child(of: system, startingWith: ["domain-name"]))
    #expect(commands.location(of: loaded.tree.sourceRange(of: domain).lowerBound).line == 5)
  }

  // MARK: Diagnostics

  @Test(arguments: [
    // unknown directive
    ("#@ plan node=r1\n#@ frobnicate x\n", ["2:4 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@\n", ["2:1 invalidChecklistInput error"]),
    // a configuration line or step directive before the first step
    ("#@ plan node=r1\nset system host-name r1\n#@ step a\n", ["2:1 invalidChecklistInput error"]),
    ("#@ plan node=r1\n  #@ commit confirmed 5\n#@ step a\n", ["2:3 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ patch et-0/0/0 r2:et-0/0/0\n", ["2:1 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ rollback\n#@ verify manual x\n#@ step b\n", ["4:1 invalidChecklistInput error"]),
    // and header directives after it
    ("#@ plan node=r1\n#@ step a\n#@ baseline old.conf\n", ["3:4 invalidChecklistInput error"]),
    // what may come before the first step
    (
      "#@ plan node=r1\n#@ baseline a.conf\n#@ inventory p.txt\n#@ role core et-0/0/0\n#@ accept bulk-core-isolation \"lab\"\n# c\n\n#@ step a\n",
      []
    ),
    // a missing header is a warning at 1:1
    ("#@ step a\nset system host-name r1\n", ["1:1 invalidChecklistInput warning"]),
    ("", ["1:1 invalidChecklistInput warning"]),
    ("#@ plan node=r1\n#@ plan node=r2\n", ["2:4 invalidChecklistInput error"]),
    (
      "#@ plan node=r1 kind duration=soon node=r3\n",
      ["1:17 invalidChecklistInput error", "1:22 invalidChecklistInput error", "1:36 invalidChecklistInput error"]
    ),
    // step without id; duplicate ids, also across the rollback section
    ("#@ plan node=r1\n#@ step\n", ["2:4 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step \"Only a title\"\n", ["2:4 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ step b\n#@ step a \"again\"\n", ["4:9 invalidChecklistInput error"]),
    (
      "#@ plan node=r1\n#@ step a\n#@ rollback\n#@ step a\n#@ rollback\n",
      ["4:9 invalidChecklistInput error", "5:4 invalidChecklistInput error"]
    ),
    ("#@ plan node=r1\n#@ step a \"t\" extra words\n", ["2:15 invalidChecklistInput error"]),
    // commit confirmed minutes
    ("#@ plan node=r1\n#@ step a\n#@ commit confirmed ten\n", ["3:21 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ commit confirmed 0\n", ["3:21 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ commit confirmed 65536\n", ["3:21 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ commit confirmed\n#@ commit confirmed comment \"x y\" and-quit\n", []),
    (
      "#@ plan node=r1\n#@ step a\n#@ commit now\n#@ commit comment\n",
      ["3:11 invalidChecklistInput error", "4:11 invalidChecklistInput error"]
    ),
    // wait seconds
    ("#@ plan node=r1\n#@ step a\n#@ wait soon\n", ["3:9 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ wait -5\n", ["3:9 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ wait 0\n", ["3:9 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ wait\n", ["3:4 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ wait 5 10\n", ["3:11 invalidChecklistInput error"]),
    // unterminated quote
    ("#@ plan node=r1\n#@ step a \"Title\n", ["2:11 unterminatedString error"]),
    ("#@ plan node=r1\n#@ step a\n#@ verify manual \"check \\\" it\n", ["3:18 unterminatedString error"]),
    // accept with an unknown rule id, and without a rule
    ("#@ plan node=r1\n#@ accept no-such-rule \"x\"\n", ["2:11 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ accept\n", ["3:4 invalidChecklistInput error"]),
    // a configuration line that does not start with a command
    ("#@ plan node=r1\n#@ step a\nsett system host-name r1\n", ["3:1 unknownSetCommand error"]),
    ("#@ plan node=r1\n#@ step a\n   system { host-name r1; }\n", ["3:4 unknownSetCommand error"]),
    // load mode and file
    ("#@ plan node=r1\n#@ step a\n#@ load overwrite new.conf\n", ["3:9 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ load merge\n", ["3:9 invalidChecklistInput error"]),
    // role, confirm, patch arguments
    ("#@ plan node=r1\n#@ role spine et-0/0/0\n#@ role core\n", ["2:9 invalidChecklistInput error", "3:9 invalidChecklistInput error"]),
    (
      "#@ plan node=r1\n#@ step a\n#@ confirm later\n#@ confirm\n", ["3:12 invalidChecklistInput error", "4:4 invalidChecklistInput error"]
    ),
    (
      "#@ plan node=r1\n#@ step a\n#@ patch\n#@ unpatch et-0/0/0 r2:et-0/0/0\n",
      ["3:4 invalidChecklistInput error", "4:21 invalidChecklistInput error"]
    ),
    ("#@ plan node=r1\n#@ step a\n#@ verify\n", ["3:4 invalidChecklistInput error"]),
    // other nodes: declared before the first step, with a file, once; `#@ on` in a step, naming one
    ("#@ plan node=r1\n#@ node r2\n", ["2:4 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ node r2 r2.conf\n#@ node r2 other.conf\n", ["3:9 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ node r1 r1.conf\n", ["2:9 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ step a\n#@ node r2 r2.conf\n", ["3:4 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ node r2 r2.conf\n#@ on r2\n#@ step a\n", ["3:1 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ node r2 r2.conf\n#@ step a\n#@ on r3\n", ["4:7 invalidChecklistInput error"]),
    ("#@ plan node=r1\n#@ node r2 r2.conf\n#@ step a\n#@ on\n", ["4:4 invalidChecklistInput error"]),
  ])
  func diagnosticsAreLocated(text: String, expected: [String]) {
    let (_, diagnostics) = parse(text)
    #expect(diagnostics.map(brief) == expected, "\(text)")
    #expect(diagnostics.allSatisfy { $0.path == "t.plan" })
  }

  @Test func badLinesAreDroppedButTheRestIsKept() {
    let (plan, diagnostics) = parse(
      """
      #@ plan node=r1
      set system host-name early
      #@ step
      #@ commit confirmed ten
      #@ accept no-such-rule "typo"
      sett system host-name r1
      set system host-name r1
      #@ step "Only a title"
      #@ wait 30
      """)
    #expect(diagnostics.count == 6)
    #expect(plan.steps.map(\.id) == ["#3", "#8"])
    #expect(plan.steps.map(\.title) == ["", "Only a title"])
    #expect(
      plan.steps[0].actions == [
        .accept(PlanAccept(rule: "no-such-rule", reason: "typo", location: at(5))),
        command(7, "set system host-name r1"),
      ])
    #expect(plan.steps[0].accepts.first?.ruleID == nil)
    #expect(plan.steps[0].commandLines == [7])
    #expect(plan.steps[1].actions == [.wait(seconds: 30, location: at(9))])
  }

  @Test func commitAndConfirmOptions() {
    let (plan, diagnostics) = parse(
      """
      #@ plan node=r1
      #@ step a
      #@ commit check
      #@ commit confirmed comment "first try" and-quit
      #@ commit synchronize at "2026-01-01 03:00:00" confirmed 5
      #@ confirm commit comment "ok"
      """)
    #expect(diagnostics.isEmpty)
    let s = plan.steps[0]
    #expect(s.commit == PlanCommit(check: true, location: at(3)))
    #expect(
      s.commits == [
        PlanCommit(check: true, location: at(3)),
        PlanCommit(confirmed: true, comment: "first try", andQuit: true, location: at(4)),
        PlanCommit(confirmed: true, minutes: 5, synchronize: true, at: "2026-01-01 03:00:00", location: at(5)),
      ])
    #expect(s.commits.map(\.confirmedMinutes) == [nil, 10, 5])
    #expect(s.confirm == PlanConfirm(method: .commit, comment: "ok", location: at(6)))
  }

  @Test func headerExtraKeysQuotingAndRolesInsideSteps() {
    let (plan, diagnostics) = parse(
      """
      #@ plan node=r1 ticket=CHG-1 note="two words" kind=drain
      #@ baseline "configs/r1 before.conf"
      #@ accept bgp-missing-prefix-limit
      #@ step a "A \\"quoted\\" \\\\ title"
      #@ role ignore et-0/0/9 et-0/0/10
      #@ verify ping "10.0.0.1" count=5 ""
      #@ accept core-link-without-bfd "no BFD on this platform"
      #@ unpatch et-0/0/9
      """)
    #expect(diagnostics.isEmpty)
    #expect(plan.header == PlanHeader(node: "r1", kind: "drain", extra: ["ticket": "CHG-1", "note": "two words"], location: at(1)))
    #expect(plan.baseline == PlanFileRef(path: "configs/r1 before.conf", location: at(2, 13)))
    #expect(plan.accepts == [PlanAccept(rule: "bgp-missing-prefix-limit", reason: nil, location: at(3))])
    let s = plan.steps[0]
    #expect(s.title == "A \"quoted\" \\ title")
    #expect(
      s.roles == [
        PlanRole(role: .ignore, interface: "et-0/0/9", location: at(5, 16)),
        PlanRole(role: .ignore, interface: "et-0/0/10", location: at(5, 25)),
      ])
    #expect(plan.roles == s.roles)
    #expect(s.verifies == [PlanVerify(kind: .other("ping"), args: ["10.0.0.1", "count=5", ""], location: at(6))])
    #expect(s.accepts.map(\.ruleID) == [.coreLinkWithoutBFD])
    #expect(s.unpatches == [PlanPatch(interface: "et-0/0/9", location: at(8))])
  }

  @Test func ruleIdsOfTheCatalogueAreAccepted() {
    for rule in RuleID.allCases {
      let (plan, diagnostics) = parse("#@ plan node=r1\n#@ accept \(rule.rawValue) \"reason\"\n")
      #expect(diagnostics.isEmpty)
      #expect(plan.accepts.first?.ruleID == rule)
    }
  }

  // MARK: Detection

  @Test(arguments: [
    ("#@ plan node=r1\n", true),
    ("\n  # a comment\n\n  #@ step a\nset system host-name r1\n", true),
    ("\u{FEFF}#@ plan node=r1\n", true),
    ("# note\r\n#@plan node=r1\r\n", true),
    ("set system host-name r1\n#@ step a\n", false),
    ("system {\n    host-name r1;\n}\n", false),
    ("## Last changed: 2024-01-01 00:00:00 UTC\nversion 21.4R1;\n", false),
    ("# only comments\n\n", false),
    ("", false),
  ])
  func looksLikePlan(text: String, expected: Bool) {
    #expect(ChangePlan.looksLikePlan(SourceFile(path: "x", text: text)) == expected)
  }

  @Test func theFixturesAreRecognised() throws {
    #expect(ChangePlan.looksLikePlan(try PlanFixtures.source("swap-cr1-dc1.plan")))
    #expect(ChangePlan.looksLikePlan(try PlanFixtures.source("swap-cr1-dc1.fixed.plan")))
    #expect(!ChangePlan.looksLikePlan(try PlanFixtures.source("cr1-dc1-from-mx480.conf")))
    #expect(!ChangePlan.looksLikePlan(try PlanFixtures.source("cr1-dc1-from-mx480.fixed.conf")))
  }

  // MARK: Random plans: render, parse, compare

  @Test func randomPlansSurviveRenderingAndParsing() throws {
    var rng = SplitMix64(seed: 0x5EED_C0FF_EE01)
    for round in 0..<200 {
      let model = GeneratedPlan.random(&rng)
      let rendered = model.render(&rng)
      let (plan, diagnostics) = ChangePlan.parse(SourceFile(path: "r.plan", text: rendered.text))
      #expect(diagnostics.map(brief) == [], "round \(round):\n\(rendered.text)")
      #expect(plan.header.map(erased) == model.header, "round \(round)")
      #expect(plan.baseline.map(erased) == model.baseline, "round \(round)")
      #expect(plan.inventory.map(erased) == model.inventory, "round \(round)")
      #expect(plan.accepts.map(erased) == model.accepts, "round \(round)")
      #expect(plan.roles.map(erased) == model.allRoles, "round \(round)")
      #expect(plan.steps.map(erased) == model.steps, "round \(round)")
      #expect(plan.rollbackSteps.map(erased) == model.rollbackSteps, "round \(round)")
      #expect(plan.hasRollbackSection == model.hasRollback, "round \(round)")
      let steps = plan.steps + plan.rollbackSteps
      #expect(steps.map(actionLines) == rendered.actionLines, "round \(round)")
      #expect(steps.map(\.location.line) == rendered.stepLines, "round \(round)")
      // Each step's commands file holds exactly its command texts at their lines.
      for s in steps {
        let lines = String(decoding: plan.commandsFile(for: s).bytes, as: UTF8.self)
          .split(separator: rendered.lineEnd, omittingEmptySubsequences: false)
        let kept = lines.enumerated().filter { !$0.element.allSatisfy { $0 == " " } }
        #expect(kept.map { $0.offset + 1 } == s.commandLines, "round \(round)")
        #expect(kept.map { $0.element.trimmingCharacters(in: .whitespaces) } == s.commands.map(\.text), "round \(round)")
      }
    }
  }
}

// MARK: - Random plan generation and rendering (test only)

/// A small, seedable generator (SplitMix64), for the property tests of this module.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

private let zero = JunosConfig.SourceLocation(line: 0, column: 0)

private func erased(_ h: PlanHeader) -> PlanHeader {
  var h = h
  h.location = zero
  return h
}

private func erased(_ f: PlanFileRef) -> PlanFileRef { PlanFileRef(path: f.path, location: zero) }
private func erased(_ r: PlanRole) -> PlanRole { PlanRole(role: r.role, interface: r.interface, location: zero) }
private func erased(_ a: PlanAccept) -> PlanAccept { PlanAccept(rule: a.rule, reason: a.reason, location: zero) }

private func erased(_ a: PlanAction) -> PlanAction {
  switch a {
  case .load(let mode, let file): return .load(mode: mode, file: erased(file))
  case .command(_, let verb, let text): return .command(line: 0, verb: verb, text: text)
  case .commit(var c):
    c.location = zero
    return .commit(c)
  case .confirm(var c):
    c.location = zero
    return .confirm(c)
  case .patch(let i, let r, _): return .patch(interface: i, remote: r, location: zero)
  case .unpatch(let i, _): return .unpatch(interface: i, location: zero)
  case .verify(var v):
    v.location = zero
    return .verify(v)
  case .wait(let s, _): return .wait(seconds: s, location: zero)
  case .accept(let a): return .accept(erased(a))
  case .role(let r): return .role(erased(r))
  }
}

private func erased(_ s: PlanStep) -> PlanStep {
  PlanStep(id: s.id, title: s.title, location: zero, actions: s.actions.map(erased), commandLines: [])
}

/// The line of every action of a step.
private func actionLines(_ s: PlanStep) -> [Int] {
  s.actions.map { a in
    switch a {
    case .load(_, let f): f.location.line
    case .command(let line, _, _): line
    case .commit(let c): c.location.line
    case .confirm(let c): c.location.line
    case .patch(_, _, let l), .unpatch(_, let l), .wait(_, let l): l.line
    case .verify(let v): v.location.line
    case .accept(let a): a.location.line
    case .role(let r): r.location.line
    }
  }
}

/// What a random plan holds, with every location zero.
private struct GeneratedPlan {
  var header: PlanHeader?
  var baseline: PlanFileRef?
  var inventory: PlanFileRef?
  var roles: [PlanRole] = []
  var accepts: [PlanAccept] = []
  var steps: [PlanStep] = []
  var hasRollback = false
  var rollbackSteps: [PlanStep] = []

  /// Top-level roles, then the roles inside steps in file order (what `ChangePlan.roles` lists).
  var allRoles: [PlanRole] { roles + (steps + rollbackSteps).flatMap(\.roles) }

  struct Rendered {
    var text: String
    var lineEnd: String
    var actionLines: [[Int]]
    var stepLines: [Int]
  }

  static func random(_ g: inout SplitMix64) -> GeneratedPlan {
    var p = GeneratedPlan()
    p.header = PlanHeader(
      node: maybe(&g) ? word(&g) : nil, platform: maybe(&g) ? "mx10003" : nil,
      kind: maybe(&g) ? pick(["swap", "drain", "change"], &g) : nil,
      replaces: maybe(&g) ? text(&g) : nil, mgmt: maybe(&g) ? "192.0.2.0/24" : nil,
      duration: maybe(&g) ? Int.random(in: 1...999, using: &g) : nil,
      extra: maybe(&g) ? ["ticket": text(&g)] : [:], location: zero)
    if maybe(&g) { p.baseline = PlanFileRef(path: text(&g), location: zero) }
    if maybe(&g) { p.inventory = PlanFileRef(path: word(&g), location: zero) }
    for _ in 0..<Int.random(in: 0...3, using: &g) { p.roles.append(role(&g)) }
    for _ in 0..<Int.random(in: 0...2, using: &g) { p.accepts.append(accept(&g)) }
    var ids = Set<String>()
    func steps(_ n: Int, _ g: inout SplitMix64) -> [PlanStep] {
      (0..<n).map { k in
        var id = word(&g)
        while !ids.insert(id).inserted { id += "-\(k)" }
        let actions = (0..<Int.random(in: 0...8, using: &g)).map { _ in action(&g) }
        return PlanStep(id: id, title: maybe(&g) ? text(&g) : "", location: zero, actions: actions)
      }
    }
    p.steps = steps(Int.random(in: 0...5, using: &g), &g)
    p.hasRollback = maybe(&g)
    if p.hasRollback { p.rollbackSteps = steps(Int.random(in: 0...2, using: &g), &g) }
    return p
  }

  static func maybe(_ g: inout SplitMix64) -> Bool { Bool.random(using: &g) }

  static func pick<T>(_ xs: [T], _ g: inout SplitMix64) -> T { xs[Int.random(in: 0..<xs.count, using: &g)] }

  /// A word that needs no quotes.
  static func word(_ g: inout SplitMix64) -> String {
    let chars = Array("abcdefghijklmnopqrstuvwxyz0123456789-./:_")
    return String((0..<Int.random(in: 1...10, using: &g)).map { _ in pick(chars, &g) })
  }

  /// Any text: blanks, quotes, backslashes, `=`, `#`, non-ASCII; possibly empty.
  static func text(_ g: inout SplitMix64) -> String {
    let chars = Array("ab yz09 \"\\=#-é\t")
    return String((0..<Int.random(in: 0...12, using: &g)).map { _ in pick(chars, &g) })
  }

  static func role(_ g: inout SplitMix64) -> PlanRole {
    PlanRole(role: pick(PlanRole.Role.allCases, &g), interface: "et-0/0/\(Int.random(in: 0...11, using: &g))", location: zero)
  }

  static func accept(_ g: inout SplitMix64) -> PlanAccept {
    PlanAccept(rule: pick(RuleID.allCases, &g).rawValue, reason: maybe(&g) ? text(&g) : nil, location: zero)
  }

  static func action(_ g: inout SplitMix64) -> PlanAction {
    switch Int.random(in: 0..<11, using: &g) {
    case 0: return .load(mode: pick(LoadMode.allCases, &g), file: PlanFileRef(path: text(&g), location: zero))
    case 1, 2:
      let verb = pick(["set", "delete", "deactivate", "activate", "insert", "rename", "annotate", "protect", "unprotect"], &g)
      var t = verb + " " + (0..<Int.random(in: 1...4, using: &g)).map { _ in word(&g) }.joined(separator: pick([" ", "  ", "\t"], &g))
      if maybe(&g) { t += " \"a  quoted\tvalue\"" }
      return .command(line: 0, verb: verb, text: t)
    case 3:
      let confirmed = maybe(&g)
      return .commit(
        PlanCommit(
          confirmed: confirmed, minutes: confirmed && maybe(&g) ? Int.random(in: 1...65535, using: &g) : nil,
          comment: maybe(&g) ? text(&g) : nil, andQuit: maybe(&g), check: maybe(&g), synchronize: maybe(&g),
          at: maybe(&g) ? text(&g) : nil, location: zero))
    case 4:
      let method = pick(PlanConfirm.Method.allCases, &g)
      return .confirm(PlanConfirm(method: method, comment: method == .commit && maybe(&g) ? text(&g) : nil, location: zero))
    case 5: return .patch(interface: word(&g), remote: maybe(&g) ? text(&g) : nil, location: zero)
    case 6: return .unpatch(interface: word(&g), location: zero)
    case 7:
      let kinds: [PlanVerify.Kind] = [
        .isisAdjacency, .ospfNeighbor, .ldpSession, .bgpSession, .routePresent, .manual, .other("ping"), .other("x-y"),
      ]
      return .verify(PlanVerify(kind: pick(kinds, &g), args: (0..<Int.random(in: 0...3, using: &g)).map { _ in text(&g) }, location: zero))
    case 8: return .wait(seconds: Int.random(in: 1...999_999, using: &g), location: zero)
    case 9: return .accept(accept(&g))
    default: return .role(role(&g))
    }
  }

  /// `s` as a directive argument: bare when it can be, else quoted with `\"` and `\\`.
  static func quote(_ s: String) -> String {
    if !s.isEmpty && !s.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) { return s }
    return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// The plan as text, with random indentation, comments and blank lines between lines.
  func render(_ g: inout SplitMix64) -> Rendered {
    let q = GeneratedPlan.quote
    let lineEnd = GeneratedPlan.maybe(&g) ? "\n" : "\r\n"
    var lines: [String] = []
    var actionLines: [[Int]] = []
    var stepLines: [Int] = []
    func emit(_ line: String, _ g: inout SplitMix64) -> Int {
      switch Int.random(in: 0..<6, using: &g) {
      case 0: lines.append("")
      case 1: lines.append("# a comment with \"quotes")
      case 2: lines.append("  \t")
      default: break
      }
      lines.append(GeneratedPlan.pick(["", " ", "  ", "\t"], &g) + line + GeneratedPlan.pick(["", " ", "\t"], &g))
      return lines.count
    }
    if let h = header {
      var words = ["#@ plan"]
      if let v = h.node { words.append("node=" + q(v)) }
      if let v = h.platform { words.append("platform=" + q(v)) }
      if let v = h.kind { words.append("kind=" + q(v)) }
      if let v = h.replaces { words.append("replaces=" + q(v)) }
      if let v = h.mgmt { words.append("mgmt=" + q(v)) }
      if let v = h.duration { words.append("duration=\(v)") }
      for (k, v) in h.extra.sorted(by: { $0.key < $1.key }) { words.append(k + "=" + q(v)) }
      _ = emit(words.joined(separator: " "), &g)
    }
    if let b = baseline { _ = emit("#@ baseline " + q(b.path), &g) }
    if let i = inventory { _ = emit("#@ inventory " + q(i.path), &g) }
    for r in roles { _ = emit("#@ role \(r.role.rawValue) \(r.interface)", &g) }
    for a in accepts { _ = emit("#@ accept \(a.rule)" + (a.reason.map { " " + q($0) } ?? ""), &g) }
    func renderSteps(_ steps: [PlanStep], _ g: inout SplitMix64) {
      for s in steps {
        stepLines.append(emit("#@ step \(s.id)" + (s.title.isEmpty ? "" : " " + q(s.title)), &g))
        var atLines: [Int] = []
        for a in s.actions {
          let line: String
          switch a {
          case .load(let mode, let f): line = "#@ load \(mode.rawValue) \(q(f.path))"
          case .command(_, _, let text): line = text
          case .commit(let c):
            var w = ["#@ commit"]
            if c.confirmed { w.append("confirmed" + (c.minutes.map { " \($0)" } ?? "")) }
            if let v = c.comment { w.append("comment " + q(v)) }
            if c.andQuit { w.append("and-quit") }
            if c.check { w.append("check") }
            if c.synchronize { w.append("synchronize") }
            if let v = c.at { w.append("at " + q(v)) }
            line = w.joined(separator: " ")
          case .confirm(let c): line = "#@ confirm \(c.method.rawValue)" + (c.comment.map { " comment " + q($0) } ?? "")
          case .patch(let i, let r, _): line = "#@ patch \(q(i))" + (r.map { " " + q($0) } ?? "")
          case .unpatch(let i, _): line = "#@ unpatch \(q(i))"
          case .verify(let v): line = (["#@ verify", q(v.kind.name)] + v.args.map(q)).joined(separator: " ")
          case .wait(let s, _): line = "#@ wait \(s)"
          case .accept(let a): line = "#@ accept \(a.rule)" + (a.reason.map { " " + q($0) } ?? "")
          case .role(let r): line = "#@ role \(r.role.rawValue) \(r.interface)"
          }
          atLines.append(emit(line, &g))
        }
        actionLines.append(atLines)
      }
    }
    renderSteps(steps, &g)
    if hasRollback { _ = emit("#@ rollback", &g) }
    renderSteps(rollbackSteps, &g)
    return Rendered(text: lines.joined(separator: lineEnd) + lineEnd, lineEnd: lineEnd, actionLines: actionLines, stepLines: stepLines)
  }
}

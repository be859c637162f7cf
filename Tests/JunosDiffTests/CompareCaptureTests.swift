import JunosConfig
import JunosDiff
import Testing

/// Real `show | compare` captures (`Fixtures/diffs/`, sources in `Fixtures/SOURCES.md`): every
/// one parses, with exactly the diagnostics its known defects call for, and the interesting
/// ones read as the statements a reader sees in them.
@Suite struct CompareCaptureTests {
  static let captures = Fixtures.files(in: "diffs")

  /// Diagnostics as `id line:column`. Every capture not listed here has none.
  static let expectedDiagnostics: [String: [String]] = [
    // Hand-typed in a blog: the two diff lines have no ';'.
    "diffs/ben_blog_compare_rollback_handtyped.txt": ["missingSemicolon 10:25", "missingSemicolon 11:21"],
    // An excerpt that starts inside a diff: its first '+' lines have no banner (reported once).
    "diffs/drain_policy_officerouters_fragment.txt": ["missingBanner 1:1"],
    // The author's "… more changes …" elision inside the diff.
    "diffs/katerina_blog_show_system_rollback_compare_32_28.txt": ["unexpectedLine 7:1"],
  ]

  @Test func allCapturesAreFixtures() {
    #expect(Self.captures.count == 27)
  }

  @Test(arguments: captures)
  func captureParsesWithExpectedDiagnostics(_ path: String) throws {
    let file = try Fixtures.source(path)
    #expect(CompareText.looksLikeCompare(file))
    let text = CompareText.parse(file)
    let expected = Self.expectedDiagnostics[path, default: []]
    #expect(text.diagnostics.map { "\($0.id) \($0.location)" } == expected, "\(text.diagnostics.map(\.rendered))")
    #expect(text.diagnostics.allSatisfy { $0.path == path })
    #expect(text.hasErrors == !expected.isEmpty)
    #expect(!text.hunks.isEmpty)
    #expect(text.hunks.allSatisfy { !$0.entries.isEmpty })
  }

  @Test func everyCaptureAndConfigurationIsFound() {
    #expect(Self.captures.count == 27)
    #expect(Self.configurations.count == 39)
  }

  static let configurations = Fixtures.files(in: "configs/curly") + Fixtures.files(in: "configs/mixed") + Fixtures.files(in: "configs/set")

  /// Configurations are not compare text.
  @Test(arguments: configurations)
  func configurationDoesNotLookLikeCompare(_ path: String) throws {
    #expect(!CompareText.looksLikeCompare(try Fixtures.source(path)))
  }

  func read(_ name: String) throws -> CompareText {
    CompareText.parse(try Fixtures.source("diffs/\(name)"))
  }

  // MARK: shapes of particular captures

  /// Context lines `address … { ... }` before inserted oneliner entries, and a block added after
  /// a context line; two banners with the same shape one after the other.
  @Test func goJunosAddressBookContext() throws {
    let text = try read("go-junos_doc_rollbackdiff_srx.txt")
    #expect(text.hunks.count == 4)
    #expect(
      describe(text) == [
        "[edit forwarding-options helpers bootp server 192.168.10.2]",
        "deleted routing-instance srx-vr",
        "[edit forwarding-options helpers bootp server 192.168.10.3]",
        "deleted routing-instance srx-vr",
        "[edit security address-book global]",
        "context address server1",
        "added address dc-console 192.168.20.15/32",
        "added address dc-laptop 192.168.22.7/32",
        "[edit security zones security-zone vendors interfaces]",
        "context reth0.1000",
        "added reth0.520 {…4}",
      ])
  }

  /// A context line whose leading space was lost in the HTML source is still a context line.
  @Test func tylercContextLineWithoutLeadingSpace() throws {
    let text = try read("tylerc_srx_ospf_area_html.txt")
    #expect(text.skippedLines == 1)  // the prompt
    #expect(
      describe(text) == [
        "[edit protocols ospf area 0.0.0.0]",
        "context interface fe-0/3/3.0",
        "added interface fe-0/3/2.0 {…2}",
      ])
    guard case .context(let stub) = text.hunks[0].entries[0] else {
      Issue.record("first entry is not a context line")
      return
    }
    #expect(string(Array(text.file.bytes[stub.range])) == "interface fe-0/3/3.0 { ... }")
  }

  /// A Markdown blockquote (`> ` on every line, blank quoted lines between the diff lines): the
  /// same `then accept;` added under the term and deleted under the policy.
  @Test func ldpBlockquote() throws {
    let text = try read("ldp_export_policy_blockquote.txt")
    #expect(
      describe(text) == [
        "[edit policy-options policy-statement LDP-Export-loopbacks term 1]",
        "added then accept",
        "[edit policy-options policy-statement LDP-Export-loopbacks]",
        "deleted then accept",
      ])
  }

  /// Three compares in one capture: the `[edit …]` lines config mode prints above each prompt
  /// are not hunks, the `display set` output after the last one is skipped.
  @Test func mxaSeveralComparesInOneCapture() throws {
    let text = try read("mxa_routing_options_and_bgp_show_compare.txt")
    #expect(text.hunks.map { $0.path.joined(separator: " ") } == ["routing-options", "protocols bgp", "protocols ospf area 0.0.0.0"])
    #expect(
      describe(text) == [
        "[edit routing-options]",
        "added autonomous-system 65001",
        "[edit protocols bgp]",
        "added group ibgp {…3}",
        "[edit protocols ospf area 0.0.0.0]",
        "added virtual-link neighbor-id 172.16.2.1 transit-area 0.0.0.20",
      ])
    #expect(text.skippedLines == 5)
  }

  /// An event script's log of one diff, syslog lines, then a compare on another router.
  @Test func vmx3vmx4TwoComparesWithLogLinesBetween() throws {
    let text = try read("vmx3_vmx4_event_script_compare.txt")
    #expect(
      describe(text) == [
        "[edit interfaces]",
        "added ge-0/0/0 {…1}",
        "[edit interfaces ge-0/0/1]",
        "deleted disable",
      ])
  }

  /// A value change is the old statement deleted, then the new one added; a context line with
  /// no children still shows `{ ... }`.
  @Test func pocVsrxValueChangeAndContext() throws {
    let text = try read("poc_vsrx_load_replace_compare.txt")
    #expect(
      describe(text) == [
        "[edit system]",
        "deleted host-name poc-vsrx-a",
        "added host-name vvfat-test-1",
        "[edit interfaces ge-0/0/0 unit 0 family inet]",
        "context address 198.18.10.12/24",
        "added address 198.18.20.12/24",
      ])
    #expect(text.hunks[1].path == ["interfaces", "ge-0/0/0", "unit", "0", "family", "inet"])
  }

  /// The elided rest of the capture is reported, the lines before it are kept.
  @Test func katerinaElisionAfterContextLine() throws {
    let text = try read("katerina_blog_show_system_rollback_compare_32_28.txt")
    #expect(
      describe(text) == [
        "[edit interfaces interface-range ir_stp_edge]",
        "context member ge-0/0/10",
        "added member ge-0/0/6",
        "added member ge-0/0/7",
        "added member ge-0/0/8",
      ])
  }

  /// The second compare is indented by the notes it was pasted in (banner and markers).
  @Test func ruNotesIndentedSecondCompare() throws {
    let text = try read("ru_notes_show_system_rollback_compare.txt")
    #expect(
      describe(text) == [
        "[edit policy-options policy-statement policy1 term local-preference then]",
        "deleted local-preference 200",
        "added local-preference 250",
        "[edit interfaces ae0 unit 1111 family ccc policer]",
        "added input 500Mbit",
      ])
  }

  /// The lines with no banner are reported and dropped; the hunks after them are read.
  @Test func drainFragmentKeepsTheHunksAfterTheOrphanLines() throws {
    let text = try read("drain_policy_officerouters_fragment.txt")
    #expect(
      describe(text) == [
        "[edit protocols bgp group OfficeRouters neighbor 37.9.96.113]",
        "added import [ DRAIN PE_IMPORT_OFFICE ]",
        "added export [ DRAIN PE_EXPORT_OFFICE ]",
        "[edit protocols bgp group OfficeRouters neighbor 37.9.96.114]",
        "added import [ DRAIN PE_IMPORT_OFFICE ]",
        "added export [ DRAIN PE_EXPORT_OFFICE ]",
      ])
  }

  /// Hand-typed lines without ';' are still read as the statements they name.
  @Test func benBlogHandTypedLinesStillRead() throws {
    let text = try read("ben_blog_compare_rollback_handtyped.txt")
    #expect(describe(text) == ["[edit system]", "deleted host-name old-device", "added host-name device"])
  }

  /// Additions and deletions in one hunk, in the capture's order.
  @Test func saltDeletionThenAdditionOfSiblingUnits() throws {
    let text = try read("salt_junos_diff_docstring.txt")
    #expect(
      describe(text) == [
        "[edit interfaces ge-0/0/0]",
        "deleted mtu 1400",
        "[edit interfaces ge-0/0/0 unit 0 family inet]",
        "deleted dhcp",
        "[edit interfaces lo0]",
        "deleted unit 0 {…1}",
        "added unit 1 {…1}",
      ])
  }

  /// A context line before a whole new neighbor block; the `display inheritance` output and
  /// prompts around it are skipped.
  @Test func r1ApplyPathNeighborCopy() throws {
    let text = try read("r1_apply_path_compare_and_display_inheritance.txt")
    #expect(
      describe(text) == [
        "[edit protocols bgp group myPeerAS2]",
        "context neighbor 10.1.2.2",
        "added neighbor 10.1.2.3 {…9}",
      ])
  }
}

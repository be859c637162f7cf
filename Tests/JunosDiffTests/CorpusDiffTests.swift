import Foundation
import JunosConfig
import JunosDiff
import Testing

/// Differences between corpus configurations of the same device, rendered both ways and applied
/// back; and the NAPALM compare captures applied to the configurations they were made from.
@Suite struct CorpusDiffTests {
  static func config(_ path: String) throws -> ParseResult {
    ConfigParser.parse(try Fixtures.source(path))
  }

  /// Applies a rendering of compare(a, b) to a and checks that the result is b: no diagnostics,
  /// an empty compare to b, and the same order-insensitive curly text. (Both are taken as
  /// ConfigDiff reads them: repeated sibling blocks merged, as Junos merges them.)
  func checkRoundTrips(_ a: ConfigTree, _ b: ConfigTree, _ label: String) {
    var a = a
    var b = b
    a.mergeDuplicateBlocks()
    b.mergeDuplicateBlocks()
    let diff = ConfigDiff(from: a, to: b)
    let identical = orderInsensitiveText(a) == orderInsensitiveText(b)
    let empty = diff.isEmpty
    #expect(empty == identical, "\(label)")

    let junos = diff.renderJunos(secretsShown)
    let text = CompareText.parse(SourceFile(path: "\(label).diff", bytes: junos))
    #expect(text.diagnostics.map(\.rendered) == [], "\(label)")
    let applied = text.apply(to: a)
    #expect(applied.diagnostics.map(\.rendered) == [], "\(label):\n\(string(junos))")
    expectNoDifference(from: applied.tree, to: b, "\(label): Junos text applied")
    expectSameText(orderInsensitiveCurly(applied.tree), orderInsensitiveCurly(b), "\(label): Junos text applied")

    // `display set` text does not say where identifiers end; the keyword table does. The
    // built-in table lacks some keywords of old configurations (ZipTie's Junos 7.0 `snmp
    // trap-group config { targets { … } }`), so the commands are split with the table learned
    // from the two configurations, as `junoscope keywords learn` + `--keywords` would.
    var keywords = KeywordTable.standard
    keywords.learn(from: [a, b])
    let options = DiffOptions(model: ConfigModel(keywords: keywords))
    let set = ConfigDiff(from: a, to: b, options: options).renderSet(secretsShown)
    let loaded = ConfigParser.load(SourceFile(path: "\(label).set", bytes: set), onto: a, model: ConfigModel(keywords: keywords))
    #expect(loaded.diagnostics.map(\.rendered) == [], "\(label):\n\(string(set))")
    expectNoDifference(from: loaded.tree, to: b, "\(label): set commands loaded")
    expectSameText(orderInsensitiveCurly(loaded.tree), orderInsensitiveCurly(b), "\(label): set commands loaded")
  }

  // MARK: pairs of configurations of one device

  /// Every ordered pair of the NAPALM test configurations that parse cleanly.
  ///
  /// `napalm_new_good.conf` has two sibling `ge-0/0/1` blocks, which Junos (and ConfigDiff)
  /// merge into one statement.
  static let napalmPairs: [String] = {
    let clean = Fixtures.files(in: "configs/curly").filter {
      $0.contains("/napalm_") && ((try? config($0).diagnostics.isEmpty) ?? false)
    }
    return clean.flatMap { a in clean.filter { $0 != a }.map { "\(a) -> \($0)" } }
  }()

  /// The POEMA before/after captures, both ways, and the two ZipTie M5 captures (the file on
  /// disk and `show configuration`), both ways.
  static let devicePairs: [String] =
    ["mx-msk-br1", "mx-msk-br4", "mx-rnd-br1"].flatMap { d in
      [
        "configs/curly/poema_before_\(d).md -> configs/curly/poema_after_\(d).md",
        "configs/curly/poema_after_\(d).md -> configs/curly/poema_before_\(d).md",
      ]
    } + [
      "configs/mixed/ziptie_m5_junos7.0_file_show_juniper.conf.gz.txt -> configs/mixed/ziptie_m5_junos7.0_show_configuration.txt",
      "configs/mixed/ziptie_m5_junos7.0_show_configuration.txt -> configs/mixed/ziptie_m5_junos7.0_file_show_juniper.conf.gz.txt",
    ]

  /// Known problems of the inputs: the ZipTie capture ends with its harness's `END` line.
  static let knownDiagnostics = [
    "configs/mixed/ziptie_m5_junos7.0_show_configuration.txt": ["missingSemicolon 276:4"]
  ]

  @Test func napalmPairsAreAllTheCleanOnes() {
    // All five parse (the typos are words the parser cannot tell from real ones): 5 × 4 pairs.
    #expect(Self.napalmPairs.count == 20)
  }

  @Test(arguments: napalmPairs + devicePairs)
  func renderingsApplyBack(_ pair: String) throws {
    let paths = pair.components(separatedBy: " -> ")
    let a = try Self.config(paths[0])
    let b = try Self.config(paths[1])
    for (p, r) in [(paths[0], a), (paths[1], b)] {
      #expect(r.diagnostics.map { "\($0.id) \($0.location)" } == Self.knownDiagnostics[p, default: []], "\(p)")
    }
    checkRoundTrips(a.tree, b.tree, pair)
  }

  /// The POEMA pairs really differ (the test above is not vacuous there).
  /// The acx7024's `show configuration` and `display set` captures are one configuration.
  @Test func acxCurlyAndSetCapturesAreTheSame() throws {
    let curly = try Self.config("configs/curly/jvd_llq_an4_acx7024.conf").tree
    let set = try Self.config("configs/set/jvd_llq_an4_acx7024.set").tree
    let diff = ConfigDiff(from: curly, to: set)
    let text = string(diff.renderJunos())
    #expect(text == "")
  }

  @Test func poemaPairsDiffer() throws {
    for d in ["mx-msk-br1", "mx-msk-br4", "mx-rnd-br1"] {
      let a = try Self.config("configs/curly/poema_before_\(d).md").tree
      let b = try Self.config("configs/curly/poema_after_\(d).md").tree
      let differ = !ConfigDiff(from: a, to: b).isEmpty
      #expect(differ, "\(d)")
    }
  }

  // MARK: a configuration against itself

  static let allConfigs = Fixtures.files(in: "configs/curly") + Fixtures.files(in: "configs/mixed") + Fixtures.files(in: "configs/set")

  /// The configurations with a syntax error (their trees are what could be read).
  static let unparsable: Set<String> = [
    "configs/mixed/ciscoconfparse_sample_02.junos", "configs/mixed/ziptie_m5_junos7.0_show_configuration.txt",
  ]

  @Test func everyConfigurationIsCompared() {
    #expect(Self.allConfigs.count == 39)
    #expect(Self.unparsable.isSubset(of: Self.allConfigs))
  }

  @Test(arguments: allConfigs)
  func selfCompareIsEmpty(_ path: String) throws {
    let result = try Self.config(path)
    // A configuration that stops parsing is not compared with itself as a part of itself.
    #expect(result.hasErrors == Self.unparsable.contains(path), "\(result.diagnostics.map(\.rendered).prefix(3))")
    let tree = result.tree
    let diff = ConfigDiff(from: tree, to: tree)
    let empty = diff.isEmpty && diff.groups.isEmpty && diff.counts.isEmpty
    #expect(empty)
    #expect(string(diff.renderJunos(secretsShown)) == "")
    #expect(string(diff.renderSet(secretsShown)) == "")
    // Another tree with the same configuration (its own curly text read back) is the same too.
    let again = ConfigParser.parse(SourceFile(path: "rendered", bytes: tree.renderCurly(secretsShown)), syntax: .curly).tree
    expectNoDifference(from: tree, to: again, "its own curly text read back")
  }

  // MARK: NAPALM captures on their known bases

  // The NAPALM Junos tests (napalm-automation/napalm test/junos/junos/) are mocks: on a device
  // with `initial.conf`, `load_replace_candidate(new_good.conf)` then `compare_config()` returns
  // `new_good.diff`, and `load_merge_candidate(merge_good.conf)` then `compare_config()` returns
  // `merge_good.diff`. The files are hand-made, and only partly consistent:
  //
  // - `new_good.conf` is `initial.conf` with a second `ge-0/0/1 { unit 0 { family inet { address
  //   192.168.77.11/24; } } }` block before the original `ge-0/0/1 { unit 0; }`. Junos merges
  //   the two blocks, which gives exactly `new_good.diff` against `initial.conf`. Consistent.
  // - `merge_good.diff` is the wrong way round: merging `merge_good.conf` (host-name
  //   junos-CHANGED, family inet under ge-0/0/1 unit 0) into `initial.conf` gives `- host-name
  //   vsrx; + host-name junos-CHANGED;` and `+ family inet {…}`, but the file says the reverse.
  //   It is consistent as the compare from that merged candidate to `initial.conf`, which is
  //   what is tested.

  static let merged = "set interfaces ge-0/0/1 unit 0 family inet address 192.168.77.11/24\n"

  /// `initial.conf` with the given set commands loaded.
  func initialWith(_ commands: String) throws -> ConfigTree {
    let initial = try Self.config("configs/curly/napalm_initial.conf").tree
    let loaded = ConfigParser.load(SourceFile(path: "commands.set", text: commands), onto: initial)
    #expect(loaded.diagnostics.map(\.rendered) == [])
    return loaded.tree
  }

  /// `new_good.conf` as Junos reads it: the two `ge-0/0/1` blocks merged (by reading its set
  /// form, where they are the same statements).
  func newGoodAsJunosReadsIt() throws -> ConfigTree {
    let newGood = try Self.config("configs/curly/napalm_new_good.conf").tree
    let merged = ConfigParser.parse(SourceFile(path: "new_good.set", bytes: newGood.renderSet(secretsShown)), syntax: .set)
    #expect(merged.diagnostics.map(\.rendered) == [])
    return merged.tree
  }

  @Test func napalmNewGoodIsInitialWithFamilyInet() throws {
    let expected = try newGoodAsJunosReadsIt()
    let built = try initialWith(Self.merged)
    expectNoDifference(from: built, to: expected, "initial.conf + family inet vs new_good.conf")
  }

  @Test func napalmNewGoodDiffAppliesToInitial() throws {
    let initial = try Self.config("configs/curly/napalm_initial.conf").tree
    let text = CompareText.parse(try Fixtures.source("diffs/napalm_new_good.diff"))
    #expect(text.diagnostics.map(\.rendered) == [])
    let applied = text.apply(to: initial)
    // Junos prints `[edit interfaces ge-0/0/1 unit 0]` for a `unit 0;` that gains children.
    #expect(applied.diagnostics.map(\.rendered) == [])
    expectNoDifference(from: applied.tree, to: try newGoodAsJunosReadsIt(), "new_good.diff applied to initial.conf")
  }

  @Test func napalmNewGoodDiffIsWhatCompareRenders() throws {
    let initial = try Self.config("configs/curly/napalm_initial.conf").tree
    let rendered = ConfigDiff(from: initial, to: try newGoodAsJunosReadsIt()).renderJunos()
    let capture = string(try Fixtures.bytes("diffs/napalm_new_good.diff"))
    #expect(string(rendered) == capture)
  }

  /// The same with `new_good.conf` as written: its two `ge-0/0/1` blocks are one statement for
  /// Junos, so the compare is still only `family inet` added.
  @Test func napalmNewGoodDiffIsWhatCompareRendersForTheFileAsWritten() throws {
    let initial = try Self.config("configs/curly/napalm_initial.conf").tree
    let newGood = try Self.config("configs/curly/napalm_new_good.conf").tree
    let rendered = ConfigDiff(from: initial, to: newGood).renderJunos()
    let capture = string(try Fixtures.bytes("diffs/napalm_new_good.diff"))
    #expect(string(rendered) == capture)
  }

  /// The candidate `load merge merge_good.conf` makes on `initial.conf`. A merged value replaces
  /// the old one (as `ConfigParser.load` does too, see `JunosRenderingTests.setOfAValueReplacesIt`);
  /// the explicit delete keeps the candidate independent of that.
  func mergedCandidate() throws -> ConfigTree {
    try initialWith("delete system host-name\nset system host-name junos-CHANGED\n" + Self.merged)
  }

  @Test func napalmMergeGoodDiffAppliesToTheMergedCandidate() throws {
    let initial = try Self.config("configs/curly/napalm_initial.conf").tree
    let text = CompareText.parse(try Fixtures.source("diffs/napalm_merge_good.diff"))
    #expect(text.diagnostics.map(\.rendered) == [])
    let applied = text.apply(to: try mergedCandidate())
    #expect(applied.diagnostics.map(\.rendered) == [])
    // Deleting the only child of `unit 0` leaves `unit 0;`, as in initial.conf.
    expectNoDifference(from: applied.tree, to: initial, "merge_good.diff applied to the merged candidate")
  }

  @Test func napalmMergeGoodDiffIsWhatCompareRenders() throws {
    let initial = try Self.config("configs/curly/napalm_initial.conf").tree
    let rendered = ConfigDiff(from: try mergedCandidate(), to: initial).renderJunos()
    let capture = string(try Fixtures.bytes("diffs/napalm_merge_good.diff"))
    #expect(string(rendered) == capture)
  }

  /// What the capture says in the direction NAPALM ran it: its own text, `-`/`+` swapped,
  /// applied to `initial.conf` gives the merged candidate.
  @Test func napalmMergeGoodDiffReversedAppliesToInitial() throws {
    let initial = try Self.config("configs/curly/napalm_initial.conf").tree
    var reversed = string(try Fixtures.bytes("diffs/napalm_merge_good.diff"))
    reversed = String(
      reversed.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
        line.hasPrefix("-") ? "+" + line.dropFirst() : line.hasPrefix("+") ? "-" + line.dropFirst() : String(line)
      }.joined(separator: "\n"))
    // A changed value prints the old line first.
    reversed = reversed.replacingOccurrences(
      of: "+  host-name junos-CHANGED;\n-  host-name vsrx;\n", with: "-  host-name vsrx;\n+  host-name junos-CHANGED;\n")
    let text = CompareText.parse(SourceFile(path: "merge_good.reversed.diff", text: reversed))
    #expect(text.diagnostics.map(\.rendered) == [])
    let applied = text.apply(to: initial)
    #expect(applied.diagnostics.map(\.rendered) == [], "\(reversed)")
    expectNoDifference(from: applied.tree, to: try mergedCandidate(), "merge_good.diff reversed applied to initial.conf")
  }
}

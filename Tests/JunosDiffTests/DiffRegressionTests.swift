import JunosConfig
import JunosDiff
import Testing

/// Inputs the `diff` fuzz target found (reduced), and the equivalences they led to: each pair
/// must compare as expected and its Junos and set renderings must apply back.
@Suite struct DiffRegressionTests {
  static func tree(_ text: String) -> ConfigTree {
    let r = ConfigParser.parse(SourceFile(path: "t", text: text), syntax: .curly)
    #expect(r.diagnostics.map(\.rendered) == [])
    return r.tree
  }

  /// compare(a, b), then both renderings applied to a give a configuration with no difference
  /// from b.
  func roundTrip(_ a: String, _ b: String, empty: Bool = false, setForm: Bool = true) {
    let diff = ConfigDiff(from: Self.tree(a), to: Self.tree(b))
    #expect(diff.isEmpty == empty, "\(String(decoding: diff.renderJunos(), as: UTF8.self))")
    let junos = diff.renderJunos(RenderOptions(showSecrets: true))
    let text = CompareText.parse(SourceFile(path: "diff", bytes: junos))
    #expect(text.diagnostics.map(\.rendered) == [], "\(String(decoding: junos, as: UTF8.self))")
    let applied = text.apply(to: diff.old)
    #expect(applied.diagnostics.map(\.rendered) == [], "\(String(decoding: junos, as: UTF8.self))")
    let same = ConfigDiff(from: applied.tree, to: diff.new).isEmpty
    #expect(same, "\(String(decoding: junos, as: UTF8.self))")
    guard setForm else { return }
    let set = diff.renderSet(RenderOptions(showSecrets: true))
    let loaded = ConfigParser.load(SourceFile(path: "set", bytes: set), onto: diff.old)
    #expect(loaded.diagnostics.map(\.rendered) == [])
    let sameLoaded = ConfigDiff(from: loaded.tree, to: diff.new).isEmpty
    #expect(sameLoaded, "\(String(decoding: set, as: UTF8.self))")
  }

  @Test func multiLineAnnotationWithCRLFAndTrailingBlanks() {
    // (No set check here: set form cannot spell a line break in `annotate`.)
    let a = Self.tree("/* first line\r\n   second */\nsystem {\n    host-name r1;\n}\n")
    let b = Self.tree("/* first line  \n   changed */\nsystem {\n    host-name r1;\n}\n")
    let diff = ConfigDiff(from: a, to: b)
    let junos = diff.renderJunos()
    // The annotations' lines verbatim after the marker and one blank (the CR, the blanks).
    #expect(
      String(decoding: junos, as: UTF8.self)
        == "[edit]\n-  /* first line\r\n-    second */\n+  /* first line  \n+    changed */\n   system { ... }\n")
    let applied = CompareText.parse(SourceFile(path: "d", bytes: junos)).apply(to: a)
    #expect(applied.diagnostics.map(\.rendered) == [])
    let same = ConfigDiff(from: applied.tree, to: b).isEmpty
    #expect(same)
  }

  /// apply(compare(a, b), a) gives b's multi-line annotations verbatim: their lines' own
  /// indentation, the line of `*/` included, in added blocks and on annotated statements.
  @Test func multiLineAnnotationsApplyBackVerbatim() {
    let a = Self.tree("system {\n    host-name r1;\n}\n")
    let text = """
      system {
          /* first line
             second line
          third */
          host-name r1;
          services {
              /* multi
               * star
               */
              ssh;
          }
      }

      """
    let b = Self.tree(text)
    for way in [0, 1] {
      let (from, to) = way == 0 ? (a, b) : (b, a)
      let junos = ConfigDiff(from: from, to: to).renderJunos()
      let applied = CompareText.parse(SourceFile(path: "d", bytes: junos)).apply(to: from)
      #expect(applied.diagnostics.map(\.rendered) == [])
      let rendered = applied.tree.renderCurly(RenderOptions(showSecrets: true))
      #expect(rendered == to.renderCurly(RenderOptions(showSecrets: true)), "\(String(decoding: junos, as: UTF8.self))")
    }
    #expect(String(decoding: b.renderCurly(RenderOptions(showSecrets: true)), as: UTF8.self) == text)
  }

  @Test func annotationEndingInATabAppliesBack() {
    let a = Self.tree("/* note\t   */\nsystem {\n    host-name r1;\n}\n")
    let b = Self.tree("/* note\n   */\nsystem {\n    host-name r1;\n}\n")
    let diff = ConfigDiff(from: a, to: b)
    let applied = CompareText.parse(SourceFile(path: "d", bytes: diff.renderJunos())).apply(to: a)
    #expect(applied.diagnostics.map(\.rendered) == [])
    let same = ConfigDiff(from: applied.tree, to: b).isEmpty
    #expect(same)
  }

  @Test func commentContinuationAtColumnZeroKeepsItsMarker() {
    let a = Self.tree("system {\n    /* note\n*/\n    login { class x; }\n}\n")
    let b = Self.tree("system {\n}\n")
    let junos = String(decoding: ConfigDiff(from: a, to: b).renderJunos(), as: UTF8.self)
    #expect(junos.contains("\n- */\n") || junos.contains("\n-  */\n"), "\(junos)")
    let applied = CompareText.parse(SourceFile(path: "d", text: junos)).apply(to: a)
    #expect(applied.diagnostics.map(\.rendered) == [])
  }

  @Test func emptyBlockIsALeaf() {
    roundTrip("system {\n    services {\n        ssh { }\n    }\n}\n", "system {\n    services {\n        ssh;\n    }\n}\n", empty: true)
    roundTrip("system {\n    host-name r1 { }\n}\n", "system {\n    host-name r1;\n}\n", empty: true)
  }

  @Test func oneValueListIsALeaf() {
    roundTrip("vlans {\n    v10 {\n        vlan-id [ 10 ];\n    }\n}\n", "vlans {\n    v10 {\n        vlan-id 10;\n    }\n}\n", empty: true)
  }

  @Test func repeatedSiblingBlocksAreOne() {
    roundTrip(
      "interfaces {\n    ge-0/0/1 {\n        unit 0;\n    }\n    ge-0/0/1 {\n        unit 0 {\n            family inet;\n        }\n    }\n}\n",
      "interfaces {\n    ge-0/0/1 {\n        unit 0 {\n            family inet;\n        }\n    }\n}\n", empty: true)
    roundTrip(
      "system {\n    host-name r1;\n}\n",
      "system {\n    host-name r1;\n}\ninterfaces {\n    ge-0/0/0;\n}\ninterfaces {\n    ge-0/0/1;\n}\n")
  }

  @Test func repeatedLineFoundAmongOthersWithTheSameKeyword() {
    // The repeated `encapsulation vlan-ccc` is not next to its twin among the `encapsulation`s.
    roundTrip(
      "u {\n    encapsulation vlan-ccc;\n    encapsulation x;\n}\n",
      "u {\n    encapsulation vlan-ccc;\n    encapsulation x;\n    encapsulation vlan-ccc;\n}\n", empty: true)
  }

  @Test func theIdenticalLineIsPreferredAmongSameIdentity() {
    // `interfaces s bgp;` and `interfaces { … }` share the identity `interfaces`. (`interfaces
    // s bgp` has no set spelling: `interfaces` takes one name.)
    roundTrip(
      "interfaces s bgp;\ninterfaces {\n    xe-0/0/0 {\n        unit 0;\n    }\n}\n",
      "interfaces {\n    xe-0/0/0 {\n        unit 1;\n    }\n}\n", setForm: false)
  }

  @Test func leafGainingChildrenIsAChangeBelowIt() {
    let diff = ConfigDiff(
      from: Self.tree("system {\n    services {\n        ssh;\n    }\n}\n"),
      to: Self.tree("system {\n    services {\n        ssh {\n            root-login deny;\n        }\n    }\n}\n"))
    #expect(String(decoding: diff.renderJunos(), as: UTF8.self) == "[edit system services ssh]\n+    root-login deny;\n")
  }

  @Test func flagLinesMustMatchTheBase() {
    let base = Self.tree("interfaces {\n    inactive: ge-0/0/0 {\n        mtu 9192;\n    }\n}\n")
    let text = CompareText.parse(SourceFile(path: "d", text: "[edit interfaces]\n!   inactive: ge-0/0/0 { ... }\n"))
    let applied = text.apply(to: base)
    #expect(applied.diagnostics.map(\.rendered) == ["d:2:15: error: 'inactive: ge-0/0/0': the base's statement is already inactive"])
  }

  @Test func pagerInsideABlockIsLocatedInTheCapture() {
    let text = CompareText.parse(
      SourceFile(path: "c", text: "[edit system]\n+  syslog {\n+      file messages {\n+          any any;\n---(more)---\n"))
    #expect(
      text.diagnostics.map(\.rendered) == [
        "c:5:1: error: the capture stops at a pager prompt ('---(more)---'): the diff is truncated",
        "c:4:20: error: missing '}': input ends inside 2 open blocks (outermost 'syslog', innermost 'file messages' opened at 3:8)",
      ])
  }
}

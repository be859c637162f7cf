import JunosConfig
import Testing

/// Generated configurations with groups (wildcard and literal interface entries, `apply-groups`
/// at the top and on interfaces in random orders, `apply-groups-except`), checked against an
/// independent model of Junos's priority rules.
enum InheritanceProperties {
  /// `display inheritance` text without its `##` lines.
  static func stripNotes(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !$0.drop { $0 == " " }.hasPrefix("##")
    }.joined(separator: "\n")
  }

  struct Entry {
    var pattern: String
    var mtu: Int?
  }

  struct Interface {
    var name: String
    var mtu: Int?
    var applies: [String]
    var except: String?
  }

  struct Generated {
    var groups: [(name: String, entries: [Entry])]
    var top: [String]
    var interfaces: [Interface]

    var text: String {
      var s = "groups {\n"
      for g in groups {
        s += "    \(g.name) {\n        interfaces {\n"
        for e in g.entries {
          s += "            \"\(e.pattern)\" {\n"
          if let m = e.mtu { s += "                mtu \(m);\n" }
          s += "                description \"from \(g.name)\";\n            }\n"
        }
        s += "        }\n    }\n"
      }
      s += "}\n"
      if !top.isEmpty { s += "apply-groups [ \(top.joined(separator: " ")) ];\n" }
      s += "interfaces {\n"
      for i in interfaces {
        s += "    \(i.name) {\n"
        if !i.applies.isEmpty { s += "        apply-groups [ \(i.applies.joined(separator: " ")) ];\n" }
        if let e = i.except { s += "        apply-groups-except \(e);\n" }
        if let m = i.mtu { s += "        mtu \(m);\n" }
        s += "        unit 0;\n    }\n"
      }
      return s + "}\n"
    }

    /// The MTU Junos gives an interface, and the group it comes from (`nil`: explicit or none).
    func expectedMTU(_ i: Interface) -> (Int?, String?) {
      if let m = i.mtu { return (m, nil) }
      for name in i.applies + top where name != i.except {
        guard let g = groups.first(where: { $0.name == name }) else { continue }
        for e in g.entries where matches(e.pattern, i.name) {
          if let m = e.mtu { return (m, name) }
        }
      }
      return (nil, nil)
    }

    func matches(_ pattern: String, _ name: String) -> Bool {
      guard pattern.hasPrefix("<") else { return pattern == name }
      switch pattern {
      case "<*>": return true
      case "<ge-*>": return name.hasPrefix("ge-")
      case "<xe-*>": return name.hasPrefix("xe-")
      case "<ge-0/0/[0-2]>": return ["ge-0/0/0", "ge-0/0/1", "ge-0/0/2"].contains(name)
      default: return false
      }
    }
  }

  static func generate(_ g: inout SplitMix64) -> Generated {
    let names = ["G0", "G1", "G2", "G3"]
    let patterns = ["<*>", "<ge-*>", "<xe-*>", "ge-0/0/1", "<ge-0/0/[0-2]>"]
    var groups: [(String, [Entry])] = []
    for n in names {
      var entries: [Entry] = []
      for _ in 0..<Int.random(in: 1...3, using: &g) {
        entries.append(
          Entry(pattern: patterns.randomElement(using: &g)!, mtu: Bool.random(using: &g) ? Int.random(in: 1500...9000, using: &g) : nil))
      }
      groups.append((n, entries))
    }
    let top = Array(names.shuffled(using: &g).prefix(Int.random(in: 0...4, using: &g)))
    var interfaces: [Interface] = []
    for name in ["ge-0/0/0", "ge-0/0/1", "ge-0/0/2", "ge-0/0/3", "xe-0/0/0", "xe-0/0/1"] {
      let applies = Array(names.shuffled(using: &g).prefix(Int.random(in: 0...2, using: &g)))
      let except = Int.random(in: 0..<3, using: &g) == 0 ? names.filter { !applies.contains($0) }.randomElement(using: &g) : nil
      let mtu = Int.random(in: 0..<4, using: &g) == 0 ? 1400 : nil
      interfaces.append(Interface(name: name, mtu: mtu, applies: applies, except: except))
    }
    return Generated(groups: groups, top: top, interfaces: interfaces)
  }
}

@Suite struct InheritancePropertyTests {
  @Test func groupsFollowJunosPriorityAndTheNotesStripToTheEffectiveTree() {
    var rng = SplitMix64(state: 0x1A4E_C0DE_2026)
    for round in 0..<200 {
      let gen = InheritanceProperties.generate(&rng)
      let parsed = parse(gen.text)
      let ok = !parsed.hasErrors
      #expect(ok, "round \(round): \(parsed.diagnostics.map(\.rendered))")
      let i = parsed.tree.inheritance(interfaceRanges: true)
      let t = i.configuration
      // The interfaces of the effective tree, by name.
      var found: [String: NodeID] = [:]
      for top in t.children(of: ConfigTree.root) where t.word(0, of: top) == "interfaces" {
        for ifd in t.children(of: top) { found[t.word(0, of: ifd)] = ifd }
      }
      for ifd in gen.interfaces {
        guard let node = found[ifd.name] else {
          Issue.record("round \(round): \(ifd.name) missing")
          continue
        }
        let mtu = t.children(of: node).first { t.word(0, of: $0) == "mtu" }
        let (value, group) = gen.expectedMTU(ifd)
        #expect(mtu.flatMap { Int(t.word(1, of: $0)) } == value, "round \(round) \(ifd.name)\n\(gen.text)")
        #expect(mtu.flatMap { i.source(of: $0)?.name } == group, "round \(round) \(ifd.name)\n\(gen.text)")
      }
      // `display inheritance` without its notes is the effective configuration.
      let shown = i.renderCurly().text
      let back = parse(InheritanceProperties.stripNotes(shown))
      let backOK = !back.hasErrors
      #expect(backOK)
      let same = back.tree.sameConfiguration(ConfigTree.root, as: ConfigTree.root, in: t)
      #expect(same, "round \(round)\n\(shown)")
      // `display inheritance no-comments` and the checklist's effective() agree.
      #expect(parsed.tree.effective(interfaceRanges: true).renderCurly().text == i.renderCurly(RenderOptions(comments: false)).text)
    }
  }
}

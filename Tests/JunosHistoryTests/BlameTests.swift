import JunosConfig
import JunosDiff
import JunosHistory
import JunoscopeTestSupport
import Testing

/// The record key (see `RollbackChain.key`) of a statement of a parsed tree.
func chainKey(_ tree: ConfigTree, _ node: NodeID) -> String {
  var lines: [String] = []
  var n: NodeID? = node
  while let c = n, c != ConfigTree.root {
    lines.append(String(decoding: tree.statementText(c, RenderOptions(showSecrets: true), prefixes: false), as: UTF8.self))
    n = tree.parent(of: c)
  }
  return RollbackChain.key(lines.reversed())
}

func parseTree(_ text: String, _ name: String = "rollback") -> ConfigTree {
  let r = ConfigParser.parse(SourceFile(path: name, bytes: Array(text.utf8)))
  precondition(!r.hasErrors, "\(name): \(r.diagnostics.map(\.rendered))")
  return r.tree
}

@Suite struct BlameTests {
  /// Blame over generated chains agrees with the generator's record for every statement.
  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func generatedChainsMatchTheRecord(seed: UInt64) throws {
    let chain = RollbackChain(seed: seed, commits: 50, interfaces: 24, editsPerCommit: 1...4)
    let texts = chain.rollbacks
    var stepsSeen: [Int] = []
    let result = Blame.chain(rollbacks: Array(0..<50), workers: 2, load: { n in parseTree(texts[n], "rollback \(n)") }) { n, diff in
      stepsSeen.append(n)
      // Each step is the diff of one commit.
      if let diff { #expect(diff.isEmpty == (chain.edits[n] ?? []).allSatisfy { $0 == "nothing" }) }
    }
    let blame = try #require(result)
    #expect(stepsSeen == Array((0..<50).reversed()))
    #expect(blame.rollback == 0 && blame.oldestRollback == 49)
    var seen = 0
    var wrong: [String] = []
    blame.tree.forEachStatement { node in
      seen += 1
      let key = chainKey(blame.tree, node)
      let o = blame.origin(of: node)
      guard let want = chain.record[key] else {
        wrong.append("not in the record: \(key)")
        return
      }
      let ok = want == 49 ? o.isBoundary && o.commit == 49 : !o.isBoundary && o.commit == want && o.oldestCommit == want
      if !ok { wrong.append("\(key): blamed \(Blame.label(o)), made by \(want) (\(chain.edits[want] ?? []))") }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    #expect(seen == chain.record.count)
    // The chain really exercises every kind of change.
    let all = chain.edits.values.joined()
    for kind in ["changed", "added interface", "deleted", "deactivated", "annotated", "moved", "added route", "disabled"] {
      #expect(all.contains { $0.hasPrefix(kind) }, "no '\(kind)' edit")
    }
  }

  /// With rollbacks missing, a change between two read rollbacks is blamed on the span of
  /// commits it may come from, which holds the true one.
  @Test func missingRollbacksGiveSpans() throws {
    let chain = RollbackChain(seed: 9, commits: 30, interfaces: 16, editsPerCommit: 2...3)
    let texts = chain.rollbacks
    let read = (0..<30).filter { ![3, 4, 5, 17].contains($0) }
    let result = Blame.chain(rollbacks: read, load: { n in parseTree(texts[n]) })
    let blame = try #require(result)
    var spans = 0
    blame.tree.forEachStatement { node in
      let o = blame.origin(of: node)
      let want = chain.record[chainKey(blame.tree, node)]!
      if o.isBoundary {
        #expect(want == 29)
      } else {
        #expect((o.commit...o.oldestCommit).contains(want), "\(chainKey(blame.tree, node)): \(Blame.label(o)) vs \(want)")
        if o.oldestCommit > o.commit { spans += 1 }
      }
    }
    #expect(spans > 0)
  }

  @Test func unchangedChainBlamesTheOldest() throws {
    let text = "system {\n    host-name r1;\n}\n"
    let result = Blame.chain(rollbacks: [0, 1, 2], load: { _ in parseTree(text) })
    let b = try #require(result)
    let host = b.tree.statements(at: ["system", "host-name"])
    #expect(host.count == 1)
    #expect(b.origin(of: host[0]) == Blame.Origin(commit: 2, oldestCommit: 2, isBoundary: true))
  }

  /// Repeated blocks (merged as Junos merges them on load) anywhere in the chain: the steps after
  /// a merge are compared again on the merged tree, and nothing is misattributed.
  @Test func repeatedBlocksAreMerged() throws {
    let texts = [
      "system { host-name a; ntp; domain-name x; }\ninterfaces { ge-0/0/0 { mtu 1; } }\n",
      "system { host-name a; }\nsystem { ntp; }\ninterfaces { ge-0/0/0 { mtu 1; } }\n",
      "system { host-name a; }\nsystem { ntp; }\ninterfaces { ge-0/0/0 { mtu 2; } }\n",
      "system { host-name a; ntp; }\ninterfaces { ge-0/0/0 { mtu 2; } }\n",
    ]
    for workers in [1, 2, 4] {
      let result = Blame.chain(rollbacks: [0, 1, 2, 3], workers: workers, load: { n in parseTree(texts[n]) })
      let b = try #require(result)
      func origin(_ path: [String]) -> String { Blame.label(b.origin(of: b.tree.statements(at: path)[0])) }
      #expect(origin(["system", "host-name"]) == "^3")
      #expect(origin(["system", "ntp"]) == "^3")
      #expect(origin(["system", "domain-name"]) == "0")
      #expect(origin(["interfaces", "ge-0/0/0", "mtu"]) == "1")
      #expect(b.tree.statements(at: ["system"]).count == 1)
    }
  }

  @Test func loadErrorsStopTheChain() {
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      _ = try Blame.chain(rollbacks: Array(0..<20), workers: 3) { (n: Int) throws(Boom) -> ConfigTree in
        if n == 7 { throw Boom() }
        return parseTree("system { host-name r\(n); }\n")
      }
    }
  }

  /// Own-line changes are the statement's; a block whose children change keeps its commit.
  @Test func textAndJSONRenderings() throws {
    let r2 = """
      ## Last commit: 2024-01-01 10:00:00 UTC by ann
      system {
          host-name r1;
          services {
              ssh;
          }
      }
      policy-options {
          policy-statement P {
              term a {
                  then accept;
              }
              term b {
                  then reject;
              }
              term c {
                  then accept;
              }
          }
      }

      """
    let r1 = r2.replacing("by ann", with: "by lewis").replacing("ssh;", with: "ssh;\n            netconf;")
    let r0 = r1.replacing("by lewis", with: "by stuart").replacing("host-name r1;", with: "host-name r2;")
      .replacing(
        "        term a {\n            then accept;\n        }\n        term b {\n            then reject;\n        }\n        term c {",
        with: "        inactive: term c {"
      )
      .replacing(
        "            then accept;\n        }\n    }\n}",
        with:
          "            then accept;\n        }\n        term a {\n            then accept;\n        }\n        term b {\n            then reject;\n        }\n    }\n}"
      )
    let texts = [r0, r1, r2]
    let trees = texts.map { parseTree($0) }
    let result = Blame.chain(rollbacks: [0, 1, 2], load: { n in parseTree(texts[n]) })
    let b = try #require(result)
    var h = RollbackFiles.history(from: [0: trees[0], 1: trees[1], 2: trees[2]])
    TimePlacement.place(&h, file: SourceFile(path: "x", bytes: []))
    let text = String(decoding: b.renderText(commits: h), as: UTF8.self)
    #expect(
      text == """
        ^2 (earlier) ≤ 2024-01-01 10:00 | system {
         0 stuart    2024-01-01 10:00   |     host-name r2;
        ^2 (earlier) ≤ 2024-01-01 10:00 |     services {
        ^2 (earlier) ≤ 2024-01-01 10:00 |         ssh;
         1 lewis     2024-01-01 10:00   |         netconf;
                                        |     }
                                        | }
        ^2 (earlier) ≤ 2024-01-01 10:00 | policy-options {
        ^2 (earlier) ≤ 2024-01-01 10:00 |     policy-statement P {
         0 stuart    2024-01-01 10:00   |         inactive: term c {
        ^2 (earlier) ≤ 2024-01-01 10:00 |             then accept;
                                        |         }
        ^2 (earlier) ≤ 2024-01-01 10:00 |         term a {
        ^2 (earlier) ≤ 2024-01-01 10:00 |             then accept;
                                        |         }
        ^2 (earlier) ≤ 2024-01-01 10:00 |         term b {
        ^2 (earlier) ≤ 2024-01-01 10:00 |             then reject;
                                        |         }
                                        |     }
                                        | }

        """)
    let sub = String(decoding: b.renderText(.init(roots: b.tree.statements(at: ["system", "services"])), commits: h), as: UTF8.self)
    #expect(sub.hasPrefix("                                | [edit system]\n^2 (earlier) ≤ 2024-01-01 10:00 | services {\n"))
    let json = String(decoding: b.renderJSON(.init(roots: b.tree.statements(at: ["system", "host-name"])), commits: h), as: UTF8.self)
    #expect(
      json.hasPrefix(
        #"{"format":"junoscope.blame","version":1,"rollback":0,"oldestRollback":2,"statements":[{"path":"system","statement":"host-name r2","commit":0,"oldestCommit":0,"candidates":[0],"boundary":false}],"commits":[{"index":0,"time":"2024-01-01T10:00:00Z""#
      ))
  }

  /// Rollbacks 2, 3 and 5 missing from the folder: commits 4..5 (katerina, lewis) and 1..3
  /// (stuart three times) are spans, whose user cells name every candidate, newest first, over
  /// the range of their times; the oldest rollback's statements are `(earlier)`, there by its
  /// time. `candidates` lists every commit of a span, and `commits` has all of them.
  @Test func spansNameEveryCandidate() throws {
    let r6 =
      "system {\n    host-name r1;\n}\npolicy-options {\n    prefix-list P {\n        10.0.0.0/8;\n    }\n}\n"
      + "interfaces {\n    ge-0/0/0 {\n        mtu 1500;\n    }\n}\n"
    // 5 (lewis): host-name r2; 4 (katerina): prefix-list Q; 3 (stuart): mtu 9000; 2 (stuart):
    // a description; 1 (stuart): nothing; 0 (admin): a second prefix in P.
    let r4 = r6.replacing("host-name r1", with: "host-name r2")
      .replacing("        10.0.0.0/8;\n    }\n", with: "        10.0.0.0/8;\n    }\n    prefix-list Q {\n        192.0.2.0/24;\n    }\n")
    let r1 = r4.replacing("        mtu 1500;", with: "        description core;\n        mtu 9000;")
    let r0 = r1.replacing("10.0.0.0/8;\n", with: "10.0.0.0/8;\n        172.16.0.0/12;\n")
    let texts = [0: r0, 1: r1, 4: r4, 6: r6]
    let result = Blame.chain(rollbacks: [0, 1, 4, 6], load: { n in parseTree(texts[n]!) })
    let b = try #require(result)
    let all: [RollbackChain.CommitInfo] = [
      .init(index: 0, user: "admin", time: "2024-02-05 12:00:00", log: "prefix"),
      .init(index: 1, user: "stuart", time: "2024-02-04 08:00:00", log: "nothing"),
      .init(index: 2, user: "stuart", time: "2024-02-03 09:15:00", log: "description"),
      .init(index: 3, user: "stuart", time: "2024-02-03 09:00:00", log: "mtu"),
      .init(index: 4, user: "katerina", time: "2024-01-01 00:10:00", log: "prefix-list"),
      .init(index: 5, user: "lewis", time: "2023-12-31 23:50:00", log: "host-name"),
      .init(index: 6, user: "ann", time: "2023-12-01 09:00:00", log: "start"),
    ]
    func history(_ commits: [RollbackChain.CommitInfo]) -> CommitHistory {
      let file = SourceFile(path: "commits", bytes: Array(RollbackChain.listing(commits).utf8))
      var h = CommitHistory.read(file)
      TimePlacement.place(&h, file: file)
      return h
    }
    let full = history(all)
    #expect(
      String(decoding: b.renderText(commits: full), as: UTF8.self) == """
          ^6 (earlier)      ≤ 2023-12-01 09:00                 | system {
        4..5 katerina,lewis 2023-12-31 23:50..2024-01-01 00:10 |     host-name r2;
                                                               | }
          ^6 (earlier)      ≤ 2023-12-01 09:00                 | policy-options {
          ^6 (earlier)      ≤ 2023-12-01 09:00                 |     prefix-list P {
          ^6 (earlier)      ≤ 2023-12-01 09:00                 |         10.0.0.0/8;
           0 admin          2024-02-05 12:00                   |         172.16.0.0/12;
                                                               |     }
        4..5 katerina,lewis 2023-12-31 23:50..2024-01-01 00:10 |     prefix-list Q {
        4..5 katerina,lewis 2023-12-31 23:50..2024-01-01 00:10 |         192.0.2.0/24;
                                                               |     }
                                                               | }
          ^6 (earlier)      ≤ 2023-12-01 09:00                 | interfaces {
          ^6 (earlier)      ≤ 2023-12-01 09:00                 |     ge-0/0/0 {
        1..3 stuart         2024-02-03 09:00..02-04 08:00      |         description core;
        1..3 stuart         2024-02-03 09:00..02-04 08:00      |         mtu 9000;
                                                               |     }
                                                               | }

        """)
    // Commits 1 and 5 not in the listing: a `?` in their place; one known time prints alone.
    let partial = history(all.filter { $0.index != 1 && $0.index != 5 })
    let lines = String(decoding: b.renderText(commits: partial), as: UTF8.self).split(separator: "\n")
    #expect(lines[0] == "  ^6 (earlier)  ≤ 2023-12-01 09:00      | system {")
    #expect(lines[1] == "4..5 katerina,? 2024-01-01 00:10        |     host-name r2;")
    #expect(lines[14] == "1..3 ?,stuart   2024-02-03 09:00..09:15 |         description core;")
    // No listing at all.
    let none = String(decoding: b.renderText(commits: CommitHistory()), as: UTF8.self).split(separator: "\n")
    #expect(none[0] == "  ^6 (earlier) ? | system {")
    #expect(none[1] == "4..5 ?         ? |     host-name r2;")
    #expect(none[6] == "   0 ?         ? |         172.16.0.0/12;")
    // JSON: every candidate, and the listing's entry of each.
    func indices(_ json: String) -> [Int] {
      let commits = json[json.range(of: #""commits":["#)!.upperBound...]
      return commits.matches(of: /"index":(\d+)/).map { Int($0.output.1)! }
    }
    let json = String(decoding: b.renderJSON(commits: full), as: UTF8.self)
    #expect(json.contains(#"{"path":"system","statement":"host-name r2","commit":4,"oldestCommit":5,"candidates":[4,5],"boundary":false}"#))
    #expect(json.contains(#"{"path":"interfaces","statement":"ge-0/0/0","commit":6,"oldestCommit":6,"candidates":[6],"boundary":true}"#))
    #expect(
      json.contains(
        #"{"path":"interfaces ge-0/0/0","statement":"mtu 9000","commit":1,"oldestCommit":3,"candidates":[1,2,3],"boundary":false}"#))
    #expect(json.contains(#""statement":"172.16.0.0/12","commit":0,"oldestCommit":0,"candidates":[0],"boundary":false}"#))
    #expect(indices(json) == [0, 1, 2, 3, 4, 5, 6])
    let interfaces = b.renderJSON(.init(roots: b.tree.statements(at: ["interfaces"])), commits: full)
    #expect(indices(String(decoding: interfaces, as: UTF8.self)) == [1, 2, 3, 6])
    #expect(indices(String(decoding: b.renderJSON(commits: partial), as: UTF8.self)) == [0, 2, 3, 4, 6])
  }

  @Test func hierarchyPaths() {
    let t = parseTree(
      "interfaces { xe-0/0/1 { unit 0 { description a; } unit 1; } xe-0/0/2; }\nrouting-options { static { route 10.0.0.0/8 next-hop 1.1.1.1; route 10.0.0.0/8 discard; } }\n"
    )
    #expect(t.statements(at: ["interfaces", "xe-0/0/1", "unit", "0"]).map { t.words(of: $0) } == [["unit", "0"]])
    #expect(t.statements(at: ["interfaces", "xe-0/0/1", "unit"]).count == 2)
    #expect(t.statements(at: ["routing-options", "static", "route", "10.0.0.0/8"]).count == 2)
    #expect(t.statements(at: ["interfaces", "xe-0/0/3"]).isEmpty)
    #expect(t.statements(at: []).isEmpty)
  }
}

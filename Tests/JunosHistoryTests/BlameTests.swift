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
        ^2 ann    2024-01-01 10:00 | system {
         0 stuart 2024-01-01 10:00 |     host-name r2;
        ^2 ann    2024-01-01 10:00 |     services {
        ^2 ann    2024-01-01 10:00 |         ssh;
         1 lewis  2024-01-01 10:00 |         netconf;
                                   |     }
                                   | }
        ^2 ann    2024-01-01 10:00 | policy-options {
        ^2 ann    2024-01-01 10:00 |     policy-statement P {
         0 stuart 2024-01-01 10:00 |         inactive: term c {
        ^2 ann    2024-01-01 10:00 |             then accept;
                                   |         }
        ^2 ann    2024-01-01 10:00 |         term a {
        ^2 ann    2024-01-01 10:00 |             then accept;
                                   |         }
        ^2 ann    2024-01-01 10:00 |         term b {
        ^2 ann    2024-01-01 10:00 |             then reject;
                                   |         }
                                   |     }
                                   | }

        """)
    let sub = String(decoding: b.renderText(.init(roots: b.tree.statements(at: ["system", "services"])), commits: h), as: UTF8.self)
    #expect(sub.hasPrefix("                          | [edit system]\n^2 ann   2024-01-01 10:00 | services {\n"))
    let json = String(decoding: b.renderJSON(.init(roots: b.tree.statements(at: ["system", "host-name"])), commits: h), as: UTF8.self)
    #expect(
      json.hasPrefix(
        #"{"rollback":0,"oldestRollback":2,"statements":[{"path":"system","statement":"host-name r2","commit":0,"oldestCommit":0,"boundary":false}],"commits":[{"index":0,"time":"2024-01-01T10:00:00Z""#
      ))
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

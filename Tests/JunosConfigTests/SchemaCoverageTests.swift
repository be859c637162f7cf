import JunosConfig
import JunosSchema
import Testing

/// Juniper's schema against every statement of the real configurations in `Fixtures/configs`:
/// almost all are known, and the device's own layout is the schema's device form.
@Suite struct SchemaCoverageTests {
  static let curlyFiles = Fixtures.files(in: "configs/curly")

  /// The statements the schema does not know (or only in part), by path of first words.
  func unknownStatements(_ tree: ConfigTree) -> [String] {
    let shapes = ConfigModel.standard.shapes(of: tree)
    var out: [String] = []
    for node in tree.allStatements() {
      let s = shapes[node]
      guard s.head == nil || !s.complete else { continue }
      // Report the outermost statement the schema does not know, not everything below it.
      if let p = tree.parent(of: node), p != ConfigTree.root, shapes[p].head == nil { continue }
      out.append((tree.pathWords(of: node)).joined(separator: " "))
    }
    return out
  }

  @Test func nearlyEveryStatementIsKnown() throws {
    #expect(Self.curlyFiles.count == 16)
    var total = 0
    var unknown: [String] = []
    for path in Self.curlyFiles {
      let tree = ConfigParser.parse(try Fixtures.source(path)).tree
      total += tree.statementCount
      unknown += unknownStatements(tree).map { "\(path.split(separator: "/").last!): \($0)" }
    }
    #expect(total > 100_000)
    // What is left: the NAPALM fixtures' deliberate typo (`unt`), and two hidden statements
    // Juniper's public modules lack (`ppm traceoptions`, `no-multi-topology-routing`).
    #expect(
      unknown == [
        "jvd_ewan_wanedge2_mx10008.conf: routing-options ppm traceoptions",
        "jvd_llq_an4_acx7024.conf: routing-options no-multi-topology-routing",
        "napalm_merge_typo.conf: interfaces ge-0/0/1 unt 0",
        "napalm_new_typo.conf: interfaces ge-0/0/1 unt 0",
      ])
  }
}

import Foundation
import JunosChecklist
import JunosConfig
import Testing

/// The one detector, over every real file of each kind under Fixtures/.
@Suite struct InputKindTests {
  /// The regular files of a Fixtures/ folder (recursively), sorted.
  func files(_ folder: String) throws -> [String] {
    let root = ChecklistFixtures.root.appendingPathComponent(folder).path
    let e = try #require(FileManager.default.enumerator(atPath: root))
    var out: [String] = []
    while let rel = e.nextObject() as? String {
      var dir: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + rel, isDirectory: &dir), !dir.boolValue { out.append(folder + "/" + rel) }
    }
    return out.sorted()
  }

  func kinds(_ folder: String) throws -> [String: InputKind] {
    var out: [String: InputKind] = [:]
    for f in try files(folder) { out[f] = InputKind.detect(try ChecklistFixtures.source(f)) }
    return out
  }

  @Test func everyListingIsAListing() throws {
    let text = try kinds("commit-history/text")
    let xml = try kinds("commit-history/xml")
    #expect(text.count == 10)
    #expect(xml.count == 3)
    // Among them the listing that starts with `# commit confirmed will be rolled back in 10 minutes`.
    #expect(text["commit-history/text/pytraining_commit_confirmed_cet.txt"] == .history)
    #expect(text.merging(xml) { a, _ in a }.filter { $0.value != .history }.keys.sorted() == [])
  }

  @Test func everyConfigurationIsAConfiguration() throws {
    let all = try ["curly", "set", "xml", "mixed"].map { try kinds("configs/" + $0) }
    #expect(all.map(\.count) == [16, 1, 3, 22])
    #expect(all[0].values.allSatisfy { $0 == .configuration(.curly) })
    #expect(all[1].values.allSatisfy { $0 == .configuration(.set) })
    #expect(all[2].values.allSatisfy { $0 == .configuration(.xml) })
    #expect(all[3].values.allSatisfy { if case .configuration = $0 { true } else { false } })
    // `delete` lines make commands.
    let commands = SourceFile(path: "c", text: "set system host-name r1\ndelete protocols ospf\n")
    #expect(InputKind.detect(commands) == .commands)
  }

  @Test func compareCapturesPlansAndBinaries() throws {
    let diffs = try kinds("diffs")
    #expect(diffs.count == 27)
    #expect(diffs.filter { $0.value != .compare }.keys.sorted() == [])
    let plans = try kinds("checklist").filter { $0.key.hasSuffix(".plan") }
    #expect(plans.count == 7)
    #expect(plans.values.allSatisfy { $0 == .plan })
    let zones = try kinds("zoneinfo")
    #expect(zones.count == 10)
    #expect(zones.values.allSatisfy { if case .binary = $0 { true } else { false } })
    #expect(InputKind.detect(SourceFile(path: "e", text: " \n\r\n\t")) == .empty)
    #expect(InputKind.detect(SourceFile(path: "e", text: "")) == .empty)
  }

  @Test func binaryIsANulOrOneControlByteInTen() {
    #expect(SourceFile(path: "t", text: "system { host-name r1; }\n").binaryOffset == nil)
    #expect(SourceFile(path: "t", bytes: Array("abc".utf8) + [0] + Array("def".utf8)).binaryOffset == 3)
    // A raw terminal session: backspaces and escapes are text.
    #expect(SourceFile(path: "t", bytes: Array("r1> show\u{8}\u{8} \u{1B}[K\n".utf8)).binaryOffset == nil)
    // Latin-1 in a description is text.
    #expect(SourceFile(path: "t", bytes: Array("description \"caf".utf8) + [0xE9] + Array("\";\n".utf8)).binaryOffset == nil)
    let controls = [UInt8](repeating: 0x41, count: 90) + [UInt8](repeating: 0x01, count: 10)
    #expect(SourceFile(path: "t", bytes: controls).binaryOffset == 90)
    #expect(SourceFile(path: "t", bytes: Array(controls.dropLast())).binaryOffset == nil)
  }
}

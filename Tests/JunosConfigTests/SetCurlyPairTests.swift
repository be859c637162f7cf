import JunosConfig
import Testing

/// The real pair: one device's `show configuration` and `show configuration | display set`.
@Suite struct SetCurlyPairTests {
  static let curlyPath = "configs/curly/jvd_llq_an4_acx7024.conf"
  static let setPath = "configs/set/jvd_llq_an4_acx7024.set"

  func lines(_ bytes: [UInt8]) -> [String: Int] {
    var counts: [String: Int] = [:]
    for l in bytes.split(separator: 0x0A) where !l.isEmpty {
      let s = String(decoding: l, as: UTF8.self)
      guard s.hasPrefix("set ") || s.hasPrefix("deactivate ") || s.hasPrefix("protect ") else { continue }
      if s.hasPrefix("set version ") { continue }
      counts[s, default: 0] += 1
    }
    return counts
  }

  @Test func curlyRendersTheDevicesSetLines() throws {
    let curly = ConfigParser.parse(try Fixtures.source(Self.curlyPath))
    #expect(curly.diagnostics.isEmpty)
    let rendered = lines(curly.tree.renderSet(RenderOptions(showSecrets: true)))
    let device = lines(try Fixtures.bytes(Self.setPath))
    #expect(device.values.reduce(0, +) > 15_000)
    let missing = device.filter { rendered[$0.key] != $0.value }.keys.sorted()
    let extra = rendered.filter { device[$0.key] != $0.value }.keys.sorted()
    #expect(Array(missing.prefix(5)) == [])
    #expect(Array(extra.prefix(5)) == [])
  }

  @Test func setParsesIntoTheDevicesCurlyForm() throws {
    let set = ConfigParser.parse(try Fixtures.source(Self.setPath))
    #expect(set.syntax == .set)
    #expect(set.diagnostics.isEmpty)
    let curly = ConfigParser.parse(try Fixtures.source(Self.curlyPath))
    // The set capture has no `version` line; compare everything else.
    var expected = curly.tree
    if let v = expected.child(of: ConfigTree.root, startingWith: ["version"]) { expected.remove(v) }
    expected.headers = []
    #expect(set.tree.firstDifference(from: expected) == nil)
  }
}

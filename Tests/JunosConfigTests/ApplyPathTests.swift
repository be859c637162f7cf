import JunosConfig
import Testing

/// `apply-path` in `display inheritance`: the prefixes a prefix-list's path stands for, printed
/// before the statement as the device prints them (Fixtures/diffs/
/// r1_apply_path_compare_and_display_inheritance.txt, a public capture of r1).
@Suite struct ApplyPathTests {
  /// r1 as far as the capture shows it: the BGP neighbour the path finds (the compare that
  /// follows in the capture copies it to 10.1.2.3, so its statements are the capture's).
  static func r1(neighbors: [String]) -> String {
    let blocks = neighbors.map { n in
      """
                  neighbor \(n) {
                      description "to peer r3-AS2";
                      enforce-first-as;
                      import ACCEPT;
                      family inet {
                          unicast;
                      }
                      export ACCEPT;
                      remove-private {
                          all;
                      }
                      peer-as 2;
                  }
      """
    }
    return """
      protocols {
          bgp {
              group myPeerAS2 {
      \(blocks.joined(separator: "\n"))
              }
          }
      }
      policy-options {
          prefix-list BGP-PEER {
              apply-path "protocols bgp group <*> neighbor <*>";
          }
          policy-statement ACCEPT {
              then accept;
          }
      }

      """
  }

  /// The `prefix-list BGP-PEER` block's lines of the rendering, indentation taken off.
  static func prefixList(_ text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let open = lines.firstIndex(where: { $0.hasSuffix("prefix-list BGP-PEER {") }) else { return [] }
    var out: [String] = []
    for l in lines[(open + 1)...] {
      let t = l.drop { $0 == " " }
      if t == "}" { break }
      out.append(String(t))
    }
    return out
  }

  @Test func theCapturedExpansionOfR1() throws {
    let capture = String(decoding: try Fixtures.bytes("diffs/r1_apply_path_compare_and_display_inheritance.txt"), as: UTF8.self)
    let lines = capture.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The device's lines after its 'show … | display inheritance' command, to the blank line.
    let start = try #require(lines.firstIndex { $0.hasSuffix("| display inheritance") }) + 1
    let expected = Array(lines[start...].prefix { !$0.isEmpty })
    #expect(expected.count == 5)
    let parsed = ConfigParser.parse(SourceFile(path: "r1.conf", text: Self.r1(neighbors: ["10.1.2.2"])))
    #expect(!parsed.hasErrors)
    let out = String(decoding: parsed.tree.inheritance().renderCurly(), as: UTF8.self)
    #expect(Self.prefixList(out) == expected)
    // Without comments, the statement alone.
    var plain = RenderOptions()
    plain.comments = false
    let none = String(decoding: parsed.tree.inheritance().renderCurly(plain), as: UTF8.self)
    #expect(Self.prefixList(none) == [#"apply-path "protocols bgp group <*> neighbor <*>";"#])
  }

  @Test func theCopiedNeighbourIsFoundToo() {
    let tree = ConfigParser.parse(SourceFile(path: "r1.conf", text: Self.r1(neighbors: ["10.1.2.2", "10.1.2.3"]))).tree
    #expect(tree.applyPathPrefixes(["protocols", "bgp", "group", "<*>", "neighbor", "<*>"]) == ["10.1.2.2/32", "10.1.2.3/32"])
    #expect(tree.applyPathPrefixes(["protocols", "bgp", "group", "<my*>", "neighbor", "<10.1.2.3>"]) == ["10.1.2.3/32"])
    #expect(tree.applyPathPrefixes(["protocols", "bgp", "group", "other", "neighbor", "<*>"]).isEmpty)
    // A path to values that are not addresses finds no prefix.
    #expect(tree.applyPathPrefixes(["protocols", "bgp", "group", "<*>", "neighbor", "<*>", "peer-as", "<*>"]).isEmpty)
  }

  @Test func interfaceAddressesKeepTheirLengthAndIPv6HostsGet128() {
    let text = """
      interfaces {
          ge-0/0/0 { unit 0 { family inet { address 192.0.2.1/31; } family inet6 { address 2001:db8::1/127; } } }
          lo0 { unit 0 { family inet { address 10.255.0.1/32; } } }
      }
      system { ntp { server 2001:db8::123; server 192.0.2.123; } }
      """
    let tree = ConfigParser.parse(SourceFile(path: "x.conf", text: text)).tree
    #expect(
      tree.applyPathPrefixes(["interfaces", "<*>", "unit", "<*>", "family", "inet", "address", "<*>"]) == ["192.0.2.1/31", "10.255.0.1/32"])
    #expect(tree.applyPathPrefixes(["system", "ntp", "server", "<*>"]) == ["2001:db8::123/128", "192.0.2.123/32"])
  }
}

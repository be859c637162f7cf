import JunosConfig
import Testing

/// Inputs libFuzzer found (Tests/Fuzz), kept so they stay fixed: each must either be reported as
/// invalid or round-trip (parse → render curly → parse gives the same tree; the tree read from
/// its XML rendering reads back from its own XML rendering as itself).
@Suite struct FuzzRegressionTests {
  static let inputs: [(String, ConfigSyntax, [UInt8])] = [
    ("hash comment inside a list", .curly, Array("m [#\n];".utf8)),
    ("byte-order mark then a stray semicolon", .curly, [0xEF, 0xBB, 0xBF, UInt8(ascii: ";")]),
    ("statement that looks like a prompt", .curly, Array(";@h> s;".utf8)),
    ("word starting with U+FEFF after a semicolon", .curly, [UInt8(ascii: ";"), 0xEF, 0xBB, 0xBF, UInt8(ascii: "a"), UInt8(ascii: ";")]),
    ("statement that looks like an echoed command", .curly, Array("x;show configuration;".utf8)),
    ("NUL in a set word", .set, Array("set \0".utf8)),
    ("semicolon as a set word", .set, Array("set ;".utf8)),
    ("prefix tag as a set word", .set, Array("set active:".utf8)),
    ("annotation opener as a set word", .set, Array("set a /*b".utf8)),
    ("closing bracket as a set word", .set, Array("set ]".utf8)),
    ("nested list in a set line", .set, Array("set a [ e l [ b ]".utf8)),
    // `:` followed by a combining mark is one Character: headers are matched on bytes.
    ("header followed by a combining mark", .set, Array("## Last changed:\u{35E}x\n".utf8)),
    ("pager-like statement with a trailing comment", .curly, Array(" ; ---(more;#e_".utf8)),
    ("invalid UTF-8 in an element name", .xml, Array("<configuration><statem".utf8) + [0xFF] + Array("ent/></configuration>".utf8)),
    ("element name with a brace", .xml, Array("<configuration><pseu-}lv/></configuration>".utf8)),
    (
      "hash comment with a carriage return", .xml,
      Array("<configuration><junos:comment># a\r</junos:comment><system/></configuration>".utf8)
    ),
    ("annotation holding */", .xml, Array("<configuration><junos:comment>/* a */ b */</junos:comment><system/></configuration>".utf8)),
    (
      "unknown statement whose keyword the schema knows there", .curly,
      Array("interfaces { ge-0/0/0 { unit 0 { family vlan { m+mbers X; } } } }".utf8)
    ),
    ("statement words starting with U+FEFF and a prefix-tag word", .curly, Array("system { \u{FEFF} replace: host-name x; }".utf8)),
    (
      "secret without its marker, given as words", .xml,
      Array("<configuration><junoscope:statement words='secret \"$9$x\"'/></configuration>".utf8)
    ),
    // The comment after the `}` of a block of list entries was lost in XML, and the block without
    // it reads back from XML as entries of their own.
    (
      "comment after the brace of a block of list entries", .curly,
      Array("vlans { V { interface { ge-0/0/0.0; ge-0/0/1.0; }#\n } }".utf8)
    ),
    // Two blocks of entries of one list side by side: the tree read from XML has an entry and a
    // block, and the block was written by its entries alone beside the entry.
    ("two blocks of entries of one list", .curly, Array("vlans { M { interface { w; } interface { w; } telnet; } }".utf8)),
  ]

  /// The inputs that must be reported as invalid (with an error); every other one must parse
  /// without one and round-trip.
  static let rejected: Set<String> = [
    "NUL in a set word", "semicolon as a set word", "prefix tag as a set word", "annotation opener as a set word",
    "closing bracket as a set word", "nested list in a set line",
  ]

  @Test func everyRejectedInputIsAnInput() {
    #expect(Self.inputs.count == 22)
    #expect(Self.rejected.isSubset(of: Self.inputs.map(\.0)))
  }

  @Test(arguments: inputs.indices)
  func staysFixed(_ k: Int) {
    let (name, syntax, bytes) = Self.inputs[k]
    let first = ConfigParser.parse(SourceFile(path: "fuzz", bytes: bytes), syntax: syntax)
    #expect(first.hasErrors == Self.rejected.contains(name), "\(name): \(first.diagnostics.map(\.rendered))")
    guard !first.hasErrors else { return }
    let curly = first.tree.renderCurly(RenderOptions(showSecrets: true))
    let again = ConfigParser.parse(SourceFile(path: "rendered", bytes: curly), syntax: .curly)
    #expect(again.diagnostics.map(\.rendered) == [])
    #expect(again.tree.firstDifference(from: first.tree) == nil)
    // As the fuzzer renders XML (comments kept), and without comments.
    for shown in [RenderOptions(showSecrets: true, comments: true), RenderOptions(showSecrets: true, comments: false)] {
      let fromXML = ConfigParser.parse(SourceFile(path: "rendered.xml", bytes: first.tree.renderXML(shown)))
      #expect(fromXML.diagnostics.map(\.rendered) == [])
      let back = ConfigParser.parse(SourceFile(path: "again.xml", bytes: fromXML.tree.renderXML(shown)))
      #expect(back.tree.firstDifference(from: fromXML.tree) == nil, "comments: \(shown.comments)")
    }
  }

  @Test func controlBytesInSetWordsAreReported() {
    let r = ConfigParser.parse(SourceFile(path: "t", bytes: Array("set \0".utf8)), syntax: .set)
    #expect(r.diagnostics.map(\.rendered) == ["t:1:5: error: unexpected control byte 0x0"])
  }

  @Test func wordsThatCurlyTextCannotHoldMustBeQuoted() {
    let r = ConfigParser.parse(SourceFile(path: "t", bytes: Array("set system host-name a;b\n".utf8)), syntax: .set)
    #expect(
      r.diagnostics.map(\.rendered) == ["t:1:22: error: 'a;b' must be quoted: unquoted words cannot contain ; { } [ ] or start with /*"])
  }
}

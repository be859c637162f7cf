import JunosConfig
import Testing

/// The XML pull reader (shared with JunosHistory and JunosDevice).
@Suite struct XMLReaderTests {
  /// Every event of a document, as text: `<name`, `>name`, `'text'`, `!error@offset`.
  func events(_ xml: String) -> [String] {
    var r = XMLReader(bytes: Array(xml.utf8))
    var out: [String] = []
    while let e = r.next() {
      switch e {
      case .start(let name, _, let selfClosing):
        let attributes = r.attributes.map { " \(r.string($0.name.qualified))=\(r.string($0.value))" }.joined()
        out.append("<\(r.string(name.qualified))\(attributes)\(selfClosing ? "/" : "")")
      case .end(let name, _): out.append(">\(r.string(name.local))")
      case .text(let range, let entities):
        var t: [UInt8] = []
        r.appendText(range, entities: entities, to: &t)
        if t.contains(where: { $0 > 0x20 }) { out.append("'\(t.text)'") }
      case .cdata(let range): out.append("cdata'\(r.string(range))'")
      case .error(let message, let at): out.append("!\(message)@\(at)")
      }
    }
    return out
  }

  @Test func elementsAttributesAndText() {
    #expect(
      events("\u{FEFF}<?xml version=\"1.0\"?><!-- c --><a x='1' junos:y=\"&lt;2&gt;\"><b/>t &amp; &#65;&#x42;<![CDATA[<c>]]></a>")
        == ["<a x=1 junos:y=&lt;2&gt;", "<b/", ">b", "'t & AB'", "cdata'<c>'", ">a"])
    var r = XMLReader(bytes: Array("<a junos:y=\"&lt;2&gt;\"/>".utf8))
    _ = r.next()
    #expect(r.attribute("y") == "<2>")
    #expect(r.attribute("x") == nil)
  }

  @Test func malformedInputStopsWithItsOffset() {
    #expect(events("<a><b></a>") == ["<a", "<b", "!</a> does not close <b>@6"])
    #expect(events("<a>x &bogus; y</a>") == ["<a", "!unknown entity@5"])
    #expect(events("<a><!-- never closed") == ["<a", "!unterminated comment@3"])
    #expect(events("<a x=1>") == ["!unquoted attribute value in <a>@5"])
    #expect(events("<a><b>") == ["<a", "<b", "!<b> is never closed@6"])
    #expect(events("< a>") == ["!a '<' that starts no tag@0"])
  }

  /// Comments and declarations are skipped in a loop: a long run of them is no deep recursion,
  /// and a document of many elements reads in linear time.
  @Test func longRunsAreLinear() {
    let comments = String(repeating: "<!-- x -->", count: 200_000) + "<a/>"
    #expect(events(comments) == ["<a/", ">a"])
    let many = "<a>" + String(repeating: "<b k=\"v\">text &amp; more</b>\n", count: 200_000) + "</a>"
    var r = XMLReader(bytes: Array(many.utf8))
    var count = 0
    while let e = r.next() {
      if case .start = e { count += 1 }
    }
    #expect(count == 200_001)
  }
}

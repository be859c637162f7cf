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

/// Junos XML configurations: `display xml` and NETCONF replies parse into the tree the curly
/// text of the same configuration gives, and `renderXML` reads back into an equal tree.
@Suite struct XMLConfigTests {
  let shown = RenderOptions(showSecrets: true)

  func xml(_ text: String, path: String = "test.xml") -> ParseResult {
    ConfigParser.parse(SourceFile(path: path, text: text))
  }

  /// PyEZ's captured `<get-configuration>` reply: `<rpc-reply>`, commit attributes, a `<cli>`
  /// sibling, lists printed as blocks of entries (`interfaces`, `system-services`).
  @Test func realReplyParsesIntoTheCurlyTree() throws {
    let result = ConfigParser.parse(try Fixtures.source("configs/xml/eznc_factory_get-configuration.xml"))
    #expect(result.syntax == .xml)
    #expect(result.diagnostics.map(\.rendered) == [])
    let curly = parse(
      """
      ## Last commit: 2014-05-21 09:51:31 UTC by rick
      security {
          zones {
              security-zone untrust {
                  screen untrust-screen;
                  interfaces {
                      ge-0/0/0.0 {
                          host-inbound-traffic {
                              system-services {
                                  http;
                                  https;
                                  ssh;
                                  telnet;
                                  dhcp;
                                  netconf;
                              }
                          }
                      }
                  }
              }
          }
      }

      """)
    #expect(result.tree.firstDifference(from: curly.tree) == nil)
    // The same zone in the same device's curly text (PyEZ's show-configuration capture).
    let text = ConfigParser.parse(try Fixtures.source("configs/xml/eznc_show-configuration.xml")).tree
    let zone = ["security", "zones", "security-zone untrust"]
    let a = try #require(statement(result.tree, zone))
    let b = try #require(statement(text, zone))
    #expect(result.tree.sameConfiguration(a, as: b, in: text))
  }

  /// The statement at a path of statements (each given by its first words).
  func statement(_ t: ConfigTree, _ path: [String]) -> NodeID? {
    var n = ConfigTree.root
    for p in path {
      guard let c = t.child(of: n, startingWith: p.split(separator: " ").map(String.init)) else { return nil }
      n = c
    }
    return n
  }

  /// Configuration text inside XML (`<configuration-output>`, `<configuration-text>`) is read as
  /// curly text where it stands: lines and columns point into the XML file.
  @Test func wrappedTextParsesAsCurly() throws {
    let path = "configs/xml/eznc_show-configuration.xml"
    let file = try Fixtures.source(path)
    let result = ConfigParser.parse(file)
    #expect(result.syntax == .xml)
    #expect(result.diagnostics.map(\.rendered) == [])
    let text = file.bytes.text
    let inner = text.components(separatedBy: "<configuration-output>")[1].components(separatedBy: "</configuration-output>")[0]
    let curly = parse(inner)
    #expect(curly.diagnostics.isEmpty)
    #expect(result.tree.firstDifference(from: curly.tree) == nil)
    #expect(result.tree.headers == ["## Last commit: 2014-03-24 16:34:32 UTC by rick"])
    #expect(result.tree.statementCount == curly.tree.statementCount && result.tree.statementCount > 60)
    // Statements are located in the XML file.
    let host = try #require(statement(result.tree, ["system", "host-name"]))
    #expect(file.location(of: result.tree.sourceRange(of: host).lowerBound) == SourceLocation(line: 6, column: 5))

    // NAPALM's capture has one '}' too many, reported at its place in the XML file.
    let napalm = ConfigParser.parse(try Fixtures.source("configs/xml/napalm_get_config_committed_text.xml"))
    #expect(
      napalm.diagnostics.map(\.rendered) == [
        "configs/xml/napalm_get_config_committed_text.xml:39:1: error: unexpected '}' with no block open"
      ])
    // Entities and CDATA are decoded in place.
    let entities = xml(
      "<rpc-reply>\n<configuration-text>\nsystem {\n    host-name &quot;r&amp;1&quot;;<![CDATA[ location x; ]]>\n}\n</configuration-text></rpc-reply>"
    )
    #expect(entities.diagnostics.map(\.rendered) == [])
    #expect(entities.tree.renderCurly().text == "system {\n    host-name \"r&1\";\n    location x;\n}\n")
    let set = xml("<configuration-set>set system host-name r1\nset system ntp server 10.0.0.1</configuration-set>")
    #expect(set.tree.renderCurly().text == "system {\n    host-name r1;\n    ntp {\n        server 10.0.0.1;\n    }\n}\n")
  }

  /// How elements map to statements, with Juniper's schema.
  @Test func elementsMapToStatements() {
    let result = xml(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <rpc-reply xmlns:junos="http://xml.juniper.net/junos/17.3R2/junos"><data>
      <configuration junos:changed-seconds="1" junos:changed-localtime="2024-01-01 00:00:00 UTC">
      <version>17.3R2.10</version>
      <system><host-name>r1</host-name>
      <name-server><name>192.0.2.53</name></name-server><name-server><name>192.0.2.54</name></name-server>
      <login><message>hi there "x"</message></login>
      <root-authentication><encrypted-password>$6$abc$def</encrypted-password></root-authentication>
      </system>
      <groups><name>G1</name><system><host-name>g</host-name></system></groups>
      <groups><name>G2</name></groups>
      <apply-groups>G1</apply-groups><apply-groups>G2</apply-groups>
      <interfaces><interface><name>ge-0/0/0</name><gigether-options><ieee-802.3ad><bundle>ae0</bundle></ieee-802.3ad></gigether-options>
      <unit inactive="inactive"><name>0</name><family><inet><address><name>10.0.0.1/24</name></address></inet><inet6/></family></unit>
      </interface></interfaces>
      <routing-options><static protect="protect"><route><name>0.0.0.0/0</name><next-hop>10.0.0.254</next-hop></route>
      <junos:comment>/* default */</junos:comment>
      <route><name>10.0.0.0/8</name><next-hop>192.0.2.1</next-hop><next-hop>192.0.2.2</next-hop></route></static></routing-options>
      <protocols><bgp><group><name>g</name><export>( A &amp;&amp; B )</export></group></bgp></protocols>
      <policy-options><policy-statement><name>P</name><term><name>t</name>
      <from><protocol>bgp</protocol><route-filter><address>10.0.0.0/8</address><choice-ident>exact</choice-ident><choice-value/></route-filter></from>
      <then><community><choice-ident>add</choice-ident><community-name>C</community-name></community><accept/></then>
      </term></policy-statement></policy-options>
      <frobnicate><name>x</name><knob>1</knob><flag/></frobnicate>
      <junos:comment># the end</junos:comment>
      </configuration></data></rpc-reply>
      """)
    #expect(result.diagnostics.map(\.rendered) == [])
    #expect(
      result.tree.renderCurly(shown).text == """
        ## Last changed: 2024-01-01 00:00:00 UTC
        version 17.3R2.10;
        system {
            host-name r1;
            name-server {
                192.0.2.53;
                192.0.2.54;
            }
            login {
                message "hi there \\"x\\"";
            }
            root-authentication {
                encrypted-password "$6$abc$def"; ## SECRET-DATA
            }
        }
        groups {
            G1 {
                system {
                    host-name g;
                }
            }
            G2;
        }
        apply-groups [ G1 G2 ];
        interfaces {
            ge-0/0/0 {
                gigether-options {
                    802.3ad ae0;
                }
                inactive: unit 0 {
                    family inet {
                        address 10.0.0.1/24;
                    }
                    family inet6;
                }
            }
        }
        routing-options {
            protect: static {
                route 0.0.0.0/0 next-hop 10.0.0.254;
                /* default */
                route 10.0.0.0/8 next-hop [ 192.0.2.1 192.0.2.2 ];
            }
        }
        protocols {
            bgp {
                group g {
                    export ( A && B );
                }
            }
        }
        policy-options {
            policy-statement P {
                term t {
                    from {
                        protocol bgp;
                        route-filter 10.0.0.0/8 exact;
                    }
                    then {
                        community add C;
                        accept;
                    }
                }
            }
        }
        frobnicate x {
            knob 1;
            flag;
        }
        # the end

        """)
    // And back: the same tree.
    let back = ConfigParser.parse(SourceFile(path: "back.xml", bytes: result.tree.renderXML(shown)))
    #expect(back.diagnostics.map(\.rendered) == [])
    #expect(back.tree.firstDifference(from: result.tree) == nil)
  }

  /// `renderXML` in the shape of `display xml`; statements Junos XML cannot say are
  /// `<junoscope:statement>`.
  @Test func rendersDisplayXMLShape() {
    let tree = parse(
      """
      ## Last commit: 2024-12-17 06:01:15 PST by regress
      system {
          /* the name */
          host-name "r1 & <r2>";
          services {
              ssh;
          }
      }
      interfaces {
          inactive: ge-0/0/0 {
              unit 0 {
                  family inet {
                      address 10.0.0.1/24;
                  }
                  family inet6;
              }
          }
      }
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 192.0.2.1;
          }
          empty { }
      }

      """
    ).tree
    let out = tree.renderXML(shown).text
    #expect(
      out == """
        <configuration xmlns:junos="http://xml.juniper.net/junos/*/junos" xmlns:junoscope="urn:junoscope:xml" junos:commit-localtime="2024-12-17 06:01:15 PST" junos:commit-user="regress">
            <system>
                <junos:comment>/* the name */</junos:comment>
                <host-name>r1 &amp; &lt;r2&gt;</host-name>
                <services>
                    <ssh/>
                </services>
            </system>
            <interfaces>
                <interface inactive="inactive">
                    <name>ge-0/0/0</name>
                    <unit>
                        <name>0</name>
                        <family>
                            <inet>
                                <address>
                                    <name>10.0.0.1/24</name>
                                </address>
                            </inet>
                            <inet6/>
                        </family>
                    </unit>
                </interface>
            </interfaces>
            <routing-options>
                <static>
                    <route>
                        <name>0.0.0.0/0</name>
                        <next-hop>192.0.2.1</next-hop>
                    </route>
                </static>
                <junoscope:statement words="empty">
                </junoscope:statement>
            </routing-options>
        </configuration>

        """)
    let back = ConfigParser.parse(SourceFile(path: "back.xml", text: out))
    #expect(back.tree.firstDifference(from: tree) == nil)
  }

  static let curlyFiles = Fixtures.files(in: "configs/curly")

  /// Every curly fixture: parse(renderXML(tree)) == tree, and the rendering is a fixed point.
  @Test func curlyFixturesRoundTripThroughXML() throws {
    #expect(Self.curlyFiles.count == 16)
    var statements = 0
    for path in Self.curlyFiles {
      let tree = ConfigParser.parse(try Fixtures.source(path)).tree
      let rendered = tree.renderXML(shown)
      let back = ConfigParser.parse(SourceFile(path: path + ".xml", bytes: rendered))
      #expect(back.syntax == .xml)
      #expect(back.diagnostics.map(\.rendered) == [], "\(path)")
      #expect(back.tree.firstDifference(from: tree) == nil, "\(path)")
      #expect(back.tree.renderXML(shown) == rendered, "\(path)")
      statements += tree.statementCount
    }
    #expect(statements > 110_000)
  }

  @Test func secretsAreMaskedUnlessShown() throws {
    let tree = ConfigParser.parse(try Fixtures.source("configs/curly/napalm_initial.conf")).tree
    let masked = tree.renderXML().text
    #expect(!masked.contains("$1$") && !masked.contains("ssh-rsa AAAA"))
    #expect(masked.contains("<encrypted-password>&lt;masked&gt;</encrypted-password>"))
    let shownText = tree.renderXML(shown).text
    #expect(shownText.contains("<encrypted-password>$1$5MhDFyrI$NBBMndW1POqbN"))
    // A secret read from XML is masked in every output, and gets the device's marker.
    let read = xml(
      "<configuration><system><root-authentication><encrypted-password>$6$x$y</encrypted-password></root-authentication></system></configuration>"
    )
    #expect(read.tree.renderCurly().text.contains("encrypted-password \"<masked>\"; ## SECRET-DATA"))
    #expect(!read.tree.renderSet().text.contains("$6$"))
    #expect(!read.tree.renderJSON().text.contains("$6$"))
  }

  @Test func malformedXMLIsLocated() {
    #expect(
      xml("<configuration>\n  <system>\n    <host-name>r1</host-name>\n").diagnostics.map(\.rendered) == [
        "test.xml:4:1: error: malformed XML: <system> is never closed (the input ends inside 2 open elements)"
      ])
    #expect(
      xml("<configuration>\n  <system>\n    <host-name>r1</system>\n").diagnostics.map(\.rendered) == [
        "test.xml:3:18: error: malformed XML: </system> does not close <host-name>"
      ])
    #expect(
      xml("<configuration><system><host-name>a &bad; b</host-name>").diagnostics.map(\.rendered) == [
        "test.xml:1:37: error: malformed XML: unknown entity"
      ])
    #expect(xml("<rpc-reply><ok/></rpc-reply>").diagnostics.map(\.id) == ["unexpectedXML"])
    #expect(
      xml("<configuration><system>text<host-name>r1</host-name></system></configuration>").diagnostics.map(\.rendered) == [
        "test.xml:1:24: error: unexpected text between the elements of a block"
      ])
    #expect(
      xml("<configuration><interfaces><interface><unit><name>0</name></unit></interface></interfaces></configuration>").diagnostics.map(
        \.rendered) == [
          "test.xml:1:28: error: list entry without its key <name> first"
        ])
    // The tree read so far is kept.
    let cut = xml("<configuration><system><host-name>r1</host-name><ntp>")
    #expect(cut.hasErrors)
    #expect(cut.tree.renderCurly().text.hasPrefix("system {\n    host-name r1;"))
  }

  @Test func nestingDeeperThanTheLimitIsAnError() {
    let depth = ConfigTree.maximumDepth + 5
    let text = "<configuration>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</configuration>"
    let result = xml(text)
    #expect(result.diagnostics.map(\.id) == ["nestingTooDeep"])
  }

  @Test func syntaxIsDetected() {
    for text in [
      "<configuration/>", "\u{FEFF}  \n<?xml version=\"1.0\"?><rpc-reply/>", "user@r1> show configuration | display xml\n<rpc-reply/>",
    ] {
      #expect(ConfigParser.detectSyntax(SourceFile(path: "t", text: text)) == .xml, "\(text)")
    }
    #expect(ConfigParser.detectSyntax(SourceFile(path: "t", text: "system { host-name r1; }")) == .curly)
  }

  /// Trees made of real statements: subtrees of the curly fixtures under their own ancestors,
  /// some statements left out, tags and annotations added, folded into the device's form.
  static let sources: [ConfigTree] = [
    "jvd_bbe_sw2_qfx5210-64c.conf", "jvd_mebs_an1_mx204.conf", "jvd_dc_borderleaf1_ptx10001-36mr_evo.conf",
  ]
  .map { ConfigParser.parse(SourceFile(path: $0, bytes: (try? Fixtures.bytes("configs/curly/\($0)")) ?? [])).tree }

  static func generated(_ seed: UInt64) -> ConfigTree {
    var rng = SplitMix64(state: seed)
    let source = sources[Int(seed % UInt64(sources.count))]
    var tree = ConfigTree()
    var taken = Set<[String]>()
    for _ in 0..<Int.random(in: 1...4, using: &rng) {
      // A statement at depth 1 to 4 and its ancestors' words.
      var chain: [NodeID] = []
      var n = ConfigTree.root
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let kids = Array(source.children(of: n))
        guard !kids.isEmpty else { break }
        n = kids[Int.random(in: 0..<kids.count, using: &rng)]
        chain.append(n)
      }
      guard let top = chain.first, taken.insert(source.words(of: top)).inserted else { continue }
      var parent = ConfigTree.root
      for a in chain.dropLast() {
        parent = tree.append(words: source.words(of: a), list: source.listValues(of: a), to: parent, block: true)
      }
      tree.graft(chain[chain.count - 1], of: source, under: parent)
    }
    for node in tree.allStatements() {
      if Int.random(in: 0..<10, using: &rng) == 0, tree.parent(of: node) != ConfigTree.root {
        tree.remove(node)
        continue
      }
      if Int.random(in: 0..<20, using: &rng) == 0 { tree.setFlags(.inactive, true, of: node) }
      if Int.random(in: 0..<40, using: &rng) == 0 { tree.setFlags(.protect, true, of: node) }
      if Int.random(in: 0..<30, using: &rng) == 0 { tree.setAnnotation("note \(Int.random(in: 0..<99, using: &rng)) & <x>", of: node) }
    }
    // Blocks left empty are leaves, a `[ ]` list of one value one word, blocks left with one
    // leaf fold: as the device prints them.
    for node in tree.allStatements() {
      if tree.isBlock(node) && !tree.hasChildren(node) { tree.setFlags(.block, false, of: node) }
      if let list = tree.listValues(of: node), list.count == 1 { tree.setWords(tree.words(of: node) + list, of: node) }
    }
    tree.foldOneliners(model: .standard)
    return tree
  }

  @Test(arguments: Array(UInt64(1)...300))
  func generatedTreesRoundTripThroughEverySyntax(_ seed: UInt64) {
    #expect(Self.sources.allSatisfy { $0.statementCount > 200 })
    let tree = Self.generated(seed)
    #expect(tree.statementCount > 0)
    let xml = tree.renderXML(shown)
    let fromXML = ConfigParser.parse(SourceFile(path: "gen.xml", bytes: xml))
    #expect(fromXML.diagnostics.map(\.rendered) == [])
    #expect(fromXML.tree.firstDifference(from: tree) == nil, "\(xml.text)")
    let curly = ConfigParser.parse(SourceFile(path: "gen.conf", bytes: fromXML.tree.renderCurly(shown)))
    #expect(curly.tree.firstDifference(from: tree) == nil)
    let set = ConfigParser.parse(SourceFile(path: "gen.set", bytes: tree.renderSet(shown)), syntax: .set)
    #expect(set.diagnostics.map(\.rendered) == [])
    // `display set` keeps no `#` comments (`## SECRET-DATA`): the same configuration.
    let sameAsSet = set.tree.sameConfiguration(ConfigTree.root, as: ConfigTree.root, in: tree)
    #expect(sameAsSet, "\(tree.renderSet(shown).text)")
    let setXML = ConfigParser.parse(SourceFile(path: "set.xml", bytes: set.tree.renderXML(shown)))
    #expect(setXML.tree.firstDifference(from: set.tree) == nil)
  }
}

import JunosConfig
import Testing

@Suite struct CurlySyntaxTests {
  /// Parses, checks there is no diagnostic, and checks render(parse(x)) == x.
  func roundTrip(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ConfigTree {
    let result = parse(text)
    #expect(result.diagnostics.map(\.rendered) == [], sourceLocation: sourceLocation)
    #expect(result.tree.renderCurly(RenderOptions(showSecrets: true)).text == text, sourceLocation: sourceLocation)
    return result.tree
  }

  @Test func quotedStringsKeepEscapesAndDelimiters() {
    let text = """
      system {
          login {
              message "\\n\\n\\t * * * W A R N I N G { } ; # \\" * * *";
          }
      }

      """
    let tree = roundTrip(text)
    let login = tree.child(of: tree.child(of: ConfigTree.root, startingWith: ["system"])!, startingWith: ["login"])!
    let message = tree.firstChild(of: login)!
    #expect(tree.words(of: message) == ["message", #""\n\n\t * * * W A R N I N G { } ; # \" * * *""#])
  }

  @Test func listsPrefixesAnnotationsCommentsAndTrailers() {
    let text = """
      ## Last commit: 2024-12-17 06:01:15 PST by regress
      version 22.2R3-S3.12-EVO;
      groups {
          "<[egx][te]-*>" {
              interfaces {
                  <*> {
                      mtu 9192;
                  }
              }
          }
      }
      apply-groups [ global "<[egx][te]-*>" ];
      system {
          /* Load balancing policy label: AI-Core-Team-DLB */
          host-name r1;
          root-authentication {
              encrypted-password "$6$abc"; ## SECRET-DATA
          }
          # a comment line
          inactive: ntp {
              server 10.0.0.1;
          }
          protect: domain-name example.net;
      }
      protocols {
          inactive: pim {
              interface all;
          }
      }

      """
    let tree = roundTrip(text)
    #expect(tree.headers == ["## Last commit: 2024-12-17 06:01:15 PST by regress"])
    let system = tree.child(of: ConfigTree.root, startingWith: ["system"])!
    let host = tree.child(of: system, startingWith: ["host-name"])!
    #expect(tree.annotation(of: host) == "Load balancing policy label: AI-Core-Team-DLB")
    let ntp = tree.child(of: system, startingWith: ["ntp"])!
    #expect(tree.flags(of: ntp).contains(StatementFlags.inactive))
    #expect(tree.leadingTrivia(of: ntp) == [Trivia(.hash, "# a comment line")])
    #expect(tree.flags(of: tree.child(of: system, startingWith: ["domain-name"])!).contains(StatementFlags.protect))
    let groups = tree.child(of: ConfigTree.root, startingWith: ["apply-groups"])!
    #expect(tree.listValues(of: groups) == ["global", "\"<[egx][te]-*>\""])
    let pw = tree.firstChild(of: tree.child(of: system, startingWith: ["root-authentication"])!)!
    #expect(tree.isMarkedSecret(pw))
  }

  @Test func secretsAreMaskedByDefault() {
    let result = parse(
      """
      system {
          root-authentication {
              encrypted-password "$6$abc"; ## SECRET-DATA
              ssh-ed25519 "ssh-ed25519 AAAAC3Nz user@host";
          }
          tacplus-server 10.0.0.9 {
              secret "$9$xyz"; ## SECRET-DATA
          }
      }
      security {
          ike {
              policy P {
                  pre-shared-key ascii-text "$9$k3y"; ## SECRET-DATA
              }
          }
          certificates {
              local aos {
                  "-----BEGIN PRIVATE KEY-----\\nMIIE"; ## SECRET-DATA
              }
          }
      }

      """)
    let masked = result.tree.renderCurly().text
    for secret in ["$6$abc", "AAAAC3Nz", "$9$xyz", "$9$k3y", "MIIE"] {
      #expect(!masked.contains(secret))
      #expect(result.tree.renderCurly(RenderOptions(showSecrets: true)).text.contains(secret))
      #expect(!result.tree.renderSet().text.contains(secret))
      #expect(!result.tree.renderJSON().text.contains(secret))
    }
    #expect(masked.contains("pre-shared-key ascii-text \"<masked>\"; ## SECRET-DATA"))
  }

  @Test func inlineAndMultiLineAnnotationsAndOmitted() {
    let text = """
      firewall {
          filter foo {
              /*
               ** Count UDP denies.
               */
              term default-deny-udp {
                  from {
                      protocol udp /* ignore me */;
                  }
              }
          }
      }
      system {
          login { /* OMITTED */ };
      }
      """
    let result = parse(text)
    #expect(result.diagnostics.isEmpty)
    let again = parse(result.tree.renderCurly().text)
    #expect(again.diagnostics.isEmpty)
    #expect(again.tree == result.tree)
    let filter = result.tree.child(of: result.tree.firstChild(of: ConfigTree.root)!, startingWith: ["filter"])!
    let term = result.tree.firstChild(of: filter)!
    #expect(result.tree.annotation(of: term)?.contains("** Count UDP denies.") == true)
    let from = result.tree.firstChild(of: term)!
    #expect(result.tree.words(of: result.tree.firstChild(of: from)!) == ["protocol", "udp"])
  }

  @Test func captureTextIsSkipped() {
    let text =
      "\u{FEFF}root@r1> show configuration | no-more \r\n## Last changed: 2024-03-11 15:41:48 PDT\r\nsystem {\r\n\thost-name r1;\r\n}\r\n\r\n{master:0}\r\nroot@r1> \r\n"
    let result = parse(text)
    #expect(result.diagnostics.map(\.rendered) == [])
    #expect(result.skippedLines == 3)
    #expect(result.tree.headers == ["## Last changed: 2024-03-11 15:41:48 PDT"])
    #expect(result.tree.renderCurly().text == "## Last changed: 2024-03-11 15:41:48 PDT\nsystem {\n    host-name r1;\n}\n")
  }

  @Test func configModeCaptureWithEditBanner() {
    let result = parse("{master:0}[edit]\nuser@r1# show\nsystem {\n    host-name r1;\n}\n\n[edit]\nuser@r1# \n")
    #expect(result.diagnostics.isEmpty)
    #expect(result.tree.statementCount == 2)
  }

  @Test func invalidUTF8IsKeptByteForByte() {
    var bytes = Array("system {\n    location \"caf".utf8)
    bytes += [0xE9, 0xFF]
    bytes += Array("\";\n}\n".utf8)
    let result = ConfigParser.parse(SourceFile(path: "t", bytes: bytes))
    #expect(result.diagnostics.isEmpty)
    #expect(result.tree.renderCurly() == bytes)
  }

  @Test func deepNestingDoesNotRecurse() {
    let depth = 100_000
    let text =
      [UInt8](String(repeating: "a {\n", count: depth).utf8) + Array("leaf;\n".utf8)
      + [UInt8](String(repeating: "}\n", count: depth).utf8)
    let result = ConfigParser.parse(SourceFile(path: "deep", bytes: text))
    // One error at the first block too deep; the tree is still built, in linear time.
    #expect(result.diagnostics.map(\.id) == ["nestingTooDeep"])
    #expect(result.diagnostics.first?.rendered.hasPrefix("deep:1001:3: error: nesting too deep") == true)
    #expect(result.tree.statementCount == depth + 1)
    let all = result.tree.allStatements()
    #expect(result.tree.depth(of: all[all.count - 1]) == depth + 1)
    #expect(result.tree == result.tree)
    let set = result.tree.renderSet()
    #expect(set.count == 4 + depth * 2 + 4 + 1)
    #expect(result.tree.renderJSON().count > depth * 20)
    // Unclosed: one diagnostic, no cascade.
    let open = ConfigParser.parse(SourceFile(path: "deep", bytes: Array(text[..<(depth * 4)])))
    #expect(open.diagnostics.map(\.id) == ["nestingTooDeep", "missingCloseBrace"])
    // At the limit, no error.
    let limit = ConfigTree.maximumDepth
    let ok =
      [UInt8](String(repeating: "a {\n", count: limit).utf8) + Array("leaf;\n".utf8) + [UInt8](String(repeating: "}\n", count: limit).utf8)
    #expect(ConfigParser.parse(SourceFile(path: "ok", bytes: ok)).diagnostics.isEmpty)
  }

  @Test func hugeLineDoesNotHang() {
    let size = 100 * 1024 * 1024
    let head = Array("system {\n    description \"".utf8)
    let tail = Array("\";\n}\n".utf8)
    var text = [UInt8](repeating: UInt8(ascii: "x"), count: head.count + size + tail.count)
    text.replaceSubrange(0..<head.count, with: head)
    text.replaceSubrange((text.count - tail.count)..., with: tail)
    let result = ConfigParser.parse(SourceFile(path: "huge", bytes: text))
    #expect(result.diagnostics.isEmpty)
    #expect(result.tree.statementCount == 2)
    let unterminated = ConfigParser.parse(SourceFile(path: "huge", bytes: Array(text[..<(size / 2)])))
    #expect(unterminated.diagnostics.map(\.id) == ["unterminatedString", "missingCloseBrace"])
  }
}

@Suite struct RestrictedTreeTests {
  static let text = """
    system {
        host-name r1;
        services {
            ssh;
        }
    }
    protocols {
        inactive: bgp {
            group EBGP {
                neighbor 192.0.2.1;
            }
            group IBGP {
                neighbor 10.0.0.2;
            }
        }
        ospf {
            area 0.0.0.0;
        }
    }

    """

  func restricted(_ path: [String]) -> (text: String, reached: Int) {
    let (tree, reached) = parse(Self.text).tree.restricted(to: path)
    return (tree.renderCurly(RenderOptions(showSecrets: true)).text, reached)
  }

  @Test func aPathKeepsItsAncestorsAndEverythingBelowIt() {
    let bgp = restricted(["protocols", "bgp", "group"])
    #expect(bgp.reached == 2)
    #expect(
      bgp.text == """
        protocols {
            inactive: bgp {
                group EBGP {
                    neighbor 192.0.2.1;
                }
                group IBGP {
                    neighbor 10.0.0.2;
                }
            }
        }

        """)
    let entry = restricted(["protocols", "bgp", "group", "IBGP"])
    #expect(entry.reached == 1)
    #expect(!entry.text.contains("EBGP") && entry.text.contains("neighbor 10.0.0.2;"))
    let leaf = restricted(["system", "host-name"])
    #expect(leaf.reached == 1)
    #expect(leaf.text == "system {\n    host-name r1;\n}\n")
  }

  @Test func aPathThatReachesNothingKeepsOnlyTheAncestorsItPassed() {
    let missing = restricted(["system", "services", "netconf"])
    #expect(missing.reached == 0)
    #expect(missing.text == "system {\n    services {\n    }\n}\n")
    #expect(restricted(["routing-options"]).text == "")
    #expect(restricted([]).text == Self.text)
  }
}

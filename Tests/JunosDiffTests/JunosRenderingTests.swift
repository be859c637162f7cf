import JunosConfig
import JunosDiff
import Testing

/// Snapshots of `renderJunos` (and `renderSet`) for small hand-written pairs of configurations,
/// each also applied back; then pairs that reproduce real captures, checked against the
/// capture's own lines.
///
/// Indentation (FORMATS.md §2.4): C, the number of characters before the statement text (the
/// marker included), is max(D, 1) + 2 for a bare keyword and D + 3 for a statement with an
/// identifier, where D counts the configuration levels the banner names (`family inet` two).
/// Lines below an added or deleted statement add 4 a level.
@Suite struct JunosRenderingTests {
  /// Checks the Junos rendering of compare(old, new) against `junos` (and the set rendering
  /// against `set` when given), then that both renderings, with secrets shown, apply to `old`
  /// and give `new`. `setKeywords` is a starting table for splitting the set commands.
  func check(
    _ old: String, _ new: String, junos expected: String, set expectedSet: String? = nil, showSecrets: Bool = false,
    setKeywords: KeywordTable = .standard, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let a = curly(old)
    let b = curly(new)
    let diff = ConfigDiff(from: a, to: b)
    let options = RenderOptions(showSecrets: showSecrets)
    #expect(string(diff.renderJunos(options)) == expected + "\n", sourceLocation: sourceLocation)
    if let expectedSet {
      #expect(string(diff.renderSet(options)) == expectedSet + "\n", sourceLocation: sourceLocation)
    }

    let junos = diff.renderJunos(secretsShown)
    let text = CompareText.parse(SourceFile(path: "rendered.diff", bytes: junos))
    #expect(text.diagnostics.map(\.rendered) == [], sourceLocation: sourceLocation)
    let applied = text.apply(to: a)
    #expect(applied.diagnostics.map(\.rendered) == [], sourceLocation: sourceLocation)
    expectNoDifference(from: applied.tree, to: b, "Junos text applied", sourceLocation: sourceLocation)
    expectSameText(orderInsensitiveCurly(applied.tree), orderInsensitiveCurly(b), "Junos text applied", sourceLocation: sourceLocation)

    // The set commands are split with keywords learned from the two configurations: the
    // built-in table knows the device families it was learned from, not every statement here
    // (`security-zone`, `forwarding-sandbox`, `remove-private`).
    var keywords = setKeywords
    keywords.learn(from: [a, b])
    let set = ConfigDiff(from: a, to: b, options: DiffOptions(model: ConfigModel(keywords: keywords))).renderSet(secretsShown)
    let loaded = ConfigParser.load(SourceFile(path: "rendered.set", bytes: set), onto: a, model: ConfigModel(keywords: keywords))
    #expect(loaded.diagnostics.map(\.rendered) == [], sourceLocation: sourceLocation)
    expectNoDifference(from: loaded.tree, to: b, "set commands loaded", sourceLocation: sourceLocation)
    expectSameText(orderInsensitiveCurly(loaded.tree), orderInsensitiveCurly(b), "set commands loaded", sourceLocation: sourceLocation)
  }

  // MARK: additions and deletions

  @Test func leafAdded() {
    check(
      """
      system {
          host-name r1;
      }
      """,
      """
      system {
          host-name r1;
          domain-name example.net;
      }
      """,
      junos: """
        [edit system]
        +  domain-name example.net;
        """,
      set: "set system domain-name example.net")
  }

  /// `[edit protocols isis]`: D = 2, a bare keyword at C = 4 (as in the PE1 capture).
  @Test func leafDeleted() {
    check(
      """
      protocols {
          isis {
              export bgp-to-isis;
              interface lo0.0;
          }
      }
      """,
      """
      protocols {
          isis {
              interface lo0.0;
          }
      }
      """,
      junos: """
        [edit protocols isis]
        -   export bgp-to-isis;
        """,
      set: "delete protocols isis export")
  }

  /// The old line, then the new one (poc-vsrx capture); in set form, delete then set.
  @Test func valueChanged() {
    check(
      """
      system {
          host-name poc-vsrx-a;
      }
      """,
      """
      system {
          host-name vvfat-test-1;
      }
      """,
      junos: """
        [edit system]
        -  host-name poc-vsrx-a;
        +  host-name vvfat-test-1;
        """,
      set: """
        delete system host-name
        set system host-name vvfat-test-1
        """)
  }

  /// A deleted block is printed whole, every line with the marker.
  @Test func blockDeletedWithSubtree() {
    check(
      """
      system {
          services {
              ftp;
              ssh {
                  root-login deny;
                  protocol-version v2;
              }
          }
      }
      """,
      """
      system {
          services {
              ftp;
          }
      }
      """,
      junos: """
        [edit system services]
        -   ssh {
        -       root-login deny;
        -       protocol-version v2;
        -   }
        """,
      set: "delete system services ssh")
  }

  /// A new top-level statement goes under `[edit]`, whole, at C = 3 (jp4agent and PE6 captures);
  /// a new unit under an existing interface at C = 5 (`[edit interfaces lo0]`, PE6).
  @Test func nestedAdditionsUnderNewParents() {
    check(
      """
      interfaces {
          lo0 {
              unit 0 {
                  family inet {
                      address 10.0.0.6/32;
                  }
              }
          }
      }
      """,
      """
      interfaces {
          lo0 {
              unit 0 {
                  family inet {
                      address 10.0.0.6/32;
                  }
              }
              unit 1 {
                  family inet {
                      address 66.66.66.66/32;
                  }
              }
          }
      }
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 10.0.0.1;
          }
          route-distinguisher-id 192.168.1.6;
      }
      """,
      junos: """
        [edit interfaces lo0]
             unit 0 { ... }
        +    unit 1 {
        +        family inet {
        +            address 66.66.66.66/32;
        +        }
        +    }
        [edit]
        +  routing-options {
        +      static {
        +          route 0.0.0.0/0 next-hop 10.0.0.1;
        +      }
        +      route-distinguisher-id 192.168.1.6;
        +  }
        """,
      set: """
        set interfaces lo0 unit 1 family inet address 66.66.66.66/32
        set routing-options static route 0.0.0.0/0 next-hop 10.0.0.1
        set routing-options route-distinguisher-id 192.168.1.6
        """)
  }

  /// An entry inserted after a sibling of the same list: the sibling as a context line, even
  /// without children (`address 198.18.10.12/24 { ... }`, poc-vsrx; C = 8 under a `family inet`
  /// banner, D = 5).
  @Test func listEntryInsertedAfterContextLine() {
    check(
      """
      interfaces {
          ge-0/0/0 {
              unit 0 {
                  family inet {
                      address 198.18.10.12/24;
                      address 198.18.30.12/24;
                  }
              }
          }
      }
      """,
      """
      interfaces {
          ge-0/0/0 {
              unit 0 {
                  family inet {
                      address 198.18.10.12/24;
                      address 198.18.20.12/24;
                      address 198.18.30.12/24;
                  }
              }
          }
      }
      """,
      junos: """
        [edit interfaces ge-0/0/0 unit 0 family inet]
                address 198.18.10.12/24 { ... }
        +       address 198.18.20.12/24;
        """,
      set: "set interfaces ge-0/0/0 unit 0 family inet address 198.18.20.12/24")
  }

  /// Context lines name the statement by its identifier only: Junos prints `route 0.0.0.0/0 {
  /// ... }` for `route 0.0.0.0/0 next-hop …;` (SRX notes, FORMATS.md §2.2) and `address server1
  /// { ... }` for an address-book oneliner (go-junos capture). C = 5 under `[edit routing-options
  /// static]`, 7 under `[edit security zones security-zone X address-book]`.
  @Test func contextLineOfOnelinerNamesOnlyItsIdentifier() {
    check(
      """
      security {
          zones {
              security-zone DB_12 {
                  address-book {
                      address DB_10.11.12.57 10.11.12.57/32;
                  }
              }
          }
      }
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 10.32.0.1;
          }
      }
      """,
      """
      security {
          zones {
              security-zone DB_12 {
                  address-book {
                      address DB_10.11.12.57 10.11.12.57/32;
                      address DB_10.11.12.0/24 10.11.12.0/24;
                  }
              }
          }
      }
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 10.32.0.1;
              route 10.32.32.130/32 next-hop 10.32.0.102;
          }
      }
      """,
      junos: """
        [edit security zones security-zone DB_12 address-book]
               address DB_10.11.12.57 { ... }
        +      address DB_10.11.12.0/24 10.11.12.0/24;
        [edit routing-options static]
             route 0.0.0.0/0 { ... }
        +    route 10.32.32.130/32 next-hop 10.32.0.102;
        """,
      setKeywords: Self.srxAddressBook)
  }

  /// The built-in table with the SRX address-book oneliner `address NAME PREFIX;` (the table
  /// has `address keyed 1` without it, and learning keeps entries already present).
  static let srxAddressBook: KeywordTable = {
    var t = KeywordTable.standard
    t.set(.init(.keyed, keys: 1, onelinerChildren: ["*"]), for: "address", parent: "address-book")
    return t
  }()

  /// The capture shape of the test above, applied to a base whose statements are oneliners.
  @Test func identifierOnlyContextLinesApplyToOneliners() {
    let base = curly(
      """
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 10.32.0.1;
              route 10.0.0.0/8 next-hop 10.32.0.1;
          }
      }
      """)
    let text = CompareText.parse(
      SourceFile(
        path: "srx.diff",
        text: """
          [edit routing-options static]
               route 0.0.0.0/0 { ... }
          +    route 10.32.32.130/32 next-hop 10.32.0.102;

          """))
    #expect(text.diagnostics.map(\.rendered) == [])
    let applied = text.apply(to: base)
    #expect(applied.diagnostics.map(\.rendered) == [])
    let expected = curly(
      """
      routing-options {
          static {
              route 0.0.0.0/0 next-hop 10.32.0.1;
              route 10.32.32.130/32 next-hop 10.32.0.102;
              route 10.0.0.0/8 next-hop 10.32.0.1;
          }
      }
      """)
    #expect(string(applied.tree.renderCurly()) == string(expected.renderCurly()))
  }

  // MARK: statements without children

  // Junos shows an empty container as `stmt;` (`unit 0;`, `ssh;`): children added to it are
  // printed under a banner that names it (`[edit interfaces ge-0/0/1 unit 0]` + `family inet {`,
  // napalm_new_good.diff), and deleting its last child leaves `stmt;` again.

  @Test func emptyStatementGainsChildren() {
    check(
      "system {\n    services {\n        ssh;\n    }\n}",
      "system {\n    services {\n        ssh {\n            root-login deny;\n        }\n    }\n}",
      junos: """
        [edit system services ssh]
        +    root-login deny;
        """)
  }

  @Test func lastChildDeleted() {
    check(
      "system {\n    services {\n        ssh {\n            root-login deny;\n        }\n    }\n}",
      "system {\n    services {\n        ssh;\n    }\n}",
      junos: """
        [edit system services ssh]
        -    root-login deny;
        """)
  }

  /// The capture shape applied: the banner names a statement the base prints as `unit 0;`.
  @Test func bannerThroughAnEmptyStatementApplies() {
    let base = curly("interfaces {\n    ge-0/0/1 {\n        unit 0;\n    }\n}")
    let text = CompareText.parse(
      SourceFile(
        path: "napalm.diff",
        text: """
          [edit interfaces ge-0/0/1 unit 0]
          +     family inet {
          +         address 192.168.77.11/24;
          +     }

          """))
    let applied = text.apply(to: base)
    #expect(applied.diagnostics.map(\.rendered) == [])
    let expected = curly(
      "interfaces {\n    ge-0/0/1 {\n        unit 0 {\n            family inet {\n                address 192.168.77.11/24;\n            }\n        }\n    }\n}"
    )
    expectNoDifference(from: applied.tree, to: expected, "family inet added under unit 0")
  }

  /// The reverse: deleting the only child leaves the same configuration as `unit 0;`.
  @Test func deletingTheLastChildLeavesAnEmptyStatement() {
    let base = curly(
      "interfaces {\n    ge-0/0/1 {\n        unit 0 {\n            family inet {\n                address 192.168.77.11/24;\n            }\n        }\n    }\n}"
    )
    let text = CompareText.parse(
      SourceFile(
        path: "napalm.diff",
        text: """
          [edit interfaces ge-0/0/1 unit 0]
          -     family inet {
          -         address 192.168.77.11/24;
          -     }

          """))
    let applied = text.apply(to: base)
    #expect(applied.diagnostics.map(\.rendered) == [])
    expectNoDifference(from: applied.tree, to: curly("interfaces {\n    ge-0/0/1 {\n        unit 0;\n    }\n}"), "family inet deleted")
  }

  // MARK: metadata

  /// `! inactive:` with the `{ ... }` elision; `deactivate` in set form. C = 6 under `[edit
  /// protocols ospf area 0.0.0.0]` (as the HTML blog's `interface fe-0/0/2.0 {`).
  @Test func deactivated() {
    check(
      """
      protocols {
          ospf {
              area 0.0.0.0 {
                  interface ge-0/0/0.0;
                  interface ge-0/0/1.0 {
                      metric 10;
                  }
              }
          }
      }
      """,
      """
      protocols {
          ospf {
              area 0.0.0.0 {
                  interface ge-0/0/0.0;
                  inactive: interface ge-0/0/1.0 {
                      metric 10;
                  }
              }
          }
      }
      """,
      junos: """
        [edit protocols ospf area 0.0.0.0]
        !     inactive: interface ge-0/0/1.0 { ... }
        """,
      set: "deactivate protocols ospf area 0.0.0.0 interface ge-0/0/1.0")
  }

  @Test func reactivated() {
    check(
      """
      policy-options {
          policy-statement EXAMPLE-OUT {
              term LOCAL {
                  from {
                      inactive: prefix-list LOCAL-NETS;
                  }
                  then accept;
              }
          }
      }
      """,
      """
      policy-options {
          policy-statement EXAMPLE-OUT {
              term LOCAL {
                  from {
                      prefix-list LOCAL-NETS;
                  }
                  then accept;
              }
          }
      }
      """,
      junos: """
        [edit policy-options policy-statement EXAMPLE-OUT term LOCAL from]
        !      active: prefix-list LOCAL-NETS { ... }
        """,
      set: "activate policy-options policy-statement EXAMPLE-OUT term LOCAL from prefix-list LOCAL-NETS")
  }

  /// An annotation added: the comment line, then the statement as a context line.
  @Test func annotationAdded() {
    check(
      """
      protocols {
          ospf {
              area 0.0.0.0;
          }
      }
      """,
      """
      protocols {
          /* backbone only */
          ospf {
              area 0.0.0.0;
          }
      }
      """,
      junos: """
        [edit protocols]
        +  /* backbone only */
           ospf { ... }
        """,
      set: #"annotate protocols ospf "backbone only""#)
  }

  @Test func annotationChanged() {
    check(
      """
      interfaces {
          /* uplink */
          ge-0/0/0 {
              mtu 9192;
          }
      }
      """,
      """
      interfaces {
          /* uplink to core-1 */
          ge-0/0/0 {
              mtu 9192;
          }
      }
      """,
      junos: """
        [edit interfaces]
        -   /* uplink */
        +   /* uplink to core-1 */
            ge-0/0/0 { ... }
        """,
      set: #"annotate interfaces ge-0/0/0 "uplink to core-1""#)
  }

  /// An annotation removed: `annotate … ""` in set form.
  @Test func annotationRemoved() {
    check(
      """
      system {
          /* lab box */
          host-name r1;
      }
      """,
      """
      system {
          host-name r1;
      }
      """,
      junos: """
        [edit system]
        -  /* lab box */
           host-name r1 { ... }
        """,
      set: #"annotate system host-name """#)
  }

  /// An annotation change next to an ordinary change in the same group.
  @Test func annotationChangedBesideAValueChange() {
    check(
      """
      system {
          /* name */
          host-name r1;
          domain-name a.example;
      }
      """,
      """
      system {
          /* new name */
          host-name r1;
          domain-name b.example;
      }
      """,
      junos: """
        [edit system]
        -  /* name */
        +  /* new name */
           host-name r1 { ... }
        -  domain-name a.example;
        +  domain-name b.example;
        """)
  }

  // MARK: ordered lists

  static let threeTerms = """
    policy-options {
        policy-statement EXPORT {
            term A {
                then accept;
            }
            term B {
                then reject;
            }
            term C {
                then next policy;
            }
        }
    }
    """

  /// A term moved after another: the term before it as context, then `!`; `insert … after …`.
  @Test func termMovedAfterAnother() {
    check(
      Self.threeTerms,
      """
      policy-options {
          policy-statement EXPORT {
              term A {
                  then accept;
              }
              term C {
                  then next policy;
              }
              term B {
                  then reject;
              }
          }
      }
      """,
      junos: """
        [edit policy-options policy-statement EXPORT]
             term A { ... }
        !    term C { ... }
        """,
      set: "insert policy-options policy-statement EXPORT term C after term A")
  }

  /// A term moved first: no context line; `insert … before …`.
  @Test func termMovedFirst() {
    check(
      Self.threeTerms,
      """
      policy-options {
          policy-statement EXPORT {
              term C {
                  then next policy;
              }
              term A {
                  then accept;
              }
              term B {
                  then reject;
              }
          }
      }
      """,
      junos: """
        [edit policy-options policy-statement EXPORT]
        !    term C { ... }
        """,
      set: "insert policy-options policy-statement EXPORT term C before term A")
  }

  /// A new term between two others: context, the term; in set form, `set` then `insert`.
  @Test func termAddedInTheMiddle() {
    check(
      Self.threeTerms,
      """
      policy-options {
          policy-statement EXPORT {
              term A {
                  then accept;
              }
              term A2 {
                  from protocol static;
                  then accept;
              }
              term B {
                  then reject;
              }
              term C {
                  then next policy;
              }
          }
      }
      """,
      junos: """
        [edit policy-options policy-statement EXPORT]
             term A { ... }
        +    term A2 {
        +        from protocol static;
        +        then accept;
        +    }
        """,
      set: """
        set policy-options policy-statement EXPORT term A2 from protocol static
        set policy-options policy-statement EXPORT term A2 then accept
        insert policy-options policy-statement EXPORT term A2 after term A
        """)
  }

  // MARK: groups

  /// Changes inside `groups` are banners under `[edit groups …]` like any other statement; a
  /// group name is an identifier (C = 4 under `[edit groups]`).
  @Test func groupsChanged() {
    check(
      """
      groups {
          re0 {
              system {
                  host-name r1-re0;
              }
          }
      }
      apply-groups re0;
      """,
      """
      groups {
          re0 {
              system {
                  host-name r1-re0-new;
              }
          }
          re1 {
              system {
                  host-name r1-re1;
              }
          }
      }
      apply-groups [ re0 re1 ];
      """,
      junos: """
        [edit groups re0 system]
        -    host-name r1-re0;
        +    host-name r1-re0-new;
        [edit groups]
        +   re1 {
        +       system {
        +           host-name r1-re1;
        +       }
        +   }
        [edit]
        -  apply-groups re0;
        +  apply-groups [ re0 re1 ];
        """,
      set: """
        delete groups re0 system host-name
        set groups re0 system host-name r1-re0-new
        set groups re1 system host-name r1-re1
        delete apply-groups
        set apply-groups re0
        set apply-groups re1
        """)
  }

  // MARK: secrets

  static let oldPassword = """
    system {
        login {
            user alice {
                class super-user;
                authentication {
                    encrypted-password "$6$old$abc"; ## SECRET-DATA
                }
            }
        }
    }
    """
  static let newPassword = """
    system {
        login {
            user alice {
                class super-user;
                authentication {
                    encrypted-password "$6$new$xyz"; ## SECRET-DATA
                }
            }
        }
    }
    """

  /// A changed secret is still a change, shown masked (C = 6: D = 4, a bare keyword).
  @Test func changedSecretMasked() {
    check(
      Self.oldPassword, Self.newPassword,
      junos: """
        [edit system login user alice authentication]
        -     encrypted-password "<masked>"; ## SECRET-DATA
        +     encrypted-password "<masked>"; ## SECRET-DATA
        """,
      set: """
        delete system login user alice authentication encrypted-password
        set system login user alice authentication encrypted-password "<masked>"
        """)
  }

  @Test func changedSecretShown() {
    check(
      Self.oldPassword, Self.newPassword,
      junos: """
        [edit system login user alice authentication]
        -     encrypted-password "$6$old$abc"; ## SECRET-DATA
        +     encrypted-password "$6$new$xyz"; ## SECRET-DATA
        """,
      set: """
        delete system login user alice authentication encrypted-password
        set system login user alice authentication encrypted-password "$6$new$xyz"
        """,
      showSecrets: true)
  }

  /// Masked text cannot be applied: the `-` line does not match the real secret, and that is
  /// an error, not a silent skip.
  @Test func maskedSecretDoesNotApply() {
    let a = curly(Self.oldPassword)
    let masked = ConfigDiff(from: a, to: curly(Self.newPassword)).renderJunos()
    let applied = CompareText.parse(SourceFile(path: "masked.diff", bytes: masked)).apply(to: a)
    #expect(applied.diagnostics.map { "\($0.id) \($0.location)" } == ["contextMismatch 2:7"])
  }

  // MARK: JSON

  @Test func jsonRendering() throws {
    let diff = ConfigDiff(
      from: curly("system {\n    host-name r1;\n}"), to: curly("system {\n    host-name r2;\n    time-zone UTC;\n}"))
    let json = string(diff.renderJSON(oldPath: "a.conf", newPath: "b.conf"))
    #expect(
      json == #"{"format":"junoscope.diff","version":1,"old":"a.conf","new":"b.conf","identical":false,"#
        + #""counts":{"added":1,"deleted":0,"changed":1,"moved":0,"flags":0,"annotation":0},"#
        + #""groups":[{"path":["system"],"changes":["#
        + #"{"kind":"changed","statement":"host-name r2","oldText":"host-name r1;\n","newText":"host-name r2;\n"},"#
        + #"{"kind":"added","statement":"time-zone UTC","text":"time-zone UTC;\n"}]}]}"# + "\n")
    let same = ConfigDiff(from: curly("system {\n    host-name r1;\n}"), to: curly("system {\n    host-name r1;\n}"))
    #expect(
      string(same.renderJSON())
        == #"{"format":"junoscope.diff","version":1,"old":null,"new":null,"identical":true,"#
        + #""counts":{"added":0,"deleted":0,"changed":0,"moved":0,"flags":0,"annotation":0},"groups":[]}"# + "\n")
  }

  // MARK: set loading

  /// `load set` semantics: setting a single-valued statement again replaces its value, as
  /// `set system host-name NEW` does on the device.
  @Test func setOfAValueReplacesIt() {
    let loaded = ConfigParser.load(
      SourceFile(path: "c.set", text: "set system host-name r2\n"),
      onto: curly(
        """
        system {
            host-name r1;
            domain-name example.net;
        }
        """))
    #expect(loaded.diagnostics.map(\.rendered) == [])
    #expect(
      string(loaded.tree.renderCurly()) == """
        system {
            host-name r2;
            domain-name example.net;
        }

        """)
  }

  // MARK: real captures

  /// A pair of configurations that reproduces lines of a real capture.
  struct CaptureCase: Sendable, CustomTestStringConvertible {
    var capture: String
    /// The capture's lines (1-based, inclusive) that the rendering must reproduce.
    var lines: ClosedRange<Int>
    var old: String
    var new: String
    var testDescription: String { "\(capture):\(lines)" }
  }

  static let captureCases: [CaptureCase] = [
    CaptureCase(
      capture: "crpd_show_system_rollback_0_compare_1.txt", lines: 2...3,
      old: "system {\n    host-name R1;\n}",
      new: "system {\n    host-name R1;\n    time-zone America/Los_Angeles;\n}"),
    CaptureCase(
      capture: "dc-vmx-3_rest_compare_rollback_1.txt", lines: 2...3,
      old: "system {\n    login {\n        class ops;\n    }\n}",
      new: "system {\n    login {\n        class ops;\n        message \"welcome to REST demo\";\n    }\n}"),
    CaptureCase(
      capture: "poc_vsrx_load_replace_compare.txt", lines: 7...12,
      old: """
        system {
            host-name poc-vsrx-a;
        }
        interfaces {
            ge-0/0/0 {
                unit 0 {
                    family inet {
                        address 198.18.10.12/24;
                    }
                }
            }
        }
        """,
      new: """
        system {
            host-name vvfat-test-1;
        }
        interfaces {
            ge-0/0/0 {
                unit 0 {
                    family inet {
                        address 198.18.10.12/24;
                        address 198.18.20.12/24;
                    }
                }
            }
        }
        """),
    // `family inet` carries an identifier: C = D + 3 = 6 under `[edit interfaces ge-0/0/1 unit 0]`.
    CaptureCase(
      capture: "napalm_new_good.diff", lines: 1...4,
      old: "interfaces {\n    ge-0/0/1 {\n        unit 0 {\n            vlan-id 5;\n        }\n    }\n}",
      new: """
        interfaces {
            ge-0/0/1 {
                unit 0 {
                    vlan-id 5;
                    family inet {
                        address 192.168.77.11/24;
                    }
                }
            }
        }
        """),
    CaptureCase(
      capture: "napalm_merge_good.diff", lines: 1...7,
      old: """
        system {
            host-name junos-CHANGED;
        }
        interfaces {
            ge-0/0/1 {
                unit 0 {
                    vlan-id 5;
                    family inet {
                        address 192.168.77.11/24;
                    }
                }
            }
        }
        """,
      new: "system {\n    host-name vsrx;\n}\ninterfaces {\n    ge-0/0/1 {\n        unit 0 {\n            vlan-id 5;\n        }\n    }\n}"),
    CaptureCase(
      capture: "pe1_isis_export_bgp_preference.txt", lines: 2...13,
      old: """
        policy-options {
            prefix-list LOOPBACKS {
                10.0.0.1/32;
            }
        }
        protocols {
            isis {
                interface lo0.0;
            }
            bgp {
                group ibgp {
                    type internal;
                }
            }
        }
        """,
      new: """
        policy-options {
            prefix-list LOOPBACKS {
                10.0.0.1/32;
            }
            policy-statement bgp-to-isis {
                from {
                    protocol bgp;
                    route-filter 198.51.100.0/24 exact;
                }
                then accept;
            }
        }
        protocols {
            isis {
                interface lo0.0;
                export bgp-to-isis;
            }
            bgp {
                group ibgp {
                    type internal;
                    preference 164;
                }
            }
        }
        """),
    // Junos prints the deletion of `accept` before the addition of `reject`.
    CaptureCase(
      capture: "r1_filter_term_then_change.txt", lines: 2...4,
      old:
        "firewall {\n    family inet {\n        filter filter-re {\n            term ALLOW-SSH {\n                then {\n                    accept;\n                }\n            }\n        }\n    }\n}",
      new:
        "firewall {\n    family inet {\n        filter filter-re {\n            term ALLOW-SSH {\n                then {\n                    reject;\n                }\n            }\n        }\n    }\n}"
    ),
    CaptureCase(
      capture: "vmx3_vmx4_event_script_compare.txt", lines: 1...4,
      old: "interfaces {\n    ge-0/0/1 {\n        disable;\n    }\n}",
      new: "interfaces {\n    ge-0/0/0 {\n        disable;\n    }\n    ge-0/0/1 {\n        disable;\n    }\n}"),
    CaptureCase(
      capture: "vmx3_vmx4_event_script_compare.txt", lines: 9...10,
      old: "interfaces {\n    ge-0/0/1 {\n        disable;\n        mtu 9192;\n    }\n}",
      new: "interfaces {\n    ge-0/0/1 {\n        mtu 9192;\n    }\n}"),
    CaptureCase(
      capture: "vmx1_show_compare_rollback_2.txt", lines: 3...9,
      old:
        "interfaces {\n    ae0 {\n        unit 1025 {\n            family inet {\n                mtu 9000;\n            }\n        }\n    }\n}",
      new: """
        interfaces {
            ae0 {
                unit 1025 {
                    family inet {
                        mtu 9000;
                        address 172.16.101.153/24 {
                            vrrp-group 20 {
                                virtual-address 172.16.101.151;
                                priority 100;
                            }
                        }
                    }
                }
            }
        }
        """),
    CaptureCase(
      capture: "showroute_batfish_habr_route_filter.txt", lines: 2...4,
      old: """
        policy-options {
            policy-statement FROM-AS10631 {
                term TERM010 {
                    from {
                        route-filter 140.0.0.0/24 exact;
                    }
                }
            }
        }
        """,
      new: """
        policy-options {
            policy-statement FROM-AS10631 {
                term TERM010 {
                    from {
                        route-filter 140.0.0.0/24 exact;
                        route-filter 150.0.0.0/24 exact;
                    }
                }
            }
        }
        """),
    CaptureCase(
      capture: "mbr_ae0_unit900_compare.txt", lines: 2...9,
      old:
        "interfaces {\n    ae0 {\n        aggregated-ether-options {\n            lacp {\n                active;\n            }\n        }\n    }\n}",
      new: """
        interfaces {
            ae0 {
                aggregated-ether-options {
                    lacp {
                        active;
                    }
                }
                unit 900 {
                    description "<< Desc900 >>";
                    vlan-id 900;
                    family inet {
                        address 16.16.16.3/30;
                    }
                }
            }
        }
        """),
    CaptureCase(
      capture: "r1_apply_path_compare_and_display_inheritance.txt", lines: 14...28,
      old: """
        protocols {
            bgp {
                group myPeerAS2 {
                    neighbor 10.1.2.2 {
                        description "to peer r2-AS2";
                        peer-as 2;
                    }
                }
            }
        }
        """,
      new: """
        protocols {
            bgp {
                group myPeerAS2 {
                    neighbor 10.1.2.2 {
                        description "to peer r2-AS2";
                        peer-as 2;
                    }
                    neighbor 10.1.2.3 {
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
                }
            }
        }
        """),
    CaptureCase(
      capture: "ru_notes_show_system_rollback_compare.txt", lines: 7...8,
      old:
        "interfaces {\n    ae0 {\n        unit 1111 {\n            family ccc {\n                policer {\n                    output 1Gbit;\n                }\n            }\n        }\n    }\n}",
      new: """
        interfaces {
            ae0 {
                unit 1111 {
                    family ccc {
                        policer {
                            input 500Mbit;
                            output 1Gbit;
                        }
                    }
                }
            }
        }
        """),
    CaptureCase(
      capture: "jp4agent_forwarding_sandbox_show_compare.txt", lines: 2...12,
      old: "system {\n    host-name jp4agent;\n}",
      new: """
        system {
            host-name jp4agent;
        }
        forwarding-options {
            forwarding-sandbox jp4agent {
                port p1 {
                    interface xe-0/0/0:1;
                }
                port p2 {
                    interface xe-0/0/0:2;
                }
            }
        }
        """),
  ]

  /// The rendering is the capture's lines byte for byte (a banner or marker line that the
  /// capture's Markdown indents is compared without that indentation), and applies back.
  @Test(arguments: captureCases)
  func reproducesRealCapture(_ c: CaptureCase) throws {
    let lines = string(try Fixtures.bytes("diffs/\(c.capture)")).split(separator: "\n", omittingEmptySubsequences: false)
    let expected = lines[(c.lines.lowerBound - 1)...(c.lines.upperBound - 1)].map { line -> String in
      let trimmed = line.drop { $0 == " " }
      let indentedMarker = ["+ ", "- ", "! "].contains { trimmed.hasPrefix($0) }
      return trimmed.hasPrefix("[edit") || indentedMarker ? String(trimmed) : String(line)
    }.joined(separator: "\n")
    check(c.old, c.new, junos: expected)
  }
}

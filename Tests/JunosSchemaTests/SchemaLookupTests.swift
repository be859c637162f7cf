import JunosSchema
import Testing

extension SchemaNode {
  func flags(in s: JunosSchema) -> SchemaFlags { s.flags(self) }
}

/// Lookups in the compiled table, against facts read from Juniper's YANG by hand.
@Suite struct SchemaLookupTests {
  let s = JunosSchema.standard

  func path(_ words: String) -> SchemaNode? {
    var n = s.root
    for w in words.split(separator: " ") {
      guard let c = s.child(n, named: w) else { return nil }
      n = c
    }
    return n
  }

  @Test func topLevel() throws {
    for name in [
      "system", "interfaces", "protocols", "policy-options", "routing-options", "firewall", "groups", "logical-systems", "apply-groups",
      "version", "security", "vlans",
    ] {
      #expect(s.child(s.root, named: name) != nil, "\(name)")
    }
    #expect(s.child(s.root, named: "no-such-thing") == nil)
  }

  @Test func interfaceUnitFamily() throws {
    let interfaces = try #require(path("interfaces"))
    let positional = s.positionalChildren(interfaces)
    let list = try #require(positional.first { s.name($0) == "interface" })
    #expect(s.kind(list) == .list)
    #expect(s.flags(list).contains(.nokeyword))
    #expect(s.keyCount(list) == 1)
    let unit = try #require(s.child(list, named: "unit"))
    #expect(s.kind(unit) == .list)
    #expect(s.keyCount(unit) == 1)
    let family = try #require(s.child(unit, named: "family"))
    #expect(s.kind(family) == .container)
    #expect(s.flags(family).contains(.homogeneous))
    let inet = try #require(s.child(family, named: "inet"))
    let address = try #require(s.child(inet, named: "address"))
    #expect(s.kind(address) == .list)
    let mtu = try #require(s.child(list, named: "mtu"))
    #expect(s.kind(mtu) == .leaf)
    let t = try #require(s.valueType(mtu))
    #expect(s.kind(t) == .integer || s.kind(t) == .union)
  }

  @Test func policyTerm() throws {
    let term = try #require(path("policy-options policy-statement term"))
    #expect(s.kind(term) == .list)
    #expect(s.flags(term).contains(.orderedByUser))
    let from = try #require(s.child(term, named: "from"))
    #expect(s.flags(from).contains(.onelinerPlus))
    let then = try #require(s.child(term, named: "then"))
    let accept = try #require(s.child(then, named: "accept"))
    let reject = try #require(s.child(then, named: "reject"))
    #expect(s.kind(accept) == .flag)
    #expect(s.choiceNumber(accept) != nil)
    #expect(s.choiceNumber(accept) == s.choiceNumber(reject))
    #expect(s.caseNumber(accept) != s.caseNumber(reject))
  }

  @Test func hostNameIsALeaf() throws {
    let h = try #require(path("system host-name"))
    #expect(s.kind(h) == .leaf)
    let ntp = try #require(path("system ntp server"))
    #expect(s.kind(ntp) == .list)
  }

  @Test func secrets() throws {
    // `jt:unreadable` leaves: the NTP key's value (its id and type are not secret).
    let ntp = try #require(path("system ntp authentication-key"))
    #expect(s.kind(ntp) == .list)
    #expect(try #require(s.child(ntp, named: "value")).flags(in: s).contains(.secret))
    #expect(!(try #require(s.child(ntp, named: "type")).flags(in: s).contains(.secret)))
    let isis = try #require(path("protocols isis interface level hello-authentication-key"))
    #expect(s.flags(isis).contains(.secret))
    // BGP's key is a plain string in Juniper's YANG (junoscope masks it by keyword).
    let bgp = try #require(path("protocols bgp group authentication-key"))
    #expect(!s.flags(bgp).contains(.secret))
    let desc = try #require(path("protocols bgp group description"))
    #expect(!s.flags(desc).contains(.secret))
  }
}

public import JunosConfig

/// Packets the routing engine must receive for a protocol or service the configuration runs.
public struct ControlPlaneFlow: Sendable {
  /// `BGP`, `BFD`, `OSPF`, `LDP`, `RSVP`, `VRRP`, `NTP`, `DNS`, `TACACS+`, `RADIUS`, `SNMP`.
  public var protocolName: String
  /// `tcp 179`, `udp 3784`, `protocol 89`, `udp source-port 123`.
  public var transport: String
  /// `inet` or `inet6`.
  public var family: String
  /// The peer: an address, or a subnet when the neighbour's address is not implied.
  public var peer: String
  /// Who the peer is: `the OSPF neighbour on ge-0/0/1.0`, `BGP neighbor of group eBGP`.
  public var role: String
  /// The packets (from the peer to the router's own addresses).
  public var packets: PacketSet
  /// The statement that needs the flow.
  public var node: NodeID

  /// `BFD (udp 3784) from 10.0.12.2, the OSPF neighbour on ae1.0`.
  public var label: String { "\(protocolName) (\(transport)) from \(peer), \(role)" }
}

/// The control-plane flows a router needs, read from its model.
public enum ControlPlane {
  /// The neighbour an interface address implies: the other address of a /31 (/127) or of a
  /// /30's two hosts, else the whole subnet; `nil` for a host address.
  static func neighbour(_ a: IPPrefix) -> IPPrefix? {
    let width = a.width
    guard a.length < width else { return nil }
    var b = a.bytes
    if a.length == width - 1 {
      b[b.count - 1] ^= 1
      return IPPrefix(family: a.family, bytes: b, length: width)
    }
    if a.family == .inet && a.length == 30 {
      let last = b[3] & 3
      guard last == 1 || last == 2 else { return a.network }
      b[3] = (b[3] & ~3) | (last == 1 ? 2 : 1)
      return IPPrefix(family: a.family, bytes: b, length: 32)
    }
    return a.network
  }

  static func host(_ p: IPPrefix) -> String { p.length == p.width ? p.addressText : p.description }

  static func host(_ p: IPPrefix) -> IPPrefix { IPPrefix(family: p.family, bytes: p.bytes, length: p.width) }

  /// The flows `model` needs, master instance: BGP and its BFD from each neighbor (to its
  /// `local-address`, or its connected unit's address, or any of the router's); OSPF, BFD
  /// (IGP interfaces with `bfd-liveness-detection`), LDP hellos, RSVP and VRRP from the
  /// neighbours of the interfaces that run them (IPv4: IPv6 neighbours use link-local
  /// addresses); NTP, DNS, TACACS+, RADIUS replies from the
  /// configured servers and SNMP from the configured clients. IS-IS is not IP and needs none.
  public static func flows(_ model: RouterModel) -> [ControlPlaneFlow] {
    let t = model.tree
    var out: [ControlPlaneFlow] = []
    var own: [IPPrefix.Family: [IPPrefix]] = [:]
    for p in model.interfaces where !p.disabled {
      for u in p.units where !u.disabled { for a in u.addresses { own[a.family, default: []].append(host(a)) } }
    }
    func fam(_ f: IPPrefix.Family) -> String { f == .inet ? "inet" : "inet6" }
    func add(
      _ proto: String, _ transport: String, peer: IPPrefix, role: String, to: [IPPrefix]?, protocols: Int, sport: Int? = nil,
      dport: Int? = nil,
      at node: NodeID
    ) {
      let dsts = to ?? own[peer.family] ?? []
      guard !dsts.isEmpty else { return }
      out.append(
        ControlPlaneFlow(
          protocolName: proto, transport: transport, family: fam(peer.family), peer: host(peer), role: role,
          packets: PacketSet(
            sources: [peer], destinations: dsts, protocols: IntRanges([protocols...protocols]),
            sourcePorts: sport.map { IntRanges([$0...$0]) },
            destinationPorts: dport.map { IntRanges([$0...$0]) }),
          node: node))
    }
    /// The unit an IGP or protocol `interface` names, with its addresses.
    func units(_ name: String) -> [InterfaceUnit] {
      guard name != "all", let (_, u) = model.unit(name), !u.disabled else { return [] }
      return [u]
    }
    let master = model.master
    for igp in master.igps where igp.protocolName == "ospf" || igp.protocolName == "isis" {
      for i in igp.interfaces where !i.disabled {
        for u in units(i.name) where RouterModel.split(u.name).ifd != "lo0" {
          // IPv6 neighbours speak from link-local addresses, which the configuration does not
          // hold: IGP flows are IPv4 only.
          for a in u.addresses where a.family == .inet {
            guard let peer = neighbour(a) else { continue }
            let word = igp.protocolName == "ospf" ? "OSPF" : "IS-IS"
            let role = "the \(word) neighbour on \(u.name)"
            if igp.protocolName == "ospf" && a.family == .inet && !i.passive {
              add(
                "OSPF", "protocol 89", peer: peer, role: role, to: [host(a), IPPrefix("224.0.0.5")!, IPPrefix("224.0.0.6")!], protocols: 89,
                at: i.node)
            }
            if i.bfd && !i.passive { add("BFD", "udp 3784", peer: peer, role: role, to: [host(a)], protocols: 17, dport: 3784, at: i.node) }
          }
        }
      }
    }
    for (name, node) in master.ldpInterfaces {
      for u in units(name) {
        for a in u.addresses where a.family == .inet {
          guard let peer = neighbour(a) else { continue }
          add(
            "LDP", "udp 646", peer: peer, role: "the LDP neighbour on \(u.name)", to: [host(a), IPPrefix("224.0.0.2")!], protocols: 17,
            dport: 646, at: node)
        }
      }
    }
    for (name, node) in master.rsvpInterfaces {
      for u in units(name) {
        for a in u.addresses where a.family == .inet {
          guard let peer = neighbour(a) else { continue }
          add("RSVP", "protocol 46", peer: peer, role: "the RSVP neighbour on \(u.name)", to: nil, protocols: 46, at: node)
        }
      }
    }
    for p in model.interfaces {
      for u in p.units where !u.disabled {
        for f in t.all(u.node, "family") where t.wordCount(of: f) >= 2 && t.word(1, of: f) == "inet" {
          for a in t.all(f, "address") where t.wordCount(of: a) >= 2 && t.first(a, "vrrp-group") != nil {
            guard let ip = IPPrefix(t.word(1, of: a)), ip.length < 32 else { continue }
            add(
              "VRRP", "protocol 112", peer: ip.network, role: "the VRRP routers on \(u.name)", to: [IPPrefix("224.0.0.18")!],
              protocols: 112,
              at: a)
          }
        }
      }
    }
    if let bgp = master.bgp {
      for g in bgp.groups {
        for n in g.neighbors {
          guard let peer = IPPrefix(n.address) else { continue }
          let role = "BGP neighbor of group \(g.name)"
          // To its local-address; else, for a neighbor on a connected subnet, to the unit's
          // address on it; else to any of the router's addresses.
          var to = n.localAddress.flatMap { IPPrefix($0) }.map { [$0] }
          if to == nil, let unit = model.connected.first(containing: peer), let (_, u) = model.unit(unit) {
            let local: [IPPrefix] = u.addresses.filter { $0.length < $0.width && $0.contains(peer) }.map { host($0) }
            if !local.isEmpty { to = local }
          }
          add("BGP", "tcp 179", peer: peer, role: role, to: to, protocols: 6, dport: 179, at: n.node)
          add("BGP", "tcp source-port 179", peer: peer, role: role, to: to, protocols: 6, sport: 179, at: n.node)
          if n.bfd {
            let singleHop = model.connected.first(containing: peer) != nil
            let port = singleHop ? 3784 : 4784
            add("BFD", "udp \(port)", peer: peer, role: role, to: to, protocols: 17, dport: port, at: n.node)
          }
        }
      }
    }
    let root = ConfigTree.root
    if let sys = t.first(root, "system") {
      func servers(_ holder: NodeID?, _ keyword: String) -> [(IPPrefix, NodeID)] {
        guard let holder else { return [] }
        var list: [(IPPrefix, NodeID)] = []
        for s in t.all(holder, keyword) {
          for e in FirewallConfig.entries(t, s) { if let p = IPPrefix(e[0]) { list.append((p, s)) } }
        }
        return list
      }
      for (p, node) in servers(t.first(sys, "ntp"), "server") {
        add("NTP", "udp source-port 123", peer: p, role: "an NTP server", to: nil, protocols: 17, sport: 123, at: node)
      }
      for (p, node) in servers(sys, "name-server") {
        add("DNS", "udp source-port 53", peer: p, role: "a name server", to: nil, protocols: 17, sport: 53, at: node)
      }
      for (p, node) in servers(sys, "tacplus-server") {
        let port = t.value(node, "port").flatMap { Int($0) } ?? 49
        add("TACACS+", "tcp source-port \(port)", peer: p, role: "a TACACS+ server", to: nil, protocols: 6, sport: port, at: node)
      }
      for (p, node) in servers(sys, "radius-server") {
        let port = t.value(node, "port").flatMap { Int($0) } ?? 1812
        add("RADIUS", "udp source-port \(port)", peer: p, role: "a RADIUS server", to: nil, protocols: 17, sport: port, at: node)
      }
    }
    if let snmp = t.first(root, "snmp") {
      var clients: [(IPPrefix, NodeID)] = []
      for c in t.all(snmp, "community") {
        if let cl = t.first(c, "clients") {
          for k in t.children(of: cl) where t.wordCount(of: k) >= 1 && !t.has(k, "restrict") {
            if let p = IPPrefix(t.word(0, of: k)) { clients.append((p, k)) }
          }
        }
      }
      for l in t.all(snmp, "client-list") {
        for k in t.children(of: l) where t.wordCount(of: k) >= 1 && !t.has(k, "restrict") {
          if let p = IPPrefix(t.word(0, of: k)) { clients.append((p, k)) }
        }
      }
      for (p, node) in clients where p.length > 0 {
        add("SNMP", "udp 161", peer: p.network, role: "an SNMP client", to: nil, protocols: 17, dport: 161, at: node)
      }
    }
    return out
  }
}

public import JunosConfig

/// A logical interface (`unit N` of a physical interface).
public struct InterfaceUnit: Sendable {
  /// `et-0/0/0.0`.
  public var name: String
  /// The `unit N` statement.
  public var node: NodeID
  /// Its `description`.
  public var description: String?
  /// Whether the unit is `disable`d.
  public var disabled: Bool
  /// `family` names configured (`inet`, `iso`, `mpls`, `ethernet-switching`, …).
  public var families: [String]
  /// `family inet|inet6 address` values, host bits as written.
  public var addresses: [IPPrefix]
}

/// A physical interface and its units.
public struct PhysicalInterface: Sendable {
  /// `et-0/0/0`, `ae1`, `lo0`.
  public var name: String
  /// The `interfaces NAME` statement.
  public var node: NodeID
  /// Its `description`.
  public var description: String?
  /// Whether the interface is `disable`d (physical level).
  public var disabled: Bool
  /// The aggregated-Ethernet bundle it is a member of (`gigether-options 802.3ad aeN`).
  public var bundle: String?
  /// `apply-macro checklist { role core; }` on the interface.
  public var macroRole: String?
  /// Its units, in order.
  public var units: [InterfaceUnit]
}

/// An `aggregate` or `generate` route.
public struct AggregateRoute: Sendable {
  /// `aggregate` or `generate`.
  public var kind: String
  /// The route's prefix.
  public var prefix: IPPrefix
  /// The `route P` statement.
  public var node: NodeID
  /// The contributor policy: the route's own `policy`, else the `defaults` one.
  public var policy: String?
  /// Whether the route (or its `defaults`) is `passive` and not overridden by `active`.
  public var passive: Bool
  /// The routing instance (`master` for the global one).
  public var instance: String
}

/// An IGP (IS-IS, OSPF, OSPFv3) instance.
public struct IGPConfig: Sendable {
  /// `isis`, `ospf` or `ospf3`.
  public var protocolName: String
  /// The `protocols isis` statement.
  public var node: NodeID
  /// The `overload` statement, if any.
  public var overload: NodeID?
  /// `overload timeout` seconds.
  public var overloadTimeout: Int?
  /// Whether `overload advertise-high-metrics` is set.
  public var overloadHighMetrics: Bool
  /// The `export` chain.
  public var export: [String]
  /// The `export` statement, if any.
  public var exportNode: NodeID?
  /// Interfaces in the IGP.
  public var interfaces: [IGPInterface]
}

/// An interface of an IGP.
public struct IGPInterface: Sendable {
  /// `et-0/0/0.0` (or `all`).
  public var name: String
  /// The `interface X` statement.
  public var node: NodeID
  /// Whether it is `passive`.
  public var passive: Bool
  /// Whether it is `disable`d in the IGP.
  public var disabled: Bool
  /// Metrics configured on it (every level / the area), empty when none.
  public var metrics: [Int]
  /// Whether `ldp-synchronization` is on (present and not `disable`d).
  public var ldpSynchronization: Bool
  /// Whether `bfd-liveness-detection` is configured under it.
  public var bfd: Bool
}

/// A BGP neighbor.
public struct BGPNeighbor: Sendable {
  /// The address as written.
  public var address: String
  /// The `neighbor X` statement.
  public var node: NodeID
  /// `import` at neighbor level (`nil` when not set there).
  public var importChain: [String]?
  /// `export` at neighbor level.
  public var exportChain: [String]?
  /// `peer-as` at neighbor level.
  public var peerAS: String?
  /// Whether a prefix limit is set at neighbor level.
  public var prefixLimit: Bool
  /// Whether BFD runs for the session (`bfd-liveness-detection` at neighbor, group or
  /// protocol level).
  public var bfd: Bool = false
  /// `local-address` (neighbor, else group, else protocol level).
  public var localAddress: String? = nil
}

/// A BGP group.
public struct BGPGroup: Sendable {
  /// The group's name.
  public var name: String
  /// The `group G` statement.
  public var node: NodeID
  /// `type internal|external`.
  public var type: String?
  /// `peer-as` at group level.
  public var peerAS: String?
  /// `import` at group level.
  public var importChain: [String]?
  /// `export` at group level.
  public var exportChain: [String]?
  /// Whether a prefix limit is set at group level.
  public var prefixLimit: Bool
  /// Whether `graceful-shutdown sender` is set.
  public var gracefulShutdownSender: Bool
  /// Neighbors, in order.
  public var neighbors: [BGPNeighbor]
  /// `allow` prefixes (dynamic peers).
  public var allow: [String]
}

/// `protocols bgp` of an instance.
public struct BGPConfig: Sendable {
  /// The `protocols bgp` statement.
  public var node: NodeID
  /// `import` at protocol level.
  public var importChain: [String]?
  /// `export` at protocol level.
  public var exportChain: [String]?
  /// Whether a prefix limit is set at protocol level.
  public var prefixLimit: Bool
  /// `defaults ebgp no-policy`.
  public var ebgpNoPolicyDefault: Bool
  /// Its groups.
  public var groups: [BGPGroup]
}

/// The global routing instance (`master`) or one of `routing-instances`.
public struct RoutingInstance: Sendable {
  /// `master` for the global instance.
  public var name: String
  /// The instance's statement (the root for `master`).
  public var node: NodeID
  /// `instance-type`.
  public var type: String?
  /// `interface X` members (units).
  public var interfaces: [String]
  /// Aggregate and generated routes.
  public var aggregates: [AggregateRoute]
  /// Static route prefixes.
  public var staticRoutes: [(prefix: IPPrefix, node: NodeID)]
  /// IS-IS, OSPF, OSPFv3.
  public var igps: [IGPConfig]
  /// `protocols ldp interface` units.
  public var ldpInterfaces: [(name: String, node: NodeID)]
  /// `protocols rsvp interface` units.
  public var rsvpInterfaces: [(name: String, node: NodeID)]
  /// `protocols mpls interface` units.
  public var mplsInterfaces: [(name: String, node: NodeID)]
  /// `protocols bgp`.
  public var bgp: BGPConfig?
  /// `vrf-import` / `vrf-export` chains.
  public var vrfImport: [String]
  /// `vrf-export` chain.
  public var vrfExport: [String]
  /// `routing-options forwarding-table export` chain.
  public var forwardingTableExport: [String]
  /// `routing-options flow route` statements.
  public var flowRoutes: [NodeID]
  /// `routing-options autonomous-system`.
  public var autonomousSystem: String?
  /// Subscriber address pools of a BNG: `access address-assignment pool P family inet network N`
  /// and `family inet6 prefix N`, in the instance (the top-level `access` for `master`).
  public var subscriberPools: [IPPrefix] = []

  /// ` in routing-instance NAME`, or nothing for the master instance: for messages.
  public var suffix: String { name == "master" ? "" : " in routing-instance \(name)" }
}

/// What the checklist needs to know about one configuration, read from its effective tree.
public struct RouterModel: Sendable {
  /// The effective configuration (inactive statements dropped, groups expanded).
  public let tree: ConfigTree
  /// Physical interfaces, in order.
  public var interfaces: [PhysicalInterface]
  /// Policies and named sets.
  public var policy: PolicyOptions
  /// `master` first, then `routing-instances`.
  public var instances: [RoutingInstance]
  /// `class-of-service interfaces` entries: interface name (or wildcard) → statement.
  public var cosInterfaces: [(name: String, node: NodeID)]
  var interfaceIndex: [String: Int]
  /// The units' subnets (host routes left out), in interface order: which unit faces an address.
  let connected: PrefixIndex<String>

  /// Reads a model from an effective configuration (see `ConfigTree.effective()`).
  public init(effective tree: ConfigTree) {
    self.tree = tree
    interfaces = []
    interfaceIndex = [:]
    policy = PolicyOptions(tree: tree)
    instances = []
    cosInterfaces = []
    let root = ConfigTree.root
    if let ifs = tree.first(root, "interfaces") {
      for i in tree.children(of: ifs) where tree.wordCount(of: i) == 1 {
        let name = tree.word(0, of: i)
        if name == "interface-range" || name == "traceoptions" || name == "apply-groups" { continue }
        interfaceIndex[name] = interfaces.count
        interfaces.append(Self.physical(tree, i, name: name))
      }
    }
    instances.append(Self.instance(tree, root, name: "master"))
    if let ris = tree.first(root, "routing-instances") {
      for ri in tree.children(of: ris) where tree.wordCount(of: ri) == 1 {
        instances.append(Self.instance(tree, ri, name: tree.word(0, of: ri)))
      }
    }
    if let cos = tree.first(root, "class-of-service"), let ifs = tree.first(cos, "interfaces") {
      for c in tree.children(of: ifs) where tree.wordCount(of: c) >= 1 { cosInterfaces.append((tree.word(0, of: c), c)) }
    }
    var connected = PrefixIndex<String>()
    for p in interfaces {
      for u in p.units {
        for x in u.addresses where x.length < (x.family == .inet ? 32 : 128) { connected.insert(x, u.name) }
      }
    }
    self.connected = connected
  }

  /// The physical interface called `name`.
  public func physical(_ name: String) -> PhysicalInterface? { interfaceIndex[name].map { interfaces[$0] } }

  /// The unit a reference names (`et-0/0/0.0`; a bare `et-0/0/0` is unit 0).
  public func unit(_ reference: String) -> (PhysicalInterface, InterfaceUnit)? {
    let (ifd, unit) = Self.split(reference)
    guard let p = physical(ifd), let u = p.units.first(where: { $0.name == "\(ifd).\(unit)" }) else { return nil }
    return (p, u)
  }

  /// `et-0/0/0.10` → (`et-0/0/0`, `10`); `et-0/0/0` → (`et-0/0/0`, `0`).
  public static func split(_ reference: String) -> (ifd: String, unit: String) {
    if let dot = reference.lastIndex(of: "."), !reference[reference.index(after: dot)...].isEmpty,
      reference[reference.index(after: dot)...].allSatisfy(\.isNumber)
    {
      return (String(reference[..<dot]), String(reference[reference.index(after: dot)...]))
    }
    return (reference, "0")
  }

  /// The master instance.
  public var master: RoutingInstance { instances[0] }

  /// The router's own autonomous system.
  public var autonomousSystem: String? { master.autonomousSystem }

  static func physical(_ t: ConfigTree, _ node: NodeID, name: String) -> PhysicalInterface {
    var bundle: String?
    for opt in ["gigether-options", "ether-options", "aggregated-ether-options"] {
      if let o = t.first(node, opt), let ad = t.first(o, "802.3ad") {
        bundle = t.wordCount(of: ad) > 1 ? t.word(1, of: ad) : t.value(ad, "bundle")
      }
    }
    var macroRole: String?
    for m in t.all(node, "apply-macro") {
      // `apply-macro checklist { role core; }` or `apply-macro checklist role core` (set form).
      let n = t.wordCount(of: m)
      let macroName = n > 1 ? t.word(1, of: m) : t.firstChild(of: m).map { t.word(0, of: $0) }
      guard macroName == "checklist" else { continue }
      let holder = n > 1 ? m : t.firstChild(of: m)!
      if let r = t.value(holder, "role") { macroRole = r }
    }
    var units: [InterfaceUnit] = []
    for u in t.all(node, "unit") where t.wordCount(of: u) >= 2 {
      var families: [String] = []
      var addresses: [IPPrefix] = []
      for f in t.all(u, "family") where t.wordCount(of: f) >= 2 {
        let fam = t.word(1, of: f)
        families.append(fam)
        if fam == "inet" || fam == "inet6" {
          for a in t.all(f, "address") where t.wordCount(of: a) >= 2 {
            if let p = IPPrefix(t.word(1, of: a)) { addresses.append(p) }
          }
        }
      }
      units.append(
        InterfaceUnit(
          name: "\(name).\(t.word(1, of: u))", node: u, description: t.value(u, "description"), disabled: t.has(u, "disable"),
          families: families, addresses: addresses))
    }
    return PhysicalInterface(
      name: name, node: node, description: t.value(node, "description"), disabled: t.has(node, "disable"), bundle: bundle,
      macroRole: macroRole, units: units)
  }

  static func chain(_ t: ConfigTree, _ node: NodeID, _ keyword: String) -> [String]? {
    t.first(node, keyword) == nil ? nil : t.values(node, keyword)
  }

  static func prefixLimit(_ t: ConfigTree, _ node: NodeID) -> Bool {
    for f in t.all(node, "family") {
      for sub in t.children(of: f) where t.first(sub, "prefix-limit") != nil || t.first(sub, "accepted-prefix-limit") != nil {
        return true
      }
    }
    return false
  }

  static func instance(_ t: ConfigTree, _ node: NodeID, name: String) -> RoutingInstance {
    var ri = RoutingInstance(
      name: name, node: node, type: name == "master" ? nil : t.value(node, "instance-type"),
      interfaces: name == "master" ? [] : t.all(node, "interface").filter { t.wordCount(of: $0) > 1 }.map { t.word(1, of: $0) },
      aggregates: [], staticRoutes: [], igps: [], ldpInterfaces: [], rsvpInterfaces: [], mplsInterfaces: [], bgp: nil,
      vrfImport: t.values(node, "vrf-import"), vrfExport: t.values(node, "vrf-export"), forwardingTableExport: [], flowRoutes: [],
      autonomousSystem: nil)
    if let access = t.first(node, "access"), let aa = t.first(access, "address-assignment") {
      for pool in t.all(aa, "pool") {
        for f in t.all(pool, "family") where t.wordCount(of: f) >= 2 {
          let key = t.word(1, of: f) == "inet6" ? "prefix" : "network"
          if let v = t.value(f, key), let p = IPPrefix(v) { ri.subscriberPools.append(p) }
        }
      }
    }
    if let ro = t.first(node, "routing-options") {
      ri.autonomousSystem = t.value(ro, "autonomous-system")
      var tables: [NodeID] = [ro]
      tables += t.all(ro, "rib")
      for table in tables {
        for kind in ["aggregate", "generate"] {
          guard let block = t.first(table, kind) else { continue }
          let defaults = t.first(block, "defaults")
          let defaultPolicy = defaults.flatMap { t.value($0, "policy") }
          let defaultPassive = defaults.map { t.has($0, "passive") } ?? false
          for r in t.all(block, "route") where t.wordCount(of: r) >= 2 {
            guard let p = IPPrefix(t.word(1, of: r)) else { continue }
            let passive = t.has(r, "passive") || (defaultPassive && !t.has(r, "active"))
            ri.aggregates.append(
              AggregateRoute(
                kind: kind, prefix: p, node: r, policy: t.value(r, "policy") ?? defaultPolicy, passive: passive, instance: name))
          }
        }
        if let st = t.first(table, "static") {
          for r in t.all(st, "route") where t.wordCount(of: r) >= 2 {
            if let p = IPPrefix(t.word(1, of: r)) { ri.staticRoutes.append((p, r)) }
          }
        }
      }
      if let ft = t.first(ro, "forwarding-table") { ri.forwardingTableExport = t.values(ft, "export") }
      if let flow = t.first(ro, "flow") { ri.flowRoutes = t.all(flow, "route") }
    }
    guard let protocols = t.first(node, "protocols") else { return ri }
    for proto in ["isis", "ospf", "ospf3"] {
      guard let p = t.first(protocols, proto) else { continue }
      let overload = t.first(p, "overload")
      var igp = IGPConfig(
        protocolName: proto, node: p, overload: overload, overloadTimeout: overload.flatMap { t.value($0, "timeout") }.flatMap { Int($0) },
        overloadHighMetrics: overload.map { t.has($0, "advertise-high-metrics") } ?? false, export: t.values(p, "export"),
        exportNode: t.first(p, "export"), interfaces: [])
      let holders: [NodeID] = proto == "isis" ? [p] : t.all(p, "area")
      for h in holders {
        for i in t.all(h, "interface") where t.wordCount(of: i) >= 2 {
          var metrics: [Int] = []
          if let m = t.value(i, "metric").flatMap({ Int($0) }) { metrics.append(m) }
          for l in t.all(i, "level") {
            if let m = t.value(l, "metric").flatMap({ Int($0) }) { metrics.append(m) }
          }
          var sync = false
          if let s = t.first(i, "ldp-synchronization") { sync = !t.has(s, "disable") }
          var bfd = t.first(i, "bfd-liveness-detection") != nil
          if !bfd { for l in t.all(i, "family") where t.first(l, "bfd-liveness-detection") != nil { bfd = true } }
          igp.interfaces.append(
            IGPInterface(
              name: t.word(1, of: i), node: i, passive: t.has(i, "passive"), disabled: t.has(i, "disable"), metrics: metrics,
              ldpSynchronization: sync, bfd: bfd))
        }
      }
      ri.igps.append(igp)
    }
    func members(_ proto: String) -> [(String, NodeID)] {
      guard let p = t.first(protocols, proto) else { return [] }
      return t.all(p, "interface").filter { t.wordCount(of: $0) >= 2 && !t.has($0, "disable") }.map { (t.word(1, of: $0), $0) }
    }
    ri.ldpInterfaces = members("ldp")
    ri.rsvpInterfaces = members("rsvp")
    ri.mplsInterfaces = members("mpls")
    if let b = t.first(protocols, "bgp") {
      var bgp = BGPConfig(
        node: b, importChain: chain(t, b, "import"), exportChain: chain(t, b, "export"), prefixLimit: prefixLimit(t, b),
        ebgpNoPolicyDefault: t.first(b, "defaults").flatMap { t.first($0, "ebgp") }.map { t.has($0, "no-policy") } ?? false,
        groups: [])
      for g in t.all(b, "group") where t.wordCount(of: g) >= 2 {
        var group = BGPGroup(
          name: t.word(1, of: g), node: g, type: t.value(g, "type"), peerAS: t.value(g, "peer-as"), importChain: chain(t, g, "import"),
          exportChain: chain(t, g, "export"), prefixLimit: prefixLimit(t, g),
          gracefulShutdownSender: t.first(g, "graceful-shutdown").map { t.has($0, "sender") } ?? false, neighbors: [],
          allow: t.values(g, "allow"))
        let groupBFD = t.first(g, "bfd-liveness-detection") != nil || t.first(b, "bfd-liveness-detection") != nil
        for n in t.all(g, "neighbor") where t.wordCount(of: n) >= 2 {
          group.neighbors.append(
            BGPNeighbor(
              address: t.word(1, of: n), node: n, importChain: chain(t, n, "import"), exportChain: chain(t, n, "export"),
              peerAS: t.value(n, "peer-as"), prefixLimit: prefixLimit(t, n), bfd: groupBFD || t.first(n, "bfd-liveness-detection") != nil,
              localAddress: t.value(n, "local-address") ?? t.value(g, "local-address") ?? t.value(b, "local-address")))
        }
        bgp.groups.append(group)
      }
      ri.bgp = bgp
    }
    return ri
  }
}

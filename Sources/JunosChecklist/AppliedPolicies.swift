import JunosConfig

/// Where a policy chain is applied, and what kind of receiver it faces.
struct AppliedChain: Sendable {
  enum Use: Sendable, Equatable {
    /// BGP export toward a group; `external` for eBGP or client-facing groups.
    case bgpExport(group: String, external: Bool)
    /// BGP import from a group.
    case bgpImport(group: String, external: Bool)
    /// IS-IS/OSPF export.
    case igpExport(String)
    /// `vrf-import` / `vrf-export`.
    case vrfImport(String), vrfExport(String)
    /// Aggregate/generate contributor policy.
    case contributor(String)
    /// `forwarding-table export`.
    case forwardingTable
  }

  var use: Use
  var chain: [String]
  /// The statement that applies it (for locations).
  var node: NodeID
  var instance: String

  var isExport: Bool {
    switch use {
    case .bgpExport, .igpExport, .vrfExport: true
    default: false
    }
  }

  /// Words for messages: `export to eBGP group DC-FABRIC`.
  var describe: String {
    switch use {
    case .bgpExport(let g, let ext): "export to \(ext ? "eBGP" : "iBGP") group \(g)"
    case .bgpImport(let g, let ext): "import from \(ext ? "eBGP" : "iBGP") group \(g)"
    case .igpExport(let p): "\(p) export"
    case .vrfImport(let ri): "vrf-import of \(ri)"
    case .vrfExport(let ri): "vrf-export of \(ri)"
    case .contributor(let r): "contributor policy of \(r)"
    case .forwardingTable: "forwarding-table export"
    }
  }
}

extension ConfigContext {
  /// Whether a BGP group faces an external or client peer: `type external`, a `peer-as` other
  /// than the router's own, or a neighbor on a client-facing interface.
  func isExternal(_ g: BGPGroup, in ri: RoutingInstance) -> Bool {
    if g.type == "external" { return true }
    let local = ri.autonomousSystem ?? model.autonomousSystem
    if let p = g.peerAS, let local, p != local { return true }
    for n in g.neighbors {
      if let p = n.peerAS, let local, p != local { return true }
      if let u = interfaceFacing(n.address), roles.role(of: u) == .client { return true }
    }
    return false
  }

  /// Whether a BGP group is eBGP: `type external`, or a peer AS (of the group or a neighbor) other
  /// than the router's.
  func isEBGP(_ g: BGPGroup, in ri: RoutingInstance) -> Bool {
    if g.type == "external" { return true }
    if g.type == "internal" { return false }
    guard let local = ri.autonomousSystem ?? model.autonomousSystem else { return false }
    return g.peerAS.map { $0 != local } ?? false || g.neighbors.contains { $0.peerAS.map { $0 != local } ?? false }
  }

  /// The unit whose subnet holds `address`.
  func interfaceFacing(_ address: String) -> String? {
    guard let a = IPPrefix(address) else { return nil }
    return model.connected.first(containing: a)
  }

  /// Every applied policy chain of the configuration.
  func appliedChains() -> [AppliedChain] { ContextCache.value(cache.chains) { computeAppliedChains() } }

  private func computeAppliedChains() -> [AppliedChain] {
    var out: [AppliedChain] = []
    for ri in model.instances {
      for igp in ri.igps where !igp.export.isEmpty {
        out.append(AppliedChain(use: .igpExport(igp.protocolName), chain: igp.export, node: igp.exportNode ?? igp.node, instance: ri.name))
      }
      if !ri.vrfImport.isEmpty { out.append(AppliedChain(use: .vrfImport(ri.name), chain: ri.vrfImport, node: ri.node, instance: ri.name)) }
      if !ri.vrfExport.isEmpty { out.append(AppliedChain(use: .vrfExport(ri.name), chain: ri.vrfExport, node: ri.node, instance: ri.name)) }
      if !ri.forwardingTableExport.isEmpty {
        out.append(AppliedChain(use: .forwardingTable, chain: ri.forwardingTableExport, node: ri.node, instance: ri.name))
      }
      for a in ri.aggregates {
        if let p = a.policy {
          out.append(AppliedChain(use: .contributor("\(a.kind) route \(a.prefix)"), chain: [p], node: a.node, instance: ri.name))
        }
      }
      guard let bgp = ri.bgp else { continue }
      for g in bgp.groups {
        let ext = isExternal(g, in: ri)
        var exports: [[String]] = []
        var imports: [[String]] = []
        let members: [BGPNeighbor?] = g.neighbors.isEmpty ? [nil] : g.neighbors
        for n in members {
          if let e = n?.exportChain ?? g.exportChain ?? bgp.exportChain, !exports.contains(e) { exports.append(e) }
          if let i = n?.importChain ?? g.importChain ?? bgp.importChain, !imports.contains(i) { imports.append(i) }
        }
        for e in exports {
          out.append(AppliedChain(use: .bgpExport(group: g.name, external: ext), chain: e, node: g.node, instance: ri.name))
        }
        for i in imports {
          out.append(AppliedChain(use: .bgpImport(group: g.name, external: ext), chain: i, node: g.node, instance: ri.name))
        }
      }
    }
    return out
  }
}

import JunosConfig

/// The routes two policy chains can tell apart, cut into classes along each part of a route.
///
/// Every route falls into exactly one class of each part (``RoutePart``), and the routes of one
/// class meet every condition of both chains alike, so one representative route per combination
/// of classes stands for all of them. How the classes are cut, and where they are only sampled,
/// is in `Docs/PolicySemantics.md` ("The symbolic comparison").
struct RouteSpace: Sendable {
  /// Prefix classes: the routes inside `node` (a prefix the policies name, or a family's root)
  /// whose length is in `lengths` and which lie inside no named prefix below `node` that is at
  /// most as long.
  struct PrefixClass: Sendable, Hashable {
    var node: IPPrefix
    var lengths: ClosedRange<Int>
    /// A route of the class: the first one, in address order, of the shortest length.
    var example: IPPrefix
    /// Whether named prefixes inside `node` are left out.
    var hasHoles: Bool
  }

  /// Where a route comes from: protocol, route type, and whether it is the active route.
  struct Origin: Sendable, Hashable {
    var protocolName: String
    var routeType: Route.RouteType?
    var isActive: Bool
  }

  /// A tag and a routing table: `nil` for none, or for one no condition names.
  struct Attributes: Sendable, Hashable {
    var tag: UInt32?
    var rib: String?
  }

  var prefixes: [PrefixClass] = []
  var origins: [Origin] = []
  /// Tag × table classes: each named tag and none, by each named table and another one.
  var attributes: [Attributes] = [Attributes()]
  var neighbors: [IPPrefix?] = []
  /// Community classes, each as the set of communities its representative carries.
  var communities: [[String]] = []
  /// The community definitions (members, without `invert-match`) the classes are cut on.
  var communityAtoms: [CommunityDefinition] = []
  /// Whether the community classes were sampled from witnesses of regular-expression members
  /// rather than cut exactly.
  var communitiesSampled = false
  /// The AS-path expressions the classes are cut on.
  var asPathAtoms: [ASPathRegex] = []
  /// AS-path classes, each as its representative path.
  var asPaths: [[UInt32]] = []
  /// Whether the AS-path classes were sampled from the expressions rather than cut exactly.
  var asPathsSampled = false

  /// The number of classes of one part.
  func count(_ part: RoutePart) -> Int {
    switch part {
    case .prefix: prefixes.count
    case .origin: origins.count
    case .neighbor: neighbors.count
    case .communities: communities.count
    case .asPath: asPaths.count
    case .attributes: attributes.count
    }
  }

  /// The representative route of one class of each part.
  func route(_ index: [Int]) -> Route {
    let o = origins[index[RoutePart.origin.rawValue]]
    return Route(
      prefix: prefixes[index[RoutePart.prefix.rawValue]].example, protocolName: o.protocolName,
      neighbor: neighbors[index[RoutePart.neighbor.rawValue]], isActive: o.isActive,
      communities: communities[index[RoutePart.communities.rawValue]], asPath: asPaths[index[RoutePart.asPath.rawValue]],
      routeType: o.routeType, tag: attributes[index[RoutePart.attributes.rawValue]].tag,
      rib: attributes[index[RoutePart.attributes.rawValue]].rib)
  }

  /// A route whose `part` is class `k` and whose other parts are their first classes (for checks
  /// that read one part only).
  func route(_ part: RoutePart, _ k: Int) -> Route {
    var index = [Int](repeating: 0, count: RoutePart.allCases.count)
    index[part.rawValue] = k
    return route(index)
  }
}

extension RouteSpace {
  /// The class of each part `route` falls in; `nil` when its AS path is in no sampled class.
  func classIndex(of route: Route) -> [Int]? {
    var best: Int?
    for (k, c) in prefixes.enumerated() where c.node.contains(route.prefix) && c.lengths.contains(route.prefix.length) {
      if best.map({ prefixes[$0].node.length < c.node.length }) ?? true { best = k }
    }
    let name = route.protocolName.lowercased()
    let known = origins.contains { $0.protocolName == name }
    // A protocol of no class stands for itself only when no named protocol matches it and it
    // has no route type (then it is like the class of the protocol nobody names).
    if !known && (route.routeType != nil || origins.contains { protocolMatches($0.protocolName, name) }) { return nil }
    let origin = origins.firstIndex { o in
      o.protocolName == (known ? name : origins[origins.count - 1].protocolName) && (o.routeType == nil || o.routeType == route.routeType)
        && (o.protocolName == "bgp" ? o.isActive == route.isActive : true)
    }
    let neighbor =
      neighbors.firstIndex { n in
        guard let n, let r = route.neighbor else { return route.neighbor == nil && n == nil }
        return n.family == r.family && n.bytes == r.bytes
      } ?? (route.neighbor == nil ? 0 : neighbors.count - 1)
    let vector = communityAtoms.map { $0.carried(by: route.communities) == true }
    let community = communities.firstIndex { c in communityAtoms.map { $0.carried(by: c) == true } == vector }
    let verdicts = asPathAtoms.map { $0.matches(route.asPath) }
    let asPath = asPaths.firstIndex { a in asPathAtoms.map { $0.matches(a) } == verdicts }
    let named = (tags: Set(attributes.compactMap(\.tag)), ribs: Set(attributes.compactMap(\.rib)))
    let key = Attributes(
      tag: route.tag.flatMap { named.tags.contains($0) ? $0 : nil }, rib: route.rib.flatMap { named.ribs.contains($0) ? $0 : nil })
    guard let best, let origin, let community, let asPath, let attribute = attributes.firstIndex(of: key) else { return nil }
    return [best, origin, neighbor, community, asPath, attribute]
  }
}

/// What two policy chains mention: the atoms the classes are cut on.
struct PolicyAtoms {
  var prefixes: Set<IPPrefix> = []
  /// For each named prefix: the lengths at which a filter on it changes its answer.
  var lengthCuts: [IPPrefix: Set<Int>] = [:]
  var protocols: Set<String> = []
  var neighbors: Set<IPPrefix> = []
  /// Community member sets (one per definition used whose members are all read), sorted.
  var communitySets: Set<[String]> = []
  var asPaths: [ASPathRegex] = []
  var asNumbers: Set<UInt32> = []
  var tags: Set<UInt32> = []
  var ribs: Set<String> = []

  /// Collects what `chain` (and the subroutines it calls) mentions in `options`.
  mutating func collect(_ options: PolicyOptions, chain: [String]) {
    var seen: Set<String> = []
    var queue = policyNames(chain)
    while let name = queue.popLast() {
      guard seen.insert(name).inserted, let p = options.policies[name] else { continue }
      for t in p.terms {
        let c = t.from
        queue += policyNames(c.subroutines)
        protocols.formUnion(c.protocols.map { $0.lowercased() })
        tags.formUnion(c.tags.compactMap { UInt32($0) })
        ribs.formUnion(c.ribs)
        for n in c.neighbors { if let a = IPPrefix(n) { neighbors.insert(a.network) } }
        for f in c.routeFilters { add(f) }
        for name in c.prefixLists { for e in options.prefixLists[name] ?? [] { add(RouteFilter(prefix: e, match: .exact)) } }
        for plf in c.prefixListFilters {
          for e in options.prefixLists[plf.name] ?? [] { add(RouteFilter(prefix: e, match: plf.match)) }
        }
        for name in c.routeFilterLists { for f in options.routeFilterLists[name] ?? [] { add(f) } }
        for name in c.communities {
          if let d = options.communityDefinitions[name], !d.members.isEmpty, d.parsed != nil {
            communitySets.insert(Array(Set(d.members)).sorted())
          }
        }
        for name in c.asPaths {
          if let re = options.asPathRegex(name), !asPaths.contains(re) {
            asPaths.append(re)
            asNumbers.formUnion(re.numbers)
          }
        }
      }
    }
  }

  private mutating func add(_ f: RouteFilter) {
    let p = f.prefix.network
    prefixes.insert(p)
    var cuts: Set<Int> = [p.length, p.length + 1]
    switch f.match {
    case .upto(let n): cuts.insert(n + 1)
    case .prefixLengthRange(let a, let b): cuts.formUnion([a, b + 1])
    case .through(let end):
      // Every prefix on the path down to `end` is named: a route matches only on that path.
      let e = end.network
      if p.contains(e) {
        for l in p.length...e.length { prefixes.insert(IPPrefix(family: e.family, bytes: e.bytes, length: l).network) }
      }
    case .exact, .orlonger, .longer, .unknown: break
    }
    lengthCuts[p, default: []].formUnion(cuts)
  }
}

extension RouteSpace {
  /// The most community definitions combined in every way (2^12 routes tried); beyond it the
  /// classes are sampled.
  static let maxCommunityAtoms = 12

  /// The classes for the atoms of two chains.
  init(_ atoms: PolicyAtoms) {
    prefixes = Self.prefixClasses(atoms)
    origins = Self.origins(atoms.protocols)
    neighbors = [nil] + atoms.neighbors.sorted { $0.description < $1.description } + [Self.unnamedNeighbor(atoms.neighbors)]
    communityAtoms = Array(atoms.communitySets).sorted { $0.lexicographicallyPrecedes($1) }.map { CommunityDefinition(members: $0) }
    communities = Self.communityClasses(communityAtoms)
    communitiesSampled =
      communityAtoms.count > Self.maxCommunityAtoms
      || communityAtoms.contains { d in d.parsed?.contains { if case .pattern = $0.kind { true } else { false } } ?? false }
    asPathAtoms = atoms.asPaths
    (asPaths, asPathsSampled) = Self.asPathClasses(atoms)
    attributes = ([nil] + atoms.tags.sorted().map(Optional.some)).flatMap { tag in
      ([nil] + atoms.ribs.sorted().map(Optional.some)).map { Attributes(tag: tag, rib: $0) }
    }
  }

  /// Protocols every comparison tells apart (the defaults read `bgp`), and those the chains name.
  private static func origins(_ named: Set<String>) -> [Origin] {
    let names = ["bgp", "ospf", "isis", "static", "direct", "local", "aggregate"]
    // One protocol nobody names stands for all such.
    let unnamed = ["rip", "ripng", "pim", "evpn"].first { !named.contains($0) } ?? "l2vpn"
    var out: [Origin] = []
    for p in names + named.subtracting(names).sorted() + [unnamed] {
      switch p {
      case "bgp":
        for t in Route.RouteType.allCases { for a in [true, false] { out.append(Origin(protocolName: p, routeType: t, isActive: a)) } }
      case "ospf", "ospf2", "ospf3", "isis":
        for t in Route.RouteType.allCases { out.append(Origin(protocolName: p, routeType: t, isActive: true)) }
      default:
        out.append(Origin(protocolName: p, routeType: nil, isActive: true))
      }
    }
    return out
  }

  /// An IPv4 address no chain names (for routes from some other neighbor).
  private static func unnamedNeighbor(_ named: Set<IPPrefix>) -> IPPrefix {
    var last: UInt8 = 1
    while named.contains(IPPrefix(family: .inet, bytes: [192, 0, 2, last], length: 32)) { last += 1 }
    return IPPrefix(family: .inet, bytes: [192, 0, 2, last], length: 32)
  }

  /// The community classes: one route per distinct combination of the definitions it meets.
  /// Up to ``maxCommunityAtoms`` definitions, every combination is tried: a route carrying a
  /// witness of each member of the definitions that should hold (the member itself when literal);
  /// exact for literal members, sampled for patterns (one witness each). Beyond that, the routes
  /// tried are none, each definition's witnesses alone, and all of them (sampled).
  private static func communityClasses(_ atoms: [CommunityDefinition]) -> [[String]] {
    let witnesses = atoms.map { d in (d.parsed ?? []).compactMap(\.witness) }
    var candidates: [[String]] = []
    if atoms.count <= maxCommunityAtoms {
      for mask in 0..<(1 << atoms.count) {
        var carried: Set<String> = []
        for (i, w) in witnesses.enumerated() where mask & (1 << i) != 0 { carried.formUnion(w) }
        candidates.append(carried.sorted())
      }
    } else {
      candidates = [[]] + witnesses.map { Array(Set($0)).sorted() } + [Array(Set(witnesses.joined())).sorted()]
    }
    var out: [[String]] = []
    var seen: Set<[Bool]> = []
    for c in candidates where seen.insert(atoms.map { $0.carried(by: c) == true }).inserted { out.append(c) }
    return out
  }

  /// AS paths sampled from the expressions: the empty path, one of an AS nobody names, each
  /// expression's shortest match, and each named AS alone; one class per distinct verdict vector.
  private static func asPathClasses(_ atoms: PolicyAtoms) -> ([[UInt32]], Bool) {
    guard !atoms.asPaths.isEmpty else { return ([[]], false) }
    var fresh: UInt32 = 4_200_000_000
    while atoms.asNumbers.contains(fresh) { fresh += 1 }
    var candidates: [[UInt32]] = [[], [fresh]]
    candidates += atoms.asPaths.compactMap(\.shortestMatch)
    candidates += atoms.asNumbers.sorted().map { [$0] }
    candidates += atoms.asPaths.compactMap(\.shortestMatch).map { $0 + [fresh] }
    var out: [[UInt32]] = []
    var verdicts: Set<[Bool]> = []
    for path in candidates where verdicts.insert(atoms.asPaths.map { $0.matches(path) }).inserted { out.append(path) }
    return (out, true)
  }

  /// The prefix classes: for each family's root and each named prefix, the length intervals
  /// between the cuts of the filters on it and its ancestors and of the named prefixes below it.
  private static func prefixClasses(_ atoms: PolicyAtoms) -> [PrefixClass] {
    var out: [PrefixClass] = []
    for family in [IPPrefix.Family.inet, .inet6] {
      let width = family == .inet ? 32 : 128
      let root = IPPrefix(family: family, bytes: [UInt8](repeating: 0, count: width / 8), length: 0)
      let nodes = (Set(atoms.prefixes.filter { $0.family == family }).union([root])).sorted(by: addressOrder)
      // Parents by a stack walk over the nodes in address order (a parent comes before its children).
      var children: [IPPrefix: [IPPrefix]] = [:]
      var ancestors: [IPPrefix: [IPPrefix]] = [:]
      var stack: [IPPrefix] = []
      for n in nodes {
        while let top = stack.last, !top.contains(n) { stack.removeLast() }
        if let parent = stack.last { children[parent, default: []].append(n) }
        ancestors[n] = stack
        stack.append(n)
      }
      for d in nodes {
        var cuts: Set<Int> = [d.length, d.length + 1, width + 1]
        for a in (ancestors[d] ?? []) + [d] { cuts.formUnion(atoms.lengthCuts[a] ?? []) }
        let kids = children[d] ?? []
        for k in kids { cuts.insert(k.length) }
        let bounds = cuts.filter { $0 >= d.length && $0 <= width + 1 }.sorted()
        for (lo, next) in zip(bounds, bounds.dropFirst()) {
          let holes = kids.filter { $0.length <= lo }
          guard let example = PrefixOrder.firstFree(in: d, length: lo, avoiding: holes) else { continue }
          out.append(PrefixClass(node: d, lengths: lo...(next - 1), example: example, hasHoles: !holes.isEmpty))
        }
      }
    }
    return out
  }
}

public import JunosConfig

/// One way a change makes a policy chain decide differently, on a set of routes.
public struct DecisionChange: Sendable {
  /// What changed for the routes of the set.
  public enum Kind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Rejected before, accepted now.
    case nowAccepts = "now-accepts"
    /// Accepted before, rejected now.
    case nowRejects = "now-rejects"
    /// Accepted before and now, with different route-modifying actions.
    case attributesChanged = "attributes-changed"
    /// One side stops on a condition that is not modelled, so whether anything changed is not
    /// known.
    case undetermined

    public static func < (a: Kind, b: Kind) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
  }

  /// What changed.
  public var kind: Kind
  /// The prefixes of the set, in words (`any IPv4 prefix`, `10.0.0.0/8 /9–/24`).
  public var prefixes: [String]
  /// The origins of the set, in words (`bgp internal`, `static`); empty for any.
  public var origins: [String]
  /// The tags and routing tables of the set, in words (`tag 100`, `rib inet.3`); empty for any.
  public var attributes: [String] = []
  /// A route of the set.
  public var example: Route
  /// How the old chain treats the example (concrete evaluator).
  public var before: RouteEvaluation
  /// How the new chain treats it.
  public var after: RouteEvaluation
  /// Whether the concrete evaluator gave the example the decisions the symbolic run gave its
  /// set (always true unless the two disagree, which is a bug).
  public var verified: Bool
  /// How many route classes the set spans.
  public var classes: Int
  /// Whether the set holds a default route (0.0.0.0/0 or ::/0).
  public var includesDefaultRoute: Bool = false
  /// Whether the set holds every prefix of a family.
  public var includesEveryPrefix: Bool = false
  /// The protocols of the routes of the set.
  public var protocols: Set<String> = []

  /// `rejected by the default policy`, `accepted by P term T`, for one side.
  public static func decisionText(_ e: RouteEvaluation) -> String {
    switch e.decision {
    case .accept(let t): "accepted by \(t)"
    case .reject(let t): "rejected by \(t)"
    case .defaultPolicy(let a): "\(a ? "accepted" : "rejected") by the default policy"
    case .unmodelled(let t, let c): "undetermined at \(t) (\(c) not modelled)"
    case .undefinedPolicy(let p): "undetermined: policy \(p) is not defined"
    case .expression(let e, let a): "\(a ? "accepted" : "rejected") by the expression \(e)"
    case .malformedChain(let c): "undetermined: \(c) is not a well-formed policy chain"
    }
  }

  /// The set in words: `bgp internal routes of any IPv4 prefix except 203.0.113.0/24`, `the
  /// default route 0.0.0.0/0 from static`; at most `limit` prefix descriptions, then a count.
  public func routesText(limit: Int? = nil) -> String {
    let shown = limit.map { Array(prefixes.prefix($0)) } ?? prefixes
    let more = limit.map { prefixes.count > $0 ? " and \(prefixes.count - $0) more" : "" } ?? ""
    if prefixes.count == 1, prefixes[0].hasPrefix("the default route") {
      let with = attributes.isEmpty ? "" : " with \(attributes.joined(separator: " or "))"
      return (origins.isEmpty ? prefixes[0] : "\(prefixes[0]) from \(origins.joined(separator: ", "))") + with
    }
    let origin = origins.isEmpty ? "routes" : "\(origins.joined(separator: ", ")) routes"
    let with = attributes.isEmpty ? "" : " with \(attributes.joined(separator: " or "))"
    return "\(origin)\(with) of \(shown.joined(separator: ", "))\(more)"
  }

  /// `198.51.100.0/24 from bgp internal` (with the neighbor, communities and AS path when set).
  public var exampleText: String {
    var s = "\(example.prefix) from \(example.protocolName)"
    if let t = example.routeType { s += " \(t.rawValue)" }
    if !example.isActive { s += " (inactive)" }
    if let n = example.neighbor { s += " neighbor \(n.addressText)" }
    if !example.communities.isEmpty { s += " community \(example.communities.joined(separator: " "))" }
    if !example.asPath.isEmpty { s += " as-path \(example.asPath.map(String.init).joined(separator: " "))" }
    if let t = example.tag { s += " tag \(t)" }
    if let r = example.rib { s += " rib \(r)" }
    return s
  }
}

/// The routes an attachment point can see: a BGP import sees only BGP routes of one route type
/// from the group's neighbors; the other attachment points see any route.
public struct RouteScope: Sendable, Hashable {
  /// The protocol, when only one can reach the attachment point.
  public var protocolName: String?
  /// The route type, when only one can.
  public var routeType: Route.RouteType?
  /// The neighbors routes come from, when known.
  public var neighbors: [IPPrefix]
  /// Whether only active routes reach the attachment point (exports send active routes only,
  /// and an import decides before a route can be active).
  public var activeOnly: Bool

  /// Any route (the default).
  public static let any = RouteScope(protocolName: nil, routeType: nil, neighbors: [], activeOnly: false)

  /// Creates a scope.
  public init(protocolName: String? = nil, routeType: Route.RouteType? = nil, neighbors: [IPPrefix] = [], activeOnly: Bool = false) {
    self.protocolName = protocolName
    self.routeType = routeType
    self.neighbors = neighbors
    self.activeOnly = activeOnly
  }
}

/// What a change does to one policy chain: every set of routes it decides differently.
public struct PolicyDifference: Sendable {
  /// The changes, most severe kind first.
  public var changes: [DecisionChange]
  /// The route classes compared (products of the classes of each part).
  public var classesCompared: Int
  /// What the comparison only sampled or could not combine (AS paths, communities).
  public var limits: [String]
}

extension PolicyDifference {
  /// Compares an old and a new chain at one attachment point: the sets of routes on which they
  /// decide differently, each with an example route re-run through the concrete evaluator.
  public static func compare(
    old: PolicyOptions, oldChain: [String], new: PolicyOptions, newChain: [String], attachment: DefaultPolicy, scope: RouteScope = .any
  ) -> PolicyDifference {
    let run = SymbolicComparison(old: old, oldChain: oldChain, new: new, newChain: newChain, attachment: attachment, scope: scope)
    let (atoms, space, before, after) = (run.atoms, run.space, run.before, run.after)

    struct Key: Hashable {
      var kind: DecisionChange.Kind
      var before: String
      var after: String
    }
    var groups: [Key: [RouteBox]] = [:]
    var order: [Key] = []
    var same = SameDefinitions(old, new)
    var remainders: [TermRef: Bool] = [:]
    for a in before {
      for b in after {
        let box = a.box.intersection(b.box)
        guard !box.isEmpty, let kind = Self.kind(a, b) else { continue }
        // Both sides stop at the same unmodelled term in the same state: the routes meet the same
        // rest of the chain on both sides when it is written the same from that term on.
        if kind == .undetermined, case .unmodelled(let t, let c) = a.decision, case .unmodelled(t, c) = b.decision,
          a.actions == b.actions, a.changed == b.changed
        {
          if remainders[t] == nil { remainders[t] = same.sameRemainder(from: t, oldChain: oldChain, newChain: newChain) }
          if remainders[t] == true { continue }
        }
        let key = Key(kind: kind, before: "\(a.decision) \(a.actions)", after: "\(b.decision) \(b.actions)")
        if groups[key] == nil { order.append(key) }
        groups[key, default: []].append(box)
      }
    }
    var changes: [DecisionChange] = []
    for key in order {
      let boxes = groups[key]!
      let index = Self.exampleIndex(boxes, space, preferDefaultRoute: attachment == .igpExport)
      let route = Self.example(space, index, atoms)
      let was = old.evaluate(chain: oldChain, route: route, attachment: attachment)
      let now = new.evaluate(chain: newChain, route: route, attachment: attachment)
      let symbolicBefore = SymbolicComparison.outcome(before, at: index)
      let symbolicAfter = SymbolicComparison.outcome(after, at: index)
      let verified =
        symbolicBefore.map { $0.decision == was.decision && $0.actions == was.actions } == true
        && symbolicAfter.map { $0.decision == now.decision && $0.actions == now.actions } == true
      var union = boxes[0].parts
      for b in boxes.dropFirst() { for p in union.indices { union[p] = union[p] | b.parts[p] } }
      let prefixSet = union[RoutePart.prefix.rawValue]
      let everyPrefix = [IPPrefix.Family.inet, .inet6].contains { f in
        space.prefixes.indices.allSatisfy { space.prefixes[$0].node.family != f || prefixSet.contains($0) }
      }
      let defaultRoute = prefixSet.elements.contains { space.prefixes[$0].node.length == 0 && space.prefixes[$0].lengths.lowerBound == 0 }
      changes.append(
        DecisionChange(
          kind: key.kind, prefixes: Self.describePrefixes(union[RoutePart.prefix.rawValue], space),
          origins: Self.describeOrigins(union[RoutePart.origin.rawValue], space, within: run.scope.parts[RoutePart.origin.rawValue]),
          attributes: Self.describeAttributes(union[RoutePart.attributes.rawValue], space),
          example: route, before: was, after: now,
          verified: verified, classes: boxes.reduce(0) { $0 + $1.parts.reduce(1) { $0 * $1.elements.count } },
          includesDefaultRoute: defaultRoute, includesEveryPrefix: everyPrefix,
          protocols: Set(union[RoutePart.origin.rawValue].elements.map { space.origins[$0].protocolName })))
    }
    changes.sort { $0.kind < $1.kind }
    var limits: [String] = []
    if space.asPathsSampled { limits.append("AS paths are sampled from the expressions (\(space.asPaths.count) classes), not cut exactly") }
    if space.communitiesSampled {
      limits.append(
        "communities are sampled (patterns matched by one community each, or more than \(RouteSpace.maxCommunityAtoms) community definitions), not cut exactly"
      )
    }
    let total = run.scope.parts.reduce(1) { $0 * $1.elements.count }
    return PolicyDifference(changes: changes, classesCompared: total, limits: limits)
  }

  private static func kind(_ a: SymbolicOutcome, _ b: SymbolicOutcome) -> DecisionChange.Kind? {
    // Stopping at the same unmodelled term on both sides says nothing about what the routes that
    // term would not match meet after it, where the chains may differ.
    guard let x = a.decision.accepts, let y = b.decision.accepts else { return .undetermined }
    if x == y { return x && a.actions != b.actions ? .attributesChanged : nil }
    return y ? .nowAccepts : .nowRejects
  }

  /// The class indices of the example: the default route when asked to prefer it (what an IGP
  /// export must never take by accident) and it is in the set; else, in the first box, the prefix
  /// class outside every named prefix when there is one (the "any other route" case); else the
  /// first of each part.
  private static func exampleIndex(_ boxes: [RouteBox], _ space: RouteSpace, preferDefaultRoute: Bool) -> [Int] {
    if preferDefaultRoute {
      for box in boxes {
        let defaultRoute = box.parts[RoutePart.prefix.rawValue].elements.first {
          space.prefixes[$0].node.length == 0 && space.prefixes[$0].lengths.lowerBound == 0
        }
        if let p = defaultRoute, var index = box.firstIndex {
          index[RoutePart.prefix.rawValue] = p
          return index
        }
      }
    }
    for box in boxes {
      if let p = box.parts[RoutePart.prefix.rawValue].elements.first(where: {
        space.prefixes[$0].node.length == 0 && space.prefixes[$0].lengths.contains(space.prefixes[$0].node.width == 32 ? 24 : 48)
      }),
        var index = box.firstIndex
      {
        index[RoutePart.prefix.rawValue] = p
        return index
      }
    }
    return boxes[0].firstIndex!
  }

  /// The representative route, with a documentation prefix in place of the class's first one
  /// when it is in the class (a route of the class either way).
  private static func example(_ space: RouteSpace, _ index: [Int], _ atoms: PolicyAtoms) -> Route {
    var route = space.route(index)
    let c = space.prefixes[index[RoutePart.prefix.rawValue]]
    if c.node.length == 0 && c.lengths.lowerBound == 0 { return route }
    let candidates = c.node.family == .inet ? ["198.51.100.0/24", "203.0.113.0/24"] : ["2001:db8:100::/48", "2001:db8::/32"]
    for text in candidates {
      guard let p = IPPrefix(text), c.node.contains(p) else { continue }
      let length = c.lengths.contains(p.length) ? p.length : c.lengths.lowerBound
      guard length >= c.node.length else { continue }
      let q = IPPrefix(family: p.family, bytes: p.bytes, length: length).network
      guard c.node.contains(q) else { continue }
      let inHole = atoms.prefixes.contains { $0 != c.node && c.node.contains($0) && $0.length <= q.length && $0.contains(q) }
      if !inHole {
        route.prefix = q
        break
      }
    }
    return route
  }

  /// Prefix classes in words, adjacent length intervals of one node merged; a whole family as
  /// `any IPv4 prefix`.
  static func describePrefixes(_ set: BitSet, _ space: RouteSpace) -> [String] {
    var out: [String] = []
    let families = [IPPrefix.Family.inet, .inet6].map { f in space.prefixes.indices.filter { space.prefixes[$0].node.family == f } }
    if families.allSatisfy({ $0.allSatisfy(set.contains) }) { return ["any prefix"] }
    for (family, all) in zip([IPPrefix.Family.inet, .inet6], families) {
      let any = family == .inet ? "any IPv4 prefix" : "any IPv6 prefix"
      let mine = all.filter { set.contains($0) }
      if mine.isEmpty { continue }
      if mine.count == all.count {
        out.append(any)
        continue
      }
      let missing = all.filter { !set.contains($0) }
      // Most of the family: say what is left out.
      if missing.count < mine.count && !missing.contains(where: { space.prefixes[$0].node.length == 0 }) {
        out.append("\(any) except \(describe(missing, space).joined(separator: ", "))")
      } else {
        out += describe(mine, space)
      }
    }
    return out
  }

  /// Prefix classes of one family in words, adjacent length intervals of one node merged.
  private static func describe(_ classes: [Int], _ space: RouteSpace) -> [String] {
    var merged: [RouteSpace.PrefixClass] = []
    for k in classes {
      let c = space.prefixes[k]
      if var last = merged.last, last.node == c.node, last.lengths.upperBound + 1 == c.lengths.lowerBound {
        last.lengths = last.lengths.lowerBound...c.lengths.upperBound
        last.hasHoles = last.hasHoles || c.hasHoles
        merged[merged.count - 1] = last
      } else {
        merged.append(c)
      }
    }
    return merged.map { c in
      let width = c.node.width
      let (lo, hi, own) = (c.lengths.lowerBound, c.lengths.upperBound, c.node.length)
      let holes = c.hasHoles ? (own == 0 ? " outside the named prefixes" : " outside the prefixes named inside it") : ""
      if own == 0 {
        if hi == 0 { return "the default route \(c.node)" }
        let any = c.node.family == .inet ? "any IPv4 prefix" : "any IPv6 prefix"
        let lengths = lo == 0 && hi == width ? "" : lo == hi ? " of length /\(lo)" : " of length /\(lo)–/\(hi)"
        return any + lengths + holes
      }
      let lengths: String
      switch (lo, hi) {
      case (own, own): lengths = ""
      case (own, width): lengths = " orlonger"
      case (own + 1, width): lengths = " longer"
      case _ where lo == hi: lengths = " /\(lo)"
      default: lengths = " /\(lo)–/\(hi)"
      }
      return "\(c.node)\(lengths)\(holes)"
    }
  }

  /// Tags and tables in words: empty when every class is in the set; `tag 100` (or `no tag`)
  /// when the set holds every table for the tags it holds, `rib inet.3` (or `another table`) when
  /// it holds every tag for its tables, else each class (`tag 100 in rib inet.3`).
  static func describeAttributes(_ set: BitSet, _ space: RouteSpace) -> [String] {
    let all = space.attributes
    let mine = set.elements.map { all[$0] }
    if mine.count == all.count { return [] }
    let (tags, ribs) = (Set(all.map(\.tag)), Set(all.map(\.rib)))
    let (myTags, myRibs) = (Set(mine.map(\.tag)), Set(mine.map(\.rib)))
    func tagText(_ t: UInt32?) -> String { t.map { "tag \($0)" } ?? "no tag" }
    func ribText(_ r: String?) -> String { r.map { "rib \($0)" } ?? "another table" }
    let tagOrder = all.map(\.tag).reduce(into: [UInt32?]()) { if !$0.contains($1) { $0.append($1) } }
    let ribOrder = all.map(\.rib).reduce(into: [String?]()) { if !$0.contains($1) { $0.append($1) } }
    if mine.count == myTags.count * ribs.count { return tagOrder.filter(myTags.contains).map(tagText) }
    if mine.count == myRibs.count * tags.count { return ribOrder.filter(myRibs.contains).map(ribText) }
    return mine.map { "\(tagText($0.tag)) in \(ribText($0.rib))" }
  }

  /// Origins in words: a protocol alone when all its route types and states are in the set;
  /// empty when every origin the attachment point can see (`within`) is.
  static func describeOrigins(_ set: BitSet, _ space: RouteSpace, within scope: BitSet) -> [String] {
    let all = space.origins.indices
    if all.allSatisfy({ set.contains($0) || !scope.contains($0) }) { return [] }
    var out: [String] = []
    var protocols: [String] = []
    for o in space.origins where !protocols.contains(o.protocolName) { protocols.append(o.protocolName) }
    for p in protocols {
      let mine = all.filter { space.origins[$0].protocolName == p && scope.contains($0) }
      let kept = mine.filter { set.contains($0) }
      if kept.isEmpty { continue }
      if kept.count == mine.count {
        out.append(p)
        continue
      }
      var words: [String] = []
      for k in kept {
        let o = space.origins[k]
        var w = p
        if let t = o.routeType {
          let allStates = mine.filter { space.origins[$0].routeType == t }.allSatisfy { set.contains($0) }
          w += " \(t.rawValue)"
          if !allStates { w += o.isActive ? " active" : " inactive" }
        } else if !o.isActive {
          w += " inactive"
        }
        if !words.contains(w) { words.append(w) }
      }
      out += words
    }
    return out
  }
}

/// Both chains run over the classes their atoms cut.
struct SymbolicComparison {
  var atoms = PolicyAtoms()
  let space: RouteSpace
  /// The routes the attachment point can see.
  let scope: RouteBox
  let before: [SymbolicOutcome]
  let after: [SymbolicOutcome]

  init(old: PolicyOptions, oldChain: [String], new: PolicyOptions, newChain: [String], attachment: DefaultPolicy, scope: RouteScope = .any)
  {
    atoms.collect(old, chain: oldChain)
    atoms.collect(new, chain: newChain)
    atoms.neighbors.formUnion(scope.neighbors.map(\.network))
    if let p = scope.protocolName { atoms.protocols.insert(p) }
    let space = RouteSpace(atoms)
    self.space = space
    var box = RouteBox(space)
    box = box.restricted(
      .origin,
      to: BitSet(count: space.origins.count) { k in
        let o = space.origins[k]
        return (scope.protocolName.map { $0 == o.protocolName } ?? true) && (scope.routeType.map { $0 == o.routeType } ?? true)
          && (o.isActive || !scope.activeOnly)
      })
    if !scope.neighbors.isEmpty {
      let wanted = Set(scope.neighbors.map(\.network))
      box = box.restricted(.neighbor, to: BitSet(count: space.neighbors.count) { space.neighbors[$0].map(wanted.contains) ?? false })
    }
    self.scope = box
    before = SymbolicChain(options: old, space: space, attachment: attachment).run(chain: oldChain, over: box)
    after = SymbolicChain(options: new, space: space, attachment: attachment).run(chain: newChain, over: box)
  }

  /// The outcome whose box holds the route of these class indices.
  static func outcome(_ outcomes: [SymbolicOutcome], at index: [Int]) -> SymbolicOutcome? {
    outcomes.first { o in o.box.parts.indices.allSatisfy { o.box.parts[$0].contains(index[$0]) } }
  }
}

extension RouteEvaluation.Decision {
  /// Whether the decision accepts; `nil` when it is not known.
  var accepts: Bool? {
    switch self {
    case .accept: true
    case .reject: false
    case .defaultPolicy(let a), .expression(_, let a): a
    case .unmodelled, .undefinedPolicy, .malformedChain: nil
    }
  }
}

public import JunosConfig

/// One concrete route, as a policy sees it.
public struct Route: Sendable, Hashable {
  /// The route's prefix (its family is the prefix's).
  public var prefix: IPPrefix
  /// The protocol that produced it (`bgp`, `static`, `direct`, `ospf`, …).
  public var protocolName: String
  /// The neighbor it was learned from, if any (an address, full length).
  public var neighbor: IPPrefix?
  /// Whether the route is the active route for its prefix (the BGP export default needs it).
  public var isActive: Bool
  /// The communities it carries, as Junos writes them (`65000:100`, `no-export`).
  public var communities: [String]
  /// Its AS path, nearest AS first.
  public var asPath: [UInt32]
  /// `internal` or `external` (`from route-type`); `nil` for protocols without one.
  public var routeType: RouteType?
  /// Its tag (`from tag`); `nil` when it has none.
  public var tag: UInt32?
  /// The routing table it is in (`from rib`), when it matters; `nil` for a table no condition
  /// names.
  public var rib: String?

  /// The route types `from route-type` tells apart.
  public enum RouteType: String, Sendable, Hashable, CaseIterable {
    /// Learned inside the AS: iBGP, OSPF intra- and inter-area, IS-IS internal.
    case `internal`
    /// Learned from outside it: eBGP, OSPF and IS-IS externals.
    case external
  }

  /// Creates a route.
  public init(
    prefix: IPPrefix, protocolName: String, neighbor: IPPrefix? = nil, isActive: Bool = true, communities: [String] = [],
    asPath: [UInt32] = [], routeType: RouteType? = nil, tag: UInt32? = nil, rib: String? = nil
  ) {
    self.prefix = prefix
    self.protocolName = protocolName
    self.neighbor = neighbor
    self.isActive = isActive
    self.communities = communities
    self.asPath = asPath
    self.routeType = routeType
    self.tag = tag
    self.rib = rib
  }
}

/// The default policy of an attachment point: what happens to a route no term decides.
///
/// Sources in `Docs/PolicySemantics.md`.
public enum DefaultPolicy: Sendable, Hashable, CaseIterable {
  /// BGP `import`: accept.
  case bgpImport
  /// BGP `export`: accept active BGP routes, reject the others.
  case bgpExport
  /// OSPF or IS-IS `export`: reject.
  case igpExport
  /// `routing-options forwarding-table export`: accept.
  case forwardingTableExport
  /// `vrf-import` / `vrf-export`: reject.
  case vrf

  /// Whether the default accepts `route`.
  public func accepts(_ route: Route) -> Bool {
    switch self {
    case .bgpImport, .forwardingTableExport: true
    case .bgpExport: route.isActive && route.protocolName.lowercased() == "bgp"
    case .igpExport, .vrf: false
    }
  }
}

/// What a policy chain did with one route.
public struct RouteEvaluation: Sendable, Equatable {
  /// The decision.
  public enum Decision: Sendable, Equatable {
    /// Accepted by this term.
    case accept(TermRef)
    /// Rejected by this term.
    case reject(TermRef)
    /// No term decided; the attachment point's default accepted (`true`) or rejected it.
    case defaultPolicy(accepts: Bool)
    /// This term has a condition the concrete evaluator does not model (named by its keyword);
    /// the evaluation stopped there.
    case unmodelled(TermRef, condition: String)
    /// The chain names a policy that does not exist.
    case undefinedPolicy(String)
    /// A policy expression (as Junos prints it) decided, by a value without a term's action
    /// behind it: a `!` turned the last policy's action around, or the value came from the
    /// default policy.
    case expression(String, accepts: Bool)
    /// The chain's words are not a well-formed chain (unbalanced parentheses, a stray operator).
    case malformedChain(String)
  }

  /// One term the route reached.
  public struct Visit: Sendable, Equatable {
    /// The term.
    public var term: TermRef
    /// Whether its conditions matched.
    public var matched: Bool
    /// Why: the condition that failed, or what matched (`route-filter 10.0.0.0/8 orlonger`).
    public var reason: String
  }

  /// The decision.
  public var decision: Decision
  /// The route-modifying actions of the matching terms, in the order they apply, as written
  /// (`local-preference 200`, `community add C`).
  public var actions: [String]
  /// The terms visited, in order.
  public var trace: [Visit]
  /// The route attributes an earlier matching term changed (communities, AS path), with that
  /// term: a later condition on them is not modelled (the actions are listed, not applied).
  var changed: [TermCheck: TermRef] = [:]

  /// Whether the route is accepted; `nil` when the evaluation stopped on something unmodelled.
  public var accepted: Bool? {
    switch decision {
    case .accept: true
    case .reject: false
    case .defaultPolicy(let a), .expression(_, let a): a
    case .unmodelled, .undefinedPolicy, .malformedChain: nil
    }
  }
}

extension PolicyOptions {
  /// Evaluates one route against a policy chain as Junos does; the oracle the set evaluator
  /// (``evaluate(chain:_:)``) is checked against.
  ///
  /// Conditions of different kinds are ANDed, values of one kind ORed; route filters (and each
  /// list) are matched longest prefix first, then by match type, without falling back to a
  /// shorter filter; `next term` or no action goes on, `next policy` skips to the next policy,
  /// `accept`/`reject` end the evaluation; when no term decides, `attachment` does. The full
  /// rules are in `Docs/PolicySemantics.md`.
  public func evaluate(chain: [String], route: Route, attachment: DefaultPolicy) -> RouteEvaluation {
    var result = RouteEvaluation(decision: .defaultPolicy(accepts: attachment.accepts(route)), actions: [], trace: [])
    guard let elements = parsePolicyChain(chain) else {
      result.decision = .malformedChain(chain.joined(separator: " "))
      return result
    }
    for element in elements {
      for name in element.policies where policies[name] == nil {
        result.decision = .undefinedPolicy(name)
        return result
      }
    }
    for element in elements {
      switch element {
      case .policy(let name):
        if case .decided(let d) = run(policies[name]!, route, attachment, depth: 0, &result) {
          result.decision = d
          return result
        }
      case .expression(let e):
        switch expression(e, route, attachment, depth: 0, &result) {
        case .stop(let d):
          result.decision = d
          return result
        case .value(let v):
          if let d = v.decision(of: e) {
            result.decision = d
            return result
          }
        }
      }
    }
    return result
  }

  /// Runs `route` through one policy, appending to the trace and actions of `result`.
  private func run(
    _ policy: PolicyStatement, _ route: Route, _ attachment: DefaultPolicy, depth: Int, _ result: inout RouteEvaluation
  ) -> PolicyResult {
    for term in policy.terms {
      let ref = TermRef(policy: policy.name, term: term.name)
      switch concreteMatch(term, route, attachment, depth: depth, &result) {
      case .unmodelled(let keyword):
        result.trace.append(.init(term: ref, matched: false, reason: "\(keyword) not modelled"))
        return .decided(.unmodelled(ref, condition: keyword))
      case .failed(let check):
        result.trace.append(.init(term: ref, matched: false, reason: failureReason(check, term, route)))
      case .matched(let why, let filterAction):
        result.trace.append(.init(term: ref, matched: true, reason: why.description))
        result.actions += term.then.modifications
        for check in term.then.changedChecks where result.changed[check] == nil { result.changed[check] = ref }
        switch filterAction ?? term.then.terminal {
        case .accept: return .decided(.accept(ref))
        case .reject: return .decided(.reject(ref))
        case .nextPolicy: return .nextPolicy
        case .nextTerm, nil: continue
        }
      }
    }
    return .fellThrough
  }

  /// The value and flow action of a policy expression for `route` (short-circuit, left to right),
  /// or the decision that stops the evaluation (something unmodelled).
  private func expression(
    _ e: PolicyExpression, _ route: Route, _ attachment: DefaultPolicy, depth: Int, _ result: inout RouteEvaluation
  ) -> ExpressionResult {
    switch e {
    case .policy(let name):
      guard let p = policies[name] else { return .stop(.undefinedPolicy(name)) }
      guard depth < 16 else { return .stop(.unmodelled(TermRef(policy: name, term: ""), condition: "policy nesting deeper than 16")) }
      return run(p, route, attachment, depth: depth + 1, &result).value(defaultAccepts: attachment.accepts(route))
    case .not(let x):
      return expression(x, route, attachment, depth: depth, &result).negated
    case .and(let a, let b), .or(let a, let b):
      let left = expression(a, route, attachment, depth: depth, &result)
      guard case .value(let v) = left else { return left }
      let isAnd = if case .and = e { true } else { false }
      return v.value == isAnd ? expression(b, route, attachment, depth: depth, &result) : left
    }
  }
}

/// What one policy did with a route (or a set of routes): decided it, sent it on with `next
/// policy`, or let it fall through every term.
enum PolicyResult {
  case decided(RouteEvaluation.Decision)
  case nextPolicy
  case fellThrough

  /// The policy's value in an expression or as a subroutine: accept and `next policy` are true,
  /// reject false, falling through takes the attachment point's default.
  func value(defaultAccepts: Bool) -> ExpressionResult {
    switch self {
    case .decided(.accept(let t)): .value(ExpressionValue(value: true, flow: .accept, term: t))
    case .decided(.reject(let t)): .value(ExpressionValue(value: false, flow: .reject, term: t))
    case .decided(let d): .stop(d)
    case .nextPolicy: .value(ExpressionValue(value: true, flow: .nextPolicy, term: nil))
    case .fellThrough: .value(ExpressionValue(value: defaultAccepts, flow: nil, term: nil))
    }
  }
}

/// The result of a policy expression: its value with a flow action, or a decision that ends
/// the evaluation (an unmodelled condition, an undefined policy).
enum ExpressionResult {
  case value(ExpressionValue)
  case stop(RouteEvaluation.Decision)

  /// `! E`: the value inverted; accept and `next policy` become reject, reject becomes accept.
  var negated: ExpressionResult {
    guard case .value(var v) = self else { return self }
    v.value.toggle()
    v.negated.toggle()
    switch v.flow {
    case .accept?, .nextPolicy?: v.flow = .reject
    case .reject?: v.flow = .accept
    case .nextTerm?, nil: break
    }
    return .value(v)
  }
}

/// A policy expression's value and the flow action of the last policy evaluated.
struct ExpressionValue: Hashable {
  /// True or false.
  var value: Bool
  /// `accept`, `reject`, `next policy`, or `nil` when the last policy evaluated decided nothing
  /// (its value is the default policy's).
  var flow: PolicyActions.Terminal?
  /// The term that gave the last policy's action.
  var term: TermRef?
  /// Whether an odd number of `!` turned the action around.
  var negated = false

  /// What the chain does after the expression: accept or reject (by the term that decided, or by
  /// the expression when a `!` turned the action around), or `nil` to go on to the next element
  /// (`next policy`, or a true value without an action).
  func decision(of e: PolicyExpression) -> RouteEvaluation.Decision? {
    switch flow {
    case .accept?:
      if let term, !negated { return .accept(term) }
      return .expression(e.description, accepts: true)
    case .reject?:
      if let term, !negated { return .reject(term) }
      return .expression(e.description, accepts: false)
    case .nextPolicy?, .nextTerm?: return nil
    case nil: return value ? nil : .expression(e.description, accepts: false)
    }
  }
}

/// A condition the concrete evaluator does not model, by its keyword (and name).
private struct Unmodelled: Error {
  var condition: String
  init(_ condition: String) { self.condition = condition }
}

/// Values of one kind, ORed: `nil` when `test` holds for one of `names` (or there are none),
/// else why the term stops (no match, or the first unmodelled value).
private func anyOf(_ names: [String], kind: TermCheck, _ test: (String) throws(Unmodelled) -> Bool) -> ConcreteMatch? {
  guard !names.isEmpty else { return nil }
  do {
    for name in names where try test(name) { return nil }
  } catch {
    return .unmodelled(error.condition)
  }
  return .failed(kind)
}

/// What met a term's conditions, worded (`description`) only when a trace is printed.
enum MatchReason: CustomStringConvertible {
  /// One kind of condition met (no text of its own).
  case kind
  /// All of a term's conditions met (`conditions met`, or `no conditions`).
  case term(hasConditions: Bool)
  case routeFilter(RouteFilter)
  case prefixList(String)
  case prefixListFilter(PrefixListFilter)
  case routeFilterList(String, RouteFilter)

  var description: String {
    switch self {
    case .kind: ""
    case .term(let has): has ? "conditions met" : "no conditions"
    case .routeFilter(let f): "route-filter \(f.prefix) \(f.match)"
    case .prefixList(let name): "prefix-list \(name)"
    case .prefixListFilter(let f): "prefix-list-filter \(f.name) \(f.modifier)"
    case .routeFilterList(let name, let f): "route-filter-list \(name) \(f.prefix) \(f.match)"
    }
  }
}

/// How one term's conditions (or one kind of them) met one route. The reasons are data, worded
/// only into a trace: the symbolic run asks this of every route class and never prints them.
enum ConcreteMatch {
  /// Met; with the action of the route filter that matched, when it has its own.
  case matched(MatchReason, PolicyActions.Terminal?)
  /// Not met: the kind of condition that failed (`PolicyOptions.failureReason` words it).
  case failed(TermCheck)
  /// A condition that is not modelled, by its keyword.
  case unmodelled(String)
}

/// The part of a route one kind of condition reads. The symbolic comparison
/// (`PolicySymbolic.swift`) evaluates each check on the classes of its part alone.
enum RoutePart: Int, CaseIterable {
  /// The prefix (and so the family).
  case prefix
  /// The protocol, route type and whether the route is active.
  case origin
  /// The neighbor it was learned from.
  case neighbor
  /// Its communities.
  case communities
  /// Its AS path.
  case asPath
  /// Its tag and routing table.
  case attributes
}

/// One kind of condition of a term, in the order the evaluator tries them: the first kind that
/// is not met ends the term.
enum TermCheck: CaseIterable, Hashable {
  /// Conditions the evaluator does not model at all (`to`, `condition`, `instance`, `tag`, …).
  case unsupported
  case protocols, routeType, tag, rib, neighbor, family, community, asPath
  /// `from policy` subroutines (they read the whole route).
  case subroutine
  /// The prefix alternatives (route filters, lists); the last check.
  case prefix

  /// The part of the route the check reads; `nil` for the whole route or none of it.
  var part: RoutePart? {
    switch self {
    case .unsupported, .subroutine: nil
    case .protocols, .routeType: .origin
    case .neighbor: .neighbor
    case .family, .prefix: .prefix
    case .community: .communities
    case .asPath: .asPath
    case .tag, .rib: .attributes
    }
  }

  /// The unmodelled keyword of a condition on an attribute that an earlier term changed.
  func changedKeyword(by term: TermRef) -> String {
    "\(self == .community ? "community" : "as-path") changed by \(term)"
  }

  /// Whether `c` has conditions of this kind.
  func applies(to term: PolicyTerm) -> Bool {
    let c = term.from
    switch self {
    case .unsupported: return !term.to.isEmpty || !c.conditions.isEmpty || !c.instances.isEmpty || !c.other.isEmpty
    case .protocols: return !c.protocols.isEmpty
    case .routeType: return !c.routeTypes.isEmpty
    case .tag: return !c.tags.isEmpty
    case .rib: return !c.ribs.isEmpty
    case .neighbor: return !c.neighbors.isEmpty
    case .family: return !c.families.isEmpty
    case .community: return !c.communities.isEmpty
    case .asPath: return !c.asPaths.isEmpty
    case .subroutine: return !c.subroutines.isEmpty
    case .prefix: return c.hasPrefixConditions
    }
  }
}

extension PolicyOptions {
  private func concreteMatch(
    _ term: PolicyTerm, _ route: Route, _ attachment: DefaultPolicy, depth: Int, _ result: inout RouteEvaluation
  ) -> ConcreteMatch {
    for check in TermCheck.allCases where check.applies(to: term) {
      let outcome: ConcreteMatch
      if check == .subroutine {
        // `from policy [ A ( B && ! C ) ]`: each element in turn (ORed); its value is what the
        // policy or expression returns (accept and `next policy` true, reject false, no
        // decision the attachment's default); the actions of the policies run apply either way.
        guard let elements = parsePolicyChain(term.from.subroutines) else { return .unmodelled("policy expression") }
        outcome = subroutineMatch(elements, route, attachment, depth: depth, &result)
      } else if let by = result.changed[check] {
        outcome = .unmodelled(check.changedKeyword(by: by))
      } else {
        outcome = evaluate(check, of: term, on: route)
      }
      switch outcome {
      case .failed, .unmodelled: return outcome
      case .matched(let why, let action) where check == .prefix: return .matched(why, action)
      case .matched: continue
      }
    }
    return .matched(.term(hasConditions: !term.from.isEmpty), nil)
  }

  /// The subroutine elements of a `from policy` condition against `route`, ORed.
  private func subroutineMatch(
    _ elements: [ChainElement], _ route: Route, _ attachment: DefaultPolicy, depth: Int, _ result: inout RouteEvaluation
  ) -> ConcreteMatch {
    for element in elements {
      for name in element.policies where policies[name] == nil || depth >= 16 { return .unmodelled("policy \(name)") }
      let r: ExpressionResult
      switch element {
      case .policy(let name):
        r = run(policies[name]!, route, attachment, depth: depth + 1, &result).value(defaultAccepts: attachment.accepts(route))
      case .expression(let e): r = expression(e, route, attachment, depth: depth, &result)
      }
      switch r {
      case .stop(.unmodelled(_, let k)): return .unmodelled(k)
      case .stop: return .unmodelled("policy \(element.policies.joined(separator: " "))")
      case .value(let v): if v.value { return .matched(.kind, nil) }
      }
    }
    return .failed(.subroutine)
  }

  /// Why `check` of `term` failed for `route`, as the trace says it.
  func failureReason(_ check: TermCheck, _ term: PolicyTerm, _ route: Route) -> String {
    let c = term.from
    func list(_ values: [String]) -> String { values.joined(separator: " ") }
    switch check {
    case .protocols: return "protocol \(route.protocolName) not in \(list(c.protocols))"
    case .routeType: return "route-type \(route.routeType?.rawValue ?? "none") not in \(list(c.routeTypes))"
    case .tag: return "tag \(route.tag.map(String.init) ?? "none") not in \(list(c.tags))"
    case .rib: return "rib \(route.rib ?? "(another table)") not in \(list(c.ribs))"
    case .neighbor: return "neighbor not in \(list(c.neighbors))"
    case .family: return "family \(route.prefix.family.rawValue) not in \(list(c.families))"
    case .community: return "community \(list(c.communities)) not matched"
    case .asPath: return "as-path \(list(c.asPaths)) not matched"
    case .subroutine:
      let elements = parsePolicyChain(c.subroutines)?.map(\.description) ?? c.subroutines
      return "policy \(list(elements)) not matched"
    case .prefix: return "no prefix condition matches \(route.prefix.network)"
    case .unsupported: return "conditions not modelled"  // (never failed: unsupported stops as unmodelled)
    }
  }

  /// One kind of condition of `term` (not `.subroutine`) against `route`; it reads only the
  /// check's part of the route.
  func evaluate(_ check: TermCheck, of term: PolicyTerm, on route: Route) -> ConcreteMatch {
    let c = term.from
    switch check {
    case .unsupported:
      if !term.to.isEmpty { return .unmodelled("to") }
      if !c.conditions.isEmpty { return .unmodelled("condition") }
      if !c.instances.isEmpty { return .unmodelled("instance") }
      return .unmodelled(c.other.first ?? "")
    case .protocols:
      if c.protocols.contains(where: { protocolMatches($0, route.protocolName) }) { return .matched(.kind, nil) }
      return .failed(.protocols)
    case .routeType:
      if let t = route.routeType, c.routeTypes.contains(t.rawValue) { return .matched(.kind, nil) }
      return .failed(.routeType)
    case .tag:
      // Whether an untagged route meets `tag 0` is not documented: `tag 0` is not modelled.
      var wanted: [UInt32] = []
      for t in c.tags {
        guard let v = UInt32(t), v != 0 else { return .unmodelled("tag \(t)") }
        wanted.append(v)
      }
      if let t = route.tag, wanted.contains(t) { return .matched(.kind, nil) }
      return .failed(.tag)
    case .rib:
      if let r = route.rib, c.ribs.contains(r) { return .matched(.kind, nil) }
      return .failed(.rib)
    case .neighbor:
      let hit = route.neighbor.map { n in
        c.neighbors.contains { IPPrefix($0).map { $0.family == n.family && $0.bytes == n.bytes } ?? false }
      }
      return hit == true ? .matched(.kind, nil) : .failed(.neighbor)
    case .family:
      if c.families.contains(route.prefix.family.rawValue) { return .matched(.kind, nil) }
      return .failed(.family)
    case .community:
      // Named communities are ORed; the members of one are ANDed; `invert-match` negates.
      return anyOf(
        c.communities, kind: .community,
        { (name) throws(Unmodelled) -> Bool in
          guard let d = communityDefinitions[name], !d.members.isEmpty else { throw Unmodelled("community \(name)") }
          guard let carried = d.carried(by: route.communities) else { throw Unmodelled("community \(name) regular expression") }
          return carried != d.invertMatch
        }) ?? .matched(.kind, nil)
    case .asPath:
      // Named AS-path expressions are ORed, each matched against the whole path.
      return anyOf(
        c.asPaths, kind: .asPath,
        { (name) throws(Unmodelled) -> Bool in
          guard let re = asPathRegex(name) else { throw Unmodelled("as-path \(name)") }
          return re.matches(route.asPath)
        }) ?? .matched(.kind, nil)
    case .subroutine:
      return .unmodelled("policy")
    case .prefix:
      return prefixMatch(c, route.prefix.network, term: term.then.terminal)
    }
  }

  /// The AS-path expression `name` stands for, when it is defined and of the dialect.
  func asPathRegex(_ name: String) -> ASPathRegex? { asPathExpressions[name].flatMap { ASPathRegex($0) } }

  /// The prefix alternatives of `c` against the normalised prefix `p`, in the order Junos lists
  /// them: the term's route filters, then each list.
  private func prefixMatch(_ c: MatchConditions, _ p: IPPrefix, term: PolicyActions.Terminal?) -> ConcreteMatch {
    if !c.routeFilters.isEmpty {
      switch longestMatch(c.routeFilters, p) {
      case .some(.some(let f)): return .matched(.routeFilter(f), f.action ?? term)
      case .some(.none): break
      case .none: return .unmodelled("route-filter")
      }
    }
    for name in c.prefixLists {
      guard let entries = prefixLists[name], !openPrefixLists.contains(name) else { return .unmodelled("prefix-list \(name)") }
      if entries.contains(where: { $0.length == p.length && $0.contains(p) }) { return .matched(.prefixList(name), term) }
    }
    for plf in c.prefixListFilters {
      guard let entries = prefixLists[plf.name], !openPrefixLists.contains(plf.name) else {
        return .unmodelled("prefix-list-filter \(plf.name)")
      }
      if case .unknown = plf.match { return .unmodelled("prefix-list-filter \(plf.modifier)") }
      switch longestMatch(entries.map { RouteFilter(prefix: $0, match: plf.match) }, p) {
      case .some(.some): return .matched(.prefixListFilter(plf), term)
      case .some(.none): break
      case .none: return .unmodelled("prefix-list-filter \(plf.name)")
      }
    }
    for name in c.routeFilterLists {
      guard let list = routeFilterLists[name], !openPrefixLists.contains(name) else { return .unmodelled("route-filter-list \(name)") }
      switch longestMatch(list, p) {
      case .some(.some(let f)): return .matched(.routeFilterList(name, f), f.action ?? term)
      case .some(.none): break
      case .none: return .unmodelled("route-filter-list \(name)")
      }
    }
    return .failed(.prefix)
  }
}

/// The filter of a longest-match group that matches `p` (`p` normalised): among the filters
/// whose prefix is the longest containing `p`, the first whose match type accepts `p`; no
/// fallback to shorter filters. `.some(nil)` when none matches, `nil` for an unknown match type.
private func longestMatch(_ filters: [RouteFilter], _ p: IPPrefix) -> RouteFilter?? {
  var bestLength = -1
  for f in filters where f.prefix.family == p.family && f.prefix.contains(p) {
    bestLength = max(bestLength, f.prefix.length)
  }
  for f in filters where f.prefix.family == p.family && f.prefix.length == bestLength && f.prefix.contains(p) {
    let hit: Bool
    switch f.match {
    case .exact: hit = p.length == bestLength
    case .orlonger: hit = true
    case .longer: hit = p.length > bestLength
    case .upto(let n): hit = p.length <= n
    case .prefixLengthRange(let a, let b): hit = p.length >= a && p.length <= b
    case .through(let end): hit = p.contains(end)
    case .unknown: return nil
    }
    if hit { return .some(f) }
  }
  return .some(nil)
}

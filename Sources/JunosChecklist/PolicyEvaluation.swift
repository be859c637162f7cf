public import JunosConfig

/// A route (or a set of routes) asked about.
public struct RouteQuery: Sendable {
  /// The protocol that produced the route (`aggregate`, `direct`, `local`, `static`, `bgp`,
  /// `isis`, `ospf`, …); `nil` = any.
  public var protocolName: String?
  /// The route's prefix; `nil` = any prefix of either family.
  public var prefix: IPPrefix?
  /// Whether the query stands for `prefix` and every more specific prefix.
  public var orLonger: Bool
  /// The neighbor the route was learned from (for `from neighbor`); `nil` = any.
  public var neighbor: IPPrefix?

  /// Creates a query; the defaults ask about every route.
  public init(protocolName: String? = nil, prefix: IPPrefix? = nil, orLonger: Bool = false, neighbor: IPPrefix? = nil) {
    self.protocolName = protocolName
    self.prefix = prefix
    self.orLonger = orLonger
    self.neighbor = neighbor
  }
}

/// How much of a query a term's conditions match.
public enum TermMatch: Sendable {
  /// Every route of the query matches.
  case all
  /// Some routes may match (or whether they match depends on something the query does not say).
  case some
  /// No route of the query matches.
  case none
}

/// Names one term of one policy (`term` is `""` for a policy's unnamed term).
public struct TermRef: Sendable, Hashable, CustomStringConvertible {
  /// The policy's name.
  public var policy: String
  /// The term's name.
  public var term: String

  /// Creates a reference.
  public init(policy: String, term: String) {
    self.policy = policy
    self.term = term
  }

  /// `POLICY term TERM`, or just `POLICY` for an unnamed term.
  public var description: String { term.isEmpty ? policy : "\(policy) term \(term)" }
}

/// What a policy chain does with a query.
public enum ChainOutcome: Sendable, Equatable {
  /// Every route of the query is accepted, by this term.
  case accepted(TermRef)
  /// Some route of the query may be accepted, by this term (the first that may accept).
  case mayBeAccepted(TermRef)
  /// Every route is rejected before any accept could happen; this term completes the rejection.
  case rejected(TermRef)
  /// No term decides (for at least part of the query): the protocol's default policy applies.
  case noDecision
  /// The chain names a policy that does not exist (Junos would not commit).
  case undefinedPolicy(String)
}

extension PolicyOptions {
  /// How much of the query the term's `from` and `to` conditions match.
  ///
  /// Purely syntactic and three-valued: categories are ANDed; the prefix conditions
  /// (`route-filter`, `route-filter-list`, `prefix-list`, `prefix-list-filter`) are alternatives;
  /// the route filters of one term, and the entries of one list, are looked up by longest match
  /// first and only then by match type, as Junos does without `walkup`. An address-family
  /// mismatch gives `.none`. `to` conditions are read like `from` ones, with the protocol and
  /// neighbor unknown. A condition the query says nothing about (community, as-path, condition,
  /// tag, an `apply-path` or undefined list, `through` on a set of routes, …) gives `.some`.
  public func match(_ term: PolicyTerm, _ q: RouteQuery) -> TermMatch { split(term, q).total }

  /// Evaluates `q` against a policy chain in order (§1.3 of the checklist).
  ///
  /// A term without conditions matches every route; `next term` and a missing action go on to
  /// the next term; `next policy` goes to the next policy of the chain; when no term decides,
  /// the result is ``ChainOutcome/noDecision`` (the protocol's default). The first term that may
  /// accept some route of the query ends the evaluation (`mayBeAccepted` wins over a later
  /// reject). A chain naming an undefined policy gives ``ChainOutcome/undefinedPolicy(_:)``
  /// whatever the query.
  ///
  /// A policy expression (`( A && B )`) is not evaluated here: when the query reaches one
  /// undecided, it may be accepted there (``ChainOutcome/mayBeAccepted(_:)`` with the expression
  /// as the policy's name and an empty term); the semantic comparison evaluates expressions
  /// exactly. A malformed chain counts as naming an undefined policy (Junos would not commit it).
  public func evaluate(chain: [String], _ q: RouteQuery) -> ChainOutcome {
    guard let elements = parsePolicyChain(chain) else { return .undefinedPolicy(chain.joined(separator: " ")) }
    for e in elements {
      for name in e.policies where policies[name] == nil { return .undefinedPolicy(name) }
    }
    var resolved: [PolicyStatement] = []
    var expression: PolicyExpression?
    for e in elements {
      guard case .policy(let name) = e else {
        if case .expression(let x) = e { expression = x }
        break
      }
      resolved.append(policies[name]!)
    }
    var run = ChainRun(options: self, query: q, policies: resolved)
    let outcome = run.outcome(policy: 0, term: 0)
    if let expression, outcome == .noDecision { return .mayBeAccepted(TermRef(policy: expression.description, term: "")) }
    return outcome
  }
}

// MARK: - Three-valued arithmetic

extension TermMatch {
  /// Alternatives over the same routes (a route matches if either matches).
  func or(_ o: TermMatch) -> TermMatch {
    if self == .all || o == .all { return .all }
    return self == .none && o == .none ? .none : .some
  }

  /// Conditions that must both hold.
  func and(_ o: TermMatch) -> TermMatch {
    if self == .none || o == .none { return .none }
    return self == .all && o == .all ? .all : .some
  }

  /// Two disjoint, non-empty parts of one set of routes.
  func joined(_ o: TermMatch) -> TermMatch { self == o ? self : .some }

  /// `.some` at least (for conditions whose contents are partly unknown).
  var atLeastSome: TermMatch { self == .all ? .all : .some }
}

/// The flow-control action that applies to the routes a part of a term matches (a route
/// filter's own action, else the term's): none (evaluation goes on), accept, reject, next term,
/// next policy.
private enum ActionKey: Int, CaseIterable {
  case noAction, accept, reject, nextTerm, nextPolicy

  init(_ t: PolicyActions.Terminal?) {
    switch t {
    case nil: self = .noAction
    case .accept: self = .accept
    case .reject: self = .reject
    case .nextTerm: self = .nextTerm
    case .nextPolicy: self = .nextPolicy
    }
  }
}

/// A match, overall and by the flow-control action that applies.
private struct Split {
  var total: TermMatch
  private var keys: (TermMatch, TermMatch, TermMatch, TermMatch, TermMatch) = (.none, .none, .none, .none, .none)

  init(_ total: TermMatch = .none, key: ActionKey = .noAction) {
    self.total = total
    self[key] = total
  }

  static let none = Split(.none)

  subscript(key: ActionKey) -> TermMatch {
    get {
      switch key {
      case .noAction: keys.0
      case .accept: keys.1
      case .reject: keys.2
      case .nextTerm: keys.3
      case .nextPolicy: keys.4
      }
    }
    set {
      switch key {
      case .noAction: keys.0 = newValue
      case .accept: keys.1 = newValue
      case .reject: keys.2 = newValue
      case .nextTerm: keys.3 = newValue
      case .nextPolicy: keys.4 = newValue
      }
    }
  }

  func or(_ o: Split) -> Split {
    var r = self
    r.total = total.or(o.total)
    for k in ActionKey.allCases { r[k] = self[k].or(o[k]) }
    return r
  }

  func joined(_ o: Split) -> Split {
    var r = self
    r.total = total.joined(o.total)
    for k in ActionKey.allCases { r[k] = self[k].joined(o[k]) }
    return r
  }

  /// Only the part that also meets conditions matching `gate`.
  func gated(_ gate: TermMatch) -> Split {
    var r = self
    r.total = total.and(gate)
    for k in ActionKey.allCases { r[k] = self[k].and(gate) }
    return r
  }
}

// MARK: - Prefix sets

/// A set of prefix lengths 0…128.
private struct LengthSet: Equatable {
  var words: (UInt64, UInt64, UInt64) = (0, 0, 0)

  static func == (a: LengthSet, b: LengthSet) -> Bool { a.words == b.words }

  init() {}

  /// Lengths `lo…hi` (empty when `lo > hi`).
  init(_ lo: Int, _ hi: Int) {
    func word(_ w: Int) -> UInt64 {
      let a = max(lo, w * 64)
      let b = min(hi, w * 64 + 63, 128)
      guard a <= b else { return 0 }
      let n = b - a + 1
      return (n == 64 ? ~0 : (UInt64(1) << UInt64(n)) - 1) << UInt64(a - w * 64)
    }
    words = (word(0), word(1), word(2))
  }

  var isEmpty: Bool { words == (0, 0, 0) }

  func union(_ o: LengthSet) -> LengthSet {
    var r = self
    r.words = (words.0 | o.words.0, words.1 | o.words.1, words.2 | o.words.2)
    return r
  }

  func intersection(_ o: LengthSet) -> LengthSet {
    var r = self
    r.words = (words.0 & o.words.0, words.1 & o.words.1, words.2 & o.words.2)
    return r
  }

  func subtracting(_ o: LengthSet) -> LengthSet {
    var r = self
    r.words = (words.0 & ~o.words.0, words.1 & ~o.words.1, words.2 & ~o.words.2)
    return r
  }

  /// How much of `region` this set covers.
  func coverage(of region: LengthSet) -> TermMatch {
    let common = intersection(region)
    if common.isEmpty { return .none }
    return common == region ? .all : .some
  }
}

extension RouteFilter.Match {
  /// The lengths this match type accepts for routes inside `filterLength`; `nil` when that does
  /// not depend on the length alone (`through`, unknown types).
  fileprivate func lengths(filterLength f: Int, width: Int) -> LengthSet? {
    switch self {
    case .exact: return LengthSet(f, f)
    case .orlonger: return LengthSet(f, width)
    case .longer: return LengthSet(f + 1, width)
    case .upto(let n): return LengthSet(f, n)
    case .prefixLengthRange(let a, let b): return LengthSet(max(a, f), b)
    case .through, .unknown: return nil
    }
  }
}

/// Evaluates one longest-match group of route filters (a term's `route-filter`s, or one list)
/// against a query.
private struct FilterGroup {
  /// The filters, normalised to their network, in configuration order.
  var filters: [RouteFilter]
  /// The term's action, for the filters without their own.
  var then: PolicyActions.Terminal?

  init(_ filters: [RouteFilter], then: PolicyActions.Terminal?) {
    self.then = then
    self.filters = filters.map { f in
      var f = f
      f.prefix = f.prefix.network
      if case .through(let p) = f.match { f.match = .through(p.network) }
      return f
    }
  }

  func split(_ q: RouteQuery) -> Split {
    guard let prefix = q.prefix else {
      let v4 = IPPrefix(family: .inet, bytes: [0, 0, 0, 0], length: 0)
      let v6 = IPPrefix(family: .inet6, bytes: Array(repeating: 0, count: 16), length: 0)
      return subtreeQuery(v4).joined(subtreeQuery(v6))
    }
    let p = prefix.network
    return q.orLonger ? subtreeQuery(p) : route(p, best: bestFilters(for: p, upTo: p.length))
  }

  /// The filters with the longest prefix (of at most `limit` bits) containing `p`, in order.
  private func bestFilters(for p: IPPrefix, upTo limit: Int) -> [Int] {
    var best: [Int] = []
    var bestLength = -1
    for (i, f) in filters.enumerated() where f.prefix.family == p.family && f.prefix.length <= limit && f.prefix.contains(p) {
      if f.prefix.length > bestLength {
        best = [i]
        bestLength = f.prefix.length
      } else if f.prefix.length == bestLength {
        best.append(i)
      }
    }
    return best
  }

  private func subtreeQuery(_ p: IPPrefix) -> Split {
    let best = bestFilters(for: p, upTo: p.length - 1)
    let inner = filters.indices.filter { filters[$0].prefix.family == p.family && p.contains(filters[$0].prefix) }
    return subtree(p, best: best, inner: inner)
  }

  /// `n` and every more specific prefix; `inner` are the filters inside `n`, `best` the
  /// longest-match filters of the routes in `n` that no inner filter contains.
  private func subtree(_ n: IPPrefix, best: [Int], inner: [Int]) -> Split {
    var best = best
    var here: [Int] = []
    var deeper: [Int] = []
    for i in inner {
      if filters[i].prefix.length == n.length { here.append(i) } else { deeper.append(i) }
    }
    if !here.isEmpty { best = here }
    if n.length == n.width { return route(n, best: best) }
    guard let first = deeper.first.map({ filters[$0].prefix }) else { return closedForm(n, best: best) }
    // Where the deeper filters part ways: above that point every route outside their common
    // prefix has the same longest-match filters as `n`.
    var common = first.length
    for i in deeper.dropFirst() { common = min(common, first.commonLength(filters[i].prefix)) }
    if common > n.length {
      let c = IPPrefix(family: first.family, bytes: first.bytes, length: common).network
      return closedForm(n, best: best).joined(subtree(c, best: best, inner: deeper))
    }
    let left = deeper.filter { !filters[$0].prefix.bit(n.length) }
    let right = deeper.filter { filters[$0].prefix.bit(n.length) }
    return route(n, best: best)
      .joined(subtree(n.half(false), best: best, inner: left))
      .joined(subtree(n.half(true), best: best, inner: right))
  }

  /// One route, against its longest-match filters `best` (the first that matches decides).
  private func route(_ p: IPPrefix, best: [Int]) -> Split {
    var result = Split.none
    var unmatched = TermMatch.all  // whether the route is still certainly unmatched
    for i in best {
      let f = filters[i]
      let m: TermMatch
      if let lengths = f.match.lengths(filterLength: f.prefix.length, width: p.width) {
        m = lengths.coverage(of: LengthSet(p.length, p.length))
      } else if case .through(let end) = f.match {
        m = p.contains(end) ? .all : .none
      } else {
        m = .some
      }
      guard m != .none else { continue }
      let key = ActionKey(f.action ?? then)
      if m == .all && unmatched == .all {
        result[key] = .all
        result.total = .all
        return result
      }
      result[key] = result[key].or(.some)
      result.total = m == .all ? .all : .some
      if m == .all { return result }
      unmatched = .some
    }
    return result
  }

  /// `n` and every more specific prefix (or that set less a subtree holding inner filters; its
  /// lengths are the same) when every route has the longest-match filters `best`: only the
  /// lengths matter.
  private func closedForm(_ n: IPPrefix, best: [Int]) -> Split {
    guard !best.isEmpty else { return .none }
    let region = LengthSet(n.length, n.width)
    var r = Split.none
    var keysUsed = 0
    var anyPartial = false
    for k in ActionKey.allCases {
      var covered = LengthSet()
      var mine = LengthSet()
      var partial = false
      for i in best {
        let f = filters[i]
        let key = ActionKey(f.action ?? then)
        keysUsed |= 1 << key.rawValue
        if let lengths = f.match.lengths(filterLength: f.prefix.length, width: n.width) {
          if key == k { mine = mine.union(lengths.subtracting(covered)) }
          covered = covered.union(lengths)
        } else if case .through(let end) = f.match {
          // Only the routes on the path from `n` down to `end` match.
          if n.contains(end) && key == k { partial = true }
        } else if key == k {
          partial = true
        }
      }
      var m = mine.coverage(of: region)
      if partial && m == .none { m = .some }
      anyPartial = anyPartial || partial
      r[k] = m
      r.total = covered.coverage(of: region)
    }
    if anyPartial {
      r.total = r.total.atLeastSome
      if keysUsed.nonzeroBitCount > 1 {
        for k in ActionKey.allCases where r[k] == .all { r[k] = .some }
      }
    }
    return r
  }
}

extension PolicyOptions {
  /// The prefix conditions of a block, as alternatives; `nil` when there are none.
  private func prefixSplit(_ c: MatchConditions, _ q: RouteQuery, then: PolicyActions.Terminal?) -> Split? {
    guard c.hasPrefixConditions else { return nil }
    let key = ActionKey(then)
    var r = Split.none
    if !c.routeFilters.isEmpty { r = r.or(FilterGroup(c.routeFilters, then: then).split(q)) }
    for name in c.prefixLists { r = r.or(Split(prefixListMatch(name, q), key: key)) }
    for plf in c.prefixListFilters {
      guard let entries = prefixLists[plf.name] else {
        r = r.or(Split(.some, key: key))
        continue
      }
      var s = FilterGroup(entries.map { RouteFilter(prefix: $0, match: plf.match) }, then: then).split(q)
      if openPrefixLists.contains(plf.name) { s = s.or(Split(.some, key: key)) }
      r = r.or(s)
    }
    for name in c.routeFilterLists {
      guard let list = routeFilterLists[name] else {
        r = r.or(Split(.some, key: key))
        continue
      }
      var s = FilterGroup(list, then: then).split(q)
      if openPrefixLists.contains(name) { s = s.or(Split(.some, key: key)) }
      r = r.or(s)
    }
    return r
  }

  /// `prefix-list NAME`: exact matches of the list's prefixes.
  private func prefixListMatch(_ name: String, _ q: RouteQuery) -> TermMatch {
    guard let entries = prefixLists[name] else { return .some }
    let open = openPrefixLists.contains(name)
    guard let prefix = q.prefix else { return entries.isEmpty && !open ? .none : .some }
    let p = prefix.network
    let networks = entries.lazy.map(\.network).filter { $0.family == p.family }
    if !q.orLonger || p.length == p.width {
      if networks.contains(p) { return .all }
    } else if networks.contains(where: { p.contains($0) }) {
      return .some
    }
    return open ? .some : .none
  }

  /// The conditions of a block other than prefixes, ANDed.
  private func gate(_ c: MatchConditions, _ q: RouteQuery) -> TermMatch {
    var m = TermMatch.all
    if !c.protocols.isEmpty {
      if let asked = q.protocolName {
        m = m.and(c.protocols.contains { protocolMatches($0, asked) } ? .all : .none)
      } else {
        m = m.and(.some)
      }
    }
    if !c.neighbors.isEmpty {
      if let asked = q.neighbor {
        var n = TermMatch.none
        for text in c.neighbors {
          guard let a = IPPrefix(text) else {
            n = n.or(.some)
            continue
          }
          if asked.length == asked.width && a.family == asked.family && a.bytes == asked.bytes {
            n = .all
          } else if asked.length < asked.width && asked.contains(a) {
            n = n.or(.some)
          }
        }
        m = m.and(n)
      } else {
        m = m.and(.some)
      }
    }
    if !c.families.isEmpty {
      if let family = q.prefix?.family {
        if c.families.contains(family.rawValue) {
          m = m.and(.all)
        } else {
          m = m.and(c.families.allSatisfy { $0 == "inet" || $0 == "inet6" } ? .none : .some)
        }
      } else {
        m = m.and(.some)
      }
    }
    if !c.communities.isEmpty || !c.asPaths.isEmpty || !c.conditions.isEmpty || !c.instances.isEmpty || !c.ribs.isEmpty || !c.tags.isEmpty
      || !c.subroutines.isEmpty
      || !c.other.isEmpty || !c.routeTypes.isEmpty
    {
      m = m.and(.some)
    }
    return m
  }

  /// Both blocks of a term; the `to` block is read with the protocol and neighbor unknown
  /// (there they name the destination, not the route's origin).
  fileprivate func split(_ term: PolicyTerm, _ q: RouteQuery) -> Split {
    var toQuery = q
    toQuery.protocolName = nil
    toQuery.neighbor = nil
    let then = term.then.terminal
    var r = (prefixSplit(term.from, q, then: then) ?? Split(.all, key: ActionKey(then))).gated(gate(term.from, q))
    if !term.to.isEmpty {
      // Actions written on route filters of a `to` block are not modelled.
      r = r.gated((prefixSplit(term.to, toQuery, then: then)?.total ?? .all).and(gate(term.to, toQuery)))
    }
    return r
  }

}

/// `from protocol X` against a route's protocol. `ospf` covers OSPFv2 and OSPFv3 routes;
/// `ospf2` only OSPFv2 (which a query may call `ospf`) [inference from the Junos keyword list].
func protocolMatches(_ condition: String, _ asked: String) -> Bool {
  let c = condition.lowercased()
  let a = asked.lowercased()
  if c == a { return true }
  switch c {
  case "ospf": return a == "ospf2" || a == "ospf3"
  case "ospf2": return a == "ospf"
  default: return false
  }
}

/// One evaluation of a chain: the terms' matches by action, and memoised outcomes of the
/// branches a partial `next policy` opens.
private struct ChainRun {
  let options: PolicyOptions
  let query: RouteQuery
  let policies: [PolicyStatement]
  /// Each term's match by action, computed when the evaluation first reaches the term.
  var splits: [[Split?]]
  var memo: [Int: [Int: ChainOutcome]] = [:]

  init(options: PolicyOptions, query: RouteQuery, policies: [PolicyStatement]) {
    self.options = options
    self.query = query
    self.policies = policies
    splits = policies.map { Array(repeating: nil, count: $0.terms.count) }
  }

  mutating func split(_ p: Int, _ t: Int) -> Split {
    if let known = splits[p][t] { return known }
    let term = policies[p].terms[t]
    let s = options.split(term, query)
    splits[p][t] = s
    return s
  }

  /// The outcome for the routes that reach term `term` of policy `policy` (all of them reach it).
  mutating func outcome(policy: Int, term: Int) -> ChainOutcome {
    if let known = memo[policy]?[term] { return known }
    let result = compute(policy: policy, term: term)
    memo[policy, default: [:]][term] = result
    return result
  }

  private mutating func compute(policy startPolicy: Int, term startTerm: Int) -> ChainOutcome {
    var p = startPolicy
    var t = startTerm
    var allReach = true
    while p < policies.count {
      guard t < policies[p].terms.count else {
        p += 1
        t = 0
        continue
      }
      let s = split(p, t)
      let ref = TermRef(policy: policies[p].name, term: policies[p].terms[t].name)
      let accept = s[.accept]
      let reject = s[.reject]
      let nextPolicy = s[.nextPolicy]
      if accept != .none {
        if accept == .all && allReach && reject == .none && nextPolicy == .none { return .accepted(ref) }
        return .mayBeAccepted(ref)
      }
      if reject == .all && nextPolicy == .none { return .rejected(ref) }
      if nextPolicy == .all && reject == .none {
        p += 1
        t = 0
        continue
      }
      if nextPolicy != .none {
        let stay = outcome(policy: p, term: t + 1)
        let jump = p + 1 < policies.count ? outcome(policy: p + 1, term: 0) : .noDecision
        var c = combine(stay, jump)
        if case .accepted(let r) = c, !allReach || reject != .none { c = .mayBeAccepted(r) }
        return c
      }
      if reject != .none { allReach = false }
      t += 1
    }
    return .noDecision
  }

  /// The outcome for a query split into two parts with these outcomes.
  private func combine(_ a: ChainOutcome, _ b: ChainOutcome) -> ChainOutcome {
    switch (a, b) {
    case (.undefinedPolicy, _): return a
    case (_, .undefinedPolicy): return b
    case (.accepted(let r), .accepted): return .accepted(r)
    case (.accepted(let r), _), (.mayBeAccepted(let r), _): return .mayBeAccepted(r)
    case (_, .accepted(let r)), (_, .mayBeAccepted(let r)): return .mayBeAccepted(r)
    case (.rejected(let r), .rejected): return .rejected(r)
    default: return .noDecision
    }
  }
}

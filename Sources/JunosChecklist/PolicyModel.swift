public import JunosConfig

/// A `policy-statement`: its terms in order.
///
/// A policy written without terms (`policy-statement P { from …; then …; }`) has one term whose
/// name is empty. A policy with terms and a trailing `from`/`then` gets that unnamed term last.
public struct PolicyStatement: Sendable {
  /// The policy's name.
  public var name: String
  /// Its statement in the effective configuration.
  public var node: NodeID
  /// Its terms, in evaluation order.
  public var terms: [PolicyTerm]

  /// Creates a policy.
  public init(name: String, node: NodeID, terms: [PolicyTerm]) {
    self.name = name
    self.node = node
    self.terms = terms
  }

  /// The term called `name`.
  public func term(_ name: String) -> PolicyTerm? { terms.first { $0.name == name } }
}

/// One term: match conditions (`from`, `to`) and actions (`then`).
public struct PolicyTerm: Sendable {
  /// The term's name; empty for a policy's unnamed term.
  public var name: String
  /// The `term NAME` statement (the policy's own statement for the unnamed term).
  public var node: NodeID
  /// The `from` conditions.
  public var from: MatchConditions
  /// The `to` conditions.
  public var to: MatchConditions
  /// The `then` actions.
  public var then: PolicyActions

  /// Creates a term.
  public init(name: String, node: NodeID, from: MatchConditions, to: MatchConditions, then: PolicyActions) {
    self.name = name
    self.node = node
    self.from = from
    self.to = to
    self.then = then
  }

  /// Whether the term has any effective `from` or `to` condition (a term without one matches
  /// every route).
  public var hasMatchConditions: Bool { !from.isEmpty || !to.isEmpty }
}

/// The conditions of a `from` or `to` block (after `inactive:` statements are dropped).
public struct MatchConditions: Sendable, Equatable {
  /// `protocol` values (`[ direct local ]` gives two).
  public var protocols: [String] = []
  /// `route-filter` entries.
  public var routeFilters: [RouteFilter] = []
  /// `prefix-list` names.
  public var prefixLists: [String] = []
  /// `prefix-list-filter NAME MODIFIER` entries.
  public var prefixListFilters: [PrefixListFilter] = []
  /// `route-filter-list NAME` names.
  public var routeFilterLists: [String] = []
  /// `community` names.
  public var communities: [String] = []
  /// `as-path` / `as-path-group` names.
  public var asPaths: [String] = []
  /// `neighbor` addresses.
  public var neighbors: [String] = []
  /// `condition` names (`if-route-exists` conditions).
  public var conditions: [String] = []
  /// `family` values.
  public var families: [String] = []
  /// `route-type` values (`internal`, `external`).
  public var routeTypes: [String] = []
  /// `instance` values (not modelled).
  public var instances: [String] = []
  /// `rib` values: the routing tables a route must be in (`inet.0`, `inet.3`).
  public var ribs: [String] = []
  /// `tag` values.
  public var tags: [String] = []
  /// `policy` values: subroutines (`from policy [ A B ]`), or the words of a policy expression
  /// (`from policy ( A && B )`).
  public var subroutines: [String] = []
  /// Every other condition keyword present (`interface`, `area`, `level`, …); each one
  /// narrows the match in a way the evaluator does not model.
  public var other: [String] = []

  /// Creates an empty set of conditions.
  public init() {}

  /// Whether there is no condition at all.
  public var isEmpty: Bool {
    protocols.isEmpty && routeFilters.isEmpty && prefixLists.isEmpty && prefixListFilters.isEmpty
      && routeFilterLists.isEmpty && communities.isEmpty && asPaths.isEmpty && neighbors.isEmpty
      && conditions.isEmpty && families.isEmpty && routeTypes.isEmpty && instances.isEmpty && ribs.isEmpty && tags.isEmpty
      && subroutines.isEmpty && other.isEmpty
  }

  /// The condition kinds present, by their keyword (`prefix-list`, `route-filter`, …), for
  /// messages about what a change removed.
  public var keywords: [String] {
    var k: [String] = []
    if !protocols.isEmpty { k.append("protocol") }
    if !routeFilters.isEmpty { k.append("route-filter") }
    if !prefixLists.isEmpty { k.append("prefix-list") }
    if !prefixListFilters.isEmpty { k.append("prefix-list-filter") }
    if !routeFilterLists.isEmpty { k.append("route-filter-list") }
    if !communities.isEmpty { k.append("community") }
    if !asPaths.isEmpty { k.append("as-path") }
    if !neighbors.isEmpty { k.append("neighbor") }
    if !conditions.isEmpty { k.append("condition") }
    if !families.isEmpty { k.append("family") }
    if !routeTypes.isEmpty { k.append("route-type") }
    if !instances.isEmpty { k.append("instance") }
    if !ribs.isEmpty { k.append("rib") }
    if !tags.isEmpty { k.append("tag") }
    if !subroutines.isEmpty { k.append("policy") }
    k.append(contentsOf: other)
    return k
  }
}

/// `route-filter PREFIX MATCH-TYPE [action]`.
public struct RouteFilter: Sendable, Hashable {
  /// How a route's prefix is compared with the filter's.
  public enum Match: Sendable, Hashable {
    /// The same prefix and length.
    case exact
    /// The prefix or any more specific one.
    case orlonger
    /// Strictly more specific prefixes.
    case longer
    /// The prefix and more specifics up to this length.
    case upto(Int)
    /// More specifics of the prefix with lengths in this range.
    case prefixLengthRange(Int, Int)
    /// Prefixes on the path from the filter's prefix down to this one.
    case through(IPPrefix)
    /// A match type the parser does not know; matches conservatively (as `orlonger`).
    case unknown(String)
  }

  /// The filter's prefix.
  public var prefix: IPPrefix
  /// Its match type.
  public var match: Match
  /// The action given inline (`route-filter 10.0.0.0/8 orlonger reject`), if any.
  public var action: PolicyActions.Terminal?

  /// Creates a route filter.
  public init(prefix: IPPrefix, match: Match, action: PolicyActions.Terminal? = nil) {
    self.prefix = prefix
    self.match = match
    self.action = action
  }
}

extension RouteFilter.Match: CustomStringConvertible {
  /// The match type as Junos writes it (`upto /24`, `prefix-length-range /25-/32`).
  public var description: String {
    switch self {
    case .exact: "exact"
    case .orlonger: "orlonger"
    case .longer: "longer"
    case .upto(let n): "upto /\(n)"
    case .prefixLengthRange(let a, let b): "prefix-length-range /\(a)-/\(b)"
    case .through(let p): "through \(p)"
    case .unknown(let text): text
    }
  }
}

/// `prefix-list-filter NAME (exact|orlonger|longer)`.
public struct PrefixListFilter: Sendable, Hashable {
  /// The prefix list.
  public var name: String
  /// `exact`, `orlonger` or `longer`.
  public var modifier: String

  /// Creates one.
  public init(name: String, modifier: String) {
    self.name = name
    self.modifier = modifier
  }

  /// The match type every entry of the list is given (`.unknown` for another modifier).
  public var match: RouteFilter.Match {
    switch modifier {
    case "exact": .exact
    case "orlonger": .orlonger
    case "longer": .longer
    default: .unknown(modifier)
    }
  }
}

/// The `then` block of a term.
public struct PolicyActions: Sendable, Hashable {
  /// The flow-control or terminating action.
  public enum Terminal: String, Sendable, Hashable {
    case accept, reject
    case nextTerm = "next term"
    case nextPolicy = "next policy"
  }

  /// `accept`, `reject`, `next term` or `next policy`; `nil` when none is given (evaluation
  /// goes on to the next term).
  public var terminal: Terminal?
  /// Whether the term changes route attributes (`local-preference`, `community`, `metric`, …).
  public var modifiesRoute: Bool
  /// `community add|set NAME` names.
  public var communitiesAdded: [String]
  /// Whether `then` sets `local-preference`.
  public var setsLocalPreference: Bool
  /// The route-modifying actions as written, one per line (`next-hop self`, `community add C`).
  public var modifications: [String]

  /// Creates actions.
  public init(
    terminal: Terminal? = nil, modifiesRoute: Bool = false, communitiesAdded: [String] = [], setsLocalPreference: Bool = false,
    modifications: [String] = []
  ) {
    self.terminal = terminal
    self.modifiesRoute = modifiesRoute
    self.communitiesAdded = communitiesAdded
    self.setsLocalPreference = setsLocalPreference
    self.modifications = modifications
  }
}

extension PolicyActions {
  /// The kinds of condition whose attribute these actions change (`community add|delete|set`,
  /// `as-path-prepend`, `as-path-expand`).
  var changedChecks: [TermCheck] {
    var out: [TermCheck] = []
    if modifications.contains(where: { $0.hasPrefix("community ") }) { out.append(.community) }
    if modifications.contains(where: { $0.hasPrefix("as-path-prepend") || $0.hasPrefix("as-path-expand") }) { out.append(.asPath) }
    return out
  }
}

/// `community NAME { members [ … ]; invert-match; }`.
public struct CommunityDefinition: Sendable, Hashable {
  /// The members as written (`65000:100`, `no-export`, `^65000:.*$`); a route must carry all.
  public var members: [String] { didSet { parsed = Self.parse(members) } }
  /// Whether the match is inverted.
  public var invertMatch: Bool
  /// The members read (`nil` when one is a regular expression outside the dialect).
  private(set) var parsed: [CommunityMember]?

  /// Creates a definition.
  public init(members: [String] = [], invertMatch: Bool = false) {
    self.members = members
    self.invertMatch = invertMatch
    parsed = Self.parse(members)
  }

  private static func parse(_ members: [String]) -> [CommunityMember]? {
    var out: [CommunityMember] = []
    for m in members {
      guard let c = CommunityMember(m) else { return nil }
      out.append(c)
    }
    return out
  }

  /// Whether a route carrying `communities` meets the definition, before `invert-match`: every
  /// member matches one of them. `nil` when a member is not modelled.
  func carried(by communities: [String]) -> Bool? {
    parsed.map { members in members.allSatisfy { m in communities.contains { m.matches($0) } } }
  }
}

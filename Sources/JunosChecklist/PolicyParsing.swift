public import JunosConfig

/// Policies, prefix lists and related named sets of `policy-options`.
///
/// Read from an effective configuration (statements marked `inactive:` are skipped as well, so a
/// raw tree gives the same result). Curly and `display set` input build the same tree; the
/// reader also accepts the shapes in between (`route-filter 10.0.0.0/8 orlonger { next policy; }`,
/// `then accept;` or `then { accept; }`, `from protocol aggregate;` or `from { protocol aggregate; }`).
public struct PolicyOptions: Sendable {
  /// `policy-statement` definitions by name.
  public var policies: [String: PolicyStatement]
  /// `prefix-list` definitions by name: the prefixes written in them (an `apply-path` adds none).
  public var prefixLists: [String: [IPPrefix]]
  /// Prefix lists (and route-filter lists) whose full contents are not known here
  /// (`apply-path`, entries that cannot be read); the evaluator treats them as "may match".
  public var openPrefixLists: Set<String>
  /// `route-filter-list` definitions by name.
  public var routeFilterLists: [String: [RouteFilter]]
  /// `community` names defined.
  public var communities: Set<String>
  /// `community` definitions by name: their members and `invert-match`.
  public var communityDefinitions: [String: CommunityDefinition]
  /// `condition NAME` names defined.
  public var conditions: Set<String>
  /// `as-path` and `as-path-group` names defined.
  public var asPaths: Set<String>
  /// `as-path NAME "REGEX"` definitions: the expression as written (unquoted).
  public var asPathExpressions: [String: String]

  /// An empty set of definitions.
  public init() {
    policies = [:]
    prefixLists = [:]
    openPrefixLists = []
    routeFilterLists = [:]
    communities = []
    communityDefinitions = [:]
    conditions = []
    asPaths = []
    asPathExpressions = [:]
  }

  /// Reads `policy-options` at the root of `tree`.
  public init(tree: ConfigTree) {
    self.init()
    for node in tree.children(of: ConfigTree.root) where isLive(tree, node) && tree.wordCount(of: node) >= 1 {
      if tree.word(0, of: node) == "policy-options" { read(tree, node) }
    }
  }

  /// Reads a given `policy-options` block (for logical systems and tests).
  public init(tree: ConfigTree, at node: NodeID) {
    self.init()
    read(tree, node)
  }

  /// The term a ``TermRef`` names.
  public func term(_ ref: TermRef) -> PolicyTerm? { policies[ref.policy]?.term(ref.term) }

  private mutating func read(_ tree: ConfigTree, _ block: NodeID) {
    for node in tree.children(of: block) where isLive(tree, node) {
      let count = tree.wordCount(of: node)
      guard count >= 1 else { continue }
      let name = count >= 2 ? unquoted(tree.word(1, of: node)) : ""
      switch tree.word(0, of: node) {
      case "policy-statement" where count >= 2:
        policies[name] = PolicyStatement(tree: tree, node: node)
      case "prefix-list" where count >= 2:
        var entries: [IPPrefix] = []
        for path in statementPaths(tree, node, dropping: 2) {
          guard let first = path.words.first else { continue }
          if path.words.count == 1, let p = IPPrefix(unquoted(first)) {
            entries.append(p)
          } else {
            // `apply-path "…"` (contents known only on the device) or anything unreadable.
            openPrefixLists.insert(name)
          }
        }
        prefixLists[name, default: []].append(contentsOf: entries)
      case "route-filter-list" where count >= 2:
        var filters = RouteFilterCollector()
        for path in statementPaths(tree, node, dropping: 2) {
          if !filters.add(path.words[...]) { openPrefixLists.insert(name) }
        }
        routeFilterLists[name, default: []].append(contentsOf: filters.filters)
      case "community" where count >= 2:
        communities.insert(name)
        var definition = communityDefinitions[name] ?? CommunityDefinition()
        for path in statementPaths(tree, node, dropping: 2) {
          switch path.words.first {
          case "members": definition.members += path.words.dropFirst().map(unquoted) + (path.list ?? []).map(unquoted)
          case "invert-match": definition.invertMatch = true
          default: break
          }
        }
        communityDefinitions[name] = definition
      case "condition":
        // Curly text gives `condition NAME { … }`; `display set` text read with the current keyword
        // table gives `condition { NAME { … } }`.
        if count >= 2 {
          conditions.insert(name)
        } else {
          for c in tree.children(of: node) where isLive(tree, c) && tree.wordCount(of: c) >= 1 {
            conditions.insert(unquoted(tree.word(0, of: c)))
          }
        }
      case "as-path" where count >= 2, "as-path-group" where count >= 2:
        asPaths.insert(name)
        if count == 3 && tree.word(0, of: node) == "as-path" { asPathExpressions[name] = unquoted(tree.word(2, of: node)) }
      default:
        break
      }
    }
  }
}

extension PolicyStatement {
  /// Reads a policy from its `policy-statement NAME` statement.
  ///
  /// Terms keep their order; a policy-level `from`/`to`/`then` forms the unnamed term (name
  /// `""`), placed last.
  public init(tree: ConfigTree, node: NodeID) {
    let count = tree.wordCount(of: node)
    var terms: [PolicyTerm] = []
    var unnamed = TermBuilder()
    var hasUnnamed = false
    if count > 2 {
      // `policy-statement P then accept;` written on one line.
      for path in statementPaths(tree, node, dropping: 2) { hasUnnamed = unnamed.add(path) || hasUnnamed }
    } else {
      for child in tree.children(of: node) where isLive(tree, child) {
        if tree.wordCount(of: child) >= 2 && tree.word(0, of: child) == "term" {
          var builder = TermBuilder()
          for path in statementPaths(tree, child, dropping: 2) { _ = builder.add(path) }
          terms.append(builder.term(name: unquoted(tree.word(1, of: child)), node: child))
        } else {
          for path in statementPaths(tree, child, dropping: 0) { hasUnnamed = unnamed.add(path) || hasUnnamed }
        }
      }
    }
    if hasUnnamed { terms.append(unnamed.term(name: "", node: node)) }
    self.init(name: count >= 2 ? unquoted(tree.word(1, of: node)) : "", node: node, terms: terms)
  }
}

extension MatchConditions {
  /// Whether there is a prefix condition (`route-filter`, `route-filter-list`, `prefix-list`,
  /// `prefix-list-filter`).
  public var hasPrefixConditions: Bool {
    !routeFilters.isEmpty || !routeFilterLists.isEmpty || !prefixLists.isEmpty || !prefixListFilters.isEmpty
  }
}

extension RouteFilter {
  /// Reads the words after `route-filter` (or a `route-filter-list` entry):
  /// `PREFIX MATCH-TYPE [ARGUMENT] [ACTION…]`. `nil` when the prefix is not a prefix.
  init?(words: ArraySlice<String>) {
    guard let first = words.first, let prefix = IPPrefix(unquoted(first)) else { return nil }
    var rest = words.dropFirst()
    let match: Match
    switch rest.first {
    case "exact": match = .exact
    case "orlonger": match = .orlonger
    case "longer": match = .longer
    case "upto":
      let arg = rest.dropFirst().first ?? ""
      if let n = prefixLength(arg) { match = .upto(n) } else { match = .unknown("upto " + arg) }
      rest = rest.dropFirst()
    case "prefix-length-range":
      let arg = rest.dropFirst().first ?? ""
      let parts = arg.split(separator: "-", maxSplits: 1)
      if parts.count == 2, let a = prefixLength(parts[0]), let b = prefixLength(parts[1]) {
        match = .prefixLengthRange(a, b)
      } else {
        match = .unknown("prefix-length-range " + arg)
      }
      rest = rest.dropFirst()
    case "through":
      let arg = rest.dropFirst().first ?? ""
      if let p = IPPrefix(unquoted(arg)) { match = .through(p) } else { match = .unknown("through " + arg) }
      rest = rest.dropFirst()
    case "address-mask":
      match = .unknown("address-mask")
      rest = rest.dropFirst()
    case let other?: match = .unknown(other)
    case nil: match = .unknown("")
    }
    rest = rest.dropFirst()
    self.init(prefix: prefix, match: match, action: terminalAction(in: rest))
  }
}

// MARK: - Reading helpers

/// A statement flattened to one line: the words from a statement down to one leaf below it.
private struct StatementPath {
  var words: [String]
  var list: [String]?
}

/// Every leaf under `node` as a line of words, starting after the first `dropping` words of
/// `node` itself. `then { accept; }` and `then accept;` give the same line.
private func statementPaths(_ tree: ConfigTree, _ node: NodeID, dropping: Int) -> [StatementPath] {
  var out: [StatementPath] = []
  var own = tree.words(of: node)
  own.removeFirst(min(dropping, own.count))
  collectPaths(tree, node, own, &out)
  return out
}

private func collectPaths(_ tree: ConfigTree, _ node: NodeID, _ prefix: [String], _ out: inout [StatementPath]) {
  guard tree.hasChildren(node) else {
    let list = tree.listValues(of: node)
    if !prefix.isEmpty || list != nil { out.append(StatementPath(words: prefix, list: list)) }
    return
  }
  for child in tree.children(of: node) where isLive(tree, child) {
    collectPaths(tree, child, prefix + tree.words(of: child), &out)
  }
}

/// Whether a statement counts (not `inactive:`).
private func isLive(_ tree: ConfigTree, _ node: NodeID) -> Bool { !tree.flags(of: node).contains(.inactive) }

/// `/24` or `24`.
private func prefixLength(_ text: some StringProtocol) -> Int? {
  let digits = text.hasPrefix("/") ? text.dropFirst() : text[...]
  guard !digits.isEmpty, digits.count <= 3, let n = Int(digits), n <= 128 else { return nil }
  return n
}

/// The last flow-control action among `words` (`accept`, `reject`, `next term`, `next policy`).
private func terminalAction(in words: ArraySlice<String>) -> PolicyActions.Terminal? {
  var result: PolicyActions.Terminal?
  var i = words.startIndex
  while i < words.endIndex {
    switch words[i] {
    case "accept": result = .accept
    case "reject": result = .reject
    case "next" where i + 1 < words.endIndex:
      if words[i + 1] == "term" { result = .nextTerm } else if words[i + 1] == "policy" { result = .nextPolicy }
    default: break
    }
    i += 1
  }
  return result
}

/// Route filters read one line at a time; lines for the same prefix and match type (a filter
/// with a block of actions) merge into one filter.
private struct RouteFilterCollector {
  struct Key: Hashable {
    var prefix: IPPrefix
    var match: RouteFilter.Match
  }
  var filters: [RouteFilter] = []
  var index: [Key: Int] = [:]

  /// Adds one line; `false` when it is not a route filter.
  mutating func add(_ words: ArraySlice<String>) -> Bool {
    guard let f = RouteFilter(words: words) else { return false }
    let key = Key(prefix: f.prefix, match: f.match)
    if let i = index[key] {
      if filters[i].action == nil { filters[i].action = f.action }
    } else {
      index[key] = filters.count
      filters.append(f)
    }
    return true
  }
}

/// Builds one term from its flattened lines.
private struct TermBuilder {
  var from = ConditionsBuilder()
  var to = ConditionsBuilder()
  var then = PolicyActions()

  /// Adds a `from …`, `to …` or `then …` line; `false` for anything else.
  mutating func add(_ path: StatementPath) -> Bool {
    guard let first = path.words.first else { return false }
    let rest = path.words.dropFirst()
    switch first {
    case "from": from.add(rest, path.list)
    case "to": to.add(rest, path.list)
    case "then": addAction(rest, path.list)
    default: return false
    }
    return true
  }

  mutating func addAction(_ words: ArraySlice<String>, _ list: [String]?) {
    guard let keyword = words.first else { return }
    switch keyword {
    case "accept": then.terminal = .accept
    case "reject": then.terminal = .reject
    case "next":
      if let t = terminalAction(in: words) { then.terminal = t }
    case "trace", "default-action":
      break
    case "local-preference":
      then.setsLocalPreference = true
      then.modifiesRoute = true
      then.modifications.append(words.joined(separator: " "))
    case "community":
      then.modifiesRoute = true
      then.modifications.append(words.joined(separator: " "))
      let op = words.dropFirst().first
      if op == "add" || op == "+" || op == "set" || op == "=" {
        then.communitiesAdded += words.dropFirst(2).map(unquoted) + (list ?? []).map(unquoted)
      }
    default:
      then.modifiesRoute = true
      then.modifications.append(words.joined(separator: " "))
    }
  }

  func term(name: String, node: NodeID) -> PolicyTerm {
    PolicyTerm(name: name, node: node, from: from.result, to: to.result, then: then)
  }
}

/// Builds the conditions of a `from` or `to` block.
private struct ConditionsBuilder {
  var conditions = MatchConditions()
  var filters = RouteFilterCollector()

  mutating func add(_ words: ArraySlice<String>, _ list: [String]?) {
    guard let keyword = words.first else { return }
    let values = words.dropFirst().map(unquoted) + (list ?? []).map(unquoted)
    switch keyword {
    case "protocol": conditions.protocols += values
    case "route-filter":
      if !filters.add(words.dropFirst()) { addOther(keyword) }
    case "prefix-list": conditions.prefixLists += values
    case "prefix-list-filter":
      if let name = values.first {
        conditions.prefixListFilters.append(PrefixListFilter(name: name, modifier: values.dropFirst().first ?? "exact"))
      }
    case "route-filter-list": conditions.routeFilterLists += values.prefix(1)
    case "community": conditions.communities += values
    case "as-path", "as-path-group": conditions.asPaths += values
    case "neighbor": conditions.neighbors += values
    case "condition": conditions.conditions += values
    case "policy": conditions.subroutines += values
    case "family": conditions.families += values
    case "route-type": conditions.routeTypes += values
    case "instance": conditions.instances += values
    case "rib": conditions.ribs += values
    case "tag": conditions.tags += values
    default: addOther(keyword)
    }
  }

  /// The conditions read, route filters included.
  var result: MatchConditions {
    var c = conditions
    c.routeFilters = filters.filters
    return c
  }

  mutating func addOther(_ keyword: String) {
    if !conditions.other.contains(keyword) { conditions.other.append(keyword) }
  }
}

public import JunosConfig
import Synchronization

/// A place a policy chain decides routes: a BGP group's or neighbor's import or export, an IGP
/// export, a VRF's import or export, the forwarding table's export.
public struct PolicyAttachment: Sendable, Hashable {
  /// What kind of place it is.
  public enum Kind: String, Sendable, Hashable {
    case bgpExport = "bgp-export"
    case bgpImport = "bgp-import"
    case igpExport = "igp-export"
    case vrfImport = "vrf-import"
    case vrfExport = "vrf-export"
    case forwardingTable = "forwarding-table-export"
  }

  /// The kind.
  public var kind: Kind
  /// The routing instance (`master` for the main one).
  public var instance: String
  /// The BGP group, or the IGP's protocol name.
  public var name: String
  /// The BGP neighbor, when its chain is its own.
  public var neighbor: String?
  /// Whether the BGP group faces an external or client peer (what makes a leak an error).
  public var external: Bool
  /// Whether the BGP group is eBGP (`type external`, or a peer AS other than the router's).
  public var ebgp: Bool = false
  /// The routes the chain can see here.
  public var scope: RouteScope = .any
  /// The configuration path of the statement that applies the chain (or would).
  public var path: [String]

  /// The policy a route meets when no term decides.
  public var defaultPolicy: DefaultPolicy {
    switch kind {
    case .bgpExport: .bgpExport
    case .bgpImport: .bgpImport
    case .igpExport: .igpExport
    case .vrfImport, .vrfExport: .vrf
    case .forwardingTable: .forwardingTableExport
    }
  }

  /// `eBGP`, `iBGP`, or `client-facing iBGP`.
  private var groupKind: String { ebgp ? "eBGP" : external ? "client-facing iBGP" : "iBGP" }

  /// Words for messages: `export to eBGP group TRANSIT`, `ospf export`.
  public var description: String {
    let suffix = instance == "master" ? "" : " in routing-instance \(instance)"
    let peer = neighbor.map { " neighbor \($0)" } ?? ""
    switch kind {
    case .bgpExport: return "export to \(groupKind) group \(name)\(peer)\(suffix)"
    case .bgpImport: return "import from \(groupKind) group \(name)\(peer)\(suffix)"
    case .igpExport: return "\(name) export\(suffix)"
    case .vrfImport: return "vrf-import of \(instance)"
    case .vrfExport: return "vrf-export of \(instance)"
    case .forwardingTable: return "forwarding-table export\(suffix)"
    }
  }
}

/// What a change does at one attachment point.
public struct AttachmentDifference: Sendable {
  /// The attachment point (as the new configuration has it).
  public var attachment: PolicyAttachment
  /// The chain before.
  public var before: [String]
  /// The chain after.
  public var after: [String]
  /// The routes decided differently.
  public var difference: PolicyDifference
}

extension ConfigContext {
  /// Every attachment point of the configuration with its effective chain (empty when only the
  /// default applies), BGP neighbors only where their chain is their own.
  func policyAttachments() -> [(PolicyAttachment, [String])] {
    var out: [(PolicyAttachment, [String])] = []
    for ri in model.instances {
      let base: [String] = ri.name == "master" ? [] : ["routing-instances", ri.name]
      func add(
        _ kind: PolicyAttachment.Kind, _ name: String, _ path: [String], _ chain: [String], neighbor: String? = nil, external: Bool = false,
        ebgp: Bool = false, scope: RouteScope = RouteScope(activeOnly: true)
      ) {
        let a = PolicyAttachment(
          kind: kind, instance: ri.name, name: name, neighbor: neighbor, external: external, ebgp: ebgp, scope: scope, path: path)
        out.append((a, chain))
      }
      for igp in ri.igps { add(.igpExport, igp.protocolName, base + ["protocols", igp.protocolName, "export"], igp.export) }
      // `vrf-target` makes the import and export policies implicitly; those are not modelled, so
      // such an instance's VRF policies are not compared.
      let vrfTarget = tree.children(of: ri.node).contains { tree.wordCount(of: $0) >= 1 && tree.word(0, of: $0) == "vrf-target" }
      if !vrfTarget && (ri.type == "vrf" || !ri.vrfImport.isEmpty || !ri.vrfExport.isEmpty) {
        add(.vrfImport, ri.name, base + ["vrf-import"], ri.vrfImport)
        add(.vrfExport, ri.name, base + ["vrf-export"], ri.vrfExport)
      }
      add(.forwardingTable, "", base + ["routing-options", "forwarding-table", "export"], ri.forwardingTableExport)
      guard let bgp = ri.bgp else { continue }
      for g in bgp.groups {
        let ext = isExternal(g, in: ri)
        let group = base + ["protocols", "bgp", "group", g.name]
        // An import sees the group's BGP routes only: external from eBGP peers, internal from iBGP.
        let type: Route.RouteType = isEBGP(g, in: ri) ? .external : .internal
        for (kind, keyword) in [(PolicyAttachment.Kind.bgpExport, "export"), (.bgpImport, "import")] {
          let own = kind == .bgpExport ? g.exportChain : g.importChain
          let inherited = kind == .bgpExport ? bgp.exportChain : bgp.importChain
          // The group's chain applies to the neighbors without one of their own.
          let plain = g.neighbors.filter { (kind == .bgpExport ? $0.exportChain : $0.importChain) == nil }
          func scope(_ from: [BGPNeighbor]) -> RouteScope {
            guard kind == .bgpImport else { return RouteScope(activeOnly: true) }
            return RouteScope(protocolName: "bgp", routeType: type, neighbors: from.compactMap { IPPrefix($0.address) }, activeOnly: true)
          }
          if g.neighbors.isEmpty || !plain.isEmpty {
            add(kind, g.name, group + [keyword], own ?? inherited ?? [], external: ext, ebgp: type == .external, scope: scope(plain))
          }
          for n in g.neighbors {
            if let chain = kind == .bgpExport ? n.exportChain : n.importChain {
              add(
                kind, g.name, group + ["neighbor", n.address, keyword], chain, neighbor: n.address, external: ext, ebgp: type == .external,
                scope: scope([n]))
            }
          }
        }
      }
    }
    return out
  }

  /// The policies `policy` calls as subroutines, directly or not.
  func subroutinesCalled(by policy: String) -> Set<String> {
    var out: Set<String> = []
    var queue = [policy]
    while let name = queue.popLast() {
      for t in model.policy.policies[name]?.terms ?? [] {
        for s in policyNames(t.from.subroutines) where out.insert(s).inserted { queue.append(s) }
      }
    }
    return out
  }

}

extension ChangeContext {
  /// The attachment points present on both sides whose decisions the change alters (computed
  /// once per change).
  func semanticPolicyDifferences() -> [AttachmentDifference] { semanticPolicies().differences }

  private func semanticPolicies() -> SemanticComparison.Result {
    ContextCache.value(cache.policies) { SemanticComparison.compare(before: before, after: after) }
  }

  /// What the semantic comparison says of a change to `policy` (`term` preferred for the
  /// example), for the rules that find the change by its text: `nil` when it cannot say (the
  /// policy is applied nowhere on both sides), else a clause to add to their message and whether
  /// some route is decided differently.
  func semanticEffect(ofPolicy policy: String, term: String) -> (changed: Bool, note: String)? {
    let r = semanticPolicies()
    var best: (DecisionChange, AttachmentDifference)?
    for d in r.differences where policyNames(d.after + d.before).contains(policy) || r.reaches(d, policy) {
      for c in d.difference.changes where c.kind != .undetermined && c.verified {
        let terms = [c.before.decision, c.after.decision].compactMap(\.term)
        if best == nil
          || terms.contains(TermRef(policy: policy, term: term))
            && !(best.map { b in
              [b.0.before.decision, b.0.after.decision].compactMap(\.term).contains(TermRef(policy: policy, term: term))
            } ?? false)
        {
          best = (c, d)
        }
      }
    }
    if let (c, d) = best {
      return (
        true,
        "; for example \(c.exampleText) at \(d.attachment.description): \(DecisionChange.decisionText(c.before)) before, \(DecisionChange.decisionText(c.after)) now"
      )
    }
    guard r.compared.contains(policy) else { return nil }
    if r.differences.contains(where: { policyNames($0.after + $0.before).contains(policy) }) { return nil }
    return (false, "; the semantic comparison finds no route decided differently where it is applied")
  }
}

extension RouteEvaluation.Decision {
  /// The term that decided, if one did.
  var term: TermRef? {
    switch self {
    case .accept(let t), .reject(let t), .unmodelled(let t, _): t
    case .defaultPolicy, .undefinedPolicy, .expression, .malformedChain: nil
    }
  }
}

/// The semantic comparison of two configurations: for every attachment point, the routes whose
/// decision a change alters (the symbolic comparison of `Docs/PolicySemantics.md`).
public enum SemanticComparison {
  /// Compares the policies of two configurations (given as written; groups are expanded here).
  ///
  /// - Parameters:
  ///   - roleRules: Interface roles (a group is external when a neighbor is on a client-facing
  ///     interface).
  ///   - everyAttachment: Compare every attachment point present on both sides, not only those
  ///     whose chain or what it reads changed (the result is the same; the benchmark times it).
  public static func policies(
    before: ConfigTree, after: ConfigTree, roleRules: RoleRules = RoleRules(), everyAttachment: Bool = false
  ) -> [AttachmentDifference] {
    let options = LintOptions(roleRules: roleRules)
    let a = Checklist.context(before, primary: nil, sources: [], options: options, bringUp: false)
    let b = Checklist.context(after, primary: nil, sources: [], options: options, bringUp: false)
    return compare(before: a, after: b, everyAttachment: everyAttachment).differences
  }

  /// The number of attachment points of a configuration (given as written).
  public static func attachmentCount(of tree: ConfigTree) -> Int {
    Checklist.context(tree, primary: nil, sources: [], options: LintOptions(), bringUp: false).policyAttachments().count
  }

  static func differences(before: ConfigContext, after: ConfigContext) -> [AttachmentDifference] {
    compare(before: before, after: after).differences
  }

  /// The differences, and the policies (with the subroutines they call) of the attachment points
  /// present on both sides.
  struct Result: Sendable {
    var differences: [AttachmentDifference]
    var compared: Set<String>
    var subroutines: [String: Set<String>]

    /// Whether `policy` is called as a subroutine from the chains of `d`.
    func reaches(_ d: AttachmentDifference, _ policy: String) -> Bool {
      policyNames(d.before + d.after).contains { subroutines[$0]?.contains(policy) ?? false }
    }
  }

  static func compare(before: ConfigContext, after: ConfigContext, everyAttachment: Bool = false) -> Result {
    var old: [String: [String]] = [:]
    for (a, chain) in before.policyAttachments() { old[key(a)] = chain }
    var out = Result(differences: [], compared: [], subroutines: [:])
    var same = SameDefinitions(before.model.policy, after.model.policy)
    for (a, chain) in after.policyAttachments() {
      guard let was = old[key(a)] else { continue }
      for p in policyNames(chain + was) {
        out.compared.insert(p)
        let called = after.subroutinesCalled(by: p).union(before.subroutinesCalled(by: p))
        out.subroutines[p, default: []].formUnion(called)
        out.compared.formUnion(called)
      }
      if !everyAttachment && was == chain && policyNames(chain).allSatisfy({ same.same($0) }) { continue }
      let d = PolicyDifference.compare(
        old: before.model.policy, oldChain: was, new: after.model.policy, newChain: chain, attachment: a.defaultPolicy, scope: a.scope)
      if !d.changes.isEmpty { out.differences.append(AttachmentDifference(attachment: a, before: was, after: chain, difference: d)) }
    }
    return out
  }

  private static func key(_ a: PolicyAttachment) -> String {
    [a.kind.rawValue, a.instance, a.name, a.neighbor ?? ""].joined(separator: "\u{1}")
  }
}

/// Whether a policy means the same on both sides of a change, word for word: its terms, the
/// subroutines they call and the named sets they read (memoised per policy).
struct SameDefinitions {
  let old: PolicyOptions
  let new: PolicyOptions
  private var memo: [String: Bool] = [:]

  init(_ old: PolicyOptions, _ new: PolicyOptions) {
    self.old = old
    self.new = new
  }

  mutating func same(_ name: String) -> Bool {
    if let known = memo[name] { return known }
    memo[name] = true  // a subroutine cycle is compared once
    let result = compute(name)
    memo[name] = result
    return result
  }

  private mutating func compute(_ name: String) -> Bool {
    guard let a = old.policies[name], let b = new.policies[name] else { return old.policies[name] == nil && new.policies[name] == nil }
    return sameTerms(a.terms[...], b.terms[...])
  }

  /// Whether a route that reaches term `t` on both sides meets the same rest of the chain: `t`'s
  /// policy is a plain element of both chains, its terms from `t` on are the same, and so are the
  /// elements after it. (A term reached through a subroutine or an expression: `false`.)
  mutating func sameRemainder(from t: TermRef, oldChain: [String], newChain: [String]) -> Bool {
    guard let oe = parsePolicyChain(oldChain), let ne = parsePolicyChain(newChain),
      let i = oe.firstIndex(of: .policy(t.policy)), let j = ne.firstIndex(of: .policy(t.policy)),
      oe[(i + 1)...].elementsEqual(ne[(j + 1)...]), let a = old.policies[t.policy], let b = new.policies[t.policy],
      let x = a.terms.firstIndex(where: { $0.name == t.term }), let y = b.terms.firstIndex(where: { $0.name == t.term })
    else { return false }
    for name in oe[(i + 1)...].flatMap(\.policies) where !same(name) { return false }
    return sameTerms(a.terms[x...], b.terms[y...])
  }

  /// Whether two runs of terms are written the same, with the named sets and subroutines they read.
  private mutating func sameTerms(_ a: ArraySlice<PolicyTerm>, _ b: ArraySlice<PolicyTerm>) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
      guard x.name == y.name, x.from == y.from, x.to == y.to, x.then == y.then else { return false }
      for c in [x.from, x.to] {
        for l in c.prefixLists + c.prefixListFilters.map(\.name) + c.routeFilterLists {
          guard old.prefixLists[l] == new.prefixLists[l], old.routeFilterLists[l] == new.routeFilterLists[l],
            old.openPrefixLists.contains(l) == new.openPrefixLists.contains(l)
          else { return false }
        }
        for n in c.communities where old.communityDefinitions[n] != new.communityDefinitions[n] { return false }
        for n in c.asPaths where old.asPathExpressions[n] != new.asPathExpressions[n] || old.asPaths.contains(n) != new.asPaths.contains(n)
        {
          return false
        }
        for n in policyNames(c.subroutines) where !same(n) { return false }
      }
    }
    return true
  }
}

/// Semantic comparisons of one change, computed on first use.
final class ChangeCache: Sendable {
  let policies = Mutex<SemanticComparison.Result?>(nil)
  init() {}
}

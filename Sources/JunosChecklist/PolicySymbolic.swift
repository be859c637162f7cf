/// A product of class sets, one per part of a route: the routes whose every part is in its set.
struct RouteBox: Hashable, Sendable {
  var parts: [BitSet]

  /// Every route of `space`.
  init(_ space: RouteSpace) { parts = RoutePart.allCases.map { BitSet(count: space.count($0), full: true) } }

  var isEmpty: Bool { parts.contains { $0.isEmpty } }

  /// The routes of the box whose `part` is in `set`.
  func restricted(_ part: RoutePart, to set: BitSet) -> RouteBox {
    var r = self
    r.parts[part.rawValue] = parts[part.rawValue] & set
    return r
  }

  /// The routes in both boxes.
  func intersection(_ o: RouteBox) -> RouteBox {
    var r = self
    for i in parts.indices { r.parts[i] = parts[i] & o.parts[i] }
    return r
  }

  /// The first class of each part: the box's representative route's indices.
  var firstIndex: [Int]? {
    var out: [Int] = []
    for p in parts {
      guard let k = p.first else { return nil }
      out.append(k)
    }
    return out
  }
}

/// A set of routes that meet one chain the same way: their decision and the route-modifying
/// actions collected on the way.
struct SymbolicOutcome: Sendable {
  var box: RouteBox
  var decision: RouteEvaluation.Decision
  var actions: [String]
  /// The attributes an earlier matching term changed, when the run stopped (as the flow's).
  var changed: [TermCheck: TermRef] = [:]
}

/// The symbolic run of one policy chain over a ``RouteSpace``: the space cut into boxes, each
/// with the decision the concrete evaluator gives every route in it.
///
/// It follows ``PolicyOptions/evaluate(chain:route:attachment:)`` step for step (the same term
/// checks, in the same order, through ``PolicyOptions/evaluate(_:of:on:)``), on classes instead
/// of one route; each check is computed once per class of the part it reads.
final class SymbolicChain {
  let options: PolicyOptions
  let space: RouteSpace
  let attachment: DefaultPolicy
  /// Per term and check: the classes of the check's part that meet it, by the action a matching
  /// route filter gives (nil key for none), the classes that fail it, and the unmodelled ones.
  private var tables: [TableKey: CheckTable] = [:]

  private struct TableKey: Hashable {
    var policy: String
    var term: Int
    var check: Int
  }

  private struct CheckTable {
    var matched: [PolicyActions.Terminal?: BitSet] = [:]
    var failed: BitSet
    var unmodelled: [String: BitSet] = [:]
  }

  private struct Flow {
    var box: RouteBox
    var actions: [String]
    /// As ``RouteEvaluation``'s: the attributes an earlier matching term changed.
    var changed: [TermCheck: TermRef] = [:]
  }

  init(options: PolicyOptions, space: RouteSpace, attachment: DefaultPolicy) {
    self.options = options
    self.space = space
    self.attachment = attachment
  }

  /// The classes of the origin part the attachment point's default accepts.
  lazy var defaultAccepts = BitSet(count: space.origins.count) { k in attachment.accepts(space.route(.origin, k)) }

  /// The outcomes of `chain` over the routes of `scope`: disjoint boxes covering it.
  func run(chain: [String], over scope: RouteBox) -> [SymbolicOutcome] {
    guard let elements = parsePolicyChain(chain) else {
      return [SymbolicOutcome(box: scope, decision: .malformedChain(chain.joined(separator: " ")), actions: [])]
    }
    for element in elements {
      for name in element.policies where options.policies[name] == nil {
        return [SymbolicOutcome(box: scope, decision: .undefinedPolicy(name), actions: [])]
      }
    }
    var out: [SymbolicOutcome] = []
    var pending = [Flow(box: scope, actions: [])]
    for element in elements where !pending.isEmpty {
      var next: [Flow] = []
      switch element {
      case .policy(let name):
        for (flow, r) in run(options.policies[name]!, pending, depth: 0) {
          if case .decided(let d) = r {
            out.append(SymbolicOutcome(box: flow.box, decision: d, actions: flow.actions, changed: flow.changed))
          } else {
            next.append(flow)
          }
        }
      case .expression(let e):
        for (flow, r) in expression(e, pending, depth: 0) {
          switch r {
          case .stop(let d): out.append(SymbolicOutcome(box: flow.box, decision: d, actions: flow.actions, changed: flow.changed))
          case .value(let v):
            if let d = v.decision(of: e) {
              out.append(SymbolicOutcome(box: flow.box, decision: d, actions: flow.actions, changed: flow.changed))
            } else {
              next.append(flow)
            }
          }
        }
      }
      pending = next
    }
    for flow in pending {
      for (box, accepts) in split(flow.box) {
        out.append(SymbolicOutcome(box: box, decision: .defaultPolicy(accepts: accepts), actions: flow.actions))
      }
    }
    return out
  }

  /// The non-empty parts of `box` the default accepts and rejects.
  private func split(_ box: RouteBox) -> [(RouteBox, Bool)] {
    var out: [(RouteBox, Bool)] = []
    for accepts in [true, false] {
      let part = box.restricted(.origin, to: accepts ? defaultAccepts : BitSet(count: space.origins.count, full: true) - defaultAccepts)
      if !part.isEmpty { out.append((part, accepts)) }
    }
    return out
  }

  /// Runs the flows through one policy: each resulting flow with what the policy did with it.
  private func run(_ policy: PolicyStatement, _ flows: [Flow], depth: Int) -> [(Flow, PolicyResult)] {
    var out: [(Flow, PolicyResult)] = []
    var flowing = flows
    for (index, term) in policy.terms.enumerated() where !flowing.isEmpty {
      let ref = TermRef(policy: policy.name, term: term.name)
      var next: [Flow] = []
      for flow in flowing {
        for (part, result) in match(policy, index, term, flow, depth: depth) {
          switch result {
          case .failed: next.append(part)
          case .unmodelled(let keyword): out.append((part, .decided(.unmodelled(ref, condition: keyword))))
          case .matched(_, let filterAction):
            var matched = part
            matched.actions += term.then.modifications
            for check in term.then.changedChecks where matched.changed[check] == nil { matched.changed[check] = ref }
            switch filterAction ?? term.then.terminal {
            case .accept: out.append((matched, .decided(.accept(ref))))
            case .reject: out.append((matched, .decided(.reject(ref))))
            case .nextPolicy: out.append((matched, .nextPolicy))
            case .nextTerm, nil: next.append(matched)
            }
          }
        }
      }
      flowing = next
    }
    return out + flowing.map { ($0, .fellThrough) }
  }

  /// The values of one policy's results, as ``PolicyResult/value(defaultAccepts:)`` gives them
  /// (the flows that fell through split by the default).
  private func values(_ results: [(Flow, PolicyResult)]) -> [(Flow, ExpressionResult)] {
    var out: [(Flow, ExpressionResult)] = []
    for (f, r) in results {
      guard case .fellThrough = r else {
        out.append((f, r.value(defaultAccepts: false)))
        continue
      }
      for (box, accepts) in split(f.box) {
        var g = f
        g.box = box
        out.append((g, r.value(defaultAccepts: accepts)))
      }
    }
    return out
  }

  /// A policy expression over the flows, short-circuit and left to right as the concrete
  /// evaluator runs it.
  private func expression(_ e: PolicyExpression, _ flows: [Flow], depth: Int) -> [(Flow, ExpressionResult)] {
    switch e {
    case .policy(let name):
      guard let p = options.policies[name] else { return flows.map { ($0, .stop(.undefinedPolicy(name))) } }
      guard depth < 16 else {
        return flows.map { ($0, .stop(.unmodelled(TermRef(policy: name, term: ""), condition: "policy nesting deeper than 16"))) }
      }
      return values(run(p, flows, depth: depth + 1))
    case .not(let x):
      return expression(x, flows, depth: depth).map { ($0.0, $0.1.negated) }
    case .and(let a, let b), .or(let a, let b):
      let isAnd = if case .and = e { true } else { false }
      var out: [(Flow, ExpressionResult)] = []
      var rest: [Flow] = []
      for (f, r) in expression(a, flows, depth: depth) {
        if case .value(let v) = r, v.value == isAnd { rest.append(f) } else { out.append((f, r)) }
      }
      return rest.isEmpty ? out : out + expression(b, rest, depth: depth)
    }
  }

  /// How the routes of `flow` meet one term: the flow cut into parts, each with the term's
  /// verdict on it (as ``ConcreteMatch``; reasons are left empty).
  private func match(_ policy: PolicyStatement, _ index: Int, _ term: PolicyTerm, _ flow: Flow, depth: Int) -> [(Flow, ConcreteMatch)] {
    var out: [(Flow, ConcreteMatch)] = []
    var live: [(Flow, PolicyActions.Terminal?)] = [(flow, nil)]
    for (k, check) in TermCheck.allCases.enumerated() where check.applies(to: term) {
      if check == .unsupported {
        let keyword: String
        if case .unmodelled(let w) = options.evaluate(
          check, of: term, on: space.route([Int](repeating: 0, count: RoutePart.allCases.count)))
        {
          keyword = w
        } else {
          keyword = ""
        }
        return out + live.map { ($0.0, .unmodelled(keyword)) }
      }
      if check == .subroutine {
        var met: [(Flow, PolicyActions.Terminal?)] = []
        for (f, _) in live {
          for (part, verdict) in subroutines(term.from.subroutines, f, depth: depth) {
            switch verdict {
            case .matched: met.append((part, nil))
            default: out.append((part, verdict))
            }
          }
        }
        live = met
        continue
      }
      guard let part = check.part else { continue }
      let table = self.table(policy, index, term, check, k)
      var met: [(Flow, PolicyActions.Terminal?)] = []
      for (f, _) in live {
        if let by = f.changed[check] {
          out.append((f, .unmodelled(check.changedKeyword(by: by))))
          continue
        }
        for (action, set) in table.matched.sorted(by: { ($0.key?.rawValue ?? "") < ($1.key?.rawValue ?? "") }) {
          var g = f
          g.box = f.box.restricted(part, to: set)
          if !g.box.isEmpty { met.append((g, action)) }
        }
        var failed = f
        failed.box = f.box.restricted(part, to: table.failed)
        if !failed.box.isEmpty { out.append((failed, .failed(check))) }
        for (keyword, set) in table.unmodelled.sorted(by: { $0.key < $1.key }) {
          var u = f
          u.box = f.box.restricted(part, to: set)
          if !u.box.isEmpty { out.append((u, .unmodelled(keyword))) }
        }
      }
      live = met
    }
    return out + live.map { ($0.0, .matched(.kind, $0.1)) }
  }

  /// `from policy [ A ( B && ! C ) ]` over a flow: each element in turn (ORed), as the concrete
  /// evaluator does.
  private func subroutines(_ words: [String], _ flow: Flow, depth: Int) -> [(Flow, ConcreteMatch)] {
    guard let elements = parsePolicyChain(words) else { return [(flow, .unmodelled("policy expression"))] }
    var out: [(Flow, ConcreteMatch)] = []
    var undecided = [flow]
    for element in elements where !undecided.isEmpty {
      if let name = element.policies.first(where: { options.policies[$0] == nil || depth >= 16 }) {
        return out + undecided.map { ($0, .unmodelled("policy \(name)")) }
      }
      let results: [(Flow, ExpressionResult)]
      switch element {
      case .policy(let name): results = values(run(options.policies[name]!, undecided, depth: depth + 1))
      case .expression(let e): results = expression(e, undecided, depth: depth)
      }
      var no: [Flow] = []
      for (f, r) in results {
        switch r {
        case .stop(.unmodelled(_, let k)): out.append((f, .unmodelled(k)))
        case .stop: out.append((f, .unmodelled("policy \(element.policies.joined(separator: " "))")))
        case .value(let v):
          if v.value { out.append((f, .matched(.kind, nil))) } else { no.append(f) }
        }
      }
      undecided = no
    }
    return out + undecided.map { ($0, .failed(.subroutine)) }
  }

  /// The check's verdict on every class of its part, computed once.
  private func table(_ policy: PolicyStatement, _ index: Int, _ term: PolicyTerm, _ check: TermCheck, _ k: Int) -> CheckTable {
    let key = TableKey(policy: policy.name, term: index, check: k)
    if let t = tables[key] { return t }
    let part = check.part!
    let n = space.count(part)
    var t = CheckTable(failed: BitSet(count: n, full: false))
    for c in 0..<n {
      switch options.evaluate(check, of: term, on: space.route(part, c)) {
      case .matched(_, let action): t.matched[action, default: BitSet(count: n, full: false)].insert(c)
      case .failed: t.failed.insert(c)
      case .unmodelled(let w): t.unmodelled[w, default: BitSet(count: n, full: false)].insert(c)
      }
    }
    tables[key] = t
    return t
  }
}

public import JunosChecklist

/// What `compare --semantic` prints: per attachment point, the routes a change decides
/// differently (Docs/PolicySemantics.md), and per filter attachment the packets it does
/// (Docs/FilterSemantics.md), as text or as JSON (format `junoscope.semantic`, version 1;
/// Docs/JSON.md).
public enum SemanticReport {
  /// The JSON format's name (the `format` member).
  public static let format = "junoscope.semantic"
  /// The JSON format's version.
  public static let version = 1

  /// Text: a block per attachment point, a paragraph per set of routes with its example route
  /// and the terms it meets on both sides; a last line with the count.
  public static func text(_ differences: [AttachmentDifference], filters: [FilterAttachmentDiff], old: String, new: String) -> String {
    var out = ""
    for d in differences {
      let chains = d.before == d.after ? chainText(d.after) : "\(chainText(d.before)) -> \(chainText(d.after))"
      out += "\(d.attachment.description), \(chains):\n"
      for c in d.difference.changes {
        out += "  \(verb(c.kind)) \(c.routesText())\n"
        out += "    example \(c.exampleText)\n"
        out += "    before: \(DecisionChange.decisionText(c.before))\(actionsText(c.before))\n"
        out += "            \(traceText(c.before))\n"
        out += "    after:  \(DecisionChange.decisionText(c.after))\(actionsText(c.after))\n"
        out += "            \(traceText(c.after))\n"
        if !c.verified { out += "    (the concrete evaluator disagrees with the symbolic comparison here: please report it)\n" }
      }
      for limit in d.difference.limits { out += "  note: \(limit)\n" }
    }
    for f in filters { out += "filter at " + f.text + "\n" }
    let n = differences.count
    let m = filters.count
    let maybe = differences.allSatisfy { $0.difference.changes.allSatisfy { $0.kind == .undetermined } } ? " or may (not modelled)" : ""
    out +=
      n == 0
      ? "no attachment point decides any route differently"
      : "\(n) attachment point\(n == 1 ? "" : "s") decide\(n == 1 ? "s" : "") routes differently\(maybe)"
    out +=
      m == 0
      ? ", no filter decides any packet differently"
      : "; \(m) filter attachment\(m == 1 ? "" : "s") decide\(m == 1 ? "s" : "") packets differently"
    out += " between \(old) and \(new)\n"
    return out
  }

  /// Pretty JSON with a final newline.
  public static func json(_ differences: [AttachmentDifference], filters: [FilterAttachmentDiff], old: String, new: String) -> [UInt8] {
    let root: JSONTree = .object([
      ("format", .string(format)), ("version", .int(version)), ("old", .string(old)), ("new", .string(new)),
      ("policies", .array(differences.map(attachment))), ("filters", .array(filters.map(filter))),
    ])
    return Array(root.pretty.utf8)
  }

  private static func filter(_ f: FilterAttachmentDiff) -> JSONTree {
    let r = f.record
    func term(_ t: FilterTermRef?) -> JSONTree {
      t.map { .object([("filter", .string($0.filter)), ("term", .string($0.term))]) } ?? .null
    }
    return .object([
      ("unit", .string(r.unit)), ("family", .string(r.family)), ("direction", .string(r.direction)),
      ("before", .array(r.oldFilters.map { .string($0) })), ("after", .array(r.newFilters.map { .string($0) })),
      (
        "changes",
        .array(
          zip(r.changes, f.changes).map { c, full in
            .object([
              ("region", .string(c.region)), ("example", .string(c.example)), ("before", .string(c.oldVerdict.rawValue)),
              ("beforeTerm", term(c.oldTerm)), ("after", .string(c.newVerdict.rawValue)), ("afterTerm", term(c.newTerm)),
              ("verified", .bool(full.reproduces)),
            ])
          })
      ),
    ])
  }

  private static func attachment(_ d: AttachmentDifference) -> JSONTree {
    let a = d.attachment
    return .object([
      ("kind", .string(a.kind.rawValue)), ("instance", .string(a.instance)), ("name", .string(a.name)),
      ("neighbor", a.neighbor.map { .string($0) } ?? .null), ("external", .bool(a.external)),
      ("description", .string(a.description)), ("path", .string(a.path.joined(separator: " "))),
      ("before", .array(d.before.map { .string($0) })), ("after", .array(d.after.map { .string($0) })),
      ("classesCompared", .int(d.difference.classesCompared)),
      ("changes", .array(d.difference.changes.map(change))),
      ("limits", .array(d.difference.limits.map { .string($0) })),
    ])
  }

  private static func change(_ c: DecisionChange) -> JSONTree {
    let r = c.example
    let tag: JSONTree = r.tag.map { .int(Int($0)) } ?? .null
    let rib: JSONTree = r.rib.map { .string($0) } ?? .null
    let example: JSONTree = .object([
      ("prefix", .string("\(r.prefix)")), ("protocol", .string(r.protocolName)),
      ("routeType", r.routeType.map { .string($0.rawValue) } ?? .null), ("active", .bool(r.isActive)),
      ("neighbor", r.neighbor.map { .string($0.addressText) } ?? .null),
      ("communities", .array(r.communities.map { .string($0) })),
      ("asPath", .array(r.asPath.map { .int(Int($0)) })),
      ("tag", tag), ("rib", rib),
    ])
    return .object([
      ("kind", .string(c.kind.rawValue)), ("prefixes", .array(c.prefixes.map { .string($0) })),
      ("origins", .array(c.origins.map { .string($0) })), ("attributes", .array(c.attributes.map { .string($0) })),
      ("classes", .int(c.classes)), ("example", example),
      ("before", evaluation(c.before)), ("after", evaluation(c.after)), ("verified", .bool(c.verified)),
    ])
  }

  private static func evaluation(_ e: RouteEvaluation) -> JSONTree {
    let decision: (String, TermRef?) =
      switch e.decision {
      case .accept(let t): ("accept", t)
      case .reject(let t): ("reject", t)
      case .defaultPolicy(let a): (a ? "default-accept" : "default-reject", nil)
      case .unmodelled(let t, _): ("unmodelled", t)
      case .undefinedPolicy: ("undefined-policy", nil)
      case .expression(_, let a): (a ? "expression-accept" : "expression-reject", nil)
      case .malformedChain: ("malformed-chain", nil)
      }
    return .object([
      ("decision", .string(decision.0)), ("policy", decision.1.map { .string($0.policy) } ?? .null),
      ("term", decision.1.map { .string($0.term) } ?? .null), ("text", .string(DecisionChange.decisionText(e))),
      ("actions", .array(e.actions.map { .string($0) })),
      (
        "trace",
        .array(
          e.trace.map {
            .object([
              ("policy", .string($0.term.policy)), ("term", .string($0.term.term)), ("matched", .bool($0.matched)),
              ("reason", .string($0.reason)),
            ])
          })
      ),
    ])
  }

  /// `no policy`, `P`, `( A && B )`, or `[ A B ]` for a chain of several elements.
  private static func chainText(_ chain: [String]) -> String {
    guard let elements = parsePolicyChain(chain) else { return chain.joined(separator: " ") }
    if elements.isEmpty { return "no policy" }
    let text = elements.map(\.description).joined(separator: " ")
    return elements.count == 1 ? text : "[ \(text) ]"
  }

  private static func verb(_ k: DecisionChange.Kind) -> String {
    switch k {
    case .nowAccepts: "now accepts"
    case .nowRejects: "now rejects"
    case .attributesChanged: "now sets different attributes on"
    case .undetermined: "may decide differently (not modelled)"
    }
  }

  private static func actionsText(_ e: RouteEvaluation) -> String {
    e.actions.isEmpty || e.accepted != true ? "" : ", then \(e.actions.joined(separator: ", "))"
  }

  private static func traceText(_ e: RouteEvaluation) -> String {
    guard !e.trace.isEmpty else { return "(no term reached)" }
    return e.trace.map { v in "\(v.term): \(v.matched ? "matched" : "not matched")\(v.reason.isEmpty ? "" : " (\(v.reason))")" }
      .joined(separator: "; ")
  }
}

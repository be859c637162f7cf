public import JunosConfig

/// A region of header space whose verdict differs between two filter chains, with one packet
/// of it run through both chains.
public struct FilterRegionChange: Sendable {
  /// The region in words (`source 10.12.99.9/32, protocol 17, destination-port 3784`): each
  /// field is a set of atoms, an address atom being a prefix outside the more specific prefixes
  /// the filters name.
  public var region: String
  /// A packet of the region.
  public var example: Packet
  /// What the old chain decides for the region (symbolic).
  public var oldVerdict: FilterVerdict
  /// The old chain's deciding term (`nil`: the implicit discard).
  public var oldTerm: FilterTermRef?
  /// What the new chain decides for the region (symbolic).
  public var newVerdict: FilterVerdict
  /// The new chain's deciding term.
  public var newTerm: FilterTermRef?
  /// The concrete evaluator's run of ``example`` through the old chain.
  public var oldRun: FilterEvaluation
  /// The concrete evaluator's run of ``example`` through the new chain.
  public var newRun: FilterEvaluation
  let space: HeaderSpace
  let cube: [BitSet]

  /// Whether the verdicts are both known (neither side reaches an unmodelled term).
  public var isDetermined: Bool { oldVerdict != .unmodelled && newVerdict != .unmodelled }

  /// Whether the concrete runs of the example give the symbolic verdicts and terms (a
  /// mismatch is a bug).
  public var reproduces: Bool {
    oldRun.verdict == oldVerdict && oldRun.term == oldTerm && newRun.verdict == newVerdict && newRun.term == newTerm
  }

  /// Whether `packet` lies in the region.
  public func contains(_ packet: Packet) -> Bool { space.contains(cube, packet) }

  /// `source 10.12.99.9/32, …: accept (term BFD) → discard (the implicit discard), e.g. udp …`.
  public var text: String {
    func side(_ v: FilterVerdict, _ t: FilterTermRef?) -> String {
      "\(v.rawValue) (\(t.map { "filter \($0.filter) term \($0.term)" } ?? "implicit discard"))"
    }
    return "\(region): \(side(oldVerdict, oldTerm)) → \(side(newVerdict, newTerm)), e.g. \(example)"
  }

  /// The change as plain values, for JSON.
  public var record: FilterChangeRecord {
    FilterChangeRecord(
      region: region, example: example.description, oldVerdict: oldVerdict, oldTerm: oldTerm, newVerdict: newVerdict, newTerm: newTerm)
  }
}

/// ``FilterRegionChange`` as plain values.
public struct FilterChangeRecord: Sendable, Hashable, Codable {
  /// The region in words.
  public var region: String
  /// The example packet in words.
  public var example: String
  /// The old verdict.
  public var oldVerdict: FilterVerdict
  /// The old deciding term (`nil`: the implicit discard).
  public var oldTerm: FilterTermRef?
  /// The new verdict.
  public var newVerdict: FilterVerdict
  /// The new deciding term.
  public var newTerm: FilterTermRef?
}

/// How the filters applied at one place (`lo0.0 family inet input`) changed what they let
/// through.
public struct FilterAttachmentDiff: Sendable {
  /// The attachment (interface unit, family, direction).
  public var attachment: FilterAttachment
  /// The filters applied before (empty: none).
  public var oldFilters: [String]
  /// The filters applied after (empty: none).
  public var newFilters: [String]
  /// The regions whose verdict changes (or cannot be told), in the old chain's term order.
  public var changes: [FilterRegionChange]

  /// A heading line and one line per region.
  public var text: String {
    func names(_ f: [String]) -> String { f.isEmpty ? "no filter" : f.joined(separator: " ") }
    var lines = [
      "\(attachment.key): \(names(oldFilters)) → \(names(newFilters)): \(changes.count) region\(changes.count == 1 ? "" : "s") change"
    ]
    lines += changes.map { "  " + ($0.isDetermined ? "" : "(not modelled) ") + $0.text }
    return lines.joined(separator: "\n")
  }

  /// The difference as plain values, for JSON.
  public var record: FilterAttachmentRecord {
    FilterAttachmentRecord(
      unit: attachment.unit, family: attachment.family, direction: attachment.direction, oldFilters: oldFilters, newFilters: newFilters,
      changes: changes.map(\.record))
  }
}

/// ``FilterAttachmentDiff`` as plain values.
public struct FilterAttachmentRecord: Sendable, Hashable, Codable {
  /// `lo0.0`.
  public var unit: String
  /// `inet`, `inet6`.
  public var family: String
  /// `input` or `output`.
  public var direction: String
  /// The filters before.
  public var oldFilters: [String]
  /// The filters after.
  public var newFilters: [String]
  /// The regions that change.
  public var changes: [FilterChangeRecord]
}

/// Compares firewall filters by what they do to packets (Docs/FilterSemantics.md).
public enum FirewallComparison {
  /// The chain applied where nothing is: every packet accepted.
  static func noFilter(_ family: String) -> FilterChain {
    let t = FilterTerm(
      name: "(none)", node: ConfigTree.root, match: FilterMatch(), action: .accept, modifiers: [], unmodelledActions: [], nestedFilter: nil)
    return FilterChain(family: family, filters: [], terms: [ChainTerm(filter: "(no filter)", term: t, via: nil)])
  }

  static func family(_ name: String) -> IPPrefix.Family? { name == "inet" ? .inet : name == "inet6" ? .inet6 : nil }

  /// The regions of `within` where `old` and `new` decide differently, or where either cannot be
  /// told (an unmodelled term; a region where both end in the same unmodelled term, with the same
  /// unmodelled conditions and the same terms after it, is taken as unchanged). Each region's example is re-run through
  /// both chains by the concrete evaluator (``FilterRegionChange/reproduces``).
  public static func compare(old: FilterChain, new: FilterChain, within: PacketSet = .all) -> [FilterRegionChange] {
    SymbolicDiff(old: old, new: new, regions: [within])?.changes(within: within) ?? []
  }

  /// The pieces `chain` cuts `within` into, with the verdict and deciding term of each and an
  /// example packet: what one filter does, region by region.
  public static func regions(of chain: FilterChain, within: PacketSet = .all) -> [(
    region: String, example: Packet, verdict: FilterVerdict, term: FilterTermRef?
  )] {
    guard let fam = family(chain.family) else { return [] }
    let space = HeaderSpace(family: fam, chains: [chain], regions: [within])
    return space.partition(chain, space.cube(within)).map { (space.describe($0.cube), space.example($0.cube), $0.verdict, $0.term) }
  }

  /// Every attachment of an IPv4 or IPv6 filter in either configuration (effective trees) whose
  /// chain lets a different set of packets through, one difference per attachment. No filter
  /// applied counts as accepting every packet; an attachment naming an undefined filter is left
  /// out (Junos would not commit it).
  public static func compare(old: ConfigTree, new: ConfigTree) -> [FilterAttachmentDiff] {
    // A unit that is gone (or new) has no packets to decide: not a filter that accepts them all.
    func exists(_ tree: ConfigTree, _ unit: String) -> Bool {
      let (ifd, u) = RouterModel.split(unit)
      return tree.descendWords(["interfaces", ifd, "unit", u]) != nil
    }
    return compare(old: FirewallConfig(tree: old), new: FirewallConfig(tree: new)).filter { d in
      (!d.oldFilters.isEmpty || exists(old, d.attachment.unit)) && (!d.newFilters.isEmpty || exists(new, d.attachment.unit))
    }
  }

  /// ``compare(old:new:)-(ConfigTree,ConfigTree)`` on two router models.
  public static func compare(old: RouterModel, new: RouterModel) -> [FilterAttachmentDiff] { compare(old: old.tree, new: new.tree) }

  /// ``compare(old:new:)-(ConfigTree,ConfigTree)`` on parsed firewall configurations.
  public static func compare(old: FirewallConfig, new: FirewallConfig) -> [FilterAttachmentDiff] {
    var keys: [String] = []
    var byKey: [String: (FilterAttachment?, FilterAttachment?)] = [:]
    for a in old.attachments where family(a.family) != nil {
      if byKey[a.key] == nil { keys.append(a.key) }
      byKey[a.key, default: (nil, nil)].0 = a
    }
    for a in new.attachments where family(a.family) != nil {
      if byKey[a.key] == nil { keys.append(a.key) }
      byKey[a.key, default: (nil, nil)].1 = a
    }
    var out: [FilterAttachmentDiff] = []
    for k in keys {
      let (o, n) = byKey[k]!
      let any = (n ?? o)!
      guard o?.filters != n?.filters || o.map({ chainsDiffer(old, new, $0) }) == true else { continue }
      let oc: FilterChain? = o.map { old.chain($0.filters, family: $0.family) } ?? noFilter(any.family)
      let nc: FilterChain? = n.map { new.chain($0.filters, family: $0.family) } ?? noFilter(any.family)
      guard let oc, let nc else { continue }
      let changes = compare(old: oc, new: nc)
      guard !changes.isEmpty else { continue }
      out.append(FilterAttachmentDiff(attachment: any, oldFilters: o?.filters ?? [], newFilters: n?.filters ?? [], changes: changes))
    }
    return out
  }

  /// Whether any filter of the attachment (or a filter nested in one) is written differently in
  /// the two configurations.
  static func chainsDiffer(_ old: FirewallConfig, _ new: FirewallConfig, _ a: FilterAttachment) -> Bool {
    guard let x = old.chain(a.filters, family: a.family), let y = new.chain(a.filters, family: a.family) else { return true }
    guard x.terms.count == y.terms.count else { return true }
    for (s, t) in zip(x.terms, y.terms) where s.ref != t.ref || !sameTerm(s.term, t.term) { return true }
    return false
  }

  /// Whether two terms decide alike: the same conditions and the same actions that decide
  /// (counters and logging aside).
  static func sameTerm(_ a: FilterTerm, _ b: FilterTerm) -> Bool {
    a.action == b.action && a.unmodelledActions == b.unmodelledActions && a.match == b.match
  }
}

/// Two chains partitioned once over a header space cut for several regions (the flows of a
/// router), and the pairs of pieces whose verdicts differ: asking about each region is then an
/// intersection, not a new comparison.
struct SymbolicDiff {
  let space: HeaderSpace
  let old: FilterChain
  let new: FilterChain
  let pairs: [(old: SymbolicPiece, new: SymbolicPiece, cube: [BitSet])]

  init?(old: FilterChain, new: FilterChain, regions: [PacketSet]) {
    guard let fam = FirewallComparison.family(new.family) else { return nil }
    space = HeaderSpace(family: fam, chains: [old, new], regions: regions)
    self.old = old
    self.new = new
    let all = space.full
    let a = space.partition(old, all)
    let b = space.partition(new, all)
    // Intersections by the pair of outcomes they have (verdicts, terms, unmodelled conditions).
    var groups: [(old: SymbolicPiece, new: SymbolicPiece, cubes: [[BitSet]])] = []
    var groupIndex: [String: Int] = [:]
    for p in a {
      for q in b where p.verdict != q.verdict || p.verdict == .unmodelled {
        // Both stop at the same unmodelled term: unchanged only when the chains are the same from
        // that term on (packets the unmodelled condition would not match go on to the rest).
        if p.verdict == .unmodelled && q.verdict == .unmodelled && p.term == q.term && p.unmodelled == q.unmodelled
          && Self.sameFrom(p.term, old, new)
        {
          continue
        }
        let m = HeaderSpace.intersect(p.cube, q.cube)
        guard !HeaderSpace.isEmpty(m) else { continue }
        let key = "\(p.verdict) \(p.term?.description ?? "-") \(p.unmodelled) \(q.verdict) \(q.term?.description ?? "-") \(q.unmodelled)"
        if let k = groupIndex[key] {
          groups[k].cubes.append(m)
        } else {
          groupIndex[key] = groups.count
          groups.append((p, q, [m]))
        }
      }
    }
    pairs = groups.flatMap { g in HeaderSpace.merged(g.cubes).map { (g.old, g.new, $0) } }
  }

  /// Whether the two chains hold the same terms from `term` to their ends.
  static func sameFrom(_ term: FilterTermRef?, _ old: FilterChain, _ new: FilterChain) -> Bool {
    guard let term, let i = old.terms.firstIndex(where: { $0.ref == term }), let j = new.terms.firstIndex(where: { $0.ref == term }) else {
      return false
    }
    let x = old.terms[i...]
    let y = new.terms[j...]
    return x.count == y.count && zip(x, y).allSatisfy { $0.ref == $1.ref && FirewallComparison.sameTerm($0.term, $1.term) }
  }

  /// The changed regions inside `within` (one of the regions the space was cut for) whose
  /// verdicts `keep` selects, at most `limit` of them.
  func changes(
    within: PacketSet, limit: Int = .max, keep: (FilterVerdict, FilterVerdict) -> Bool = { _, _ in true }
  ) -> [FilterRegionChange] {
    let region = space.cube(within)
    var out: [FilterRegionChange] = []
    for (p, q, cube) in pairs where out.count < limit && keep(p.verdict, q.verdict) {
      let m = HeaderSpace.intersect(cube, region)
      guard !HeaderSpace.isEmpty(m) else { continue }
      let e = space.example(m)
      out.append(
        FilterRegionChange(
          region: space.describe(m), example: e, oldVerdict: p.verdict, oldTerm: p.term, newVerdict: q.verdict, newTerm: q.term,
          oldRun: old.evaluate(e), newRun: new.evaluate(e), space: space, cube: m))
    }
    return out
  }
}

/// One chain partitioned once over a header space cut for several regions.
struct SymbolicPartition {
  let space: HeaderSpace
  let pieces: [SymbolicPiece]

  init?(_ chain: FilterChain, regions: [PacketSet]) {
    guard let fam = FirewallComparison.family(chain.family) else { return nil }
    space = HeaderSpace(family: fam, chains: [chain], regions: regions)
    pieces = space.partition(chain, space.full)
  }

  /// The first piece inside `within` whose verdict `keep` selects, with an example packet of
  /// that piece inside `within`.
  func first(within: PacketSet, _ keep: (FilterVerdict) -> Bool) -> (piece: SymbolicPiece, example: Packet)? {
    let region = space.cube(within)
    for p in pieces where keep(p.verdict) {
      let m = HeaderSpace.intersect(p.cube, region)
      if !HeaderSpace.isEmpty(m) { return (p, space.example(m)) }
    }
    return nil
  }
}

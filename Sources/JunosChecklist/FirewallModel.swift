public import JunosConfig

/// A set of integers as sorted, disjoint, non-adjacent closed ranges (ports, protocol numbers,
/// ICMP types, DSCP values, TCP flag bytes).
public struct IntRanges: Sendable, Hashable, CustomStringConvertible {
  /// The ranges, sorted, disjoint and not touching.
  public private(set) var ranges: [ClosedRange<Int>]

  /// The union of `ranges`, normalised.
  public init(_ ranges: [ClosedRange<Int>]) {
    var out: [ClosedRange<Int>] = []
    for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = out.last, r.lowerBound <= last.upperBound + 1 {
        out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
      } else {
        out.append(r)
      }
    }
    self.ranges = out
  }

  /// Whether `v` is in the set.
  public func contains(_ v: Int) -> Bool { ranges.contains { $0.contains(v) } }

  /// Whether the set is empty.
  public var isEmpty: Bool { ranges.isEmpty }

  /// The values in both sets.
  public func intersection(_ other: IntRanges) -> IntRanges {
    var out: [ClosedRange<Int>] = []
    for a in ranges {
      for b in other.ranges where a.overlaps(b) { out.append(max(a.lowerBound, b.lowerBound)...min(a.upperBound, b.upperBound)) }
    }
    return IntRanges(out)
  }

  /// The values of `domain` not in the set.
  public func complement(in domain: ClosedRange<Int>) -> IntRanges {
    var out: [ClosedRange<Int>] = []
    var next = domain.lowerBound
    for r in ranges {
      if r.lowerBound > next { out.append(next...min(r.lowerBound - 1, domain.upperBound)) }
      next = max(next, r.upperBound + 1)
    }
    if next <= domain.upperBound { out.append(next...domain.upperBound) }
    return IntRanges(out)
  }

  /// `22`, `1024-65535`, joined by commas.
  public var description: String {
    ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
  }
}

/// One entry of an address match condition: a prefix, and whether it is an `except` entry.
public struct AddressEntry: Sendable, Hashable {
  /// The prefix (host bits cleared).
  public var prefix: IPPrefix
  /// `except`: an address whose longest matching entry is this one does not match.
  public var except: Bool

  /// Creates an entry.
  public init(_ prefix: IPPrefix, except: Bool = false) {
    self.prefix = prefix.network
    self.except = except
  }

  /// Whether an address list matches `address`: its longest entry containing the address is
  /// not an `except` one (no entry: no match, the implicit `0/0 except`).
  public static func matches(_ entries: [AddressEntry], _ address: IPPrefix) -> Bool {
    var best: AddressEntry?
    for e in entries where e.prefix.family == address.family && e.prefix.contains(address) {
      if best == nil || e.prefix.length > best!.prefix.length || (e.prefix.length == best!.prefix.length && e.except) { best = e }
    }
    return best.map { !$0.except } ?? false
  }
}

/// The match conditions of a firewall filter term (its `from`). Conditions of different kinds
/// are ANDed; the values of one condition are ORed.
public struct FilterMatch: Sendable, Hashable {
  /// `source-address` and each `source-prefix-list` group: each list must match the source.
  public var source: [[AddressEntry]] = []
  /// `destination-address`, `destination-prefix-list`: each must match the destination.
  public var destination: [[AddressEntry]] = []
  /// `address`, `prefix-list`: each must match the source or the destination.
  public var either: [[AddressEntry]] = []
  /// `protocol` / `next-header` (and their `-except`), ANDed into one set.
  public var protocols: IntRanges?
  /// `source-port` (and `source-port-except`, `port-except`).
  public var sourcePorts: IntRanges?
  /// `destination-port` (and `destination-port-except`, `port-except`).
  public var destinationPorts: IntRanges?
  /// `port`: each must match the source or the destination port.
  public var eitherPorts: [IntRanges] = []
  /// `tcp-flags`, `tcp-established`, `tcp-initial`: the flag bytes (6 bits) that match.
  public var tcpFlags: IntRanges?
  /// `icmp-type` / `icmp6-type` (and `-except`).
  public var icmpTypes: IntRanges?
  /// `dscp` / `traffic-class` (and `-except`).
  public var dscp: IntRanges?
  /// Conditions not modelled (`fragment-flags`, `interface`, `packet-length`, …), as written:
  /// the term is `unmodelled` for a packet that passes every modelled condition.
  public var unmodelled: [String] = []

  /// Creates an empty match (every packet).
  public init() {}

  /// Whether no condition is given (the term matches every packet).
  public var isEmpty: Bool {
    source.isEmpty && destination.isEmpty && either.isEmpty && protocols == nil && sourcePorts == nil && destinationPorts == nil
      && eitherPorts.isEmpty && tcpFlags == nil && icmpTypes == nil && dscp == nil && unmodelled.isEmpty
  }
}

/// The terminating action of a firewall filter term.
public enum FilterAction: String, Sendable, Hashable, Codable {
  /// `accept` (also a term with no terminating action).
  case accept
  /// `discard`.
  case discard
  /// `reject`: discarded with an ICMP message.
  case reject
  /// `next term`: evaluation goes on.
  case nextTerm = "next term"
}

/// A term of a firewall filter, in order.
public struct FilterTerm: Sendable {
  /// The term's name.
  public var name: String
  /// The `term NAME` statement.
  public var node: NodeID
  /// Its match conditions.
  public var match: FilterMatch
  /// Its terminating action (`accept` when it has none: modifiers alone accept).
  public var action: FilterAction
  /// Non-terminating actions (`count C`, `log`, `policer P`), as written.
  public var modifiers: [String]
  /// Actions not modelled (`routing-instance`, `next-interface`, …): the term is `unmodelled`.
  public var unmodelledActions: [String]
  /// `filter NAME`: the term stands for the terms of that filter (one level deep).
  public var nestedFilter: String?
}

/// A firewall filter: `firewall family F filter NAME` or `firewall filter NAME` (family inet).
public struct FirewallFilter: Sendable {
  /// The filter's name.
  public var name: String
  /// `inet`, `inet6`, `any`, `ccc`, …
  public var family: String
  /// The `filter NAME` statement.
  public var node: NodeID
  /// Its terms, in order.
  public var terms: [FilterTerm]
}

/// Where a filter (or a list of filters) is applied: `interfaces X unit N family F filter input|output|input-list|output-list`.
public struct FilterAttachment: Sendable, Hashable {
  /// `lo0.0`.
  public var unit: String
  /// `inet`, `inet6`, …
  public var family: String
  /// `input` or `output` (a list is `input` or `output` too).
  public var direction: String
  /// The filters, in order (one for `input`; several for `input-list`).
  public var filters: [String]

  /// Creates an attachment.
  public init(unit: String, family: String, direction: String, filters: [String]) {
    self.unit = unit
    self.family = family
    self.direction = direction
    self.filters = filters
  }

  /// Whether this is the routing-engine filter: lo0's input filter.
  public var isRoutingEngine: Bool { direction == "input" && RouterModel.split(unit).ifd == "lo0" }

  /// `lo0.0 family inet input`: a key that names the attachment across two configurations.
  public var key: String { "\(unit) family \(family) \(direction)" }
}

/// The firewall filters of a configuration and where they are applied.
public struct FirewallConfig: Sendable {
  /// Filters by family, then name.
  public var filters: [String: [String: FirewallFilter]]
  /// Attachments, in interface order.
  public var attachments: [FilterAttachment]

  /// The filter `name` of `family`.
  public func filter(_ name: String, family: String) -> FirewallFilter? { filters[family]?[name] }

  /// The terms a packet meets through a list of filters: each filter's terms in order, a
  /// `filter NAME` term replaced by that filter's terms (one level). A filter that is not
  /// defined, or nesting deeper than one level, gives `nil`.
  public func chain(_ names: [String], family: String) -> FilterChain? {
    var terms: [ChainTerm] = []
    for n in names {
      guard let f = filter(n, family: family) else { return nil }
      for t in f.terms {
        if let nested = t.nestedFilter {
          guard let inner = filter(nested, family: family) else { return nil }
          // Junos nests one level only: a deeper reference is not a chain it would commit.
          guard !inner.terms.contains(where: { $0.nestedFilter != nil }) else { return nil }
          for u in inner.terms {
            terms.append(ChainTerm(filter: inner.name, term: u, via: FilterTermRef(filter: f.name, term: t.name)))
          }
        } else {
          terms.append(ChainTerm(filter: f.name, term: t, via: nil))
        }
      }
    }
    return FilterChain(family: family, filters: names, terms: terms)
  }
}

/// Names a term: its filter and its name.
public struct FilterTermRef: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The filter that holds the term.
  public var filter: String
  /// The term's name.
  public var term: String

  /// Creates a reference.
  public init(filter: String, term: String) {
    self.filter = filter
    self.term = term
  }

  /// `filter F term T`.
  public var description: String { "filter \(filter) term \(term)" }
}

/// One term of a chain, with the filter it comes from.
public struct ChainTerm: Sendable {
  /// The filter whose term it is.
  public var filter: String
  /// The term.
  public var term: FilterTerm
  /// The `filter NAME` term of an outer filter that brought it in, if any.
  public var via: FilterTermRef?

  /// Its reference.
  public var ref: FilterTermRef { FilterTermRef(filter: filter, term: term.name) }
}

/// The terms a packet meets at an attachment, in order, ending in the implicit discard.
public struct FilterChain: Sendable {
  /// The family.
  public var family: String
  /// The filters, in order.
  public var filters: [String]
  /// Their terms, nested filters expanded.
  public var terms: [ChainTerm]
}

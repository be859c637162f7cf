public import JunosConfig

/// One concrete packet, as a firewall filter sees it. Every field is the header value at its
/// place whatever the protocol (Junos compares ports and TCP flags without checking the
/// protocol; Docs/FilterSemantics.md).
public struct Packet: Sendable, Hashable, CustomStringConvertible {
  /// The source address (a host prefix).
  public var source: IPPrefix
  /// The destination address (a host prefix).
  public var destination: IPPrefix
  /// The IP protocol (IPv4) or next header (IPv6) number.
  public var protocolNumber: Int
  /// The source port.
  public var sourcePort: Int
  /// The destination port.
  public var destinationPort: Int
  /// The TCP flags byte's six classic bits (fin 0x01, syn 0x02, rst 0x04, push 0x08, ack 0x10,
  /// urgent 0x20).
  public var tcpFlags: Int
  /// The ICMP (ICMPv6) type.
  public var icmpType: Int
  /// The DSCP value (0…63).
  public var dscp: Int

  /// Creates a packet.
  public init(
    source: IPPrefix, destination: IPPrefix, protocolNumber: Int, sourcePort: Int = 0, destinationPort: Int = 0, tcpFlags: Int = 0,
    icmpType: Int = 0, dscp: Int = 0
  ) {
    self.source = source
    self.destination = destination
    self.protocolNumber = protocolNumber
    self.sourcePort = sourcePort
    self.destinationPort = destinationPort
    self.tcpFlags = tcpFlags
    self.icmpType = icmpType
    self.dscp = dscp
  }

  /// The family of its addresses.
  public var family: IPPrefix.Family { source.family }

  /// `udp 10.0.12.2:49152 → 10.0.12.1:3784` (`[2001:db8::1]:49152` for IPv6), with flags,
  /// ICMP type and DSCP when set.
  public var description: String {
    let proto = FilterNames.protocols.first { $0.value == protocolNumber && $0.key != "icmpv6" }?.key ?? "proto \(protocolNumber)"
    func host(_ p: IPPrefix) -> String { p.family == .inet6 ? "[\(p.addressText)]" : p.addressText }
    var s = "\(proto) \(host(source)):\(sourcePort) → \(host(destination)):\(destinationPort)"
    if tcpFlags != 0 {
      s +=
        " flags "
        + FilterNames.tcpFlags.filter { tcpFlags & $0.value != 0 }.sorted { $0.value < $1.value }.map(\.key).joined(separator: ",")
    }
    if icmpType != 0 { s += " icmp-type \(icmpType)" }
    if dscp != 0 { s += " dscp \(dscp)" }
    return s
  }
}

/// What a filter chain decides for a packet.
public enum FilterVerdict: String, Sendable, Hashable, Codable {
  /// Accepted.
  case accept
  /// Discarded silently.
  case discard
  /// Discarded with an ICMP message.
  case reject
  /// A term the packet reaches has a condition or action that is not modelled.
  case unmodelled

  /// Whether the packet goes through (`unmodelled` is not known to).
  public var passes: Bool { self == .accept }
}

/// The outcome of a chain for one packet: the verdict, the term that gave it (`nil` for the
/// implicit discard at the end), and the terms that matched on the way (`next term` ones).
public struct FilterEvaluation: Sendable, Hashable {
  /// The verdict.
  public var verdict: FilterVerdict
  /// The deciding term; `nil` for the implicit discard.
  public var term: FilterTermRef?
  /// Every term that matched, in order, the deciding one last.
  public var trace: [FilterTermRef]

  /// `term BFD` / `the implicit discard at the end`.
  public var termText: String { term.map { "term \($0.term)" } ?? "the implicit discard" }
}

extension FilterMatch {
  /// Whether the packet passes every modelled condition (the unmodelled ones are not looked at).
  public func matchesModelled(_ p: Packet) -> Bool {
    for l in source where !AddressEntry.matches(l, p.source) { return false }
    for l in destination where !AddressEntry.matches(l, p.destination) { return false }
    for l in either where !AddressEntry.matches(l, p.source) && !AddressEntry.matches(l, p.destination) { return false }
    if let r = protocols, !r.contains(p.protocolNumber) { return false }
    if let r = sourcePorts, !r.contains(p.sourcePort) { return false }
    if let r = destinationPorts, !r.contains(p.destinationPort) { return false }
    for r in eitherPorts where !r.contains(p.sourcePort) && !r.contains(p.destinationPort) { return false }
    if let r = tcpFlags, !r.contains(p.tcpFlags & 0x3f) { return false }
    if let r = icmpTypes, !r.contains(p.icmpType) { return false }
    if let r = dscp, !r.contains(p.dscp) { return false }
    return true
  }
}

extension FilterTerm {
  /// Whether the term cannot be decided for a packet that passes its modelled conditions.
  public var isUnmodelled: Bool { !match.unmodelled.isEmpty || !unmodelledActions.isEmpty }
}

extension FilterChain {
  /// First match: terms in order; a matching term with `accept`, `discard` or `reject` (or with
  /// no terminating action: accept) decides, `next term` goes on; a matching term with an
  /// unmodelled condition or action gives `unmodelled`; no decision is the implicit discard.
  public func evaluate(_ p: Packet) -> FilterEvaluation {
    var trace: [FilterTermRef] = []
    for ct in terms {
      let t = ct.term
      guard t.match.matchesModelled(p) else { continue }
      trace.append(ct.ref)
      if t.isUnmodelled && (t.action != .nextTerm || !t.unmodelledActions.isEmpty) {
        return FilterEvaluation(verdict: .unmodelled, term: ct.ref, trace: trace)
      }
      switch t.action {
      case .nextTerm: continue
      case .accept: return FilterEvaluation(verdict: .accept, term: ct.ref, trace: trace)
      case .discard: return FilterEvaluation(verdict: .discard, term: ct.ref, trace: trace)
      case .reject: return FilterEvaluation(verdict: .reject, term: ct.ref, trace: trace)
      }
    }
    return FilterEvaluation(verdict: .discard, term: nil, trace: trace)
  }
}

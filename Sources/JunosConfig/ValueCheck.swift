internal import JunosSchema
internal import Synchronization

/// Whether a value is one a leaf's type accepts, as far as `commit check` of syntax goes: the
/// words of an enumeration, integers and decimals within their YANG ranges, IPv4/IPv6 addresses
/// and prefixes, MAC addresses, and strings within their length and Juniper's POSIX patterns
/// (`!` before a pattern: the value must not match it). Interface names and XSD patterns are not
/// checked. Answers of pattern checks are kept per type and value (up to 65,536), so a
/// configuration's thousand `community … members` of one form cost one match.
struct ValueChecker {
  let schema: JunosSchema
  private var answers: [Key: String?] = [:]
  /// What each type asked about so far says, read from the table once.
  private var facts: [SchemaValueType: Facts] = [:]

  /// A type's range or length (its text and its intervals) and its patterns.
  private struct Facts {
    var bounds: (text: String, ranges: [ClosedRange<Double>])?
    /// Juniper's POSIX patterns (`xsd:` ones left out), each with whether it is negated (`!`).
    var patterns: [(pattern: String, negated: Bool)]
    /// Whether checking the type runs a regular expression (its own patterns or a member's).
    var hasPatterns: Bool
  }

  private mutating func facts(_ t: SchemaValueType) -> Facts {
    if let known = facts[t] { return known }
    let text: String? =
      switch schema.kind(t) {
      case .string: schema.length(t)
      case .integer, .decimal: schema.range(t)
      default: nil
      }
    let bounds = text.flatMap { tx in Self.ranges(tx).map { (tx, $0) } }
    let patterns: [(pattern: String, negated: Bool)] =
      schema.kind(t) == .string
      ? schema.patterns(t).filter { !$0.hasPrefix("xsd:") }.map { $0.hasPrefix("!") ? (String($0.dropFirst()), true) : ($0, false) } : []
    var has = !patterns.isEmpty
    if schema.kind(t) == .union { has = schema.members(t).contains { facts($0).hasPatterns } }
    let f = Facts(bounds: bounds, patterns: patterns, hasPatterns: has)
    facts[t] = f
    return f
  }

  private struct Key: Hashable {
    var type: SchemaValueType
    var value: String
  }

  init(schema: JunosSchema) { self.schema = schema }

  /// `nil` when `value` (unquoted) is accepted; otherwise what the type expects, for a message
  /// ("an integer in 1 .. 65535", "one of: bgp, ospf, …").
  mutating func problem(_ value: String, type t: SchemaValueType) -> String? {
    // Only pattern checks are worth remembering: the rest costs less than the table would.
    guard facts(t).hasPatterns else { return check(value, t) }
    let key = Key(type: t, value: value)
    if let known = answers[key] { return known }
    let answer = check(value, t)
    // Bounded: a configuration's values are mostly distinct (names, addresses, descriptions).
    if answers.count >= 1 << 16 { answers.removeAll(keepingCapacity: true) }
    answers[key] = answer
    return answer
  }

  private mutating func check(_ v: String, _ t: SchemaValueType) -> String? {
    switch schema.kind(t) {
    case .string:
      return stringProblem(v, t)
    case .empty:
      return "no value"
    case .enumeration:
      let words = schema.enumeration(t)
      if words.contains(v) { return nil }
      let shown = words.prefix(8).joined(separator: ", ")
      return "one of: \(shown)\(words.count > 8 ? ", … (\(words.count) words)" : "")"
    case .integer:
      return numberProblem(v, t, integer: true)
    case .decimal:
      return numberProblem(v, t, integer: false)
    case .union:
      var expected: [String] = []
      for m in schema.members(t) {
        guard let p = check(v, m) else { return nil }
        if !expected.contains(p) { expected.append(p) }
      }
      return expected.isEmpty ? nil : expected.joined(separator: "; or ")
    case .ipv4Address:
      return IPPrefix.parseV4(Array(v.utf8)[...]) == nil ? "an IPv4 address" : nil
    case .ipv6Address:
      return Self.isIPv6Address(v) ? nil : "an IPv6 address"
    case .ipAddress:
      return IPPrefix.parseV4(Array(v.utf8)[...]) != nil || Self.isIPv6Address(v) ? nil : "an IP address"
    case .ipv4Prefix:
      return IPPrefix(v)?.family == .inet ? nil : "an IPv4 prefix"
    case .ipv6Prefix:
      return IPPrefix(v)?.family == .inet6 ? nil : "an IPv6 prefix"
    case .ipPrefix:
      return IPPrefix(v) != nil ? nil : "an IP prefix"
    case .macAddress:
      return Self.isMAC(v) ? nil : "a MAC address (00:11:22:33:44:55)"
    case .interfaceName, .ipAddressOrInterface:
      return nil
    }
  }

  /// An IPv6 address, with a `%zone` allowed.
  static func isIPv6Address(_ v: String) -> Bool {
    let u = Array(v.utf8)
    let end = u.firstIndex(of: UInt8(ascii: "%")) ?? u.count
    return IPPrefix.parseV6(u[..<end]) != nil
  }

  /// Six hex pairs separated by `:` (or `-`), or three groups of four hex digits separated by `.`.
  static func isMAC(_ v: String) -> Bool {
    func hex(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b | 0x20 >= 97 && b | 0x20 <= 102) }
    let u = Array(v.utf8)
    if u.count == 17 {
      return (0..<17).allSatisfy { i in i % 3 == 2 ? u[i] == u[2] && (u[i] == 58 || u[i] == 45) : hex(u[i]) }
    }
    if u.count == 14 {
      return (0..<14).allSatisfy { i in i % 5 == 4 ? u[i] == 46 : hex(u[i]) }
    }
    return false
  }

  private mutating func stringProblem(_ v: String, _ t: SchemaValueType) -> String? {
    let f = facts(t)
    if let (length, bounds) = f.bounds {
      let n = v.unicodeScalars.count
      if !bounds.contains(where: { Double(n) >= $0.lowerBound && Double(n) <= $0.upperBound }) {
        return "a string of \(length.replacing(" .. ", with: "–")) characters"
      }
    }
    for (pattern, negated) in f.patterns {
      guard let regex = regex(pattern) else { continue }
      let matches = (try? regex.firstMatch(in: v)) != nil
      if matches == negated {
        return negated ? "a value that does not match '\(pattern)'" : "a value matching '\(pattern)'"
      }
    }
    return nil
  }

  /// A POSIX pattern compiled once per process (compiling costs far more than matching, and a
  /// check of a small file would otherwise spend its time there); `nil` for one this engine
  /// cannot read (it is then skipped).
  private func regex(_ pattern: String) -> Regex<AnyRegexOutput>? {
    Self.compiled.withLock { cache in
      if let known = cache[pattern] { return known }
      let r = try? Regex(pattern)
      cache[pattern] = r
      return r
    }
  }

  /// Compiled patterns of every check in the process.
  private static let compiled = Mutex<[String: Regex<AnyRegexOutput>?]>([:])

  private mutating func numberProblem(_ v: String, _ t: SchemaValueType, integer: Bool) -> String? {
    let what = integer ? "an integer" : "a number"
    let value: Double?
    if integer {
      // Decimal digits, an optional sign; Junos also reads 0x hexadecimal.
      let u = Array(v.utf8)
      if u.count > 2, u[0] == 48, u[1] | 0x20 == 120 {
        value = UInt64(String(decoding: u[2...], as: UTF8.self), radix: 16).map(Double.init)
      } else {
        value = Int64(v).map(Double.init) ?? UInt64(v).map(Double.init)
      }
    } else {
      value = Double(v)
    }
    guard let x = value else { return what }
    guard let (r, bounds) = facts(t).bounds else { return nil }
    return bounds.contains { x >= $0.lowerBound && x <= $0.upperBound } ? nil : "\(what) in \(r)"
  }

  /// A YANG range or length (`1 .. 16 | 20`, `min .. 100`) as closed intervals; `nil` when it
  /// cannot be read.
  static func ranges(_ text: String) -> [ClosedRange<Double>]? {
    func bound(_ s: Substring) -> Double? {
      switch s.trimmingBlanks {
      case "min": -Double.greatestFiniteMagnitude
      case "max": Double.greatestFiniteMagnitude
      case let t: Double(t)
      }
    }
    var out: [ClosedRange<Double>] = []
    for part in text.split(separator: "|") {
      let r = part.firstRange(of: "..")
      guard let lo = bound(r.map { part[..<$0.lowerBound] } ?? part), let hi = bound(r.map { part[$0.upperBound...] } ?? part), lo <= hi
      else { return nil }
      out.append(lo...hi)
    }
    return out.isEmpty ? nil : out
  }
}

extension StringProtocol {
  /// Without blanks at either end.
  fileprivate var trimmingBlanks: String {
    var s = Substring(self)
    while s.first == " " || s.first == "\t" { s = s.dropFirst() }
    while s.last == " " || s.last == "\t" { s = s.dropLast() }
    return String(s)
  }
}

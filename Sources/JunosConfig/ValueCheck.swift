internal import JunosSchema
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Whether a value is one a leaf's type accepts, as far as `commit check` of syntax goes: the
/// words of an enumeration, integers and decimals within their YANG ranges, IPv4/IPv6 addresses
/// and prefixes, MAC addresses, and strings within their length and Juniper's POSIX patterns
/// (`!` before a pattern: the value must not match it). Interface names and XSD patterns are not
/// checked.
///
/// Values are read as UTF-8 bytes: only a pattern match and a message make a `String`. What a
/// type says is read from the table once per type; answers of pattern checks are kept per type
/// and value (up to 65,536), so a configuration's thousand `community … members` of one form
/// cost one match.
struct ValueChecker {
  let schema: JunosSchema
  /// Where each type's facts are in `known`, by type number; -1 before it is first asked about.
  private var factsAt: [Int32]
  private var known: [Facts] = []
  private var answers: [Key: String?] = [:]

  /// What the table says of one type.
  private struct Facts {
    var kind: ValueKind
    /// A string's length or a number's range: its text and its intervals.
    var bounds: (text: String, ranges: [ClosedRange<Double>])?
    /// Juniper's POSIX patterns (`xsd:` ones left out), each with whether it is negated (`!`).
    var patterns: [(pattern: String, negated: Bool)] = []
    /// Whether checking the type runs a regular expression (its own patterns or a member's).
    var hasPatterns = false
    /// An enumeration's words.
    var words: [[UInt8]] = []
    /// A union's members.
    var members: [SchemaValueType] = []
  }

  private struct Key: Hashable {
    var type: UInt32
    /// Bytes of the tree's storage (alive while the check runs) or of an unescaped copy.
    var value: ArraySlice<UInt8>
  }

  init(schema: JunosSchema) {
    self.schema = schema
    factsAt = Array(repeating: -1, count: schema.valueTypeCount)
  }

  /// The facts of a type, by their index in `known`.
  private mutating func facts(_ t: SchemaValueType) -> Int {
    let at = factsAt[Int(t.number)]
    if at >= 0 { return Int(at) }
    let kind = schema.kind(t)
    var f = Facts(kind: kind)
    let text: String? =
      switch kind {
      case .string: schema.length(t)
      case .integer, .decimal: schema.range(t)
      default: nil
      }
    f.bounds = text.flatMap { tx in Self.ranges(tx).map { (tx, $0) } }
    switch kind {
    case .string:
      f.patterns = schema.patterns(t).filter { !$0.hasPrefix("xsd:") }.map {
        $0.hasPrefix("!") ? (String($0.dropFirst()), true) : ($0, false)
      }
      f.hasPatterns = !f.patterns.isEmpty
    case .enumeration:
      f.words = schema.enumeration(t).map { Array($0.utf8) }
    case .union:
      f.members = schema.members(t)
      f.hasPatterns = f.members.contains { known[facts($0)].hasPatterns }
    default:
      break
    }
    known.append(f)
    factsAt[Int(t.number)] = Int32(known.count - 1)
    return known.count - 1
  }

  /// `nil` when `value` (unquoted UTF-8) is accepted; otherwise what the type expects, for a
  /// message ("an integer in 1 .. 65535", "one of: bgp, ospf, …").
  mutating func problem(_ value: ArraySlice<UInt8>, type t: SchemaValueType) -> String? {
    // Only pattern checks are worth remembering: the rest costs less than the table would.
    guard known[facts(t)].hasPatterns else { return check(value, t) }
    let key = Key(type: t.number, value: value)
    if let answer = answers[key] { return answer }
    let answer = check(value, t)
    // Bounded: a configuration's values are mostly distinct (names, addresses, descriptions).
    if answers.count >= 1 << 16 { answers.removeAll(keepingCapacity: true) }
    answers[key] = answer
    return answer
  }

  private mutating func check(_ v: ArraySlice<UInt8>, _ t: SchemaValueType) -> String? {
    let i = facts(t)
    switch known[i].kind {
    case .string:
      return stringProblem(v, i)
    case .empty:
      return "no value"
    case .enumeration:
      let words = known[i].words
      if words.contains(where: { $0.elementsEqual(v) }) { return nil }
      let shown = words.prefix(8).map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
      return "one of: \(shown)\(words.count > 8 ? ", … (\(words.count) words)" : "")"
    case .integer:
      return numberProblem(v, i, integer: true)
    case .decimal:
      return numberProblem(v, i, integer: false)
    case .union:
      var expected: [String] = []
      for m in known[i].members {
        guard let p = check(v, m) else { return nil }
        if !expected.contains(p) { expected.append(p) }
      }
      return expected.isEmpty ? nil : expected.joined(separator: "; or ")
    case .ipv4Address:
      return IPPrefix.parseV4(v) == nil ? "an IPv4 address" : nil
    case .ipv6Address:
      return Self.isIPv6Address(v) ? nil : "an IPv6 address"
    case .ipAddress:
      return IPPrefix.parseV4(v) != nil || Self.isIPv6Address(v) ? nil : "an IP address"
    case .ipv4Prefix:
      return IPPrefix(utf8: v)?.family == .inet ? nil : "an IPv4 prefix"
    case .ipv6Prefix:
      return IPPrefix(utf8: v)?.family == .inet6 ? nil : "an IPv6 prefix"
    case .ipPrefix:
      return IPPrefix(utf8: v) != nil ? nil : "an IP prefix"
    case .macAddress:
      return Self.isMAC(v) ? nil : "a MAC address (00:11:22:33:44:55)"
    case .interfaceName, .ipAddressOrInterface:
      return nil
    }
  }

  /// An IPv6 address, with a `%zone` allowed.
  static func isIPv6Address(_ u: ArraySlice<UInt8>) -> Bool {
    IPPrefix.parseV6(u[..<(u.firstIndex(of: UInt8(ascii: "%")) ?? u.endIndex)]) != nil
  }

  /// Six hex pairs separated by `:` (or `-`), or three groups of four hex digits separated by `.`.
  static func isMAC(_ v: ArraySlice<UInt8>) -> Bool {
    func hex(_ b: UInt8) -> Bool { IPPrefix.hexValue(b) != nil }
    let u = Array(v)
    if u.count == 17 {
      return (0..<17).allSatisfy { i in i % 3 == 2 ? u[i] == u[2] && (u[i] == 58 || u[i] == 45) : hex(u[i]) }
    }
    if u.count == 14 {
      return (0..<14).allSatisfy { i in i % 5 == 4 ? u[i] == 46 : hex(u[i]) }
    }
    return false
  }

  private func stringProblem(_ v: ArraySlice<UInt8>, _ i: Int) -> String? {
    let f = known[i]
    if let (length, bounds) = f.bounds {
      // Characters are Unicode scalars: the bytes that do not continue one.
      let n = Double(v.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) })
      if !bounds.contains(where: { n >= $0.lowerBound && n <= $0.upperBound }) {
        return "a string of \(length.replacing(" .. ", with: "–")) characters"
      }
    }
    for (pattern, negated) in f.patterns {
      guard let regex = Self.regex(pattern) else { continue }
      if regex.matches(v) == negated {
        return negated ? "a value that does not match '\(pattern)'" : "a value matching '\(pattern)'"
      }
    }
    return nil
  }

  /// A pattern compiled once per process (compiling costs more than matching, and a check of a
  /// small file would otherwise spend its time there); `nil` for one the C library cannot read
  /// (it is then skipped).
  private static func regex(_ pattern: String) -> POSIXRegex? {
    compiled.withLock { cache in
      if let known = cache[pattern] { return known }
      let r = POSIXRegex(pattern)
      cache[pattern] = r
      return r
    }
  }

  /// Compiled patterns of every check in the process.
  private static let compiled = Mutex<[String: POSIXRegex?]>([:])

  private func numberProblem(_ v: ArraySlice<UInt8>, _ i: Int, integer: Bool) -> String? {
    let what = integer ? "an integer" : "a number"
    guard let x = integer ? Self.integer(v) : Double(String(decoding: v, as: UTF8.self)) else { return what }
    guard let (r, bounds) = known[i].bounds else { return nil }
    return bounds.contains { x >= $0.lowerBound && x <= $0.upperBound } ? nil : "\(what) in \(r)"
  }

  /// A decimal integer with an optional sign, or `0x` and hexadecimal digits (Junos reads both),
  /// as a `Double`; `nil` when the bytes are neither or do not fit 64 bits.
  static func integer(_ v: ArraySlice<UInt8>) -> Double? {
    var k = v.startIndex
    if v.count > 2, v[k] == 48, v[k + 1] | 0x20 == 120 {
      var x: UInt64 = 0
      for c in v[(k + 2)...] {
        guard let d = IPPrefix.hexValue(c), x >> 60 == 0 else { return nil }
        x = x << 4 | UInt64(d)
      }
      return Double(x)
    }
    var negative = false
    if k < v.endIndex, v[k] == UInt8(ascii: "-") || v[k] == UInt8(ascii: "+") {
      negative = v[k] == UInt8(ascii: "-")
      k += 1
    }
    guard k < v.endIndex else { return nil }
    var x: UInt64 = 0
    for c in v[k...] {
      guard c >= 48 && c <= 57 else { return nil }
      let (m, o1) = x.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(UInt64(c - 48))
      guard !o1, !o2 else { return nil }
      x = s
    }
    if negative {
      guard x <= UInt64(Int64.max) + 1 else { return nil }
      return -Double(x)
    }
    return Double(x)
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

/// A POSIX extended regular expression as Junos reads a schema pattern: the C library's
/// `regcomp` (`REG_EXTENDED`, no submatches) in the C locale, so on bytes (`.` is one byte,
/// `[[:alnum:]]` is ASCII, a backslash in brackets is itself). A match anywhere in the value
/// counts; patterns anchor themselves with `^` and `$`.
package final class POSIXRegex: @unchecked Sendable {
  // Unchecked: written only by regcomp in init; regexec only reads it (POSIX makes concurrent
  // regexec calls on one compiled expression safe).
  private let compiled: UnsafeMutablePointer<regex_t>

  /// Compiles a pattern; `nil` when the C library rejects it.
  package init?(_ pattern: String) {
    // Compiled before the property is set: a failed init must not reach deinit's regfree.
    let r = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
    guard regcomp(r, pattern, REG_EXTENDED | REG_NOSUB) == 0 else {
      r.deallocate()
      return nil
    }
    compiled = r
  }

  deinit {
    regfree(compiled)
    compiled.deallocate()
  }

  /// Whether the pattern matches somewhere in the bytes. They are copied to a NUL-terminated
  /// buffer on the stack: the C library gets their length (`REG_STARTEND`), but sanitizers'
  /// `regexec` and other C libraries read up to the terminator.
  package func matches(_ value: ArraySlice<UInt8>) -> Bool {
    var bounds = regmatch_t()
    bounds.rm_so = 0
    bounds.rm_eo = regoff_t(value.count)
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: value.count + 1) { buffer in
      var k = 0
      for b in value {
        buffer[k] = CChar(bitPattern: b)
        k += 1
      }
      buffer[k] = 0
      return regexec(compiled, buffer.baseAddress!, 1, &bounds, REG_STARTEND) == 0
    }
  }
}

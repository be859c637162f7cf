/// An IANA time zone (`Europe/London`, `America/Chicago`) read from a compiled TZif file
/// (RFC 8536 / RFC 9636, versions 1 to 4), as found under `/usr/share/zoneinfo`.
///
/// The zone answers two questions: which offset and abbreviation apply at an instant
/// (``offset(atUTC:)``), and which instants a printed local time can stand for
/// (``candidates(forLocal:)``: one normally, two in the hour a fall-back repeats, none in the
/// hour a spring-forward skips). Instants after the file's last transition follow the footer's
/// POSIX TZ rule (`GMT0BST,M3.5.0/1,M10.5.0`), so dates past 2037 are placed too.
///
/// Leap-second files (`right/…`) are accepted: their transition times are converted to POSIX
/// seconds (leap seconds not counted), the time scale of ``Commit/instant``.
public struct IANAZone: Sendable {
  /// What the zone says about one instant: the offset from UTC, the abbreviation and whether it
  /// is daylight-saving time.
  public struct LocalTimeType: Sendable, Hashable, CustomStringConvertible {
    /// Seconds east of UTC (`3600` for BST, `-21600` for CST in Chicago, `19800` for IST in India).
    public var offset: Int
    /// The abbreviation (`BST`, `CST`, `+0530`, `LMT`).
    public var abbreviation: String
    /// Whether the zone counts this as daylight-saving (summer) time.
    public var isDST: Bool

    /// Creates a local time type.
    public init(offset: Int, abbreviation: String, isDST: Bool) {
      self.offset = offset
      self.abbreviation = abbreviation
      self.isDST = isDST
    }

    /// `BST (UTC+01:00)`.
    public var description: String { "\(abbreviation) (UTC\(ZoneAbbreviations.text(offset)))" }
  }

  /// The name the zone was read under (`Europe/London`); used in messages.
  public let name: String
  /// The TZif format version of the data read: 1, 2, 3 or 4.
  public let version: Int
  /// The POSIX TZ rule of the footer (`GMT0BST,M3.5.0/1,M10.5.0`), empty when the file has none.
  public let footer: String
  /// Transition instants (POSIX seconds), strictly ascending.
  let transitions: [Int64]
  /// For each transition, the index in `types` of the local time type it starts.
  let transitionTypes: [Int]
  /// The local time types; `types[0]` applies before the first transition.
  let types: [LocalTimeType]
  /// The footer's rule, for instants after the last transition.
  let rule: PosixRule?

  /// The last transition in the table (POSIX seconds), after which the footer rule applies;
  /// `nil` when the table has none.
  public var lastTransition: Int64? { transitions.last }

  /// Reads a zone from TZif bytes.
  ///
  /// Every count in the headers is checked against the buffer and every index against its
  /// table: truncated or garbled data throws, it never traps.
  ///
  /// - Parameters:
  ///   - name: The zone's name, for messages (`Europe/London`).
  ///   - tzif: The content of the zone file.
  /// - Throws: ``IANAZoneError`` when the bytes are not a well-formed TZif file.
  public init(name: String, tzif: [UInt8]) throws(IANAZoneError) {
    var reader = TZifReader(bytes: tzif, name: name)
    let first = try reader.header()
    let data: TZifReader.Block
    var footerText = ""
    var rule: PosixRule? = nil
    if first.version == 1 {
      data = try reader.block(first, timeSize: 4)
    } else {
      try reader.skip(first.blockSize(timeSize: 4), what: "version 1 data block")
      let second = try reader.header()
      guard second.version == first.version else {
        throw reader.error(
          .invalidData, "second header says version \(second.version), first says \(first.version)", at: reader.position - 44)
      }
      data = try reader.block(second, timeSize: 8)
      let footerStart = reader.position
      let text = try reader.footer()
      footerText = String(decoding: text, as: UTF8.self)
      if !text.isEmpty {
        do {
          rule = try PosixRule(text, allowExtendedHours: first.version >= 3)
        } catch {
          throw IANAZoneError(
            name: name, kind: .invalidFooter, reason: "footer TZ string '\(footerText)': \(error.reason)", offset: footerStart + 1)
        }
      }
    }
    self.name = name
    self.version = first.version
    self.footer = footerText
    self.transitions = data.transitions
    self.transitionTypes = data.transitionTypes
    self.types = data.types
    self.rule = rule
  }

  /// The offset, abbreviation and daylight-saving flag in effect at an instant.
  ///
  /// Before the first transition the zone's first local time type applies (local mean time, for
  /// most zones); after the last one, the footer rule (or, without one, the last type).
  ///
  /// - Parameter seconds: The instant, seconds since 1970-01-01 00:00:00 UTC.
  /// - Returns: What the zone says at that instant.
  public func offset(atUTC seconds: Int64) -> LocalTimeType {
    guard let first = transitions.first, let last = transitions.last else {
      return rule?.localTimeType(atUTC: seconds) ?? types[0]
    }
    if seconds < first { return types[0] }
    if seconds > last, let rule { return rule.localTimeType(atUTC: seconds) }
    // The last transition at or before `seconds`.
    var lo = 0
    var hi = transitions.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if transitions[mid] <= seconds { lo = mid } else { hi = mid - 1 }
    }
    return types[transitionTypes[lo]]
  }

  /// The local time types under which a local date and time exists in this zone, earliest
  /// instant first.
  ///
  /// Normally one; two when the clocks go back and the time happens twice (the daylight-saving
  /// one first); none when the clocks go forward over it. The instant of a candidate `c` is
  /// `t.secondsAsUTC - c.offset`. Fields far outside their ranges (a year beyond ±1,000,000)
  /// give no candidates.
  ///
  /// - Parameter t: The local date and time, as printed by the device.
  /// - Returns: The candidates, ordered by the instant they give.
  public func candidates(forLocal t: LocalTime) -> [LocalTimeType] {
    let limit = 1_000_000
    guard abs(t.year) <= limit, abs(t.month) <= limit, abs(t.day) <= limit, abs(t.hour) <= limit, abs(t.minute) <= limit,
      abs(t.second) <= limit
    else { return [] }
    let local = t.secondsAsUTC
    var offsets = Set(types.map(\.offset))
    if let rule {
      offsets.insert(rule.standard.offset)
      if let dst = rule.daylight { offsets.insert(dst.offset) }
    }
    var found: [(instant: Int64, type: LocalTimeType)] = []
    for o in offsets {
      let instant = local - Int64(o)
      let type = offset(atUTC: instant)
      if type.offset == o && !found.contains(where: { $0.instant == instant }) { found.append((instant, type)) }
    }
    return found.sorted { $0.instant < $1.instant }.map(\.type)
  }

  /// Whether `name` is a plausible IANA zone name, safe to append to a zone directory: ASCII
  /// letters, digits, `/`, `_`, `-` and `+`, in non-empty components separated by single
  /// slashes (so no leading or trailing `/`, no `.` or `..` component), at most 255 bytes.
  ///
  /// - Parameter name: The name the user gave (`Europe/London`, `Etc/GMT+5`).
  /// - Returns: `true` when the name can be looked up.
  public static func isValidName(_ name: String) -> Bool {
    let b = Array(name.utf8)
    guard !b.isEmpty, b.count <= 255 else { return false }
    var componentLength = 0
    for c in b {
      switch c {
      case UInt8(ascii: "/"):
        if componentLength == 0 { return false }
        componentLength = 0
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"):
        componentLength += 1
      default:
        return false
      }
    }
    return componentLength > 0
  }

  /// The files to try, in order, for a zone name: `TZDIR/name` when a `TZDIR` is given, then
  /// `/usr/share/zoneinfo/name`. Empty when the name is not valid (``isValidName(_:)``).
  ///
  /// - Parameters:
  ///   - name: The zone name (`Europe/London`).
  ///   - tzdir: The value of the `TZDIR` environment variable, if set.
  /// - Returns: Paths to try, first existing one wins.
  public static func searchPaths(forName name: String, tzdir: String? = nil) -> [String] {
    guard isValidName(name) else { return [] }
    var paths: [String] = []
    if let tzdir, !tzdir.isEmpty {
      paths.append(tzdir.hasSuffix("/") ? tzdir + name : tzdir + "/" + name)
    }
    let system = "/usr/share/zoneinfo/" + name
    if !paths.contains(system) { paths.append(system) }
    return paths
  }
}

/// Why zone data could not be read.
public struct IANAZoneError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of problem.
  public enum Kind: String, Sendable, Hashable {
    /// The data does not start with `TZif`.
    case notTZif
    /// A version byte other than NUL, `2`, `3` or `4`.
    case unsupportedVersion
    /// The data ends before the counts in a header say it should.
    case truncated
    /// A count, index, offset or ordering that the format forbids.
    case invalidData
    /// The footer's POSIX TZ string cannot be read.
    case invalidFooter
  }

  /// The zone's name as given to ``IANAZone/init(name:tzif:)``.
  public var name: String
  /// The kind of problem.
  public var kind: Kind
  /// What is wrong, one line.
  public var reason: String
  /// The byte offset in the data where the problem was found.
  public var offset: Int

  /// Creates an error.
  public init(name: String, kind: Kind, reason: String, offset: Int) {
    self.name = name
    self.kind = kind
    self.reason = reason
    self.offset = offset
  }

  /// `time zone 'Europe/London': truncated data: … (at byte 44)`.
  public var description: String {
    let what: String
    switch kind {
    case .notTZif: what = "not a TZif file"
    case .unsupportedVersion: what = "unsupported TZif version"
    case .truncated: what = "truncated data"
    case .invalidData: what = "invalid data"
    case .invalidFooter: what = "invalid footer"
    }
    return "time zone '\(name)': \(what): \(reason) (at byte \(offset))"
  }
}

/// A bounds-checked cursor over TZif bytes.
private struct TZifReader {
  /// One header's counts.
  struct Header {
    var version: Int
    var isutcnt: Int
    var isstdcnt: Int
    var leapcnt: Int
    var timecnt: Int
    var typecnt: Int
    var charcnt: Int

    /// The size of the data block that follows, for 4- or 8-byte times.
    func blockSize(timeSize: Int) -> Int {
      timecnt * (timeSize + 1) + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
    }
  }

  /// The tables of one data block, ready for use.
  struct Block {
    var transitions: [Int64]
    var transitionTypes: [Int]
    var types: [IANAZone.LocalTimeType]
  }

  let bytes: [UInt8]
  let name: String
  var position = 0

  init(bytes: [UInt8], name: String) {
    self.bytes = bytes
    self.name = name
  }

  func error(_ kind: IANAZoneError.Kind, _ reason: String, at offset: Int) -> IANAZoneError {
    IANAZoneError(name: name, kind: kind, reason: reason, offset: offset)
  }

  /// Checks that `count` more bytes are there.
  func need(_ count: Int, what: String) throws(IANAZoneError) {
    guard count >= 0, count <= bytes.count - position else {
      throw error(.truncated, "\(what) needs \(count) bytes, \(bytes.count - position) left", at: position)
    }
  }

  mutating func skip(_ count: Int, what: String) throws(IANAZoneError) {
    try need(count, what: what)
    position += count
  }

  /// A big-endian signed integer of `size` bytes (4 or 8); the caller has checked the bounds.
  func signed(at p: Int, size: Int) -> Int64 {
    var v: UInt64 = 0
    for k in 0..<size { v = v << 8 | UInt64(bytes[p + k]) }
    if size == 4 { return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: v))) }
    return Int64(bitPattern: v)
  }

  mutating func header() throws(IANAZoneError) -> Header {
    let start = position
    try need(44, what: "header")
    guard bytes[start] == 0x54, bytes[start + 1] == 0x5A, bytes[start + 2] == 0x69, bytes[start + 3] == 0x66 else {
      throw error(.notTZif, "no 'TZif' magic", at: start)
    }
    let version: Int
    switch bytes[start + 4] {
    case 0: version = 1
    case UInt8(ascii: "2"): version = 2
    case UInt8(ascii: "3"): version = 3
    case UInt8(ascii: "4"): version = 4
    case let v: throw error(.unsupportedVersion, "version byte 0x\(String(v, radix: 16))", at: start + 4)
    }
    var counts: [Int] = []
    for k in 0..<6 {
      // Unsigned 32-bit counts: at most 2^32 - 1, so products below cannot overflow Int.
      counts.append(Int(UInt32(truncatingIfNeeded: signed(at: start + 20 + 4 * k, size: 4))))
    }
    position = start + 44
    return Header(
      version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2], timecnt: counts[3], typecnt: counts[4],
      charcnt: counts[5])
  }

  /// Reads and checks a data block described by `h`.
  mutating func block(_ h: Header, timeSize: Int) throws(IANAZoneError) -> Block {
    let headerStart = position - 44
    guard h.typecnt >= 1 else { throw error(.invalidData, "typecnt is 0", at: headerStart + 36) }
    guard h.charcnt >= 1 else { throw error(.invalidData, "charcnt is 0", at: headerStart + 40) }
    guard h.isutcnt == 0 || h.isutcnt == h.typecnt else {
      throw error(.invalidData, "isutcnt \(h.isutcnt) is neither 0 nor typecnt \(h.typecnt)", at: headerStart + 20)
    }
    guard h.isstdcnt == 0 || h.isstdcnt == h.typecnt else {
      throw error(.invalidData, "isstdcnt \(h.isstdcnt) is neither 0 nor typecnt \(h.typecnt)", at: headerStart + 24)
    }
    try need(h.blockSize(timeSize: timeSize), what: "data block")

    // Transition times, then their type indices.
    var raw: [Int64] = []
    raw.reserveCapacity(h.timecnt)
    for k in 0..<h.timecnt {
      let t = signed(at: position + k * timeSize, size: timeSize)
      if let previous = raw.last, t <= previous {
        throw error(.invalidData, "transition \(k) is not after transition \(k - 1)", at: position + k * timeSize)
      }
      raw.append(t)
    }
    position += h.timecnt * timeSize
    var transitionTypes: [Int] = []
    transitionTypes.reserveCapacity(h.timecnt)
    for k in 0..<h.timecnt {
      let index = Int(bytes[position + k])
      guard index < h.typecnt else {
        throw error(.invalidData, "transition \(k) names type \(index) of \(h.typecnt)", at: position + k)
      }
      transitionTypes.append(index)
    }
    position += h.timecnt

    // Local time types; their designations follow them.
    let typesStart = position
    let charsStart = typesStart + h.typecnt * 6
    var types: [IANAZone.LocalTimeType] = []
    types.reserveCapacity(h.typecnt)
    for k in 0..<h.typecnt {
      let p = typesStart + k * 6
      let utoff = signed(at: p, size: 4)
      guard utoff != Int64(Int32.min) else { throw error(.invalidData, "type \(k) has offset -2^31", at: p) }
      let isdst = bytes[p + 4]
      guard isdst <= 1 else { throw error(.invalidData, "type \(k) has isdst \(isdst)", at: p + 4) }
      let index = Int(bytes[p + 5])
      guard index < h.charcnt else {
        throw error(.invalidData, "type \(k) names designation byte \(index) of \(h.charcnt)", at: p + 5)
      }
      var end = charsStart + index
      while end < charsStart + h.charcnt && bytes[end] != 0 { end += 1 }
      guard end < charsStart + h.charcnt else {
        throw error(.invalidData, "type \(k)'s designation has no terminating NUL", at: charsStart + index)
      }
      let abbreviation = String(decoding: bytes[(charsStart + index)..<end], as: UTF8.self)
      types.append(IANAZone.LocalTimeType(offset: Int(utoff), abbreviation: abbreviation, isDST: isdst == 1))
    }
    position = charsStart + h.charcnt

    // Leap-second records: (occurrence, correction), occurrences ascending.
    var leaps: [(occurrence: Int64, correction: Int64)] = []
    leaps.reserveCapacity(h.leapcnt)
    for k in 0..<h.leapcnt {
      let p = position + k * (timeSize + 4)
      let occurrence = signed(at: p, size: timeSize)
      let correction = signed(at: p + timeSize, size: 4)
      if let previous = leaps.last, occurrence <= previous.occurrence {
        throw error(.invalidData, "leap second record \(k) is not after record \(k - 1)", at: p)
      }
      leaps.append((occurrence, correction))
    }
    position += h.leapcnt * (timeSize + 4)

    // Standard/wall and UT/local indicators: only checked (they matter for POSIX rules the
    // file does not carry).
    for k in 0..<(h.isstdcnt + h.isutcnt) {
      guard bytes[position + k] <= 1 else { throw error(.invalidData, "indicator \(bytes[position + k]) is not 0 or 1", at: position + k) }
    }
    if h.isutcnt > 0 && h.isstdcnt > 0 {
      for k in 0..<h.typecnt where bytes[position + h.isstdcnt + k] == 1 && bytes[position + k] == 0 {
        throw error(.invalidData, "type \(k) is UT but not standard time", at: position + h.isstdcnt + k)
      }
    }
    position += h.isstdcnt + h.isutcnt

    // Leap-second files count leap seconds in their times: take them out.
    var transitions = raw
    if !leaps.isEmpty {
      var l = -1
      for k in transitions.indices {
        while l + 1 < leaps.count && leaps[l + 1].occurrence <= raw[k] { l += 1 }
        if l >= 0 {
          let (value, overflow) = raw[k].subtractingReportingOverflow(leaps[l].correction)
          transitions[k] = overflow ? raw[k] : value
        }
      }
      for k in transitions.indices.dropFirst() where transitions[k] <= transitions[k - 1] {
        throw error(.invalidData, "transition \(k) is not after transition \(k - 1) once leap seconds are removed", at: typesStart)
      }
    }
    return Block(transitions: transitions, transitionTypes: transitionTypes, types: types)
  }

  /// The footer's TZ string (without its newlines), possibly empty.
  mutating func footer() throws(IANAZoneError) -> ArraySlice<UInt8> {
    try need(1, what: "footer")
    guard bytes[position] == 0x0A else { throw error(.invalidFooter, "the footer does not start with a newline", at: position) }
    let start = position + 1
    var end = start
    while end < bytes.count && bytes[end] != 0x0A { end += 1 }
    guard end < bytes.count else { throw error(.truncated, "the footer has no closing newline", at: bytes.count) }
    position = end + 1
    return bytes[start..<end]
  }
}

/// Why a POSIX TZ string could not be read.
struct PosixRuleError: Error {
  var reason: String
}

/// A POSIX TZ string (`EST5EDT,M3.2.0,M11.1.0`): a standard time and, optionally, a daylight time
/// with the rules of when it starts and ends each year.
struct PosixRule: Sendable {
  /// A day of the year in one of the three POSIX forms.
  enum Day: Sendable, Equatable {
    /// `Jn`: 1...365, February 29 never counted.
    case julian(Int)
    /// `n`: 0...365, February 29 counted in leap years.
    case zeroBased(Int)
    /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  /// One yearly change: the day and the local time of day (seconds, may be negative or past 24
  /// hours in version 3+), in the time that is in effect before the change.
  struct Change: Sendable {
    var day: Day
    var time: Int
  }

  var standard: IANAZone.LocalTimeType
  var daylight: IANAZone.LocalTimeType?
  var start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
  var end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)

  /// Parses a TZ string. Without a rule after the daylight time, the US rule
  /// (`M3.2.0,M11.1.0`) applies, as in the reference implementation.
  ///
  /// - Parameters:
  ///   - text: The string.
  ///   - allowExtendedHours: Whether change times may range over −167…167 hours (version 3+).
  init(_ text: ArraySlice<UInt8>, allowExtendedHours: Bool) throws(PosixRuleError) {
    var p = PosixScanner(bytes: Array(text))
    let stdName = try p.name()
    let stdOffset = -(try p.time(maxHours: 24, what: "standard offset"))
    standard = IANAZone.LocalTimeType(offset: stdOffset, abbreviation: stdName, isDST: false)
    if p.atEnd { return }
    let dstName = try p.name()
    var dstOffset = stdOffset + 3600
    if let c = p.peek, c != UInt8(ascii: ",") {
      dstOffset = -(try p.time(maxHours: 24, what: "daylight offset"))
    }
    daylight = IANAZone.LocalTimeType(offset: dstOffset, abbreviation: dstName, isDST: true)
    if p.atEnd { return }
    let maxHours = allowExtendedHours ? 167 : 24
    try p.expect(UInt8(ascii: ","), what: "',' before the start rule")
    start = try p.change(maxHours: maxHours)
    try p.expect(UInt8(ascii: ","), what: "',' before the end rule")
    end = try p.change(maxHours: maxHours)
    guard p.atEnd else { throw PosixRuleError(reason: "unexpected text after the end rule") }
  }

  /// The local time type at an instant.
  func localTimeType(atUTC seconds: Int64) -> IANAZone.LocalTimeType {
    guard let daylight else { return standard }
    // Beyond about ±35 million years only the position in the year matters; keep the
    // arithmetic far from overflow.
    let limit: Int64 = 1 << 50
    let t = min(max(seconds, -limit), limit)
    let year = Self.civilYear(days: Self.floorDivide(t + Int64(standard.offset), 86_400))
    // The changes of the neighbouring years too: an extended time can move a change across
    // New Year.
    var changes: [(instant: Int64, toDaylight: Bool)] = []
    for y in (year - 1)...(year + 1) {
      changes.append((instant(of: start, in: y, offset: standard.offset), true))
      changes.append((instant(of: end, in: y, offset: daylight.offset), false))
    }
    // At equal instants the start wins: `0/0,J365/25` is daylight time all year.
    changes.sort { $0.instant < $1.instant || ($0.instant == $1.instant && !$0.toDaylight && $1.toDaylight) }
    var isDaylight = false
    for c in changes where c.instant <= t { isDaylight = c.toDaylight }
    return isDaylight ? daylight : standard
  }

  /// The instant of a change in `year`, the local time being at `offset` before it.
  func instant(of change: Change, in year: Int, offset: Int) -> Int64 {
    Int64(Self.day(change.day, in: year)) * 86_400 + Int64(change.time) - Int64(offset)
  }

  /// Days since 1970-01-01 of a rule's day in a year.
  static func day(_ day: Day, in year: Int) -> Int {
    let january1 = LocalTime.daysFromCivil(year, 1, 1)
    switch day {
    case .julian(let n):
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return january1 + n - 1 + (leap && n >= 60 ? 1 : 0)
    case .zeroBased(let n):
      return january1 + n
    case .monthWeekDay(let month, let week, let weekday):
      let first = LocalTime.daysFromCivil(year, month, 1)
      let firstWeekday = Int(floorModulo(Int64(first) + 4, 7))  // 1970-01-01 was a Thursday
      var d = first + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
      let nextMonth = month == 12 ? LocalTime.daysFromCivil(year + 1, 1, 1) : LocalTime.daysFromCivil(year, month + 1, 1)
      while d >= nextMonth { d -= 7 }  // week 5: the last one
      return d
    }
  }

  static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }

  /// The proleptic Gregorian year of a day counted from 1970-01-01.
  static func civilYear(days: Int64) -> Int {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153  // 0 = March … 11 = February
    return Int(yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0))
  }
}

/// A cursor over the bytes of a POSIX TZ string.
private struct PosixScanner {
  let bytes: [UInt8]
  var position = 0

  var atEnd: Bool { position >= bytes.count }
  var peek: UInt8? { atEnd ? nil : bytes[position] }

  static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
  static func isLetter(_ c: UInt8) -> Bool {
    (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
  }

  mutating func expect(_ c: UInt8, what: String) throws(PosixRuleError) {
    guard peek == c else { throw PosixRuleError(reason: "expected \(what)") }
    position += 1
  }

  /// A zone name: three or more letters, or `<…>` holding three or more letters, digits, `+`, `-`.
  mutating func name() throws(PosixRuleError) -> String {
    if peek == UInt8(ascii: "<") {
      position += 1
      let start = position
      while let c = peek, Self.isLetter(c) || Self.isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { position += 1 }
      let name = bytes[start..<position]
      guard peek == UInt8(ascii: ">") else { throw PosixRuleError(reason: "unterminated '<' name") }
      position += 1
      guard name.count >= 3 else { throw PosixRuleError(reason: "a zone name has fewer than 3 characters") }
      return String(decoding: name, as: UTF8.self)
    }
    let start = position
    while let c = peek, Self.isLetter(c) { position += 1 }
    guard position - start >= 3 else { throw PosixRuleError(reason: "a zone name has fewer than 3 letters") }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// An unsigned number of at most `maxDigits` digits.
  mutating func number(maxDigits: Int, what: String) throws(PosixRuleError) -> Int {
    var value = 0
    var count = 0
    while let c = peek, Self.isDigit(c) {
      count += 1
      guard count <= maxDigits else { throw PosixRuleError(reason: "\(what) has too many digits") }
      value = value * 10 + Int(c - UInt8(ascii: "0"))
      position += 1
    }
    guard count > 0 else { throw PosixRuleError(reason: "expected a number for \(what)") }
    return value
  }

  /// `[+-]hh[:mm[:ss]]` in seconds, hours at most `maxHours`.
  mutating func time(maxHours: Int, what: String) throws(PosixRuleError) -> Int {
    var sign = 1
    if peek == UInt8(ascii: "+") {
      position += 1
    } else if peek == UInt8(ascii: "-") {
      sign = -1
      position += 1
    }
    let hours = try number(maxDigits: 3, what: what)
    guard hours <= maxHours else { throw PosixRuleError(reason: "\(what) has \(hours) hours (at most \(maxHours))") }
    var seconds = hours * 3600
    if peek == UInt8(ascii: ":") {
      position += 1
      let minutes = try number(maxDigits: 2, what: what)
      guard minutes <= 59 else { throw PosixRuleError(reason: "\(what) has \(minutes) minutes") }
      seconds += minutes * 60
      if peek == UInt8(ascii: ":") {
        position += 1
        let s = try number(maxDigits: 2, what: what)
        guard s <= 59 else { throw PosixRuleError(reason: "\(what) has \(s) seconds") }
        seconds += s
      }
    }
    return sign * seconds
  }

  /// `date[/time]`.
  mutating func change(maxHours: Int) throws(PosixRuleError) -> PosixRule.Change {
    let day: PosixRule.Day
    switch peek {
    case UInt8(ascii: "J"):
      position += 1
      let n = try number(maxDigits: 3, what: "a Jn day")
      guard (1...365).contains(n) else { throw PosixRuleError(reason: "day J\(n) is not in 1...365") }
      day = .julian(n)
    case UInt8(ascii: "M"):
      position += 1
      let month = try number(maxDigits: 2, what: "a rule month")
      try expect(UInt8(ascii: "."), what: "'.' after the month")
      let week = try number(maxDigits: 1, what: "a rule week")
      try expect(UInt8(ascii: "."), what: "'.' after the week")
      let weekday = try number(maxDigits: 1, what: "a rule weekday")
      guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
        throw PosixRuleError(reason: "M\(month).\(week).\(weekday) is out of range")
      }
      day = .monthWeekDay(month: month, week: week, weekday: weekday)
    default:
      let n = try number(maxDigits: 3, what: "a day of the year")
      guard n <= 365 else { throw PosixRuleError(reason: "day \(n) is not in 0...365") }
      day = .zeroBased(n)
    }
    var time = 7200
    if peek == UInt8(ascii: "/") {
      position += 1
      time = try self.time(maxHours: maxHours, what: "a rule time")
    }
    return PosixRule.Change(day: day, time: time)
  }
}

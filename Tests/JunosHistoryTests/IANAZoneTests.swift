import Foundation
import JunosConfig
import JunosHistory
import Testing

/// The bytes of a zone file under `Fixtures/zoneinfo` (copies of Debian tzdata 2025b).
private func zoneBytes(_ name: String) throws -> [UInt8] {
  Array(try Data(contentsOf: Fixtures.root.appendingPathComponent("zoneinfo/\(name)")))
}

/// A fixture zone.
private func zone(_ name: String) throws -> IANAZone {
  try IANAZone(name: name, tzif: zoneBytes(name))
}

/// `2019-08-05 09:06:28` as a local time.
private func local(_ text: String) -> LocalTime {
  let words = text.split(separator: " ")
  return CommitListParser.localTime(words[0], words[1])!
}

/// `2019-08-05T08:06:28Z` (or `2019-08-05 08:06:28`) as POSIX seconds.
private func utc(_ text: String) -> Int64 {
  local(String(text.replacing("T", with: " ").replacing("Z", with: ""))).secondsAsUTC
}

/// The instants a local time stands for in a zone, as ISO 8601 text with the abbreviation.
private func placings(_ z: IANAZone, _ text: String) -> [String] {
  let t = local(text)
  return z.candidates(forLocal: t).map { "\(iso8601UTC(t.secondsAsUTC - Int64($0.offset))) \($0.abbreviation)" }
}

/// Writes TZif bytes by the RFC 8536 layout, for data the tzdata files do not have.
///
/// - Parameters:
///   - version: The version byte (`0` for version 1, else `"2"`…`"4"` as ASCII).
///   - transitions: (time, type index) pairs.
///   - types: (UTC offset, is DST, abbreviation) triples.
///   - leaps: (occurrence, correction) pairs.
///   - footer: The TZ string, for versions 2 and later.
private func makeTZif(
  version: UInt8, transitions: [(Int64, UInt8)] = [], types: [(Int32, Bool, String)], leaps: [(Int64, Int32)] = [],
  footer: String = ""
) -> [UInt8] {
  func be(_ v: Int64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
  var chars: [UInt8] = []
  var indices: [UInt8] = []
  for t in types {
    indices.append(UInt8(chars.count))
    chars += Array(t.2.utf8) + [0]
  }
  func block(_ timeSize: Int) -> [UInt8] {
    var out = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
    for count in [0, 0, leaps.count, transitions.count, types.count, chars.count] { out += be(Int64(count), 4) }
    for t in transitions { out += be(t.0, timeSize) }
    out += transitions.map(\.1)
    for (k, t) in types.enumerated() { out += be(Int64(t.0), 4) + [t.1 ? 1 : 0, indices[k]] }
    out += chars
    for l in leaps { out += be(l.0, timeSize) + be(Int64(l.1), 4) }
    return out
  }
  if version == 0 { return block(4) }
  return block(4) + block(8) + [0x0A] + Array(footer.utf8) + [0x0A]
}

/// A zone that is only a footer: no transitions, one type.
private func footerOnly(_ rule: String, version: UInt8 = UInt8(ascii: "2")) throws -> IANAZone {
  try IANAZone(name: rule, tzif: makeTZif(version: version, types: [(0, false, "LMT")], footer: rule))
}

@Suite struct IANAZoneTests {
  @Test func londonSummerIsBST() throws {
    let london = try zone("Europe/London")
    #expect(london.version == 2)
    #expect(london.footer == "GMT0BST,M3.5.0/1,M10.5.0")
    #expect(placings(london, "2019-08-05 09:06:28") == ["2019-08-05T08:06:28Z BST"])
    let bst = london.offset(atUTC: utc("2019-08-05T08:06:28Z"))
    #expect(bst == IANAZone.LocalTimeType(offset: 3600, abbreviation: "BST", isDST: true))
  }

  @Test func londonWinterIsGMT() throws {
    let london = try zone("Europe/London")
    #expect(placings(london, "2019-11-13 15:06:51") == ["2019-11-13T15:06:51Z GMT"])
    #expect(london.offset(atUTC: utc("2019-11-13T15:06:51Z")) == IANAZone.LocalTimeType(offset: 0, abbreviation: "GMT", isDST: false))
  }

  @Test func offsetAtKnownInstants() throws {
    let london = try zone("Europe/London")
    // 2019: BST from 2019-03-31T01:00:00Z to 2019-10-27T01:00:00Z.
    #expect(london.offset(atUTC: utc("2019-03-31T00:59:59Z")).abbreviation == "GMT")
    #expect(london.offset(atUTC: utc("2019-03-31T01:00:00Z")).abbreviation == "BST")
    #expect(london.offset(atUTC: utc("2019-10-27T00:59:59Z")).abbreviation == "BST")
    #expect(london.offset(atUTC: utc("2019-10-27T01:00:00Z")).abbreviation == "GMT")
    // British Double Summer Time, 1941, and local mean time before 1847.
    #expect(london.offset(atUTC: utc("1941-06-01T12:00:00Z")) == IANAZone.LocalTimeType(offset: 7200, abbreviation: "BDST", isDST: true))
    #expect(london.offset(atUTC: utc("1800-01-01T00:00:00Z")) == IANAZone.LocalTimeType(offset: -75, abbreviation: "LMT", isDST: false))
    let chicago = try zone("America/Chicago")
    #expect(chicago.offset(atUTC: utc("2019-03-10T07:59:59Z")).offset == -21_600)
    #expect(chicago.offset(atUTC: utc("2019-03-10T08:00:00Z")) == IANAZone.LocalTimeType(offset: -18_000, abbreviation: "CDT", isDST: true))
    let utcZone = try zone("Etc/UTC")
    #expect(utcZone.lastTransition == nil)
    #expect(utcZone.offset(atUTC: 0) == IANAZone.LocalTimeType(offset: 0, abbreviation: "UTC", isDST: false))
    #expect(utcZone.offset(atUTC: .max).abbreviation == "UTC")
    #expect(placings(utcZone, "2019-08-05 09:06:28") == ["2019-08-05T09:06:28Z UTC"])
    // Extreme instants answer without trapping.
    for z in [london, chicago, try zone("Asia/Jerusalem"), try zone("America/Nuuk")] {
      _ = z.offset(atUTC: .max)
      _ = z.offset(atUTC: .min)
    }
  }

  @Test func londonOverlapHasTwoCandidatesBSTFirst() throws {
    let london = try zone("Europe/London")
    #expect(placings(london, "2019-10-27 01:30:00") == ["2019-10-27T00:30:00Z BST", "2019-10-27T01:30:00Z GMT"])
    #expect(london.candidates(forLocal: local("2019-10-27 01:30:00")).map(\.isDST) == [true, false])
    // Just outside the repeated hour, one each.
    #expect(placings(london, "2019-10-27 00:59:59") == ["2019-10-26T23:59:59Z BST"])
    #expect(placings(london, "2019-10-27 02:00:00") == ["2019-10-27T02:00:00Z GMT"])
  }

  @Test func londonGapHasNoCandidates() throws {
    let london = try zone("Europe/London")
    #expect(placings(london, "2019-03-31 01:30:00") == [])
    #expect(placings(london, "2019-03-31 01:00:00") == [])
    #expect(placings(london, "2019-03-31 00:59:59") == ["2019-03-31T00:59:59Z GMT"])
    #expect(placings(london, "2019-03-31 02:00:00") == ["2019-03-31T01:00:00Z BST"])
  }

  @Test func chicagoCSTNeedsTheZone() throws {
    // Alone, CST is −06:00, +08:00 or −05:00.
    #expect(ZoneAbbreviations.resolve("CST") == .ambiguous([-21_600, 28_800, -18_000]))
    let chicago = try zone("America/Chicago")
    #expect(placings(chicago, "2019-11-13 09:06:51") == ["2019-11-13T15:06:51Z CST"])
    #expect(placings(chicago, "2019-07-04 12:00:00") == ["2019-07-04T17:00:00Z CDT"])
    let shanghai = try zone("Asia/Shanghai")
    #expect(placings(shanghai, "2019-11-13 09:06:51") == ["2019-11-13T01:06:51Z CST"])
  }

  @Test func kolkataIsPlusFiveThirty() throws {
    let kolkata = try zone("Asia/Kolkata")
    #expect(kolkata.footer == "IST-5:30")
    #expect(kolkata.offset(atUTC: utc("2019-08-05T00:00:00Z")) == IANAZone.LocalTimeType(offset: 19_800, abbreviation: "IST", isDST: false))
    #expect(placings(kolkata, "2019-08-05 09:06:28") == ["2019-08-05T03:36:28Z IST"])
    // Past the last transition (1945) the footer rule answers, still IST.
    #expect(kolkata.offset(atUTC: utc("2050-01-01T00:00:00Z")).offset == 19_800)
  }

  @Test func lordHoweHalfHourDaylightSaving() throws {
    let lordHowe = try zone("Australia/Lord_Howe")
    #expect(lordHowe.offset(atUTC: utc("2019-01-15T00:00:00Z")) == IANAZone.LocalTimeType(offset: 39_600, abbreviation: "+11", isDST: true))
    #expect(
      lordHowe.offset(atUTC: utc("2019-07-15T00:00:00Z")) == IANAZone.LocalTimeType(offset: 37_800, abbreviation: "+1030", isDST: false))
    // 2019-10-06 02:00 → 02:30: a half-hour gap.
    #expect(placings(lordHowe, "2019-10-06 02:15:00") == [])
    #expect(placings(lordHowe, "2019-10-06 02:30:00") == ["2019-10-05T15:30:00Z +11"])
    // 2019-04-07 02:00 → 01:30: a half-hour overlap.
    #expect(placings(lordHowe, "2019-04-07 01:45:00") == ["2019-04-06T14:45:00Z +11", "2019-04-06T15:15:00Z +1030"])
  }

  @Test func footerRuleBeyond2037MatchesHandComputedTransitions() throws {
    // Each expected instant is worked out from the footer by hand; each lies after the file's last
    // transition, so only the footer rule can give it.
    /// `daylight` is the change to daylight time, `standard` the change back: (instant, offset, abbreviation).
    func check(_ name: String, daylight: (String, Int, String), standard: (String, Int, String)) throws {
      let z = try zone(name)
      for ((instant, offset, abbreviation), isDST) in [(daylight, true), (standard, false)] {
        let t = utc(instant)
        #expect(try #require(z.lastTransition) < t - 1, "\(name) \(instant)")
        #expect(z.offset(atUTC: t) == IANAZone.LocalTimeType(offset: offset, abbreviation: abbreviation, isDST: isDST))
        #expect(z.offset(atUTC: t - 1).offset != offset, "\(name) \(instant) is a change")
      }
    }
    // GMT0BST,M3.5.0/1,M10.5.0: the last Sundays of March and October 2040 are the 25th and 28th;
    // 01:00 GMT and 02:00 BST are both 01:00Z.
    try check("Europe/London", daylight: ("2040-03-25T01:00:00Z", 3600, "BST"), standard: ("2040-10-28T01:00:00Z", 0, "GMT"))
    // NZST-12NZDT,M9.5.0,M4.1.0/3: 2040-09-30 (last Sunday of September) 02:00 +12, and 2040-04-01
    // (first Sunday of April) 03:00 +13.
    try check("Pacific/Auckland", daylight: ("2040-09-29T14:00:00Z", 46_800, "NZDT"), standard: ("2040-03-31T14:00:00Z", 43_200, "NZST"))
    // EST5EDT-style US rule, CST6CDT,M3.2.0,M11.1.0: 2040-03-11 02:00 −06 and 2040-11-04 02:00 −05.
    try check("America/Chicago", daylight: ("2040-03-11T08:00:00Z", -18_000, "CDT"), standard: ("2040-11-04T07:00:00Z", -21_600, "CST"))
    // Version 3, hours past 24: IST-2IDT,M3.4.4/26,M10.5.0 — the fourth Thursday of March 2040
    // is the 22nd, +26 h = Friday 23rd 02:00 +02 = 00:00Z; October 28th 02:00 +03 = 27th 23:00Z.
    try check("Asia/Jerusalem", daylight: ("2040-03-23T00:00:00Z", 10_800, "IDT"), standard: ("2040-10-27T23:00:00Z", 7200, "IST"))
    // Version 3, negative hours: <-02>2<-01>,M3.5.0/-1,M10.5.0/0 — Sunday 25th −1 h = Saturday
    // 24th 23:00 −02 = 01:00Z; October 28th 00:00 −01 = 01:00Z.
    try check("America/Nuuk", daylight: ("2040-03-25T01:00:00Z", -3600, "-01"), standard: ("2040-10-28T01:00:00Z", -7200, "-02"))
    // Candidates use the footer too.
    let london = try zone("Europe/London")
    #expect(london.version == 2)
    #expect(try zone("America/Nuuk").version == 3)
    #expect(placings(london, "2040-10-28 01:30:00") == ["2040-10-28T00:30:00Z BST", "2040-10-28T01:30:00Z GMT"])
    #expect(placings(london, "2040-03-25 01:30:00") == [])
  }

  @Test func footerOnlyZones() throws {
    // No transitions: the footer decides everything. 2019: second Sunday of March is the 10th,
    // first Sunday of November the 3rd.
    let eastern = try footerOnly("EST5EDT,M3.2.0,M11.1.0")
    #expect(eastern.lastTransition == nil)
    #expect(
      eastern.offset(atUTC: utc("2019-03-10T06:59:59Z")) == IANAZone.LocalTimeType(offset: -18_000, abbreviation: "EST", isDST: false))
    #expect(eastern.offset(atUTC: utc("2019-03-10T07:00:00Z")) == IANAZone.LocalTimeType(offset: -14_400, abbreviation: "EDT", isDST: true))
    #expect(eastern.offset(atUTC: utc("2019-11-03T05:59:59Z")).abbreviation == "EDT")
    #expect(eastern.offset(atUTC: utc("2019-11-03T06:00:00Z")).abbreviation == "EST")
    #expect(placings(eastern, "2019-11-03 01:30:00") == ["2019-11-03T05:30:00Z EDT", "2019-11-03T06:30:00Z EST"])
    #expect(placings(eastern, "2019-03-10 02:30:00") == [])

    #expect(try footerOnly("<+03>-3").offset(atUTC: 0) == IANAZone.LocalTimeType(offset: 10_800, abbreviation: "+03", isDST: false))
    #expect(try footerOnly("IST-5:30").offset(atUTC: 0).offset == 19_800)
    #expect(try footerOnly("<-0330>3:30").offset(atUTC: 0).offset == -12_600)
    // A daylight offset given explicitly, and seconds.
    let odd = try footerOnly("AAA-1:00:30BBB-3,M1.1.0,M12.5.6")
    #expect(odd.offset(atUTC: utc("2019-06-01T00:00:00Z")) == IANAZone.LocalTimeType(offset: 10_800, abbreviation: "BBB", isDST: true))
    #expect(odd.offset(atUTC: utc("2019-12-31T12:00:00Z")).offset == 3630)

    // Jn never counts February 29: J60 is March 1st in 2019 and in 2020. 02:00 EST = 07:00Z.
    let julian = try footerOnly("EST5EDT,J60,J300")
    #expect(julian.offset(atUTC: utc("2020-03-01T06:59:59Z")).isDST == false)
    #expect(julian.offset(atUTC: utc("2020-03-01T07:00:00Z")).isDST == true)
    #expect(julian.offset(atUTC: utc("2019-03-01T07:00:00Z")).isDST == true)
    // n counts it from 0 = January 1st: day 59 is March 1st in 2019 but February 29th in 2020.
    let zeroBased = try footerOnly("EST5EDT,59,300")
    #expect(zeroBased.offset(atUTC: utc("2019-03-01T07:00:00Z")).isDST == true)
    #expect(zeroBased.offset(atUTC: utc("2019-02-28T23:00:00Z")).isDST == false)
    #expect(zeroBased.offset(atUTC: utc("2020-02-29T07:00:00Z")).isDST == true)
    #expect(zeroBased.offset(atUTC: utc("2020-02-29T06:59:59Z")).isDST == false)

    // Southern hemisphere: daylight time across New Year.
    let auckland = try footerOnly("NZST-12NZDT,M9.5.0,M4.1.0/3")
    #expect(auckland.offset(atUTC: utc("2019-01-01T00:00:00Z")).abbreviation == "NZDT")
    #expect(auckland.offset(atUTC: utc("2019-07-01T00:00:00Z")).abbreviation == "NZST")
    #expect(auckland.offset(atUTC: utc("2019-12-31T23:00:00Z")).abbreviation == "NZDT")

    // Version 3: daylight time all year (RFC 8536 §3.3.1).
    let allYear = try footerOnly("EST5EDT,0/0,J365/25", version: UInt8(ascii: "3"))
    for instant in ["2019-01-01T00:00:00Z", "2019-01-01T05:00:00Z", "2019-07-01T00:00:00Z", "2019-12-31T23:59:59Z", "2020-01-01T05:00:00Z"]
    {
      #expect(allYear.offset(atUTC: utc(instant)).abbreviation == "EDT", "\(instant)")
    }
    // Version 2 keeps POSIX's 24-hour limit on rule times.
    #expect(throws: IANAZoneError.self) { try footerOnly("EST5EDT,0/0,J365/25") }
  }

  @Test func versionOneAndLeapSecondFiles() throws {
    // Version 1: 32-bit times, no footer; after the last transition its type stays.
    let v1 = try IANAZone(
      name: "v1",
      tzif: makeTZif(
        version: 0, transitions: [(1_000_000_000, 1), (1_100_000_000, 0)], types: [(0, false, "AAA"), (3600, true, "BBB")]))
    #expect(v1.version == 1)
    #expect(v1.footer == "")
    #expect(v1.offset(atUTC: 999_999_999).abbreviation == "AAA")
    #expect(v1.offset(atUTC: 1_000_000_000).abbreviation == "BBB")
    #expect(v1.offset(atUTC: 2_000_000_000).abbreviation == "AAA")
    // The tzdata leap-second variant (right/…) gives the same instants.
    let right = try zone("right/Europe/London")
    let london = try zone("Europe/London")
    #expect(right.offset(atUTC: utc("2019-03-31T01:00:00Z")).abbreviation == "BST")
    #expect(right.offset(atUTC: utc("2019-03-31T00:59:59Z")).abbreviation == "GMT")
    #expect(placings(right, "2019-10-27 01:30:00") == placings(london, "2019-10-27 01:30:00"))
    // Synthetic: two leap seconds before a transition written as 1000 + 2.
    let leap = try IANAZone(
      name: "leap",
      tzif: makeTZif(
        version: UInt8(ascii: "2"), transitions: [(1002, 1)], types: [(0, false, "AAA"), (3600, false, "BBB")],
        leaps: [(100, 1), (200, 2)], footer: "BBB-1"))
    #expect(leap.lastTransition == 1000)
  }

  @Test func badDataThrows() throws {
    func kind(_ bytes: [UInt8]) -> IANAZoneError.Kind? {
      do throws(IANAZoneError) {
        _ = try IANAZone(name: "x", tzif: bytes)
        return nil
      } catch {
        return error.kind
      }
    }
    let london = try zoneBytes("Europe/London")
    #expect(kind([]) == .truncated)
    #expect(kind(Array("TZif2".utf8)) == .truncated)
    #expect(kind(Array("not a zone file, really not, at least 44 bytes".utf8)) == .notTZif)
    var v5 = london
    v5[4] = UInt8(ascii: "5")
    #expect(kind(v5) == .unsupportedVersion)
    #expect(kind(Array(london.dropLast(1))) == .truncated)
    #expect(kind(Array(london.dropLast(10))) == .truncated)  // inside the footer
    #expect(kind(Array(london.dropLast(40))) == .truncated)  // inside the version 2 data
    let badFooter = makeTZif(version: UInt8(ascii: "2"), types: [(0, false, "UTC")], footer: "EST5EDT,M13.1.0,M11.1.0")
    #expect(kind(badFooter) == .invalidFooter)
    let badIndex = makeTZif(version: 0, transitions: [(0, 3)], types: [(0, false, "UTC")])
    #expect(kind(badIndex) == .invalidData)
    let unordered = makeTZif(version: 0, transitions: [(10, 0), (10, 0)], types: [(0, false, "UTC")])
    #expect(kind(unordered) == .invalidData)
    let minOffset = makeTZif(version: 0, types: [(Int32.min, false, "UTC")])
    #expect(kind(minOffset) == .invalidData)
    let error = IANAZoneError(name: "Europe/London", kind: .truncated, reason: "header needs 44 bytes, 0 left", offset: 0)
    #expect(error.description == "time zone 'Europe/London': truncated data: header needs 44 bytes, 0 left (at byte 0)")
  }

  @Test func truncatedAndFlippedDataNeverTraps() throws {
    for name in ["Europe/London", "America/Nuuk"] {
      let bytes = try zoneBytes(name)
      var parsed = 0
      func exercise(_ data: [UInt8]) {
        guard let z = try? IANAZone(name: name, tzif: data) else { return }
        parsed += 1
        for t: Int64 in [.min, -5_000_000_000, 0, 1_565_000_000, 2_300_000_000, .max] { _ = z.offset(atUTC: t) }
        for t in ["2019-10-27 01:30:00", "2019-03-31 01:30:00", "2050-06-01 12:00:00"] { _ = z.candidates(forLocal: local(t)) }
      }
      for length in 0..<bytes.count {
        #expect(throws: IANAZoneError.self) { try IANAZone(name: name, tzif: Array(bytes[0..<length])) }
      }
      for position in bytes.indices {
        for mask: UInt8 in [0x01, 0x80, 0xFF] {
          var flipped = bytes
          flipped[position] ^= mask
          exercise(flipped)
        }
      }
      // Many flips hit data the reader skips (the version 1 block) or values it accepts.
      #expect(parsed > bytes.count)
    }
  }

  @Test func validNames() {
    for name in ["Europe/London", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "Etc/GMT-14", "UTC", "America/Port-au-Prince"] {
      #expect(IANAZone.isValidName(name), "\(name)")
    }
    for name in [
      "", "/etc/passwd", "../etc/passwd", "Europe/../../etc", "Europe//London", "Europe/London/", "Europe/Lon don", "Europe/.", "Ünïcode",
      "a\0b",
    ] {
      #expect(!IANAZone.isValidName(name), "\(name)")
    }
    #expect(!IANAZone.isValidName(String(repeating: "a", count: 256)))
    #expect(
      IANAZone.searchPaths(forName: "Europe/London", tzdir: "/opt/tz") == ["/opt/tz/Europe/London", "/usr/share/zoneinfo/Europe/London"])
    #expect(IANAZone.searchPaths(forName: "Europe/London") == ["/usr/share/zoneinfo/Europe/London"])
    #expect(IANAZone.searchPaths(forName: "../x", tzdir: "/opt/tz") == [])
  }

  @Test func placeUsesTheZone() throws {
    let text = """
      show system commit
      0   2040-06-01 12:00:00 BST by ann via cli
      1   2019-11-13 15:06:51 GMT by katerina via cli
      2   2019-10-27 01:30:00 GMT by katerina via cli
      3   2019-10-27 01:30:00 BST by katerina via cli
      4   2019-10-27 01:20:00 XYZ by katerina via cli
      5   2019-08-05 09:06:28 EST by bart via cli
      6   2019-08-05 09:00:00 +03 by bart via netconf
      7   2019-03-31 01:30:00 GMT by chris via cli
      8   2019-03-31 00:59:59 UTC by chris via cli
      9   2019-08-05 09:06:28 IST by chris via cli
      rescue 2019-08-05 09:06:28 BST by root via cli

      """
    let file = SourceFile(path: "listing.txt", text: text)
    var h = CommitListParser.parse(file)
    #expect(h.diagnostics.isEmpty)
    TimePlacement.place(&h, timeZone: try zone("Europe/London"), file: file)
    #expect(
      h.commits.map { $0.instant.map(iso8601UTC) ?? "-" } == [
        "2040-06-01T11:00:00Z",  // the footer rule
        "2019-11-13T15:06:51Z",
        "2019-10-27T01:30:00Z",  // GMT picks the second 01:30
        "2019-10-27T00:30:00Z",  // BST the first
        "-",  // XYZ cannot tell
        "2019-08-05T08:06:28Z",  // the zone wins over EST
        "2019-08-05T06:00:00Z",  // numeric zones as printed
        "-",  // skipped by the clocks
        "2019-03-31T00:59:59Z",  // UTC is GMT's offset
        "2019-08-05T08:06:28Z",  // IST can be +01:00 (Irish): consistent with BST
      ])
    #expect(h.rescue?.instant.map(iso8601UTC) == "2019-08-05T08:06:28Z")
    #expect(
      h.diagnostics.map(\.rendered) == [
        "listing.txt:6:1: error: 2019-10-27 01:20:00 happens twice in Europe/London (BST (UTC+01:00) or GMT (UTC+00:00)) and 'XYZ' does not tell which",
        "listing.txt:7:1: warning: time zone 'EST' does not match Europe/London at 2019-08-05 09:06:28, which is BST (UTC+01:00): placed by Europe/London",
        "listing.txt:9:1: error: 2019-03-31 01:30:00 does not exist in Europe/London: the clocks went forward over it",
      ])
    #expect(h.diagnostics.allSatisfy { $0.id == DiagnosticID.unplacedTime.rawValue })
    #expect(h.hasErrors)
  }

  @Test func placeResolvesAmbiguousAbbreviations() throws {
    let text = """
      0   2019-11-13 09:06:51 CST by ann via cli
      1   2019-07-04 12:00:00 CDT by ann via cli
      """
    let file = SourceFile(path: "chicago.txt", text: text)
    var withoutZone = CommitListParser.parse(file)
    TimePlacement.place(&withoutZone, file: file)
    #expect(withoutZone.commits.map(\.instant) == [nil, nil])
    var h = CommitListParser.parse(file)
    TimePlacement.place(&h, timeZone: try zone("America/Chicago"), file: file)
    #expect(h.commits.map { $0.instant.map(iso8601UTC) } == ["2019-11-13T15:06:51Z", "2019-07-04T17:00:00Z"])
    #expect(h.diagnostics.isEmpty)

    let india = SourceFile(path: "india.txt", text: "0   2019-08-05 09:06:28 IST by ravi via cli\n")
    var k = CommitListParser.parse(india)
    TimePlacement.place(&k, timeZone: try zone("Asia/Kolkata"), file: india)
    #expect(k.commits.first?.instant.map(iso8601UTC) == "2019-08-05T03:36:28Z")
    #expect(k.diagnostics.isEmpty)

    // An instant already set (XML `seconds`) is kept.
    var xml = CommitHistory(commits: [
      Commit(index: 0, localTime: local("2019-10-27 01:30:00"), timeZone: "XYZ", user: "u", client: "cli", instant: 42, line: 1)
    ])
    TimePlacement.place(&xml, timeZone: try zone("Europe/London"), file: india)
    #expect(xml.commits[0].instant == 42)
    #expect(xml.diagnostics.isEmpty)
  }
}

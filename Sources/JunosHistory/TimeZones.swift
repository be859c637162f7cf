/// Time-zone abbreviations Junos prints (from the tz database), with their UTC offsets.
///
/// An abbreviation that the tz database uses for more than one offset (`CST`: US Central −06:00,
/// China +08:00, Cuba −05:00; `IST`: India, Ireland, Israel; `CDT`) is ambiguous: a commit time
/// printed with it cannot be placed without the device's zone. Numeric forms (`+03`, `-0330`,
/// `+05:30`) are read as they are.
public enum ZoneAbbreviations {
  /// Abbreviation → its possible offsets from UTC, in seconds. More than one = ambiguous.
  public static let table: [String: [Int]] = [
    "UTC": [0], "GMT": [0], "Z": [0], "UT": [0], "WET": [0], "WEST": [3600], "BST": [3600], "IST": [19_800, 3600, 7200],
    "CET": [3600], "CEST": [7200], "MET": [3600], "MEST": [7200], "EET": [7200], "EEST": [10_800], "MSK": [10_800],
    "MSD": [14_400], "SAST": [7200], "CAT": [7200], "EAT": [10_800], "WAT": [3600], "IDT": [10_800], "PKT": [18_000],
    "WIB": [25_200], "WITA": [28_800], "WIT": [32_400], "HKT": [28_800], "JST": [32_400], "KST": [32_400], "AWST": [28_800],
    "ACST": [34_200], "ACDT": [37_800], "AEST": [36_000], "AEDT": [39_600], "NZST": [43_200], "NZDT": [46_800],
    "ChST": [36_000], "HST": [-36_000], "AKST": [-32_400], "AKDT": [-28_800], "PST": [-28_800], "PDT": [-25_200],
    "MST": [-25_200], "MDT": [-21_600], "CST": [-21_600, 28_800, -18_000], "CDT": [-18_000, -14_400], "EST": [-18_000],
    "EDT": [-14_400], "AST": [-14_400], "ADT": [-10_800], "NST": [-12_600], "NDT": [-9000],
  ]

  /// The offset of a printed zone: an abbreviation of the table with one offset, or a numeric
  /// `+HH`, `+HHMM`, `+HH:MM`.
  public enum Resolution: Equatable, Sendable {
    case offset(Int)
    case ambiguous([Int])
    case unknown
  }

  /// Resolves a printed zone.
  public static func resolve(_ zone: String) -> Resolution {
    if let n = numericOffset(zone) { return .offset(n) }
    guard let offsets = table[zone] else { return .unknown }
    return offsets.count == 1 ? .offset(offsets[0]) : .ambiguous(offsets)
  }

  /// `+03` → 10800, `-0330` → −12600, `+05:30` → 19800.
  public static func numericOffset(_ zone: String) -> Int? {
    let b = Array(zone.utf8)
    guard b.count >= 3, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-") else { return nil }
    let digits = b.dropFirst().filter { $0 != UInt8(ascii: ":") }
    guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    let v = digits.map { Int($0) - 0x30 }
    let hours = v[0] * 10 + v[1]
    let minutes = digits.count == 4 ? v[2] * 10 + v[3] : 0
    guard hours <= 14, minutes < 60 else { return nil }
    let s = hours * 3600 + minutes * 60
    return b[0] == UInt8(ascii: "-") ? -s : s
  }

  /// `+05:30` style text of an offset.
  public static func text(_ offset: Int) -> String {
    let a = abs(offset)
    let h = a / 3600
    let m = a % 3600 / 60
    return (offset < 0 ? "-" : "+") + (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
  }
}

import ArgumentKit
import Dispatch
import Foundation
import JunosChecklist
import JunosConfig
import JunosHistory
import Reports
import Synchronization

/// Options shared by the commands that read configurations.
enum CommonOptions {
  /// `--jobs N` (1–256), else `default`.
  static func jobs(_ inv: Invocation, default n: Int) throws(CommandFailure) -> Int {
    let jobs = Int(inv.option("jobs") ?? String(n)) ?? 0
    guard (1...256).contains(jobs) else { throw CommandFailure(message: "--jobs wants 1–256", status: ExitStatus.usage) }
    return jobs
  }

  /// `--shard K/N` (1 ≤ K ≤ N), if given: what `ci` and `review` keep is chosen by
  /// ``ReviewShard/contains(_:shard:of:)``.
  static func shard(_ inv: Invocation) throws(CommandFailure) -> (k: Int, n: Int)? {
    guard let s = inv.option("shard") else { return nil }
    let parts = s.split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
      throw CommandFailure(message: "--shard wants K/N with 1 ≤ K ≤ N, e.g. 2/8", status: ExitStatus.usage)
    }
    return (parts[0], parts[1])
  }

  static let syntax = ArgumentSpec.option(
    "syntax", valueName: "syntax", help: "Read inputs as this syntax instead of detecting it.",
    allowedValues: ConfigSyntax.allCases.map(\.rawValue))
  static let keywords = ArgumentSpec.option(
    "keywords", valueName: "file",
    help: "Extra keyword-table entries (the form 'junoscope keywords learn' prints), applied over the built-in table.",
    repeating: true, completion: .file)
  static let junosFamily = ArgumentSpec.option(
    "junos-family", valueName: "family",
    help: "Check against one platform family's schema instead of the union of all.", allowedValues: ConfigModel.familyNames)
  static let lenient = ArgumentSpec.flag("lenient", help: "Report statements the schema does not know as warnings, not errors.")
  static let showSecrets = ArgumentSpec.flag("show-secrets", help: "Print secrets (passwords, keys) instead of masking them.")
  static let output = ArgumentSpec.option(
    "output", short: "o", valueName: "file", help: "Write to this file (atomically) instead of standard output.",
    completion: .file)

  static let utcOffsetOption = ArgumentSpec.option(
    "utc-offset", valueName: "±HH:MM", help: "The device's UTC offset, for zones the listing does not make clear.")

  static let timeZoneOption = ArgumentSpec.option(
    "timezone", valueName: "zone",
    help: "The device's IANA time zone (Europe/London), read from $TZDIR or /usr/share/zoneinfo; wins over printed abbreviations.")

  /// `--timezone`, read and parsed, if given.
  static func timeZone(_ inv: Invocation) throws(CommandFailure) -> IANAZone? {
    guard let name = inv.option("timezone") else { return nil }
    if inv.option("utc-offset") != nil {
      throw CommandFailure(message: "give --timezone or --utc-offset, not both", status: ExitStatus.usage)
    }
    return try timeZone(named: name, option: "timezone")
  }

  /// The IANA zone `name` (given with `--option`), read from $TZDIR or /usr/share/zoneinfo.
  static func timeZone(named name: String, option: String) throws(CommandFailure) -> IANAZone {
    let paths = IANAZone.searchPaths(forName: name, tzdir: ProcessInfo.processInfo.environment["TZDIR"])
    guard !paths.isEmpty else {
      throw CommandFailure(message: "--\(option) wants an IANA zone name such as Europe/London, not '\(name)'", status: ExitStatus.usage)
    }
    for path in paths {
      guard let data = FileManager.default.contents(atPath: path) else { continue }
      do {
        return try IANAZone(name: name, tzif: Array(data))
      } catch {
        throw CommandFailure(message: "\(path): \(error.description)", status: ExitStatus.invalidInput)
      }
    }
    throw CommandFailure(
      message: "unknown time zone '\(name)' (looked for \(paths.joined(separator: " and "))); is tzdata installed?",
      status: ExitStatus.invalidInput)
  }

  /// The device's zone as the user gave it: `--timezone NAME`, or `--utc-offset` (nil: each
  /// entry's printed zone).
  typealias DeviceZone = TimePlacement.Zone

  /// `--timezone` (its file read once) or `--utc-offset`; usage errors before any input is read.
  static func deviceZone(_ inv: Invocation) throws(CommandFailure) -> DeviceZone {
    if let zone = try timeZone(inv) { return .iana(zone) }
    return .offset(try utcOffset(inv))
  }

  /// `--utc-offset` in seconds, if given.
  static func utcOffset(_ inv: Invocation) throws(CommandFailure) -> Int? {
    guard let text = inv.option("utc-offset") else { return nil }
    guard let o = ZoneAbbreviations.numericOffset(text) ?? (text == "UTC" ? 0 : nil) else {
      throw CommandFailure(message: "--utc-offset wants ±HH:MM (or UTC), not '\(text)'", status: ExitStatus.usage)
    }
    return o
  }

  /// Reads a `--commits` file (standard input for `-`). Something else than a listing (a
  /// configuration, an empty file, a binary) has no commit entries: that is an error, not an
  /// empty history.
  static func listingFile(_ path: String, io: FileIO) throws(CommandFailure) -> SourceFile {
    let input = try io.read(path)
    let file = SourceFile(path: input.path, bytes: input.bytes)
    let kind = InputKind.detect(file)
    guard kind == .history else {
      throw CommandFailure(
        message: "\(Diagnostic.printable(file.path)): no commit entries: it is \(kind.description), not a 'show system commit' listing",
        status: ExitStatus.invalidInput)
    }
    return file
  }

  /// The model of statements: Juniper's schema, and behind it the built-in keyword table plus
  /// every `--keywords FILE`.
  static func model(_ inv: Invocation, io: FileIO) throws(CommandFailure) -> ConfigModel {
    let model = ConfigModel(keywords: try keywordTable(inv, io: io))
    guard let family = inv.option("junos-family") else { return model }
    // ArgumentKit has checked the name against ConfigModel.familyNames.
    return model.narrowed(toFamily: family) ?? model
  }

  /// The keyword table: built-in, plus every `--keywords FILE`.
  static func keywordTable(_ inv: Invocation, io: FileIO) throws(CommandFailure) -> KeywordTable {
    var table = KeywordTable.standard
    for path in inv.options("keywords") {
      let input = try io.read(path)
      let bad = table.load(String(decoding: input.bytes, as: UTF8.self))
      if let first = bad.first {
        throw CommandFailure(message: "\(path):\(first):1: error: not a keyword-table line", status: 2)
      }
    }
    return table
  }

  /// Reads and parses one input (gzip files, such as a saved `juniper.conf.3.gz`, are
  /// decompressed first).
  static func parse(_ path: String, _ inv: Invocation, io: FileIO, model: ConfigModel) throws(CommandFailure) -> (
    SourceFile, ParseResult
  ) {
    let file = try source(path, io: io)
    return (file, ConfigParser.parse(file, syntax: syntax(inv), model: model))
  }

  /// One input as text: read (standard input for `-`) and decompressed when it is gzip data.
  static func source(_ path: String, io: FileIO) throws(CommandFailure) -> SourceFile {
    var input = try io.read(path)
    input.bytes = try gunzipped(input.bytes, path: input.path)
    return SourceFile(path: input.path, bytes: input.bytes)
  }

  /// The syntax `--syntax` forces, if any.
  static func syntax(_ inv: Invocation) -> ConfigSyntax? { inv.option("syntax").flatMap(ConfigSyntax.init(rawValue:)) }

  /// Reads two inputs (in order: standard input is read once) and parses them at the same time,
  /// one thread each: `compare`'s two configurations.
  static func parsePair(_ paths: (String, String), _ inv: Invocation, io: FileIO, model: ConfigModel) throws(CommandFailure) -> (
    (SourceFile, ParseResult), (SourceFile, ParseResult)
  ) {
    let files = [try source(paths.0, io: io), try source(paths.1, io: io)]
    let syntax = syntax(inv)
    let results = Mutex<[Int: ParseResult]>([:])
    DispatchQueue.concurrentPerform(iterations: 2) { k in
      let r = ConfigParser.parse(files[k], syntax: syntax, model: model)
      results.withLock { $0[k] = r }
    }
    let r = results.withLock { $0 }
    return ((files[0], r[0]!), (files[1], r[1]!))
  }

  /// The bytes, decompressed when they are gzip data.
  static func gunzipped(_ bytes: [UInt8], path: String) throws(CommandFailure) -> [UInt8] {
    guard Gzip.isGzip(bytes) else { return bytes }
    do {
      return try Gzip.decompress(bytes)
    } catch {
      throw CommandFailure(message: "\(path): \(error.message)", status: ExitStatus.invalidInput)
    }
  }

  /// Prints diagnostics on standard error in the `file:line:col: severity: message` form, the
  /// severity painted when standard error is coloured.
  static func report(_ diagnostics: [Diagnostic], console: Console) {
    guard !diagnostics.isEmpty else { return }
    console.err(Array(diagnostics.map { rendered($0, color: console.colorsErr) + "\n" }.joined().utf8))
  }

  /// `Diagnostic.rendered`, with `error:` bold red, `warning:` bold yellow and `note:` cyan when
  /// `color`.
  static func rendered(_ d: Diagnostic, color: Bool) -> String {
    guard color else { return d.rendered }
    let severity = TextStyle(color: true).paint(d.severity.rawValue + ":", TextStyle.paint(of: d.severity))
    return "\(Diagnostic.printable(d.path)):\(d.location.line):\(d.location.column): \(severity) \(Diagnostic.printable(d.message))"
  }
}

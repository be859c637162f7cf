// FuzzHistory.swift: libFuzzer target for JunosHistory's readers (commit listings as text and
// XML, TZif zone files, gzip) and the listing renderer.
//
// Not a SwiftPM target. Tests/Fuzz/run.sh compiles it with Sources/JunosConfig/*.swift,
// Sources/JunosDiff/*.swift and Sources/JunosHistory/*.swift as ONE module (their
// `import JunosConfig` / `import JunosDiff` lines are dropped; CZlib comes from
// `-I Sources/CZlib -lz`), so there is no import of those here:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzJunos \
//     -I Sources/CZlib -lz Sources/JunosConfig/*.swift FLAT/*.swift Tests/Fuzz/FuzzHistory.swift
//
// Every input goes to all three readers (none may trap; the checks below fatalError with what
// they saw):
//   1. Listing: CommitHistory.read (auto-detected form) and the other form's parser. Each result
//      is placed three ways (printed zones; a fixed UTC offset; Europe/London from the fixtures)
//      and rendered as JSON, batches (with and without a gap) and timeline JSON; the first
//      placement also as the HTML timeline and text lines.
//      Round trip: the entries whose listingProblem is nil, rendered with renderListing and read
//      back with CommitListParser, must give the same entries (index, local time, zone, user,
//      client, comment, log, confirmedMinutes) and rescue, with no diagnostic, and render to the
//      same bytes again. For the text form, every entry must have no listingProblem (the text
//      parser only reads what the text form can hold).
//   2. Zone: IANAZone(name:tzif:). When it reads: offset(atUTC:) on fixed instants (extremes
//      included) and around the last transition; for those in years 1–9999, the local time the
//      offset gives must list that offset's type among candidates(forLocal:), and every candidate
//      must map back to itself; candidates(forLocal:) on fixed local times (a gap, an overlap,
//      years 1 and 9999, the ±1,000,000-year limit).
//   3. Gzip: decompress must not trap; output up to 64 KB is read as a listing (1.) as the CLI
//      reads `.gz` inputs. For inputs whose length is a multiple of 8, compress(input) must
//      decompress to the input, and twice concatenated to the input twice.

internal import Glibc

/// Europe/London, read from the fixtures once (the script runs from the repository root).
let london: IANAZone = {
  let path = "Fixtures/zoneinfo/Europe/London"
  guard let bytes = fuzzRead(path) else { fatalError("\(path) not found: run from the repository root") }
  do {
    return try IANAZone(name: "Europe/London", tzif: bytes)
  } catch {
    fatalError("\(path): \(error)")
  }
}()

private func failure(_ what: String, _ texts: [[UInt8]]) -> Never {
  let shown = texts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n--- next ---\n")
  fatalError("\(what)\n--- texts ---\n\(shown)\n--- end ---")
}

/// What the text form holds of an entry.
private func held(_ c: Commit) -> Commit {
  var c = c
  c.instant = nil
  c.revision = nil
  c.line = 0
  return c
}

/// The renderings and derived views of one placed history (must not trap). The HTML timeline
/// and the text lines, the slowest, only when `all`.
private func exercise(_ h: CommitHistory, all: Bool) {
  _ = h.renderJSON()
  let batches = h.batches()
  _ = h.batches(gap: 600)
  _ = CommitHistory.timelineJSON(batches)
  guard all else { return }
  _ = CommitHistory.timelineHTML(batches, title: "fuzz")
  _ = CommitHistory.logText(h.commits + (h.rescue.map { [$0] } ?? []))
  _ = CommitHistory.timelineText(batches)
}

private func checkListing(_ h: CommitHistory, file: SourceFile, isText: Bool) {
  var printed = h
  TimePlacement.place(&printed, file: file)
  exercise(printed, all: true)  // placed and unplaced entries side by side
  var fixed = h
  TimePlacement.place(&fixed, zone: 19_800, file: file)
  exercise(fixed, all: false)
  var zoned = h
  TimePlacement.place(&zoned, timeZone: london, file: file)
  exercise(zoned, all: false)

  let all = h.commits + (h.rescue.map { [$0] } ?? [])
  if isText, let c = all.first(where: { $0.listingProblem != nil }) {
    failure("the text parser read an entry the text form cannot hold (\(c.listingProblem!)): \(c)", [file.bytes])
  }
  var kept = CommitHistory(commits: h.commits.filter { $0.listingProblem == nil && $0.index != nil })
  if let r = h.rescue, r.listingProblem == nil { kept.rescue = r }
  let rendered = kept.renderListing()
  let back = CommitListParser.parse(SourceFile(path: "rendered", bytes: rendered))
  if !back.diagnostics.isEmpty {
    failure("the rendered listing has diagnostics: \(back.diagnostics.map(\.rendered))", [file.bytes, rendered])
  }
  if back.commits.map(held) != kept.commits.map(held) || back.rescue.map(held) != kept.rescue.map(held) {
    let got = back.commits.map(held) + (back.rescue.map { [held($0)] } ?? [])
    let want = kept.commits.map(held) + (kept.rescue.map { [held($0)] } ?? [])
    let first = zip(got, want).first { $0.0 != $0.1 }.map { "got \($0.0)\nwanted \($0.1)" } ?? "\(got.count) entries, wanted \(want.count)"
    failure("parse(render(h)) != h: \(first)", [file.bytes, rendered])
  }
  let again = back.renderListing()
  if again != rendered { failure("rendering the read-back listing gives other bytes", [rendered, again]) }
}

private func checkHistory(_ bytes: [UInt8]) {
  let file = SourceFile(path: "fuzz-input", bytes: bytes)
  let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
  let isXML = first == UInt8(ascii: "<")
  checkListing(CommitHistory.read(file), file: file, isText: !isXML)
  if isXML {
    checkListing(CommitListParser.parse(file), file: file, isText: true)
  } else {
    checkListing(CommitXMLParser.parse(file), file: file, isText: false)
  }
}

/// The local date and time of `seconds` after 1970 as if UTC (years 1–9999 only).
private func localTime(_ seconds: Int64) -> LocalTime {
  let f = iso8601UTC(seconds).dropLast().split { $0 == "-" || $0 == "T" || $0 == ":" }.map { Int($0)! }
  return LocalTime(year: f[0], month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5])
}

private let year1: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
private let year9999End: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z

private func checkZone(_ bytes: [UInt8]) {
  guard let zone = try? IANAZone(name: "fuzz", tzif: bytes) else { return }
  var instants: [Int64] = [
    .min, -(1 << 40), year1, -2_208_988_800, -1, 0, 1, 1_000_000_000, 1_553_995_800, 1_572_139_800, 2_147_483_647, 2_147_483_648,
    4_102_444_800, year9999End, 1 << 40, .max,
  ]
  if let last = zone.lastTransition { instants += [last &- 1, last, last &+ 1] }
  for u in instants {
    let type = zone.offset(atUTC: u)
    _ = type.description
    let (local, overflow) = u.addingReportingOverflow(Int64(type.offset))
    guard !overflow, local >= year1 + 86_400, local <= year9999End - 86_400 else { continue }
    let t = localTime(local)
    let candidates = zone.candidates(forLocal: t)
    if !candidates.contains(type) {
      failure("\(zone.name): \(iso8601UTC(u)) is \(type), but candidates(forLocal: \(t)) are \(candidates)", [bytes])
    }
    for c in candidates where zone.offset(atUTC: t.secondsAsUTC - Int64(c.offset)) != c {
      failure("\(zone.name): candidate \(c) of \(t) does not map back", [bytes])
    }
  }
  for t in [
    LocalTime(year: 2019, month: 3, day: 31, hour: 1, minute: 30, second: 0),
    LocalTime(year: 2019, month: 10, day: 27, hour: 1, minute: 30, second: 0),
    LocalTime(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0),
    LocalTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 60),
    LocalTime(year: 1_000_000, month: 1, day: 1, hour: 0, minute: 0, second: 0),
    LocalTime(year: -1_000_001, month: 1, day: 1, hour: 0, minute: 0, second: 0),
  ] {
    _ = zone.candidates(forLocal: t)
  }
}

private func checkGzip(_ bytes: [UInt8]) {
  _ = Gzip.isGzip(bytes)
  if let out = try? Gzip.decompress(bytes), out.count <= 65_536 { checkHistory(out) }
  // Compressing costs a fresh 256 KB of zlib state: one input in eight.
  guard bytes.count % 8 == 0 else { return }
  let packed = Gzip.compress(bytes)
  guard let unpacked = try? Gzip.decompress(packed), unpacked == bytes else { failure("decompress(compress(x)) != x", [bytes]) }
  guard let twice = try? Gzip.decompress(packed + packed), twice == bytes + bytes else {
    failure("decompress(compress(x) + compress(x)) != x + x", [bytes])
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  checkHistory(bytes)
  checkZone(bytes)
  checkGzip(bytes)
  return 0
}

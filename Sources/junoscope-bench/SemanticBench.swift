// SemanticBench.swift
//
// `junoscope-bench semantic`: generates the curly configuration of `parse` (ConfigGenerator, same
// seed) and its copy with 100 edits (CompareEdits.swift, as `compare` makes it), then measures in
// this process, interleaved, after one untimed warm-up each:
//   - the whole lint of the pair, as `lint` of a history range runs it: parse both, then
//     Checklist.lint(before:beforeFile:after:afterFile:) (effective configurations, models, every
//     configuration rule on both, every change rule including the semantic ones on the attachment
//     points the edits touched): the target, at most 2 s for 100k lines. (Not
//     lint(changes:baseline:): its schema check refuses the edited copy, whose generic edits can
//     put an IPv4 address in an inet6 filter);
//   - the semantic comparison of every attachment point present on both sides
//     (SemanticComparison.policies(everyAttachment: true), trees parsed beforehand), against the
//     lint in the same run;
//   - the same comparison of the changed attachment points only (what lint runs);
//   - reading both configurations' models and attachment points alone, which both comparisons
//     include: the rest is the comparing.
// It reports the attachment points, route classes and sets of routes found, and exits 1 if the
// lint reports an input error.

import Glibc
import JunosChecklist
import JunosConfig

/// The semantic lint target: the whole lint of a 100k-line configuration and its 100-edit change
/// in at most this many seconds.
let semanticTargetSeconds = 2.0

/// Figures of one size.
struct SemanticRow {
  var configLines: Int
  var edits: Int
  var lint: [UInt64]
  var every: [UInt64]
  var changed: [UInt64]
  /// Reading both configurations' models and attachment points alone (what the comparisons
  /// spend before comparing anything).
  var models: [UInt64]
  var attachments: Int
  var compared: Int
  var changedAttachments: Int
  var classes: Int
  var changes: Int
  var findings: [String: Int]
}

func runSemanticBench(_ options: BenchOptions) throws -> [SemanticRow] {
  var rows: [SemanticRow] = []
  for lines in options.lines {
    var generator = ConfigGenerator(seed: benchSeed)
    let old = generator.curly(lines: lines)
    let edited = makeEditedConfig(old, edits: 100, seed: benchSeed ^ UInt64(lines))
    let oldFile = SourceFile(path: "old.conf", bytes: old)
    let newFile = SourceFile(path: "new.conf", bytes: edited.bytes)
    let a = ConfigParser.parse(oldFile)
    let b = ConfigParser.parse(newFile)
    if a.hasErrors || b.hasErrors { throw BenchError("the generated pair does not parse") }
    if let dir = options.keepDirectory {
      try writeWholeFile(dir + "/semantic-\(lines).conf", old)
      try writeWholeFile(dir + "/semantic-\(lines)-edited.conf", edited.bytes)
    }
    var row = SemanticRow(
      configLines: lines, edits: edited.total, lint: [], every: [], changed: [], models: [], attachments: 0, compared: 0,
      changedAttachments: 0,
      classes: 0, changes: 0, findings: [:])
    for sample in 0...options.samples {
      let t0 = monotonicNanos()
      let pa = ConfigParser.parse(oldFile)
      let pb = ConfigParser.parse(newFile)
      let result = Checklist.lint(before: pa.tree, beforeFile: oldFile, after: pb.tree, afterFile: newFile)
      let t1 = monotonicNanos()
      let every = SemanticComparison.policies(before: a.tree, after: b.tree, everyAttachment: true)
      let t2 = monotonicNanos()
      let changed = SemanticComparison.policies(before: a.tree, after: b.tree)
      let t3 = monotonicNanos()
      _ = SemanticComparison.attachmentCount(of: a.tree) + SemanticComparison.attachmentCount(of: b.tree)
      let t4 = monotonicNanos()
      if result.hasErrors {
        throw BenchError("lint reports an input error: \(result.diagnostics.first { $0.severity == .error }?.rendered ?? "")")
      }
      guard sample > 0 else { continue }
      row.lint.append(t1 - t0)
      row.every.append(t2 - t1)
      row.changed.append(t3 - t2)
      row.models.append(t4 - t3)
      row.changedAttachments = changed.count
      row.changes = every.reduce(0) { $0 + $1.difference.changes.count }
      row.compared = every.count
      row.classes = every.reduce(0) { $0 + $1.difference.classesCompared }
      row.findings = Dictionary(grouping: result.findings, by: \.rule.rawValue).mapValues(\.count)
      if every.map(\.attachment.description) != changed.map(\.attachment.description) {
        throw BenchError("comparing every attachment point finds other differences than comparing the changed ones")
      }
    }
    row.attachments = SemanticComparison.attachmentCount(of: b.tree)
    rows.append(row)
  }
  return rows
}

/// The report as a table with explanations.
func semanticTableReport(_ rows: [SemanticRow]) -> String {
  var out = ""
  for r in rows {
    let lint = medianOf(r.lint) / 1e6
    let every = medianOf(r.every) / 1e6
    let changed = medianOf(r.changed) / 1e6
    out += "semantic: \(sizeLabel(r.configLines)) lines, \(r.edits) edits, \(r.lint.count) samples (median ms, best ms)\n"
    out += "  whole lint of the pair              \(fixed(lint, 1)) (best \(fixed(Double(r.lint.min() ?? 0) / 1e6, 1)))"
    out += "  target ≤ \(fixed(semanticTargetSeconds * 1000, 0)): \(lint <= semanticTargetSeconds * 1000 ? "met" : "NOT met")\n"
    out += "  semantic comparison, every point    \(fixed(every, 1)) (best \(fixed(Double(r.every.min() ?? 0) / 1e6, 1)))"
    out += "  = \(fixed(every / max(lint, 0.001), 2))× the lint\n"
    out += "  semantic comparison, changed points \(fixed(changed, 1)) (best \(fixed(Double(r.changed.min() ?? 0) / 1e6, 1)))"
    out += "  = \(fixed(changed / max(lint, 0.001), 2))× the lint\n"
    let models = medianOf(r.models) / 1e6
    out += "  of which both models and attachment points \(fixed(models, 1)) (comparing: every \(fixed(every - models, 1)),"
    out += " changed \(fixed(changed - models, 1)))\n"
    out += "  attachment points: \(grouped(r.attachments)); decide differently: \(r.compared) (every) = \(r.changedAttachments) (changed);"
    out += " route classes compared: \(grouped(r.classes)); sets of routes: \(r.changes)\n"
    let rules = r.findings.keys.sorted().filter { ["export-leaks-routes", "import-drops-routes", "igp-export-widened"].contains($0) }
    out += "  semantic findings: " + (rules.isEmpty ? "none" : rules.map { "\($0) \(r.findings[$0]!)" }.joined(separator: ", ")) + "\n"
  }
  return out
}

/// The report as JSON.
func semanticJSONReport(_ rows: [SemanticRow]) -> String {
  let items = rows.map { r in
    "{\"configLines\":\(r.configLines),\"edits\":\(r.edits),\"lintMedianMs\":\(fixed(medianOf(r.lint) / 1e6, 3)),"
      + "\"everyMedianMs\":\(fixed(medianOf(r.every) / 1e6, 3)),\"changedMedianMs\":\(fixed(medianOf(r.changed) / 1e6, 3)),"
      + "\"attachments\":\(r.attachments),\"differing\":\(r.compared),\"classes\":\(r.classes),\"changes\":\(r.changes),"
      + "\"targetSeconds\":\(fixed(semanticTargetSeconds, 1))}"
  }
  return "[" + items.joined(separator: ",") + "]"
}

import JunosHistory
public import JunosReview

/// The review as Markdown, to paste into a postmortem: the window and sources, a table of the
/// devices, then per device its notes and batches — commits, the diff in a fenced block, the
/// checklist's findings and the earlier commits that last touched what changed.
public enum ReviewMarkdown {
  /// The report as Markdown, UTF-8, with a final newline.
  public static func encode(_ report: ReviewReport) -> [UInt8] {
    var s = "# Outage review: \(iso8601UTC(report.window.since)) – \(iso8601UTC(report.window.until))\n\n"
    s += report.summary + "\n\n"
    s += "Sources:\n\n"
    for source in report.sources { s += "- `\(source)`\n" }
    s += "\n| Device | Source | Status | Commits | Batches | Risky |\n|---|---|---|---|---|---|\n"
    for d in report.devices {
      s += "| \(cell(d.name)) | \(cell(d.kind)) | \(d.status.label) | \(d.commits.count) | \(d.batches.count) | "
      s += "\(d.isRisky ? "**yes**" : "no") |\n"
    }
    for d in report.devices { s += device(d) }
    return Array(s.utf8)
  }

  static func device(_ d: ReviewDevice) -> String {
    var s = "\n## \(d.name) — \(d.status.label)\n\n"
    s += "Source: \(d.kind) `\(d.location)`\n"
    if case .failed(let why) = d.status { s += "\n**Could not be read:** \(why)\n" }
    for n in d.notes { s += "\n> \(n)\n" }
    if d.commits.isEmpty, d.status == .unchanged { s += "\nNo commits in the window.\n" }
    for (k, b) in d.batches.enumerated() { s += batch(b, number: k + 1) }
    return s
  }

  static func batch(_ b: ReviewBatch, number: Int) -> String {
    let first = b.commits.first?.rollback ?? 0
    let last = b.commits.last?.rollback ?? 0
    var s = "\n### Batch \(number): \(b.author), commit\(first == last ? " \(first)" : "s \(first)..\(last)")"
    s += b.isRisky ? " — **risky**\n\n" : "\n\n"
    s += "| Rollback | Time (UTC) | User | Client | Comment |\n|---|---|---|---|---|\n"
    for c in b.commits {
      s +=
        "| \(c.rollback) | \(c.instant.map(iso8601UTC) ?? "unknown") | \(cell(c.user)) | \(cell(c.client)) | \(cell(c.comment ?? "")) |\n"
    }
    if let note = b.note { s += "\n> \(note)\n" }
    if let diff = b.diff {
      if diff.isEmpty {
        s += "\nNo configuration change.\n"
      } else {
        let f = fence(diff)
        s += "\n\(f)\n\(diff)\(diff.hasSuffix("\n") ? "" : "\n")\(f)\n"
      }
    }
    if !b.findings.isEmpty {
      s += "\nFindings:\n\n"
      for f in b.findings {
        s += "- **\(f.severity.rawValue)** \(f.rule)\(f.path.isEmpty ? "" : " `\(f.path)`"): \(f.message)\n"
      }
    }
    if !b.blame.isEmpty {
      s += "\nLast touched before (blame):\n\n"
      for x in b.blame {
        let when = x.instant.map { " at \(iso8601UTC($0))" } ?? ""
        s += "- `\(x.statement)` (\(x.change)): \(x.commitText)\(x.user.map { " by \($0)" } ?? "")\(when)\n"
      }
    }
    return s
  }

  /// A code fence longer than any run of backticks in `text`.
  static func fence(_ text: String) -> String {
    var longest = 0
    var run = 0
    for b in text.utf8 {
      run = b == UInt8(ascii: "`") ? run + 1 : 0
      longest = max(longest, run)
    }
    return String(repeating: "`", count: max(3, longest + 1))
  }

  /// Text for a table cell: `|` escaped, line breaks as spaces.
  static func cell(_ s: String) -> String {
    var out = ""
    for ch in s {
      switch ch {
      case "|": out += "\\|"
      case "\n", "\r", "\r\n": out += " "
      default: out.append(ch)
      }
    }
    return out
  }
}

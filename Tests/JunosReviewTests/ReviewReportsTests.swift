import JunosChecklist
import JunosReview
import Reports
import Testing

/// The review's encoders: JSON read back as written, Markdown's fences and cells, HTML's escaping.
struct ReviewReportsTests {
  static let report = ReviewReport(
    window: ReviewWindow(since: 1_727_000_000, until: 1_727_100_000),
    devices: [
      ReviewDevice(
        name: "r2", kind: "git", location: "/backups", status: .failed("'/backups' is not a git repository")),
      ReviewDevice(
        name: "r1", kind: "rollbacks", location: "saved/r1", status: .changed,
        commits: [
          ReviewCommit(rollback: 1, instant: 1_727_000_100, user: "ann", client: "cli", comment: "a | b"),
          ReviewCommit(rollback: 0, instant: nil, user: "?", client: "", comment: nil),
        ],
        batches: [
          ReviewBatch(
            author: "ann", commits: [ReviewCommit(rollback: 1, instant: 1_727_000_100, user: "ann", client: "cli", comment: "a | b")],
            diff: "[edit system]\n+   host-name \"<x>\";\n+   /* ``` */\n",
            findings: [ReviewFinding(rule: "policy-detached", severity: .warning, message: "m <b>", hint: "h", path: "protocols bgp")],
            blame: [
              ReviewBlame(
                statement: "system host-name r1", change: "changed", commit: 3, oldestCommit: 4, isBoundary: false, user: "bob",
                instant: 1_726_000_000)
            ]),
          ReviewBatch(author: "?", commits: [], diff: nil, findings: [], blame: [], note: "no configuration before"),
        ],
        notes: ["a note"]),
    ])

  @Test func jsonReadsBackAsWritten() throws {
    let bytes = ReviewJSON.encode(Self.report)
    let back = try ReviewJSON.read(bytes)
    #expect(back == Self.report)
    #expect(ReviewJSON.encode(back) == bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix("{\n  \"format\": \"junoscope.review\",\n  \"version\": 1,\n"))
    #expect(text.contains("\"status\": \"failed\",\n      \"reason\": \"'/backups' is not a git repository\""))
    #expect(throws: ReviewJSON.Failure.self) { try ReviewJSON.read(Array("{\"format\": \"junoscope.lint\"}".utf8)) }
    #expect(throws: ReviewJSON.Failure.self) {
      try ReviewJSON.read(Array(text.replacingOccurrences(of: "\"changed\"", with: "\"odd\"").utf8))
    }
  }

  @Test func mergeNeedsOneWindow() {
    let a = ReviewReport(window: Self.report.window, devices: [Self.report.devices[0]])
    let b = ReviewReport(window: Self.report.window, devices: [Self.report.devices[1]])
    #expect(ReviewReport.merge([b, a]) == Self.report)
    #expect(ReviewReport.merge([a, ReviewReport(window: ReviewWindow(since: 0, until: 1), devices: [])]) == nil)
  }

  @Test func markdownFencesCellsAndFailures() {
    let md = String(decoding: ReviewMarkdown.encode(Self.report), as: UTF8.self)
    // The diff holds ``` so its fence is longer.
    #expect(md.contains("\n````\n[edit system]\n+   host-name \"<x>\";\n+   /* ``` */\n````\n"))
    #expect(md.contains("| 1 | 2024-09-22T10:15:00Z | ann | cli | a \\| b |"))
    #expect(md.contains("**Could not be read:** '/backups' is not a git repository"))
    #expect(md.contains("- **warning** policy-detached `protocols bgp`: m <b>\n"))
    #expect(md.contains("- `system host-name r1` (changed): commits 3..4 by bob at 2024-09-10T20:26:40Z\n"))
    #expect(md.contains("| r1 | rollbacks | changed | 2 | 2 | **yes** |"))
  }

  @Test func htmlEscapesAndMarksEverything() {
    let html = String(decoding: ReviewHTML.encode(Self.report), as: UTF8.self)
    #expect(html.contains("m &lt;b&gt;"))
    #expect(!html.contains("<b>\"<x>\""))
    #expect(html.contains("<section class=\"device\" id=\"device-1\" data-device=\"r1\" data-status=\"changed\">"))
    #expect(html.contains("<section class=\"device\" id=\"device-2\" data-device=\"r2\" data-status=\"failed\">"))
    #expect(html.contains("id=\"batch-1-1\" data-risky=\"true\""))
    #expect(html.contains("<li class=\"finding warning\" id=\"finding-1-1-1\">"))
    #expect(html.components(separatedBy: "<circle class=\"commit\"").count - 1 == 1)
    #expect(html.components(separatedBy: "<rect class=\"risky\"").count - 1 == 1)
  }
}

import JunosHistory
public import JunosReview

/// The review as one self-contained HTML page: no script, no external style sheet, font or
/// image, so it opens offline and can be attached to a postmortem. The header gives the window
/// and the sources; a fleet timeline (SVG) has one UTC axis over the window, a lane per device,
/// a mark per commit coloured by author and the risky batches highlighted; then a section per
/// device and batch with its commits, diff, findings and blame.
///
/// Elements a test can count: `section.device` (`id="device-N"`, `data-device`,
/// `data-status`), `section.batch` (`id="batch-N-K"`, `data-risky`), `li.finding`
/// (`id="finding-N-K-J"`), and in the timeline `g.lane`, `circle.commit` and `rect.risky`.
/// Input text is escaped; secrets were masked when the review was made.
public enum ReviewHTML {
  /// The colours authors take, in order of first appearance (sorted by name).
  static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]

  /// The page, UTF-8.
  public static func encode(_ report: ReviewReport) -> [UInt8] {
    let window = "\(iso8601UTC(report.window.since)) – \(iso8601UTC(report.window.until))"
    var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    s += "<title>Outage review \(e(window))</title>\n<style>\n\(style)</style>\n</head>\n<body>\n"
    s += "<header>\n<h1>Outage review</h1>\n<p class=\"window\">Window (UTC): \(e(window))</p>\n<ul class=\"sources\">\n"
    for source in report.sources { s += "<li>\(e(source))</li>\n" }
    s += "</ul>\n"
    s += "<p class=\"summary\">\(e(report.summary))</p>\n</header>\n"
    let authors = Array(Set(report.devices.flatMap { $0.commits.map(\.user) })).sorted()
    var colour: [String: String] = [:]
    for (k, a) in authors.enumerated() { colour[a] = palette[k % palette.count] }
    s += timeline(report, colour: colour)
    s += "<ul class=\"legend\">\n"
    for a in authors { s += "<li><span class=\"swatch\" style=\"background:\(colour[a]!)\"></span>\(e(a))</li>\n" }
    s += "</ul>\n"
    for (n, d) in report.devices.enumerated() { s += device(d, number: n + 1) }
    s += "</body>\n</html>\n"
    return Array(s.utf8)
  }

  static let style = """
    body { font-family: sans-serif; margin: 1.5em; color: #222; }
    pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
    table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
    section.device { border-top: 2px solid #888; margin-top: 1.5em; }
    section.batch { margin-left: 1em; } section.batch.risky h3 { color: #b00; }
    .status-failed { color: #b00; } .swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; }
    ul.legend li { display: inline; margin-right: 1em; } li.finding.error, li.finding.warning { color: #b00; }
    svg text { font-size: 11px; font-family: sans-serif; }

    """

  static func timeline(_ report: ReviewReport, colour: [String: String]) -> String {
    let left = 160
    let width = 900
    let lane = 24
    let top = 30
    let height = top + lane * max(1, report.devices.count) + 10
    let span = max(Int64(1), report.window.until - report.window.since)
    func x(_ t: Int64) -> Int { left + Int((t - report.window.since) * Int64(width) / span) }
    var s = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(left + width + 20)\" height=\"\(height)\" "
    s += "role=\"img\" aria-label=\"Commits per device over the window\">\n"
    s += "<line x1=\"\(left)\" y1=\"\(top - 8)\" x2=\"\(left + width)\" y2=\"\(top - 8)\" stroke=\"#444\"/>\n"
    for k in 0...4 {
      let t = report.window.since + span * Int64(k) / 4
      let anchor = k == 0 ? "start" : k == 4 ? "end" : "middle"
      s += "<text x=\"\(x(t))\" y=\"\(top - 14)\" text-anchor=\"\(anchor)\">\(e(iso8601UTC(t)))</text>\n"
    }
    for (n, d) in report.devices.enumerated() {
      let y = top + lane * n + lane / 2
      s += "<g class=\"lane\" data-device=\"\(e(d.name))\">\n"
      s += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\" class=\"status-\(d.status.label)\">\(e(d.name))</text>\n"
      s += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + width)\" y2=\"\(y)\" stroke=\"#ddd\"/>\n"
      for (k, b) in d.batches.enumerated() where b.isRisky {
        let times = b.commits.compactMap(\.instant)
        guard let a = times.min(), let z = times.max() else { continue }
        s += "<rect class=\"risky\" x=\"\(x(a) - 7)\" y=\"\(y - 9)\" width=\"\(x(z) - x(a) + 14)\" height=\"18\" rx=\"4\" "
        s += "fill=\"#fdd\" stroke=\"#c00\"><title>\(e(d.name)): batch \(k + 1) by \(e(b.author)) is risky</title></rect>\n"
      }
      for c in d.commits {
        guard let t = c.instant else { continue }
        s += "<circle class=\"commit\" cx=\"\(x(t))\" cy=\"\(y)\" r=\"5\" fill=\"\(colour[c.user] ?? "#000")\">"
        s += "<title>\(e(d.name)) commit \(c.rollback) by \(e(c.user)) at \(e(iso8601UTC(t)))</title></circle>\n"
      }
      s += "</g>\n"
    }
    return s + "</svg>\n"
  }

  static func device(_ d: ReviewDevice, number n: Int) -> String {
    var s = "<section class=\"device\" id=\"device-\(n)\" data-device=\"\(e(d.name))\" data-status=\"\(d.status.label)\">\n"
    s += "<h2>\(e(d.name)) <span class=\"status-\(d.status.label)\">\(d.status.label)</span></h2>\n"
    s += "<p class=\"source\">\(e(d.kind)) \(e(d.location))</p>\n"
    if case .failed(let why) = d.status { s += "<p class=\"reason status-failed\">Could not be read: \(e(why))</p>\n" }
    for note in d.notes { s += "<p class=\"note\">\(e(note))</p>\n" }
    for (k, b) in d.batches.enumerated() {
      s += "<section class=\"batch\(b.isRisky ? " risky" : "")\" id=\"batch-\(n)-\(k + 1)\" data-risky=\"\(b.isRisky)\">\n"
      s += "<h3>Batch \(k + 1): \(e(b.author))\(b.isRisky ? " — risky" : "")</h3>\n"
      s += "<table>\n<tr><th>Rollback</th><th>Time (UTC)</th><th>User</th><th>Client</th><th>Comment</th></tr>\n"
      for c in b.commits {
        s += "<tr><td>\(c.rollback)</td><td>\(c.instant.map(iso8601UTC) ?? "unknown")</td><td>\(e(c.user))</td>"
        s += "<td>\(e(c.client))</td><td>\(e(c.comment ?? ""))</td></tr>\n"
      }
      s += "</table>\n"
      if let note = b.note { s += "<p class=\"note\">\(e(note))</p>\n" }
      if let diff = b.diff { s += diff.isEmpty ? "<p>No configuration change.</p>\n" : "<pre class=\"diff\">\(e(diff))</pre>\n" }
      if !b.findings.isEmpty {
        s += "<ul class=\"findings\">\n"
        for (j, f) in b.findings.enumerated() {
          s += "<li class=\"finding \(f.severity.rawValue)\" id=\"finding-\(n)-\(k + 1)-\(j + 1)\"><b>\(f.severity.rawValue)</b> "
          s += "\(e(f.rule)) <code>\(e(f.path))</code>: \(e(f.message))</li>\n"
        }
        s += "</ul>\n"
      }
      if !b.blame.isEmpty {
        s += "<ul class=\"blame\">\n"
        for x in b.blame {
          let who = x.user.map { " by \(e($0))" } ?? ""
          s += "<li><code>\(e(x.statement))</code> (\(e(x.change))): \(x.commitText)\(who)</li>\n"
        }
        s += "</ul>\n"
      }
      s += "</section>\n"
    }
    return s + "</section>\n"
  }

  /// Escaped for HTML text and attribute values.
  static func e(_ s: String) -> String { XML.escape(s, attribute: false) }
}

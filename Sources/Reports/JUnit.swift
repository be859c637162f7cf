import JunosChecklist

extension ReportWriter {
  /// The report as JUnit XML: `<testsuites name="junoscope" tests= failures= errors="0">` with one
  /// `<testsuite>` per file and in it one `<testcase classname="FILE" name="RULE-ID">` for every
  /// rule of the catalogue; a rule that fired on the file has one `<failure>` whose `type` is the
  /// highest severity, whose `message` is the first finding's message (with the number of further
  /// findings) and whose text is the findings, one rendered line each.
  ///
  /// The files are `files`, then any other file a finding points at. Control characters XML 1.0
  /// cannot carry are dropped.
  public static func junit(_ r: LintReport) -> String {
    var byFile: [String: [RuleID: [Finding]]] = [:]
    for f in r.findings { byFile[f.location.file, default: [:]][f.rule, default: []].append(f) }
    let files = r.reportedFiles
    let rules = RuleID.allCases
    var failures = 0
    var suites = ""
    for file in files {
      let fired = byFile[file] ?? [:]
      failures += fired.count
      let name = XML.escape(file)
      suites +=
        "  <testsuite name=\"\(name)\" tests=\"\(rules.count)\" failures=\"\(fired.count)\" errors=\"0\" skipped=\"0\">\n"
      for rule in rules {
        let head = "    <testcase classname=\"\(name)\" name=\"\(rule.rawValue)\""
        guard let found = fired[rule], let first = found.first else {
          suites += head + "/>\n"
          continue
        }
        let type = found.map(\.severity).max() ?? first.severity
        let message = found.count == 1 ? first.message : "\(first.message) (and \(found.count - 1) more)"
        let body = found.map(\.rendered).joined(separator: "\n")
        suites += head + ">\n"
        suites +=
          "      <failure message=\"\(XML.escape(message))\" type=\"\(type.rawValue)\">\(XML.escape(body, attribute: false))</failure>\n"
        suites += "    </testcase>\n"
      }
      suites += "  </testsuite>\n"
    }
    var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    s += "<testsuites name=\"\(toolName)\" tests=\"\(files.count * rules.count)\" failures=\"\(failures)\" errors=\"0\">\n"
    s += suites
    s += "</testsuites>\n"
    return s
  }
}

/// XML 1.0 text and attribute escaping.
enum XML {
  /// Escapes `&`, `<`, `>`, `"` and `'`; writes carriage return, and in attribute values also tab
  /// and line feed, as character references (a parser would normalise them away); drops the other
  /// C0 controls, U+FFFE and U+FFFF, which XML 1.0 cannot carry.
  static func escape(_ s: String, attribute: Bool = true) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for u in s.unicodeScalars {
      switch u {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t": out += attribute ? "&#9;" : "\t"
      case "\n": out += attribute ? "&#10;" : "\n"
      case "\r": out += "&#13;"
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
      default: out.unicodeScalars.append(u)
      }
    }
    return out
  }
}

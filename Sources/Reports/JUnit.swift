import JunosChecklist

extension ReportWriter {
  /// The report as JUnit XML: `<testsuites name="junoscope" tests= failures= errors= skipped=>`
  /// with one `<testsuite>` per file.
  ///
  /// A file the rules ran on has one `<testcase classname="FILE" name="RULE-ID">` for every rule of
  /// the catalogue; a rule that fired on the file has one `<failure>` whose `type` is the highest
  /// severity, whose `message` is the first finding's message (with the number of further
  /// findings) and whose text is the findings, one rendered line each. A file that could not be
  /// read or parsed has one test case `read` holding an `<error type="input-error">` (no rule ran
  /// on it, so none is listed as passing); a skipped file has one test case `read` holding
  /// `<skipped>`.
  ///
  /// The files are `files`, then any other file a finding points at. Control characters XML 1.0
  /// cannot carry are dropped.
  public static func junit(_ r: LintReport) -> String {
    var byFile: [String: [RuleID: [Finding]]] = [:]
    for f in r.findings { byFile[f.location.file, default: [:]][f.rule, default: []].append(f) }
    let files = r.checkedFiles
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
    func readCase(_ p: InputProblem, errors: Int, skipped: Int, _ element: String) -> String {
      let name = XML.escape(p.file)
      return "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"\(errors)\" skipped=\"\(skipped)\">\n"
        + "    <testcase classname=\"\(name)\" name=\"read\">\n      \(element)\n    </testcase>\n  </testsuite>\n"
    }
    for p in r.failures {
      let body = XML.escape(p.rendered("input error"), attribute: false)
      suites += readCase(p, errors: 1, skipped: 0, "<error message=\"\(XML.escape(p.message))\" type=\"input-error\">\(body)</error>")
    }
    for p in r.skipped { suites += readCase(p, errors: 0, skipped: 1, "<skipped message=\"\(XML.escape(p.message))\"/>") }
    let tests = files.count * rules.count + r.failures.count + r.skipped.count
    var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    s +=
      "<testsuites name=\"\(toolName)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(r.failures.count)\" skipped=\"\(r.skipped.count)\">\n"
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

import JunosChecklist

extension ReportWriter {
  /// The project page, SARIF's `informationUri`.
  static let informationURI = "https://github.com/junoscope/junoscope"
  /// The key of junoscope's own `partialFingerprints` entry.
  static let fingerprintKey = "junoscope/v1"
  /// The `uriBaseId` of URIs relative to the working directory.
  static let sourceRoot = "%SRCROOT%"

  /// The report as SARIF 2.1.0 (one run), as GitHub code scanning accepts it.
  ///
  /// `tool.driver.rules` lists every ``RuleID`` in catalogue order (`ruleIndex` points into it);
  /// each result has one location whose URI is relative to `workingDirectory` (an absolute path)
  /// when the file is under it, an absolute `file://` URI otherwise; `partialFingerprints` hold a
  /// 64-bit FNV-1a hash of rule, URI, path and message, so a result keeps its identity when lines move.
  public static func sarif(_ r: LintReport, workingDirectory: String) -> String {
    let base = URIBase(workingDirectory)
    let files = r.reportedFiles
    var artifactIndex: [String: Int] = [:]
    var artifacts: [JSONTree] = []
    for (k, file) in files.enumerated() {
      artifactIndex[file] = k
      artifacts.append(.object([("location", .object(base.artifactLocation(file)))]))
    }

    // Each file's artifactLocation members (with `index` when it is an artifact) and URI, made once.
    var located: [String: (members: [(String, JSONTree)], uri: String)] = [:]
    var results: [JSONTree] = []
    results.reserveCapacity(r.findings.count)
    for f in r.findings {
      let file = f.location.file
      if located[file] == nil {
        var members = base.artifactLocation(file)
        if let k = artifactIndex[file] { members.append(("index", .int(k))) }
        located[file] = (members, base.uri(file).uri)
      }
      let (artifact, uri) = located[file]!
      var location: [(String, JSONTree)] = [
        ("physicalLocation", physicalLocation(artifact, line: f.location.line, column: f.location.column))
      ]
      if !f.path.isEmpty {
        location.append(("logicalLocations", .array([.object([("fullyQualifiedName", .string(f.path))])])))
      }
      let text = f.hint.isEmpty ? f.message : "\(f.message) Fix: \(f.hint)"
      var result: [(String, JSONTree)] = [
        ("ruleId", .string(f.rule.rawValue)),
        ("ruleIndex", .int(f.rule.number - 1)),
        ("level", .string(level(f.severity))),
        ("message", .object([("text", .string(text))])),
        ("locations", .array([.object(location)])),
        ("partialFingerprints", .object([(fingerprintKey, .string(fingerprint(f, uri: uri)))])),
      ]
      if let step = f.step { result.append(("properties", .object([("step", .string(step))]))) }
      results.append(.object(result))
    }

    var run: [(String, JSONTree)] = [
      (
        "tool",
        .object([
          (
            "driver",
            .object([
              ("name", .string(toolName)),
              ("version", .string(r.toolVersion)),
              ("informationUri", .string(informationURI)),
              ("rules", .array(RuleID.allCases.map(reportingDescriptor))),
            ])
          )
        ])
      ),
      ("invocations", .array([.object(invocation(r, base: base, artifactIndex: artifactIndex))])),
    ]
    if let root = base.rootURI {
      run.append(("originalUriBaseIds", .object([(sourceRoot, .object([("uri", .string(root))]))])))
    }
    run += [
      ("artifacts", .array(artifacts)),
      // Columns are 1-based UTF-8 byte columns (SourceFile), a kind SARIF does not have. We say
      // "utf16CodeUnits" (SARIF's default, what GitHub's viewer counts) rather than claim
      // "unicodeCodePoints", which they are not either: the three agree whenever the text before
      // the column is ASCII, as it is for findings at a statement (indentation, Junos keywords);
      // only non-ASCII text earlier on the line (a description) makes the column too large.
      ("columnKind", .string("utf16CodeUnits")),
      ("results", .array(results)),
    ]
    return JSONTree.object([
      ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
      ("version", .string("2.1.0")),
      ("runs", .array([.object(run)])),
    ]).pretty
  }

  /// The run's one invocation: `executionSuccessful` is false when an input could not be read or
  /// parsed, and each such input is a `toolExecutionNotifications` entry of level `error`
  /// (descriptor `input-error`) at its first problem; each skipped input is one of level `note`
  /// (descriptor `skipped-input`).
  static func invocation(_ r: LintReport, base: URIBase, artifactIndex: [String: Int]) -> [(String, JSONTree)] {
    func notification(_ p: InputProblem, level: String, id: String) -> JSONTree {
      var artifact = base.artifactLocation(p.file)
      if let k = artifactIndex[p.file] { artifact.append(("index", .int(k))) }
      return .object([
        ("level", .string(level)),
        ("message", .object([("text", .string(p.message))])),
        ("locations", .array([.object([("physicalLocation", physicalLocation(artifact, line: p.line, column: p.column))])])),
        ("descriptor", .object([("id", .string(id))])),
      ])
    }
    var members: [(String, JSONTree)] = [("executionSuccessful", .bool(r.failures.isEmpty))]
    let notifications =
      r.failures.map { notification($0, level: "error", id: "input-error") }
      + r.skipped.map { notification($0, level: "note", id: "skipped-input") }
    if !notifications.isEmpty { members.append(("toolExecutionNotifications", .array(notifications))) }
    return members
  }

  /// A `physicalLocation`: the artifact, and a region from line 1 up (none for line 0).
  static func physicalLocation(_ artifact: [(String, JSONTree)], line: Int, column: Int) -> JSONTree {
    var physical: [(String, JSONTree)] = [("artifactLocation", .object(artifact))]
    if line > 0 { physical.append(("region", .object([("startLine", .int(line)), ("startColumn", .int(max(column, 1)))]))) }
    return .object(physical)
  }

  /// SARIF's level for a severity: `error`, `warning`, `note`.
  static func level(_ s: Severity) -> String {
    switch s {
    case .error: "error"
    case .warning: "warning"
    case .info: "note"
    }
  }

  /// A rule's documentation link: its section of Docs/Rules.md.
  static func helpURI(_ rule: RuleID) -> String { "\(informationURI)/blob/main/Docs/Rules.md#\(rule.rawValue)" }

  /// `client-links-before-core-links` -> `ClientLinksBeforeCoreLinks`.
  static func upperCamel(_ id: String) -> String {
    var out = ""
    for part in id.split(separator: "-") {
      guard let first = part.first else { continue }
      out += first.uppercased()
      out += part.dropFirst()
    }
    return out
  }

  /// What a rule inspects, as words: C -> configuration, D -> change, P -> plan, H -> commit history.
  static func inspectedInputs(_ rule: RuleID) -> [String] {
    rule.inspects.split(separator: ",").compactMap { letter in
      switch letter.filter({ $0 != " " }) {
      case "C": "configuration"
      case "D": "change"
      case "P": "plan"
      case "H": "commit history"
      default: nil
      }
    }
  }

  private static func reportingDescriptor(_ rule: RuleID) -> JSONTree {
    let inputs = inspectedInputs(rule)
    let full = "\(rule.title). Inspects: \(inputs.joined(separator: ", ")). Default severity: \(rule.defaultSeverity.rawValue)."
    let markdown = "\(rule.hint)\n\nSee [Docs/Rules.md#\(rule.rawValue)](\(helpURI(rule)))."
    let tags: [JSONTree] = (["outage-checklist"] + inputs.map { $0.replacing(" ", with: "-") }).map { .string($0) }
    return .object([
      ("id", .string(rule.rawValue)),
      ("name", .string(upperCamel(rule.rawValue))),
      ("shortDescription", .object([("text", .string(rule.title))])),
      ("fullDescription", .object([("text", .string(full))])),
      ("help", .object([("text", .string(rule.hint)), ("markdown", .string(markdown))])),
      ("helpUri", .string(helpURI(rule))),
      ("defaultConfiguration", .object([("level", .string(level(rule.defaultSeverity)))])),
      ("properties", .object([("tags", .array(tags))])),
    ])
  }

  /// 64-bit FNV-1a of `rule NUL uri NUL path NUL message`, as 16 lowercase hex digits.
  static func fingerprint(_ f: Finding, uri: String) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for (k, part) in [f.rule.rawValue, uri, f.path, f.message].enumerated() {
      if k > 0 { h = h &* 0x100_0000_01b3 }  // a NUL byte between parts: h ^ 0 == h
      for b in part.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    }
    let hex = String(h, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

/// Turns file names into SARIF artifact URIs against a working directory.
struct URIBase {
  let absolute: Bool
  let root: [Substring]

  init(_ workingDirectory: String) {
    absolute = workingDirectory.hasPrefix("/")
    root = URIBase.normalized(workingDirectory[...], absolute: absolute)
  }

  /// `file:///…/` for an absolute working directory.
  var rootURI: String? {
    guard absolute else { return nil }
    return root.isEmpty ? "file:///" : "file://" + URIBase.encode("/" + root.joined(separator: "/") + "/")
  }

  /// The URI of `file`: relative to the working directory when under it, else `file:///…` (or, with
  /// a relative working directory, a relative reference that may start with `../`).
  func uri(_ file: String) -> (uri: String, relative: Bool) {
    let fileAbsolute = file.hasPrefix("/")
    let joinedAbsolute = fileAbsolute || absolute
    let path =
      fileAbsolute
      ? URIBase.normalized(file[...], absolute: true)
      : URIBase.normalized((root.joined(separator: "/") + "/" + file)[...], absolute: absolute)
    if joinedAbsolute == absolute, path.count > root.count, path.starts(with: root) {
      return (URIBase.encode(path[root.count...].joined(separator: "/")), true)
    }
    if joinedAbsolute { return ("file://" + URIBase.encode("/" + path.joined(separator: "/")), false) }
    return (URIBase.encode(path.joined(separator: "/")), true)
  }

  /// SARIF `artifactLocation` members: `uri`, and `uriBaseId` for relative ones.
  func artifactLocation(_ file: String) -> [(String, JSONTree)] {
    let u = uri(file)
    var members: [(String, JSONTree)] = [("uri", .string(u.uri))]
    if u.relative && absolute { members.append(("uriBaseId", .string(ReportWriter.sourceRoot))) }
    return members
  }

  /// Path components with `.` and empty ones dropped and `..` applied (kept at the start of a
  /// relative path, dropped at the root of an absolute one).
  static func normalized(_ path: Substring, absolute: Bool) -> [Substring] {
    var out: [Substring] = []
    for c in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch c {
      case ".": continue
      case "..":
        if let last = out.last, last != ".." {
          out.removeLast()
        } else if !absolute {
          out.append(c)
        }
      default: out.append(c)
      }
    }
    return out
  }

  /// Percent-encodes every byte but RFC 3986's unreserved characters and `/`.
  static func encode(_ s: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.append(b)
      default: out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

public import JunosConfig

extension Blame {
  /// The statements to report: the roots of the selection, each with what it is rendered under.
  /// Empty `roots` means the whole configuration.
  public struct Selection: Sendable {
    /// Subtrees to report, in document order; the root (``ConfigTree/root``) for everything.
    public var roots: [NodeID]

    /// Everything.
    public static let all = Selection(roots: [ConfigTree.root])

    /// The given subtrees.
    public init(roots: [NodeID]) { self.roots = roots }
  }

  /// `^49`, `28`, or `3..5` for a span (missing rollbacks).
  public static func label(_ o: Origin) -> String {
    if o.isBoundary { return "^\(o.commit)" }
    return o.oldestCommit == o.commit ? "\(o.commit)" : "\(o.commit)..\(o.oldestCommit)"
  }

  /// The user and time cells of an origin's text row.
  ///
  /// - A commit: its user and time (`YYYY-MM-DD HH:MM`, UTC).
  /// - A span: every candidate's user, distinct, newest commit first, joined with `,` (Junos
  ///   user names have no `,`); a candidate not in the listing adds one `?` where it falls. The
  ///   time is the range from the oldest known candidate's time to the newest one's
  ///   (`2024-01-01 10:00..12:30`, `2024-01-01 10:00..02-03 09:00`, or both in full across
  ///   years); one known time prints alone.
  /// - A boundary: `(earlier)` (no Junos user name has parentheses) and `≤ ` and commit N's
  ///   time: the statement was there by then.
  ///
  /// Unknown users and times print `?`.
  static func cells(_ o: Origin, _ byIndex: [Int: Commit]) -> (user: String, time: String) {
    func minute(_ k: Int) -> String? {
      byIndex[k].flatMap(\.instant).map { String(iso8601UTC($0).replacing("T", with: " ").dropLast(4)) }
    }
    if o.isBoundary { return ("(earlier)", minute(o.commit).map { "≤ \($0)" } ?? "?") }
    var users: [String] = []
    var seen = Set<String>()
    for k in o.candidates {
      let u = byIndex[k]?.user ?? "?"
      if seen.insert(u).inserted { users.append(u) }
    }
    let times = o.candidates.compactMap(minute)
    guard let newest = times.first, let oldest = times.last else { return (users.joined(separator: ","), "?") }
    if times.count == 1 { return (users.joined(separator: ","), newest) }
    let sameYear = oldest.prefix(4) == newest.prefix(4)
    let sameDay = oldest.prefix(10) == newest.prefix(10)
    let end = sameDay ? newest.suffix(5) : sameYear ? newest.dropFirst(5) : Substring(newest)
    return (users.joined(separator: ","), "\(oldest)..\(end)")
  }

  /// `git blame`-style text: every line of the selected configuration (annotations too) beside
  /// the commit that last introduced or changed it, its user and its time (UTC); `^N` marks
  /// statements already in the oldest rollback read (commit N or earlier: user `(earlier)`,
  /// time `≤` commit N's), and a span `3..5` names the users of all its candidates, newest
  /// first (`noc-ops,katerina`; `?` for one not in the listing), over the range of their times.
  /// Closing braces carry no commit. A selected subtree is headed by its `[edit …]` parent.
  ///
  /// - Parameters:
  ///   - selection: What to show.
  ///   - commits: The commit list, for users and times (missing entries print `?`).
  ///   - options: Secret masking.
  public func renderText(_ selection: Selection = .all, commits: CommitHistory, options: RenderOptions = RenderOptions()) -> [UInt8] {
    let byIndex = Dictionary(commits.commits.compactMap { c in c.index.map { ($0, c) } }, uniquingKeysWith: { a, _ in a })
    var rows: [(origin: Origin?, text: [UInt8])] = []
    for root in selection.roots {
      if root != ConfigTree.root {
        let parentPath = tree.parent(of: root).map { tree.setPath(of: $0, options) } ?? []
        rows.append((nil, Array("[edit\(parentPath.isEmpty ? "" : " ")".utf8) + parentPath + [UInt8(ascii: "]")]))
      }
      walk(root, includeRoot: root != ConfigTree.root) { node, depth, closing in
        let indent = [UInt8](repeating: 0x20, count: depth * 4)
        if closing {
          rows.append((nil, indent + [UInt8(ascii: "}")]))
          return
        }
        let o = origin(of: node)
        for t in tree.leadingTrivia(of: node) where t.kind == .annotation {
          for l in t.text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) { rows.append((o, indent + Array(l))) }
        }
        var line = indent + tree.statementText(node, options, prefixes: true)
        line += tree.isBlock(node) ? Array(" {".utf8) : [UInt8(ascii: ";")]
        rows.append((o, line))
      }
    }
    // The cells of each origin, made once (there are at most a few dozen origins, and their
    // spans do not overlap: all of them together cover each commit once).
    var cellsOf: [Origin: (String, String, String)] = [:]
    let cells: [(String, String, String)?] = rows.map { row in
      guard let o = row.origin else { return nil }
      if let known = cellsOf[o] { return known }
      let (user, time) = Self.cells(o, byIndex)
      let made = (Self.label(o), user, time)
      cellsOf[o] = made
      return made
    }
    let w0 = cellsOf.values.map(\.0.count).max() ?? 1
    let w1 = cellsOf.values.map(\.1.count).max() ?? 1
    let w2 = cellsOf.values.map(\.2.count).max() ?? 1
    var out: [UInt8] = []
    for (row, cell) in zip(rows, cells) {
      let text = row.text
      let (a, b, c) = cell ?? ("", "", "")
      out += Array((String(repeating: " ", count: w0 - a.count) + a + " " + b).utf8)
      out += [UInt8](repeating: 0x20, count: w1 - b.count + 1) + Array(c.utf8) + [UInt8](repeating: 0x20, count: w2 - c.count)
      out += Array(" | ".utf8) + text + [0x0A]
    }
    return out
  }

  /// JSON, format `junoscope.blame` version 1 (Docs/JSON.md):
  /// `{"format":"junoscope.blame","version":1,"rollback":0,"oldestRollback":49,"statements":[{"path":"interfaces xe-0/0/1",
  /// "statement":"description uplink","commit":3,"oldestCommit":5,"candidates":[3,4,5],
  /// "boundary":false}],"commits":[{…}]}` — one entry per statement of the selection in document
  /// order (`path` is its parent's path in `set` form, `""` at top level; `candidates` every
  /// commit the change can be from, ``Origin/candidates``, newest first), and the commit list
  /// entries of every candidate of every statement (``Commit/appendJSON(to:)``).
  public func renderJSON(_ selection: Selection = .all, commits: CommitHistory, options: RenderOptions = RenderOptions()) -> [UInt8] {
    var out: [UInt8] = Array(
      "{\"format\":\"junoscope.blame\",\"version\":1,\"rollback\":\(rollback),\"oldestRollback\":\(oldestRollback),\"statements\":[".utf8)
    var used = Set<Int>()
    // `"commit":3,"oldestCommit":5,"candidates":[3,4,5],"boundary":false}` per origin, made once.
    var tailOf: [Origin: [UInt8]] = [:]
    var first = true
    for root in selection.roots {
      walk(root, includeRoot: root != ConfigTree.root) { node, _, closing in
        guard !closing else { return }
        let o = origin(of: node)
        let tail: [UInt8]
        if let known = tailOf[o] {
          tail = known
        } else {
          used.formUnion(o.candidates)
          let list = o.candidates.map(String.init).joined(separator: ",")
          tail = Array(
            ",\"commit\":\(o.commit),\"oldestCommit\":\(o.oldestCommit),\"candidates\":[\(list)],\"boundary\":\(o.isBoundary)}".utf8)
          tailOf[o] = tail
        }
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out += Array("{\"path\":".utf8)
        JSONText.append(String(decoding: tree.parent(of: node).map { tree.setPath(of: $0, options) } ?? [], as: UTF8.self), into: &out)
        out += Array(",\"statement\":".utf8)
        JSONText.append(String(decoding: tree.statementText(node, options, prefixes: true), as: UTF8.self), into: &out)
        out += tail
      }
    }
    out += Array("],\"commits\":[".utf8)
    first = true
    for c in commits.commits where c.index.map(used.contains) ?? false {
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      c.appendJSON(to: &out)
    }
    out += Array("]}\n".utf8)
    return out
  }

  /// Pre-order walk of a subtree with depths (the root's children at 0 when the root is not
  /// included), calling `body` again with `closing` after a block's children.
  func walk(_ root: NodeID, includeRoot: Bool, _ body: (NodeID, Int, Bool) -> Void) {
    var stack: [(NodeID, Int, Bool)] = []
    if includeRoot {
      stack.append((root, 0, false))
    } else {
      for c in tree.children(of: root).reversed() { stack.append((c, 0, false)) }
    }
    while let (node, depth, closing) = stack.popLast() {
      body(node, depth, closing)
      guard !closing, tree.isBlock(node) else { continue }
      stack.append((node, depth, true))
      for c in tree.children(of: node).reversed() { stack.append((c, depth + 1, false)) }
    }
  }
}

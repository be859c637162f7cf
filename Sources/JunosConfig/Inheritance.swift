/// An effective configuration (groups expanded, inactive statements dropped, optionally interface
/// ranges expanded) with the origin of every statement that was not written where it stands: what
/// Junos's `show configuration | display inheritance` shows. Built by
/// ``ConfigTree/inheritance(model:interfaceRanges:)``.
public struct InheritedConfiguration: Sendable {
  /// Where an inherited statement came from.
  public enum Source: Sendable, Hashable {
    /// A configuration group (`groups NAME`) applied with `apply-groups`.
    case group(String)
    /// An `interfaces interface-range NAME` whose members include the interface.
    case interfaceRange(String)

    /// The group's or the range's name.
    public var name: String {
      switch self {
      case .group(let n), .interfaceRange(let n): n
      }
    }
  }

  /// The effective configuration.
  public let configuration: ConfigTree
  /// Records of ``configuration`` below this index were written explicitly.
  let explicitCount: Int
  /// For each record from ``explicitCount`` on: its index in ``sources``, or -1.
  let createdSource: [Int32]
  /// The groups and interface ranges statements came from, each once.
  public let sources: [Source]

  /// Where statement `node` of ``configuration`` came from; `nil` for a statement written there
  /// (its children may still be inherited).
  public func source(of node: NodeID) -> Source? {
    let i = node.index - explicitCount
    guard i >= 0, i < createdSource.count, createdSource[i] >= 0 else { return nil }
    return sources[Int(createdSource[i])]
  }

  /// Whether any statement was inherited.
  public var hasInherited: Bool { createdSource.contains { $0 >= 0 } }

  /// Renders the effective configuration as `show configuration | display inheritance` does:
  /// before each inherited statement, at its indentation,
  ///
  /// ```
  /// ##
  /// ## '9000' was inherited from group 'CORE'
  /// ##
  /// mtu 9000;
  /// ```
  ///
  /// naming the statement's last word (each value of a `[ ]` list), or
  /// `## 'ge-0/0/1' was expanded from interface-range 'R'` for what a range added. The `groups`
  /// block and `apply-groups` lines are not shown (they are not in the effective
  /// configuration). With `options.comments` false this is `display inheritance no-comments`:
  /// the same configuration, no `##` lines and no comments.
  ///
  /// - Parameter options: Masking (a masked secret is masked in the `##` line as well) and
  ///   comments.
  /// - Returns: UTF-8 text.
  public func renderCurly(_ options: RenderOptions = RenderOptions()) -> [UInt8] {
    guard options.comments else { return configuration.renderCurly(options) }
    let shapes = options.maskingShapes(configuration)
    return configuration.renderCurly(options, shapes: shapes) { node in
      var lines: [String] = []
      if let s = source(of: node) {
        lines += ["##"] + configuration.lastValues(node, options, shapes: shapes).map { Self.note($0, s) } + ["##"]
      }
      if let path = configuration.applyPath(node) {
        // As the device prints it (a public capture, Fixtures/inheritance): the prefixes, then
        // the statement.
        lines += ["##", "## apply-path was expanded to:"] + configuration.applyPathPrefixes(path).map { "##     \($0);" } + ["##"]
      }
      return lines
    }
  }

  /// The `##` line Junos prints for `value` inherited from `source`.
  static func note(_ value: String, _ source: Source) -> String {
    switch source {
    case .group(let g): "## '\(value)' was inherited from group '\(g)'"
    case .interfaceRange(let r): "## '\(value)' was expanded from interface-range '\(r)'"
    }
  }
}

extension ConfigTree {
  /// The path of an `apply-path "PATH"` statement of a `prefix-list`, split into its words;
  /// nil for any other statement.
  func applyPath(_ node: NodeID) -> [String]? {
    guard wordCount(of: node) == 2, word(0, of: node) == "apply-path", let p = parent(of: node), wordCount(of: p) >= 1,
      word(0, of: p) == "prefix-list"
    else { return nil }
    let words = JunosConfig.unquoted(word(1, of: node)).split(separator: " ").map(String.init)
    return words.isEmpty ? nil : words
  }

  /// The prefixes `apply-path` with `path` stands for in this configuration, as `display
  /// inheritance` lists them: every statement along the path (`<*>` matches any word, `<10.*>`
  /// a glob, other words themselves) whose last word is an IPv4 or IPv6 address or prefix,
  /// once each, in configuration order; an address without a length gets `/32` or `/128`.
  public func applyPathPrefixes(_ path: [String]) -> [String] {
    var out: [String] = []
    var seen: Set<String> = []
    func matches(_ pattern: String, _ word: String) -> Bool {
      let w = JunosConfig.unquoted(word)
      guard pattern.count >= 2, pattern.hasPrefix("<"), pattern.hasSuffix(">") else { return pattern == w }
      return Wildcard.matches(Array(pattern.utf8).dropFirst().dropLast(), Array(w.utf8)[...])
    }
    // (statement, words of the path it and its parents matched); depth first, in order.
    var stack: [(NodeID, Int)] = [(ConfigTree.root, 0)]
    while let (node, i) = stack.popLast() {
      if i == path.count {
        let value = word(wordCount(of: node) - 1, of: node)
        guard let prefix = IPPrefix(value) else { continue }
        let text = value.contains("/") ? value : value + (prefix.family == .inet ? "/32" : "/128")
        if seen.insert(text).inserted { out.append(text) }
        continue
      }
      var next: [(NodeID, Int)] = []
      for c in children(of: node) where !flags(of: c).contains(.inactive) {
        let words = self.words(of: c)
        guard !words.isEmpty, i + words.count <= path.count,
          zip(path[i..<(i + words.count)], words).allSatisfy({ matches($0, $1) })
        else { continue }
        next.append((c, i + words.count))
      }
      stack += next.reversed()
    }
    return out
  }

  /// The words a `display inheritance` note names for a statement: its `[ ]` values, or else its
  /// last word, without quotes and masked as a secret when it is one.
  func lastValues(_ node: NodeID, _ options: RenderOptions, shapes: StatementShapes?) -> [String] {
    let text = statementText(node, options, shapes: shapes)
    var tokens: [String] = []
    var current: [UInt8] = []
    var inQuote = false
    var i = 0
    while i < text.count {
      let b = text[i]
      if inQuote && b == UInt8(ascii: "\\") && i + 1 < text.count {
        current.append(text[i + 1])
        i += 2
        continue
      }
      if b == UInt8(ascii: "\"") {
        inQuote.toggle()
      } else if b == 0x20 && !inQuote {
        if !current.isEmpty { tokens.append(String(decoding: current, as: UTF8.self)) }
        current.removeAll(keepingCapacity: true)
      } else {
        current.append(b)
      }
      i += 1
    }
    if !current.isEmpty { tokens.append(String(decoding: current, as: UTF8.self)) }
    if let open = tokens.firstIndex(of: "[") {
      let values = tokens[(open + 1)...].filter { $0 != "]" }
      if !values.isEmpty { return Array(values) }
      return open > 0 ? [tokens[open - 1]] : []
    }
    return tokens.last.map { [$0] } ?? []
  }
}

// MARK: - Interface ranges

extension EffectiveBuilder {
  static let interfaceRangeWord: [UInt8] = Array("interface-range".utf8)

  /// Whether a word is `interface-range`.
  static func isRange(_ w: WordRef, _ s: UnsafeBufferPointer<UInt8>) -> Bool {
    guard w.end - w.start == 15 else { return false }
    let i = Int(w.start)
    for k in 0..<15 where s[i + k] != interfaceRangeWord[k] { return false }
    return true
  }

  /// Makes `source` the origin of the statements created from now on.
  mutating func use(_ source: InheritedConfiguration.Source) {
    if let i = sourceIndex[source] {
      currentSource = i
    } else {
      currentSource = Int32(sources.count)
      sourceIndex[source] = currentSource
      sources.append(source)
    }
  }

  /// The first word of a source statement, quotes aside.
  func firstWord(_ r: NodeRecord) -> String { r.wordCount > 0 ? text(src.words[Int(r.wordStart)]) : "" }

  /// Expands every active `interfaces interface-range R` of the source: each interface its
  /// members name is found among the explicit interfaces (or created), and the range's other
  /// statements are merged into it, after the explicit statements and before any group.
  mutating func expandRanges() {
    var ranges: [Int32] = []
    var top = src.nodes[0].firstChild
    while top >= 0 {
      let r = src.nodes[Int(top)]
      if !r.flags.contains(.inactive) && r.wordCount == 1 && firstWord(r) == "interfaces" {
        var c = r.firstChild
        while c >= 0 {
          let k = src.nodes[Int(c)]
          if !k.flags.contains(.inactive) && k.wordCount == 2 && firstWord(k) == "interface-range" { ranges.append(c) }
          c = k.next
        }
      }
      top = r.next
    }
    guard !ranges.isEmpty else { return }
    // The result's `interfaces` (the ranges were copied there) and its interfaces by name.
    var ifs: Int32 = -1
    var y = out.nodes[0].firstChild
    while y >= 0 && ifs < 0 {
      let r = out.nodes[Int(y)]
      if r.wordCount == 1 && text(out.words[Int(r.wordStart)]) == "interfaces" { ifs = y }
      y = r.next
    }
    guard ifs >= 0 else { return }
    var byName: [String: Int32] = [:]
    var names: [String] = []
    y = out.nodes[Int(ifs)].firstChild
    while y >= 0 {
      let r = out.nodes[Int(y)]
      if r.wordCount == 1 {
        let n = text(out.words[Int(r.wordStart)])
        if byName[n] == nil {
          byName[n] = y
          names.append(n)
        }
      }
      y = r.next
    }
    for g in ranges {
      rangeNodes.insert(g)
      let name = text(src.words[Int(src.nodes[Int(g)].wordStart) + 1])
      use(.interfaceRange(name))
      var seen: Set<String> = []
      for member in members(of: g, existing: names) where seen.insert(member).inserted {
        let target: Int32
        if let e = byName[member] {
          target = e
        } else {
          target = createInterface(member, under: ifs, from: g)
          byName[member] = target
          names.append(member)
        }
        merge([g], into: target, group: name)
      }
    }
  }

  /// Adds interface `name` under `ifs` as a block created from range statement `g` (whose
  /// source position it takes).
  mutating func createInterface(_ name: String, under ifs: Int32, from g: Int32) -> Int32 {
    let start = Int32(truncatingIfNeeded: storage.count)
    storage.append(contentsOf: name.utf8)
    out.storage.append(contentsOf: name.utf8)
    let ref = WordRef(start: start, end: Int32(truncatingIfNeeded: storage.count))
    var rec = src.nodes[Int(g)]
    rec.firstChild = -1
    rec.lastChild = -1
    rec.extras = -1
    rec.flags = .block
    rec.wordStart = Int32(out.words.count)
    rec.wordCount = 1
    rec.listCount = -1
    out.words.append(ref)
    let id = Int32(out.nodes.count)
    out.nodes.append(rec)
    out.link(id, parent: ifs)
    createdFrom.append(g)
    createdSource.append(currentSource)
    return id
  }

  /// The interfaces range statement `g` names: `member NAME` (with `[0-5]`, `[1,3-4]` numeric
  /// sets expanded, and `*`/`?` matched against the `existing` interfaces) and
  /// `member-range FROM to TO` (the ports between, inclusive, when both differ only in the last
  /// number; otherwise the existing interfaces between them).
  func members(of g: Int32, existing: [String]) -> [String] {
    var out: [String] = []
    var c = src.nodes[Int(g)].firstChild
    while c >= 0 {
      let r = src.nodes[Int(c)]
      c = r.next
      guard !r.flags.contains(.inactive), r.wordCount >= 2 else { continue }
      let kw = firstWord(r)
      var args = (1..<Int(r.wordCount)).map { text(src.words[Int(r.wordStart) + $0]) }
      // Unquoted, `member ge-0/0/[0-5]` reads as the word `ge-0/0/` and a `[ ]` list.
      if r.listCount > 0 {
        let values = (0..<Int(r.listCount)).map { text(src.words[Int(r.wordStart + r.wordCount) + $0]) }
        args[args.count - 1] += "[" + values.joined(separator: ",") + "]"
      }
      if kw == "member" {
        out += InterfaceNames.expand(args[0], existing: existing)
      } else if kw == "member-range", args.count == 3, args[1] == "to" {
        out += InterfaceNames.range(args[0], args[2], existing: existing)
      } else if kw == "member-range", args.count == 1 {
        // The XML form: `member-range FROM { end-range TO; }`.
        var e = r.firstChild
        while e >= 0 {
          let k = src.nodes[Int(e)]
          if k.wordCount == 2 && firstWord(k) == "end-range" {
            out += InterfaceNames.range(args[0], text(src.words[Int(k.wordStart) + 1]), existing: existing)
          }
          e = k.next
        }
      }
    }
    return out
  }
}

/// Interface-name patterns of `interface-range` members.
enum InterfaceNames {
  /// At most this many names come from one member (a typo like `[0-99999]` must not hang).
  static let limit = 65_536

  /// The names `member PATTERN` stands for.
  static func expand(_ pattern: String, existing: [String]) -> [String] {
    if pattern.contains("*") || pattern.contains("?") {
      let p = Array(pattern.utf8)
      return existing.filter { Wildcard.matches(p[...], Array($0.utf8)[...]) }
    }
    // Numeric sets in brackets: the cartesian product, left to right.
    var results: [String] = [""]
    var rest = Substring(pattern)
    while let open = rest.firstIndex(of: "[") {
      guard let close = rest[open...].firstIndex(of: "]") else { break }
      let literal = rest[..<open]
      let numbers = numberSet(rest[rest.index(after: open)..<close])
      guard !numbers.isEmpty, results.count * numbers.count <= limit else { return [pattern] }
      results = results.flatMap { r in numbers.map { r + literal + String($0) } }
      rest = rest[rest.index(after: close)...]
    }
    return results.map { $0 + rest }
  }

  /// `0-5,7` → 0…5, 7; empty when malformed.
  static func numberSet(_ s: Substring) -> [Int] {
    var out: [Int] = []
    for part in s.split(separator: ",") {
      let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
      if bounds.count == 1, let n = Int(bounds[0]) {
        out.append(n)
      } else if bounds.count == 2, let a = Int(bounds[0]), let b = Int(bounds[1]), a <= b, b - a < limit {
        out += Array(a...b)
      } else {
        return []
      }
    }
    return out
  }

  /// The interfaces of `member-range from to to`.
  static func range(_ from: String, _ to: String, existing: [String]) -> [String] {
    if let a = split(from), let b = split(to), a.prefix == b.prefix, a.port <= b.port, b.port - a.port < limit {
      return (a.port...b.port).map { a.prefix + String($0) }
    }
    guard let lo = numbers(from), let hi = numbers(to), lo.type == hi.type else { return [] }
    return existing.filter { n in
      guard let v = numbers(n), v.type == lo.type else { return false }
      return !v.values.lexicographicallyPrecedes(lo.values) && !hi.values.lexicographicallyPrecedes(v.values)
    }
  }

  /// `ge-0/0/7` → (`ge-0/0/`, 7).
  static func split(_ name: String) -> (prefix: String, port: Int)? {
    guard let slash = name.lastIndex(of: "/"), let port = Int(name[name.index(after: slash)...]) else { return nil }
    return (String(name[...slash]), port)
  }

  /// `ge-1/2/3` → (`ge`, [1, 2, 3]).
  static func numbers(_ name: String) -> (type: Substring, values: [Int])? {
    guard let dash = name.firstIndex(of: "-") else { return nil }
    let values = name[name.index(after: dash)...].split(separator: "/").map { Int($0) }
    guard !values.isEmpty, !values.contains(nil) else { return nil }
    return (name[..<dash], values.map { $0! })
  }
}

import JunosConfig

/// Small lookups over a configuration tree, by first word (the keyword).
extension ConfigTree {
  /// Whether a statement's first word is `keyword` (compared on bytes).
  func isKeyword(_ node: NodeID, _ keyword: String) -> Bool {
    wordCount(of: node) > 0 && wordBytes(0, of: node).elementsEqual(keyword.utf8)
  }

  /// The first child whose first word is `keyword`.
  func first(_ node: NodeID, _ keyword: String) -> NodeID? {
    for c in children(of: node) where isKeyword(c, keyword) { return c }
    return nil
  }

  /// Every child whose first word is `keyword`.
  func all(_ node: NodeID, _ keyword: String) -> [NodeID] {
    children(of: node).filter { isKeyword($0, keyword) }
  }

  /// Whether a child starts with `keyword` (or the statement's own words carry it inline, as in
  /// `route 10.0.0.0/8 passive`).
  func has(_ node: NodeID, _ keyword: String) -> Bool {
    if first(node, keyword) != nil { return true }
    let n = wordCount(of: node)
    if n > 1 { for i in 1..<n where wordBytes(i, of: node).elementsEqual(keyword.utf8) { return true } }
    return false
  }

  /// Word `i` of a statement with the quotes of a quoted word removed (`"Core: a"` → `Core: a`)
  /// and its backslash escapes resolved.
  func text(_ i: Int, of node: NodeID) -> String {
    let b = wordBytes(i, of: node)
    guard b.count >= 2, b.first == UInt8(ascii: "\""), b.last == UInt8(ascii: "\"") else { return String(decoding: b, as: UTF8.self) }
    var out: [UInt8] = []
    var escaped = false
    for c in b.dropFirst().dropLast() {
      if escaped {
        out.append(c)
        escaped = false
      } else if c == UInt8(ascii: "\\") {
        escaped = true
      } else {
        out.append(c)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The value of `keyword value` under `node` (a child, or words written inline after the
  /// statement's identifier: `route 10.0.0.0/8 policy X`).
  func value(_ node: NodeID, _ keyword: String) -> String? {
    if let c = first(node, keyword) { return wordCount(of: c) > 1 ? text(1, of: c) : listValues(of: c)?.first }
    let n = wordCount(of: node)
    if n > 2 {
      for i in 1..<(n - 1) where wordBytes(i, of: node).elementsEqual(keyword.utf8) { return text(i + 1, of: node) }
    }
    return nil
  }

  /// The values of every `keyword X` / `keyword [ X Y ]` child, in order.
  func values(_ node: NodeID, _ keyword: String) -> [String] {
    var out: [String] = []
    for c in all(node, keyword) {
      if let list = listValues(of: c) { out.append(contentsOf: list) }
      let n = wordCount(of: c)
      if n > 1 { for i in 1..<n { out.append(text(i, of: c)) } }
    }
    return out
  }

  /// The statement at a path of keyword-and-identifier words from `start`, each step matching a
  /// child's words exactly (`["protocols", "isis"]`, `["interface", "et-0/0/0.0"]` as one step).
  func descend(_ start: NodeID, _ steps: [[String]]) -> NodeID? {
    var node = start
    for step in steps {
      var found: NodeID?
      for c in children(of: node) where wordCount(of: c) >= step.count {
        var ok = true
        for (i, w) in step.enumerated() where !wordBytes(i, of: c).elementsEqual(w.utf8) {
          ok = false
          break
        }
        if ok {
          found = c
          break
        }
      }
      guard let f = found else { return nil }
      node = f
    }
    return node
  }

  /// The statement at a `set`-form path of words from the root, each statement taking as many
  /// words as it has (`["protocols", "bgp", "group", "G"]` finds `group G`).
  func descendWords(_ path: [String]) -> NodeID? {
    var node = ConfigTree.root
    var i = 0
    while i < path.count {
      var found: NodeID?
      for c in children(of: node) {
        let n = wordCount(of: c)
        guard n > 0, i + n <= path.count else { continue }
        var ok = true
        for k in 0..<n where !wordBytes(k, of: c).elementsEqual(path[i + k].utf8) {
          ok = false
          break
        }
        if ok {
          found = c
          break
        }
      }
      guard let f = found else { return nil }
      node = f
      i += wordCount(of: f)
    }
    return node
  }

  /// The path of a statement in `set` form without `set` (`protocols bgp group DC-FABRIC`).
  func setPathText(_ node: NodeID) -> String {
    pathWords(of: node).map { Self.quoteIfNeeded($0) }.joined(separator: " ")
  }

  static func quoteIfNeeded(_ w: String) -> String {
    w.hasPrefix("\"")
      ? w : w.utf8.contains(where: { $0 == 32 || $0 == 9 || $0 == 59 || $0 == 123 || $0 == 125 }) || w.isEmpty ? "\"\(w)\"" : w
  }
}

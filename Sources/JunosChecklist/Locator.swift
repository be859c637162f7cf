import JunosConfig
import Synchronization

/// Says where a statement of a (possibly edited, group-expanded) tree was written.
///
/// A tree parsed from one file keeps every statement's byte range; a tree built by loading
/// commands over a base keeps ranges only for what the commands wrote. Anything else is found
/// by its path in the trees it came from, newest first.
struct Locator: Sendable {
  /// The file the tree's byte ranges point into (`nil` when they cannot be trusted).
  var primary: SourceFile?
  /// Parsed inputs to look paths up in, newest first.
  var sources: [(tree: ConfigTree, file: SourceFile)]
  /// Where to point when nothing is found.
  var fallback: FindingLocation
  /// One child index per source, filled as paths are looked up.
  let indexes: [ChildIndex]

  init(primary: SourceFile?, sources: [(tree: ConfigTree, file: SourceFile)], fallback: FindingLocation) {
    self.primary = primary
    self.sources = sources
    self.fallback = fallback
    indexes = sources.map { _ in ChildIndex() }
    hasText = !(primary?.bytes.isEmpty ?? true) || sources.contains { !$0.file.bytes.isEmpty }
  }

  /// Whether any file has text to point into (a review's configurations are named, not kept:
  /// every finding is at the fallback, without looking for it).
  let hasText: Bool

  func location(of node: NodeID, in tree: ConfigTree) -> FindingLocation {
    guard hasText else { return fallback }
    if let primary {
      let r = tree.sourceRange(of: node)
      if !r.isEmpty && r.upperBound <= primary.bytes.count { return FindingLocation(primary, offset: r.lowerBound) }
    }
    var steps: [[String]] = []
    var n: NodeID? = node
    while let x = n, x != ConfigTree.root {
      steps.append(tree.words(of: x))
      n = tree.parent(of: x)
    }
    steps.reverse()
    while !steps.isEmpty {
      for (s, index) in zip(sources, indexes) {
        if let hit = index.descend(s.tree, steps) {
          let r = s.tree.sourceRange(of: hit)
          if !r.isEmpty && r.upperBound <= s.file.bytes.count { return FindingLocation(s.file, offset: r.lowerBound) }
        }
      }
      steps.removeLast()
    }
    return fallback
  }
}

/// The children of a statement by their first word and by their first two words, made for each
/// statement the first time a path goes through it, so that finding a path does not compare it
/// with every sibling (a `bgp` block can have thousands of groups).
final class ChildIndex: Sendable {
  private struct Entry: Sendable {
    var one: [String: [NodeID]] = [:]
    var two: [String: [NodeID]] = [:]
  }

  private let entries = Mutex<[NodeID: Entry]>([:])

  init() {}

  /// What ``ConfigTree/descend(_:_:)`` finds from the root: each step is the first child whose
  /// leading words are the step's words.
  func descend(_ tree: ConfigTree, _ steps: [[String]]) -> NodeID? {
    var node = ConfigTree.root
    for step in steps {
      guard let next = child(tree, of: node, step) else { return nil }
      node = next
    }
    return node
  }

  private func child(_ tree: ConfigTree, of parent: NodeID, _ step: [String]) -> NodeID? {
    func matches(_ c: NodeID) -> Bool {
      guard tree.wordCount(of: c) >= step.count else { return false }
      for (i, w) in step.enumerated() where !tree.wordBytes(i, of: c).elementsEqual(w.utf8) { return false }
      return true
    }
    guard let first = step.first else { return tree.firstChild(of: parent) }
    let entry = entries.withLock { $0[parent] } ?? build(tree, parent)
    let candidates = step.count >= 2 ? entry.two[first + "\u{0}" + step[1]] : entry.one[first]
    return candidates?.first(where: matches)
  }

  private func build(_ tree: ConfigTree, _ parent: NodeID) -> Entry {
    var e = Entry()
    for c in tree.children(of: parent) {
      let n = tree.wordCount(of: c)
      guard n > 0 else { continue }
      let w0 = tree.word(0, of: c)
      e.one[w0, default: []].append(c)
      if n > 1 { e.two[w0 + "\u{0}" + tree.word(1, of: c), default: []].append(c) }
    }
    entries.withLock { $0[parent] = e }
    return e
  }
}

/// Says which line of a change (set/delete commands, compare text, a plan step) touches a path.
struct ChangeLocator: Sendable {
  struct Line: Sendable {
    var words: [String]
    var offset: Int
  }

  var file: SourceFile?
  var lines: [Line]
  var fallback: FindingLocation

  init(fallback: FindingLocation) {
    file = nil
    lines = []
    self.fallback = fallback
  }

  /// Indexes `file`: set-style command lines, and the `+`/`-`/`!` lines of compare text with
  /// their `[edit …]` banners.
  init(file: SourceFile, fallback: FindingLocation, onlyLines: Set<Int>? = nil) {
    self.file = file
    self.fallback = fallback
    lines = []
    let verbs: Set<String> = ["set", "delete", "deactivate", "activate", "insert", "rename", "annotate", "protect", "unprotect"]
    var banner: [String] = []
    var stack: [[String]] = []
    let starts = file.lineStarts
    for (i, start) in starts.enumerated() {
      if let only = onlyLines, !only.contains(i + 1) { continue }
      let end = i + 1 < starts.count ? starts[i + 1] : file.bytes.count
      let text = file.bytes[start..<end]
      let hasClose = text.contains(UInt8(ascii: "}"))
      var words = Self.tokens(utf8: text)
      guard let first = words.first else {
        // A line holding only `}` closes a block (the stack would otherwise grow with every
        // block of a curly file, and each line's path with it).
        if hasClose { _ = stack.popLast() }
        continue
      }
      if text.starts(with: "[edit".utf8) {
        banner = Array(words.dropFirst())
        stack = []
        continue
      }
      if verbs.contains(first) {
        words.removeFirst()
        if first == "insert" || first == "rename", let k = words.lastIndex(where: { $0 == "before" || $0 == "after" || $0 == "to" }) {
          words = Array(words[..<k])
        }
        lines.append(Line(words: words, offset: start))
        continue
      }
      var marker = false
      if first == "+" || first == "-" || first == "!" {
        words.removeFirst()
        marker = true
      }
      words.removeAll { $0 == "inactive:" || $0 == "protect:" }
      if words.isEmpty && hasClose {
        _ = stack.popLast()
        continue
      }
      if marker && !words.isEmpty { lines.append(Line(words: banner + stack.flatMap { $0 } + words, offset: start)) }
      if !hasClose && text.contains(UInt8(ascii: "{")) { stack.append(words) }
    }
  }

  /// The words of a command or compare line: blanks, `;`, braces and brackets separate them;
  /// double quotes group (and are dropped).
  static func tokens(_ line: String) -> [String] { tokens(utf8: line.utf8) }

  /// `tokens` on the line's UTF-8 bytes (every separator is ASCII, so a multi-byte character
  /// never splits; a CR of a CRLF line ends the word like any blank).
  static func tokens<Bytes: Collection<UInt8>>(utf8 line: Bytes) -> [String] {
    var out: [String] = []
    var cur: [UInt8] = []
    var quoted = false
    var inWord = false
    for b in line {
      if quoted {
        if b == UInt8(ascii: "\"") { quoted = false } else { cur.append(b) }
        continue
      }
      switch b {
      case UInt8(ascii: "\""):
        quoted = true
        inWord = true
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"),
        UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"):
        if inWord { out.append(String(decoding: cur, as: UTF8.self)) }
        cur.removeAll(keepingCapacity: true)
        inWord = false
      default:
        cur.append(b)
        inWord = true
      }
    }
    if inWord { out.append(String(decoding: cur, as: UTF8.self)) }
    return out
  }

  /// The line that best matches `path`: the longest shared leading words (ties: the first line).
  func location(of path: [String]) -> FindingLocation {
    guard let file else { return fallback }
    var best: (Int, Int)?
    for l in lines {
      var k = 0
      while k < l.words.count && k < path.count && l.words[k] == path[k] { k += 1 }
      let full = k == min(l.words.count, path.count)
      let score = k * 2 + (full ? 1 : 0)
      if k >= min(2, path.count), best == nil || score > best!.0 { best = (score, l.offset) }
    }
    if let (_, off) = best { return FindingLocation(file, offset: off) }
    return fallback
  }
}

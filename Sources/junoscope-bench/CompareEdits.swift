// CompareEdits.swift
//
// The "after" configuration of `junoscope-bench compare`: a copy of a generated curly
// configuration with a fixed number of edits spread evenly through it, made on its lines and
// chosen by a seeded SplitMix64, so every run compares the same two files. Each edit is one
// statement-level change, so the difference `ConfigDiff` must find is known in advance.

/// The kinds of edit and the share of each among the edits made.
enum EditKind: Int, CaseIterable {
  /// A `description`, `mtu` or `host-name` value changed (`changed`).
  case value
  /// A prefix (prefix-list, source/destination-address list) or a BGP `neighbor` added (`added`).
  case addLeaf
  /// A `unit`, `term` or `prefix-list` block added after one of its kind (`added`).
  case addBlock
  /// A leaf statement removed (`deleted`).
  case deleteLeaf
  /// A block of at most 60 lines with an identifier removed (`deleted`).
  case deleteBlock
  /// `inactive:` set on a block, or cleared where it was set (`flags`).
  case inactive
  /// Two adjacent `term`s of a firewall filter or policy exchanged (`moved`).
  case swapTerms

  /// Edits of this kind per 100, when the text offers places for them.
  var share: Int {
    switch self {
    case .value: 40
    case .addLeaf: 13
    case .addBlock: 10
    case .deleteLeaf: 15
    case .deleteBlock: 10
    case .inactive: 8
    case .swapTerms: 4
    }
  }

  /// The `ConfigDiff.counts` key the edit must show up under.
  var diffCategory: String {
    switch self {
    case .value: "changed"
    case .addLeaf, .addBlock: "added"
    case .deleteLeaf, .deleteBlock: "deleted"
    case .inactive: "flags"
    case .swapTerms: "moved"
    }
  }

  var name: String {
    switch self {
    case .value: "value"
    case .addLeaf: "add-leaf"
    case .addBlock: "add-block"
    case .deleteLeaf: "delete-leaf"
    case .deleteBlock: "delete-block"
    case .inactive: "inactive"
    case .swapTerms: "swap-terms"
    }
  }
}

/// The edited copy and what was done to it.
struct EditedConfig {
  var bytes: [UInt8]
  /// Edits made, per kind (indexed by `EditKind.rawValue`).
  var made: [Int]
  var total: Int { made.reduce(0, +) }
  /// The `ConfigDiff.counts` the edits should produce.
  var expectedCounts: [String: Int] {
    var c: [String: Int] = [:]
    for k in EditKind.allCases where made[k.rawValue] > 0 { c[k.diffCategory, default: 0] += made[k.rawValue] }
    return c
  }
}

/// Makes `count` edits (at most 250) to the curly text `old`, one per `count`-th of its lines
/// (more in one part when another offers no place), each kind in proportion to its share.
func makeEditedConfig(_ old: [UInt8], edits count: Int, seed: UInt64) -> EditedConfig {
  var editor = LineEditor(old, seed: seed)
  editor.plan(count)
  return EditedConfig(bytes: editor.apply(), made: editor.made)
}

// MARK: - Lines

private enum LineKind: UInt8 {
  case other, annotation, leaf, header, close
}

/// One replacement of whole lines `first...last` (annotations before a statement included).
private struct LineEdit {
  var first: Int
  var last: Int
  var replacement: [UInt8]
}

private struct LineEditor {
  let bytes: [UInt8]
  /// Per line: offset of its first byte, offset of its newline (or the end), indentation,
  /// kind, matching `{`/`}` line (-1 if none) and enclosing block header (-1 at the top).
  var start: [Int] = []
  var end: [Int] = []
  var indent: [Int32] = []
  var kind: [LineKind] = []
  var partner: [Int32] = []
  var parent: [Int32] = []
  /// Lines an edit already covers: later edits stay clear of them.
  var claimed: [Bool] = []
  var edits: [LineEdit] = []
  var made = [Int](repeating: 0, count: EditKind.allCases.count)
  var rng: GenRandom  // the generator's PRNG, separately seeded

  init(_ bytes: [UInt8], seed: UInt64) {
    self.bytes = bytes
    rng = GenRandom(seed: seed)
    var stack: [Int] = []
    var s = 0
    while s < bytes.count {
      var e = s
      while e < bytes.count && bytes[e] != 0x0A { e += 1 }
      var i = s
      while i < e && bytes[i] == 0x20 { i += 1 }
      let line = start.count
      let k: LineKind
      if i == e || bytes[i] == UInt8(ascii: "#") {
        k = .other
      } else if bytes[i] == UInt8(ascii: "/") && i + 1 < e && bytes[i + 1] == UInt8(ascii: "*") {
        k = .annotation
      } else if bytes[i] == UInt8(ascii: "}") && e == i + 1 {
        k = .close
      } else if bytes[e - 1] == UInt8(ascii: "{") {
        k = .header
      } else if bytes[i..<e].contains(UInt8(ascii: ";")) {
        k = .leaf
      } else {
        k = .other
      }
      start.append(s)
      end.append(e)
      indent.append(Int32(i - s))
      kind.append(k)
      partner.append(-1)
      switch k {
      case .header:
        parent.append(Int32(stack.last ?? -1))
        stack.append(line)
      case .close:
        let h = stack.popLast() ?? -1
        parent.append(h >= 0 ? parent[h] : -1)
        if h >= 0 {
          partner[h] = Int32(line)
          partner[line] = Int32(h)
        }
      default:
        parent.append(Int32(stack.last ?? -1))
      }
      s = e + 1
    }
    claimed = [Bool](repeating: false, count: start.count)
  }

  // MARK: text helpers

  /// The line without its indentation and an `inactive: ` prefix.
  func text(_ line: Int) -> ArraySlice<UInt8> {
    let t = bytes[(start[line] + Int(indent[line]))..<end[line]]
    return isInactive(line) ? t.dropFirst(10) : t
  }

  func isInactive(_ line: Int) -> Bool {
    bytes[(start[line] + Int(indent[line]))..<end[line]].starts(with: "inactive: ".utf8)
  }

  func firstWord(_ line: Int) -> ArraySlice<UInt8> {
    let t = text(line)
    return t.prefix { $0 != 0x20 && $0 != UInt8(ascii: ";") }
  }

  func word(_ line: Int, is w: String) -> Bool { firstWord(line).elementsEqual(w.utf8) }

  /// A header's words before ` {`, counted on spaces.
  func headerWords(_ line: Int) -> [ArraySlice<UInt8>] {
    text(line).dropLast(2).split(separator: 0x20)
  }

  /// The first line of a statement: its own, or the first of the annotations just above it.
  func statementStart(_ line: Int) -> Int {
    var s = line
    while s > 0 && kind[s - 1] == .annotation { s -= 1 }
    return s
  }

  /// The last line of a statement: a header's `}`, else its own.
  func statementEnd(_ line: Int) -> Int { kind[line] == .header ? Int(partner[line]) : line }

  /// The statements directly inside the block headed by `p`.
  func children(_ p: Int) -> [Int] {
    var out: [Int] = []
    var j = p + 1
    let stop = Int(partner[p])
    while j < stop {
      switch kind[j] {
      case .header:
        out.append(j)
        j = Int(partner[j]) + 1
      case .leaf:
        out.append(j)
        j += 1
      default: j += 1
      }
    }
    return out
  }

  func unclaimed(_ first: Int, _ last: Int) -> Bool {
    for i in first...last where claimed[i] { return false }
    return true
  }

  func lineBytes(_ first: Int, _ last: Int) -> ArraySlice<UInt8> {
    bytes[start[first]..<min(end[last] + 1, bytes.count)]
  }

  // MARK: planning

  /// Whether `line` can take an edit of `kind`, by the checks that cost O(1).
  func quickCheck(_ line: Int, _ k: EditKind) -> Bool {
    let p = Int(parent[line])
    switch k {
    case .value:
      return kind[line] == .leaf && p >= 0 && !isInactive(line)
        && (word(line, is: "description") || word(line, is: "mtu") || word(line, is: "host-name"))
    case .deleteLeaf:
      return kind[line] == .leaf && p >= 0
    case .addLeaf:
      guard kind[line] == .leaf, p >= 0, partner[p] >= 0 else { return false }
      return word(p, is: "prefix-list") || word(p, is: "source-address") || word(p, is: "destination-address")
        || (word(p, is: "group") && word(line, is: "neighbor"))
    case .addBlock:
      guard kind[line] == .close, partner[line] >= 0 else { return false }
      let h = Int(partner[line])
      guard !isInactive(h), word(h, is: "unit") || word(h, is: "term") || word(h, is: "prefix-list") else { return false }
      let w = headerWords(h)
      return w.count == 2 && !w[1].contains(UInt8(ascii: "<")) && !w[1].contains(UInt8(ascii: "*"))
    case .deleteBlock:
      guard kind[line] == .header, p >= 0, partner[line] >= 0, indent[line] >= 4 else { return false }
      return Int(partner[line]) - line < 60 && headerWords(line).count >= 2
    case .inactive:
      guard kind[line] == .header, p >= 0, partner[line] >= 0, indent[line] >= 4 else { return false }
      return Int(partner[line]) - line < 200 && headerWords(line).count >= 2
    case .swapTerms:
      guard kind[line] == .header, partner[line] >= 0, word(line, is: "term") else { return false }
      var j = Int(partner[line]) + 1
      while j < kind.count && kind[j] == .annotation { j += 1 }
      return j < kind.count && kind[j] == .header && partner[j] >= 0 && indent[j] == indent[line] && word(j, is: "term")
    }
  }

  /// The edit of `kind` at `line` (which passed `quickCheck`), or nil if it would not show up
  /// as exactly one change or overlaps an earlier edit. `ordinal` makes added names unique.
  func makeEdit(_ line: Int, _ k: EditKind, ordinal: Int) -> LineEdit? {
    let p = Int(parent[line])
    let pad = [UInt8](repeating: 0x20, count: Int(indent[line]))
    switch k {
    case .value:
      guard !claimed[line], soleOfItsKeyword(line, under: p) else { return nil }
      let t = text(line)
      guard let semi = t.lastIndex(of: UInt8(ascii: ";")), let space = t.firstIndex(of: 0x20), space < semi else { return nil }
      let value = bytes[(space + 1)..<semi]
      var out = pad + Array(bytes[t.startIndex...space])
      if value.last == UInt8(ascii: "\"") {
        out += value.dropLast() + Array(" (edited)\"".utf8)
      } else if value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        out += Array((value.elementsEqual("9192".utf8) ? "9000" : "9192").utf8)
      } else {
        out += value + Array("-b".utf8)
      }
      out += bytes[semi..<t.endIndex] + [0x0A]
      return LineEdit(first: line, last: line, replacement: out)
    case .deleteLeaf:
      let s = statementStart(line)
      guard unclaimed(s, line), soleOfItsKeyword(line, under: p), children(p).count >= 2 else { return nil }
      return LineEdit(first: s, last: line, replacement: [])
    case .addLeaf:
      guard !claimed[line] else { return nil }
      let address = "192.0.2.\(ordinal % 254 + 1)"
      let added = word(p, is: "group") ? "neighbor \(address);\n" : "\(address)/32;\n"
      return LineEdit(first: line, last: line, replacement: Array(lineBytes(line, line)) + pad + Array(added.utf8))
    case .addBlock:
      guard !claimed[line] else { return nil }
      let h = Int(partner[line])
      let i = String(repeating: " ", count: Int(indent[line]))
      let block: String
      if word(h, is: "unit") {
        block = """
          \(i)unit \(5000 + ordinal) {
          \(i)    description "Added by junoscope-bench (edit \(ordinal))";
          \(i)    family inet {
          \(i)        address 192.0.2.\(ordinal % 254 + 1)/32;
          \(i)    }
          \(i)}

          """
      } else if word(h, is: "term") {
        block = "\(i)term BENCH-ADDED-\(ordinal) {\n\(i)    then accept;\n\(i)}\n"
      } else {
        block = "\(i)prefix-list BENCH-ADDED-\(ordinal) {\n\(i)    192.0.2.\(ordinal % 254 + 1)/32;\n\(i)}\n"
      }
      return LineEdit(first: line, last: line, replacement: Array(lineBytes(line, line)) + Array(block.utf8))
    case .deleteBlock:
      let s = statementStart(line)
      guard unclaimed(s, statementEnd(line)), children(p).count >= 2 else { return nil }
      let mine = text(line)
      let twins = children(p).filter { kind[$0] == .header && text($0).elementsEqual(mine) }.count
      guard twins == 1 else { return nil }
      return LineEdit(first: s, last: statementEnd(line), replacement: [])
    case .inactive:
      guard unclaimed(statementStart(line), statementEnd(line)) else { return nil }
      let out = pad + (isInactive(line) ? [] : Array("inactive: ".utf8)) + Array(text(line)) + [0x0A]
      return LineEdit(first: line, last: line, replacement: out)
    case .swapTerms:
      let s1 = statementStart(line)
      let e1 = statementEnd(line)
      var h2 = e1 + 1
      while kind[h2] == .annotation { h2 += 1 }
      let e2 = statementEnd(h2)
      guard unclaimed(s1, e2) else { return nil }
      return LineEdit(first: s1, last: e2, replacement: Array(lineBytes(e1 + 1, e2)) + Array(lineBytes(s1, e1)))
    }
  }

  /// Whether no other statement under `p` starts with the same word: then the statement is
  /// matched to its counterpart whichever words identify it.
  func soleOfItsKeyword(_ line: Int, under p: Int) -> Bool {
    let w = firstWord(line)
    return children(p).filter { firstWord($0).elementsEqual(w) }.count == 1
  }

  mutating func claim(_ edit: LineEdit, _ k: EditKind) {
    let first = k == .inactive ? statementStart(edit.first) : edit.first
    let last = k == .inactive ? statementEnd(edit.first) : edit.last
    for i in first...last { claimed[i] = true }
    edits.append(edit)
    made[k.rawValue] += 1
  }

  /// Chooses the edits: the lines are cut into `count` equal parts, and each part gets the
  /// kind furthest behind its share among the kinds it has a place for.
  mutating func plan(_ count: Int) {
    let n = start.count
    guard n > 0, count > 0 else { return }
    var total = 0
    var hostNameEdited = false
    // The parts in order, then once more over the whole file for edits a part could not take.
    let parts = (0..<count).map { ($0 * n / count, ($0 + 1) * n / count, $0 + 1) } + [(0, n, count)]
    for (lo, hi, due) in parts where total < due {
      var candidates = EditKind.allCases.map { k in (lo..<hi).filter { quickCheck($0, k) } }
      while total < due {
        // Kinds by how far they are behind their share of the edits made so far.
        var order = EditKind.allCases.sorted { a, b in
          let da = Double(a.share * (total + 1)) / 100 - Double(made[a.rawValue])
          let db = Double(b.share * (total + 1)) / 100 - Double(made[b.rawValue])
          return da != db ? da > db : a.rawValue < b.rawValue
        }
        // The one `host-name` gets its edit whatever the part's turn.
        if !hostNameEdited && candidates[EditKind.value.rawValue].contains(where: { word($0, is: "host-name") }) {
          order = [.value] + order.filter { $0 != .value }
          hostNameEdited = true
        }
        var done = false
        for k in order where !candidates[k.rawValue].isEmpty {
          // Try the candidates from a random one on; drop those that fail. `host-name` first
          // (there is one), and every other `inactive` edit clears the flag where it can.
          let list = candidates[k.rawValue]
          let from = rng.below(list.count)
          var tries = (0..<list.count).map { list[(from + $0) % list.count] }
          if k == .value {
            tries = tries.filter { word($0, is: "host-name") } + tries.filter { !word($0, is: "host-name") }
          } else if k == .inactive && made[k.rawValue] % 2 == 1 {
            tries = tries.filter { isInactive($0) } + tries.filter { !isInactive($0) }
          }
          for line in tries {
            if let edit = makeEdit(line, k, ordinal: total + 1) {
              claim(edit, k)
              candidates[k.rawValue].removeAll { $0 == line }
              done = true
              break
            }
          }
          if done { break }
          candidates[k.rawValue] = []
        }
        if !done { break }
        total += 1
      }
    }
  }

  /// The text with every edit applied.
  func apply() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 100)
    var at = 0
    for e in edits.sorted(by: { $0.first < $1.first }) {
      out += bytes[at..<start[e.first]]
      out += e.replacement
      at = min(end[e.last] + 1, bytes.count)
    }
    out += bytes[at...]
    return out
  }
}

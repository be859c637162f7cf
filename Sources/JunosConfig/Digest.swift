extension ConfigTree {
  /// A 64-bit digest of every statement's subtree — words, `[ ]` values, prefix flags,
  /// annotation and children in order — indexed by ``NodeID/index``. Two statements with the same
  /// digest are, barring a 64-bit collision, the same configuration; `#` comments, layout and
  /// the difference between `x { }` and `x;` do not count. Linear in the size of the tree.
  public func subtreeDigests() -> [UInt64] {
    var digest = [UInt64](repeating: 0, count: nodes.count)
    let order = [ConfigTree.root] + allStatements()
    for node in order.reversed() {
      let r = nodes[node.index]
      var h: UInt64 = 0xcbf2_9ce4_8422_2325
      @inline(__always) func mix(_ b: UInt8) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
      // `members [ a ];` and `members a;` are the same configuration: a one-value list is
      // hashed as a last word.
      let oneValue = r.listCount == 1
      let shown = Int(r.wordCount) + (oneValue ? 1 : 0)
      for i in 0..<Int(r.wordCount + max(r.listCount, 0)) {
        let w = words[Int(r.wordStart) + i]
        for k in Int(w.start)..<Int(w.end) { mix(storage[k]) }
        mix(i == shown - 1 ? 0x1F : 0x20)
      }
      mix(UInt8(truncatingIfNeeded: (oneValue ? -1 : r.listCount) + 2))
      // `x { }` and `x;` are the same configuration: what counts is having children.
      mix(r.flags.subtracting([StatementFlags.braceSemicolon, StatementFlags.block]).rawValue | (r.firstChild >= 0 ? 0x80 : 0))
      if let a = comparableAnnotation(of: node) { for b in a.utf8 { mix(b) } }
      var c = r.firstChild
      while c >= 0 {
        h = (h ^ digest[Int(c)]) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        c = nodes[Int(c)].next
      }
      digest[node.index] = h
    }
    return digest
  }
}

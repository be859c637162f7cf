/// Which values of a configuration are secrets, and how they are masked.
///
/// A value is secret when Juniper's schema types it `unreadable` (`jt:unreadable`: keys,
/// passwords, shared secrets), when its keyword is one Junos stores secrets in although the
/// schema types it as a plain string (BGP's `authentication-key`, `pre-shared-key`, SSH public
/// keys, …), when the device marked the statement with a `## SECRET-DATA` trailer, or when it
/// is a Junos-encrypted or hashed secret (`$9$…`, `$1$…`, `$5$…`, `$6$…`, `$8$…`). Only the
/// value words are replaced by ``SecretMasking/mask``: key ids, `type md5` and other words stay
/// (`authentication-key 1 type md5 value "<masked>"`). Every output masks them unless secrets
/// are shown on request.
public enum SecretMasking {
  /// The text that replaces a secret value.
  public static let mask = "\"<masked>\""

  /// Keywords whose value is a secret.
  public static let secretKeywords: Set<String> = [
    "encrypted-password", "plain-text-password-value", "secret", "authentication-key", "pre-shared-key",
    "cak", "ssh-rsa", "ssh-dsa", "ssh-ecdsa", "ssh-ed25519", "simple-password", "md5-key", "hmac-key",
    "private-key", "key-pass-phrase", "passphrase", "password",
  ]

  /// SSH public keys: lists whose key is the key text.
  static let keyListKeywords: Set<String> = ["ssh-rsa", "ssh-dsa", "ssh-ecdsa", "ssh-ed25519"]

  /// Words after a secret keyword that name the encoding rather than hold the secret.
  static let encodingWords: Set<String> = ["ascii-text", "hexadecimal"]

  /// The word positions of `node` that hold secret values (empty when none).
  ///
  /// - Parameters:
  ///   - shape: The statement's shape (``ConfigModel/shapes(of:)``).
  ///   - matcher: The schema the shape came from.
  /// - Returns: The indices into the statement's words; list values are covered by
  ///   ``masksList(of:in:shape:matcher:)``.
  public static func secretWordIndices(of node: NodeID, in tree: ConfigTree, shape: StatementShape, matcher: SchemaMatcher?) -> [Int] {
    secretWordIndices(of: node, in: tree, shape: shape, matcher: matcher, marked: tree.isMarkedSecret(node))
  }

  /// Whether a leaf statement holds a secret by its words alone, the `## SECRET-DATA` marker
  /// aside: a statement the device marks so.
  static func holdsSecret(_ node: NodeID, in tree: ConfigTree, shape: StatementShape, matcher: SchemaMatcher?) -> Bool {
    guard !tree.isBlock(node) else { return false }
    return !secretWordIndices(of: node, in: tree, shape: shape, matcher: matcher, marked: false).isEmpty
      || masksList(of: node, in: tree, shape: shape, matcher: matcher, marked: false)
  }

  static func secretWordIndices(of node: NodeID, in tree: ConfigTree, shape: StatementShape, matcher: SchemaMatcher?, marked: Bool)
    -> [Int]
  {
    let n = tree.wordCount(of: node)
    guard n > 0 else { return [] }
    var out: [Int] = []
    if let matcher, shape.head != nil {
      let r = tree.nodes[node.index]
      let refs = tree.words[Int(r.wordStart)..<Int(r.wordStart + r.wordCount)]
      for seg in matcher.segments(tree.storage, refs, hasList: r.listCount >= 0, shape: shape) {
        guard let h = seg.head else { continue }
        let kind = matcher.schema.kind(h)
        if kind == .list, seg.range.count > 1, keyListKeywords.contains(matcher.schema.name(h)) {
          out += (seg.range.lowerBound + 1)..<seg.range.upperBound
        }
        guard seg.valueWords > 0 else { continue }
        if matcher.schema.flags(h).contains(.secret) || (kind == .leaf && secretKeywords.contains(matcher.schema.name(h))) {
          out += (seg.range.upperBound - seg.valueWords)..<seg.range.upperBound
        }
      }
    } else {
      var k = 0
      while k < n {
        if secretKeywords.contains(tree.word(k, of: node)) {
          var j = k + 1
          while j < n && encodingWords.contains(tree.word(j, of: node)) { j += 1 }
          if j < n {
            out.append(j)
            k = j
          }
        }
        k += 1
      }
    }
    if out.isEmpty && marked && !tree.isBlock(node) && tree.listValues(of: node) == nil {
      out.append(n - 1)  // `"secret"; ## SECRET-DATA` or `key "$9$…"; ## SECRET-DATA`
    }
    for k in 1..<n where !out.contains(k) && looksEncrypted(tree.wordBytes(k, of: node)) { out.append(k) }
    return out.sorted()
  }

  /// Whether the `[ ]` values of a statement are secrets.
  public static func masksList(of node: NodeID, in tree: ConfigTree, shape: StatementShape, matcher: SchemaMatcher?) -> Bool {
    masksList(of: node, in: tree, shape: shape, matcher: matcher, marked: tree.isMarkedSecret(node))
  }

  static func masksList(of node: NodeID, in tree: ConfigTree, shape: StatementShape, matcher: SchemaMatcher?, marked: Bool) -> Bool {
    guard let values = tree.listValues(of: node) else { return false }
    if marked || secretKeywords.contains(tree.word(tree.wordCount(of: node) - 1, of: node)) { return true }
    if values.contains(where: { looksEncrypted(ArraySlice($0.utf8)) }) { return true }
    guard let matcher, shape.head != nil else { return false }
    let r = tree.nodes[node.index]
    let refs = tree.words[Int(r.wordStart)..<Int(r.wordStart + r.wordCount)]
    let last = matcher.segments(tree.storage, refs, hasList: true, shape: shape).last?.head
    return last.map { matcher.schema.flags($0).contains(.secret) } ?? false
  }

  /// A value Junos stores encrypted or hashed: `$9$` (reversible), `$1$`, `$5$`, `$6$`, `$8$`,
  /// quoted or not.
  static func looksEncrypted(_ w: ArraySlice<UInt8>) -> Bool {
    var b = w
    if b.first == UInt8(ascii: "\"") { b = b.dropFirst() }
    guard b.count >= 4, b[b.startIndex] == UInt8(ascii: "$"), b[b.startIndex + 2] == UInt8(ascii: "$") else { return false }
    switch b[b.startIndex + 1] {
    case UInt8(ascii: "9"), UInt8(ascii: "1"), UInt8(ascii: "5"), UInt8(ascii: "6"), UInt8(ascii: "8"): return true
    default: return false
    }
  }
}

/// Which values of a configuration are secrets, and how they are masked.
///
/// A statement is secret when its keyword is one Junos stores secrets in (`encrypted-password`,
/// `secret`, `authentication-key`, `pre-shared-key`, `cak`, SSH public keys, …) or when the
/// device marked it with a `## SECRET-DATA` trailer. Its value words are replaced by
/// ``SecretMasking/mask`` in every output unless secrets are shown on request.
public enum SecretMasking {
  /// The text that replaces a secret value.
  public static let mask = "\"<masked>\""

  /// Keywords whose value is a secret.
  public static let secretKeywords: Set<String> = [
    "encrypted-password", "plain-text-password-value", "secret", "authentication-key", "pre-shared-key",
    "cak", "ssh-rsa", "ssh-dsa", "ssh-ecdsa", "ssh-ed25519", "simple-password", "md5-key", "hmac-key",
    "private-key", "key-pass-phrase", "passphrase", "password",
  ]

  /// Words after a secret keyword that name the encoding rather than hold the secret.
  static let encodingWords: Set<String> = ["ascii-text", "hexadecimal"]

  /// The word positions of `node` that hold secret values (empty when none).
  ///
  /// - Returns: The indices into the statement's words; list values are covered by
  ///   ``masksList(of:in:)``.
  public static func secretWordIndices(of node: NodeID, in tree: ConfigTree) -> [Int] {
    let n = tree.wordCount(of: node)
    guard n > 0 else { return [] }
    var out: [Int] = []
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
    if out.isEmpty && tree.isMarkedSecret(node) && !tree.isBlock(node) && tree.listValues(of: node) == nil {
      out.append(n - 1)  // `"secret"; ## SECRET-DATA` or `key "$9$…"; ## SECRET-DATA`
    }
    return out
  }

  /// Whether the `[ ]` values of a statement are secrets.
  public static func masksList(of node: NodeID, in tree: ConfigTree) -> Bool {
    tree.listValues(of: node) != nil
      && (tree.isMarkedSecret(node) || secretKeywords.contains(tree.word(tree.wordCount(of: node) - 1, of: node)))
  }
}

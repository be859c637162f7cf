/// A policy expression: policies joined by `&&`, `||` and `!` (`export ( A && ! B )`).
///
/// Junos turns each policy's flow action into a value (accept and `next policy` are true, reject
/// is false), combines the values with short-circuit `&&` and `||`, and turns the result back into
/// the flow action of the last policy evaluated, inverted by `!`. The rules, with what Juniper's
/// documentation leaves open, are in `Docs/PolicySemantics.md`.
public indirect enum PolicyExpression: Sendable, Hashable {
  /// One policy.
  case policy(String)
  /// `! E`.
  case not(PolicyExpression)
  /// `A && B`: `B` is evaluated only when `A` is true.
  case and(PolicyExpression, PolicyExpression)
  /// `A || B`: `B` is evaluated only when `A` is false.
  case or(PolicyExpression, PolicyExpression)

  /// The policies named, in the order written.
  public var policies: [String] {
    switch self {
    case .policy(let p): [p]
    case .not(let e): e.policies
    case .and(let a, let b), .or(let a, let b): a.policies + b.policies
    }
  }
}

extension PolicyExpression: CustomStringConvertible {
  /// The expression as Junos prints it, fully parenthesised below the top (`( A && ( B || C ) )`).
  public var description: String { "( \(inner) )" }

  private var inner: String {
    switch self {
    case .policy(let p): p
    case .not(let e): "! \(e.operand)"
    case .and(let a, let b): "\(a.operand) && \(b.operand)"
    case .or(let a, let b): "\(a.operand) || \(b.operand)"
    }
  }

  private var operand: String {
    switch self {
    case .policy(let p): p
    case .not(let e): "! \(e.operand)"
    case .and, .or: description
    }
  }
}

/// One element of an `import`/`export` chain or of a `from policy` list: a policy, or a policy
/// expression in parentheses.
public enum ChainElement: Sendable, Hashable {
  case policy(String)
  case expression(PolicyExpression)

  /// The policies named, in the order written.
  public var policies: [String] {
    switch self {
    case .policy(let p): [p]
    case .expression(let e): e.policies
    }
  }
}

extension ChainElement: CustomStringConvertible {
  /// Whether the element is an expression.
  public var isExpression: Bool { if case .expression = self { true } else { false } }

  /// The policy's name, or the expression in parentheses.
  public var description: String {
    switch self {
    case .policy(let p): p
    case .expression(let e): e.description
    }
  }
}

/// The words of a chain (`[ A ( B && ! C ) D ]`, as the configuration holds them) read into
/// elements.
///
/// Operators and parentheses may be separate words or glued to names (`(A&&!B)`); `!` binds
/// tighter than `&&`, which binds tighter than `||`. `nil` when the words are not a well-formed
/// chain (an unbalanced parenthesis, an operator outside parentheses or without an operand),
/// which Junos would not commit.
public func parsePolicyChain(_ words: [String]) -> [ChainElement]? {
  var tokens: [String] = []
  for w in words { tokens += chainTokens(w) }
  var parser = ExpressionParser(tokens: tokens)
  var out: [ChainElement] = []
  while let t = parser.peek {
    if t == "(" {
      guard let e = parser.parenthesised() else { return nil }
      out.append(.expression(e))
    } else if isOperator(t) || t == ")" {
      return nil
    } else {
      parser.index += 1
      out.append(.policy(t))
    }
  }
  return out
}

/// The policies a chain's words name (operators and parentheses left out), in order.
func policyNames(_ words: [String]) -> [String] {
  words.flatMap(chainTokens).filter { !isOperator($0) && $0 != "(" && $0 != ")" }
}

/// Whether the words hold a policy expression.
func hasPolicyExpression(_ words: [String]) -> Bool { words.contains { $0.utf8.contains(UInt8(ascii: "(")) } }

private func isOperator(_ t: String) -> Bool { t == "&&" || t == "||" || t == "!" }

/// One word cut at blanks, parentheses and operators (a quoted `"( A && B )"` is one word):
/// `(A&&!B)` gives `(`, `A`, `&&`, `!`, `B`, `)`.
private func chainTokens(_ word: String) -> [String] {
  let bytes = Array(word.utf8)
  var out: [String] = []
  var start = 0
  var i = 0
  func flush() {
    if start < i { out.append(String(decoding: bytes[start..<i], as: UTF8.self)) }
  }
  while i < bytes.count {
    let b = bytes[i]
    let pair = i + 1 < bytes.count && bytes[i + 1] == b && (b == UInt8(ascii: "&") || b == UInt8(ascii: "|"))
    if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") {
      flush()
      i += 1
      start = i
    } else if b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == UInt8(ascii: "!") || pair {
      flush()
      let n = pair ? 2 : 1
      out.append(String(decoding: bytes[i..<i + n], as: UTF8.self))
      i += n
      start = i
    } else {
      i += 1
    }
  }
  flush()
  return out
}

/// Recursive descent over the tokens: `or := and ('||' and)*`, `and := not ('&&' not)*`,
/// `not := '!' not | '(' or ')' | NAME`. Nesting is bounded (`maxDepth`) so hostile input cannot
/// exhaust the stack.
private struct ExpressionParser {
  let tokens: [String]
  var index = 0
  var depth = 0
  static let maxDepth = 256

  init(tokens: [String]) { self.tokens = tokens }

  var peek: String? { index < tokens.count ? tokens[index] : nil }

  mutating func parenthesised() -> PolicyExpression? {
    guard peek == "(", depth < Self.maxDepth else { return nil }
    index += 1
    depth += 1
    defer { depth -= 1 }
    guard let e = or(), peek == ")" else { return nil }
    index += 1
    return e
  }

  private mutating func or() -> PolicyExpression? {
    guard var e = and() else { return nil }
    while peek == "||" {
      index += 1
      guard let r = and() else { return nil }
      e = .or(e, r)
    }
    return e
  }

  private mutating func and() -> PolicyExpression? {
    guard var e = not() else { return nil }
    while peek == "&&" {
      index += 1
      guard let r = not() else { return nil }
      e = .and(e, r)
    }
    return e
  }

  private mutating func not() -> PolicyExpression? {
    guard let t = peek else { return nil }
    if t == "!" {
      guard depth < Self.maxDepth else { return nil }
      index += 1
      depth += 1
      defer { depth -= 1 }
      return not().map { .not($0) }
    }
    if t == "(" { return parenthesised() }
    if isOperator(t) || t == ")" { return nil }
    index += 1
    return .policy(t)
  }
}

public import JunosConfig
public import JunosDiff

/// Which commit last introduced or changed each statement of a configuration, worked out from a
/// chain of rollbacks, oldest first.
///
/// Start from the oldest rollback available (everything in it is attributed to that rollback's
/// commit "or earlier": a boundary, like `^` in `git blame`), then ``advance(to:rollback:digests:)``
/// one rollback at a time to the newest. Each step compares the two configurations with
/// ``ConfigDiff`` — the same matching `junoscope diff` uses, so a statement blamed on commit k is
/// one the diff of commit k shows — and a statement keeps its commit only when its own line
/// (words, `[ ]` values, `inactive:`/`protect:`, annotation, and for terms and policies their
/// place in the list) is the same. A statement whose children changed keeps its own commit.
///
/// A missing rollback between two steps makes the step's changes belong to one of several
/// commits: the attribution is then a span (`newest..oldest`), never a guess.
public struct Blame: Sendable {
  /// The commits one step of the chain can stand for.
  public struct Origin: Sendable, Hashable {
    /// The newest commit the change can be from (the rollback the step reached).
    public var commit: Int
    /// The oldest commit it can be from: `commit` unless rollbacks were missing.
    public var oldestCommit: Int
    /// Whether the statement was already in the oldest rollback read: it dates from that
    /// commit or any earlier one.
    public var isBoundary: Bool

    /// Every commit the change can be from, newest first (ascending numbers):
    /// `commit…oldestCommit` — one commit unless rollbacks were missing; for a boundary, commit
    /// N, standing for "N or earlier".
    public var candidates: ClosedRange<Int> { commit...oldestCommit }

    /// Creates an origin.
    public init(commit: Int, oldestCommit: Int, isBoundary: Bool) {
      self.commit = commit
      self.oldestCommit = oldestCommit
      self.isBoundary = isBoundary
    }
  }

  /// The newest configuration read so far: the one the attributions are about.
  public private(set) var tree: ConfigTree
  /// Its rollback number.
  public private(set) var rollback: Int
  /// The oldest rollback of the chain.
  public let oldestRollback: Int
  /// The steps so far; `origins[0]` is the boundary.
  public private(set) var origins: [Origin]
  /// Index into `origins` per node (``NodeID/index``) of ``tree``.
  var owner: [Int32]
  var digests: [UInt64]
  let options: DiffOptions
  /// Whether the last comparison merged repeated statements: ``tree`` is then a merged copy of
  /// the rollback as read.
  public private(set) var lastStepMerged = false

  /// Starts a chain at its oldest rollback.
  ///
  /// - Parameters:
  ///   - tree: Rollback `rollback`, the oldest configuration that will be read.
  ///   - rollback: Its number.
  ///   - options: Matching options (the keyword table), as for ``ConfigDiff``.
  ///   - digests: `tree.subtreeDigests()` if already computed.
  public init(oldest tree: ConfigTree, rollback: Int, options: DiffOptions = DiffOptions(), digests: [UInt64]? = nil) {
    let d = digests ?? tree.subtreeDigests()
    self.tree = tree
    self.rollback = rollback
    self.oldestRollback = rollback
    self.origins = [Origin(commit: rollback, oldestCommit: rollback, isBoundary: true)]
    self.owner = [Int32](repeating: 0, count: d.count)
    self.digests = d
    self.options = options
  }

  /// Moves the chain to a newer rollback.
  ///
  /// - Parameters:
  ///   - newer: Rollback `rollback`, newer than ``rollback`` (a smaller number).
  ///   - rollback: Its number. Skipping numbers is allowed (missing files); the changes of the
  ///     step are then attributed to the span of commits between.
  ///   - digests: `newer.subtreeDigests()` if already computed.
  /// - Returns: The comparison of the step, for callers that also want the diff.
  @discardableResult
  public mutating func advance(to newer: ConfigTree, rollback n: Int, digests newDigests: [UInt64]? = nil) -> ConfigDiff {
    let diff = ConfigDiff(from: tree, to: newer, options: options, oldDigests: digests, newDigests: newDigests)
    advance(with: diff, rollback: n)
    return diff
  }

  /// Moves the chain to a newer rollback with a comparison already made.
  ///
  /// - Parameters:
  ///   - diff: `ConfigDiff(from: tree, to: newer)` — from ``tree`` exactly as it is (node for
  ///     node; after a step that merged repeated statements that is the merged copy, see
  ///     ``lastStepMerged``).
  ///   - n: The newer rollback's number.
  public mutating func advance(with diff: ConfigDiff, rollback n: Int) {
    precondition(n < rollback, "advance goes from an older rollback (higher number) to a newer one")
    let step = Int32(origins.count)
    origins.append(Origin(commit: n, oldestCommit: rollback - 1, isBoundary: false))
    var next = [Int32](repeating: step, count: diff.newDigests.count)
    var ownLineChanged = Set<Int>()
    for g in diff.groups {
      for item in g.items {
        switch item {
        case .changed(_, let x), .moved(_, let x), .flags(_, let x), .annotation(_, let x): ownLineChanged.insert(x.index)
        case .context, .added, .deleted: continue
        }
      }
    }
    let old = diff.old
    let new = diff.new
    let od = diff.oldDigests
    let nd = diff.newDigests
    // Same subtree: every statement keeps its owner, pairwise in order.
    func copySubtree(_ o: NodeID, _ n: NodeID) {
      var stack: [(NodeID?, NodeID?)] = [(old.firstChild(of: o), new.firstChild(of: n))]
      while let (a, b) = stack.popLast() {
        guard let x = a, let y = b else { continue }
        next[y.index] = owner[x.index]
        stack.append((old.nextSibling(of: x), new.nextSibling(of: y)))
        stack.append((old.firstChild(of: x), new.firstChild(of: y)))
      }
    }
    // Children whose digests agree pairwise were not visited by the comparison.
    func copyChildrenIfSame(_ o: NodeID, _ n: NodeID) {
      var a = old.firstChild(of: o)
      var b = new.firstChild(of: n)
      while let x = a, let y = b {
        if od[x.index] != nd[y.index] { return }
        a = old.nextSibling(of: x)
        b = new.nextSibling(of: y)
      }
      guard a == nil && b == nil else { return }
      copySubtree(o, n)
    }
    if diff.isEmpty {
      copySubtree(ConfigTree.root, ConfigTree.root)
    } else {
      for (o, n) in diff.matches {
        if !ownLineChanged.contains(n.index) { next[n.index] = owner[o.index] }
        if od[o.index] == nd[n.index] { copySubtree(o, n) } else { copyChildrenIfSame(o, n) }
      }
    }
    tree = new
    digests = nd
    owner = next
    rollback = n
    lastStepMerged = diff.mergedDuplicates
  }

  /// Where a statement of ``tree`` comes from.
  public func origin(of node: NodeID) -> Origin { origins[Int(owner[node.index])] }
}

extension ConfigTree {
  /// The statements a hierarchy path names, as `show PATH` would: the path's words are matched
  /// against statements' words level by level (`interfaces xe-0/0/1 unit 0`); the last statement
  /// may have more words than are left (`system host-name` names `host-name r1`). Every match is
  /// returned (`routing-options static route 10.0.0.0/8` may name several routes' statements).
  public func statements(at path: [String]) -> [NodeID] {
    guard !path.isEmpty else { return [] }
    var out: [NodeID] = []
    var work: [(NodeID, Int)] = [(ConfigTree.root, 0)]
    while let (parent, used) = work.popLast() {
      for c in children(of: parent) {
        let n = wordCount(of: c) + (listValues(of: c)?.count ?? 0)
        let all = words(of: c) + (listValues(of: c) ?? [])
        let take = min(n, path.count - used)
        guard take > 0, Array(all.prefix(take)) == Array(path[used..<(used + take)]) else { continue }
        if used + take == path.count { out.append(c) } else if take == n { work.append((c, used + take)) }
      }
    }
    return out.sorted()
  }
}

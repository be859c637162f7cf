public import JunosConfig

/// The difference between two effective configurations (groups and interface ranges expanded),
/// each inherited statement known by the group or range it came from: `compare --inheritance`,
/// and what a group change reaches (``groupReach(old:new:)``).
public struct InheritanceDiff: Sendable {
  /// The old configuration, expanded.
  public let old: InheritedConfiguration
  /// The new configuration, expanded.
  public let new: InheritedConfiguration
  /// The difference of ``InheritedConfiguration/configuration`` of both (node IDs are theirs).
  public let diff: ConfigDiff

  /// Compares two expanded configurations.
  ///
  /// - Parameters:
  ///   - old: The configuration the changes apply to, from ``ConfigTree/inheritance(model:interfaceRanges:)``.
  ///   - new: The configuration they produce.
  ///   - options: Keywords and ordered lists.
  public init(from old: InheritedConfiguration, to new: InheritedConfiguration, options: DiffOptions = DiffOptions()) {
    self.old = old
    self.new = new
    diff = ConfigDiff(from: old.configuration, to: new.configuration, options: options)
  }

  /// Expands and compares two configurations.
  ///
  /// - Parameters:
  ///   - old: The configuration the changes apply to, as written (groups not expanded).
  ///   - new: The configuration they produce, as written.
  ///   - options: Keywords and ordered lists; its model also expands the groups.
  ///   - interfaceRanges: Whether interface ranges are expanded too.
  public init(from old: ConfigTree, to new: ConfigTree, options: DiffOptions = DiffOptions(), interfaceRanges: Bool = true) {
    self.init(
      from: old.inheritance(model: options.model, interfaceRanges: interfaceRanges),
      to: new.inheritance(model: options.model, interfaceRanges: interfaceRanges), options: options)
  }

  /// Whether the effective configurations are the same.
  public var isEmpty: Bool { diff.isEmpty }

  /// Renders the difference as ``ConfigDiff/renderJunos(_:)`` does, with a line
  /// `## inherited from group 'G'` (or `## expanded from interface-range 'R'`) after the marker
  /// and before each added or deleted statement that came from a group or range, and before
  /// any statement inside it that came from another one.
  ///
  /// - Parameter options: Masking and comments.
  /// - Returns: UTF-8 text; empty when the effective configurations are the same.
  public func renderJunos(_ options: RenderOptions = RenderOptions()) -> [UInt8] {
    diff.renderJunos(options) { isOld, node, isTop in
      let side = isOld ? old : new
      guard let s = side.source(of: node) else { return [] }
      if !isTop, let p = side.configuration.parent(of: node), side.source(of: p) == s { return [] }
      return [Self.note(s)]
    }
  }

  /// The note before an inherited statement in ``renderJunos(_:)``.
  static func note(_ s: InheritedConfiguration.Source) -> String {
    switch s {
    case .group(let g): "## inherited from group '\(g)'"
    case .interfaceRange(let r): "## expanded from interface-range '\(r)'"
    }
  }

  /// What each group change reaches: for every group whose definition (`groups NAME`) differs
  /// between `old` and `new`, or that an `apply-groups` (or `apply-groups-except`) names in one
  /// and not at the same place in the other, the statements of the effective configuration it
  /// accounts for that the change added, removed or changed, by interface. A group nobody
  /// changed is not reported, even when a new interface now matches its wildcard.
  ///
  /// - Parameters:
  ///   - old: The old configuration as written (the one ``InheritanceDiff/old`` was expanded from).
  ///   - new: The new configuration as written.
  /// - Returns: One entry per group, by name.
  public func groupReach(old oldTree: ConfigTree, new newTree: ConfigTree) -> [GroupReach] {
    var reach = Self.changedGroups(old: oldTree, new: newTree)
    var seenInterface: Set<[String]> = []
    // Only groups whose definition or applications changed are reported; what they reach
    // is every effective change they account for.
    let changedGroups = Set(reach.keys)
    let options = RenderOptions(model: diff.options.model)
    func attribute(_ side: InheritedConfiguration, _ top: NodeID) {
      let tree = side.configuration
      var stack = [top]
      while let n = stack.popLast() {
        if case .group(let g) = side.source(of: n), changedGroups.contains(g) {
          let parentSource = tree.parent(of: n).flatMap { side.source(of: $0) }
          if n == top || parentSource != .group(g) {
            // In place: a copy of the entry would copy its arrays on every append.
            reach[g, default: GroupReach(group: g)].changes += 1
            if let name = Self.interface(of: n, in: tree) {
              if seenInterface.insert([g, name]).inserted { reach[g, default: GroupReach(group: g)].interfaces.append(name) }
            } else {
              let path = tree.parent(of: n).map { tree.pathWords(of: $0) } ?? []
              let text = String(decoding: tree.statementText(n, options), as: UTF8.self)
              reach[g, default: GroupReach(group: g)].statements.append(
                (path.isEmpty ? "[edit] " : "[edit \(path.joined(separator: " "))] ") + text)
            }
          }
        }
        for c in tree.children(of: n) { stack.append(c) }
      }
    }
    for group in diff.groups {
      for item in group.items {
        switch item {
        case .added(let n): attribute(new, n)
        case .deleted(let o): attribute(old, o)
        case .changed(let o, let n):
          attribute(old, o)
          attribute(new, n)
        case .context, .moved, .flags, .annotation: continue
        }
      }
    }
    return reach.values.sorted { $0.group < $1.group }
  }

  /// The groups whose definition (`groups NAME`) or applications (`apply-groups`,
  /// `apply-groups-except`) differ between two configurations as written, by name, each with
  /// ``GroupReach/definitionChanged`` set and nothing reached yet. Cheap beside the comparison
  /// of the effective configurations: when it is empty, no group change has any reach.
  public static func changedGroups(old oldTree: ConfigTree, new newTree: ConfigTree) -> [String: GroupReach] {
    var reach: [String: GroupReach] = [:]
    for (g, changed) in changedGroups(oldTree, newTree) where changed {
      reach[g, default: GroupReach(group: g)].definitionChanged = true
    }
    let (appliedOld, appliedNew) = (applications(oldTree), applications(newTree))
    for g in Set(appliedOld.keys).union(appliedNew.keys) where appliedOld[g] != appliedNew[g] {
      if reach[g] == nil { reach[g] = GroupReach(group: g) }
    }
    return reach
  }

  /// Where each group is named by `apply-groups` or `apply-groups-except` (outside `groups`):
  /// the statement's kind and path, by group.
  static func applications(_ t: ConfigTree) -> [String: Set<String>] {
    var out: [String: Set<String>] = [:]
    var stack: [(NodeID, String)] = []
    for top in t.children(of: ConfigTree.root) where !(t.wordCount(of: top) == 1 && t.word(0, of: top) == "groups") {
      stack.append((top, ""))
    }
    while let (n, path) = stack.popLast() {
      guard t.wordCount(of: n) > 0 else { continue }
      let kw = t.word(0, of: n)
      if kw == "apply-groups" || kw == "apply-groups-except" {
        let inactive = t.flags(of: n).contains(.inactive) ? "inactive " : ""
        for name in t.words(of: n).dropFirst() + (t.listValues(of: n) ?? []) {
          out[unquoted(name), default: []].insert(inactive + kw + " " + path)
        }
        continue
      }
      guard t.hasChildren(n) else { continue }
      let here = path + " " + t.words(of: n).joined(separator: " ")
      for c in t.children(of: n) { stack.append((c, here)) }
    }
    return out
  }

  /// The groups defined in either tree, and whether their definitions differ.
  static func changedGroups(_ a: ConfigTree, _ b: ConfigTree) -> [(String, Bool)] {
    let x = definitions(a)
    let y = definitions(b)
    var out: [(String, Bool)] = []
    for (name, n) in x {
      guard let m = y[name] else {
        out.append((name, true))
        continue
      }
      out.append((name, !a.sameConfiguration(n, as: m, in: b)))
    }
    for name in y.keys where x[name] == nil { out.append((name, true)) }
    return out
  }

  /// `groups NAME` statements at the top, by name (the first of a name).
  static func definitions(_ t: ConfigTree) -> [String: NodeID] {
    var out: [String: NodeID] = [:]
    for top in t.children(of: ConfigTree.root) where t.wordCount(of: top) == 1 && t.word(0, of: top) == "groups" {
      for g in t.children(of: top) where t.wordCount(of: g) >= 1 {
        let name = unquoted(t.word(0, of: g))
        if out[name] == nil { out[name] = g }
      }
    }
    return out
  }

  /// The interface (`interfaces NAME`) statement `node` is in or is, if any.
  static func interface(of node: NodeID, in tree: ConfigTree) -> String? {
    var n = node
    while let p = tree.parent(of: n) {
      if p != ConfigTree.root, tree.parent(of: p) == ConfigTree.root, tree.wordCount(of: p) == 1, tree.word(0, of: p) == "interfaces" {
        guard tree.wordCount(of: n) == 1 else { return nil }
        return unquoted(tree.word(0, of: n))
      }
      n = p
    }
    return nil
  }
}

/// What a change to one configuration group reaches in the effective configuration.
public struct GroupReach: Sendable, Hashable {
  /// The group's name.
  public var group: String
  /// Whether the group's definition (`groups NAME { … }`) changed (otherwise only where it is
  /// applied, or what overrides it, did).
  public var definitionChanged: Bool = false
  /// Effective statements the group added, removed or changed (a statement with everything
  /// inherited under it counts once).
  public var changes: Int = 0
  /// Interfaces with such a statement, in the order the difference meets them.
  public var interfaces: [String] = []
  /// The other such statements, as `[edit PATH] STATEMENT` (secrets masked).
  public var statements: [String] = []

  /// Creates an entry that reaches nothing yet.
  public init(group: String) { self.group = group }

  /// How many names ``summary(device:)`` lists before "and N more".
  public static let listed = 5

  /// One sentence for a report: "this change to group 'CORE-IF' touched 48 interfaces on r1
  /// (ge-0/0/0, ge-0/0/1, ge-0/0/2, ge-0/0/3, ge-0/0/4, … and 43 more)".
  ///
  /// - Parameter device: The device's name.
  public func summary(device: String) -> String {
    let head = "this change to group '\(group)' touched"
    func list(_ names: [String]) -> String {
      let shown = names.prefix(Self.listed).joined(separator: ", ")
      return names.count > Self.listed ? "\(shown), … and \(names.count - Self.listed) more" : shown
    }
    func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
    switch (interfaces.isEmpty, statements.isEmpty) {
    case (true, true):
      return "\(head) nothing on \(device) (the effective configuration is the same where it applies)"
    case (false, true):
      return "\(head) \(count(interfaces.count, "interface", "interfaces")) on \(device) (\(list(interfaces)))"
    case (true, false):
      return "\(head) \(count(statements.count, "statement", "statements")) on \(device) (\(list(statements)))"
    case (false, false):
      return
        "\(head) \(count(interfaces.count, "interface", "interfaces")) and \(count(statements.count, "other statement", "other statements")) on \(device) (\(list(interfaces)); \(list(statements)))"
    }
  }
}

extension ConfigDiff {
  /// What each group change between two configurations reaches (see
  /// ``InheritanceDiff/groupReach(old:new:)``).
  ///
  /// - Parameters:
  ///   - old: The old configuration as written.
  ///   - new: The new configuration as written.
  ///   - options: Keywords and ordered lists; its model also expands the groups.
  ///   - interfaceRanges: Whether interface ranges are expanded too.
  /// - Returns: One entry per group changed, by name.
  public static func groupReach(
    from old: ConfigTree, to new: ConfigTree, options: DiffOptions = DiffOptions(), interfaceRanges: Bool = true
  ) -> [GroupReach] {
    InheritanceDiff(from: old, to: new, options: options, interfaceRanges: interfaceRanges).groupReach(old: old, new: new)
  }
}

internal import JunosHistory

/// A generated commit history: a configuration edited by a run of commits, every rollback's
/// text, the `show system commit` listing, and the generator's own record of which commit last
/// introduced or changed every statement of rollback 0 — the answer `blame` must give.
///
/// Rollback `commits - 1` is the starting configuration (its statements are recorded with that
/// commit, the oldest); each later commit applies a few edits: values changed, interfaces and
/// routes added or deleted, statements deactivated or re-activated, annotated, and terms moved
/// to the front of their policy. Deterministic for a seed.
public struct RollbackChain: Sendable {
  /// One generated commit.
  public struct CommitInfo: Sendable {
    /// Its index (0 = newest).
    public var index: Int
    /// Who made it.
    public var user: String
    /// `YYYY-MM-DD HH:MM:SS`, UTC.
    public var time: String
    /// The commit comment.
    public var log: String

    /// Creates a commit.
    public init(index: Int, user: String, time: String, log: String) {
      self.index = index
      self.user = user
      self.time = time
      self.log = log
    }
  }

  /// Text of rollback n at index n (curly form with a `## Last commit` header).
  public private(set) var rollbacks: [String] = []
  /// Commit n at index n.
  public private(set) var commits: [CommitInfo] = []
  /// ``key(_:)`` of every statement of rollback 0 → the commit that last introduced or changed
  /// its own line.
  public private(set) var record: [String: Int] = [:]
  /// What each commit did, in words (for failure messages).
  public private(set) var edits: [Int: [String]] = [:]

  /// The statement key used by ``record``: the statement's own line and its ancestors' (words
  /// as written, without `inactive:`), root first.
  public static func key(_ lines: [String]) -> String { lines.joined(separator: " \u{1F} ") }

  /// `show system commit` text for the chain.
  public var listing: String { Self.listing(commits) }

  /// The same listing as `show system commit | display xml` prints it (with `junos:seconds`).
  public var listingXML: String { Self.listingXML(commits) }

  /// `show system commit` text for any commits.
  public static func listing(_ commits: [CommitInfo]) -> String {
    var s = ""
    for c in commits {
      s += "\(c.index)".padding(toWidth: 4) + "\(c.time) UTC by \(c.user) via cli\n    \(c.log)\n"
    }
    return s
  }

  /// `show system commit | display xml` for any commits.
  public static func listingXML(_ commits: [CommitInfo]) -> String {
    var s = "<commit-information>\n"
    for c in commits {
      let parts = c.time.split(separator: " ")
      let seconds = CommitListParser.localTime(parts[0], parts[1])?.secondsAsUTC ?? 0
      s += "<commit-history>\n<sequence-number>\(c.index)</sequence-number>\n<user>\(c.user)</user>\n<client>cli</client>\n"
      s += "<date-time junos:seconds=\"\(seconds)\">\(c.time) UTC</date-time>\n<log>\(c.log)</log>\n</commit-history>\n"
    }
    return s + "</commit-information>\n"
  }

  // MARK: generation

  struct Node {
    var text: String
    var parent: Int
    var children: [Int] = []
    var inactive = false
    var annotation: String? = nil
    var commit: Int
    var alive = true
    var kind: Kind
  }

  enum Kind { case block, leaf, term, interface, route, value }

  var nodes: [Node] = []
  var rng: SplitMix64
  var serial = 0

  /// Generates a chain.
  ///
  /// - Parameters:
  ///   - seed: Random seed.
  ///   - commits: Rollbacks to produce (the device keeps 50).
  ///   - interfaces: Size of the starting configuration: about 22 lines per interface.
  ///   - editsPerCommit: How many edits each commit makes.
  public init(seed: UInt64, commits count: Int = 50, interfaces: Int = 20, editsPerCommit: ClosedRange<Int> = 1...4) {
    rng = SplitMix64(seed: seed)
    let oldest = count - 1
    nodes.append(Node(text: "", parent: -1, commit: oldest, kind: .block))
    let system = add("system", under: 0, .block, oldest)
    add("host-name r\(seed % 100)", under: system, .value, oldest)
    let services = add("services", under: system, .block, oldest)
    add("ssh", under: services, .leaf, oldest)
    let ifaces = add("interfaces", under: 0, .block, oldest)
    let protocols = add("protocols", under: 0, .block, oldest)
    let ospf = add("ospf", under: protocols, .block, oldest)
    let area = add("area 0.0.0.0", under: ospf, .block, oldest)
    let policy = add("policy-options", under: 0, .block, oldest)
    let routing = add("routing-options", under: 0, .block, oldest)
    let statics = add("static", under: routing, .block, oldest)
    var policies: [Int] = []
    for p in 0..<max(1, interfaces / 20) { policies.append(add("policy-statement EXPORT-\(p)", under: policy, .block, oldest)) }
    for _ in 0..<interfaces { addInterface(ifaces, area, policies, statics, commit: oldest) }
    self.areaNode = area
    self.interfacesNode = ifaces
    self.staticNode = statics
    self.policyNodes = policies

    let users = ["stuart", "lewis", "katerina", "ann", "moro"]
    var user = users[0]
    var texts = [String](repeating: "", count: count)
    var infos = [CommitInfo?](repeating: nil, count: count)
    let start: Int64 = 1_704_067_200  // 2024-01-01 00:00:00 UTC
    var time = start
    for k in stride(from: oldest, through: 0, by: -1) {
      if k < oldest {
        if rng.next(4) == 0 { user = users[rng.next(users.count)] }
        time += Int64(60 + rng.next(7200))
        let n = editsPerCommit.lowerBound + rng.next(editsPerCommit.count)
        var done: [String] = []
        for _ in 0..<n { done.append(edit(commit: k)) }
        edits[k] = done
      }
      let info = CommitInfo(index: k, user: user, time: Self.utc(time), log: "change \(oldest - k) by \(user)")
      infos[k] = info
      texts[k] = "## Last commit: \(info.time) UTC by \(user)\n" + render()
    }
    rollbacks = texts
    commits = infos.map { $0! }
    record = [:]
    collect(0, path: [])
  }

  var areaNode = 0
  var movedIn = -1
  var interfacesNode = 0
  var staticNode = 0
  var policyNodes: [Int] = []

  @discardableResult
  mutating func add(_ text: String, under parent: Int, _ kind: Kind, _ commit: Int, first: Bool = false) -> Int {
    nodes.append(Node(text: text, parent: parent, commit: commit, kind: kind))
    let id = nodes.count - 1
    if first { nodes[parent].children.insert(id, at: 0) } else { nodes[parent].children.append(id) }
    return id
  }

  mutating func addInterface(_ ifaces: Int, _ area: Int, _ policies: [Int], _ statics: Int, commit k: Int) {
    serial += 1
    let n = serial
    let name = "ge-\(n / 1920)/\(n / 48 % 40)/\(n % 48)"
    let i = add(name, under: ifaces, .interface, k)
    add("description \"link \(n)\"", under: i, .value, k)
    add("mtu \(1500 + rng.next(8000))", under: i, .value, k)
    let u = add("unit 0", under: i, .block, k)
    let f = add("family inet", under: u, .block, k)
    add("address 10.\(n / 256 % 256).\(n % 256).1/31", under: f, .leaf, k)
    let o = add("interface \(name).0", under: area, .interface, k)
    add("metric \(1 + rng.next(100))", under: o, .value, k)
    let t = add("term T\(n)", under: policies[rng.next(policies.count)], .term, k)
    let from = add("from", under: t, .block, k)
    add("route-filter 10.\(n / 256 % 256).\(n % 256).0/24 exact", under: from, .leaf, k)
    add("then accept", under: t, .leaf, k)
    add("route 172.\(16 + n / 65536 % 16).\(n / 256 % 256).\(n % 256)/32 next-hop 192.0.2.\(1 + rng.next(250))", under: statics, .route, k)
  }

  /// Live nodes of a kind.
  func live(_ kind: Kind) -> [Int] {
    var out: [Int] = []
    for (i, n) in nodes.enumerated() where n.alive && n.kind == kind && alive(i) { out.append(i) }
    return out
  }

  func alive(_ i: Int) -> Bool {
    var k = i
    while k > 0 {
      if !nodes[k].alive { return false }
      k = nodes[k].parent
    }
    return true
  }

  /// One random edit by commit k; returns a description.
  mutating func edit(commit k: Int) -> String {
    switch rng.next(9) {
    case 0, 1:
      // (A statement is edited at most once a commit, so that no edit undoes another.)
      let values = (live(.value) + live(.route)).filter { nodes[$0].commit != k }
      guard !values.isEmpty else { return "nothing" }
      let v = values[rng.next(values.count)]
      let old = nodes[v].text
      let words = old.split(separator: " ")
      if nodes[v].kind == .route {
        nodes[v].text = words.dropLast().joined(separator: " ") + " 198.51.100.\(1 + rng.next(250))"
      } else if words[0] == "description" {
        serial += 1
        nodes[v].text = "description \"changed \(serial)\""
      } else if words[0] == "host-name" {
        serial += 1
        nodes[v].text = "host-name r\(serial)"
      } else {
        nodes[v].text = "\(words[0]) \(Int(words[1])! + 1 + rng.next(50))"
      }
      if nodes[v].text == old { nodes[v].text += "0" }
      nodes[v].commit = k
      return "changed '\(old)' to '\(nodes[v].text)'"
    case 2:
      addInterface(interfacesNode, areaNode, policyNodes, staticNode, commit: k)
      return "added interface \(serial)"
    case 3:
      let all = live(.interface) + live(.route)
      guard all.count > 4 else { return "nothing" }
      let v = all[rng.next(all.count)]
      nodes[v].alive = false
      nodes[nodes[v].parent].children.removeAll { $0 == v }
      return "deleted '\(nodes[v].text)'"
    case 4:
      let all = live(.interface).filter { nodes[$0].commit != k }
      guard !all.isEmpty else { return "nothing" }
      let v = all[rng.next(all.count)]
      nodes[v].inactive.toggle()
      nodes[v].commit = k
      return "\(nodes[v].inactive ? "deactivated" : "activated") '\(nodes[v].text)'"
    case 5:
      let all = (live(.interface) + live(.value) + live(.term)).filter { nodes[$0].commit != k }
      guard !all.isEmpty else { return "nothing" }
      let v = all[rng.next(all.count)]
      serial += 1
      nodes[v].annotation = "note \(serial) by commit \(k)"
      nodes[v].commit = k
      return "annotated '\(nodes[v].text)'"
    case 6:
      // Move a term from position 2 or later to the front: the one statement that moved.
      // (One move a commit: with two, which terms "moved" is open to interpretation.)
      let candidates = policyNodes.filter { nodes[$0].children.count >= 3 }
      guard !candidates.isEmpty, movedIn != k else { return "nothing" }
      movedIn = k
      let p = candidates[rng.next(candidates.count)]
      let at = 2 + rng.next(nodes[p].children.count - 2)
      let t = nodes[p].children.remove(at: at)
      nodes[p].children.insert(t, at: 0)
      nodes[t].commit = k
      return "moved '\(nodes[t].text)' first"
    case 7:
      serial += 1
      add(
        "route 192.168.\(serial / 256 % 256).\(serial % 256)/32 next-hop 192.0.2.\(1 + rng.next(250))", under: staticNode, .route, k)
      return "added route \(serial)"
    default:
      // A leaf inside an existing block: the block keeps its commit.
      let all = live(.interface).filter { nodes[$0].parent == interfacesNode }
      let v = all[rng.next(all.count)]
      if let d = nodes[v].children.first(where: { nodes[$0].text.hasPrefix("disable") }) {
        nodes[d].alive = false
        nodes[v].children.removeAll { $0 == d }
        return "enabled '\(nodes[v].text)'"
      }
      add("disable", under: v, .leaf, k)
      return "disabled '\(nodes[v].text)'"
    }
  }

  func render() -> String {
    var s = ""
    func walk(_ i: Int, _ depth: Int) {
      let n = nodes[i]
      let pad = String(repeating: " ", count: depth * 4)
      if let a = n.annotation { s += pad + "/* \(a) */\n" }
      s += pad + (n.inactive ? "inactive: " : "") + n.text
      if n.children.isEmpty && n.kind != .block && n.kind != .interface && n.kind != .term {
        s += ";\n"
      } else {
        s += " {\n"
        for c in n.children { walk(c, depth + 1) }
        s += pad + "}\n"
      }
    }
    for c in nodes[0].children { walk(c, 0) }
    return s
  }

  mutating func collect(_ i: Int, path: [String]) {
    for c in nodes[i].children {
      let p = path + [nodes[c].text]
      record[Self.key(p)] = nodes[c].commit
      collect(c, path: p)
    }
  }

  static func utc(_ t: Int64) -> String { String(iso8601UTC(t).replacing("T", with: " ").dropLast()) }
}

/// A small deterministic random generator (SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  var state: UInt64

  /// Starts from a seed.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (bound > 0).
  public mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension String {
  func padding(toWidth w: Int) -> String { count >= w ? self + " " : self + String(repeating: " ", count: w - count) }
}

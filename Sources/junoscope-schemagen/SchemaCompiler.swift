internal import JunosSchema

/// Turns the YANG modules of one platform family into a ``SchemaBuilder`` graph.
///
/// Each family has a root module (`junos-conf-root`, `junos-es-conf-root`, …) whose
/// `configuration` container uses `juniper-config`; every other module of the family augments
/// `/jc:configuration` (the top level) and `/jc:configuration/jc:groups` with the same grouping.
/// `uses` refers to groupings of the same module (none are imported across modules); typedefs
/// come from the module or from `junos-common-types` (`jt:`). `choice`/`case` are flattened into
/// their parent with the choice and case names recorded on each member.
struct FamilyCompiler {
  let family: SchemaFamily
  let builder: SchemaBuilder
  /// Modules by name.
  let modules: [String: YANGStatement]
  private var groupingIndex: [String: [String: YANGStatement]] = [:]
  private var typedefIndex: [String: [String: YANGStatement]] = [:]
  private var memo: [String: [SchemaBuilder.NodeID]] = [:]
  /// Statements whose keyword this compiler does not read, with counts (reported by the tool).
  private(set) var ignored: [String: Int] = [:]

  init(family: SchemaFamily, modules: [YANGStatement], builder: SchemaBuilder) {
    self.family = family
    self.builder = builder
    var m: [String: YANGStatement] = [:]
    for mod in modules { m[mod.argument ?? ""] = mod }
    self.modules = m
    for (name, mod) in m {
      var g: [String: YANGStatement] = [:]
      var t: [String: YANGStatement] = [:]
      func collect(_ s: YANGStatement) {
        for c in s.children {
          if c.keyword == "grouping", let n = c.argument { g[n] = c }
          if c.keyword == "typedef", let n = c.argument { t[n] = c }
        }
      }
      collect(mod)
      groupingIndex[name] = g
      typedefIndex[name] = t
    }
  }

  /// The family's top level: the root module's `juniper-config` plus every module's augment of
  /// `/jc:configuration`; `groups NAME` holds the top level again (without `groups`), and so does
  /// `logical-systems NAME` (whose modules are not in Juniper's public snapshot).
  mutating func compileRoot(rootModule: String) throws(YANGError) -> [SchemaBuilder.NodeID] {
    guard let root = modules[rootModule],
      let conf = root.children.first(where: { $0.keyword == "container" && $0.argument == "configuration" })
    else {
      throw YANGError(path: rootModule, line: 0, message: "no 'container configuration' in the root module")
    }
    var top: [SchemaBuilder.NodeID] = []
    for s in conf.children where s.keyword == "uses" {
      top += try compileChildren([s], module: rootModule, choice: nil)
    }
    for (name, mod) in modules.sorted(by: { $0.key < $1.key }) where name != rootModule {
      for a in mod.children where a.keyword == "augment" && a.argument == "/jc:configuration" {
        top += try compileChildren(a.children, module: name, choice: nil)
      }
    }
    return top
  }

  private func typedef(_ name: String, module: String) -> (YANGStatement, String)? {
    if let c = name.firstIndex(of: ":") {
      let prefix = String(name[..<c])
      let local = String(name[name.index(after: c)...])
      if prefix == "jt" {
        let common = typedefIndex.keys.first { $0.hasPrefix("junos-common-types") } ?? "junos-common-types"
        return typedefIndex[common]?[local].map { ($0, common) }
      }
      return nil
    }
    return typedefIndex[module]?[name].map { ($0, module) }
  }

  /// The nodes a list of substatements defines (containers, lists, leaves, `uses`, choices).
  mutating func compileChildren(_ statements: [YANGStatement], module: String, choice: (String, String)?) throws(YANGError)
    -> [SchemaBuilder.NodeID]
  {
    var out: [SchemaBuilder.NodeID] = []
    for s in statements {
      switch s.keyword {
      case "container", "list", "leaf", "leaf-list":
        out.append(try compileNode(s, module: module, choice: choice))
      case "uses":
        guard let g = s.argument else { continue }
        let key = module + " " + g
        var nodes: [SchemaBuilder.NodeID]
        if let m = memo[key] {
          nodes = m
        } else {
          guard let def = groupingIndex[module]?[g] else {
            throw YANGError(path: module, line: s.line, message: "unknown grouping '\(g)'")
          }
          nodes = try compileChildren(def.children, module: module, choice: nil)
          memo[key] = nodes
        }
        if let choice { nodes = nodes.map { builder.withChoice($0, choice) } }
        out += nodes
      case "choice":
        let name = s.argument ?? ""
        for c in s.children {
          switch c.keyword {
          case "case":
            // A case inside a case's choice keeps the outermost choice: the members of one case
            // exclude the members of the others.
            out += try compileChildren(c.children, module: module, choice: choice ?? (name, c.argument ?? ""))
          case "container", "list", "leaf", "leaf-list", "uses", "choice":
            // Shorthand case: the statement is its own case.
            out += try compileChildren([c], module: module, choice: choice ?? (name, c.argument ?? ""))
          default:
            break
          }
        }
      case "grouping", "typedef", "description", "junos:must", "junos:must-message", "status", "presence", "ordered-by", "key",
        "junos:cli-feature", "config", "max-elements", "min-elements", "when", "units", "default", "mandatory", "type", "uses-apply",
        "if-feature", "reference":
        break
      default:
        ignored[s.keyword, default: 0] += 1
      }
    }
    return out
  }

  private mutating func compileNode(_ s: YANGStatement, module: String, choice: (String, String)?) throws(YANGError)
    -> SchemaBuilder.NodeID
  {
    let yangName = s.argument ?? ""
    var n = SchemaBuilder.Node(name: Self.cliNames[yangName] ?? yangName, kind: .container)
    n.families = family.mask
    switch s.keyword {
    case "container": n.kind = .container
    case "list": n.kind = .list
    case "leaf-list": n.kind = .leafList
    default: n.kind = .leaf
    }
    for f in s.all("junos:cli-feature") {
      switch f.argument {
      case "nokeyword": n.flags.insert(.nokeyword)
      case "oneliner": n.flags.insert(.oneliner)
      case "oneliner-plus": n.flags.insert(.onelinerPlus)
      case "homogeneous": n.flags.insert(.homogeneous)
      default: break
      }
    }
    if s.value("ordered-by") == "user" { n.flags.insert(.orderedByUser) }
    if s.value("presence") != nil { n.flags.insert(.presence) }
    if s.value("mandatory") == "true" { n.flags.insert(.mandatory) }
    if let choice {
      n.choice = builder.string(choice.0)
      n.caseName = builder.string(choice.1)
    }
    if n.kind == .leaf || n.kind == .leafList {
      if let t = s.children.first(where: { $0.keyword == "type" }) {
        let (vt, secret) = compileType(t, module: module)
        if vt.kind == .empty && n.kind == .leaf { n.kind = .flag }
        n.type = builder.type(vt)
        if secret { n.flags.insert(.secret) }
      }
    } else {
      var children = try compileChildren(s.children, module: module, choice: nil)
      if n.kind == .list {
        let keys = (s.value("key") ?? "").split(separator: " ").map(String.init)
        // Keys first, in key order, so the entry's words are keyword (unless nokeyword) and keys.
        var keyNodes: [SchemaBuilder.NodeID] = []
        for k in keys {
          guard let at = children.firstIndex(where: { builder.node($0).name == k }) else {
            throw YANGError(path: module, line: s.line, message: "list '\(n.name)': no leaf for key '\(k)'")
          }
          keyNodes.append(children.remove(at: at))
        }
        if let cli = Self.cliLists[n.name + " " + keys.joined(separator: " ")] {
          // The CLI's keyword for the list and its keys (`from-zone Z1 to-zone Z2`).
          n.name = cli.list
          keyNodes = zip(keyNodes, cli.keys).map { id, name in
            var k = builder.node(id)
            k.name = name
            return builder.intern(k)
          }
        }
        n.keys = keyNodes
      }
      n.children = builder.block(children)
    }
    return builder.intern(n)
  }

  /// Containers whose YANG name is not the CLI's keyword (Juniper's modules keep an internal
  /// name there): SRX NAT rules' `match`.
  static let cliNames: [String: String] = [
    "dest-nat-rule-match": "match", "src-nat-rule-match": "match", "static-nat-rule-match": "match",
  ]

  /// Lists (name and keys as YANG has them) whose CLI keywords differ: SRX security policies are
  /// `from-zone Z1 to-zone Z2 { policy P { … } }`, YANG's `policy` with keys `from-zone-name`
  /// (nokeyword) and `to-zone-name`.
  static let cliLists: [String: (list: String, keys: [String])] = [
    "policy from-zone-name to-zone-name": ("from-zone", ["from-zone-name", "to-zone"])
  ]

  /// A leaf's value type, and whether it is secret (`jt:unreadable` anywhere in it).
  private func compileType(_ t: YANGStatement, module: String) -> (SchemaBuilder.ValueType, Bool) {
    let name = t.argument ?? "string"
    var vt = SchemaBuilder.ValueType(kind: .string)
    switch name {
    case "empty": vt.kind = .empty
    case "boolean": vt.kind = .enumeration; vt.values = ["true", "false"]
    case "string":
      vt.kind = .string
      vt.patterns = t.all("junos:posix-pattern").compactMap(\.argument) + t.all("pattern").compactMap(\.argument).map { "xsd:" + $0 }
      vt.length = t.value("length")
    case "enumeration":
      vt.kind = .enumeration
      vt.values = t.all("enum").compactMap(\.argument)
    case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64":
      vt.kind = .integer
      vt.range = t.value("range") ?? SchemaBuilder.ValueType.defaultRange(name)
    case "decimal64":
      vt.kind = .decimal
      vt.range = t.value("range")
    case "union":
      var members: [SchemaBuilder.ValueType] = []
      var secret = false
      for m in t.all("type") {
        let (x, s) = compileType(m, module: module)
        secret = secret || s
        // `<.*>|$.*`: the union member that lets apply-macro and commit-script variables stand
        // for any value. Recorded as a flag, not as a member.
        if x.kind == .string, x.patterns == ["xsd:<.*>|$.*"] {
          vt.variables = true
          continue
        }
        members.append(x)
      }
      if members.count == 1 {
        var only = members[0]
        only.variables = only.variables || vt.variables
        return (only, secret)
      }
      vt.kind = .union
      vt.members = members
      return (vt, secret)
    default:
      if name.hasPrefix("jt:") {
        let local = String(name.dropFirst(3))
        if local == "unreadable" { return (SchemaBuilder.ValueType(kind: .string), true) }
        if let k = SchemaBuilder.ValueType.Kind(junosType: local) {
          vt.kind = k
          return (vt, false)
        }
      }
      if let (def, mod) = typedef(name, module: module), let inner = def.children.first(where: { $0.keyword == "type" }) {
        return compileType(inner, module: mod)
      }
      vt.kind = .string
    }
    return (vt, false)
  }
}

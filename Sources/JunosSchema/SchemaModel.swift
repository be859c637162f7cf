/// What a schema statement is, in YANG's terms.
public enum SchemaKind: UInt8, Sendable, Hashable {
  /// `container X` — `X { … }`.
  case container = 0
  /// `list X { key … }` — `X KEY… { … }`, one entry per key.
  case list = 1
  /// `leaf X { type …; }` — `X VALUE;`, one value.
  case leaf = 2
  /// `leaf X { type empty; }` — a bare `X;`.
  case flag = 3
  /// `leaf-list X` — `X [ V1 V2 ];`, one `set` line per value.
  case leafList = 4
}

/// The CLI facts and YANG properties of a schema statement.
public struct SchemaFlags: OptionSet, Sendable, Hashable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  /// `junos:cli-feature "nokeyword"`: the value (or list key) is printed without the keyword.
  public static let nokeyword = SchemaFlags(rawValue: 1 << 0)
  /// `junos:cli-feature "oneliner"`: printed on one line with its leaf children.
  public static let oneliner = SchemaFlags(rawValue: 1 << 1)
  /// `junos:cli-feature "oneliner-plus"`: printed on one line when it has one leaf child.
  public static let onelinerPlus = SchemaFlags(rawValue: 1 << 2)
  /// `junos:cli-feature "homogeneous"`.
  public static let homogeneous = SchemaFlags(rawValue: 1 << 3)
  /// `ordered-by user`: the device keeps the user's order; `insert` applies.
  public static let orderedByUser = SchemaFlags(rawValue: 1 << 4)
  /// The value is secret (`jt:unreadable`): masked in every output unless asked for.
  public static let secret = SchemaFlags(rawValue: 1 << 5)
  /// `presence`: the container means something even when empty.
  public static let presence = SchemaFlags(rawValue: 1 << 6)
  /// `mandatory true`.
  public static let mandatory = SchemaFlags(rawValue: 1 << 7)
}

/// A Junos platform family whose schema is in the table; a statement records the families
/// that have it.
public enum SchemaFamily: String, CaseIterable, Sendable, Hashable {
  /// Junos OS on MX, PTX (non-EVO), M/T (`junos-conf-*`).
  case junos
  /// Junos OS Evolved (PTX10k, ACX7k, QFX5130/5220/5700).
  case evo
  /// SRX and vSRX (`junos-es-conf-*`).
  case srx
  /// EX switches (`junos-ex-conf-*`).
  case ex
  /// QFX switches on Junos OS (`junos-qfx-conf-*`).
  case qfx
  /// NFX (`junos-nfx-conf-*`).
  case nfx

  /// The family's bit in a statement's family mask.
  public var mask: UInt8 {
    switch self {
    case .junos: 1 << 0
    case .evo: 1 << 1
    case .srx: 1 << 2
    case .ex: 1 << 3
    case .qfx: 1 << 4
    case .nfx: 1 << 5
    }
  }

  /// Every family's bit.
  public static let all: UInt8 = 0x3F
}

/// The value a leaf or leaf-list takes, as far as `commit check` of syntax goes.
public enum ValueKind: UInt8, Sendable, Hashable {
  /// Any string (possibly restricted by patterns or a length).
  case string = 0
  /// `type empty` (a flag).
  case empty = 1
  /// One of a list of words.
  case enumeration = 2
  /// An integer within ranges.
  case integer = 3
  /// A decimal number.
  case decimal = 4
  /// One of several types.
  case union = 5
  /// An IPv4 address.
  case ipv4Address = 6
  /// An IPv6 address.
  case ipv6Address = 7
  /// An IPv4 or IPv6 address.
  case ipAddress = 8
  /// An IPv4 prefix (`10.0.0.0/8`; a bare address is taken as a host prefix).
  case ipv4Prefix = 9
  /// An IPv6 prefix.
  case ipv6Prefix = 10
  /// An IPv4 or IPv6 prefix.
  case ipPrefix = 11
  /// A MAC address.
  case macAddress = 12
  /// An interface name (`xe-0/0/0`, `ae1.100`, `lo0`).
  case interfaceName = 13
  /// An address or an interface name.
  case ipAddressOrInterface = 14

  /// The kind of a `jt:` type of Juniper's common types, where it is more than a string.
  public init?(junosType name: String) {
    switch name {
    case "ipv4addr": self = .ipv4Address
    case "ipv6addr": self = .ipv6Address
    case "ipaddr", "ipaddr-scoped": self = .ipAddress
    case "ipv4prefix", "ipv4prefix-mandatory", "ipv4prefix-only", "ipv4prefix-optional": self = .ipv4Prefix
    case "ipv6prefix", "ipv6prefix-mandatory", "ipv6prefix-only", "ipv6prefix-optional": self = .ipv6Prefix
    case "ipprefix", "ipprefix-mandatory", "ipprefix-only", "ipprefix-optional": self = .ipPrefix
    case "mac-addr", "mac-unicast", "mac-multicast": self = .macAddress
    case "interface-name", "interface-device", "interface-unit": self = .interfaceName
    case "ipaddr-or-interface", "ipv4addr-or-interface", "ipv6addr-or-interface": self = .ipAddressOrInterface
    default: return nil
    }
  }
}

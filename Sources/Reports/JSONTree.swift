import JunosConfig

/// A JSON value to write, with object members in the order given.
indirect enum JSONTree {
  case object([(String, JSONTree)])
  case array([JSONTree])
  case string(String)
  case int(Int)
  case bool(Bool)
  case null

  /// Pretty text: 2-space indentation, `"key": value`, empty containers as `{}` / `[]`, and a final
  /// newline.
  var pretty: String {
    var out: [UInt8] = []
    write(into: &out, indent: 0)
    out.append(0x0A)
    return String(decoding: out, as: UTF8.self)
  }

  private func write(into out: inout [UInt8], indent: Int) {
    switch self {
    case .string(let s): JSONText.append(s, into: &out)
    case .int(let n): out += Array(String(n).utf8)
    case .bool(let b): out += Array((b ? "true" : "false").utf8)
    case .null: out += Array("null".utf8)
    case .array(let items):
      guard !items.isEmpty else {
        out += Array("[]".utf8)
        return
      }
      out += Array("[\n".utf8)
      for (k, item) in items.enumerated() {
        out += [UInt8](repeating: 0x20, count: indent + 2)
        item.write(into: &out, indent: indent + 2)
        if k < items.count - 1 { out.append(UInt8(ascii: ",")) }
        out.append(0x0A)
      }
      out += [UInt8](repeating: 0x20, count: indent)
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else {
        out += Array("{}".utf8)
        return
      }
      out += Array("{\n".utf8)
      for (k, (key, value)) in members.enumerated() {
        out += [UInt8](repeating: 0x20, count: indent + 2)
        JSONText.append(key, into: &out)
        out += Array(": ".utf8)
        value.write(into: &out, indent: indent + 2)
        if k < members.count - 1 { out.append(UInt8(ascii: ",")) }
        out.append(0x0A)
      }
      out += [UInt8](repeating: 0x20, count: indent)
      out.append(UInt8(ascii: "}"))
    }
  }
}

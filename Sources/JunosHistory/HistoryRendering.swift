import JunosConfig

extension Commit {
  /// The commit as JSON: `{"index":0,"time":"2019-11-13T15:06:51Z","timeZone":"GMT",
  /// "user":"katerina","client":"cli","comment":null,"log":null,"confirmedMinutes":null}`
  /// (`time` null when the time could not be placed; `index` null for `rescue`).
  public func appendJSON(to out: inout [UInt8]) {
    func field(_ name: String, _ value: String?) {
      out.append(contentsOf: ",\"\(name)\":".utf8)
      if let value { JSONText.append(value, into: &out) } else { out.append(contentsOf: "null".utf8) }
    }
    out.append(contentsOf: "{\"index\":\(index.map(String.init) ?? "null")".utf8)
    field("time", instant.map(iso8601UTC))
    field("localTime", localTime.description)
    field("timeZone", timeZone)
    field("user", user)
    field("client", client)
    field("comment", comment)
    field("log", log)
    out.append(contentsOf: ",\"confirmedMinutes\":\(confirmedMinutes.map(String.init) ?? "null")".utf8)
    if let revision { field("revision", revision) }
    out.append(UInt8(ascii: "}"))
  }

  /// One line (and the log indented below it): `31  2019-08-05 08:06:28Z  stuart via cli  (09:06:28 BST)`.
  public var textLines: String {
    let idx = index.map(String.init) ?? "rescue"
    let pad = String(repeating: " ", count: max(1, 8 - idx.count))
    let time = instant.map { iso8601UTC($0).replacing("T", with: " ") } ?? "\(localTime) (zone \(timeZone) not placed)"
    var s = "\(idx)\(pad)\(time)  \(user) via \(client)"
    if instant != nil { s += "  (\(localTime.description.split(separator: " ")[1]) \(timeZone))" }
    if let comment { s += "  \(comment)" }
    if let log {
      for line in log.split(separator: "\n", omittingEmptySubsequences: false) { s += "\n        \(line)" }
    }
    return s
  }
}

extension CommitHistory {
  /// `{"commits":[…],"rescue":{…}|null}` (see ``Commit/appendJSON(to:)``).
  public func renderJSON() -> [UInt8] {
    var out: [UInt8] = Array("{\"commits\":[".utf8)
    for (k, c) in commits.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      c.appendJSON(to: &out)
    }
    out.append(contentsOf: "],\"rescue\":".utf8)
    if let rescue { rescue.appendJSON(to: &out) } else { out.append(contentsOf: "null".utf8) }
    out.append(contentsOf: "}\n".utf8)
    return out
  }
}

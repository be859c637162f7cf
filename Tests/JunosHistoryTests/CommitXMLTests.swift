import JunosConfig
import JunosHistory
import Testing

@Suite struct CommitXMLTests {
  func read(_ name: String) throws -> CommitHistory {
    let file = try Fixtures.source("commit-history/xml/\(name)")
    var h = CommitHistory.read(file)
    TimePlacement.place(&h, file: file)
    return h
  }

  @Test func napalmRepliesWithoutNamespace() throws {
    let h = try read("napalm_junos_commit_confirm_not_pending.xml")
    #expect(h.diagnostics.map(\.rendered) == [])
    #expect(
      lines(h) == [
        "0 2017-10-29 14:02:54 UTC admin netconf",
        "1 2017-10-29 14:01:59 UTC admin netconf | commit confirmed, rollback in 10mins || napalm_confirm_95850e80",
        "2 2017-10-29 13:43:40 UTC root other",
      ])
    #expect(h.commits.map(\.instant) == [1_509_285_774, 1_509_285_719, 1_509_284_620])
    #expect(h.commits[1].confirmedMinutes == 10)
    let pending = try read("napalm_junos_commit_confirm_pending.xml")
    #expect(pending.commits.map(\.index) == [0, 2])
  }

  @Test func junosNamespaceSecondsWin() throws {
    let h = try read("rpc_reply_namespace_msk_single_entry.xml")
    #expect(h.diagnostics.map(\.rendered) == [])
    #expect(h.commits.count == 1)
    #expect(h.commits[0].index == 49 && h.commits[0].user == "gslv" && h.commits[0].timeZone == "MSK")
    #expect(h.commits[0].instant.map(iso8601UTC) == "2021-07-05T11:11:17Z")  // 14:11:17 MSK = UTC+3
  }

  @Test func textAndXMLOfOneHistoryAgree() throws {
    let text = SourceFile(
      path: "t",
      text: """
        admin@vsrx> show system commit
        0   2017-10-29 14:02:54 UTC by admin via netconf
        1   2017-10-29 14:01:59 UTC by admin via netconf commit confirmed, rollback in 10mins
            napalm_confirm_95850e80
        2   2017-10-29 13:43:40 UTC by root via other

        """)
    var t = CommitHistory.read(text)
    TimePlacement.place(&t, file: text)
    let x = try read("napalm_junos_commit_confirm_not_pending.xml")
    #expect(lines(t) == lines(x))
    #expect(t.commits.map(\.instant) == x.commits.map(\.instant))
  }

  @Test func malformedXMLIsLocated() {
    let file = SourceFile(path: "x", text: "<commit-information>\n  <commit-history>\n    <user>a</client>\n")
    let h = CommitHistory.read(file)
    #expect(h.diagnostics.map(\.rendered) == ["x:3:12: error: malformed XML: </client> does not close <user>"])
    let missing = CommitHistory.read(
      SourceFile(path: "m", text: "<commit-information><commit-history><user>a</user></commit-history></commit-information>"))
    #expect(missing.diagnostics.map(\.rendered) == ["m:1:21: error: <commit-history> without <sequence-number>"])
  }

  /// A numeric character reference takes digits only (`&#x+41;` is no `A`).
  @Test func characterReferencesAreDigitsOnly() {
    func user(_ ref: String) -> (String?, [String]) {
      let h = CommitHistory.read(
        SourceFile(
          path: "r",
          text: "<commit-information><commit-history><sequence-number>0</sequence-number><user>\(ref)</user>"
            + "<client>cli</client><date-time>2024-01-01 00:00:00 UTC</date-time></commit-history></commit-information>"))
      return (h.commits.first?.user, h.diagnostics.map(\.message))
    }
    #expect(user("&#x41;&#66;&#X43;").0 == "ABC")
    for bad in ["&#x+41;", "&#+65;", "&#x;", "&#-1;"] {
      #expect(user(bad).0 == nil, "\(bad)")
      #expect(user(bad).1.first?.contains("unknown entity") == true, "\(bad)")
    }
  }
}

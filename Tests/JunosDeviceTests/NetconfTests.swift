import Foundation
import JunosConfig
import JunosHistory
import Testing

@testable import JunosDevice

@Suite(.enabled(if: SSHServer.available || sshRequired, "no sshd here: \(SSHServer.failure ?? "")"))
struct NetconfTests {
  let server: SSHServer

  init() throws {
    server = try #require(SSHServer.shared, "the test sshd did not start: \(SSHServer.failure ?? "")")
  }

  @Test(arguments: [NetconfFraming.negotiate, .endOfMessage])
  func helloRpcsAndErrors(framing: NetconfFraming) throws {
    let ssh = try SSHSession(testOptions(server))
    let nc = try NetconfSession(ssh, framing: framing)
    #expect(nc.isChunked == (framing == .negotiate))
    #expect(nc.capabilities.contains("urn:ietf:params:netconf:base:1.0"))
    let commits = try nc.call(.commitInformation)
    var h = CommitHistory.read(SourceFile(path: "reply", bytes: Array(commits.xml.utf8)))
    TimePlacement.place(&h, file: SourceFile(path: "reply", bytes: []))
    #expect(h.commits.map(\.user) == DeviceFixtures.chain.commits.map(\.user), "\(h.diagnostics.map(\.rendered))")
    #expect(h.commits.allSatisfy { $0.instant != nil })
    for n in [0, 5] {
      let reply = try nc.call(.rollback(n, compare: nil))
      let text = try #require(reply.first("configuration-output"))
      #expect(text == DeviceFixtures.chain.rollbacks[n])
    }
    do {
      _ = try nc.call(.rollback(7, compare: 9))
      Issue.record("a missing compare did not fail")
    } catch {
      #expect(error.kind == .device)
      #expect(error.message.contains("rollback 7 is not available"))
    }
    // Still usable after an <rpc-error>.
    #expect(try nc.call(.softwareInformation).first("junos-version") == "17.3R2.10")
    #expect(throws: DeviceError.self) { _ = try nc.call(.rollback(50, compare: nil)) }
  }
}

@Suite struct NetconfFramerTests {
  func feed(_ f: inout NetconfFramer, _ s: String, by size: Int) {
    let b = Array(s.utf8)
    var i = 0
    while i < b.count {
      let j = min(b.count, i + size)
      b[i..<j].withUnsafeBytes { f.feed($0) }
      i = j
    }
  }

  @Test func endOfMessageAcrossChunkBoundaries() {
    for size in [1, 2, 3, 7, 1000] {
      var f = NetconfFramer()
      feed(&f, "<a/>]]>]]><b>x]]</b>]]>]]>tail", by: size)
      #expect(f.messages.map { String(decoding: $0, as: UTF8.self) } == ["<a/>", "<b>x]]</b>"])
    }
  }

  @Test func chunkedMessages() {
    for size in [1, 3, 5, 64] {
      var f = NetconfFramer()
      f.chunked = true
      feed(&f, "\n#4\n<rpc\n#18\n-reply><ok/></rpc-\n#6\nreply>\n##\n\n#3\n<a>\n##\n", by: size)
      #expect(f.messages.map { String(decoding: $0, as: UTF8.self) } == ["<rpc-reply><ok/></rpc-reply>", "<a>"])
      #expect(f.failure == nil)
    }
    var bad = NetconfFramer()
    bad.chunked = true
    feed(&bad, "\n#x\n", by: 4)
    #expect(bad.failure != nil)
  }

  @Test func bigMessageIsLinear() {
    var f = NetconfFramer()
    let big = String(repeating: "<line>data</line>\n", count: 600_000) + "]]>]]>"
    feed(&f, big, by: 32_768)
    #expect(f.messages.count == 1 && f.messages[0].count == big.utf8.count - 6)
  }

  @Test func replies() throws {
    let reply = try NetconfReply(
      "<rpc-reply><junos:x>1</junos:x><configuration-output>a &lt;b&gt; &amp; &#65;&#x42;<![CDATA[<c>]]></configuration-output><e/></rpc-reply>"
    )
    #expect(reply.first("configuration-output") == "a <b> & AB<c>")
    #expect(reply.first("x") == "1")
    #expect(reply.all("e") == [""])
    #expect(reply.errorMessage == nil)
    let errors = try NetconfReply(
      "<rpc-reply><rpc-error><error-severity>warning</error-severity><error-message>w</error-message></rpc-error>"
        + "<rpc-error><error-severity>error</error-severity><error-tag>t</error-tag><error-message>\n bad \n</error-message></rpc-error></rpc-reply>"
    )
    #expect(errors.errorMessage == "bad")
    #expect(throws: DeviceError.self) { _ = try NetconfReply("<rpc-reply><a></rpc-reply>") }
  }
}

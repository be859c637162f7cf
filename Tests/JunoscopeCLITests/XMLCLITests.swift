import Foundation
import Testing

/// Junos XML through the command line: `show --format xml`, and XML wherever configurations are read.
@Suite struct XMLCLITests {
  @Test func showPrintsXMLAndReadsItBack() {
    let xml = run(["show", "--format", "xml", "-"], stdin: "set system host-name r1\nset system services ssh\n")
    #expect(xml.status == 0)
    #expect(
      xml.out == """
        <configuration xmlns:junos="http://xml.juniper.net/junos/*/junos">
            <system>
                <host-name>r1</host-name>
                <services>
                    <ssh/>
                </services>
            </system>
        </configuration>

        """)
    let curly = run(["show", "-"], stdin: xml.out)
    #expect(curly.status == 0)
    #expect(curly.out == "system {\n    host-name r1;\n    services {\n        ssh;\n    }\n}\n")
    let masked = run(["show", "-f", "xml", "-"], stdin: "system { root-authentication { encrypted-password \"$6$x\"; } }\n")
    #expect(masked.out.contains("<encrypted-password>&lt;masked&gt;</encrypted-password>") && !masked.out.contains("$6$x"))
    #expect(
      run(["show", "-f", "xml", "--show-secrets", "-"], stdin: "system { root-authentication { encrypted-password \"$6$x\"; } }\n").out
        .contains("$6$x"))
  }

  @Test func checkAndCompareReadXML() {
    let reply = "\(fixtures)/configs/xml/eznc_factory_get-configuration.xml"
    let check = run(["check", reply])
    #expect(check.status == 0)
    #expect(check.out.hasSuffix("eznc_factory_get-configuration.xml: xml configuration, 14 statements\n"))
    // The same zone as curly text: no differences.
    let curly = run(["show", reply]).out
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-xml-\(UInt32.random(in: 0...UInt32.max))")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let text = dir.appendingPathComponent("zone.conf").path
    #expect(FileManager.default.createFile(atPath: text, contents: Data(curly.utf8)))
    let same = run(["compare", reply, text])
    #expect(same.status == 0)
    #expect(same.out == "")
    let bad = run(["check", "-"], stdin: "<configuration>\n<system>\n")
    #expect(bad.status == 2)
    #expect(bad.err.contains("<stdin>:3:1: error: malformed XML: <system> is never closed"))
  }
}

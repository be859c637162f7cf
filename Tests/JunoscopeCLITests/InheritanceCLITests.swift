import Foundation
import Testing

/// `show --inheritance`, `compare --inheritance`.
@Suite struct InheritanceCLITests {
  static let config = """
    set groups G interfaces <ge-*> mtu 9192
    set apply-groups G
    set interfaces ge-0/0/0 unit 0
    set interfaces xe-0/0/0 unit 0

    """

  @Test func showInheritancePrintsNotesAndNoCommentsLeavesThemOut() {
    let r = run(["show", "--inheritance", "-"], stdin: Self.config)
    #expect(r.status == 0)
    #expect(
      r.out == """
        interfaces {
            ge-0/0/0 {
                unit 0;
                ##
                ## '9192' was inherited from group 'G'
                ##
                mtu 9192;
            }
            xe-0/0/0 {
                unit 0;
            }
        }

        """)
    let plain = run(["show", "--inheritance", "--no-comments", "-"], stdin: Self.config)
    #expect(
      plain.out == "interfaces {\n    ge-0/0/0 {\n        unit 0;\n        mtu 9192;\n    }\n    xe-0/0/0 {\n        unit 0;\n    }\n}\n")
    let set = run(["show", "--inheritance", "-f", "set", "-"], stdin: Self.config)
    #expect(set.out == "set interfaces ge-0/0/0 unit 0\nset interfaces ge-0/0/0 mtu 9192\nset interfaces xe-0/0/0 unit 0\n")
  }

  @Test func compareInheritanceShowsTheEffectiveDifference() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-inheritance-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let old = dir.appendingPathComponent("old.set").path
    try Self.config.write(toFile: old, atomically: true, encoding: .utf8)
    let new = Self.config.replacing("mtu 9192", with: "mtu 1500")
    let r = run(["compare", "--inheritance", old, "-"], stdin: new)
    #expect(r.status == 1)
    #expect(
      r.out == """
        [edit interfaces ge-0/0/0]
        -   ## inherited from group 'G'
        -   mtu 9192;
        +   ## inherited from group 'G'
        +   mtu 1500;

        """)
    let same = run(["compare", "--inheritance", old, "-"], stdin: Self.config)
    #expect(same.status == 0 && same.out.isEmpty)
    let withPath = run(["compare", "--inheritance", old, "-", "interfaces"], stdin: new)
    #expect(withPath.status == 64)
  }
}

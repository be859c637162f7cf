import Foundation
import Testing

/// `compare`, `apply` and `check` on compare text, through the command line.
@Suite struct CompareCLITests {
  static let old = "system {\n    host-name r1;\n    services {\n        ssh;\n    }\n}\n"
  static let new = "system {\n    host-name r2;\n    services {\n        ssh;\n        netconf {\n            ssh;\n        }\n    }\n}\n"

  /// Writes `text` to a fresh temporary file and returns its path.
  func file(_ text: String, _ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  @Test func exitStatusIsDiffs() throws {
    let a = try file(Self.old, "a.conf")
    let b = try file(Self.new, "b.conf")
    let same = run(["compare", a, a])
    #expect(same.status == 0)
    #expect(same.out == "")
    let different = run(["compare", a, b])
    #expect(different.status == 1)
    #expect(
      different.out == """
        [edit system]
        -  host-name r1;
        +  host-name r2;
        [edit system services]
        +   netconf {
        +       ssh;
        +   }

        """)
    let broken = run(["compare", a, "-"], stdin: "system {\n")
    #expect(broken.status == 2)
    #expect(broken.out == "")
    #expect(broken.err.contains("<stdin>:2:1: error: missing '}'"))
    #expect(run(["compare", "-", "-"]).status == 64)
  }

  /// `compare OLD NEW protocols bgp` is `show protocols bgp | compare`: the difference under that
  /// hierarchy only, with the device's full `[edit …]` banners.
  @Test func pathLimitsTheComparison() throws {
    let a = try file(Self.old, "a.conf")
    let b = try file(Self.new, "b.conf")
    let services = run(["compare", a, b, "system", "services"])
    #expect(services.status == 1)
    #expect(services.out == "[edit system services]\n+   netconf {\n+       ssh;\n+   }\n")
    #expect(run(["compare", a, b, "system services netconf"]).out == services.out)
    let leaf = run(["compare", "-f", "set", a, b, "system", "host-name"])
    #expect(leaf.out == "delete system host-name\nset system host-name r2\n")
    let unchanged = run(["compare", a, b, "system", "services", "ssh"])
    #expect(unchanged.status == 0)
    #expect(unchanged.out == "")
    #expect(unchanged.err == "")
    let nowhere = run(["compare", a, b, "protocols", "bgp"])
    #expect(nowhere.status == 0)
    #expect(nowhere.out == "")
    #expect(nowhere.err.contains("warning: no statement at 'protocols bgp'"))
  }

  /// `check` is a `commit check` of syntax: a schema error is exit 2 with its place; `--lenient`
  /// makes an unknown statement a warning (exit 0); `--junos-family` narrows the schema.
  @Test func checkAgainstTheSchema() throws {
    let typo = try file("system {\n    hots-name r1;\n}\n", "typo.conf")
    let strict = run(["check", typo])
    #expect(strict.status == 2)
    #expect(strict.err == "\(typo):2:5: error: unknown statement 'hots-name' under 'system'; did you mean 'host-name'?\n")
    #expect(strict.out == "\(typo): curly configuration, 2 statements, 1 error\n")
    let lenient = run(["check", "--lenient", typo])
    #expect(lenient.status == 0)
    #expect(lenient.err.contains(": warning: unknown statement 'hots-name'"))
    let srx = try file("set security policies from-zone trust to-zone untrust policy P then permit\n", "srx.set")
    #expect(run(["check", "-q", srx]).status == 0)
    #expect(run(["check", "-q", "--junos-family", "srx", srx]).status == 0)
    let mx = run(["check", "-q", "--junos-family", "junos", srx])
    #expect(mx.status == 2)
    #expect(mx.err.contains("is not in the schema of junos"))
    #expect(run(["check", "--junos-family", "ios", srx]).status == 64)
  }

  @Test func setAndJSONForms() throws {
    let a = try file(Self.old, "a.conf")
    let set = run(["compare", "--format", "set", a, "-"], stdin: Self.new)
    #expect(set.out == "delete system host-name\nset system host-name r2\nset system services netconf ssh\n")
    let json = run(["compare", "-f", "json", a, "-"], stdin: Self.new)
    #expect(json.out.hasPrefix(#"{"format":"junoscope.diff","version":1,"#))
    #expect(json.out.contains(#""counts":{"added":1,"deleted":0,"changed":1,"#))
  }

  @Test func applyReadsCompareTextAndSetCommands() throws {
    let a = try file(Self.old, "a.conf")
    let diff = run(["compare", a, "-"], stdin: Self.new).out
    let applied = run(["apply", a, "-"], stdin: diff)
    #expect(applied.status == 0)
    #expect(applied.out == Self.new)
    let set = run(["apply", a, "-"], stdin: "set system host-name r2\nset system services netconf ssh\n")
    #expect(set.status == 0)
    #expect(set.out == Self.new)
  }

  @Test func applyOfAnEmptyCompareChangesNothing() throws {
    let a = try file(Self.old, "a.conf")
    let empty = run(["compare", a, a])
    #expect(empty.out == "")
    let applied = run(["apply", a, "-"], stdin: empty.out)
    #expect(applied.status == 0)
    #expect(applied.err == "")
    #expect(applied.out == Self.old)
  }

  @Test func inputsFromPipesAndDevices() throws {
    let a = try file(Self.old, "a.conf")
    // A FIFO, as `compare <(ssh r1 …) r2.conf` gives, is read to its end.
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-fifo-\(UUID().uuidString)").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let writer = Thread {
      let fd = open(fifo, O_WRONLY)
      let bytes = Array(Self.new.utf8)
      _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      close(fd)
    }
    writer.start()
    let piped = run(["compare", a, fifo])
    #expect(piped.status == 1)
    #expect(piped.out.hasPrefix("[edit system]\n-  host-name r1;\n+  host-name r2;\n"))
    // `/dev/null` is an empty configuration.
    let null = run(["check", "/dev/null"])
    #expect(null.status == 0, "\(null.err)")
    let dir = run(["check", FileManager.default.temporaryDirectory.path])
    #expect(dir.status == 2)
    #expect(dir.err.contains("is a directory"))
  }

  @Test func applyRefusesWhatDoesNotMatchTheBase() throws {
    let a = try file(Self.old, "a.conf")
    let r = run(["apply", a, "-"], stdin: "[edit system]\n-  host-name r9;\n+  host-name r2;\n")
    #expect(r.status == 2)
    #expect(r.out == "")
    #expect(r.err.contains("<stdin>:2:4: error: 'host-name r9' is deleted, but the base has no such statement under [edit system]"))
    let stub = run(["apply", a, "-"], stdin: "[edit system services]\n     telnet { ... }\n+    netconf;\n")
    #expect(stub.status == 2)
    #expect(stub.err.contains("<stdin>:2:6: error: context line 'telnet' does not match the base"))
    let neither = run(["apply", a, "-"], stdin: "system { host-name r3; }\n")
    #expect(neither.status == 2)
  }

  @Test func checkSaysWhatCompareTextItFound() throws {
    let complete = run(["check", "-"], stdin: "user@r1# show | compare\n[edit system]\n-  host-name r1;\n+  host-name r2;\n")
    #expect(complete.status == 0)
    #expect(complete.out == "<stdin>: compare text, 1 [edit] banner, 2 changes, complete (1 capture line skipped)\n")
    let truncated = run(["check", "-"], stdin: "[edit system]\n+  syslog {\n+      file messages {\n---(more)---\n")
    #expect(truncated.status == 2)
    #expect(truncated.err.contains("<stdin>:4:1: error: the capture stops at a pager prompt"))
    #expect(truncated.out.contains("(truncated diff)"))
  }
}

// junoscope-schemagen: compiles Juniper's YANG modules into junoscope's schema table.
//
//   swift run -c release junoscope-schemagen            # regenerate Sources/CJunosSchemaTable/schema.jsc
//   swift run -c release junoscope-schemagen --check    # exit 1 if the committed table differs
//
// A developer tool, not a product: it reads the xz tarballs beside it (Sources/junoscope-schemagen/yang,
// unpacked with the system `tar`), and writes the table the library embeds. Docs/Schema.md says what
// goes into the table and why.

import Foundation
internal import JunosSchema

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("junoscope-schemagen: \(message)\n".utf8))
  exit(2)
}

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
var yangDir = here.appendingPathComponent("yang").path
var outPath = here.deletingLastPathComponent().appendingPathComponent("CJunosSchemaTable/schema.jsc").path
var check = false
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
  switch a {
  case "--yang":
    guard let v = args.popFirst() else { fail("--yang needs a folder") }
    yangDir = v
  case "--out":
    guard let v = args.popFirst() else { fail("--out needs a path") }
    outPath = v
  case "--check": check = true
  case "-h", "--help":
    print("usage: junoscope-schemagen [--yang DIR] [--out FILE] [--check]")
    exit(0)
  default: fail("unknown argument '\(a)'")
  }
}

/// Unpacks a tarball into a fresh temporary folder and returns the folder holding the modules.
func unpack(_ tarball: String) -> URL {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("junoscope-yang-\(getpid())-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  p.arguments = ["tar", "-xJf", tarball, "-C", dir.path]
  do { try p.run() } catch { fail("cannot run tar: \(error)") }
  p.waitUntilExit()
  guard p.terminationStatus == 0 else { fail("tar -xJf \(tarball) failed") }
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
  if entries.count == 1, entries[0] != "LICENSE" { return dir.appendingPathComponent(entries[0]) }
  return dir
}

/// The modules of a folder, by module name (the file name without `@revision.yang`).
func readModules(_ dir: URL) -> [String: YANGStatement] {
  var out: [String: YANGStatement] = [:]
  let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".yang") }.sorted()
  for f in files {
    let path = dir.appendingPathComponent(f).path
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    do {
      let m = try YANGReader.parse(Array(data), path: f)
      out[m.argument ?? f] = m
    } catch {
      fail(error.description)
    }
  }
  return out
}

let started = Date()
let j24 = readModules(unpack(yangDir + "/24.4R1-junos.tar.xz"))
let evo = readModules(unpack(yangDir + "/24.4R1-evo.tar.xz"))
let j22 = readModules(unpack(yangDir + "/22.4R1-junos.tar.xz"))
let common = j24.filter { $0.key.hasPrefix("junos-common-") }

func modules(_ set: [String: YANGStatement], prefix: String) -> [String: YANGStatement] {
  set.filter { $0.key.hasPrefix(prefix + "-conf-") }
}

// What each family is made of. 24.4R1 lacks the `*-conf-system` modules of Junos and EVO (too large
// for Juniper's public snapshot): those come from 22.4R1. EX is complete in 22.4R1 only; its 24.4R1
// modules replace their 22.4R1 versions.
let plan: [(SchemaFamily, String, [String: YANGStatement])] = [
  (.junos, "junos-conf-root", modules(j24, prefix: "junos").merging(["junos-conf-system": j22["junos-conf-system"]!]) { a, _ in a }),
  (.evo, "junos-conf-root", modules(evo, prefix: "junos").merging(["junos-conf-system": j22["junos-conf-system"]!]) { a, _ in a }),
  (.srx, "junos-es-conf-root", modules(j24, prefix: "junos-es")),
  (.ex, "junos-ex-conf-root", modules(j22, prefix: "junos-ex").merging(modules(j24, prefix: "junos-ex")) { _, b in b }),
  (.qfx, "junos-qfx-conf-root", modules(j24, prefix: "junos-qfx")),
  (.nfx, "junos-nfx-conf-root", modules(j24, prefix: "junos-nfx")),
]

let builder = SchemaBuilder()
var root: SchemaBuilder.BlockID = 0
var ignored: [String: Int] = [:]
for (family, rootModule, mods) in plan {
  var c = FamilyCompiler(family: family, modules: Array(mods.values) + Array(common.values), builder: builder)
  let top: [SchemaBuilder.NodeID]
  do { top = try c.compileRoot(rootModule: rootModule) } catch { fail(error.description) }
  for (k, v) in c.ignored { ignored[k, default: 0] += v }
  // `logical-systems NAME` and `groups NAME` hold the top level again.
  func keyed(_ name: String, _ children: SchemaBuilder.BlockID) -> SchemaBuilder.NodeID {
    var key = SchemaBuilder.Node(name: "name", kind: .leaf)
    key.flags = .nokeyword
    key.families = family.mask
    key.type = builder.type(SchemaBuilder.ValueType(kind: .string))
    var n = SchemaBuilder.Node(name: name, kind: .list)
    n.families = family.mask
    n.keys = [builder.intern(key)]
    n.children = children
    // Printed as a block of entries (`groups { NAME { … } }`), as the real `groups` list is.
    n.flags = name == "groups" ? [.orderedByUser, .homogeneous] : [.homogeneous]
    return builder.intern(n)
  }
  let logical = keyed("logical-systems", builder.block(top))
  let groups = keyed("groups", builder.block(top + [logical]))
  let familyRoot = builder.block(top + [logical, groups])
  root = builder.mergeBlocks(root, familyRoot)
  FileHandle.standardError.write(Data("junoscope-schemagen: \(family.rawValue): \(mods.count) modules\n".utf8))
}

let (table, counts) = builder.encode(root: root)
let seconds = Date().timeIntervalSince(started)
FileHandle.standardError.write(
  Data(
    """
    junoscope-schemagen: \(counts.nodes) statements, \(counts.blocks) child blocks, \(counts.types) value types, \
    \(counts.strings) strings; table \(counts.bytes) bytes; \
    \(builder.kindConflicts.count) names with kinds that differ between families \
    (\(builder.kindConflicts.keys.sorted().joined(separator: ", "))); \(String(format: "%.1f", seconds)) s
    \(ignored.isEmpty ? "" : "not read: " + ignored.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ") + "\n")
    """.utf8))

if check {
  let current = FileManager.default.contents(atPath: outPath).map { [UInt8]($0) } ?? []
  if current != table {
    FileHandle.standardError.write(Data("junoscope-schemagen: \(outPath) is not what the YANG modules give; regenerate it\n".utf8))
    exit(1)
  }
  exit(0)
}
// Written beside the target and renamed over it, so a failed run leaves the old table.
let tmp = outPath + ".tmp"
guard FileManager.default.createFile(atPath: tmp, contents: Data(table)) else { fail("cannot write \(tmp)") }
guard rename(tmp, outPath) == 0 else { fail("cannot rename \(tmp) to \(outPath)") }

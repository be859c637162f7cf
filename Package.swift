// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "junoscope",
  products: [
    .library(name: "JunosSchema", targets: ["JunosSchema"]),
    .library(name: "JunosConfig", targets: ["JunosConfig"]),
    .library(name: "ArgumentKit", targets: ["ArgumentKit"]),
    .library(name: "JunosDiff", targets: ["JunosDiff"]),
    .library(name: "JunosHistory", targets: ["JunosHistory"]),
    .library(name: "JunosDevice", targets: ["JunosDevice"]),
    .library(name: "JunosChecklist", targets: ["JunosChecklist"]),
    .library(name: "JunosReview", targets: ["JunosReview"]),
    .library(name: "Reports", targets: ["Reports"]),
    .executable(name: "junoscope", targets: ["junoscope"]),
    .executable(name: "junoscope-bench", targets: ["junoscope-bench"]),
    .executable(name: "junoscope-doctest", targets: ["junoscope-doctest"]),
  ],
  targets: [
    // Juniper's configuration schema: the table generated from Juniper's YANG modules, and its
    // reader. No Foundation.
    .target(name: "JunosSchema", dependencies: ["CJunosSchemaTable"], swiftSettings: strict),
    // The table's bytes (`schema.jsc`, written by junoscope-schemagen), linked in as they are.
    .target(name: "CJunosSchemaTable", exclude: ["schema.jsc"]),
    // The generator of that table (a developer tool, not a product): reads the YANG tarballs kept
    // beside it. `swift run -c release junoscope-schemagen` (Docs/Schema.md).
    .executableTarget(name: "junoscope-schemagen", dependencies: ["JunosSchema"], exclude: ["yang"], swiftSettings: strict),
    // Configuration model: bytes -> ConfigTree -> curly / set / JSON text. No Foundation.
    .target(name: "JunosConfig", dependencies: ["JunosSchema", "ArgumentKit"], swiftSettings: strict),
    // Generic command-line parsing, help, suggestions and completions. No Junos knowledge.
    .target(name: "ArgumentKit", swiftSettings: strict),
    // Differences between configurations: matching, Junos/set/JSON renderings, compare-text
    // parsing and applying changes. No Foundation.
    .target(name: "JunosDiff", dependencies: ["JunosConfig"], swiftSettings: strict),
    // zlib from the system (Debian: zlib1g-dev), for `juniper.conf.N.gz` rollback files.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // Commit history: `show system commit` (text, XML), times, ranges, batches, rollback files, git
    // repositories of backups, blame. No Foundation.
    .target(name: "JunosHistory", dependencies: ["JunosConfig", "JunosDiff", "CZlib", "CGit2"], swiftSettings: strict),
    // libgit2 from the system (Debian: libgit2-dev), for git repositories of backups (Oxidized,
    // RANCID). Imported (internally) by JunosHistory only.
    .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
    // libssh from the system (Debian: libssh-dev), for devices over SSH. Imported by JunosDevice only.
    .systemLibrary(name: "CLibSSH", pkgConfig: "libssh", providers: [.apt(["libssh-dev"])]),
    // Devices: SSH (CLI and NETCONF) through libssh, capture bundles, the read-only allow-list.
    .target(name: "JunosDevice", dependencies: ["JunosConfig", "JunosHistory", "CLibSSH"], swiftSettings: strict),
    // The outage checklist: effective configuration model, interface roles, change plans and their
    // replay, the rule catalogue, findings and suppressions. No Foundation.
    .target(name: "JunosChecklist", dependencies: ["JunosConfig", "JunosDiff", "JunosHistory"], swiftSettings: strict),
    // The outage review: every device's commits in a time window, batches by author, their
    // diffs, the checklist's findings and blame. No Foundation, no printing.
    .target(
      name: "JunosReview", dependencies: ["JunosHistory", "JunosDiff", "JunosChecklist", "JunosConfig"], swiftSettings: strict),
    // Encoders for findings: text, JSON, SARIF 2.1.0, JUnit XML; merging shard reports; the
    // review's JSON, Markdown and HTML.
    .target(name: "Reports", dependencies: ["JunosChecklist", "JunosConfig", "JunosReview", "JunosHistory"], swiftSettings: strict),
    // One file per subcommand; the only place that prints and picks exit codes.
    .target(
      name: "JunoscopeCLI",
      dependencies: [
        "JunosConfig", "JunosDiff", "JunosHistory", "JunosDevice", "JunosChecklist", "JunosReview", "Reports", "ArgumentKit",
      ],
      swiftSettings: strict),
    .executableTarget(name: "junoscope", dependencies: ["JunoscopeCLI"], swiftSettings: strict),
    .executableTarget(
      name: "junoscope-bench",
      dependencies: ["JunosConfig", "JunosDiff", "JunosHistory", "JunosDevice", "JunosChecklist", "JunoscopeTestSupport"],
      swiftSettings: strict),
    // Generated inputs for tests and benchmarks (a chain of rollbacks with its own blame record).
    // Not a product.
    .target(name: "JunoscopeTestSupport", dependencies: ["JunosHistory"], swiftSettings: strict),
    // The doc tests: the ```console examples of README.md and Docs/*.md read, run against the built
    // junoscope and compared with what they show (Docs/DocTests.md). Not a product.
    .target(name: "JunoscopeDocTest", swiftSettings: strict),
    .executableTarget(name: "junoscope-doctest", dependencies: ["JunoscopeDocTest", "ArgumentKit"], swiftSettings: strict),
    .testTarget(name: "JunosSchemaTests", dependencies: ["JunosSchema"], swiftSettings: strict),
    .testTarget(name: "JunosConfigTests", dependencies: ["JunosConfig"], swiftSettings: strict),
    .testTarget(name: "JunosDiffTests", dependencies: ["JunosDiff", "JunosConfig"], swiftSettings: strict),
    .testTarget(
      name: "JunosHistoryTests", dependencies: ["JunosHistory", "JunosDiff", "JunosConfig", "JunoscopeTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "JunosDeviceTests", dependencies: ["JunosDevice", "JunosHistory", "JunosConfig", "JunoscopeCLI", "JunoscopeTestSupport"],
      exclude: ["Harness"], swiftSettings: strict),
    .testTarget(
      name: "JunosChecklistTests", dependencies: ["JunosChecklist", "JunosConfig", "JunosDiff", "JunosHistory"], swiftSettings: strict),
    .testTarget(
      name: "JunosReviewTests",
      dependencies: ["JunosReview", "Reports", "JunosHistory", "JunosChecklist", "JunosConfig", "JunoscopeTestSupport"],
      exclude: ["Snapshots"], swiftSettings: strict),
    .testTarget(name: "ReportsTests", dependencies: ["Reports", "JunosChecklist", "JunosConfig"], swiftSettings: strict),
    .testTarget(name: "ArgumentKitTests", dependencies: ["ArgumentKit"], swiftSettings: strict),
    .testTarget(
      name: "JunoscopeCLITests",
      dependencies: [
        "JunoscopeCLI", "JunosChecklist", "JunosConfig", "JunosHistory", "JunosDevice", "ArgumentKit", "JunoscopeTestSupport", "JunoscopeDocTest",
      ],
      exclude: ["Snapshots"], swiftSettings: strict),
  ]
)

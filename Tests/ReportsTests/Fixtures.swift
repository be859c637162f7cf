import JunosChecklist
import JunosConfig
import Reports

/// Four findings over two files (one more file is clean), given out of order.
let sampleFindings: [Finding] = [
  Finding(
    rule: .stepWithoutVerification, message: "Step dc changes forwarding without a verification.", hint: "Add #@ verify.",
    location: FindingLocation(file: "plans/swap.plan", line: 30, column: 0), step: "dc"),
  Finding(
    rule: .clientLinksBeforeCoreLinks, message: "Client link ae1 goes live before any core link.", hint: "Patch core links first.",
    location: FindingLocation(file: "plans/swap.plan", line: 12, column: 1), step: "dc", path: "interfaces ae1"),
  Finding(
    rule: .coreLinkWithoutBFD, message: "IS-IS interface et-0/0/0.0 has no BFD.", hint: "Add BFD.",
    location: FindingLocation(file: "configs/cr1.conf", line: 40, column: 5), path: "protocols isis interface et-0/0/0.0"),
  Finding(
    rule: .bgpMissingPrefixLimit, message: "BGP group EXT has no prefix limit.", hint: "Add a prefix limit.",
    location: FindingLocation(file: "configs/cr1.conf", line: 0, column: 0), path: "protocols bgp group EXT"),
]

let sampleFiles = ["configs/cr1.conf", "plans/swap.plan", "configs/clean.conf"]

let sample = LintReport(findings: sampleFindings, files: sampleFiles, toolVersion: "0.9.0")

/// Parses JSON text written by a report writer.
func parseJSON(_ text: String) throws -> MiniJSON.Value { try MiniJSON.parse(Array(text.utf8)) }

/// Occurrences of `needle` in `haystack`.
func occurrences(of needle: String, in haystack: String) -> Int {
  haystack.split(separator: needle, omittingEmptySubsequences: false).count - 1
}

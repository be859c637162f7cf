import JunosConfig
import JunosDiff

/// Rule 29: a change to a configuration group, reported with what it reaches in the effective
/// configuration ("this change to group 'CORE-IF' touched 48 interfaces on r1 (…)").
struct GroupChangeReach: Rule {
  let id = RuleID.groupChangeReach

  func check(change: ChangeContext) -> [Finding] {
    guard let a = change.before.inherited, let b = change.after.inherited, let ta = change.before.written,
      let tb = change.after.written
    else { return [] }
    // No group defined or applied differently: nothing to compare the effective trees for.
    guard !InheritanceDiff.changedGroups(old: ta, new: tb).isEmpty else { return [] }
    let reach = InheritanceDiff(from: a, to: b).groupReach(old: ta, new: tb)
    guard !reach.isEmpty else { return [] }
    let device = Self.hostName(b.configuration) ?? Self.hostName(a.configuration) ?? "the device"
    return reach.map { r in change.finding(id, nil, r.summary(device: device), path: ["groups", r.group]) }
  }

  /// `system host-name` of an effective configuration.
  static func hostName(_ t: ConfigTree) -> String? {
    for s in t.children(of: ConfigTree.root) where t.wordCount(of: s) == 1 && t.word(0, of: s) == "system" {
      for h in t.children(of: s) where t.wordCount(of: h) == 2 && t.word(0, of: h) == "host-name" {
        return unquoted(t.word(1, of: h))
      }
    }
    return nil
  }
}

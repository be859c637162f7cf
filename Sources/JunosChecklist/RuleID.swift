/// The rules of the outage checklist, by the ids of the catalogue (Docs/Rules.md).
public enum RuleID: String, Sendable, Hashable, CaseIterable {
  case unconditionalAggregateExported = "unconditional-aggregate-exported"
  case aggregateActivatedWithoutCore = "aggregate-activated-without-core"
  case aggregatePassiveAlwaysInstalled = "aggregate-passive-always-installed"
  case nodeNotCostedOut = "node-not-costed-out"
  case overloadTimeoutAsCostOut = "overload-timeout-as-cost-out"
  case uncostAndEnableSameStep = "uncost-and-enable-same-step"
  case costedOutNodeStillAttractsViaBGP = "costed-out-node-still-attracts-via-bgp"
  case clientLinksBeforeCoreLinks = "client-links-before-core-links"
  case interfaceRoleUnclassified = "interface-role-unclassified"
  case protocolReferencesUndefinedInterface = "protocol-references-undefined-interface"
  case ldpIGPSyncMissing = "ldp-igp-sync-missing"
  case coreLinkWithoutCoS = "core-link-without-cos"
  case changeWithoutCommitConfirmed = "change-without-commit-confirmed"
  case emptyConfirmingCommit = "empty-confirming-commit"
  case termMatchConditionsRemoved = "term-match-conditions-removed"
  case guardTermRemoved = "guard-term-removed"
  case policyTermReordered = "policy-term-reordered"
  case matchAllAcceptTerm = "match-all-accept-term"
  case bgpSessionWithoutPolicy = "bgp-session-without-policy"
  case policyDetached = "policy-detached"
  case igpExportAdmitsBGP = "igp-export-admits-bgp"
  case bgpMissingPrefixLimit = "bgp-missing-prefix-limit"
  case bulkCoreIsolation = "bulk-core-isolation"
  case deactivateInsteadOfDisable = "deactivate-instead-of-disable"
  case bgpShutdownWithoutDrain = "bgp-shutdown-without-drain"
  case stepWithoutVerification = "step-without-verification"
  case coreLinkWithoutBFD = "core-link-without-bfd"
  case flowspecRouteOverbroad = "flowspec-route-overbroad"
  case groupChangeReach = "group-change-reach"
  case exportLeaksRoutes = "export-leaks-routes"
  case importDropsRoutes = "import-drops-routes"
  case igpExportWidened = "igp-export-widened"
  case redundantPairAttributeChange = "redundant-pair-attribute-change"
  case linkUpBeforeSessions = "link-up-before-sessions"
  case reFilterCutsProtocol = "re-filter-cuts-protocol"
  /// Not a catalogue rule: a suppression (`#@ accept`, an annotation, a suppression file) that
  /// gives no reason.
  case suppressionWithoutReason = "suppression-without-reason"

  /// The rule's number in the catalogue (the suppression check is last).
  public var number: Int { (RuleID.allCases.firstIndex(of: self) ?? 0) + 1 }

  /// The catalogue's default severity; rules escalate or lower it per occurrence.
  public var defaultSeverity: Severity {
    switch self {
    case .unconditionalAggregateExported, .aggregateActivatedWithoutCore, .nodeNotCostedOut,
      .uncostAndEnableSameStep, .costedOutNodeStillAttractsViaBGP, .clientLinksBeforeCoreLinks,
      .protocolReferencesUndefinedInterface, .termMatchConditionsRemoved, .guardTermRemoved,
      .policyTermReordered, .bgpSessionWithoutPolicy, .policyDetached, .igpExportAdmitsBGP,
      .bulkCoreIsolation, .exportLeaksRoutes, .importDropsRoutes, .reFilterCutsProtocol:
      .error
    case .emptyConfirmingCommit, .coreLinkWithoutBFD, .groupChangeReach:
      .info
    default:
      .warning
    }
  }

  /// One line: what the rule flags.
  public var title: String {
    switch self {
    case .unconditionalAggregateExported: "Unconditional aggregate or generated route is advertised to peers"
    case .aggregateActivatedWithoutCore: "Aggregate can be activated by the router's own addresses or by client-learned routes"
    case .aggregatePassiveAlwaysInstalled: "Passive aggregate or generated route stays installed without contributors"
    case .nodeNotCostedOut: "Node is brought into service without being costed out"
    case .overloadTimeoutAsCostOut: "Overload with a timeout is relied on to keep a node out of service"
    case .uncostAndEnableSameStep: "Cost-out removed in the same step as links are brought up"
    case .costedOutNodeStillAttractsViaBGP: "Node is costed out in the IGP but still advertises routes over BGP"
    case .clientLinksBeforeCoreLinks: "Client-facing links go live before the node has verified core reachability"
    case .interfaceRoleUnclassified: "Interface has no determinable role (core, client, management)"
    case .protocolReferencesUndefinedInterface: "Protocol, routing-instance or CoS configuration refers to interfaces that do not exist"
    case .ldpIGPSyncMissing: "Core interface runs IGP and LDP without LDP-IGP synchronisation"
    case .coreLinkWithoutCoS: "Core-facing link uses only the default CoS schedulers"
    case .changeWithoutCommitConfirmed: "Risky change committed without automatic rollback"
    case .emptyConfirmingCommit: "A confirmed commit was confirmed with an empty commit instead of commit check"
    case .termMatchConditionsRemoved: "A policy term loses its match conditions but keeps accepting"
    case .guardTermRemoved: "A reject (guard) term is removed from an applied policy"
    case .policyTermReordered: "Term order of an applied policy changed, or a term lands behind a terminal term"
    case .matchAllAcceptTerm: "A term of an applied policy accepts every route"
    case .bgpSessionWithoutPolicy: "BGP neighbor without an effective import and/or export policy"
    case .policyDetached: "An import, export or contributor policy reference is removed"
    case .igpExportAdmitsBGP: "IGP export chain can redistribute BGP routes (or everything)"
    case .bgpMissingPrefixLimit: "BGP session without a prefix limit"
    case .bulkCoreIsolation: "One step removes all or most core connectivity of an in-service node"
    case .deactivateInsteadOfDisable: "Link meant to stay dark is deactivated or deleted instead of disabled"
    case .bgpShutdownWithoutDrain: "BGP sessions are removed without first draining traffic"
    case .stepWithoutVerification: "Forwarding-changing steps without verification, pre-checks or rollback"
    case .coreLinkWithoutBFD: "Core IGP interface without BFD"
    case .flowspecRouteOverbroad: "Local flow route with a missing or very broad destination match"
    case .groupChangeReach: "A change to a configuration group reaches statements or interfaces beyond the lines changed"
    case .exportLeaksRoutes: "An export starts accepting routes it rejected (a leak)"
    case .importDropsRoutes: "An import starts rejecting routes it accepted (a black hole)"
    case .igpExportWidened: "An IGP export starts accepting routes it rejected"
    case .redundantPairAttributeChange: "MED or local preference changed on a group or policy a redundant pair of routers shares"
    case .linkUpBeforeSessions: "A link of a node in service is given addresses and enabled before its sessions are configured and verified"
    case .reFilterCutsProtocol: "The routing-engine (lo0) filter discards a control-plane flow the router runs"
    case .suppressionWithoutReason: "A suppression gives no reason"
    }
  }

  /// One or two sentences: the fix.
  public var hint: String {
    switch self {
    case .unconditionalAggregateExported:
      "Give the route a contributor policy that accepts only core-learned routes, advertise the learned specifics instead, or gate the export with a condition."
    case .aggregateActivatedWithoutCore:
      "Add a contributor policy that rejects direct, local, static and aggregate routes (and client-learned ones) and accepts only core IGP routes."
    case .aggregatePassiveAlwaysInstalled:
      "Drop `passive`, or make sure the route is never exported while it has no contributors."
    case .nodeNotCostedOut:
      "Set `protocols isis overload` (or ospf overload, or high metrics on every core interface), or keep the data-plane links disabled, until core reachability is verified."
    case .overloadTimeoutAsCostOut:
      "Use plain `overload` and remove it in its own step once core reachability is verified."
    case .uncostAndEnableSameStep:
      "Remove the cost-out in its own step, verify, then bring links up in a later step."
    case .costedOutNodeStillAttractsViaBGP:
      "Keep client links disabled, deactivate the client BGP groups, or export reject-all to them while the node is costed out."
    case .clientLinksBeforeCoreLinks:
      "Patch and verify the core links (IGP adjacency, LDP) first; patch client links disabled and enable them in a later step."
    case .interfaceRoleUnclassified:
      "Declare the role: `#@ role core|client|mgmt|ignore IFD` in the plan, `apply-macro checklist role core` on the interface, or a description starting with Core:/Client:."
    case .protocolReferencesUndefinedInterface:
      "Rename the reference to the new chassis's port, configure the interface, or delete the stale reference."
    case .ldpIGPSyncMissing:
      "Add `ldp-synchronization` under the IGP interface."
    case .coreLinkWithoutCoS:
      "Apply a scheduler map (or output traffic-control profile) and classifiers to the core interface."
    case .changeWithoutCommitConfirmed:
      "Commit with `commit confirmed <minutes>` and confirm with `commit check` once verified."
    case .emptyConfirmingCommit:
      "Confirm a `commit confirmed` with `commit check`, which does not add a rollback."
    case .termMatchConditionsRemoved:
      "Deactivate or delete the whole term instead of its match conditions."
    case .guardTermRemoved:
      "Keep the reject term, or show that the rest of the chain rejects the same routes before removing it."
    case .policyTermReordered:
      "Modify terms in place, or put them back with `insert ... before term ...`."
    case .matchAllAcceptTerm:
      "Add match conditions (protocol, route-filter, prefix-list) to the term."
    case .bgpSessionWithoutPolicy:
      "Configure import and export policies for the neighbor, group or protocol."
    case .policyDetached:
      "Replace the policy with an equivalent one, or show what the fallback admits before removing it."
    case .igpExportAdmitsBGP:
      "Restrict the term with route-filters, or reject BGP routes before any accepting term."
    case .bgpMissingPrefixLimit:
      "Add `family inet unicast prefix-limit maximum N` (with `teardown`) to the group or neighbor."
    case .bulkCoreIsolation:
      "Cost the node out and drain its client sessions first; take core links down one at a time."
    case .deactivateInsteadOfDisable:
      "Use `set interfaces IFD disable`, and later `delete interfaces IFD disable`."
    case .bgpShutdownWithoutDrain:
      "Drain first: `graceful-shutdown sender`, the 65535:0 community, prepends or lower preference, then wait."
    case .stepWithoutVerification:
      "Add `#@ verify` (or `#@ wait`) after each forwarding change, a pre-check step and a `#@ rollback` section."
    case .coreLinkWithoutBFD:
      "Add `bfd-liveness-detection minimum-interval N` under the IGP interface."
    case .flowspecRouteOverbroad:
      "Give the flow route a narrow `destination` that does not cover the router's own addresses."
    case .groupChangeReach:
      "Check that every interface and statement listed should change (`compare --inheritance` shows each); narrow the group's wildcard or override where it should not."
    case .exportLeaksRoutes:
      "Put back the condition that kept these routes out (the example shows one), or reject them in a term before the one that now accepts them."
    case .importDropsRoutes:
      "Accept the routes again before the rejecting term, or show that their traffic has another path before the change."
    case .igpExportWidened:
      "Narrow the accepting term (route-filter, prefix-list, protocol) so that only the routes meant for the IGP match."
    case .redundantPairAttributeChange:
      "Keep the pair's settings equal; to change them, do it in a plan of its own, one router at a time with the traffic verified in between, and accept the finding with the reason."
    case .linkUpBeforeSessions:
      "Configure the BGP neighbors and the IGP interface with the port disabled, then enable it in a step that verifies the sessions (#@ verify bgp-session, isis-adjacency, ospf-neighbor)."
    case .reFilterCutsProtocol:
      "Accept the flow before any discarding term: widen the term's source to every peer that runs the protocol (BGP, OSPF and IS-IS neighbours for BFD), or add a term for the missing peers."
    case .suppressionWithoutReason:
      "Say why the finding is accepted: `#@ accept RULE \"reason\"`, `checklist: allow RULE reason`."
    }
  }

  /// What the rule inspects: C (a configuration), D (a change), P (a plan), H (commit history).
  public var inspects: String {
    switch self {
    case .unconditionalAggregateExported, .aggregateActivatedWithoutCore, .aggregatePassiveAlwaysInstalled, .ldpIGPSyncMissing,
      .matchAllAcceptTerm, .bgpSessionWithoutPolicy,
      .igpExportAdmitsBGP, .bgpMissingPrefixLimit, .coreLinkWithoutBFD:
      "C"
    case .nodeNotCostedOut, .uncostAndEnableSameStep, .clientLinksBeforeCoreLinks, .changeWithoutCommitConfirmed,
      .bgpShutdownWithoutDrain, .stepWithoutVerification, .overloadTimeoutAsCostOut, .deactivateInsteadOfDisable:
      "P"
    case .costedOutNodeStillAttractsViaBGP, .interfaceRoleUnclassified, .coreLinkWithoutCoS, .protocolReferencesUndefinedInterface:
      "C, P"
    case .emptyConfirmingCommit: "H, P"
    case .termMatchConditionsRemoved, .guardTermRemoved, .policyTermReordered, .policyDetached: "D"
    case .bulkCoreIsolation: "D, P"
    case .groupChangeReach: "D, P"
    case .redundantPairAttributeChange: "D, P"
    case .linkUpBeforeSessions: "P"
    case .flowspecRouteOverbroad, .reFilterCutsProtocol: "C, D"
    case .exportLeaksRoutes, .importDropsRoutes, .igpExportWidened: "D"
    case .suppressionWithoutReason: "C, D, P"
    }
  }

  /// Finds a rule by its id.
  public init?(id: String) { self.init(rawValue: id) }
}

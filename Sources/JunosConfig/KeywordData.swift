extension KeywordTable {
  /// Built-in entries, in the text form of ``KeywordTable/load(_:)``; later lines win.
  ///
  /// The learned block was produced by `junoscope keywords learn` over the real device
  /// configurations listed in `Docs/Keywords.md` (the acx7024 pair excluded, so the set ↔ curly
  /// test on it is a real test); the curated block after it states schema facts that curly text
  /// alone does not show, and overrides what was learned.
  static let builtinData = """
    # Learned from real device configurations.
    abc container
    accounting container
    active-server-group value
    add-path container
    address keyed 1
    admin-group list
    admin-groups container
    admin-groups blue value
    admin-groups red value
    advertise value
    advertisement container
    ae0 container
    ae1 container
    ae11 container
    ae71 container
    ae72 container
    aggregate container
    aggregated-devices container
    aggregated-ether-options container
    alarm keyed 1
    algorithm keyed 1 oneliner=index
    any value
    application container
    application-specific container
    apply-groups list
    area keyed 1
    attribute-group keyed 1
    authentication container
    authentication-order value
    authorization value
    auto-targeted-session container
    autonomous-system container oneliner=*
    autoupdate container
    backup-neighbor keyed 1
    backup-spf-options container
    bandwidth value
    bandwidth-limit value
    bfd-liveness-detection container
    bgp container
    blue container oneliner=*
    bridge-priority value
    buffer-size container oneliner=percent
    burst-size-limit value
    cak value
    certificates container
    chained-composite-next-hop container
    channel-speed value
    chassis container
    cipher-suite value
    ckn value
    class keyed 1 oneliner=queue-num
    class-of-service container
    classifiers container
    collector keyed 1
    color value
    community keyed 1 oneliner=*,map2gold,members,spoke
    connection-limit value
    connectivity-association keyed 1
    console value
    contact value
    defaults container
    delay value
    delay-metric value
    description value
    destination container oneliner=*
    destination-address container
    device-count value
    df-election-type container
    dhcp-relay container
    domain-name value
    dscp keyed 1
    egress value
    em0 container
    encapsulation value
    encapsulation-type value
    encrypted-password value
    end-interface container
    end-point value
    esi container
    esis container
    ether-options container
    ethernet container
    events value
    evpn container
    exp keyed 1
    explicit-null value
    export list
    extension-service container
    family keyed 1
    file keyed 1 oneliner=size
    filter keyed 1
    firewall container
    flag value
    flex-algorithm keyed 1
    forwarding-class keyed 1 oneliner=scheduler
    forwarding-classes container
    forwarding-options container
    forwarding-options family container
    forwarding-table container
    fpc keyed 1
    from container oneliner=family,interface,policy,protocol,rib
    from address container
    fxp0 container
    gigether-options container
    graceful-restart container
    green value
    group keyed 1
    group-ranges container
    groups container
    grpc container
    hash-key container
    hold-time value
    holddown value
    host-name value
    ieee-802.1 keyed 1
    if-exceeding container
    import list
    import-policy value
    import-rib list
    index value
    inet6 container
    ingress container oneliner=*
    input-vlan-map container
    instance-type value
    interactive-commands value
    interface keyed 1
    interface-routes container
    interfaces container oneliner=*
    ip-prefix-routes container
    ipv4-index value
    ipv6-index value
    isis container
    key-server-priority value
    l2-learning container
    l2circuit container
    label-range container
    label-switched-path keyed 1
    labeled-unicast container
    labeled-unicast rib container
    lacp container
    ldp container
    level keyed 1 oneliner=disable
    license container
    lldp container
    lo0 container
    load-balance value
    local container oneliner=*
    local-address value
    local-as value
    local-certificate value
    local-switching container
    login container
    loops value
    loss-priority keyed 1 oneliner=code-point,code-points
    lsp-interval value
    macsec container
    mapping-community value
    max-advertisement-interval value
    max-hello-size value
    maximum-labels value
    maximum-sessions value
    message value
    metric value
    microloop-avoidance container
    min-advertisement-interval value
    minimum-interval value
    minimum-links value
    mka container
    mode value
    mpls container
    mtu value
    multihop container
    multipath container
    multiplier value
    name keyed 1
    name-server container
    native-vlan-id value
    neighbor keyed 1
    neighbour-port-info-display value
    netconf container
    network-services value
    next value
    next-hop value
    next-interface container
    nexthop-resolution container
    node-protection value
    node-segment container
    ntp container
    number-of-sub-ports value
    optics-options container
    ospf container
    output-vlan-map value
    overload container oneliner=timeout
    path-count value
    path-selection value
    peer value
    peer-as value
    per-prefix-calculation value
    periodic value
    pic keyed 1
    pic-mode value
    pim container
    policer keyed 1
    policer then value
    policy-options container
    policy-statement keyed 1
    polling-interval value
    port keyed 1
    port-description-type value
    port-id-subtype value
    ports container
    post-convergence-lfa container
    post-convergence-path container
    power value
    ppm container
    pre-shared-key container
    preference value
    prefix-list keyed 1
    prefix-segment container
    priority value
    protect value
    protocol list
    protocol-version list
    protocols container
    provider-tunnel container
    purge-originator value
    rapid-runs value
    rate-limit value
    red container oneliner=*
    relay-option-82 container
    remote value
    request-response container
    resolution container
    resolution-ribs list
    revert-time value
    rewrite-rules container
    rib keyed 1
    rib-group value
    rib-groups container
    root-authentication container
    root-login value
    route keyed 1 oneliner=next-hop
    route-distinguisher value
    route-distinguisher-id value
    route-filter value
    route-filter-list keyed 1
    router-advertisement container
    router-id value
    routing-instance value
    routing-instances container
    routing-options container
    rp container
    rstp container
    rsvp container
    sample-rate container
    sample-rate ingress value
    scheduler-map value
    scheduler-maps container
    schedulers container
    scheme keyed 1
    secret value
    security container
    security-mode value
    selective container
    send container
    server keyed 1
    server-group container
    services container
    sflow container
    sflow interfaces keyed 1
    signaling container
    snmp container
    source keyed 1
    source-address container oneliner=*
    source-ip value
    source-packet-routing container
    source-packet-routing flex-algorithm list
    speed value
    spf-options container
    srgb-label-range value
    ssh container
    ssh-rsa value
    ssl container
    static container
    statistics-granularity value
    syslog container
    system container
    system-id value
    tacplus-server container
    tacplus-server source-address value
    tag list
    tag2 value
    tcp-mss value
    te-metric value
    teardown-delay value
    telemetry container
    telnet container
    term keyed 1
    then container oneliner=accept,discard,multipath-resolve,next,policer,reject
    time-zone value
    timeout value
    to value
    traceoptions container
    traffic-engineering container
    traffic-statistics container
    transmit-rate container oneliner=percent
    transport container
    transport-class container
    ttl value
    tunnel container
    tunnel destination value
    tunnel-egress container
    tunnel-limit value
    type value
    udp-port value
    uid value
    unicast container
    unit keyed 1
    unt keyed 1
    url value
    use-post-convergence-lfa value
    user keyed 1
    version value
    virtual-address value
    virtual-circuit-id value
    vlan-id value
    vlans container
    vni value
    vpws-service-id container
    vpws-service-id local value
    vrf-export value
    vrf-import value
    vrf-target value
    vrrp container
    vrrp-group keyed 1
    warning keyed 1
    # Curated entries (Junos schema facts not visible in curly text alone).
    user class value
    then loss-priority value
    interfaces named
    groups named
    routing-instances named
    logical-systems named
    vlans named
    bridge-domains named
    rib-groups named
    srgb flat
    start-label value
    index-range value
    family filter container
    firewall family filter keyed 1
    vpls filter container
    vpls container
    log-updown container
    oam container
    connectivity-fault-management container
    maintenance-domain keyed 1
    maintenance-association keyed 1
    mep keyed 1
    continuity-check container
    site keyed 1
    auto-bandwidth container
    template container
    payload container
    source-mac-address container
    destination-mac-address container
    dscp-ipv6 keyed 1
    forwarding-class loss-priority keyed 1 oneliner=code-point,code-points
    forwarding-classes class keyed 1 oneliner=queue-num
    code-points list
    members list
    then container oneliner=accept,discard,forwarding-class,multipath-resolve,next,policer,reject
    shaping-rate value
    export list
    import list
    isis level keyed 1 oneliner=disable,wide-metrics-only
    interface level keyed 1 oneliner=disable
    route keyed 1 oneliner=discard,next-hop,receive,reject
    qualified-next-hop keyed 1
    route-filter keyed 1 oneliner=exact,longer,orlonger,prefix-length-range,through,upto
    prefix-list-filter keyed 1 oneliner=exact,longer,orlonger
    vlan-tags flat
    drop-profile-map flat
    policy-options as-path keyed 1 oneliner=*
    policy-options condition keyed 1
    family policer container
    syslog host keyed 1
    login class keyed 1
    redundancy container
    overload container
    teardown value
    deny-commands value
    allow-commands value
    destination-port list
    source-port list
    protocol list
    icmp-type list
    permissions list
    fill-level list
    drop-probability list
    from source-address container
    from destination-address container
    from source-prefix-list container
    from destination-prefix-list container
    """
}

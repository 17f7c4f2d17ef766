//! `[tcp]` and `[flows.tcp]`: bad values, profile layering, and the key
//! table (config/tcp.rs) read in full.

use super::*;

/// Bad inputs of this topic, checked by
/// [`bad_inputs_name_path_and_reason`](super::bad_inputs_name_path_and_reason).
pub(super) const BAD: &[Row] = &[
    (
        "unknown key in flows.tcp",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\ntcp = { msss = \"1 B\" }\n\n[trace]",
        )],
        "flows[0].tcp.msss",
        "did you mean \"mss\"?",
    ),
    (
        "unknown key in flows.tcp.rto",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n[flows.tcp.rto]\nminimum = \"1 s\"\n\n[trace]",
        )],
        "flows[0].tcp.rto.minimum",
        "allowed keys: estimator, initial, min, max",
    ),
    (
        "zero MSS",
        &[("mss = \"1000 B\"", "mss = \"0 B\"")],
        "tcp.mss",
        "it must be from 1 B to 65535 B",
    ),
    (
        "MSS over 65535",
        &[("mss = \"1000 B\"", "mss = \"64 KiB\"")],
        "tcp.mss",
        "found \"64 KiB\"; it must be from 1 B to 65535 B",
    ),
    (
        "MSS bare integer",
        &[("mss = \"1000 B\"", "mss = 1000")],
        "tcp.mss",
        "write a string such as \"1000 B\"",
    ),
    (
        "unknown variant",
        &[("mss = \"1000 B\"", "variant = \"cubic\"")],
        "tcp.variant",
        "expected one of \"tahoe\", \"reno\", \"newreno\", \"sack\"",
    ),
    (
        "cubic as a variant",
        &[("mss = \"1000 B\"", "variant = \"cubic\"")],
        "tcp.variant",
        "found \"cubic\"; window growth is chosen with congestion_control = \"cubic\"",
    ),
    (
        "unknown profile",
        &[("mss = \"1000 B\"", "profile = \"ns3\"")],
        "tcp.profile",
        "expected one of \"rfc\"",
    ),
    (
        "unknown profile in a flow group",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\ntcp = { profile = \"freebsd\" }\n\n[trace]",
        )],
        "flows[0].tcp.profile",
        "found \"freebsd\"",
    ),
    (
        "sack_blocks 5",
        &[("mss = \"1000 B\"", "sack_blocks = 5")],
        "tcp.sack_blocks",
        "an integer in 1..=4, found integer 5",
    ),
    (
        "unknown sack_recovery",
        &[("mss = \"1000 B\"", "sack_recovery = \"sack1\"")],
        "tcp.sack_recovery",
        "found \"sack1\"",
    ),
    (
        "unknown sack_option_size",
        &[("mss = \"1000 B\"", "sack_option_size = 8")],
        "tcp.sack_option_size",
        "\"ns2\"",
    ),
    (
        "integer written as float",
        &[("mss = \"1000 B\"", "sack_blocks = 2.0")],
        "tcp.sack_blocks",
        "without a decimal point",
    ),
    (
        "zero window",
        &[("mss = \"1000 B\"", "max_window = 0")],
        "tcp.max_window",
        "an integer number of segments >= 1, found integer 0",
    ),
    (
        "bad ssthresh word",
        &[("mss = \"1000 B\"", "initial_ssthresh = \"big\"")],
        "tcp.initial_ssthresh",
        "or \"infinite\"",
    ),
    (
        "bad ssthresh_basis",
        &[("mss = \"1000 B\"", "ssthresh_basis = \"flightsize\"")],
        "tcp.ssthresh_basis",
        "\"flight_size\", \"cwnd\"",
    ),
    (
        "bad frto",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\nfrto = \"sack\"")],
        "tcp.frto",
        "\"off\", \"linux\"",
    ),
    (
        "bad timestamps",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\ntimestamps = true")],
        "tcp.timestamps",
        "expected one of \"off\", \"linux\", found boolean true",
    ),
    (
        "bad dsack",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\ndsack = \"on\"")],
        "tcp.dsack",
        "\"off\", \"linux\"",
    ),
    (
        "rcvbuf starting above its maximum",
        &[(
            "mss = \"1000 B\"",
            "mss = \"1000 B\"\nrcvbuf = { enabled = true, initial = \"8 MiB\" }",
        )],
        "tcp.rcvbuf.initial",
        "expected rcvbuf.initial <= rcvbuf.max (tcp_rmem[1] <= tcp_rmem[2]), found 8388608 B and 6291456 B",
    ),
    (
        "rcvbuf truesize under the MSS",
        &[(
            "mss = \"1000 B\"",
            "mss = \"1000 B\"\nrcvbuf = { enabled = true, truesize = \"900 B\" }",
        )],
        "tcp.rcvbuf.truesize",
        "expected rcvbuf.truesize > mss",
    ),
    (
        "bad rcvbuf key",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\nrcvbuf = { quickacks = 3 }")],
        "tcp.rcvbuf.quickacks",
        "max_quickacks",
    ),
    (
        "ato without the receive-side model",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\nato = { enabled = true }")],
        "tcp.ato.enabled",
        "expected rcvbuf.enabled = true with ato.enabled = true",
    ),
    (
        "sack_compression without the receive-side model",
        &[(
            "mss = \"1000 B\"",
            "mss = \"1000 B\"\nsack_compression = { enabled = true }",
        )],
        "tcp.sack_compression.enabled",
        "expected rcvbuf.enabled = true with sack_compression.enabled = true",
    ),
    (
        "a HZ under 25",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\nhz = 10")],
        "tcp.hz",
        "(Linux's CONFIG_HZ: 100, 250, 300 or 1000)",
    ),
    (
        "the retired ato.hz",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\nato = { hz = 250 }")],
        "tcp.ato.hz",
        "unknown key",
    ),
    (
        "HyStart++ with Linux's integer CUBIC",
        &[(
            "mss = \"1000 B\"",
            "mss = \"1000 B\"\nprofile = \"linux\"\ncongestion_control = \"cubic\"\ncubic = { hystart = \"rfc9406\" }",
        )],
        "tcp.cubic.hystart",
        "Linux does not run RFC 9406's HyStart++",
    ),
    (
        "an unknown CUBIC arithmetic",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\ncubic = { arithmetic = \"bic\" }")],
        "tcp.cubic.arithmetic",
        "\"rfc9438\"",
    ),
    (
        "sack_compression.nr above 255",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\nsack_compression = { nr = 300 }")],
        "tcp.sack_compression.nr",
        "255",
    ),
    (
        "rack without SACK",
        &[("mss = \"1000 B\"", "mss = \"1000 B\"\nrack = true")],
        "tcp.rack",
        "expected variant = \"sack\" with sack_recovery = \"rfc6675\" for rack or tlp \
         (RFC 8985 reads the RFC 6675 SACK scoreboard), found variant = \"newreno\"",
    ),
    (
        "tlp with ns-2's Sack1 in a flow group",
        &[
            ("mss = \"1000 B\"", "mss = \"1000 B\"\nvariant = \"sack\""),
            (
                "to = \"b\"\n\n[trace]",
                "to = \"b\"\ntcp = { sack_recovery = \"ns2-sack1\", tlp = true }\n\n[trace]",
            ),
        ],
        "flows[0].tcp.tlp",
        "found variant = \"sack\" with sack_recovery = \"ns2-sack1\"",
    ),
    (
        "a flow group leaves SACK under rack",
        &[
            (
                "mss = \"1000 B\"",
                "mss = \"1000 B\"\nvariant = \"sack\"\nrack = true",
            ),
            (
                "to = \"b\"\n\n[trace]",
                "to = \"b\"\ntcp = { variant = \"reno\" }\n\n[trace]",
            ),
        ],
        "flows[0].tcp.variant",
        "found variant = \"reno\"",
    ),
    (
        "tlp_max_ack_delay without a unit",
        &[(
            "mss = \"1000 B\"",
            "mss = \"1000 B\"\ntlp_max_ack_delay = 200",
        )],
        "tcp.tlp_max_ack_delay",
        "a duration like",
    ),
    (
        "unknown prr bound",
        &[("mss = \"1000 B\"", "prr = \"rfc6937\"")],
        "tcp.prr",
        "expected one of \"off\", \"ssrb\", \"crb\", found \"rfc6937\"",
    ),
    (
        "prr as a boolean in a flow group",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\ntcp = { prr = true }\n\n[trace]",
        )],
        "flows[0].tcp.prr",
        "expected one of \"off\", \"ssrb\", \"crb\"",
    ),
    (
        "bad bnak_mode",
        &[(
            "mss = \"1000 B\"",
            "fto_detection = \"bnak\"\nbnak_mode = \"late\"",
        )],
        "tcp.bnak_mode",
        "expected one of \"yu2004\", \"early_response\"",
    ),
    (
        "delayed_ack not bool",
        &[("mss = \"1000 B\"", "delayed_ack = \"yes\"")],
        "tcp.delayed_ack",
        "expected true or false",
    ),
    (
        "partial_window_deflation not bool",
        &[("mss = \"1000 B\"", "partial_window_deflation = \"off\"")],
        "tcp.partial_window_deflation",
        "expected true or false",
    ),
    (
        "partial_window_deflation as 0/1 in a group",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\ntcp = { partial_window_deflation = 0 }\n\n[trace]",
        )],
        "flows[0].tcp.partial_window_deflation",
        "expected true or false",
    ),
    (
        "zero granularity",
        &[("mss = \"1000 B\"", "rto = { granularity = \"0 ms\" }")],
        "tcp.rto.granularity",
        "greater than zero",
    ),
    (
        "bad rto estimator",
        &[("mss = \"1000 B\"", "rto = { estimator = \"ns3\" }")],
        "tcp.rto.estimator",
        "\"rfc6298\", \"ns2\"",
    ),
    (
        "rto min > max",
        &[("mss = \"1000 B\"", "rto = { min = \"2 s\", max = \"1 s\" }")],
        "tcp.rto.min",
        "rto.min <= rto.max",
    ),
    (
        "rto min > max in a group",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\ntcp.rto.max = \"1 ms\"\n\n[trace]",
        )],
        "flows[0].tcp.rto.max",
        "rto.min <= rto.max",
    ),
    (
        "unknown congestion_control",
        &[("mss = \"1000 B\"", "congestion_control = \"bbr\"")],
        "tcp.congestion_control",
        "expected one of \"reno\", \"cubic\", found \"bbr\"",
    ),
    (
        "cubic beta of 1",
        &[("mss = \"1000 B\"", "cubic = { beta = 1.0 }")],
        "tcp.cubic.beta",
        "expected a number in (0, 1), exclusive, like 0.7 (RFC 9438 β_cubic), found",
    ),
    (
        "cubic beta of 0 in a group",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n[flows.tcp.cubic]\nbeta = 0\n\n[trace]",
        )],
        "flows[0].tcp.cubic.beta",
        "expected a number in (0, 1)",
    ),
    (
        "small queues with a pacing shift out of range",
        &[(
            "mss = \"1000 B\"",
            "small_queues = { enabled = true, pacing_shift = 40 }",
        )],
        "tcp.small_queues.pacing_shift",
        "40",
    ),
    (
        "small queues output limit of 0 in a group",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n[flows.tcp.small_queues]\nlimit_output_bytes = \"0 B\"\n\n[trace]",
        )],
        "flows[0].tcp.small_queues.limit_output_bytes",
        "it must be from 1 B",
    ),
    (
        "small queues with an unknown key",
        &[("mss = \"1000 B\"", "small_queues = { on = true }")],
        "tcp.small_queues.on",
        "enabled",
    ),
    (
        "a pacing ratio of 0",
        &[(
            "mss = \"1000 B\"",
            "pacing = { enabled = true, ss_ratio = 0 }",
        )],
        "tcp.pacing.ss_ratio",
        "0",
    ),
    (
        "pacing enabled as a number in a group",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n[flows.tcp.pacing]\nenabled = 1\n\n[trace]",
        )],
        "flows[0].tcp.pacing.enabled",
        "expected true or false",
    ),
    (
        "a pacing ratio moved from small_queues",
        &[(
            "mss = \"1000 B\"",
            "small_queues = { pacing_ss_ratio = 150 }",
        )],
        "tcp.small_queues.pacing_ss_ratio",
        "enabled",
    ),
    (
        "cwnd_limited_growth as a string",
        &[("mss = \"1000 B\"", "cwnd_limited_growth = \"yes\"")],
        "tcp.cwnd_limited_growth",
        "expected true or false",
    ),
    (
        "cubic beta as a string",
        &[("mss = \"1000 B\"", "cubic.beta = \"0.7\"")],
        "tcp.cubic.beta",
        "found \"0.7\"",
    ),
    (
        "cubic c of 0",
        &[(
            "mss = \"1000 B\"",
            "congestion_control = \"cubic\"\ncubic = { c = 0 }",
        )],
        "tcp.cubic.c",
        "expected a number > 0 like 0.4 (RFC 9438 C, segments/s³)",
    ),
    (
        "cubic c negative",
        &[("mss = \"1000 B\"", "cubic = { c = -0.4 }")],
        "tcp.cubic.c",
        "expected a number > 0",
    ),
    (
        "cubic fast_convergence not bool",
        &[("mss = \"1000 B\"", "cubic = { fast_convergence = 1 }")],
        "tcp.cubic.fast_convergence",
        "expected true or false",
    ),
    (
        "unknown cubic target_rtt",
        &[("mss = \"1000 B\"", "cubic = { target_rtt = \"rtt\" }")],
        "tcp.cubic.target_rtt",
        "expected one of \"srtt\", \"min_rtt\"",
    ),
    (
        "unknown key in tcp.cubic",
        &[("mss = \"1000 B\"", "cubic = { hystart_plus_plus = true }")],
        "tcp.cubic.hystart_plus_plus",
        "allowed keys: beta, c, fast_convergence",
    ),
    (
        "an unknown HyStart test",
        &[(
            "mss = \"1000 B\"",
            "cubic = { hystart = \"linux\", hystart_detect = \"rtt\" }",
        )],
        "tcp.cubic.hystart_detect",
        "\"train\", \"delay\", \"both\"",
    ),
    (
        "hystart as a boolean",
        &[("mss = \"1000 B\"", "cubic = { hystart = true }")],
        "tcp.cubic.hystart",
        "\"off\", \"linux\", \"rfc9406\"",
    ),
    (
        "HyStart's ACK delta as a number",
        &[(
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n[flows.tcp.cubic]\nhystart_ack_delta = 2\n\n[trace]",
        )],
        "flows[0].tcp.cubic.hystart_ack_delta",
        "",
    ),
    (
        "huge window",
        &[("mss = \"1000 B\"", "rwnd = 4294967296")],
        "tcp.rwnd",
        "at most 4294967295, found integer 4294967296",
    ),
];

#[test]
fn overrides_layer_and_flows_expand_in_order() {
    let text = r#"
        [simulation]
        duration = "20 s"
        seed = 7
        stop = "flows_done"
        routing = "delay"
        [tcp]
        profile = "ns2"
        mss = "1460 B"
        initial_ssthresh = 32
        [tcp.rto]
        min = "200 ms"
        [[nodes]]
        name = "x0"
        [[nodes]]
        name = "x1"
        [[nodes]]
        name = "hub"
        [[nodes]]
        name = "y"
        [[links]]
        from = "x0"
        to = "hub"
        rate = "1 Gb/s"
        delay = "1 ms"
        [[links]]
        from = "x1"
        to = "hub"
        rate = "1 Gb/s"
        delay = "1 ms"
        [[links]]
        from = "hub"
        to = "y"
        rate = "1 Gb/s"
        delay = "1 ms"
        buffer = "64 KB"
        [[flows]]
        from = ["x0", "x1"]
        to = "y"
        count = 2
        size = "1 MB"
        [flows.tcp]
        variant = "sack"
        initial_ssthresh = "infinite"
        [flows.tcp.rto]
        max = "10 s"
        [[flows]]
        name = "back"
        from = "y"
        to = "x1"
        start = "1.5 s"
        tcp = { profile = "rfc", mss = "536 B" }
    "#;
    let s = ok(text);
    assert_eq!(
        (s.seed, s.stop_when_flows_done, s.routing),
        (7, true, Routing::Delay)
    );
    assert_eq!(s.name, "scenario");
    assert_eq!(s.links[2].buffer, Buffer::Bytes(64_000));
    let ids: Vec<(u32, u32, u32, &str)> = s
        .flows
        .iter()
        .map(|f| (f.id.0, f.src.0, f.dst.0, f.group.as_str()))
        .collect();
    assert_eq!(
        ids,
        [
            (0, 0, 3, "flows[0]"),
            (1, 0, 3, "flows[0]"),
            (2, 1, 3, "flows[0]"),
            (3, 1, 3, "flows[0]"),
            (4, 3, 1, "back")
        ]
    );
    // Group 0: ns2 profile <- [tcp] <- [flows.tcp].
    let mut g0 = profile("ns2").unwrap();
    g0.mss = 1460;
    g0.initial_ssthresh = u32::MAX;
    g0.variant = Variant::Sack;
    g0.rto.min = SimDuration::from_millis(200);
    g0.rto.max = SimDuration::from_secs(10);
    assert_eq!(s.flows[0].tcp, g0);
    assert_eq!(s.flows[0].app, AppSpec::Bulk(Some(1_000_000)));
    // Group 1 switches profile; [tcp] keys still apply on top of it.
    let mut g1 = profile("rfc").unwrap();
    g1.mss = 536;
    g1.initial_ssthresh = 32;
    g1.rto.min = SimDuration::from_millis(200);
    assert_eq!(s.flows[4].tcp, g1);
    assert_eq!(s.flows[4].start, StartSpec::At(SimTime(1_500_000_000)));
    assert_eq!(
        s.flows[4].tcp.ssthresh_basis,
        profile("rfc").unwrap().ssthresh_basis
    );
    let _ = SsthreshBasis::Cwnd;
}

#[test]
fn partial_window_deflation_follows_profile_then_overrides() {
    // ns2-2003: off (ns-2 `partial_window_deflation_ 0` before 2003-05-05).
    let s = ok(&edit(&[("mss = \"1000 B\"", "profile = \"ns2-2003\"")]));
    assert!(!s.flows[0].tcp.partial_window_deflation);
    // Every other profile deflates (RFC 6582 §3.2 step 5).
    for p in ["rfc", "ns2", "ns2-2004"] {
        let line = format!("profile = \"{p}\"");
        let s = ok(&edit(&[("mss = \"1000 B\"", line.as_str())]));
        assert!(s.flows[0].tcp.partial_window_deflation, "{p}");
    }
    // [tcp] sets it on top of the profile; a group's [flows.tcp] wins.
    let s = ok(&edit(&[
        (
            "mss = \"1000 B\"",
            "profile = \"ns2-2003\"\npartial_window_deflation = true",
        ),
        (
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\ntcp = { partial_window_deflation = false }\n\n[trace]",
        ),
    ]));
    assert!(s.flows[0].tcp.partial_window_deflation);
    assert!(!s.flows[1].tcp.partial_window_deflation);
    assert!(
        s.flows[0].tcp.newreno_slow_but_steady,
        "the rest of ns2-2003 stays"
    );
}

#[test]
fn bnak_mode_defaults_then_layers() {
    use crate::tcp::config::{BnakMode, FtoDetection};
    let mode = |s: &Scenario, i: usize| match s.flows[i].tcp.fto {
        FtoDetection::Bnak { mode, .. } => mode,
        other => panic!("not BNAK: {other:?}"),
    };
    let s = ok(&edit(&[("mss = \"1000 B\"", "fto_detection = \"bnak\"")]));
    assert_eq!(mode(&s, 0), crate::config::tcp::DEFAULT_BNAK_MODE);
    // [tcp] sets it; a group keeps it unless it changes it.
    let s = ok(&edit(&[
        (
            "mss = \"1000 B\"",
            "fto_detection = \"bnak\"\nbnak_mode = \"early_response\"",
        ),
        (
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\ntcp = { max_consecutive_fto = 2 }\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\ntcp = { bnak_mode = \"yu2004\" }\n\n[trace]",
        ),
    ]));
    assert_eq!(mode(&s, 0), BnakMode::EarlyResponse);
    assert_eq!(mode(&s, 1), BnakMode::EarlyResponse);
    assert_eq!(mode(&s, 2), BnakMode::Yu2004);
}

#[test]
fn congestion_control_and_cubic_keys_layer() {
    use crate::tcp::config::{CongestionControl, CubicConfig, CubicRtt};
    // Every profile grows by RFC 5681 with RFC 9438's CUBIC parameters
    // ready.
    let s = ok(&BASE);
    assert_eq!(s.flows[0].tcp.congestion_control, CongestionControl::Reno);
    assert_eq!(s.flows[0].tcp.cubic, CubicConfig::RFC9438);
    // [tcp] picks CUBIC and Linux's β; a group keeps them and changes C
    // and the target RTT; another goes back to Reno.
    let s = ok(&edit(&[
        (
            "mss = \"1000 B\"",
            "congestion_control = \"cubic\"\ncubic = { beta = 0.7001953125 }",
        ),
        (
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n[flows.tcp.cubic]\nc = 1\ntarget_rtt = \"min_rtt\"\nfast_convergence = false\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\ntcp = { congestion_control = \"reno\" }\n\n[trace]",
        ),
    ]));
    let t: Vec<_> = s
        .flows
        .iter()
        .map(|f| (f.tcp.congestion_control, f.tcp.cubic))
        .collect();
    let linux_beta = CubicConfig {
        beta: 717.0 / 1024.0,
        ..CubicConfig::RFC9438
    };
    assert_eq!(t[0], (CongestionControl::Cubic, linux_beta));
    assert_eq!(
        t[1],
        (
            CongestionControl::Cubic,
            CubicConfig {
                c: 1.0,
                fast_convergence: false,
                target_rtt: CubicRtt::MinRtt,
                ..linux_beta
            }
        )
    );
    assert_eq!(t[2].0, CongestionControl::Reno);
}

#[test]
fn small_queues_and_cwnd_limited_growth_layer() {
    use crate::tcp::config::SmallQueuesConfig;
    // Off everywhere but the linux profile; [tcp] turns them on and a group
    // changes one constant and keeps the rest.
    let s = ok(&BASE);
    assert_eq!(s.flows[0].tcp.small_queues, SmallQueuesConfig::OFF);
    assert!(!s.flows[0].tcp.cwnd_limited_growth);
    let s = ok(&edit(&[
        (
            "mss = \"1000 B\"",
            "small_queues = { enabled = true }\ncwnd_limited_growth = true",
        ),
        (
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n[flows.tcp.small_queues]\nlimit_output_bytes = \"256 KiB\"\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\ntcp = { profile = \"linux\" }\n\n[trace]",
        ),
    ]));
    assert_eq!(s.flows[0].tcp.small_queues, SmallQueuesConfig::LINUX);
    assert!(s.flows[0].tcp.cwnd_limited_growth);
    assert_eq!(
        s.flows[1].tcp.small_queues,
        SmallQueuesConfig {
            limit_output_bytes: 262_144,
            ..SmallQueuesConfig::LINUX
        }
    );
    assert_eq!(s.flows[2].tcp.small_queues, SmallQueuesConfig::LINUX);
    assert!(s.flows[2].tcp.cwnd_limited_growth);
}

#[test]
fn pacing_layers() {
    use crate::tcp::config::PacingConfig;
    // Off in every profile; [tcp] turns it on, a group changes one ratio
    // and keeps the rest, and a group of another profile still gets
    // [tcp]'s keys over its profile's.
    let s = ok(&BASE);
    assert_eq!(s.flows[0].tcp.pacing, PacingConfig::OFF);
    let s = ok(&edit(&[
        ("mss = \"1000 B\"", "pacing = { enabled = true }"),
        (
            "to = \"b\"\n\n[trace]",
            "to = \"b\"\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n[flows.tcp.pacing]\nca_ratio = 100\n\n[[flows]]\nfrom = \"a\"\nto = \"b\"\ntcp = { profile = \"linux\" }\n\n[trace]",
        ),
    ]));
    let on = PacingConfig {
        enabled: true,
        ..PacingConfig::OFF
    };
    assert_eq!(s.flows[0].tcp.pacing, on);
    assert_eq!(
        s.flows[1].tcp.pacing,
        PacingConfig {
            ca_ratio: 100,
            ..on
        }
    );
    assert_eq!(s.flows[2].tcp.pacing, on);
    assert!(s.flows[2].tcp.small_queues.enabled);
}

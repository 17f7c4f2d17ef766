//! OBS: edge nodes (`[nodes.assembly]`), optical links (`burst_loss`) and
//! `[metrics]`.

use std::sync::LazyLock;

use super::*;
use crate::test_support::{links, nodes, optical_links};

/// A small valid OBS scenario: host -> edge ==optical== edge -> host.
pub(super) static OBS_BASE: LazyLock<String> = LazyLock::new(|| {
    let assembly = "[nodes.assembly]\ntrigger = \"timer\"\ntimeout = \"1 ms\"\nselection = \"per_egress\"\nqueues = 2\n";
    [
        "\n[simulation]\nduration = \"10 s\"\n\n",
        &nodes("a:host E1:edge"),
        assembly,
        &nodes("E2:edge"),
        "[nodes.assembly]\ntimeout = \"1 ms\"\n",
        &nodes("b:host"),
        "\n",
        &links("a-E1", "100 Mbit/s", "1 ms"),
        &optical_links("E1-E2", None, "1 Gbit/s", "5 ms"),
        "burst_loss = { p = 0.01, pattern = \"random\" }\n",
        &links("E2-b", "100 Mbit/s", "1 ms"),
        "\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n",
    ]
    .concat()
});

#[track_caller]
pub(super) fn obs_edit(edits: &[(&str, &str)]) -> String {
    apply_edits(&OBS_BASE, edits)
}

pub(super) const OBS_BAD: &[Row] = &[
    (
        "single pattern without index",
        &[("pattern = \"random\"", "pattern = \"single\"")],
        "links[1].burst_loss.index",
        "required key is missing",
    ),
    (
        "index given for random",
        &[("pattern = \"random\"", "pattern = \"random\", index = 3")],
        "links[1].burst_loss.index",
        "only read by pattern",
    ),
    (
        "edge without assembly",
        &[(
            "timeout = \"1 ms\"\n[[nodes]]\nname = \"b\"",
            "[[nodes]]\nname = \"b\"",
        )],
        "nodes[2].assembly.timeout",
        "required key is missing",
    ),
    (
        "assembly on a router",
        &[(
            "name = \"E2\"\nkind = \"edge\"",
            "name = \"E2\"\nkind = \"router\"",
        )],
        "nodes[2].assembly",
        "only edge nodes",
    ),
    (
        "unknown trigger",
        &[("trigger = \"timer\"", "trigger = \"clock\"")],
        "nodes[1].assembly.trigger",
        "\"timer\", \"size\", \"hybrid\"",
    ),
    (
        "size trigger without max_size",
        &[("trigger = \"timer\"", "trigger = \"size\"")],
        "nodes[1].assembly.max_size",
        "required key is missing",
    ),
    (
        "max_size with timer trigger",
        &[(
            "trigger = \"timer\"",
            "trigger = \"timer\"\nmax_size = \"10 packets\"",
        )],
        "nodes[1].assembly.max_size",
        "only read by trigger",
    ),
    (
        "zero max_size",
        &[(
            "trigger = \"timer\"",
            "trigger = \"hybrid\"\nmax_size = \"0 packets\"",
        )],
        "nodes[1].assembly.max_size",
        "greater than zero",
    ),
    (
        "per_egress without queues",
        &[("queues = 2\n", "")],
        "nodes[1].assembly.queues",
        "required key is missing",
    ),
    (
        "zero queues",
        &[("queues = 2", "queues = 0")],
        "nodes[1].assembly.queues",
        "expected an integer in 1..=",
    ),
    (
        "mapping on mixed flow",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "mapping = \"random\"",
        )],
        "nodes[1].assembly.mapping",
        "only read by selection",
    ),
    (
        "window without thresholds",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "selection = \"window\"",
        )],
        "nodes[1].assembly.thresholds",
        "required key is missing",
    ),
    (
        "window thresholds out of order",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "selection = \"window\"\nthresholds = [100, 32]",
        )],
        "nodes[1].assembly.thresholds",
        "expected B <= C",
    ),
    (
        "unknown window source",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "selection = \"window\"\nthresholds = [32, 100]\nwindow_source = \"ack_clock\"",
        )],
        "nodes[1].assembly.window_source",
        "\"sender\", \"estimated\"",
    ),
    (
        "window source on a timer queue",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "window_source = \"estimated\"",
        )],
        "nodes[1].assembly.window_source",
        "only read by selection",
    ),
    (
        "rtt fallback with the sender's window",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "selection = \"window\"\nthresholds = [32, 100]\nrtt_fallback = \"50 ms\"",
        )],
        "nodes[1].assembly.rtt_fallback",
        "only read by window_source = \"estimated\"",
    ),
    (
        "zero rtt fallback",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "selection = \"window\"\nthresholds = [32, 100]\nwindow_source = \"estimated\"\nrtt_fallback = \"0 s\"",
        )],
        "nodes[1].assembly.rtt_fallback",
        "greater than zero",
    ),
    (
        "window needs three timers",
        &[(
            "selection = \"per_egress\"\nqueues = 2",
            "selection = \"window\"\nthresholds = [32, 100]\ntimers = [\"1 ms\", \"5 ms\"]",
        )],
        "nodes[1].assembly.timers",
        "exactly 3",
    ),
    (
        "unknown dmq allocation",
        &[(
            "selection = \"per_egress\"",
            "selection = \"dmq\"\nallocation = \"greedy\"",
        )],
        "nodes[1].assembly.allocation",
        "\"proactive\", \"a_posteriori\"",
    ),
    (
        "unknown acks mode",
        &[(
            "trigger = \"timer\"",
            "trigger = \"timer\"\nacks = \"drop\"",
        )],
        "nodes[1].assembly.acks",
        "\"bypass\", \"assemble\"",
    ),
    (
        "unknown assembly key",
        &[(
            "trigger = \"timer\"",
            "trigger = \"timer\"\ntimout = \"1 ms\"",
        )],
        "nodes[1].assembly.timout",
        "did you mean \"timeout\"?",
    ),
    (
        "buffer on an optical link",
        &[(
            "kind = \"optical\"",
            "kind = \"optical\"\nbuffer = \"10 packets\"",
        )],
        "links[1].buffer",
        "unlimited electronic burst queue",
    ),
    (
        "burst loss on an electronic link",
        &[("kind = \"optical\"\n", "")],
        "links[1].burst_loss",
        "only optical links",
    ),
    (
        "unknown link kind",
        &[("kind = \"optical\"", "kind = \"wireless\"")],
        "links[1].kind",
        "\"electronic\", \"optical\"",
    ),
    (
        "burst loss p out of range",
        &[("p = 0.01, pattern", "p = 2.0, pattern")],
        "links[1].burst_loss.p",
        "[0, 1]",
    ),
    (
        "batch pattern without batch",
        &[("pattern = \"random\"", "pattern = \"batch\"")],
        "links[1].burst_loss.batch",
        "required key is missing",
    ),
    (
        "batch given for random",
        &[("pattern = \"random\"", "pattern = \"random\", batch = 4")],
        "links[1].burst_loss.batch",
        "only read by pattern",
    ),
    (
        "burst loss names a missing flow",
        &[("pattern = \"random\"", "pattern = \"random\", flow = 7")],
        "links[1].burst_loss.flow",
        "expected a flow id in 0..=0",
    ),
    (
        "zero metrics interval",
        &[(
            "[[flows]]",
            "[metrics]\nsample_interval = \"0 s\"\n\n[[flows]]",
        )],
        "metrics.sample_interval",
        "greater than zero",
    ),
];

#[test]
fn obs_scenario_resolves() {
    use crate::obs::assembly::{FlowMapping, Selection, Trigger, WindowSource};
    use crate::obs::loss::BurstLossPattern;
    let s = ok(&OBS_BASE);
    assert_eq!(s.nodes[1].kind, NodeKind::Edge);
    let e = s.nodes[1].edge.as_ref().unwrap();
    assert_eq!(
        e.assembly.trigger,
        Trigger::Timer(SimDuration::from_millis(1))
    );
    assert_eq!(
        e.assembly.selection,
        Selection::PerEgress {
            m: 2,
            mapping: FlowMapping::Modulo
        }
    );
    assert_eq!(e.acks, crate::config::scenario::AckHandling::Bypass);
    assert_eq!(
        s.nodes[2].edge.as_ref().unwrap().assembly.selection,
        Selection::MixedFlow
    );
    let o = s.links[1].optical.as_ref().unwrap();
    assert_eq!(
        o.burst_loss.as_ref().unwrap().pattern,
        BurstLossPattern::Random
    );
    assert!(o.reverse_burst_loss.is_none());
    assert_eq!(s.links[1].buffer, Buffer::Unlimited);
    assert!(s.links[0].optical.is_none());
    assert_eq!(s.metrics.sample_interval, SimDuration::from_millis(700));
    let w = ok(&obs_edit(&[(
        "selection = \"per_egress\"\nqueues = 2",
        "selection = \"window\"\nthresholds = [32, 128]",
    )]));
    match &w.nodes[1].edge.as_ref().unwrap().assembly.selection {
        Selection::WindowBased {
            b,
            c,
            timers,
            source,
        } => {
            assert!((b - 32.0).abs() < 1e-12 && (c - 128.0).abs() < 1e-12);
            assert_eq!(timers[2], SimDuration::from_millis(10));
            assert_eq!(*source, WindowSource::Sender, "the papers' default");
        }
        other => panic!("{other:?}"),
    }
    // B = C: the papers' one-threshold rows (ramantas2007 Table 1 "32",
    // "200"); an estimated window with its fallback.
    let w = ok(&obs_edit(&[(
        "selection = \"per_egress\"\nqueues = 2",
        "selection = \"window\"\nthresholds = [32, 32]\nwindow_source = \"estimated\"\nrtt_fallback = \"40 ms\"",
    )]));
    match &w.nodes[1].edge.as_ref().unwrap().assembly.selection {
        Selection::WindowBased { b, c, source, .. } => {
            assert_eq!((*b, *c), (32.0, 32.0));
            assert_eq!(
                *source,
                WindowSource::Estimated {
                    rtt_fallback: SimDuration::from_millis(40)
                }
            );
        }
        other => panic!("{other:?}"),
    }
    let w = ok(&obs_edit(&[(
        "selection = \"per_egress\"\nqueues = 2",
        "selection = \"window\"\nthresholds = [32, 100]\nwindow_source = \"estimated\"",
    )]));
    match &w.nodes[1].edge.as_ref().unwrap().assembly.selection {
        Selection::WindowBased { source, .. } => assert_eq!(
            *source,
            WindowSource::Estimated {
                rtt_fallback: WindowSource::DEFAULT_RTT_FALLBACK
            }
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_unknown_link_kind_is_reported_once_not_again_at_its_burst_loss() {
    // The kind is unknown, not electronic: `burst_loss` is checked as given
    // and raises no "only optical links" error of its own.
    let e = errors_of(&obs_edit(&[("kind = \"optical\"", "kind = \"wireless\"")]));
    let paths: Vec<&str> = e.errors.iter().map(|x| x.path.as_str()).collect();
    assert_eq!(paths, ["links[1].kind"], "{e}");
}

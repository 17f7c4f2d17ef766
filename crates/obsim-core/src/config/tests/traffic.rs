//! `[[traffic]]`: UDP cross-traffic sources.

use super::*;

/// `BASE` plus one on/off source from `a` to `b`.
pub(super) const TRAFFIC: &str = r#"
[[traffic]]
name = "udp"
kind = "onoff"
from = "a"
to = "b"
rate = "2 Mbit/s"
on = "500 ms"
off = "500 ms"
"#;

#[track_caller]
pub(super) fn traffic_edit(edits: &[(&str, &str)]) -> String {
    apply_edits(&format!("{}{TRAFFIC}", *BASE), edits)
}

pub(super) const TRAFFIC_BAD: &[Row] = &[
    (
        "missing kind",
        &[("kind = \"onoff\"\n", "")],
        "traffic[0].kind",
        "required key is missing: expected one of \"cbr\", \"onoff\"",
    ),
    (
        "unknown kind",
        &[("kind = \"onoff\"", "kind = \"poisson\"")],
        "traffic[0].kind",
        "expected one of \"cbr\", \"onoff\", found \"poisson\"",
    ),
    (
        "kind in the wrong case",
        &[("kind = \"onoff\"", "kind = \"CBR\"")],
        "traffic[0].kind",
        "did you mean \"cbr\"?",
    ),
    (
        "missing rate",
        &[("rate = \"2 Mbit/s\"\n", "")],
        "traffic[0].rate",
        "required key is missing: expected a positive bit rate",
    ),
    (
        "zero rate",
        &[("rate = \"2 Mbit/s\"", "rate = \"0 Mbit/s\"")],
        "traffic[0].rate",
        "greater than zero",
    ),
    (
        "rate without unit",
        &[("rate = \"2 Mbit/s\"", "rate = 2000000")],
        "traffic[0].rate",
        "a bare number has no unit",
    ),
    (
        "packet too large",
        &[("rate = \"2 Mbit/s\"", "rate = \"2 Mbit/s\"\npacket = \"70000 B\"")],
        "traffic[0].packet",
        "from 1 B to 65535 B",
    ),
    (
        "zero packet",
        &[("rate = \"2 Mbit/s\"", "rate = \"2 Mbit/s\"\npacket = \"0 B\"")],
        "traffic[0].packet",
        "from 1 B to 65535 B",
    ),
    (
        "onoff without on",
        &[("on = \"500 ms\"\n", "")],
        "traffic[0].on",
        "required key is missing: expected the mean on (burst) time",
    ),
    (
        "onoff without off",
        &[("off = \"500 ms\"\n", "")],
        "traffic[0].off",
        "required key is missing: expected the mean off (idle) time",
    ),
    (
        "zero off time",
        &[("off = \"500 ms\"", "off = \"0 s\"")],
        "traffic[0].off",
        "greater than zero",
    ),
    (
        "on given for cbr",
        &[("kind = \"onoff\"", "kind = \"cbr\""), ("off = \"500 ms\"\n", "")],
        "traffic[0].on",
        "only read by kind = \"onoff\"",
    ),
    (
        "distribution given for cbr",
        &[
            ("kind = \"onoff\"", "kind = \"cbr\""),
            ("on = \"500 ms\"\noff = \"500 ms\"", "distribution = \"fixed\""),
        ],
        "traffic[0].distribution",
        "only read by kind = \"onoff\"",
    ),
    (
        "unknown distribution",
        &[("off = \"500 ms\"", "off = \"500 ms\"\ndistribution = \"pareto\"")],
        "traffic[0].distribution",
        "expected one of \"exponential\", \"fixed\"",
    ),
    (
        "unknown source node",
        &[("from = \"a\"\nto = \"b\"\nrate", "from = \"q\"\nto = \"b\"\nrate")],
        "traffic[0].from",
        "no such node",
    ),
    (
        "empty source list",
        &[("from = \"a\"\nto = \"b\"\nrate", "from = []\nto = \"b\"\nrate")],
        "traffic[0].from",
        "non-empty list of node names, found an empty array",
    ),
    (
        "missing destination",
        &[("from = \"a\"\nto = \"b\"\nrate", "from = \"a\"\nrate")],
        "traffic[0].to",
        "required key is missing",
    ),
    (
        "to itself",
        &[("from = \"a\"\nto = \"b\"\nrate", "from = \"a\"\nto = \"a\"\nrate")],
        "traffic[0].to",
        "cannot send from node \"a\" to itself",
    ),
    (
        "list lengths differ",
        &[(
            "from = \"a\"\nto = \"b\"\nrate",
            "from = [\"a\", \"r\", \"b\"]\nto = [\"b\", \"a\"]\nrate",
        )],
        "traffic[0].to",
        "a list as long as `from` (3 names), found a list of 2 names",
    ),
    (
        "unreachable destination",
        &[
            ("[[nodes]]\nname = \"r\"", "[[nodes]]\nname = \"z\"\n\n[[nodes]]\nname = \"r\""),
            ("from = \"a\"\nto = \"b\"\nrate", "from = \"a\"\nto = \"z\"\nrate"),
        ],
        "traffic[0].to",
        "no route from node \"a\" to node \"z\"",
    ),
    (
        "unknown key",
        &[("rate = \"2 Mbit/s\"", "rtae = \"2 Mbit/s\"")],
        "traffic[0].rtae",
        "did you mean \"rate\"?",
    ),
    (
        "zero count",
        &[("rate = \"2 Mbit/s\"", "rate = \"2 Mbit/s\"\ncount = 0")],
        "traffic[0].count",
        "expected an integer in 1..=",
    ),
    (
        "start after the end",
        &[("rate = \"2 Mbit/s\"", "rate = \"2 Mbit/s\"\nstart = \"20 s\"")],
        "traffic[0].start",
        "earlier than simulation.duration",
    ),
    (
        "stop before start",
        &[(
            "rate = \"2 Mbit/s\"",
            "rate = \"2 Mbit/s\"\nstart = [\"1 s\", \"3 s\"]\nstop = \"2 s\"",
        )],
        "traffic[0].stop",
        "expected a stop time later than the (latest) start 3 s",
    ),
    (
        "stop without unit",
        &[("rate = \"2 Mbit/s\"", "rate = \"2 Mbit/s\"\nstop = 5")],
        "traffic[0].stop",
        "a bare number has no unit",
    ),
    (
        "duplicate group name",
        &[("off = \"500 ms\"\n", "off = \"500 ms\"\n\n[[traffic]]\nname = \"udp\"\nkind = \"cbr\"\nfrom = \"b\"\nto = \"a\"\nrate = \"1 Mbit/s\"\n")],
        "traffic[1].name",
        "duplicate traffic group name \"udp\" (also traffic[0])",
    ),
    (
        "traffic not an array of tables",
        &[("[[traffic]]\nname = \"udp\"\nkind = \"onoff\"\nfrom = \"a\"\nto = \"b\"\nrate = \"2 Mbit/s\"\non = \"500 ms\"\noff = \"500 ms\"\n", ""), ("name = \"t\"", "name = \"t\"\ntraffic = 3")],
        "traffic",
        "expected an array of tables ([[traffic]])",
    ),
    (
        "too many sources in total",
        &[("kind = \"onoff\"\nfrom = \"a\"", "kind = \"onoff\"\nfrom = [\"a\", \"r\"]\ncount = 1000000")],
        "traffic[0].count",
        "a scenario may have at most 1000000 traffic sources in total",
    ),
];

#[test]
fn traffic_resolves_with_defaults_and_expands() {
    use crate::config::traffic::{OnOffDistribution, TrafficModel, DEFAULT_PACKET_BYTES};
    let s = ok(&traffic_edit(&[]));
    assert_eq!(s.traffic.len(), 1);
    let t = &s.traffic[0];
    assert_eq!((t.id, t.src, t.dst), (0, NodeId(0), NodeId(2)));
    assert_eq!(t.group, "udp");
    assert_eq!(t.rate_bps, 2_000_000);
    assert_eq!(t.packet_bytes, DEFAULT_PACKET_BYTES);
    assert_eq!(t.start, StartSpec::At(SimTime::ZERO));
    assert_eq!(t.stop, None);
    assert_eq!(
        t.model,
        TrafficModel::OnOff {
            on: SimDuration::from_millis(500),
            off: SimDuration::from_millis(500),
            distribution: OnOffDistribution::Exponential,
        }
    );
    // Lists and counts expand like flows: pair by pair, count per pair.
    let s = ok(&traffic_edit(&[
        ("kind = \"onoff\"", "kind = \"cbr\""),
        (
            "on = \"500 ms\"\noff = \"500 ms\"",
            "count = 2\npacket = \"210 B\"\nstart = [\"0 s\", \"1 s\"]\nstop = \"5 s\"",
        ),
        (
            "from = \"a\"\nto = \"b\"\nrate",
            "from = [\"a\", \"b\"]\nto = [\"b\", \"a\"]\nrate",
        ),
    ]));
    let got: Vec<(u32, u32, u32)> = s.traffic.iter().map(|t| (t.id, t.src.0, t.dst.0)).collect();
    assert_eq!(got, vec![(0, 0, 2), (1, 0, 2), (2, 2, 0), (3, 2, 0)]);
    assert!(s.traffic.iter().all(|t| t.model == TrafficModel::Cbr
        && t.packet_bytes == 210
        && t.stop == Some(SimTime::from_secs_f64(5.0))));
    // Absent [[traffic]]: no sources; JSON reads the same keys.
    assert!(ok(&BASE).traffic.is_empty());
    let json = serde_json::json!({
        "simulation": {"duration": "1 s"},
        "nodes": [{"name": "a", "kind": "host"}, {"name": "b", "kind": "host"}],
        "links": [{"from": "a", "to": "b", "rate": "1 Mbit/s", "delay": "1 ms"}],
        "traffic": [{"kind": "onoff", "from": "a", "to": "b", "rate": "1 Mbit/s", "on": "1 s", "off": "1 s", "distribution": "fixed"}],
    });
    let j = parse_json(&json.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(j.traffic[0].group, "traffic[0]");
    assert!(matches!(
        j.traffic[0].model,
        TrafficModel::OnOff {
            distribution: OnOffDistribution::Fixed,
            ..
        }
    ));
}

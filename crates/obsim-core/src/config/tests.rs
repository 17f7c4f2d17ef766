//! Tests of the scenario schema: every class of bad input names its key path
//! and says why; good files resolve with defaults and layering applied; no
//! input makes the parser panic.

use super::scenario::{AppSpec, Buffer, LossSpec, NodeKind, Routing, StartSpec};
use super::{parse_json, parse_toml, to_json, ConfigErrors, Scenario};
use crate::ids::{FlowId, NodeId};
use crate::tcp::config::{SsthreshBasis, Variant};
use crate::tcp::profile::profile;
use crate::time::{SimDuration, SimTime};

const DUMBBELL: &str = include_str!("../../../../scenarios/dumbbell.toml");
const SINGLE_FLOW: &str = include_str!("../../../../scenarios/single_flow.toml");

/// A small valid scenario; bad inputs are edits of it.
const BASE: &str = r#"
name = "t"

[simulation]
duration = "10 s"

[tcp]
mss = "1000 B"

[[nodes]]
name = "a"
kind = "host"

[[nodes]]
name = "r"

[[nodes]]
name = "b"
kind = "host"

[[links]]
from = "a"
to = "r"
rate = "100 Mbit/s"
delay = "1 ms"

[[links]]
from = "r"
to = "b"
rate = "1 Gbit/s"
delay = "5 ms"
loss = { model = "bernoulli", p = 0.01 }

[[flows]]
name = "f"
from = "a"
to = "b"

[trace]
cwnd = true
"#;

/// `base` with each `(old, new)` applied once, in order; panics if `old` is
/// not found (a broken test row, not a parser bug).
#[track_caller]
fn apply_edits(base: &str, edits: &[(&str, &str)]) -> String {
    let mut s = base.to_string();
    for (old, new) in edits {
        assert!(
            s.contains(old),
            "test row edits {old:?}, which its base lacks"
        );
        s = s.replacen(old, new, 1);
    }
    s
}

/// `BASE` with `edits` applied (see [`apply_edits`]).
#[track_caller]
fn edit(edits: &[(&str, &str)]) -> String {
    apply_edits(BASE, edits)
}

#[track_caller]
fn errors_of(text: &str) -> ConfigErrors {
    match parse_toml(text) {
        Ok(s) => panic!("expected errors, parsed fine: {s:?}\n--- input ---\n{text}"),
        Err(e) => e,
    }
}

#[track_caller]
fn ok(text: &str) -> Scenario {
    parse_toml(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn base_is_valid() {
    let s = ok(BASE);
    assert_eq!(s.flows.len(), 1);
}

/// One row per class of bad input: the edit, the exact path, a fragment of
/// the reason.
type Row = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);
const BAD: &[Row] = &[
    ("unknown top-level key", &[("name = \"t\"", "name = \"t\"\nnmae = 1")], "nmae", "did you mean \"name\"?"),
    ("unknown key in a link", &[("delay = \"1 ms\"", "dealy = \"1 ms\"")], "links[0].dealy", "did you mean \"delay\"?"),
    (
        "unknown key lists allowed",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nqq = 1")],
        "links[0].qq",
        "allowed keys: from, to, rate",
    ),
    (
        "unknown key in flows.tcp",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\ntcp = { msss = \"1 B\" }\n\n[trace]")],
        "flows[0].tcp.msss",
        "did you mean \"mss\"?",
    ),
    (
        "unknown key in flows.tcp.rto",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\n[flows.tcp.rto]\nminimum = \"1 s\"\n\n[trace]")],
        "flows[0].tcp.rto.minimum",
        "allowed keys: estimator, initial, min, max",
    ),
    (
        "unknown key in [simulation]",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nsed = 3")],
        "simulation.sed",
        "did you mean \"seed\"?",
    ),
    ("missing required duration", &[("duration = \"10 s\"", "")], "simulation.duration", "required key is missing"),
    (
        "missing [simulation]",
        &[("[simulation]\nduration = \"10 s\"", "")],
        "simulation.duration",
        "required key is missing",
    ),
    (
        "wrong type: bool for duration",
        &[("duration = \"10 s\"", "duration = true")],
        "simulation.duration",
        "found boolean true",
    ),
    (
        "bare number duration",
        &[("duration = \"10 s\"", "duration = 10")],
        "simulation.duration",
        "a bare number has no unit",
    ),
    (
        "bare number in string",
        &[("duration = \"10 s\"", "duration = \"10\"")],
        "simulation.duration",
        "a unit is required, e.g. \"10 ms\"",
    ),
    ("zero duration", &[("duration = \"10 s\"", "duration = \"0 s\"")], "simulation.duration", "greater than zero"),
    (
        "negative delay",
        &[("delay = \"1 ms\"", "delay = \"-1 ms\"")],
        "links[0].delay",
        "negative values are not allowed",
    ),
    ("unknown duration unit", &[("delay = \"1 ms\"", "delay = \"1 sec\"")], "links[0].delay", "unknown unit \"sec\""),
    (
        "fractional nanoseconds",
        &[("delay = \"1 ms\"", "delay = \"0.5 ns\"")],
        "links[0].delay",
        "not a whole number of nanoseconds",
    ),
    ("missing delay", &[("delay = \"1 ms\"", "")], "links[0].delay", "required key is missing"),
    (
        "negative rate",
        &[("rate = \"100 Mbit/s\"", "rate = \"-5 Mbit/s\"")],
        "links[0].rate",
        "expected a positive bit rate like \"1 Gbit/s\" (units bit/s, kbit/s, Mbit/s, Gbit/s",
    ),
    (
        "negative rate found",
        &[("rate = \"100 Mbit/s\"", "rate = \"-5 Mbit/s\"")],
        "links[0].rate",
        "found \"-5 Mbit/s\"",
    ),
    ("zero rate", &[("rate = \"100 Mbit/s\"", "rate = \"0 Gbit/s\"")], "links[0].rate", "greater than zero"),
    ("rate in bytes", &[("rate = \"100 Mbit/s\"", "rate = \"100 MB/s\"")], "links[0].rate", "unknown unit \"MB/s\""),
    ("p = 1.5", &[("p = 0.01", "p = 1.5")], "links[1].loss.p", "a number in [0, 1], found float 1.5"),
    ("p negative", &[("p = 0.01", "p = -0.1")], "links[1].loss.p", "[0, 1]"),
    ("p as string", &[("p = 0.01", "p = \"0.01\"")], "links[1].loss.p", "found \"0.01\""),
    ("missing p", &[("p = 0.01", "data_only = true")], "links[1].loss.p", "required key is missing"),
    (
        "unknown loss model",
        &[("model = \"bernoulli\"", "model = \"gilbert\"")],
        "links[1].loss.model",
        "expected one of \"none\", \"bernoulli\"",
    ),
    (
        "key foreign to the loss model",
        &[("model = \"bernoulli\"", "model = \"none\"")],
        "links[1].loss.p",
        "unknown key \"p\"",
    ),
    (
        "loss not a table",
        &[("loss = { model = \"bernoulli\", p = 0.01 }", "loss = 0.01")],
        "links[1].loss",
        "expected a loss table",
    ),
    (
        "segments loss names a missing flow",
        &[("loss = { model = \"bernoulli\", p = 0.01 }", "loss = { model = \"segments\", flow = 3, seqs = [4, 2] }")],
        "links[1].loss.flow",
        "expected a flow id in 0..=0",
    ),
    (
        "segments with negative seq",
        &[("loss = { model = \"bernoulli\", p = 0.01 }", "loss = { model = \"segments\", flow = 0, seqs = [4, -2] }")],
        "links[1].loss.seqs[1]",
        "expected an integer >= 0",
    ),
    (
        "reverse loss on a simplex link",
        &[("p = 0.01 }", "p = 0.01 }\nduplex = false\nreverse_loss = { model = \"bernoulli\", p = 0.1 }")],
        "links[1].reverse_loss",
        "simplex",
    ),
    ("zero MSS", &[("mss = \"1000 B\"", "mss = \"0 B\"")], "tcp.mss", "it must be from 1 B to 65535 B"),
    (
        "MSS over 65535",
        &[("mss = \"1000 B\"", "mss = \"64 KiB\"")],
        "tcp.mss",
        "found \"64 KiB\"; it must be from 1 B to 65535 B",
    ),
    ("MSS bare integer", &[("mss = \"1000 B\"", "mss = 1000")], "tcp.mss", "write a string such as \"1000 B\""),
    (
        "unknown variant",
        &[("mss = \"1000 B\"", "variant = \"cubic\"")],
        "tcp.variant",
        "expected one of \"tahoe\", \"reno\", \"newreno\", \"sack\"",
    ),
    ("unknown profile", &[("mss = \"1000 B\"", "profile = \"ns3\"")], "tcp.profile", "expected one of \"rfc\""),
    (
        "unknown profile in a flow group",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\ntcp = { profile = \"linux\" }\n\n[trace]")],
        "flows[0].tcp.profile",
        "found \"linux\"",
    ),
    (
        "sack_blocks 5",
        &[("mss = \"1000 B\"", "sack_blocks = 5")],
        "tcp.sack_blocks",
        "an integer in 1..=4, found integer 5",
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
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\ntcp = { partial_window_deflation = 0 }\n\n[trace]")],
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
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\ntcp.rto.max = \"1 ms\"\n\n[trace]")],
        "flows[0].tcp.rto.max",
        "rto.min <= rto.max",
    ),
    (
        "warmup >= duration",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nwarmup = \"10 s\"")],
        "simulation.warmup",
        "shorter than simulation.duration (10 s)",
    ),
    (
        "negative seed",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nseed = -1")],
        "simulation.seed",
        "an integer >= 0, found integer -1",
    ),
    (
        "datetime seed",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nseed = 1979-05-27")],
        "simulation.seed",
        "found datetime 1979-05-27",
    ),
    (
        "bad stop",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nstop = \"never\"")],
        "simulation.stop",
        "\"time\", \"flows_done\"",
    ),
    (
        "bad routing",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nrouting = \"cost\"")],
        "simulation.routing",
        "\"hops\", \"delay\"",
    ),
    (
        "flows_done with only infinite flows",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nstop = \"flows_done\"")],
        "simulation.stop",
        "at least one flow with a finite size",
    ),
    ("link to a missing node", &[("to = \"r\"", "to = \"x\"")], "links[0].to", "found \"x\"; no such node"),
    ("missing node suggests", &[("from = \"r\"", "from = \"rr\"")], "links[1].from", "did you mean \"r\"?"),
    ("link to itself", &[("to = \"r\"", "to = \"a\"")], "links[0].to", "cannot connect a node to itself"),
    (
        "duplicate link",
        &[("[[flows]]", "[[links]]\nfrom = \"r\"\nto = \"a\"\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n\n[[flows]]")],
        "links[2]",
        "links[0] already connects these nodes",
    ),
    (
        "bad buffer",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nbuffer = 100")],
        "links[0].buffer",
        "write a string such as \"100 packets\"",
    ),
    (
        "bad buffer unit",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nbuffer = \"100 pkts\"")],
        "links[0].buffer",
        "unknown unit \"pkts\"",
    ),
    (
        "duplicate node name",
        &[("name = \"b\"\nkind = \"host\"", "name = \"a\"\nkind = \"host\"")],
        "nodes[2].name",
        "duplicate node name \"a\" (also nodes[0].name)",
    ),
    (
        "bad node kind",
        &[("name = \"b\"\nkind = \"host\"", "name = \"b\"\nkind = \"switch\"")],
        "nodes[2].kind",
        "\"host\", \"router\"",
    ),
    ("node without name", &[("name = \"r\"", "kind = \"router\"")], "nodes[1].name", "required key is missing"),
    ("empty node name", &[("name = \"r\"", "name = \"\"")], "nodes[1].name", "non-empty name"),
    (
        "flow to itself",
        &[("name = \"f\"\nfrom = \"a\"\nto = \"b\"", "name = \"f\"\nfrom = \"a\"\nto = \"a\"")],
        "flows[0].to",
        "from node \"a\" to itself",
    ),
    (
        "flow from a missing node",
        &[("name = \"f\"\nfrom = \"a\"", "name = \"f\"\nfrom = [\"a\", \"q\"]")],
        "flows[0].from[1]",
        "no such node",
    ),
    (
        "flow without to",
        &[("name = \"f\"\nfrom = \"a\"\nto = \"b\"", "name = \"f\"\nfrom = \"a\"")],
        "flows[0].to",
        "required key is missing",
    ),
    (
        "from/to lengths differ",
        &[(
            "name = \"f\"\nfrom = \"a\"\nto = \"b\"",
            "name = \"f\"\nfrom = [\"a\", \"r\"]\nto = [\"b\", \"r\", \"a\"]",
        )],
        "flows[0].to",
        "as long as `from` (2 names), found a list of 3",
    ),
    (
        "start range reversed",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\nstart = [\"2 s\", \"1 s\"]\n\n[trace]")],
        "flows[0].start",
        "must not exceed",
    ),
    (
        "start range of 3",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\nstart = [\"0 s\", \"1 s\", \"2 s\"]\n\n[trace]")],
        "flows[0].start",
        "an array of 3 elements",
    ),
    (
        "start after the end",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\nstart = \"11 s\"\n\n[trace]")],
        "flows[0].start",
        "earlier than simulation.duration (10 s)",
    ),
    (
        "count 0",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\ncount = 0\n\n[trace]")],
        "flows[0].count",
        "an integer in 1..=1000000",
    ),
    (
        "huge count",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\ncount = 9000000000000000000\n\n[trace]")],
        "flows[0].count",
        "found integer 9000000000000000000",
    ),
    (
        "huge window",
        &[("mss = \"1000 B\"", "rwnd = 4294967296")],
        "tcp.rwnd",
        "at most 4294967295, found integer 4294967296",
    ),
    (
        "zero size",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\nsize = \"0 B\"\n\n[trace]")],
        "flows[0].size",
        "greater than zero",
    ),
    (
        "size not whole bytes",
        &[("to = \"b\"\n\n[trace]", "to = \"b\"\nsize = \"1.0005 KB\"\n\n[trace]")],
        "flows[0].size",
        "not a whole number of bytes",
    ),
    (
        "duplicate group name",
        &[("[trace]", "[[flows]]\nname = \"f\"\nfrom = \"b\"\nto = \"a\"\n\n[trace]")],
        "flows[1].name",
        "duplicate flow group name \"f\"",
    ),
    (
        "no route over a simplex link",
        &[("delay = \"1 ms\"", "delay = \"1 ms\"\nduplex = false")],
        "flows[0].to",
        "no route from node \"b\" to node \"a\"",
    ),
    (
        "trace flow id missing",
        &[("cwnd = true", "cwnd = true\nflows = [0, 5]")],
        "trace.flows[1]",
        "expected a flow id in 0..=0",
    ),
    (
        "trace interval zero",
        &[("cwnd = true", "cwnd = true\ninterval = \"0 ms\"")],
        "trace.interval",
        "greater than zero",
    ),
    (
        "trace unknown key",
        &[("cwnd = true", "cwnd = true\nrtt = true")],
        "trace.rtt",
        "allowed keys: cwnd, seq, interval, flows",
    ),
    ("name not a string", &[("name = \"t\"", "name = 3")], "name", "expected a non-empty name string, found integer 3"),
];

/// Parses every row of `rows` (each `edits` applied by `edit_fn`) and checks
/// that it fails with an error at the row's key path whose reason contains
/// the row's fragment; reports every failing row at once.
#[track_caller]
fn check_bad_rows(rows: &[Row], edit_fn: fn(&[(&str, &str)]) -> String) {
    let mut failures = Vec::new();
    for (what, edits, path, fragment) in rows {
        match parse_toml(&edit_fn(edits)) {
            Ok(_) => failures.push(format!("{what}: parsed without error")),
            Err(e) => {
                if !e
                    .errors
                    .iter()
                    .any(|x| x.path == *path && x.reason.contains(fragment))
                {
                    failures.push(format!(
                        "{what}: wanted {path}: ...{fragment}..., got:\n{e}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_inputs_name_path_and_reason() {
    assert!(BAD.len() >= 25);
    check_bad_rows(BAD, edit);
}

#[test]
fn all_errors_are_reported() {
    let text = edit(&[
        ("rate = \"100 Mbit/s\"", "rate = \"-5 Mbit/s\""),
        ("p = 0.01", "p = 1.5"),
        ("mss = \"1000 B\"", "mss = \"0 B\""),
    ]);
    let e = errors_of(&text);
    let paths: Vec<&str> = e.errors.iter().map(|x| x.path.as_str()).collect();
    assert_eq!(
        paths,
        ["tcp.mss", "links[0].rate", "links[1].loss.p"],
        "{e}"
    );
    let shown = e.to_string();
    assert!(
        shown.starts_with("invalid scenario (3 problems):"),
        "{shown}"
    );
}

#[test]
fn error_list_is_capped() {
    let many = vec!["-1"; 500].join(", ");
    let text = edit(&[(
        "loss = { model = \"bernoulli\", p = 0.01 }",
        &format!("loss = {{ model = \"packets\", indices = [{many}] }}"),
    )]);
    let e = errors_of(&text);
    assert_eq!(e.errors.len(), super::walk::MAX_ERRORS + 1);
    assert_eq!(e.errors[0].path, "links[1].loss.indices[0]");
    assert_eq!(
        e.errors.last().unwrap().reason,
        "... and 400 more problems not shown"
    );
}

#[test]
fn toml_syntax_error_has_line_and_column() {
    let e = errors_of("name = \"x\"\n[simulation]\nduration = = 3\n");
    assert_eq!(e.errors.len(), 1, "{e}");
    assert_eq!(e.errors[0].path, "");
    assert!(
        e.errors[0]
            .reason
            .starts_with("TOML syntax error at line 3, column"),
        "{e}"
    );
}

#[test]
fn json_errors() {
    let e = parse_json("{\"simulation\": ").unwrap_err();
    assert!(
        e.errors[0]
            .reason
            .starts_with("JSON syntax error at line 1"),
        "{e}"
    );
    let e = parse_json("[1, 2]").unwrap_err();
    assert_eq!(e.errors[0].path, "");
    assert!(
        e.errors[0]
            .reason
            .contains("expected a table, found an array"),
        "{e}"
    );
    let e =
        parse_json(r#"{"simulation": {"duration": "1 s"}, "nodes": {"name": "a"}}"#).unwrap_err();
    assert_eq!(e.errors[0].path, "nodes");
    assert!(
        e.errors[0]
            .reason
            .contains("expected an array of tables ([[nodes]]), found a table"),
        "{e}"
    );
    let e = parse_json(r#"{"simulation": {"duration": "1 s", "seed": 18446744073709551616}}"#)
        .unwrap_err();
    assert_eq!(e.errors[0].path, "simulation.seed");
    assert!(e.errors[0].reason.contains("found float"), "{e}");
    let e = parse_json(r#"{"simulation": {"duration": 10}}"#).unwrap_err();
    assert_eq!(e.errors[0].path, "simulation.duration");
    assert!(
        e.errors[0]
            .reason
            .contains("write a string such as \"10 ms\""),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// Good files
// ---------------------------------------------------------------------------

#[test]
fn single_flow_resolves_with_defaults() {
    let s = ok(SINGLE_FLOW);
    assert_eq!(s.name, "single_flow");
    assert_eq!(s.seed, 1);
    assert_eq!(s.duration, SimDuration::from_secs(5));
    assert_eq!(s.warmup, SimDuration::ZERO);
    assert!(!s.stop_when_flows_done);
    assert_eq!(s.routing, Routing::Hops);
    assert_eq!(s.nodes.len(), 4);
    assert_eq!(s.nodes[1].kind, NodeKind::Router, "kind defaults to router");
    assert_eq!(s.links.len(), 3);
    assert_eq!(
        s.links[0].buffer,
        Buffer::Packets(50),
        "ns-2 DropTail limit_ default"
    );
    assert_eq!(s.links[1].buffer, Buffer::Packets(100));
    assert!(s.links[0].duplex);
    assert_eq!(s.links[0].loss, LossSpec::None);
    assert_eq!(s.links[1].rate_bps, 10_000_000);
    assert_eq!(s.links[1].delay, SimDuration::from_millis(10));
    assert_eq!(s.flows.len(), 1);
    let f = &s.flows[0];
    assert_eq!((f.id, f.src, f.dst), (FlowId(0), NodeId(0), NodeId(3)));
    assert_eq!(f.group, "bulk");
    assert_eq!(f.start, StartSpec::At(SimTime::ZERO));
    assert_eq!(f.app, AppSpec::Bulk(None));
    let mut want = profile("rfc").unwrap();
    want.variant = Variant::NewReno;
    want.mss = 1000;
    want.max_window = 64;
    assert_eq!(f.tcp, want);
    assert_eq!(s.trace, super::scenario::TraceSpec::default());
}

#[test]
fn dumbbell_resolves() {
    let s = ok(DUMBBELL);
    assert_eq!(s.name, "dumbbell");
    assert_eq!(s.duration, SimDuration::from_secs(100));
    assert_eq!(s.nodes.len(), 22);
    assert_eq!(s.links.len(), 21);
    assert_eq!(s.links[0].rate_bps, 1_000_000_000);
    assert_eq!(
        s.links[0].loss,
        LossSpec::Bernoulli {
            p: 0.001,
            data_only: false
        }
    );
    assert_eq!(s.flows.len(), 10);
    for (i, f) in s.flows.iter().enumerate() {
        assert_eq!(f.id, FlowId(i as u32));
        assert_eq!(s.nodes[f.src.index()].name, format!("s{i}"));
        assert_eq!(s.nodes[f.dst.index()].name, format!("d{i}"));
        assert_eq!(
            f.start,
            StartSpec::Uniform(SimTime::ZERO, SimTime(1_000_000_000))
        );
        assert_eq!(f.group, "ftp");
        assert_eq!(
            (f.tcp.mss, f.tcp.rwnd, f.tcp.max_window),
            (1040, 10000, 10000)
        );
        assert_eq!(f.tcp.variant, Variant::Reno);
    }
}

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
pub(super) fn loss_models_and_trace_resolve() {
    let text = edit(&[
        ("loss = { model = \"bernoulli\", p = 0.01 }", "loss = { model = \"segments\", flow = 0, seqs = [9, 3, 3] }\nreverse_loss = { model = \"packets\", indices = [2, 1] }"),
        ("cwnd = true", "cwnd = true\nseq = true\ninterval = \"10 ms\"\nflows = [0]"),
    ]);
    let s = ok(&text);
    assert_eq!(
        s.links[1].loss,
        LossSpec::Segments {
            flow: FlowId(0),
            seqs: vec![3, 9],
            retransmissions: false
        }
    );
    assert_eq!(
        s.links[1].reverse_loss,
        LossSpec::Packets {
            indices: vec![1, 2]
        }
    );
    assert!(s.trace.cwnd && s.trace.seq);
    assert_eq!(s.trace.interval, Some(SimDuration::from_millis(10)));
    assert_eq!(s.trace.flows, [FlowId(0)]);
}

#[test]
fn zero_packet_buffer_is_allowed() {
    let s = ok(&edit(&[(
        "delay = \"1 ms\"",
        "delay = \"1 ms\"\nbuffer = \"0 packets\"",
    )]));
    assert_eq!(s.links[0].buffer, Buffer::Packets(0));
    let s = ok(&edit(&[(
        "delay = \"1 ms\"",
        "delay = \"1 ms\"\nbuffer = \"unlimited\"",
    )]));
    assert_eq!(s.links[0].buffer, Buffer::Unlimited);
}

#[test]
fn json_matches_toml() {
    for text in [DUMBBELL, SINGLE_FLOW, BASE] {
        let table: toml::Table = toml::from_str(text).unwrap();
        let json = serde_json::to_string(&table).unwrap();
        assert_eq!(parse_json(&json).unwrap(), parse_toml(text).unwrap());
    }
    // null means absent.
    let s = parse_json(
        r#"{"simulation": {"duration": "1 s", "warmup": null}, "trace": {"interval": null}}"#,
    )
    .unwrap();
    assert_eq!(s.warmup, SimDuration::ZERO);
    assert_eq!(s.trace.interval, None);
    // JSON integers beyond i64 reach u64 fields.
    let s =
        parse_json(r#"{"simulation": {"duration": "1 s", "seed": 18446744073709551615}}"#).unwrap();
    assert_eq!(s.seed, u64::MAX);
}

#[test]
fn to_json_round_trips_as_json() {
    let s = ok(DUMBBELL);
    let j = to_json(&s);
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["name"], "dumbbell");
    assert_eq!(v["flows"].as_array().unwrap().len(), 10);
    assert_eq!(v["links"][0]["loss"]["model"], "bernoulli");
}

#[test]
fn every_example_scenario_parses() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            if let Err(e) = parse_toml(&text) {
                panic!("{}: {e}", path.display());
            }
            n += 1;
        }
    }
    assert!(n >= 2, "found {n} scenarios in {}", dir.display());
}

#[test]
fn docs_cover_every_key_and_their_example_parses() {
    use super::flows::FLOW_KEYS;
    use super::links::LINK_KEYS;
    use super::metrics::METRICS_KEYS;
    use super::nodes::NODE_KEYS;
    use super::obs::{ASSEMBLY_KEYS, BURST_LOSS_KEYS};
    use super::optical::{GENERATOR_KEYS, SWITCH_KEYS};
    use super::schema::{SIM_KEYS, TOP_KEYS};
    use super::tcp::{RTO_KEYS, TCP_KEYS};
    use super::trace::TRACE_KEYS;
    use super::traffic::TRAFFIC_KEYS;
    let doc = include_str!("../../../../docs/SCENARIOS.md");
    for keys in [
        TOP_KEYS,
        SIM_KEYS,
        TCP_KEYS,
        RTO_KEYS,
        NODE_KEYS,
        LINK_KEYS,
        FLOW_KEYS,
        TRACE_KEYS,
        ASSEMBLY_KEYS,
        BURST_LOSS_KEYS,
        METRICS_KEYS,
        SWITCH_KEYS,
        GENERATOR_KEYS,
        TRAFFIC_KEYS,
    ] {
        for k in keys {
            assert!(
                doc.contains(&format!("`{k}`"))
                    || doc.contains(&format!("`[{k}]`"))
                    || doc.contains(&format!("`[[{k}]]`")),
                "docs/SCENARIOS.md does not document `{k}`"
            );
        }
    }
    let example = doc
        .split("```toml\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("a ```toml example");
    let s = ok(example);
    assert_eq!(s.flows.len(), 1);
}

#[test]
fn every_listed_tcp_key_is_read() {
    // A TOML date is no key's value: at each allowed key it must be reported
    // as a bad value there, never as an unknown key (config/tcp.rs declares
    // each key once, its name, parser and field together).
    use super::tcp::{RTO_KEYS, TCP_KEYS};
    for (table, keys) in [("tcp", TCP_KEYS), ("tcp.rto", RTO_KEYS)] {
        for key in keys {
            let text = format!("[simulation]\nduration = \"1 s\"\n[{table}]\n{key} = 1979-05-27\n");
            let e = errors_of(&text);
            let path = format!("{table}.{key}");
            assert!(
                e.errors
                    .iter()
                    .any(|x| x.path == path && x.reason.contains("found datetime")),
                "{path}: {e}"
            );
        }
    }
}

#[test]
fn names_are_the_serialised_names() {
    // Each choice is parsed from its enum's `ALL` table; the resolved
    // scenario (meta.json) prints the same names through serde.
    use super::scenario::{AckHandling, Conversion, ConverterSharing, LengthDistribution};
    use super::traffic::OnOffDistribution;
    use crate::tcp::config::{BackSource, RtoEstimator};
    #[track_caller]
    fn check<T: serde::Serialize>(all: &[(&str, T)]) {
        for (name, v) in all {
            assert_eq!(serde_json::to_value(v).unwrap(), *name);
        }
    }
    check(&Variant::ALL);
    check(&SsthreshBasis::ALL);
    check(&BackSource::ALL);
    check(&RtoEstimator::ALL);
    check(&Routing::ALL);
    check(&NodeKind::ALL);
    check(&Conversion::ALL);
    check(&ConverterSharing::ALL);
    check(&LengthDistribution::ALL);
    check(&AckHandling::ALL);
    check(&OnOffDistribution::ALL);
    for (name, v) in Variant::ALL {
        assert_eq!(v.name(), name);
    }
}

// ---------------------------------------------------------------------------
// No input panics
// ---------------------------------------------------------------------------

mod fuzz {
    use proptest::prelude::*;

    use super::{parse_json, parse_toml, DUMBBELL, SINGLE_FLOW};

    const KEYS: &[&str] = &[
        "name",
        "simulation",
        "duration",
        "warmup",
        "seed",
        "stop",
        "routing",
        "tcp",
        "profile",
        "variant",
        "mss",
        "header",
        "max_window",
        "rwnd",
        "initial_cwnd",
        "initial_ssthresh",
        "dupack_threshold",
        "ssthresh_basis",
        "delayed_ack",
        "delack_timeout",
        "sack_blocks",
        "rto",
        "estimator",
        "initial",
        "min",
        "max",
        "granularity",
        "max_backoff",
        "nodes",
        "kind",
        "links",
        "from",
        "to",
        "rate",
        "delay",
        "buffer",
        "duplex",
        "loss",
        "reverse_loss",
        "model",
        "p",
        "data_only",
        "indices",
        "flow",
        "seqs",
        "retransmissions",
        "flows",
        "count",
        "start",
        "size",
        "trace",
        "cwnd",
        "seq",
        "interval",
        "traffic",
        "packet",
        "stop",
        "on",
        "off",
        "distribution",
        "zz",
    ];
    const HEADERS: &[&str] = &[
        "[simulation]",
        "[tcp]",
        "[tcp.rto]",
        "[[nodes]]",
        "[[links]]",
        "[[flows]]",
        "[flows.tcp]",
        "[flows.tcp.rto]",
        "[trace]",
        "[links.loss]",
        "[nodes]",
        "[[traffic]]",
    ];
    const ATOMS: &[&str] = &[
        "\"10 ms\"",
        "\"0 s\"",
        "\"-1 s\"",
        "\"1e400 s\"",
        "\"1 Gbit/s\"",
        "\"0 bit/s\"",
        "\"1040 B\"",
        "\"64 KiB\"",
        "\"100 packets\"",
        "\"unlimited\"",
        "\"infinite\"",
        "\"a\"",
        "\"b\"",
        "\"r\"",
        "\"reno\"",
        "\"sack\"",
        "\"ns2\"",
        "\"bernoulli\"",
        "\"segments\"",
        "\"packets\"",
        "\"none\"",
        "\"flows_done\"",
        "\"onoff\"",
        "\"cbr\"",
        "\"µs\"",
        "\"\"",
        "0",
        "1",
        "-1",
        "2",
        "9223372036854775807",
        "-9223372036854775808",
        "0.5",
        "1.5",
        "nan",
        "inf",
        "true",
        "false",
        "1979-05-27",
        "[]",
        "[0, 1]",
        "[\"0 s\", \"1 s\"]",
        "[\"a\", \"b\"]",
        "{}",
        "{ model = \"bernoulli\", p = 0.1 }",
        "{ model = \"segments\", flow = 99, seqs = [1] }",
        "{ model = \"packets\", indices = [-1] }",
    ];

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => (prop::sample::select(KEYS), prop::sample::select(ATOMS)).prop_map(|(k, v)| format!("{k} = {v}")),
            1 => prop::sample::select(HEADERS).prop_map(str::to_string),
            1 => (prop::sample::select(KEYS), prop::sample::select(KEYS), prop::sample::select(ATOMS))
                .prop_map(|(a, b, v)| format!("{a}.{b} = {v}")),
        ]
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value as J;
        let leaf = prop_oneof![
            Just(J::Null),
            any::<bool>().prop_map(J::Bool),
            any::<i64>().prop_map(J::from),
            any::<u64>().prop_map(J::from),
            any::<f64>().prop_map(J::from),
            prop::sample::select(ATOMS).prop_map(|s| J::String(s.trim_matches('"').to_string())),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(J::Array),
                prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|kv| {
                    J::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                }),
            ]
        })
    }

    /// Deletes, duplicates or rewrites a few lines of `text`.
    fn mutate(text: &str, ops: &[(usize, u8, String)]) -> String {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (at, op, new) in ops {
            if lines.is_empty() {
                break;
            }
            let i = at % lines.len();
            match op % 4 {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                2 => lines[i] = new.clone(),
                _ => {
                    // Replace the value part of a `key = value` line.
                    if let Some((k, _)) = lines[i].split_once('=') {
                        lines[i] = format!(
                            "{k}= {}",
                            new.split_once('=').map_or(new.as_str(), |(_, v)| v)
                        );
                    }
                }
            }
        }
        lines.join("\n")
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn random_strings_do_not_panic(s in ".{0,300}") {
            let _ = parse_toml(&s);
            let _ = parse_json(&s);
        }

        #[test]
        fn tomlish_documents_do_not_panic(lines in prop::collection::vec(line(), 0..40)) {
            let text = lines.join("\n");
            let r = parse_toml(&text);
            if let Ok(t) = toml::from_str::<toml::Table>(&text) {
                // The same tree through JSON must give the same verdict.
                let j = parse_json(&serde_json::to_string(&t).unwrap());
                prop_assert_eq!(r.is_ok(), j.is_ok());
            }
        }

        #[test]
        fn json_trees_do_not_panic(v in json_value()) {
            let _ = parse_json(&v.to_string());
            let wrapped = serde_json::json!({ "simulation": v.clone(), "links": [v.clone()], "flows": [v.clone()], "tcp": v });
            let _ = parse_json(&wrapped.to_string());
        }

        #[test]
        fn mutated_examples_do_not_panic(
            which in any::<bool>(),
            ops in prop::collection::vec((any::<usize>(), any::<u8>(), line()), 1..6),
        ) {
            let base = if which { DUMBBELL } else { SINGLE_FLOW };
            let _ = parse_toml(&mutate(base, &ops));
        }
    }
}

// ---------------------------------------------------------------------------
// OBS: edge nodes, optical links, metrics
// ---------------------------------------------------------------------------

/// A small valid OBS scenario: host -> edge ==optical== edge -> host.
const OBS_BASE: &str = r#"
[simulation]
duration = "10 s"

[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "E1"
kind = "edge"
[nodes.assembly]
trigger = "timer"
timeout = "1 ms"
selection = "per_egress"
queues = 2
[[nodes]]
name = "E2"
kind = "edge"
[nodes.assembly]
timeout = "1 ms"
[[nodes]]
name = "b"
kind = "host"

[[links]]
from = "a"
to = "E1"
rate = "100 Mbit/s"
delay = "1 ms"
[[links]]
from = "E1"
to = "E2"
kind = "optical"
rate = "1 Gbit/s"
delay = "5 ms"
burst_loss = { p = 0.01, pattern = "random" }
[[links]]
from = "E2"
to = "b"
rate = "100 Mbit/s"
delay = "1 ms"

[[flows]]
from = "a"
to = "b"
"#;

#[track_caller]
fn obs_edit(edits: &[(&str, &str)]) -> String {
    apply_edits(OBS_BASE, edits)
}

const OBS_BAD: &[Row] = &[
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
        "B < C",
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
fn obs_bad_inputs_name_path_and_reason() {
    check_bad_rows(OBS_BAD, obs_edit);
}

#[test]
fn obs_scenario_resolves() {
    use crate::obs::assembly::{FlowMapping, Selection, Trigger};
    use crate::obs::loss::BurstLossPattern;
    let s = ok(OBS_BASE);
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
    assert_eq!(e.acks, super::scenario::AckHandling::Bypass);
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
        Selection::WindowBased { b, c, timers } => {
            assert!((b - 32.0).abs() < 1e-12 && (c - 128.0).abs() < 1e-12);
            assert_eq!(timers[2], SimDuration::from_millis(10));
        }
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------
// Optical core: [optical], [nodes.switch], wavelengths, [[generators]]
// ---------------------------------------------------------------------------

const CORE_BASE: &str = r#"
[simulation]
duration = "10 s"

[optical]
processing = "50 us"

[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "E1"
kind = "edge"
[nodes.assembly]
timeout = "1 ms"
[[nodes]]
name = "C"
kind = "core"
[nodes.switch]
conversion = "full"
[[nodes]]
name = "E2"
kind = "edge"
[[nodes]]
name = "b"
kind = "host"

[[links]]
from = "a"
to = "E1"
rate = "100 Mbit/s"
delay = "1 ms"
[[links]]
from = "E1"
to = "C"
kind = "optical"
wavelengths = 2
rate = "1 Gbit/s"
delay = "1 ms"
[[links]]
from = "C"
to = "E2"
kind = "optical"
wavelengths = 2
rate = "1 Gbit/s"
delay = "1 ms"
[[links]]
from = "E2"
to = "b"
rate = "100 Mbit/s"
delay = "1 ms"

[[generators]]
at = "E1"
interarrival = "2 ms"
length = "200 us"

[[flows]]
from = "a"
to = "b"
"#;

#[track_caller]
fn core_edit(edits: &[(&str, &str)]) -> String {
    apply_edits(CORE_BASE, edits)
}

const CORE_BAD: &[Row] = &[
    (
        "optical link to a host",
        &[(
            "from = \"E2\"\nto = \"b\"",
            "from = \"E2\"\nto = \"b\"\nkind = \"optical\"",
        )],
        "links[3].to",
        "joins edge and core nodes only",
    ),
    (
        "core node with an electronic link",
        &[(
            "kind = \"optical\"\nwavelengths = 2\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
            "wavelengths = 2\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
        )],
        "links[2].wavelengths",
        "only optical links have wavelengths",
    ),
    (
        "core node on an electronic link",
        &[(
            "kind = \"optical\"\nwavelengths = 2\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
            "rate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n[[links]]\nfrom = \"E2\"",
        )],
        "links[2].kind",
        "core node, which has optical links only",
    ),
    (
        "partial conversion without converters",
        &[("conversion = \"full\"", "conversion = \"partial\"")],
        "nodes[2].switch.converters",
        "needs a pool of converters",
    ),
    (
        "converters without partial conversion",
        &[("conversion = \"full\"", "conversion = \"full\"\nconverters = 2")],
        "nodes[2].switch.converters",
        "only read by conversion = \"partial\"",
    ),
    (
        "unknown scheduler",
        &[("processing = \"50 us\"", "scheduler = \"lauc_vf\"")],
        "optical.scheduler",
        "\"lauc-vf\"",
    ),
    (
        "processing without unit",
        &[("processing = \"50 us\"", "processing = 50")],
        "optical.processing",
        "a bare number has no unit",
    ),
    (
        "unknown conversion",
        &[("conversion = \"full\"", "conversion = \"some\"")],
        "nodes[2].switch.conversion",
        "\"full\", \"none\", \"partial\"",
    ),
    (
        "unknown edge queue",
        &[("processing = \"50 us\"", "edge_queue = \"finite\"")],
        "optical.edge_queue",
        "or \"unlimited\" or \"none\"",
    ),
    (
        "zero wavelengths",
        &[("wavelengths = 2", "wavelengths = 0")],
        "links[1].wavelengths",
        "in 1..=65535, found integer 0",
    ),
    (
        "too many wavelengths",
        &[("wavelengths = 2", "wavelengths = 70000")],
        "links[1].wavelengths",
        "65535",
    ),
    (
        "wavelengths on an electronic link",
        &[(
            "to = \"E1\"\nrate = \"100 Mbit/s\"",
            "to = \"E1\"\nwavelengths = 4\nrate = \"100 Mbit/s\"",
        )],
        "links[0].wavelengths",
        "only optical links have wavelengths",
    ),
    (
        "switch on a host",
        &[(
            "name = \"b\"\nkind = \"host\"",
            "name = \"b\"\nkind = \"host\"\n[nodes.switch]\nprocessing = \"1 us\"",
        )],
        "nodes[4].switch",
        "only edge and core nodes",
    ),
    (
        "unknown switch key",
        &[("conversion = \"full\"", "convertion = \"full\"")],
        "nodes[2].switch.convertion",
        "did you mean \"conversion\"",
    ),
    (
        "generator at a host",
        &[("at = \"E1\"", "at = \"a\"")],
        "generators[0].at",
        "expected the name of an edge node, found \"a\", a host",
    ),
    (
        "generator at an unknown node",
        &[("at = \"E1\"", "at = \"E9\"")],
        "generators[0].at",
        "no such node",
    ),
    (
        "generator to itself",
        &[("at = \"E1\"", "at = \"E1\"\nto = [\"E1\"]")],
        "generators[0].to[0]",
        "its own edge node",
    ),
    (
        "generator to a core node",
        &[("at = \"E1\"", "at = \"E1\"\nto = [\"C\"]")],
        "generators[0].to[0]",
        "a core node",
    ),
    (
        "generator to an empty list",
        &[("at = \"E1\"", "at = \"E1\"\nto = []")],
        "generators[0].to",
        "non-empty list",
    ),
    (
        "generator without interarrival",
        &[("interarrival = \"2 ms\"\n", "")],
        "generators[0].interarrival",
        "required key is missing",
    ),
    (
        "generator zero interarrival",
        &[("interarrival = \"2 ms\"", "interarrival = \"0 ms\"")],
        "generators[0].interarrival",
        "greater than zero",
    ),
    (
        "generator zero length",
        &[("length = \"200 us\"", "length = \"0 us\"")],
        "generators[0].length",
        "greater than zero",
    ),
    (
        "generator length in packets",
        &[("length = \"200 us\"", "length = \"20 packets\"")],
        "generators[0].length",
        "expected a positive mean burst length",
    ),
    (
        "generator stop before start",
        &[(
            "length = \"200 us\"",
            "length = \"200 us\"\nstart = \"5 s\"\nstop = \"1 s\"",
        )],
        "generators[0].stop",
        "after start",
    ),
    (
        "generator unknown distribution",
        &[("length = \"200 us\"", "length = \"200 us\"\ndistribution = \"pareto\"")],
        "generators[0].distribution",
        "\"exponential\", \"fixed\"",
    ),
    (
        "generator unknown key",
        &[("interarrival = \"2 ms\"", "interarrival = \"2 ms\"\nrate = 500")],
        "generators[0].rate",
        "unknown key",
    ),
    (
        "zero burst length bin",
        &[("[[flows]]", "[metrics]\nburst_length_bin = 0\n\n[[flows]]")],
        "metrics.burst_length_bin",
        "found integer 0",
    ),
    (
        "extra offset without unit",
        &[("timeout = \"1 ms\"", "timeout = \"1 ms\"\nextra_offset = 5")],
        "nodes[1].assembly.extra_offset",
        "a bare number has no unit",
    ),
];

#[test]
fn core_bad_rows_name_the_key() {
    check_bad_rows(CORE_BAD, core_edit);
}

#[test]
fn core_scenario_resolves() {
    use super::scenario::{BurstLength, Conversion, EdgeQueue, LengthDistribution};
    use crate::obs::scheduler::SchedulerKind;
    let s = ok(CORE_BASE);
    assert_eq!(s.nodes[2].kind, NodeKind::Core);
    // [optical] sets every node's default; [nodes.switch] overrides it.
    assert_eq!(s.optical.processing, SimDuration::from_micros(50));
    for n in &s.nodes {
        assert_eq!(n.switch.processing, SimDuration::from_micros(50));
        assert_eq!(n.switch.scheduler, SchedulerKind::LaucVf);
        assert_eq!(n.switch.edge_queue, EdgeQueue::Unlimited);
    }
    assert_eq!(s.nodes[2].switch.conversion, Conversion::Full);
    assert!(
        s.nodes[3].edge.is_none(),
        "a generator-only edge needs no assembly"
    );
    assert_eq!(s.links[1].optical.as_ref().unwrap().wavelengths, 2);
    let g = &s.generators[0];
    assert_eq!(g.at, NodeId(1));
    assert_eq!(g.to, vec![NodeId(3)], "default: every other edge node");
    assert_eq!(g.length, BurstLength::Time(SimDuration::from_micros(200)));
    assert_eq!(g.distribution, LengthDistribution::Exponential);
    assert_eq!(s.metrics.burst_length_bin, 6);
    let p = ok(&core_edit(&[(
        "conversion = \"full\"",
        "conversion = \"partial\"\nconverters = 3\nconverter_sharing = \"port\"\nscheduler = \"horizon\"\nprocessing = \"10 us\"",
    )]));
    let sw = p.nodes[2].switch;
    assert_eq!(sw.conversion, Conversion::Partial);
    assert_eq!(sw.converters, 3);
    assert_eq!(sw.scheduler, SchedulerKind::Horizon);
    assert_eq!(sw.processing, SimDuration::from_micros(10));
    assert_eq!(p.nodes[1].switch.processing, SimDuration::from_micros(50));
    let b = ok(&core_edit(&[("length = \"200 us\"", "length = \"25 KB\"")]));
    assert_eq!(b.generators[0].length, BurstLength::Bytes(25_000));
}

// ---------------------------------------------------------------------------
// [[traffic]]: UDP cross-traffic sources
// ---------------------------------------------------------------------------

/// `BASE` plus one on/off source from `a` to `b`.
const TRAFFIC: &str = r#"
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
fn traffic_edit(edits: &[(&str, &str)]) -> String {
    apply_edits(&format!("{BASE}{TRAFFIC}"), edits)
}

const TRAFFIC_BAD: &[Row] = &[
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
];

#[test]
fn traffic_bad_inputs_name_path_and_reason() {
    assert!(TRAFFIC_BAD.len() >= 25);
    check_bad_rows(TRAFFIC_BAD, traffic_edit);
}

#[test]
fn traffic_resolves_with_defaults_and_expands() {
    use super::traffic::{OnOffDistribution, TrafficModel, DEFAULT_PACKET_BYTES};
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
    assert!(ok(BASE).traffic.is_empty());
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

//! The document as a whole: bad inputs at the top level, in `[simulation]`
//! and in `[trace]`, error reporting (every error, capped, syntax errors),
//! whole example files, JSON = TOML, the documentation of every key, and
//! every allowed key read.

use super::*;

#[test]
fn base_is_valid() {
    let s = ok(&BASE);
    assert_eq!(s.flows.len(), 1);
}

/// Bad inputs of this topic, checked by
/// [`bad_inputs_name_path_and_reason`](super::bad_inputs_name_path_and_reason).
pub(super) const BAD: &[Row] = &[
    (
        "unknown top-level key",
        &[("name = \"t\"", "name = \"t\"\nnmae = 1")],
        "nmae",
        "did you mean \"name\"?",
    ),
    (
        "unknown key in [simulation]",
        &[("duration = \"10 s\"", "duration = \"10 s\"\nsed = 3")],
        "simulation.sed",
        "did you mean \"seed\"?",
    ),
    (
        "missing required duration",
        &[("duration = \"10 s\"", "")],
        "simulation.duration",
        "required key is missing",
    ),
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
    (
        "zero duration",
        &[("duration = \"10 s\"", "duration = \"0 s\"")],
        "simulation.duration",
        "greater than zero",
    ),
    (
        "warmup >= duration",
        &[(
            "duration = \"10 s\"",
            "duration = \"10 s\"\nwarmup = \"10 s\"",
        )],
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
        &[(
            "duration = \"10 s\"",
            "duration = \"10 s\"\nseed = 1979-05-27",
        )],
        "simulation.seed",
        "found datetime 1979-05-27",
    ),
    (
        "bad stop",
        &[(
            "duration = \"10 s\"",
            "duration = \"10 s\"\nstop = \"never\"",
        )],
        "simulation.stop",
        "\"time\", \"flows_done\"",
    ),
    (
        "bad routing",
        &[(
            "duration = \"10 s\"",
            "duration = \"10 s\"\nrouting = \"cost\"",
        )],
        "simulation.routing",
        "\"hops\", \"delay\"",
    ),
    (
        "flows_done with only infinite flows",
        &[(
            "duration = \"10 s\"",
            "duration = \"10 s\"\nstop = \"flows_done\"",
        )],
        "simulation.stop",
        "at least one flow with a finite size",
    ),
    (
        "name not a string",
        &[("name = \"t\"", "name = 3")],
        "name",
        "expected a non-empty name string, found integer 3",
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
        "allowed keys: cwnd, seq, interval, per_ack, packets, flows",
    ),
    (
        "trace per_ack with an interval",
        &[("cwnd = true", "per_ack = true\ninterval = \"10 ms\"")],
        "trace.interval",
        "per_ack = true records a row at every ACK and timeout",
    ),
    (
        "trace packets not a boolean",
        &[("cwnd = true", "packets = 1")],
        "trace.packets",
        "expected true or false, found integer 1",
    ),
    (
        "metrics pair unknown node",
        &[(
            "cwnd = true",
            "cwnd = true\n\n[metrics]\npair = [\"a\", \"bb\"]",
        )],
        "metrics.pair[1]",
        "no such node",
    ),
    (
        "metrics pair of one node",
        &[(
            "cwnd = true",
            "cwnd = true\n\n[metrics]\npair = [\"a\", \"a\"]",
        )],
        "metrics.pair[1]",
        "different from the source",
    ),
    (
        "metrics pair not two names",
        &[("cwnd = true", "cwnd = true\n\n[metrics]\npair = [\"a\"]")],
        "metrics.pair",
        "expected a list of two node names [source, destination], found a list of 1",
    ),
    (
        "metrics pair not a list",
        &[("cwnd = true", "cwnd = true\n\n[metrics]\npair = \"a\"")],
        "metrics.pair",
        "expected a list of two node names",
    ),
    (
        "metrics pair_bins without bins",
        &[(
            "cwnd = true",
            "cwnd = true\n\n[metrics]\nthroughput_bin = \"none\"\npair_bins = true",
        )],
        "metrics.pair_bins",
        "pair_bins = true needs bins",
    ),
    (
        "metrics pair_series without pair_bins or pair",
        &[("cwnd = true", "cwnd = true\n\n[metrics]\npair_series = true")],
        "metrics.pair_series",
        "pair_series = true needs the pair's bins: set pair_bins = true and pair = [source, destination]",
    ),
    (
        "metrics pair_series without pair_bins",
        &[(
            "cwnd = true",
            "cwnd = true\n\n[metrics]\npair = [\"a\", \"b\"]\npair_series = true",
        )],
        "metrics.pair_series",
        "set pair_bins = true (it is false)",
    ),
    (
        "metrics pair_series without pair",
        &[(
            "cwnd = true",
            "cwnd = true\n\n[metrics]\npair_bins = true\npair_series = true",
        )],
        "metrics.pair_series",
        "set pair = [source, destination] (it is unset)",
    ),
    (
        "metrics pair_series not a boolean",
        &[("cwnd = true", "cwnd = true\n\n[metrics]\npair_series = \"yes\"")],
        "metrics.pair_series",
        "expected true or false",
    ),
    (
        "metrics unknown sync index",
        &[(
            "cwnd = true",
            "cwnd = true\n\n[metrics]\nsync_index = \"both\"",
        )],
        "metrics.sync_index",
        "\"at_sample\", \"churn\"",
    ),
];

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
    assert_eq!(e.errors.len(), crate::config::walk::MAX_ERRORS + 1);
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
    assert_eq!(s.trace, crate::config::scenario::TraceSpec::default());
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
fn json_matches_toml() {
    for text in [DUMBBELL, SINGLE_FLOW, &BASE] {
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
    let doc = include_str!("../../../../../docs/SCENARIOS.md");
    for keys in key_lists() {
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
        .split("\n## Example")
        .nth(1)
        .and_then(|s| s.split("```toml\n").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("a ```toml example");
    let s = ok(example);
    assert_eq!(s.flows.len(), 1);
}

#[test]
fn names_are_the_serialised_names() {
    // Each choice is parsed from its enum's `ALL` table; the resolved
    // scenario (meta.json) prints the same names through serde.
    use crate::config::scenario::{AckHandling, Conversion, ConverterSharing, LengthDistribution};
    use crate::config::traffic::OnOffDistribution;
    use crate::tcp::config::{
        BackSource, CongestionControl, CubicRtt, RtoEstimator, SackOptionSize, SackRecovery,
    };
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
    check(&SackRecovery::ALL);
    check(&SackOptionSize::ALL);
    check(&CongestionControl::ALL);
    check(&CubicRtt::ALL);
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
    for (name, v) in CongestionControl::ALL {
        assert_eq!(v.name(), name);
    }
}

#[test]
fn every_listed_key_is_read() {
    // A TOML date is no key's value: set at each allowed key of every table
    // in turn, it must be reported at that key (as a bad value, or as a key
    // the rest of the table does not read), never as an unknown key. The
    // tables declared by `key_table!` (config/keys.rs) get their list and
    // their reading from one declaration; for the others this test keeps
    // the two in step.
    use crate::config::flowgen::FLOWGEN_KEYS;
    use crate::config::flows::FLOW_KEYS;
    use crate::config::links::LINK_KEYS;
    use crate::config::metrics::METRICS_KEYS;
    use crate::config::nodes::NODE_KEYS;
    use crate::config::obs::{ASSEMBLY_KEYS, BURST_LOSS_KEYS};
    use crate::config::optical::{GENERATOR_KEYS, SWITCH_KEYS};
    use crate::config::schema::{SIM_KEYS, TOP_KEYS};
    use crate::config::tcp::{CUBIC_KEYS, PACING_KEYS, RTO_KEYS, SMALL_QUEUES_KEYS, TCP_KEYS};
    use crate::config::trace::TRACE_KEYS;
    use crate::config::traffic::TRAFFIC_KEYS;
    let traffic = format!("{}{}", *BASE, super::traffic::TRAFFIC);
    let flowgen = format!(
        "{}\n[[flow_generators]]\nfrom = \"a\"\nto = \"b\"\nrate = 5\nsize = \"10 KB\"\n",
        *BASE
    );
    // (base, where the table is: keys and array indices, its keys)
    let tables: &[(&str, &[&str], &[&str])] = &[
        (&BASE, &[], TOP_KEYS),
        (&BASE, &["simulation"], SIM_KEYS),
        (&BASE, &["tcp"], TCP_KEYS),
        (&BASE, &["tcp", "rto"], RTO_KEYS),
        (&BASE, &["tcp", "cubic"], CUBIC_KEYS),
        (&BASE, &["tcp", "small_queues"], SMALL_QUEUES_KEYS),
        (&BASE, &["tcp", "pacing"], PACING_KEYS),
        (&BASE, &["nodes", "1"], NODE_KEYS),
        (&BASE, &["links", "1"], LINK_KEYS),
        (&BASE, &["flows", "0"], FLOW_KEYS),
        (&BASE, &["trace"], TRACE_KEYS),
        (&BASE, &["metrics"], METRICS_KEYS),
        (&BASE, &["optical"], SWITCH_KEYS),
        (
            &super::obs::OBS_BASE,
            &["nodes", "1", "assembly"],
            ASSEMBLY_KEYS,
        ),
        (
            &super::obs::OBS_BASE,
            &["links", "1", "burst_loss"],
            BURST_LOSS_KEYS,
        ),
        (
            &super::optical::CORE_BASE,
            &["nodes", "2", "switch"],
            SWITCH_KEYS,
        ),
        (
            &super::optical::CORE_BASE,
            &["generators", "0"],
            GENERATOR_KEYS,
        ),
        (&traffic, &["traffic", "0"], TRAFFIC_KEYS),
        (&flowgen, &["flow_generators", "0"], FLOWGEN_KEYS),
    ];
    let date: toml::value::Datetime = "1979-05-27".parse().unwrap();
    let mut failures = Vec::new();
    for (base, at, keys) in tables {
        for key in *keys {
            let mut doc: toml::Table = toml::from_str(base).unwrap();
            let (table, path) = table_at(&mut doc, at);
            table.insert((*key).to_string(), toml::Value::Datetime(date));
            let path = crate::config::walk::join(&path, key);
            match crate::config::schema::build(&crate::config::walk::Val::from_toml_table(&doc)) {
                Ok(_) => failures.push(format!("{path}: parsed without error")),
                Err(e) => {
                    if !e
                        .errors
                        .iter()
                        .any(|x| x.path == path && !x.reason.starts_with("unknown key"))
                    {
                        failures.push(format!("{path}: {e}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The table of `doc` at `at` (keys, and indices into arrays of tables;
/// absent tables are created) and its key path.
fn table_at<'a>(doc: &'a mut toml::Table, at: &[&str]) -> (&'a mut toml::Table, String) {
    let mut table = doc;
    let mut path = String::new();
    let mut steps = at.iter();
    while let Some(key) = steps.next() {
        path = crate::config::walk::join(&path, key);
        let v = table
            .entry((*key).to_string())
            .or_insert(toml::Value::Table(toml::Table::new()));
        table = match v {
            toml::Value::Table(t) => t,
            toml::Value::Array(items) => {
                let i: usize = steps.next().unwrap().parse().unwrap();
                path = crate::config::walk::index(&path, i);
                items[i].as_table_mut().unwrap()
            }
            other => panic!("{path} is {other:?}"),
        };
    }
    (table, path)
}

/// `repeat = N` (config/repeat.rs) resolves to the scenario with the N
/// tables written out, and a problem in a copy names the table as written.
#[test]
fn repeated_tables_resolve_as_written_out() {
    use std::fmt::Write as _;
    let head = "name = \"d\"\n[simulation]\nduration = \"1 s\"\n\
                [[nodes]]\nname = \"r0\"\n[[nodes]]\nname = \"r1\"\n";
    // Two hosts per pair and their links, with repeat and spelled out.
    let compact = format!(
        "{head}[[nodes]]\nname = \"s{{i}}\"\nkind = \"host\"\nrepeat = 3\n\
         [[nodes]]\nname = \"d{{i}}\"\nkind = \"host\"\nrepeat = 3\n\
         [[links]]\nfrom = \"r0\"\nto = \"r1\"\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n\
         [[links]]\nfrom = \"s{{i}}\"\nto = \"r0\"\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\nrepeat = 3\n\
         [[links]]\nfrom = \"r1\"\nto = \"d{{i}}\"\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\nrepeat = 3\n\
         [[flows]]\nfrom = \"s{{i}}\"\nto = \"d{{i}}\"\nrepeat = 3\n"
    );
    let mut spelled = head.to_string();
    for side in ["s", "d"] {
        for i in 0..3 {
            let _ = write!(
                spelled,
                "[[nodes]]\nname = \"{side}{i}\"\nkind = \"host\"\n"
            );
        }
    }
    spelled += "[[links]]\nfrom = \"r0\"\nto = \"r1\"\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n";
    for (a, b) in [("s{i}", "r0"), ("r1", "d{i}")] {
        for i in 0..3 {
            let (a, b) = (
                a.replace("{i}", &i.to_string()),
                b.replace("{i}", &i.to_string()),
            );
            let _ = write!(
                spelled,
                "[[links]]\nfrom = \"{a}\"\nto = \"{b}\"\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n"
            );
        }
    }
    for i in 0..3 {
        let _ = write!(spelled, "[[flows]]\nfrom = \"s{i}\"\nto = \"d{i}\"\n");
    }
    assert_eq!(to_json(&ok(&compact)), to_json(&ok(&spelled)));
    assert_eq!(ok(&compact).nodes.len(), 8);

    // A bad value in the repeated table: one error, at the table as written.
    let bad = compact.replacen(
        "from = \"s{i}\"\nto = \"r0\"\nrate = \"1 Gbit/s\"",
        "from = \"s{i}\"\nto = \"r0\"\nrate = \"fast\"",
        1,
    );
    let e = errors_of(&bad);
    assert_eq!(e.errors.len(), 1, "{e}");
    assert_eq!(e.errors[0].path, "links[1].rate");
    assert!(
        e.errors[0]
            .reason
            .ends_with("(in copy i = 0 of repeat = 3)"),
        "{e}"
    );
    // A copy-specific problem names its copy.
    let bad = compact.replacen("to = \"d{i}\"\nrate", "to = \"x{i}\"\nrate", 1);
    let e = errors_of(&bad);
    assert!(
        e.errors.iter().any(|x| x.path == "links[2].to"
            && x.reason.contains("x2")
            && x.reason.contains("copy i = 2")),
        "{e}"
    );
}

/// `[metrics] pair` and `sync_index` resolve, round-trip through the echo,
/// and are absent from the echo at their defaults (existing scenarios keep
/// their bytes).
#[test]
fn metrics_pair_and_sync_index() {
    use crate::metrics::aggregate::SyncIndexDef;
    let plain = ok(&BASE);
    assert_eq!(plain.metrics.pair, None);
    assert_eq!(plain.metrics.sync_index, SyncIndexDef::AtSample);
    let echo = to_json(&plain);
    assert!(
        !echo.contains("pair") && !echo.contains("sync_index"),
        "{echo}"
    );
    let s = ok(&edit(&[(
        "cwnd = true",
        "cwnd = true\n\n[metrics]\npair = [\"b\", \"a\"]\nsync_index = \"churn\"",
    )]));
    assert_eq!(s.metrics.pair, Some((NodeId(2), NodeId(0))));
    assert_eq!(s.metrics.sync_index, SyncIndexDef::Churn);
    let echo = to_json(&s);
    assert!(echo.contains("\"sync_index\": \"churn\""), "{echo}");
    assert!(
        !s.metrics.pair_series && !echo.contains("pair_series"),
        "{echo}"
    );
}

/// `[metrics] pair_series` with `pair_bins` and `pair` is read and echoed
/// (it is absent from the echo when false: `metrics_pair_and_sync_index`).
#[test]
fn metrics_pair_series() {
    let s = ok(&edit(&[(
        "cwnd = true",
        "cwnd = true\n\n[metrics]\npair = [\"b\", \"a\"]\npair_bins = true\npair_series = true",
    )]));
    assert!(s.metrics.pair_series && s.metrics.pair_bins);
    assert!(to_json(&s).contains("\"pair_series\": true"));
}

/// `[trace] flows` with flow generators: declared ids and ids from the
/// first generated id on are allowed; the UDP sources' ids between them
/// are not, and the reason names both ranges.
#[test]
fn trace_flows_accept_generated_ids() {
    let gen = "\n[[flow_generators]]\nfrom = \"a\"\nto = \"b\"\nrate = 5\nsize = \"10 KB\"\n";
    let udp = super::traffic::TRAFFIC;
    let with = |ids: &str, extra: &str| {
        format!(
            "{}{gen}{extra}",
            edit(&[("cwnd = true", &format!("cwnd = true\nflows = {ids}"))])
        )
    };
    // One declared flow (0), no traffic: generated flows from 1 on.
    let s = ok(&with("[0, 1, 9000]", ""));
    assert_eq!(s.trace.flows, [FlowId(0), FlowId(1), FlowId(9000)]);
    // One traffic source takes id 1: generated flows from 2 on.
    assert_eq!(ok(&with("[2]", udp)).trace.flows, [FlowId(2)]);
    let e = errors_of(&with("[0, 1]", udp));
    let x = e
        .errors
        .iter()
        .find(|x| x.path == "trace.flows[1]")
        .unwrap();
    assert!(
        x.reason
            .contains("a declared flow id in 0..=0 or a generated flow id (from 2 on"),
        "{}",
        x.reason
    );
    // Without generators the old rule holds.
    let e = errors_of(&edit(&[("cwnd = true", "cwnd = true\nflows = [1]")]));
    assert!(e
        .errors
        .iter()
        .any(|x| x.reason.contains("expected a flow id in 0..=0")));
}

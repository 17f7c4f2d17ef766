//! Tests of the scenario schema, one file per topic as the schema's own
//! modules: every class of bad input names its key path and says why; good
//! files resolve with defaults and layering applied; no input makes the
//! parser panic. This file holds the shared base scenario and helpers.

use std::sync::LazyLock;

use crate::config::scenario::{AppSpec, Buffer, LossSpec, NodeKind, Routing, StartSpec};
use crate::config::{parse_json, parse_toml, to_json, ConfigErrors, Scenario};
use crate::ids::{FlowId, NodeId};
use crate::tcp::config::{SsthreshBasis, Variant};
use crate::tcp::profile::profile;
use crate::test_support::{links, nodes};
use crate::time::{SimDuration, SimTime};

const DUMBBELL: &str = include_str!("../../../../../scenarios/dumbbell.toml");
const SINGLE_FLOW: &str = include_str!("../../../../../scenarios/single_flow.toml");

/// The allowed keys of every table of the schema.
fn key_lists() -> Vec<&'static [&'static str]> {
    use crate::config::flowgen::FLOWGEN_KEYS;
    use crate::config::flows::FLOW_KEYS;
    use crate::config::links::{LINK_KEYS, LOSS_MODELS};
    use crate::config::metrics::METRICS_KEYS;
    use crate::config::nodes::NODE_KEYS;
    use crate::config::obs::{ASSEMBLY_KEYS, BURST_LOSS_KEYS};
    use crate::config::optical::{GENERATOR_KEYS, SWITCH_KEYS};
    use crate::config::schema::{SIM_KEYS, TOP_KEYS};
    use crate::config::tcp::{CUBIC_KEYS, PACING_KEYS, RTO_KEYS, SMALL_QUEUES_KEYS, TCP_KEYS};
    use crate::config::trace::TRACE_KEYS;
    use crate::config::traffic::TRAFFIC_KEYS;
    let mut lists = vec![
        TOP_KEYS,
        SIM_KEYS,
        TCP_KEYS,
        RTO_KEYS,
        CUBIC_KEYS,
        SMALL_QUEUES_KEYS,
        PACING_KEYS,
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
        FLOWGEN_KEYS,
    ];
    lists.extend(LOSS_MODELS.iter().map(|(_, keys)| *keys));
    lists
}

/// A small valid scenario; bad inputs are edits of it.
static BASE: LazyLock<String> = LazyLock::new(|| {
    [
        "\nname = \"t\"\n\n[simulation]\nduration = \"10 s\"\n\n[tcp]\nmss = \"1000 B\"\n\n",
        &nodes("a:host r b:host"),
        "\n",
        &links("a-r", "100 Mbit/s", "1 ms"),
        &links("r-b", "1 Gbit/s", "5 ms"),
        "loss = { model = \"bernoulli\", p = 0.01 }\n",
        "\n[[flows]]\nname = \"f\"\nfrom = \"a\"\nto = \"b\"\n\n[trace]\ncwnd = true\n",
    ]
    .concat()
});

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
    apply_edits(&BASE, edits)
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

/// One row per class of bad input: the edit, the exact path, a fragment of
/// the reason.
type Row = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);

/// An edit of a base scenario (see [`apply_edits`]).
type Edit = fn(&[(&str, &str)]) -> String;

/// Parses every row of each table (each row's `edits` applied by the
/// table's edit function) and checks that it fails with an error at the
/// row's key path whose reason contains the row's fragment; reports every
/// failing row at once.
#[track_caller]
fn check_bad_rows(tables: &[(&[Row], Edit)]) {
    let mut failures = Vec::new();
    let mut n = 0;
    for (rows, edit_fn) in tables {
        for (what, edits, path, fragment) in *rows {
            n += 1;
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
    }
    assert!(
        failures.is_empty(),
        "{} of {n} rows failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_inputs_name_path_and_reason() {
    check_bad_rows(&[
        (document::BAD, edit),
        (tcp::BAD, edit),
        (nodes::BAD, edit),
        (links::BAD, edit),
        (flows::BAD, edit),
        (obs::OBS_BAD, obs::obs_edit),
        (optical::CORE_BAD, optical::core_edit),
        (traffic::TRAFFIC_BAD, traffic::traffic_edit),
    ]);
}

mod document;
mod flows;
mod fuzz;
mod links;
mod nodes;
mod obs;
mod optical;
mod tcp;
mod traffic;

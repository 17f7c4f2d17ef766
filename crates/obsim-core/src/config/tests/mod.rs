//! Tests of the scenario schema, one file per topic as the schema's own
//! modules: every class of bad input names its key path and says why; good
//! files resolve with defaults and layering applied; no input makes the
//! parser panic. This file holds the shared base scenario and helpers.

use crate::config::scenario::{AppSpec, Buffer, LossSpec, NodeKind, Routing, StartSpec};
use crate::config::{parse_json, parse_toml, to_json, ConfigErrors, Scenario};
use crate::ids::{FlowId, NodeId};
use crate::tcp::config::{SsthreshBasis, Variant};
use crate::tcp::profile::profile;
use crate::time::{SimDuration, SimTime};

const DUMBBELL: &str = include_str!("../../../../../scenarios/dumbbell.toml");
const SINGLE_FLOW: &str = include_str!("../../../../../scenarios/single_flow.toml");

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

/// One row per class of bad input: the edit, the exact path, a fragment of
/// the reason.
type Row = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);

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

mod document;
mod flows;
mod fuzz;
mod links;
mod nodes;
mod obs;
mod optical;
mod tcp;
mod trace;
mod traffic;

//! The scenario schema: TOML (or JSON, from Python dicts) in, a validated
//! [`Scenario`] out. This module is the one owner of the schema; every key,
//! its default and its allowed values are documented in `docs/SCENARIOS.md`.
//!
//! Both formats are read into one value tree ([`walk::Val`]) and validated by
//! the same walk ([`schema`]), which reports every problem it finds, each with
//! its key path, instead of stopping at the first.
//!
//! Where things are: [`schema`] reads the document (`name`,
//! `[simulation]`) and hands each table to its topic module: `tcp`
//! (`[tcp]`, `[flows.tcp]` and profile layering), `nodes`, `links`, `flows`,
//! `traffic`, `obs` (`[nodes.assembly]`, `burst_loss`), `optical`
//! (`[optical]`, `[nodes.switch]`, `[[generators]]`), `trace` and
//! `metrics`; `endpoints` holds what flow and traffic groups share. The
//! leaves below them: `fields` (quantities with units and other shared
//! field parsers), [`walk`] (the value tree, tables, errors), [`units`],
//! and `keys` (`key_table!`: one declaration per key of the tables whose
//! keys each set one field). Adding a TCP parameter is one line in
//! `tcp.rs`'s table, its field in `TcpConfig` (with its value in each
//! profile) and its line in docs/SCENARIOS.md; tests are in `tests/`, one
//! file per topic.

#[macro_use]
mod keys;

mod endpoints;
pub mod error;
mod fields;
mod flowgen;
mod flows;
mod links;
mod metrics;
mod nodes;
mod obs;
mod optical;
pub mod repeat;
pub mod scenario;
pub mod schema;
mod size;
mod tcp;
mod trace;
pub mod traffic;
pub mod units;
pub mod walk;

#[cfg(test)]
mod tests;

pub use error::{ConfigError, ConfigErrors};
pub use scenario::Scenario;

use walk::Val;

/// Parses and validates a scenario written in TOML. A syntax error gives one
/// error with its line and column; otherwise every problem is reported.
pub fn parse_toml(text: &str) -> Result<Scenario, ConfigErrors> {
    match toml::from_str::<toml::Table>(text) {
        Ok(t) => schema::build(&Val::from_toml_table(&t)),
        Err(e) => {
            let at = e.span().map_or(String::new(), |span| {
                let (line, col) = line_col(text, span.start);
                format!(" at line {line}, column {col}")
            });
            Err(one_error(format!(
                "TOML syntax error{at}: {}",
                e.message().trim()
            )))
        }
    }
}

/// Parses and validates a scenario given as JSON (how Python dicts arrive).
/// The JSON object has the same shape as the TOML document; a `null` member
/// counts as an absent key.
pub fn parse_json(text: &str) -> Result<Scenario, ConfigErrors> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => schema::build(&Val::from_json(&v)),
        Err(e) => Err(one_error(format!(
            "JSON syntax error at line {}, column {}: {}",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        ))),
    }
}

/// The resolved scenario as JSON, for result metadata.
pub fn to_json(scenario: &Scenario) -> String {
    serde_json::to_string_pretty(scenario).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("cannot serialise scenario: {e}") }).to_string()
    })
}

fn one_error(reason: String) -> ConfigErrors {
    ConfigErrors {
        errors: vec![ConfigError {
            path: String::new(),
            reason,
        }],
    }
}

/// 1-based line and column (in characters) of byte offset `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// `serde_json` appends " at line L column C"; we print it ourselves.
fn strip_position(msg: &str) -> &str {
    msg.rfind(" at line ").map_or(msg, |i| &msg[..i])
}

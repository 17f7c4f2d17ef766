//! What the crate's unit tests share: the `[[nodes]]` and `[[links]]` tables
//! that config, engine and OBS test topologies are made of, written once
//! here so each test spells out only what makes its scenario different (a
//! sub-table, a loss model, a buffer), and the look-up of a link's result
//! row. Tables come out in the order of the words given and with the keys in
//! the order the scenario files use, so a test may still edit the text it
//! builds.

use crate::results::{LinkResult, RunResults};

/// `[[nodes]]` tables, one per whitespace-separated word of `spec`:
/// `name:kind`, or a bare `name` for a node of the default kind (router).
pub(crate) fn nodes(spec: &str) -> String {
    spec.split_whitespace()
        .map(|word| match word.split_once(':') {
            Some((name, kind)) => format!("[[nodes]]\nname = \"{name}\"\nkind = \"{kind}\"\n"),
            None => format!("[[nodes]]\nname = \"{word}\"\n"),
        })
        .collect()
}

/// Electronic `[[links]]` tables, one per whitespace-separated `from-to`
/// word of `pairs`, each with `rate` and `delay`.
pub(crate) fn links(pairs: &str, rate: &str, delay: &str) -> String {
    link_tables(pairs, "", rate, delay, "")
}

/// [`links`] with `buffer = "{buffer}"` on each.
pub(crate) fn buffered_links(pairs: &str, rate: &str, delay: &str, buffer: &str) -> String {
    link_tables(pairs, "", rate, delay, &format!("buffer = \"{buffer}\"\n"))
}

/// Optical `[[links]]` tables (`kind = "optical"`), one per `from-to` word
/// of `pairs`, each with `wavelengths` when given, `rate` and `delay`.
pub(crate) fn optical_links(
    pairs: &str,
    wavelengths: Option<u16>,
    rate: &str,
    delay: &str,
) -> String {
    let kind = match wavelengths {
        Some(w) => format!("kind = \"optical\"\nwavelengths = {w}\n"),
        None => "kind = \"optical\"\n".to_string(),
    };
    link_tables(pairs, &kind, rate, delay, "")
}

/// One `[[links]]` table per `from-to` word of `pairs`: `kind` lines, then
/// `rate` and `delay`, then `extra` lines.
fn link_tables(pairs: &str, kind: &str, rate: &str, delay: &str, extra: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for pair in pairs.split_whitespace() {
        let (from, to) = pair
            .split_once('-')
            .unwrap_or_else(|| panic!("link {pair:?} is not from-to"));
        let _ = write!(
            out,
            "[[links]]\nfrom = \"{from}\"\nto = \"{to}\"\n{kind}rate = \"{rate}\"\ndelay = \"{delay}\"\n{extra}"
        );
    }
    out
}

/// The result row of the link `from -> to` of a run; panics if the run has
/// no such link.
#[track_caller]
pub(crate) fn link_result<'a>(r: &'a RunResults, from: &str, to: &str) -> &'a LinkResult {
    r.links
        .iter()
        .find(|l| l.from == from && l.to == to)
        .unwrap_or_else(|| panic!("no link {from} -> {to} in the results"))
}

/// `text` with every `from` replaced by `to`; panics when `text` has no
/// `from`, so a test that edits a shipped scenario file fails loudly when the
/// file changes under it instead of silently running the unedited scenario.
#[track_caller]
pub(crate) fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(
        text.contains(from),
        "the scenario text has no {from:?} to edit"
    );
    text.replace(from, to)
}

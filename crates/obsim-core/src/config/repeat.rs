//! `repeat = N`: one table of `[[nodes]]`, `[[links]]`, `[[flows]]` or
//! `[[traffic]]` that stands for N copies, with `{i}` in every string value
//! (names, endpoints, nested tables too) replaced by the copy's index
//! 0..N-1. Twenty hosts and their access links become two tables:
//!
//! ```toml
//! [[nodes]]
//! name = "s{i}"
//! kind = "host"
//! repeat = 10
//!
//! [[links]]
//! from = "s{i}"
//! to = "r0"
//! rate = "155 Mbit/s"
//! delay = "1 ms"
//! repeat = 10
//! ```
//!
//! The copies are expanded before the schema walk, in place and in order,
//! so the resolved scenario is exactly the one with the tables written out
//! (`nodes[k]` of the results numbers the copies). A problem found in a
//! copy is reported at the table as written (`links[1].rate`), with the
//! copy's index when it matters.

use std::collections::BTreeSet;

use super::error::{ConfigError, ConfigErrors};
use super::walk::{Errors, Val};

/// The arrays of tables whose tables may carry `repeat`.
pub(crate) const REPEATABLE: [&str; 4] = ["nodes", "links", "flows", "traffic"];

/// The key that asks for copies.
pub(crate) const REPEAT_KEY: &str = "repeat";

/// The placeholder replaced by the copy index.
pub const PLACEHOLDER: &str = "{i}";

/// Largest `repeat` (a bound that keeps a typo from exhausting memory; far
/// above the thousands of hosts the papers' topologies have).
pub const MAX_REPEAT: i128 = 1_000_000;

/// Where each table of the expanded arrays came from: per array, for each
/// expanded index, the index of the table as written and the copy index
/// (`None` for a table without `repeat`).
#[derive(Debug, Default)]
pub(super) struct Origins {
    arrays: Vec<(&'static str, Vec<Origin>)>,
}

/// One expanded table: the index of the table as written, and for a copy
/// its index and the `repeat` count.
type Origin = (usize, Option<(usize, i128)>);

/// What a table's `repeat` asks for.
enum Repeat {
    /// No `repeat`: the table as it is.
    Absent,
    /// A bad `repeat` (reported): no table.
    Bad,
    /// This many copies.
    Copies(i128),
}

/// Expands every `repeat` of `root` (a document); problems with `repeat`
/// itself or with a stray `{i}` go to `errs`. A document with no `repeat`
/// comes back unchanged.
pub(super) fn expand(errs: &mut Errors, root: &Val) -> (Val, Origins) {
    let mut origins = Origins::default();
    let Val::Table(top) = root else {
        return (root.clone(), origins);
    };
    let mut out = top.clone();
    for (key, value) in &mut out {
        let Some(array) = REPEATABLE.iter().find(|a| **a == key.as_str()) else {
            continue;
        };
        let Val::Array(items) = value else { continue };
        if !items.iter().any(has_repeat) {
            check_no_placeholder(errs, array, items);
            continue;
        }
        let mut expanded = Vec::with_capacity(items.len());
        let mut from = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            let path = format!("{array}[{k}]");
            match repeat_count(errs, &path, item) {
                Repeat::Absent => {
                    if mentions_placeholder(item) {
                        stray_placeholder(errs, &path);
                    }
                    expanded.push(item.clone());
                    from.push((k, None));
                }
                Repeat::Bad => {}
                Repeat::Copies(n) => {
                    let Val::Table(fields) = item else { continue };
                    let body: Vec<(String, Val)> = fields
                        .iter()
                        .filter(|(f, _)| f != REPEAT_KEY)
                        .cloned()
                        .collect();
                    for i in 0..n {
                        let index = i.to_string();
                        expanded.push(Val::Table(
                            body.iter()
                                .map(|(f, v)| (f.clone(), substitute(v, &index)))
                                .collect(),
                        ));
                        from.push((k, Some((i as usize, n))));
                    }
                }
            }
        }
        *items = expanded;
        origins.arrays.push((array, from));
    }
    (Val::Table(out), origins)
}

fn has_repeat(item: &Val) -> bool {
    matches!(item, Val::Table(f) if f.iter().any(|(k, _)| k == REPEAT_KEY))
}

/// What `item`'s `repeat` asks for (a bad value is reported).
fn repeat_count(errs: &mut Errors, path: &str, item: &Val) -> Repeat {
    let Val::Table(fields) = item else {
        return Repeat::Absent;
    };
    let Some((_, v)) = fields.iter().find(|(k, _)| k == REPEAT_KEY) else {
        return Repeat::Absent;
    };
    match v {
        Val::Int(n) if (1..=MAX_REPEAT).contains(n) => Repeat::Copies(*n),
        other => {
            errs.push(
                format!("{path}.{REPEAT_KEY}"),
                format!(
                    "expected the number of copies of this table, an integer from 1 to \
                     {MAX_REPEAT}, found {}",
                    other.describe()
                ),
            );
            Repeat::Bad
        }
    }
}

fn check_no_placeholder(errs: &mut Errors, array: &str, items: &[Val]) {
    for (k, item) in items.iter().enumerate() {
        if mentions_placeholder(item) {
            stray_placeholder(errs, &format!("{array}[{k}]"));
        }
    }
}

fn stray_placeholder(errs: &mut Errors, path: &str) {
    errs.push(
        path.to_string(),
        format!(
            "\"{PLACEHOLDER}\" stands for the copy index of `{REPEAT_KEY} = N`, but this table \
             has no {REPEAT_KEY}; add one or remove \"{PLACEHOLDER}\""
        ),
    );
}

fn mentions_placeholder(v: &Val) -> bool {
    match v {
        Val::Str(s) => s.contains(PLACEHOLDER),
        Val::Array(a) => a.iter().any(mentions_placeholder),
        Val::Table(t) => t.iter().any(|(_, v)| mentions_placeholder(v)),
        _ => false,
    }
}

fn substitute(v: &Val, index: &str) -> Val {
    match v {
        Val::Str(s) if s.contains(PLACEHOLDER) => Val::Str(s.replace(PLACEHOLDER, index)),
        Val::Array(a) => Val::Array(a.iter().map(|x| substitute(x, index)).collect()),
        Val::Table(t) => Val::Table(
            t.iter()
                .map(|(k, x)| (k.clone(), substitute(x, index)))
                .collect(),
        ),
        other => other.clone(),
    }
}

impl Origins {
    /// The errors of the expanded document, renamed to the tables as
    /// written: `links[7].rate` becomes `links[1].rate`, the reason saying
    /// which copy; a problem every copy shares is reported once.
    pub(super) fn name_sources(&self, errors: ConfigErrors) -> ConfigErrors {
        if self.arrays.is_empty() {
            return errors;
        }
        let mut seen = BTreeSet::new();
        let mut out = Vec::with_capacity(errors.errors.len());
        for e in errors.errors {
            let (path, copy) = self.source_path(&e.path);
            if !seen.insert((path.clone(), e.reason.clone())) {
                continue;
            }
            let reason = match copy {
                Some((i, n)) => format!("{} (in copy i = {i} of {REPEAT_KEY} = {n})", e.reason),
                None => e.reason,
            };
            out.push(ConfigError { path, reason });
        }
        ConfigErrors { errors: out }
    }

    fn source_path(&self, path: &str) -> (String, Option<(usize, i128)>) {
        for (array, from) in &self.arrays {
            let Some(rest) = path.strip_prefix(array).and_then(|r| r.strip_prefix('[')) else {
                continue;
            };
            let Some(close) = rest.find(']') else {
                continue;
            };
            let Ok(k) = rest[..close].parse::<usize>() else {
                continue;
            };
            if let Some((src, copy)) = from.get(k) {
                return (format!("{array}[{src}]{}", &rest[close + 1..]), *copy);
            }
        }
        (path.to_string(), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Val {
        Val::from_toml_table(&toml::from_str::<toml::Table>(text).unwrap())
    }

    #[test]
    fn copies_replace_the_placeholder_everywhere_in_order() {
        let mut errs = Errors::default();
        let (v, _) = expand(
            &mut errs,
            &doc(
                "[[links]]\nfrom = \"a\"\nto = \"b\"\n[[links]]\nfrom = \"s{i}\"\nto = \"r\"\n\
                 loss = { model = \"segments\", flow = 0, seqs = [1], note = [\"x{i}\"] }\n\
                 repeat = 3\n",
            ),
        );
        assert!(errs.is_empty());
        let expected = doc(
            "[[links]]\nfrom = \"a\"\nto = \"b\"\n\
             [[links]]\nfrom = \"s0\"\nto = \"r\"\nloss = { model = \"segments\", flow = 0, seqs = [1], note = [\"x0\"] }\n\
             [[links]]\nfrom = \"s1\"\nto = \"r\"\nloss = { model = \"segments\", flow = 0, seqs = [1], note = [\"x1\"] }\n\
             [[links]]\nfrom = \"s2\"\nto = \"r\"\nloss = { model = \"segments\", flow = 0, seqs = [1], note = [\"x2\"] }\n",
        );
        assert_eq!(v, expected);
    }

    #[test]
    fn bad_counts_and_stray_placeholders_are_reported() {
        for (text, path, needle) in [
            (
                "[[nodes]]\nname = \"h{i}\"\nrepeat = 0\n",
                "nodes[0].repeat",
                "from 1 to",
            ),
            (
                "[[nodes]]\nname = \"h{i}\"\nrepeat = \"3\"\n",
                "nodes[0].repeat",
                "found \"3\"",
            ),
            ("[[nodes]]\nname = \"h{i}\"\n", "nodes[0]", "has no repeat"),
            (
                "[[nodes]]\nname = \"a\"\nrepeat = 2\n[[nodes]]\nname = \"b{i}\"\n",
                "nodes[1]",
                "has no repeat",
            ),
        ] {
            let mut errs = Errors::default();
            expand(&mut errs, &doc(text));
            let e = errs.finish::<()>(None).unwrap_err();
            assert_eq!(e.errors[0].path, path, "{text}");
            assert!(
                e.errors[0].reason.contains(needle),
                "{}",
                e.errors[0].reason
            );
        }
    }

    #[test]
    fn errors_name_the_table_as_written_and_the_copy() {
        let origins = Origins {
            arrays: vec![(
                "links",
                vec![(0, None), (1, Some((0, 2))), (1, Some((1, 2)))],
            )],
        };
        let errs = ConfigErrors {
            errors: vec![
                ConfigError {
                    path: "links[1].rate".into(),
                    reason: "bad rate".into(),
                },
                ConfigError {
                    path: "links[2].rate".into(),
                    reason: "bad rate".into(),
                },
                ConfigError {
                    path: "links[2].to".into(),
                    reason: "no node \"d1\"".into(),
                },
                ConfigError {
                    path: "links[0].from".into(),
                    reason: "x".into(),
                },
                ConfigError {
                    path: "nodes[2]".into(),
                    reason: "y".into(),
                },
            ],
        };
        let got: Vec<(String, String)> = origins
            .name_sources(errs)
            .errors
            .into_iter()
            .map(|e| (e.path, e.reason))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "links[1].rate".into(),
                    "bad rate (in copy i = 0 of repeat = 2)".into()
                ),
                (
                    "links[1].to".into(),
                    "no node \"d1\" (in copy i = 1 of repeat = 2)".into()
                ),
                ("links[0].from".into(), "x".into()),
                ("nodes[2]".into(), "y".into()),
            ]
        );
    }
}

//! A small validating walker over a parsed document. TOML and JSON are both
//! converted to one [`Val`] tree; [`Table`] hands out typed values by key,
//! tracking the key path (`links[2].rate`) and collecting every problem in
//! [`Errors`] instead of stopping at the first, as serde would.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::error::{ConfigError, ConfigErrors};
use super::units::quote;

/// A parsed value, independent of the source format.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// `true` / `false`.
    Bool(bool),
    /// An integer (TOML i64, JSON i64 or u64).
    Int(i128),
    /// A floating-point number.
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Val>),
    /// A table (object), keys in source order where the parser keeps it.
    Table(Vec<(String, Val)>),
    /// A TOML date or time (never valid in a scenario).
    Datetime(String),
    /// JSON `null` inside an array (a `null` table value counts as absent).
    Null,
}

impl Val {
    /// Converts a TOML value.
    pub fn from_toml(v: &toml::Value) -> Val {
        match v {
            toml::Value::String(s) => Val::Str(s.clone()),
            toml::Value::Integer(i) => Val::Int(i128::from(*i)),
            toml::Value::Float(f) => Val::Float(*f),
            toml::Value::Boolean(b) => Val::Bool(*b),
            toml::Value::Datetime(d) => Val::Datetime(d.to_string()),
            toml::Value::Array(a) => Val::Array(a.iter().map(Val::from_toml).collect()),
            toml::Value::Table(t) => Val::from_toml_table(t),
        }
    }

    /// Converts a TOML table.
    pub fn from_toml_table(t: &toml::Table) -> Val {
        Val::Table(
            t.iter()
                .map(|(k, v)| (k.clone(), Val::from_toml(v)))
                .collect(),
        )
    }

    /// Converts a JSON value; `null` members of objects are dropped (treated
    /// as absent keys, which is what Python's `None` usually means).
    pub fn from_json(v: &serde_json::Value) -> Val {
        use serde_json::Value as J;
        match v {
            J::Null => Val::Null,
            J::Bool(b) => Val::Bool(*b),
            J::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Val::Int(i128::from(i))
                } else if let Some(u) = n.as_u64() {
                    Val::Int(i128::from(u))
                } else {
                    Val::Float(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            J::String(s) => Val::Str(s.clone()),
            J::Array(a) => Val::Array(a.iter().map(Val::from_json).collect()),
            J::Object(o) => Val::Table(
                o.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), Val::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// How the value reads in an error message: `"10 ms"`, `integer 5`, ...
    pub fn describe(&self) -> String {
        match self {
            Val::Bool(b) => format!("boolean {b}"),
            Val::Int(i) => format!("integer {i}"),
            Val::Float(f) => format!("float {f}"),
            Val::Str(s) => quote(s),
            Val::Array(_) => "an array".into(),
            Val::Table(_) => "a table".into(),
            Val::Datetime(d) => format!("datetime {d}"),
            Val::Null => "null".into(),
        }
    }
}

/// Most problems listed; the rest are counted in a last entry.
pub const MAX_ERRORS: usize = 100;

/// The problems found so far.
#[derive(Debug, Default)]
pub struct Errors {
    list: Vec<ConfigError>,
    seen: BTreeSet<(String, String)>,
    more: usize,
}

impl Errors {
    /// Records a problem at `path` (exact duplicates are recorded once;
    /// past [`MAX_ERRORS`] they are only counted).
    pub fn push(&mut self, path: impl Into<String>, reason: impl Into<String>) {
        let key = (path.into(), reason.into());
        if self.seen.contains(&key) {
            return;
        }
        if self.list.len() >= MAX_ERRORS {
            self.more += 1;
            return;
        }
        self.seen.insert(key.clone());
        self.list.push(ConfigError {
            path: key.0,
            reason: key.1,
        });
    }
    /// No problem so far.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// `Ok(value)` if no problem was recorded, else all of them.
    pub fn finish<T>(mut self, value: Option<T>) -> Result<T, ConfigErrors> {
        if self.more > 0 {
            let reason = format!(
                "... and {} more problem{} not shown",
                self.more,
                if self.more == 1 { "" } else { "s" }
            );
            self.list.push(ConfigError {
                path: String::new(),
                reason,
            });
        }
        match value {
            Some(v) if self.list.is_empty() => Ok(v),
            // Unreachable in practice: a part is invalid only after a push.
            _ if self.list.is_empty() => Err(ConfigErrors {
                errors: vec![ConfigError {
                    path: String::new(),
                    reason: "invalid scenario".into(),
                }],
            }),
            _ => Err(ConfigErrors { errors: self.list }),
        }
    }
}

/// What a lookup found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Got<T> {
    /// The key is absent.
    #[default]
    Missing,
    /// The key is present but invalid (already recorded).
    Invalid,
    /// The key is present and valid.
    Value(T),
}

impl<T> Got<T> {
    /// The value, or `default` if absent; `None` if invalid.
    pub fn or(self, default: T) -> Option<T> {
        match self {
            Got::Missing => Some(default),
            Got::Invalid => None,
            Got::Value(v) => Some(v),
        }
    }
    /// The value if present and valid.
    pub fn value(self) -> Option<T> {
        match self {
            Got::Value(v) => Some(v),
            _ => None,
        }
    }
    /// `Some(Some(v))` if present, `Some(None)` if absent, `None` if invalid.
    pub fn optional(self) -> Option<Option<T>> {
        match self {
            Got::Missing => Some(None),
            Got::Invalid => None,
            Got::Value(v) => Some(Some(v)),
        }
    }
}

/// `parent.key`, or `key` at the top level.
pub fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// `parent[i]`.
pub fn index(parent: &str, i: usize) -> String {
    format!("{parent}[{i}]")
}

/// A table being read, with its key path.
pub struct Table<'a> {
    path: String,
    entries: &'a [(String, Val)],
}

impl<'a> Table<'a> {
    /// Opens `val` as a table whose keys must all be in `allowed`; reports a
    /// wrong type or each unknown key (with the closest allowed key).
    pub fn open(
        errs: &mut Errors,
        path: &str,
        val: &'a Val,
        allowed: &[&str],
    ) -> Option<Table<'a>> {
        let Val::Table(entries) = val else {
            errs.push(path, format!("expected a table, found {}", val.describe()));
            return None;
        };
        for (k, _) in entries {
            if !allowed.contains(&k.as_str()) {
                errs.push(join(path, k), unknown_key(k, allowed));
            }
        }
        Some(Table {
            path: path.to_string(),
            entries,
        })
    }

    /// The table's own path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Path of `key` in this table.
    pub fn key_path(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The raw value of `key`.
    pub fn raw(&self, key: &str) -> Option<&'a Val> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.raw(key).is_some()
    }

    /// Reads `key` with `parse`, whose error is the full reason.
    pub fn get<T>(
        &self,
        errs: &mut Errors,
        key: &str,
        parse: impl FnOnce(&Val) -> Result<T, String>,
    ) -> Got<T> {
        match self.raw(key) {
            None => Got::Missing,
            Some(v) => match parse(v) {
                Ok(t) => Got::Value(t),
                Err(reason) => {
                    errs.push(self.key_path(key), reason);
                    Got::Invalid
                }
            },
        }
    }

    /// Reads a required `key`; `expected` says what it should be.
    pub fn req<T>(
        &self,
        errs: &mut Errors,
        key: &str,
        expected: &str,
        parse: impl FnOnce(&Val) -> Result<T, String>,
    ) -> Option<T> {
        match self.get(errs, key, parse) {
            Got::Missing => {
                errs.push(
                    self.key_path(key),
                    format!("required key is missing: expected {expected}"),
                );
                None
            }
            Got::Invalid => None,
            Got::Value(v) => Some(v),
        }
    }
}

/// The reason for an unknown key.
fn unknown_key(key: &str, allowed: &[&str]) -> String {
    let mut r = format!("unknown key {}", quote(key));
    let best = allowed
        .iter()
        .map(|a| (edit_distance(key, a), *a))
        .filter(|&(d, a)| d <= 2.max(a.len() / 3) && d < key.chars().count())
        .min_by_key(|&(d, _)| d);
    if let Some((_, a)) = best {
        let _ = write!(r, "; did you mean {}?", quote(a));
    }
    if allowed.is_empty() {
        r.push_str("; no keys are allowed here");
    } else {
        let _ = write!(r, "; allowed keys: {}", allowed.join(", "));
    }
    r
}

/// Levenshtein distance (on chars; long inputs are cut to keep it cheap).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

// ---------------------------------------------------------------------------
// Value parsers: each returns the full reason on failure.
// ---------------------------------------------------------------------------

/// A boolean.
pub fn boolean(v: &Val) -> Result<bool, String> {
    match v {
        Val::Bool(b) => Ok(*b),
        _ => Err(format!("expected true or false, found {}", v.describe())),
    }
}

/// A non-empty string.
pub fn name(v: &Val) -> Result<String, String> {
    match v {
        Val::Str(s) if !s.trim().is_empty() => Ok(s.clone()),
        _ => Err(format!(
            "expected a non-empty name string, found {}",
            v.describe()
        )),
    }
}

/// An integer in `lo..=hi`.
pub fn int_in(v: &Val, lo: i128, hi: i128) -> Result<i128, String> {
    count_in(v, lo, hi, "")
}

/// An integer in `lo..=hi` counting `noun` (for the message: "an integer
/// number of segments >= 1").
pub fn count_in(v: &Val, lo: i128, hi: i128, noun: &str) -> Result<i128, String> {
    // Bounds of u32 or wider read as "no upper bound" unless exceeded.
    let wide = hi >= i128::from(u32::MAX);
    let what = if noun.is_empty() {
        "an integer".to_string()
    } else {
        format!("an integer number of {noun}")
    };
    let range = if wide {
        format!("{what} >= {lo}")
    } else {
        format!("{what} in {lo}..={hi}")
    };
    match v {
        Val::Int(i) if (lo..=hi).contains(i) => Ok(*i),
        Val::Int(i) if wide && *i > hi => Err(format!(
            "expected {range} and at most {hi}, found {}",
            v.describe()
        )),
        Val::Float(f) if f.fract() == 0.0 && f.is_finite() => Err(format!(
            "expected {range}, found {}; write it without a decimal point",
            v.describe()
        )),
        _ => Err(format!("expected {range}, found {}", v.describe())),
    }
}

/// A `u32` in `lo..=hi`.
pub fn u32_in(v: &Val, lo: u32, hi: u32) -> Result<u32, String> {
    int_in(v, i128::from(lo), i128::from(hi)).map(|i| i as u32)
}

/// One of the strings in `choices`.
pub fn choice<'c>(v: &Val, choices: &[&'c str]) -> Result<&'c str, String> {
    let list = choices
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(", ");
    match v {
        Val::Str(s) => choices
            .iter()
            .find(|c| **c == s.as_str())
            .copied()
            .ok_or_else(|| {
                let mut r = format!("expected one of {list}, found {}", v.describe());
                if let Some(c) = choices.iter().find(|c| c.eq_ignore_ascii_case(s)) {
                    let _ = write!(
                        r,
                        "; did you mean {}? (values are case-sensitive)",
                        quote(c)
                    );
                }
                r
            }),
        _ => Err(format!("expected one of {list}, found {}", v.describe())),
    }
}

/// One of the names of `table` (an enum's `ALL`: name and value pairs, in
/// the order messages list them); the reason on failure is [`choice`]'s.
pub fn named<T: Copy>(v: &Val, table: &[(&str, T)]) -> Result<T, String> {
    let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
    let name = choice(v, &names)?;
    Ok(table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .expect("choice returns one of the names"))
}

/// A probability: a number in [0, 1].
pub fn probability(v: &Val) -> Result<f64, String> {
    let p = match v {
        Val::Float(f) => *f,
        Val::Int(i) => *i as f64,
        _ => {
            return Err(format!(
                "expected a probability, a number in [0, 1], found {}",
                v.describe()
            ))
        }
    };
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!(
            "expected a probability, a number in [0, 1], found {}",
            v.describe()
        ))
    }
}

/// An array; elements are parsed by the caller.
pub fn array(v: &Val) -> Result<&[Val], String> {
    match v {
        Val::Array(a) => Ok(a),
        _ => Err(format!("expected an array, found {}", v.describe())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_works() {
        assert_eq!(edit_distance("rate", "rate"), 0);
        assert_eq!(edit_distance("rat", "rate"), 1);
        assert_eq!(edit_distance("dealy", "delay"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn unknown_keys_suggest() {
        let r = unknown_key("dealy", &["from", "to", "delay"]);
        assert!(r.contains("did you mean \"delay\"?"), "{r}");
        assert!(r.contains("allowed keys: from, to, delay"), "{r}");
        let r = unknown_key("zzzzzz", &["from", "to"]);
        assert!(!r.contains("did you mean"), "{r}");
    }

    #[test]
    fn ints_and_choices() {
        assert_eq!(int_in(&Val::Int(3), 1, 4), Ok(3));
        assert!(int_in(&Val::Int(5), 1, 4).unwrap_err().contains("1..=4"));
        assert!(int_in(&Val::Float(2.0), 1, 4)
            .unwrap_err()
            .contains("decimal point"));
        assert_eq!(choice(&Val::Str("a".into()), &["a", "b"]), Ok("a"));
        assert!(choice(&Val::Str("c".into()), &["a", "b"])
            .unwrap_err()
            .contains("\"a\", \"b\""));
        assert!(probability(&Val::Float(f64::NAN)).is_err());
        assert_eq!(probability(&Val::Int(1)), Ok(1.0));
    }
}

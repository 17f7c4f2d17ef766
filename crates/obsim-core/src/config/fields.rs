//! Field parsers shared by every table of the schema: quantities with units
//! (durations, rates, sizes), lists of integers, arrays of tables and the
//! flow-id reason. A leaf: it reads values through [`walk`](super::walk) and
//! [`units`] only, so every topic module may use it.

use super::units::{self, quote, UnitError, DURATION_UNITS, RATE_UNITS};
use super::walk::{index, int_in, Errors, Table, Val};
use crate::time::SimDuration;

/// What a quantity should look like, for error messages.
pub(super) struct Quantity {
    /// `a duration like "10 ms"`.
    pub(super) expected: &'static str,
    /// The accepted units.
    pub(super) units: &'static str,
    /// Unit suggested for a bare number.
    pub(super) unit: &'static str,
}

const DURATION: Quantity = Quantity {
    expected: "a duration like \"10 ms\"",
    units: DURATION_UNITS,
    unit: "ms",
};
const POS_DURATION: Quantity = Quantity {
    expected: "a positive duration like \"10 ms\"",
    units: DURATION_UNITS,
    unit: "ms",
};
const RATE: Quantity = Quantity {
    expected: "a positive bit rate like \"1 Gbit/s\"",
    units: RATE_UNITS,
    unit: "Mbit/s",
};

/// Parses a quantity string with `f`, then checks it with `check` (which
/// returns a hint when the value is out of range).
#[allow(clippy::many_single_char_names)]
pub(super) fn quantity<T: Copy>(
    v: &Val,
    q: &Quantity,
    f: impl Fn(&str) -> Result<T, UnitError>,
    check: impl Fn(T) -> Option<String>,
) -> Result<T, String> {
    let expected = format!("expected {} (units {})", q.expected, q.units);
    match v {
        Val::Str(s) => match f(s) {
            Ok(t) => match check(t) {
                None => Ok(t),
                Some(hint) => Err(format!("{expected}, found {}; {hint}", quote(s))),
            },
            Err(UnitError::BareNumber) => Err(format!(
                "{expected}, found {}; a unit is required, e.g. {}",
                quote(s),
                quote(&format!("{} {}", s.trim(), q.unit))
            )),
            Err(e) => Err(format!("{expected}, found {}; {}", quote(s), e.hint())),
        },
        Val::Int(_) | Val::Float(_) => {
            let n = match v {
                Val::Int(i) => i.to_string(),
                Val::Float(x) => x.to_string(),
                _ => String::new(),
            };
            Err(format!(
                "{expected}, found {}; a bare number has no unit: write a string such as {}",
                v.describe(),
                quote(&format!("{n} {}", q.unit))
            ))
        }
        _ => Err(format!("{expected}, found {}", v.describe())),
    }
}

/// A duration, zero allowed: `"10 ms"`.
pub(super) fn duration(v: &Val) -> Result<SimDuration, String> {
    quantity(v, &DURATION, units::parse_duration_ns, |_| None).map(SimDuration)
}

/// A duration greater than zero.
pub(super) fn positive_duration(v: &Val) -> Result<SimDuration, String> {
    quantity(v, &POS_DURATION, units::parse_duration_ns, |n| {
        (n == 0).then(|| "it must be greater than zero".into())
    })
    .map(SimDuration)
}

/// A bit rate greater than zero: `"1 Gbit/s"`, in bit/s.
pub(super) fn rate(v: &Val) -> Result<u64, String> {
    quantity(v, &RATE, units::parse_rate_bps, |n| {
        (n == 0).then(|| "it must be greater than zero".into())
    })
}

/// A size in bytes within `lo..=hi` (headers and segment sizes).
pub(super) fn bytes_in(v: &Val, q: &Quantity, lo: u64, hi: u64) -> Result<u32, String> {
    quantity(v, q, units::parse_bytes, |n| {
        (!(lo..=hi).contains(&n)).then(|| format!("it must be from {lo} B to {hi} B"))
    })
    .map(|n| n as u32)
}

/// `"a", "b", "c"`: the choices of a key, for error messages.
pub(super) fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A list of non-negative integers, sorted and without repeats (packet
/// indices, segment numbers, flow ids).
pub(super) fn u64_list(errs: &mut Errors, path: &str, v: &Val) -> Option<Vec<u64>> {
    let Val::Array(items) = v else {
        errs.push(
            path,
            format!(
                "expected an array of non-negative integers, found {}",
                v.describe()
            ),
        );
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, it) in items.iter().enumerate() {
        match int_in(it, 0, i128::from(u64::MAX)) {
            Ok(n) => out.push(n as u64),
            Err(e) => {
                errs.push(index(path, i), e);
                ok = false;
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    ok.then_some(out)
}

/// The elements of the array-of-tables `key` (absent = empty).
pub(super) fn table_array<'a>(errs: &mut Errors, top: &Table<'a>, key: &str) -> &'a [Val] {
    match top.raw(key) {
        None => &[],
        Some(Val::Array(a)) => a,
        Some(v) => {
            errs.push(
                key,
                format!(
                    "expected an array of tables ([[{key}]]), found {}",
                    v.describe()
                ),
            );
            &[]
        }
    }
}

/// Why `found` is not one of the `n` flow ids (flows are numbered after
/// expansion, so this is checked once they are).
pub(super) fn flow_id_reason(n: usize, found: &Val) -> String {
    if n == 0 {
        format!(
            "expected a flow id, but the scenario has no flows; found {}",
            found.describe()
        )
    } else {
        format!(
            "expected a flow id in 0..={} (flows numbered after expansion), found {}",
            n - 1,
            found.describe()
        )
    }
}

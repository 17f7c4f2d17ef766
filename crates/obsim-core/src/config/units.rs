//! Quantities with units, as written in scenario files: durations (`"10 ms"`),
//! bit rates (`"1 Gbit/s"`), sizes (`"1040 B"`, `"64 KiB"`) and buffer
//! lengths (`"100 packets"`).
//!
//! Numbers are parsed as exact decimals (`mantissa × 10^exp`) and scaled with
//! integer arithmetic, so `"0.1 s"` is exactly 100 000 000 ns and
//! `"1.040 KB"` is exactly 1040 B, with no floating-point drift. A value that
//! does not resolve to a whole base unit (`"0.5 ns"`, `"1.5 bit/s"`,
//! `"1.0005 KB"`) is rejected rather than rounded. Bare numbers are rejected:
//! every quantity needs its unit. Units are case-sensitive (`mb` could be
//! millibits); the accepted spellings are listed in [`DURATION_UNITS`],
//! [`RATE_UNITS`] and [`SIZE_UNITS`]. Whitespace between number and unit is
//! optional. Decimal prefixes (k, M, G) are powers of 1000; binary prefixes
//! (KiB, MiB, GiB) are powers of 1024.

use std::fmt;

/// Accepted duration units, for error messages.
pub const DURATION_UNITS: &str = "s, ms, us, µs, ns";
/// Accepted bit-rate units, for error messages.
pub const RATE_UNITS: &str =
    "bit/s, kbit/s, Mbit/s, Gbit/s, Tbit/s, also b/s Kb/s Mb/s Gb/s and bps kbps Mbps Gbps";
/// Accepted size units, for error messages.
pub const SIZE_UNITS: &str = "B, KB, MB, GB (powers of 1000), KiB, MiB, GiB (powers of 1024)";

/// Why a quantity string was rejected. The caller formats the full message
/// (what was expected, what was found) and appends [`UnitError::hint`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitError {
    /// No number at the start of the string.
    NotANumber,
    /// A number with no unit.
    BareNumber,
    /// A unit that is not in the table.
    UnknownUnit(String),
    /// A negative value.
    Negative,
    /// The value is not a whole number of the base unit (ns, bit/s, B).
    NotWhole(&'static str),
    /// The value does not fit in 64 bits of the base unit (named, as in
    /// [`UnitError::NotWhole`]).
    TooLarge(&'static str),
}

impl UnitError {
    /// A short explanation to append to the error message.
    pub fn hint(&self) -> String {
        match self {
            UnitError::NotANumber => "it does not start with a number".into(),
            UnitError::BareNumber => "a unit is required".into(),
            UnitError::UnknownUnit(u) => format!("unknown unit {}", quote(u)),
            UnitError::Negative => "negative values are not allowed".into(),
            UnitError::NotWhole(base) => format!("it is not a whole number of {base}"),
            UnitError::TooLarge(base) => format!("it is too large: {}", largest(base)),
        }
    }
}

/// The largest value of a base unit, in the words of an error message.
fn largest(base: &str) -> String {
    match base {
        "nanoseconds" => {
            "the largest duration is 18446744073.709551615 s (2^64 - 1 ns, about 584 years)".into()
        }
        "bits per second" => format!("the largest rate is {} bit/s (2^64 - 1)", u64::MAX),
        "bytes" => format!("the largest size is {} B (2^64 - 1)", u64::MAX),
        other => format!("the largest is {} {other} (2^64 - 1)", u64::MAX),
    }
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hint())
    }
}

/// A quantity that is either bytes or packets (buffer lengths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// A size in bytes.
    Bytes(u64),
    /// A number of packets.
    Packets(u64),
}

/// Parses a duration into whole nanoseconds: `"10 ms"`, `"1.5 s"`,
/// `"250 us"`, `"250 µs"`, `"100 ns"`, `"1e-3 s"`.
pub fn parse_duration_ns(s: &str) -> Result<u64, UnitError> {
    let (num, unit) = split(s)?;
    let pow10 = match unit {
        "s" => 9,
        "ms" => 6,
        "us" | "\u{b5}s" | "\u{3bc}s" => 3,
        "ns" => 0,
        "" => return Err(UnitError::BareNumber),
        u => return Err(UnitError::UnknownUnit(u.to_string())),
    };
    scale(&num, 1, pow10, "nanoseconds")
}

/// Parses a bit rate into whole bits per second: `"10 Gbit/s"`,
/// `"155 Mb/s"`, `"1e9 bit/s"`.
pub fn parse_rate_bps(s: &str) -> Result<u64, UnitError> {
    let (num, unit) = split(s)?;
    let pow10 = match unit {
        "bit/s" | "b/s" | "bps" => 0,
        "kbit/s" | "Kbit/s" | "kb/s" | "Kb/s" | "kbps" | "Kbps" => 3,
        "Mbit/s" | "Mb/s" | "Mbps" => 6,
        "Gbit/s" | "Gb/s" | "Gbps" => 9,
        "Tbit/s" | "Tb/s" | "Tbps" => 12,
        "" => return Err(UnitError::BareNumber),
        u => return Err(UnitError::UnknownUnit(u.to_string())),
    };
    scale(&num, 1, pow10, "bits per second")
}

/// Parses a size in bytes (`"1040 B"`, `"64 KB"`, `"64 KiB"`), or, when
/// `packets` is true, also a packet count (`"100 packets"`).
pub fn parse_amount(s: &str, packets: bool) -> Result<Amount, UnitError> {
    let (num, unit) = split(s)?;
    let (mult, pow10): (u128, i32) = match unit {
        "B" | "bytes" | "byte" => (1, 0),
        "KB" | "kB" => (1, 3),
        "MB" => (1, 6),
        "GB" => (1, 9),
        "KiB" => (1 << 10, 0),
        "MiB" => (1 << 20, 0),
        "GiB" => (1 << 30, 0),
        "packets" | "packet" if packets => {
            return scale(&num, 1, 0, "packets").map(Amount::Packets);
        }
        "" => return Err(UnitError::BareNumber),
        u => return Err(UnitError::UnknownUnit(u.to_string())),
    };
    scale(&num, mult, pow10, "bytes").map(Amount::Bytes)
}

/// Parses a size in bytes (no packet counts).
pub fn parse_bytes(s: &str) -> Result<u64, UnitError> {
    match parse_amount(s, false)? {
        Amount::Bytes(b) => Ok(b),
        Amount::Packets(_) => Err(UnitError::UnknownUnit("packets".into())),
    }
}

/// An exact decimal: `(-1)^neg × mantissa × 10^exp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decimal {
    neg: bool,
    mantissa: u128,
    exp: i64,
    /// Digits beyond 38 significant ones were dropped and not all zero.
    inexact: bool,
}

/// Splits `"12.5 ms"` into the parsed number and the (trimmed) unit.
fn split(s: &str) -> Result<(Decimal, &str), UnitError> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | '+' | '-' | 'e' | 'E')))
        .map_or(s.len(), |(i, _)| i);
    let (num, unit) = s.split_at(end);
    let d = parse_decimal(num)?;
    Ok((d, unit.trim()))
}

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]` exactly.
#[allow(clippy::many_single_char_names)]
fn parse_decimal(s: &str) -> Result<Decimal, UnitError> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut neg = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        neg = b[i] == b'-';
        i += 1;
    }
    let mut mantissa: u128 = 0;
    let mut exp: i64 = 0;
    let mut digits = 0usize;
    // Set when a nonzero digit did not fit in the mantissa.
    let mut inexact = false;
    let mut full = false;
    let mut frac = false;
    while i < b.len() && (b[i].is_ascii_digit() || (b[i] == b'.' && !frac)) {
        if b[i] == b'.' {
            frac = true;
            i += 1;
            continue;
        }
        let d = u128::from(b[i] - b'0');
        match mantissa.checked_mul(10).and_then(|m| m.checked_add(d)) {
            Some(m) if !full => {
                mantissa = m;
                if frac {
                    exp -= 1;
                }
            }
            // Too many significant digits: drop this one, keep the magnitude.
            _ => {
                full = true;
                inexact |= d != 0;
                if !frac {
                    exp += 1;
                }
            }
        }
        digits += 1;
        i += 1;
    }
    if digits == 0 {
        return Err(UnitError::NotANumber);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        let mut eneg = false;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            eneg = b[i] == b'-';
            i += 1;
        }
        let start = i;
        let mut e: i64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            e = (e * 10 + i64::from(b[i] - b'0')).min(1_000_000);
            i += 1;
        }
        if i == start {
            return Err(UnitError::NotANumber);
        }
        exp += if eneg { -e } else { e };
    }
    if i != b.len() {
        return Err(UnitError::NotANumber);
    }
    Ok(Decimal {
        neg,
        mantissa,
        exp,
        inexact,
    })
}

/// `d × mult × 10^pow10` as a whole `u64`, or why not.
fn scale(d: &Decimal, mult: u128, pow10: i32, base: &'static str) -> Result<u64, UnitError> {
    if d.mantissa == 0 {
        return Ok(0);
    }
    if d.neg {
        return Err(UnitError::Negative);
    }
    let v = d
        .mantissa
        .checked_mul(mult)
        .ok_or(UnitError::TooLarge(base))?;
    let e = d.exp + i64::from(pow10);
    if d.inexact {
        return Err(if e > 0 {
            UnitError::TooLarge(base)
        } else {
            UnitError::NotWhole(base)
        });
    }
    let r = if e >= 0 {
        let p = u32::try_from(e)
            .ok()
            .and_then(|e| 10u128.checked_pow(e))
            .ok_or(UnitError::TooLarge(base))?;
        v.checked_mul(p).ok_or(UnitError::TooLarge(base))?
    } else {
        match u32::try_from(-e).ok().and_then(|e| 10u128.checked_pow(e)) {
            Some(p) if v % p == 0 => v / p,
            _ => return Err(UnitError::NotWhole(base)),
        }
    };
    u64::try_from(r).map_err(|_| UnitError::TooLarge(base))
}

/// `s` in double quotes, escaped, and cut to a readable length.
pub fn quote(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut:?}...")
    } else {
        format!("{s:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_exact() {
        assert_eq!(parse_duration_ns("0.1 s"), Ok(100_000_000));
        assert_eq!(parse_duration_ns("1.5 s"), Ok(1_500_000_000));
        assert_eq!(parse_duration_ns("10 ms"), Ok(10_000_000));
        assert_eq!(parse_duration_ns("10ms"), Ok(10_000_000));
        assert_eq!(parse_duration_ns("  250 us "), Ok(250_000));
        assert_eq!(parse_duration_ns("250 µs"), Ok(250_000));
        assert_eq!(parse_duration_ns("250 μs"), Ok(250_000));
        assert_eq!(parse_duration_ns("100 ns"), Ok(100));
        assert_eq!(parse_duration_ns("1e-3 s"), Ok(1_000_000));
        assert_eq!(parse_duration_ns("2E1 ms"), Ok(20_000_000));
        assert_eq!(parse_duration_ns(".5 s"), Ok(500_000_000));
        assert_eq!(parse_duration_ns("5. s"), Ok(5_000_000_000));
        assert_eq!(parse_duration_ns("+3 ns"), Ok(3));
        assert_eq!(parse_duration_ns("0 s"), Ok(0));
        assert_eq!(parse_duration_ns("-0 s"), Ok(0));
        assert_eq!(parse_duration_ns("0.000000001 s"), Ok(1));
        // Float arithmetic would give 299999999.99999994 here.
        assert_eq!(parse_duration_ns("0.3 s"), Ok(300_000_000));
        assert_eq!(
            parse_duration_ns("18446744073 s"),
            Ok(18_446_744_073_000_000_000)
        );
        // Long mantissas are fine as long as the value is whole.
        assert_eq!(
            parse_duration_ns("1.000000000000000000000000000000000000000000 s"),
            Ok(1_000_000_000)
        );
        assert_eq!(
            parse_duration_ns("1.000000000000000000000000000000000000000001 s"),
            Err(UnitError::NotWhole("nanoseconds"))
        );
    }

    #[test]
    fn bad_durations() {
        assert_eq!(parse_duration_ns("10"), Err(UnitError::BareNumber));
        assert_eq!(
            parse_duration_ns("10 sec"),
            Err(UnitError::UnknownUnit("sec".into()))
        );
        assert_eq!(
            parse_duration_ns("10 MS"),
            Err(UnitError::UnknownUnit("MS".into()))
        );
        assert_eq!(parse_duration_ns("-1 s"), Err(UnitError::Negative));
        assert_eq!(
            parse_duration_ns("0.5 ns"),
            Err(UnitError::NotWhole("nanoseconds"))
        );
        assert_eq!(
            parse_duration_ns("1e-30 s"),
            Err(UnitError::NotWhole("nanoseconds"))
        );
        assert_eq!(
            parse_duration_ns("18446744074 s"),
            Err(UnitError::TooLarge("nanoseconds"))
        );
        // The message states the limit (it used to say only "too large").
        let hint = parse_duration_ns("18446744074 s").unwrap_err().hint();
        assert!(
            hint.contains("the largest duration is 18446744073.709551615 s"),
            "{hint}"
        );
        let hint = parse_rate_bps("1e30 bit/s").unwrap_err().hint();
        assert!(
            hint.contains("the largest rate is 18446744073709551615 bit/s"),
            "{hint}"
        );
        assert_eq!(
            parse_duration_ns("1e999999999999 s"),
            Err(UnitError::TooLarge("nanoseconds"))
        );
        assert_eq!(parse_duration_ns("ms"), Err(UnitError::NotANumber));
        assert_eq!(parse_duration_ns(""), Err(UnitError::NotANumber));
        assert_eq!(parse_duration_ns("."), Err(UnitError::NotANumber));
        assert_eq!(parse_duration_ns("1e s"), Err(UnitError::NotANumber));
        assert_eq!(parse_duration_ns("1.2.3 s"), Err(UnitError::NotANumber));
        assert_eq!(parse_duration_ns("--1 s"), Err(UnitError::NotANumber));
        assert_eq!(
            parse_duration_ns("1 s s"),
            Err(UnitError::UnknownUnit("s s".into()))
        );
        assert_eq!(parse_duration_ns("NaN s"), Err(UnitError::NotANumber));
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate_bps("10 Gbit/s"), Ok(10_000_000_000));
        assert_eq!(parse_rate_bps("155 Mb/s"), Ok(155_000_000));
        assert_eq!(parse_rate_bps("155 Mbps"), Ok(155_000_000));
        assert_eq!(parse_rate_bps("1e9 bit/s"), Ok(1_000_000_000));
        assert_eq!(parse_rate_bps("64 Kb/s"), Ok(64_000));
        assert_eq!(parse_rate_bps("64 kbit/s"), Ok(64_000));
        assert_eq!(parse_rate_bps("2.5 Gbit/s"), Ok(2_500_000_000));
        assert_eq!(parse_rate_bps("1 b/s"), Ok(1));
        assert_eq!(
            parse_rate_bps("1.5 bit/s"),
            Err(UnitError::NotWhole("bits per second"))
        );
        assert_eq!(parse_rate_bps("-5 Mbit/s"), Err(UnitError::Negative));
        assert_eq!(
            parse_rate_bps("5 MB/s"),
            Err(UnitError::UnknownUnit("MB/s".into()))
        );
        assert_eq!(
            parse_rate_bps("5 mbit/s"),
            Err(UnitError::UnknownUnit("mbit/s".into()))
        );
        assert_eq!(parse_rate_bps("100"), Err(UnitError::BareNumber));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("1040 B"), Ok(1040));
        assert_eq!(parse_bytes("64 KB"), Ok(64_000));
        assert_eq!(parse_bytes("64 kB"), Ok(64_000));
        assert_eq!(parse_bytes("64 KiB"), Ok(65_536));
        assert_eq!(parse_bytes("10 MB"), Ok(10_000_000));
        assert_eq!(parse_bytes("1 MiB"), Ok(1 << 20));
        assert_eq!(parse_bytes("1.5 KiB"), Ok(1536));
        assert_eq!(parse_bytes("2 GiB"), Ok(2 << 30));
        // Documented: decimal sizes are accepted when they are whole bytes.
        assert_eq!(parse_bytes("1.040 KB"), Ok(1040));
        assert_eq!(parse_bytes("1.0405 KB"), Err(UnitError::NotWhole("bytes")));
        assert_eq!(parse_bytes("0.1 KiB"), Err(UnitError::NotWhole("bytes")));
        assert_eq!(
            parse_bytes("100 packets"),
            Err(UnitError::UnknownUnit("packets".into()))
        );
        assert_eq!(parse_bytes("100"), Err(UnitError::BareNumber));
        assert_eq!(
            parse_bytes("100 b"),
            Err(UnitError::UnknownUnit("b".into()))
        );
        assert_eq!(parse_amount("100 packets", true), Ok(Amount::Packets(100)));
        assert_eq!(parse_amount("1 packet", true), Ok(Amount::Packets(1)));
        assert_eq!(parse_amount("0 packets", true), Ok(Amount::Packets(0)));
        assert_eq!(
            parse_amount("1.5 packets", true),
            Err(UnitError::NotWhole("packets"))
        );
        assert_eq!(parse_amount("64 KB", true), Ok(Amount::Bytes(64_000)));
    }

    #[test]
    fn quote_cuts_long_strings_on_char_boundaries() {
        let s = "µ".repeat(100);
        let q = quote(&s);
        assert!(q.ends_with("..."));
        assert_eq!(quote("a\"b"), "\"a\\\"b\"");
    }
}

//! Reading a flow-size law ([`SizeLaw`]): a constant size (`"700 KB"`) or a
//! table naming the law and its parameters (`{ law = "pareto", alpha = 1.2,
//! mean = "700 KB" }`). Syntax in docs/SCENARIOS.md ("Flow-size laws"); the
//! laws in docs/MODEL.md ("Flow sizes").
//!
//! An empirical CDF's `file` is read when the scenario is read; a relative
//! path is relative to the current working directory (the core receives
//! the scenario's text, not its path, and no other key names a file).

use super::fields::{quantity, quoted_list, Quantity};
use super::units::{self, quote, SIZE_UNITS};
use super::walk::{choice, index, join, Errors, Table, Val};
use crate::traffic::size::{check_cdf, SizeLaw};

/// The laws and the keys each allows (besides `law`).
pub(crate) const SIZE_LAWS: &[(&str, &[&str])] = &[
    ("constant", &["law", "size"]),
    ("exponential", &["law", "mean"]),
    ("pareto", &["law", "alpha", "min", "mean"]),
    ("bounded_pareto", &["law", "alpha", "k", "p"]),
    ("empirical", &["law", "points", "file"]),
];

/// Every key any law allows (for the table's unknown-key check when the law
/// itself is bad).
const ALL_KEYS: &[&str] = &[
    "law", "size", "mean", "alpha", "min", "k", "p", "points", "file",
];

const SIZE: Quantity = Quantity {
    expected: "a positive size like \"700 KB\"",
    units: SIZE_UNITS,
    unit: "B",
};

/// A size in bytes greater than zero.
fn positive_bytes(v: &Val) -> Result<u64, String> {
    quantity(v, &SIZE, units::parse_bytes, |n| {
        (n == 0).then(|| "it must be greater than zero".into())
    })
}

/// A finite number (integer or float).
fn number(v: &Val) -> Result<f64, String> {
    match v {
        Val::Int(i) => Ok(*i as f64),
        Val::Float(f) if f.is_finite() => Ok(*f),
        _ => Err(format!("expected a number, found {}", v.describe())),
    }
}

/// A shape α > `lo` (`lo` = 0, or 1 when the mean is given).
fn alpha_above(v: &Val, lo: f64, why: &str) -> Result<f64, String> {
    let a =
        number(v).map_err(|_| format!("expected a number > {lo}{why}, found {}", v.describe()))?;
    if a > lo {
        Ok(a)
    } else {
        Err(format!(
            "expected a number > {lo}{why}, found {}",
            v.describe()
        ))
    }
}

/// Reads a size law at `path` (a constant size string, or a table with
/// `law` and its parameters); every problem is recorded with its key path.
/// `None` if anything is invalid.
pub(crate) fn size_law(errs: &mut Errors, path: &str, v: &Val) -> Option<SizeLaw> {
    let laws: Vec<&str> = SIZE_LAWS.iter().map(|(l, _)| *l).collect();
    match v {
        Val::Table(_) => {}
        Val::Str(_) => {
            return match positive_bytes(v) {
                Ok(bytes) => Some(SizeLaw::Constant { bytes }),
                Err(e) => {
                    errs.push(path, e);
                    None
                }
            }
        }
        _ => {
            errs.push(
                path,
                format!(
                    "expected a size like \"700 KB\" or a table like {{ law = \"pareto\", alpha = 1.2, mean = \"700 KB\" }} (laws {}), found {}",
                    quoted_list(&laws),
                    v.describe()
                ),
            );
            return None;
        }
    }
    let probe = Table::open(&mut Errors::default(), path, v, &[])?;
    let law = match probe.raw("law").map(|l| choice(l, &laws)) {
        None => {
            errs.push(
                join(path, "law"),
                format!(
                    "required key is missing: expected one of {}",
                    quoted_list(&laws)
                ),
            );
            None
        }
        Some(Err(e)) => {
            errs.push(join(path, "law"), e);
            None
        }
        Some(Ok(l)) => Some(l),
    };
    let Some(law) = law else {
        Table::open(errs, path, v, ALL_KEYS);
        return None;
    };
    let keys = SIZE_LAWS
        .iter()
        .find(|(l, _)| *l == law)
        .map_or(&[][..], |(_, k)| k);
    let t = Table::open(errs, path, v, keys)?;
    match law {
        "constant" => {
            let bytes = t.req(
                errs,
                "size",
                "a positive size like \"700 KB\"",
                positive_bytes,
            )?;
            Some(SizeLaw::Constant { bytes })
        }
        "exponential" => {
            let mean = t.req(
                errs,
                "mean",
                "a positive size like \"1 MB\"",
                positive_bytes,
            )?;
            Some(SizeLaw::Exponential { mean: mean as f64 })
        }
        "pareto" => pareto(errs, &t),
        "bounded_pareto" => bounded_pareto(errs, &t),
        _ => empirical(errs, &t),
    }
}

/// `bounded_pareto`: `alpha` > 0 and sizes `k` < `p`.
fn bounded_pareto(errs: &mut Errors, t: &Table) -> Option<SizeLaw> {
    let alpha = t.req(errs, "alpha", "a number > 0", |v| alpha_above(v, 0.0, ""));
    let k = t.req(
        errs,
        "k",
        "a positive size like \"1 KB\" (the minimum)",
        positive_bytes,
    );
    let p = t.req(
        errs,
        "p",
        "a positive size like \"10 MB\" (the maximum)",
        positive_bytes,
    );
    let (alpha, k, p) = (alpha?, k?, p?);
    if k >= p {
        errs.push(
            t.key_path("p"),
            format!("the maximum p must be greater than the minimum k ({k} B), found {p} B"),
        );
        return None;
    }
    Some(SizeLaw::BoundedPareto {
        alpha,
        k: k as f64,
        p: p as f64,
    })
}

/// `pareto`: `alpha` with exactly one of `min` and `mean`.
fn pareto(errs: &mut Errors, t: &Table) -> Option<SizeLaw> {
    match (t.has("min"), t.has("mean")) {
        (true, true) => {
            errs.push(t.path(), "give either min (the scale) or mean, not both");
            None
        }
        (false, false) => {
            errs.push(
                t.path(),
                "required key is missing: give min (the scale, e.g. \"40 KB\") or mean (e.g. \"700 KB\")",
            );
            None
        }
        (true, false) => {
            let alpha = t.req(errs, "alpha", "a number > 0", |v| alpha_above(v, 0.0, ""));
            let min = t.get(errs, "min", positive_bytes).value();
            Some(SizeLaw::Pareto {
                alpha: alpha?,
                min: min? as f64,
            })
        }
        (false, true) => {
            let why = " (with a mean; the mean of a Pareto law is infinite for alpha <= 1)";
            let alpha = t.req(errs, "alpha", &format!("a number > 1{why}"), |v| {
                alpha_above(v, 1.0, why)
            });
            let mean = t.get(errs, "mean", positive_bytes).value();
            match SizeLaw::pareto_with_mean(alpha?, mean? as f64) {
                Ok(l) => Some(l),
                Err(e) => {
                    errs.push(t.path(), e);
                    None
                }
            }
        }
    }
}

/// `empirical`: exactly one of `points` and `file`.
fn empirical(errs: &mut Errors, t: &Table) -> Option<SizeLaw> {
    let points = match (t.raw("points"), t.raw("file")) {
        (Some(_), Some(_)) => {
            errs.push(t.path(), "give either points or file, not both");
            return None;
        }
        (None, None) => {
            errs.push(
                t.path(),
                "required key is missing: give points (an array of [size, cumulative probability] pairs) or file (a CSV file of them)",
            );
            return None;
        }
        (Some(v), None) => inline_points(errs, &t.key_path("points"), v)?,
        (None, Some(v)) => file_points(errs, &t.key_path("file"), v)?,
    };
    let path = if t.has("points") {
        t.key_path("points")
    } else {
        t.key_path("file")
    };
    match check_cdf(&points) {
        Ok(()) => Some(SizeLaw::Empirical { points }),
        Err((i, e)) => {
            let at = if i == usize::MAX {
                path
            } else if t.has("points") {
                index(&path, i)
            } else {
                format!("{path} (point {}, the {} data line)", i + 1, ordinal(i + 1))
            };
            errs.push(at, e);
            None
        }
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `points = [["1 KB", 0.5], ["1 MB", 1.0]]`.
fn inline_points(errs: &mut Errors, path: &str, v: &Val) -> Option<Vec<(f64, f64)>> {
    let expected =
        "an array of [size, cumulative probability] pairs like [[\"1 KB\", 0.5], [\"1 MB\", 1.0]]";
    let Val::Array(items) = v else {
        errs.push(path, format!("expected {expected}, found {}", v.describe()));
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, it) in items.iter().enumerate() {
        let at = index(path, i);
        match it {
            Val::Array(pair) if pair.len() == 2 => {
                let x = positive_or_zero_bytes(&pair[0]).map_err(|e| errs.push(index(&at, 0), e));
                let f = number(&pair[1]).map_err(|_| {
                    errs.push(
                        index(&at, 1),
                        format!(
                            "expected a cumulative probability in [0, 1], found {}",
                            pair[1].describe()
                        ),
                    );
                });
                match (x, f) {
                    (Ok(x), Ok(f)) => out.push((x as f64, f)),
                    _ => ok = false,
                }
            }
            _ => {
                errs.push(
                    at,
                    format!(
                        "expected a [size, cumulative probability] pair like [\"1 KB\", 0.5], found {}",
                        it.describe()
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// A size in bytes, zero allowed (a CDF may start at 0 B with probability 0).
fn positive_or_zero_bytes(v: &Val) -> Result<u64, String> {
    const Q: Quantity = Quantity {
        expected: "a size like \"1 KB\"",
        units: SIZE_UNITS,
        unit: "B",
    };
    quantity(v, &Q, units::parse_bytes, |_| None)
}

/// `file = "sizes.csv"`: two comma-separated columns, size and cumulative
/// probability, one point a line; blank lines, `#` comments and a first
/// line that is a header (its probability is not a number) are skipped. A
/// size is a number of bytes (`1500`) or a size with a unit (`1.5 KB`).
fn file_points(errs: &mut Errors, path: &str, v: &Val) -> Option<Vec<(f64, f64)>> {
    let Val::Str(name) = v else {
        errs.push(
            path,
            format!(
                "expected a file name string (a CSV file of size,probability lines), found {}",
                v.describe()
            ),
        );
        return None;
    };
    let text = match std::fs::read_to_string(name) {
        Ok(t) => t,
        Err(e) => {
            errs.push(
                path,
                format!(
                    "cannot read file {} (relative paths are relative to the current working directory): {e}",
                    quote(name)
                ),
            );
            return None;
        }
    };
    let mut out = Vec::new();
    let mut ok = true;
    let mut first = true;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split(',').map(str::trim).collect();
        let header = first && cols.len() == 2 && cols[1].parse::<f64>().is_err();
        first = false;
        if header {
            continue;
        }
        let at = format!("{path} ({}, line {})", quote(name), n + 1);
        if cols.len() != 2 {
            errs.push(
                at,
                format!(
                    "expected two comma-separated columns (size, cumulative probability), found {}",
                    quote(line)
                ),
            );
            ok = false;
            continue;
        }
        let x = match cols[0].parse::<f64>() {
            Ok(x) => Ok(x),
            Err(_) => units::parse_bytes(cols[0]).map(|b| b as f64).map_err(|e| {
                format!(
                    "expected a size in bytes (\"1500\") or with a unit (\"1.5 KB\"; units {SIZE_UNITS}), found {}; {}",
                    quote(cols[0]),
                    e.hint()
                )
            }),
        };
        let f = cols[1].parse::<f64>().map_err(|_| {
            format!(
                "expected a cumulative probability in [0, 1], found {}",
                quote(cols[1])
            )
        });
        match (x, f) {
            (Ok(x), Ok(f)) => out.push((x, f)),
            (x, f) => {
                for e in [x.err(), f.err()].into_iter().flatten() {
                    errs.push(at.clone(), e);
                }
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

#[cfg(test)]
// One test per class of error, listed in one place; exact float comparisons
// are of values exact in f64.
#[allow(clippy::too_many_lines, clippy::float_cmp)]
mod tests {
    use super::*;

    fn toml_val(src: &str) -> Val {
        let t: toml::Table = toml::from_str(&format!("x = {src}")).expect("test TOML");
        Val::from_toml(&t["x"])
    }

    fn read(src: &str) -> Result<SizeLaw, Vec<(String, String)>> {
        let mut errs = Errors::default();
        let law = size_law(&mut errs, "gen[0].size", &toml_val(src));
        errs.finish(law)
            .map_err(|e| e.errors.into_iter().map(|e| (e.path, e.reason)).collect())
    }

    /// The one error of `src`: its path and reason must contain the given parts.
    fn fails(src: &str, path: &str, reason: &[&str]) {
        let errs = read(src).expect_err(src);
        assert!(
            errs.iter()
                .any(|(p, r)| p == path && reason.iter().all(|part| r.contains(part))),
            "{src}: expected an error at {path} containing {reason:?}, got {errs:?}"
        );
    }

    #[test]
    fn good_laws() {
        assert_eq!(read("\"700 KB\""), Ok(SizeLaw::Constant { bytes: 700_000 }));
        assert_eq!(
            read("{ law = \"constant\", size = \"1 KiB\" }"),
            Ok(SizeLaw::Constant { bytes: 1024 })
        );
        assert_eq!(
            read("{ law = \"exponential\", mean = \"1 MB\" }"),
            Ok(SizeLaw::Exponential { mean: 1e6 })
        );
        assert_eq!(
            read("{ law = \"pareto\", alpha = 1.2, min = \"100 KB\" }"),
            Ok(SizeLaw::Pareto {
                alpha: 1.2,
                min: 1e5
            })
        );
        // min = mean (α − 1)/α = 700 KB · 0.2/1.2.
        let Ok(SizeLaw::Pareto { alpha, min }) =
            read("{ law = \"pareto\", alpha = 1.2, mean = \"700 KB\" }")
        else {
            panic!("pareto with a mean");
        };
        assert_eq!(alpha, 1.2);
        assert!((min - 700_000.0 * 0.2 / 1.2).abs() < 1e-6, "{min}");
        // α ≤ 1 is fine with a minimum (infinite mean, finite sizes).
        assert!(read("{ law = \"pareto\", alpha = 1, min = \"40 KB\" }").is_ok());
        assert_eq!(
            read("{ law = \"bounded_pareto\", alpha = 1.1, k = \"1 KB\", p = \"10 MB\" }"),
            Ok(SizeLaw::BoundedPareto {
                alpha: 1.1,
                k: 1e3,
                p: 1e7
            })
        );
        assert_eq!(
            read("{ law = \"empirical\", points = [[\"0 B\", 0.0], [\"1 KB\", 0.5], [\"1 MB\", 1]] }"),
            Ok(SizeLaw::Empirical {
                points: vec![(0.0, 0.0), (1e3, 0.5), (1e6, 1.0)]
            })
        );
    }

    #[test]
    fn empirical_from_a_file() {
        let dir = std::env::temp_dir().join(format!("obsim-size-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.csv");
        std::fs::write(
            &good,
            "size,cdf\n# a comment\n1000, 0.25\n\n2 KB,0.5\n1e6,1.0\n",
        )
        .unwrap();
        assert_eq!(
            read(&format!(
                "{{ law = \"empirical\", file = {:?} }}",
                good.display().to_string()
            )),
            Ok(SizeLaw::Empirical {
                points: vec![(1e3, 0.25), (2e3, 0.5), (1e6, 1.0)]
            })
        );
        let bad = dir.join("bad.csv");
        std::fs::write(&bad, "1000,0.5\n500,1.0\n").unwrap();
        fails(
            &format!(
                "{{ law = \"empirical\", file = {:?} }}",
                bad.display().to_string()
            ),
            "gen[0].size.file (point 2, the 2nd data line)",
            &["strictly increasing"],
        );
        let cols = dir.join("cols.csv");
        std::fs::write(&cols, "1000;0.5\n2000,x\n").unwrap();
        let src = format!(
            "{{ law = \"empirical\", file = {:?} }}",
            cols.display().to_string()
        );
        let at1 = format!(
            "gen[0].size.file ({:?}, line 1)",
            cols.display().to_string()
        );
        let at2 = format!(
            "gen[0].size.file ({:?}, line 2)",
            cols.display().to_string()
        );
        fails(&src, &at1, &["two comma-separated columns"]);
        fails(&src, &at2, &["cumulative probability", "\"x\""]);
        fails(
            "{ law = \"empirical\", file = \"/nonexistent/obsim/sizes.csv\" }",
            "gen[0].size.file",
            &[
                "cannot read file \"/nonexistent/obsim/sizes.csv\"",
                "current working directory",
            ],
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn errors_name_the_key_and_what_is_allowed() {
        let p = "gen[0].size";
        fails("5", p, &["expected a size like \"700 KB\"", "\"pareto\""]);
        fails("\"0 B\"", p, &["greater than zero"]);
        fails("\"700\"", p, &["a unit is required"]);
        fails(
            "{ law = \"lognormal\" }",
            "gen[0].size.law",
            &["\"constant\", \"exponential\", \"pareto\", \"bounded_pareto\", \"empirical\""],
        );
        fails(
            "{ mean = \"1 MB\" }",
            "gen[0].size.law",
            &["required key is missing"],
        );
        fails(
            "{ law = \"lognormal\", sigma = 1 }",
            "gen[0].size.sigma",
            &["unknown key"],
        );
        fails(
            "{ law = \"exponential\", mean = \"1 MB\", alpha = 1.2 }",
            "gen[0].size.alpha",
            &["unknown key", "allowed keys: law, mean"],
        );
        fails(
            "{ law = \"exponential\", mean = \"0 MB\" }",
            "gen[0].size.mean",
            &["greater than zero"],
        );
        fails(
            "{ law = \"exponential\" }",
            "gen[0].size.mean",
            &["required key is missing"],
        );
        // Pareto.
        fails(
            "{ law = \"pareto\", alpha = 1.0, mean = \"700 KB\" }",
            "gen[0].size.alpha",
            &["> 1", "infinite"],
        );
        fails(
            "{ law = \"pareto\", alpha = 0, min = \"40 KB\" }",
            "gen[0].size.alpha",
            &["> 0"],
        );
        fails(
            "{ law = \"pareto\", alpha = -2, min = \"40 KB\" }",
            "gen[0].size.alpha",
            &["> 0"],
        );
        fails(
            "{ law = \"pareto\", alpha = \"x\", min = \"40 KB\" }",
            "gen[0].size.alpha",
            &["a number"],
        );
        fails(
            "{ law = \"pareto\", alpha = 1.2, min = \"0 KB\" }",
            "gen[0].size.min",
            &["greater than zero"],
        );
        fails(
            "{ law = \"pareto\", alpha = 1.2, mean = \"0 KB\" }",
            "gen[0].size.mean",
            &["greater than zero"],
        );
        fails(
            "{ law = \"pareto\", alpha = 1.2, min = \"40 KB\", mean = \"1 MB\" }",
            p,
            &["either min", "not both"],
        );
        fails(
            "{ law = \"pareto\", alpha = 1.2 }",
            p,
            &["give min", "or mean"],
        );
        fails(
            "{ law = \"pareto\", min = \"40 KB\" }",
            "gen[0].size.alpha",
            &["required key is missing"],
        );
        // Bounded Pareto.
        fails(
            "{ law = \"bounded_pareto\", alpha = 1.1, k = \"10 MB\", p = \"10 MB\" }",
            "gen[0].size.p",
            &["greater than the minimum k (10000000 B)"],
        );
        fails(
            "{ law = \"bounded_pareto\", alpha = 1.1, k = \"10 MB\", p = \"1 MB\" }",
            "gen[0].size.p",
            &["greater than the minimum k"],
        );
        fails(
            "{ law = \"bounded_pareto\", alpha = 0.0, k = \"1 KB\", p = \"1 MB\" }",
            "gen[0].size.alpha",
            &["> 0"],
        );
        fails(
            "{ law = \"bounded_pareto\", alpha = 1.1, k = \"0 B\", p = \"1 MB\" }",
            "gen[0].size.k",
            &["greater than zero"],
        );
        fails(
            "{ law = \"bounded_pareto\", alpha = 1.1, k = \"1 KB\" }",
            "gen[0].size.p",
            &["required key is missing"],
        );
        // Empirical.
        fails(
            "{ law = \"empirical\", points = [] }",
            "gen[0].size.points",
            &["the CDF is empty"],
        );
        fails(
            "{ law = \"empirical\", points = [[\"1 KB\", 0.6], [\"1 MB\", 0.5], [\"2 MB\", 1.0]] }",
            "gen[0].size.points[1]",
            &["non-decreasing"],
        );
        fails(
            "{ law = \"empirical\", points = [[\"1 MB\", 0.5], [\"1 KB\", 1.0]] }",
            "gen[0].size.points[1]",
            &["strictly increasing"],
        );
        fails(
            "{ law = \"empirical\", points = [[\"1 KB\", 0.5], [\"1 MB\", 0.9]] }",
            "gen[0].size.points[1]",
            &["last cumulative probability must be 1", "0.9"],
        );
        fails(
            "{ law = \"empirical\", points = [[\"0 B\", 0.5], [\"1 MB\", 1.0]] }",
            "gen[0].size.points[0]",
            &["0 B must have cumulative probability 0"],
        );
        fails(
            "{ law = \"empirical\", points = [[\"1 KB\", 1.5]] }",
            "gen[0].size.points[0]",
            &["in [0, 1]"],
        );
        fails(
            "{ law = \"empirical\", points = [[\"1 KB\"]] }",
            "gen[0].size.points[0]",
            &["pair"],
        );
        fails(
            "{ law = \"empirical\", points = [[1000, 1.0]] }",
            "gen[0].size.points[0][0]",
            &["a bare number has no unit"],
        );
        fails(
            "{ law = \"empirical\", points = [[\"1 KB\", \"all\"]] }",
            "gen[0].size.points[0][1]",
            &["cumulative probability"],
        );
        fails(
            "{ law = \"empirical\", points = 3 }",
            "gen[0].size.points",
            &["an array of [size"],
        );
        fails("{ law = \"empirical\" }", p, &["give points", "or file"]);
        fails(
            "{ law = \"empirical\", points = [[\"1 KB\", 1.0]], file = \"a.csv\" }",
            p,
            &["either points or file"],
        );
    }
}

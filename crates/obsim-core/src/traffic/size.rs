//! Flow-size laws for short-lived TCP flows (issue 12 item 1): how many bytes
//! a generated flow sends.
//!
//! Every law samples by inversion of its CDF from exactly one output of the
//! caller's stream ([`uniform01`]), whatever the law, so that the k-th flow of
//! a generator always takes the k-th output of its size stream: changing a law
//! or its parameters changes sizes, never which output a later draw uses.
//! A drawn size is rounded to the nearest byte and is at least 1 byte (a flow
//! always sends something); sizes beyond `u64::MAX` saturate (unreachable for
//! the parameters the papers use). The formulas, their sources and the
//! choices made are in docs/MODEL.md ("Flow sizes").

use serde::Serialize;

use crate::rng::{uniform01, SimRng};

/// The distribution of flow sizes, in bytes.
///
/// Build `Pareto` from a mean with [`SizeLaw::pareto_with_mean`] and check a
/// hand-built law with [`SizeLaw::check`]; the scenario reader
/// (`config/size.rs`) does both.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "law", rename_all = "snake_case")]
pub enum SizeLaw {
    /// Every flow sends exactly `bytes` (the bulk flows of `[[flows]]`,
    /// `size = "10 MB"`).
    Constant {
        /// The size in bytes (> 0).
        bytes: u64,
    },
    /// Exponential sizes of mean `mean` bytes:
    /// F(x) = 1 − exp(−x/mean), sampled as x = −mean·ln(1 − U).
    Exponential {
        /// The mean in bytes (> 0).
        mean: f64,
    },
    /// Pareto (type I) sizes of shape `alpha` and minimum (scale) `min`
    /// bytes: F(x) = 1 − (min/x)^α for x ≥ min, mean α·min/(α − 1) for α > 1
    /// (infinite for α ≤ 1); sampled as x = min·(1 − U)^(−1/α). The papers'
    /// file sizes: ramantas2007 §3 and ramantas2008 §3 ("Pareto ... min ON
    /// size of 40 KByte", mean file size varied), gonzalez2009 §4 (40 KB
    /// minimum, mean 4 MB); none states α, so it is a parameter.
    Pareto {
        /// Shape α (> 0; > 1 for a finite mean).
        alpha: f64,
        /// Minimum (scale) in bytes (> 0).
        min: f64,
    },
    /// Bounded Pareto sizes of shape `alpha`, minimum `k` and maximum `p`
    /// bytes, gurel2008 §4.2 (after Harchol-Balter):
    /// f(x) = α k^α / (1 − (k/p)^α) · x^(−α−1) and
    /// F(x) = (1 − (k/x)^α) / (1 − (k/p)^α) for k ≤ x ≤ p; sampled as
    /// x = k·(1 − U(1 − (k/p)^α))^(−1/α). gurel2008 uses α = 1.2, k = 10 MB,
    /// p = 1 GB.
    BoundedPareto {
        /// Shape α (> 0; gurel2008 states 0 < α < 2 for its use, the
        /// formulas hold for every α > 0).
        alpha: f64,
        /// Minimum size k in bytes (> 0).
        k: f64,
        /// Maximum size p in bytes (> k).
        p: f64,
    },
    /// An empirical CDF given as points (size in bytes, cumulative
    /// probability), sizes strictly increasing, probabilities non-decreasing,
    /// the last equal to 1. Between two points the CDF is linear (sizes
    /// uniform within each segment); below the first size it is 0, so the
    /// first point's probability is an atom at its size (as ns-2's
    /// `EmpiricalRandomVariable` reads a table). Sampled by inverting the
    /// piecewise-linear CDF.
    Empirical {
        /// `(size in bytes, P[size ≤ x])` points.
        points: Vec<(f64, f64)>,
    },
}

impl SizeLaw {
    /// A Pareto law of shape `alpha` whose mean is `mean` bytes: its minimum
    /// is mean·(α − 1)/α (from mean = α·min/(α − 1)). `Err` (the reason) if
    /// α ≤ 1 (the mean is infinite) or `mean` is not positive.
    pub fn pareto_with_mean(alpha: f64, mean: f64) -> Result<SizeLaw, String> {
        if !(alpha.is_finite() && alpha > 1.0) {
            return Err(format!(
                "a Pareto law given by its mean needs alpha > 1 (its mean is infinite for alpha <= 1), found {alpha}"
            ));
        }
        if !(mean.is_finite() && mean > 0.0) {
            return Err(format!("the mean must be greater than zero, found {mean}"));
        }
        Ok(SizeLaw::Pareto {
            alpha,
            min: mean * (alpha - 1.0) / alpha,
        })
    }

    /// `Ok` if the parameters define a law (the rules of each variant's doc);
    /// otherwise the first problem.
    pub fn check(&self) -> Result<(), String> {
        let pos = |x: f64| x.is_finite() && x > 0.0;
        match self {
            SizeLaw::Constant { bytes } => {
                if *bytes == 0 {
                    Err("the size must be at least 1 B".into())
                } else {
                    Ok(())
                }
            }
            SizeLaw::Exponential { mean } => {
                if pos(*mean) {
                    Ok(())
                } else {
                    Err(format!("the mean must be greater than zero, found {mean}"))
                }
            }
            SizeLaw::Pareto { alpha, min } => {
                if !pos(*alpha) {
                    Err(format!("alpha must be a number > 0, found {alpha}"))
                } else if !pos(*min) {
                    Err(format!(
                        "the minimum must be greater than zero, found {min}"
                    ))
                } else {
                    Ok(())
                }
            }
            SizeLaw::BoundedPareto { alpha, k, p } => {
                if !pos(*alpha) {
                    Err(format!("alpha must be a number > 0, found {alpha}"))
                } else if !pos(*k) {
                    Err(format!("k must be greater than zero, found {k}"))
                } else if !(p.is_finite() && p > k) {
                    Err(format!("p must be greater than k ({k}), found {p}"))
                } else {
                    Ok(())
                }
            }
            SizeLaw::Empirical { points } => check_cdf(points).map_err(|(_, r)| r),
        }
    }

    /// Draws one size in bytes (≥ 1) from one output of `rng` by inverting
    /// the law's CDF (formulas on each variant).
    pub fn sample(&self, rng: &mut SimRng) -> u64 {
        let u = uniform01(rng); // in [0, 1): 1 − u in (0, 1], never 0
        let x = match self {
            SizeLaw::Constant { bytes } => return (*bytes).max(1),
            SizeLaw::Exponential { mean } => -mean * (1.0 - u).ln(),
            SizeLaw::Pareto { alpha, min } => min * (1.0 - u).powf(-1.0 / alpha),
            SizeLaw::BoundedPareto { alpha, k, p } => {
                let tail = 1.0 - (k / p).powf(*alpha);
                // (1 − u·tail) ≥ (k/p)^α, so x ≤ p up to rounding; clamp it.
                (k * (1.0 - u * tail).powf(-1.0 / alpha)).min(*p)
            }
            SizeLaw::Empirical { points } => empirical_inverse(points, u),
        };
        // `as` saturates: NaN → 0 (then 1), +∞ → u64::MAX.
        (x.round() as u64).max(1)
    }

    /// The law's mean in bytes, from its formula (before rounding to whole
    /// bytes): Pareto α·min/(α − 1) (∞ for α ≤ 1); bounded Pareto gurel2008
    /// §4.2's m_1 = α/((1 − α)(p^α − k^α)) · (p·k^α − k·p^α), and its limit
    /// k·p·ln(p/k)/(p − k) at α = 1; empirical the mean of the
    /// piecewise-linear CDF (atom at the first size, segment midpoints).
    pub fn mean(&self) -> f64 {
        match self {
            SizeLaw::Constant { bytes } => *bytes as f64,
            SizeLaw::Exponential { mean } => *mean,
            SizeLaw::Pareto { alpha, min } => {
                if *alpha > 1.0 {
                    alpha * min / (alpha - 1.0)
                } else {
                    f64::INFINITY
                }
            }
            SizeLaw::BoundedPareto { alpha, k, p } => {
                if (alpha - 1.0).abs() < 1e-9 {
                    k * p * (p / k).ln() / (p - k)
                } else {
                    let (ka, pa) = (k.powf(*alpha), p.powf(*alpha));
                    alpha / ((1.0 - alpha) * (pa - ka)) * (p * ka - k * pa)
                }
            }
            SizeLaw::Empirical { points } => {
                let Some(&(x0, f0)) = points.first() else {
                    return f64::NAN;
                };
                let mut m = x0 * f0;
                for w in points.windows(2) {
                    let ((xa, fa), (xb, fb)) = (w[0], w[1]);
                    m += (fb - fa) * 0.5 * (xa + xb);
                }
                m
            }
        }
    }

    /// The law's name as the scenario writes it (`law = "..."`).
    pub fn name(&self) -> &'static str {
        match self {
            SizeLaw::Constant { .. } => "constant",
            SizeLaw::Exponential { .. } => "exponential",
            SizeLaw::Pareto { .. } => "pareto",
            SizeLaw::BoundedPareto { .. } => "bounded_pareto",
            SizeLaw::Empirical { .. } => "empirical",
        }
    }
}

/// The inverse of the piecewise-linear CDF through `points` at `u` in [0, 1).
fn empirical_inverse(points: &[(f64, f64)], u: f64) -> f64 {
    // First point whose cumulative probability exceeds u (exists: the last is 1 > u).
    let i = points.partition_point(|&(_, f)| f <= u);
    if i == 0 {
        return points.first().map_or(0.0, |&(x, _)| x); // the atom at the first size
    }
    let Some(&(xb, fb)) = points.get(i) else {
        return points.last().map_or(0.0, |&(x, _)| x);
    };
    let (xa, fa) = points[i - 1];
    xa + (u - fa) / (fb - fa) * (xb - xa) // fb > u ≥ fa, so fb > fa
}

/// Checks an empirical CDF: at least one point, sizes ≥ 0 and strictly
/// increasing, probabilities in [0, 1] and non-decreasing, the last exactly
/// 1, and probability 0 at a size of 0 B (no empty flows). `Err((i, reason))`
/// names the first bad point (`usize::MAX` for the whole list).
pub(crate) fn check_cdf(points: &[(f64, f64)]) -> Result<(), (usize, String)> {
    if points.is_empty() {
        return Err((
            usize::MAX,
            "the CDF is empty: give at least one (size, cumulative probability) point, the last with probability 1".into(),
        ));
    }
    for (i, &(x, f)) in points.iter().enumerate() {
        if !(x.is_finite() && x >= 0.0) {
            return Err((
                i,
                format!("the size must be a non-negative number of bytes, found {x}"),
            ));
        }
        if !(0.0..=1.0).contains(&f) {
            return Err((
                i,
                format!("the cumulative probability must be in [0, 1], found {f}"),
            ));
        }
        if x == 0.0 && f > 0.0 {
            return Err((i, format!("a size of 0 B must have cumulative probability 0 (flows send at least 1 byte), found {f}")));
        }
        if i > 0 {
            let (xp, fp) = points[i - 1];
            if x <= xp {
                return Err((
                    i,
                    format!("sizes must be strictly increasing: {x} B follows {xp} B"),
                ));
            }
            if f < fp {
                return Err((
                    i,
                    format!("the CDF must be non-decreasing: probability {f} follows {fp}"),
                ));
            }
        }
    }
    let last = points[points.len() - 1].1;
    // Exactly 1, deliberately: a CDF ending below 1 is a mistake to report,
    // not to renormalise silently.
    #[allow(clippy::float_cmp)]
    let not_one = last != 1.0;
    if not_one {
        return Err((
            points.len() - 1,
            format!("the last cumulative probability must be 1, found {last}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

//! Tests of the flow-size laws: each law's draws against its CDF with a
//! Kolmogorov-Smirnov test, sample means against [`SizeLaw::mean`], the
//! bounded Pareto mean against gurel2008's m_1 computed here independently,
//! and determinism.
//!
//! The KS test: n = 10^5 draws from a fixed stream; D = sup |F_n − G| where
//! G is the CDF of the drawn (rounded) sizes, G(m) = F(m + 1/2) for whole
//! bytes m ≥ 1 (a size is the continuous draw rounded to the nearest byte),
//! computed exactly over the integers. The test rejects at level α = 0.001
//! when D > c(α)/√n with c(α) = √(−ln(α/2)/2) = 1.9495 (the asymptotic
//! Kolmogorov distribution; conservative for a discrete G), i.e. D > 0.00616.
//! Streams are fixed, so each test passes or fails reproducibly; a check
//! that the test rejects a law with a wrong parameter shows it has power.

// Exact float comparisons here compare values that are exact in f64 (whole
// bytes, sums of a few decimal fractions); k, p, n, m, d, s, g are the
// papers' and the KS test's names.
#![allow(
    clippy::float_cmp,
    clippy::many_single_char_names,
    clippy::cast_lossless
)]

use super::*;
use crate::rng::stream;

const N: usize = 100_000;
const KS_LEVEL: f64 = 0.001;

/// c(α)/√n for the two-sided one-sample KS test at level `KS_LEVEL`.
fn ks_critical(n: usize) -> f64 {
    (-(KS_LEVEL / 2.0).ln() / 2.0).sqrt() / (n as f64).sqrt()
}

fn draws(law: &SizeLaw, name: &str, n: usize) -> Vec<u64> {
    let mut rng = stream(12, name);
    (0..n).map(|_| law.sample(&mut rng)).collect()
}

/// Exact KS statistic of integer `samples` against the integer CDF `g`
/// (g(m) = P[size ≤ m]).
fn ks_stat(samples: &[u64], g: impl Fn(u64) -> f64) -> f64 {
    let mut s = samples.to_vec();
    s.sort_unstable();
    let n = s.len() as f64;
    let mut d: f64 = 0.0;
    let mut i = 0;
    let mut below = 0.0; // F_n just below the current value
    while i < s.len() {
        let v = s[i];
        let mut j = i;
        while j < s.len() && s[j] == v {
            j += 1;
        }
        // Between the previous value and v, F_n = below; G is largest at v − 1.
        if v > 0 {
            d = d.max((g(v - 1) - below).abs());
        }
        let at = j as f64 / n;
        d = d.max((at - g(v)).abs());
        below = at;
        i = j;
    }
    d
}

/// Runs the KS test of `law` against the continuous CDF `f`; returns D.
fn ks(law: &SizeLaw, name: &str, f: impl Fn(f64) -> f64) -> f64 {
    let s = draws(law, name, N);
    let d = ks_stat(&s, |m| if m == 0 { 0.0 } else { f(m as f64 + 0.5) });
    let crit = ks_critical(N);
    println!(
        "KS {}: D = {d:.5}, critical value at alpha = {KS_LEVEL} = {crit:.5} (n = {N})",
        law.name()
    );
    assert!(d < crit, "{law:?}: D = {d} >= {crit}");
    d
}

fn pareto_cdf(alpha: f64, min: f64) -> impl Fn(f64) -> f64 {
    move |x| {
        if x < min {
            0.0
        } else {
            1.0 - (min / x).powf(alpha)
        }
    }
}

/// gurel2008 §4.2: F(x) = (1 − (k/x)^α) / (1 − (k/p)^α) on [k, p].
fn bounded_pareto_cdf(alpha: f64, k: f64, p: f64) -> impl Fn(f64) -> f64 {
    move |x| {
        if x < k {
            0.0
        } else if x >= p {
            1.0
        } else {
            (1.0 - (k / x).powf(alpha)) / (1.0 - (k / p).powf(alpha))
        }
    }
}

/// gurel2008 §4.2's n-th moment, m_n = α/((n − α)(p^α − k^α)) (p^n k^α − k^n p^α).
fn gurel_moment(n: f64, alpha: f64, k: f64, p: f64) -> f64 {
    alpha / ((n - alpha) * (p.powf(alpha) - k.powf(alpha)))
        * (p.powf(n) * k.powf(alpha) - k.powf(n) * p.powf(alpha))
}

#[test]
fn size_constant_is_exact_and_takes_one_output() {
    let law = SizeLaw::Constant { bytes: 700_000 };
    assert!(draws(&law, "c", 1000).iter().all(|&b| b == 700_000));
    assert_eq!(law.mean(), 700_000.0);
}

#[test]
fn size_exponential_ks() {
    let mean = 1e6;
    let law = SizeLaw::Exponential { mean };
    ks(&law, "exp", |x| 1.0 - (-x / mean).exp());
}

#[test]
fn size_pareto_ks_with_min_and_with_mean() {
    // ramantas2007/gonzalez2009's reading: α = 1.2, minimum 40 KB.
    let law = SizeLaw::Pareto {
        alpha: 1.2,
        min: 40e3,
    };
    ks(&law, "pareto-min", pareto_cdf(1.2, 40e3));
    // A mean of 700 KB at α = 1.2: min = 700 KB · 0.2/1.2.
    let law = SizeLaw::pareto_with_mean(1.2, 700e3).unwrap();
    assert!((law.mean() - 700e3).abs() < 1e-6);
    ks(&law, "pareto-mean", pareto_cdf(1.2, 700e3 * 0.2 / 1.2));
    // α ≤ 1 has an infinite mean and cannot be given by one.
    assert!(SizeLaw::pareto_with_mean(1.0, 700e3).is_err());
    assert!(SizeLaw::pareto_with_mean(0.8, 700e3).is_err());
    assert_eq!(
        SizeLaw::Pareto {
            alpha: 1.0,
            min: 1.0
        }
        .mean(),
        f64::INFINITY
    );
}

#[test]
fn size_ks_has_power() {
    // Draws with α = 1.2 tested against α = 1.32 (10% off) must be rejected.
    let law = SizeLaw::Pareto {
        alpha: 1.2,
        min: 40e3,
    };
    let s = draws(&law, "pareto-min", N);
    let f = pareto_cdf(1.32, 40e3);
    let d = ks_stat(&s, |m| if m == 0 { 0.0 } else { f(m as f64 + 0.5) });
    println!("KS power check: D = {d:.5} against a 10% wrong alpha");
    assert!(d > ks_critical(N), "D = {d}");
}

#[test]
fn size_bounded_pareto_ks() {
    // gurel2008 §4.2's parameters: α = 1.2, k = 10 MB, p = 1 GB.
    let (alpha, k, p) = (1.2, 10e6, 1e9);
    let law = SizeLaw::BoundedPareto { alpha, k, p };
    ks(&law, "bp", bounded_pareto_cdf(alpha, k, p));
    // The brief's example (α = 1.1, 1 KB to 10 MB).
    let law = SizeLaw::BoundedPareto {
        alpha: 1.1,
        k: 1e3,
        p: 1e7,
    };
    let s = draws(&law, "bp2", N);
    assert!(s.iter().all(|&b| (1000..=10_000_000).contains(&b)));
    ks(&law, "bp2", bounded_pareto_cdf(1.1, 1e3, 1e7));
}

#[test]
fn size_bounded_pareto_mean_is_gurels_m1() {
    for (alpha, k, p) in [
        (1.2, 10e6, 1e9),
        (1.1, 1e3, 1e7),
        (0.5, 1e3, 1e6),
        (1.9, 40e3, 1e8),
    ] {
        let m1 = gurel_moment(1.0, alpha, k, p);
        // And by integrating x f(x) over [k, p] (Simpson on a log grid, x = e^t).
        let steps = 20_000;
        let (a, b) = (k.ln(), p.ln());
        let h = (b - a) / steps as f64;
        let c = alpha * k.powf(alpha) / (1.0 - (k / p).powf(alpha));
        // x f(x) dx = c x^(−α) · x dt.
        let g = |t: f64| c * t.exp().powf(1.0 - alpha);
        let mut sum = g(a) + g(b);
        for i in 1..steps {
            sum += g(a + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        let integral = sum * h / 3.0;
        let law = SizeLaw::BoundedPareto { alpha, k, p };
        assert!(
            (law.mean() - m1).abs() < 1e-9 * m1,
            "{alpha}: {} vs m1 {m1}",
            law.mean()
        );
        assert!(
            (integral - m1).abs() < 1e-6 * m1,
            "{alpha}: integral {integral} vs m1 {m1}"
        );
    }
    // α = 1: the limit k p ln(p/k)/(p − k), continuous with α → 1.
    let at1 = SizeLaw::BoundedPareto {
        alpha: 1.0,
        k: 1e3,
        p: 1e7,
    }
    .mean();
    let near = gurel_moment(1.0, 1.0 + 1e-6, 1e3, 1e7);
    assert!((at1 - near).abs() < 1e-4 * at1, "{at1} vs {near}");
}

#[test]
fn size_empirical_ks_and_mean() {
    let points = vec![(1000.0, 0.2), (5000.0, 0.5), (20_000.0, 0.9), (1e6, 1.0)];
    let law = SizeLaw::Empirical {
        points: points.clone(),
    };
    let f = move |x: f64| {
        if x < points[0].0 {
            return 0.0;
        }
        for w in points.windows(2) {
            let ((xa, fa), (xb, fb)) = (w[0], w[1]);
            if x < xb {
                return fa + (fb - fa) * (x - xa) / (xb - xa);
            }
        }
        1.0
    };
    ks(&law, "emp", f);
    let s = draws(&law, "emp", N);
    let atom = s.iter().filter(|&&b| b == 1000).count() as f64 / N as f64;
    assert!((atom - 0.2).abs() < 0.01, "atom at the first size: {atom}");
    // Mean by hand: 0.2·1000 + 0.3·3000 + 0.4·12500 + 0.1·510000.
    assert!((law.mean() - (200.0 + 900.0 + 5000.0 + 51_000.0)).abs() < 1e-9);
}

/// Sample mean within 5 standard errors (from the sample variance) plus
/// half a byte (rounding) of `mean()`.
fn mean_agrees(law: &SizeLaw, name: &str) {
    let s = draws(law, name, N);
    let n = N as f64;
    let m = s.iter().map(|&b| b as f64).sum::<f64>() / n;
    let var = s.iter().map(|&b| (b as f64 - m).powi(2)).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt();
    let z = (m - law.mean()) / se;
    println!(
        "mean {}: sample {m:.1}, law {:.1}, z = {z:.2}",
        law.name(),
        law.mean()
    );
    assert!(
        (m - law.mean()).abs() < 5.0 * se + 0.5,
        "{law:?}: {m} vs {} (se {se})",
        law.mean()
    );
}

#[test]
fn size_sample_means_match_mean() {
    mean_agrees(&SizeLaw::Exponential { mean: 1e6 }, "m-exp");
    // Finite variance needs α > 2 for Pareto; the mean formula is the same.
    mean_agrees(&SizeLaw::pareto_with_mean(2.5, 700e3).unwrap(), "m-pareto");
    mean_agrees(
        &SizeLaw::BoundedPareto {
            alpha: 1.2,
            k: 10e6,
            p: 1e9,
        },
        "m-bp",
    );
    mean_agrees(
        &SizeLaw::Empirical {
            points: vec![(1000.0, 0.2), (5000.0, 0.5), (20_000.0, 0.9), (1e6, 1.0)],
        },
        "m-emp",
    );
}

#[test]
fn size_draws_are_deterministic_and_take_one_output_each() {
    let laws = [
        SizeLaw::Constant { bytes: 5 },
        SizeLaw::Exponential { mean: 1e6 },
        SizeLaw::Pareto {
            alpha: 1.2,
            min: 40e3,
        },
        SizeLaw::BoundedPareto {
            alpha: 1.2,
            k: 10e6,
            p: 1e9,
        },
        SizeLaw::Empirical {
            points: vec![(1000.0, 0.5), (1e6, 1.0)],
        },
    ];
    for law in &laws {
        assert_eq!(
            draws(law, "d", 1000),
            draws(law, "d", 1000),
            "{}",
            law.name()
        );
        // After k draws the stream is where k uniform draws leave it.
        let mut a = stream(12, "d");
        let mut b = stream(12, "d");
        for _ in 0..1000 {
            law.sample(&mut a);
            uniform01(&mut b);
        }
        assert_eq!(uniform01(&mut a), uniform01(&mut b), "{}", law.name());
        assert!(law.check().is_ok(), "{}", law.name());
    }
    assert_ne!(
        draws(&laws[2], "d", 100),
        draws(&laws[2], "e", 100),
        "different streams, different sizes"
    );
}

#[test]
fn size_check_rejects_bad_parameters() {
    assert!(SizeLaw::Constant { bytes: 0 }.check().is_err());
    assert!(SizeLaw::Exponential { mean: 0.0 }.check().is_err());
    assert!(SizeLaw::Pareto {
        alpha: 0.0,
        min: 1.0
    }
    .check()
    .is_err());
    assert!(SizeLaw::Pareto {
        alpha: 1.2,
        min: -1.0
    }
    .check()
    .is_err());
    assert!(SizeLaw::BoundedPareto {
        alpha: 1.2,
        k: 10.0,
        p: 10.0
    }
    .check()
    .is_err());
    assert!(SizeLaw::BoundedPareto {
        alpha: f64::NAN,
        k: 1.0,
        p: 10.0
    }
    .check()
    .is_err());
    assert!(SizeLaw::Empirical { points: vec![] }.check().is_err());
    assert!(SizeLaw::Empirical {
        points: vec![(1.0, 0.5)]
    }
    .check()
    .is_err());
}

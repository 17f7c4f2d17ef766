"""Confidence intervals and the PFTK model (checked against the Rust one)."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from obsim.analysis import pftk
from obsim.stats import batch_means_ci, lag1_autocorrelation, mean_ci, ratio_ci, summarize, t_quantile

ROOT = Path(__file__).resolve().parent.parent


def test_t_quantiles_match_tables():
    # Student t, two-sided 95%: the textbook table values.
    for df, q in [(1, 12.706), (2, 4.303), (4, 2.776), (9, 2.262), (29, 2.045), (1000, 1.962)]:
        assert t_quantile(0.975, df) == pytest.approx(q, abs=1e-3)


def test_mean_ci_by_hand():
    ci = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    assert ci.mean == 3.0 and ci.n == 5
    assert ci.std == pytest.approx(math.sqrt(2.5))
    assert ci.half_width == pytest.approx(2.776445 * math.sqrt(2.5) / math.sqrt(5), rel=1e-5)
    assert ci.low < 3.0 < ci.high
    assert math.isnan(mean_ci([7.0]).half_width) and mean_ci([7.0]).mean == 7.0
    assert mean_ci([2.0, 2.0, 2.0]).half_width == 0.0
    assert mean_ci([1.0, float("nan"), 3.0]).n == 2
    assert mean_ci([]).n == 0


def test_mean_ci_covers_the_true_mean_about_95_percent():
    rng = np.random.default_rng(1)
    n_ok = 0
    for _ in range(2000):
        ci = mean_ci(rng.normal(10.0, 3.0, size=5))
        n_ok += ci.low <= 10.0 <= ci.high
    assert 0.93 < n_ok / 2000 < 0.97


def test_ratio_ci_by_hand_and_robust_to_one_small_denominator():
    b, a = [2.0, 4.0, 6.0, 9.0], [1.0, 2.0, 3.0, 4.0]
    ci = ratio_ci(b, a)
    r = 21.0 / 10.0
    d = np.array(b) - r * np.array(a)
    assert ci.mean == pytest.approx(r) and ci.n == 4
    assert ci.half_width == pytest.approx(t_quantile(0.975, 3) * d.std(ddof=1) / 2.0 / 2.5)
    # One near-zero denominator ruins the mean of ratios, not the ratio of means.
    b, a = [10.0] * 9 + [10.0], [8.0] * 9 + [0.1]
    assert mean_ci([x / y for x, y in zip(b, a)]).mean > 10
    assert ratio_ci(b, a).mean == pytest.approx(100.0 / 72.1)
    assert ratio_ci([1.0, float("nan")], [1.0, 2.0]).n == 1
    assert math.isnan(ratio_ci([], []).mean)


def test_ratio_ci_covers_the_true_ratio_about_95_percent():
    rng = np.random.default_rng(3)
    n_ok = 0
    for _ in range(2000):
        a = rng.normal(50.0, 10.0, size=20)
        b = 1.3 * a + rng.normal(0.0, 8.0, size=20)
        ci = ratio_ci(b, a)
        n_ok += ci.low <= 1.3 <= ci.high
    assert 0.93 < n_ok / 2000 < 0.97


def test_batch_means_on_a_correlated_series():
    # AR(1) with phi = 0.9 around 5: naive iid CIs are far too narrow; batch
    # means with long batches cover the true mean.
    rng = np.random.default_rng(2)
    covered = 0
    for _ in range(200):
        x = np.empty(20_000)
        x[0] = 5.0
        e = rng.normal(0, 1, size=x.size)
        for i in range(1, x.size):
            x[i] = 5.0 + 0.9 * (x[i - 1] - 5.0) + e[i]
        ci = batch_means_ci(x, batches=20, warmup=100)
        covered += ci.low <= 5.0 <= ci.high
    assert covered / 200 > 0.88
    naive = mean_ci(x)
    assert naive.half_width < 0.5 * batch_means_ci(x, batches=20).half_width


def test_batch_means_with_times_and_errors():
    t = np.arange(0, 100, 0.1)
    v = np.where(t < 10, 100.0, 1.0) + 0.01 * np.sin(t)
    ci = batch_means_ci(v, t, batches=10, warmup=10.0)
    assert ci.mean == pytest.approx(1.0, abs=0.01) and ci.n == 10
    with pytest.raises(ValueError, match="cannot fill"):
        batch_means_ci([1.0, 2.0], batches=5)
    with pytest.raises(ValueError, match="differ in length"):
        batch_means_ci([1.0, 2.0], [0.0], batches=2)
    assert abs(lag1_autocorrelation(np.random.default_rng(0).normal(size=5000))) < 0.05


def test_summarize_groups_by_point():
    df = pd.DataFrame({"p": [0.1, 0.1, 0.2, 0.2], "m": [1.0, 3.0, 10.0, 10.0]})
    s = summarize(df, ["p"], ["m"])
    assert list(s["mean"]) == [2.0, 10.0] and list(s["n"]) == [2, 2]
    assert s["half_width"].iloc[1] == 0.0


# ---- PFTK ------------------------------------------------------------------


def test_pftk_limits():
    # low loss: the square-root law; window limit: W/RTT
    r = pftk.send_rate(1e-5, 0.1, 1.0, 1e9) / pftk.mathis_rate(1e-5, 0.1)
    assert abs(r - 1) < 0.02
    assert 90 < pftk.send_rate(1e-6, 0.1, 1.0, 10.0) <= 100.0001
    assert pftk.send_rate(0.05, 0.1, 2.0, 1e6) < 0.6 * pftk.send_rate(0.05, 0.1, 0.2, 1e6)
    arr = pftk.send_rate(np.array([0.001, 0.01]), 0.1, 1.0, 1e5)
    assert arr.shape == (2,) and arr[0] > arr[1]


RUST_MAIN = r"""
#[allow(dead_code)]
#[path = "PFTK_RS"]
mod pftk;
fn main() {
    for line in std::io::stdin().lines() {
        let v: Vec<f64> = line.unwrap().split_whitespace().map(|x| x.parse().unwrap()).collect();
        let m = pftk::PftkParams { p: v[0], rtt: v[1], t0: v[2], wmax: v[3], b: v[4] };
        let mathis = pftk::mathis_rate(m.p, m.rtt, m.b);
        println!("{:e} {:e} {:e}", pftk::send_rate(&m), pftk::send_rate_approx(&m), mathis);
    }
}
"""


def test_pftk_agrees_with_the_rust_implementation(tmp_path):
    """Compile crates/obsim-core/src/analysis/pftk.rs on its own with rustc and
    compare both implementations on a grid of parameters."""
    rustc = shutil.which("rustc")
    if rustc is None:
        pytest.skip("rustc not found: cannot compile the Rust PFTK model for the cross-check")
    src = ROOT / "crates" / "obsim-core" / "src" / "analysis" / "pftk.rs"
    main = tmp_path / "main.rs"
    main.write_text(RUST_MAIN.replace("PFTK_RS", str(src)), encoding="utf-8")
    exe = tmp_path / "pftk_check"
    subprocess.run(
        [rustc, "--edition", "2021", "-O", "-o", str(exe), str(main)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    cases = [
        (p, rtt, t0, wmax, b)
        for p in (1e-5, 1e-4, 0.001, 0.003, 0.01, 0.03, 0.05, 0.1, 0.3)
        for rtt in (0.01, 0.1, 0.5)
        for t0 in (0.2, 1.0, 3.0)
        for wmax in (4.0, 20.0, 100000.0)
        for b in (1.0, 2.0)
    ]
    stdin = "\n".join(" ".join(repr(x) for x in c) for c in cases) + "\n"
    out = subprocess.run(
        [str(exe)], input=stdin, capture_output=True, text=True, check=True, timeout=60
    ).stdout
    rust = np.array([[float(x) for x in line.split()] for line in out.splitlines()])
    c = np.array(cases)
    py = np.column_stack(
        [
            pftk.send_rate(c[:, 0], c[:, 1], c[:, 2], c[:, 3], c[:, 4]),
            pftk.send_rate_approx(c[:, 0], c[:, 1], c[:, 2], c[:, 3], c[:, 4]),
            pftk.mathis_rate(c[:, 0], c[:, 1], c[:, 4]),
        ]
    )
    assert rust.shape == py.shape == (len(cases), 3)
    np.testing.assert_allclose(py, rust, rtol=1e-12)

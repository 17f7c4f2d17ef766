"""The claim method (obsim.reproductions.claims): every kind × statistic holds
on supporting data and fails on null (no effect) and on contradicting data;
equivalence by two one-sided tests, not CI overlap; Fieller's interval; the
declaration checks that reject a claim a null effect would pass."""

from __future__ import annotations

import math
from typing import Tuple

import numpy as np
import pytest

from obsim.reproductions import COMPARISON_COLUMNS
from obsim.reproductions.claims import (
    NULL,
    STATISTICS,
    Claim,
    Estimate,
    mean_of,
    model_value,
    paired_difference,
    paired_ratio,
    ratio_of_means,
    ratio_of_ratios,
)

TWO_SAMPLE = ("paired_difference", "paired_ratio", "ratio_of_means")


def pair(ratio: float, n: int = 20, noise: float = 0.03, seed: int = 1) -> Tuple[list, list]:
    """Per-seed values of two configurations on the same seeds: ``b`` varies
    a lot between seeds (a common base), ``a = b · ratio`` with small
    independent noise, so only a paired statistic sees the effect sharply."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(50.0, 150.0, n)
    b = base * (1.0 + noise * rng.standard_normal(n))
    a = base * ratio * (1.0 + noise * rng.standard_normal(n))
    return list(a), list(b)


def effect_value(statistic: str, ratio: float) -> float:
    """The statistic's value for an effect ``a ≈ ratio · b`` with b ≈ 100."""
    return (ratio - 1.0) * 100.0 if statistic == "paired_difference" else ratio


# --- greater / less -----------------------------------------------------


@pytest.mark.parametrize("statistic", TWO_SAMPLE)
def test_greater_two_sample(statistic: str) -> None:
    c = Claim("gain", "a exceeds b", statistic, "greater")
    assert c.threshold == NULL[statistic]
    assert c.decide(*pair(1.2)).held  # supporting
    assert not c.decide(*pair(1.0)).held  # null
    assert not c.decide(*pair(0.8)).held  # contradicting


@pytest.mark.parametrize("statistic", TWO_SAMPLE)
def test_less_two_sample(statistic: str) -> None:
    c = Claim("loss", "a falls below b", statistic, "less")
    assert c.decide(*pair(0.8)).held
    assert not c.decide(*pair(1.0)).held
    assert not c.decide(*pair(1.2)).held


@pytest.mark.parametrize("statistic", TWO_SAMPLE)
def test_greater_with_a_threshold_above_null(statistic: str) -> None:
    t = effect_value(statistic, 1.1)
    c = Claim("gain", "a exceeds b by 10%", statistic, "greater", threshold=t)
    assert c.decide(*pair(1.3)).held
    assert not c.decide(*pair(1.1, noise=0.05)).held  # at the threshold: not clearly above
    assert not c.decide(*pair(1.0)).held


def test_greater_less_one_sample_and_model() -> None:
    rng = np.random.default_rng(3)
    c = Claim("level", "mean above 5", "mean", "greater", threshold=5.0)
    assert c.decide(6.0 + 0.3 * rng.standard_normal(15)).held
    assert not c.decide(5.0 + 0.3 * rng.standard_normal(15)).held
    assert not c.decide(4.0 + 0.3 * rng.standard_normal(15)).held
    c = Claim("level", "mean below 5", "mean", "less", threshold=5.0)
    assert c.decide(4.0 + 0.3 * rng.standard_normal(15)).held
    assert not c.decide(5.0 + 0.3 * rng.standard_normal(15)).held
    m = Claim("model", "model above 1", "model", "greater", threshold=1.0)
    assert m.decide(1.5).held and not m.decide(1.0).held and not m.decide(0.5).held
    m = Claim("model", "model below 1", "model", "less", threshold=1.0)
    assert m.decide(0.5).held and not m.decide(1.0).held and not m.decide(1.5).held


def test_paired_beats_unpaired_on_common_base() -> None:
    # The same 3% effect: invisible to two means compared side by side, clear paired.
    a, b = pair(1.03, n=10, noise=0.005)
    assert paired_difference(a, b).low > 0
    assert ratio_of_means(a, b, paired=True).low > 1
    unpaired = ratio_of_means(a, b, paired=False)
    assert unpaired.low < 1 < unpaired.high


# --- equivalence (two one-sided tests) -------------------------------------


@pytest.mark.parametrize("statistic", TWO_SAMPLE)
def test_equivalent_no_effect(statistic: str) -> None:
    margin = 5.0 if statistic == "paired_difference" else 0.05
    c = Claim("same", "a equals b", statistic, "equivalent", margin=margin)
    v = c.decide(*pair(1.0, n=20, noise=0.01))
    assert v.held  # tight equal data
    assert v.estimate.level == pytest.approx(0.90)  # 1 - 2α for α = 0.05
    assert not c.decide(*pair(1.2, noise=0.01)).held  # contradicting: a real effect
    # Too few or too noisy: the CIs of a and b overlap, yet equivalence is not shown.
    a, b = pair(1.0, n=3, noise=0.1, seed=7)
    ea, eb = mean_of(a), mean_of(b)
    assert ea.low < eb.high and eb.low < ea.high  # CI overlap would "accept"
    assert not c.decide(a, b).held
    assert not c.decide(*pair(1.0, n=20, noise=0.3)).held
    assert not c.decide(a[:1], b[:1]).held  # one seed: no interval, no claim


def test_equivalent_with_a_centre_off_null() -> None:
    c = Claim("double", "a is twice b", "ratio_of_means", "equivalent", threshold=2.0, margin=0.2)
    assert c.decide(*pair(2.0, noise=0.01)).held
    assert not c.decide(*pair(1.0, noise=0.01)).held  # null
    assert not c.decide(*pair(3.0, noise=0.01)).held  # contradicting


def test_equivalent_one_sample_and_model() -> None:
    rng = np.random.default_rng(5)
    c = Claim("level", "mean is 5", "mean", "equivalent", threshold=5.0, margin=0.2)
    assert c.decide(5.0 + 0.1 * rng.standard_normal(30)).held
    assert not c.decide(6.0 + 0.1 * rng.standard_normal(30)).held
    assert not c.decide(5.0 + 2.0 * rng.standard_normal(5)).held
    m = Claim("model", "model is 1", "model", "equivalent", threshold=1.0, margin=0.1)
    assert m.decide(1.05).held and not m.decide(1.5).held


# --- magnitude ------------------------------------------------------------


@pytest.mark.parametrize("statistic", TWO_SAMPLE)
def test_magnitude(statistic: str) -> None:
    band = (effect_value(statistic, 1.2), effect_value(statistic, 1.5))
    paper = effect_value(statistic, 1.35)
    c = Claim("size", "a exceeds b by 20-50%", statistic, "magnitude", band=band, paper=paper)
    v = c.decide(*pair(1.35))
    assert v.held and v.paper_in_ci is True
    v = c.decide(*pair(1.25))
    assert v.held and v.paper_in_ci is False
    assert not c.decide(*pair(1.0)).held  # null
    assert not c.decide(*pair(0.7)).held  # contradicting
    assert not c.decide(*pair(2.0)).held  # too large


def test_magnitude_one_sample_and_model() -> None:
    rng = np.random.default_rng(9)
    c = Claim("level", "about 10", "mean", "magnitude", band=(9.0, 11.0), paper=10.0)
    v = c.decide(10.0 + rng.standard_normal(20))
    assert v.held and v.paper_in_ci
    assert not c.decide(5.0 + rng.standard_normal(20)).held
    m = Claim("model", "about 10", "model", "magnitude", band=(9.0, 11.0), paper=10.0)
    v = m.decide(10.5)
    assert v.held and v.paper_in_ci is None  # a model value has no interval
    assert not m.decide(12.0).held


# --- estimators -----------------------------------------------------------


def test_mean_and_paired_intervals() -> None:
    e = mean_of([1.0, 2.0, 3.0])
    assert e.value == 2.0 and e.half_width == pytest.approx(2.4841, abs=1e-3) and e.n == 3
    e = paired_difference([2.0, 3.0, 4.0], [1.0, 1.0, 1.0])
    assert e.value == 2.0 and e.n == 3
    e = paired_ratio([2.0, 8.0], [1.0, 2.0])
    assert e.value == pytest.approx(math.sqrt(8.0))
    with pytest.raises(ValueError, match="positive"):
        paired_ratio([1.0, 0.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="aligned"):
        paired_difference([1.0, 2.0], [1.0])
    assert math.isnan(mean_of([1.0]).low) and mean_of([1.0]).n == 1
    e = model_value(3.0)
    assert (e.value, e.low, e.high, e.n) == (3.0, 3.0, 3.0, 1) and e.half_width == 0


def test_ratio_of_means_not_mean_of_ratios() -> None:
    a = [1.0, 1.0, 1.0, 1.0]
    b = [0.1, 1.0, 1.0, 1.0]  # one small denominator
    e = ratio_of_means(a, b)
    assert e.value == pytest.approx(4.0 / 3.1)
    assert np.mean(np.divide(a, b)) > 3.0  # the mean of ratios is dominated by it


def test_ratio_of_means_delta_matches_closed_form() -> None:
    a, b = pair(1.2, n=12, seed=11)
    e = ratio_of_means(a, b)
    assert e.method.endswith("delta method")
    x, y = np.array(a), np.array(b)
    r = x.mean() / y.mean()
    s = (x - r * y).std(ddof=1) / y.mean()
    from scipy.stats import t

    assert e.value == pytest.approx(r)
    assert e.half_width == pytest.approx(t.ppf(0.975, 11) * s / math.sqrt(12), rel=1e-9)


def test_fieller_bounded_and_unbounded() -> None:
    rng = np.random.default_rng(13)
    # Denominator near zero and noisy: not significantly nonzero -> unbounded.
    a = 1.0 + 0.1 * rng.standard_normal(8)
    b = 0.05 + 0.3 * rng.standard_normal(8)
    e = ratio_of_means(a, b)
    assert "Fieller" in e.method and "unbounded" in e.method
    assert e.low == -math.inf and e.high == math.inf and math.isinf(e.half_width)
    c = Claim("gain", "a exceeds b", "ratio_of_means", "greater", paper=2.0)
    v = c.decide(list(a), list(b))
    assert not v.held and v.paper_in_ci is None  # an unbounded CI says nothing about the paper
    # Denominator nonzero but imprecise (g between FIELLER_G and 1): bounded, asymmetric.
    b = 1.0 + 0.25 * rng.standard_normal(6)
    a = 2.0 * b + 0.05 * rng.standard_normal(6)
    e = ratio_of_means(list(a), list(b), paired=False)
    assert "Fieller" in e.method and "unbounded" not in e.method
    assert e.low < e.value < e.high and math.isfinite(e.high)
    assert abs((e.high - e.value) - (e.value - e.low)) > 1e-3


# --- rows and validation --------------------------------------------------


def test_row_has_every_column() -> None:
    v = Claim("gain", "a exceeds b", "ratio_of_means", "greater", paper=1.3, unit="x").decide(
        *pair(1.3)
    )
    row = v.row("M=10", 10.0)
    assert set(COMPARISON_COLUMNS) <= set(row)
    assert row["agrees"] is True and row["kind"] == "greater" and row["n"] == 20
    assert row["measured"] == v.estimate.value and row["measured_ci"] == v.estimate.half_width
    assert row["ci_low"] == v.estimate.low and row["paper_in_ci"] is True
    assert math.isnan(row["band_low"])
    eq = Claim("same", "equal", "paired_difference", "equivalent", margin=2.0).decide(
        *pair(1.0, noise=0.001)
    )
    assert eq.row("x")["band_low"] == -2.0 and eq.row("x")["band_high"] == 2.0


def test_statistics_registry() -> None:
    assert set(STATISTICS) == {
        "mean",
        "paired_difference",
        "paired_ratio",
        "ratio_of_means",
        "model",
        "ratio_of_ratios",
    }
    assert NULL == {
        "paired_difference": 0.0,
        "paired_ratio": 1.0,
        "ratio_of_means": 1.0,
        "ratio_of_ratios": 1.0,
    }


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(statistic="median", kind="greater"), "statistic"),
        (dict(statistic="paired_ratio", kind="bigger"), "kind"),
        (dict(statistic="paired_ratio", kind="greater", threshold=0.8), "null effect"),
        (dict(statistic="paired_difference", kind="less", threshold=1.0), "null effect"),
        (dict(statistic="paired_ratio", kind="equivalent"), "margin"),
        (dict(statistic="paired_ratio", kind="equivalent", margin=-0.1), "margin"),
        (
            dict(statistic="ratio_of_means", kind="equivalent", threshold=1.3, margin=0.5),
            "no-effect",
        ),
        (dict(statistic="ratio_of_means", kind="magnitude", band=(0.5, 1.5)), "no-effect"),
        (
            dict(statistic="paired_difference", kind="magnitude", band=(-1.0, 5.0)),
            "no-effect",
        ),
        (dict(statistic="paired_ratio", kind="magnitude", band=(2.0, 1.5)), "low < high"),
        (dict(statistic="paired_ratio", kind="magnitude"), "low < high"),
        (dict(statistic="mean", kind="greater"), "explicit threshold"),
        (dict(statistic="model", kind="less"), "explicit threshold"),
        (dict(statistic="paired_ratio", kind="greater", margin=0.1), "margin applies"),
        (dict(statistic="paired_ratio", kind="greater", band=(1.1, 1.2)), "band applies"),
        (dict(statistic="paired_ratio", kind="greater", precision=0.0), "precision"),
        (dict(statistic="paired_ratio", kind="greater", level=1.2), "level"),
    ],
)
def test_claims_that_cannot_be_decided_or_cannot_fail(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Claim("c", "a claim", **kwargs)


def test_decide_checks_arguments_and_level() -> None:
    c = Claim("gain", "a exceeds b", "paired_ratio", "greater")
    with pytest.raises(ValueError, match="needs a and b"):
        c.decide([1.0, 2.0])
    with pytest.raises(ValueError, match="interval"):
        Claim("same", "equal", "paired_ratio", "equivalent", margin=0.1).decide_estimate(
            Estimate(1.0, 0.99, 1.01, 10, "x", 0.95)
        )
    # A magnitude claim about an effect on a statistic with no null is allowed.
    assert Claim("level", "about 2", "mean", "magnitude", band=(1.0, 3.0)).decide([2.0, 2.1]).held


# --- ratio of ratios (pooled rates) ---------------------------------------


def rates(p_a: float, p_b: float, n: int = 15, seed: int = 21) -> Tuple[tuple, tuple]:
    """Per-seed (lost, sent) of two burst classes with loss probabilities
    ``p_a`` and ``p_b`` (binomial counts of about 2000 bursts each)."""
    rng = np.random.default_rng(seed)
    sent_a = rng.integers(1500, 2500, n).astype(float)
    sent_b = rng.integers(1500, 2500, n).astype(float)
    return (rng.binomial(sent_a.astype(int), p_a), sent_a), (
        rng.binomial(sent_b.astype(int), p_b),
        sent_b,
    )


def test_ratio_of_ratios_claims() -> None:
    a, b = rates(0.1, 0.1)
    e = ratio_of_ratios(a, b)
    pooled = (a[0].sum() / a[1].sum()) / (b[0].sum() / b[1].sum())
    assert e.value == pytest.approx(pooled) and e.low < e.value < e.high
    c = Claim("loss", "class a loses more", "ratio_of_ratios", "greater")
    assert c.decide(*rates(0.15, 0.1)).held
    assert not c.decide(*rates(0.1, 0.1)).held
    assert not c.decide(*rates(0.07, 0.1)).held
    eq = Claim("flat", "no dependence", "ratio_of_ratios", "equivalent", margin=0.1)
    assert eq.decide(*rates(0.1, 0.1)).held
    assert not eq.decide(*rates(0.15, 0.1)).held
    # Few bursts and few seeds: equal rates, but equivalence is not shown.
    rng = np.random.default_rng(4)
    sent = np.full(3, 40.0)
    few = ((rng.binomial(40, 0.1, 3), sent), (rng.binomial(40, 0.1, 3), sent))
    assert not eq.decide(*few).held
    # Too few losses: a rate of zero in the numerator gives an unbounded interval.
    e = ratio_of_ratios(([0.0, 0.0, 0.0], [10.0, 12.0, 11.0]), ([1.0, 2.0, 0.0], [10.0, 9.0, 11.0]))
    assert e.value == 0.0 and e.low == -math.inf and e.high == math.inf
    with pytest.raises(ValueError, match="aligned"):
        ratio_of_ratios(([1.0, 2.0], [3.0]), ([1.0], [1.0]))

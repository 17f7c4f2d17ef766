"""Confidence intervals: over replications (Student t) and, for one long
run, by batch means.

>>> mean_ci([1.0, 2.0, 3.0])          # CI(mean=2.0, half_width=2.48..., n=3, ...)
>>> batch_means_ci(trace_values, batches=20, warmup=100)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, List, Optional, Sequence

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas


def t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom
    (scipy.stats.t.ppf)."""
    from scipy.stats import t

    return float(t.ppf(q, df))


@dataclass(frozen=True)
class CI:
    """A mean with a two-sided confidence interval."""

    mean: float
    half_width: float
    n: int
    std: float
    level: float = 0.95

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:.6g} ± {self.half_width:.3g} ({self.level:.0%}, n={self.n})"


def mean_ci(values: Iterable[float], level: float = 0.95) -> CI:
    """Mean of ``values`` (NaN dropped) with a Student-t ``level`` CI,
    ``mean ± t_{(1+level)/2, n-1} · s / √n``. The half width is NaN for fewer
    than two values, 0 when they are all equal."""
    x = np.asarray([v for v in values if v is not None], dtype=float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return CI(math.nan, math.nan, 0, math.nan, level)
    with np.errstate(invalid="ignore", over="ignore"):  # ±inf values: mean ±inf or NaN
        mean = float(x.mean())
    if n < 2:
        return CI(mean, math.nan, 1, math.nan, level)
    if not np.isfinite(x).all():  # an overflowed metric: no spread to speak of
        return CI(mean, math.nan, n, math.nan, level)
    std = float(x.std(ddof=1))
    half = t_quantile((1.0 + level) / 2.0, n - 1) * std / math.sqrt(n) if std > 0 else 0.0
    return CI(mean, half, n, std, level)


def ratio_ci(numerators: Iterable[float], denominators: Iterable[float], level: float = 0.95) -> CI:
    """Ratio of means ``R = mean(b) / mean(a)`` of paired samples ``(b_i,
    a_i)`` (e.g. one replication each, same seed), with a Student-t ``level``
    CI from the delta method: ``R ± t_{(1+level)/2, n-1} · s_d / (√n ·
    mean(a))`` where ``s_d`` is the standard deviation of ``b_i - R a_i``
    (Cochran, Sampling Techniques, §6.4). The ratio of two long-run averages,
    which the mean of per-pair ratios ``b_i / a_i`` is not: one small
    ``a_i`` cannot dominate it. Pairs with a NaN are dropped; ``std`` is
    ``s_d / mean(a)``."""
    pairs = [(float(b), float(a)) for b, a in zip(numerators, denominators)]
    kept = [p for p in pairs if not (math.isnan(p[0]) or math.isnan(p[1]))]
    x = np.asarray(kept, dtype=float).reshape(-1, 2)
    n = int(x.shape[0])
    if n == 0 or x[:, 1].mean() == 0:
        return CI(math.nan, math.nan, n, math.nan, level)
    b, a = x[:, 0], x[:, 1]
    ratio = float(b.mean() / a.mean())
    if n < 2:
        return CI(ratio, math.nan, 1, math.nan, level)
    std = float((b - ratio * a).std(ddof=1) / a.mean())
    half = t_quantile((1.0 + level) / 2.0, n - 1) * std / math.sqrt(n) if std > 0 else 0.0
    return CI(ratio, half, n, std, level)


def batch_means_ci(
    values: Sequence[float],
    times: Optional[Sequence[float]] = None,
    *,
    batches: int = 20,
    warmup: float = 0.0,
    level: float = 0.95,
) -> CI:
    """CI of the steady-state mean of one long run's time series by the
    method of batch means.

    ``values`` (e.g. a trace column sampled at a fixed interval) are cut at
    ``warmup``: the first ``warmup`` samples, or, with ``times``, the samples
    before time ``warmup``. The rest is split into ``batches`` equal batches
    (a remainder at the start is dropped); the batch means are treated as
    independent, giving a Student-t CI with ``batches - 1`` degrees of
    freedom. Choose batches long compared with the series' correlation time
    (e.g. many RTTs); :func:`lag1_autocorrelation` of the batch means near 0
    says they are.
    """
    x = np.asarray(values, dtype=float)
    if times is not None:
        t = np.asarray(times, dtype=float)
        if t.shape != x.shape:
            raise ValueError(f"times and values differ in length: {t.size} vs {x.size}")
        x = x[t >= warmup]
    else:
        x = x[int(warmup) :]
    x = x[~np.isnan(x)]
    if batches < 2:
        raise ValueError(f"batches must be >= 2, got {batches}")
    size = x.size // batches
    if size < 1:
        raise ValueError(f"{x.size} samples after warm-up cannot fill {batches} batches")
    x = x[x.size - size * batches :]
    means = x.reshape(batches, size).mean(axis=1)
    return mean_ci(means, level)


def lag1_autocorrelation(x: Sequence[float]) -> float:
    """Lag-1 autocorrelation of ``x`` (for checking batch independence)."""
    a = np.asarray(x, dtype=float)
    a = a - a.mean()
    den = float((a * a).sum())
    return float((a[:-1] * a[1:]).sum() / den) if den > 0 else math.nan


def summarize(
    results: "pandas.DataFrame", by: List[str], metrics: List[str], level: float = 0.95
) -> "pandas.DataFrame":
    """Mean and CI of each metric over replications, one row per (group of
    ``by``, metric): columns ``by + [metric, n, mean, std, half_width,
    ci_low, ci_high]``."""
    import pandas as pd

    rows = []
    groups = results.groupby(by, sort=False, dropna=False) if by else [((), results)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        for m in metrics:
            ci = mean_ci(g[m].tolist(), level)
            row = dict(zip(by, key))
            row.update(
                metric=m,
                n=ci.n,
                mean=ci.mean,
                std=ci.std,
                half_width=ci.half_width,
                ci_low=ci.low,
                ci_high=ci.high,
            )
            rows.append(row)
    return pd.DataFrame(rows, columns=by + ["metric", "n", "mean", "std", "half_width", "ci_low", "ci_high"])


__all__ = ["CI", "batch_means_ci", "lag1_autocorrelation", "mean_ci", "ratio_ci", "summarize", "t_quantile"]

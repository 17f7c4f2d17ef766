"""One method for deciding a paper's claims from replicated runs.

A :class:`Claim` is declared in code before the run: the statistic that
measures it (a key of :data:`STATISTICS`), its kind (``greater``, ``less``,
``equivalent``, ``magnitude``) and its threshold, margin or band. After the
run, :meth:`Claim.decide` computes the statistic over per-seed values with a
confidence interval (an :class:`Estimate`) and decides it (a
:class:`Verdict`), whose :meth:`Verdict.row` is one row of the comparison
table (:data:`obsim.reproductions.COMPARISON_COLUMNS`).

The decision rules:

* ``greater`` / ``less``: held iff the whole ``level`` CI lies above / below
  the threshold (by default the statistic's no-effect value, :data:`NULL`).
  An ordering between two configurations is a paired statistic (the same
  seeds on both sides) with this rule, never a comparison of two means.
* ``equivalent``: two one-sided tests (Schuirmann 1987) at ``α = 1 - level``:
  held iff the ``1 - 2α`` CI lies inside ``[threshold - margin, threshold +
  margin]``. Too few or too noisy data give a wide CI and the claim is *not*
  held, which is what CI overlap gets wrong.
* ``magnitude``: held iff the point estimate lies in the stated band; the
  row also says whether the paper's value lies inside the measured CI.

A claim that no data could fail is a ``ValueError`` at declaration (e.g.
``greater`` with a threshold below the statistic's no-effect value, or a
magnitude band containing it): a null effect must not pass.

>>> c = Claim("gain", "burst retransmission raises goodput", "paired_ratio", "greater")
>>> v = c.decide([2.0, 2.1, 1.9], [1.0, 1.1, 0.9])
>>> v.held, v.row("M=10")["agrees"]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from ..stats import t_quantile

nan = math.nan

FIELLER_G = 0.05
"""Fieller's ``g = t² · var(mean(b)) / mean(b)²`` above which
:func:`ratio_of_means` uses Fieller's interval instead of the delta method
(Finney, *Statistical Method in Biological Assay*, 1978: below about 0.05 the
two agree; above it the denominator is not clearly away from zero and the
delta method's symmetric interval is too narrow)."""


@dataclass(frozen=True)
class Estimate:
    """A statistic with its two-sided confidence interval ``[low, high]``.

    ``n`` is the number of per-seed values (pairs) used; ``method`` names the
    estimator and the interval (e.g. ``"ratio of means, delta method"``).
    ``low``/``high`` are NaN when fewer than two values leave the interval
    undefined, and ±inf when Fieller's interval is unbounded. ``level`` is
    the interval's confidence level (an addition to the first contract,
    default 0.95; a deterministic model value has no interval and keeps the
    default)."""

    value: float
    low: float
    high: float
    n: int
    method: str
    level: float = 0.95

    @property
    def half_width(self) -> float:
        """``(high - low) / 2`` (inf for an unbounded, NaN for no interval)."""
        return (self.high - self.low) / 2.0

    @property
    def deterministic(self) -> bool:
        """True for a model's number (:func:`model_value`): no sampling error."""
        return self.method == MODEL_METHOD

    def __str__(self) -> str:
        return f"{self.value:.6g} [{self.low:.6g}, {self.high:.6g}] (n={self.n}, {self.method})"


MODEL_METHOD = "model value (deterministic)"


def _values(a: Sequence[float]) -> np.ndarray:
    """The per-seed values as a flat float array."""
    return np.asarray(list(a), dtype=float).ravel()


def _pairs(a: Sequence[float], b: Sequence[float]) -> Tuple[np.ndarray, np.ndarray]:
    """``a``, ``b`` aligned by seed with the pairs holding a NaN dropped."""
    x, y = _values(a), _values(b)
    if x.size != y.size:
        raise ValueError(
            f"paired statistic needs a and b aligned by seed: {x.size} values against {y.size}"
        )
    keep = ~(np.isnan(x) | np.isnan(y))
    return x[keep], y[keep]


def _t_interval(d: np.ndarray, level: float) -> Tuple[float, float, float, int]:
    """Mean of ``d`` with the one-sample Student-t interval (NaN dropped)."""
    d = d[~np.isnan(d)]
    n = int(d.size)
    if n == 0:
        return nan, nan, nan, 0
    m = float(d.mean())
    if n < 2:
        return m, nan, nan, 1
    s = float(d.std(ddof=1))
    h = t_quantile((1.0 + level) / 2.0, n - 1) * s / math.sqrt(n) if s > 0 else 0.0
    return m, m - h, m + h, n


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie in (0, 1), got {level}")


def mean_of(a: Sequence[float], level: float = 0.95) -> Estimate:
    """Mean of the per-seed values ``a`` with a one-sample Student-t
    interval (NaN values dropped)."""
    _check_level(level)
    m, lo, hi, n = _t_interval(_values(a), level)
    return Estimate(m, lo, hi, n, "mean, t interval", level)


def paired_difference(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Estimate:
    """Mean of the per-seed differences ``a_i - b_i`` with a Student-t
    interval: the paired comparison of two configurations run on the same
    seeds (pairs with a NaN dropped)."""
    _check_level(level)
    x, y = _pairs(a, b)
    m, lo, hi, n = _t_interval(x - y, level)
    return Estimate(m, lo, hi, n, "mean paired difference, t interval", level)


def paired_ratio(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Estimate:
    """Geometric mean of the per-seed ratios ``a_i / b_i`` with a Student-t
    interval on ``log(a_i / b_i)``, transformed back (a multiplicative
    effect, symmetric in a and b on the log scale). Values must be positive
    (``ValueError`` otherwise); pairs with a NaN are dropped."""
    _check_level(level)
    x, y = _pairs(a, b)
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError(
            "paired_ratio needs positive values (a ratio of a zero or negative value has no "
            "logarithm); use paired_difference or ratio_of_means"
        )
    m, lo, hi, n = _t_interval(np.log(x / y), level)
    return Estimate(
        math.exp(m),
        math.exp(lo) if not math.isnan(lo) else nan,
        math.exp(hi) if not math.isnan(hi) else nan,
        n,
        "geometric mean of paired ratios, t interval on the logs",
        level,
    )


def ratio_of_means(
    a: Sequence[float], b: Sequence[float], level: float = 0.95, paired: bool = True
) -> Estimate:
    """``mean(a) / mean(b)``: the ratio of two long-run averages (which the
    mean of per-seed ratios is not: it is biased upward, and one small
    ``b_i`` can dominate it).

    Interval: the delta method (Cochran, *Sampling Techniques*, §6.4), with
    the covariance of a and b when ``paired`` (same seeds, same length; pairs
    with a NaN dropped) and Welch–Satterthwaite degrees of freedom when not.
    When the denominator is not clearly nonzero (Fieller's ``g`` above
    :data:`FIELLER_G`) Fieller's interval (Fieller 1954) is used instead;
    when ``mean(b)`` is not significantly nonzero at all it is unbounded
    (``low = -inf``, ``high = inf``). ``method`` says which interval."""
    _check_level(level)
    if paired:
        x, y = _pairs(a, b)
        na = nb = int(x.size)
    else:
        x, y = _values(a), _values(b)
        x, y = x[~np.isnan(x)], y[~np.isnan(y)]
        na, nb = int(x.size), int(y.size)
    n = min(na, nb)
    kind = "paired" if paired else "unpaired"
    if n == 0:
        return Estimate(nan, nan, nan, 0, f"ratio of means ({kind})", level)
    ma, mb = float(x.mean()), float(y.mean())
    r = ma / mb if mb != 0 else (nan if ma == 0 else math.copysign(math.inf, ma))
    if n < 2:
        return Estimate(r, nan, nan, n, f"ratio of means ({kind})", level)
    # Variances and covariance of the two means.
    vaa = float(x.var(ddof=1)) / na
    vbb = float(y.var(ddof=1)) / nb
    if paired:
        vab = float(np.cov(x, y, ddof=1)[0, 1]) / n
        df = float(n - 1)
    else:
        vab = 0.0
        rr = r if math.isfinite(r) else 0.0
        num = (vaa + rr * rr * vbb) ** 2
        den = (vaa**2 / (na - 1) if na > 1 else 0.0) + (
            (rr**4) * vbb**2 / (nb - 1) if nb > 1 else 0.0
        )
        df = num / den if den > 0 else float(n - 1)
    from scipy.stats import t as student_t

    t = float(student_t.ppf((1.0 + level) / 2.0, df))
    g = t * t * vbb / (mb * mb) if mb != 0 else math.inf
    if g < FIELLER_G:
        var = (vaa - 2.0 * r * vab + r * r * vbb) / (mb * mb)
        h = t * math.sqrt(max(var, 0.0))
        return Estimate(r, r - h, r + h, n, f"ratio of means ({kind}), delta method", level)
    # Fieller: the θ with (ma - θ mb)² ≤ t² (vaa - 2θ vab + θ² vbb).
    qa = mb * mb - t * t * vbb
    qb = ma * mb - t * t * vab
    qc = ma * ma - t * t * vaa
    disc = qb * qb - qa * qc
    method = f"ratio of means ({kind}), Fieller interval"
    if qa <= 0:
        return Estimate(r, -math.inf, math.inf, n, method + " (unbounded)", level)
    # With qa > 0 the set contains θ = r, so disc >= 0 up to rounding.
    root = math.sqrt(max(disc, 0.0))
    return Estimate(r, (qb - root) / qa, (qb + root) / qa, n, method, level)


def ratio_of_ratios(
    a: Tuple[Sequence[float], Sequence[float]],
    b: Tuple[Sequence[float], Sequence[float]],
    level: float = 0.95,
) -> Estimate:
    """``(mean(a_num) / mean(a_den)) / (mean(b_num) / mean(b_den))``, with
    ``a = (a_num, a_den)`` and ``b = (b_num, b_den)`` per-seed values
    aligned by seed (e.g. lost and sent bursts of two configurations, or of
    two burst classes of the same runs): the ratio of two pooled rates,
    each a ratio of means (never a mean of per-seed rates). Interval: the
    delta method on the logarithm (per-seed influence ``a_num_i/Ā_num -
    a_den_i/Ā_den - b_num_i/B̄_num + b_den_i/B̄_den``, Student t with n - 1
    degrees of freedom), transformed back, so it stays positive; unbounded
    when a numerator mean is zero (a rate of zero has no logarithm). Seeds
    with a NaN in any of the four are dropped. (An addition to the first
    contract.)"""
    _check_level(level)
    if len(a) != 2 or len(b) != 2:
        raise ValueError("ratio_of_ratios takes a = (numerator, denominator) and b likewise")
    cols = [_values(x) for x in (a[0], a[1], b[0], b[1])]
    if len({c.size for c in cols}) != 1:
        raise ValueError(
            "ratio_of_ratios needs the four series aligned by seed: lengths "
            + ", ".join(str(c.size) for c in cols)
        )
    m = np.column_stack(cols)
    m = m[~np.isnan(m).any(axis=1)]
    n = int(m.shape[0])
    method = "ratio of ratios of means (paired), delta method on the log"
    if n == 0:
        return Estimate(nan, nan, nan, 0, method, level)
    means = m.mean(axis=0)
    an, ad, bn, bd = (float(x) for x in means)
    if ad == 0 or bd == 0 or (an == 0 and bn == 0):
        return Estimate(nan, nan, nan, n, method, level)
    if bn == 0:
        return Estimate(math.inf, -math.inf, math.inf, n, method + " (unbounded)", level)
    r = (an / ad) / (bn / bd)
    if n < 2:
        return Estimate(r, nan, nan, n, method, level)
    if an == 0:
        return Estimate(r, -math.inf, math.inf, n, method + " (unbounded)", level)
    z = m[:, 0] / an - m[:, 1] / ad - m[:, 2] / bn + m[:, 3] / bd
    s = float(z.std(ddof=1))
    h = t_quantile((1.0 + level) / 2.0, n - 1) * s / math.sqrt(n) if s > 0 else 0.0
    return Estimate(r, r * math.exp(-h), r * math.exp(h), n, method, level)


def model_value(v: float) -> Estimate:
    """A deterministic number (an analytic model's value): no sampling
    error, ``low = high = value``, ``n = 1``."""
    v = float(v)
    return Estimate(v, v, v, 1, MODEL_METHOD)


STATISTICS: Dict[str, Callable[..., Estimate]] = {
    "mean": mean_of,
    "paired_difference": paired_difference,
    "paired_ratio": paired_ratio,
    "ratio_of_means": ratio_of_means,
    "model": model_value,
    "ratio_of_ratios": ratio_of_ratios,
}
"""The statistics a claim can name, by key."""

NULL: Dict[str, float] = {
    "paired_difference": 0.0,
    "paired_ratio": 1.0,
    "ratio_of_means": 1.0,
    "ratio_of_ratios": 1.0,
}
"""The no-effect value of each statistic comparing two configurations (a
one-sample mean and a model value have none)."""

KINDS = ("greater", "less", "equivalent", "magnitude")
"""The kinds of claim (see the module docstring for each decision rule)."""


def _finite(x: float) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


@dataclass(frozen=True)
class Claim:
    """A claim of a paper, declared in code before the run: what statistic
    measures it, in which direction, against which threshold (see the
    module docstring for the rules). ``ValueError`` for a claim that cannot
    be decided or cannot fail."""

    name: str
    """Short label (the comparison row's ``quantity``)."""
    statement: str
    """What the paper claims (quoted where possible)."""
    statistic: str
    """Key of :data:`STATISTICS`."""
    kind: str
    """``"greater"``, ``"less"``, ``"equivalent"`` or ``"magnitude"``."""
    threshold: float = nan
    """greater/less: the bound the CI must clear (default
    ``NULL[statistic]``); equivalent: the centre of the equivalence region
    (default ``NULL[statistic]``)."""
    margin: float = nan
    """equivalent: the half-width of the equivalence region (> 0)."""
    band: Tuple[float, float] = (nan, nan)
    """magnitude: held iff the point estimate lies in ``[band[0], band[1]]``."""
    paper: float = nan
    """The paper's value, if it gives one (reported; never decides)."""
    unit: str = ""
    precision: float = nan
    """The CI half-width this claim needs (seeds are added until reached or
    the cap); NaN = no requirement."""
    level: float = 0.95
    """Confidence level of the interval (equivalent: of each one-sided
    test, so the interval used is ``2·level - 1``)."""

    def __post_init__(self) -> None:
        where = f"claim {self.name!r}"
        if self.statistic not in STATISTICS:
            raise ValueError(
                f"{where}: statistic {self.statistic!r} unknown; allowed: {', '.join(STATISTICS)}"
            )
        if self.kind not in KINDS:
            raise ValueError(f"{where}: kind {self.kind!r} unknown; allowed: {', '.join(KINDS)}")
        if not 0.5 < self.level < 1.0:
            raise ValueError(f"{where}: level must lie in (0.5, 1), got {self.level}")
        if not (math.isnan(self.precision) or self.precision > 0):
            raise ValueError(f"{where}: precision must be > 0 or NaN, got {self.precision}")
        null = NULL.get(self.statistic)
        if self.kind in ("greater", "less", "equivalent") and math.isnan(self.threshold):
            if null is None:
                raise ValueError(
                    f"{where}: statistic {self.statistic!r} has no no-effect value; "
                    f"a {self.kind} claim on it needs an explicit threshold"
                )
            object.__setattr__(self, "threshold", null)
        if self.kind in ("greater", "less", "equivalent") and not _finite(self.threshold):
            raise ValueError(f"{where}: threshold must be finite, got {self.threshold}")
        if self.kind == "greater" and null is not None and self.threshold < null:
            raise ValueError(
                f"{where}: a greater claim with threshold {self.threshold} below the no-effect "
                f"value {null} of {self.statistic} is passed by a null effect; state it as an "
                "equivalent (non-inferiority) claim with a margin instead"
            )
        if self.kind == "less" and null is not None and self.threshold > null:
            raise ValueError(
                f"{where}: a less claim with threshold {self.threshold} above the no-effect "
                f"value {null} of {self.statistic} is passed by a null effect"
            )
        if self.kind == "equivalent":
            if not (_finite(self.margin) and self.margin > 0):
                raise ValueError(
                    f"{where}: an equivalent claim needs a margin > 0, got {self.margin}"
                )
            lo, hi = self.threshold - self.margin, self.threshold + self.margin
            if null is not None and self.threshold != null and lo <= null <= hi:
                raise ValueError(
                    f"{where}: the equivalence region [{lo}, {hi}] around {self.threshold} "
                    f"contains the no-effect value {null}: a null effect would pass a claim "
                    "about an effect"
                )
        elif not math.isnan(self.margin):
            raise ValueError(f"{where}: margin applies only to an equivalent claim")
        band = tuple(self.band)
        if len(band) != 2:
            raise ValueError(f"{where}: band must be (low, high), got {self.band!r}")
        object.__setattr__(self, "band", (float(band[0]), float(band[1])))
        if self.kind == "magnitude":
            lo, hi = self.band
            if math.isnan(lo) or math.isnan(hi) or not lo < hi:
                raise ValueError(f"{where}: a magnitude claim needs a band low < high, got {band}")
            if null is not None and lo <= null <= hi:
                raise ValueError(
                    f"{where}: the band [{lo}, {hi}] contains the no-effect value {null} of "
                    f"{self.statistic}: a null effect would pass; make it a greater/less or "
                    "equivalent claim"
                )
        elif not (math.isnan(band[0]) and math.isnan(band[1])):
            raise ValueError(f"{where}: band applies only to a magnitude claim")

    @property
    def ci_level(self) -> float:
        """The confidence level of the interval the decision uses: ``level``,
        or ``2·level - 1`` for an equivalence (two one-sided tests)."""
        return 2.0 * self.level - 1.0 if self.kind == "equivalent" else self.level

    def estimate(self, a: Any, b: Any = None) -> Estimate:
        """The claim's statistic over per-seed values (``a`` alone for
        ``mean``, a number for ``model``, ``a`` and ``b`` aligned by seed
        for the paired statistics and ``ratio_of_means``; for
        ``ratio_of_ratios`` each of ``a`` and ``b`` is a (numerator,
        denominator) pair of per-seed series)."""
        if self.statistic == "model":
            if b is not None:
                raise ValueError(f"claim {self.name!r}: a model value takes one number")
            return model_value(a)
        if self.statistic == "mean":
            if b is not None:
                raise ValueError(f"claim {self.name!r}: a mean takes one sample")
            return mean_of(a, self.ci_level)
        if b is None:
            raise ValueError(f"claim {self.name!r}: statistic {self.statistic} needs a and b")
        return STATISTICS[self.statistic](a, b, self.ci_level)

    def decide(self, a: Any, b: Any = None) -> "Verdict":
        """Compute the statistic (:meth:`estimate`) and decide the claim."""
        return self.decide_estimate(self.estimate(a, b))

    def decide_estimate(self, est: Estimate) -> "Verdict":
        """Decide the claim on an estimate computed elsewhere (its interval
        must be at :attr:`ci_level` unless it is a model value). An
        undefined interval (NaN) holds no greater/less/equivalent claim."""
        if not est.deterministic and abs(est.level - self.ci_level) > 1e-9:
            raise ValueError(
                f"claim {self.name!r} decides on a {self.ci_level:.0%} interval; "
                f"the estimate's is {est.level:.0%}"
            )
        lo, hi = est.low, est.high
        if self.kind == "greater":
            held = bool(lo > self.threshold)
        elif self.kind == "less":
            held = bool(hi < self.threshold)
        elif self.kind == "equivalent":
            held = bool(
                lo >= self.threshold - self.margin and hi <= self.threshold + self.margin
            )
        else:
            held = bool(self.band[0] <= est.value <= self.band[1])
        paper_in_ci: Optional[bool] = None
        if _finite(self.paper) and not est.deterministic and _finite(lo) and _finite(hi):
            # An unbounded interval (Fieller) contains every value: it says nothing.
            paper_in_ci = bool(lo <= self.paper <= hi)
        return Verdict(self, est, held, paper_in_ci)


@dataclass(frozen=True)
class Verdict:
    """A claim decided on an estimate."""

    claim: Claim
    estimate: Estimate
    held: bool
    paper_in_ci: Optional[bool]
    """Whether the paper's value lies inside the measured CI (None when the
    paper gives none or the estimate has no bounded interval)."""

    def row(self, case: str, x: float = nan) -> Dict[str, Any]:
        """One comparison row (every key of
        :data:`obsim.reproductions.COMPARISON_COLUMNS`): ``agrees`` is
        ``held``, ``measured``/``measured_ci`` the estimate and its
        half-width, ``ci_low``/``ci_high`` the interval decided on; for an
        equivalence ``band_low``/``band_high`` is the equivalence region."""
        c, e = self.claim, self.estimate
        if c.kind == "equivalent":
            band = (c.threshold - c.margin, c.threshold + c.margin)
        else:
            band = c.band
        ratio = e.value / c.paper if _finite(c.paper) and c.paper != 0 else nan
        return {
            "case": case,
            "x": float(x),
            "quantity": c.name,
            "unit": c.unit,
            "paper": float(c.paper),
            "paper_ci": nan,
            "measured": float(e.value),
            "measured_ci": float(e.half_width) if not e.deterministic else nan,
            "ratio": ratio,
            "tolerance": nan,
            "agrees": bool(self.held),
            "kind": c.kind,
            "statistic": c.statistic,
            "threshold": float(c.threshold) if c.kind != "magnitude" else nan,
            "band_low": float(band[0]),
            "band_high": float(band[1]),
            "ci_low": float(e.low),
            "ci_high": float(e.high),
            "n": int(e.n),
            "precision": float(c.precision),
            "paper_in_ci": self.paper_in_ci,
            "method": e.method,
        }


__all__ = [
    "Claim",
    "Estimate",
    "FIELLER_G",
    "KINDS",
    "NULL",
    "STATISTICS",
    "Verdict",
    "mean_of",
    "model_value",
    "paired_difference",
    "paired_ratio",
    "ratio_of_means",
    "ratio_of_ratios",
]

"""The Bernoulli-dumbbell comparison as a table: per (mode, variant, p), the
means over seeds of ns-2's and obsim's goodput and timeouts, their relative
difference, the spread across seeds and a 95% confidence interval of the
difference.

Each simulator draws its own start times and losses from its own generator,
so seed ``s`` of ns-2 and seed ``s`` of obsim are two independent samples,
not one sample path: the two sets of per-seed values are compared as
independent samples (Welch's t interval on the difference of the means,
scaled by ns-2's mean). A difference whose interval contains 0 is not
distinguishable from the seed-to-seed noise at that number of seeds.

    python -m obsim.ns2diff table --seeds 1 2 3 4 5 6 7 8 9 10 --duration 60 --out t.md
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from . import ns2, obsim_side
from .case import DumbbellCase

Row = Tuple[int, int, int]
"""One flow of one run: (segments acknowledged, timeouts, retransmitted)."""


@dataclass(frozen=True)
class Sample:
    """One run of one simulator, reduced: mean goodput per flow (bit/s),
    timeouts and retransmitted packets summed over the flows."""

    goodput_bps: float
    timeouts: float
    retransmits: float


def reduce_run(rows: Sequence[Row], case: DumbbellCase) -> Sample:
    """A run's per-flow rows reduced to one :class:`Sample`."""
    bits = case.mss * 8
    return Sample(
        goodput_bps=statistics.fmean(r[0] for r in rows) * bits / case.duration_s,
        timeouts=float(sum(r[1] for r in rows)),
        retransmits=float(sum(r[2] for r in rows)),
    )


@dataclass(frozen=True)
class Metric:
    """One quantity over seeds, ns-2 against obsim.

    Attributes:
        ns2: ns-2's per-seed values.
        obsim: obsim's per-seed values (same seeds, independent draws).
    """

    ns2: Tuple[float, ...]
    obsim: Tuple[float, ...]

    @property
    def ns2_mean(self) -> float:
        """Mean of ns-2's values."""
        return statistics.fmean(self.ns2)

    @property
    def obsim_mean(self) -> float:
        """Mean of obsim's values."""
        return statistics.fmean(self.obsim)

    @property
    def rel(self) -> float:
        """(obsim mean − ns-2 mean) / ns-2 mean; NaN when ns-2's mean is 0."""
        m = self.ns2_mean
        return (self.obsim_mean - m) / m if m else math.nan

    def per_seed_rel(self) -> List[float]:
        """Per seed, (obsim − ns-2) / ns-2 mean: the spread of the
        differences across seeds."""
        m = self.ns2_mean
        return [(o - n) / m if m else math.nan for n, o in zip(self.ns2, self.obsim)]

    def sd(self, side: str) -> float:
        """Standard deviation across seeds of one side's values (0 for one seed)."""
        xs = self.ns2 if side == "ns-2" else self.obsim
        return statistics.stdev(xs) if len(xs) > 1 else 0.0

    def rel_ci(self, level: float = 0.95) -> Tuple[float, float]:
        """Confidence interval (two-sided, ``level``) of :attr:`rel`: Welch's
        t interval on the difference of two independent means, divided by
        ns-2's mean (its own uncertainty neglected). (NaN, NaN) with fewer
        than two seeds."""
        n1, n2 = len(self.ns2), len(self.obsim)
        m = self.ns2_mean
        if n1 < 2 or n2 < 2 or not m:
            return (math.nan, math.nan)
        v1, v2 = statistics.variance(self.ns2) / n1, statistics.variance(self.obsim) / n2
        se = math.sqrt(v1 + v2)
        if se == 0.0:
            return (self.rel, self.rel)
        dof = (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1)) if v1 and v2 else n1 - 1
        half = _t_quantile(0.5 + level / 2, dof) * se / m
        return (self.rel - half, self.rel + half)

    def consistent_with(self, band: float, level: float = 0.99) -> bool:
        """True when the data do not show a difference beyond ``band``: the
        ``level`` interval of :attr:`rel` overlaps ``[-band, +band]``."""
        lo, hi = self.rel_ci(level)
        return not (lo > band or hi < -band)


def _t_quantile(q: float, dof: float) -> float:
    """The ``q`` quantile of Student's t with ``dof`` degrees of freedom."""
    from scipy.stats import t  # local import: only the statistics need scipy

    return float(t.ppf(q, dof))


@dataclass(frozen=True)
class Cell:
    """One (mode, variant, p) of the table."""

    mode: str
    variant: str
    p: float
    seeds: Tuple[int, ...]
    goodput: Metric
    timeouts: Metric
    retransmits: Metric


def run_cell(
    case: DumbbellCase,
    seeds: Sequence[int],
    progress: Optional[Callable[[str], None]] = None,
) -> Cell:
    """Runs ``case`` in both simulators for every seed, one run at a time."""
    ns: List[Sample] = []
    ob: List[Sample] = []
    for s in seeds:
        c = DumbbellCase(**{**case.__dict__, "seed": s})
        ns.append(reduce_run(ns2.run_dumbbell(c), c))
        ob.append(reduce_run(obsim_side.run_dumbbell(c), c))
        if progress:
            progress(f"{case.mode} {case.variant} p={case.p} seed {s} done")

    def metric(f: Callable[[Sample], float]) -> Metric:
        return Metric(tuple(f(x) for x in ns), tuple(f(x) for x in ob))

    return Cell(
        case.mode,
        case.variant,
        case.p,
        tuple(seeds),
        metric(lambda x: x.goodput_bps),
        metric(lambda x: x.timeouts),
        metric(lambda x: x.retransmits),
    )


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:+.1f}%"


def _ci(m: Metric) -> str:
    lo, hi = m.rel_ci()
    if math.isnan(lo):
        return "n/a"
    return f"[{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _range(m: Metric) -> str:
    d = [x for x in m.per_seed_rel() if not math.isnan(x)]
    if not d:
        return "n/a"
    return f"{100 * min(d):+.1f} .. {100 * max(d):+.1f}"


HEADER = (
    "| mode | variant | p | goodput ns-2 (Mb/s) | goodput obsim | Δ | 95% CI | per-seed Δ "
    "min .. max | timeouts ns-2 | timeouts obsim | Δ | 95% CI | retransmitted ns-2 / obsim |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)
"""The Markdown header of :func:`markdown_row`'s rows."""


def markdown_row(c: Cell) -> str:
    """One Markdown table row: means ± standard deviations across seeds,
    the relative difference of the means, its 95% CI and the per-seed range."""
    g, t, r = c.goodput, c.timeouts, c.retransmits
    return (
        f"| {c.mode} | {c.variant} | {c.p:g} "
        f"| {g.ns2_mean / 1e6:.3f} ± {g.sd('ns-2') / 1e6:.3f} "
        f"| {g.obsim_mean / 1e6:.3f} ± {g.sd('obsim') / 1e6:.3f} "
        f"| {_pct(g.rel)} | {_ci(g)} | {_range(g)} "
        f"| {t.ns2_mean:.1f} ± {t.sd('ns-2'):.1f} | {t.obsim_mean:.1f} ± {t.sd('obsim'):.1f} "
        f"| {_pct(t.rel)} | {_ci(t)} "
        f"| {r.ns2_mean:.0f} / {r.obsim_mean:.0f} |"
    )


def markdown(cells: Iterable[Cell]) -> str:
    """The whole table, header included."""
    return "\n".join([HEADER, *(markdown_row(c) for c in cells)]) + "\n"

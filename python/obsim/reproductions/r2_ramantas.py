"""R2: ramantas2008 Fig. 2 (and ramantas2007 §3): how many segments of one
flow, and how many flows, a burst carries on NSFNET under Internet-like
traffic, for assembly timers of 1, 5 and 10 ms.

Over "all the bursts transmitted in the network, for all source-destination
pairs" after the warm-up, at the 700 KB mean file size: (a) segments of one
flow per burst, whose maximum is set by the 100 Mbit/s access rate (13, 61,
121) and whose share at that maximum falls with the timer (33%, 13%, 7%);
(b) flows per burst, whose 80th percentile is 2, 4 and 6. The set-up and
every reading are those of docs/NSFNET_STUDIES.md (module
:mod:`.ramantas_nsfnet`); the claims are its table 1.3, declared in
:data:`CLAIMS` before any run.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from . import Reproduction, SeedPlan
from . import ramantas_nsfnet as rn
from .claims import Claim
from .pairing import by_seed, paired

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure


CAP = {1.0: 13, 5.0: 61, 10.0: 121}
"""R08 §3: "no more than 13 segments from the same flow could be added in the
same burst, due to the limited 100Mbps access rate. For 5 and 10msec, the
corresponding maximum numbers of segments were 61 and 121"; also what the
model gives exactly: ⌊T / 83.2 µs⌋ + 1 packets of 1040 B at 100 Mbit/s
(docs/NSFNET_STUDIES.md 2.7)."""

CAP_SHARE = {1.0: 0.33, 5.0: 0.13, 10.0: 0.07}
"""R08 §3: "the number of bursts carrying 13 segments from the same source is
33%, and which decreases to 13% and 7% for 5 and 10msec timers"."""

Q80 = {1.0: 2.0, 5.0: 4.0, 10.0: 6.0}
"""R08 §3: "80% of the transmitted bursts employ segments from only 2
different sources, while for 5 and 10msec timers, this increases to 4 and 6"."""

BAND = 0.5
"""Magnitudes: the paper's value ± 50% (the project's "same order" band,
G1/G4; docs/NSFNET_STUDIES.md 1.3)."""

QUOTE_CAP = (
    'R08 §3: "for 1msec assembly time, no more than 13 segments from the same flow could be added in '
    "the same burst, due to the limited 100Mbps access rate. For 5 and 10msec, the corresponding "
    'maximum numbers of segments were 61 and 121"'
)
QUOTE_SHARE = (
    'R08 §3: "the number of bursts carrying 13 segments from the same source is 33%, and which '
    'decreases to 13% and 7% for 5 and 10msec timers"'
)
QUOTE_Q80 = (
    'R08 §3: "80% of the transmitted bursts employ segments from only 2 different sources, while '
    'for 5 and 10msec timers, this increases to 4 and 6"'
)


def _band(v: float) -> Tuple[float, float]:
    return (v * (1 - BAND), v * (1 + BAND))


CLAIMS: Dict[str, Claim] = {}
"""The paper's claims, declared before the run (docs/NSFNET_STUDIES.md 1.3)."""
for _t, _cap in CAP.items():
    CLAIMS[f"cap{_t:g}"] = Claim(
        f"max segments of one flow per burst, {_t:g} ms",
        QUOTE_CAP,
        "mean",
        "magnitude",
        band=(_cap - 0.5, _cap + 0.5),  # exact: the per-seed maxima are integers
        paper=_cap,
        unit="segments",
    )
    CLAIMS[f"capshare{_t:g}"] = Claim(
        f"share of flow-bursts at the maximum, {_t:g} ms",
        QUOTE_SHARE,
        "mean",
        "magnitude",
        band=_band(CAP_SHARE[_t]),
        paper=CAP_SHARE[_t],
    )
    CLAIMS[f"q80_{_t:g}"] = Claim(
        f"80th percentile of flows per burst, {_t:g} ms",
        QUOTE_Q80,
        "mean",
        "magnitude",
        band=_band(Q80[_t]),
        paper=Q80[_t],
        unit="flows",
    )
CLAIMS["capfalls"] = Claim(
    "share at the maximum, shorter / longer timer",
    QUOTE_SHARE,
    "paired_ratio",
    "greater",
    precision=0.1,
)
CLAIMS["q80grows"] = Claim(
    "80th percentile of flows per burst, longer - shorter timer",
    QUOTE_Q80,
    "paired_difference",
    "greater",
    threshold=0.0,
    unit="flows",
)

SEEDS = SeedPlan(initial=5, step=5, cap=10)
"""5 seeds of 600 s per timer, 5 more (up to 10) while the ordering's CI is
wider than its precision. Quick mode: 2 seeds of 12 s."""


def metrics(warmup: float) -> Dict[str, Any]:
    """Per run, from the bursts histogram (network-wide, after the warm-up;
    one entry per (burst, flow) in ``segments_per_flow``, one per burst in
    ``flows_per_burst``)."""
    seg = {"metric": "segments_per_flow"}
    fpb = {"metric": "flows_per_burst"}
    return {
        "seg_max": {"table": "bursts", "column": "value", "agg": "max", "weight": "count", "where": seg},
        "cap_share": {
            "table": "bursts",
            "column": "value",
            "agg": "top_share",
            "weight": "count",
            "where": seg,
        },
        "fpb_q80": {
            "table": "bursts",
            "column": "value",
            "agg": "quantile",
            "q": 0.8,
            "weight": "count",
            "where": fpb,
        },
        "fpb_mean": {"table": "bursts", "column": "value", "agg": "mean", "weight": "count", "where": fpb},
    }


build, experiment = rn.builders(
    "R2_ramantas2008", "Segments of one flow and flows per burst on NSFNET, timers 1/5/10 ms, 700 KB", metrics
)


def rows_of(groups: Dict[float, "pandas.DataFrame"]) -> List[Dict[str, Any]]:
    """R2's claim rows from the results by timer."""
    rows: List[Dict[str, Any]] = []
    ts = rn.cases(groups)
    for t in ts:
        g = groups[t]
        if t in CAP:
            rows.append(CLAIMS[f"cap{t:g}"].decide(by_seed(g, "seg_max").tolist()).row(f"{t:g} ms", t))
            rows.append(CLAIMS[f"capshare{t:g}"].decide(by_seed(g, "cap_share").tolist()).row(f"{t:g} ms", t))
            rows.append(CLAIMS[f"q80_{t:g}"].decide(by_seed(g, "fpb_q80").tolist()).row(f"{t:g} ms", t))
    for lo, hi in zip(ts, ts[1:]):
        rows.append(
            CLAIMS["capfalls"]
            .decide(*paired(groups[lo], groups[hi], "cap_share"))
            .row(f"share at the maximum {lo:g} ms > {hi:g} ms", lo)
        )
        rows.append(
            CLAIMS["q80grows"]
            .decide(*paired(groups[hi], groups[lo], "fpb_q80"))
            .row(f"q80 of flows per burst {hi:g} ms > {lo:g} ms", hi)
        )
    return rows


compare = rn.comparison(rows_of)


READINGS = rn.readings(build)
"""The readings shared by R1-R4 (docs/NSFNET_STUDIES.md 2.12)."""


def figures(out: Path) -> List[Tuple[str, "Figure", str]]:
    """Fig. 2 redrawn from the runs' bursts histograms (every burst in the
    network after the warm-up), pooled over the seeds per timer: (a) the
    distribution of the segments one flow has in a burst (log scale; the
    spike at the access cap 13/61/121 is Fig. 2(a)'s), (b) the CDF of the
    flows per burst. Nothing without results."""
    import numpy as np
    from matplotlib.figure import Figure

    hist = rn.stored_runs(out, "bursts")
    if not hist or all(h.empty for h in hist.values()):
        return []
    fig = Figure(figsize=(10, 4), layout="tight")
    seg_ax, fpb_ax = fig.subplots(1, 2)
    for t_ms, h in hist.items():
        for metric, ax in (("segments_per_flow", seg_ax), ("flows_per_burst", fpb_ax)):
            d = h[h["metric"] == metric].groupby("value")["count"].sum().sort_index()
            if d.empty:
                continue
            share = d.to_numpy(dtype=float) / float(d.sum())
            if ax is seg_ax:
                ax.semilogy(d.index, share, "-", label=f"{t_ms:g} ms")
            else:
                ax.step(d.index, np.cumsum(share), where="post", label=f"{t_ms:g} ms")
    fpb_ax.axhline(0.8, linestyle=":", color="grey")
    seg_ax.set(
        xlabel="segments of one flow in a burst",
        ylabel="share of (burst, flow) pairs",
        title="(a) segments per burst per flow",
    )
    fpb_ax.set(
        xscale="log", xlabel="flows per burst", ylabel="share of bursts (CDF)", title="(b) flows per burst"
    )
    for ax in (seg_ax, fpb_ax):
        ax.legend()
    caption = (
        "ramantas2008 Fig. 2 redrawn from every burst sent after the warm-up, all pairs, pooled over the "
        "seeds per timer (dotted: the 80% the claims read)"
    )
    return [("R2_fig2", fig, caption)]


REPRODUCTION = Reproduction(
    id="R2",
    title="Segments of one flow and flows per burst on NSFNET (ramantas2008 Fig. 2)",
    paper=f"{rn.R08}, §3, Fig. 2; and {rn.R07}, §3",
    experiment=experiment,
    compare=compare,
    figures=figures,
    seeds=SEEDS,
    readings=READINGS,
    notes=(
        "NSFNET (8 edge, 6 core nodes, one 10 Gbit/s wavelength per link), TCP SACK (ns-2.35 Sack1, "
        "MSS 1000 B, W_M 128) flows arriving as a Poisson process of 50 flows/s per ordered edge "
        "pair with Pareto sizes (40 KB minimum, mean 700 KB), each through its own 100 Mbit/s "
        "access pipe; one timer-assembly queue per pair, timers 1, 5, 10 ms; ACKs bypass "
        "assembly; fewest-hop routing; 600 s with a 200 s warm-up, 5 to 10 seeds. Statistics "
        "over every burst sent after the warm-up: the largest number of segments of one flow in "
        "a burst (exact claim), the share of (burst, flow) entries at that maximum, the 80th "
        "percentile of flows per burst; orderings paired by seed. --quick: lambda / 4, 12 s "
        "(4 s warm-up), 2 seeds; no steady state, so only the caps are expected to hold. "
        "Readings and their quotes: docs/NSFNET_STUDIES.md section 2."
    ),
    comparison_plot={"xlabel": "assembly timer (ms)", "ylabel": "measured (claim: see quantity)"},
)

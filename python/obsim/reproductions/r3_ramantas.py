"""R3: ramantas2007/2008 Figs. 3-4: how many bursts a flow needs, and how
many of them are lost, for assembly timers of 1, 5 and 10 ms, for the flows
of "a single (randomly selected) source-destination pair".

Fig. 3 (R08 §3): "in the case of 1msec timer, 80% of the flows need on
average up to 80 bursts to complete their transfer, while only 40 and 34 are
needed in the case of 5 and 10msec respectively. The corresponding lost
bursts are 5 and 4". Fig. 4 (R07 §3): "for the maximum flow size of 2MB, 3.5
times more bursts are needed in the case of 1msec timer"; the lost bursts
"diverge at a smaller rate". The flows are those of the pair
:data:`.ramantas_nsfnet.PAIR` that arrived after the warm-up and finished
(docs/NSFNET_STUDIES.md 2.9, 2.11); same runs and readings as R2; claims
declared in :data:`CLAIMS` before any run (docs/NSFNET_STUDIES.md 1.3).
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


SENT_Q80 = {1.0: 80.0, 5.0: 40.0, 10.0: 34.0}
"""Fig. 3: bursts per flow within which 80% of the flows complete."""
LOST_Q80 = {1.0: 5.0, 5.0: 4.0, 10.0: 4.0}
"""Fig. 3: the corresponding lost bursts (R08: "5 bursts per flow are lost,
when using an 1msec timer as opposed to 4 bursts in the case of 5 and
10msec")."""
X_2MB = 3.5
"""Fig. 4 (R07 §3): at 2 MB, 1 ms needs 3.5 times the bursts of 10 ms."""
BIN_2MB = (1.5e6, 2.5e6)
"""Flows read as "2 MB" in Fig. 4: sizes in [1.5, 2.5) MB (the figure's
axis, not a truncation of the law; docs/NSFNET_STUDIES.md 2.2)."""
BAND = 0.5
"""Magnitudes: the paper's value ± 50% (docs/NSFNET_STUDIES.md 1.3)."""

QUOTE_SENT = (
    'R08 §3: "in the case of 1msec timer, 80% of the flows need on average up to 80 bursts to '
    "complete their transfer, while only 40 and 34 are needed in the case of 5 and 10msec "
    'respectively"'
)
QUOTE_LOST = (
    'R08 §3: "5 bursts per flow are lost, when using an 1msec timer as opposed to 4 bursts in the '
    'case of 5 and 10msec"'
)
QUOTE_LESSVAR = (
    'R07 §3 (Fig. 4): "the number of transmitted bursts increase almost linearly with flow size, '
    'while 1msec curve diverges rapidly" and for lost bursts "the difference between the curves '
    'diverges at a smaller rate"'
)
QUOTE_X35 = (
    'R07 §3: "for the maximum flow size of 2MB, 3.5 times more bursts are needed in the case of 1msec timer"'
)


def _band(v: float) -> Tuple[float, float]:
    return (v * (1 - BAND), v * (1 + BAND))


CLAIMS: Dict[str, Claim] = {}
"""The paper's claims, declared before the run."""
for _t in SENT_Q80:
    CLAIMS[f"sent{_t:g}"] = Claim(
        f"80th percentile of bursts sent per flow, {_t:g} ms",
        QUOTE_SENT,
        "mean",
        "magnitude",
        band=_band(SENT_Q80[_t]),
        paper=SENT_Q80[_t],
        unit="bursts",
    )
    CLAIMS[f"lost{_t:g}"] = Claim(
        f"80th percentile of bursts lost per flow, {_t:g} ms",
        QUOTE_LOST,
        "mean",
        "magnitude",
        band=_band(LOST_Q80[_t]),
        paper=LOST_Q80[_t],
        unit="bursts",
    )
CLAIMS["more"] = Claim(
    "80th percentile of bursts per flow, 1 ms / 5 ms",
    QUOTE_SENT,
    "paired_ratio",
    "greater",
    precision=0.1,
)
CLAIMS["lessvar"] = Claim(
    "(bursts sent 1 ms / 10 ms) / (bursts lost 1 ms / 10 ms), 80th percentiles",
    QUOTE_LESSVAR,
    "ratio_of_ratios",
    "greater",
    precision=0.2,
)
CLAIMS["x35"] = Claim(
    "bursts per flow of about 2 MB, 1 ms / 10 ms",
    QUOTE_X35,
    "paired_ratio",
    "magnitude",
    band=_band(X_2MB),
    paper=X_2MB,
)

SEEDS = SeedPlan(initial=5, step=5, cap=10)
"""5 seeds of 600 s per timer, up to 10 while an ordering's CI is wider than
its precision. Quick mode: 2 seeds of 12 s."""


def metrics(warmup: float) -> Dict[str, Any]:
    """Per run, over the pair's flows that arrived after the warm-up and
    finished (flow records)."""
    flows = rn.pair_flows(warmup)
    big = rn.pair_flows(warmup, size_bytes={"min": BIN_2MB[0], "max": BIN_2MB[1]})
    rec = "flow_records"
    return {
        "flows": {"table": rec, "column": "flow", "agg": "count", "where": flows},
        "sent_q80": {"table": rec, "column": "bursts_sent", "agg": "quantile", "q": 0.8, "where": flows},
        "lost_q80": {"table": rec, "column": "bursts_lost", "agg": "quantile", "q": 0.8, "where": flows},
        "sent_mean": {"table": rec, "column": "bursts_sent", "agg": "mean", "where": flows},
        "lost_mean": {"table": rec, "column": "bursts_lost", "agg": "mean", "where": flows},
        "flows_2mb": {"table": rec, "column": "flow", "agg": "count", "where": big},
        "sent_2mb": {"table": rec, "column": "bursts_sent", "agg": "mean", "where": big},
        "lost_2mb": {"table": rec, "column": "bursts_lost", "agg": "mean", "where": big},
    }


build, experiment = rn.builders(
    "R3_ramantas2008", "Bursts sent and lost per flow of one NSFNET pair, timers 1/5/10 ms, 700 KB", metrics
)


def rows_of(groups: Dict[float, "pandas.DataFrame"]) -> List[Dict[str, Any]]:
    """R3's claim rows from the results by timer."""
    rows: List[Dict[str, Any]] = []
    ts = rn.cases(groups)
    for t in ts:
        g = groups[t]
        if t in SENT_Q80:
            rows.append(CLAIMS[f"sent{t:g}"].decide(by_seed(g, "sent_q80").tolist()).row(f"{t:g} ms", t))
            rows.append(CLAIMS[f"lost{t:g}"].decide(by_seed(g, "lost_q80").tolist()).row(f"{t:g} ms", t))
    if 1.0 in groups and 5.0 in groups:
        rows.append(
            CLAIMS["more"].decide(*paired(groups[1.0], groups[5.0], "sent_q80")).row("1 ms > 5 ms", 1.0)
        )
    if 1.0 in groups and 10.0 in groups:
        s1, s10 = paired(groups[1.0], groups[10.0], "sent_q80")
        l1, l10 = paired(groups[1.0], groups[10.0], "lost_q80")
        rows.append(CLAIMS["lessvar"].decide((s1, s10), (l1, l10)).row("1 ms against 10 ms", 10.0))
        rows.append(
            CLAIMS["x35"]
            .decide(*paired(groups[1.0], groups[10.0], "sent_2mb"))
            .row("flows of 1.5-2.5 MB, 1 ms / 10 ms", 2.0)
        )
    return rows


compare = rn.comparison(rows_of)


READINGS = rn.readings(build)
"""The readings shared by R1-R4 (docs/NSFNET_STUDIES.md 2.12)."""

SIZE_BIN_BYTES = 250e3
"""Fig. 4 redrawn: flow sizes grouped in bins of this width."""


def figures(out: Path) -> List[Tuple[str, "Figure", str]]:
    """Figs. 3 and 4 redrawn from the runs' flow records of the pair (the
    flows the claims use: arrived after the warm-up, finished), pooled over
    the seeds per timer: (a) the CDF of bursts sent per flow (lost:
    dashed), (b) mean bursts sent per flow against its size, in bins of
    :data:`SIZE_BIN_BYTES`. Nothing without results."""
    import numpy as np
    from matplotlib.figure import Figure

    from ..experiment import experiment_from_stored
    from ..store import Store

    if not (Path(out) / "results.parquet").is_file():
        return []
    exp = experiment_from_stored(Store(out).experiment_doc())
    flows = rn.stored_runs(out, "flow_records", exp.metrics["flows"].where)
    if not flows or all(f.empty for f in flows.values()):
        return []
    fig = Figure(figsize=(10, 4), layout="tight")
    cdf, size = fig.subplots(1, 2)
    for i, (t_ms, f) in enumerate(flows.items()):
        if f.empty:
            continue
        colour = f"C{i}"  # one colour per timer in both panels
        for col, style in (("bursts_sent", "-"), ("bursts_lost", "--")):
            x = np.sort(f[col].to_numpy(dtype=float))
            cdf.step(
                x,
                np.arange(1, len(x) + 1) / len(x),
                where="post",
                linestyle=style,
                color=colour,
                label=f"{t_ms:g} ms" if style == "-" else None,
            )
        edges = (f["size_bytes"] // SIZE_BIN_BYTES) * SIZE_BIN_BYTES + SIZE_BIN_BYTES / 2
        mean = f.groupby(edges)["bursts_sent"].mean()
        size.plot(
            mean.index / 1e6,
            mean.to_numpy(),
            "o-",
            markersize=3,
            color=colour,
            label=f"{t_ms:g} ms",
        )
    cdf.axhline(0.8, linestyle=":", color="grey")
    cdf.set(
        xscale="log",
        xlabel="bursts per flow (sent; lost dashed)",
        ylabel="share of flows",
        title="(a) Fig. 3: bursts per flow",
    )
    size.set(
        xlabel="flow size (MB)", ylabel="bursts sent per flow (mean)", title="(b) Fig. 4: bursts vs size"
    )
    cdf.legend(loc="lower right")
    size.legend(loc="upper left")
    n = sum(len(f) for f in flows.values())
    caption = (
        "ramantas2008 Figs. 3 and 4(a) (ramantas2007 Fig. 4) redrawn from the pair's flows that "
        f"arrived after the warm-up and finished ({n} flows over every seed and timer; dotted: the 80% "
        "the claims read); "
        f"sizes in {SIZE_BIN_BYTES / 1e3:g} KB bins"
    )
    return [("R3_fig3_4", fig, caption)]


REPRODUCTION = Reproduction(
    id="R3",
    title="Bursts sent and lost per flow on one NSFNET pair (ramantas2007/2008 Figs. 3-4)",
    paper=f"{rn.R08}, §3, Figs. 3-4; and {rn.R07}, §3",
    experiment=experiment,
    compare=compare,
    figures=figures,
    seeds=SEEDS,
    readings=READINGS,
    notes=(
        "Same runs as R2 (NSFNET, SACK, 50 flows/s per ordered pair, Pareto 40 KB minimum and "
        "700 KB mean, per-flow 100 Mbit/s access pipes, timers 1/5/10 ms, 600 s with a 200 s "
        "warm-up). Flows: those of the pair N10 -> N14 (drawn once before any run) that arrived "
        "after the warm-up and finished; excluding flows still running at the end biases "
        "against long flows. 80th percentiles of bursts sent and lost per flow per run, averaged "
        "over seeds; orderings paired by seed; Fig. 4's 2 MB point read as flows of 1.5-2.5 MB. "
        "--quick: lambda / 4, 12 s (4 s warm-up), 2 seeds; no steady state, claims reported, not "
        "expected to hold. Readings: docs/NSFNET_STUDIES.md section 2."
    ),
    comparison_plot={"xlabel": "assembly timer (ms)", "ylabel": "measured (claim: see quantity)"},
)

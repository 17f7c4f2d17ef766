"""R1: ramantas2007/2008 Fig. 1: the number of simultaneously active TCP
sources at each edge node, and the burst loss ratio, against the mean file
size, for assembly timers of 1, 5 and 10 ms, on NSFNET under Internet-like
traffic.

R07 §3: "the number of active sources in the case of 5 and 10msec timer is
close, while in the case of 1msec, it is 200 more for all flow sizes above
600KB"; at 700 KB "a burst loss ratio of 2% and 600 or 800 active source
respectively for 5, 10 and 1msec timers"; Fig. 1(b): the burst loss ratio
grows with the mean file size. Set-up and readings: docs/NSFNET_STUDIES.md
(module :mod:`.ramantas_nsfnet`); claims: its table 1.3, declared in
:data:`CLAIMS` before any run. R08 §3: "more than 30% of the active sources
were in a slow start phase" (R1.ss): the metrics sampler's fraction of the
active flows (generated flows included) with cwnd < ssthresh, averaged over
its samples after the warm-up (``meta.slow_start_fraction_mean``, docs/MODEL.md
"Metrics"), decided per timer and mean size against 0.30.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List

from . import Reproduction, SeedPlan
from . import ramantas_nsfnet as rn
from .claims import Claim
from .pairing import by_seed, paired

if TYPE_CHECKING:  # pragma: no cover
    import pandas


MEAN_SIZES = ("400 KB", "600 KB", "700 KB", "800 KB", "1000 KB")
"""Fig. 1's mean file sizes as registered (docs/NSFNET_STUDIES.md 4: R1's
five sizes); ``--quick`` runs the smallest and largest."""
EDGES = 8
"""Active sources are counted per edge node: the network total / 8."""

ACTIVE_700 = {1.0: 800.0, 5.0: 600.0, 10.0: 600.0}
"""R07 §3: 600 active sources at 700 KB for 5 and 10 ms, 800 for 1 ms."""
MORE_BY = 200.0
"""R07 §3: 1 ms has "200 more for all flow sizes above 600KB"."""
LOSS_700 = 0.02
"""R07 §3: 700 KB "corresponds to a burst loss ratio of 2%"."""

QUOTE_CLOSE = (
    'R07 §3: "the number of active sources in the case of 5 and 10msec timer is close, while in the '
    'case of 1msec, it is 200 more for all flow sizes above 600KB"'
)
QUOTE_700 = (
    'R07 §3: "a mean file size of 700KB, which corresponds to a burst loss ratio of 2% and 600 or 800 '
    'active source respectively for 5, 10 and 1msec timers"'
)
QUOTE_SS = (
    'R08 §3: "An important issue noticed is that more than 30% of the active sources were in a slow '
    'start phase"'
)
SLOW_START_SHARE = 0.30
"""R08 §3: "more than 30%" of the active sources in slow start."""
QUOTE_LOSS = "R07/R08 Fig. 1(b): the burst loss ratio against the mean file size, rising for every timer"

CLAIMS: Dict[str, Claim] = {
    "close": Claim(
        "active sources per edge, 5 ms / 10 ms",
        QUOTE_CLOSE,
        "paired_ratio",
        "equivalent",
        threshold=1.0,
        margin=0.15,
        precision=0.05,
    ),
    "more": Claim(
        "active sources per edge, 1 ms - 5 ms",
        QUOTE_CLOSE,
        "paired_difference",
        "greater",
        threshold=0.0,
        unit="sources",
    ),
    "by200": Claim(
        "active sources per edge, 1 ms - 5 ms",
        QUOTE_CLOSE,
        "paired_difference",
        "magnitude",
        band=(MORE_BY * 0.5, MORE_BY * 1.5),
        paper=MORE_BY,
        unit="sources",
    ),
    "loss700": Claim(
        "burst loss ratio at 700 KB",
        QUOTE_700,
        "mean",
        "magnitude",
        band=(LOSS_700 * 0.5, LOSS_700 * 1.5),
        paper=LOSS_700,
    ),
    "lossgrows": Claim(
        "burst loss ratio, largest / smallest mean size",
        QUOTE_LOSS,
        "paired_ratio",
        "greater",
        precision=0.2,
    ),
    "ss": Claim(
        "fraction of active sources in slow start (cwnd < ssthresh)",
        QUOTE_SS,
        "mean",
        "greater",
        threshold=SLOW_START_SHARE,
        paper=SLOW_START_SHARE,
    ),
}
"""The paper's claims, declared before the run."""
for _t, _a in ACTIVE_700.items():
    CLAIMS[f"a700_{_t:g}"] = Claim(
        f"active sources per edge at 700 KB, {_t:g} ms",
        QUOTE_700,
        "mean",
        "magnitude",
        band=(_a * 0.5, _a * 1.5),
        paper=_a,
        unit="sources",
    )

SEEDS = SeedPlan(initial=5, step=5, cap=10)
"""5 seeds of 600 s per point, up to 10 while an ordering is imprecise."""


def metrics(warmup: float) -> Dict[str, Any]:
    """Per run: the time-average number of active generated flows per edge
    after the warm-up (Little's L from ``flow_records.active_after_warmup_s``),
    the TCP burst loss ratio over every path after the warm-up, and the
    fraction of the active flows in slow start (cwnd < ssthresh) averaged
    over the metrics sampler's samples at or after the warm-up with an
    active flow (``meta.slow_start_fraction_mean``; docs/MODEL.md
    "Metrics")."""
    tcp = {"class": "tcp"}
    return {
        "active_s": {"table": "flow_records", "column": "active_after_warmup_s", "agg": "sum"},
        "measured_s": {"table": "meta", "column": "measured_s"},
        "active": {"expr": f"active_s / measured_s / {EDGES}", "label": "active sources per edge"},
        "bursts": {"table": "paths", "column": "bursts", "agg": "sum", "where": tcp},
        "lost": {"table": "paths", "column": "lost", "agg": "sum", "where": tcp},
        "loss": {"expr": "lost / bursts", "label": "burst loss ratio"},
        "ss": {
            "table": "meta",
            "column": "slow_start_fraction_mean",
            "label": "fraction of active flows in slow start",
        },
    }


build, experiment = rn.builders(
    "R1_ramantas2007",
    "Active sources per edge and burst loss vs mean file size on NSFNET, timers 1/5/10 ms",
    metrics,
    lambda quick: {"mean_sizes": (MEAN_SIZES[0], MEAN_SIZES[-1]) if quick else MEAN_SIZES},
)


def rows_of(groups: Dict[float, "pandas.DataFrame"]) -> List[Dict[str, Any]]:
    """R1's claim rows from the results by timer (each also swept over the
    mean file size)."""
    import pandas as pd

    rows: List[Dict[str, Any]] = []
    df = pd.concat(list(groups.values()))
    df["kb"] = [rn.mean_kb(x) for x in df["flow_generators[0].size"]]
    kbs = sorted(df["kb"].unique())

    def at(kb: float, t: float) -> "pandas.DataFrame":
        return df[(df["kb"] == kb) & (df["t_ms"] == t)]

    for kb in kbs:
        rows.append(
            CLAIMS["close"]
            .decide(*paired(at(kb, 5.0), at(kb, 10.0), "active"))
            .row(f"{kb:g} KB: 5 ms ~ 10 ms", kb)
        )
        if kb >= 600:
            a1, a5 = paired(at(kb, 1.0), at(kb, 5.0), "active")
            rows.append(CLAIMS["more"].decide(a1, a5).row(f"{kb:g} KB: 1 ms > 5 ms", kb))
            rows.append(CLAIMS["by200"].decide(a1, a5).row(f"{kb:g} KB: 1 ms - 5 ms", kb))
    if 700 in kbs:
        for t in sorted(df["t_ms"].unique()):
            if t in ACTIVE_700:
                rows.append(
                    CLAIMS[f"a700_{t:g}"]
                    .decide(by_seed(at(700, t), "active").tolist())
                    .row(f"700 KB, {t:g} ms", 700)
                )
            rows.append(
                CLAIMS["loss700"].decide(by_seed(at(700, t), "loss").tolist()).row(f"700 KB, {t:g} ms", 700)
            )
    for kb in kbs:
        for t in sorted(df["t_ms"].unique()):
            rows.append(
                CLAIMS["ss"]
                .decide(by_seed(at(kb, t), "ss").tolist())
                .row(f"{kb:g} KB, {t:g} ms: slow start > 30%", kb)
            )
    for t in sorted(df["t_ms"].unique()):
        rows.append(
            CLAIMS["lossgrows"]
            .decide(*paired(at(kbs[-1], t), at(kbs[0], t), "loss"))
            .row(f"{t:g} ms: loss at {kbs[-1]:g} KB > {kbs[0]:g} KB", kbs[-1])
        )
    return rows


compare = rn.comparison(rows_of)


READINGS = rn.readings(build)
"""The readings shared by R1-R4 (docs/NSFNET_STUDIES.md 2.12)."""

REPRODUCTION = Reproduction(
    id="R1",
    title="Active sources per edge and burst loss vs mean file size on NSFNET (ramantas2007/2008 Fig. 1)",
    paper=f"{rn.R08}, §3, Fig. 1; and {rn.R07}, §3",
    experiment=experiment,
    compare=compare,
    seeds=SEEDS,
    readings=READINGS,
    notes=(
        "NSFNET, TCP SACK (ns-2.35 Sack1, MSS 1000 B, W_M 128), Poisson arrivals of 50 flows/s per "
        "ordered edge pair, Pareto sizes with a 40 KB minimum and mean 400-1000 KB, per-flow 100 "
        "Mbit/s access pipes, one timer queue per pair at 1/5/10 ms, 600 s with a 200 s warm-up, "
        "5 to 10 seeds. Active sources per edge: the time-average number of generated flows after "
        "the warm-up (Little's L from the flow records) / 8. Burst loss: TCP bursts lost / sent "
        "over all paths. Orderings and differences paired by seed; 'close' by an equivalence test "
        "of the 5/10 ms ratio within 1 +/- 0.15. --quick: 400 and 1000 KB, lambda / 4, 12 s (4 s "
        "warm-up), 2 seeds. R1.ss (R08 §3, > 30% of active sources in slow start): the sampled "
        "fraction of active flows with cwnd < ssthresh, every 0.7 s after the warm-up, averaged over "
        "the samples, per mean size and timer. Readings: "
        "docs/NSFNET_STUDIES.md section 2."
    ),
    comparison_plot={"xlabel": "mean file size (KB)", "ylabel": "measured (claim: see quantity)"},
)

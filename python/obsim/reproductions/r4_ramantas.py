"""R4: ramantas2007/2008 Fig. 5: the throughput of the flows of one
source-destination pair on NSFNET (mean, variance, maximum, minimum) and
their mean transfer time against the assembly timer.

R08 §4: "both average and variance of throughput decreases rapidly with the
increase of assembly time"; "the maximum throughput decreases but the
minimum changes slightly". R07 §4: "flow transfer time increases with
assembly time and specifically, it was found to increase from 1.25sec for
1msec timer to 1.6sec and 6,7sec for 10msec and 100msec respectively". The
flows are those of :data:`.ramantas_nsfnet.PAIR` that arrived after the
warm-up and finished; a flow's throughput is its size over its completion
time (docs/NSFNET_STUDIES.md 2.9, 2.11). Same set-up and readings as R1-R3;
claims declared in :data:`CLAIMS` before any run (docs/NSFNET_STUDIES.md
1.3). Fig. 6 (the cwnd and sequence traces of three lossless flows, R4.t600,
R4.avg, R4.peak) needs traces of generated flows and is not decided here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List

from . import Reproduction, SeedPlan
from . import ramantas_nsfnet as rn
from .claims import Claim
from .pairing import by_seed, paired

if TYPE_CHECKING:  # pragma: no cover
    import pandas


TIMEOUTS = ("1 ms", "5 ms", "10 ms", "100 ms")
"""Fig. 5's timers 1, 5, 10 ms, and R07 §4's 100 ms point."""
TRANSFER = {1.0: 1.25, 10.0: 1.6, 100.0: 6.7}
"""R07 §4: mean flow transfer time (s) at 1, 10 and 100 ms."""
BAND = 0.5

QUOTE_FALLS = (
    'R08 §4: "both average and variance of throughput decreases rapidly with the increase of assembly time"'
)
QUOTE_MAXMIN = 'R08 §4: "the maximum throughput decreases but the minimum changes slightly"'
QUOTE_TRANSFER = (
    'R07 §4: "flow transfer time increases with assembly time and specifically, it was found to increase '
    'from 1.25sec for 1msec timer to 1.6sec and 6,7sec for 10msec and 100msec respectively"'
)

CLAIMS: Dict[str, Claim] = {
    "meanfalls": Claim(
        "mean flow throughput, 1 ms / 10 ms", QUOTE_FALLS, "paired_ratio", "greater", precision=0.1
    ),
    "varfalls": Claim("variance of flow throughput, 1 ms / 10 ms", QUOTE_FALLS, "paired_ratio", "greater"),
    "maxfalls": Claim("maximum flow throughput, 1 ms / 10 ms", QUOTE_MAXMIN, "paired_ratio", "greater"),
    "minflat": Claim(
        "minimum flow throughput, 1 ms / 10 ms",
        QUOTE_MAXMIN,
        "paired_ratio",
        "equivalent",
        threshold=1.0,
        margin=0.15,
    ),
    "slower": Claim("mean transfer time, 10 ms / 1 ms", QUOTE_TRANSFER, "paired_ratio", "greater"),
}
"""The paper's claims, declared before the run."""
for _t, _s in TRANSFER.items():
    CLAIMS[f"transfer{_t:g}"] = Claim(
        f"mean transfer time, {_t:g} ms",
        QUOTE_TRANSFER,
        "mean",
        "magnitude",
        band=(_s * (1 - BAND), _s * (1 + BAND)),
        paper=_s,
        unit="s",
    )

SEEDS = SeedPlan(initial=5, step=5, cap=10)
"""5 seeds of 600 s per timer, up to 10 while the mean's ordering is imprecise."""


def metrics(warmup: float) -> Dict[str, Any]:
    """Per run, over the pair's flows that arrived after the warm-up and
    finished: throughput moments (Mbit/s) and the mean transfer time."""
    flows = rn.pair_flows(warmup)
    rec = "flow_records"

    def m(agg: str, column: str = "goodput_bps", scale: float = 1e-6) -> Dict[str, Any]:
        return {"table": rec, "column": column, "agg": agg, "where": flows, "scale": scale}

    return {
        "flows": m("count", "flow", 1.0),
        "tput_mean": m("mean"),
        "tput_std": m("std"),
        "tput_var": {"expr": "tput_std ** 2", "unit": "(Mbit/s)^2"},
        "tput_max": m("max"),
        "tput_min": m("min"),
        "transfer_s": m("mean", "completion_s", 1.0),
    }


build, experiment = rn.builders(
    "R4_ramantas2008",
    "Throughput of one NSFNET pair's flows and their transfer time vs assembly timer",
    metrics,
    lambda quick: {"timeouts": ("1 ms", "10 ms") if quick else TIMEOUTS},
)


def rows_of(groups: Dict[float, "pandas.DataFrame"]) -> List[Dict[str, Any]]:
    """R4's claim rows from the results by timer."""
    rows: List[Dict[str, Any]] = []
    if 1.0 in groups and 10.0 in groups:
        a, b = groups[1.0], groups[10.0]
        for key, metric in (
            ("meanfalls", "tput_mean"),
            ("varfalls", "tput_var"),
            ("maxfalls", "tput_max"),
            ("minflat", "tput_min"),
        ):
            rows.append(CLAIMS[key].decide(*paired(a, b, metric)).row("1 ms against 10 ms", 1.0))
        rows.append(CLAIMS["slower"].decide(*paired(b, a, "transfer_s")).row("10 ms against 1 ms", 10.0))
    for t, g in sorted(groups.items()):
        if t in TRANSFER:
            rows.append(
                CLAIMS[f"transfer{t:g}"].decide(by_seed(g, "transfer_s").tolist()).row(f"{t:g} ms", t)
            )
    return rows


compare = rn.comparison(rows_of)


READINGS = rn.readings(build)
"""The readings shared by R1-R4 (docs/NSFNET_STUDIES.md 2.12)."""

REPRODUCTION = Reproduction(
    id="R4",
    title="Flow throughput and transfer time of one NSFNET pair vs assembly timer (ramantas2007/2008 Fig. 5)",
    paper=f"{rn.R08}, §4, Fig. 5; and {rn.R07}, §4",
    experiment=experiment,
    compare=compare,
    seeds=SEEDS,
    readings=READINGS,
    notes=(
        "Same set-up and readings as R1-R3 (NSFNET, SACK, 50 flows/s per ordered pair, Pareto 40 KB "
        "minimum and 700 KB mean, per-flow 100 Mbit/s access pipes, 600 s with a 200 s warm-up), timers "
        "1, 5, 10 and 100 ms. Flows: the pair N10 -> N14's flows that arrived after the warm-up and "
        "finished; throughput = size / completion time; per run the mean, variance, maximum and minimum "
        "over those flows, and their mean transfer time; orderings paired by seed. Fig. 6 (traces of "
        "lossless flows) is not decided yet. --quick: timers 1 and 10 ms, lambda / 4, 12 s, 2 seeds."
    ),
    comparison_plot={"xlabel": "assembly timer (ms)", "ylabel": "measured (claim: see quantity)"},
)

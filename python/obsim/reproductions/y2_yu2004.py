"""Y2: yu2004 Tables I-II, throughput of NewReno and SACK relative to Reno
for a medium-rate TCP flow over an OBS path with random burst loss.

Yu, Qiao, Liu, "TCP implementations and false time out detection in OBS
networks", INFOCOM 2004, §III: 4-node OBS path (2 edge + 2 core nodes,
10 Gbit/s, 10 ms links), 10 ms access links, 1 KB packets, access
bandwidth 125 KB/s, assembly time T_b = 0.04 s (Table I) and 0.2 s
(Table II), burst loss probability p with log10 p in {-3, ..., -0.5}.

Each table cell is decided as one claim (:func:`cell_claim`) on the ratio of
the mean goodputs, paired by seed: a magnitude row (the paper's value
± ``TOLERANCE``) where that band excludes 1, else an equivalence to 1
(``TOLERANCE``); the orderings of §III.B (``ORDERINGS``) by the whole 95% CI.
(Before issue 15: the mean of per-seed ratios within 15% of every cell, which
a null effect passed wherever the paper's value is within 15% of 1.)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..topologies import obs_path
from . import Reproduction, SeedPlan
from .pairing import paired
from .claims import Claim

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

LOG_P = [-3.0, -2.5, -2.0, -1.5, -1.0, -0.5]
# yu2004 Tables I (T_b = 0.04 s) and II (T_b = 0.2 s).
PAPER = {
    ("40 ms", "newreno"): [1.0, 1.1, 1.29, 1.19, 1.03, 0.93],
    ("40 ms", "sack"): [1.0, 1.07, 1.58, 1.4, 1.33, 1.07],
    ("200 ms", "newreno"): [1.0, 0.94, 0.9, 0.76, 0.93, 1.06],
    ("200 ms", "sack"): [1.0, 1.03, 1.02, 1.1, 1.0, 1.0],
}
TOLERANCE = 0.15
AX_V = "tcp.variant"
AX_P = "links[2].burst_loss.p"
AX_T = "nodes[1].assembly.timeout"
W_MAX = 40
PROFILE = "ns2-2003"
"""ns-2 defaults before 2003-05-05 (ns-2.26): the study was submitted in 2003.
NewReno there resets its timer on every partial ACK and does not deflate the
window on one (``partial_window_deflation = false``)."""


def _p(lg: float) -> float:
    return float(f"{10.0**lg:.6g}")


def experiment(quick: bool) -> Dict[str, Any]:
    scenario = obs_path(
        access_rate="1 Mbit/s",
        assembly_time="40 ms",
        p=0.01,
        tcp={"profile": PROFILE, "variant": "reno", "mss": "1000 B", "max_window": W_MAX},
        duration="100 s" if quick else "1000 s",
    )
    scenario["name"] = "yu2004-Y2"
    return {
        "name": "Y2_yu2004" + ("_quick" if quick else ""),
        "description": "Throughput of Reno, NewReno and SACK vs burst loss p, medium-rate flow",
        "scenario": scenario,
        "replications": {"count": 3 if quick else SEEDS.initial, "base_seed": 2004},
        "sweep": {
            "grid": {
                AX_V: ["reno", "newreno", "sack"],
                AX_P: [_p(x) for x in ([-2.0, -1.0] if quick else LOG_P)],
            },
            "zip": [
                {
                    AX_T: ["40 ms"] if quick else ["40 ms", "200 ms"],
                    "nodes[4].assembly.timeout": ["40 ms"] if quick else ["40 ms", "200 ms"],
                }
            ],
        },
        "metrics": {
            "goodput": {"table": "flows", "column": "goodput_bps", "agg": "sum", "scale": 1e-3, "unit": "kbit/s", "label": "goodput"},
            "timeouts": {"table": "flows", "column": "to_events", "agg": "sum", "label": "timeouts"},
            "td": {"table": "flows", "column": "td_events", "agg": "sum", "label": "TD loss events"},
        },
        "plots": [
            {"x": AX_P, "y": "goodput", "series": AX_V, "logx": True, "xlabel": "burst loss probability p", "ylabel": "goodput (kbit/s)"},
        ],
    }


PRECISION = 0.05
"""The CI half-width every Y2 row asks for (a third of the 15% band)."""
SEEDS = SeedPlan(initial=5, step=5, cap=15)
"""Seeds by precision (full mode); quick mode runs 3."""
ORDERINGS = [
    (
        "40 ms",
        "newreno",
        -2.0,
        "greater",
        '§III.B: "New-Reno has a better performance for a smaller assembly time (0.04s ...)"',
    ),
    (
        "200 ms",
        "newreno",
        -1.5,
        "less",
        '§III.B: "while Reno has better performance for a larger assembly time (0.2s ...)"',
    ),
    ("40 ms", "sack", -2.0, "greater", '§III.B: "SACK is still better than Reno"'),
    (
        "200 ms",
        "sack",
        -1.5,
        "greater",
        '§III.B: "when assembly time T_b ... increases, SACK is still better than Reno but its '
        'advantage diminishes"',
    ),
]
"""The orderings §III.B states, each tested where its table shows it most
(the middle loss rates, "where the differences ... are the highest")."""


def cell_claim(tb: str, v: str, lg: float) -> Claim:
    """The claim for one table cell: a magnitude row (ratio of means within
    the paper's value ± ``TOLERANCE``) where that band excludes 1; where it
    does not (a null effect would pass), "similar performance": the ratio
    equivalent to 1 within ``TOLERANCE`` (two one-sided tests). The paper's
    value is reported either way (``paper_in_ci``)."""
    paper = PAPER[(tb, v)][LOG_P.index(lg)]
    table = "Table I" if tb == "40 ms" else "Table II"
    statement = f"{table}, log p = {lg:g}: {v}/Reno = {paper}"
    lo, hi = paper * (1 - TOLERANCE), paper * (1 + TOLERANCE)
    if lo > 1.0 or hi < 1.0:
        return Claim(
            f"throughput ratio {v}/Reno",
            statement,
            "ratio_of_means",
            "magnitude",
            band=(lo, hi),
            paper=paper,
            precision=PRECISION,
        )
    return Claim(
        f"throughput ratio {v}/Reno (similar: within 1 ± {TOLERANCE:g})",
        statement + '; §III.B: "all the three TCP implementations tend to have the similar '
        'performance" at low and high loss rates',
        "ratio_of_means",
        "equivalent",
        margin=TOLERANCE,
        paper=paper,
        precision=PRECISION,
    )


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    cells: Dict[Any, Any] = {}
    for (tb, p), g in results.groupby([AX_T, AX_P], sort=True):
        lg = round(math.log10(float(p)) * 2) / 2
        if lg not in LOG_P:
            continue
        reno = g[g[AX_V] == "reno"]
        for v in ("newreno", "sack"):
            a, b = paired(g[g[AX_V] == v], reno, "goodput")
            cells[(str(tb), v, lg)] = (a, b, float(p))
            rows.append(
                cell_claim(str(tb), v, lg)
                .decide(a, b)
                .row(f"T_b={tb} log p={lg:g} {v}/reno", float(p))
            )
    for tb, v, lg, kind, quote in ORDERINGS:
        if (tb, v, lg) not in cells:
            continue
        a, b, p = cells[(tb, v, lg)]
        claim = Claim(f"throughput ratio {v}/Reno ({kind} than 1)", quote, "ratio_of_means", kind)
        rows.append(claim.decide(a, b).row(f"T_b={tb} log p={lg:g}: {v} {kind} than reno", p))
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="Y2",
    title="NewReno/Reno and SACK/Reno throughput ratios vs burst loss (yu2004 Tables I-II)",
    paper="Yu, Qiao, Liu: TCP implementations and false time out detection in OBS networks, "
    "IEEE INFOCOM 2004, §III Tables I-II",
    experiment=experiment,
    compare=compare,
    seeds=SEEDS,
    notes=(
        "Medium-rate flow: 125 KB/s (1 Mbit/s) access on both sides, 1 KB packets (MSS 1000 B), "
        "random (Bernoulli) burst loss on the core link C1 -> C2, ACKs unassembled and lossless. "
        "Assumed where the paper is silent: W_max = 40 packets (its Fig. 2), ns-2 defaults of early "
        "2003 (profile 'ns2-2003': minrto 1 s, rtxcur_init 6 s, NewReno Slow-but-Steady timer and "
        "no partial window deflation), "
        "1000 s runs, 5 to 15 seeds by precision (CI half-width 0.05). Each cell is the ratio of "
        "the mean goodputs, paired by seed (delta method or Fieller): a magnitude row (within the "
        "paper's value +-15%) where that band excludes 1, otherwise an equivalence to 1 within "
        "0.15 (the paper's 'similar performance'); plus the orderings §III.B states (NewReno above "
        "Reno at T_b = 0.04 s, below at 0.2 s; SACK above Reno at both), by the whole 95% CI. "
        "--quick: log p in {-2, -1}, T_b = 0.04 s, 100 s, 3 seeds."
    ),
    comparison_plot={"xlabel": "burst loss probability p", "ylabel": "throughput ratio over Reno", "logx": True},
)

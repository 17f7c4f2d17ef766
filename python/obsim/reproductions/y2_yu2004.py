"""Y2: yu2004 Tables I-II, throughput of NewReno and SACK relative to Reno
for a medium-rate TCP flow over an OBS path with random burst loss.

Yu, Qiao, Liu, "TCP implementations and false time out detection in OBS
networks", INFOCOM 2004, §III: 4-node OBS path (2 edge + 2 core nodes,
10 Gbit/s, 10 ms links), 10 ms access links, 1 KB packets, access
bandwidth 125 KB/s, assembly time T_b = 0.04 s (Table I) and 0.2 s
(Table II), burst loss probability p with log10 p in {-3, ..., -0.5}.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..stats import mean_ci
from ..topologies import obs_path
from . import Reproduction, paper_row

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
        "replications": {"count": 2 if quick else 5, "base_seed": 2004},
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


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    for (tb, p), g in results.groupby([AX_T, AX_P], sort=True):
        reno = g[g[AX_V] == "reno"].set_index("replication")["goodput"]
        lg = round(math.log10(float(p)) * 2) / 2
        if lg not in LOG_P:
            continue
        for v in ("newreno", "sack"):
            other = g[g[AX_V] == v].set_index("replication")["goodput"]
            pairs = [other[r] / reno[r] for r in other.index if r in reno.index and reno[r] > 0]
            ci = mean_ci(pairs)
            paper = PAPER[(str(tb), v)][LOG_P.index(lg)]
            rows.append(
                paper_row(
                    f"T_b={tb} log p={lg:g} {v}/reno", float(p), f"throughput ratio {v}/Reno", "", paper, ci, TOLERANCE
                )
            )
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="Y2",
    title="NewReno/Reno and SACK/Reno throughput ratios vs burst loss (yu2004 Tables I-II)",
    paper="Yu, Qiao, Liu: TCP implementations and false time out detection in OBS networks, "
    "IEEE INFOCOM 2004, §III Tables I-II",
    experiment=experiment,
    compare=compare,
    notes=(
        "Medium-rate flow: 125 KB/s (1 Mbit/s) access on both sides, 1 KB packets (MSS 1000 B), "
        "random (Bernoulli) burst loss on the core link C1 -> C2, ACKs unassembled and lossless. "
        "Assumed where the paper is silent: W_max = 40 packets (its Fig. 2), ns-2 defaults of early "
        "2003 (profile 'ns2-2003': minrto 1 s, rtxcur_init 6 s, NewReno Slow-but-Steady timer and "
        "no partial window deflation), "
        "1000 s runs, ratios paired by seed. "
        "--quick: log p in {-2, -1}, T_b = 0.04 s, 100 s, 2 seeds."
    ),
    comparison_plot={"xlabel": "burst loss probability p", "ylabel": "throughput ratio over Reno", "logx": True},
)

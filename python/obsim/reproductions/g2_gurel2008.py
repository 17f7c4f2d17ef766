"""G2: gurel2008 Fig. 9, congestion windows of the 10 Reno flows at p = 0.01:
a synchronized sawtooth with one burstifier per egress (M = 1), a smooth sum
with per-flow burstifiers (M = 10).

The figure has no numbers, so its claim is checked through the aggregate
metrics of the same runs (gonzalez2009's measures of synchronization): with
M = 1 the synchronization index and the coefficient of variation of the sum
of the windows (Σ cwnd_i / RTT_i, sampled every 100 ms) are higher than
with M = 10, with 95% confidence intervals apart. Each run also records the
cwnd traces of all flows (`trace.parquet`, every 100 ms) for the figure.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..stats import mean_ci
from ..topologies import gurel_access
from . import Reproduction

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

AX_M = "nodes[0].assembly.queues"


def experiment(quick: bool) -> Dict[str, Any]:
    scenario = gurel_access(p=0.01, duration="30 s" if quick else "100 s", warmup="5 s" if quick else "10 s")
    scenario["name"] = "gurel2008-G2"
    scenario["metrics"] = {"sample_interval": "100 ms"}
    scenario["trace"] = {"cwnd": True, "interval": "100 ms"}
    return {
        "name": "G2_gurel2008" + ("_quick" if quick else ""),
        "description": "Synchronization of 10 Reno flows at p = 0.01: M = 1 vs M = 10",
        "scenario": scenario,
        "replications": {"count": 3 if quick else 5, "base_seed": 9},
        "sweep": {"grid": {AX_M: [1, 10]}},
        "metrics": {
            "sync_index": {"table": "meta", "column": "sync_index", "label": "synchronization index"},
            "cov": {"table": "meta", "column": "agg_throughput_cov", "label": "CoV of Σ cwnd/RTT"},
            "goodput": {"table": "flows", "column": "goodput_bps", "agg": "sum", "scale": 1e-6, "unit": "Mbit/s", "label": "total goodput"},
        },
        "plots": [
            {"x": AX_M, "y": "cov", "xlabel": "burstifiers per egress M", "ylabel": "CoV of Σ cwnd/RTT"},
            {"x": AX_M, "y": "sync_index", "xlabel": "burstifiers per egress M", "ylabel": "synchronization index"},
        ],
    }


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    for metric, label in (("sync_index", "synchronization index"), ("cov", "CoV of Σ cwnd/RTT")):
        one = mean_ci(results[results[AX_M] == 1][metric])
        ten = mean_ci(results[results[AX_M] == 10][metric])
        apart = one.mean - (one.half_width or 0.0) > ten.mean + (ten.half_width or 0.0)
        rows.append(
            {
                "case": f"{label}: M=1 vs M=10", "x": 1.0, "quantity": f"{label} M=1 / M=10 (claim: > 1, CIs apart)",
                "unit": "", "paper": 1.0, "paper_ci": math.nan, "measured": one.mean / ten.mean,
                "measured_ci": math.nan, "ratio": one.mean / ten.mean, "tolerance": math.nan, "agrees": bool(apart),
            }
        )
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="G2",
    title="Synchronized windows with one burstifier, smooth sum with per-flow burstifiers (gurel2008 Fig. 9)",
    paper="Gürel, Alparslan, Karasan 2008, §3, Fig. 9 (cwnd of 10 Reno flows, p = 0.01)",
    experiment=experiment,
    compare=compare,
    notes=(
        "Same scenario and assumptions as G1 at p = 0.01, T = 1 ms (the figure's timeout is not "
        "stated); windows sampled every 100 ms; 100 s, 5 seeds. The traces of every run are in "
        "runs/*/trace.parquet. --quick: 30 s, 3 seeds."
    ),
    comparison_plot={"xlabel": "", "ylabel": "M=1 / M=10"},
)

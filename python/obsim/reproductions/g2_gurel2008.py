"""G2: gurel2008 Fig. 9, congestion windows of the 10 Reno flows at p = 0.01:
a synchronized sawtooth with one burstifier per egress (M = 1), a smooth sum
with per-flow burstifiers (M = 10).

The figure has no numbers, so its claim is checked through the aggregate
metrics of the same runs (gonzalez2009's measures of synchronization): with
M = 1 the synchronization index and the coefficient of variation of the sum
of the windows (Σ cwnd_i / RTT_i, sampled every 100 ms) are higher than
with M = 10. Each is a :class:`~obsim.reproductions.claims.Claim`: the ratio
of the means of M = 1 and M = 10 over the same seeds (paired, delta method)
greater than 1. Each run also records the cwnd traces of all flows
(`trace.parquet`, every 100 ms) for the figure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List

from ..topologies import gurel_access
from . import Reproduction
from .claims import Claim

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


CLAIMS = {
    metric: Claim(
        name=f"{label} M=1 over M=10 (claim: > 1)",
        statement="§3, Fig. 9: 'With per-egress burstification, TCP flows are synchronized ... with "
        "per-flow burstification, i.e., M = 10, no flows are synchronized and the sum of the "
        "congestion windows is very smooth'",
        statistic="ratio_of_means",
        kind="greater",
        unit="ratio",
    )
    for metric, label in (("sync_index", "synchronization index"), ("cov", "CoV of Σ cwnd/RTT"))
}
"""The two claim rows, by metric."""


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    one = results[results[AX_M] == 1].set_index("replication")
    ten = results[results[AX_M] == 10].set_index("replication")
    reps = sorted(set(one.index) & set(ten.index))
    for metric, claim in CLAIMS.items():
        a = [float(one.loc[r, metric]) for r in reps]
        b = [float(ten.loc[r, metric]) for r in reps]
        label = claim.name.split(" M=1")[0]
        rows.append(claim.decide(a, b).row(f"{label}: M=1 vs M=10", 1.0))
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="G2",
    title="Synchronized windows with one burstifier, smooth sum with per-flow burstifiers (gurel2008 Fig. 9)",
    paper="Gurel and Karasan, Using multiple per egress burstifiers for enhanced TCP performance in "
    "OBS networks, Photonic Network Communications 2008, §3, Fig. 9 (cwnd of 10 Reno flows, p = 0.01)",
    experiment=experiment,
    compare=compare,
    notes=(
        "Same scenario and assumptions as G1 at p = 0.01, T = 1 ms (the figure's timeout is not "
        "stated); windows sampled every 100 ms; 100 s, 5 seeds. The traces of every run are in "
        "runs/*/trace.parquet. Each claim: the ratio of the means of M = 1 and M = 10 over the same "
        "seeds, its 95% CI above 1. --quick: 30 s, 3 seeds."
    ),
    comparison_plot={"xlabel": "", "ylabel": "M=1 / M=10"},
)

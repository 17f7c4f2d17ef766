"""S2: gonzalez2009 Figs. 6-10, how the assembly timeout, the burst loss
rate and the spread of start times shape synchronization (MF assembly,
N_F = 15 SACK flows, the access network of S1).

Claims checked (gonzalez2009 §3.2): (1) the normalized cwnd grows with the
assembly timeout T_out in {1, 3, 5} ms (Fig. 6); (2) at T_out = 3 ms most
bursts carry most flows: about 62% of bursts hold packets of 80-100% of the
flows (Fig. 7), checked here as a mean share of flows per burst >= 0.6;
(3) the CoV of the aggregated throughput grows with the burst loss
probability p (Fig. 8); (4) at a given p it is lower for a longer T_out
(Fig. 8); (5) when every flow starts at t = 0, every burst carries every
flow (Figs. 9-10: "100% of bursts").
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List

from ..stats import mean_ci
from ..topologies import per_flow_access, shared_access
from . import Reproduction, claim_row

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

N_F = 15
AX_T = "nodes[1].assembly.timeout"
AX_T2 = "nodes[2].assembly.timeout"
AX_P = "links[1].burst_loss.p"
AX_START = "flows[0].start"


def experiment(quick: bool) -> Dict[str, Any]:
    from .s1_gonzalez2009 import ACCESS, ACCESS_BUFFER

    common: Dict[str, Any] = dict(
        n_flows=N_F,
        selection="mixed_flow",
        p=0.001,
        timeout="3 ms",
        tcp={"profile": "ns2", "variant": "sack", "max_window": 128},
        duration="200 s" if quick else "600 s",
        warmup="50 s",
        start=["0 s", "50 s"],
        access_buffer=ACCESS_BUFFER,
    )
    # The access model is S1's (gonzalez2009 §3): see s1_gonzalez2009.ACCESS.
    if ACCESS == "per_flow_share":
        scenario = per_flow_access(hosts=N_F, **common)
    else:
        scenario = shared_access(queues=1, **common)
    scenario["name"] = "gonzalez2009-S2"
    timeouts = ["1 ms", "5 ms"] if quick else ["1 ms", "3 ms", "5 ms"]
    return {
        "name": "S2_gonzalez2009" + ("_quick" if quick else ""),
        "description": "MF assembly, 15 SACK flows: timeout, loss rate and start spread",
        "scenario": scenario,
        "replications": {"count": 2 if quick else 3, "base_seed": 2009},
        "sweep": {
            "grid": {
                AX_P: [0.001, 0.01] if quick else [0.0001, 0.0005, 0.001, 0.005, 0.01],
                AX_START: [["0 s", "50 s"], ["0 s", "0 s"]],
            },
            "zip": [{AX_T: timeouts, AX_T2: timeouts}],
        },
        "metrics": {
            "norm_cwnd": {"table": "meta", "column": "norm_cwnd_mean", "label": "mean normalized cwnd"},
            "cov": {"table": "meta", "column": "agg_throughput_cov", "label": "CoV of aggregated throughput"},
            "flows_per_burst": {"table": "meta", "column": "flows_per_burst_mean", "label": "mean flows per burst"},
            "sync_index": {"table": "meta", "column": "sync_index", "label": "synchronization index"},
        },
        "plots": [
            {"x": AX_P, "y": "cov", "series": AX_T, "logx": True, "xlabel": "burst loss probability p", "ylabel": "CoV of aggregated throughput"},
            {"x": AX_T, "y": "norm_cwnd", "series": AX_P, "xlabel": "assembly timeout", "ylabel": "mean normalized cwnd"},
            {"x": AX_T, "y": "flows_per_burst", "series": AX_START, "xlabel": "assembly timeout", "ylabel": "mean flows per burst"},
        ],
    }


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    if not len(results):
        return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))
    df = results.copy()
    # List-valued axis values arrive as canonical JSON text.
    df["spread"] = [json.loads(s) != ["0 s", "0 s"] for s in df[AX_START]]
    df["t_ms"] = [float(str(t).split()[0]) for t in df[AX_T]]

    def claim(case: str, x: float, quantity: str, ok: bool, value: float, paper: float = 1.0) -> None:
        rows.append(claim_row(case, x, quantity, ok, value, paper=paper))

    spread = df[df["spread"]]
    ts = sorted(spread["t_ms"].unique())
    p_mid = 0.001 if (spread[AX_P] == 0.001).any() else sorted(spread[AX_P].unique())[0]
    at = spread[spread[AX_P] == p_mid]
    norm = [mean_ci(at[at["t_ms"] == t]["norm_cwnd"]).mean for t in ts]
    claim(f"p={p_mid:g}: normalized cwnd rises with T_out", ts[-1], "norm cwnd at largest / smallest T_out (claim: > 1)",
          all(a <= b for a, b in zip(norm, norm[1:])), norm[-1] / norm[0])
    t3 = 3.0 if 3.0 in ts else ts[len(ts) // 2]
    share = mean_ci(at[at["t_ms"] == t3]["flows_per_burst"]).mean / N_F
    claim(f"T_out={t3:g} ms: flows per burst", t3, "mean share of the 15 flows in a burst (claim: >= 0.6, Fig. 7)",
          share >= 0.6, share, 0.6)
    for t in ts:
        g = spread[spread["t_ms"] == t]
        covs = [mean_ci(g[g[AX_P] == p]["cov"]).mean for p in sorted(g[AX_P].unique())]
        claim(f"T_out={t:g} ms: CoV grows with p", t, "CoV at largest / smallest p (claim: > 1)",
              covs[-1] > covs[0], covs[-1] / covs[0])
    for p in sorted(spread[AX_P].unique()):
        g = spread[spread[AX_P] == p]
        covs = [mean_ci(g[g["t_ms"] == t]["cov"]).mean for t in ts]
        claim(f"p={p:g}: CoV lower for longer T_out", p, "CoV at largest / smallest T_out (claim: < 1)",
              covs[-1] < covs[0], covs[-1] / covs[0])
    zero = df[~df["spread"]]
    share0 = mean_ci(zero["flows_per_burst"]).mean / N_F
    claim("all start at t=0: every burst carries every flow", 0.0, "mean share of flows per burst (claim: 1)",
          share0 >= 0.95, share0)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="S2",
    title="Timeout, loss rate and start times vs synchronization, MF (gonzalez2009 Figs. 6-10)",
    paper="González-Ortega et al.: TCP synchronization in OBS networks, Photonic Network "
    "Communications 2009, §3.2, Figs. 6-10",
    experiment=experiment,
    compare=compare,
    notes=(
        "Each row checks one qualitative claim of the paper ('paper' = 1 stands for the claim, or "
        "the threshold it implies). Same assumptions as S1 (mirrored destination access link, "
        "1000-packet buffers, MSS 1000 B, ns-2 defaults), MF assembly at both edges, N_F = 15, "
        "600 s, 3 seeds. Fig. 7's '62% of bursts in the 80-100% bin' is checked as a mean share "
        "of flows per burst >= 0.6. --quick: T_out in {1, 5} ms, p in {0.001, 0.01}, 200 s, 2 seeds."
    ),
    comparison_plot={"xlabel": "case parameter", "ylabel": "measured (claim: see quantity)"},
)

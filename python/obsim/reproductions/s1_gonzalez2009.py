"""S1: gonzalez2009 Figs. 2-5 and 12-13, TCP synchronization on an access
network over a single optical link.

González-Ortega et al., "TCP synchronization in OBS networks" (2009) §3:
N_F SACK flows share a 100 Mbit/s access link (100 ms), 2.5 Gbit/s optical
link (100 ms) with Bernoulli burst loss p = 0.001, T_MAX = 3 ms, W_M = 128 MSS,
starts uniform in [0, 50] s, cwnd sampled every 0.7 s, 600 s runs; assembly
PF, MF and SMQ (2 static queues); N_F in {10, 15, 20, 25}. Also run here, as
issue 4 asks: DMQ with n = 2, 4, 8 (proactive) and window-based assembly
(ramantas2007 §5: B = 32, C = 100, timers 1/5/10 ms) on the same link.

The paper gives these results as figures only, so the comparison checks its
qualitative claims: (1) the mean aggregated throughput is similar across
schemes (MF within 15% of PF); (2) its standard deviation is higher for MF
than for PF, and SMQ is closer to PF than MF is; (3) the synchronization
index is higher for MF than for PF and SMQ, and falls as the number of DMQ
queues rises; (4) the mean number of flows per burst grows with N_F (MF).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..stats import mean_ci
from ..topologies import per_flow_access, per_flow_access_flows, per_flow_access_links, shared_access
from . import Reproduction, claim_row

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

AX_N = "flows[0].count"
AX_SCHEME = "scheme"

ACCESS = "per_flow_share"
"""How the N_F flows share the 100 Mbit/s access (gonzalez2009 §3 does not
draw it): ``"per_flow_share"`` (default) gives each flow its own access
link of 100/N_F Mbit/s, as §3 and §3.1 describe ("their share ... decreases",
"the segment transmission rate of each flow decreases as the number of
flows increases"); ``"shared_link"`` puts all flows behind one 100 Mbit/s
FIFO link (the reading used before; docs/VALIDATION.md, S1)."""
MAX_FLOWS = 25

# The ingress edge's assembly table for each scheme, zipped as one axis
# (a table-valued axis; results group it by its JSON text).
SCHEMES: Dict[str, Dict[str, Any]] = {
    "PF": {"selection": "per_flow"},
    "MF": {"selection": "mixed_flow"},
    "SMQ": {"selection": "smq", "queues": 2},
    "DMQ-2": {"selection": "dmq", "queues": 2},
    "DMQ-4": {"selection": "dmq", "queues": 4},
    "DMQ-8": {"selection": "dmq", "queues": 8},
    # ramantas2007 §5: three queues, timers 1/5/10 ms by cwnd against B = 32, C = 100.
    "WIN": {"selection": "window", "thresholds": [32, 100]},
}


def experiment(quick: bool) -> Dict[str, Any]:
    tcp = {"profile": "ns2", "variant": "sack", "max_window": 128}
    duration = "150 s" if quick else "600 s"
    start = ["0 s", "50 s"]
    n_values = [10, 25] if quick else [10, 15, 20, 25]
    if ACCESS == "per_flow_share":
        scenario = per_flow_access(
            n_flows=15, hosts=MAX_FLOWS, selection="mixed_flow", p=0.001, timeout="3 ms",
            tcp=tcp, duration=duration, warmup="50 s", start=start,
        )
        # N_F changes the access rates and the flow list together.
        n_axis: Dict[str, List[Any]] = {
            "links": [per_flow_access_links(n, MAX_FLOWS, 0.001) for n in n_values],
            "flows": [per_flow_access_flows(n, start) for n in n_values],
        }
    else:
        scenario = shared_access(
            n_flows=15, selection="per_egress", queues=1, p=0.001, timeout="3 ms",
            tcp=tcp, duration=duration, warmup="50 s", start=start,
        )
        n_axis = {AX_N: n_values}
    scenario["name"] = "gonzalez2009-S1"
    names: List[str] = ["PF", "MF", "SMQ", "DMQ-4"] if quick else list(SCHEMES)
    zipped = {
        "nodes[1].assembly": [{"trigger": "timer", "timeout": "3 ms", **SCHEMES[s]} for s in names],
        "name": [f"gonzalez2009-S1-{s}" for s in names],
    }
    return {
        "name": "S1_gonzalez2009" + ("_quick" if quick else ""),
        "description": "Synchronization of N_F SACK flows over one optical link, by assembly scheme",
        "scenario": scenario,
        "replications": {"count": 2 if quick else 5, "base_seed": 2009},
        "sweep": {"grid": {}, "zip": [n_axis, zipped]},
        "metrics": {
            # N_F, read back from the run (with per-flow access links it is
            # set by the table-valued links/flows axis).
            "n_flows": {"table": "flows", "column": "flow", "agg": "count", "label": "number of flows N_F"},
            "agg_mean": {"table": "meta", "column": "agg_throughput_mean_bps", "scale": 1e-6, "unit": "Mbit/s", "label": "mean aggregated throughput"},
            "agg_std": {"table": "meta", "column": "agg_throughput_std_bps", "scale": 1e-6, "unit": "Mbit/s", "label": "std of aggregated throughput"},
            "sync_index": {"table": "meta", "column": "sync_index", "label": "synchronization index"},
            "goodput": {"table": "flows", "column": "goodput_bps", "agg": "sum", "scale": 1e-6, "unit": "Mbit/s", "label": "total goodput"},
        },
        "plots": [
            {"x": "n_flows", "y": "agg_mean", "series": "name", "xlabel": "number of flows N_F", "ylabel": "mean aggregated throughput (Mbit/s)"},
            {"x": "n_flows", "y": "agg_std", "series": "name", "xlabel": "number of flows N_F", "ylabel": "std of aggregated throughput (Mbit/s)"},
            {"x": "n_flows", "y": "sync_index", "series": "name", "xlabel": "number of flows N_F", "ylabel": "synchronization index I"},
        ],
    }


def _scheme(name: str) -> str:
    return name.rsplit("-S1-", 1)[-1]


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    if not len(results):
        return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))
    df = results.copy()
    df["s"] = [_scheme(n) for n in df["name"]]
    df[AX_N] = df["n_flows"].astype(int)

    def m(n: int, s: str, metric: str) -> Any:
        return mean_ci(df[(df[AX_N] == n) & (df["s"] == s)][metric])

    def claim(case: str, x: float, quantity: str, ok: bool, measured: float, ci: float, paper: float = 1.0) -> None:
        rows.append(claim_row(case, x, quantity, ok, measured, ci, paper))

    def above(a: Any, b: Any) -> bool:
        """a > b with non-overlapping 95% confidence intervals."""
        ha = a.half_width if a.half_width == a.half_width else 0.0
        hb = b.half_width if b.half_width == b.half_width else 0.0
        return bool(a.mean - ha > b.mean + hb)

    for n in sorted(df[AX_N].unique()):
        pf, mf = m(n, "PF", "agg_mean"), m(n, "MF", "agg_mean")
        claim(f"N_F={n}: mean MF/PF", n, "mean aggregated throughput MF / PF (claim: similar, within 15%)",
              abs(mf.mean / pf.mean - 1) <= 0.15, mf.mean / pf.mean, math.nan)
        spf, smf, ssmq = m(n, "PF", "agg_std"), m(n, "MF", "agg_std"), m(n, "SMQ", "agg_std")
        claim(f"N_F={n}: std MF > PF", n, "std of aggregated throughput MF / PF (claim: > 1, CIs apart)",
              above(smf, spf), smf.mean / spf.mean, math.nan)
        claim(f"N_F={n}: std SMQ below MF", n, "std SMQ / std MF (claim: < 1, CIs apart)",
              above(smf, ssmq), ssmq.mean / smf.mean, math.nan)
        ipf, imf, ismq = m(n, "PF", "sync_index"), m(n, "MF", "sync_index"), m(n, "SMQ", "sync_index")
        claim(f"N_F={n}: index MF > PF, SMQ", n, "sync index MF / max(PF, SMQ) (claim: > 1, CIs apart)",
              above(imf, ipf) and above(imf, ismq), imf.mean / max(ipf.mean, ismq.mean), math.nan)
        dmq = [(q, m(n, f"DMQ-{q}", "sync_index")) for q in (2, 4, 8) if (df["s"] == f"DMQ-{q}").any()]
        if len(dmq) >= 2:
            claim(f"N_F={n}: DMQ index falls with n", n, "sync index DMQ-last / DMQ-first (claim: < 1, CIs apart)",
                  above(dmq[0][1], dmq[-1][1]), dmq[-1][1].mean / dmq[0][1].mean, math.nan)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="S1",
    title="TCP synchronization by assembly scheme on an access network (gonzalez2009 Figs. 2-5, 12-13)",
    paper="González-Ortega, Raffaelli, Guidotti, Vlachos, Ramantas et al.: TCP synchronization in "
    "OBS networks, Photonic Network Communications 2009, §3 Table 1, Figs. 2-5 and 12-13",
    experiment=experiment,
    compare=compare,
    notes=(
        "The paper reports figures, not numbers, so each row checks one of its qualitative claims "
        "('paper' = 1 stands for the claim; 'measured' is the ratio named in the quantity); an "
        "ordering claim holds only when the 95% confidence intervals are apart. "
        "Assumed where the paper is silent: the destination side mirrors the 100 Mbit/s, 100 ms "
        "access link; 1000-packet access buffers; MSS = ns-2 packetSize_ 1000 B; ns-2 TCP defaults "
        "(profile 'ns2'); SMQ groups flows by id mod 2; statistics after the last start (50 s). "
        "Issue 4 also asks for DMQ (n = 2, 4, 8) and window-based assembly (B = 32, C = 100) here. "
        "--quick: PF, MF, SMQ, DMQ-4 at N_F in {10, 25}, 150 s, 2 seeds."
    ),
    comparison_plot={"xlabel": "number of flows N_F", "ylabel": "measured ratio (claim: see quantity)"},
)

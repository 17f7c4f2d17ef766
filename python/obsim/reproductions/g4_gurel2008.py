"""G4: gurel2008 Tables 2-3 and Figs. 12-13, gain of M = 2 and M = 4
burstifiers per egress over M = 1 on the chain, per destination group.

Gürel and Karasan 2008 §4.1: the chain of G3 (:func:`obsim.topologies.gurel_chain`),
20 FTP flows, 4 per egress, Reno (Table 2) and SACK (Table 3), Δ in {50, 100,
200, 500} µs, M in {1, 2, 4} (M = 4: one burstifier per flow). The tables give
"the performance improvement in the maximum average goodputs": for each M the
goodput is maximised over the assembly timeout T (Figs. 12-13 sweep T), so T
is swept here and each M is taken at its own best T, per destination group
(egress E1 = D1-D4 ... E5 = D17-D20) and for all flows ("Avg.").

Claims checked besides the numbers: "the improvement in the average goodput
is maximum for the flows destined for closer egress nodes" (gain of E1 above
that of E5, for every variant, Δ and M).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from ..stats import mean_ci
from ..topologies import gurel_chain
from . import Reproduction, paper_row

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

AX_D = "optical.processing"
AX_M = "nodes[0].assembly.queues"
AX_T = "nodes[0].assembly.timeout"
AX_V = "tcp.variant"
GROUPS = ("E1", "E2", "E3", "E4", "E5", "all")
"""Destination groups D1-D4 ... D17-D20, and all flows (the tables' Avg.)."""

# gurel2008 Table 2 (Reno) and Table 3 (SACK): percentage goodput increase
# over M = 1, per destination group and on average: (Δ µs, M) -> values in
# GROUPS order.
PAPER_GAIN: Dict[str, Dict[Tuple[int, int], Tuple[float, ...]]] = {
    "reno": {
        (50, 4): (16.91, 8.15, 6.86, 2.91, 2.43, 6.22),
        (50, 2): (6.47, 4.22, 4.19, 3.28, 1.36, 3.87),
        (100, 4): (34.82, 26.83, 8.61, 6.21, 1.89, 6.91),
        (100, 2): (13.91, 7.78, 2.85, 4.91, 0.82, 2.69),
        (200, 4): (26.78, 35.79, 31.73, 6.70, 15.52, 23.15),
        (200, 2): (13.86, 14.86, 12.36, 4.31, 6.01, 6.70),
        (500, 4): (26.49, 27.83, 31.22, 34.97, 15.95, 36.92),
        (500, 2): (13.36, 10.94, 14.53, 16.76, 3.27, 10.24),
    },
    "sack": {
        (50, 4): (39.41, 8.47, 8.79, 5.43, 0.38, 4.91),
        (50, 2): (19.72, 4.76, 3.73, 3.15, 0.04, 3.03),
        (100, 4): (48.81, 54.93, 13.05, 10.35, 0.62, 6.33),
        (100, 2): (26.21, 25.25, 6.09, 8.68, 0.46, 2.72),
        (200, 4): (44.79, 57.58, 45.30, 6.91, 0.46, 24.45),
        (200, 2): (25.43, 25.01, 26.07, 4.74, 0.00, 4.35),
        (500, 4): (47.83, 38.83, 48.91, 54.20, 1.29, 37.88),
        (500, 2): (24.76, 17.81, 25.86, 25.44, 0.73, 8.07),
    },
}
TOLERANCE = 0.5
"""Order-of-magnitude bar (REPRODUCTIONS.md): within ±50% of the paper's
gain, same sign."""


def _metrics() -> Dict[str, Any]:
    m: Dict[str, Any] = {
        "goodput_all": {
            "table": "flows", "column": "goodput_bps", "agg": "sum", "scale": 1e-6, "unit": "Mbit/s",
            "label": "total goodput",
        }
    }
    for e in GROUPS[:-1]:
        m[f"goodput_{e}"] = {
            "table": "flows", "column": "goodput_bps", "agg": "sum", "where": {"group": e}, "scale": 1e-6,
            "unit": "Mbit/s", "label": f"goodput of the flows to {e}",
        }
        p = {"egress": e, "class": "tcp"}
        m[f"bytes_{e}"] = {"table": "paths", "column": "bytes", "agg": "sum", "where": p}
        m[f"bursts_{e}"] = {"table": "paths", "column": "bursts", "agg": "sum", "where": p}
        m[f"lost_{e}"] = {"table": "paths", "column": "lost", "agg": "sum", "where": p}
        m[f"burst_kb_{e}"] = {"expr": f"bytes_{e} / bursts_{e} / 1000", "unit": "KB", "label": f"mean burst size to {e}"}
        m[f"loss_{e}"] = {"expr": f"lost_{e} / bursts_{e}", "label": f"TCP burst loss ratio to {e}"}
    return m


def experiment(quick: bool) -> Dict[str, Any]:
    scenario = gurel_chain(duration="30 s" if quick else "100 s", warmup="5 s" if quick else "10 s")
    scenario["name"] = "gurel2008-G4"
    grid: Dict[str, Any] = {
        AX_V: ["reno"] if quick else ["reno", "sack"],
        AX_D: ["500 us"] if quick else ["50 us", "100 us", "200 us", "500 us"],
        AX_M: [1, 4] if quick else [1, 2, 4],
        AX_T: ["2 ms", "10 ms"] if quick else ["1 ms", "2 ms", "5 ms", "10 ms", "20 ms"],
    }
    return {
        "name": "G4_gurel2008" + ("_quick" if quick else ""),
        "description": "Goodput per destination group vs assembly timeout, burstifiers per egress M, Δ and variant",
        "scenario": scenario,
        "replications": {"count": 2 if quick else 6, "base_seed": 1208},
        "sweep": {"grid": grid},
        "metrics": _metrics(),
        "plots": [
            {"x": AX_T, "y": "goodput_E1", "series": AX_M, "xlabel": "assembly timeout", "ylabel": "goodput to E1 (Mbit/s)"},
            {"x": AX_T, "y": "goodput_E5", "series": AX_M, "xlabel": "assembly timeout", "ylabel": "goodput to E5 (Mbit/s)"},
        ],
    }


def _ms(t: Any) -> float:
    num, unit = str(t).split()
    return float(num) * {"s": 1e3, "ms": 1.0, "us": 1e-3}[unit]


def _us(t: Any) -> int:
    return round(_ms(t) * 1000)


def best_timeouts(results: "pandas.DataFrame") -> "pandas.DataFrame":
    """Per (variant, Δ, M, group): the timeout with the highest mean goodput
    and the per-replication goodputs there (sorted by replication)."""
    import pandas as pd

    rows = []
    for (v, d, m), g in results.groupby([AX_V, AX_D, AX_M], sort=True):
        for grp in GROUPS:
            col = f"goodput_{grp}"
            means = g.groupby(AX_T)[col].mean()
            t_best = means.idxmax()
            sel = g[g[AX_T] == t_best].sort_values("replication")
            rows.append(
                {
                    "variant": v, "delta_us": _us(d), "m": int(m), "group": grp, "timeout": t_best,
                    "goodput": float(means[t_best]), "reps": list(sel["replication"]), "values": list(sel[col]),
                }
            )
    return pd.DataFrame(rows)


def gains(results: "pandas.DataFrame") -> "pandas.DataFrame":
    """Tables 2-3 measured: per (variant, Δ, M > 1, group) the gain in % of
    the best-T goodput over M = 1's best-T goodput, mean and 95% CI over
    replications (paired by replication index: the same seeds)."""
    import pandas as pd

    best = best_timeouts(results)
    rows = []
    for (v, d, grp), g in best.groupby(["variant", "delta_us", "group"], sort=True):
        base = g[g["m"] == 1]
        if base.empty:
            continue
        b = dict(zip(base.iloc[0]["reps"], base.iloc[0]["values"]))
        for _, r in g[g["m"] != 1].iterrows():
            per = [100.0 * (x / b[k] - 1.0) for k, x in zip(r["reps"], r["values"]) if b.get(k, 0) > 0]
            ci = mean_ci(per)
            rows.append(
                {
                    "variant": v, "delta_us": d, "m": int(r["m"]), "group": grp, "gain": ci.mean,
                    "gain_ci": ci.half_width, "of_means": 100.0 * (r["goodput"] / base.iloc[0]["goodput"] - 1.0),
                    "timeout": r["timeout"], "timeout_m1": base.iloc[0]["timeout"], "gain_values": per,
                }
            )
    return pd.DataFrame(rows)


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    if not len(results):
        return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))
    g = gains(results)
    for _, r in g.iterrows():
        paper = PAPER_GAIN.get(r["variant"], {}).get((int(r["delta_us"]), int(r["m"])))
        if paper is None:
            continue
        ci = mean_ci(r["gain_values"])
        rows.append(
            paper_row(
                f"{r['variant']} Δ={r['delta_us']} µs M={r['m']} {r['group']}",
                float(GROUPS.index(r["group"]) + 1),
                "goodput gain over M=1 (best T of each M)",
                "%",
                paper[GROUPS.index(r["group"])],
                ci,
                TOLERANCE,
            )
        )
    for (v, d, m), s in g.groupby(["variant", "delta_us", "m"], sort=True):
        s = s.set_index("group")
        if "E1" not in s.index or "E5" not in s.index:
            continue
        near, far = s.loc["E1", "gain"], s.loc["E5", "gain"]
        rows.append(
            {
                "case": f"{v} Δ={d} µs M={m}: gain largest for the nearest egress", "x": 0.0,
                "quantity": "gain E1 - gain E5 (claim: > 0)", "unit": "%", "paper": math.nan,
                "paper_ci": math.nan, "measured": near - far, "measured_ci": math.nan, "ratio": math.nan,
                "tolerance": math.nan, "agrees": bool(near > far),
            }
        )
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def figure(results: "pandas.DataFrame", path: Any, variant: str = "reno", delta: str = "50 us") -> None:
    """Figs. 12-13: goodput and mean burst size vs T for the nearest (E1)
    and farthest (E5) egress, one line per M (95% CI)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    df = results[(results[AX_V] == variant) & (results[AX_D] == delta)]
    fig, axes = plt.subplots(2, 2, figsize=(8, 6), sharex=True)
    for j, e in enumerate(("E1", "E5")):
        for i, (metric, label) in enumerate(((f"goodput_{e}", "goodput (Mbit/s)"), (f"burst_kb_{e}", "mean burst (KB)"))):
            ax = axes[i][j]
            for m, g in df.groupby(AX_M):
                pts = sorted(g[AX_T].unique(), key=_ms)
                cis = [mean_ci(g[g[AX_T] == t][metric]) for t in pts]
                ax.errorbar([_ms(t) for t in pts], [c.mean for c in cis], yerr=[c.half_width for c in cis],
                            marker="o", ms=3, capsize=2, label=f"M = {m}")
            ax.set_xscale("log")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
            if i == 0:
                ax.set_title(f"{e} ({'nearest, D1-D4' if e == 'E1' else 'farthest, D17-D20'})")
            else:
                ax.set_xlabel("assembly timeout T (ms)")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"G4: gurel2008 Figs. 12-13 ({variant}, Δ = {delta})")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


REPRODUCTION = Reproduction(
    id="G4",
    title="Goodput gain of M = 2, 4 burstifiers per egress on the chain, per destination (gurel2008 Tables 2-3)",
    paper="Gürel and Karasan, Using multiple per egress burstifiers for enhanced TCP performance in OBS "
    "networks, Photonic Network Communications 2008, §4.1, Tables 2-3 and Figs. 12-13",
    experiment=experiment,
    compare=compare,
    notes=(
        "The chain of G3 (scenarios/gurel2008_chain.toml). The tables compare the maximum average goodput "
        "over the assembly timeout: T is swept over 1, 2, 5, 10, 20 ms and each M is taken at its best T per "
        "destination group (and for all flows, the tables' Avg.); gains are paired by seed. 100 s runs, "
        "10 s warm-up, 6 seeds. --quick: Reno, Δ = 500 µs, M in {1, 4}, T in {2, 10} ms, 30 s, 2 seeds."
    ),
    comparison_plot={"xlabel": "destination group (1 = D1-D4 ... 5 = D17-D20, 6 = all)", "ylabel": "goodput gain over M = 1 (%)"},
)

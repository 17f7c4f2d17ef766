"""G3: gurel2008 Fig. 11, burst loss vs burst length per egress on the chain.

Gürel and Karasan 2008 §4 (Fig. 10 topology, built as
:func:`obsim.topologies.gurel_chain`, scenarios/gurel2008_chain.toml): 20 FTP
Reno flows, 4 per egress, over a chain of optical nodes with LAUC-VF and a
Poisson background burst generator; M = 1 burstifier per egress, T = 10 ms,
Δ = 50 µs. The TCP bursts are binned by packets (10 bins of 6, 1-60).

The figure has no numbers in the text, so its claims are checked:
(1) "the dependence of the loss probability on the burst size is strongest
for the bursts destined to D1-D4": the ratio R of the loss ratio of long
bursts (31-60 packets) to that of short ones (1-12 packets) is > 1 for the
nearest egress E1, with its 95% CI above 1; (2) "such a correlation is not
observed for the bursts destined to D17-D20": for the farthest egress E5 the
CI of R contains 1; (3) "the loss probability is relatively high for the
flows with smaller residual offset times": the TCP burst loss ratio of E1 is
above that of E5, CIs apart. R is the ratio of the loss ratios of the bursts
pooled over all replications, with a delete-one-replication jackknife 95% CI
(a mean of per-replication ratios is biased upwards when a run has only a
few lost bursts per bin, docs/VALIDATION.md "G3").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from ..stats import mean_ci
from ..topologies import gurel_chain
from . import Reproduction

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

EGRESSES = ("E1", "E2", "E3", "E4", "E5")
BINS = tuple(range(1, 61, 6))
"""First packet count of each Fig. 11 bin: 1-6, 7-12, ..., 55-60."""
SHORT = (1, 7)
"""Bins pooled as "short bursts" (1-12 packets)."""
LONG = (31, 37, 43, 49, 55)
"""Bins pooled as "long bursts" (31-60 packets)."""


def _metrics() -> Dict[str, Any]:
    m: Dict[str, Any] = {}
    for e in EGRESSES:
        for lo in BINS:
            w = {"egress": e, "packets_lo": lo}
            m[f"n_{e}_{lo}"] = {"table": "burst_lengths", "column": "bursts", "agg": "sum", "where": w}
            m[f"l_{e}_{lo}"] = {"table": "burst_lengths", "column": "lost", "agg": "sum", "where": w}
        p = {"egress": e, "class": "tcp"}
        m[f"bursts_{e}"] = {"table": "paths", "column": "bursts", "agg": "sum", "where": p}
        m[f"lost_{e}"] = {"table": "paths", "column": "lost", "agg": "sum", "where": p}
        m[f"loss_{e}"] = {"expr": f"lost_{e} / bursts_{e}", "label": f"TCP burst loss ratio to {e}"}
        m[f"goodput_{e}"] = {
            "table": "flows",
            "column": "goodput_bps",
            "agg": "sum",
            "where": {"group": e},
            "scale": 1e-6,
            "unit": "Mbit/s",
            "label": f"goodput of the 4 flows to {e}",
        }
    return m


def experiment(quick: bool) -> Dict[str, Any]:
    scenario = gurel_chain(
        timeout="10 ms",
        queues=1,
        processing="50 us",
        duration="30 s" if quick else "200 s",
        warmup="5 s" if quick else "10 s",
    )
    scenario["name"] = "gurel2008-G3"
    return {
        "name": "G3_gurel2008" + ("_quick" if quick else ""),
        "description": "Burst loss vs burst length per egress on the gurel2008 chain (M = 1, T = 10 ms, Δ = 50 µs)",
        "scenario": scenario,
        "replications": {"count": 4 if quick else 20, "base_seed": 1108},
        "sweep": {"grid": {}},
        "metrics": _metrics(),
        "plots": [],
    }


def _pooled(row: Any, e: str, bins: Tuple[int, ...]) -> float:
    n = sum(row[f"n_{e}_{lo}"] for lo in bins if not math.isnan(row[f"n_{e}_{lo}"]))
    lost = sum(row[f"l_{e}_{lo}"] for lo in bins if not math.isnan(row[f"l_{e}_{lo}"]))
    return lost / n if n > 0 else math.nan


def length_ratios(results: "pandas.DataFrame") -> Dict[str, List[float]]:
    """Per egress: R = loss(31-60 packets) / loss(1-12 packets), one value
    per replication (NaN-free)."""
    out: Dict[str, List[float]] = {}
    for e in EGRESSES:
        vals = []
        for _, row in results.iterrows():
            short, long_ = _pooled(row, e, SHORT), _pooled(row, e, LONG)
            if short > 0 and not math.isnan(long_):
                vals.append(long_ / short)
        out[e] = vals
    return out


def pooled_ratio(results: "pandas.DataFrame", e: str) -> Any:
    """R for egress ``e`` from the bursts pooled over replications, with a
    delete-one-replication jackknife 95% CI (a :class:`obsim.stats.CI`)."""
    from ..stats import CI, t_quantile

    def sums(df: Any, bins: Tuple[int, ...]) -> Tuple[Any, Any]:
        lost = sum(df[f"l_{e}_{lo}"].fillna(0.0) for lo in bins)
        n = sum(df[f"n_{e}_{lo}"].fillna(0.0) for lo in bins)
        return lost, n

    ls, ns = sums(results, SHORT)
    ll, nl = sums(results, LONG)

    def ratio(a: float, b: float, c: float, d: float) -> float:
        short, long_ = (a / b if b else math.nan), (c / d if d else math.nan)
        return long_ / short if short > 0 else math.nan

    tot = (float(ls.sum()), float(ns.sum()), float(ll.sum()), float(nl.sum()))
    r = ratio(*tot)
    k = len(results)
    if k < 2:
        return CI(r, math.nan, k, math.nan)
    loo = [
        ratio(tot[0] - ls.iloc[i], tot[1] - ns.iloc[i], tot[2] - ll.iloc[i], tot[3] - nl.iloc[i])
        for i in range(k)
    ]
    m = sum(loo) / k
    se = math.sqrt((k - 1) / k * sum((x - m) ** 2 for x in loo))
    return CI(r, t_quantile(0.975, k - 1) * se, k, se * math.sqrt(k))


def loss_by_bin(results: "pandas.DataFrame") -> "pandas.DataFrame":
    """Fig. 11 as a table: per egress and bin, the loss ratio of the pooled
    bursts of all replications, and the mean and 95% CI half width over
    replications."""
    import pandas as pd

    rows = []
    for e in EGRESSES:
        for lo in BINS:
            n, lost = results[f"n_{e}_{lo}"], results[f"l_{e}_{lo}"]
            per = (lost / n)[n > 0]
            ci = mean_ci(per)
            rows.append(
                {
                    "egress": e,
                    "packets": f"{lo}-{lo + 5}",
                    "packets_lo": lo,
                    "bursts": int(n.sum()),
                    "pooled_loss": float(lost.sum() / n.sum()) if n.sum() else math.nan,
                    "loss": ci.mean,
                    "loss_ci": ci.half_width,
                }
            )
    return pd.DataFrame(rows)


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    if not len(results):
        return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))

    def row(case: str, x: float, quantity: str, ci: Any, agrees: bool, paper: float = math.nan) -> None:
        rows.append(
            {
                "case": case, "x": x, "quantity": quantity, "unit": "", "paper": paper, "paper_ci": math.nan,
                "measured": ci.mean, "measured_ci": ci.half_width, "ratio": math.nan, "tolerance": math.nan,
                "agrees": bool(agrees),
            }
        )

    for k, e in enumerate(EGRESSES, start=1):
        ci = pooled_ratio(results, e)
        hw = ci.half_width if not math.isnan(ci.half_width) else math.inf
        if e == "E1":
            row("E1 (D1-D4): loss rises with burst length", k, "R = loss(31-60 pkts) / loss(1-12 pkts) (claim: > 1)", ci, ci.mean - hw > 1.0)
        elif e == "E5":
            row("E5 (D17-D20): loss flat in burst length", k, "R = loss(31-60 pkts) / loss(1-12 pkts) (claim: CI contains 1)", ci, ci.mean - hw <= 1.0 <= ci.mean + hw)
        # The middle egresses carry no claim (their R is in loss_by_bin and
        # docs/VALIDATION.md).
    near, far = mean_ci(results["loss_E1"]), mean_ci(results["loss_E5"])
    apart = near.mean - near.half_width > far.mean + far.half_width
    rows.append(
        {
            "case": "higher loss for smaller residual offset", "x": 6.0,
            "quantity": "TCP burst loss ratio E1 / E5 (claim: > 1, CIs apart)", "unit": "", "paper": math.nan,
            "paper_ci": math.nan, "measured": near.mean / far.mean, "measured_ci": math.nan, "ratio": math.nan,
            "tolerance": math.nan, "agrees": bool(apart),
        }
    )
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def figure(results: "pandas.DataFrame", path: Any) -> None:
    """Fig. 11: loss ratio vs burst length, one line per egress (95% CI)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = loss_by_bin(results)
    fig, ax = plt.subplots(figsize=(6, 4))
    for k, e in enumerate(EGRESSES):
        s = t[t["egress"] == e]
        x = s["packets_lo"] + 2.5 + (k - 2) * 0.4
        ax.errorbar(x, s["loss"], yerr=s["loss_ci"], marker="o", ms=3, capsize=2, label=f"{e} (D{4 * k + 1}-D{4 * k + 4})")
    ax.set_xlabel("burst length (packets, bins of 6)")
    ax.set_ylabel("burst loss ratio")
    ax.set_title("G3: gurel2008 Fig. 11 (M = 1, T = 10 ms, Δ = 50 µs)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


REPRODUCTION = Reproduction(
    id="G3",
    title="Burst loss vs burst length per egress on the chain (gurel2008 Fig. 11)",
    paper="Gürel and Karasan, Using multiple per egress burstifiers for enhanced TCP performance in OBS "
    "networks, Photonic Network Communications 2008, §4.1, Figs. 10-11",
    experiment=experiment,
    compare=compare,
    notes=(
        "Chain of docs/VALIDATION.md G3 (scenarios/gurel2008_chain.toml): ingress I and background edge B "
        "meet at core C0; chain C0 -> E1 -> ... -> E5 of egress edges that also switch transit bursts; "
        "1 wavelength of 1 Gbit/s, 2.5 ms per fibre; "
        "Δ = 50 µs; LAUC-VF; background Poisson 1/λ = 2 ms, exponential 1/μ = 200 µs, uniform over "
        "E1..E5; 20 Reno flows (ns2 profile, MSS 1040 B), M = 1, T = 10 ms; 200 s runs, 10 s warm-up, "
        "20 seeds. Fig. 11 has no numbers in the text: its claims are checked. --quick: 30 s, 4 seeds."
    ),
    comparison_plot={"xlabel": "egress (1 = nearest)", "ylabel": "loss(31-60 pkts) / loss(1-12 pkts)"},
)

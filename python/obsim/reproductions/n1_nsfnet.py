"""N1: burst loss vs offered load on NSFNET under full, partial and no
wavelength conversion (the optical core of gonzalez2009 §4 / ramantas2007 §3).

NSFNET as :func:`obsim.topologies.nsfnet` builds it (scenarios/nsfnet.toml): the
14-node, 21-link graph, 8 edge and 6 core nodes, W = 2
wavelengths of 10 Gbit/s (gonzalez2009 S3), LAUC-VF, Δ = 10 µs, Poisson
background bursts from every edge to every other edge (exponential, mean
100 µs). Load ρ: offered erlangs of each edge per wavelength of one fibre.
Conversion: full; partial with 2 converters shared per node; none
(wavelength continuity).

gonzalez2009 gives no loss curve: it obtains burst loss ratios from 0.5% to
5% by "allowing full, partial, or no wavelength convertibility in the core"
(Fig. 14). The checks: (1) the loss ratio grows with the load under every
conversion setting; (2) at every load, no conversion loses more than full
conversion (95% CIs apart), and partial conversion lies between them. The
single-link Erlang B check of the same machinery is V2.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..stats import mean_ci
from ..topologies import NSFNET_EDGE_SITES, nsfnet, nsfnet_interarrival
from . import Reproduction

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

AX_OPT = "optical"
BURST = "100 us"
W = 2
CONVERTERS = 2
LOADS_FULL = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
SWITCH = {"processing": "10 us", "scheduler": "lauc-vf", "edge_queue": "unlimited"}
CONVERSIONS: Dict[str, Dict[str, Any]] = {
    "full": {**SWITCH, "conversion": "full"},
    "partial": {**SWITCH, "conversion": "partial", "converters": CONVERTERS, "converter_sharing": "node"},
    "none": {**SWITCH, "conversion": "none"},
}


def experiment(quick: bool) -> Dict[str, Any]:
    loads = [0.1, 0.5] if quick else LOADS_FULL
    scenario = nsfnet(load=0.5, wavelengths=W, burst_length=BURST, duration="0.5 s" if quick else "3 s",
                      warmup="0.1 s" if quick else "0.3 s")
    scenario["name"] = "nsfnet-N1"
    zipped: Dict[str, Any] = {
        f"generators[{i}].interarrival": [nsfnet_interarrival(r, W, BURST) for r in loads]
        for i in range(len(NSFNET_EDGE_SITES))
    }
    zipped["name"] = [f"nsfnet-rho{r:g}" for r in loads]
    return {
        "name": "N1_nsfnet" + ("_quick" if quick else ""),
        "description": "NSFNET burst loss ratio vs offered load, by wavelength conversion",
        "scenario": scenario,
        "replications": {"count": 3 if quick else 5, "base_seed": 2009},
        "sweep": {"grid": {AX_OPT: [CONVERSIONS[c] for c in CONVERSIONS]}, "zip": [zipped]},
        "metrics": {
            "bursts": {"table": "paths", "column": "bursts", "agg": "sum"},
            "lost": {"table": "paths", "column": "lost", "agg": "sum"},
            "loss": {"expr": "lost / bursts", "label": "burst loss ratio"},
            "dropped": {"table": "nodes", "column": "bursts_dropped", "agg": "sum"},
            "dropped_core": {"table": "nodes", "column": "bursts_dropped", "agg": "sum", "where": {"kind": "core"}},
            "core_share": {"expr": "dropped_core / dropped", "label": "share of losses at core nodes"},
            "util_mean": {"table": "links", "column": "utilisation", "agg": "mean", "label": "mean fibre utilisation"},
            "util_max": {"table": "links", "column": "utilisation", "agg": "max", "label": "max fibre utilisation"},
            "conversions": {"table": "nodes", "column": "conversions", "agg": "sum"},
        },
        "plots": [],
    }


def _conv(opt: Any) -> str:
    return str(json.loads(opt)["conversion"] if isinstance(opt, str) else opt["conversion"])


def _load(name: str) -> float:
    return float(str(name).rsplit("-rho", 1)[1])


def table(results: "pandas.DataFrame") -> "pandas.DataFrame":
    """Loss vs load: per (conversion, ρ) the mean loss ratio and its 95% CI,
    and the share of losses at core (not edge) nodes."""
    import pandas as pd

    df = results.copy()
    df["conversion"] = [_conv(o) for o in df[AX_OPT]]
    df["load"] = [_load(n) for n in df["name"]]
    rows = []
    for (c, r), g in df.groupby(["conversion", "load"], sort=True):
        ci = mean_ci(g["loss"])
        rows.append(
            {
                "conversion": c, "load": r, "loss": ci.mean, "loss_ci": ci.half_width,
                "core_share": float(g["core_share"].mean()), "util_mean": float(g["util_mean"].mean()),
                "util_max": float(g["util_max"].mean()), "bursts": float(g["bursts"].mean()),
            }
        )
    return pd.DataFrame(rows)


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    if not len(results):
        return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))
    t = table(results)

    def add(case: str, x: float, quantity: str, measured: float, ci: float, ok: bool) -> None:
        rows.append(
            {
                "case": case, "x": x, "quantity": quantity, "unit": "", "paper": math.nan, "paper_ci": math.nan,
                "measured": measured, "measured_ci": ci, "ratio": math.nan, "tolerance": math.nan, "agrees": bool(ok),
            }
        )

    for c in CONVERSIONS:
        s = t[t["conversion"] == c].sort_values("load")
        if len(s) < 2:
            continue
        rising = bool((s["loss"].diff().dropna() > 0).all())
        lo, hi = s.iloc[0], s.iloc[-1]
        add(f"{c}: loss grows with load", float(hi["load"]),
            f"loss at ρ={hi['load']:g} / loss at ρ={lo['load']:g} (claim: rising at every step)",
            hi["loss"] / lo["loss"] if lo["loss"] > 0 else math.inf, math.nan, rising)
    for r, s in t.groupby("load", sort=True):
        s = s.set_index("conversion")
        if not {"full", "none"} <= set(s.index):
            continue
        f, n = s.loc["full"], s.loc["none"]
        apart = n["loss"] - n["loss_ci"] > f["loss"] + f["loss_ci"]
        add(f"ρ={r:g}: no conversion loses more than full", float(r), "loss(none) / loss(full) (claim: > 1, CIs apart)",
            n["loss"] / f["loss"] if f["loss"] > 0 else math.inf, math.nan, apart)
        if "partial" in s.index:
            p = s.loc["partial"]
            between = f["loss"] <= p["loss"] <= n["loss"]
            add(f"ρ={r:g}: partial between full and none", float(r), "loss(partial) (claim: full <= partial <= none)",
                p["loss"], p["loss_ci"], between)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def figure(results: "pandas.DataFrame", path: Any) -> None:
    """Loss vs load, one line per conversion setting (95% CI)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = table(results)
    fig, ax = plt.subplots(figsize=(6, 4))
    for c in CONVERSIONS:
        s = t[t["conversion"] == c].sort_values("load")
        label = f"partial ({CONVERTERS} converters per node)" if c == "partial" else c
        ax.errorbar(s["load"], s["loss"], yerr=s["loss_ci"], marker="o", ms=3, capsize=2, label=label)
    ax.set_yscale("log")
    ax.set_xlabel("offered load ρ per edge (erlangs per wavelength of one fibre)")
    ax.set_ylabel("burst loss ratio")
    ax.set_title(f"N1: NSFNET, W = {W} x 10 Gbit/s, LAUC-VF, Δ = 10 µs")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


REPRODUCTION = Reproduction(
    id="N1",
    title="NSFNET burst loss vs offered load under full, partial and no wavelength conversion",
    paper="González-Ortega et al., TCP synchronization in OBS networks, 2009, §4 (NSFNET, 2 wavelengths x "
    "10 Gbit/s, LAUC-VF, full/partial/no conversion); Ramantas et al. 2007 §3 (same network)",
    experiment=experiment,
    compare=compare,
    notes=(
        "NSFNET of docs/SCENARIOS.md (14 nodes, 21 links, 8 edge and 6 core nodes), W = 2 x 10 Gbit/s, "
        "Δ = 10 µs, LAUC-VF, background bursts only (exponential, mean 100 µs, uniform destinations), "
        "routing by least delay; load ρ: offered erlangs of each edge per wavelength of one fibre; partial "
        "conversion: 2 converters per node. 3 s runs, 0.3 s warm-up, 5 seeds. The papers give "
        "no loss curve: monotonicity and the ordering of the conversion settings are checked. --quick: "
        "ρ in {0.1, 0.5}, 0.5 s, 3 seeds."
    ),
    comparison_plot={"xlabel": "load ρ", "ylabel": "measured value"},
)

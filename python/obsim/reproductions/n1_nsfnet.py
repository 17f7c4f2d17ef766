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
5% "by allowing full, partial, or no wavelength convertibility in the core"
(Fig. 14). The checks, each a :class:`~obsim.reproductions.claims.Claim` on
a ratio of pooled loss ratios (``ratio_of_ratios``: lost over sent bursts
summed over the runs, paired by seed, delta method on the log): (1) the loss
ratio grows with the load under every conversion setting, each step of the
load sweep greater than 1 (what any loss system does, e.g. Erlang B, V2);
(2) at every load, no conversion loses more than full conversion; (3)
partial conversion lies between them: partial over full and none over
partial each greater than 1. The single-link Erlang B check of the same
machinery is V2.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List

from ..stats import mean_ci
from ..topologies import NSFNET_EDGE_SITES, nsfnet, nsfnet_interarrival
from . import Reproduction
from .claims import Claim

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


GROWS_WITH_LOAD = Claim(
    name="loss ratio at the higher load over the lower (claim: > 1)",
    statement="burst loss grows with the offered load (any loss system; Erlang B, V2)",
    statistic="ratio_of_ratios",
    kind="greater",
    unit="ratio",
)
_CONVERSION = (
    "gonzalez2009 §4: different burst loss ratios obtained 'by allowing full, partial, or no "
    "wavelength convertibility in the core'"
)
NONE_ABOVE_FULL = Claim(
    name="loss ratio no conversion over full (claim: > 1)",
    statement=_CONVERSION,
    statistic="ratio_of_ratios",
    kind="greater",
    unit="ratio",
)
PARTIAL_ABOVE_FULL = Claim(
    name="loss ratio partial over full (claim: > 1)",
    statement=_CONVERSION,
    statistic="ratio_of_ratios",
    kind="greater",
    unit="ratio",
)
NONE_ABOVE_PARTIAL = Claim(
    name="loss ratio no conversion over partial (claim: > 1)",
    statement=_CONVERSION,
    statistic="ratio_of_ratios",
    kind="greater",
    unit="ratio",
)


def _runs(results: "pandas.DataFrame") -> Dict[Any, Dict[int, Any]]:
    """(conversion, ρ) -> replication -> (lost, bursts)."""
    out: Dict[Any, Dict[int, Any]] = {}
    for opt, name, rep, lost, bursts in zip(
        results[AX_OPT], results["name"], results["replication"], results["lost"], results["bursts"]
    ):
        out.setdefault((_conv(opt), _load(name)), {})[int(rep)] = (float(lost), float(bursts))
    return out


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    if not len(results):
        return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))
    runs = _runs(results)

    def add(claim: Claim, case: str, x: float, a: Any, b: Any) -> None:
        reps = sorted(set(runs[a]) & set(runs[b]))
        num = ([runs[a][r][0] for r in reps], [runs[a][r][1] for r in reps])
        den = ([runs[b][r][0] for r in reps], [runs[b][r][1] for r in reps])
        rows.append(claim.decide(num, den).row(case, x))

    loads = sorted({r for _, r in runs})
    for c in CONVERSIONS:
        have = [r for r in loads if (c, r) in runs]
        for lo, hi in zip(have, have[1:]):
            case = f"{c}: loss grows with load (ρ={lo:g} → {hi:g})"
            add(GROWS_WITH_LOAD, case, float(hi), (c, hi), (c, lo))
    for r in loads:
        if ("full", r) in runs and ("none", r) in runs:
            case = f"ρ={r:g}: no conversion loses more than full"
            add(NONE_ABOVE_FULL, case, float(r), ("none", r), ("full", r))
        if ("partial", r) in runs:
            if ("full", r) in runs:
                add(PARTIAL_ABOVE_FULL, f"ρ={r:g}: partial loses more than full", float(r), ("partial", r),
                    ("full", r))
            if ("none", r) in runs:
                add(NONE_ABOVE_PARTIAL, f"ρ={r:g}: partial loses less than none", float(r), ("none", r),
                    ("partial", r))
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
    paper="González de Dios, Guidotti, Raffaelli, Ramantas, Vlachos, "
    "On transmission control protocol synchronization in optical burst switching, "
    "Photonic Network Communications 2009, §4 (NSFNET, 2 wavelengths x "
    "10 Gbit/s, LAUC-VF, full/partial/no conversion); Ramantas et al. 2007 §3 (same network)",
    experiment=experiment,
    compare=compare,
    notes=(
        "NSFNET of docs/SCENARIOS.md (14 nodes, 21 links, 8 edge and 6 core nodes), W = 2 x 10 Gbit/s, "
        "Δ = 10 µs, LAUC-VF, background bursts only (exponential, mean 100 µs, uniform destinations), "
        "routing by least delay; load ρ: offered erlangs of each edge per wavelength of one fibre; partial "
        "conversion: 2 converters per node. 3 s runs, 0.3 s warm-up, 5 seeds. The papers give "
        "no loss curve: monotonicity (each load step) and the ordering full < partial < none at each "
        "load are checked, each on a ratio of pooled loss ratios over the same seeds. --quick: "
        "ρ in {0.1, 0.5}, 0.5 s, 3 seeds."
    ),
    comparison_plot={"xlabel": "load ρ", "ylabel": "measured value"},
)

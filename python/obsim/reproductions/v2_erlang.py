"""V2: a bufferless OBS link against Erlang B.

One bufferless edge (``edge_queue = "none"``) sends Poisson bursts with
exponential lengths over one optical link of W wavelengths, with full
wavelength conversion and no offsets (Δ = 0): an M/M/W/W loss system, whose
burst loss ratio is B(W, A) for A = ρ·W offered erlangs (Erlang 1917;
insensitive to the length distribution). Each point is a
:class:`~obsim.reproductions.claims.Claim`: the pooled loss ratio (lost over
sent bursts of all runs) over B(W, A), a ratio of means, equivalent to 1
within :data:`MARGIN` (two one-sided tests; the earlier rule, "B inside the
95% CI", held for any data too noisy to tell). The check for the channel
scheduler, conversion and generator under the NSFNET runs of N1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List

from ..analysis.erlang import erlang_b
from ..topologies import nsfnet_interarrival, single_link
from . import Reproduction, SeedPlan
from .claims import Claim

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

BURST = "100 us"
AX_W = "links[0].wavelengths"
AX_GAP = "generators[0].interarrival"
MARGIN = 0.05
"""Equivalence margin on measured / Erlang B: ±5%. Erlang B is exact for this
system, so only sampling error should remain; a modelling error (a
wavelength too few, an offset) moves it by far more (one wavelength fewer
doubles the loss at W = 8 and at W = 16, ρ = 0.5)."""
SEEDS = SeedPlan(initial=5, step=5, cap=40)
"""5 seeds to start, 5 more while a point's CI half-width exceeds half the
margin, at most 40 (W = 16, ρ = 0.3 loses about 15 bursts in a 10 s run:
B = 3e-5, which 40 seeds cannot pin to ±2.5%)."""


def _claim(w: int, rho: float) -> Claim:
    return Claim(
        name=f"loss / Erlang B, W = {w} (claim: within 1 ± {MARGIN:g})",
        statement="Erlang B: the loss ratio of an M/M/W/W (M/G/W/W) loss system",
        statistic="ratio_of_means",
        kind="equivalent",
        margin=MARGIN,
        paper=1.0,
        unit="ratio",
        precision=MARGIN / 2.0,
    )


def experiment(quick: bool) -> Dict[str, Any]:
    ws = [1, 4] if quick else [1, 2, 4, 8, 16]
    loads = [0.5] if quick else [0.3, 0.5, 0.7, 0.9]
    pts = [(w, r) for w in ws for r in loads]
    scenario = single_link(wavelengths=1, load=0.5, burst_length=BURST, duration="2 s" if quick else "10 s",
                           warmup="0.2 s" if quick else "0.5 s")
    scenario["name"] = "erlang-V2"
    return {
        "name": "V2_erlang" + ("_quick" if quick else ""),
        "description": "Burst loss of one bufferless link of W wavelengths vs Erlang B",
        "scenario": scenario,
        "replications": {"count": 3 if quick else 5, "base_seed": 1917},
        "sweep": {
            "grid": {},
            "zip": [
                {
                    AX_W: [w for w, _ in pts],
                    AX_GAP: [nsfnet_interarrival(r, w, BURST) for w, r in pts],
                    "name": [f"erlang-W{w}-rho{r:g}" for w, r in pts],
                }
            ],
        },
        "metrics": {
            "bursts": {"table": "paths", "column": "bursts", "agg": "sum"},
            "lost": {"table": "paths", "column": "lost", "agg": "sum"},
            "loss": {"expr": "lost / bursts", "label": "burst loss ratio"},
        },
        "plots": [],
    }


def _load(name: str) -> float:
    return float(name.rsplit("-rho", 1)[1])


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows: List[Dict[str, Any]] = []
    for name, g in results.groupby("name", sort=False):
        g = g.sort_values("replication")
        w = int(g[AX_W].iloc[0])
        rho = _load(str(name))
        b = erlang_b(w, rho * w)
        v = _claim(w, rho).decide(list(g["lost"]), [b * x for x in g["bursts"]])
        rows.append(v.row(f"W={w} ρ={rho:g}", rho))
    rows.sort(key=lambda r: (int(r["case"].split()[0][2:]), r["x"]))
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="V2",
    title="Burst loss of a bufferless link with W wavelengths against Erlang B",
    paper="Erlang B (A. K. Erlang 1917); the M/G/W/W loss model of a bufferless OBS port with full "
    "wavelength conversion",
    experiment=experiment,
    compare=compare,
    notes=(
        "Edge A with edge_queue = \"none\" (bufferless), LAUC-VF, full conversion, Δ = 0 -> one 10 Gbit/s "
        "link of W in {1, 2, 4, 8, 16} wavelengths -> edge Z; Poisson bursts, exponential lengths of mean "
        "100 µs, ρ in {0.3, 0.5, 0.7, 0.9} erlangs per wavelength; 10 s runs, 0.5 s warm-up, 5 seeds, 5 "
        "more at a time up to 40 while a point's CI half-width exceeds 0.025. Each point: pooled loss "
        "ratio / Erlang B equivalent to 1 within ±5% (90% CI). --quick: W in {1, 4}, ρ = 0.5, 2 s, "
        "3 seeds."
    ),
    comparison_plot={"xlabel": "load ρ (erlangs per wavelength)", "ylabel": "burst loss ratio / Erlang B"},
    seeds=SEEDS,
)

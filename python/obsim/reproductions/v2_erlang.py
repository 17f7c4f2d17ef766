"""V2: a bufferless OBS link against Erlang B.

One bufferless edge (``edge_queue = "none"``) sends Poisson bursts with
exponential lengths over one optical link of W wavelengths, with full
wavelength conversion and no offsets (Δ = 0): an M/M/W/W loss system, whose
burst loss ratio is B(W, A) for A = ρ·W offered erlangs (Erlang 1917;
insensitive to the length distribution). ``agrees`` when B(W, A) lies inside
the 95% CI of the measured loss ratio over replications. The check for the
channel scheduler, conversion and generator under the NSFNET runs of N1.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..analysis.erlang import erlang_b
from ..stats import mean_ci
from ..topologies import nsfnet_interarrival, single_link
from . import Reproduction

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

BURST = "100 us"
AX_W = "links[0].wavelengths"
AX_GAP = "generators[0].interarrival"


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
        w = int(g[AX_W].iloc[0])
        rho = _load(str(name))
        b = erlang_b(w, rho * w)
        ci = mean_ci(g["loss"])
        hw = ci.half_width if not math.isnan(ci.half_width) else 0.0
        rows.append(
            {
                "case": f"W={w} ρ={rho:g}", "x": rho, "quantity": f"burst loss ratio vs Erlang B(W={w}, A={rho * w:g})",
                "unit": "", "paper": b, "paper_ci": math.nan, "measured": ci.mean, "measured_ci": ci.half_width,
                "ratio": ci.mean / b if b else math.nan, "tolerance": math.nan,
                "agrees": bool(abs(ci.mean - b) <= hw),
            }
        )
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
        "100 µs, ρ in {0.3, 0.5, 0.7, 0.9} erlangs per wavelength; 10 s runs, 0.5 s warm-up, 5 seeds. "
        "'agrees': Erlang B inside the 95% CI. --quick: W in {1, 4}, ρ = 0.5, 2 s, 3 seeds."
    ),
    comparison_plot={"xlabel": "load ρ (erlangs per wavelength)", "ylabel": "burst loss ratio", "logy": True},
)

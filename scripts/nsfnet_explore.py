"""A first look at the R1-R4 steady state at a cost this machine affords: one seed (or a few) of
the shared 700 KB runs (timers 1, 5 and 10 ms) at a chosen length, every reproduction's comparison
applied to the same runs. Exploratory: one seed decides no ordering or equivalence (the paired
intervals need n >= 2), a few decide little, and the registered full mode (docs/NSFNET_STUDIES.md
2.9: 600 s, 5 to 10 seeds) is what decides the claims. The measured values against the
papers' are what this gives.

    python scripts/nsfnet_explore.py OUT [--seconds 400] [--warmup 200] [--seeds 1] [--seed-index 0] [-j 2]

R1-R4's 700 KB scenarios differ only in their name; here they share one name, so the runs are
simulated once (into OUT/R2) and linked into the others' stores (`Store.adopt`). R1 is compared on
its 700 KB points only; R4's 100 ms point and its Fig. 6 trace re-runs (`post_run`) are not run.
Writes OUT/<ID>/comparison.parquet and prints each table.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Dict


def shared(
    doc: Dict[str, Any], seconds: float, warmup: float, seed_index: int, seeds: int = 1
) -> Dict[str, Any]:
    """``doc`` (a registered R experiment) with ``seeds`` replications (from the registered base
    seed plus ``seed_index``), the 700 KB points and timers 1, 5 and 10 ms only, the given length,
    and the shared scenario name."""
    from obsim.reproductions import ramantas_nsfnet as rn

    doc = json.loads(json.dumps(doc))
    sc = doc["scenario"]
    sc["name"] = "ramantas_nsfnet_700KB"
    sc["simulation"]["duration"] = f"{seconds:g} s"
    sc["simulation"]["warmup"] = f"{warmup:g} s"
    doc["replications"] = {"count": seeds, "base_seed": doc["replications"]["base_seed"] + seed_index}
    zips = []
    for group in doc["sweep"]["zip"]:
        keys = list(group)
        n = len(group[keys[0]])
        keep = []
        for i in range(n):
            v = {k: group[k][i] for k in keys}
            sizes = [x for k, x in v.items() if k.endswith(".size")]
            if sizes and round(rn.mean_kb(sizes[0])) != 700:
                continue
            timers = [x for k, x in v.items() if k.endswith("assembly.timeout")]
            if timers and timers[0] not in ("1 ms", "5 ms", "10 ms"):
                continue
            keep.append(i)
        zips.append({k: [group[k][i] for i in keep] for k in keys})
    doc["sweep"]["zip"] = zips
    doc["name"] = doc["name"] + "_explore"
    return doc


def main() -> None:
    import pandas as pd

    from obsim.experiment import from_dict
    from obsim.reproductions import get
    from obsim.store import Store
    from obsim.sweep import results_frame, run_experiment

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seconds", type=float, default=400.0)
    ap.add_argument("--warmup", type=float, default=200.0)
    ap.add_argument("--seed-index", type=int, default=0, help="which of the registered seeds (0: the first)")
    ap.add_argument("--seeds", type=int, default=1, help="replications per point (a rerun adds to the store)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    if not 0 < a.warmup < a.seconds:
        ap.error("--warmup must be positive and shorter than --seconds")
    pd.set_option("display.width", 200)
    pd.set_option("display.max_colwidth", 70)
    first = a.out / "R2"
    for rid in ("R2", "R1", "R3", "R4"):
        rep = get(rid)
        doc = shared(rep.experiment(False), a.seconds, a.warmup, a.seed_index, a.seeds)
        exp = from_dict(doc, source=f"{rid} explore")
        where = a.out / rid
        s = run_experiment(exp, where, jobs=a.jobs, progress=False, reuse=() if rid == "R2" else (first,))
        print(f"{rid}: {s.total} runs, {s.ran} simulated, {s.reused} linked, {s.failed} failed")
        table = rep.compare(results_frame(Store(where), exp), exp)
        table.to_parquet(where / "comparison.parquet")
        cols = ["case", "quantity", "paper", "measured", "ci_low", "ci_high", "n", "agrees"]
        print(table[[c for c in cols if c in table]].to_string(index=False))


if __name__ == "__main__":
    main()

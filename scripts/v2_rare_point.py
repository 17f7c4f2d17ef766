"""Diagnostic for V2's rarest point (W = 16, rho = 0.3, Erlang B = 3.1e-5) on fresh seeds.

The registered V2 run decides each point on at most 40 seeds; at W = 16, rho = 0.3 that is about
600 lost bursts, too few for its +-5% equivalence margin. This script runs the same experiment at
that one point on N seeds from another base seed and prints measured / Erlang B with its 95%
interval (ratio of means, delta method over seeds). It is a diagnostic, not the registered
verdict (docs/VALIDATION.md, V2).

    python scripts/v2_rare_point.py OUT_DIR [--seeds 400] [--base-seed 4242] [--jobs 1]
"""

from __future__ import annotations

import argparse

from obsim.analysis.erlang import erlang_b
from obsim.experiment import from_dict
from obsim.reproductions import v2_erlang as v2
from obsim.reproductions.claims import ratio_of_means
from obsim.store import Store
from obsim.sweep import results_frame, run_experiment
from obsim.topologies import nsfnet_interarrival


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--seeds", type=int, default=400)
    ap.add_argument("--base-seed", type=int, default=4242)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--wavelengths", type=int, default=16)
    ap.add_argument("--load", type=float, default=0.3)
    a = ap.parse_args()
    doc = v2.experiment(False)
    doc["replications"] = {"count": a.seeds, "base_seed": a.base_seed}
    gap = nsfnet_interarrival(a.load, a.wavelengths, v2.BURST)
    name = f"erlang-W{a.wavelengths}-rho{a.load:g}"
    doc["sweep"] = {"grid": {}, "zip": [{v2.AX_W: [a.wavelengths], v2.AX_GAP: [gap], "name": [name]}]}
    exp = from_dict(doc, source="v2_rare_point")
    run_experiment(exp, a.out, jobs=a.jobs, progress=False)
    r = results_frame(Store(a.out), exp)
    offered = a.load * a.wavelengths
    b = erlang_b(a.wavelengths, offered)
    est = ratio_of_means(list(r["lost"]), list(r["bursts"]))
    print(
        f"W={a.wavelengths} rho={a.load:g}: {len(r)} seeds, {r['lost'].sum():.0f} lost of "
        f"{r['bursts'].sum():.0f} bursts; measured / Erlang B = {est.value / b:.4f} "
        f"[{est.low / b:.4f}, {est.high / b:.4f}] (95%); lost var/mean "
        f"{r['lost'].var() / r['lost'].mean():.2f}"
    )


if __name__ == "__main__":
    main()

"""Whole-scenario benchmark through the Python API (what `obsim run` does).

Each scenario runs REPEAT times, each in a fresh interpreter so that peak
memory (ru_maxrss) belongs to that run alone. Prints engine wall time, events
per second, delivered segments per second and peak RSS (median over repeats).

    python benches/scenarios.py [SCENARIO.toml ...] [--repeat N]

Default: scenarios/dumbbell.toml, the project's reference scenario. Results
for the record go to docs/PERFORMANCE.md with the machine they ran on.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
import obsim
t = time.perf_counter()
res = obsim.run(sys.argv[1])
total = time.perf_counter() - t
m = res.meta
print(json.dumps({
    "engine_wall_s": m["wall_s"],
    "total_wall_s": total,
    "events": m["events"],
    "segments": m["segments_delivered"],
    "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def bench(path: Path, repeat: int) -> dict:
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)], check=True, capture_output=True, text=True
        )
        runs.append(json.loads(out.stdout))
    wall = statistics.median(r["engine_wall_s"] for r in runs)
    return {
        "scenario": path.name,
        "engine_wall_s": wall,
        "total_wall_s": statistics.median(r["total_wall_s"] for r in runs),
        "events_per_s": runs[0]["events"] / wall,
        "segments_per_s": runs[0]["segments"] / wall,
        "maxrss_mib": statistics.median(r["maxrss_mib"] for r in runs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenarios", nargs="*", type=Path, default=[Path("scenarios/dumbbell.toml")])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print("| scenario | engine wall (s) | total wall (s) | events/s | delivered segments/s | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|")
    for p in args.scenarios:
        r = bench(p, args.repeat)
        print(
            f"| {r['scenario']} | {r['engine_wall_s']:.3f} | {r['total_wall_s']:.3f} | "
            f"{r['events_per_s'] / 1e6:.2f} M | {r['segments_per_s'] / 1e6:.2f} M | {r['maxrss_mib']:.1f} |"
        )


if __name__ == "__main__":
    main()

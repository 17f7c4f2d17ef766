"""How the engine's cost grows with the number of concurrent flows at the S3 operating point.

The S3 scenario (gonzalez2009 §4: NSFNET, W = 2 x 10 Gbit/s, 3 ms timers, MF at full conversion,
Pareto 40 KB minimum and 4 MB mean, one 100 Mbit/s access pipe per flow, SACK; built by
``obsim.reproductions.s3_gonzalez2009.build``) at several arrival rates per edge, so that about
200, 2 000 and 20 000 flows are active at once. Each rate runs in a fresh interpreter through the
Python API (what ``obsim run`` does), so peak memory (ru_maxrss) and CPU time belong to that run.
Prints per rate: mean active flows after the warm-up (Little's L from the flow records), engine
wall time per simulated second, CPU time per simulated second, events and delivered segments per
CPU second and per wall second, peak RSS, and the run's own memory per active flow (peak RSS less
that of an interpreter that only imported obsim, pandas and pyarrow, over the mean active flows).

    python benches/s3_scale.py [--rates 50 500 5000] [--seconds 20 8 3] [--warmup 5 3 1] [--seed 1]

Results for the record go to docs/PERFORMANCE.md with the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

BASE = r"""
import json, resource
import obsim, pandas, pyarrow  # what obsim.run and the flow records load
print(json.dumps({"maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

CHILD = r"""
import json, resource, sys, time
import obsim
t = time.perf_counter()
res = obsim.run(sys.argv[1], seed=int(sys.argv[2]))
total = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_SELF)
m = res.meta
fr = res.table("flow_records").to_pandas()
print(json.dumps({
    "engine_wall_s": m["wall_s"],
    "total_wall_s": total,
    "cpu_s": u.ru_utime + u.ru_stime,
    "events": m["events"],
    "segments": m["segments_delivered"],
    "active": float(fr["active_after_warmup_s"].sum()) / float(m["measured_s"]),
    "flows": int(len(fr)),
    "maxrss_mib": u.ru_maxrss / 1024,
}))
"""


def scenario(rate: float, seconds: float, warmup: float) -> dict:
    """The S3 registered scenario (MF, full conversion) at ``rate`` flows/s per edge."""
    from obsim.reproductions import s3_gonzalez2009 as s3

    exp = s3.build(False, rate=rate, length=((f"{seconds:g} s", warmup), (f"{seconds:g} s", warmup)))
    sc = exp["scenario"]
    for key, values in exp["sweep"]["zip"][0].items():  # the first case: MF, full conversion
        if key == "name":
            sc["name"] = values[0]
        elif key == "optical":
            sc["optical"] = values[0]
        else:
            i = int(key.split("[")[1].split("]")[0])
            sc["nodes"][i]["assembly"] = values[0]
    return sc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rates", type=float, nargs="+", default=[50.0, 500.0, 5000.0])
    ap.add_argument("--seconds", type=float, nargs="+", default=[20.0, 8.0, 3.0])
    ap.add_argument("--warmup", type=float, nargs="+", default=[5.0, 3.0, 1.0])
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not len(a.rates) == len(a.seconds) == len(a.warmup):
        ap.error("--rates, --seconds and --warmup need the same number of values")
    from obsim.scenario_files import to_toml

    base = json.loads(subprocess.run([sys.executable, "-c", BASE], capture_output=True, text=True).stdout)
    print(f"(interpreter with obsim, pandas and pyarrow imported: {base['maxrss_mib']:.1f} MiB peak RSS)")
    print(
        f"{'rate/edge':>9} {'active':>7} {'flows':>7} {'sim s':>6} {'wall/sim':>8} {'cpu/sim':>8} "
        f"{'Mev/cpu-s':>9} {'Mseg/cpu-s':>10} {'Mseg/wall-s':>11} {'RSS MiB':>8} {'KiB/flow':>8}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for rate, seconds, warmup in zip(a.rates, a.seconds, a.warmup):
            path = Path(tmp) / f"s3_{rate:g}.toml"
            path.write_text(to_toml(scenario(rate, seconds, warmup)), encoding="utf-8")
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(path), str(a.seed)], capture_output=True, text=True
            )
            if out.returncode != 0:
                print(f"{rate:>9g} failed: {out.stderr.strip().splitlines()[-1:]}")
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"{rate:>9g} {r['active']:>7.0f} {r['flows']:>7} {seconds:>6g} "
                f"{r['engine_wall_s'] / seconds:>8.2f} {r['cpu_s'] / seconds:>8.2f} "
                f"{r['events'] / r['cpu_s'] / 1e6:>9.2f} {r['segments'] / r['cpu_s'] / 1e6:>10.3f} "
                f"{r['segments'] / r['engine_wall_s'] / 1e6:>11.3f} {r['maxrss_mib']:>8.1f} "
                f"{(r['maxrss_mib'] - base['maxrss_mib']) * 1024 / max(r['active'], 1):>8.1f}"
            )


if __name__ == "__main__":
    main()

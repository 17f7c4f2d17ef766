"""Start-up benchmark of the ``obsim`` command line (issue 16).

Every measurement is one fresh interpreter, started the way a user starts
the command (``python -m obsim ...``); the commands are run round-robin
(one of each, REPEAT times) so that a change in the load of a shared
machine hits them all alike, and the median is printed.

    python benches/startup.py [--repeat N] [--scenario SCENARIO.toml]

The default scenario, scenarios/single_flow.toml, simulates 5 s in a few
milliseconds: what remains is the command line's own cost.

Rows:

``python -c pass``
    The interpreter alone: the floor under every row.
``obsim --version``, ``obsim check SCENARIO``
    The whole command, from spawning the process to its exit.
``obsim run SCENARIO --quiet``: until the simulation starts
    From spawning the process to the call into the Rust engine
    (``obsim._core.run``, wrapped to note the time): the command line's
    overhead before anything happens.
``obsim run SCENARIO --quiet``: whole / engine / after
    The whole command, the engine's own wall time (``meta.wall_s``) and
    what is left after the engine: the results turned into NumPy arrays
    (numpy is imported then) and Arrow tables (pyarrow, which imports
    pandas), and the interpreter's exit.
``obsim run SCENARIO``: whole
    The same with the summary printed (rich is imported then).

Run it from the repository root with the package importable (installed, or
``PYTHONPATH=python``). Results for the record go to ``docs/PERFORMANCE.md``
("Start-up") with the machine they ran on.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Tuple

# Runs `obsim run ARGS...` with obsim._core.run wrapped to write the wall
# clock (time.time(), comparable with the parent's) when the engine is
# entered, and the engine's own wall time (meta.wall_s: the simulation,
# without turning its results into NumPy arrays, which imports numpy).
# Importing obsim._core first imports the package, which the command line
# imports anyway, so the modules loaded are the same.
RUN_CHILD = r"""
import json, sys, time
import obsim._core as core
real, stamps = core.run, {}
def run(*a, **k):
    stamps["engine_start"] = time.time()
    raw = real(*a, **k)
    stamps["engine_s"] = raw["meta"]["wall_s"]
    return raw
core.run = run
from obsim.cli import main
try:
    status = main(sys.argv[2:])
finally:
    with open(sys.argv[1], "w") as f:
        json.dump(stamps, f)
raise SystemExit(status)
"""


def _spawn(argv: List[str]) -> Tuple[float, float]:
    """Run ``argv``; return (wall-clock time at spawn, seconds to exit)."""
    t_wall, t0 = time.time(), time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return t_wall, time.perf_counter() - t0


def _run_cmd(py: str, scenario: str, quiet: bool) -> Callable[[], Dict[str, float]]:
    def measure() -> Dict[str, float]:
        fd, stamp_file = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        try:
            args = ["run", scenario] + (["--quiet"] if quiet else [])
            t_spawn, whole = _spawn([py, "-c", RUN_CHILD, stamp_file] + args)
            stamps = json.loads(Path(stamp_file).read_text())
        finally:
            os.unlink(stamp_file)
        engine = stamps["engine_s"]
        before = stamps["engine_start"] - t_spawn
        return {"whole": whole, "before": before, "engine": engine, "after": whole - before - engine}

    return measure


def _plain(argv: List[str]) -> Callable[[], Dict[str, float]]:
    def measure() -> Dict[str, float]:
        return {"whole": _spawn(argv)[1]}

    return measure


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=11, help="fresh processes per command (default 11)")
    ap.add_argument(
        "--scenario",
        default="scenarios/single_flow.toml",
        help="scenario for check and run (default scenarios/single_flow.toml: a few ms of engine time)",
    )
    args = ap.parse_args()
    py, sc = sys.executable, args.scenario
    commands: Dict[str, Callable[[], Dict[str, float]]] = {
        "python -c pass": _plain([py, "-c", "pass"]),
        "obsim --version": _plain([py, "-m", "obsim", "--version"]),
        f"obsim check {sc}": _plain([py, "-m", "obsim", "check", sc]),
        f"obsim run {sc} --quiet": _run_cmd(py, sc, quiet=True),
        f"obsim run {sc}": _run_cmd(py, sc, quiet=False),
    }
    samples: Dict[str, List[Dict[str, float]]] = {name: [] for name in commands}
    for _ in range(args.repeat):
        for name, measure in commands.items():
            samples[name].append(measure())

    def med(name: str, key: str) -> str:
        return f"{statistics.median(s[key] for s in samples[name]):.3f}"

    print(f"median of {args.repeat} fresh processes each, seconds")
    print()
    print("| command | whole | until the simulation starts | engine | after the engine |")
    print("|---|---|---|---|---|")
    for name, runs in samples.items():
        if "before" in runs[0]:
            print(f"| `{name}` | {med(name, 'whole')} | {med(name, 'before')} | "
                  f"{med(name, 'engine')} | {med(name, 'after')} |")
        else:
            print(f"| `{name}` | {med(name, 'whole')} | | | |")


if __name__ == "__main__":
    main()

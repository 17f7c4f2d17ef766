"""Running both simulators on a case and comparing them."""

from __future__ import annotations

import statistics
import threading
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

from . import ns2, obsim_side
from .case import Case, DumbbellCase
from .compare import Diff, compare
from .drops import resolve
from .trajectory import Trajectory


_CACHE: Dict[Tuple[str, Case, Tuple[int, ...]], Trajectory] = {}
_CACHE_LOCK = threading.Lock()


def _cached(side: str, case: Case, indices: Sequence[int]) -> Trajectory:
    """One run of one simulator, memoised on (the case less its drop list
    and name, the drop indices): the cases of a matrix share their first
    runs (no drops; the first drop resolved), and runs are deterministic."""
    key = (side, case.with_(drops=(), name=""), tuple(indices))
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    run = ns2.run_case if side == "ns-2" else obsim_side.run_case
    traj = run(case, indices)
    with _CACHE_LOCK:
        _CACHE[key] = traj
    return traj


def run_sides(case: Case) -> Tuple[Trajectory, Trajectory]:
    """The ns-2 and the obsim trajectories of ``case`` (each with the drop
    list resolved against its own run)."""
    rtt = case.rtt_ms / 1000.0
    ref, _ = resolve(lambda ix: _cached("ns-2", case, ix), case.drops, rtt)
    got, _ = resolve(lambda ix: _cached("obsim", case, ix), case.drops, rtt)
    return ref, got


def run_diff(case: Case) -> Diff:
    """Runs ``case`` in ns-2 and obsim and compares them."""
    ref, got = run_sides(case)
    return compare(ref, got)


@dataclass
class DumbbellStats:
    """Per simulator, over seeds: mean and standard deviation across seeds
    of the mean per-flow goodput (bit/s) and of the total timeouts."""

    simulator: str
    goodput_mean: float
    goodput_sd: float
    timeouts_mean: float
    timeouts_sd: float
    retransmits_mean: float

    def __str__(self) -> str:
        return (
            f"{self.simulator:6s}: goodput {self.goodput_mean / 1e6:.4f} ± "
            f"{self.goodput_sd / 1e6:.4f} Mb/s per flow; timeouts {self.timeouts_mean:.1f} ± "
            f"{self.timeouts_sd:.1f}; retransmitted {self.retransmits_mean:.1f}"
        )


def _stats(name: str, runs: List[List[Tuple[int, int, int]]], case: DumbbellCase) -> DumbbellStats:
    bits = case.mss * 8
    g = [statistics.fmean(r[0] for r in rows) * bits / case.duration_s for rows in runs]
    to = [float(sum(r[1] for r in rows)) for rows in runs]
    rx = [float(sum(r[2] for r in rows)) for rows in runs]
    sd = statistics.stdev if len(runs) > 1 else (lambda _x: 0.0)
    return DumbbellStats(
        name, statistics.fmean(g), sd(g), statistics.fmean(to), sd(to), statistics.fmean(rx)
    )


def compare_dumbbell(case: DumbbellCase, seeds: Sequence[int]) -> Dict[str, DumbbellStats]:
    """Goodput and timeouts of ns-2 and obsim over ``seeds`` (each simulator
    draws its own start times and losses: a statistical comparison)."""
    ns_runs = [ns2.run_dumbbell(DumbbellCase(**{**case.__dict__, "seed": s})) for s in seeds]
    ob_runs = [obsim_side.run_dumbbell(DumbbellCase(**{**case.__dict__, "seed": s})) for s in seeds]
    return {"ns-2": _stats("ns-2", ns_runs, case), "obsim": _stats("obsim", ob_runs, case)}

"""The acceptance matrix of issue 14: scripted drops x variant x delayed
ACK x RTT x mode, on a 60-segment flow (``window_`` 20)."""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple

from .case import MODES, VARIANTS, Case
from .compare import Diff

Drops = Tuple[Tuple[int, int], ...]

DROP_SCENARIOS: Dict[str, Drops] = {
    "none": (),
    "one": ((30, 1),),
    "four_consecutive": tuple((s, 1) for s in range(30, 34)),
    "four_spread": ((30, 1), (33, 1), (36, 1), (39, 1)),
    "retx_once": ((30, 1), (30, 2)),
    "retx_twice": ((30, 1), (30, 2), (30, 3)),
    "twenty_consecutive": tuple((s, 1) for s in range(30, 50)),
    "first": ((0, 1),),
    "slow_start": ((5, 1),),
    "tail": ((59, 1),),
}
"""Scripted drops ``(seq, n)`` (the n-th transmission of segment seq) of
each named scenario. Segment 30 is sent in congestion avoidance at the full
window (20) in every variant; 5 in slow start; 59 is the last segment."""

RTTS_MS: Tuple[int, ...] = (40, 60, 100)
SEGMENTS = 60


def matrix_cases(
    drops: Optional[Iterable[str]] = None,
    variants: Iterable[str] = VARIANTS,
    modes: Iterable[str] = MODES,
    rtts: Iterable[int] = RTTS_MS,
    delacks: Iterable[bool] = (False, True),
) -> List[Case]:
    """Every case of the matrix (or the named slice), named by its drop
    scenario."""
    names = list(drops) if drops else list(DROP_SCENARIOS)
    out = []
    for mode in modes:
        for name in names:
            for v in variants:
                for delack in delacks:
                    for rtt in rtts:
                        out.append(
                            Case(
                                v,  # type: ignore[arg-type]
                                rtt_ms=rtt,
                                delack=delack,
                                drops=DROP_SCENARIOS[name],
                                mode=mode,  # type: ignore[arg-type]
                                segments=SEGMENTS,
                                name=name,
                            )
                        )
    return out


def run_matrix(cases: List[Case], workers: int = 0) -> List[Diff]:
    """Runs every case (ns-2 in subprocesses, obsim with the GIL released,
    so ``workers`` threads run cases in parallel; 0 = one per CPU)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    from .run import run_diff

    n = workers or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(run_diff, cases))

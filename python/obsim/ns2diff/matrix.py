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
    "retx_eleven": tuple((30, n) for n in range(1, 13)),
    "ten_alternate": tuple((s, 1) for s in range(30, 50, 2)),
}
"""Scripted drops ``(seq, n)`` (the n-th transmission of segment seq) of
each named scenario. Segment 30 is sent in congestion avoidance at the full
window (20) in every variant; 5 in slow start; 59 is the last segment.
``retx_eleven`` loses segment 30 twelve times: the RTO backs off until
``maxrto_`` (60 s in ns-2.35) caps it. ``ten_alternate`` loses every other
segment of the window (30, 32, ..., 48): NewReno's recovery takes ten
round trips, longer than a 1 s RTO at 150 ms, so the timer rule
(``newreno_changes1_``) shows."""

RTTS_MS: Tuple[int, ...] = (40, 60, 100)
SEGMENTS = 60
TICK_RTTS_MS: Tuple[int, ...] = (200, 300)
"""RTTs at which the RTT tick shows: RTOs computed from the samples exceed
``minrto_`` (0.2 s), so the 10 ms grid (``tcpTick_``) and its phase
(``boot_time_``) decide the timeout instants, and RTO deadlines can fall on
the same instant as an arrival (:func:`tick_cases`)."""

Setting = Tuple[str, str, str]

ERA_NS2_SETTINGS: Dict[str, Tuple[Setting, ...]] = {
    # ns-2.27 `tcl/lib/ns-default.tcl` (2004; the copy in erimatnor/aodv-uu,
    # ns-2/ns-2.27): the values ns-2.35 later changed, of the variables the
    # profile changes. `bugfix_ss_` did not exist (added 2006-06-13): 0 is
    # ns-2.35 without that fix.
    "ns2-2004": (
        ("Agent/TCP", "minrto_", "1"),
        ("Agent/TCP", "rtxcur_init_", "6.0"),
        ("Agent/TCP", "maxrto_", "100000"),
        ("Agent/TCP", "precisionReduce_", "false"),
        ("Agent/TCP", "bugfix_ss_", "0"),
    ),
}
# ns-2.26 (2003; same copy, ns-2/ns-2.26): also NewReno's two defaults
# before 2003-05-05.
ERA_NS2_SETTINGS["ns2-2003"] = ERA_NS2_SETTINGS["ns2-2004"] + (
    ("Agent/TCP/Newreno", "newreno_changes1_", "0"),
    ("Agent/TCP/Newreno", "partial_window_deflation_", "0"),
)
"""Per older-era obsim profile, the ns-2 class defaults that make ns-2.35
run with that release's values of the variables the profile models
(``Case.ns2_settings``). Only variables: code that changed between the
releases is ns-2.35's."""


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


def era_cases(
    profiles: Iterable[str] = tuple(ERA_NS2_SETTINGS),
    drops: Optional[Iterable[str]] = None,
    variants: Iterable[str] = VARIANTS,
    modes: Iterable[str] = MODES,
    rtts: Iterable[int] = (60, 150),
) -> List[Case]:
    """The matrix for each older-era profile, with ns-2.35 set to that era's
    defaults (:data:`ERA_NS2_SETTINGS`); by default at 60 ms and at 150 ms,
    where a NewReno recovery (``ten_alternate``) outlasts their 1 s
    ``minrto_``."""
    return [
        c.with_(profile=p, ns2_settings=ERA_NS2_SETTINGS[p])
        for p in profiles
        for c in matrix_cases(drops, variants, modes, rtts)
    ]


def tick_cases(
    drops: Optional[Iterable[str]] = None,
    variants: Iterable[str] = VARIANTS,
    modes: Iterable[str] = MODES,
) -> List[Case]:
    """The matrix at :data:`TICK_RTTS_MS`: checks ``rto.granularity`` (the
    10 ms tick, truncation of the RTO to it) and the order of a timer
    rescheduled to the instant of an arrival (ns-2 ``resched``,
    ``engine/timer.rs``), which the acceptance RTTs never exercise."""
    return matrix_cases(drops, variants, modes, TICK_RTTS_MS)


def run_matrix(cases: List[Case], workers: int = 0) -> List[Diff]:
    """Runs every case (ns-2 in subprocesses, obsim with the GIL released,
    so ``workers`` threads run cases in parallel; 0 = one per CPU)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    from .run import run_diff

    n = workers or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(run_diff, cases))

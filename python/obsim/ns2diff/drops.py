"""Turning "drop the n-th transmission of segment k" into packet indices.

Both simulators drop by index on the lossy link (ns-2 ``ErrorModel/List``,
obsim ``packets``): the i-th packet (0-based) to cross it. Which index is the
n-th transmission of segment k depends on the run itself, so each simulator's
list is found by running it: run with the indices known so far, walk the
packets that crossed the lossy link counting each segment's transmissions,
and add every target met before the consequences of the first new drop can
reach the link again (packets that cross the link before ``t + RTT`` of the
first new drop at ``t`` are the same with or without it: nothing can come
back from the drop sooner). Repeat until the run meets no new target; that
last run is the case's run.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, List, Sequence, Set, Tuple

from .trajectory import Trajectory

MAX_RUNS = 64


def resolve(
    run: Callable[[Sequence[int]], Trajectory],
    drops: Sequence[Tuple[int, int]],
    rtt_s: float,
) -> Tuple[Trajectory, List[int]]:
    """Runs ``run`` until its drop indices realise ``drops``; returns the
    final run and the indices."""
    targets: Set[Tuple[int, int]] = set(drops)
    indices: List[int] = []
    for _ in range(MAX_RUNS):
        traj = run(indices)
        if not targets:
            return traj, indices
        have = set(indices)
        counts: Counter[int] = Counter()
        first_t = None
        new: List[int] = []
        for i, (t, seq) in enumerate(traj.link):
            if first_t is not None and t >= first_t + rtt_s:
                break
            counts[seq] += 1
            if (seq, counts[seq]) in targets and i not in have:
                new.append(i)
                if first_t is None:
                    first_t = t
        if not new:
            return traj, indices
        indices = sorted(have | set(new))
    raise RuntimeError(f"drop list {list(drops)} not resolved in {MAX_RUNS} runs")

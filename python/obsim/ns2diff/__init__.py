"""Differential testing of obsim's ``ns2`` TCP profiles against ns-2.35.

Given a small TCP case (:class:`Case`: one flow, a variant, delayed ACKs,
an RTT, scripted drops; or :class:`DumbbellCase`: ten flows with Bernoulli
loss), it writes the equivalent ns-2 Tcl, runs ``ns``, runs obsim, and
compares the per-ACK sender state (time, cwnd, ssthresh, snd_una, snd_nxt
after each ACK and each timeout), the timeout and retransmission instants,
the number of retransmitted segments and the completion time.

    from obsim.ns2diff import Case, run_diff
    d = run_diff(Case("newreno", rtt_ms=60, drops=((10, 1),)))
    print(d.report())

CLI: ``python -m obsim.ns2diff --help``. The settings that align the two
simulators are documented in docs/MODEL.md ("Differential testing against
ns-2.35") and in :mod:`obsim.ns2diff.tcl`.
"""

from __future__ import annotations

from .case import MODES, VARIANTS, Case, DumbbellCase
from .compare import Diff, compare
from .run import DumbbellStats, compare_dumbbell, run_diff, run_sides

__all__ = [
    "Case",
    "DumbbellCase",
    "Diff",
    "DumbbellStats",
    "MODES",
    "VARIANTS",
    "compare",
    "compare_dumbbell",
    "run_diff",
    "run_sides",
]

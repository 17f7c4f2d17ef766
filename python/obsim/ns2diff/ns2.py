"""Running ``ns`` (ns-2.35) on a case and reading its trace.

The Tcl (:mod:`obsim.ns2diff.tcl`) writes the packet trace (``trace-all``)
and the sender's traced variables (``$tcp attach``/``$tcp trace``) to one
file, so their lines interleave in event order: the ``r`` line of an ACK at
the sender is followed by the variable assignments its processing made and
the ``+`` lines of what it sent. An ACK event ends where the next event
begins (the next ACK's ``r`` line at the sender, or a timeout, recognised by
the increment of ``nrexmit_``, ns-2's count of retransmission timeouts in
``TcpAgent::timeout``). ns-2 writes the variables' times with 5 decimals and
``cwnd_`` with 3 (``TcpAgent::traceVar``: ``%-8.5f ... %-6.3f``); event
times are taken from the packet trace (microseconds), a timeout's from the
retransmission it sends.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Dict, List, Optional, Sequence, Tuple

from .case import Case, DumbbellCase
from .tcl import dumbbell, single_flow
from .trajectory import State, Trajectory, mark_retransmissions

NS_TIMEOUT_S = 120.0


def ns_binary() -> Optional[str]:
    """The ``ns`` executable on PATH, or None."""
    return shutil.which("ns")


def _run_ns(tcl: str, workdir: str) -> str:
    path = os.path.join(workdir, "case.tcl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(tcl)
    ns = ns_binary()
    if ns is None:
        raise RuntimeError("ns (ns-2.35) is not on PATH: install Debian's ns2 package")
    p = subprocess.run(
        [ns, path], cwd=workdir, capture_output=True, text=True, timeout=NS_TIMEOUT_S, check=False
    )
    if p.returncode != 0:
        raise RuntimeError(f"ns failed ({p.returncode}):\n{p.stderr[-2000:]}\nscript:\n{tcl}")
    return p.stdout


def node_ids(case: Case) -> Tuple[int, int, int]:
    """ns-2 node ids: (sender, loss link's from node, receiver)."""
    if case.topology == "router":
        return 0, 1, 2
    return 0, 0, 1


def parse_trace(lines: Sequence[str], case: Case) -> Trajectory:
    """The trajectory of one ns-2 run, in obsim's numbering."""
    sender, lossfrom, receiver = node_ids(case)
    off = 1 if case.mode == "defaults" else 0  # the SYN is ns-2's segment 0
    cur: Dict[str, float] = {}
    states: List[State] = []
    sends: List[Tuple[float, int]] = []
    link: List[Tuple[float, int]] = []
    pending: Optional[List[object]] = None  # [kind, t, precise]

    def close() -> None:
        if pending is None:
            return
        kind, t, _ = pending
        states.append(
            State(
                t=float(t),  # type: ignore[arg-type]
                kind=kind,  # type: ignore[arg-type]
                cwnd=cur["cwnd_"],
                ssthresh=cur["ssthresh_"],
                snd_una=int(cur["ack_"]) + 1 - off,
                snd_nxt=int(cur["maxseq_"]) + 1 - off,
            )
        )

    for line in lines:
        f = line.split()
        if not f:
            continue
        if f[0] in ("+", "-", "r", "d") and len(f) >= 12:
            ev, t, a, b, typ = f[0], float(f[1]), int(f[2]), int(f[3]), f[4]
            seq = int(f[10]) - off
            if ev == "r" and typ == "ack" and b == sender:
                close()
                pending = ["ack", t, True]
            elif ev == "+" and typ == "tcp" and a == sender:
                if seq >= 0:
                    sends.append((t, seq))
                if pending is not None and not pending[2]:
                    pending[1], pending[2] = t, True
            elif ev in ("r", "d") and typ == "tcp" and a == lossfrom and b == receiver:
                link.append((t, seq))
            continue
        if len(f) == 7:
            name, value = f[5], float(f[6])
            if name == "nrexmit_" and "nrexmit_" in cur and value > cur["nrexmit_"]:
                close()
                pending = ["timeout", float(f[0]), False]
            cur[name] = value
    close()
    return Trajectory(
        "ns-2", states=states, sends=mark_retransmissions(sends), link=link, segments=case.segments
    )


def run_case(case: Case, drop_indices: Sequence[int]) -> Trajectory:
    """Runs ns-2 on ``case`` with the lossy link dropping ``drop_indices``."""
    with tempfile.TemporaryDirectory(prefix="ns2diff-") as wd:
        tr = os.path.join(wd, "out.tr")
        _run_ns(single_flow(case, drop_indices, tr), wd)
        with open(tr, encoding="utf-8") as f:
            return parse_trace(f.read().splitlines(), case)


def run_dumbbell(case: DumbbellCase) -> List[Tuple[int, int, int]]:
    """Per flow: (segments acknowledged, timeouts, retransmitted packets)."""
    with tempfile.TemporaryDirectory(prefix="ns2diff-") as wd:
        out = _run_ns(dumbbell(case), wd)
    off = 1 if case.mode == "defaults" else 0
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            rows.append((int(f[1]) + 1 - off, int(f[2]), int(f[3])))
    return rows

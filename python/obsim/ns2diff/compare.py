"""Comparing two trajectories and reporting the first divergence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from .trajectory import State, Trajectory

CWND_TOL = 0.0005 + 1e-9
"""ns-2 writes ``cwnd_`` with 3 decimals (``TcpAgent::traceVar``): obsim's
cwnd agrees when it rounds to the same value."""
CONTEXT = 4
"""Agreeing events shown before the first divergence."""


def _us(t: Optional[float]) -> Optional[int]:
    return None if t is None else round(t * 1e6)


def _state_diff(a: State, b: State) -> List[str]:
    out = []
    if round(a.t * 1e6) != round(b.t * 1e6):
        out.append("time")
    if a.kind != b.kind:
        out.append("event")
    if abs(a.cwnd - b.cwnd) > CWND_TOL:
        out.append("cwnd")
    if a.ssthresh != b.ssthresh:
        out.append("ssthresh")
    if a.snd_una != b.snd_una:
        out.append("snd_una")
    if a.snd_nxt != b.snd_nxt:
        out.append("snd_nxt")
    return out


@dataclass
class Diff:
    """The comparison of an ns-2 run (``ref``) with an obsim run."""

    ref: Trajectory
    got: Trajectory
    index: Optional[int] = None
    """Index of the first diverging state (None: the sequences agree)."""
    fields: List[str] = field(default_factory=list)
    """What differs there: time, event, cwnd, ssthresh, snd_una, snd_nxt, or
    ``missing`` (one run has no more events)."""
    other: List[str] = field(default_factory=list)
    """The other compared quantities that differ: timeouts, retransmissions,
    retransmitted, completion."""

    @property
    def agrees(self) -> bool:
        """Everything compared agrees."""
        return self.index is None and not self.other

    @property
    def kind(self) -> str:
        """A one-line classification: ``agrees`` or the first divergence."""
        if self.agrees:
            return "agrees"
        if self.index is None:
            return "states agree; differ: " + ", ".join(self.other)
        s = self._at(self.ref, self.index)
        where = f"#{self.index} {s.kind} t={s.t:.6f}" if s else f"#{self.index}"
        return f"{'+'.join(self.fields)} at {where}"

    @staticmethod
    def _at(t: Trajectory, i: int) -> Optional[State]:
        return t.states[i] if i < len(t.states) else None

    def report(self) -> str:
        """The first divergence with the events before it, and the summary
        quantities of both runs."""
        lines = []
        if self.index is not None:
            i = self.index
            lines.append(f"first divergence at event #{i}: {', '.join(self.fields)}")
            for j in range(max(0, i - CONTEXT), i):
                lines.append(f"   both   #{j}: {self.ref.states[j]}")
            for tr in (self.ref, self.got):
                s = self._at(tr, i)
                lines.append(f"   {tr.simulator:6s} #{i}: {s if s else '(no more events)'}")
            for tr in (self.ref, self.got):
                s = self._at(tr, i + 1)
                if s:
                    lines.append(f"   {tr.simulator:6s} #{i + 1}: {s}")
        else:
            lines.append(f"per-event states agree ({len(self.ref.states)} events)")
        for tr in (self.ref, self.got):
            to = ", ".join(f"{t:.6f}" for t in tr.timeouts) or "none"
            rx = ", ".join(f"{s}@{t:.6f}" for t, s in tr.retransmissions[:12])
            more = " ..." if len(tr.retransmissions) > 12 else ""
            comp = f"{tr.completion:.6f}" if tr.completion is not None else "never"
            lines.append(
                f"{tr.simulator:6s}: completion {comp} s; timeouts [{to}]; "
                f"{len(tr.retransmissions)} retransmitted [{rx}{more}]"
            )
        if self.other:
            lines.append("differ: " + ", ".join(self.other))
        return "\n".join(lines)


def compare(ref: Trajectory, got: Trajectory) -> Diff:
    """Compares ``got`` (obsim) with ``ref`` (ns-2)."""
    d = Diff(ref, got)
    n = min(len(ref.states), len(got.states))
    for i in range(n):
        f = _state_diff(ref.states[i], got.states[i])
        if f:
            d.index, d.fields = i, f
            break
    else:
        if len(ref.states) != len(got.states):
            d.index, d.fields = n, ["missing"]
    if [_us(t) for t in ref.timeouts] != [_us(t) for t in got.timeouts]:
        d.other.append("timeouts")
    rr: List[Tuple[Optional[int], int]] = [(_us(t), s) for t, s in ref.retransmissions]
    rg: List[Tuple[Optional[int], int]] = [(_us(t), s) for t, s in got.retransmissions]
    if rr != rg:
        d.other.append("retransmissions")
    if len(rr) != len(rg):
        d.other.append("retransmitted")
    if _us(ref.completion) != _us(got.completion):
        d.other.append("completion")
    return d

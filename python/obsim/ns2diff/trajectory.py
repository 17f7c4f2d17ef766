"""What the harness compares: one simulator's run of a case, as events.

Both sides are reduced to the same shape, in obsim's segment numbering
(the first data segment is 0; ``snd_una`` is the next segment expected,
``snd_nxt`` the highest segment sent plus one):

* ``states``: one :class:`State` after every ACK the sender processed and
  after every retransmission timeout, with what it sent in response;
* ``sends``: every data transmission of the sender (time, seq, whether the
  segment had been sent before);
* ``link``: the data packets that reached the end of the lossy link or were
  lost there, in order (what the drop lists count).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Literal, Optional, Tuple

Kind = Literal["ack", "timeout"]


@dataclass(frozen=True)
class State:
    """The sender after one event."""

    t: float
    kind: Kind
    cwnd: float
    ssthresh: float
    snd_una: int
    snd_nxt: int

    def __str__(self) -> str:
        return (
            f"t={self.t:.6f} {self.kind:7s} cwnd={self.cwnd:g} ssthresh={self.ssthresh:g} "
            f"snd_una={self.snd_una} snd_nxt={self.snd_nxt}"
        )


@dataclass(frozen=True)
class Send:
    """One data transmission at the sender."""

    t: float
    seq: int
    retransmit: bool


@dataclass
class Trajectory:
    """One simulator's run of one case."""

    simulator: str
    states: List[State] = field(default_factory=list)
    sends: List[Send] = field(default_factory=list)
    link: List[Tuple[float, int]] = field(default_factory=list)
    """(time, seq) of each data packet at the end of the lossy link, in the
    order the loss model counts them (index = drop-list index)."""
    segments: int = 0

    @property
    def timeouts(self) -> List[float]:
        """Times of the retransmission timeouts."""
        return [s.t for s in self.states if s.kind == "timeout"]

    @property
    def retransmissions(self) -> List[Tuple[float, int]]:
        """(time, seq) of every retransmitted segment."""
        return [(s.t, s.seq) for s in self.sends if s.retransmit]

    @property
    def completion(self) -> Optional[float]:
        """Time of the first event after which every segment is acknowledged."""
        for s in self.states:
            if s.snd_una >= self.segments:
                return s.t
        return None


def mark_retransmissions(sends: List[Tuple[float, int]]) -> List[Send]:
    """Flags a send as a retransmission when its segment was sent before
    (the same rule for both simulators: ns-2's ``seqno <= maxseq_``)."""
    highest = -1
    out = []
    for t, seq in sends:
        out.append(Send(t, seq, seq <= highest))
        highest = max(highest, seq)
    return out

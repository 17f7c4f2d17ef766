"""What one differential case is: the scenario both simulators run.

A case is one TCP flow over ``sender -> router -> receiver`` (or a direct
``sender -> receiver`` link), a variant, a delayed-ACK setting, a round-trip
time, and a loss process: either a scripted drop list or Bernoulli loss.

Scripted drops name *transmissions*, not packets: ``(seq, n)`` drops the
``n``-th transmission (1-based) of data segment ``seq`` (0-based, obsim's
numbering: the first data segment is 0; ns-2's data segment numbers are the
same without a SYN and one higher with one). ``(5, 1), (5, 2)`` drops segment
5 and its first retransmission. Each simulator resolves the list against its
own packet sequence (:mod:`obsim.ns2diff.drops`), so both lose "the same
segment's same transmission" even where their behaviours differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Optional, Tuple

Variant = Literal["reno", "newreno", "sack"]
Mode = Literal["aligned", "defaults"]
Topology = Literal["router", "direct"]

VARIANTS: Tuple[Variant, ...] = ("reno", "newreno", "sack")
MODES: Tuple[Mode, ...] = ("aligned", "defaults")

ACCESS_RATE_BPS = 100e6
"""Rate of the sender's access link (``topology = "router"``)."""
ACCESS_DELAY_S = 0.001
"""One-way delay of the access link."""
BOTTLENECK_RATE_BPS = 10e6
"""Rate of the router -> receiver link (the direct link's rate)."""


@dataclass(frozen=True)
class Case:
    """One single-flow differential case.

    Attributes:
        variant: ``reno``, ``newreno`` or ``sack`` (ns-2 ``Agent/TCP/Reno``,
            ``Agent/TCP/Newreno``, ``Agent/TCP/Sack1``).
        rtt_ms: the two-way propagation delay in ms (transmission times
            come on top).
        delack: delayed ACKs at the receiver (ns-2 ``TCPSink/DelAck``,
            ``interval_ 100ms``; obsim ``delayed_ack``).
        drops: scripted drops ``(seq, n)``: the ``n``-th transmission of
            data segment ``seq``; empty: no loss.
        mode: ``aligned`` (ns-2 set up to model what obsim models: no SYN)
            or ``defaults`` (ns-2's own defaults, SYN on). Both put ns-2's
            random RTT-tick phase (``boot_time_``) at 0, as obsim's.
        segments: the flow's length in segments of ``mss`` bytes.
        topology: ``router`` (sender -> router -> receiver, the loss on the
            router -> receiver link) or ``direct`` (one link).
        profile: obsim's TCP profile.
        mss: payload bytes per segment (ns-2 ``packetSize_``).
        window: ns-2 ``window_`` = obsim ``max_window``.
        ack_rate_bps: a diagnostic: the links towards the sender (the ACK
            direction) at this rate instead of the forward rate, so that
            ACK-size differences (ns-2's 8 bytes per SACK block) shrink below
            1 µs and what lies behind them shows; None: symmetric links.
        ns2_settings: class defaults ``(class, variable, value)`` set in
            ns-2 before the agents are created, after the mode's own (the
            era cases: ns-2.35 with an older release's values of the
            variables an ``ns2-2004``/``ns2-2003`` profile changes,
            :data:`obsim.ns2diff.matrix.ERA_NS2_SETTINGS`).
        name: a label for reports.
    """

    variant: Variant
    rtt_ms: int = 60
    delack: bool = False
    drops: Tuple[Tuple[int, int], ...] = ()
    mode: Mode = "aligned"
    segments: int = 60
    topology: Topology = "router"
    profile: str = "ns2"
    mss: int = 1000
    window: int = 20
    ack_rate_bps: Optional[float] = None
    ns2_settings: Tuple[Tuple[str, str, str], ...] = ()
    name: str = field(default="", compare=False)

    def with_(self, **kw: object) -> "Case":
        """A copy with the given fields replaced."""
        return replace(self, **kw)  # type: ignore[arg-type]

    @property
    def label(self) -> str:
        """A short id: ``name-variant-rtt-delack-mode``, then the profile
        when it is not ``ns2``."""
        d = "delack" if self.delack else "ackall"
        label = f"{self.name or 'case'}-{self.variant}-{self.rtt_ms}ms-{d}-{self.mode}"
        return label if self.profile == "ns2" else f"{label}-{self.profile}"

    def bottleneck_delay_s(self) -> float:
        """One-way delay of the lossy link so that the path's two-way
        propagation delay is ``rtt_ms``."""
        one_way = self.rtt_ms / 2000.0
        if self.topology == "router":
            return one_way - ACCESS_DELAY_S
        return one_way


@dataclass(frozen=True)
class DumbbellCase:
    """Ten (``flows``) bulk flows over a dumbbell whose bottleneck loses
    data packets with probability ``p`` (after the link, ACKs spared).

    Access links 155 Mb/s, 1 ms; bottleneck 1 Gb/s, 10 ms, unlimited
    buffer: the project's ``scenarios/dumbbell.toml`` with a shorter run.
    Flows start at times drawn uniformly in [0, 1 s] (each simulator its own
    draws); goodput is measured over the whole run.
    """

    variant: Variant
    p: float
    seed: int = 1
    flows: int = 10
    duration_s: float = 20.0
    mode: Mode = "aligned"
    profile: str = "ns2"
    mss: int = 1000
    window: int = 20

"""The ns-2 side of a case: the Tcl scenario.

Every setting that aligns ns-2.35 with obsim is written here, with why
(docs/MODEL.md, "Differential testing against ns-2.35", lists them):

* ``syn_ false`` (aligned mode), with ``tcp.syn = false`` on the obsim side
  (:mod:`obsim.ns2diff.obsim_side`): the data transfer alone. In defaults
  mode the SYN (40 bytes, ns-2 sequence number 0) is sent and data start at
  1, as obsim's ``tcp.syn`` (on in the ``ns2*`` profiles) models it.
* ``delay_growth_ false`` (aligned mode): with it on (the default), the
  first new ACK whose number is 0 resets ``cwnd_`` to ``windowInit_``
  (``TcpAgent::recv``, ``last_ack_ == 0 && delay_growth_``). That ACK is the
  SYN's with a SYN; without one it is the first data segment's, whose
  slow-start increase ns-2 would then undo.
* ``SYN_immediate_ack_ false`` on the sink (aligned mode): ns-2's delayed-ACK
  sink ACKs sequence number 0 at once (``DelAckSink::recv``, meant for the
  SYN); without a SYN that is the first data segment, which obsim's receiver
  delays like any other.
* ``tcpTick_`` tiny while the agent is created (both modes: the phase is
  a random draw, not a default of the era): ns-2's ``TcpAgent::reset``
  draws ``boot_time_ = Random::uniform(tcp_tick_)``, the phase of the RTT
  tick grid, and ``boot_time_`` is not bound to Tcl. With a 1e-8 s tick at
  creation the phase is below 10 ns (a smaller tick overflows
  `int(rttvar_init_ / tcp_tick_)` in `rtt_init` and ns dies of SIGFPE),
  i.e. 0 as in obsim up to 10 ns. ``$ns run`` resets every agent again
  (``Simulator instproc run`` resets the nodes, whose agents redraw
  ``boot_time_`` with their own ``tcp_tick_``), so the agent keeps the tiny
  tick until then and gets the real one by ``$ns at 0.0``, scheduled before
  any application starts. Restoring it right after
  creation, as the harness first did, left a phase of up to one tick
  (10 ms) and parted the two simulators at RTTs of 200 and 300 ms, where
  RTO deadlines fall on the tick grid.
* Header accounting: ns-2's one-way agents add ``tcpip_base_hdr_size_``
  (40 B) to ``packetSize_`` on the wire, as obsim adds ``header`` to ``mss``,
  but only for ``seqno != 0`` (``TcpAgent::output``: the ``seqno == 0``
  branch, meant for the SYN, skips the ``useHeaders_`` addition). Without a
  SYN the first data segment would be 1000 B on the wire, not 1040 B. The
  aligned mode therefore sets ``useHeaders_ false`` and ``packetSize_`` =
  ``mss + 40``: every data packet is 1040 B as in obsim. (Defaults mode:
  segment 0 is the 40-byte SYN and every data segment gets its header.)
* ``window_`` = obsim ``max_window``; the sink has no receive window.
* The loss sits *after* the link (``$ns link-lossmodel``, inserted after the
  link's delay element), as obsim's link loss models; the ``ErrorModel/List``
  drop list counts every packet that crosses the link (0-based), as obsim's
  ``packets`` loss model.
* Buffers hold 1000 packets: no congestion loss in these cases.
* ``Case.ns2_settings`` (the era cases): class defaults set after the
  mode's, before any agent is created, e.g. ``Agent/TCP set minrto_ 1`` for
  the ``ns2-2004`` profile (:data:`obsim.ns2diff.matrix.ERA_NS2_SETTINGS`).
"""

from __future__ import annotations

from typing import Sequence

from .case import ACCESS_DELAY_S, ACCESS_RATE_BPS, BOTTLENECK_RATE_BPS, Case, DumbbellCase

AGENTS = {
    "reno": ("Agent/TCP/Reno", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
    "newreno": ("Agent/TCP/Newreno", "Agent/TCPSink", "Agent/TCPSink/DelAck"),
    "sack": ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1", "Agent/TCPSink/Sack1/DelAck"),
}
"""ns-2 sender, sink and delayed-ACK sink classes per variant."""

TRACED_VARS = ("cwnd_", "ssthresh_", "ack_", "maxseq_", "nrexmit_", "t_seqno_")
"""The sender's traced variables written to the trace file (one line per
assignment, in event order, interleaved with the packet trace)."""

BOOT_TICK_S = 1e-8
"""``tcpTick_`` while the agent is created and reset (both modes): puts
``boot_time_`` below 10 ns."""


def _mbps(bps: float) -> str:
    return f"{bps / 1e6:g}Mb"


HEADER_BYTES = 40
"""ns-2 ``tcpip_base_hdr_size_`` = obsim ``header``."""


def _globals(case_mode: str, mss: int) -> str:
    if case_mode != "aligned":
        return (
            "# ns-2 defaults (Debian ns-2.35 ns-default.tcl) but the segment size\n"
            f"Agent/TCP set packetSize_ {mss}\n"
        )
    return (
        "Agent/TCP set syn_ false\n"
        "Agent/TCP set delay_growth_ false\n"
        "Agent/TCPSink set SYN_immediate_ack_ false\n"
        "Agent/TCP set useHeaders_ false\n"
        f"Agent/TCP set packetSize_ {mss + HEADER_BYTES}\n"
    )


def _link(case: Case, a: str, b: str, rate_bps: float, delay_s: float) -> str:
    """A duplex link, or two simplex links when the ACK direction has its
    own rate (``case.ack_rate_bps``)."""
    ms = f"{delay_s * 1000:.9g}ms"
    if case.ack_rate_bps is None:
        return f"$ns duplex-link {a} {b} {_mbps(rate_bps)} {ms} DropTail"
    return (
        f"$ns simplex-link {a} {b} {_mbps(rate_bps)} {ms} DropTail\n"
        f"$ns simplex-link {b} {a} {_mbps(case.ack_rate_bps)} {ms} DropTail"
    )


def single_flow(case: Case, drop_indices: Sequence[int], trace_path: str) -> str:
    """The Tcl of one single-flow case, dropping the packets at
    ``drop_indices`` on the lossy link; the packet trace and the traced
    variables go, interleaved in event order, to ``trace_path``."""
    sender, sink, delsink = AGENTS[case.variant]
    sink_cls = delsink if case.delack else sink
    d = case.bottleneck_delay_s()
    lines = [
        "set ns [new Simulator]",
        f'set tf [open "{trace_path}" w]',
        "$ns trace-all $tf",
        _globals(case.mode, case.mss),
        *(f"{cls} set {var} {val}" for cls, var, val in case.ns2_settings),
        f"Agent/TCP set window_ {case.window}",
        "set s [$ns node]",
    ]
    if case.topology == "router":
        lines += [
            "set r [$ns node]",
            "set d [$ns node]",
            _link(case, "$s", "$r", ACCESS_RATE_BPS, ACCESS_DELAY_S),
            _link(case, "$r", "$d", BOTTLENECK_RATE_BPS, d),
            "$ns queue-limit $s $r 1000",
            "$ns queue-limit $r $s 1000",
            "set lossfrom $r",
        ]
    else:
        lines += [
            "set d [$ns node]",
            _link(case, "$s", "$d", BOTTLENECK_RATE_BPS, d),
            "set lossfrom $s",
        ]
    lines += [
        "$ns queue-limit $lossfrom $d 1000",
        "$ns queue-limit $d $lossfrom 1000",
    ]
    lines += [
        "set tick [Agent/TCP set tcpTick_]",
        f"Agent/TCP set tcpTick_ {BOOT_TICK_S}",
        f"set tcp [new {sender}]",
        "Agent/TCP set tcpTick_ $tick",
        "$ns at 0.0 [list $tcp set tcpTick_ $tick]",
    ]
    lines += [
        f"set sink [new {sink_cls}]",
        "$ns attach-agent $s $tcp",
        "$ns attach-agent $d $sink",
        "$ns connect $tcp $sink",
    ]
    if drop_indices:
        lines += [
            "set em [new ErrorModel/List]",
            f"$em droplist {{{' '.join(str(i) for i in sorted(drop_indices))}}}",
            "$ns link-lossmodel $em $lossfrom $d",
        ]
    lines.append("$tcp attach $tf")
    lines += [f"$tcp trace {v}" for v in TRACED_VARS]
    lines += [
        "set ftp [$tcp attach-app FTP]",
        # `produce n` makes the agent send segments up to number n - 1
        # without a SYN; with one, data segments are 1..n.
        f"$ns at 0.0 {{$ftp produce {case.segments}}}",
        "$tcp proc done {} { global ns tf; $ns at-now {flush $tf; exit 0} }",
        "$ns at 600.0 {flush $tf; exit 0}",
        "$ns run",
    ]
    return "\n".join(lines) + "\n"


def dumbbell(case: DumbbellCase) -> str:
    """The Tcl of a Bernoulli-loss dumbbell case; prints one line per flow
    at the end: ``flow ack_ nrexmit_ nrexmitpack_`` (last cumulative ACK,
    retransmission timeouts, retransmitted packets)."""
    sender, sink, _ = AGENTS[case.variant]
    n = case.flows
    lines = [
        "set ns [new Simulator]",
        f"$defaultRNG seed {case.seed}",
        _globals(case.mode, case.mss),
        f"Agent/TCP set window_ {case.window}",
        "set r0 [$ns node]",
        "set r1 [$ns node]",
        "$ns duplex-link $r0 $r1 1000Mb 10ms DropTail",
        "$ns queue-limit $r0 $r1 1000000",
        "set em [new ErrorModel]",
        "$em unit pkt",
        f"$em set rate_ {case.p!r}",
        "set rv [new RandomVariable/Uniform]",
        "$rv use-rng [new RNG]",
        "$em ranvar $rv",
        "$em drop-target [new Agent/Null]",
        "$ns link-lossmodel $em $r0 $r1",
        "set start [new RandomVariable/Uniform]",
        "$start set min_ 0",
        "$start set max_ 1",
        "$start use-rng [new RNG]",
        f"for {{set i 0}} {{$i < {n}}} {{incr i}} {{",
        "  set s($i) [$ns node]",
        "  set d($i) [$ns node]",
        "  $ns duplex-link $s($i) $r0 155Mb 1ms DropTail",
        "  $ns duplex-link $r1 $d($i) 155Mb 1ms DropTail",
        "  $ns queue-limit $s($i) $r0 1000",
        "  $ns queue-limit $r1 $d($i) 1000",
    ]
    lines += [
        "  set tick [Agent/TCP set tcpTick_]",
        f"  Agent/TCP set tcpTick_ {BOOT_TICK_S}",
        f"  set tcp($i) [new {sender}]",
        "  Agent/TCP set tcpTick_ $tick",
        "  $ns at 0.0 [list $tcp($i) set tcpTick_ $tick]",
    ]
    lines += [
        f"  set sink($i) [new {sink}]",
        "  $ns attach-agent $s($i) $tcp($i)",
        "  $ns attach-agent $d($i) $sink($i)",
        "  $ns connect $tcp($i) $sink($i)",
        "  set ftp($i) [$tcp($i) attach-app FTP]",
        "  $ns at [$start value] \"$ftp($i) start\"",
        "}",
        f"$ns at {case.duration_s} {{",
        f"  for {{set i 0}} {{$i < {n}}} {{incr i}} {{",
        '    puts "$i [$tcp($i) set ack_] [$tcp($i) set nrexmit_] [$tcp($i) set nrexmitpack_]"',
        "  }",
        "  exit 0",
        "}",
        "$ns run",
    ]
    return "\n".join(lines) + "\n"

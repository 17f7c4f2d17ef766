"""The harness's own parts, without ns-2: the ns-2 trace reader, the drop
resolution, the comparison and the generated Tcl."""

from __future__ import annotations

from typing import List, Sequence

from obsim.ns2diff import Case, compare
from obsim.ns2diff.drops import resolve
from obsim.ns2diff.ns2 import parse_trace
from obsim.ns2diff.tcl import single_flow
from obsim.ns2diff.trajectory import State, Trajectory

# A made-up ns-2 trace of the aligned router topology (node 0 sender, 1
# router, 2 receiver): variables, two data packets, one ACK, a loss, a
# timeout that retransmits segment 1.
TRACE = """\
0.00000  0  0  2  0  cwnd_ 2.000
0.00000  0  0  2  0  ssthresh_ 20
0.00000  0  0  2  0  ack_ -1
0.00000  0  0  2  0  maxseq_ -1
0.00000  0  0  2  0  nrexmit_ 0
+ 0 0 1 tcp 1040 ------- 0 0.0 2.0 0 0
0.00000  0  0  2  0  maxseq_ 0
+ 0 0 1 tcp 1040 ------- 0 0.0 2.0 1 1
0.00000  0  0  2  0  maxseq_ 1
r 0.030896 1 2 tcp 1040 ------- 0 0.0 2.0 0 0
d 0.031728 1 2 tcp 1040 ------- 0 0.0 2.0 1 1
r 0.060950 1 0 ack 40 ------- 0 2.0 0.0 0 2
0.06095  0  0  2  0  ack_ 0
0.06095  0  0  2  0  cwnd_ 3.000
+ 0.06095 0 1 tcp 1040 ------- 0 0.0 2.0 2 3
0.06095  0  0  2  0  maxseq_ 2
3.06095  0  0  2  0  nrexmit_ 1
3.06095  0  0  2  0  ssthresh_ 2
3.06095  0  0  2  0  cwnd_ 1.000
+ 3.060951 0 1 tcp 1040 ------- 0 0.0 2.0 1 4
"""


def test_ns2_trace_reader_splits_events_and_reads_state() -> None:
    tr = parse_trace(TRACE.splitlines(), Case("reno", segments=3))
    assert [s.kind for s in tr.states] == ["ack", "timeout"]
    ack, to = tr.states
    assert (ack.t, ack.cwnd, ack.ssthresh, ack.snd_una, ack.snd_nxt) == (0.06095, 3.0, 20, 1, 3)
    # The timeout's time is the retransmission's (µs), not the variable line's.
    assert (to.t, to.cwnd, to.ssthresh, to.snd_una, to.snd_nxt) == (3.060951, 1.0, 2, 1, 3)
    assert tr.retransmissions == [(3.060951, 1)]
    assert tr.link == [(0.030896, 0), (0.031728, 1)]


def test_ns2_trace_reader_numbers_segments_after_the_syn() -> None:
    tr = parse_trace(TRACE.splitlines(), Case("reno", segments=3, mode="defaults"))
    assert tr.states[0].snd_una == 0 and tr.states[0].snd_nxt == 2
    assert tr.link[0][1] == -1  # ns-2's segment 0 is the SYN


def _fake_run(order: List[int]):  # type: ignore[no-untyped-def]
    """A "simulator" sending segments in ``order`` and, after each drop,
    the dropped segment again at the end (one per RTT of 1 s)."""

    def run(indices: Sequence[int]) -> Trajectory:
        link = []
        queue = list(order)
        i, t = 0, 0.0
        while queue:
            seq = queue.pop(0)
            link.append((t, seq))
            if i in indices:
                queue.append(seq)
            i += 1
            t += 0.4
        return Trajectory("fake", link=link)

    return run


def test_drop_resolution_finds_the_nth_transmission() -> None:
    run = _fake_run([0, 1, 2, 3])
    traj, idx = resolve(run, [(1, 1), (1, 2), (3, 1)], rtt_s=1.0)
    seqs = [s for _, s in traj.link]
    assert seqs == [0, 1, 2, 3, 1, 3, 1]
    assert [seqs[i] for i in idx] == [1, 3, 1]


def test_compare_reports_the_first_divergence_and_agreement() -> None:
    a = Trajectory("ns-2", states=[State(0.1, "ack", 2, 20, 1, 3), State(0.2, "ack", 3, 20, 2, 5)])
    b = Trajectory(
        "obsim", states=[State(0.1, "ack", 2, 20, 1, 3), State(0.2, "ack", 3.25, 20, 2, 5)]
    )
    d = compare(a, b)
    assert not d.agrees and d.index == 1 and d.fields == ["cwnd"]
    assert "first divergence at event #1: cwnd" in d.report()
    # ns-2 prints cwnd_ with 3 decimals: 3.0004 agrees with 3.
    b.states[1] = State(0.2, "ack", 3.0004, 20, 2, 5)
    assert compare(a, b).agrees


def test_aligned_tcl_sets_what_the_docs_say() -> None:
    tcl = single_flow(Case("sack", delack=True, drops=((3, 1),)), [7, 2], "/tmp/x.tr")
    for line in [
        "Agent/TCP set syn_ false",
        "Agent/TCP set delay_growth_ false",
        "Agent/TCPSink set SYN_immediate_ack_ false",
        "Agent/TCP set useHeaders_ false",
        "Agent/TCP set packetSize_ 1040",
        "Agent/TCP set tcpTick_ 1e-08",
        "set sink [new Agent/TCPSink/Sack1/DelAck]",
        "$em droplist {2 7}",
        "$ns link-lossmodel $em $lossfrom $d",
    ]:
        assert line in tcl, line
    defaults = single_flow(Case("reno", mode="defaults"), [], "/tmp/x.tr")
    assert "syn_" not in defaults and "Agent/TCP set packetSize_ 1000" in defaults

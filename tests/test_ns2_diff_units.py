"""The harness's own parts, without ns-2: the ns-2 trace reader, the drop
resolution, the comparison and the generated Tcl."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

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


def test_era_settings_reach_the_tcl() -> None:
    from obsim.ns2diff.matrix import ERA_NS2_SETTINGS, era_cases

    case = era_cases(profiles=["ns2-2003"], drops=["one"], variants=["newreno"])[0]
    tcl = single_flow(case, [], "/tmp/x.tr")
    assert case.ns2_settings == ERA_NS2_SETTINGS["ns2-2003"]
    for line in ["Agent/TCP set minrto_ 1", "Agent/TCP/Newreno set newreno_changes1_ 0"]:
        assert line in tcl and tcl.index(line) < tcl.index("set tcp [new"), line
    assert "minrto_" not in single_flow(Case("newreno"), [], "/tmp/x.tr")


MODEL_MD = Path(__file__).resolve().parents[1] / "docs" / "MODEL.md"
TABLE_HEADING = "### ns-2 behaviours obsim models"
NS2_PROFILES = ("ns2", "ns2-2004", "ns2-2003")


def _table_keys() -> List[Tuple[str, List[object]]]:
    """(key, values) of every row of the ns-2 behaviour table in
    docs/MODEL.md whose key column reads ``key = v`` or ``key = v1 / v2 /
    v3`` (values as a scenario writes them, in backquotes)."""
    text = MODEL_MD.read_text(encoding="utf-8")
    start = text.index(TABLE_HEADING)
    rows = []
    for line in text[start:].splitlines():
        if line.startswith("| behaviour") or line.startswith("|---"):
            continue
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows:
            break
    out = []
    for cells in rows:
        m = re.match(r"`([a-z_.0-9]+)` = (.*)$", cells[5])
        if m is None:
            assert cells[5].startswith("no key"), cells
            continue
        values = [json.loads(v) for v in re.findall(r"`([^`]+)`", m.group(2))]
        assert len(values) in (1, 3), cells[5]
        out.append((m.group(1), values))
    return out


def _resolved_tcp(tcp: Dict[str, Any]) -> Dict[str, Any]:
    from obsim import _core
    from obsim.ns2diff.obsim_side import scenario

    sc = scenario(Case("reno"), [])
    sc["tcp"] = tcp
    resolved: Dict[str, Any] = json.loads(_core.parse_scenario(json.dumps(sc), "json"))
    return resolved["flows"][0]["tcp"]  # type: ignore[no-any-return]


def _field(tcp: Dict[str, Any], key: str) -> Any:
    if key.startswith("rto."):
        return tcp["rto"][key[4:]]
    return tcp["newreno_slow_but_steady" if key == "newreno_timer" else key]


def test_model_table_keys_and_values_are_the_profiles() -> None:
    """Every key the table in docs/MODEL.md names exists, and its value
    there is each ns2* profile's: writing the table's value over the
    profile changes nothing (a value the parser does not accept, such as
    the profile's internal initial_ssthresh 0, must equal the resolved
    field)."""
    keys = _table_keys()
    assert len(keys) >= 30
    for key, values in keys:
        for profile, value in zip(NS2_PROFILES, values * 3 if len(values) == 1 else values):
            base = _resolved_tcp({"profile": profile})
            if key.startswith("rto."):
                over: Dict[str, Any] = {"profile": profile, "rto": {key[4:]: value}}
            else:
                over = {"profile": profile, key: value}
            try:
                got = _field(_resolved_tcp(over), key)
            except Exception:  # the parser rejects it: compare as written
                got = value
            assert got == _field(base, key), (profile, key, value)

"""Running obsim on a case: the scenario built in code, the per-ACK trace
(``[trace] per_ack = true``) and the packet trace (``packets = true``).

The scripted drops use the ``packets`` loss model on the lossy link
(0-based indices of the packets crossing it, as ns-2's ``ErrorModel/List``),
placed after the link as ns-2's ``link-lossmodel``. A timeout is a per-ACK
trace row whose time is not that of an ACK reaching the sender.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence, Tuple

from .. import _core
from ..topologies import dumbbell
from .case import ACCESS_DELAY_S, ACCESS_RATE_BPS, BOTTLENECK_RATE_BPS, Case, DumbbellCase
from .trajectory import State, Trajectory, mark_retransmissions


def _link(a: str, b: str, rate_bps: float, delay_s: float, **kw: Any) -> Dict[str, Any]:
    return {
        "from": a,
        "to": b,
        "rate": f"{rate_bps:g} bit/s",
        "delay": f"{delay_s * 1e9:.0f} ns",
        **kw,
    }


def scenario(case: Case, drop_indices: Sequence[int]) -> Dict[str, Any]:
    """The obsim scenario of ``case`` dropping ``drop_indices`` on the
    lossy link."""
    loss = (
        {"model": "packets", "indices": sorted(drop_indices)}
        if drop_indices
        else {"model": "none"}
    )
    buf = "1000 packets"
    d = case.bottleneck_delay_s()

    def pair(a: str, b: str, rate: float, delay: float, **kw: Any) -> List[Dict[str, Any]]:
        if case.ack_rate_bps is None:
            return [_link(a, b, rate, delay, buffer=buf, **kw)]
        return [
            _link(a, b, rate, delay, buffer=buf, duplex=False, **kw),
            _link(b, a, case.ack_rate_bps, delay, buffer=buf, duplex=False),
        ]

    if case.topology == "router":
        nodes = [{"name": "s", "kind": "host"}, {"name": "r"}, {"name": "d", "kind": "host"}]
        links = pair("s", "r", ACCESS_RATE_BPS, ACCESS_DELAY_S)
        links += pair("r", "d", BOTTLENECK_RATE_BPS, d, loss=loss)
    else:
        nodes = [{"name": "s", "kind": "host"}, {"name": "d", "kind": "host"}]
        links = pair("s", "d", BOTTLENECK_RATE_BPS, d, loss=loss)
    return {
        "name": f"ns2diff {case.label}",
        "simulation": {"duration": "600 s", "stop": "flows_done", "seed": 1},
        "tcp": {
            "profile": case.profile,
            "variant": case.variant,
            "mss": f"{case.mss} B",
            "max_window": case.window,
            "delayed_ack": case.delack,
            # Aligned mode: ns-2 runs with `syn_ false` (obsim.ns2diff.tcl).
            # Defaults mode: the profile's own `syn` (ns-2's `syn_ true`).
            **({"syn": False} if case.mode == "aligned" else {}),
        },
        "nodes": nodes,
        "links": links,
        "flows": [
            {
                "name": "f",
                "from": "s",
                "to": "d",
                "size": f"{case.segments * case.mss} B",
                "start": "0 s",
            }
        ],
        "trace": {"per_ack": True, "packets": True},
    }


def run_case(case: Case, drop_indices: Sequence[int]) -> Trajectory:
    """Runs obsim on ``case`` with the lossy link dropping ``drop_indices``."""
    sc = scenario(case, drop_indices)
    raw = _core.run(json.dumps(sc), "json", None, None)
    lossfrom = "r" if case.topology == "router" else "s"
    pk = raw["packets"]
    ack_times = set()
    sends: List[Tuple[float, int]] = []
    link: List[Tuple[float, int]] = []
    for i, ev in enumerate(pk["event"]):
        kind, frm, to = pk["kind"][i], pk["from"][i], pk["to"][i]
        t = float(pk["time_s"][i])
        if kind == "ack" and ev == "receive" and to == "s":
            ack_times.add(round(t * 1e9))
        elif kind == "data" and ev == "send" and frm == "s":
            sends.append((t, int(pk["seq"][i])))
        if kind in ("data", "syn") and frm == lossfrom and to == "d" and ev in ("receive", "drop"):
            if ev == "receive" or pk["reason"][i] == "loss_model":
                # The SYN (``tcp.syn``) crosses the lossy link as packet 0 and
                # counts in the drop list as in ns-2; seq -1 as ns-2's side
                # numbers it (:func:`obsim.ns2diff.ns2.parse_trace`).
                link.append((t, -1 if kind == "syn" else int(pk["seq"][i])))
    tr = raw["trace"]
    states = []
    for i in range(len(tr["time_s"])):
        t = float(tr["time_s"][i])
        states.append(
            State(
                t=t,
                kind="ack" if round(t * 1e9) in ack_times else "timeout",
                cwnd=float(tr["cwnd"][i]),
                ssthresh=float(tr["ssthresh"][i]),
                snd_una=int(tr["snd_una"][i]),
                snd_nxt=int(tr["snd_nxt"][i]),
            )
        )
    return Trajectory(
        "obsim",
        states=states,
        sends=mark_retransmissions(sends),
        link=link,
        segments=case.segments,
    )


def dumbbell_scenario(case: DumbbellCase) -> Dict[str, Any]:
    """The obsim scenario of a Bernoulli dumbbell case: the project's
    reference dumbbell (:func:`obsim.topologies.dumbbell`) with the case's
    flows, loss, run length, seed and TCP."""
    sc = dumbbell(n=case.flows, p=case.p, duration=f"{case.duration_s} s")
    sc["name"] = "ns2diff dumbbell"
    sc["simulation"]["seed"] = case.seed
    sc["tcp"] = {
        "profile": case.profile,
        "variant": case.variant,
        "mss": f"{case.mss} B",
        "max_window": case.window,
        **({"syn": False} if case.mode == "aligned" else {}),
    }
    return sc


def run_dumbbell(case: DumbbellCase) -> List[Tuple[int, int, int]]:
    """Per flow: (segments acknowledged, timeouts, retransmitted packets)."""
    raw = _core.run(json.dumps(dumbbell_scenario(case)), "json", None, None)
    fl = raw["flows"]
    return [
        (int(fl["segments_delivered"][i]), int(fl["to_events"][i]), int(fl["retransmits"][i]))
        for i in range(len(fl["flow"]))
    ]

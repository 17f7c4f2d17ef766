"""Scenario builders shared by the reproductions (the same topologies as the
files in ``scenarios/``, built as dicts so that an installed package does not
need the repository)."""

from __future__ import annotations

from typing import Any, Dict, List


def access_network(
    *,
    n: int,
    access_rate: str,
    access_delay: str,
    optical_rate: str,
    optical_delay: str,
    p: float,
    timeout: str,
    tcp: Dict[str, Any],
    duration: str,
    warmup: str,
    start: List[str],
    access_buffer: str = "1000 packets",
    selection: str = "per_egress",
    queues: int = 1,
) -> Dict[str, Any]:
    """gurel2008 Fig. 2: sources s_i -> edge O1 ==optical, Bernoulli burst
    loss p== edge O2 -> destinations d_i, one access link per host, ACKs
    bypassing assembly. Access buffers default to 1000 packets, not ns-2's
    `limit_ 50`: with 50, a burst disassembled at the egress (about 90
    segments of one flow for a 5 ms timer at 155 Mbit/s) overflows the egress
    access buffer and goodput collapses for timeouts >= 5 ms, which the
    papers' figures do not show (docs/VALIDATION.md, G1).
    ``nodes[0]`` is the ingress edge O1 and ``links[0]``
    the optical link, so sweeps address ``nodes[0].assembly.*`` and
    ``links[0].burst_loss.p``."""
    assembly: Dict[str, Any] = {"trigger": "timer", "timeout": timeout, "selection": selection, "acks": "bypass"}
    if selection in ("per_egress", "smq", "dmq"):
        assembly["queues"] = queues
    nodes: List[Dict[str, Any]] = [
        {"name": "O1", "kind": "edge", "assembly": assembly},
        {"name": "O2", "kind": "edge", "assembly": {"trigger": "timer", "timeout": timeout}},
    ]
    links: List[Dict[str, Any]] = [
        {
            "from": "O1",
            "to": "O2",
            "kind": "optical",
            "rate": optical_rate,
            "delay": optical_delay,
            "burst_loss": {"p": p, "pattern": "random"},
        }
    ]
    for i in range(n):
        nodes += [{"name": f"s{i}", "kind": "host"}, {"name": f"d{i}", "kind": "host"}]
        links += [
            {"from": f"s{i}", "to": "O1", "rate": access_rate, "delay": access_delay, "buffer": access_buffer},
            {"from": "O2", "to": f"d{i}", "rate": access_rate, "delay": access_delay, "buffer": access_buffer},
        ]
    return {
        "simulation": {"duration": duration, "warmup": warmup},
        "tcp": tcp,
        "nodes": nodes,
        "links": links,
        "flows": [
            {
                "name": "ftp",
                "from": [f"s{i}" for i in range(n)],
                "to": [f"d{i}" for i in range(n)],
                "start": start,
            }
        ],
    }


def shared_access(
    *,
    n_flows: int,
    selection: str,
    queues: int,
    p: float,
    timeout: str,
    tcp: Dict[str, Any],
    duration: str,
    warmup: str,
    start: List[str],
) -> Dict[str, Any]:
    """gonzalez2009 Fig. 1 / Table 1: N_F flows share one 100 Mbit/s, 100 ms
    access link into edge E1; a 2.5 Gbit/s, 100 ms optical link with
    Bernoulli burst loss p leads to edge E2 and a mirrored access link.
    ``nodes[1]`` is the ingress edge, ``links[1]`` the optical link,
    ``flows[0].count`` the number of flows."""
    assembly: Dict[str, Any] = {"trigger": "timer", "timeout": timeout, "selection": selection}
    if selection in ("per_egress", "smq", "dmq"):
        assembly["queues"] = queues
    if selection == "window":
        assembly["thresholds"] = [32, 100]
    return {
        "simulation": {"duration": duration, "warmup": warmup},
        "tcp": tcp,
        "nodes": [
            {"name": "src", "kind": "host"},
            {"name": "E1", "kind": "edge", "assembly": assembly},
            {"name": "E2", "kind": "edge", "assembly": {"trigger": "timer", "timeout": timeout}},
            {"name": "dst", "kind": "host"},
        ],
        "links": [
            {"from": "src", "to": "E1", "rate": "100 Mbit/s", "delay": "100 ms", "buffer": "1000 packets"},
            {
                "from": "E1",
                "to": "E2",
                "kind": "optical",
                "rate": "2.5 Gbit/s",
                "delay": "100 ms",
                "burst_loss": {"p": p, "pattern": "random"},
            },
            {"from": "E2", "to": "dst", "rate": "100 Mbit/s", "delay": "100 ms", "buffer": "1000 packets"},
        ],
        "flows": [{"name": "sack", "from": "src", "to": "dst", "count": n_flows, "start": start}],
        "metrics": {"sample_interval": "700 ms", "throughput_bin": "3 ms"},
    }


def obs_path(
    *,
    access_rate: str,
    assembly_time: str,
    p: float,
    tcp: Dict[str, Any],
    duration: str,
    pattern: str = "random",
) -> Dict[str, Any]:
    """yu2004 §III: sender -> edge E1 -> core C1 -> core C2 -> edge E2 ->
    receiver; 10 Gbit/s, 10 ms optical links; 10 ms access links at
    ``access_rate`` on both sides; burst loss ``p`` on C1 -> C2
    (``links[2].burst_loss.p``); timer assembly ``assembly_time`` at both
    edges (``nodes[1].assembly.timeout``); ACKs bypass assembly."""
    edge = {"trigger": "timer", "timeout": assembly_time}
    optical = {"kind": "optical", "rate": "10 Gbit/s", "delay": "10 ms"}
    return {
        "simulation": {"duration": duration},
        "tcp": tcp,
        "nodes": [
            {"name": "src", "kind": "host"},
            {"name": "E1", "kind": "edge", "assembly": dict(edge)},
            {"name": "C1", "kind": "core"},
            {"name": "C2", "kind": "core"},
            {"name": "E2", "kind": "edge", "assembly": dict(edge)},
            {"name": "dst", "kind": "host"},
        ],
        "links": [
            {"from": "src", "to": "E1", "rate": access_rate, "delay": "10 ms", "buffer": "1000 packets"},
            {"from": "E1", "to": "C1", **optical},
            {"from": "C1", "to": "C2", **optical, "burst_loss": {"p": p, "pattern": pattern}},
            {"from": "C2", "to": "E2", **optical},
            {"from": "E2", "to": "dst", "rate": access_rate, "delay": "10 ms", "buffer": "1000 packets"},
        ],
        "flows": [{"name": "tcp", "from": "src", "to": "dst"}],
    }

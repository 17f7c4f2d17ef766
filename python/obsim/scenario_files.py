"""The shipped scenario files, ``scenarios/*.toml``, each generated from a
builder of :mod:`obsim.topologies` plus the comments that state its
modelling choices: one source of truth per topology.

``python scripts/core_scenarios.py`` writes every file from here (after a
change to a builder or a comment); ``tests/test_scenario_files.py`` checks
that every committed file is exactly what :func:`render` makes of it.

>>> from obsim import scenario_files
>>> [f.file for f in scenario_files.SHIPPED]
>>> print(scenario_files.render(scenario_files.get("dumbbell.toml")))
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Tuple, Union

from . import topologies


@dataclass(frozen=True)
class ScenarioFile:
    """One shipped scenario file: its name in ``scenarios/``, the scenario
    (a builder call) and its comments."""

    file: str
    """File name in ``scenarios/``, e.g. ``"dumbbell.toml"``."""
    build: Callable[[], Dict[str, Any]]
    """The scenario as a dict (a builder of :mod:`obsim.topologies` called
    with this file's parameters)."""
    header: str
    """The comment block at the top of the file: what the scenario models
    and every choice the papers leave open."""
    comments: Mapping[str, str] = field(default_factory=dict)
    """Comments inside the file: a section name (``"links"``, ``"flows"``,
    ...) maps to a comment block above that section; a key path
    (``"tcp.max_window"``, ``"nodes[0].assembly.queues"``) to a note at the
    end of that key's line."""


# --------------------------------------------------------------------------
# TOML text
# --------------------------------------------------------------------------

# Top-level tables written first, in this order; then nodes, links,
# generators and flows; then any other table or array of tables.
_FIRST_TABLES = ("simulation", "tcp", "optical", "metrics")
_ARRAYS = ("links", "generators", "flows")


def _val(v: Any) -> str:
    """``v`` as a TOML value (mappings as inline tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {_val(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write a {type(v).__name__} as TOML")


def _keys(d: Mapping[str, Any], where: str, notes: Mapping[str, str]) -> str:
    lines = []
    for k, v in d.items():
        note = notes.get(f"{where}.{k}")
        lines.append(f"{k} = {_val(v)}" + (f"  # {note}" if note else ""))
    return "\n".join(lines) + "\n"


MIN_REPEAT = 3
"""Fewest consecutive tables written as one ``repeat = N`` table."""

_PLACEHOLDER = "{i}"


def _template(a: Any, b: Any) -> Any:
    """The one template that gives ``a`` for copy 0 and ``b`` for copy 1
    (``{i}`` where their strings differ by "0" against "1"), or ``None``."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        if list(a) != list(b):
            return None
        out = {}
        for k in a:
            t = _template(a[k], b[k])
            if t is None:
                return None
            out[k] = t
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return None
        items = [_template(x, y) for x, y in zip(a, b)]
        return None if any(t is None for t in items) else items
    if isinstance(a, str) and isinstance(b, str):
        if a == b:
            return None if _PLACEHOLDER in a else a
        for at in range(len(a)):
            # a whole number: "s0" -> "s{i}", but not "N10" -> "N1{i}"
            whole = not (at > 0 and a[at - 1].isdigit()) and not (at + 1 < len(a) and a[at + 1].isdigit())
            if a[at] == "0" and whole and a[:at] + "1" + a[at + 1 :] == b:
                t = a[:at] + _PLACEHOLDER + a[at + 1 :]
                return t if t.count(_PLACEHOLDER) == 1 and _substitute(t, 1) == b else None
        return None
    return a if type(a) is type(b) and a == b else None


def _substitute(t: Any, i: int) -> Any:
    """Copy ``i`` of template ``t`` (what the core's ``repeat`` does)."""
    if isinstance(t, Mapping):
        return {k: _substitute(v, i) for k, v in t.items()}
    if isinstance(t, list):
        return [_substitute(v, i) for v in t]
    if isinstance(t, str):
        return t.replace(_PLACEHOLDER, str(i))
    return t


def compact(items: List[Mapping[str, Any]]) -> List[Tuple[Mapping[str, Any], int]]:
    """Consecutive tables that differ only by a copy index 0..N-1 in their
    strings (``s0``, ``s1``, ...), N >= :data:`MIN_REPEAT`, as one table with
    ``repeat = N`` and ``{i}`` (the core's ``repeat``, config/repeat.rs);
    each result with the index of its first table. Expanding the result
    gives ``items`` back."""
    out: List[Tuple[Mapping[str, Any], int]] = []
    k = 0
    while k < len(items):
        t = _template(items[k], items[k + 1]) if k + 1 < len(items) else None
        n = 0
        if t is not None and any(_PLACEHOLDER in json.dumps(v) for v in t.values()):
            while k + n < len(items) and _substitute(t, n) == items[k + n]:
                n += 1
        if n >= MIN_REPEAT:
            out.append(({**t, "repeat": n}, k))
            k += n
        else:
            out.append((items[k], k))
            k += 1
    return out


def expand(doc: Mapping[str, Any]) -> Dict[str, Any]:
    """``doc`` with every ``repeat = N`` table written out (for tests and
    readers of the files; the core does this itself)."""
    out = dict(doc)
    for key in ("nodes", "links", "flows", "traffic"):
        if isinstance(doc.get(key), list):
            items: List[Any] = []
            for item in doc[key]:
                if isinstance(item, Mapping) and "repeat" in item:
                    body = {k: v for k, v in item.items() if k != "repeat"}
                    items.extend(_substitute(body, i) for i in range(int(item["repeat"])))
                else:
                    items.append(item)
            out[key] = items
    return out


def _table_array(key: str, items: List[Mapping[str, Any]], notes: Mapping[str, str]) -> List[str]:
    """``[[key]]`` blocks, runs of like tables as one ``repeat`` table
    (:func:`compact`; notes keyed by the first table's index apply); a
    node's tables become ``[nodes.NAME]`` subtables."""
    blocks = []
    for item, i in compact(items):
        where = f"{key}[{i}]"
        if key == "nodes":
            flat = {k: v for k, v in item.items() if not isinstance(v, Mapping)}
            text = f"[[{key}]]\n" + _keys(flat, where, notes)
            for k, v in item.items():
                if isinstance(v, Mapping):
                    text += f"[{key}.{k}]\n" + _keys(v, f"{where}.{k}", notes)
        else:
            text = f"[[{key}]]\n" + _keys(item, where, notes)
        blocks.append(text)
    return blocks


def to_toml(sc: Mapping[str, Any], header: str = "", comments: Mapping[str, str] = {}) -> str:
    """The scenario ``sc`` as TOML text, with ``header`` on top and the
    section comments and key notes of ``comments`` (see
    :attr:`ScenarioFile.comments`). ``tomllib.loads`` of the text is ``sc``
    (less empty arrays of tables)."""
    out = [header, f"name = {_val(sc['name'])}\n"]
    rest = [k for k in sc if k not in ("name", *_FIRST_TABLES, "nodes", *_ARRAYS)]
    for key in (*_FIRST_TABLES, "nodes", *_ARRAYS, *rest):
        if key not in sc:
            continue
        value = sc[key]
        comment = comments.get(key, "")
        if isinstance(value, Mapping):
            out.append(comment + f"[{key}]\n" + _keys(value, key, comments))
        elif isinstance(value, list) and all(isinstance(x, Mapping) for x in value):
            out.append(comment.rstrip("\n"))
            out.extend(_table_array(key, value, comments))
        else:
            raise TypeError(f"top-level key {key!r}: expected a table or an array of tables")
    return "\n".join(x for x in out if x)


def render(f: ScenarioFile) -> str:
    """The text of the shipped file ``f``."""
    return to_toml(f.build(), f.header, f.comments)


# --------------------------------------------------------------------------
# The shipped files
# --------------------------------------------------------------------------

DUMBBELL_HEADER = """\
# The reference scenario of the project: a dumbbell with 10 bulk Reno flows
# sharing a 1 Gbit/s, 10 ms bottleneck with Bernoulli loss p = 0.001.
#
#   s0..s9 --155 Mbit/s, 1 ms--> r0 ==1 Gbit/s, 10 ms, p = 0.001==> r1 --155 Mbit/s, 1 ms--> d0..d9
#
# Buffers: the access links get 1000 packets, far more than one flow's
# backlog can fill at 155 Mbit/s when the loss on the bottleneck keeps each
# window small, so (almost) all loss is the Bernoulli loss of the bottleneck.
# The bottleneck itself is "unlimited": the point of this scenario is
# random loss, not congestion loss. Change either to study drop-tail effects.
"""

SINGLE_FLOW_HEADER = """\
# One bulk flow over a 3-link path, lossless, 5 simulated seconds. Small and
# fast: the engine's end-to-end tests use it.
#
#   h0 --100 Mbit/s, 1 ms--> r0 --10 Mbit/s, 10 ms--> r1 --100 Mbit/s, 1 ms--> h1
"""

GUREL_ACCESS_HEADER = """\
# gurel2008 Fig. 2 (also gonzalez2009 Fig. 1): the access-network scenario.
# N = 10 FTP sources s_i reach destinations d_i through one optical link
# O1 -> O2 between two OBS edge nodes. Bursts O1 -> O2 are lost with
# probability p (Bernoulli, standing for contention in the core); the
# reverse optical direction and the access links are lossless, and ACKs
# cross the optical link unassembled (gurel2008 §3).
#
#   s0..s9 --155 Mbit/s, 1 ms--> O1 ==1 Gbit/s, 10 ms, p==> O2 --155 Mbit/s, 1 ms--> d0..d9
#
# gurel2008 §3: N = 10, B_a = 155 Mbit/s, T_a = 1 ms, B_o = 1 Gbit/s,
# T_o = 10 ms, MSS 1040 B, rwnd 10 000 MSS; timer assembly, M burstifiers per
# egress. Unstated there, chosen here: access buffers of 1000 packets
# (large enough that burst loss, not drop-tail, limits the windows; ns-2's
# default of 50 drops disassembled bursts at the egress and makes goodput
# collapse for timeouts >= 5 ms, unlike the paper's Figs. 3-8), starts
# uniform in [0, 1 s], ns-2 TCP defaults of the time (profile "ns2").
"""

GUREL_CHAIN_HEADER = """\
# gurel2008 §4, Fig. 10: TCP over a chain of OBS nodes with a background
# burst generator, built so that burst losses depend on burst length
# (LAUC-VF void filling, Fig. 11) and on the residual offset.
#
#   S1..S20 --50 Mbit/s, 1 ms--> I ==\\
#                                     C0 ==> E1 ==> E2 ==> E3 ==> E4 ==> E5
#   background bursts ---------> B ==/      |      |      |      |      |
#                                         D1-D4  D5-D8  D9-D12 D13-D16 D17-D20
#   (== optical, 1 Gbit/s, 2.5 ms, 1 wavelength; Ek --50 Mbit/s, 1 ms--> Dj)
#
# From the paper (§4): N = 20 infinite FTP flows Si -> Di; 5 egress nodes
# with 4 destinations each; every optical link 1 Gbit/s, 2.5 ms; access links
# 50 Mbit/s, 1 ms; LAUC-VF at the optical nodes; one background generator,
# Poisson arrivals with 1/λ = 2 ms, exponential lengths with 1/μ = 200 µs,
# destinations uniform over the 5 egress nodes; Δ = 50 µs per node; timer
# assembly, T = 10 ms and M = 1 burstifier per egress for Fig. 11.
#
# The figure is not in the text; chosen here (docs/VALIDATION.md, "G3"):
# - The chain: the egress nodes E1..E5 lie on it and switch the bursts to
#   the farther egresses (Figs. 12-13 call the nearest and farthest egress
#   "node 3" and "node 7": I, B, C0 would be nodes 0-2, E1..E5 nodes 3-7).
#   The offset of a burst to Ek is (k + 1)Δ (C0, E1..Ek).
# - The background generator sits at its own edge B joined to C0, where its
#   bursts meet the TCP bursts: every burst crosses C0 -> E1 (background
#   load 200 µs / 2 ms = 0.1 erlang there, 0.08 on E1 -> E2, ... 0.02 on
#   E4 -> E5). At C0 a burst to E1 has residual offset Δ and one to E5 has
#   5Δ: the nearest egress must fit into the voids left by bursts reserved
#   earlier for later times, so its loss grows with its length; the
#   farthest egress reserves furthest ahead and its loss does not depend on
#   its length. With one wavelength, bursts that passed C0 never overlap
#   again: C0 -> E1 is the only contention point.
# - 1 wavelength per fibre (B_o = 1 Gbit/s is the fibre's rate).
# - TCP: Reno, MSS 1040 B, rwnd 10 000 MSS as in §3 (G1); ns-2 defaults of
#   2006-2008 (profile "ns2").
# - Access buffers 1000 packets (as G1: ns-2's 50 drops disassembled bursts).
# - Flows start uniformly in [0, 1] s; 100 s runs with 10 s warm-up.
# - Flow ids 0..19 in order S1..S20, mapped to burstifier (id mod M).
# - ACKs bypass assembly; the reverse direction has no background traffic.
"""

GUREL_CHAIN_COMMENTS = {
    "optical": "# Δ per node, LAUC-VF everywhere; conversion is moot with one wavelength.\n",
    "metrics": "# Fig. 11: bursts of 1-60 packets in 10 bins of 6 packets.\n",
    "nodes": "# I: ingress edge (assembly); B: background edge; C0: core; E1..E5: egress edges on the chain.\n",
    "links": "# Optical: I -> C0, B -> C0, the chain C0 -> E1 -> ... -> E5; then access links.\n",
    "generators": "# Background bursts (§4): Poisson, 1/λ = 2 ms, exponential, 1/μ = 200 µs\n"
    "# (25 000 B at 1 Gbit/s), uniform over the 5 egress nodes.\n",
    "flows": "# One group per egress (the flows table's `group` column): D1-D4 -> E1, ... D17-D20 -> E5.\n",
}

GONZALEZ_ACCESS_HEADER = """\
# gonzalez2009 Fig. 1 / Table 1: an access network over a single optical
# link. N_F TCP SACK flows share one 100 Mbit/s access link into the ingress
# edge E1; a 2.5 Gbit/s optical link with Bernoulli burst loss p = 0.001
# leads to the egress edge E2. Timer assembly T_MAX = 3 ms, W_M = 128 MSS,
# starts uniform in [0, 50] s, cwnd sampled every 0.7 s, 600 s runs.
#
#   src ==100 Mbit/s, 100 ms==> E1 ==2.5 Gbit/s, 100 ms, p==> E2 ==100 Mbit/s, 100 ms==> dst
#
# Unstated in the paper, chosen here: the destination side mirrors the
# access link (100 Mbit/s, 100 ms); access buffers of 1000 packets; MSS is
# ns-2's default packetSize_ (1000 B of payload); ns-2 TCP defaults of the
# time (profile "ns2"); statistics after the last start (warm-up 50 s).
# selection = "mixed_flow" is MF; use "per_flow" (PF) or "smq" with
# queues = 2 (SMQ) or "dmq" to compare (gonzalez2009 §3-4).
"""

GONZALEZ_PER_FLOW_HEADER = """\
# gonzalez2009 §3, Fig. 1 / Table 1, as the S1 and S2 reproductions build it
# (obsim.topologies.per_flow_access; s1_gonzalez2009.ACCESS):
# N_F = 15 SACK flows, each from its own source s_i to its own destination
# d_i over 100 ms access links of 100 Mbit/s / N_F ("an access bandwidth of
# 100 Mbit/s, shared by all flows ... their share ... decreases", §3), a
# 2.5 Gbit/s, 100 ms optical link E1 -> E2 with Bernoulli burst loss
# p = 0.001, timer assembly T_MAX = 3 ms (mixed flow), W_M = 128 MSS, starts
# uniform in [0, 50] s, cwnd sampled every 0.7 s, 600 s runs.
# scenarios/gonzalez2009_access.toml is the other reading: all flows behind
# one 100 Mbit/s FIFO access link (docs/VALIDATION.md, S1).
"""

NSFNET_HEADER = """\
# NSFNET with an optical core and Poisson background bursts: 14 nodes, 8 edge
# and 6 core (gonzalez2009 §4, ramantas2007 §3), W = 2 wavelengths of
# 10 Gbit/s per fibre (gonzalez2009; ramantas2007 uses 1).
#
# The papers name the topology, not its links: this is the usual 14-node,
# 21-link NSFNET T1 graph with its usual link lengths in km, propagation
# 5 µs per km. Sources (docs/SCENARIOS.md, "NSFNET"): the km matrix of the
# public repository xiaoliangchenUCD/DeepRMSA (NSF.m), less its 22nd link
# N7-N10; so reduced it is the 21-link NSFNET of lasseufpa/robust-ndt
# (physical_twin/topologies/nsfnet_14.gml) up to node numbering.
# Edge nodes (they also switch transit bursts): N1, N3, N5, N7, N10, N11,
# N12, N14; core nodes: N2, N4, N6, N8, N9, N13 (the papers do not say
# which: of the 3003 choices, the one whose least-used core is on the most
# edge-to-edge routes, then with the most such routes through cores).
#
# Traffic: every edge sends Poisson bursts to every other edge (uniformly),
# exponential lengths of mean 1/μ = 100 µs (125 000 B at 10 Gbit/s). Load ρ:
# the offered load of each edge in erlangs per wavelength of one fibre,
# ρ = λ / (μ W): here ρ = 0.5, 1/λ = 100 µs (10 000 bursts/s per edge). An
# edge spreads its bursts over its 2-4 fibres by route; core fibres carry
# the transit (routing by least delay).
# Switches: Δ = 10 µs per node (the papers give none), LAUC-VF, full
# wavelength conversion; edges queue their own bursts without loss
# (edge_queue = "unlimited"). No TCP flows: the optical core alone (N1).
"""

NSFNET_COMMENTS = {
    "optical": "# Δ, scheduler and wavelength conversion of every node (conversion = \"none\" or\n"
    "# \"partial\" with converters = k change the N1 loss curve).\n",
    "nodes": "# N1..N14: the NSFNET nodes, 8 edge and 6 core.\n",
    "links": "# The 21 NSFNET links (km x 5 µs).\n",
    "generators": "# One generator per edge, to every other edge: ρ = 0.5.\n",
}

YU_PATH_HEADER = """\
# yu2004 §III: the 4-node OBS path (2 edge + 2 core nodes), 10 Gbit/s
# optical links of 10 ms, 10 ms access links, 1 KB packets. One "medium"
# flow: 125 KB/s (1 Mbit/s) access, burst assembly time T_b = 40 ms,
# maximum window W = 40. Bursts crossing C1 -> C2 are lost with probability
# p (yu2004 §III: random, evenly spaced, or batches of 4).
#
#   src --1 Mbit/s, 10 ms--> E1 ==10G, 10 ms==> C1 ==10G, 10 ms, p==> C2 ==10G, 10 ms==> E2 --10 ms--> dst
#
# The fast flow of yu2004 uses 1 MB/s (8 Mbit/s) access and T_b = 0.2 s.
# Unstated, chosen here: ns-2 TCP defaults of early 2003 (profile "ns2-2003"),
# access buffers large enough not to drop, lossless reverse path with ACKs
# bypassing assembly.
"""

YU_LOSSY_ACCESS_HEADER = """\
# yu2004 §V.B.2 (Table V, reproduction Y5): lossy IP access networks, a
# lossless OBS network. A fast Reno flow (1 MB/s, W_m = 10, 1 KB packets)
# crosses the §III path; each access network is one 1 MB/s, 10 ms drop-tail
# link (ns-2 limit_ 50) that it shares with cross traffic staying inside that
# access network: 2 exponential on/off UDP sources (0.5 s on / 0.5 s off,
# 4 Mbit/s while on) and 2 Reno FTP flows (window 20).
#
#   src, xs0, xs1 --> As --1 MB/s, 10 ms, 50 pkts--> E1 ==> C1 ==> C2 ==> E2 --1 MB/s, 10 ms, 50 pkts--> Ad --> dst, yd0, yd1
#                                                     |                    |
#                                                ys0, ys1 (sinks)    xd0, xd1 (sources)
#
# Host links: 1 MB/s, 0 ms, 1000 packets. Optical links: 10 Gbit/s, 10 ms,
# lossless; timer assembly T_b at E1 and E2; ACKs bypass assembly.
#
# Set flows[0].tcp.fto_detection = "ble" for Burst TCP. Every choice the paper
# leaves open is listed in python/obsim/reproductions/y5_yu2004.py and
# docs/VALIDATION.md (Y5). Generated from lossy_access_path(T_b = 40 ms).
"""

DUMBBELL_COMMENTS = {
    "tcp.max_window": "W_M: large, so rwnd and the network limit the window",
    "flows": "# Ten flows, s_i -> d_i (ids 0..9 in this order), each starting at a time\n"
    "# drawn uniformly in [0, 1 s] from its own RNG stream.\n",
}

GUREL_ACCESS_COMMENTS = {
    "nodes[0].assembly.queues": "M: 1 = one burstifier per egress (mixed flow); 10 = per flow here",
}


def _gurel2008_access() -> Dict[str, Any]:
    sc = topologies.gurel_access(p=0.001, duration="100 s", warmup="10 s")
    sc["name"] = "gurel2008-access"
    sc["simulation"]["seed"] = 1
    return sc


def _gonzalez2009_access() -> Dict[str, Any]:
    sc = topologies.shared_access(
        n_flows=15,
        selection="mixed_flow",
        queues=1,
        p=0.001,
        timeout="3 ms",
        tcp={"profile": "ns2", "variant": "sack", "max_window": 128},
        duration="600 s",
        warmup="50 s",
        start=["0 s", "50 s"],
    )
    sc["name"] = "gonzalez2009-access"
    sc["simulation"]["seed"] = 1
    return sc


def _gonzalez2009_per_flow_access() -> Dict[str, Any]:
    sc = topologies.per_flow_access(
        n_flows=15,
        hosts=15,
        selection="mixed_flow",
        p=0.001,
        timeout="3 ms",
        tcp={"profile": "ns2", "variant": "sack", "max_window": 128},
        duration="600 s",
        warmup="50 s",
        start=["0 s", "50 s"],
    )
    sc["name"] = "gonzalez2009-per-flow-access"
    return sc


def _nsfnet() -> Dict[str, Any]:
    sc = topologies.nsfnet(duration="20 s", warmup="1 s")
    sc["simulation"]["seed"] = 1
    return sc


def _yu2004_path() -> Dict[str, Any]:
    sc = topologies.obs_path(
        access_rate="1 Mbit/s",
        assembly_time="40 ms",
        p=0.01,
        tcp={"profile": "ns2-2003", "variant": "reno", "mss": "1000 B", "max_window": 40},
        duration="200 s",
    )
    sc["name"] = "yu2004-path"
    sc["simulation"]["seed"] = 1
    sc["flows"][0]["name"] = "medium"
    sc["trace"] = {"seq": True, "cwnd": True}
    return sc


def _yu2004_lossy_access() -> Dict[str, Any]:
    # The Y5 reproduction's topology, with its parameters (y5_yu2004).
    from .reproductions.y5_yu2004 import lossy_access_path

    return lossy_access_path(assembly_time="40 ms", duration="300 s")


SHIPPED: Tuple[ScenarioFile, ...] = (
    ScenarioFile("dumbbell.toml", topologies.dumbbell, DUMBBELL_HEADER, DUMBBELL_COMMENTS),
    ScenarioFile("gonzalez2009_access.toml", _gonzalez2009_access, GONZALEZ_ACCESS_HEADER),
    ScenarioFile(
        "gonzalez2009_per_flow_access.toml", _gonzalez2009_per_flow_access, GONZALEZ_PER_FLOW_HEADER
    ),
    ScenarioFile("gurel2008_access.toml", _gurel2008_access, GUREL_ACCESS_HEADER, GUREL_ACCESS_COMMENTS),
    ScenarioFile("gurel2008_chain.toml", topologies.gurel_chain, GUREL_CHAIN_HEADER, GUREL_CHAIN_COMMENTS),
    ScenarioFile("nsfnet.toml", _nsfnet, NSFNET_HEADER, NSFNET_COMMENTS),
    ScenarioFile("single_flow.toml", topologies.single_flow, SINGLE_FLOW_HEADER),
    ScenarioFile("yu2004_lossy_access.toml", _yu2004_lossy_access, YU_LOSSY_ACCESS_HEADER),
    ScenarioFile("yu2004_path.toml", _yu2004_path, YU_PATH_HEADER),
)
"""Every file of ``scenarios/``, by name."""


def get(file: str) -> ScenarioFile:
    """The shipped file called ``file`` (e.g. ``"nsfnet.toml"``)."""
    for f in SHIPPED:
        if f.file == file:
            return f
    raise KeyError(f"no shipped scenario {file!r}; known: {', '.join(f.file for f in SHIPPED)}")


def write_all(directory: Union[str, "Path"]) -> List[Path]:
    """Write every shipped file into ``directory``; return their paths."""
    out = []
    for f in SHIPPED:
        path = Path(directory) / f.file
        path.write_text(render(f), encoding="utf-8")
        out.append(path)
    return out


__all__ = ["SHIPPED", "ScenarioFile", "get", "render", "to_toml", "write_all"]

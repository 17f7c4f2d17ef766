"""Writes scenarios/gurel2008_chain.toml, scenarios/nsfnet.toml and
scenarios/gonzalez2009_per_flow_access.toml from their
Python builders (obsim.topologies), with the comments that
state every modelling choice. tests/test_reproductions_core.py checks that
the files and the builders agree; run this after changing a builder:

    python scripts/core_scenarios.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

from obsim.topologies import gurel_chain, nsfnet, per_flow_access

ROOT = Path(__file__).resolve().parent.parent

CHAIN_HEADER = """\
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

CHAIN_COMMENTS = {
    "optical": "# Δ per node, LAUC-VF everywhere; conversion is moot with one wavelength.\n",
    "metrics": "# Fig. 11: bursts of 1-60 packets in 10 bins of 6 packets.\n",
    "nodes": "# I: ingress edge (assembly); B: background edge; C0: core; E1..E5: egress edges on the chain.\n",
    "links": "# Optical: I -> C0, B -> C0, the chain C0 -> E1 -> ... -> E5; then access links.\n",
    "generators": "# Background bursts (§4): Poisson, 1/λ = 2 ms, exponential, 1/μ = 200 µs\n"
    "# (25 000 B at 1 Gbit/s), uniform over the 5 egress nodes.\n",
    "flows": "# One group per egress (the flows table's `group` column): D1-D4 -> E1, ... D17-D20 -> E5.\n",
}

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


GONZALEZ_HEADER = """\
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


def _val(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_val(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def _keys(d: Dict[str, Any]) -> str:
    return "\n".join(f"{k} = {_val(v)}" for k, v in d.items()) + "\n"


def emit(sc: Dict[str, Any], header: str, comments: Dict[str, str]) -> str:
    out = [header, f"name = {_val(sc['name'])}\n"]
    for key in ("simulation", "tcp", "optical", "metrics"):
        if key in sc:
            out.append(comments.get(key, "") + f"[{key}]\n" + _keys(sc[key]))
    out.append(comments.get("nodes", "").rstrip("\n"))
    for n in sc["nodes"]:
        flat = {k: v for k, v in n.items() if not isinstance(v, dict)}
        text = "[[nodes]]\n" + _keys(flat)
        for k, v in n.items():
            if isinstance(v, dict):
                text += f"[nodes.{k}]\n" + _keys(v)
        out.append(text)
    for section in ("links", "generators", "flows"):
        out.append(comments.get(section, "").rstrip("\n"))
        for item in sc.get(section, []):
            out.append(f"[[{section}]]\n" + _keys(item))
    return "\n".join(x for x in out if x)


def main() -> None:
    (ROOT / "scenarios" / "gurel2008_chain.toml").write_text(emit(gurel_chain(), CHAIN_HEADER, CHAIN_COMMENTS))
    sc = nsfnet(duration="20 s", warmup="1 s")
    sc["simulation"]["seed"] = 1
    (ROOT / "scenarios" / "nsfnet.toml").write_text(emit(sc, NSFNET_HEADER, NSFNET_COMMENTS))
    sc = per_flow_access(
        n_flows=15, hosts=15, selection="mixed_flow", p=0.001, timeout="3 ms",
        tcp={"profile": "ns2", "variant": "sack", "max_window": 128},
        duration="600 s", warmup="50 s", start=["0 s", "50 s"],
    )
    sc["name"] = "gonzalez2009-per-flow-access"
    (ROOT / "scenarios" / "gonzalez2009_per_flow_access.toml").write_text(emit(sc, GONZALEZ_HEADER, {}))


if __name__ == "__main__":
    main()

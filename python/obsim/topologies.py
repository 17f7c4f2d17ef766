"""The topologies of obsim's scenarios, built as dicts: the reproductions'
experiments start from them, and every shipped ``scenarios/*.toml`` file is
generated from them (:mod:`obsim.scenario_files`, written by
``scripts/core_scenarios.py``), so an installed package does not need the
repository and each topology is written once.

>>> from obsim import topologies
>>> obsim.run(topologies.gurel_chain(), seed=1)
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple


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


def gurel_access(
    *, p: float, duration: str, warmup: str, access_buffer: str = "1000 packets"
) -> Dict[str, Any]:
    """gurel2008 §3 (Fig. 2) with the paper's parameters: N = 10 Reno FTP
    flows, B_a = 155 Mbit/s, T_a = 1 ms, B_o = 1 Gbit/s, T_o = 10 ms, MSS
    1040 B, receive windows 10 000 MSS, ns-2 defaults (``ns2``), Bernoulli
    burst loss ``p``, timer assembly 1 ms, starts uniform in [0, 1] s.
    ``access_buffer``: the drop-tail limit of the access links (the paper
    states none; §3 says they are lossless)."""
    return access_network(
        access_buffer=access_buffer,
        n=10,
        access_rate="155 Mbit/s",
        access_delay="1 ms",
        optical_rate="1 Gbit/s",
        optical_delay="10 ms",
        p=p,
        timeout="1 ms",
        tcp={"profile": "ns2", "variant": "reno", "mss": "1040 B", "rwnd": 10000, "max_window": 10000},
        duration=duration,
        warmup=warmup,
        start=["0 s", "1 s"],
    )


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
    access_buffer: str = "1000 packets",
) -> Dict[str, Any]:
    """gonzalez2009 Fig. 1 / Table 1: N_F flows share one 100 Mbit/s, 100 ms
    access link into edge E1; a 2.5 Gbit/s, 100 ms optical link with
    Bernoulli burst loss p leads to edge E2 and a mirrored access link.
    ``nodes[1]`` is the ingress edge, ``links[1]`` the optical link,
    ``flows[0].count`` the number of flows. ``access_buffer``: the drop-tail
    limit of both access links (the paper states none)."""
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
            {"from": "src", "to": "E1", "rate": "100 Mbit/s", "delay": "100 ms", "buffer": access_buffer},
            {
                "from": "E1",
                "to": "E2",
                "kind": "optical",
                "rate": "2.5 Gbit/s",
                "delay": "100 ms",
                "burst_loss": {"p": p, "pattern": "random"},
            },
            {"from": "E2", "to": "dst", "rate": "100 Mbit/s", "delay": "100 ms", "buffer": access_buffer},
        ],
        "flows": [{"name": "sack", "from": "src", "to": "dst", "count": n_flows, "start": start}],
        "metrics": {"sample_interval": "700 ms", "throughput_bin": "3 ms"},
    }


def per_flow_access(
    *,
    n_flows: int,
    hosts: int,
    selection: str,
    p: float,
    timeout: str,
    tcp: Dict[str, Any],
    duration: str,
    warmup: str,
    start: List[str],
    access_rate_bps: int = 100_000_000,
    access_buffer: str = "1000 packets",
) -> Dict[str, Any]:
    """gonzalez2009 Fig. 1 with the access bandwidth *shared out*: each of
    the N_F flows has its own source and destination host, each on its own
    100 ms access link of ``access_rate_bps / n_flows`` bit/s (gonzalez2009
    §3: "an access bandwidth of 100 Mbit/s, shared by all flows ... as the
    number of active flows increases, their share ... decreases"; §3.1:
    "due to the constant access rate selected, the segment transmission
    rate of each flow decreases as the number of flows increases").
    ``hosts`` >= ``n_flows`` source/destination pairs are declared (the
    unused ones idle), so that scenarios for several N_F share their nodes.
    Indices as in :func:`shared_access`: ``nodes[1]`` = E1, ``nodes[2]`` =
    E2, ``links[1]`` = the optical link, ``flows[0]`` the flow group.
    ``access_buffer``: the drop-tail limit of every access link."""
    assembly: Dict[str, Any] = {"trigger": "timer", "timeout": timeout, "selection": selection}
    nodes: List[Dict[str, Any]] = [
        {"name": "s0", "kind": "host"},
        {"name": "E1", "kind": "edge", "assembly": assembly},
        {"name": "E2", "kind": "edge", "assembly": {"trigger": "timer", "timeout": timeout}},
        {"name": "d0", "kind": "host"},
    ]
    for i in range(1, hosts):
        nodes += [{"name": f"s{i}", "kind": "host"}, {"name": f"d{i}", "kind": "host"}]
    return {
        "simulation": {"duration": duration, "warmup": warmup},
        "tcp": tcp,
        "nodes": nodes,
        "links": per_flow_access_links(n_flows, hosts, p, access_rate_bps, access_buffer),
        "flows": per_flow_access_flows(n_flows, start),
        "metrics": {"sample_interval": "700 ms", "throughput_bin": "3 ms"},
    }


def per_flow_access_links(
    n_flows: int,
    hosts: int,
    p: float,
    access_rate_bps: int = 100_000_000,
    access_buffer: str = "1000 packets",
) -> List[Dict[str, Any]]:
    """The links of :func:`per_flow_access` for N_F = ``n_flows``."""
    rate = f"{access_rate_bps // n_flows} bit/s"

    def access(a: str, b: str) -> Dict[str, Any]:
        return {"from": a, "to": b, "rate": rate, "delay": "100 ms", "buffer": access_buffer}

    links = [
        access("s0", "E1"),
        {"from": "E1", "to": "E2", "kind": "optical", "rate": "2.5 Gbit/s", "delay": "100 ms", "burst_loss": {"p": p, "pattern": "random"}},
        access("E2", "d0"),
    ]
    for i in range(1, hosts):
        links += [access(f"s{i}", "E1"), access("E2", f"d{i}")]
    return links


def per_flow_access_flows(n_flows: int, start: List[str]) -> List[Dict[str, Any]]:
    """The flow group of :func:`per_flow_access`: flow i from s_i to d_i."""
    return [
        {
            "name": "sack",
            "from": [f"s{i}" for i in range(n_flows)],
            "to": [f"d{i}" for i in range(n_flows)],
            "start": start,
        }
    ]


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


def gurel_chain(
    *,
    timeout: str = "10 ms",
    queues: int = 1,
    processing: str = "50 us",
    variant: str = "reno",
    wavelengths: int = 1,
    scheduler: str = "lauc-vf",
    conversion: str = "full",
    n_egress: int = 5,
    flows_per_egress: int = 4,
    optical_rate: str = "1 Gbit/s",
    optical_delay: str = "2.5 ms",
    access_rate: str = "50 Mbit/s",
    access_delay: str = "1 ms",
    access_buffer: str = "1000 packets",
    bg_interarrival: str = "2 ms",
    bg_length: str = "200 us",
    duration: str = "100 s",
    warmup: str = "10 s",
    start: Any = ("0 s", "1 s"),
    burst_length_bin: int = 6,
    background_at: str = "B",
) -> Dict[str, Any]:
    """gurel2008 Fig. 10 as obsim builds it (scenarios/gurel2008_chain.toml,
    docs/VALIDATION.md "G3"): sources S1..SN -> ingress edge I -> core C0
    <- background edge B; then the chain of egress edges C0 -> E1 -> E2 ->
    ... -> E5, each of which switches the bursts to the farther egresses and
    ends its own (Ek serves D(4k-3)..D(4k)). Every burst, TCP or background,
    crosses C0 -> E1, so a burst to E1 meets bursts to E5 whose residual
    offset at C0 is 4Δ longer: the void-filling (LAUC-VF) loss that grows
    with burst length for the nearest egress (§4). The offset of a burst
    from I or B to Ek is (k + 1)Δ (C0, E1..Ek). In the paper's numbering
    (Figs. 12-13: "egress node 3" nearest, "egress node 7" farthest) I, B,
    C0 would be nodes 0-2 and E1..E5 nodes 3-7.

    ``nodes[0]`` is the ingress edge I (``nodes[0].assembly.timeout`` /
    ``.queues``), ``optical.processing`` is Δ, ``tcp.variant`` the variant.
    Flow group ``Ek`` (flows table column ``group``) holds the flows
    S(4k-3..4k) -> D(4k-3..4k) to egress Ek; flow ids run 0..N-1 in that
    order, so with ``queues`` = M and flow-id mod M mapping, M =
    flows_per_egress gives one burstifier per flow. ``background_at``: the
    edge whose generator sends the background bursts, ``"B"`` (its own edge
    joined to C0, the registered reading) or ``"I"`` (the TCP ingress edge,
    sharing I -> C0 with the TCP bursts; B then stays idle)."""
    if background_at not in ("B", "I"):
        raise ValueError(f"background_at: {background_at!r}; allowed: 'B', 'I'")
    n = n_egress * flows_per_egress
    assembly: Dict[str, Any] = {
        "trigger": "timer",
        "timeout": timeout,
        "selection": "per_egress",
        "queues": queues,
        "mapping": "modulo",
        "acks": "bypass",
    }
    optical = {"kind": "optical", "rate": optical_rate, "delay": optical_delay, "wavelengths": wavelengths}
    nodes: List[Dict[str, Any]] = [
        {"name": "I", "kind": "edge", "assembly": assembly},
        {"name": "B", "kind": "edge"},
        {"name": "C0", "kind": "core"},
    ]
    nodes += [{"name": f"E{k}", "kind": "edge"} for k in range(1, n_egress + 1)]
    links: List[Dict[str, Any]] = [
        {"from": "I", "to": "C0", **optical},
        {"from": "B", "to": "C0", **optical},
        {"from": "C0", "to": "E1", **optical},
    ]
    links += [{"from": f"E{k - 1}", "to": f"E{k}", **optical} for k in range(2, n_egress + 1)]
    for i in range(1, n + 1):
        k = (i - 1) // flows_per_egress + 1
        nodes += [{"name": f"S{i}", "kind": "host"}, {"name": f"D{i}", "kind": "host"}]
        links += [
            {"from": f"S{i}", "to": "I", "rate": access_rate, "delay": access_delay, "buffer": access_buffer},
            {"from": f"E{k}", "to": f"D{i}", "rate": access_rate, "delay": access_delay, "buffer": access_buffer},
        ]
    return {
        "name": "gurel2008-chain",
        "simulation": {"duration": duration, "warmup": warmup},
        "tcp": {"profile": "ns2", "variant": variant, "mss": "1040 B", "rwnd": 10000, "max_window": 10000},
        "optical": {"processing": processing, "scheduler": scheduler, "conversion": conversion},
        "nodes": nodes,
        "links": links,
        "generators": [
            {
                "name": "background",
                "at": background_at,
                "to": [f"E{k}" for k in range(1, n_egress + 1)],
                "interarrival": bg_interarrival,
                "length": bg_length,
                "distribution": "exponential",
            }
        ],
        "flows": [
            {
                "name": f"E{k}",
                "from": [f"S{i}" for i in range((k - 1) * flows_per_egress + 1, k * flows_per_egress + 1)],
                "to": [f"D{i}" for i in range((k - 1) * flows_per_egress + 1, k * flows_per_egress + 1)],
                "start": list(start),
            }
            for k in range(1, n_egress + 1)
        ],
        "metrics": {"burst_length_bin": burst_length_bin},
    }


NSFNET_LINKS_KM = (
    (1, 2, 2100), (1, 3, 3000), (1, 8, 4800), (2, 3, 1200), (2, 4, 1500),
    (3, 6, 3600), (4, 5, 1200), (4, 11, 3900), (5, 6, 2400), (5, 7, 1200),
    (6, 10, 2100), (6, 14, 3600), (7, 8, 1500), (8, 9, 1500), (9, 10, 1500),
    (9, 12, 600), (9, 13, 600), (11, 12, 1200), (11, 13, 1500), (12, 14, 600),
    (13, 14, 300),
)
"""The 14-node, 21-link NSFNET T1 backbone with its usual link lengths in km
(docs/SCENARIOS.md, "NSFNET": sources and the node numbering)."""


NSFNET_EDGE_SITES = (1, 3, 5, 7, 10, 11, 12, 14)
"""The 8 NSFNET nodes that are edge nodes. The other 6 (2, 4, 6, 8, 9, 13)
are core nodes: of the 3003 ways to choose 6 cores, the one whose
least-used core lies on the most least-delay routes between edges (8 of the
56), then with the most such routes through cores in all (86)."""


def nsfnet(
    *,
    load: float = 0.5,
    wavelengths: int = 2,
    rate: str = "10 Gbit/s",
    burst_length: str = "100 us",
    distribution: str = "exponential",
    processing: str = "10 us",
    scheduler: str = "lauc-vf",
    conversion: str = "full",
    converters: int = 0,
    converter_sharing: str = "node",
    edge_queue: str = "unlimited",
    us_per_km: float = 5.0,
    edge_sites: Any = NSFNET_EDGE_SITES,
    duration: str = "2 s",
    warmup: str = "0.2 s",
) -> Dict[str, Any]:
    """NSFNET (gonzalez2009 §4, ramantas2007 §3: 14 nodes, 8 edge and 6 core)
    with Poisson background bursts only (scenarios/nsfnet.toml,
    docs/SCENARIOS.md "NSFNET").

    Nodes N1..N14 joined by the 21 links of :data:`NSFNET_LINKS_KM` (delay
    ``us_per_km`` µs per km, ``wavelengths`` W at ``rate``); the
    ``edge_sites`` are edge nodes (they also switch transit bursts), the
    others core nodes. Every edge runs a generator to every other edge
    (uniform), of mean length ``burst_length`` and mean interarrival chosen
    so that each edge offers ``load`` erlangs per wavelength of one fibre:
    1/λ = (1/μ) / (load · W).

    ``optical.*`` hold the switch settings; ``generators[i].interarrival``
    the load (use :func:`nsfnet_interarrival`)."""
    sites = [int(s) for s in edge_sites]
    switch: Dict[str, Any] = {
        "processing": processing,
        "scheduler": scheduler,
        "conversion": conversion,
        "edge_queue": edge_queue,
    }
    if conversion == "partial":
        switch["converters"] = converters
        switch["converter_sharing"] = converter_sharing
    optical = {"kind": "optical", "rate": rate, "wavelengths": wavelengths}
    nodes: List[Dict[str, Any]] = [
        {"name": f"N{i}", "kind": "edge" if i in sites else "core"} for i in range(1, 15)
    ]
    links: List[Dict[str, Any]] = [
        {"from": f"N{a}", "to": f"N{b}", **optical, "delay": _us(km * us_per_km)} for a, b, km in NSFNET_LINKS_KM
    ]
    gap = nsfnet_interarrival(load, wavelengths, burst_length)
    gens = [
        {
            "name": f"bg{i}",
            "at": f"N{i}",
            "to": [f"N{j}" for j in sites if j != i],
            "interarrival": gap,
            "length": burst_length,
            "distribution": distribution,
        }
        for i in sites
    ]
    return {
        "name": "nsfnet",
        "simulation": {"duration": duration, "warmup": warmup, "routing": "delay"},
        "optical": switch,
        "nodes": nodes,
        "links": links,
        "generators": gens,
        "metrics": {"throughput_bin": "none"},
    }


def pareto_alpha_for_mean(mean_bytes: float, min_bytes: float) -> float:
    """The shape α of a classic Pareto law with minimum ``min_bytes`` and
    mean ``mean_bytes``: α = m / (m − x_min) (the mean of Pareto(α, x_min)
    is α·x_min / (α − 1)). docs/NSFNET_STUDIES.md 2.2: the one reading that
    keeps both numbers the NSFNET papers state (40 KB minimum, the mean)."""
    if not mean_bytes > min_bytes > 0:
        raise ValueError(f"expected mean > min > 0, found mean {mean_bytes}, min {min_bytes}")
    return mean_bytes / (mean_bytes - min_bytes)


def nsfnet_tcp(
    *,
    timeout: str = "1 ms",
    selection: str = "mixed_flow",
    queues: int = 1,
    rate: float = 350.0,
    mean_size: str = "700 KB",
    min_size: str = "40 KB",
    size: Any = None,
    wavelengths: int = 1,
    conversion: str = "full",
    converters: int = 0,
    routing: str = "hops",
    access: str = "pipe",
    access_rate: str = "100 Mbit/s",
    access_delay: str = "0 s",
    processing: str = "10 us",
    tcp: Any = None,
    acks: str = "bypass",
    duration: str = "600 s",
    warmup: str = "200 s",
    thresholds: Tuple[float, float] = (32, 100),
    window_source: str = "sender",
) -> Dict[str, Any]:
    """NSFNET carrying Internet-like TCP traffic (ramantas2007/2008 §3,
    gonzalez2009 §4; the set-up and every reading in docs/NSFNET_STUDIES.md):
    the 8 edge nodes of :func:`nsfnet` each run a flow generator of
    ``rate`` flows/s (Poisson) towards the 7 other edges (uniform), sizes
    Pareto with minimum ``min_size`` and mean ``mean_size`` (shape from
    :func:`pareto_alpha_for_mean`; ``size`` overrides the whole law), each
    flow entering through its own ``access_rate`` pipe; timer assembly with
    ``timeout`` and queue ``selection`` at every edge; no background bursts.

    Defaults are the registered readings of R1-R4 (one wavelength at 10
    Gbit/s, λ = 50 flows/s per ordered pair = 350/s per edge, 700 KB, SACK
    under profile ``ns2`` with MSS 1000 B and W_M = 128, fewest-hop routing,
    ACKs bypassing assembly, 600 s with a 200 s warm-up).

    ``selection = "window"``: window-based assembly (ramantas2007 §5) with
    cwnd ``thresholds`` [B, C] (default R07's best, 32 and 100), timers 1, 5,
    10 ms and the window from ``window_source`` (``"sender"``, the papers'
    assumption, or ``"estimated"`` at the edge); ``timeout`` is then
    unused."""
    sc = nsfnet(
        wavelengths=wavelengths,
        conversion=conversion,
        converters=converters,
        processing=processing,
        duration=duration,
        warmup=warmup,
    )
    sc.pop("generators")
    sc["name"] = "nsfnet-tcp"
    sc["simulation"]["routing"] = routing
    sites = [int(n["name"][1:]) for n in sc["nodes"] if n["kind"] == "edge"]
    assembly: Dict[str, Any] = {"trigger": "timer", "timeout": timeout, "selection": selection, "acks": acks}
    if selection in ("per_egress", "smq", "dmq"):
        assembly["queues"] = queues
    if selection == "window":
        del assembly["timeout"]
        assembly["thresholds"] = list(thresholds)
        if window_source != "sender":
            assembly["window_source"] = window_source
    for n in sc["nodes"]:
        if n["kind"] == "edge":
            n["assembly"] = dict(assembly)
    sc["tcp"] = tcp if tcp is not None else {
        "profile": "ns2",
        "variant": "sack",
        "mss": "1000 B",
        "max_window": 128,
    }
    if size is None:
        lo = parse_size(min_size)
        size = {
            "law": "pareto",
            "alpha": round(pareto_alpha_for_mean(parse_size(mean_size), lo), 6),
            "min": min_size,
        }
    gen: Dict[str, Any] = {"rate": rate, "size": size, "access": access}
    if access == "pipe":
        gen.update(access_rate=access_rate, access_delay=access_delay)
    sc["flow_generators"] = [
        {"name": f"g{i}", "from": f"N{i}", "to": [f"N{j}" for j in sites if j != i], **gen} for i in sites
    ]
    return sc


_SIZE_UNITS = {"B": 1, "KB": 10**3, "kB": 10**3, "MB": 10**6, "GB": 10**9, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def parse_size(text: str) -> float:
    """Bytes in a size like ``"700 KB"`` (units as the scenario files':
    B, KB, MB, GB powers of 1000; KiB, MiB, GiB powers of 1024)."""
    try:
        num, unit = str(text).split()
        return float(num) * _SIZE_UNITS[unit]
    except (ValueError, KeyError):
        raise ValueError(f"expected a size like \"700 KB\" ({', '.join(_SIZE_UNITS)}), found {text!r}") from None


def _us(x: float) -> str:
    """A duration in whole nanoseconds, written in µs."""
    ns = round(x * 1000)
    return f"{ns / 1000:g} us" if ns % 1000 else f"{ns // 1000} us"


def _parse_us(d: str) -> float:
    num, unit = d.split()
    return float(num) * {"s": 1e6, "ms": 1e3, "us": 1.0, "ns": 1e-3}[unit]


def nsfnet_interarrival(load: float, wavelengths: int, burst_length: str) -> str:
    """Mean burst interarrival 1/λ giving ``load`` erlangs per wavelength on
    a fibre of W = ``wavelengths``: (1/μ) / (load · W), to the nanosecond."""
    if load <= 0:
        raise ValueError(f"load must be > 0, found {load}")
    return _us(_parse_us(burst_length) / (load * wavelengths))


def single_link(
    *,
    wavelengths: int,
    load: float,
    burst_length: str = "100 us",
    rate: str = "10 Gbit/s",
    distribution: str = "exponential",
    scheduler: str = "lauc-vf",
    duration: str = "10 s",
    warmup: str = "0.5 s",
) -> Dict[str, Any]:
    """The Erlang B check: bufferless edge A (``edge_queue = "none"``) ->
    one optical link of W wavelengths -> edge Z; Poisson bursts A -> Z of
    ``load`` erlangs per wavelength (A = load · W erlangs in all), full
    conversion, Δ = 0 (no offsets). The burst loss ratio is B(W, A)."""
    return {
        "name": "erlang-link",
        "simulation": {"duration": duration, "warmup": warmup},
        "optical": {"processing": "0 s", "scheduler": scheduler, "conversion": "full", "edge_queue": "none"},
        "nodes": [{"name": "A", "kind": "edge"}, {"name": "Z", "kind": "edge"}],
        "links": [{"from": "A", "to": "Z", "kind": "optical", "rate": rate, "delay": "1 ms", "wavelengths": wavelengths}],
        "generators": [
            {
                "name": "poisson",
                "at": "A",
                "to": ["Z"],
                "interarrival": nsfnet_interarrival(load, wavelengths, burst_length),
                "length": burst_length,
                "distribution": distribution,
            }
        ],
        "metrics": {"throughput_bin": "none"},
    }


def dumbbell(
    *,
    n: int = 10,
    p: float = 0.001,
    access_rate: str = "155 Mbit/s",
    access_delay: str = "1 ms",
    bottleneck_rate: str = "1 Gbit/s",
    bottleneck_delay: str = "10 ms",
    duration: str = "100 s",
) -> Dict[str, Any]:
    """The project's reference scenario (``scenarios/dumbbell.toml``): ``n``
    bulk Reno flows s_i -> d_i share a bottleneck r0 -> r1 with Bernoulli
    loss ``p`` and an unlimited buffer (random loss, not congestion loss);
    access links with 1000-packet buffers; MSS 1040 B, rwnd and W_M 10 000
    MSS (ns-2 defaults, ``ns2``); starts uniform in [0, 1] s."""
    access = {"rate": access_rate, "delay": access_delay, "buffer": "1000 packets"}
    nodes: List[Dict[str, Any]] = [{"name": "r0", "kind": "router"}, {"name": "r1", "kind": "router"}]
    nodes += [{"name": f"s{i}", "kind": "host"} for i in range(n)]
    nodes += [{"name": f"d{i}", "kind": "host"} for i in range(n)]
    links: List[Dict[str, Any]] = [
        {
            "from": "r0",
            "to": "r1",
            "rate": bottleneck_rate,
            "delay": bottleneck_delay,
            "buffer": "unlimited",
            "loss": {"model": "bernoulli", "p": p},
            "reverse_loss": {"model": "none"},
        }
    ]
    links += [{"from": f"s{i}", "to": "r0", **access} for i in range(n)]
    links += [{"from": "r1", "to": f"d{i}", **access} for i in range(n)]
    return {
        "name": "dumbbell",
        "simulation": {"duration": duration, "warmup": "0 s", "seed": 1, "stop": "time", "routing": "hops"},
        "tcp": {"profile": "ns2", "variant": "reno", "mss": "1040 B", "rwnd": 10000, "max_window": 10000},
        "nodes": nodes,
        "links": links,
        "flows": [
            {
                "name": "ftp",
                "from": [f"s{i}" for i in range(n)],
                "to": [f"d{i}" for i in range(n)],
                "count": 1,
                "start": ["0 s", "1 s"],
                "size": "infinite",
            }
        ],
        "trace": {"cwnd": False, "seq": False},
    }


def single_flow(*, duration: str = "5 s") -> Dict[str, Any]:
    """One bulk NewReno flow over a 3-link path, lossless (RFC profile, MSS
    1000 B, W_M 64): h0 -> r0 (100 Mbit/s, 1 ms) -> r1 (10 Mbit/s, 10 ms,
    100 packets) -> h1 (100 Mbit/s, 1 ms). ``scenarios/single_flow.toml``;
    small and fast, for the engine's end-to-end tests."""
    return {
        "name": "single_flow",
        "simulation": {"duration": duration},
        "tcp": {"profile": "rfc", "variant": "newreno", "mss": "1000 B", "max_window": 64},
        "nodes": [
            {"name": "h0", "kind": "host"},
            {"name": "r0"},
            {"name": "r1"},
            {"name": "h1", "kind": "host"},
        ],
        "links": [
            {"from": "h0", "to": "r0", "rate": "100 Mbit/s", "delay": "1 ms"},
            {"from": "r0", "to": "r1", "rate": "10 Mbit/s", "delay": "10 ms", "buffer": "100 packets"},
            {"from": "r1", "to": "h1", "rate": "100 Mbit/s", "delay": "1 ms"},
        ],
        "flows": [{"name": "bulk", "from": "h0", "to": "h1"}],
    }

"""The set-up shared by the ramantas2007/2008 NSFNET reproductions (R1-R4):
Internet-like SACK traffic on NSFNET with one timer-assembly queue per
source-destination pair, every reading of what the papers leave unstated
as docs/NSFNET_STUDIES.md registered it before any run (section 2), and the
per-run metrics the claims read.

The registered experiment is :func:`build` with its defaults; each
:data:`READINGS` alternative rebuilds it with one parameter changed. R2 and R3
run the same experiment (the 700 KB runs of Fig. 1 at timers 1, 5 and 10 ms)
and decide different claims on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..topologies import nsfnet_tcp
from .readings import Reading, rebuilt

if TYPE_CHECKING:  # pragma: no cover
    import pandas

R07 = (
    "ramantas2007: ONDM 2007, I. Tomkos et al. (Eds.), LNCS 4534, pp. 176-185 (the copy in "
    "shared/papers carries no title or author line)"
)
"""How ramantas2007 is cited: only what its copy states."""
R08 = (
    "Ramantas, Vlachos, González de Dios, Raffaelli: A new window-based burst assembly scheme for TCP "
    "traffic over OBS, Optical Society of America, 2008"
)
"""How ramantas2008 is cited (its title page)."""

PAIR = ("N10", "N14")
"""The "single (randomly selected) source-destination pair" (R07 §3):
``numpy.random.default_rng(12).integers(56)`` = 34 over the 56 ordered edge
pairs in (source, destination) site order, drawn once before any run
(docs/NSFNET_STUDIES.md 2.11) and fixed for every seed and reading."""

TIMEOUTS = ("1 ms", "5 ms", "10 ms")
"""R07/R08 Figs. 1-3: the three assembly timers."""

AX_T = "nodes[0].assembly.timeout"
"""The swept key path; the other edges' timers follow it (:func:`build`)."""

AX_A = "nodes[0].assembly"
"""R5's swept key path: the whole assembly table; the other edges' follow it."""

SCENARIO_NAME = "ramantas_nsfnet"
"""The scenario name of every R1-R5 run (each experiment keeps its own
name): R1-R4's 700 KB points are the same simulation (the same scenario
and seeds), so with one name they are the same run key, and a store of one
lends its runs to another (``obsim reproduce R3 --reuse OUT/R2``) instead of
simulating them again."""

RATE_PER_PAIR = 50.0
"""R07 §3 "a mean of λ=50 flows/sec", registered per ordered pair (2.1)."""

DESTINATIONS = 7
"""Each edge sends to the 7 other edges (uniform, 2.3)."""

QUICK_RATE_DIVISOR = 4.0
"""``--quick`` runs λ / 4, so that about 500 flows are active (4 of 2.13)."""

QUOTE_PAIR_SCOPE = (
    'R07 §3: "600 or 800 active source respectively for 5, 10 and 1msec timers" (Fig. 1a: "at each '
    'edge node") and R07 §4: "flow transfer time ... from 1.25sec for 1msec timer to 1.6sec": '
    "L/W = 375 flows/s per edge = 7 pairs x 50 (docs/NSFNET_STUDIES.md 2.1)"
)
QUOTE_EDGE_SCOPE = (
    'R07 §3: "TCP arrivals were modeled with an exponential process with a mean of λ=50 '
    'flows/sec", read per edge node (what a [[flow_generators]] rate means)'
)
QUOTE_R08_MU = (
    'R08 §3: "a Poisson arrival process with a λ=50 flows/sec rate and an exponential '
    "inter-arrival time of 1/μ=10 msec\": 100 flows/s per pair (it contradicts the same sentence's λ)"
)
QUOTE_ALPHA_MEAN = (
    'R07 §3: "a Pareto distribution of p load and a minimum ON size of 40KByte" with "a mean file '
    'size of 700KB": α = m / (m - 40 KB), the only law that keeps both numbers (2.2)'
)
QUOTE_NS2_PARETO = (
    '"ON size" is ns-2\'s Pareto ON/OFF vocabulary; ns-2.35 tcl/lib/ns-default.tcl: '
    "RandomVariable/Pareto set shape_ 1.5 (α = 1.5 with the stated mean; minimum m/3)"
)
QUOTE_HOPS = (
    'G09 §3: "We used ns-2 [25] simulator"; ns-2 static routing uses link cost 1 unless a script '
    "sets cost: fewest hops (2.4)"
)
QUOTE_DELAY = "No paper states the routing; least delay (km) is obsim's NSFNET default (N1)"
QUOTE_WM = (
    'G09 Table 1: "Max window size (W_M) 128 MSS" (the same group\'s ns-2 set-up) and R07 §4: '
    '"92Mbps ... achieved when window size was 128segments wide" (2.6)'
)
QUOTE_WM20 = "ns-2.35 tcl/lib/ns-default.tcl: Agent/TCP set window_ 20 (nothing stated)"
QUOTE_WM_UNBOUNDED = (
    'R08 §4: "in the case of 1msec, a 600segment window is reached within 0,194sec"; R07 §4: "a '
    '500segment window is reached within 0,171sec". ns-2.35 TcpAgent::reset() sets ssthresh_ = '
    "window_, so slow start reaches 500-600 segments in a fraction of a second only if window_ >= 600 "
    "(docs/NSFNET_STUDIES.md 3, session 8): W_M = 10,000, G1's receive window"
)
QUOTE_NO_ACCESS_DELAY = "No delay is stated for the access; the pipe models the rate (2.5)"
QUOTE_ACCESS_DELAY = "G09 Table 1 gives the §3 access network a delay; 1 ms is a short access"
QUOTE_ACKS_BYPASS = (
    'R08 §3: "the distribution of segments and the distribution of TCP flows over the assembled '
    'bursts"; every number of R07/R08 §3 is about data segments (docs/NSFNET_STUDIES.md 2.7)'
)
QUOTE_ACKS_ASSEMBLED = (
    'R08 §1: "edge routers at its edges that are responsible for the burst assembly/disassembly '
    'function" (no packet is exempted), and §3: "the actual number of bursts (transmitted and lost) '
    'per flow, which are necessary to complete a transfer"'
)


def build(
    quick: bool,
    *,
    name: str,
    description: str,
    metrics: Callable[[float], Dict[str, Any]],
    rate_per_pair: float = RATE_PER_PAIR,
    scope: str = "pair",
    size_law: str = "min",
    routing: str = "hops",
    max_window: int = 128,
    access_delay: str = "0 s",
    acks: str = "bypass",
    mean_sizes: Tuple[str, ...] = ("700 KB",),
    timeouts: Tuple[str, ...] = TIMEOUTS,
    assemblies: Optional[Tuple[Dict[str, Any], ...]] = None,
    length: Optional[Tuple[Tuple[str, float], Tuple[str, float]]] = None,
) -> Dict[str, Any]:
    """The experiment: :func:`obsim.topologies.nsfnet_tcp` swept over
    ``timeouts`` (every edge's timer moves together) and ``mean_sizes``
    (every generator's size law moves together, :func:`size_table` of
    ``size_law``), 600 s with a
    200 s warm-up and 5 seeds (``--quick``: λ / 4, 12 s with a 4 s warm-up,
    2 seeds). ``scope`` says where λ applies: ``"pair"`` (the edge's
    generator runs 7 λ, registered) or ``"edge"`` (λ). ``metrics(warmup_s)``
    gives the metrics table. ``acks``: the edges' ACK handling
    (``"bypass"`` registered, ``"assemble"``). ``assemblies`` (R5): sweep every edge's whole
    ``assembly`` table over these instead of the timer (key :data:`AX_A`).
    ``length``: ``((full duration, full warm-up s), (quick duration, quick
    warm-up s))`` instead of 600 s / 200 s and 12 s / 4 s."""
    rate = rate_per_pair * (DESTINATIONS if scope == "pair" else 1)
    if quick:
        rate /= QUICK_RATE_DIVISOR
    full, short = length if length is not None else (("600 s", 200.0), ("12 s", 4.0))
    duration, warmup = short if quick else full
    scenario = nsfnet_tcp(
        rate=rate,
        size=size_table(mean_sizes[0], size_law),
        routing=routing,
        access_delay=access_delay,
        acks=acks,
        tcp={"profile": "ns2", "variant": "sack", "mss": "1000 B", "max_window": max_window},
        duration=duration,
        warmup=f"{warmup:g} s",
    )
    scenario["name"] = SCENARIO_NAME
    edges = [i for i, n in enumerate(scenario["nodes"]) if n["kind"] == "edge"]
    first = edges[0]
    zipped: Dict[str, List[Any]] = {f"nodes[{i}].assembly.timeout": list(timeouts) for i in edges}
    assert f"nodes[{first}].assembly.timeout" == AX_T, "N1 is an edge node (NSFNET_EDGE_SITES)"
    if assemblies is not None:
        zipped = {f"nodes[{i}].assembly": [dict(a) for a in assemblies] for i in edges}
    zips: List[Dict[str, List[Any]]] = [zipped]
    if len(mean_sizes) > 1:
        laws = [size_table(m, size_law) for m in mean_sizes]
        zips.append({f"flow_generators[{g}].size": laws for g in range(len(scenario["flow_generators"]))})
    return {
        "name": name + ("_quick" if quick else ""),
        "description": description,
        "scenario": scenario,
        "replications": {"count": 2 if quick else 5, "base_seed": 2007},
        "sweep": {"zip": zips},
        "metrics": metrics(warmup),
        "plots": [],
    }


SIZE_LAWS = ("min", "ns2")
"""How the Pareto law is read from a stated mean (docs/NSFNET_STUDIES.md 2.2):
``"min"`` keeps the 40 KB minimum and takes α = m / (m − 40 KB)
(registered); ``"ns2"`` takes ns-2's default shape 1.5 with the mean."""


def size_table(mean: str, law: str) -> Dict[str, Any]:
    """The ``size`` table of every generator for mean file size ``mean``
    under reading ``law`` (:data:`SIZE_LAWS`)."""
    from ..topologies import pareto_alpha_for_mean, parse_size

    if law == "min":
        return {
            "law": "pareto",
            "alpha": round(pareto_alpha_for_mean(parse_size(mean), 40e3), 6),
            "min": "40 KB",
        }
    if law == "ns2":
        return {"law": "pareto", "alpha": 1.5, "mean": mean}
    raise ValueError(f"size law reading {law!r} unknown; allowed: {', '.join(SIZE_LAWS)}")


def mean_kb(law: Any) -> float:
    """The mean file size (KB) of a swept ``size`` table (JSON text or
    dict), for grouping results."""
    import json

    from ..topologies import parse_size

    t = json.loads(law) if isinstance(law, str) else law
    if "mean" in t:
        return parse_size(t["mean"]) / 1e3
    a = float(t["alpha"])
    return round(a * parse_size(t["min"]) / (a - 1) / 1e3)


def pair_flows(warmup: float, **extra: Any) -> Dict[str, Any]:
    """``where`` for the flows of :data:`PAIR` that arrived after the
    warm-up and finished (docs/NSFNET_STUDIES.md 2.9), plus ``extra``."""
    return {"src": PAIR[0], "dst": PAIR[1], "finished": True, "start_s": {"min": warmup}, **extra}


def stored_runs(
    out: Path, table: str, where: Optional[Mapping[str, Any]] = None
) -> Dict[float, "pandas.DataFrame"]:
    """Every finished run's ``table`` in the result directory ``out``, rows
    kept by ``where`` (a metric's filter), pooled per assembly timer (ms):
    what the R figures draw. Empty without results."""
    import pandas as pd

    from ..experiment.metrics import row_mask
    from ..store import Store

    path = Path(out) / "results.parquet"
    if not path.is_file():
        return {}
    results = pd.read_parquet(path)
    store = Store(out)
    pooled: Dict[float, List["pandas.DataFrame"]] = {}
    for row in results.to_dict("records"):
        df = store.read_table(str(row["key"]), table).to_pandas()
        for col, cond in (where or {}).items():
            df = df[row_mask(df[col], cond)]
        pooled.setdefault(float(str(row[AX_T]).split()[0]), []).append(df)
    return {t: pd.concat(frames, ignore_index=True) for t, frames in sorted(pooled.items())}


def readings(rebuild: Callable[..., Dict[str, Any]]) -> Tuple[Reading, ...]:
    """The readings of docs/NSFNET_STUDIES.md 2.12 that R1-R4 share, for an
    experiment rebuilt by ``rebuild(quick, **changed)``."""

    def apply(**kw: Any) -> Callable[[Dict[str, Any], bool], Dict[str, Any]]:
        return rebuilt(rebuild, **kw)

    return (
        Reading("lambda scope", "50 flows/s per ordered pair", QUOTE_PAIR_SCOPE, registered=True),
        Reading("lambda scope", "50 flows/s per edge", QUOTE_EDGE_SCOPE, apply=apply(scope="edge")),
        Reading(
            "lambda scope", "1/mu = 10 ms per pair (100/s)", QUOTE_R08_MU, apply=apply(rate_per_pair=100.0)
        ),
        Reading("size law", "Pareto, min 40 KB, alpha from the mean", QUOTE_ALPHA_MEAN, registered=True),
        Reading(
            "size law",
            "Pareto alpha 1.5 with the mean (ns-2 default)",
            QUOTE_NS2_PARETO,
            apply=apply(size_law="ns2"),
        ),
        Reading("routing", "fewest hops", QUOTE_HOPS, registered=True),
        Reading("routing", "least delay", QUOTE_DELAY, apply=apply(routing="delay")),
        Reading("W_M", "128 segments", QUOTE_WM, registered=True),
        Reading("W_M", "20 segments (ns-2 window_)", QUOTE_WM20, apply=apply(max_window=20)),
        Reading("W_M", "10000 segments (unbounded)", QUOTE_WM_UNBOUNDED, apply=apply(max_window=10000)),
        Reading("access delay", "0 s", QUOTE_NO_ACCESS_DELAY, registered=True),
        Reading("access delay", "1 ms", QUOTE_ACCESS_DELAY, apply=apply(access_delay="1 ms")),
        Reading("ACKs", "bypass assembly", QUOTE_ACKS_BYPASS, registered=True),
        Reading(
            "ACKs",
            "assembled at the receiver's edge",
            QUOTE_ACKS_ASSEMBLED,
            apply=apply(acks="assemble"),
        ),
    )


def builders(
    name: str,
    description: str,
    metrics: Callable[[float], Dict[str, Any]],
    fixed: Callable[[bool], Dict[str, Any]] = lambda quick: {},
) -> Tuple[Callable[..., Dict[str, Any]], Callable[[bool], Dict[str, Any]]]:
    """``(build, experiment)`` of one R reproduction: ``build(quick, **kw)``
    is :func:`build` with the reproduction's ``name``, ``description``,
    ``metrics``, its own arguments ``fixed(quick)`` and a reading's changes
    ``kw``; ``experiment(quick)`` is the registered experiment."""

    def build_one(quick: bool, **kw: Any) -> Dict[str, Any]:
        return build(quick, name=name, description=description, metrics=metrics, **{**fixed(quick), **kw})

    def experiment(quick: bool) -> Dict[str, Any]:
        return build_one(quick)

    build_one.__doc__ = f"The {name} experiment (``kw``: a reading's change)."
    experiment.__doc__ = f"The registered {name} experiment."
    return build_one, experiment


def comparison(rows_of: Callable[[Dict[float, Any]], List[Dict[str, Any]]]) -> Callable[[Any, Any], Any]:
    """A reproduction's ``compare``: the results split by timer
    (:func:`by_timeout`), ``rows_of(groups)`` the decided claim rows."""

    def compare(results: Any, exp: Any) -> Any:
        import pandas as pd

        from . import COMPARISON_COLUMNS

        rows = rows_of(by_timeout(results)) if len(results) else []
        return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))

    compare.__doc__ = rows_of.__doc__
    return compare


def by_timeout(results: "Any") -> Dict[float, "Any"]:
    """The results split by assembly timer (ms)."""
    df = results.copy()
    df["t_ms"] = [float(str(t).split()[0]) for t in df[AX_T]]
    return {t: g for t, g in df.groupby("t_ms")}


def cases(groups: Dict[float, Any]) -> List[float]:
    """The timers present, ascending."""
    return sorted(groups)

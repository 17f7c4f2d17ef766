"""S3: gonzalez2009 §4 (Fig. 14, Table 2, Figs. 15-16): TCP synchronization
on NSFNET with Internet-like traffic, by assembly scheme (MF, SMQ, DMQ-2,
DMQ-4, DMQ-8) and by wavelength conversion (full, partial, none).

González de Dios, Guidotti, Raffaelli, Ramantas, Vlachos, "On transmission
control protocol synchronization in optical burst switching" (Photonic
Network Communications 2009) §4: "The experiments were carried out on the NSF
network topology, with eight edge and six core nodes whereas each link was
employing two wavelengths at 10 Gbps. Access rate was set to 100 Mbps
equally for all sources. TCP arrivals were modeled with a Poisson process
with a λ = 50 flows/s rate while TCP file size with a Pareto distribution
process of p load and 40 KB minimum ON size"; "we have selected a mean file
size of 4 MB, which corresponded to ~2000 active sources for an assembly
time of 3 ms and to a 2% burst loss ratio". Fig. 14: "we have measured the
yielding synchronization index metric by allowing full, partial, or no
wavelength convertibility in the core, and thus obtaining different burst
loss ratios ... TCP synchronization increases with the increase of losses
and, in particular, it triples when loss increases from 0.5 to 5%". Table 2
and Figs. 15-16, "for a specific source–destination pair": "Throughput is
measured in time spans of 3 ms and it was derived by the link utilization
profile that is the bytes/s received by the first core router"; AVE / STD /
MAX (Mbit/s) and the index: MF 35.5 / 61.1 / 661.7 / 0.26, SMQ 35.8 / 54.0 /
603.1 / 0.13, DMQ-2 38.3 / 34.4 / 258.4 / 0.043, DMQ-4 36.7 / 29.9 / 251.8 /
0.021, DMQ-8 37.5 / 26.2 / 247.2 / 0.011.

Everything here was fixed by docs/NSFNET_STUDIES.md before any S3 run: the
set-up (1.1), the claims (1.3, :data:`CLAIMS`: S3.idx, S3.idxorder, S3.std,
S3.stdorder, S3.ave, S3.ave35, S3.loss, S3.active, S3.fig14, S3.triple), and
each unstated parameter's registered reading with its alternatives (section
2, :data:`READINGS`). Registered: λ = 50 flows/s per edge node (2.1); Pareto
with a 40 KB minimum and α = m / (m − 40 KB) for the 4 MB mean (2.2);
fewest-hop routing (2.4); one 100 Mbit/s access pipe per flow with no delay
(2.5); SACK (ns-2.35 Sack1, MSS 1000 B, W_M = 128, 2.6); 3 ms timers, SMQ
with 2 static queues, DMQ proactive (2.7); W = 2 × 10 Gbit/s, LAUC-VF, full
conversion for Table 2 and 1 converter per node for "partial" (2.8); 600 s
with a 200 s warm-up, 5 seeds (2.9); the synchronization index under churn
(``metrics.sync_index = "churn"``: per 0.7 s interval, the flows active at
both ends and those of them whose TD + TO count grew, 2.10) over the flows
of the pre-registered pair N10 -> N14 (:data:`.ramantas_nsfnet.PAIR`, 2.11).
Table 2's AVE / STD / MAX are the moments of the 3 ms rate of the pair's TCP
bursts into the first core router (``metrics.pair_bins``: the ``paths``
table's ``bin_rate_*_bps``); the MIN column is not a claim (1.2: a 1040 B
packet in a 3 ms bin is 2.77 Mbit/s, so 0.66 Mbit/s cannot be a 3 ms byte
count). Burst loss: TCP bursts lost / sent over every path after the
warm-up (as R1). Active sources: the network's time-average number of
generated flows after the warm-up (Little's L from the flow records; 2.1
reads "~2000 active sources" as the network's).

Runs: Table 2's five schemes at full conversion, and Fig. 14's MF and SMQ
also at partial and no conversion: 9 points × 5 seeds of 600 s. Estimated
full-mode cost: see :data:`FULL_COST`. ``--quick`` (NSFNET_STUDIES 4): MF,
SMQ, DMQ-2, DMQ-8 at full conversion and MF with no conversion, 2 seeds, 15 s
runs with a 5 s warm-up at the registered λ; it is too short to decide
anything (S3.fig14 and S3.triple then exist for MF only). Measured on the
shared 2-core machine (nice, load average about 5): ``obsim reproduce S3
--quick -j 1`` takes 19-29 s of wall time; the full mode about 1 h on one
core, about 35 min with ``-j 2`` (:data:`FULL_COST`).

Readings defined (``--readings``) but expensive in full mode: λ per ordered
pair (350 flows/s per edge: a 30 s probe ran 1.3 engine s per simulated s with
about 1,400 flows active, about 10 times the registered cost; NSFNET_STUDIES 4
judged it affordable only as a single-seed 300 s sensitivity; it runs 2 seeds
of 600 s per point, :data:`PAIR_SCOPE_SEEDS`) and the 2000 s run (3.3 times,
at 5 seeds × 9 points). The others cost about
what the registered run costs (network-wide λ much less; the 3 ms index
sampling visits only the pair's flows: a 30 s probe took 3.1 s against 3.5 s
at 0.7 s). Not defined as
readings: Δ = 50 µs and ACKs assembled (2.12 lists them; R1-R4 run the
second, since session 16, not the first), the conversion of Table 2 (its MF and SMQ at partial and none
are already Fig. 14's runs), and the median over the 56 pairs (the index is
sampled for one pair per run).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..topologies import nsfnet_tcp
from . import ExtraRuns, Reproduction, SeedPlan
from . import ramantas_nsfnet as rn
from .claims import Claim
from .pairing import by_seed, paired
from .readings import Reading, rebuilt
from .series import linux_series

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure

    from ..experiment import Experiment

G09 = (
    "González de Dios, Guidotti, Raffaelli, Ramantas, Vlachos: On transmission control protocol "
    "synchronization in optical burst switching, Photonic Network Communications 2009"
)
"""How gonzalez2009 is cited."""

SCHEMES: Dict[str, Dict[str, Any]] = {
    "MF": {"selection": "mixed_flow"},
    "SMQ": {"selection": "smq", "queues": 2},
    "DMQ-2": {"selection": "dmq", "queues": 2},
    "DMQ-4": {"selection": "dmq", "queues": 4},
    "DMQ-8": {"selection": "dmq", "queues": 8},
}
"""Table 2's assembly schemes as every edge's assembly table (3 ms timer,
ACKs bypass): MF one queue per egress (§3 "a single burst assembly queue
serves all flows"), SMQ 2 static queues per egress (§3.4 "two assembly queues
per FEC"), DMQ n = 2, 4, 8 queues with flows re-allocated uniformly at the
first segment of each cycle (§4; ``allocation`` proactive, obsim's default)."""
ORDER = tuple(SCHEMES)
"""Table 2's order: the index and the std fall along it (S3.idxorder, S3.stdorder)."""
FIG14_SCHEMES = ("MF", "SMQ")
"""Fig. 14's schemes."""
CONVERSIONS = ("full", "partial", "none")
"""Fig. 14's "full, partial, or no wavelength convertibility"."""
CONVERTERS = 1
"""Partial conversion: 1 converter per node, shared by its output fibres
(NSFNET_STUDIES 2.8; nothing stated). 2 per node is a reading. No claim of
1.3 reads the partial runs (Fig. 14's middle point: S3.fig14 and S3.triple
compare none with full), so that reading can flip no claim; its runs are in
``results.parquet``."""

TIMEOUT = "3 ms"
"""§4: "an assembly time of 3 ms" (also Table 1's T_MAX)."""
MEAN_SIZE = "4 MB"
"""§4: "we have selected a mean file size of 4 MB"."""
RATE_PER_EDGE = 50.0
"""§4: "a Poisson process with a λ = 50 flows/s rate", registered per edge
node (NSFNET_STUDIES 2.1)."""
WAVELENGTHS = 2
"""§4: "each link was employing two wavelengths at 10 Gbps"."""

FULL_LENGTH = ("600 s", 200.0)
"""600 s runs with a 200 s warm-up (NSFNET_STUDIES 2.9)."""
QUICK_LENGTH = ("15 s", 5.0)
"""--quick: 15 s with a 5 s warm-up (NSFNET_STUDIES 4)."""
LONG_LENGTH = (("2000 s", 200.0), ("50 s", 5.0))
"""The run-length reading: 2000 s (G09 Fig. 6's run); in quick mode the
same ratio to the measured time."""

AVE = {"MF": 35.5, "SMQ": 35.8, "DMQ-2": 38.3, "DMQ-4": 36.7, "DMQ-8": 37.5}
"""Table 2, AVE (Mbit/s)."""
STD = {"MF": 61.1, "SMQ": 54.0, "DMQ-2": 34.4, "DMQ-4": 29.9, "DMQ-8": 26.2}
"""Table 2, STD (Mbit/s)."""
MAX = {"MF": 661.7, "SMQ": 603.1, "DMQ-2": 258.4, "DMQ-4": 251.8, "DMQ-8": 247.2}
"""Table 2, MAX (Mbit/s): reported beside the measured maximum, not a claim
(1.3 registers none)."""
INDEX = {"MF": 0.26, "SMQ": 0.13, "DMQ-2": 0.043, "DMQ-4": 0.021, "DMQ-8": 0.011}
"""Table 2, "Index metric"."""
AVE_ABOUT = 35.0
"""§4: "~35 Mb/s in both the MF and SMQ schemes"."""
LOSS = 0.02
"""§4: "a 2% burst loss ratio"."""
ACTIVE = 2000.0
"""§4: "~2000 active sources for an assembly time of 3 ms"."""
TRIPLE = math.log(3.0) / math.log(0.05 / 0.005)
"""§4's "triples when loss increases from 0.5 to 5%" as an elasticity of the
index in the loss: ln 3 / ln 10 = 0.477 (NSFNET_STUDIES 1.3)."""

BAND = 0.5
"""Magnitudes: the paper's value ± 50% (the project's "same order" band,
G1/G4; NSFNET_STUDIES 1.3)."""
SIMILAR_MARGIN = 0.15
""""Similar" AVE: paired ratio to MF within 1 ± 0.15 (S1's ``SIMILAR_MARGIN``)."""

QUOTE_TABLE2 = (
    '§4 Table 2 "Performance summary of different assembly schemes" (AVE, STD, MIN, MAX, Index metric): '
    "MF 35.5, 61.1, 0.66, 661.7, 0.26; SMQ 35.8, 54.0, 0.76, 603.1, 0.13; DMQ-2 38.3, 34.4, 0.78, 258.4, "
    "0.043; DMQ-4 36.7, 29.9, 0.7, 251.8, 0.021; DMQ-8 37.5, 26.2, 0.65, 247.2, 0.011"
)
QUOTE_ORDER = (
    '§4: "the synchronization index metric was 0.26 and 0.13" (MF, SMQ); "It is therefore clear that '
    'dynamic flow allocation outperforms the other assembly schemes, weakens the synchronization effect"; '
    "Table 2: 0.043, 0.021, 0.011 for DMQ-2, -4, -8"
)
QUOTE_STD = (
    '§4: "the relative standard deviations were found to be 61.1 and 54, respectively"; "the standard '
    'deviation has been reduced to 34 and 29 for the DMQ-2 and DMQ-4 schemes"; Table 2: 26.2 for DMQ-8'
)
QUOTE_AVE = (
    '§4: "average aggregated throughput of all sources for a specific source-destination pair was '
    'measured to be ~35 Mb/s in both the MF and SMQ schemes"; Table 2 AVE 35.5-38.3 for all five'
)
QUOTE_OPERATING = (
    '§4: "we have selected a mean file size of 4 MB, which corresponded to ~2000 active sources for an '
    'assembly time of 3 ms and to a 2% burst loss ratio"'
)
QUOTE_FIG14 = (
    '§4: "we have measured the yielding synchronization index metric by allowing full, partial, or no '
    "wavelength convertibility in the core, and thus obtaining different burst loss ratios. Figure 14 "
    "displays the corresponding results. As expected, TCP synchronization increases with the increase "
    'of losses and, in particular, it triples when loss increases from 0.5 to 5%"'
)

CLAIMS: Dict[str, Claim] = {}
"""The paper's claims (NSFNET_STUDIES 1.3), declared before any run. The
orderings are declared for every pair of schemes in Table 2's order and
decided for the adjacent schemes that ran (quick: MF > SMQ > DMQ-2 > DMQ-8)."""
for _s in ORDER:
    CLAIMS[f"idx:{_s}"] = Claim(
        f"synchronization index, the pair, {_s}",
        QUOTE_TABLE2,
        "mean",
        "magnitude",
        band=(INDEX[_s] * (1 - BAND), INDEX[_s] * (1 + BAND)),
        paper=INDEX[_s],
    )
    CLAIMS[f"std:{_s}"] = Claim(
        f"std of the pair's 3 ms rate into the first core router, {_s}",
        QUOTE_TABLE2,
        "mean",
        "magnitude",
        band=(STD[_s] * (1 - BAND), STD[_s] * (1 + BAND)),
        paper=STD[_s],
        unit="Mbit/s",
    )
for _i, _a in enumerate(ORDER):
    for _b in ORDER[_i + 1 :]:
        CLAIMS[f"idxorder:{_a}:{_b}"] = Claim(
            f"synchronization index, the pair, {_a} / {_b}",
            QUOTE_ORDER,
            "paired_ratio",
            "greater",
            paper=round(INDEX[_a] / INDEX[_b], 4),
        )
        CLAIMS[f"stdorder:{_a}:{_b}"] = Claim(
            f"std of the pair's 3 ms rate, {_a} / {_b}",
            QUOTE_STD,
            "paired_ratio",
            "greater",
            paper=round(STD[_a] / STD[_b], 4),
        )
for _s in ORDER[1:]:
    CLAIMS[f"ave:{_s}"] = Claim(
        f"mean of the pair's 3 ms rate, {_s} / MF",
        QUOTE_AVE,
        "paired_ratio",
        "equivalent",
        threshold=1.0,
        margin=SIMILAR_MARGIN,
        paper=round(AVE[_s] / AVE["MF"], 4),
    )
for _s in FIG14_SCHEMES:
    CLAIMS[f"ave35:{_s}"] = Claim(
        f"mean of the pair's 3 ms rate into the first core router, {_s}",
        QUOTE_AVE,
        "mean",
        "magnitude",
        band=(AVE_ABOUT * (1 - BAND), AVE_ABOUT * (1 + BAND)),
        paper=AVE_ABOUT,
        unit="Mbit/s",
    )
    CLAIMS[f"fig14:{_s}"] = Claim(
        f"synchronization index, the pair, {_s}: no conversion / full",
        QUOTE_FIG14,
        "paired_ratio",
        "greater",
    )
    CLAIMS[f"triple:{_s}"] = Claim(
        f"{_s}: ln(index none / full) / ln(burst loss none / full)",
        QUOTE_FIG14,
        "mean",
        "magnitude",
        band=(TRIPLE * (1 - BAND), TRIPLE * (1 + BAND)),
        paper=round(TRIPLE, 4),
    )
CLAIMS["loss"] = Claim(
    "TCP burst loss ratio, MF, full conversion",
    QUOTE_OPERATING,
    "mean",
    "magnitude",
    band=(LOSS * (1 - BAND), LOSS * (1 + BAND)),
    paper=LOSS,
)
CLAIMS["active"] = Claim(
    "active sources (network), MF, full conversion",
    QUOTE_OPERATING,
    "mean",
    "magnitude",
    band=(ACTIVE * (1 - BAND), ACTIVE * (1 + BAND)),
    paper=ACTIVE,
    unit="sources",
)

SEEDS = SeedPlan(initial=5)
"""5 seeds of 600 s per point, paired across schemes and conversions
(NSFNET_STUDIES 2.9). No claim asks a precision, so no seeds are added: the
full run already takes hours (:data:`FULL_COST`)."""

PAIR_SCOPE_SEEDS = SeedPlan(initial=2)
"""The λ-per-ordered-pair reading's own plan: 2 seeds of 600 s per point
(declared in session 24, before any full run of the reading). At 350 flows/s
per edge it costs about ten times the registered run (the docstring above), so
5 seeds were never affordable (the 2-seed run took 1 h 55 min on the 2 cores,
so 5 would take about 5 h; docs/PERFORMANCE.md "Session 24"); NSFNET_STUDIES 4
proposed a single 300 s seed. Two seeds keep the registered run length and
warm-up and give every paired statistic a second seed (n = 2: the intervals
are wide and most orderings cannot be decided, which the report says); the
reading's purpose is the operating point it reaches (active sources, burst
loss) and the magnitudes there."""

FULL_COST = (
    "probe (2026-11-25, nice, the shared 2-core machine at load average 4.6): one 60 s run at the full "
    "settings (MF, full conversion, 20 s warm-up, seed 1) took 7.4 s of wall time for 52.9 M events; a "
    "180 s run gave 170.6 M events (linear in the simulated time: about 200 flows active throughout, "
    "no growth after 10 s). A 600 s run is then about 530 M events, 75-90 s on one core; the 45 runs "
    "of the full mode about 1 h on one core, about 35 min with -j 2 on idle cores"
)
"""The full mode's estimated cost (VALIDATION.md, "S3 registered")."""


def optical(conversion: str, converters: int = CONVERTERS) -> Dict[str, Any]:
    """The ``[optical]`` table of one conversion setting (LAUC-VF, Δ = 10 µs,
    unlimited edge queue, as :func:`obsim.topologies.nsfnet` builds it)."""
    t: Dict[str, Any] = {
        "processing": "10 us",
        "scheduler": "lauc-vf",
        "conversion": conversion,
        "edge_queue": "unlimited",
    }
    if conversion == "partial":
        t.update(converters=converters, converter_sharing="node")
    return t


def assembly(scheme: str, allocation: str = "proactive") -> Dict[str, Any]:
    """Every edge's assembly table for ``scheme`` (:data:`SCHEMES`)."""
    t = {"trigger": "timer", "timeout": TIMEOUT, "acks": "bypass", **SCHEMES[scheme]}
    if t["selection"] == "dmq" and allocation != "proactive":
        t["allocation"] = allocation
    return t


def cases(quick: bool, partial: bool = False) -> List[Tuple[str, str]]:
    """The runs' (scheme, conversion): Table 2's schemes at full conversion,
    then Fig. 14's MF and SMQ at partial and none (quick: NSFNET_STUDIES 4's
    five, and MF at partial conversion if ``partial``)."""
    if quick:
        runs = [("MF", "full"), ("SMQ", "full"), ("DMQ-2", "full"), ("DMQ-8", "full"), ("MF", "none")]
        return runs + [("MF", "partial")] if partial else runs
    return [(s, "full") for s in ORDER] + [(s, c) for c in CONVERSIONS[1:] for s in FIG14_SCHEMES]


def case_name(scheme: str, conversion: str) -> str:
    """A run's ``name`` (the axis the results are split by)."""
    return f"gonzalez2009-S3-{scheme}-{conversion}"


def split_name(name: str) -> Tuple[str, str]:
    """(scheme, conversion) of a :func:`case_name`."""
    rest = str(name).rsplit("-S3-", 1)[-1]
    scheme, conversion = rest.rsplit("-", 1)
    return scheme, conversion


def metrics(warmup: float) -> Dict[str, Any]:
    """Per run: the pair's synchronization index (``meta.sync_index``), the
    moments of its 3 ms rate into the first core router (Mbit/s, the
    ``paths`` row of the pair's TCP bursts), the TCP burst loss ratio over
    every path, the network's mean active generated flows after the warm-up,
    and for reference the pair's Σ cwnd/RTT (eq. 4) and the slow-start share."""
    pair = {"class": "tcp", "ingress": rn.PAIR[0], "egress": rn.PAIR[1]}
    tcp = {"class": "tcp"}

    def bins(stat: str) -> Dict[str, Any]:
        return {
            "table": "paths",
            "column": f"bin_rate_{stat}_bps",
            "agg": "mean",
            "where": pair,
            "scale": 1e-6,
            "unit": "Mbit/s",
            "label": f"{stat} of the pair's 3 ms rate",
        }

    return {
        "index": {"table": "meta", "column": "sync_index", "label": "synchronization index (the pair)"},
        "ave": bins("mean"),
        "std": bins("std"),
        "min": bins("min"),
        "max": bins("max"),
        "bursts": {"table": "paths", "column": "bursts", "agg": "sum", "where": tcp},
        "lost": {"table": "paths", "column": "lost", "agg": "sum", "where": tcp},
        "loss": {"expr": "lost / bursts", "label": "TCP burst loss ratio"},
        "active_s": {"table": "flow_records", "column": "active_after_warmup_s", "agg": "sum"},
        "measured_s": {"table": "meta", "column": "measured_s"},
        "active": {"expr": "active_s / measured_s", "label": "active sources (network)"},
        "pair_flows": {
            "table": "flow_records",
            "column": "flow",
            "agg": "count",
            "where": rn.pair_flows(warmup),
            "label": "the pair's flows that arrived after the warm-up and finished",
        },
        "eq4_mean": {
            "table": "meta",
            "column": "agg_throughput_mean_bps",
            "scale": 1e-6,
            "unit": "Mbit/s",
            "label": "the pair's sum of cwnd/RTT, mean (eq. 4)",
        },
        "eq4_std": {"table": "meta", "column": "agg_throughput_std_bps", "scale": 1e-6, "unit": "Mbit/s"},
        "slow_start": {"table": "meta", "column": "slow_start_fraction_mean", "label": "share in slow start"},
    }


def build(
    quick: bool,
    *,
    rate: float = RATE_PER_EDGE,
    size_law: str = "min",
    routing: str = "hops",
    access_delay: str = "0 s",
    max_window: int = 128,
    variant: str = "sack",
    converters: int = CONVERTERS,
    allocation: str = "proactive",
    sync_index: str = "churn",
    pair: bool = True,
    sample_interval: str = "700 ms",
    length: Optional[Tuple[Tuple[str, float], Tuple[str, float]]] = None,
) -> Dict[str, Any]:
    """The S3 experiment: :func:`obsim.topologies.nsfnet_tcp` at W = 2, the
    3 ms timer at every edge and ``rate`` flows/s per edge of the 4 MB law
    ``size_law`` (:func:`.ramantas_nsfnet.size_table`), the runs of
    :func:`cases` zipped as one axis (every edge's assembly table, the
    ``[optical]`` table and the run's name move together). The keyword
    arguments are the registered readings; an alternative changes one."""
    full, short = length if length is not None else (FULL_LENGTH, QUICK_LENGTH)
    duration, warmup = short if quick else full
    scenario = nsfnet_tcp(
        rate=rate,
        size=rn.size_table(MEAN_SIZE, size_law),
        wavelengths=WAVELENGTHS,
        timeout=TIMEOUT,
        routing=routing,
        access_delay=access_delay,
        tcp={"profile": "ns2", "variant": variant, "mss": "1000 B", "max_window": max_window},
        duration=duration,
        warmup=f"{warmup:g} s",
    )
    scenario["name"] = "gonzalez2009-S3"
    scenario["metrics"] = {
        "sample_interval": sample_interval,
        "throughput_bin": "3 ms",
        "sync_index": sync_index,
        "pair_bins": True,
    }
    if pair:
        scenario["metrics"]["pair"] = list(rn.PAIR)
    # The converters reading changes only the partial runs: quick mode has
    # none, so under that reading it adds MF at partial conversion.
    runs = cases(quick, partial=converters != CONVERTERS)
    edges = [i for i, n in enumerate(scenario["nodes"]) if n["kind"] == "edge"]
    zipped: Dict[str, List[Any]] = {
        f"nodes[{i}].assembly": [assembly(s, allocation) for s, _ in runs] for i in edges
    }
    zipped["optical"] = [optical(c, converters) for _, c in runs]
    zipped["name"] = [case_name(s, c) for s, c in runs]
    return {
        "name": "S3_gonzalez2009" + ("_quick" if quick else ""),
        "description": "TCP synchronization on NSFNET by assembly scheme and wavelength conversion",
        "scenario": scenario,
        "replications": {"count": 2 if quick else SEEDS.initial, "base_seed": 2009},
        "sweep": {"zip": [zipped]},
        "metrics": metrics(warmup),
        "plots": [],
    }


def experiment(quick: bool) -> Dict[str, Any]:
    """The registered S3 experiment."""
    return build(quick)


def _positive(xs: Sequence[float]) -> List[float]:
    """Per-seed values for a ratio statistic: a value that is not positive
    (an index of a run whose pair lost nothing is NaN; a zero has no
    logarithm) is NaN, so that seed's pair is dropped and ``n`` says so."""
    return [x if x > 0 else math.nan for x in xs]


def elasticity(i_none: float, i_full: float, l_none: float, l_full: float) -> float:
    """One seed's ln(I_none / I_full) / ln(L_none / L_full) (S3.triple); NaN
    when a value is not positive or the losses are equal."""
    vals = (i_none, i_full, l_none, l_full)
    if not all(v > 0 for v in vals) or l_none == l_full:
        return math.nan
    return math.log(i_none / i_full) / math.log(l_none / l_full)


def claim_rows(df: "pandas.DataFrame") -> List[Dict[str, Any]]:
    """S3's claim rows from the results with ``scheme`` and ``conversion``
    columns."""
    rows: List[Dict[str, Any]] = []
    x_of = {s: i + 1 for i, s in enumerate(ORDER)}

    def at(s: str, c: str = "full") -> "pandas.DataFrame":
        return df[(df["scheme"] == s) & (df["conversion"] == c)]

    full = [s for s in ORDER if len(at(s))]
    for s in full:
        rows.append(CLAIMS[f"idx:{s}"].decide(by_seed(at(s), "index").tolist()).row(s, x_of[s]))
        rows.append(CLAIMS[f"std:{s}"].decide(by_seed(at(s), "std").tolist()).row(s, x_of[s]))
    for a, b in zip(full, full[1:]):
        for key, metric in (("idxorder", "index"), ("stdorder", "std")):
            xa, xb = paired(at(a), at(b), metric)
            rows.append(
                CLAIMS[f"{key}:{a}:{b}"].decide(_positive(xa), _positive(xb)).row(f"{a} > {b}", x_of[a])
            )
    if "MF" in full:
        for s in full[1:]:
            xa, xb = paired(at(s), at("MF"), "ave")
            rows.append(CLAIMS[f"ave:{s}"].decide(_positive(xa), _positive(xb)).row(f"{s} ~ MF", x_of[s]))
    for s in FIG14_SCHEMES:
        if s in full:
            rows.append(CLAIMS[f"ave35:{s}"].decide(by_seed(at(s), "ave").tolist()).row(s, x_of[s]))
    if "MF" in full:
        rows.append(CLAIMS["loss"].decide(by_seed(at("MF"), "loss").tolist()).row("MF, full conversion", 1))
        rows.append(
            CLAIMS["active"].decide(by_seed(at("MF"), "active").tolist()).row("MF, full conversion", 1)
        )
    for s in FIG14_SCHEMES:
        none, fl = at(s, "none"), at(s, "full")
        if not (len(none) and len(fl)):
            continue
        i_none, i_full = paired(none, fl, "index")
        rows.append(
            CLAIMS[f"fig14:{s}"]
            .decide(_positive(i_none), _positive(i_full))
            .row(f"{s}: no conversion > full", x_of[s])
        )
        l_none, l_full = paired(none, fl, "loss")
        e = [elasticity(*v) for v in zip(i_none, i_full, l_none, l_full)]
        rows.append(CLAIMS[f"triple:{s}"].decide(e).row(f"{s}: none against full", x_of[s]))
    return rows


def with_cases(results: "pandas.DataFrame") -> "pandas.DataFrame":
    """``results`` with ``scheme`` and ``conversion`` columns (from ``name``)."""
    df = results.copy()
    split = [split_name(n) for n in df["name"]]
    df["scheme"] = [s for s, _ in split]
    df["conversion"] = [c for _, c in split]
    return df


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    """The comparison table: Table 2's magnitudes and orderings, the AVE
    equivalences, the operating point (MF, full conversion) and Fig. 14."""
    import pandas as pd

    from . import COMPARISON_COLUMNS

    rows = claim_rows(with_cases(results)) if len(results) else []
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


QUOTE_EDGE_SCOPE = (
    '§4: "average aggregated throughput of all sources for a specific source-destination pair was '
    'measured to be ~35 Mb/s" with "40 KB minimum ON size" and "a mean file size of 4 MB": at λ per edge '
    'the realised mean of this law (about 0.3-1 MB) gives 17-57 Mbit/s per pair, and "~2000 active '
    'sources" a 5 s completion time; a [[flow_generators]] rate is per source node (NSFNET_STUDIES 2.1)'
)
QUOTE_PAIR_SCOPE = (
    '§4: "TCP arrivals were modeled with a Poisson process with a λ = 50 flows/s rate", read per ordered '
    "pair as R1-R4 register it for ramantas2007 (350 flows/s per edge)"
)
QUOTE_NET_SCOPE = (
    '§4: "a λ = 50 flows/s rate" for the whole network (6.25 flows/s per edge): the per-pair AVE of 35 '
    "Mbit/s at the stated 4 MB mean needs about 1.1 flows/s per pair (NSFNET_STUDIES 2.1)"
)
QUOTE_ALPHA_MEAN = (
    '§4: "a Pareto distribution process of p load and 40 KB minimum ON size" and "a mean file size of '
    '4 MB": α = m / (m - 40 KB) = 1.0101, the only law that keeps both numbers (NSFNET_STUDIES 2.2)'
)
QUOTE_SACK = '§3: "multiple TCP SACK agents" (ns-2 Agent/TCP/Sack1; the same simulator in §4)'
QUOTE_RENO = "ramantas2007 §2 discusses Reno and NewReno; not the variant used (a sensitivity)"
QUOTE_PARTIAL_1 = "Nothing stated: 1 converter per node, shared by its output fibres (NSFNET_STUDIES 2.8)"
QUOTE_PARTIAL_2 = "Nothing stated: 2 converters per node, N1's choice"
QUOTE_PROACTIVE = (
    '§4: "The flow allocation algorithm may be proactive by aggregating together different flows per '
    "assembly cycle or a posteriori avoiding aggregating together flows that suffered from a segment "
    'loss in the same burst"; Table 2 names "DMQ-2/4/8" without saying which; "the random but equal '
    'distribution of flows to different queues truly desynchronize transmission" describes the proactive one'
)
QUOTE_POSTERIORI = (
    '§4: "In the case of a posteriori flow allocation, the aforementioned algorithm is applied to only '
    'the flows that suffered from a burst loss"'
)
QUOTE_CHURN = (
    '§2.5: "Let us sample the window of each TCP flow at fixed intervals and count and sum the number of '
    "dropped flows per sample (N_di)\": a loss is a change between two samples of one flow's window, so "
    "N_F,i counts the flows sampled at both ends of interval i; over the pair's flows, as Table 2's other "
    'columns are "for a specific source-destination pair" (NSFNET_STUDIES 2.10)'
)
QUOTE_AT_SAMPLE = (
    "Eq. (1) with N_F = the flows active at each sample (obsim's definition before churn, docs/MODEL.md "
    '"Metrics"), the pair\'s flows'
)
QUOTE_ALL_FLOWS = "Eq. (1) under churn over every flow of the network, not one pair's"
QUOTE_07 = '§3: "it is sampled every 0.7 s during the simulation run" (the same group\'s index)'
QUOTE_3MS = '§4: "Throughput is measured in time spans of 3 ms": the index sampled at the same span'
QUOTE_600 = '§3: "600 s simulation run" (the only run length the group states); 200 s warm-up (R07 §3)'
QUOTE_2000 = "G09 Fig. 6's 2000 s run (§3.2); 200 s warm-up"
QUOTE_ACCESS_100 = 'G09 Table 1: "Access link delay (d) 100 ms" (the §3 access network)'


def _apply(**kw: Any) -> Callable[[Dict[str, Any], bool], Dict[str, Any]]:
    return rebuilt(build, **kw)


READINGS = (
    Reading("lambda scope", "50 flows/s per edge", QUOTE_EDGE_SCOPE, registered=True),
    Reading(
        "lambda scope",
        "50 flows/s per ordered pair (350/s per edge)",
        QUOTE_PAIR_SCOPE,
        apply=_apply(rate=RATE_PER_EDGE * rn.DESTINATIONS),
        seeds=PAIR_SCOPE_SEEDS,
    ),
    Reading(
        "lambda scope",
        "50 flows/s network-wide (6.25/s per edge)",
        QUOTE_NET_SCOPE,
        apply=_apply(rate=RATE_PER_EDGE / 8),
    ),
    Reading("size law", "Pareto, min 40 KB, alpha from the mean", QUOTE_ALPHA_MEAN, registered=True),
    Reading(
        "size law",
        "Pareto alpha 1.5 with the mean (ns-2 default)",
        rn.QUOTE_NS2_PARETO,
        apply=_apply(size_law="ns2"),
    ),
    Reading("routing", "fewest hops", rn.QUOTE_HOPS, registered=True),
    Reading("routing", "least delay", rn.QUOTE_DELAY, apply=_apply(routing="delay")),
    Reading("access delay", "0 s", rn.QUOTE_NO_ACCESS_DELAY, registered=True),
    Reading("access delay", "1 ms", rn.QUOTE_ACCESS_DELAY, apply=_apply(access_delay="1 ms")),
    Reading("access delay", "100 ms", QUOTE_ACCESS_100, apply=_apply(access_delay="100 ms")),
    Reading("W_M", "128 segments", rn.QUOTE_WM, registered=True),
    Reading("W_M", "20 segments (ns-2 window_)", rn.QUOTE_WM20, apply=_apply(max_window=20)),
    Reading(
        "W_M",
        "10000 segments (unbounded)",
        "No bound: G1's receive window",
        apply=_apply(max_window=10000),
    ),
    Reading("TCP variant", "SACK", QUOTE_SACK, registered=True),
    Reading("TCP variant", "Reno", QUOTE_RENO, apply=_apply(variant="reno")),
    Reading("TCP variant", "NewReno", QUOTE_RENO, apply=_apply(variant="newreno")),
    Reading("converters (partial)", "1 per node", QUOTE_PARTIAL_1, registered=True),
    Reading("converters (partial)", "2 per node", QUOTE_PARTIAL_2, apply=_apply(converters=2)),
    Reading("DMQ allocation", "proactive", QUOTE_PROACTIVE, registered=True),
    Reading("DMQ allocation", "a posteriori", QUOTE_POSTERIORI, apply=_apply(allocation="a_posteriori")),
    Reading("index definition", "flows active at both instants, the pair", QUOTE_CHURN, registered=True),
    Reading(
        "index definition",
        "flows active at the sample, the pair",
        QUOTE_AT_SAMPLE,
        apply=_apply(sync_index="at_sample"),
    ),
    Reading(
        "index definition",
        "flows active at both instants, all flows",
        QUOTE_ALL_FLOWS,
        apply=_apply(pair=False),
    ),
    Reading("index sampling", "0.7 s", QUOTE_07, registered=True),
    Reading("index sampling", "3 ms", QUOTE_3MS, apply=_apply(sample_interval="3 ms")),
    Reading("run length", "600 s (200 s warm-up)", QUOTE_600, registered=True),
    Reading("run length", "2000 s (200 s warm-up)", QUOTE_2000, apply=_apply(length=LONG_LENGTH)),
)
"""The readings of docs/NSFNET_STUDIES.md 2.12 for S3 (registered first per
parameter); the module docstring says which are expensive in full mode."""

FIG15_16 = ("MF", "SMQ", "DMQ-2", "DMQ-4")
"""The schemes of Figs. 15 (MF, SMQ) and 16 (DMQ-2, DMQ-4), at full conversion."""

FIG15_16_COLUMNS = ("scheme", "replication", "seed", "start_s", "rate_bps")
"""The columns of ``fig15_16.parquet``: the pair's 3 ms rate into the first
core router, one row per bin after the warm-up, per scheme (one seed)."""


def figs15_16(extra: ExtraRuns, results: "pandas.DataFrame") -> "pandas.DataFrame":
    """S3's ``post_run``: Figs. 15-16's time series ("aggregated throughput
    variation versus time of all sources of an edge router for a specific
    source-destination pair"). For each scheme of :data:`FIG15_16` at full
    conversion present in ``results``, its first replication is run again
    with ``metrics.pair_series`` on (same scenario and seed otherwise, so the
    same run: the rerun's ``paths`` row of the pair must equal the
    original's, or the scheme is left out and counted in the returned
    ``f15_mismatch`` column), and the pair's bins are written to
    ``fig15_16.parquet`` (:data:`FIG15_16_COLUMNS`). ``results`` is returned
    with ``f15_mismatch`` added (0 where nothing was rerun)."""
    import pandas as pd

    from ..files import atomic_write_parquet
    from ..store import frame_to_arrow

    todo = []
    for scheme in FIG15_16:
        rows = results[results["name"] == case_name(scheme, "full")]
        if rows.empty:
            continue
        row = rows.sort_values("replication").iloc[0]
        sc = extra.scenario_of(int(row["point"]))
        sc.setdefault("metrics", {})["pair_series"] = True
        todo.append((scheme, row, sc))
    keys = extra.run([(sc, int(row["seed"])) for _s, row, sc in todo])
    frames = []
    mismatch = {}
    cols = ["ingress", "egress", "bursts", "lost", "bin_rate_mean_bps", "bin_rate_std_bps"]
    for (scheme, row, _sc), key in zip(todo, keys):
        if key is None:
            mismatch[row["key"]] = 1
            continue
        orig = extra.store.read_table(row["key"], "paths").to_pandas()[cols]
        again = extra.extra_store.read_table(key, "paths").to_pandas()[cols]
        if not orig.reset_index(drop=True).equals(again.reset_index(drop=True)):
            mismatch[row["key"]] = 1
            continue
        bins = extra.extra_store.read_table(key, "pair_bins").to_pandas()
        frames.append(
            pd.DataFrame(
                {
                    "scheme": scheme,
                    "replication": int(row["replication"]),
                    "seed": int(row["seed"]),
                    "start_s": bins["start_s"].to_numpy() if len(bins) else [],
                    "rate_bps": bins["rate_bps"].to_numpy() if len(bins) else [],
                },
                columns=list(FIG15_16_COLUMNS),
            )
        )
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(FIG15_16_COLUMNS))
    atomic_write_parquet(extra.out / "fig15_16.parquet", frame_to_arrow(table))
    return results.assign(f15_mismatch=[mismatch.get(k, 0) for k in results["key"]])


FIG15_SPAN_S = 10.0
"""The detail span of Fig. 15(b) ("Detailed illustration for 10s span"),
from the end of the warm-up."""


def figures(out: Path) -> List[Tuple[str, "Figure", str]]:
    """Figs. 15 and 16 redrawn from ``fig15_16.parquet`` (:func:`figs15_16`):
    per figure, the pair's 3 ms aggregated rate over the measured time (a)
    and over its first :data:`FIG15_SPAN_S` s (b), one line per scheme (MF
    and SMQ; DMQ-2 and DMQ-4). Nothing without the file or its rows."""
    import pandas as pd
    from matplotlib.figure import Figure

    path = Path(out) / "fig15_16.parquet"
    if not path.is_file():
        return []
    bins = pd.read_parquet(path)
    figs: List[Tuple[str, "Figure", str]] = []
    for stem, schemes, what in (
        ("S3_fig15", ("MF", "SMQ"), "Fig. 15: MF and SMQ"),
        ("S3_fig16", ("DMQ-2", "DMQ-4"), "Fig. 16: DMQ-2 and DMQ-4"),
    ):
        rows = bins[bins["scheme"].isin(schemes)]
        if rows.empty:
            continue
        fig = Figure(figsize=(10, 6), layout="tight")
        whole, detail = fig.subplots(2, 1)
        t0 = float(rows["start_s"].min())
        for scheme, g in rows.groupby("scheme", sort=False):
            t, r = g["start_s"].to_numpy(), g["rate_bps"].to_numpy() / 1e6
            whole.plot(t, r, linewidth=0.3, label=scheme)
            near = t < t0 + FIG15_SPAN_S
            detail.plot(t[near], r[near], linewidth=0.6, label=scheme)
        whole.set(xlabel="time (s)", ylabel="rate (Mbit/s)", title="(a) after the warm-up")
        detail.set(xlabel="time (s)", ylabel="rate (Mbit/s)", title=f"(b) the first {FIG15_SPAN_S:g} s")
        for ax in (whole, detail):
            ax.legend(loc="upper right")
        seeds = ", ".join(str(int(x)) for x in sorted(rows["replication"].unique()))
        figs.append(
            (
                stem,
                fig,
                f"gonzalez2009 {what} redrawn: the pair's TCP burst bytes into the first core router "
                f"per 3 ms bin, as a rate (replication {seeds} of each scheme at full conversion, rerun "
                "with metrics.pair_series; fig15_16.parquet)",
            )
        )
    return figs


LINUX = linux_series(
    "S3 keeps gonzalez2009's NSFNET (2 wavelengths x 10 Gbit/s, LAUC-VF, fewest-hop routing), the "
    "registered readings (50 flows/s per edge node, Pareto 40 KB / 4 MB, per-flow 100 Mbit/s access "
    "pipes), the 3 ms timers, the assembly schemes and conversion cases, run length, pair and seeds, "
    "and the TCP parameters the studies state: W_M = 128 MSS (G09 Table 1, max_window) and the "
    "1000 B payload that R08's per-burst segment caps fix (docs/NSFNET_STUDIES.md 2.7, mss). The "
    "paper's SACK becomes Linux's default SACK (RACK-TLP, PRR, CUBIC). Question: do DMQ's lower "
    "synchronization index and rate variance than MF's, and the index's growth with burst loss, "
    "hold with CUBIC's window growth and RACK-TLP's recovery?",
    keep=("mss", "max_window"),
)
"""S3 with today's TCP (issue 17 item 5): ``obsim reproduce S3 --series linux``."""


REPRODUCTION = Reproduction(
    id="S3",
    title=(
        "TCP synchronization on NSFNET by assembly scheme and wavelength conversion "
        "(gonzalez2009 Fig. 14, Table 2, Figs. 15-16)"
    ),
    paper=f"{G09}, §4, Fig. 14, Table 2, Figs. 15-16",
    experiment=experiment,
    compare=compare,
    seeds=SEEDS,
    readings=READINGS,
    series=(LINUX,),
    post_run=figs15_16,
    figures=figures,
    notes=(
        "NSFNET (8 edge, 6 core nodes), 2 wavelengths x 10 Gbit/s, LAUC-VF, TCP SACK (ns-2.35 Sack1, MSS "
        "1000 B, W_M 128), Poisson arrivals of 50 flows/s per edge node, Pareto sizes with a 40 KB minimum "
        "and 4 MB mean (alpha = 1.0101), per-flow 100 Mbit/s access pipes, fewest-hop routing, 3 ms timer "
        "assembly at every edge: MF, SMQ (2 static queues), DMQ-2/4/8 (proactive) at full conversion "
        "(Table 2), and MF and SMQ also at partial (1 converter per node) and no conversion (Fig. 14); "
        "600 s with a 200 s warm-up, 5 seeds paired across runs. The pair is N10 -> N14 (drawn before "
        "any run). Index: eq. (1) under churn over the pair's flows, sampled every 0.7 s (flows active "
        "at both ends of an interval; those whose TD + TO count grew). AVE/STD/MAX: the 3 ms rate of "
        "the pair's TCP bursts into the first core router; Table 2's MIN is not a claim (one 1040 B "
        "packet in 3 ms is 2.77 Mbit/s, above the paper's 0.66). Burst loss: TCP bursts lost / sent; "
        "active sources: the network's mean number of generated flows after the warm-up. Orderings "
        "are paired ratios over seeds; 'similar AVE' an equivalence within 1 +/- 0.15; 'triples from "
        "0.5 to 5%' the elasticity ln(I ratio) / ln(loss ratio), paper 0.477, band +/- 50%. --quick: "
        "MF, SMQ, DMQ-2, DMQ-8 at full and MF at no conversion, 15 s (5 s warm-up), 2 seeds: too "
        "short to decide anything. Figs. 15-16: the pair's 3 ms rate over time for MF, SMQ, DMQ-2, DMQ-4 "
        "(first seed, rerun with metrics.pair_series) in fig15_16.parquet. Readings: docs/NSFNET_STUDIES.md "
        "section 2."
    ),
    comparison_plot={"xlabel": "scheme (1 MF, 2 SMQ, 3 DMQ-2, 4 DMQ-4, 5 DMQ-8)", "ylabel": "measured"},
)

"""G5: gurel2008 §4.2, Fig. 14 and Table 4: short-lived TCP flows on the
chain, goodput per destination group against the assembly timeout, and the
gain of M = 2 and M = 4 burstifiers per egress over M = 1.

The chain of G3/G4 (:func:`obsim.topologies.gurel_chain`: 1 Gbit/s optical
links, background bursts 1/λ = 2 ms and 1/μ = 200 µs, Δ = 50 µs, LAUC-VF),
with the 20 FTP flows replaced as §4.2 says: "Each IP router S_1-S_20 is
assigned with a flow generator, which produces TCP Reno flows with Bounded
Pareto size distribution and Poisson arrival pattern. The flows assigned to
S_1-S_20 send their segments to the respective destination D_1-D_20. For
each flow generator, Bounded Pareto parameters are α = 1.2, k = 10 MBytes,
p = 1 GBytes, and flow arrival rate is λ' = 0.1 arrivals/s. TCP flow IDs are
uniformly distributed in {0, 1, 2, 3}, and M ∈ {1, 2, 4}."

Claims (each a :class:`~obsim.reproductions.claims.Claim` in this module,
declared before any run):

* Table 4: the gain of M over M = 1 per destination group (each M at its
  best timeout, chosen on seeds reserved for the choice, as Tables 2-3's
  "maximum average goodputs"), a ratio of mean goodputs in the band
  g ± 50% of the paper's gain g;
* "the improvement is most significant for the nearest egress node": the
  gain to E1 over the gain to E5, paired by seed, greater than 1;
* "For the egress nodes D_1-D_4 ... the goodput constantly decreases with
  the burstification delay": goodput to E1 at the shortest over the longest
  timeout greater than 1, per M;
* "for the egress of D_17-D_20, the decrease in goodput for increasing
  assembly timeout is minimal": goodput to E5 at the longest over the
  shortest timeout equivalent to 1 within ±0.15, per M.

A flow's goodput is its delivered bytes over its time alive (to its end or
the run's end: ``flow_records.throughput_bps``), averaged over the flows
that arrived after the warm-up; the paper does not say how unfinished flows
count, and with sizes up to 1 GB many are still running at the end. The
alternative reading (finished flows only, their size over their completion
time) is run by ``--readings``.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

from ..topologies import gurel_chain
from . import Reproduction, SeedPlan, split_roles
from .claims import Claim
from .pairing import paired
from .readings import Reading
from .series import linux_series

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

AX_M = "nodes[0].assembly.queues"
AX_T = "nodes[0].assembly.timeout"
GROUPS = ("E1", "E2", "E3", "E4", "E5")
"""Destination groups D1-D4 ... D17-D20 (egress E1 nearest)."""
FLOWS_PER_EGRESS = 4

PAPER_GAIN: Dict[int, Tuple[float, ...]] = {
    4: (30.52, 19.33, 12.03, 16.40, 17.21),
    2: (15.46, 8.82, 6.45, 9.34, 7.43),
}
"""gurel2008 Table 4: percentage goodput increase over M = 1, D1-D4 ... D17-D20."""
BAND = 0.5
"""A Table 4 cell holds when the measured gain lies in g ± 50% of g (G4's bar)."""
FLAT_MARGIN = 0.15
"""E5 "nearly flat": goodput ratio longest / shortest timeout within 1 ± 0.15
(the project's "close/similar" margin, S1)."""

SIZE = {"law": "bounded_pareto", "alpha": 1.2, "k": "10 MB", "p": "1 GB"}
"""§4.2: "Bounded Pareto parameters are α = 1.2, k = 10 MBytes, p = 1 GBytes"."""
RATE = 0.1
"""§4.2: "flow arrival rate is λ' = 0.1 arrivals/s" per generator."""
TIMEOUTS = ("1 ms", "2 ms", "5 ms", "10 ms", "20 ms")
"""Fig. 14's assembly timeouts are not listed in the text: G4's sweep."""
DURATION, WARMUP = 1000.0, 100.0
"""Run length and warm-up (s): not stated for §4.2 (G1's "600 s" has no
source either). A flow of the mean size (36.3 MB) takes about 3 s at the 50
Mbit/s access rate and minutes at the loss-limited rates seen on the chain,
so the run is long enough for many flows per source and group (about 90
arrivals per source after the warm-up)."""
SEEDS = SeedPlan(initial=6, step=6, cap=24, selection=2, quick_selection=1)
"""2 seeds choose each M's best timeout per group; 6 estimation seeds to
start, 6 more while an M = 4 cell's CI is wider than half the paper's gain,
at most 24; the estimation seeds run only where :func:`estimate_at` says
(the chosen and the end timeouts first, then the unmet cells' chosen
timeouts), so the full run stays near an hour on 2 cores."""

QUOTE_RANDOM = '§4.2: "TCP flow IDs are uniformly distributed in {0, 1, 2, 3}, and M ∈ {1, 2, 4}"'
QUOTE_MODULO = "obsim's sequential flow ids taken modulo M (every M-th arriving flow shares a queue)"
QUOTE_ALIVE = (
    '§4.2: "The average goodput of the TCP flows is shown in Fig. 14 for each egress node": every flow '
    "that arrived after the warm-up, delivered bytes over its time alive (no completion filter is stated)"
)
QUOTE_FINISHED = "A flow's goodput as its size over its completion time: only finished flows"


def _m(m: Any) -> int:
    return int(m)


def _ms(t: Any) -> float:
    num, unit = str(t).split()
    return float(num) * {"s": 1e3, "ms": 1.0, "us": 1e-3}[unit]


def metrics(finished_only: bool = False) -> Dict[str, Any]:
    """Per run and destination group: mean flow goodput (Mbit/s) of the
    flows that arrived after the warm-up (``finished_only``: of those that
    also finished, size over completion time)."""
    out: Dict[str, Any] = {}
    for k, e in enumerate(GROUPS):
        dst = [f"D{i}" for i in range(k * FLOWS_PER_EGRESS + 1, (k + 1) * FLOWS_PER_EGRESS + 1)]
        where: Dict[str, Any] = {"dst": dst, "start_s": {"min": WARMUP}}
        column = "throughput_bps"
        if finished_only:
            where["finished"] = True
            column = "goodput_bps"
        out[f"goodput_{e}"] = {
            "table": "flow_records",
            "column": column,
            "agg": "mean",
            "where": where,
            "scale": 1e-6,
            "unit": "Mbit/s",
            "label": f"mean flow goodput to {e}",
        }
        out[f"flows_{e}"] = {"table": "flow_records", "column": "flow", "agg": "count", "where": where}
    return out


def experiment(quick: bool, mapping: str = "random", finished_only: bool = False) -> Dict[str, Any]:
    """The G5 sweep (M × T); ``mapping`` and ``finished_only``: the
    readings."""
    duration, warmup = (200.0, WARMUP) if quick else (DURATION, WARMUP)
    scenario = gurel_chain(duration=f"{duration:g} s", warmup=f"{warmup:g} s", variant="reno")
    scenario["name"] = "gurel2008-G5"
    scenario["nodes"][0]["assembly"]["mapping"] = mapping
    n = len(GROUPS) * FLOWS_PER_EGRESS
    scenario.pop("flows")
    scenario["flow_generators"] = [
        {"name": f"S{i}", "from": f"S{i}", "to": [f"D{i}"], "rate": RATE, "size": dict(SIZE)}
        for i in range(1, n + 1)
    ]
    return {
        "name": "G5_gurel2008" + ("_quick" if quick else ""),
        "description": "Short-lived Reno flows on the chain: goodput per destination group vs timeout and M",
        "scenario": scenario,
        "replications": {"count": 1 if quick else SEEDS.initial, "base_seed": 4208},
        "sweep": {
            "grid": {
                AX_M: [1, 4] if quick else [1, 2, 4],
                AX_T: ["2 ms", "20 ms"] if quick else list(TIMEOUTS),
            }
        },
        "metrics": metrics(finished_only),
        "plots": [
            {
                "x": AX_T,
                "y": f"goodput_{e}",
                "series": AX_M,
                "xlabel": "assembly timeout",
                "ylabel": f"mean flow goodput to {e} (Mbit/s)",
            }
            for e in ("E1", "E5")
        ],
    }


def cell_claim(m: int, grp: str) -> Claim:
    """Table 4's cell for M and a destination group."""
    g = PAPER_GAIN[m][GROUPS.index(grp)]
    return Claim(
        name="goodput M over M=1 (best T of each; ratio of means)",
        statement=f"Table 4: {g:g}% goodput increase, M = {m}, {grp}",
        statistic="ratio_of_means",
        kind="magnitude",
        band=(1.0 + (1.0 - BAND) * g / 100.0, 1.0 + (1.0 + BAND) * g / 100.0),
        paper=1.0 + g / 100.0,
        unit="ratio",
        precision=g / 200.0 if m == 4 else math.nan,
    )


NEAREST_LARGEST = Claim(
    name="gain of E1 over gain of E5 (paired ratio of per-seed gains)",
    statement='§4.2: "the improvement is most significant for the nearest egress node (more than 30% for '
    'M = 4), while the improvement decreases for the further egress nodes"',
    statistic="paired_ratio",
    kind="greater",
    unit="ratio",
)
E1_FALLS = Claim(
    name="goodput to E1, shortest / longest timeout",
    statement='§4.2: "For the egress nodes D_1-D_4, the drop probability is so high that the DFL gain cannot '
    "compensate the delay penalty as the assembly timeout is increased; therefore, the goodput constantly "
    'decreases with the burstification delay"',
    statistic="paired_ratio",
    kind="greater",
    unit="ratio",
)
E5_FLAT = Claim(
    name="goodput to E5, longest / shortest timeout",
    statement='§4.2: "for the egress of D_17-D_20, the decrease in goodput for increasing assembly '
    'timeout is minimal even for large burstification delays"',
    statistic="paired_ratio",
    kind="equivalent",
    threshold=1.0,
    margin=FLAT_MARGIN,
    unit="ratio",
)


def best_timeouts(sel: "pandas.DataFrame") -> Dict[Tuple[int, str], Any]:
    """Per (M, group): the timeout of the highest mean goodput on ``sel``."""
    best: Dict[Tuple[int, str], Any] = {}
    for m, g in sel.groupby(AX_M, sort=True):
        for grp in GROUPS:
            best[(_m(m), grp)] = g.groupby(AX_T)[f"goodput_{grp}"].mean().idxmax()
    return best


CASE_CELL = re.compile(r"^M=(?P<m>\d+) (?P<grp>E\d)$")
"""The case of a Table 4 cell row (:func:`compare`): ``"M=4 E1"``."""


def estimate_at(
    sel: "pandas.DataFrame", unmet: Optional["pandas.DataFrame"]
) -> Callable[[Mapping[str, Any]], bool]:
    """Where G5 runs estimation seeds (the two-phase seed plan, as G1), from
    the selection seeds' runs ``sel``. The first seeds (``unmet`` None): at
    each M, the timeouts chosen on ``sel`` for the five destination groups
    (Table 4's cells compare them) and the smallest and largest swept
    timeouts (the E1 and E5 claims compare those). Further seeds: only at
    the chosen timeouts of the cells in ``unmet`` (the M = 4 cells whose
    interval is still wider than half the paper's gain) and of M = 1 for
    the same groups, the two sides of those cells' ratios."""
    best = best_timeouts(sel)
    wanted: Set[Tuple[int, Any]] = set()
    if unmet is None:
        ts = sorted(sel[AX_T].unique(), key=_ms)
        wanted = {(m, t) for (m, _grp), t in best.items()}
        wanted |= {(m, t) for m in {m for m, _grp in best} for t in (ts[0], ts[-1])}
    else:
        for case in unmet["case"]:
            cell = CASE_CELL.match(str(case))
            if cell:
                grp = cell["grp"]
                wanted |= {(int(cell["m"]), best[(int(cell["m"]), grp)]), (1, best[(1, grp)])}

    def keep(axes: Mapping[str, Any]) -> bool:
        return (_m(axes[AX_M]), axes[AX_T]) in wanted

    return keep


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    """Best T on the selection seeds; every claim on the estimation seeds."""
    import pandas as pd

    from . import COMPARISON_COLUMNS

    if not len(results):
        return pd.DataFrame([], columns=list(COMPARISON_COLUMNS))
    sel, est, separate = split_roles(results)
    note = "" if separate else "; best T chosen on the same seeds (no selection seeds)"
    best = best_timeouts(sel)

    def at(m: int, t: Any) -> "pandas.DataFrame":
        return est[(est[AX_M].map(_m) == m) & (est[AX_T] == t)]

    rows: List[Dict[str, Any]] = []
    ms = sorted({_m(m) for m in est[AX_M]})
    for m in ms:
        if m == 1 or m not in PAPER_GAIN:
            continue
        gains = {}
        for grp in GROUPS:
            a, b = paired(at(m, best[(m, grp)]), at(1, best[(1, grp)]), f"goodput_{grp}")
            gains[grp] = (a, b)
            row = cell_claim(m, grp).decide(a, b).row(f"M={m} {grp}", float(GROUPS.index(grp) + 1))
            row["method"] += note
            rows.append(row)
        (a1, b1), (a5, b5) = gains["E1"], gains["E5"]
        n = min(len(a1), len(a5))
        near = [x / y for x, y in zip(a1[:n], b1[:n])]
        far = [x / y for x, y in zip(a5[:n], b5[:n])]
        rows.append(NEAREST_LARGEST.decide(near, far).row(f"M={m}: gain largest for the nearest egress", 0.0))
    ts = sorted(est[AX_T].unique(), key=_ms)
    for m in ms:
        lo, hi = at(m, ts[0]), at(m, ts[-1])
        rows.append(
            E1_FALLS.decide(*paired(lo, hi, "goodput_E1")).row(f"M={m}: E1 {ts[0]} > {ts[-1]}", float(m))
        )
        rows.append(
            E5_FLAT.decide(*paired(hi, lo, "goodput_E5")).row(f"M={m}: E5 {ts[-1]} ~ {ts[0]}", float(m))
        )
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


READINGS = (
    Reading("burstifier mapping", "random (ids uniform in {0..3})", QUOTE_RANDOM, registered=True),
    Reading(
        "burstifier mapping",
        "flow id modulo M",
        QUOTE_MODULO,
        apply=lambda exp, quick: experiment(quick, mapping="modulo"),
    ),
    Reading("flow goodput", "every flow, over its time alive", QUOTE_ALIVE, registered=True),
    Reading(
        "flow goodput",
        "finished flows only",
        QUOTE_FINISHED,
        apply=lambda exp, quick: experiment(quick, finished_only=True),
    ),
)
"""The parameters §4.2 leaves unstated."""

LINUX = linux_series(
    "G5 keeps gurel2008's chain, its generators (0.1 flows/s per source, bounded Pareto 10 MB to "
    "1 GB), M, the assembly timeouts, the burstifier mapping, run length, warm-up and seeds, and the "
    "TCP parameters §3 states: MSS 1040 B and receive windows of 10 000 MSS (mss, rwnd, max_window). "
    "§4.2's Reno becomes what Linux runs today: SACK with RACK-TLP, PRR and CUBIC (Linux has no "
    "Reno fast recovery; every G5 claim is about M and T, not the variant, so all stay applicable). "
    "Question: do more burstifiers per egress still raise the short-lived flows' goodput, most for "
    "the nearest destinations, with today's TCP?",
    keep=("mss", "rwnd", "max_window"),
)
"""G5 with today's TCP (issue 17 item 5): ``obsim reproduce G5 --series linux``."""


REPRODUCTION = Reproduction(
    id="G5",
    title="Short-lived TCP flows on the chain: goodput per egress vs timeout and M "
    "(gurel2008 Fig. 14, Table 4)",
    paper="Gurel and Karasan, Using multiple per egress burstifiers for enhanced TCP performance in OBS "
    "networks, Photonic Network Communications 2008, §4.2, Fig. 14 and Table 4",
    experiment=experiment,
    compare=compare,
    seeds=SEEDS,
    estimate_at=estimate_at,
    readings=READINGS,
    series=(LINUX,),
    notes=(
        "The chain of G3/G4 with each source S1-S20 a Poisson generator (0.1 flows/s) of TCP Reno flows "
        "to D1-D20, bounded Pareto sizes (alpha 1.2, 10 MB to 1 GB), flows sharing their source's 50 "
        "Mbit/s access link; burstifier per flow drawn uniformly (mapping random); M in {1, 2, 4}, T in "
        "{1, 2, 5, 10, 20} ms; 1000 s runs with a 100 s warm-up (not stated by the paper). Flow goodput: "
        "delivered bytes over time alive, averaged over the flows that arrived after the warm-up, per "
        "destination group. Each M at its best T per group, chosen on 2 reserved seeds; gains as ratios of "
        "mean goodputs over 6 to 24 other seeds, paired by seed. --quick: M in {1, 4}, T in {2, 20} ms, "
        "200 s, 1 selection + 1 estimation seed."
    ),
    comparison_plot={"xlabel": "destination group (1 = D1-D4 ... 5 = D17-D20)", "ylabel": "goodput ratio"},
)

"""G4: gurel2008 Tables 2-3 and Figs. 12-13, gain of M = 2 and M = 4
burstifiers per egress over M = 1 on the chain, per destination group.

Gurel and Karasan 2008 §4.1: the chain of G3 (:func:`obsim.topologies.gurel_chain`),
20 FTP flows, 4 per egress, Reno (Table 2) and SACK (Table 3), Δ in {50, 100,
200, 500} µs, M in {1, 2, 4} (M = 4: one burstifier per flow). The tables give
"the performance improvement in the maximum average goodputs": for each M the
goodput is maximised over the assembly timeout T (Figs. 12-13 sweep T), so T
is swept here and each M is taken at its own best T, per destination group
(egress E1 = D1-D4 ... E5 = D17-D20) and for all flows ("Avg."). The best T
is chosen on seeds reserved for the choice (:data:`SEEDS`, ``selection``);
the gains are estimated on the other seeds.

Every row is a :class:`~obsim.reproductions.claims.Claim`:

* a table cell with a gain g of at least :data:`SMALL_GAIN` %: magnitude, the
  ratio of mean goodputs (M over M = 1, paired by seed) in the band g ± 50%
  of g (REPRODUCTIONS.md, "of the same order"), with whether the paper's
  value lies in the measured CI;
* a cell with a smaller gain (the paper's "no gain", e.g. SACK to D17-D20):
  equivalence of that ratio to 1 within :data:`NO_GAIN_MARGIN`;
* "the improvement in the average goodput is maximum for the flows destined
  for closer egress nodes": per (variant, Δ, M), the gain of E1 over that of
  E5 greater than 1, as a paired ratio (geometric mean over seeds of
  ``(gM_E1 / g1_E1) / (gM_E5 / g1_E5)``, a paired difference of log gains).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ..stats import mean_ci
from ..topologies import gurel_chain
from . import Reproduction, SeedPlan, split_roles
from .claims import Claim
from .g3_gurel2008 import chain_readings

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

AX_D = "optical.processing"
AX_M = "nodes[0].assembly.queues"
AX_T = "nodes[0].assembly.timeout"
AX_V = "tcp.variant"
GROUPS = ("E1", "E2", "E3", "E4", "E5", "all")
"""Destination groups D1-D4 ... D17-D20, and all flows (the tables' Avg.)."""

# gurel2008 Table 2 (Reno) and Table 3 (SACK): percentage goodput increase
# over M = 1, per destination group and on average: (Δ µs, M) -> values in
# GROUPS order.
PAPER_GAIN: Dict[str, Dict[Tuple[int, int], Tuple[float, ...]]] = {
    "reno": {
        (50, 4): (16.91, 8.15, 6.86, 2.91, 2.43, 6.22),
        (50, 2): (6.47, 4.22, 4.19, 3.28, 1.36, 3.87),
        (100, 4): (34.82, 26.83, 8.61, 6.21, 1.89, 6.91),
        (100, 2): (13.91, 7.78, 2.85, 4.91, 0.82, 2.69),
        (200, 4): (26.78, 35.79, 31.73, 6.70, 15.52, 23.15),
        (200, 2): (13.86, 14.86, 12.36, 4.31, 6.01, 6.70),
        (500, 4): (26.49, 27.83, 31.22, 34.97, 15.95, 36.92),
        (500, 2): (13.36, 10.94, 14.53, 16.76, 3.27, 10.24),
    },
    "sack": {
        (50, 4): (39.41, 8.47, 8.79, 5.43, 0.38, 4.91),
        (50, 2): (19.72, 4.76, 3.73, 3.15, 0.04, 3.03),
        (100, 4): (48.81, 54.93, 13.05, 10.35, 0.62, 6.33),
        (100, 2): (26.21, 25.25, 6.09, 8.68, 0.46, 2.72),
        (200, 4): (44.79, 57.58, 45.30, 6.91, 0.46, 24.45),
        (200, 2): (25.43, 25.01, 26.07, 4.74, 0.00, 4.35),
        (500, 4): (47.83, 38.83, 48.91, 54.20, 1.29, 37.88),
        (500, 2): (24.76, 17.81, 25.86, 25.44, 0.73, 8.07),
    },
}
BAND = 0.5
"""Magnitude band of a table cell: the paper's gain g ± ``BAND``·g (the bar
of REPRODUCTIONS.md, "of the same order"); it excludes no gain when g > 0."""
SMALL_GAIN = 2.0
"""Table cells below this gain (%) are the paper's "no gain" (11 cells,
mostly SACK to D17-D20, 0.00-1.89%); a magnitude band around them would all
but contain the no-gain ratio 1, so they are equivalence claims."""
NO_GAIN_MARGIN = (1.0 + BAND) * SMALL_GAIN / 100.0
"""Equivalence margin of a "no gain" cell: ±3% on the goodput ratio, the
upper edge of the magnitude band of a gain of exactly ``SMALL_GAIN`` (so the
two rules meet where one takes over from the other)."""
SEEDS = SeedPlan(initial=6, step=6, cap=30, selection=4, quick_selection=1)
"""6 seeds to start, 6 more while an Avg. M = 4 cell's CI is wider than half
the paper's gain, at most 30; 4 further seeds (replications 0-3) choose the
best T (1 in --quick)."""

INGRESS_SEEDS = SeedPlan(initial=3, selection=1)
"""The plan of the generator-at-I reading (declared before its first run,
session 10): 1 seed chooses each best T, 3 estimate, no precision rounds.
Its runs cost 22-27 s against about 1 s registered (the TCP bursts are not
lost there, so the flows carry 61 times the segments: docs/VALIDATION.md,
G4), so the reproduction's plan (4,080 runs) would take about 28 h of CPU;
this one about 240 runs. Its claims are therefore weaker evidence than the
registered reading's, and the report says which plan each reading ran."""


def _metrics() -> Dict[str, Any]:
    m: Dict[str, Any] = {
        "goodput_all": {
            "table": "flows", "column": "goodput_bps", "agg": "sum", "scale": 1e-6, "unit": "Mbit/s",
            "label": "total goodput",
        }
    }
    for e in GROUPS[:-1]:
        m[f"goodput_{e}"] = {
            "table": "flows", "column": "goodput_bps", "agg": "sum", "where": {"group": e}, "scale": 1e-6,
            "unit": "Mbit/s", "label": f"goodput of the flows to {e}",
        }
        p = {"egress": e, "class": "tcp"}
        m[f"bytes_{e}"] = {"table": "paths", "column": "bytes", "agg": "sum", "where": p}
        m[f"bursts_{e}"] = {"table": "paths", "column": "bursts", "agg": "sum", "where": p}
        m[f"lost_{e}"] = {"table": "paths", "column": "lost", "agg": "sum", "where": p}
        m[f"burst_kb_{e}"] = {"expr": f"bytes_{e} / bursts_{e} / 1000", "unit": "KB", "label": f"mean burst size to {e}"}
        m[f"loss_{e}"] = {"expr": f"lost_{e} / bursts_{e}", "label": f"TCP burst loss ratio to {e}"}
    return m


def experiment(quick: bool, **reading: Any) -> Dict[str, Any]:
    """The G4 sweep; ``reading``: keyword arguments of
    :func:`~obsim.topologies.gurel_chain` that an alternative reading
    changes (:func:`~obsim.reproductions.g3_gurel2008.chain_readings`)."""
    scenario = gurel_chain(
        duration="30 s" if quick else "100 s", warmup="5 s" if quick else "10 s", **reading
    )
    scenario["name"] = "gurel2008-G4"
    grid: Dict[str, Any] = {
        AX_V: ["reno"] if quick else ["reno", "sack"],
        AX_D: ["500 us"] if quick else ["50 us", "100 us", "200 us", "500 us"],
        AX_M: [1, 4] if quick else [1, 2, 4],
        AX_T: ["2 ms", "10 ms"] if quick else ["1 ms", "2 ms", "5 ms", "10 ms", "20 ms"],
    }
    return {
        "name": "G4_gurel2008" + ("_quick" if quick else ""),
        "description": "Goodput per destination group vs assembly timeout, burstifiers per egress M, Δ and variant",
        "scenario": scenario,
        # Full mode: SEEDS sets the count (4 selection + 6 to 30 estimation seeds).
        "replications": {"count": 2 if quick else 6, "base_seed": 1208},
        "sweep": {"grid": grid},
        "metrics": _metrics(),
        "plots": [
            {"x": AX_T, "y": "goodput_E1", "series": AX_M, "xlabel": "assembly timeout", "ylabel": "goodput to E1 (Mbit/s)"},
            {"x": AX_T, "y": "goodput_E5", "series": AX_M, "xlabel": "assembly timeout", "ylabel": "goodput to E5 (Mbit/s)"},
        ],
    }


def _ms(t: Any) -> float:
    num, unit = str(t).split()
    return float(num) * {"s": 1e3, "ms": 1.0, "us": 1e-3}[unit]


def _us(t: Any) -> int:
    return round(_ms(t) * 1000)


def best_timeouts(sel: "pandas.DataFrame") -> Dict[Tuple[str, int, int, str], Any]:
    """Per (variant, Δ µs, M, group): the timeout with the highest mean
    goodput over the runs ``sel`` (the selection seeds)."""
    best: Dict[Tuple[str, int, int, str], Any] = {}
    for (v, d, m), g in sel.groupby([AX_V, AX_D, AX_M], sort=True):
        for grp in GROUPS:
            means = g.groupby(AX_T)[f"goodput_{grp}"].mean()
            best[(str(v), _us(d), int(m), grp)] = means.idxmax()
    return best


def _series(est: "pandas.DataFrame", v: str, d: int, m: int, grp: str, t: Any) -> Dict[int, float]:
    """Goodput of a group per replication at (variant, Δ, M, T)."""
    g = est[(est[AX_V] == v) & (est[AX_D].map(_us) == d) & (est[AX_M] == m) & (est[AX_T] == t)]
    return {int(r): float(x) for r, x in zip(g["replication"], g[f"goodput_{grp}"])}


def cell_claim(v: str, d: int, m: int, grp: str) -> Optional[Claim]:
    """The claim of one cell of Table 2 (Reno) or 3 (SACK), if it exists."""
    paper = PAPER_GAIN.get(v, {}).get((d, m))
    if paper is None:
        return None
    g = paper[GROUPS.index(grp)]
    label = "Avg." if grp == "all" else grp
    common = dict(
        statement=f"Table {2 if v == 'reno' else 3}: {g:g}% goodput increase, {v}, Δ = {d} µs, "
        f"M = {m}, {label}",
        statistic="ratio_of_means",
        paper=1.0 + g / 100.0,
        unit="ratio",
    )
    if g < SMALL_GAIN:
        return Claim(
            name=f"goodput M over M=1 (best T of each; paper: no gain, within 1 ± {NO_GAIN_MARGIN:g})",
            kind="equivalent",
            margin=NO_GAIN_MARGIN,
            **common,  # type: ignore[arg-type]
        )
    return Claim(
        name="goodput M over M=1 (best T of each; ratio of means)",
        kind="magnitude",
        band=(1.0 + (1.0 - BAND) * g / 100.0, 1.0 + (1.0 + BAND) * g / 100.0),
        # The average improvement with M = 4 ("6-37%") is the tables' headline: its CI must be
        # narrower than half the paper's gain to tell that gain from none.
        precision=g / 200.0 if grp == "all" and m == 4 else math.nan,
        **common,  # type: ignore[arg-type]
    )


NEAREST_LARGEST = Claim(
    name="gain of E1 over gain of E5 (paired ratio of per-seed gains; claim: > 1)",
    statement="§4.1: 'the improvement in the average goodput is maximum for the flows destined for "
    "closer egress nodes'",
    statistic="paired_ratio",
    kind="greater",
    unit="ratio",
)


def claim_rows(
    best: Dict[Tuple[str, int, int, str], Any], est: "pandas.DataFrame", note: str = ""
) -> List[Dict[str, Any]]:
    """Every claim row of G4 from the chosen timeouts and the estimation runs."""
    rows: List[Dict[str, Any]] = []
    series = {k: _series(est, k[0], k[1], k[2], k[3], t) for k, t in best.items()}

    def paired(a: Dict[int, float], b: Dict[int, float]) -> Tuple[List[float], List[float]]:
        reps = sorted(set(a) & set(b))
        return [a[r] for r in reps], [b[r] for r in reps]

    for (v, d, m, grp) in sorted(best, key=lambda k: (k[0], k[1], -k[2], GROUPS.index(k[3]))):
        if m == 1 or (v, d, 1, grp) not in best:
            continue
        claim = cell_claim(v, d, m, grp)
        if claim is None:
            continue
        row = claim.decide(*paired(series[(v, d, m, grp)], series[(v, d, 1, grp)])).row(
            f"{v} Δ={d} µs M={m} {grp}", float(GROUPS.index(grp) + 1)
        )
        row["method"] += note
        rows.append(row)
    for (v, d, m) in sorted({(k[0], k[1], k[2]) for k in best if k[2] != 1}):
        keys = [(v, d, m, "E1"), (v, d, 1, "E1"), (v, d, m, "E5"), (v, d, 1, "E5")]
        if not all(k in series for k in keys):
            continue
        s = [series[k] for k in keys]
        reps = sorted(set(s[0]) & set(s[1]) & set(s[2]) & set(s[3]))
        reps = [r for r in reps if all(x[r] > 0 for x in s)]  # a gain needs positive goodputs
        near = [s[0][r] / s[1][r] for r in reps]
        far = [s[2][r] / s[3][r] for r in reps]
        row = NEAREST_LARGEST.decide(near, far).row(
            f"{v} Δ={d} µs M={m}: gain largest for the nearest egress", 0.0
        )
        row["method"] += note
        rows.append(row)
    return rows


def gains(results: "pandas.DataFrame") -> "pandas.DataFrame":
    """Tables 2-3 measured, for docs and figures: per (variant, Δ, M > 1,
    group) the ratio of mean goodputs over M = 1 (each at its best T, chosen
    on the selection seeds) with its CI, from the estimation seeds."""
    import pandas as pd

    from .claims import ratio_of_means

    sel, est, _ = split_roles(results)
    best = best_timeouts(sel)
    rows = []
    for (v, d, m, grp), t in sorted(best.items()):
        if m == 1 or (v, d, 1, grp) not in best:
            continue
        a = _series(est, v, d, m, grp, t)
        b = _series(est, v, d, 1, grp, best[(v, d, 1, grp)])
        reps = sorted(set(a) & set(b))
        e = ratio_of_means([a[r] for r in reps], [b[r] for r in reps])
        rows.append(
            {
                "variant": v, "delta_us": d, "m": m, "group": grp, "gain": 100.0 * (e.value - 1.0),
                "gain_ci": 100.0 * e.half_width, "timeout": t, "timeout_m1": best[(v, d, 1, grp)],
            }
        )
    return pd.DataFrame(rows)


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    """The comparison table: best T on the selection seeds, the claims on
    the estimation seeds."""
    import pandas as pd

    from . import COMPARISON_COLUMNS

    if not len(results):
        return pd.DataFrame([], columns=list(COMPARISON_COLUMNS))
    sel, est, separate = split_roles(results)
    note = "" if separate else "; best T chosen on the same seeds (no selection seeds)"
    rows = claim_rows(best_timeouts(sel), est, note)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def figure(results: "pandas.DataFrame", path: Any, variant: str = "reno", delta: str = "50 us") -> None:
    """Figs. 12-13: goodput and mean burst size vs T for the nearest (E1)
    and farthest (E5) egress, one line per M (95% CI)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    df = results[(results[AX_V] == variant) & (results[AX_D] == delta)]
    fig, axes = plt.subplots(2, 2, figsize=(8, 6), sharex=True)
    for j, e in enumerate(("E1", "E5")):
        for i, (metric, label) in enumerate(((f"goodput_{e}", "goodput (Mbit/s)"), (f"burst_kb_{e}", "mean burst (KB)"))):
            ax = axes[i][j]
            for m, g in df.groupby(AX_M):
                pts = sorted(g[AX_T].unique(), key=_ms)
                cis = [mean_ci(g[g[AX_T] == t][metric]) for t in pts]
                ax.errorbar([_ms(t) for t in pts], [c.mean for c in cis], yerr=[c.half_width for c in cis],
                            marker="o", ms=3, capsize=2, label=f"M = {m}")
            ax.set_xscale("log")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
            if i == 0:
                ax.set_title(f"{e} ({'nearest, D1-D4' if e == 'E1' else 'farthest, D17-D20'})")
            else:
                ax.set_xlabel("assembly timeout T (ms)")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"G4: gurel2008 Figs. 12-13 ({variant}, Δ = {delta})")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


REPRODUCTION = Reproduction(
    id="G4",
    title="Goodput gain of M = 2, 4 burstifiers per egress on the chain, per destination (gurel2008 Tables 2-3)",
    paper="Gurel and Karasan, Using multiple per egress burstifiers for enhanced TCP performance in OBS "
    "networks, Photonic Network Communications 2008, §4.1, Tables 2-3 and Figs. 12-13",
    experiment=experiment,
    compare=compare,
    notes=(
        "The chain of G3 (scenarios/gurel2008_chain.toml). The tables compare the maximum average goodput "
        "over the assembly timeout: T is swept over 1, 2, 5, 10, 20 ms and each M is taken at its best T per "
        "destination group (and for all flows, the tables' Avg.), chosen on 4 seeds reserved for the "
        "choice; the gains are ratios of mean goodputs over 6 other seeds (more, 6 at a time up to 30, "
        "while an Avg. M = 4 cell's CI is wider than half the paper's gain), paired by seed. Cells the "
        "paper gives below 2% are tested as 'no gain' (within ±3%). 100 s runs, 10 s warm-up. "
        "--quick: Reno, Δ = 500 µs, M in {1, 4}, T in {2, 10} ms, 30 s, 1 selection + 2 estimation seeds."
    ),
    comparison_plot={
        "xlabel": "destination group (1 = D1-D4 ... 5 = D17-D20, 6 = all)",
        "ylabel": "goodput ratio over M = 1",
    },
    seeds=SEEDS,
    readings=chain_readings(experiment, ingress_seeds=INGRESS_SEEDS),
)

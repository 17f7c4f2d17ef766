"""R5: window-based burst assembly on NSFNET (ramantas2007 §5 Table 1,
ramantas2008 §5 Fig. 7): three queues per source-destination pair with
timers 1, 5 and 10 ms, a flow's packets joining the queue its congestion
window selects (cwnd < B: 1 ms; B <= cwnd < C: 5 ms; cwnd >= C: 10 ms),
against single-queue timers of 1, 5 and 10 ms.

The papers' numbers, for "all flows of a single source-destination" (R07)
or "all flows aggregated at a single node and heading for the same
destination" (R08): R07 Table 1, mean throughput (Mbit/s) and variance:
B=100, C=200: 8.4 / 60; B=32, C=100: 11.2 / 50 (the best); the
one-threshold rows "32" and "200" (read as B = C: "no B value means that the
intermediate transition to 5msec assembly is omitted"): 9.1 / 55 and
7.7 / 59; single timers 1, 5, 10 ms: 8.8 / 62, 9.0 / 71, 7.4 / 41. R08
Fig. 7: B in {16, 32}, C swept; "the highest gains in throughput are noted
when C parameter is fourfold B value" (10.7 at B=16, C=64; 9.86 at B=32,
C=128); the variance "is continuously decreasing with the increase of C";
51 at B=16, C=64 against 70 for a single 5 ms queue.

The claims (:data:`CLAIMS`), declared before any run: the best (B, C),
chosen on separate selection seeds, beats every single timer in mean flow
throughput and has a lower variance than the 1 and 5 ms timers (paired by
seed); for each B, C = 4B beats C = B and C = 16B (an interior optimum near
4B) and the variance is higher at C = B than at C = 16B; the mean
throughputs are of the papers' order. Set-up, flows and metrics are R4's
(:mod:`.r4_ramantas`, :mod:`.ramantas_nsfnet`): the pair N10 -> N14's flows
that arrived after the warm-up and finished, throughput = size / completion
time. The window is the sender's cwnd (registered, the papers' assumption);
the edge's own estimate is the alternative reading.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple

from . import Reproduction, SeedPlan, split_roles
from . import ramantas_nsfnet as rn
from .claims import Claim
from .r4_ramantas import metrics
from .readings import Reading, rebuilt

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

AX = rn.AX_A
"""The swept key: every edge's whole assembly table."""

TIMERS = ("1 ms", "5 ms", "10 ms")
"""The single-queue timers (R07 Table 1's last rows, R08 §5's 5 ms)."""
TABLE1: Dict[Tuple[int, int], Tuple[float, float]] = {
    (100, 200): (8.4, 60.0),
    (32, 100): (11.2, 50.0),
    (32, 32): (9.1, 55.0),
    (200, 200): (7.7, 59.0),
}
"""R07 Table 1: (B, C) -> (mean throughput Mbit/s, variance); one-threshold
rows as B = C."""
TABLE1_TIMERS: Dict[str, Tuple[float, float]] = {
    "1 ms": (8.8, 62.0),
    "5 ms": (9.0, 71.0),
    "10 ms": (7.4, 41.0),
}
"""R07 Table 1's single timers: mean throughput and variance (R08 §5 gives 70
for the 5 ms variance)."""
FIG7_B = (16, 32)
"""R08 Fig. 7's two B curves."""
FIG7_MULT = (1, 2, 4, 8, 16)
"""C / B swept (Fig. 7's C axis is not printed: C = B, the two-queue case,
up to C = 16B, past the "C (>256)" where R08 says the scheme behaves as two
queues)."""
FIG7_MULT_QUICK = (1, 4, 16)
FIG7_PEAK = {16: 10.7, 32: 9.86}
"""R08 §5: the maxima at C = 4B (Mbit/s)."""

QUOTE_T1 = (
    'R07 §5: "best performance is obtained for B, C values of 32 and 100 segments. In that case, average '
    'throughput is increased to 11Mbps, while variance is dropped significantly to 50" (Table 1: single '
    "timers 1, 5, 10 ms: 8.8, 9.0, 7.4 Mbit/s, variance 62, 71, 41)"
)
QUOTE_R08 = (
    'R08 §5: "the proposed scheme with different timers provides a higher average throughput together '
    'with a smaller variance"; "variation has been significantly decreased to only 51, as opposed to 70, '
    'in the case of a single queue burstifier with 5msec time"'
)
QUOTE_4B = (
    'R08 §5: "the highest gains in throughput are noted when C parameter is fourfold B value. For example '
    "the \u201cB=16\u201d curve exhibits a maximum of 10.7Mbps for \u201cC=64\u201d, "
    'while the \u201cB=32\u201d curve (corresponding throughput 9.86Mbps) for \u201cC=128\u201d"'
)
QUOTE_VAR_C = (
    'R08 §5: "With respect to the variance of the throughput, it is continuously decreasing with the '
    'increase of C parameter as expected"'
)
QUOTE_SENDER = (
    'R07 §5: "The implementation of the proposed assembly scheme requires three different queues per '
    "destination, one for each type of flow, as well as the communication of the window size to the "
    "burstifier. Albeit the latter require a modification of the TCP mechanism, we have implemented the "
    'scheme in ns-2"; R08 §5: "requires the communication of the window size to the burstifier, which is '
    'not standard in the current TCP implementations"'
)
QUOTE_ESTIMATED = (
    "Neither paper says how an unmodified edge could learn the window; the passive estimate of a "
    "measurement point (the idea of Jaiswal et al., INFOCOM 2004), obsim's rule: data segments per RTT, "
    "RTT from SYN to first data "
    '(docs/MODEL.md, window_source = "estimated")'
)

BAND = 0.5
"""Magnitude band of the mean throughputs: the paper's value ± 50%."""

CLAIMS: Dict[str, Claim] = {}
"""The papers' claims, declared before the run."""
for _t, (_m, _v) in TABLE1_TIMERS.items():
    CLAIMS[f"beats{_t}"] = Claim(
        f"mean flow throughput, best (B, C) / {_t}",
        QUOTE_T1,
        "paired_ratio",
        "greater",
        paper=round(11.2 / _m, 4),
    )
for _t in ("1 ms", "5 ms"):
    CLAIMS[f"var{_t}"] = Claim(
        f"variance of flow throughput, {_t} / best (B, C)",
        QUOTE_R08,
        "paired_ratio",
        "greater",
        paper=round(TABLE1_TIMERS[_t][1] / 50.0, 4),
    )
for _b in FIG7_B:
    for _m in (1, 16):
        CLAIMS[f"4b{_b}x{_m}"] = Claim(
            f"mean flow throughput, B={_b}: C={4 * _b} / C={_m * _b}", QUOTE_4B, "paired_ratio", "greater"
        )
    CLAIMS[f"varc{_b}"] = Claim(
        f"variance of flow throughput, B={_b}: C={_b} / C={16 * _b}", QUOTE_VAR_C, "paired_ratio", "greater"
    )
    CLAIMS[f"peak{_b}"] = Claim(
        f"mean flow throughput, B={_b}, C={4 * _b}",
        QUOTE_4B,
        "mean",
        "magnitude",
        band=(FIG7_PEAK[_b] * (1 - BAND), FIG7_PEAK[_b] * (1 + BAND)),
        paper=FIG7_PEAK[_b],
        unit="Mbit/s",
    )
for _t, (_m, _v) in TABLE1_TIMERS.items():
    CLAIMS[f"mag{_t}"] = Claim(
        f"mean flow throughput, {_t}",
        QUOTE_T1,
        "mean",
        "magnitude",
        band=(_m * (1 - BAND), _m * (1 + BAND)),
        paper=_m,
        unit="Mbit/s",
    )
CLAIMS["magbest"] = Claim(
    "mean flow throughput, best (B, C)",
    QUOTE_T1,
    "mean",
    "magnitude",
    band=(11.2 * (1 - BAND), 11.2 * (1 + BAND)),
    paper=11.2,
    unit="Mbit/s",
)

SEEDS = SeedPlan(initial=5, selection=2, quick_selection=1)
"""2 selection seeds at every (B, C) and timer (they choose the best (B, C)),
then 5 estimation seeds where the claims need them (:func:`estimate_at`).
No precision-driven steps: the full run must stay under an hour on 2 cores."""

FULL_LENGTH = ("45 s", 20.0)
"""Full mode: 45 s runs with a 20 s warm-up at the registered λ, not R1-R4's
600 s with 200 s: about 80 runs must fit an hour on 2 cores. R08 §3: "Results
shown hereinafter correspond to the steady state (constant number of active
sources) of the experiments after 20sec of execution time"."""
QUICK_LENGTH = ("12 s", 4.0)
"""--quick: R1-R4's quick runs (λ / 4)."""
R07_LENGTH = (("600 s", 200.0), ("36 s", 12.0))
"""The run-length reading: R1-R4's 600 s with R07's 200 s warm-up (R07 §3:
"the steady state ... which took place after 200sec of simulation time";
Table 1 is R07's); in quick mode three times the quick length. About 13
times the registered full mode's cost (several hours on 2 cores)."""
QUOTE_R08_STEADY = (
    'R08 §3: "Results shown hereinafter correspond to the steady state (constant number of active '
    'sources) of the experiments after 20sec of execution time"; run length not stated (45 s keeps '
    "the full mode within an hour)"
)
QUOTE_R07_STEADY = (
    'R07 §3: "Results shown hereinafter correspond to the steady state (constant number of active '
    "sources) of the experiments, which took place after 200sec of simulation time\" (Table 1 is R07's)"
)


def window(b: int, c: int, source: str = "sender") -> Dict[str, Any]:
    """The assembly table of window-based assembly with thresholds (B, C)
    and the papers' timers 1, 5, 10 ms, the window from ``source``."""
    t: Dict[str, Any] = {"trigger": "timer", "selection": "window", "thresholds": [b, c], "acks": "bypass"}
    if source != "sender":
        t["window_source"] = source
    return t


def timer(t: str) -> Dict[str, Any]:
    """The assembly table of one timer queue per egress."""
    return {"trigger": "timer", "timeout": t, "selection": "mixed_flow", "acks": "bypass"}


def thresholds(quick: bool) -> List[Tuple[int, int]]:
    """Every (B, C) run: R07 Table 1's rows, then R08 Fig. 7's curves."""
    mults = FIG7_MULT_QUICK if quick else FIG7_MULT
    out: List[Tuple[int, int]] = list(TABLE1)
    for b in FIG7_B:
        for m in mults:
            if (b, m * b) not in out:
                out.append((b, m * b))
    return out


def assemblies(quick: bool, source: str = "sender") -> Tuple[Dict[str, Any], ...]:
    """The swept assembly tables: the single timers, then every (B, C)."""
    return tuple(timer(t) for t in TIMERS) + tuple(window(b, c, source) for b, c in thresholds(quick))


def label(table: Any) -> str:
    """A case's name: ``"T=5 ms"`` or ``"B=32,C=100"`` (``table`` a dict or
    its JSON text, as results store it)."""
    t = json.loads(table) if isinstance(table, str) else dict(table)
    if t.get("selection") == "window":
        b, c = t["thresholds"]
        return f"B={int(b)},C={int(c)}"
    return f"T={t['timeout']}"


def bc(case: str) -> Optional[Tuple[int, int]]:
    """(B, C) of a window case's name, None for a timer."""
    if not case.startswith("B="):
        return None
    b, c = case[2:].split(",C=")
    return int(b), int(c)


def build(
    quick: bool,
    *,
    window_source: str = "sender",
    length: Tuple[Tuple[str, float], Tuple[str, float]] = (FULL_LENGTH, QUICK_LENGTH),
    **kw: Any,
) -> Dict[str, Any]:
    """The R5 experiment (``window_source``, ``length`` (full, quick) and
    ``kw``: a reading's change)."""
    return rn.build(
        quick,
        name="R5_ramantas2008",
        description="Window-based assembly (B, C) against single timers on one NSFNET pair",
        metrics=metrics,
        assemblies=assemblies(quick, window_source),
        length=length,
        **kw,
    )


def experiment(quick: bool) -> Dict[str, Any]:
    """The registered R5 experiment."""
    return build(quick)


def with_cases(results: "pandas.DataFrame") -> "pandas.DataFrame":
    """``results`` with a ``case`` column (:func:`label`)."""
    df = results.copy()
    df["case"] = [label(t) for t in df[AX]]
    return df


def best_case(sel: "pandas.DataFrame") -> Optional[str]:
    """The (B, C) case with the highest mean flow throughput over the runs
    ``sel`` (the selection seeds); ties to the first in name order."""
    win = sel[[bc(c) is not None for c in sel["case"]]]
    if not len(win):
        return None
    means = win.groupby("case")["tput_mean"].mean().sort_index()
    return str(means.idxmax())


def needed(best: Optional[str], quick: bool) -> List[str]:
    """The cases the claims read on estimation seeds."""
    cases = [f"T={t}" for t in TIMERS]
    for b in FIG7_B:
        cases += [f"B={b},C={m * b}" for m in (1, 4, 16)]
    if best is not None and best not in cases:
        cases.append(best)
    return cases


def estimate_at(
    sel: "pandas.DataFrame", unmet: Optional["pandas.DataFrame"]
) -> Callable[[Mapping[str, Any]], bool]:
    """Where estimation seeds run: the timers, the best (B, C) chosen on the
    selection seeds ``sel``, and C = B, 4B, 16B of each Fig. 7 curve; the
    other (B, C) run on the selection seeds only."""
    keep_cases = set(needed(best_case(with_cases(sel)), False))

    def keep(axes: Mapping[str, Any]) -> bool:
        return label(axes[AX]) in keep_cases

    return keep


def _series(est: "pandas.DataFrame", case: str, metric: str) -> Dict[int, float]:
    g = est[est["case"] == case]
    return {int(r): float(x) for r, x in zip(g["replication"], g[metric])}


def _paired(a: Dict[int, float], b: Dict[int, float]) -> Tuple[List[float], List[float]]:
    reps = sorted(set(a) & set(b))
    return [a[r] for r in reps], [b[r] for r in reps]


def claim_rows(best: Optional[str], est: "pandas.DataFrame", note: str = "") -> List[Dict[str, Any]]:
    """R5's claim rows from the estimation runs ``est`` (with ``case``)
    given the ``best`` (B, C) case chosen on the selection seeds."""
    rows: List[Dict[str, Any]] = []
    present = set(est["case"])

    def pair(claim: str, a: str, b: str, metric: str, case: str, x: float = float("nan")) -> None:
        if a in present and b in present:
            rows.append(
                CLAIMS[claim].decide(*_paired(_series(est, a, metric), _series(est, b, metric))).row(case, x)
            )

    def mag(claim: str, a: str, case: str, x: float = float("nan")) -> None:
        if a in present:
            rows.append(CLAIMS[claim].decide(list(_series(est, a, "tput_mean").values())).row(case, x))

    if best is not None:
        for t in TIMERS:
            pair(f"beats{t}", best, f"T={t}", "tput_mean", f"{best} (chosen{note}) against T={t}")
        for t in ("1 ms", "5 ms"):
            pair(f"var{t}", f"T={t}", best, "tput_var", f"T={t} against {best} (chosen{note})")
        mag("magbest", best, f"{best} (chosen{note})")
    for b in FIG7_B:
        four = f"B={b},C={4 * b}"
        for m in (1, 16):
            pair(f"4b{b}x{m}", four, f"B={b},C={m * b}", "tput_mean", f"B={b}: C=4B against C={m}B", b)
        pair(f"varc{b}", f"B={b},C={b}", f"B={b},C={16 * b}", "tput_var", f"B={b}: C=B against C=16B", b)
        mag(f"peak{b}", four, four, b)
    for t in TIMERS:
        mag(f"mag{t}", f"T={t}", f"T={t}")
    return rows


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    """The comparison table: the best (B, C) chosen on the selection seeds,
    the claims decided on the estimation seeds."""
    import pandas as pd

    from . import COMPARISON_COLUMNS

    if not len(results):
        return pd.DataFrame([], columns=list(COMPARISON_COLUMNS))
    df = with_cases(results)
    sel, est, separate = split_roles(df)
    note = "" if separate else " on the same seeds"
    rows = claim_rows(best_case(sel), est, note)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def _apply(**kw: Any) -> Callable[[Dict[str, Any], bool], Dict[str, Any]]:
    return rebuilt(build, **kw)


READINGS = (
    Reading("window source", "the sender's cwnd (communicated)", QUOTE_SENDER, registered=True),
    Reading(
        "window source",
        "estimated at the edge (segments per RTT)",
        QUOTE_ESTIMATED,
        apply=_apply(window_source="estimated"),
    ),
    Reading("run length", "45 s, 20 s warm-up (R08)", QUOTE_R08_STEADY, registered=True),
    Reading("run length", "600 s, 200 s warm-up (R07)", QUOTE_R07_STEADY, apply=_apply(length=R07_LENGTH)),
) + rn.readings(build)
"""How the edge learns the window (registered: the sender's, as the papers
assume), then the readings shared by R1-R4 (docs/NSFNET_STUDIES.md 2.12)."""

REPRODUCTION = Reproduction(
    id="R5",
    title=(
        "Window-based assembly against single timers on one NSFNET pair "
        "(ramantas2007 Table 1, ramantas2008 Fig. 7)"
    ),
    paper=f"{rn.R07}, §5, Table 1; and {rn.R08}, §5, Fig. 7",
    experiment=experiment,
    compare=compare,
    seeds=SEEDS,
    estimate_at=estimate_at,
    readings=READINGS,
    notes=(
        "R4's set-up (NSFNET, SACK, 50 flows/s per ordered pair, Pareto 40 KB minimum and 700 KB mean, "
        "per-flow 100 Mbit/s access pipes, W_M 128) with every edge's assembly swept: single timers 1, 5, "
        "10 ms, and window-based assembly (three queues per egress, timers 1/5/10 ms chosen by the "
        "sender's cwnd against B, C) at R07 Table 1's (B, C) = (100, 200), (32, 100), (32, 32), (200, 200) "
        "(one-threshold rows as B = C) and R08 Fig. 7's B = 16, 32 with C = B, 2B, 4B, 8B, 16B. Flows: "
        "the pair N10 -> N14's that arrived after the warm-up and finished; throughput = size / "
        "completion time; per run their mean and variance. The best (B, C) is chosen on 2 selection seeds "
        "(mean throughput), the claims are decided on 5 estimation seeds paired by seed. Runs are 45 s "
        "with a 20 s warm-up (R08 §3's steady state after 20 s; not 600 s: the full mode must fit an hour "
        "on 2 cores). --quick: C in "
        "{B, 4B, 16B}, lambda / 4, 12 s, 1 selection + 2 estimation seeds."
    ),
    comparison_plot={
        "xlabel": "B (segments; NaN: timers and the best)",
        "ylabel": "measured (claim: see quantity)",
    },
)

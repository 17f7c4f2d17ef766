"""Y3: yu2004 Fig. 5, the analytic throughput and window ratios of Burst TCP
(BTCP) over TCP for a fast flow, and the paper's statements about them.

Yu, Qiao, Liu, "TCP implementations and false time out detection in OBS
networks", INFOCOM 2004, §V.A: eqs. (4)-(9) (BTCP with BLE or BACK) and
(10) (BTCP with BNAK), evaluated by :mod:`obsim.analysis.yu2004`.

Y3 runs no simulation: it is an *analytic* :class:`Reproduction` (no
experiment). ``obsim reproduce Y3`` writes

* the comparison table (``COMPARISON_COLUMNS``; "measured" is the model,
  every row a :class:`~obsim.reproductions.claims.Claim` on a deterministic
  value, ``statistic = "model"``): the model against the numbers the paper
  gives for the case the model assumes (evenly distributed losses, Table
  III's and Table IV's ``R_BLE/BACK-e``; magnitude rows, band ± 10%), and
  the four properties §V.A states for Fig. 5 (``CLAIMS``, quoted), each
  decided on the model's least margin over the figure's grid;
* Fig. 5 redrawn from the model (:func:`fig5`), as ``figures/Y3_fig5``.

No number is read off Fig. 5 itself: the paper's text states none, and the
copy of the paper the project works from has only the caption. The paper's
tables print two decimals (one cell three), so the model is held to 10%.

The simulated counterpart (BTCP-BLE vs Reno, Tables III-IV) is Y4.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

import numpy as np

from ..analysis import yu2004 as model
from . import COMPARISON_COLUMNS, Reproduction
from .claims import Claim

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure

ID = "Y3"
TITLE = "BTCP over TCP throughput ratios for a fast flow (analysis)"
PAPER = (
    "Yu, Qiao, Liu: TCP Implementations and False Time Out Detection in OBS Networks, "
    "INFOCOM 2004, §V.A eqs. (4)-(10), Fig. 5"
)
P_A = np.logspace(-2, math.log10(0.3), 40)
"""Fig. 5(a): ``W_m p > 1`` (the window never reaches ``W_m``)."""
W_M_B = np.arange(4, 41, 2, dtype=float)
"""Fig. 5(b): ``W_m`` axis (the paper's Fig. 7 uses 10 and 20)."""
P_B = [0.001, 0.003, 0.01, 0.02]
"""Fig. 5(b): loss rates, each with ``W_m p < 1`` over most of ``W_M_B``."""
RTT, RTO = 0.14, 1.0
"""For the BNAK curve (eq. 10): 100 ms path + 40 ms assembly (§III, Table
III's ``T_b``) and ns-2's 1 s minimum RTO of the time (profile ``ns2-2004``)."""
TABLE3_W_M = 10.0
"""Table III does not state ``W_m``; 10 is Fig. 7(a)'s (an assumption)."""
TABLE3_E = {-3.0: 1.00, -2.5: 1.01, -2.0: 1.02, -1.5: 1.05, -1.0: 1.28}
"""yu2004 Table III, ``R_BLE/BACK-e`` (evenly distributed losses, the model's
assumption), by log10 p."""
TABLE4_E = 1.24
"""yu2004 Table IV, ``R_BLE/BACK-e`` at p = 0.1: 1.24 for every T_b from 0.01
to 0.1 s. The model's ratio does not depend on T_b (RTT cancels in
``E[H2]/E[H1]``). Table III prints 1.28 for the same case (p = 0.1,
T_b = 0.04 s), so the paper's own numbers differ by 3% there."""
TOLERANCE = 0.1
"""The paper prints its ratios to two decimals; 10% is the bar for the model."""


def curves() -> "pandas.DataFrame":
    """The Fig. 5 curves: columns ``panel``, ``p``, ``w_m``, ``quantity``,
    ``value`` (panel a: throughput and window ratios vs ``p``; panel b:
    throughput ratio of BLE/BACK and BNAK vs ``W_m`` for each ``p``)."""
    import pandas as pd

    rows: List[Dict[str, Any]] = []
    for p in P_A:
        thr = model.throughput_ratio_unlimited(p)
        rows.append(dict(panel="a", p=p, w_m=math.inf, quantity="throughput", value=thr))
        rows.append(dict(panel="a", p=p, w_m=math.inf, quantity="cwnd", value=model.cwnd_ratio(p)))
    for p in P_B:
        for w in W_M_B:
            thr = model.throughput_ratio(p, w)
            bnak = model.bnak_throughput_ratio(p, w, RTT, RTO)
            rows.append(dict(panel="b", p=p, w_m=w, quantity="throughput", value=thr))
            rows.append(dict(panel="b", p=p, w_m=w, quantity="bnak", value=bnak))
    return pd.DataFrame(rows)


def _table_claim(case: str, paper: float) -> Claim:
    """A table cell against the model: the model's ratio (a deterministic
    value) inside the paper's value ± ``TOLERANCE``."""
    return Claim(
        "BTCP/Reno throughput (model)",
        f"yu2004 {case}: R_BLE/BACK-e = {paper}",
        "model",
        "magnitude",
        band=(paper * (1 - TOLERANCE), paper * (1 + TOLERANCE)),
        paper=paper,
        unit="ratio",
    )


CLAIMS: Dict[str, Claim] = {
    "cwnd_above_1": Claim(
        "least cwnd ratio BTCP/TCP over Fig. 5(a)",
        '§V.A: the average congestion window size ratio between BTCP and TCP "is always larger '
        'than 1" (Fig. 5(a))',
        "model",
        "greater",
        threshold=1.0,
    ),
    "grows_w_m": Claim(
        "least step of the throughput ratio along W_m, over Fig. 5(b)'s p",
        '§V.A: "the benefit of FTO detection in BTCP increases with the maximum window limitation '
        'W_m" (Fig. 5(b))',
        "model",
        "greater",
        threshold=0.0,
    ),
    "grows_p": Claim(
        "least step of the throughput ratio along p, over Fig. 5(b)'s W_m",
        '§V.A: "the large the loss rate p, the better the improvement as more TO events may '
        'occur" (Fig. 5(b))',
        "model",
        "greater",
        threshold=0.0,
    ),
    "bnak_better": Claim(
        "least BNAK - BLE/BACK throughput ratio over Fig. 5(b)",
        '§V.A: "BTCP using BNAK will achieve better performance improvement than BTCP using '
        'either BLE or BACK" (eq. 10)',
        "model",
        "greater",
        threshold=0.0,
    ),
}
"""§V.A's statements about Fig. 5, each decided on the model's least margin
over the figure's grid (``greater`` than its threshold: it holds at every
point)."""


def comparison() -> "pandas.DataFrame":
    """The model against yu2004: Table III's evenly-distributed-loss ratios
    (``W_m`` assumed 10) and the properties §V.A states for Fig. 5, each a
    :class:`~obsim.reproductions.claims.Claim` on the model's deterministic
    value."""
    import pandas as pd

    rows = []
    for lg, paper in TABLE3_E.items():
        p = 10.0**lg
        case = f"Table III R_BLE/BACK-e, W_m={TABLE3_W_M:g}, log p={lg:g}"
        rows.append(_table_claim(case, paper).decide(model.throughput_ratio(p, TABLE3_W_M)).row(case, p))
    case = f"Table IV R_BLE/BACK-e, W_m={TABLE3_W_M:g}, every T_b"
    r4 = model.throughput_ratio(0.1, TABLE3_W_M)
    rows.append(_table_claim(case, TABLE4_E).decide(r4).row(case, 0.1))
    c = curves()
    a = c[c.panel == "a"]
    b = c[c.panel == "b"]
    thr_b = b[b.quantity == "throughput"]
    step_w = min(float(np.min(np.diff(g.sort_values("w_m").value))) for _, g in thr_b.groupby("p"))
    step_p = min(float(np.min(np.diff(g.sort_values("p").value))) for _, g in thr_b.groupby("w_m"))
    bnak = b[b.quantity == "bnak"].value.to_numpy()
    values = {
        "cwnd_above_1": float(a[a.quantity == "cwnd"].value.min()),
        "grows_w_m": step_w,
        "grows_p": step_p,
        "bnak_better": float(np.min(bnak - thr_b.value.to_numpy())),
    }
    cases = {
        "cwnd_above_1": "Fig. 5(a): cwnd ratio always > 1",
        "grows_w_m": "Fig. 5(b): benefit increases with W_m",
        "grows_p": "Fig. 5(b): the larger p, the better the improvement",
        "bnak_better": "eq. (10): BNAK better than BLE/BACK",
    }
    for key, v in values.items():
        rows.append(CLAIMS[key].decide(v).row(cases[key]))
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def fig5() -> "Figure":
    """Fig. 5 from the model: (a) throughput and window ratios vs p for
    ``W_m p > 1``; (b) throughput ratio vs ``W_m`` for ``W_m p < 1``, BNAK
    dashed."""
    from matplotlib.figure import Figure

    c = curves()
    fig = Figure(figsize=(10, 4), layout="tight")
    ax_a, ax_b = fig.subplots(1, 2)
    a = c[c.panel == "a"]
    for q, label in (("throughput", "throughput ratio"), ("cwnd", "cwnd ratio")):
        s = a[a.quantity == q]
        ax_a.semilogx(s.p, s.value, label=label)
    ax_a.set(xlabel="burst loss probability p", ylabel="BTCP / TCP", title="(a) W_m p > 1")
    ax_a.legend()
    b = c[c.panel == "b"]
    for p, g in b.groupby("p"):
        thr = g[g.quantity == "throughput"]
        line = ax_b.plot(thr.w_m, thr.value, label=f"p={p:g}")[0]
        bn = g[g.quantity == "bnak"]
        ax_b.plot(bn.w_m, bn.value, linestyle="--", color=line.get_color())
    ax_b.set(xlabel="maximum window W_m (packets)", ylabel="BTCP / TCP throughput", title="(b) W_m p < 1")
    ax_b.legend(title="BLE/BACK (solid), BNAK (dashed)", loc="center right", fontsize="small")
    return fig


def figure5(path: Union[str, Path]) -> Path:
    """Writes :func:`fig5` to ``path`` (PNG); returns it."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig5().savefig(out, dpi=120)
    return out


def _compare(results: Optional["pandas.DataFrame"], exp: Any) -> "pandas.DataFrame":
    return comparison()


def _figures(_out: Path) -> List[Tuple[str, "Figure", str]]:
    """Fig. 5 from the model (nothing read from the result directory)."""
    return [
        (
            "Y3_fig5",
            fig5(),
            "yu2004 Fig. 5 from eqs. (4)-(10): (a) BTCP/TCP throughput and window ratios for "
            "W_m p > 1; (b) throughput ratio vs W_m for W_m p < 1 (BNAK dashed, RTT 0.14 s, RTO 1 s)",
        )
    ]


REPRODUCTION = Reproduction(
    id=ID,
    title=TITLE,
    paper=PAPER,
    experiment=None,
    compare=_compare,
    figures=_figures,
    notes=(
        "Analytic: the model of yu2004 §V.A (eqs. 4-10, obsim.analysis.yu2004), no simulation. "
        "Compared with the paper's numbers for evenly distributed losses, the model's assumption "
        f"(Table III and Table IV rows R_BLE/BACK-e), with W_m = {TABLE3_W_M:g} assumed (Fig. 7(a)'s; "
        "the tables do not state W_m) as magnitude rows (the model within the paper's value "
        "+-10%), and with the four properties §V.A states for Fig. 5, each decided on the model's "
        "least margin over the figure's grid ('greater': it holds at every point). No value is read off Fig. 5: the text gives none. BNAK curves: RTT 0.14 s, "
        "RTO 1 s (assumed). The simulated counterpart is Y4."
    ),
    comparison_plot={"xlabel": "burst loss probability p", "ylabel": "BTCP / Reno throughput", "logx": True},
)


__all__ = ["ID", "PAPER", "REPRODUCTION", "TITLE", "comparison", "curves", "fig5", "figure5"]

"""Y1: yu2004 Figs. 1-3, one burst loss and how Reno, NewReno and SACK
recover from it, for a medium-rate flow (125 KB/s access, T_b = 40 ms) and a
fast flow (1 MB/s, T_b = 0.2 s) on the 4-node OBS path.

Exactly one burst of the flow is lost (`pattern = "single"`), after the
window has opened. Claims of yu2004 §III.A (``CLAIMS``, quoted), decided on
the runs: Fig. 1(a) Reno with W = 20 ends the burst loss (BL = 5) in a
timeout; Fig. 1(b) with W = 200 it recovers without one; Fig. 2(a) BL = 5,
W = 40: Reno times out, NewReno and SACK do not, NewReno's goodput is above
Reno's and SACK's above NewReno's ("SACK has the best performance"; the old
check accepted SACK = NewReno); Fig. 2(b) BL = 15, W = 40: NewReno does
worse than Reno, SACK best; Fig. 3 fast flow: a timeout for all three,
which then perform the same (max / min goodput equivalent to 1 within 1%).
The scenario has no randomness: one run per case, its numbers exact
(decided as deterministic values, ``statistic = "model"``).
Every run records `snd_nxt` every 10 ms for the "sequence number mod 60"
traces of the figures.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List

from ..topologies import obs_path
from . import Reproduction
from .claims import Claim

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

# (case, variant, W, access rate, T_b, index of the lost burst)
CASES = [
    ("fig1a", "reno", 20, "1 Mbit/s", "40 ms", 100),
    ("fig1b", "reno", 200, "1 Mbit/s", "40 ms", 100),
    ("fig2a", "reno", 40, "1 Mbit/s", "40 ms", 100),
    ("fig2a", "newreno", 40, "1 Mbit/s", "40 ms", 100),
    ("fig2a", "sack", 40, "1 Mbit/s", "40 ms", 100),
    ("fig2b", "reno", 40, "1 Mbit/s", "120 ms", 40),
    ("fig2b", "newreno", 40, "1 Mbit/s", "120 ms", 40),
    ("fig2b", "sack", 40, "1 Mbit/s", "120 ms", 40),
    ("fig3", "reno", 100, "8 Mbit/s", "200 ms", 20),
    ("fig3", "newreno", 100, "8 Mbit/s", "200 ms", 20),
    ("fig3", "sack", 100, "8 Mbit/s", "200 ms", 20),
]


def experiment(quick: bool) -> Dict[str, Any]:
    scenario = obs_path(
        access_rate="1 Mbit/s",
        assembly_time="40 ms",
        p=0.0,
        tcp={"profile": "ns2-2003", "variant": "reno", "mss": "1000 B", "max_window": 20},
        duration="12 s",
    )
    scenario["name"] = "yu2004-Y1"
    scenario["simulation"]["warmup"] = "2 s"
    scenario["links"][2]["burst_loss"] = {"pattern": "single", "index": 100, "flow": 0}
    scenario["trace"] = {"seq": True, "interval": "10 ms"}
    cases = CASES
    return {
        "name": "Y1_yu2004" + ("_quick" if quick else ""),
        "description": "One burst loss: Reno, NewReno, SACK; medium and fast flows",
        "scenario": scenario,
        "replications": {"count": 1, "base_seed": 2004},
        "sweep": {
            "zip": [
                {
                    "name": [f"yu2004-Y1-{c[0]}-{c[1]}" for c in cases],
                    "tcp.variant": [c[1] for c in cases],
                    "tcp.max_window": [c[2] for c in cases],
                    "links[0].rate": [c[3] for c in cases],
                    "links[4].rate": [c[3] for c in cases],
                    "nodes[1].assembly.timeout": [c[4] for c in cases],
                    "nodes[4].assembly.timeout": [c[4] for c in cases],
                    "links[2].burst_loss.index": [c[5] for c in cases],
                }
            ]
        },
        "metrics": {
            "goodput": {"table": "flows", "column": "goodput_bps", "agg": "sum", "scale": 1e-3, "unit": "kbit/s", "label": "goodput"},
            "timeouts": {"table": "flows", "column": "to_events", "agg": "sum", "label": "timeouts"},
            "td": {"table": "flows", "column": "td_events", "agg": "sum", "label": "TD loss events"},
            "bursts_lost": {"table": "flows", "column": "bursts_lost", "agg": "sum", "label": "bursts lost"},
        },
        "plots": [{"x": "name", "y": "goodput", "xlabel": "case", "ylabel": "goodput (kbit/s)"}],
    }


def _count(name: str, statement: str, kind: str) -> Claim:
    """A claim on a count of events in one deterministic run: at least one
    (``greater`` than 0.5) or none (``less`` than 0.5)."""
    return Claim(name, statement, "model", kind, threshold=0.5)


def _order(name: str, statement: str, kind: str = "greater") -> Claim:
    """A claim that one variant's goodput is above (below) another's: their
    ratio greater (less) than 1, exact in one deterministic run."""
    return Claim(name, statement, "model", kind, threshold=1.0)


CLAIMS: Dict[str, Claim] = {
    "fig1a": _count(
        "timeouts",
        '§III.A.1: "if the congestion window is small, i.e., W=20 packets ... a TO occurs at time '
        '3.8" (Fig. 1(a))',
        "greater",
    ),
    "fig1b": _count(
        "timeouts",
        '§III.A.1: with W = 200 "Reno can recover from retransmission stage and re-enter the '
        'congestion avoidance phase without a TO event" (Fig. 1(b))',
        "less",
    ),
    "fig2a_reno": _count(
        "timeouts",
        '§III.A.1: "New-Reno detects the loss of next packets upon receiving a partial ACK ... '
        '(while Reno will have a TO as discussed earlier)" (Fig. 2(a))',
        "greater",
    ),
    "fig2a_others": _count(
        "timeouts NewReno + SACK",
        '§III.A.1: New-Reno recovers "without waiting for 3 duplicate ACKs or a TO"; SACK "sends '
        'out the all the lost packet again upon receiving the ACK" (Fig. 2(a))',
        "less",
    ),
    "fig2a_newreno": _order(
        "goodput NewReno / Reno",
        '§III.A.1: "New-Reno generally performs better than Reno" (Fig. 2(a))',
    ),
    "fig2a_sack": _order(
        "goodput SACK / NewReno",
        '§III.A.1: "It can be seen that SACK has the best performance" (Fig. 2(a))',
    ),
    "fig2b_newreno": _order(
        "goodput NewReno / Reno",
        '§III.A.1: "when the lost burst length is large, (BL=15 in simulation) while W is still '
        'relatively small ... New-Reno performs worse than Reno" (Fig. 2(b))',
        "less",
    ),
    "fig2b_sack": _order(
        "goodput SACK / max(Reno, NewReno)",
        '§III.A.1: "in this case, SACK has a much better performance than Reno and New-Reno" '
        "(Fig. 2(b))",
    ),
    "fig3_to": _count(
        "timeouts, fewest of the three variants",
        '§III.A.2: "a burst loss will trigger a timeout (TO) event in Reno, New-Reno and SACK" '
        "(Fig. 3)",
        "greater",
    ),
    "fig3_same": Claim(
        "goodput max / min of the three variants",
        '§III.A.2: Reno, New-Reno and SACK "have exactly the same performance as they all use '
        'Slow Start for retransmission after a TO loss" (Fig. 3); equal within 1%',
        "model",
        "equivalent",
        threshold=1.0,
        margin=0.01,
    ),
}
"""The claims of yu2004 §III.A, declared before the run. Each case is one
run of a scenario without randomness, so its numbers are exact
(:func:`~obsim.reproductions.claims.model_value`, no interval)."""


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    r = {n.split("-Y1-", 1)[1]: row for n, row in results.set_index("name").iterrows()}
    rows: List[Dict[str, Any]] = []

    def g(k: str, m: str) -> float:
        return float(r[k][m]) if k in r else math.nan

    def decide(key: str, case: str, value: float) -> None:
        rows.append(CLAIMS[key].decide(value).row(case, float(len(rows))))

    decide("fig1a", "Fig. 1(a) Reno W=20, BL=5: a timeout", g("fig1a-reno", "timeouts"))
    decide("fig1b", "Fig. 1(b) Reno W=200, BL=5: no timeout", g("fig1b-reno", "timeouts"))
    decide("fig2a_reno", "Fig. 2(a) W=40, BL=5: Reno times out", g("fig2a-reno", "timeouts"))
    decide(
        "fig2a_others",
        "Fig. 2(a) W=40, BL=5: NewReno and SACK do not",
        g("fig2a-newreno", "timeouts") + g("fig2a-sack", "timeouts"),
    )
    decide(
        "fig2a_newreno",
        "Fig. 2(a) W=40, BL=5: NewReno above Reno",
        g("fig2a-newreno", "goodput") / g("fig2a-reno", "goodput"),
    )
    decide(
        "fig2a_sack",
        "Fig. 2(a) W=40, BL=5: SACK above NewReno",
        g("fig2a-sack", "goodput") / g("fig2a-newreno", "goodput"),
    )
    decide(
        "fig2b_newreno",
        "Fig. 2(b) W=40, BL=15: NewReno below Reno",
        g("fig2b-newreno", "goodput") / g("fig2b-reno", "goodput"),
    )
    decide(
        "fig2b_sack",
        "Fig. 2(b) W=40, BL=15: SACK best",
        g("fig2b-sack", "goodput") / max(g("fig2b-reno", "goodput"), g("fig2b-newreno", "goodput")),
    )
    fast = [g(f"fig3-{v}", "goodput") for v in ("reno", "newreno", "sack")]
    to = [g(f"fig3-{v}", "timeouts") for v in ("reno", "newreno", "sack")]
    decide("fig3_to", "Fig. 3 fast flow: every variant times out", min(to))
    decide("fig3_same", "Fig. 3 fast flow: all perform the same", max(fast) / min(fast))
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="Y1",
    title="Recovery from one burst loss: Reno, NewReno, SACK (yu2004 Figs. 1-3)",
    paper="Yu, Qiao, Liu: TCP implementations and false time out detection in OBS networks, "
    "IEEE INFOCOM 2004, §III.A, Figs. 1-3",
    experiment=experiment,
    compare=compare,
    notes=(
        "One flow on the 4-node path; exactly one of its bursts is lost on the core link (the 100th "
        "at T_b = 40 ms, i.e. ~4 s; the 40th at 120 ms; the 20th at 200 ms), after the window has "
        "opened. BL = 15 is obtained with T_b = 120 ms at 125 KB/s. Fast flow: 1 MB/s, T_b = 0.2 s, "
        "W = 100 (the figure's W is not stated). ns-2 defaults of early 2003 (profile 'ns2-2003'). "
        "Goodput over 2-12 s. Traces of snd_nxt every 10 ms in each run's trace.parquet "
        "(plot snd_nxt mod 60 for the figures). One run per case: the scenario has no randomness."
    ),
    comparison_plot={"xlabel": "claim", "ylabel": "measured value (see quantity)"},
)

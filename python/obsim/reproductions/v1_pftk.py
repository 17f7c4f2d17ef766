"""V1: Reno send rate vs Bernoulli loss p against the PFTK full model.

Padhye, Firoiu, Towsley, Kurose, "Modeling TCP Throughput: A Simple Model
and its Empirical Validation", SIGCOMM 1998, eq. 32. One Reno flow
host -> router -> host over 1 Gbit/s links, RTT 100 ms (25 ms per link and
direction), Bernoulli loss of data packets (ACKs spared, as in the model),
RFC profile without limited transmit or delayed ACKs (the model's
assumptions), window limited only at 100 000 segments.

The "paper numbers" are the model's: evaluated per run with that run's
measured mean RTT and T0 (mean RTO at first timeouts; the final RTO when a
run had no timeout), as the Rust validation test does
(crates/obsim-core/tests/validation.rs). The claim per loss probability is a
:class:`~obsim.reproductions.claims.Claim`: the ratio of the mean measured
send rate to the mean model rate over the same runs (``ratio_of_means``,
paired) equivalent to 1 within :data:`TOLERANCE` (two one-sided tests: the
90% CI inside [0.85, 1.15]; the earlier rule judged the point estimate
alone).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict

from ..analysis.pftk import send_rate
from . import Reproduction, SeedPlan
from .claims import Claim

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

LOSS = [0.001, 0.003, 0.01, 0.03, 0.05]
WMAX = 100_000
TOLERANCE = 0.15
"""Relative agreement asked of measured/model (the Rust validation test's
bound), the equivalence margin of each row."""
SEEDS = SeedPlan(initial=5, step=5, cap=20)
"""5 seeds to start, 5 more while a row's CI half-width exceeds half the
margin, at most 20."""
AGREES_WITH_MODEL = Claim(
    name="send rate measured over PFTK eq. 32 (claim: within 1 ± 0.15)",
    statement="PFTK 1998 eq. 32 (full model) predicts the Reno send rate for loss p, RTT and T0",
    statistic="ratio_of_means",
    kind="equivalent",
    margin=TOLERANCE,
    paper=1.0,
    unit="ratio",
    precision=TOLERANCE / 2.0,
)


def experiment(quick: bool) -> Dict[str, Any]:
    return {
        "name": "V1_pftk" + ("_quick" if quick else ""),
        "description": "Reno send rate vs Bernoulli data loss p, against PFTK eq. 32",
        "scenario": {
            "name": "v1_pftk",
            "simulation": {"duration": "300 s" if quick else "3000 s"},
            "tcp": {
                "profile": "rfc",
                "variant": "reno",
                "mss": "1000 B",
                "header": "40 B",
                "limited_transmit": False,
                "delayed_ack": False,
                "max_window": WMAX,
                "rwnd": WMAX,
            },
            "nodes": [{"name": "s", "kind": "host"}, {"name": "r"}, {"name": "d", "kind": "host"}],
            "links": [
                {"from": "s", "to": "r", "rate": "1 Gbit/s", "delay": "25 ms", "buffer": "unlimited"},
                {
                    "from": "r",
                    "to": "d",
                    "rate": "1 Gbit/s",
                    "delay": "25 ms",
                    "buffer": "unlimited",
                    "loss": {"model": "bernoulli", "p": LOSS[0], "data_only": True},
                },
            ],
            "flows": [{"from": "s", "to": "d"}],
        },
        "replications": {"count": 5, "base_seed": 1998},
        "sweep": {"grid": {"links[1].loss.p": LOSS}},
        "metrics": {
            "segments_sent": {"table": "flows", "column": "segments_sent", "agg": "sum", "unit": "segments"},
            "end_time": {"table": "meta", "column": "end_time_s", "unit": "s"},
            "send_rate": {"expr": "segments_sent / end_time", "unit": "packets/s", "label": "send rate"},
            "rtt": {
                "table": "flows",
                "column": "rtt_mean_s",
                "agg": "first",
                "unit": "s",
                "label": "mean RTT",
            },
            "t0_mean": {"table": "flows", "column": "t0_mean_s", "agg": "first", "unit": "s"},
            "rto": {"table": "flows", "column": "rto_s", "agg": "first", "unit": "s"},
            "td_events": {"table": "flows", "column": "td_events", "agg": "sum", "label": "TD loss events"},
            "to_events": {"table": "flows", "column": "to_events", "agg": "sum", "label": "timeouts"},
        },
        "plots": [
            {
                "x": "links[1].loss.p",
                "y": "send_rate",
                "logx": True,
                "logy": True,
                "xlabel": "loss probability p",
                "ylabel": "send rate (packets/s)",
            },
            {
                "x": "links[1].loss.p",
                "y": "to_events",
                "logx": True,
                "xlabel": "loss probability p",
                "ylabel": "timeouts per run",
            },
        ],
    }


def model_rate(row: "pandas.Series") -> float:
    """PFTK eq. 32 for one run, with its measured RTT and T0."""
    t0 = row["t0_mean"] if not math.isnan(row["t0_mean"]) else row["rto"]
    return float(send_rate(row["links[1].loss.p"], row["rtt"], t0, WMAX, 1.0))


def compare(results: "pandas.DataFrame", exp: "Experiment") -> "pandas.DataFrame":
    import pandas as pd

    from . import COMPARISON_COLUMNS

    df = results.copy()
    df["model"] = [model_rate(r) for _, r in df.iterrows()] if len(df) else []
    rows = []
    for p, g in df.groupby("links[1].loss.p", sort=True):
        g = g.sort_values("replication")
        v = AGREES_WITH_MODEL.decide(list(g["send_rate"]), list(g["model"]))
        rows.append(v.row(f"p={p:g}", float(p)))
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REPRODUCTION = Reproduction(
    id="V1",
    title="Reno send rate vs Bernoulli loss against the PFTK model",
    paper="Padhye, Firoiu, Towsley, Kurose: Modeling TCP Throughput: A Simple Model and its Empirical "
    "Validation, SIGCOMM 1998, full model (eq. 32)",
    experiment=experiment,
    compare=compare,
    notes=(
        "Model evaluated per run with the run's measured mean RTT and T0 (mean RTO at first timeouts, "
        "or the final RTO when a run had none); b = 1 (no delayed ACKs); W_max = 100000 segments. "
        "Loss hits data packets only, independently (the model assumes losses within a round are "
        "correlated, which Bernoulli loss is not: expect measured above model at high p). "
        "Each row: measured / model as a ratio of means over the same runs, equivalent to 1 within "
        "±15% (90% CI). 5 seeds, 5 more at a time up to 20 while a CI half-width exceeds 0.075. "
        "--quick runs 300 s instead of 3000 s per point, 5 seeds."
    ),
    comparison_plot={
        "xlabel": "loss probability p",
        "ylabel": "send rate measured / PFTK model",
        "logx": True,
    },
    seeds=SEEDS,
)

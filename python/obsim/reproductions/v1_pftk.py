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
(crates/obsim-core/tests/validation.rs).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict

from ..analysis.pftk import send_rate
from ..stats import mean_ci
from . import Reproduction

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from ..experiment import Experiment

LOSS = [0.001, 0.003, 0.01, 0.03, 0.05]
WMAX = 100_000
TOLERANCE = 0.15
"""Relative agreement asked of measured/model (the Rust validation test's bound)."""


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
        model = mean_ci(g["model"])
        meas = mean_ci(g["send_rate"])
        ratio = meas.mean / model.mean if model.mean else math.nan
        rows.append(
            {
                "case": f"p={p:g}",
                "x": float(p),
                "quantity": "send rate (PFTK eq. 32)",
                "unit": "packets/s",
                "paper": model.mean,
                "paper_ci": model.half_width,
                "measured": meas.mean,
                "measured_ci": meas.half_width,
                "ratio": ratio,
                "tolerance": TOLERANCE,
                "agrees": bool(abs(ratio - 1.0) <= TOLERANCE),
            }
        )
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
        "--quick runs 300 s instead of 3000 s per point."
    ),
    comparison_plot={
        "xlabel": "loss probability p",
        "ylabel": "send rate (packets/s)",
        "logx": True,
        "logy": True,
    },
)

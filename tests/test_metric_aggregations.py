"""Quantile, top-share and weighted metrics, and range filters (the
reductions the NSFNET studies need: q80 of flows per burst from a histogram,
the share of flow-bursts at the segment cap, flows that arrived after the
warm-up)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from obsim.experiment import ExperimentError, from_dict
from obsim.experiment.metrics import reduce_values, row_mask


def test_weighted_quantile_equals_the_quantile_of_the_expanded_sample():
    rng = np.random.default_rng(5)
    values = np.arange(1, 40, dtype=float)
    counts = rng.integers(0, 50, size=len(values)).astype(float)
    expanded = np.repeat(values, counts.astype(int))
    for q in (0.0, 0.1, 0.5, 0.8, 0.95, 1.0):
        want = float(np.quantile(expanded, q, method="inverted_cdf"))
        assert reduce_values(values, "quantile", q, counts) == want
        assert reduce_values(expanded, "quantile", q) == want
    assert reduce_values(values, "mean", weights=counts) == pytest.approx(expanded.mean())
    assert reduce_values(values, "sum", weights=counts) == pytest.approx(expanded.sum())
    assert reduce_values(values, "count", weights=counts) == len(expanded)


def test_top_share_and_weighted_extremes_skip_empty_bins():
    values = np.array([1.0, 2.0, 13.0, 14.0])
    counts = np.array([10.0, 20.0, 30.0, 0.0])  # the bin at 14 is empty
    assert reduce_values(values, "max", weights=counts) == 13.0
    assert reduce_values(values, "top_share", weights=counts) == 0.5
    assert reduce_values(values, "top_share") == 0.25  # unweighted: one row of four at 14
    assert math.isnan(reduce_values(np.array([]), "quantile", 0.8))
    assert reduce_values(np.array([]), "count") == 0.0


def test_range_filters_keep_min_inclusive_max_exclusive():
    col = pd.Series([0.5, 1.0, 1.5, 2.0, 2.5, float("nan")])
    assert row_mask(col, {"min": 1.0, "max": 2.0}).tolist() == [False, True, True, False, False, False]
    assert row_mask(col, {"min": 2.0}).tolist() == [False, False, False, True, True, False]
    assert row_mask(col, 1.5).tolist() == [False, False, True, False, False, False]
    assert row_mask(col, [0.5, 2.5]).tolist() == [True, False, False, False, True, False]


def _doc(**metric: object) -> dict:
    from experiment_helpers import tiny_experiment

    return tiny_experiment(metrics={"m": {"table": "flows", "column": "goodput_bps", **metric}}, plots=[])


@pytest.mark.parametrize(
    "metric, path, text",
    [
        ({"agg": "quantile"}, "metrics.m.q", "a number in [0, 1]"),
        ({"agg": "quantile", "q": 1.5}, "metrics.m.q", "a number in [0, 1]"),
        ({"agg": "mean", "q": 0.5}, "metrics.m.q", 'only read by agg = "quantile"'),
        ({"agg": "std", "weight": "segments_sent"}, "metrics.m.weight", "cannot be weighted"),
        ({"where": {"start_s": {"from": 1}}}, "metrics.m.where.start_s", "a range { min = a, max = b }"),
        ({"where": {"start_s": {"min": "a"}}}, "metrics.m.where.start_s", "a range"),
        ({"where": {"start_s": {"min": 3, "max": 2}}}, "metrics.m.where.start_s", "min < max"),
        ({"where": {"dst": []}}, "metrics.m.where.dst", "a non-empty list"),
        (
            {"table": "meta", "column": "events", "agg": "top_share"},
            "metrics.m",
            "the meta table has one row per run",
        ),
    ],
)
def test_bad_reductions_name_the_key_path(metric, path, text):
    with pytest.raises(ExperimentError) as ei:
        from_dict(_doc(**metric))
    assert [p for p, _ in ei.value.errors] == [path]
    assert text in ei.value.errors[0][1]


def test_weighted_metrics_in_a_sweep(tmp_path):
    """End to end: a histogram's q80 and top share, a range filter, and a
    missing weight column reported with its key path."""
    from experiment_helpers import tiny_experiment
    from obsim.store import Store
    from obsim.sweep import results_frame, run_experiment

    doc = tiny_experiment(
        grid={"tcp.variant": ["reno"]},
        replications=1,
        metrics={
            "seg_q80": {"table": "flows", "column": "segments_sent", "agg": "quantile", "q": 0.8},
            "late": {
                "table": "flows",
                "column": "goodput_bps",
                "agg": "count",
                "where": {"flow": {"min": 1}},
            },
            "top": {"table": "flows", "column": "flow", "agg": "top_share"},
        },
        plots=[],
    )
    run_experiment(from_dict(doc), tmp_path / "o", jobs=1, progress=False)
    res = results_frame(Store(tmp_path / "o"), from_dict(doc))
    assert res["late"].tolist() == [1.0]  # flows 0 and 1; only flow 1 has id >= 1
    assert res["top"].tolist() == [0.5]
    assert res["seg_q80"].iloc[0] > 0


def test_metrics_are_read_once_per_run_and_shared_filters_agree(tmp_path, monkeypatch):
    """A second results_frame in the same process reads no run table (the
    memo of sweep.compute_metrics), yet gives the same frame; metrics that
    share a ``where`` filter get the same rows as when computed alone; a
    changed metric spec is computed afresh."""
    from experiment_helpers import tiny_experiment
    from obsim import sweep
    from obsim.store import Store

    metrics = {
        "g1": {"table": "flows", "column": "goodput_bps", "where": {"flow": 1}},
        "s1": {"table": "flows", "column": "segments_sent", "where": {"flow": 1}},
        "s_all": {"table": "flows", "column": "segments_sent"},
    }
    doc = tiny_experiment(grid={"tcp.variant": ["reno"]}, replications=2, metrics=metrics, plots=[])
    sweep.run_experiment(from_dict(doc), tmp_path / "o", jobs=1, progress=False)
    store = Store(tmp_path / "o")
    first = sweep.results_frame(store, from_dict(doc))

    def no_reads(*a: object, **k: object) -> None:
        raise AssertionError("a remembered run's tables were read again")

    monkeypatch.setattr(Store, "read_table", no_reads)
    pd.testing.assert_frame_equal(sweep.results_frame(store, from_dict(doc)), first)
    monkeypatch.undo()

    alone = tiny_experiment(
        grid={"tcp.variant": ["reno"]}, replications=2, metrics={"s1": metrics["s1"]}, plots=[]
    )
    res = sweep.results_frame(store, from_dict(alone))
    assert res["s1"].tolist() == first["s1"].tolist()
    assert (first["s1"] < first["s_all"]).all()  # the filter kept one flow of two

"""obsim.analysis.flows: statistics over flow_records, on hand-made records
(exact values) and on a short generated-flow run (Little's law)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from obsim.analysis.flows import active_flows, after_warmup, by_size, pair_throughput, quantile


def _records() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "src": ["A", "A", "B", "B"],
            "dst": ["B", "B", "A", "A"],
            "size_bytes": [1000, 5000, 20000, 40000],
            "start_s": [0.0, 5.0, 2.0, 9.0],
            "end_s": [4.0, 6.0, math.nan, 12.0],
            "goodput_bps": [2000.0, 40000.0, math.nan, 106666.0],
            "bursts_sent": [1, 2, 7, 9],
            "finished": [True, True, False, True],
        }
    )


def test_active_flows_is_the_window_integral() -> None:
    r = _records()
    # Window [0, 10): A has 4 + 1 = 5 flow-seconds, B has 8 (running) + 1 = 9.
    got = active_flows(r, 0.0, 10.0)
    assert got["A"] == pytest.approx(0.5) and got["B"] == pytest.approx(0.9)
    assert active_flows(r, 0.0, 10.0, by=None)["all"] == pytest.approx(1.4)
    # A window after every flow of A: A contributes nothing.
    assert active_flows(r, 7.0, 8.0).get("A", 0.0) == 0.0
    with pytest.raises(ValueError, match="window"):
        active_flows(r, 3.0, 3.0)


def test_quantile_is_the_empirical_inverse_cdf() -> None:
    assert quantile([1, 2, 3, 4, 5], 0.8) == 4.0
    assert quantile([1, 2, 3, 4, 5], 0.81) == 5.0
    assert quantile([7.0, math.nan], 0.5) == 7.0
    assert math.isnan(quantile([], 0.5))
    with pytest.raises(ValueError):
        quantile([1.0], 0.0)


def test_by_size_pair_throughput_and_warmup() -> None:
    r = _records()
    t = by_size(r, "bursts_sent", [0, 10_000, 100_000])
    assert list(t["flows"]) == [2, 2] and list(t["mean"]) == [1.5, 8.0]
    assert by_size(r, "bursts_sent", [50_000, 60_000]).empty
    with pytest.raises(ValueError):
        by_size(r, "bursts_sent", [10, 5])
    p = pair_throughput(r).set_index(["src", "dst"])
    assert p.loc[("A", "B"), "flows"] == 2 and p.loc[("A", "B"), "max"] == 40000.0
    assert p.loc[("B", "A"), "flows"] == 1  # the unfinished flow is left out
    assert list(after_warmup(r, 5.0)["start_s"]) == [5.0, 9.0]


@pytest.mark.engine
def test_littles_law_from_the_records() -> None:
    """Mean active flows over the run (from the records) = lambda x mean
    completion time, within sampling error, on a short generated-flow run."""
    import obsim

    sc = {
        "simulation": {"duration": "60 s"},
        "tcp": {"profile": "rfc", "variant": "newreno", "mss": "1000 B"},
        "nodes": [
            {"name": "a", "kind": "host"},
            {"name": "r", "kind": "router"},
            {"name": "b", "kind": "host"},
        ],
        "links": [
            {"from": "a", "to": "r", "rate": "100 Mbit/s", "delay": "2 ms", "buffer": "100 packets"},
            {"from": "r", "to": "b", "rate": "100 Mbit/s", "delay": "8 ms", "buffer": "100 packets"},
        ],
        "flow_generators": [{"name": "web", "from": "a", "to": "b", "rate": 20.0, "size": "30 KB"}],
    }
    rec = obsim.run(sc, seed=7).flow_records.to_pandas()
    done = rec[rec["finished"]]
    lam = len(rec) / 60.0
    w = float(done["completion_s"].mean())
    l_obs = float(active_flows(rec, 10.0, 50.0, by=None)["all"])
    assert l_obs == pytest.approx(lam * w, rel=0.15)

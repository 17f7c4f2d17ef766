"""``metrics.pair_series``: the per-pair bytes-per-bin time series into the
first core router (gonzalez2009 §4, Figs. 15-16), end to end: the
``pair_bins`` table of a run, its Parquet file, its use in experiment
metrics, and the errors of the key."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any, Dict

import pyarrow.parquet as pq
import pytest

import obsim

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python < 3.11
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ["ingress", "egress", "start_s", "bytes", "rate_bps"]


def _access(**metrics: Any) -> Dict[str, Any]:
    """gonzalez2009_access.toml shortened to 12 s (warm-up 2 s), with
    ``[metrics]`` keys added."""
    sc = tomllib.loads((ROOT / "scenarios" / "gonzalez2009_access.toml").read_text(encoding="utf-8"))
    sc["simulation"].update(duration="12 s", warmup="2 s")
    sc["flows"][0]["start"] = ["0 s", "2 s"]
    sc["metrics"].update(metrics)
    return sc


def test_pair_series_writes_the_bins_of_the_pairs_path(tmp_path: Path) -> None:
    res = obsim.run(_access(pair_bins=True, pair=["src", "dst"], pair_series=True))
    res.write(tmp_path / "on")
    table = pq.read_table(tmp_path / "on" / "pair_bins.parquet")
    assert table.column_names == COLUMNS
    rows = table.to_pydict()
    # Whole 3 ms bins from 2 s to 12 s: the hosts' packets enter at E1 for E2.
    assert len(rows["start_s"]) == 10_000 // 3
    assert set(zip(rows["ingress"], rows["egress"])) == {("E1", "E2")}
    assert rows["start_s"][0] == pytest.approx(2.001)
    assert all(b - a == pytest.approx(0.003) for a, b in zip(rows["start_s"], rows["start_s"][1:]))
    assert sum(rows["bytes"]) > 0
    # The series is what the paths row's moments summarise.
    paths = res.paths.to_pandas()
    row = paths[(paths.ingress == "E1") & (paths.egress == "E2") & (paths["class"] == "tcp")].iloc[0]
    rates = table.column("rate_bps").to_numpy()
    assert rates.mean() == pytest.approx(row.bin_rate_mean_bps, rel=1e-9)
    assert rates.std() == pytest.approx(row.bin_rate_std_bps, rel=1e-9)
    assert (rates.min(), rates.max()) == (row.bin_rate_min_bps, row.bin_rate_max_bps)


def test_without_pair_series_the_table_is_empty_and_not_written(tmp_path: Path) -> None:
    res = obsim.run(_access(pair_bins=True, pair=["src", "dst"]))
    assert res.pair_bins.num_rows == 0
    assert res.pair_bins.column_names == COLUMNS
    res.write(tmp_path / "off")
    assert not (tmp_path / "off" / "pair_bins.parquet").exists()
    assert (tmp_path / "off" / "paths.parquet").exists()


@pytest.mark.parametrize(
    "metrics, reason",
    [
        ({"pair_series": True}, "set pair_bins = true and pair = [source, destination]"),
        ({"pair_series": True, "pair": ["src", "dst"]}, "set pair_bins = true (it is false)"),
        ({"pair_series": True, "pair_bins": True}, "set pair = [source, destination] (it is unset)"),
    ],
)
def test_pair_series_needs_pair_bins_and_a_pair(metrics: Dict[str, Any], reason: str) -> None:
    with pytest.raises(obsim.ConfigError) as err:
        obsim.parse(_access(**metrics))
    assert err.value.path == "metrics.pair_series"
    assert reason in err.value.reason


def test_pair_bins_is_a_metric_table(tmp_path: Path) -> None:
    from obsim.experiment import from_dict
    from obsim.store import Store
    from obsim.sweep import results_frame, run_experiment

    sc = _access(pair_bins=True, pair=["src", "dst"], pair_series=True)
    sc["simulation"]["duration"] = "6 s"
    doc = {
        "name": "pair_series",
        "scenario": sc,
        "replications": {"count": 1, "base_seed": 1},
        "sweep": {"grid": {"tcp.variant": ["sack"]}},
        "metrics": {
            "bins": {"table": "pair_bins", "column": "rate_bps", "agg": "count"},
            "peak": {"table": "pair_bins", "column": "rate_bps", "agg": "max", "where": {"egress": "E2"}},
            "path_max": {
                "table": "paths",
                "column": "bin_rate_max_bps",
                "agg": "mean",
                "where": {"class": "tcp"},
            },
        },
        "plots": [],
    }
    run_experiment(from_dict(doc), tmp_path / "o", jobs=1, progress=False)
    res = results_frame(Store(tmp_path / "o"), from_dict(doc))
    assert res["bins"].tolist() == [4_000 // 3]
    peak = res["peak"].iloc[0]
    assert peak > 0 and not math.isnan(peak)
    assert peak == res["path_max"].iloc[0]

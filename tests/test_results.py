"""Results: Arrow tables, deterministic files, metadata. Uses a fake core run."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

import obsim
from fake import FakeCore
from obsim import api


@pytest.fixture
def fake_core(monkeypatch: pytest.MonkeyPatch) -> FakeCore:
    core = FakeCore()
    monkeypatch.setattr(api._core, "run", core)
    return core


def _run(seed: int = 1) -> obsim.Results:
    return obsim.run('name = "small"\n', seed=seed)


def test_tables_and_attributes(fake_core: FakeCore) -> None:
    res = _run(seed=7)
    assert fake_core.calls == [('name = "small"\n', "toml", 7)]
    for name in ("flows", "links", "trace"):
        assert isinstance(getattr(res, name), pa.Table)
    assert res.flows.num_rows == 2
    assert res.links.num_rows == 4
    assert res.trace.num_rows == 3
    assert res.seed == 7
    assert res.scenario["name"] == "small"
    assert res.scenario_text == 'name = "small"\n'
    assert res.scenario_format == "toml"
    assert isinstance(res.to_pandas(), pd.DataFrame)
    assert list(res.to_pandas("links")["from"]) == ["a", "r", "r", "b"]
    assert res.timing["events_per_s"] == pytest.approx(123_456 / 0.0123)
    with pytest.raises(KeyError):
        res.table("nope")
    assert "small" in repr(res)


def test_summary_totals(fake_core: FakeCore) -> None:
    s = _run().summary()
    assert s["flows"] == 2
    assert s["goodput_bps"] == pytest.approx(1.6e6 + 1 + 1.8e6)
    assert (s["segments_sent"], s["retransmits"], s["td_events"], s["to_events"]) == (1920, 20, 5, 1)


def _files(d: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_write_is_deterministic_except_timing(fake_core: FakeCore, tmp_path: Path) -> None:
    a = _run()
    b = _run()
    b.meta["wall_s"] = 99.0  # wall time differs between runs ...
    b.timing["wall_s"] = 99.0
    fa = _files(a.write(tmp_path / "a"))
    fb = _files(b.write(tmp_path / "b"))
    assert set(fa) == {"flows.parquet", "links.parquet", "trace.parquet", "meta.json", "timing.json"}
    for name in fa:
        if name != "timing.json":  # ... but only timing.json shows it
            assert fa[name] == fb[name], name
    assert fa["timing.json"] != fb["timing.json"]


def test_meta_json_content(fake_core: FakeCore, tmp_path: Path) -> None:
    out = _run(seed=5).write(tmp_path)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["seed"] == 5
    assert meta["scenario"]["name"] == "small"
    assert meta["scenario_text"] == 'name = "small"\n'
    assert meta["obsim_version"] == obsim.__version__
    assert meta["pyarrow"] == pa.__version__
    assert "python" in meta
    assert meta["run"]["events"] == 123_456
    assert "wall_s" not in meta["run"]
    assert meta["tables"]["flows"]["rows"] == 2
    timing = json.loads((out / "timing.json").read_text())
    assert timing["wall_s"] == 0.0123
    assert timing["wall_total_s"] > 0
    # NaN (unfinished flows) is written as null in JSON, kept as NaN in parquet.
    flows = pd.read_parquet(out / "flows.parquet")
    assert flows["end_s"].isna().all()
    assert list(flows["goodput_bps"]) == [1.6e6 + 5, 1.8e6]


def test_no_trace_file_without_trace_rows(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(api._core, "run", FakeCore(trace_rows=3))
    _run().write(tmp_path)
    assert (tmp_path / "trace.parquet").exists()
    monkeypatch.setattr(api._core, "run", FakeCore(trace_rows=0))
    res = _run()
    assert res.trace.num_rows == 0
    res.write(tmp_path)  # same directory: the stale trace is removed
    assert not (tmp_path / "trace.parquet").exists()
    assert (tmp_path / "flows.parquet").exists()


def test_dict_input_goes_as_json(fake_core: FakeCore) -> None:
    obsim.run({"name": "small", "simulation": {"duration": "1 s"}})
    text, fmt, seed = fake_core.calls[-1]
    assert fmt == "json" and seed is None
    assert json.loads(text) == {"name": "small", "simulation": {"duration": "1 s"}}

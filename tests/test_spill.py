"""End-to-end tests of streamed per-flow records (``obsim.run(spill_dir=...)``,
``obsim._core.run(records=...)``; issue 12 items 3 and 4)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Dict, List

import pytest

import obsim
from obsim import _core
from obsim.store import Store
from obsim.sweep import execute_run
from test_flowgen import SCENARIO

TEXT = SCENARIO.format(secs=30, rate=30.0)


def _hashes(directory: Path) -> Dict[str, str]:
    return {
        f.name: hashlib.sha256(f.read_bytes()).hexdigest()
        for f in sorted(directory.iterdir())
        if f.name != "timing.json"
    }


@pytest.mark.parametrize("chunk", [1, 7, 1024, None])
def test_spilled_records_give_the_same_table_and_files(tmp_path: Path, chunk: Any) -> None:
    """A run whose records stream to disk in small chunks has the same
    ``flow_records`` table (memory-mapped, one array per column) and writes
    byte-identical files."""
    kept = obsim.run(TEXT, seed=3)
    spill = tmp_path / "spill"
    streamed = obsim.run(TEXT, seed=3, spill_dir=spill, record_chunk=chunk)
    a, b = kept.flow_records, streamed.table("flow_records")
    assert a.num_rows > 500
    assert (a.num_rows, a.schema) == (b.num_rows, b.schema)
    assert a.to_pandas().equals(b.to_pandas())
    assert all(c.num_chunks == 1 for c in b.columns)
    # The chunked spill file is gone; one file per column stays.
    assert sorted(os.listdir(spill)) == sorted(f"flow_records.{i}.arrow" for i in range(a.num_columns))
    kept.write(tmp_path / "kept")
    streamed.write(tmp_path / "streamed")
    assert _hashes(tmp_path / "kept") == _hashes(tmp_path / "streamed")
    assert "flow_records.parquet" in _hashes(tmp_path / "kept")


def test_records_arrive_in_chunks_in_table_order() -> None:
    """``_core.run(records=...)``: chunks of ``record_chunk`` rows (the last
    shorter), concatenated equal to ``flow_records`` of a run without it,
    which is then empty."""
    import pyarrow as pa

    plain = _core.run(TEXT, "toml", 3, None)
    chunks: List[Dict[str, Any]] = []
    raw = _core.run(TEXT, "toml", 3, None, records=chunks.append, record_chunk=100)
    assert len(raw["flow_records"]["flow"]) == 0
    sizes = [len(c["flow"]) for c in chunks]
    assert sizes[:-1] == [100] * (len(sizes) - 1) and 1 <= sizes[-1] <= 100
    whole = pa.concat_tables(pa.table(c) for c in chunks)
    assert whole.to_pandas().equals(pa.table(plain["flow_records"]).to_pandas())
    with pytest.raises(ValueError, match="record_chunk"):
        _core.run(TEXT, "toml", 3, None, records=chunks.append, record_chunk=0)


class Refused(Exception):
    """Raised by a records callback."""


def test_an_exception_in_the_records_callback_stops_the_run() -> None:
    """The callback's exception stops the run and is re-raised as is; a
    ``KeyboardInterrupt`` gives ``RunInterrupted`` with partial results."""
    calls: List[int] = []

    def refuse(cols: Dict[str, Any]) -> None:
        calls.append(len(cols["flow"]))
        if len(calls) == 2:
            raise Refused("disk full")

    with pytest.raises(Refused, match="disk full"):
        _core.run(TEXT, "toml", 3, None, records=refuse, record_chunk=10)
    assert calls == [10, 10], "not called after it raised"

    def interrupt(cols: Dict[str, Any]) -> None:
        raise KeyboardInterrupt

    with pytest.raises(obsim.RunInterrupted) as info:
        _core.run(TEXT, "toml", 3, None, records=interrupt, record_chunk=10)
    assert info.value.partial["meta"]["stop_reason"] == "interrupted"
    assert info.value.partial["meta"]["end_time_s"] < 30


def test_sweep_run_spills_and_cleans_up(tmp_path: Path) -> None:
    """``execute_run`` streams the records through the store's ``.tmp`` and
    removes the spill; the stored files equal those of ``Results.write``."""
    store = Store(tmp_path / "store")
    store.prepare()
    scenario = obsim.parse(TEXT)
    task = {"key": "k1", "scenario": TEXT, "seed": 3, "store": str(store.root)}
    out = execute_run(task)
    assert out["status"] == "ok", out
    assert not list((store.root / ".tmp").glob("*.records")), "spill removed"
    obsim.run(TEXT, seed=3).write(tmp_path / "direct")
    stored = _hashes(store.run_dir("k1"))
    stored.pop("run.json")
    assert stored == _hashes(tmp_path / "direct")
    assert scenario["flow_generators"]


def test_interrupted_run_keeps_its_spilled_records(tmp_path: Path) -> None:
    """Ctrl-C (a ``KeyboardInterrupt`` from ``progress``) during a spilling
    run: the partial results carry the records streamed so far plus the
    unfinished flows', memory-mapped, and write like any results."""
    text = SCENARIO.format(secs=400, rate=30.0)

    def stop(now_s: float, end_s: float, events: int) -> None:
        if now_s > 20:
            raise KeyboardInterrupt

    with pytest.raises(obsim.RunInterrupted) as info:
        obsim.run(text, seed=3, progress=stop, spill_dir=tmp_path / "spill", record_chunk=50)
    res = info.value.results
    assert res.partial
    rec = res.flow_records
    assert rec.num_rows > 500 and all(c.num_chunks == 1 for c in rec.columns)
    ends = [e for e in rec.column("end_s").to_pylist() if e == e]
    assert max(ends) <= res.meta["end_time_s"]
    assert not all(rec.column("finished").to_pylist()), "the unfinished flows' records follow"
    res.write(tmp_path / "out")
    assert (tmp_path / "out" / "flow_records.parquet").is_file()

"""End to end through the real engine: tables, goodput, determinism, CLI output."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, Dict

import pandas as pd
import pytest

import obsim
from conftest import small_scenario

pytestmark = pytest.mark.engine

FLOW_COLUMNS = {
    "flow", "src", "dst", "goodput_bps", "segments_sent", "retransmits",
    "td_events", "to_events", "packets_dropped",
}


def _files(d: Path) -> Dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_run_small_scenario() -> None:
    res = obsim.run(small_scenario(), seed=3)
    assert res.flows.num_rows == 2
    assert FLOW_COLUMNS <= set(res.flows.column_names)
    flows = res.flows.to_pandas()
    assert (flows["goodput_bps"] > 0).all()
    assert flows["goodput_bps"].sum() <= 10e6  # bottleneck: 10 Mbit/s
    assert (flows["segments_sent"] > 0).all()
    assert res.links.num_rows >= 2
    assert res.trace.num_rows > 0  # [trace] cwnd every 100 ms
    assert set(res.trace.column_names) >= {"time_s", "flow", "cwnd"}
    assert res.seed == 3 and res.meta["seed"] == 3
    assert res.meta["events"] > 0
    assert res.meta["end_time_s"] == pytest.approx(5.0)
    assert res.scenario["name"] == "small"


def test_lossless_run_has_no_loss_drops() -> None:
    res = obsim.run(small_scenario(), seed=1)
    assert sum(res.links.to_pydict()["drops_loss"]) == 0


def test_same_seed_identical_files(tmp_path: Path) -> None:
    text = small_scenario(loss=0.01)
    a = _files(obsim.run(text, seed=11).write(tmp_path / "a"))
    b = _files(obsim.run(text, seed=11).write(tmp_path / "b"))
    assert {"flows.parquet", "links.parquet", "trace.parquet", "meta.json", "timing.json"} <= set(a)
    for name in a:
        if name != "timing.json":
            assert a[name] == b[name], name


def test_same_seed_identical_files_across_processes(
    write_scenario: Callable[..., Path], tmp_path: Path
) -> None:
    scen = write_scenario(small_scenario(loss=0.01))
    dirs = [tmp_path / "p1", tmp_path / "p2"]
    for d in dirs:
        p = subprocess.run(
            [sys.executable, "-m", "obsim", "run", str(scen), "--seed", "8", "--out", str(d), "-q"],
            capture_output=True, text=True, timeout=300,
        )
        assert p.returncode == 0, p.stderr
        assert p.stdout == ""
    a, b = (_files(d) for d in dirs)
    assert set(a) == set(b)
    for name in a:
        if name != "timing.json":
            assert a[name] == b[name], name


def test_different_seeds_differ_on_lossy_scenario(tmp_path: Path) -> None:
    text = small_scenario(loss=0.01)
    a = obsim.run(text, seed=1).write(tmp_path / "a")
    b = obsim.run(text, seed=2).write(tmp_path / "b")
    assert (a / "flows.parquet").read_bytes() != (b / "flows.parquet").read_bytes()


def test_dict_input_same_results() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    text = small_scenario(loss=0.01)
    a = obsim.run(text, seed=4)
    b = obsim.run(tomllib.loads(text), seed=4)
    assert a.to_pandas().equals(b.to_pandas())  # NaN-aware, unlike Table.equals
    assert a.scenario == b.scenario


def test_threads_run_in_parallel_and_agree() -> None:
    """The GIL is released during a run; concurrent runs give the same answer."""
    text = small_scenario(loss=0.01)
    out: Dict[int, obsim.Results] = {}

    def work(i: int) -> None:
        out[i] = obsim.run(text, seed=5)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out[0].to_pandas().equals(out[1].to_pandas())


def test_gil_released_during_run() -> None:
    """Python threads keep running while the engine works."""
    import time

    text = (
        small_scenario()
        .replace('duration = "5 s"', 'duration = "20 s"')
        .replace('10 Mbit/s', '1 Gbit/s')
        .replace('max_window = 64', 'max_window = 1000')
    )
    done: Dict[str, float] = {}

    def work() -> None:
        t0 = time.perf_counter()
        obsim.run(text, seed=1)
        done["wall"] = time.perf_counter() - t0

    t = threading.Thread(target=work)
    ticks = 0
    t.start()
    while t.is_alive():
        time.sleep(0.001)
        ticks += 1
    t.join()
    if done["wall"] < 0.2:
        pytest.skip(f"run too short ({done['wall']:.3f} s) to tell")
    # With the GIL held for the whole run, this thread would tick ~once.
    assert ticks > 20, (ticks, done["wall"])


def test_cli_run_writes_readable_results(write_scenario: Callable[..., Path], tmp_path: Path) -> None:
    scen = write_scenario(small_scenario(loss=0.01))
    out = tmp_path / "out"
    p = subprocess.run(
        [sys.executable, "-m", "obsim", "run", str(scen), "--seed", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert p.returncode == 0, p.stderr
    assert "goodput Mbit/s" in p.stdout and "events/s" in p.stdout
    flows = pd.read_parquet(out / "flows.parquet")
    assert len(flows) == 2 and (flows["goodput_bps"] > 0).all()
    assert len(pd.read_parquet(out / "links.parquet")) >= 2
    assert len(pd.read_parquet(out / "trace.parquet")) > 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["seed"] == 2 and meta["scenario"]["name"] == "small"
    assert "10 Mbit/s" in meta["scenario_text"]


@pytest.mark.engine
def test_progress_reports_simulated_time_and_can_stop_a_run() -> None:
    """A progress callback sees simulated time advance to the end without
    changing the results; an exception it raises stops the run."""
    text = small_scenario(loss=0.01).replace('duration = "5 s"', 'duration = "200 s"')
    seen: list = []
    res = obsim.run(text, progress=lambda now, end, events: seen.append((now, end, events)))
    assert len(seen) >= 2
    assert seen[-1][0] == pytest.approx(seen[-1][1]) and seen[-1][1] == pytest.approx(200.0)
    assert [s[2] for s in seen] == sorted(s[2] for s in seen)
    plain = obsim.run(text)
    assert plain.meta["events"] == res.meta["events"]

    class Stop(Exception):
        pass

    def stop(now: float, end: float, events: int) -> None:
        raise Stop()

    with pytest.raises(Stop):
        obsim.run(text, progress=stop)


@pytest.mark.engine
def test_ctrl_c_raises_run_interrupted_with_the_partial_results(tmp_path: Path) -> None:
    """A KeyboardInterrupt during a run (here raised by the progress callback,
    as Ctrl-C is) becomes RunInterrupted, still a KeyboardInterrupt, carrying
    the results up to the interruption; written, they are marked partial."""
    text = small_scenario(loss=0.01).replace('duration = "5 s"', 'duration = "200 s"')
    full = obsim.run(text)
    calls = []

    def interrupt(now: float, end: float, events: int) -> None:
        calls.append(now)
        if len(calls) == 1:
            raise KeyboardInterrupt

    with pytest.raises(obsim.RunInterrupted) as info:
        obsim.run(text, progress=interrupt)
    e = info.value
    assert isinstance(e, KeyboardInterrupt)
    assert isinstance(e.__cause__, KeyboardInterrupt)
    assert e.partial["meta"]["stop_reason"] == "interrupted"
    res = e.results
    assert res.partial and not full.partial
    assert 0 < res.meta["end_time_s"] < 200.0
    assert res.meta["end_time_s"] == pytest.approx(calls[-1])
    assert 0 < res.meta["events"] < full.meta["events"]
    assert res.flows.num_rows == full.flows.num_rows
    assert "partial" not in full.metadata()
    out = res.write(tmp_path / "p")
    meta = json.loads((out / "meta.json").read_text())
    assert meta["partial"] is True
    assert meta["run"]["stop_reason"] == "interrupted"
    assert meta["run"]["end_time_s"] == res.meta["end_time_s"]

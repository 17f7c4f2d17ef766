"""Sweeps: the result store, resuming, failures, kills, and executors giving
identical results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from experiment_helpers import results_without_wall, run_tables, tiny_experiment, to_toml
from obsim.experiment import from_dict
from obsim.store import Store, run_key
from obsim.sweep import run_experiment

pytestmark = pytest.mark.engine


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The tiny 2-axis x 5-replication sweep on the local process pool."""
    out = tmp_path_factory.mktemp("ref") / "out"
    summary = run_experiment(from_dict(tiny_experiment()), out, jobs=2, progress=False)
    return out, summary


def test_store_layout_catalog_and_results(reference):
    out, summary = reference
    assert (summary.total, summary.ran, summary.skipped, summary.failed) == (20, 20, 0, 0)
    for name in (
        "experiment.json",
        "manifest.json",
        "catalog.jsonl",
        "catalog.parquet",
        "results.parquet",
        "summary.parquet",
    ):
        assert (out / name).is_file(), name
    cat = pd.read_parquet(out / "catalog.parquet")
    assert len(cat) == 20 and set(cat["status"]) == {"ok"}
    assert list(cat.columns[:7]) == ["key", "point", "replication", "seed", "status", "error", "wall_s"]
    assert {"tcp.variant", "links[1].loss.p"} <= set(cat.columns)
    # keys: sha256 of resolved scenario JSON + seed + version; one directory each
    store = Store(out)
    manifest = json.loads((out / "manifest.json").read_text())
    import obsim

    first = manifest["runs"][0]
    exp = from_dict(tiny_experiment())
    resolved = obsim.parse(exp.scenario_for(exp.points()[0]))
    assert first["key"] == run_key(resolved, first["seed"], obsim.__version__)
    for key in cat["key"]:
        d = store.run_dir(key)
        assert (
            (d / "flows.parquet").is_file() and (d / "links.parquet").is_file() and (d / "run.json").is_file()
        )
        assert json.loads((d / "meta.json").read_text())["seed"] == int(
            cat.loc[cat["key"] == key, "seed"].iloc[0]
        )
    assert not list((out / ".tmp").glob("*"))
    # results: metrics per run; summary: mean and CI per point
    res = pd.read_parquet(out / "results.parquet")
    assert len(res) == 20 and (res["goodput"] > 0).all()
    assert (res["to_rate"] - res["timeouts"] / res["end"]).abs().max() < 1e-12
    summ = pd.read_parquet(out / "summary.parquet")
    g = summ[(summ["metric"] == "goodput") & (summ["point"] == 0)].iloc[0]
    vals = res[res["point"] == 0]["goodput"]
    assert g["n"] == 5 and g["mean"] == pytest.approx(vals.mean())
    assert g["ci_low"] < g["mean"] < g["ci_high"]


def test_catalog_queries_with_duckdb_and_polars(reference):
    out, _ = reference
    duckdb = pytest.importorskip("duckdb")
    rows = duckdb.sql(f"select status, count(*) from '{out}/catalog.parquet' group by status").fetchall()
    assert rows == [("ok", 20)]
    rows = duckdb.sql(
        f"""select "tcp.variant", avg(goodput) from '{out}/results.parquet' group by 1 order by 1"""
    ).fetchall()
    assert [r[0] for r in rows] == ["reno", "sack"]
    n = duckdb.sql(f"select count(*) from read_json_auto('{out}/catalog.jsonl')").fetchall()[0][0]
    assert n == 20
    pl = pytest.importorskip("polars")
    assert pl.read_parquet(out / "catalog.parquet").filter(pl.col("status") == "ok").height == 20


def test_rerun_skips_finished_runs(reference, tmp_path):
    out, _ = reference
    before = {p: p.stat().st_mtime_ns for p in (out / "runs").glob("*/*/run.json")}
    summary = run_experiment(from_dict(tiny_experiment()), out, jobs=2, progress=False)
    assert (summary.ran, summary.skipped) == (0, 20)
    after = {p: p.stat().st_mtime_ns for p in (out / "runs").glob("*/*/run.json")}
    assert before == after
    # extending the sweep runs only the new points
    doc = tiny_experiment(grid={"tcp.variant": ["reno", "sack"], "links[1].loss.p": [0.01, 0.03, 0.05]})
    summary = run_experiment(from_dict(doc), tmp_path / "x", jobs=1, progress=False)
    assert summary.ran == 30
    import shutil

    shutil.copytree(out / "runs", tmp_path / "y" / "runs")
    summary = run_experiment(from_dict(doc), tmp_path / "y", jobs=1, progress=False)
    assert (summary.ran, summary.skipped) == (10, 20)


def test_runs_finished_in_another_store_are_reused(reference, tmp_path):
    """``reuse``: the same keys are linked in from the other store, only the
    new points run, and the results are those of a store that ran them all."""
    out, _ = reference
    doc = tiny_experiment(grid={"tcp.variant": ["reno", "sack"], "links[1].loss.p": [0.01, 0.03, 0.05]})
    summary = run_experiment(from_dict(doc), tmp_path / "z", jobs=1, progress=False, reuse=[out])
    assert (summary.ran, summary.reused, summary.skipped) == (10, 20, 20)
    assert Store(tmp_path / "z").journal_stored_runs() == 0  # every run journalled
    full = run_experiment(from_dict(doc), tmp_path / "all", jobs=1, progress=False)
    assert full.ran == 30
    assert results_without_wall(tmp_path / "z").equals(results_without_wall(tmp_path / "all"))


def test_failed_run_is_recorded_and_the_sweep_goes_on(tmp_path):
    # "vegas" is rejected by the core when the run starts (pre-validation is
    # skipped here so the failure happens in the worker, at run time).
    doc = tiny_experiment(grid={"tcp.variant": ["reno", "vegas", "sack"]}, replications=2, plots=[])
    summary = run_experiment(from_dict(doc), tmp_path / "o", jobs=2, progress=False, validate=False)
    assert (summary.ran, summary.failed) == (4, 2)
    assert {f["axes"]["tcp.variant"] for f in summary.failures} == {"vegas"}
    assert all("ConfigError" in f["error"] and "tcp.variant" in f["error"] for f in summary.failures)
    cat = pd.read_parquet(tmp_path / "o" / "catalog.parquet")
    bad = cat[cat["tcp.variant"] == "vegas"]
    assert list(bad["status"]) == ["error", "error"] and bad["error"].str.contains("vegas").all()
    assert (cat[cat["tcp.variant"] != "vegas"]["status"] == "ok").all()
    res = pd.read_parquet(tmp_path / "o" / "results.parquet")
    assert set(res["tcp.variant"]) == {"reno", "sack"}
    from obsim.cli import main

    assert main(["experiment", "status", str(tmp_path / "o")]) == 1


def _count_done(out: Path) -> int:
    return len(list((out / "runs").glob("*/*/run.json")))


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_sweep_resumes_without_recomputing(sig, tmp_path, reference):
    # Same experiment as the reference but with longer runs, so that the kill
    # lands mid-sweep; run inline (--jobs 1) in a subprocess.
    doc = tiny_experiment(duration="400 s")
    exp_file = tmp_path / "exp.toml"
    exp_file.write_text(to_toml(doc), encoding="utf-8")
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "obsim",
        "experiment",
        "run",
        str(exp_file),
        "--out",
        str(out),
        "-j",
        "1",
        "-q",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while _count_done(out) < 4 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    assert proc.poll() is None, f"sweep ended before the kill: {proc.communicate()}"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        assert b"resume" in err
        assert (out / "catalog.parquet").is_file()
        # every stored run is in the journal, also one stored during shutdown
        journal = {r["key"] for r in Store(out).read_journal() if r["status"] == "ok"}
        assert journal == {p.parent.name for p in (out / "runs").glob("*/*/run.json")}
    else:
        assert proc.returncode == -signal.SIGKILL
    done = {
        p.parent.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (out / "runs").glob("*/*/run.json")
    }
    assert 4 <= len(done) < 20
    # nothing half-written is visible: every run directory is complete
    for key in done:
        d = Store(out).run_dir(key)
        assert {"flows.parquet", "links.parquet", "meta.json", "run.json"} <= {f.name for f in d.iterdir()}
    # resume
    res = subprocess.run(cmd, capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr
    text = res.stdout.decode()
    assert f"{20 - len(done)} run, {len(done)} already done, 0 failed" in text
    for p in (out / "runs").glob("*/*/run.json"):
        if p.parent.name in done:
            assert (p.stat().st_ino, p.stat().st_mtime_ns) == done[p.parent.name], "finished run recomputed"
    assert _count_done(out) == 20
    assert not list((out / ".tmp").glob("*"))
    # equal to an uninterrupted sweep of the same experiment
    ref = tmp_path / "uninterrupted"
    run_experiment(from_dict(doc), ref, jobs=2, progress=False)
    assert run_tables(out) == run_tables(ref)
    pd.testing.assert_frame_equal(results_without_wall(out), results_without_wall(ref))
    cat = pd.read_parquet(out / "catalog.parquet")
    assert (cat["status"] == "ok").all() and len(cat) == 20


def test_torn_journal_line_is_ignored(reference, tmp_path):
    out, _ = reference
    import shutil

    copy = tmp_path / "c"
    shutil.copytree(out, copy)
    with open(copy / "catalog.jsonl", "a", encoding="utf-8") as f:
        f.write('{"key": "abc", "status": "er')
    assert len(Store(copy).read_journal()) == 20
    cat = Store(copy).catalog()
    assert (cat["status"] == "ok").all()


def test_dask_local_cluster_gives_identical_results(reference, tmp_path):
    pytest.importorskip("distributed")
    out_ref, _ = reference
    out = tmp_path / "dask"
    summary = run_experiment(from_dict(tiny_experiment()), out, executor="dask", jobs=2, progress=False)
    assert "LocalCluster" in summary.executor
    assert (summary.ran, summary.failed) == (20, 0)
    assert run_tables(out) == run_tables(out_ref)
    pd.testing.assert_frame_equal(results_without_wall(out), results_without_wall(out_ref))
    # the summaries (means, CIs) too
    pd.testing.assert_frame_equal(
        pd.read_parquet(out / "summary.parquet"), pd.read_parquet(out_ref / "summary.parquet")
    )
    cat = pd.read_parquet(out / "catalog.parquet").drop(columns=["wall_s"])
    cat_ref = pd.read_parquet(out_ref / "catalog.parquet").drop(columns=["wall_s"])
    pd.testing.assert_frame_equal(cat, cat_ref)


def test_inline_executor_gives_identical_results(reference, tmp_path):
    out_ref, _ = reference
    run_experiment(from_dict(tiny_experiment()), tmp_path / "i", jobs=1, progress=False)
    assert run_tables(tmp_path / "i") == run_tables(out_ref)


def test_keys_change_with_version_and_seed():
    a = run_key({"x": 1}, 1, "0.1.0")
    assert a != run_key({"x": 1}, 2, "0.1.0") != run_key({"x": 1}, 1, "0.1.1")
    assert a == run_key({"x": 1}, 1, "0.1.0") and len(a) == 64
    assert os.path.basename(a) == a


def test_overflowing_metric_expression_gives_inf_and_the_summary_is_written(tmp_path):
    # `a ** a ** a` overflowed Python floats and ended the summary in a
    # traceback after every run was stored; now it is +inf, as IEEE 754 says.
    doc = tiny_experiment(grid={"tcp.variant": ["reno"]}, replications=2, plots=[])
    doc["metrics"]["boom"] = {"expr": "(goodput + 10) ** (goodput + 10) ** (goodput + 10)"}
    summary = run_experiment(from_dict(doc), tmp_path / "o", jobs=1, progress=False)
    assert (summary.ran, summary.failed) == (2, 0)
    res = pd.read_parquet(tmp_path / "o" / "results.parquet")
    assert (res["boom"] == float("inf")).all()
    summ = pd.read_parquet(tmp_path / "o" / "summary.parquet")
    row = summ[summ["metric"] == "boom"].iloc[0]
    assert row["mean"] == float("inf") and pd.isna(row["half_width"])


def test_runs_stored_without_a_journal_line_are_journalled(reference, tmp_path):
    # A worker that stored its run while the sweep was shutting down never
    # reported back: its journal line is written when the sweep ends.
    import shutil

    out, _ = reference
    copy = tmp_path / "c"
    shutil.copytree(out, copy)
    lines = (copy / "catalog.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (copy / "catalog.jsonl").write_text("".join(lines[:5]), encoding="utf-8")
    store = Store(copy)
    assert store.journal_stored_runs() == 15
    assert store.journal_stored_runs() == 0
    assert len(store.read_journal()) == 20
    assert {r["key"] for r in store.read_journal()} == {r["key"] for r in Store(out).read_journal()}


def test_readme_query_examples_run(reference):
    # The README's DuckDB/polars block, run as written against a sweep with
    # the same axes (out/loss_sweep replaced by the reference directory).
    pytest.importorskip("duckdb")
    pytest.importorskip("polars")
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "import duckdb" in b]
    assert len(blocks) == 1
    out, _ = reference
    scope: dict = {}
    exec(blocks[0].replace("out/loss_sweep", str(out)), scope)  # noqa: S102 - our own README
    per_run = scope["per_run"]
    assert per_run["key"].n_unique() == 20 and per_run.height == 40  # 2 flows a run
    assert set(per_run["status"]) == {"ok"}

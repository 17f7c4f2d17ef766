"""Running an experiment: expand, validate, skip finished runs, execute,
store, and aggregate.

>>> from obsim.experiment import load_experiment
>>> summary = run_experiment(load_experiment("experiments/loss_sweep.toml"), "out/loss_sweep")
>>> summary.failed, summary.ran, summary.skipped
"""

from __future__ import annotations

import functools
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from .experiment import Experiment, Metric, eval_expr, experiment_from_stored
from .experiment.metrics import reduce_values, row_mask
from .files import atomic_write_json, atomic_write_parquet
from .spill import remove as remove_spill
from .store import STORE_SCHEMA, Store, canonical_json, frame_to_arrow, now_iso, run_key

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from rich.console import Console

    from .executors import Executor


def _version() -> str:
    from . import __version__

    return __version__


# --------------------------------------------------------------------------
# The task a worker runs
# --------------------------------------------------------------------------


def execute_run(
    task: Mapping[str, Any], progress: Optional[Callable[[float, float, int], object]] = None
) -> Dict[str, Any]:
    """Run one scenario and store it; never raises for a failed run.

    ``task``: ``key``, ``scenario`` (dict), ``seed``, ``store`` (directory).
    ``progress``, for a run in this process, is passed to :func:`obsim.run`
    (the progress bar's simulated-time line). Returns the outcome: ``key``,
    ``status`` (``ok``, ``error``; ``skipped`` when the run was already
    stored), ``error``, ``wall_s``.
    """
    from . import run as obsim_run

    store = Store(task["store"])
    key = task["key"]
    if store.is_done(key):
        return {"key": key, "status": "skipped", "error": None, "wall_s": store.run_record(key).get("wall_s")}
    # The per-flow records stream to disk while the run goes on, so a run
    # with many flows over its lifetime holds only those live at once.
    spill = store.spill_dir(key)
    t0 = time.perf_counter()
    try:
        try:
            res = obsim_run(task["scenario"], seed=int(task["seed"]), progress=progress, spill_dir=spill)
        except KeyboardInterrupt:
            raise
        except Exception as e:  # noqa: BLE001 - a failed run is recorded, the sweep goes on
            path = getattr(e, "path", "")
            msg = f"{type(e).__name__}: {e}"
            if path and path not in str(e):
                msg = f"{type(e).__name__}: {path}: {e}"
            return {"key": key, "status": "error", "error": msg, "wall_s": time.perf_counter() - t0}
        wall = time.perf_counter() - t0
        record = {
            "key": key,
            "seed": int(task["seed"]),
            "status": "ok",
            "wall_s": wall,
            "obsim_version": _version(),
            "finished_at": now_iso(),
        }
        store.write_run(key, res, record)
        return {"key": key, "status": "ok", "error": None, "wall_s": wall}
    finally:
        remove_spill(spill)


# --------------------------------------------------------------------------
# Planning
# --------------------------------------------------------------------------


def plan(
    exp: Experiment,
    store: Store,
    validate: bool = True,
    only: Optional[Callable[[Dict[str, Any]], bool]] = None,
) -> Dict[str, Any]:
    """Validate every point (unless ``validate`` is false) and build the
    manifest: every run with its key, or only the runs for which ``only``
    (given the run's ``point``, ``replication``, ``seed`` and ``axes``) is
    true. Writes ``experiment.json`` and ``manifest.json``."""
    version = _version()
    if validate:
        resolved = {p.index: r for p, r in exp.validate_points()}
    else:
        resolved = {}
    scenarios = {p.index: exp.scenario_for(p) for p in exp.points()}
    runs = []
    for spec in exp.runs():
        idx = spec.point.index
        basis = resolved.get(idx)
        run = {
            "point": idx,
            "replication": spec.replication,
            "seed": spec.seed,
            "axes": dict(spec.point.values),
        }
        if only is not None and not only(run):
            continue
        key = run_key(basis if basis is not None else {"unresolved": scenarios[idx]}, spec.seed, version)
        runs.append({"key": key, **run})
    manifest = {
        "store_schema": STORE_SCHEMA,
        "experiment": exp.name,
        "obsim_version": version,
        "axes": exp.axes,
        "replications": exp.replications,
        "base_seed": exp.base_seed,
        "runs": runs,
    }
    store.root.mkdir(parents=True, exist_ok=True)
    atomic_write_json(store.root / "experiment.json", exp.to_dict())
    atomic_write_json(store.root / "manifest.json", manifest)
    manifest["_scenarios"] = scenarios
    return manifest


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


@dataclass
class SweepSummary:
    """What :func:`run_experiment` did."""

    out: Path
    total: int
    ran: int = 0
    skipped: int = 0
    """Runs already stored (the reused ones included)."""
    reused: int = 0
    """Runs linked in from another store (``run_experiment(reuse=...)``)."""
    failed: int = 0
    failures: List[Dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    wall_s: float = 0.0
    executor: str = ""

    @property
    def ok(self) -> bool:
        return not self.failed and not self.interrupted


def run_experiment(
    exp: Experiment,
    out: Union[str, Path],
    *,
    executor: Union[str, "Executor"] = "local",
    jobs: Optional[int] = None,
    scheduler: Optional[str] = None,
    progress: bool = True,
    validate: bool = True,
    console: Optional["Console"] = None,
    only: Optional[Callable[[Dict[str, Any]], bool]] = None,
    reuse: Sequence[Union[str, Path]] = (),
) -> SweepSummary:
    """Run every run of ``exp`` not yet in the store at ``out`` (with
    ``only``, every run it selects: see :func:`plan`; a reproduction's
    two-phase seed plan runs its estimation seeds only where it needs them).
    A run already finished in one of the stores ``reuse`` (same key: same
    resolved scenario, seed and obsim version) is linked in from there
    (:meth:`Store.adopt`) instead of run again, and counted as ``reused``.

    Every point is validated by the core first (an :class:`ExperimentError`
    names each bad axis value). Finished runs are skipped; a run that fails
    is recorded (status ``error``) and the sweep goes on. On Ctrl-C the
    finished runs stay stored, the catalog is consolidated and
    ``KeyboardInterrupt`` propagates. At the end ``catalog.parquet``,
    ``results.parquet`` and ``summary.parquet`` are written.
    """
    from .executors import Executor as _Executor
    from .executors import make_executor

    t_start = time.perf_counter()
    store = Store(out)
    manifest = plan(exp, store, validate=validate, only=only)
    store.prepare()
    scenarios = manifest.pop("_scenarios")

    by_key: Dict[str, List[Dict[str, Any]]] = {}
    for run in manifest["runs"]:
        by_key.setdefault(run["key"], []).append(run)
    summary = SweepSummary(out=store.root, total=len(manifest["runs"]))
    tasks = []
    others = [Store(r) for r in reuse]
    for key, runs in by_key.items():
        if not store.is_done(key) and any(store.adopt(key, o) for o in others):
            summary.reused += len(runs)
        if store.is_done(key):
            summary.skipped += len(runs)
            continue
        r0 = runs[0]
        tasks.append(
            {"key": key, "scenario": scenarios[r0["point"]], "seed": r0["seed"], "store": str(store.root)}
        )

    own = not isinstance(executor, _Executor)
    ex: _Executor = executor if isinstance(executor, _Executor) else make_executor(executor, jobs, scheduler)
    summary.executor = ex.describe()
    bar = _Progress(progress and bool(tasks), console, len(manifest["runs"]), summary.skipped)
    from .executors import InlineExecutor

    task_fn: Callable[[Dict[str, Any]], Dict[str, Any]] = execute_run
    if bar.enabled and isinstance(ex, InlineExecutor):
        # Runs execute in this process: show each one's simulated time.
        task_fn = functools.partial(execute_run, progress=bar.run_progress)
    try:
        with bar:
            for outcome in ex.run(task_fn, tasks):
                runs = by_key[outcome["key"]]
                status = "ok" if outcome["status"] == "skipped" else outcome["status"]
                store.append_journal(
                    {
                        "key": outcome["key"],
                        "point": r["point"],
                        "replication": r["replication"],
                        "seed": r["seed"],
                        "status": status,
                        "error": outcome.get("error"),
                        "wall_s": outcome.get("wall_s"),
                        "axes": r["axes"],
                        "finished_at": now_iso(),
                    }
                    for r in runs
                )
                if outcome["status"] == "error":
                    summary.failed += len(runs)
                    for r in runs:
                        summary.failures.append(
                            {
                                "point": r["point"],
                                "replication": r["replication"],
                                "axes": r["axes"],
                                "error": outcome["error"],
                            }
                        )
                elif outcome["status"] == "skipped":
                    summary.skipped += len(runs)
                else:
                    summary.ran += len(runs)
                bar.advance(len(runs), failed=outcome["status"] == "error")
    except KeyboardInterrupt:
        summary.interrupted = True
        raise
    finally:
        if own:
            ex.close()
        # Runs that workers stored after the loop stopped listening (an
        # interrupted sweep shutting down) get their journal lines too.
        store.journal_stored_runs()
        store.write_catalog()
        summary.wall_s = time.perf_counter() - t_start
    aggregate(store, exp)
    return summary


class _Progress:
    """A rich progress bar over runs: done/total, failures, elapsed, ETA."""

    def __init__(self, enabled: bool, console: Optional["Console"], total: int, done: int) -> None:
        self.enabled = enabled
        self._p: Any = None
        if enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._p = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[note]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=console,
                transient=False,
            )
            self._task = self._p.add_task("runs", total=total, completed=done, note="[red]0 failed")
            self._failed = 0
            self._run_task: Any = None

    def __enter__(self) -> "_Progress":
        if self._p is not None:
            self._p.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._p is not None:
            self._p.stop()

    def run_progress(self, now_s: float, end_s: float, events: int) -> None:
        """Simulated-time progress of the run executing in this process."""
        if self._p is None:
            return
        if self._run_task is None:
            self._run_task = self._p.add_task("current run, simulated s", total=end_s, note="")
        self._p.update(self._run_task, total=end_s, completed=now_s, note=f"{events:,} events")

    def advance(self, n: int, failed: bool) -> None:
        if self._p is not None:
            if failed:
                self._failed += n
            self._p.update(self._task, advance=n, note=f"[red]{self._failed} failed")


# --------------------------------------------------------------------------
# Metrics and aggregation
# --------------------------------------------------------------------------


_METRICS_MEMO: Dict[Any, Dict[str, float]] = {}
"""Metrics already computed in this process, by run directory, the time its
``run.json`` was written and the metric specs: a finished run's tables do not
change, so a reproduction that compares after every precision round, or a
reading that re-reads the registered store, reads each run's tables once."""

_METRICS_MEMO_CAP = 1_000_000
"""Runs kept in :data:`_METRICS_MEMO` before it is emptied (a bound on a
long-lived process's memory; about 1 KiB per run)."""


def _memo_key(store: Store, key: str, metrics: Mapping[str, Metric]) -> Any:
    """The memo key of one run's metrics, or None when the run has no
    ``run.json`` (then nothing is remembered)."""
    run_json = store.run_dir(key) / "run.json"
    try:
        stamp = run_json.stat().st_mtime_ns
    except OSError:
        return None
    specs = json.dumps([m.to_dict() for m in metrics.values()], sort_keys=True, default=repr)
    return (str(run_json.resolve()), stamp, specs)


def compute_metrics(store: Store, key: str, metrics: Mapping[str, Metric]) -> Dict[str, float]:
    """Every metric of one stored run (remembered for the process: see
    :data:`_METRICS_MEMO`)."""
    memo = _memo_key(store, key, metrics)
    if memo is not None and memo in _METRICS_MEMO:
        return dict(_METRICS_MEMO[memo])
    out = _compute_metrics(store, key, metrics)
    if memo is not None:
        if len(_METRICS_MEMO) >= _METRICS_MEMO_CAP:
            _METRICS_MEMO.clear()
        _METRICS_MEMO[memo] = dict(out)
    return out


def _compute_metrics(store: Store, key: str, metrics: Mapping[str, Metric]) -> Dict[str, float]:
    """Every metric of one stored run, read from its tables."""
    import numpy as np

    tables: Dict[str, Any] = {}
    # Rows kept by a (table, where) filter: metrics of one run often share
    # a filter (an egress's bytes, bursts and losses).
    kept: Dict[Any, Any] = {}
    out: Dict[str, float] = {}
    for name, m in metrics.items():
        if m.expr:
            out[name] = eval_expr(m.expr, out) * m.scale
            continue
        if m.table == "meta":
            if "meta" not in tables:
                tables["meta"] = store.read_meta(key).get("run", {})
            v = tables["meta"].get(m.column)
            out[name] = (math.nan if v is None else float(v)) * m.scale
            continue
        if m.table not in tables:
            tables[m.table] = store.read_table(key, m.table).to_pandas()
        df = tables[m.table]
        if m.column not in df.columns:
            if df.empty:
                out[name] = math.nan
                continue
            from .experiment import ExperimentError

            raise ExperimentError.from_errors(
                [
                    (
                        f"metrics.{name}.column",
                        f"expected a column of the {m.table} table "
                        f"({', '.join(df.columns)}), found {m.column!r}",
                    )
                ]
            )
        missing = [
            (f"metrics.{name}.{k}", c)
            for k, c in [*((f"where.{c}", c) for c in m.where), ("weight", m.weight)]
            if c and c not in df.columns
        ]
        if missing:
            from .experiment import ExperimentError

            raise ExperimentError.from_errors(
                [
                    (path, f"expected a column of the {m.table} table ({', '.join(df.columns)}), found {c!r}")
                    for path, c in missing
                ]
            )
        if m.where:
            fkey = (m.table, json.dumps(dict(m.where), sort_keys=True, default=repr))
            if fkey not in kept:
                for col, val in m.where.items():
                    df = df[row_mask(df[col], val)]
                kept[fkey] = df
            df = kept[fkey]
        s = df[m.column].astype(float)
        if m.weight or m.agg in ("quantile", "top_share"):
            w = df[m.weight].to_numpy() if m.weight else None
            out[name] = reduce_values(s.to_numpy(), m.agg, m.q, w) * m.scale
            continue
        if m.agg == "count":
            v = float(s.count())
        elif s.empty:
            v = math.nan
        elif m.agg == "first":
            v = float(s.iloc[0])
        elif m.agg == "last":
            v = float(s.iloc[-1])
        elif m.agg == "std":
            v = float(s.std(ddof=1)) if len(s) > 1 else math.nan
        else:
            v = float(getattr(np, f"nan{m.agg}")(s.to_numpy()))
        out[name] = v * m.scale
    return out


def _axis_value(v: Any) -> Any:
    """An axis value as a table cell: scalars as they are; lists and tables
    (e.g. a start range ``["0 s", "50 s"]``) as canonical JSON text, so that
    results can be grouped by them."""
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v, sort_keys=True, ensure_ascii=False)
    return v


def results_frame(store: Store, exp: Optional[Experiment] = None) -> "pandas.DataFrame":
    """One row per finished (point, replication): axis values, point,
    replication, seed, key and every metric."""
    import pandas as pd

    exp = exp or experiment_from_stored(store.experiment_doc())
    cat = store.catalog()
    ok = cat[cat["status"] == "ok"]
    cache: Dict[str, Dict[str, float]] = {}
    rows = []
    for rec in ok.to_dict("records"):
        key = rec["key"]
        if key not in cache:
            cache[key] = compute_metrics(store, key, exp.metrics)
        row = {a: _axis_value(rec[a]) for a in exp.axes}
        row.update(point=rec["point"], replication=rec["replication"], seed=rec["seed"], key=key)
        row.update(cache[key])
        rows.append(row)
    cols = exp.axes + ["point", "replication", "seed", "key"] + list(exp.metrics)
    df = pd.DataFrame(rows, columns=cols)
    df["seed"] = df["seed"].astype("uint64")
    return df


def aggregate(store: Store, exp: Optional[Experiment] = None) -> Dict[str, "pandas.DataFrame"]:
    """Write ``results.parquet`` and ``summary.parquet`` (mean and 95% CI
    over replications per point and metric); return both frames."""
    from .stats import summarize

    exp = exp or experiment_from_stored(store.experiment_doc())
    res = results_frame(store, exp)
    summ = summarize(res, ["point"] + exp.axes, list(exp.metrics)) if not res.empty else None
    atomic_write_parquet(store.root / "results.parquet", frame_to_arrow(res))
    if summ is None:
        import pandas as pd

        summ = pd.DataFrame(
            columns=["point"] + exp.axes + ["metric", "n", "mean", "std", "half_width", "ci_low", "ci_high"]
        )
    atomic_write_parquet(store.root / "summary.parquet", frame_to_arrow(summ))
    return {"results": res, "summary": summ}


def status(store: Store) -> Dict[str, Any]:
    """Counts of ok / error / pending runs and the failures."""
    cat = store.catalog()
    counts = cat["status"].value_counts().to_dict()
    fails = cat[cat["status"] == "error"]
    manifest = store.manifest()
    return {
        "experiment": manifest.get("experiment"),
        "total": int(len(cat)),
        "ok": int(counts.get("ok", 0)),
        "error": int(counts.get("error", 0)),
        "pending": int(counts.get("pending", 0)),
        "failures": fails[["point", "replication", "seed", "error"] + manifest["axes"]].to_dict("records"),
        "wall_s": float(cat["wall_s"].sum(skipna=True)),
    }


__all__ = [
    "SweepSummary",
    "aggregate",
    "canonical_json",
    "compute_metrics",
    "execute_run",
    "plan",
    "results_frame",
    "run_experiment",
    "status",
]

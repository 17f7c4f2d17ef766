"""Results of one run: Arrow tables plus metadata, and how they are written.

Files written by :meth:`Results.write` (see README, "Output files"):

``NAME.parquet`` for every ``NAME`` in :data:`TABLES`
    The tables (those in :data:`OPTIONAL_TABLES` only if they have rows).
``meta.json``
    Everything needed to reproduce and interpret the run: resolved scenario,
    original scenario text, seed, run facts, software versions.
``timing.json``
    Wall-clock times and host facts.

The results of a run stopped by Ctrl-C (:class:`obsim.RunInterrupted`) are
written the same way; their ``meta.json`` then has ``"partial": true`` and
``run.stop_reason == "interrupted"``, with ``run.end_time_s`` the simulated
time reached.

All files but ``timing.json`` are byte-identical for the same scenario, seed
and software versions.

The directory is written whole: into a staging directory next to it, then
moved into place, so it holds either the complete results or (when the write
fails) nothing new. :func:`output_problem` tells before a run whether a
directory can take its results.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple, Union

from . import _core
from .files import atomic_write_json, install_dir, staging_dir

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    import polars
    import pyarrow as pa

    from .api import ScenarioSource

TABLES: Tuple[str, ...] = tuple(_core.TABLES)
"""Names of the result tables, in the order they are written: the binding's
one list (``crates/obsim-py/src/tables.rs``), checked there against the
fields of obsim-core's ``RunResults``."""

OPTIONAL_TABLES: Tuple[str, ...] = tuple(_core.OPTIONAL_TABLES)
"""The tables written only when they have rows (every table but ``flows``
and ``links``)."""


def _empty_table(name: str) -> "pa.Table":
    """What a table missing from a raw result dict (a fake core in tests)
    reads as: typed empty tables where callers rely on the columns, else no
    columns."""
    import pyarrow as pa

    if name == "bursts":
        return pa.table(
            {
                "metric": pa.array([], pa.string()),
                "value": pa.array([], pa.int64()),
                "count": pa.array([], pa.int64()),
            }
        )
    if name == "series":
        return pa.table({"time_s": pa.array([], pa.float64())})
    if name == "traffic":
        return pa.table({"source": pa.array([], pa.int64())})
    if name == "flow_records":
        return pa.table({"flow": pa.array([], pa.int64())})
    return pa.table({})


META_SCHEMA = 1
"""Version of the layout of ``meta.json``; bumped when it changes."""

# Run facts that depend on the machine, not on the scenario and seed: kept out
# of meta.json so that it is deterministic, and written to timing.json.
_TIMING_KEYS = ("wall_s",)


def _table(columns: Mapping[str, Any]) -> pa.Table:
    """An Arrow table from ``{name: numpy array | list}`` (NumPy arrays are
    taken without conversion). pyarrow is imported here, when a run's
    results are built, not with the module (start-up time of the command
    line)."""
    import pyarrow as pa

    return pa.table(dict(columns))


class Results:
    """What one run produced.

    Attributes:
        meta: run-level facts from the engine (scenario name, seed used,
            end time, events, wall seconds, segments delivered, stop reason).
        flows: one row per flow (goodput, segments sent/retransmitted, TD/TO
            loss events, drops, RTT/RTO statistics).
        links: one row per link direction (packets, bytes, drops, utilisation).
        trace: time series, one row per (sample time, flow); empty unless
            ``[trace]`` asked for one.
        packets: the packet trace, one row per packet sent onto a link,
            received from it or dropped (with the reason), as an ns-2 trace
            file; empty unless ``[trace] packets = true``.
        bursts: burst composition histograms, rows (metric, value, count)
            for ``flows_per_burst``, ``segments_per_flow`` and
            ``packets_per_burst``; empty without OBS edge nodes.
        series: aggregate series sampled every ``metrics.sample_interval``:
            active flows, aggregated throughput Σ cwnd·MSS/RTT, normalized
            cwnd, flows that lost since the previous sample.
        nodes: one row per edge and core node: BCPs processed, bursts
            dropped for lack of a wavelength, conversions.
        paths: one row per (ingress, egress, class) of bursts sent after
            warm-up: bursts, lost, blocked, bytes, loss ratio.
        burst_lengths: assembled bursts sent and lost per (ingress, egress,
            burst-length bin in packets) after warm-up.
        wavelengths: one row per wavelength of each optical link direction:
            bursts carried and utilisation.
        traffic: one row per UDP cross-traffic source (``[[traffic]]``):
            datagrams sent, delivered, dropped and in flight, bytes delivered
            and throughput in the measured window; empty without sources.
        flow_records: one row per generated flow (``[[flow_generators]]``):
            id, generator, source, destination, size, start, end, completion
            time, goodput, segments sent and retransmitted, TD and TO events,
            bursts sent and lost, finished, and the seconds it was active
            after the warm-up (summed over flows / measured time = mean
            active flows); empty without flow generators. Memory-mapped
            from the files of ``spill_dir`` when :func:`obsim.run` was
            given one (:mod:`obsim.spill`).
        pair_bins: with ``metrics.pair_series``, one row per whole
            ``metrics.throughput_bin`` after the warm-up of the path of
            ``metrics.pair`` (``ingress``, ``egress``, ``start_s``,
            ``bytes``, ``rate_bps``: its TCP burst bytes reaching the first
            core router, gonzalez2009 Figs. 15-16); empty otherwise.
        scenario: the resolved scenario (defaults filled in, units converted).
        scenario_text: the scenario as given (TOML or JSON text).
        scenario_format: ``"toml"`` or ``"json"``.
        seed: the seed actually used.
        timing: wall-clock facts (engine and total wall time, events per
            second, host); not deterministic.
    """

    meta: Dict[str, Any]
    flows: pa.Table
    links: pa.Table
    trace: pa.Table
    packets: pa.Table
    bursts: pa.Table
    series: pa.Table
    nodes: pa.Table
    paths: pa.Table
    burst_lengths: pa.Table
    wavelengths: pa.Table
    traffic: pa.Table
    flow_records: pa.Table
    pair_bins: pa.Table
    scenario: Dict[str, Any]
    scenario_text: str
    scenario_format: str
    seed: int
    timing: Dict[str, Any]

    def __init__(
        self,
        *,
        meta: Dict[str, Any],
        tables: Mapping[str, pa.Table],
        scenario: Dict[str, Any],
        scenario_text: str,
        scenario_format: str,
        timing: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Assemble results; most code gets them from :func:`obsim.run`.

        ``tables`` maps names in :data:`TABLES` to Arrow tables; a table not
        given is empty.
        """
        unknown = sorted(set(tables) - set(TABLES))
        if unknown:
            raise KeyError(f"no table {', '.join(unknown)}; tables are {', '.join(TABLES)}")
        self.meta = meta
        for name in TABLES:
            setattr(self, name, tables[name] if name in tables else _empty_table(name))
        self.scenario = scenario
        self.scenario_text = scenario_text
        self.scenario_format = scenario_format
        self.seed = int(meta.get("seed", scenario.get("seed", 0)))
        self.timing = timing if timing is not None else {}

    @classmethod
    def from_raw(
        cls,
        raw: Mapping[str, Any],
        *,
        source: "ScenarioSource",
        seed_override: Optional[int] = None,
        wall_total_s: Optional[float] = None,
    ) -> "Results":
        """Build results from the dict returned by ``obsim._core.run``."""
        meta = dict(raw["meta"])
        wall_s = meta.get("wall_s")
        events = meta.get("events")
        delivered = meta.get("segments_delivered")
        timing: Dict[str, Any] = {
            "wall_s": wall_s,
            "wall_total_s": wall_total_s,
            "events_per_s": _rate(events, wall_s),
            "segments_delivered_per_s": _rate(delivered, wall_s),
            "host": platform.node(),
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
        }
        scenario = raw["scenario"]
        if isinstance(scenario, str):
            scenario = json.loads(scenario)
        return cls(
            meta=meta,
            tables={name: _table(raw[name]) for name in TABLES if name in raw},
            scenario=scenario,
            scenario_text=source.text,
            scenario_format=source.format,
            timing=timing,
        )

    def __repr__(self) -> str:
        name = self.meta.get("scenario", self.scenario.get("name", "?"))
        return (
            f"<obsim.Results {name!r} seed={self.seed} flows={self.flows.num_rows} "
            f"links={self.links.num_rows} trace={self.trace.num_rows}>"
        )

    def table(self, name: str) -> pa.Table:
        """The table called ``name`` (one of :data:`TABLES`)."""
        if name not in TABLES:
            raise KeyError(f"no table {name!r}; tables are {', '.join(TABLES)}")
        table: pa.Table = getattr(self, name)
        return table

    def to_pandas(self, name: str = "flows") -> "pandas.DataFrame":
        """Table ``name`` as a pandas DataFrame."""
        return self.table(name).to_pandas()

    def to_polars(self, name: str = "flows") -> "polars.DataFrame":
        """Table ``name`` as a polars DataFrame (needs ``pip install obsim[polars]``)."""
        try:
            import polars as pl
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("to_polars needs polars: pip install 'obsim[polars]'") from e
        return pl.from_arrow(self.table(name))

    @property
    def partial(self) -> bool:
        """True for the results of a run stopped before its end by Ctrl-C
        (``meta["stop_reason"] == "interrupted"``): they cover simulated time
        up to ``meta["end_time_s"]`` only."""
        return bool(self.meta.get("stop_reason") == "interrupted")

    def metadata(self) -> Dict[str, Any]:
        """The content of ``meta.json``: deterministic for a scenario and seed.

        Partial results (:attr:`partial`) carry ``"partial": true``; the key is
        absent otherwise, so complete runs keep their exact bytes."""
        import pyarrow as pa

        run = {k: v for k, v in self.meta.items() if k not in _TIMING_KEYS}
        partial = {"partial": True} if self.partial else {}
        return {
            **partial,
            "meta_schema": META_SCHEMA,
            "obsim_version": _obsim_version(),
            "core_version": _core.__version__,
            "python": platform.python_version(),
            "pyarrow": pa.__version__,
            "seed": self.seed,
            "run": run,
            "tables": {
                name: {"rows": self.table(name).num_rows, "columns": self.table(name).column_names}
                for name in TABLES
            },
            "scenario": self.scenario,
            "scenario_format": self.scenario_format,
            "scenario_text": self.scenario_text,
        }

    def write(self, out_dir: Union[str, "os.PathLike[str]"]) -> Path:
        """Write the tables as Parquet plus ``meta.json`` and ``timing.json``
        to the directory ``out_dir``; return it.

        The tables in :data:`OPTIONAL_TABLES` (all but ``flows`` and
        ``links``) are written only if they have rows. The files are written
        into a staging directory next to ``out_dir`` and moved into place
        when all are written: ``out_dir`` then holds exactly this run's
        files (the results of an earlier run there are replaced), and a
        failed write (raised as ``OSError``) leaves it as it was. Raises
        ``NotADirectoryError`` if ``out_dir`` is a file and
        ``FileExistsError`` if it holds anything but obsim results (nothing
        of the user's is replaced).
        """
        import pyarrow.parquet as pq

        given = Path(out_dir)
        out = Path(os.path.realpath(given))
        if out.exists():
            if not out.is_dir():
                raise NotADirectoryError(f"{given} is a file, not a directory")
            foreign = _foreign_entries(out)
            if foreign:
                raise FileExistsError(
                    f"{given} holds files that are not obsim results ({', '.join(foreign)})"
                )
        staged = staging_dir(out)
        try:
            for name in TABLES:
                table = self.table(name)
                if name in OPTIONAL_TABLES and table.num_rows == 0:
                    continue
                pq.write_table(table, staged / f"{name}.parquet", compression="zstd")
            atomic_write_json(staged / "meta.json", self.metadata())
            atomic_write_json(staged / "timing.json", self.timing)
            install_dir(staged, out)
        except BaseException:
            shutil.rmtree(staged, ignore_errors=True)
            raise
        return given

    def summary(self) -> Dict[str, Any]:
        """Totals over all flows and run statistics, as one flat dict."""
        flows = self.flows.to_pydict()

        def total(col: str) -> float:
            return float(sum(v for v in flows.get(col, []) if v is not None))

        return {
            "flows": self.flows.num_rows,
            "goodput_bps": total("goodput_bps"),
            "segments_sent": int(total("segments_sent")),
            "retransmits": int(total("retransmits")),
            "td_events": int(total("td_events")),
            "to_events": int(total("to_events")),
            "packets_dropped": int(total("packets_dropped")),
            "events": self.meta.get("events"),
            "end_time_s": self.meta.get("end_time_s"),
            "wall_s": self.timing.get("wall_s", self.meta.get("wall_s")),
            "events_per_s": self.timing.get("events_per_s"),
            "segments_delivered_per_s": self.timing.get("segments_delivered_per_s"),
        }


RESULT_FILES: Tuple[str, ...] = tuple(f"{t}.parquet" for t in TABLES) + ("meta.json", "timing.json")
"""Every file name :meth:`Results.write` may write."""

MIN_FREE_BYTES = 1 << 20
"""Free space below which :func:`output_problem` refuses a directory (1 MiB:
the results of a small run take tens of kB; a long trace takes more, see
:func:`estimate_output_bytes`, and a disk that fills during the write is
handled by the caller)."""

_TRACE_ROW_BYTES = 8
"""Bytes of ``trace.parquet`` per row, rounded down (zstd: about 9.3 for
``scenarios/dumbbell.toml`` with cwnd and seq traced every 10 ms)."""


def estimate_output_bytes(scenario: Mapping[str, Any]) -> int:
    """A rough lower estimate of the size of the files :meth:`Results.write`
    writes for the resolved ``scenario`` (as :func:`obsim.parse` returns
    it): :data:`MIN_FREE_BYTES` plus, for a trace sampled every
    ``trace.interval``, the trace's rows (duration / interval per traced
    flow). A trace of every change cannot be estimated and adds nothing."""
    need = MIN_FREE_BYTES
    trace = scenario.get("trace") or {}
    interval = trace.get("interval")
    duration = scenario.get("duration")
    if (trace.get("cwnd") or trace.get("seq")) and interval and duration:
        flows = len(trace.get("flows") or []) or sum(
            int(f.get("count", 1) or 1) for f in scenario.get("flows") or []
        )
        need += int(duration) // int(interval) * flows * _TRACE_ROW_BYTES
    return need


def _foreign_entries(directory: Path) -> List[str]:
    """Names in ``directory`` that :meth:`Results.write` did not write (the
    first few, sorted); leftovers of an atomic write (``.NAME.*.tmp``) count
    as obsim's."""
    names = sorted(
        e.name
        for e in directory.iterdir()
        if not (e.name in RESULT_FILES and e.is_file())
        and not (e.name.startswith(".") and e.name.endswith(".tmp"))
    )
    return names[:3] + (["..."] if len(names) > 3 else [])


def output_problem(out_dir: Union[str, "os.PathLike[str]"], need: int = MIN_FREE_BYTES) -> Optional[str]:
    """Why :meth:`Results.write` could not write to ``out_dir``, checked
    without writing anything there (so before a run), or ``None`` if it looks
    fine.

    Refused: a path that is a file or lies under a file; a directory holding
    files other than obsim results (they would be replaced); a mount point
    (the staging directory next to it would be on another filesystem); a
    location where a directory cannot be created (read-only filesystem, no
    permission: probed by creating and removing an empty directory in the
    nearest existing ancestor); less than ``need`` bytes free there (see
    :func:`estimate_output_bytes`).
    The reason is one line, starting with the path.
    """
    given = str(out_dir)
    out = Path(os.path.realpath(out_dir))
    if out.exists():
        if not out.is_dir():
            return f"{given} is a file; give a directory (a new one, or one with earlier results)"
        foreign = _foreign_entries(out)
        if foreign:
            return (
                f"{given} holds files that are not obsim results ({', '.join(foreign)}); "
                "give a new or empty directory, or one with earlier results"
            )
        if os.path.ismount(out):
            return f"{given} is a mount point; give a directory inside it"
    ancestor = out.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return f"{given}: {ancestor} is a file, not a directory"
    probe = ancestor / f".obsim-probe-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError as e:
        return f"{given}: cannot write in {ancestor} ({e.strerror or e})"
    try:
        free = shutil.disk_usage(ancestor).free
    except OSError:  # pragma: no cover - cannot be estimated: the write will tell
        return None
    if free < need:
        return f"{given}: only {_size(free)} free on its filesystem; the results need about {_size(need)}"
    return None


def _size(n: int) -> str:
    """``n`` bytes in kB, MB or GB (powers of 1024), for messages."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n // 1024} kB"


def _rate(count: Any, seconds: Any) -> Optional[float]:
    if count is None or not seconds:
        return None
    return float(count) / float(seconds)


def _obsim_version() -> str:
    from . import __version__

    return __version__


__all__ = [
    "META_SCHEMA",
    "MIN_FREE_BYTES",
    "OPTIONAL_TABLES",
    "RESULT_FILES",
    "TABLES",
    "Results",
    "estimate_output_bytes",
    "output_problem",
]

if sys.version_info < (3, 9):  # pragma: no cover
    raise ImportError("obsim needs Python >= 3.9")

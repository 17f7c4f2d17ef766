"""Results of one run: Arrow tables plus metadata, and how they are written.

Files written by :meth:`Results.write` (see README, "Output files"):

``NAME.parquet`` for every ``NAME`` in :data:`TABLES`
    The tables (those in :data:`OPTIONAL_TABLES` only if they have rows).
``meta.json``
    Everything needed to reproduce and interpret the run: resolved scenario,
    original scenario text, seed, run facts, software versions.
``timing.json``
    Wall-clock times and host facts.

All files but ``timing.json`` are byte-identical for the same scenario, seed
and software versions.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Tuple, Union

import pyarrow as pa
import pyarrow.parquet as pq

from . import _core
from .files import atomic_write_json

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    import polars

    from .api import ScenarioSource

TABLES: Tuple[str, ...] = tuple(_core.TABLES)
"""Names of the result tables, in the order they are written: the binding's
one list (``crates/obsim-py/src/tables.rs``), checked there against the
fields of obsim-core's ``RunResults``."""

OPTIONAL_TABLES: Tuple[str, ...] = tuple(_core.OPTIONAL_TABLES)
"""The tables written only when they have rows (every table but ``flows``
and ``links``)."""

# What a table missing from a raw result dict (a fake core in tests) reads
# as: typed empty tables where callers rely on the columns, else no columns.
_EMPTY_TABLES = {
    "bursts": pa.table(
        {
            "metric": pa.array([], pa.string()),
            "value": pa.array([], pa.int64()),
            "count": pa.array([], pa.int64()),
        }
    ),
    "series": pa.table({"time_s": pa.array([], pa.float64())}),
    "traffic": pa.table({"source": pa.array([], pa.int64())}),
}

META_SCHEMA = 1
"""Version of the layout of ``meta.json``; bumped when it changes."""

# Run facts that depend on the machine, not on the scenario and seed: kept out
# of meta.json so that it is deterministic, and written to timing.json.
_TIMING_KEYS = ("wall_s",)


def _table(columns: Mapping[str, Any]) -> pa.Table:
    """An Arrow table from ``{name: numpy array | list}`` (NumPy arrays are
    taken without conversion)."""
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
    bursts: pa.Table
    series: pa.Table
    nodes: pa.Table
    paths: pa.Table
    burst_lengths: pa.Table
    wavelengths: pa.Table
    traffic: pa.Table
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
            setattr(self, name, tables.get(name, _EMPTY_TABLES.get(name, pa.table({}))))
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

    def metadata(self) -> Dict[str, Any]:
        """The content of ``meta.json``: deterministic for a scenario and seed."""
        run = {k: v for k, v in self.meta.items() if k not in _TIMING_KEYS}
        return {
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
        """Write the tables as Parquet plus ``meta.json`` and ``timing.json``.

        The tables in :data:`OPTIONAL_TABLES` (all but ``flows`` and
        ``links``) are written only if they have rows (a stale one from an
        earlier run in the same directory is removed). Returns the directory.
        """
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for name in TABLES:
            table = self.table(name)
            path = out / f"{name}.parquet"
            if name in OPTIONAL_TABLES and table.num_rows == 0:
                if path.exists():
                    path.unlink()
                continue
            pq.write_table(table, path, compression="zstd")
        atomic_write_json(out / "meta.json", self.metadata())
        atomic_write_json(out / "timing.json", self.timing)
        return out

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


def _rate(count: Any, seconds: Any) -> Optional[float]:
    if count is None or not seconds:
        return None
    return float(count) / float(seconds)


def _obsim_version() -> str:
    from . import __version__

    return __version__


__all__ = ["META_SCHEMA", "OPTIONAL_TABLES", "TABLES", "Results"]

if sys.version_info < (3, 9):  # pragma: no cover
    raise ImportError("obsim needs Python >= 3.9")

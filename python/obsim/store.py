"""The result store of an experiment: one directory per sweep (see README,
"Result store").

Layout of ``OUT/``::

    .tmp/                  runs being written (removed when a sweep starts)
    experiment.json        the experiment, self-contained (scenario inline)
    manifest.json          every run: key, point, replication, seed, axis values
    runs/ab/abcdef.../     one finished run (key = sha256 hex), written atomically:
        flows.parquet links.parquet [trace.parquet] meta.json timing.json run.json
    catalog.jsonl          journal: one JSON line per finished or failed run, appended as it ends
    catalog.parquet        the catalog consolidated: one row per (point, replication)
    results.parquet        one row per run: axis values, replication, seed, metrics
    summary.parquet        one row per (point, metric): n, mean, std, 95% CI
    figures/*.png|pdf      plots; report.html: the report

A run directory appears only complete: it is written under ``.tmp/`` and
moved into place with one ``os.replace``; so a killed sweep leaves finished
runs intact and no half-written run visible. Its presence is what "done"
means; ``catalog.jsonl`` is a journal (a line cut by a kill is ignored), and
the catalog is rebuilt from the run directories when it is consolidated.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Union

import pyarrow as pa
import pyarrow.parquet as pq

# The atomic writers are obsim.files'; importable from here as before.
from .files import atomic_write_bytes, atomic_write_json, atomic_write_parquet, fsync_dir, json_line

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from .results import Results

STORE_SCHEMA = 1
"""Version of the store layout (in ``manifest.json``)."""

CATALOG_COLUMNS = ("key", "point", "replication", "seed", "status", "error", "wall_s")
"""Fixed catalog columns; the axis values follow, one column per key path."""


def canonical_json(obj: Any) -> str:
    """JSON with sorted keys and no whitespace: the text that is hashed."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def run_key(resolved_scenario: Mapping[str, Any], seed: int, version: str) -> str:
    """sha256 (hex) of the resolved scenario JSON, the seed and the obsim
    version: a run's identity in the store."""
    h = hashlib.sha256()
    h.update(b"obsim-run-v1\0")
    h.update(canonical_json(resolved_scenario).encode())
    h.update(f"\0seed={int(seed)}\0version={version}".encode())
    return h.hexdigest()


class Store:
    """An experiment's result directory."""

    def __init__(self, root: Union[str, "os.PathLike[str]"]) -> None:
        self.root = Path(root)

    # ---- paths ------------------------------------------------------------
    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    @property
    def journal(self) -> Path:
        return self.root / "catalog.jsonl"

    def run_dir(self, key: str) -> Path:
        return self.runs_dir / key[:2] / key

    def is_done(self, key: str) -> bool:
        """True once the run's directory has been moved into place."""
        return (self.run_dir(key) / "run.json").is_file()

    # ---- writing ----------------------------------------------------------
    def prepare(self) -> None:
        """Create the directory and remove temporaries left by a killed sweep
        (a run that had not been moved into place did not finish)."""
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.root / ".tmp"
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)

    def write_run(self, key: str, results: "Results", record: Mapping[str, Any]) -> Path:
        """Write one run's tables and ``run.json`` atomically; return its
        directory. If another writer got there first, keep theirs (same key,
        same content)."""
        tmp = self._tmp(key)
        results.write(tmp)  # its files are flushed to disk, as run.json is
        atomic_write_json(tmp / "run.json", dict(record))
        fsync_dir(tmp)
        final = self._move_into_place(key, tmp)
        fsync_dir(final.parent)
        return final

    def spill_dir(self, key: str) -> Path:
        """A fresh directory name for run ``key``'s spilled per-flow records
        (``obsim.run(spill_dir=...)``), under ``.tmp`` beside its staging
        directory (:meth:`prepare` clears it); the caller removes it once
        the run is written."""
        tmp = self._tmp(key)
        return tmp.with_name(f"{tmp.name}.records")

    def _tmp(self, key: str) -> Path:
        """A fresh temporary directory name for run ``key`` (under ``.tmp``,
        which :meth:`prepare` clears)."""
        return self.root / ".tmp" / f"{key}.{os.getpid()}.{uuid.uuid4().hex[:8]}"

    def _move_into_place(self, key: str, tmp: Path) -> Path:
        """Rename the complete run directory ``tmp`` to run ``key``'s place
        (atomic); if another writer got there first, keep theirs (same key,
        same content) and drop ``tmp``. Returns the run's directory."""
        final = self.run_dir(key)
        final.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(tmp, final)
        except OSError:
            if not self.is_done(key):
                raise
            shutil.rmtree(tmp, ignore_errors=True)
        return final

    def adopt(self, key: str, other: "Store") -> bool:
        """Put ``other``'s finished run ``key`` in place here, its files
        hard-linked (copied where links are not possible), atomically as
        :meth:`write_run`; False if ``other`` has no such finished run. The
        key names the resolved scenario, the seed and the obsim version, so
        the run is the one this store would compute (obsim's determinism
        rule): a reading that changes only what is measured reuses the
        registered experiment's runs instead of repeating them."""
        if not other.is_done(key) or self.is_done(key):
            return self.is_done(key)
        tmp = self._tmp(key)

        def link(src: str, dst: str) -> None:
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)

        shutil.copytree(other.run_dir(key), tmp, copy_function=link)
        self._move_into_place(key, tmp)
        return True

    def append_journal(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Append catalog lines with one ``write`` (a kill cuts at most the
        last line, which :meth:`read_journal` then ignores)."""
        data = "".join(json_line(dict(r)) for r in records)
        if not data:
            return
        fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, data.encode("utf-8"))
        finally:
            os.close(fd)

    def journal_stored_runs(self) -> int:
        """Append a journal line for every run of the manifest whose
        directory is in place but that the journal does not list: runs a
        worker finished and stored while the sweep was shutting down (after
        Ctrl-C or a kill of the parent), whose outcome the parent never
        received. Returns the number of lines added."""
        listed = {rec["key"] for rec in self.read_journal() if rec.get("status") == "ok"}
        lines = []
        for run in self.manifest()["runs"]:
            key = run["key"]
            if key in listed or not self.is_done(key):
                continue
            rec = self.run_record(key)
            lines.append(
                {
                    "key": key,
                    "point": run["point"],
                    "replication": run["replication"],
                    "seed": run["seed"],
                    "status": "ok",
                    "error": None,
                    "wall_s": rec.get("wall_s"),
                    "axes": run["axes"],
                    "finished_at": rec.get("finished_at"),
                }
            )
        self.append_journal(lines)
        return len(lines)

    # ---- reading ----------------------------------------------------------
    def read_journal(self) -> List[Dict[str, Any]]:
        """Every complete line of ``catalog.jsonl`` (a torn line is skipped)."""
        if not self.journal.is_file():
            return []
        out = []
        for line in self.journal.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and "key" in rec:
                out.append(rec)
        return out

    def run_record(self, key: str) -> Dict[str, Any]:
        rec: Dict[str, Any] = json.loads((self.run_dir(key) / "run.json").read_text(encoding="utf-8"))
        return rec

    def read_table(self, key: str, name: str) -> pa.Table:
        """Table ``name`` of a finished run (an empty table if not written)."""
        path = self.run_dir(key) / f"{name}.parquet"
        if not path.is_file():
            return pa.table({})
        return pq.read_table(path)

    def read_meta(self, key: str) -> Dict[str, Any]:
        meta: Dict[str, Any] = json.loads((self.run_dir(key) / "meta.json").read_text(encoding="utf-8"))
        return meta

    def manifest(self) -> Dict[str, Any]:
        path = self.root / "manifest.json"
        if not path.is_file():
            raise FileNotFoundError(f"{self.root} is not an experiment result directory (no manifest.json)")
        doc: Dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return doc

    def experiment_doc(self) -> Dict[str, Any]:
        doc: Dict[str, Any] = json.loads((self.root / "experiment.json").read_text(encoding="utf-8"))
        return doc

    # ---- the catalog ------------------------------------------------------
    def catalog(self) -> "pandas.DataFrame":
        """One row per (point, replication) of the manifest: status ``ok``
        (run directory present), ``error`` (latest journal line says so) or
        ``pending``; with error text, wall time and axis values."""
        import pandas as pd

        manifest = self.manifest()
        axes: List[str] = manifest["axes"]
        latest: Dict[str, Dict[str, Any]] = {}
        for rec in self.read_journal():
            latest[rec["key"]] = rec
        rows = []
        done_cache: Dict[str, Optional[Dict[str, Any]]] = {}
        for run in manifest["runs"]:
            key = run["key"]
            if key not in done_cache:
                done_cache[key] = self.run_record(key) if self.is_done(key) else None
            done = done_cache[key]
            if done is not None:
                status, error, wall = "ok", None, done.get("wall_s")
            elif key in latest and latest[key].get("status") == "error":
                status, error, wall = "error", latest[key].get("error"), latest[key].get("wall_s")
            else:
                status, error, wall = "pending", None, None
            row = {
                "key": key,
                "point": run["point"],
                "replication": run["replication"],
                "seed": run["seed"],
                "status": status,
                "error": error,
                "wall_s": wall,
            }
            for a in axes:
                row[a] = run["axes"].get(a)
            rows.append(row)
        df = pd.DataFrame(rows, columns=list(CATALOG_COLUMNS) + axes)
        df["seed"] = df["seed"].astype("uint64")
        df["wall_s"] = df["wall_s"].astype("float64")
        return df

    def write_catalog(self) -> Path:
        """Consolidate the catalog into ``catalog.parquet`` (atomically)."""
        df = self.catalog()
        path = self.root / "catalog.parquet"
        atomic_write_parquet(path, frame_to_arrow(df))
        return path


def frame_to_arrow(df: "pandas.DataFrame") -> pa.Table:
    """Arrow table of ``df`` for the store's Parquet files (catalog, results,
    summary, comparison): object columns are converted from their Python
    values, and a column mixing types (e.g. an axis swept over numbers and
    strings) becomes strings."""
    cols = {}
    for name in df.columns:
        s = df[name]
        try:
            cols[name] = pa.array(s.tolist() if s.dtype == object else s, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            cols[name] = pa.array([None if v is None else str(v) for v in s.tolist()], type=pa.string())
    return pa.table(cols)


def now_iso() -> str:
    """The current UTC time as ISO 8601 text (``finished_at`` of a run)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


__all__ = [
    "CATALOG_COLUMNS",
    "STORE_SCHEMA",
    "Store",
    "atomic_write_bytes",
    "atomic_write_json",
    "atomic_write_parquet",
    "canonical_json",
    "frame_to_arrow",
    "now_iso",
    "run_key",
]

"""How obsim writes files: atomically, and JSON always the same way.

Every JSON file obsim writes (``meta.json``, ``timing.json``, ``run.json``,
``experiment.json``, ``manifest.json``, ``reproduction.json``) goes through
:func:`atomic_write_json`, so they share one format: two-space indent, UTF-8
text (``ensure_ascii=False``), non-finite floats written as ``null``, and a
trailing newline. The journal ``catalog.jsonl`` is appended line by line in
the format of :func:`json_line`.

A file is written atomically: to a temporary file in the same directory,
flushed to disk, then moved over the target with one ``os.replace``; a reader
(or a run killed half-way) sees the old file or the new one, never a part.
A directory of files is written the same way: into a staging directory next
to the target (:func:`staging_dir`), then moved into place with
:func:`install_dir`.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # pragma: no cover - imported where used (start-up time)
    import pyarrow as pa


def jsonable(value: Any) -> Any:
    """``value`` with non-finite floats (not valid JSON) replaced by ``None``
    and mapping keys made strings, recursively."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def json_text(obj: Any) -> str:
    """The text of a JSON file obsim writes: indented by two, UTF-8 kept
    as is, ``null`` for non-finite floats, one trailing newline."""
    return json.dumps(jsonable(obj), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def json_line(obj: Any) -> str:
    """One line of a JSON-lines journal: compact, keys sorted, newline-ended."""
    return json.dumps(jsonable(obj), ensure_ascii=False, allow_nan=False, sort_keys=True) + "\n"


def _temporary(path: Path) -> Path:
    """A fresh name next to ``path`` (same directory, so ``os.replace`` is
    atomic), unique across processes and threads."""
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


def fsync_dir(path: Path) -> None:
    """Flush a directory's entries to disk (a no-op where unsupported)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temporary(path)
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def atomic_write_json(path: Path, obj: Any) -> None:
    """Write ``obj`` as a JSON file (the format of :func:`json_text`),
    atomically: the one JSON writer of obsim."""
    atomic_write_bytes(path, json_text(obj).encode("utf-8"))


def atomic_write_parquet(path: Path, table: pa.Table) -> None:
    """Write ``table`` as zstd-compressed Parquet, atomically."""
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temporary(path)
    pq.write_table(table, tmp, compression="zstd")
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)


def staging_dir(target: Path) -> Path:
    """Create and return an empty staging directory next to ``target``
    (``NAME.tmp-PID-XXXXXXXX`` in the same parent, so that
    :func:`install_dir` is one rename on the same filesystem); the parent is
    created if missing."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    tmp.mkdir()
    return tmp


def install_dir(staged: Path, target: Path) -> None:
    """Move the complete directory ``staged`` to ``target``: flush its files,
    then one ``os.replace`` if ``target`` is missing or empty; otherwise
    ``target`` is first moved aside, replaced, and the old one removed (if
    the second move fails, the old directory is put back). A reader never
    sees a partly written ``target``. The caller decides whether an existing
    ``target`` may be replaced."""
    for f in staged.iterdir():
        if f.is_file():
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
    fsync_dir(staged)
    if target.is_dir() and any(target.iterdir()):
        old = target.with_name(f"{target.name}.old-{os.getpid()}-{uuid.uuid4().hex[:8]}")
        os.replace(target, old)
        try:
            os.replace(staged, target)
        except OSError:
            os.replace(old, target)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(staged, target)
    fsync_dir(target.parent)


__all__ = [
    "atomic_write_bytes",
    "atomic_write_json",
    "atomic_write_parquet",
    "fsync_dir",
    "install_dir",
    "json_line",
    "json_text",
    "jsonable",
    "staging_dir",
]

"""Per-flow records spilled to disk while a run goes on (issue 12 items 3
and 4: a run's memory bounded by the flows live at once, not by the flows it
ever had).

:func:`obsim.run` with ``spill_dir`` hands a :class:`RecordSpill` to the
core as its ``records`` callback: each chunk of ``flow_records`` rows
(``obsim._core.RECORD_CHUNK`` by default) is appended to an Arrow IPC file
(uncompressed) in that directory and dropped. At the end :meth:`RecordSpill.finish`
rewrites it as one IPC file per column, each column one contiguous array,
copying one column at a time, and memory-maps them: ``Results.flow_records``
is then a table backed by those files (the page cache, not the process's
anonymous memory), with exactly the arrays the whole table would have.

Why per column and not the chunked file itself: Parquet's writer checks its
dictionary-page limit (1 MiB) between the arrays it is handed, so a column
handed as several chunks can fall back from dictionary to plain encoding a
few values away from where one array does, and the bytes of
``flow_records.parquet`` would then depend on the chunk size (see
``tests/test_spill.py``). One contiguous array per column gives
``Results.write`` (``pyarrow.parquet.write_table``) byte-identical files.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Optional

if TYPE_CHECKING:  # pragma: no cover - imported where used (start-up time)
    import pyarrow as pa

CHUNKS_FILE = "flow_records.chunks.arrow"
"""The chunked spill file, in the order the core hands the records on."""


class RecordSpill:
    """The ``records`` callback of ``obsim._core.run``: appends each chunk
    of ``flow_records`` columns to an Arrow IPC file in ``directory``
    (created on the first chunk), then :meth:`finish` gives the table."""

    def __init__(self, directory: Path) -> None:
        """Spill into ``directory`` (created when the first chunk comes; its
        files are obsim's until the :class:`~obsim.Results` built from them
        are no longer used)."""
        self.directory = Path(directory)
        self.rows = 0
        self._file: Any = None
        self._writer: Any = None
        self._schema: Optional["pa.Schema"] = None

    def __call__(self, columns: Mapping[str, Any]) -> None:
        """Append one chunk (a column dict of ``obsim._core.run``)."""
        import pyarrow as pa

        table = pa.table(dict(columns))
        if self._writer is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._schema = table.schema
            self._file = pa.OSFile(str(self.directory / CHUNKS_FILE), "wb")
            self._writer = pa.ipc.new_file(self._file, self._schema)
        elif self._schema is not None and table.schema != self._schema:
            # The types pyarrow infers do not depend on the values of these
            # columns; kept safe should a chunk infer differently.
            table = table.cast(self._schema)
        self._writer.write_table(table)
        self.rows += table.num_rows

    def close(self) -> None:
        """Close the chunked file (idempotent)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._file is not None:
            self._file.close()
            self._file = None

    def finish(self) -> Optional["pa.Table"]:
        """Close the spill and return the records as one memory-mapped
        table whose columns are each one array (``None`` if no chunk came).
        Copies one column at a time; the chunked file is removed."""
        import pyarrow as pa

        self.close()
        chunks_path = self.directory / CHUNKS_FILE
        if self._schema is None or not chunks_path.exists():
            return None
        schema = self._schema
        with pa.memory_map(str(chunks_path)) as source:
            chunked = pa.ipc.open_file(source).read_all()
            columns = []
            for i, field in enumerate(schema):
                path = self.directory / f"flow_records.{i}.arrow"
                one = pa.schema([field])
                array = chunked.column(i).combine_chunks()
                with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, one) as writer:
                    writer.write_table(pa.Table.from_arrays([array], schema=one))
                del array
                columns.append(pa.ipc.open_file(pa.memory_map(str(path))).read_all().column(0))
            del chunked
        chunks_path.unlink()
        return pa.Table.from_arrays(columns, schema=schema)


def remove(directory: Path) -> None:
    """Remove a spill directory and its files (the memory-mapped tables
    built from it stay readable on POSIX systems until they are freed)."""
    shutil.rmtree(directory, ignore_errors=True)


__all__ = ["CHUNKS_FILE", "RecordSpill", "remove"]

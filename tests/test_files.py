"""obsim.files: the one JSON writer (format, atomicity) and the atomic writers."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

import pyarrow as pa
import pyarrow.parquet as pq

from obsim import files
from obsim.files import (
    atomic_write_json,
    atomic_write_parquet,
    install_dir,
    json_line,
    json_text,
    staging_dir,
)


def test_json_text_format() -> None:
    text = json_text({"b": 1.5, "a": [math.nan, math.inf, "µs"], 3: {"x": None}})
    # insertion order kept, two-space indent, UTF-8 as is, null for non-finite
    # floats, keys made strings, one trailing newline
    assert text == (
        '{\n  "b": 1.5,\n  "a": [\n    null,\n    null,\n    "µs"\n  ],\n  "3": {\n    "x": null\n  }\n}\n'
    )


def test_json_line_is_compact_sorted_and_one_line() -> None:
    line = json_line({"z": 1, "a": math.nan, "m": "é"})
    assert line == '{"a": null, "m": "é", "z": 1}\n'


def test_atomic_write_json_replaces_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "f.json"
    atomic_write_json(path, {"v": 1})
    atomic_write_json(path, {"v": 2})
    assert json.loads(path.read_text(encoding="utf-8")) == {"v": 2}
    assert path.read_bytes() == json_text({"v": 2}).encode("utf-8")
    assert [p.name for p in path.parent.iterdir()] == ["f.json"]


def test_atomic_write_parquet(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    atomic_write_parquet(path, pa.table({"x": [1, 2]}))
    assert pq.read_table(path).column("x").to_pylist() == [1, 2]
    assert [p.name for p in tmp_path.iterdir()] == ["t.parquet"]


def test_install_dir_new_empty_and_replacing(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "out"
    for content in ("one", "two", "three"):
        staged = staging_dir(target)
        assert staged.parent == target.parent and staged.name.startswith(f"out.tmp-{os.getpid()}-")
        (staged / "f.txt").write_text(content)
        install_dir(staged, target)
        assert [p.name for p in target.iterdir()] == ["f.txt"]
        assert (target / "f.txt").read_text() == content
        assert sorted(p.name for p in target.parent.iterdir()) == ["out"]
        if content == "one":  # an empty directory is replaced as well
            (target / "f.txt").unlink()


def test_install_dir_puts_the_old_directory_back_if_the_move_fails(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "f.txt").write_text("old")
    staged = staging_dir(target)
    (staged / "f.txt").write_text("new")
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        if Path(src) == staged:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(OSError):
        install_dir(staged, target)
    assert (target / "f.txt").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", staged.name]

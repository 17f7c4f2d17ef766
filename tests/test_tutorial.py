"""docs/TUTORIAL.md runs as written: every ``python`` block in one namespace,
in order, in an empty directory, and every ``sh`` block line by line with
``obsim`` as this interpreter's ``python -m obsim``."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.engine

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "TUTORIAL.md"


def blocks() -> list:
    """``(language, code)`` of every fenced block, in order."""
    return re.findall(r"```(\w*)\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), re.S)


def test_every_block_is_python_or_sh() -> None:
    langs = [lang for lang, _ in blocks()]
    assert langs and set(langs) <= {"python", "sh"}, langs


def test_tutorial_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    scope: dict = {"__name__": "__tutorial__"}
    for lang, code in blocks():
        if lang == "python":
            exec(compile(code, str(TUTORIAL), "exec"), scope)  # noqa: S102 - our own document
            continue
        for line in code.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            argv = shlex.split(line, comments=True)
            assert argv[0] == "obsim", line
            p = subprocess.run(
                [sys.executable, "-m", "obsim", *argv[1:]],
                capture_output=True,
                text=True,
                timeout=300,
                env=dict(os.environ),
            )
            assert p.returncode == 0, (line, p.stderr)
    # what the tutorial promises it made
    assert scope["summary"].ran == 18 and scope["summary"].failed == 0
    assert (tmp_path / "out" / "goodput.png").stat().st_size > 10_000
    assert (tmp_path / "out" / "sweep" / "report.html").is_file()
    assert (tmp_path / "out" / "one_run" / "meta.json").is_file()
    assert list((tmp_path / "out" / "sweep" / "figures").glob("*.png"))
    assert scope["problems"][0][0] == "tcp.variant"

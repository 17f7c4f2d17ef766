"""The ``obsim`` command line: exit codes, messages, files. The core run is faked
here; tests against the real parser and engine are in test_config.py and
test_engine.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Callable

import pandas as pd
import pytest

import obsim
from fake import FakeCore
from obsim import api, cli


def obsim_cmd(*args: str) -> subprocess.CompletedProcess:
    """Run the installed ``obsim`` command in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "obsim", *args], capture_output=True, text=True, timeout=300
    )


def test_version() -> None:
    p = obsim_cmd("--version")
    assert p.returncode == 0
    assert p.stdout.strip() == f"obsim {obsim.__version__} (obsim-core {obsim._core.__version__})"


def test_usage_errors_exit_2() -> None:
    assert obsim_cmd().returncode == 2
    assert obsim_cmd("frobnicate").returncode == 2
    assert obsim_cmd("run", "x.toml", "--seed", "abc").returncode == 2
    assert obsim_cmd("run", "x.toml", "--seed", "-1").returncode == 2


def test_missing_file_exits_2(tmp_path: Path) -> None:
    for cmd in ("run", "check"):
        p = obsim_cmd(cmd, str(tmp_path / "nope.toml"))
        assert p.returncode == 2
        assert "nope.toml" in p.stderr
        assert "Traceback" not in p.stderr


def test_toml_syntax_error_exits_2(write_scenario: Callable[..., Path]) -> None:
    path = write_scenario('name = "t"\n[simulation\nduration = 5\n')
    for cmd in ("run", "check"):
        p = obsim_cmd(cmd, str(path))
        assert p.returncode == 2, p.stderr
        assert "invalid scenario" in p.stderr
        assert "Traceback" not in p.stderr
        assert p.stdout == ""


def test_config_error_lists_every_problem(
    monkeypatch: pytest.MonkeyPatch, write_scenario: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    err = obsim.ConfigError("invalid scenario (2 problems)")
    err.path, err.reason = "links[1].rate", "expected a rate like \"10 Mbit/s\", found \"fast\""
    err.errors = [(err.path, err.reason), ("flows[0].to", "no node named \"zz\"")]
    monkeypatch.setattr(api._core, "run", FakeCore(error=err))
    assert cli.main(["run", str(write_scenario('name = "t"\n'))]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert "links[1].rate: expected a rate like \"10 Mbit/s\", found \"fast\"" in [s.strip() for s in lines]
    assert "flows[0].to: no node named \"zz\"" in [s.strip() for s in lines]


def test_simulation_error_exits_1(
    monkeypatch: pytest.MonkeyPatch, write_scenario: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(api._core, "run", FakeCore(error=obsim.SimulationError("flows[0]: no route")))
    assert cli.main(["run", str(write_scenario('name = "t"\n'))]) == 1
    assert "simulation failed: flows[0]: no route" in capsys.readouterr().err


def test_run_summary_and_out(
    monkeypatch: pytest.MonkeyPatch,
    write_scenario: Callable[..., Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    core = FakeCore()
    monkeypatch.setattr(api._core, "run", core)
    scen = write_scenario('name = "t"\n')
    out = tmp_path / "out"
    assert cli.main(["run", str(scen), "--seed", "9", "--out", str(out)]) == 0
    assert core.calls[-1][2] == 9
    stdout = capsys.readouterr().out
    for needle in ("goodput Mbit/s", "total", "events/s", "delivered segments/s", "1.600", "123,456"):
        assert needle in stdout, needle
    flows = pd.read_parquet(out / "flows.parquet")
    assert len(flows) == 2
    assert (out / "meta.json").exists() and (out / "timing.json").exists()

    # Without --out nothing is written; --quiet prints nothing.
    out2 = tmp_path / "out2"
    assert cli.main(["run", str(scen), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert not out2.exists()

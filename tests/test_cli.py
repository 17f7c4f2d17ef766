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


def test_directory_as_scenario_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('name = "a"\n')
    for cmd in ("run", "check"):
        p = obsim_cmd(cmd, str(tmp_path))
        assert p.returncode == 2
        assert "is a directory: give a scenario file (.toml or .json) (it holds a.toml)" in p.stderr
        assert "not found" not in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("value", ["-5", "0", "x"])
def test_max_rows_must_be_positive(value: str) -> None:
    p = obsim_cmd("run", "--max-rows", value, "scenarios/single_flow.toml")
    assert p.returncode == 2
    assert "--max-rows" in p.stderr and "Traceback" not in p.stderr


def test_check_counts_every_kind_of_traffic() -> None:
    root = Path(__file__).resolve().parent.parent / "scenarios"
    p = obsim_cmd("check", str(root / "nsfnet.toml"))
    assert p.returncode == 0, p.stderr
    assert "(14 nodes, 21 links, 0 flows, 8 burst generators, 0 UDP sources)" in p.stdout
    p = obsim_cmd("check", str(root / "yu2004_lossy_access.toml"))
    assert "5 flows, 0 burst generators, 4 UDP sources)" in p.stdout
    p = obsim_cmd("check", str(root / "single_flow.toml"))
    assert "1 flow, " in p.stdout


def test_report_and_status_name_what_the_directory_is(tmp_path: Path) -> None:
    one = tmp_path / "one"
    one.mkdir()
    (one / "meta.json").write_text("{}")
    cases = {
        one: "holds the results of one `obsim run`",
        tmp_path / "nope": "no such directory",
        tmp_path: "is not an experiment directory (no experiment.json)",
    }
    for d, needle in cases.items():
        for cmd in (["report", str(d)], ["experiment", "status", str(d)]):
            p = obsim_cmd(*cmd)
            assert p.returncode == 2, (cmd, p.stderr)
            assert needle in p.stderr and "Errno" not in p.stderr and "Traceback" not in p.stderr
            assert len(p.stderr.strip().splitlines()) == 1


DEGENERATE = """name = "deg"
[simulation]
duration = "5 s"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "b"
kind = "host"
[[links]]
from = "a"
to = "b"
rate = "1 bit/s"
delay = "1 ms"
loss = { model = "bernoulli", p = 1.0 }
"""


def test_degenerate_scenarios_are_warned_about_and_still_run(tmp_path: Path) -> None:
    path = tmp_path / "deg.toml"
    path.write_text(DEGENERATE, encoding="utf-8")
    expected = [
        "warning: nothing sends: no [[flows]], [[traffic]] or [[generators]]; the run only advances the clock",
        "warning: links[0].loss.p is 1: the link drops every packet",
        "warning: links[0].rate 1 bit/s: one 1500-byte packet takes 3.3 h to send, longer than the whole run (5 s)",
    ]
    for cmd in ("check", "run"):
        p = obsim_cmd(cmd, str(path))
        assert p.returncode == 0, p.stderr
        assert [ln for ln in p.stderr.splitlines() if ln.startswith("warning:")] == expected
    assert "warning" not in obsim_cmd("run", "-q", str(path)).stderr


def test_shipped_scenarios_raise_no_warning() -> None:
    from obsim.api import load_source, parse
    from obsim.lint import scenario_warnings

    for f in sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml")):
        assert scenario_warnings(parse(load_source(f))) == [], f.name

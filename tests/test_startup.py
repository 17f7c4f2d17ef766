"""Start-up stays light (issue 16): ``import obsim``, ``obsim --version``,
``obsim check`` and ``obsim run`` until the simulation starts import none of
the heavy libraries (numpy, pyarrow, pandas, ...): they are imported where
they are used. Structural checks on ``sys.modules`` in a fresh interpreter,
not timings (``benches/startup.py`` measures those)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

import obsim

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "single_flow.toml"

HEAVY = ("numpy", "pyarrow", "pandas", "matplotlib", "polars", "dask", "pydantic", "scipy")
"""Libraries the light paths must not import (each costs tens to hundreds
of milliseconds)."""

# Runs `python -m obsim ARGS...` (runpy, as the command does) with
# obsim._core.run wrapped to note the heavy modules loaded when the engine
# is entered; prints {"at_engine": [...] or null, "at_exit": [...]}.
CHILD = r"""
import json, runpy, sys
heavy, seen = json.loads(sys.argv[1]), {}
loaded = lambda: sorted(m for m in heavy if m in sys.modules)
import obsim._core as core
real = core.run
def run(*a, **k):
    seen["at_engine"] = loaded()
    return real(*a, **k)
core.run = run
sys.argv = ["obsim"] + sys.argv[2:]
try:
    runpy.run_module("obsim", run_name="__main__", alter_sys=True)
except SystemExit as e:
    seen["status"] = e.code
print(json.dumps({"at_engine": seen.get("at_engine"), "at_exit": loaded(), "status": seen.get("status")}))
"""


def _loaded(code: str, *args: str) -> dict:
    p = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert p.returncode == 0, p.stderr
    result: dict = json.loads(p.stdout.strip().splitlines()[-1])
    return result


def _command(*args: str, heavy: tuple = HEAVY) -> dict:
    return _loaded(CHILD, json.dumps(list(heavy)), *args)


def test_import_obsim_is_light() -> None:
    code = "import json, sys, obsim; print(json.dumps(sorted(m for m in %r if m in sys.modules)))" % (HEAVY,)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == []


def test_version_is_light() -> None:
    r = _command("--version", heavy=HEAVY + ("rich",))
    assert r["status"] in (0, None)
    assert r["at_exit"] == []


def test_check_is_light() -> None:
    r = _command("check", str(SCENARIO), heavy=HEAVY + ("rich", "importlib.metadata"))
    assert r["status"] == 0
    assert r["at_exit"] == []


@pytest.mark.parametrize("out", [False, True], ids=["no-out", "out"])
def test_run_is_light_until_the_simulation_starts(tmp_path: Path, out: bool) -> None:
    args: List[str] = ["run", str(SCENARIO)] + (["--out", str(tmp_path / "res")] if out else [])
    r = _command(*args, heavy=HEAVY + ("rich", "importlib.metadata"))
    assert r["status"] == 0
    assert r["at_engine"] == [], "imported before the simulation started"
    # After the run the results are built (pyarrow) and summarised (rich).
    assert "pyarrow" in r["at_exit"] and "rich" in r["at_exit"]
    assert (tmp_path / "res" / "meta.json").is_file() == out


def test_every_public_name_is_still_importable() -> None:
    from obsim import (  # noqa: F401
        ConfigError,
        ExperimentError,
        Results,
        SimulationError,
        __version__,
        load_experiment,
        parse,
        run,
        run_experiment,
    )

    assert set(obsim.__all__) <= set(dir(obsim))
    for name in obsim.__all__:
        assert getattr(obsim, name) is not None
    assert obsim.run is obsim.api.run and obsim.Results is obsim.results.Results
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        obsim.nope  # noqa: B018

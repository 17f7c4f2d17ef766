"""Scenario validation through the real obsim-core parser: every problem is
reported with its key path, through the API (ConfigError) and the CLI (exit 2,
one ``path: reason`` line per problem on stderr)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

import obsim
from conftest import small_scenario

pytestmark = pytest.mark.config


def obsim_cmd(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "obsim", *args], capture_output=True, text=True, timeout=300
    )


def _bad(old: str, new: str, count: int = 1) -> str:
    text = small_scenario()
    assert old in text
    return text.replace(old, new, count)


# The bottleneck link is links[1]; its rate is the second `rate =` line.
BAD_UNIT = _bad('to = "b"\nrate = "10 Mbit/s"', 'to = "b"\nrate = "10 furlongs"')
UNKNOWN_KEY = _bad('buffer = "100 packets"', 'buffer = "100 packets"\nbandwith = "1 Gbit/s"')
MISSING_NODE = _bad('[[flows]]\nfrom = "a"\nto = "b"', '[[flows]]\nfrom = "a"\nto = "zz"')


def test_valid_scenario_parses() -> None:
    resolved = obsim.parse(small_scenario())
    assert resolved["name"] == "small"
    assert len(resolved["nodes"]) == 3
    assert len(resolved["flows"]) == 2  # count = 2 expanded


def test_dict_and_toml_resolve_identically() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    text = small_scenario(loss=0.01)
    assert obsim.parse(tomllib.loads(text)) == obsim.parse(text)


def test_check_valid_exits_0(write_scenario: Callable[..., Path]) -> None:
    p = obsim_cmd("check", str(write_scenario(small_scenario())))
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("ok:")


def test_json_scenario_file(write_scenario: Callable[..., Path]) -> None:
    import json

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    path = write_scenario(json.dumps(tomllib.loads(small_scenario())), name="s.json")
    p = obsim_cmd("check", str(path))
    assert p.returncode == 0, p.stderr
    assert obsim.parse(path) == obsim.parse(small_scenario())


def test_bad_unit_is_value_error_with_path() -> None:
    assert "10 furlongs" in BAD_UNIT
    with pytest.raises(ValueError) as info:
        obsim.parse(BAD_UNIT)
    e = info.value
    assert isinstance(e, obsim.ConfigError)
    assert e.path == "links[1].rate"
    assert e.reason
    assert "links[1].rate" in str(e)


@pytest.mark.parametrize(
    "text, needles",
    [
        (BAD_UNIT, ["links[1].rate"]),
        (UNKNOWN_KEY, ["links[0]", "bandwith"]),
        (MISSING_NODE, ["flows[0]", "zz"]),
    ],
    ids=["bad-unit", "unknown-key", "missing-node"],
)
@pytest.mark.parametrize("cmd", ["check", "run"])
def test_cli_reports_path_and_exits_2(
    cmd: str, text: str, needles: list, write_scenario: Callable[..., Path]
) -> None:
    p = obsim_cmd(cmd, str(write_scenario(text)))
    assert p.returncode == 2, (p.stdout, p.stderr)
    for needle in needles:
        assert needle in p.stderr, (needle, p.stderr)
    assert "Traceback" not in p.stderr
    assert p.stdout == ""


def test_several_problems_all_reported(write_scenario: Callable[..., Path]) -> None:
    text = small_scenario().replace('rate = "10 Mbit/s"', 'rate = "fast"')
    with pytest.raises(obsim.ConfigError) as info:
        obsim.parse(text)
    paths = [p for p, _ in info.value.errors]
    assert "links[0].rate" in paths and "links[1].rate" in paths
    p = obsim_cmd("check", str(write_scenario(text)))
    assert p.returncode == 2
    assert "links[0].rate:" in p.stderr and "links[1].rate:" in p.stderr

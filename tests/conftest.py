"""Shared fixtures, and automatic skipping of tests that need parts of
obsim-core that are still stubs.

Tests marked ``config`` need the real scenario parser, tests marked ``engine``
the real simulation engine. While obsim-core answers "not implemented" they are
skipped with that reason; set ``OBSIM_REQUIRE_ENGINE=1`` to run (and fail) them
anyway.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Callable, List

import pytest

from obsim import _core

SMALL = """\
name = "small"

[simulation]
duration = "5 s"
seed = 1

[tcp]
profile = "ns2"
variant = "reno"
mss = "1000 B"
max_window = 64

[[nodes]]
name = "a"
kind = "host"

[[nodes]]
name = "r"

[[nodes]]
name = "b"
kind = "host"

[[links]]
from = "a"
to = "r"
rate = "10 Mbit/s"
delay = "5 ms"
buffer = "100 packets"

[[links]]
from = "r"
to = "b"
rate = "10 Mbit/s"
delay = "5 ms"
{loss}

[[flows]]
from = "a"
to = "b"
count = 2
start = ["0 s", "1 s"]

[trace]
cwnd = true
interval = "100 ms"
"""


def small_scenario(loss: float = 0.0) -> str:
    """The small two-flow scenario of these tests, optionally with Bernoulli
    loss of probability ``loss`` on the bottleneck ``r -> b``."""
    line = f'loss = {{ model = "bernoulli", p = {loss} }}' if loss else ""
    return SMALL.replace("{loss}", line)


@functools.lru_cache(maxsize=None)
def parser_is_stub() -> bool:
    """True while obsim-core's parser answers "not implemented"."""
    try:
        _core.parse_scenario(small_scenario(), "toml")
    except _core.ConfigError as e:
        return e.path == "" and "not implemented" in e.reason
    return False


@functools.lru_cache(maxsize=None)
def engine_is_stub() -> bool:
    """True while obsim-core's parser or engine answers "not implemented"."""
    if parser_is_stub():
        return True
    try:
        _core.run(small_scenario(), "toml", None)
    except _core.SimulationError as e:
        return "not implemented" in str(e)
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    """Skip ``config``/``engine`` tests while the corresponding core part is a stub."""
    if os.environ.get("OBSIM_REQUIRE_ENGINE") == "1":
        return
    needs_config = any(item.get_closest_marker("config") for item in items)
    needs_engine = any(item.get_closest_marker("engine") for item in items)
    skip_config = needs_config and parser_is_stub()
    skip_engine = needs_engine and engine_is_stub()
    for item in items:
        if skip_config and item.get_closest_marker("config"):
            item.add_marker(pytest.mark.skip(reason="obsim-core scenario parser is a stub"))
        if skip_engine and item.get_closest_marker("engine"):
            item.add_marker(pytest.mark.skip(reason="obsim-core engine is a stub"))


@pytest.fixture
def write_scenario(tmp_path: Path) -> Callable[..., Path]:
    """Write scenario text to a file in ``tmp_path``; returns its path."""

    def write(text: str, name: str = "scenario.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write

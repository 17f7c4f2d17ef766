"""Shared fixtures. Tests marked ``config`` exercise the scenario parser of
obsim-core, tests marked ``engine`` run the simulation engine (select them
with ``-m engine``)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest


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


@pytest.fixture
def write_scenario(tmp_path: Path) -> Callable[..., Path]:
    """Write scenario text to a file in ``tmp_path``; returns its path."""

    def write(text: str, name: str = "scenario.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write

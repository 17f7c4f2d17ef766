"""The two entry points of the Python API: :func:`run` and :func:`parse`.

A scenario may be given as

- a path (``str`` or :class:`os.PathLike`) to a ``.toml`` or ``.json`` file,
- TOML text (a ``str`` that is not an existing file and contains ``=`` or a
  newline; an existing file wins),
- a ``dict`` (mapping), serialised with :func:`json.dumps` and validated by the
  Rust core exactly like a TOML file.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, Optional, Union

from . import _core
from ._core import RunInterrupted
from .results import Results
from .spill import RecordSpill

ScenarioInput = Union[str, "os.PathLike[str]", Mapping[str, Any], "ScenarioSource"]
"""What :func:`run` and :func:`parse` accept."""

_MAX_SEED = 2**64 - 1


@dataclass(frozen=True)
class ScenarioSource:
    """A scenario as text, ready for the Rust core."""

    text: str
    """The scenario text (TOML or JSON)."""
    format: Literal["toml", "json"]
    """``"toml"`` or ``"json"``."""
    origin: Optional[str] = None
    """The file it was read from, if any."""


def load_source(scenario: ScenarioInput) -> ScenarioSource:
    """Turn any accepted scenario input into text plus format.

    Raises:
        FileNotFoundError: a path-like input names no file.
        IsADirectoryError: a path-like input names a directory.
        TypeError: the input is of an unsupported type.
    """
    if isinstance(scenario, ScenarioSource):
        return scenario
    if isinstance(scenario, Mapping):
        return ScenarioSource(json.dumps(scenario), "json")
    if isinstance(scenario, os.PathLike):
        return _read(Path(scenario))
    if isinstance(scenario, str):
        if "\n" not in scenario and Path(scenario).is_file():
            return _read(Path(scenario))
        if "\n" in scenario or "=" in scenario:
            return ScenarioSource(scenario, "toml")
        return _read(Path(scenario))
    raise TypeError(f"scenario must be a path, TOML text or a dict, not {type(scenario).__name__}")


def _read(path: Path) -> ScenarioSource:
    if path.is_dir():
        found = sorted(p.name for p in path.iterdir() if p.suffix.lower() in (".toml", ".json"))
        hint = f" (it holds {', '.join(found[:5])}{', ...' if len(found) > 5 else ''})" if found else ""
        raise IsADirectoryError(f"{path} is a directory: give a scenario file (.toml or .json){hint}")
    if not path.is_file():
        raise FileNotFoundError(f"scenario file not found: {path}")
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json":
        return ScenarioSource(text, "json", str(path))
    return ScenarioSource(text, "toml", str(path))


def _check_seed(seed: Optional[int]) -> Optional[int]:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= seed <= _MAX_SEED:
        raise ValueError(f"seed must be in [0, 2**64 - 1], got {seed}")
    return seed


def parse(scenario: ScenarioInput) -> dict[str, Any]:
    """Validate a scenario without running it; return its resolved form.

    The resolved form has every default filled in and units converted.

    Raises:
        ConfigError: the scenario is invalid (``.errors`` lists every problem).
    """
    src = load_source(scenario)
    resolved: dict[str, Any] = json.loads(_core.parse_scenario(src.text, src.format))
    return resolved


def run(
    scenario: ScenarioInput,
    seed: Optional[int] = None,
    progress: Optional[Callable[[float, float, int], object]] = None,
    *,
    spill_dir: Optional[Union[str, "os.PathLike[str]"]] = None,
    record_chunk: Optional[int] = None,
) -> Results:
    """Run a scenario and return its :class:`~obsim.Results`.

    ``seed`` overrides ``simulation.seed``. The GIL is released while the
    engine runs, so threads may run scenarios in parallel. ``progress`` is
    called as ``progress(now_s, end_s, events)`` about every 20 ms of wall
    time (simulated-time progress of a long run); it only observes, the
    results are the same with or without it.

    Ctrl-C (or a ``KeyboardInterrupt`` raised by ``progress``) stops the run
    with :class:`RunInterrupted`, a ``KeyboardInterrupt`` whose ``.results``
    are the :class:`~obsim.Results` up to the interruption
    (``results.partial`` is true; ``results.write`` marks them partial in
    ``meta.json``). Code that catches ``KeyboardInterrupt`` keeps working.

    ``spill_dir``: stream the per-flow records of generated flows
    (``flow_records``) to Arrow files in this directory while the run goes
    on, ``record_chunk`` rows at a time (default
    ``obsim._core.RECORD_CHUNK``, 8 192), instead of holding them: memory
    then grows with the flows live at once, not with the flows the run ever
    had (:mod:`obsim.spill`). ``results.flow_records`` is the same table,
    memory-mapped from the directory's files, and ``results.write`` writes
    the same bytes. The directory is created if needed (only when there are
    records) and must be kept while the results are used; removing it is
    the caller's. ``record_chunk`` without ``spill_dir`` changes nothing.

    Raises:
        ConfigError: the scenario is invalid.
        SimulationError: the scenario could not be simulated.
        RunInterrupted: Ctrl-C stopped the run (partial results attached).
    """
    src = load_source(scenario)
    seed = _check_seed(seed)
    spill = RecordSpill(Path(spill_dir)) if spill_dir is not None else None
    t0 = time.perf_counter()
    try:
        if spill is None:
            raw = _core.run(src.text, src.format, seed, progress)
        else:
            raw = _core.run(src.text, src.format, seed, progress, records=spill, record_chunk=record_chunk)
    except RunInterrupted as e:
        wall = time.perf_counter() - t0
        e.results = _results(e.partial, src, seed, wall, spill)
        raise
    finally:
        if spill is not None:
            spill.close()
    wall = time.perf_counter() - t0
    return _results(raw, src, seed, wall, spill)


def _results(
    raw: Mapping[str, Any],
    src: ScenarioSource,
    seed: Optional[int],
    wall: float,
    spill: Optional[RecordSpill],
) -> Results:
    """The :class:`Results` of ``raw``, with the spilled records if any."""
    res = Results.from_raw(raw, source=src, seed_override=seed, wall_total_s=wall)
    records = spill.finish() if spill is not None else None
    if records is not None:
        res.flow_records = records
    return res

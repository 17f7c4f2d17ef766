"""obsim: a fast discrete-event simulator of TCP over optical burst switched networks.

The Rust core (``obsim._core``) parses, validates and simulates scenarios; this
package turns results into Arrow tables, writes them, and provides the ``obsim``
command line.

>>> import obsim
>>> res = obsim.run("scenarios/dumbbell.toml", seed=7)   # path, TOML text or dict
>>> res.flows.to_pandas()[["flow", "goodput_bps"]]
>>> res.write("out/dumbbell")                          # parquet + meta.json
>>> obsim.parse({"name": "t", ...})                    # validate only
>>> exp = obsim.load_experiment("experiments/loss_sweep.toml")
>>> obsim.run_experiment(exp, "out/loss_sweep", jobs=4)  # sweep + replications, resumable
"""

from __future__ import annotations

import copyreg
import functools
from typing import TYPE_CHECKING, Any, List, Tuple

from ._core import ConfigError, RunInterrupted, SimulationError

if TYPE_CHECKING:  # pragma: no cover - the names __getattr__ below provides
    from .api import parse, run
    from .experiment import ExperimentError, load_experiment
    from .results import Results
    from .sweep import run_experiment

    __version__: str

# Defaults for a ConfigError raised by hand (the core always sets all three).
ConfigError.path = ""
ConfigError.reason = ""
ConfigError.errors = []


def _rebuild_config_error(message: str, errors: List[Tuple[str, str]]) -> ConfigError:
    """Recreate a pickled :class:`ConfigError` with its structured fields."""
    e = ConfigError(message)
    e.errors = [(str(path), str(reason)) for path, reason in errors]
    e.path, e.reason = e.errors[0] if e.errors else ("", "")
    return e


def _reduce_config_error(e: ConfigError) -> Tuple[Any, Tuple[str, List[Tuple[str, str]]]]:
    return _rebuild_config_error, (str(e), list(getattr(e, "errors", [])))


# Keep .path/.reason/.errors when a ConfigError crosses a process boundary
# (process pools pickle exceptions).
copyreg.pickle(ConfigError, _reduce_config_error)

# The public names, imported on first use (PEP 562): ``import obsim`` and
# the command line's light paths (``--version``, ``check``, ``run`` until the
# simulation starts) load neither numpy, pyarrow, pandas nor pydantic.
# tests/test_startup.py checks it.
_LAZY = {
    "ExperimentError": "experiment",
    "Results": "results",
    "load_experiment": "experiment",
    "parse": "api",
    "run": "api",
    "run_experiment": "sweep",
}

__all__ = [
    "ConfigError",
    "ExperimentError",
    "Results",
    "RunInterrupted",
    "SimulationError",
    "__version__",
    "load_experiment",
    "parse",
    "run",
    "run_experiment",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module when the name is first used."""
    if name == "__version__":
        return _version()
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))


@functools.lru_cache(maxsize=None)
def _version() -> str:
    """Version of the installed obsim package (``importlib.metadata`` costs
    tens of milliseconds to import: done only when ``__version__`` is used)."""
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        from ._core import __version__ as core

        return core
    try:
        return version("obsim")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        from ._core import __version__ as core

        return core

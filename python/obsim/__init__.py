"""obsim: a fast discrete-event simulator of TCP over optical burst switched networks.

The Rust core (``obsim._core``) parses, validates and simulates scenarios; this
package turns results into Arrow tables, writes them, and provides the ``obsim``
command line.

>>> import obsim
>>> res = obsim.run("scenarios/dumbbell.toml", seed=7)   # path, TOML text or dict
>>> res.flows.to_pandas()[["flow", "goodput_bps"]]
>>> res.write("out/dumbbell")                          # parquet + meta.json
>>> obsim.parse({"name": "t", ...})                    # validate only
"""

from __future__ import annotations

from ._core import ConfigError, SimulationError
from .api import parse, run
from .results import Results

__all__ = ["ConfigError", "Results", "SimulationError", "__version__", "parse", "run"]


def _version() -> str:
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


__version__: str = _version()
"""Version of the installed obsim package."""

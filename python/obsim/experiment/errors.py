"""The error an invalid experiment raises, with every problem's key path."""

from __future__ import annotations

import json
from typing import Any, Sequence, Tuple

from .._core import ConfigError


class ExperimentError(ConfigError):
    """The experiment is invalid. ``.path`` is the key path in the experiment
    file, ``.reason`` says what is allowed and what was found; ``.errors``
    lists every problem as ``(path, reason)``."""

    @classmethod
    def from_errors(cls, errors: Sequence[Tuple[str, str]]) -> "ExperimentError":
        """The error for every problem in ``errors`` (at least one), each
        ``(key path, reason)``: the message lists them one per line, and the
        first is ``.path``/``.reason``."""
        lines = "\n".join(f"  {p}: {r}" if p else f"  {r}" for p, r in errors)
        n = len(errors)
        e = cls(f"invalid experiment ({n} problem{'s' if n != 1 else ''}):\n{lines}")
        e.errors = list(errors)
        e.path, e.reason = errors[0]
        return e


def found(value: Any) -> str:
    """A value found in the file, as a reason quotes it: JSON, cut to 60
    characters."""
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["ExperimentError", "found"]

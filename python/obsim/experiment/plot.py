"""A plot of an experiment: one metric against one axis (drawn by
:mod:`obsim.plots`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any, Dict, Optional


@dataclass(frozen=True)
class Plot:
    """One figure: metric ``y`` against axis ``x``, one line per ``series``."""

    x: str
    y: str
    series: Optional[str] = None
    logx: bool = False
    logy: bool = False
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    name: str = ""

    @property
    def file_stem(self) -> str:
        """The figure's file name without suffix: ``name``, or ``Y_vs_X``."""
        return self.name or re.sub(r"[^A-Za-z0-9_-]+", "_", f"{self.y}_vs_{self.x}").strip("_")

    def to_dict(self) -> Dict[str, Any]:
        """Every field, as a ``[[plots]]`` table has them."""
        return {k: getattr(self, k) for k in PLOT_KEYS}


PLOT_KEYS = tuple(f.name for f in fields(Plot))
"""The keys of a ``[[plots]]`` table (the fields of :class:`Plot`)."""

__all__ = ["PLOT_KEYS", "Plot"]

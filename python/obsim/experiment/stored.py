"""The experiment as stored in a result directory (``experiment.json``):
self-contained, the scenario inline, and read back as the same experiment."""

from __future__ import annotations

from typing import Any, Dict, Mapping

from .load import TOP_KEYS, from_dict
from .model import Experiment

EXPERIMENT_SCHEMA = 1
"""Version of the experiment description stored in a result directory."""


def experiment_to_stored(exp: Experiment) -> Dict[str, Any]:
    """``experiment.json``: the experiment-file structure with the scenario
    inline, plus ``experiment_schema`` and ``source``; :func:`from_dict`
    reads it back (:func:`experiment_from_stored`)."""
    return {
        "experiment_schema": EXPERIMENT_SCHEMA,
        "name": exp.name,
        "description": exp.description,
        "source": exp.source,
        "scenario": exp.scenario,
        "replications": {"count": exp.replications, "base_seed": exp.base_seed},
        "sweep": {"grid": exp.grid, "zip": exp.zips},
        "metrics": {
            k: {kk: vv for kk, vv in m.to_dict().items() if kk != "name"} for k, m in exp.metrics.items()
        },
        "plots": [{k: v for k, v in p.to_dict().items() if v not in (None, "", False)} for p in exp.plots],
    }


def experiment_from_stored(doc: Mapping[str, Any]) -> Experiment:
    """Rebuild an :class:`Experiment` from ``experiment.json``."""
    d = {k: v for k, v in doc.items() if k in TOP_KEYS}
    return from_dict(d, source=doc.get("source"))


__all__ = ["EXPERIMENT_SCHEMA", "experiment_from_stored", "experiment_to_stored"]

"""The experiment: a base scenario, sweep axes, replications, metrics and
plots; its points and runs."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

from .._core import ConfigError
from .errors import ExperimentError, found
from .keypaths import set_key_path
from .metrics import Metric
from .plot import Plot
from .seeds import replication_seed


@dataclass(frozen=True)
class Point:
    """One combination of axis values (``index`` counts from 0)."""

    index: int
    values: Mapping[str, Any]


@dataclass(frozen=True)
class RunSpec:
    """One run: a point, a replication and its seed."""

    point: Point
    replication: int
    seed: int


@dataclass
class Experiment:
    """A validated experiment (see :mod:`obsim.experiment` for the file format)."""

    name: str
    scenario: Dict[str, Any]
    grid: Dict[str, List[Any]] = field(default_factory=dict)
    zips: List[Dict[str, List[Any]]] = field(default_factory=list)
    replications: int = 1
    base_seed: int = 1
    metrics: Dict[str, Metric] = field(default_factory=dict)
    plots: List[Plot] = field(default_factory=list)
    description: str = ""
    source: Optional[str] = None

    @property
    def axes(self) -> List[str]:
        """Every swept key path, grid axes first, in file order."""
        out = list(self.grid)
        for z in self.zips:
            out.extend(z)
        return out

    def points(self) -> List[Point]:
        """Every point: the product of the grid axes and the zipped groups."""
        factors: List[List[Dict[str, Any]]] = [[{k: v} for v in vals] for k, vals in self.grid.items()]
        for z in self.zips:
            keys = list(z)
            n = len(z[keys[0]])
            factors.append([{k: z[k][i] for k in keys} for i in range(n)])
        points = []
        for i, combo in enumerate(itertools.product(*factors)):
            values: Dict[str, Any] = {}
            for part in combo:
                values.update(part)
            points.append(Point(i, values))
        return points

    def runs(self) -> Iterator[RunSpec]:
        """Every run, point-major; seeds from :func:`replication_seed`."""
        seeds = [replication_seed(self.base_seed, r) for r in range(self.replications)]
        for p in self.points():
            for r in range(self.replications):
                yield RunSpec(p, r, seeds[r])

    def scenario_for(self, point: Point) -> Dict[str, Any]:
        """The base scenario with ``point``'s axis values set."""
        doc = copy.deepcopy(self.scenario)
        for key, value in point.values.items():
            set_key_path(doc, key, value)
        return doc

    def to_dict(self) -> Dict[str, Any]:
        """A self-contained description (the scenario inline), as stored in
        ``experiment.json`` of a result directory
        (:func:`obsim.experiment.stored.experiment_to_stored`)."""
        from .stored import experiment_to_stored

        return experiment_to_stored(self)

    def axis_path(self, axis: str) -> str:
        """Where ``axis`` is swept, as a key path in the experiment file:
        ``sweep.grid."AXIS"`` or ``sweep.zip[I]."AXIS"``."""
        if axis in self.grid:
            return f'sweep.grid."{axis}"'
        for i, z in enumerate(self.zips):
            if axis in z:
                return f'sweep.zip[{i}]."{axis}"'
        return axis  # pragma: no cover

    def validate_points(self) -> List[Tuple[Point, Dict[str, Any]]]:
        """Run ``obsim.parse`` on every point (each distinct value once) and
        return ``(point, resolved scenario)``; raise one
        :class:`ExperimentError` listing every bad axis value with its path."""
        from ..api import parse

        errors: List[Tuple[str, str]] = []
        out: List[Tuple[Point, Dict[str, Any]]] = []
        seen_bad: set[Tuple[str, str]] = set()
        for p in self.points():
            try:
                doc = self.scenario_for(p)
            except ValueError as e:  # pragma: no cover - caught in from_dict
                errors.append((f"point {p.index}", str(e)))
                continue
            try:
                out.append((p, parse(doc)))
            except ConfigError as e:
                for spath, reason in getattr(e, "errors", []) or [(getattr(e, "path", ""), str(e))]:
                    axis = _axis_for(spath, p.values)
                    where = self.axis_path(axis) if axis else "scenario"
                    detail = f"{spath}: {reason}" if spath else reason
                    if axis:
                        detail = f"value {found(p.values[axis])} is rejected by the scenario parser: {detail}"
                    else:
                        detail = f"point {p.index} ({_describe(p.values)}): {detail}"
                    if (where, detail) not in seen_bad:
                        seen_bad.add((where, detail))
                        errors.append((where, detail))
        if errors:
            raise ExperimentError.from_errors(errors)
        return out


def _describe(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={found(v)}" for k, v in values.items()) or "base scenario"


def _axis_for(scenario_path: str, values: Mapping[str, Any]) -> Optional[str]:
    """The axis whose key path is ``scenario_path`` or a prefix of it."""
    best = None
    for axis in values:
        if (
            scenario_path == axis
            or scenario_path.startswith(axis + ".")
            or scenario_path.startswith(axis + "[")
        ):
            if best is None or len(axis) > len(best):
                best = axis
        elif axis.startswith(scenario_path + ".") or axis.startswith(scenario_path + "["):
            best = best or axis
    return best


__all__ = ["Experiment", "Point", "RunSpec"]

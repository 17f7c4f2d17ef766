"""Reading an experiment file and validating it: the structure against its
declaration (:mod:`obsim.experiment.schema`, pydantic), then the rules that
relate keys to each other and to the base scenario. Every problem is
collected with its key path and raised as one :class:`ExperimentError`."""

from __future__ import annotations

import copy
import json
import math
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from . import schema
from .errors import ExperimentError, found
from .keypaths import parse_key_path, set_key_path
from .metrics import RANGE_KEYS, WEIGHTED, Metric, expr_names
from .model import Experiment
from .plot import Plot

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python < 3.11
    import tomli as tomllib

TOP_KEYS = schema.TOP_KEYS
"""The top-level keys of an experiment file."""


def load_experiment(path: Union[str, "Path"]) -> Experiment:
    """Read and validate an experiment TOML file (scenario not yet run
    through the core: see :meth:`Experiment.validate_points`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        reason = f"cannot read experiment file {p}: {e.strerror or e}"
        raise ExperimentError.from_errors([("", reason)]) from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError.from_errors([("", f"TOML syntax error in {p}: {e}")]) from None
    return from_dict(doc, base_dir=p.parent, source=str(p))


def from_dict(
    doc: Mapping[str, Any], base_dir: Optional[Path] = None, source: Optional[str] = None
) -> Experiment:
    """Validate an experiment given as a dict (the TOML structure). Every
    problem is collected and raised as one :class:`ExperimentError`: first
    those of the structure (:func:`obsim.experiment.schema.check`), then,
    once it is sound, those between keys and with the base scenario."""
    f, errs = schema.check(doc)
    if f is None:
        raise ExperimentError.from_errors(errs)
    name = f.name if f.name is not None else (Path(source).stem if source else "experiment")
    scenario = _load_scenario(f.scenario, base_dir, errs)

    grid = {k: v for k, v in f.sweep.grid.items() if _check_axis(k, v, f'sweep.grid."{k}"', scenario, errs)}
    zips: List[Dict[str, List[Any]]] = []
    for i, group in enumerate(f.sweep.zip):
        ok = {k: v for k, v in group.items() if _check_axis(k, v, f'sweep.zip[{i}]."{k}"', scenario, errs)}
        lengths = {k: len(v) for k, v in ok.items()}
        if len(set(lengths.values())) > 1:
            errs.append(
                (
                    f"sweep.zip[{i}]",
                    "zipped axes must have the same number of values, found "
                    + ", ".join(f"{k}: {n}" for k, n in lengths.items()),
                )
            )
        elif ok:
            zips.append(ok)
    seen: Dict[str, str] = {}
    for path, keys in [("sweep.grid", list(grid))] + [
        (f"sweep.zip[{i}]", list(zz)) for i, zz in enumerate(zips)
    ]:
        for k in keys:
            if k in seen:
                errs.append((f'{path}."{k}"', f"key path already swept in {seen[k]}; sweep each key once"))
            seen[k] = path

    metrics = _metrics(f.metrics, errs)
    plots = _plots(f.plots, list(seen), metrics, errs)
    if errs:
        # Report every problem at once: the core's verdict on the sweep
        # values too (run_experiment asks it only for a sound experiment).
        if scenario and not any(path == "scenario" for path, _ in errs):
            errs.extend(_value_errors(name, scenario, grid, zips, f.replications))
        raise ExperimentError.from_errors(errs)
    return Experiment(
        name=name,
        scenario=scenario,
        grid=grid,
        zips=zips,
        replications=f.replications.count,
        base_seed=f.replications.base_seed,
        metrics=metrics,
        plots=plots,
        description=f.description,
        source=source,
    )


def _value_errors(
    name: str,
    scenario: Dict[str, Any],
    grid: Dict[str, List[Any]],
    zips: List[Dict[str, List[Any]]],
    replications: Any,
) -> List[Tuple[str, str]]:
    """The sweep values the scenario parser rejects (as
    :meth:`Experiment.validate_points` reports them), for the axes that
    passed the structural checks."""
    probe = Experiment(
        name=name,
        scenario=scenario,
        grid=grid,
        zips=zips,
        replications=replications.count,
        base_seed=replications.base_seed,
        metrics={},
        plots=[],
    )
    try:
        probe.validate_points()
    except ExperimentError as e:
        return list(e.errors)
    return []


def _load_scenario(value: Any, base_dir: Optional[Path], errs: List[Tuple[str, str]]) -> Dict[str, Any]:
    if value is None:
        errs.append(
            ("scenario", "required: a scenario file path (relative to the experiment) or a [scenario] table")
        )
        return {}
    if isinstance(value, Mapping):
        return copy.deepcopy(dict(value))
    if isinstance(value, str):
        path = Path(value)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        if not path.is_file():
            errs.append(("scenario", f"scenario file not found: {path}"))
            return {}
        text = path.read_text(encoding="utf-8")
        try:
            if path.suffix.lower() == ".json":
                doc = json.loads(text)
            else:
                doc = tomllib.loads(text)
        except (ValueError, tomllib.TOMLDecodeError) as e:
            errs.append(("scenario", f"cannot parse scenario file {path}: {e}"))
            return {}
        if isinstance(doc, dict):
            doc.setdefault("name", path.stem)
            return doc
        errs.append(("scenario", f"scenario file {path} is not a table"))  # pragma: no cover
        return {}
    errs.append(("scenario", f"expected a file path or a table, found {found(value)}"))
    return {}


def _check_axis(
    key: str, vals: Any, where: str, scenario: Dict[str, Any], errs: List[Tuple[str, str]]
) -> bool:
    try:
        parse_key_path(key)
    except ValueError as e:
        errs.append((where, str(e)))
        return False
    if parse_key_path(key)[:2] == ["simulation", "seed"]:
        errs.append((where, "the seed is set per replication (replications.base_seed); do not sweep it"))
        return False
    if scenario:
        try:
            set_key_path(copy.deepcopy(scenario), key, vals[0])
        except ValueError as e:
            errs.append((where, f"cannot set {key} in the base scenario: {e}"))
            return False
    return True


def _check_reduction(where: str, m: schema.MetricTable, agg: str, errs: List[Tuple[str, str]]) -> None:
    """``q`` with (and only with) a quantile, ``weight`` only with an
    aggregation that weighs, ranges in ``where`` well formed, and nothing but
    ``first`` of the meta table's single row."""
    if agg == "quantile":
        if m.q is None or not 0.0 <= m.q <= 1.0:
            reason = f'required with agg = "quantile": a number in [0, 1], found {found(m.q)}'
            errs.append((f"{where}.q", reason))
    elif m.q is not None:
        errs.append((f"{where}.q", f"only read by agg = \"quantile\" (agg is {agg!r}); remove it"))
    if m.weight is not None:
        if not m.weight:
            errs.append((f"{where}.weight", "expected a column name, found an empty string"))
        elif agg not in WEIGHTED:
            errs.append(
                (
                    f"{where}.weight",
                    f"agg {agg!r} cannot be weighted; allowed with weight: {', '.join(WEIGHTED)}",
                )
            )
    reduces_rows = m.where or m.weight is not None or agg in ("quantile", "top_share")
    if (m.table or "flows") == "meta" and reduces_rows:
        reason = 'the meta table has one row per run: use agg = "first" without where or weight'
        errs.append((where, reason))
    for col, cond in (m.where or {}).items():
        if isinstance(cond, list) and not cond:
            reason = "expected a value, a non-empty list of values or a range, found []"
            errs.append((f"{where}.where.{col}", reason))
        if not isinstance(cond, dict):
            continue
        bad = [k for k in cond if k not in RANGE_KEYS]
        nums = [k for k in RANGE_KEYS if k in cond and not _number(cond[k])]
        if not cond or bad or nums:
            errs.append(
                (
                    f"{where}.where.{col}",
                    "expected a value, or a range { min = a, max = b } of numbers (either bound may be "
                    f"left out), found {found(cond)}",
                )
            )
        elif "min" in cond and "max" in cond and not cond["min"] < cond["max"]:
            errs.append((f"{where}.where.{col}", f"expected min < max, found {found(cond)}"))


def _number(v: Any) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _metrics(tables: Mapping[str, schema.MetricTable], errs: List[Tuple[str, str]]) -> Dict[str, Metric]:
    """The metrics, in file order; an expression may use the metrics above it."""
    out: Dict[str, Metric] = {}
    for name, m in tables.items():
        where = f"metrics.{name}"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            errs.append((where, "a metric name must be an identifier (letters, digits, _)"))
            continue
        n0 = len(errs)
        if m.expr is not None:
            try:
                for ref in expr_names(m.expr):
                    if ref not in out:
                        raise ValueError(
                            f"unknown metric {ref!r} (an expression may use metrics defined above it: "
                            f"{', '.join(out) or 'none'})"
                        )
            except (SyntaxError, ValueError) as e:
                errs.append((f"{where}.expr", str(e)))
            extra = [
                k for k in ("table", "column", "agg", "where", "q", "weight") if getattr(m, k) is not None
            ]
            if extra:
                errs.append((where, f"expr cannot be combined with {', '.join(extra)}"))
            if len(errs) == n0:
                out[name] = Metric(name, expr=m.expr, scale=m.scale, unit=m.unit, label=m.label)
            continue
        table = m.table or "flows"
        if not m.column:
            reason = f"required: a column of the {table} table, found {found(m.column)}"
            errs.append((f"{where}.column", reason))
            continue
        agg = m.agg or ("first" if table == "meta" else "sum")
        _check_reduction(where, m, agg, errs)
        if len(errs) > n0:
            continue
        out[name] = Metric(
            name,
            table=table,
            column=m.column,
            agg=agg,
            where=dict(m.where or {}),
            scale=m.scale,
            unit=m.unit,
            label=m.label,
            q=math.nan if m.q is None else float(m.q),
            weight=m.weight or "",
        )
    return out


def _plots(
    tables: List[schema.PlotTable],
    axes: List[str],
    metrics: Mapping[str, Metric],
    errs: List[Tuple[str, str]],
) -> List[Plot]:
    """The plots: ``x`` an axis or a metric, ``y`` a metric, ``series``
    another axis."""
    out: List[Plot] = []
    for i, p in enumerate(tables):
        where = f"plots[{i}]"
        n0 = len(errs)
        if p.x not in axes and p.x not in metrics:
            errs.append(
                (
                    f"{where}.x",
                    f"expected a swept key path ({', '.join(axes) or 'none swept'}) or a metric name, "
                    f"found {found(p.x)}",
                )
            )
        if p.y not in metrics:
            errs.append(
                (
                    f"{where}.y",
                    f"expected a metric name ({', '.join(metrics) or 'none defined'}), found {found(p.y)}",
                )
            )
        if p.series is not None and (p.series not in axes or p.series == p.x):
            errs.append(
                (
                    f"{where}.series",
                    f"expected another swept key path than x ({', '.join(a for a in axes if a != p.x)}), "
                    f"found {found(p.series)}",
                )
            )
        if len(errs) == n0:
            out.append(Plot(**p.model_dump()))
    return out


__all__ = ["TOP_KEYS", "from_dict", "load_experiment"]

"""Reading an experiment file and validating it: every problem is collected
with its key path and raised as one :class:`ExperimentError`."""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .errors import ExperimentError, found
from .keypaths import parse_key_path, set_key_path
from .metrics import AGGREGATIONS, METRIC_KEYS, TABLE_NAMES, Metric, expr_names
from .model import Experiment
from .plot import PLOT_KEYS, Plot

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python < 3.11
    import tomli as tomllib

TOP_KEYS = ("name", "description", "scenario", "replications", "sweep", "metrics", "plots")
"""The top-level keys of an experiment file."""
REPLICATION_KEYS = ("count", "base_seed")
"""The keys of ``[replications]``."""
SWEEP_KEYS = ("grid", "zip")
"""The keys of ``[sweep]``."""


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
    problem is collected and raised as one :class:`ExperimentError`."""
    errs: List[Tuple[str, str]] = []

    def unknown(table: Mapping[str, Any], allowed: Sequence[str], prefix: str) -> None:
        for k in table:
            if k not in allowed:
                errs.append((f"{prefix}{k}", f"unknown key; allowed keys are {', '.join(allowed)}"))

    if not isinstance(doc, Mapping):
        raise ExperimentError.from_errors([("", f"expected a table, found {type(doc).__name__}")])
    unknown(doc, TOP_KEYS, "")

    name = doc.get("name", Path(source).stem if source else "experiment")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        errs.append(("name", f"expected a name of letters, digits, _ . -, found {found(name)}"))
        name = "experiment"
    description = doc.get("description", "")
    if not isinstance(description, str):
        errs.append(("description", f"expected a string, found {found(description)}"))
        description = ""

    scenario = _load_scenario(doc.get("scenario"), base_dir, errs)

    # replications
    repl = doc.get("replications", {})
    count, base_seed = 1, 1
    if not isinstance(repl, Mapping):
        errs.append(("replications", f"expected a table with count and base_seed, found {found(repl)}"))
    else:
        unknown(repl, REPLICATION_KEYS, "replications.")
        count = repl.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            errs.append(("replications.count", f"expected an integer >= 1, found {found(count)}"))
            count = 1
        base_seed = repl.get("base_seed", 1)
        if isinstance(base_seed, bool) or not isinstance(base_seed, int) or base_seed < 0:
            errs.append(("replications.base_seed", f"expected an integer >= 0, found {found(base_seed)}"))
            base_seed = 1

    # sweep
    grid: Dict[str, List[Any]] = {}
    zips: List[Dict[str, List[Any]]] = []
    sweep = doc.get("sweep", {})
    if not isinstance(sweep, Mapping):
        errs.append(("sweep", f"expected a table with grid and zip, found {found(sweep)}"))
        sweep = {}
    unknown(sweep, SWEEP_KEYS, "sweep.")
    g = sweep.get("grid", {})
    if not isinstance(g, Mapping):
        errs.append(("sweep.grid", f"expected a table of key path = [values], found {found(g)}"))
        g = {}
    for key, vals in g.items():
        if _check_axis(key, vals, f'sweep.grid."{key}"', scenario, errs):
            grid[key] = list(vals)
    z = sweep.get("zip", [])
    if isinstance(z, Mapping):
        z = [z]
    if not isinstance(z, list):
        errs.append(("sweep.zip", f"expected an array of tables ([[sweep.zip]]), found {found(z)}"))
        z = []
    for i, group in enumerate(z):
        if not isinstance(group, Mapping) or not group:
            errs.append(
                (f"sweep.zip[{i}]", f"expected a table of key path = [values], found {found(group)}")
            )
            continue
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
            zips.append({k: list(v) for k, v in ok.items()})
    seen: Dict[str, str] = {}
    for path, keys in [("sweep.grid", list(grid))] + [
        (f"sweep.zip[{i}]", list(zz)) for i, zz in enumerate(zips)
    ]:
        for k in keys:
            if k in seen:
                errs.append((f'{path}."{k}"', f"key path already swept in {seen[k]}; sweep each key once"))
            seen[k] = path

    metrics = _load_metrics(doc.get("metrics", {}), errs)
    plots = _load_plots(doc.get("plots", []), list(seen), metrics, errs)

    if errs:
        raise ExperimentError.from_errors(errs)
    return Experiment(
        name=name,
        scenario=scenario,
        grid=grid,
        zips=zips,
        replications=count,
        base_seed=base_seed,
        metrics=metrics,
        plots=plots,
        description=description,
        source=source,
    )


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
    if not isinstance(vals, list) or not vals:
        errs.append((where, f"expected a non-empty array of values, found {found(vals)}"))
        return False
    if scenario:
        try:
            set_key_path(copy.deepcopy(scenario), key, vals[0])
        except ValueError as e:
            errs.append((where, f"cannot set {key} in the base scenario: {e}"))
            return False
    return True


def _load_metrics(value: Any, errs: List[Tuple[str, str]]) -> Dict[str, Metric]:
    out: Dict[str, Metric] = {}
    if not isinstance(value, Mapping):
        errs.append(("metrics", f"expected a table of [metrics.NAME] tables, found {found(value)}"))
        return out
    for name, m in value.items():
        where = f"metrics.{name}"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            errs.append((where, "a metric name must be an identifier (letters, digits, _)"))
            continue
        if not isinstance(m, Mapping):
            errs.append((where, f"expected a table with table, column, agg (or expr), found {found(m)}"))
            continue
        n0 = len(errs)
        for k in m:
            if k not in METRIC_KEYS:
                errs.append((f"{where}.{k}", f"unknown key; allowed keys are {', '.join(METRIC_KEYS)}"))
        scale = m.get("scale", 1.0)
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            errs.append((f"{where}.scale", f"expected a number, found {found(scale)}"))
        for k in ("unit", "label"):
            if not isinstance(m.get(k, ""), str):
                errs.append((f"{where}.{k}", f"expected a string, found {found(m.get(k))}"))
        if "expr" in m:
            expr = m["expr"]
            try:
                if not isinstance(expr, str):
                    raise ValueError(f"expected a string, found {found(expr)}")
                for ref in expr_names(expr):
                    if ref not in out:
                        raise ValueError(
                            f"unknown metric {ref!r} (an expression may use metrics defined above it: "
                            f"{', '.join(out) or 'none'})"
                        )
            except (SyntaxError, ValueError) as e:
                errs.append((f"{where}.expr", str(e)))
            extra = [k for k in ("table", "column", "agg", "where") if k in m]
            if extra:
                errs.append((where, f"expr cannot be combined with {', '.join(extra)}"))
            if len(errs) == n0:
                out[name] = Metric(
                    name, expr=expr, scale=float(scale), unit=m.get("unit", ""), label=m.get("label", "")
                )
            continue
        table = m.get("table", "flows")
        if table not in TABLE_NAMES:
            errs.append(
                (f"{where}.table", f"expected one of {', '.join(TABLE_NAMES)}, found {found(table)}")
            )
        column = m.get("column")
        if not isinstance(column, str) or not column:
            errs.append(
                (f"{where}.column", f"required: a column of the {table} table, found {found(column)}")
            )
        agg = m.get("agg", "sum" if table != "meta" else "first")
        if agg not in AGGREGATIONS:
            errs.append((f"{where}.agg", f"expected one of {', '.join(AGGREGATIONS)}, found {found(agg)}"))
        where_tbl = m.get("where", {})
        if not isinstance(where_tbl, Mapping):
            errs.append((f"{where}.where", f"expected a table column = value, found {found(where_tbl)}"))
        if len(errs) == n0:
            out[name] = Metric(
                name,
                table=table,
                column=str(column),
                agg=agg,
                where=dict(where_tbl),
                scale=float(scale),
                unit=m.get("unit", ""),
                label=m.get("label", ""),
            )
    return out


def _load_plots(
    value: Any, axes: List[str], metrics: Mapping[str, Metric], errs: List[Tuple[str, str]]
) -> List[Plot]:
    out: List[Plot] = []
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list):
        errs.append(("plots", f"expected an array of tables ([[plots]]), found {found(value)}"))
        return out
    for i, p in enumerate(value):
        where = f"plots[{i}]"
        if not isinstance(p, Mapping):
            errs.append((where, f"expected a table with x, y, series, found {found(p)}"))
            continue
        n0 = len(errs)
        for k in p:
            if k not in PLOT_KEYS:
                errs.append((f"{where}.{k}", f"unknown key; allowed keys are {', '.join(PLOT_KEYS)}"))
        x = p.get("x")
        if x not in axes and x not in metrics:
            errs.append(
                (
                    f"{where}.x",
                    f"expected a swept key path ({', '.join(axes) or 'none swept'}) or a metric name, "
                    f"found {found(x)}",
                )
            )
        y = p.get("y")
        if y not in metrics:
            errs.append(
                (
                    f"{where}.y",
                    f"expected a metric name ({', '.join(metrics) or 'none defined'}), found {found(y)}",
                )
            )
        series = p.get("series")
        if series is not None and (series not in axes or series == x):
            errs.append(
                (
                    f"{where}.series",
                    f"expected another swept key path than x ({', '.join(a for a in axes if a != x)}), "
                    f"found {found(series)}",
                )
            )
        for k in ("logx", "logy"):
            if not isinstance(p.get(k, False), bool):
                errs.append((f"{where}.{k}", f"expected true or false, found {found(p.get(k))}"))
        for k in ("title", "xlabel", "ylabel", "name"):
            if not isinstance(p.get(k, ""), str):
                errs.append((f"{where}.{k}", f"expected a string, found {found(p.get(k))}"))
        if len(errs) == n0:
            out.append(
                Plot(
                    x=str(x),
                    y=str(y),
                    series=series,
                    logx=p.get("logx", False),
                    logy=p.get("logy", False),
                    title=p.get("title", ""),
                    xlabel=p.get("xlabel", ""),
                    ylabel=p.get("ylabel", ""),
                    name=p.get("name", ""),
                )
            )
    return out


__all__ = ["REPLICATION_KEYS", "SWEEP_KEYS", "TOP_KEYS", "from_dict", "load_experiment"]

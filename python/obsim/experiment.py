"""Experiments as files: a base scenario, sweep axes, replications, metrics
and plots (see README, "Experiments").

>>> exp = load_experiment("experiments/loss_sweep.toml")
>>> [run.seed for run in exp.runs()][:2]

An experiment file is TOML::

    name = "loss_sweep"
    scenario = "../scenarios/single_flow.toml"    # a path (relative to this file) or a [scenario] table

    [replications]
    count = 5
    base_seed = 1

    [sweep.grid]                                  # every combination
    "links[1].loss.p" = [0.001, 0.01]
    "tcp.variant" = ["reno", "sack"]

    [[sweep.zip]]                                 # these keys move together
    "tcp.max_window" = [32, 64]
    "tcp.rwnd" = [32, 64]

    [metrics.goodput]
    table = "flows"
    column = "goodput_bps"
    agg = "sum"
    scale = 1e-6
    unit = "Mbit/s"

    [[plots]]
    x = "links[1].loss.p"
    y = "goodput"
    series = "tcp.variant"

Every problem is reported as an :class:`ExperimentError` (a
:class:`obsim.ConfigError`) with ``.path`` (the key path in the experiment
file, e.g. ``sweep.grid."links[9].rate"``) and ``.reason``.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import itertools
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from ._core import ConfigError
from .results import TABLES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python < 3.11
    import tomli as tomllib

EXPERIMENT_SCHEMA = 1
"""Version of the experiment description stored in a result directory."""

TABLE_NAMES = (*TABLES, "meta")
"""Where a metric can read a column from (``meta``: the run facts)."""

AGGREGATIONS = ("sum", "mean", "min", "max", "median", "std", "count", "first", "last")
"""How a metric reduces a column to one number per run."""

_TOP_KEYS = ("name", "description", "scenario", "replications", "sweep", "metrics", "plots")
_REPL_KEYS = ("count", "base_seed")
_SWEEP_KEYS = ("grid", "zip")
_METRIC_KEYS = ("table", "column", "agg", "where", "scale", "unit", "label", "expr")
_PLOT_KEYS = ("x", "y", "series", "logx", "logy", "title", "xlabel", "ylabel", "name")


class ExperimentError(ConfigError):
    """The experiment is invalid. ``.path`` is the key path in the experiment
    file, ``.reason`` says what is allowed and what was found; ``.errors``
    lists every problem as ``(path, reason)``."""

    @classmethod
    def from_errors(cls, errors: Sequence[Tuple[str, str]]) -> "ExperimentError":
        """The error for every problem in ``errors`` (at least one), as
        ``(key path, reason)``: the message lists them one per line, the
        first is ``.path``/``.reason``."""
        lines = "\n".join(f"  {p}: {r}" if p else f"  {r}" for p, r in errors)
        n = len(errors)
        e = cls(f"invalid experiment ({n} problem{'s' if n != 1 else ''}):\n{lines}")
        e.errors = list(errors)
        e.path, e.reason = errors[0]
        return e


def _error(errors: List[Tuple[str, str]]) -> ExperimentError:
    return ExperimentError.from_errors(errors)


def _found(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


# --------------------------------------------------------------------------
# Key paths into a scenario: ``links[1].loss.p``, ``tcp.variant``
# --------------------------------------------------------------------------

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)")


def parse_key_path(path: str) -> List[Union[str, int]]:
    """Split ``links[1].loss.p`` into ``["links", 1, "loss", "p"]``.

    Raises:
        ValueError: the path is not of that form.
    """
    parts: List[Union[str, int]] = []
    if not path:
        raise ValueError("an empty key path")
    for seg in path.split("."):
        m = _SEGMENT.fullmatch(seg)
        if not m:
            raise ValueError(
                f"expected a key path like links[1].loss.p (names, [index], dots), found {path!r}"
            )
        parts.append(m.group(1))
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return parts


def set_key_path(doc: Dict[str, Any], path: str, value: Any) -> None:
    """Set ``path`` in a scenario dict, creating missing tables (not list
    entries). Raises ``ValueError`` with a reason naming the failing part."""
    parts = parse_key_path(path)
    node: Any = doc
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        where = _render(parts[:i]) or "the scenario"
        if isinstance(part, int):
            if not isinstance(node, list):
                raise ValueError(f"{where} is not an array, cannot index it with [{part}]")
            if part >= len(node):
                raise ValueError(f"{where} has {len(node)} entries, no index {part}")
            if last:
                node[part] = value
            else:
                node = node[part]
            continue
        if not isinstance(node, dict):
            raise ValueError(f"{where} is not a table, cannot set key {part!r} in it")
        if last:
            node[part] = value
            return
        nxt = parts[i + 1]
        if part not in node:
            if isinstance(nxt, int):
                raise ValueError(f"{_render(parts[: i + 1])} is not in the base scenario, cannot index it")
            node[part] = {}
        node = node[part]


def _render(parts: Sequence[Union[str, int]]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


# --------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------


def replication_seed(base_seed: int, replication: int) -> int:
    """The seed of replication ``replication``: the first 8 bytes (big
    endian) of sha256 of ``"obsim-seed:{base_seed}:{replication}"``.

    Stable across Python versions, machines and executors (never Python's
    ``hash()``). Every point of a sweep uses the same seeds (common random
    numbers), so differences between points are not seed noise.
    """
    digest = hashlib.sha256(f"obsim-seed:{int(base_seed)}:{int(replication)}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# --------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    """One number per run: ``agg`` over ``table.column`` (rows filtered by
    ``where``), times ``scale``; or ``expr``, arithmetic over other metrics."""

    name: str
    table: str = "flows"
    column: str = ""
    agg: str = "sum"
    where: Mapping[str, Any] = field(default_factory=dict)
    scale: float = 1.0
    unit: str = ""
    label: str = ""
    expr: str = ""

    @property
    def title(self) -> str:
        """Label with unit, for axes and table headers."""
        label = self.label or self.name
        return f"{label} ({self.unit})" if self.unit else label

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"name": self.name, "scale": self.scale, "unit": self.unit, "label": self.label}
        if self.expr:
            d["expr"] = self.expr
        else:
            d.update(table=self.table, column=self.column, agg=self.agg, where=dict(self.where))
        return d


_EXPR_NODES = (
    ast.Expression,
    ast.BinOp,
    ast.UnaryOp,
    ast.Name,
    ast.Load,
    ast.Constant,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.Pow,
    ast.USub,
    ast.UAdd,
)


def _expr_names(expr: str) -> List[str]:
    tree = ast.parse(expr, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _EXPR_NODES):
            raise ValueError(
                "expected arithmetic (+ - * / **, numbers, metric names), "
                f"found {type(node).__name__} in {expr!r}"
            )
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise ValueError(f"expected numbers and metric names, found {node.value!r} in {expr!r}")
    return [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]


def eval_expr(expr: str, values: Mapping[str, float]) -> float:
    """Evaluate an arithmetic ``expr`` over metric ``values`` (no Python
    ``eval``: only numbers, names and + - * / **)."""

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return float(node.value)  # type: ignore[arg-type]  # numbers only (_expr_names)
        if isinstance(node, ast.Name):
            return float(values[node.id])
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            op = node.op
            if isinstance(op, ast.Add):
                return a + b
            if isinstance(op, ast.Sub):
                return a - b
            if isinstance(op, ast.Mult):
                return a * b
            if isinstance(op, ast.Div):
                return a / b if b != 0 else float("nan")
            return float(a**b)
        raise ValueError(f"unsupported expression {ast.dump(node)}")  # pragma: no cover

    _expr_names(expr)
    return ev(ast.parse(expr, mode="eval"))


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
        return self.name or re.sub(r"[^A-Za-z0-9_-]+", "_", f"{self.y}_vs_{self.x}").strip("_")

    def to_dict(self) -> Dict[str, Any]:
        return {k: getattr(self, k) for k in _PLOT_KEYS}


# --------------------------------------------------------------------------
# The experiment
# --------------------------------------------------------------------------


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
    """A validated experiment (see the module docstring for the file format)."""

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
        ``experiment.json`` of a result directory; :func:`from_dict` reads it."""
        return {
            "experiment_schema": EXPERIMENT_SCHEMA,
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "scenario": self.scenario,
            "replications": {"count": self.replications, "base_seed": self.base_seed},
            "sweep": {"grid": self.grid, "zip": self.zips},
            "metrics": {
                k: {kk: vv for kk, vv in m.to_dict().items() if kk != "name"} for k, m in self.metrics.items()
            },
            "plots": [
                {k: v for k, v in p.to_dict().items() if v not in (None, "", False)} for p in self.plots
            ],
        }

    def validate_points(self) -> List[Tuple[Point, Dict[str, Any]]]:
        """Run ``obsim.parse`` on every point (each distinct value once) and
        return ``(point, resolved scenario)``; raise one
        :class:`ExperimentError` listing every bad axis value with its path."""
        from .api import parse

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
                    where = self._axis_path(axis) if axis else "scenario"
                    detail = f"{spath}: {reason}" if spath else reason
                    if axis:
                        detail = (
                            f"value {_found(p.values[axis])} is rejected by the scenario parser: {detail}"
                        )
                    else:
                        detail = f"point {p.index} ({_describe(p.values)}): {detail}"
                    if (where, detail) not in seen_bad:
                        seen_bad.add((where, detail))
                        errors.append((where, detail))
        if errors:
            raise _error(errors)
        return out

    def _axis_path(self, axis: str) -> str:
        if axis in self.grid:
            return f'sweep.grid."{axis}"'
        for i, z in enumerate(self.zips):
            if axis in z:
                return f'sweep.zip[{i}]."{axis}"'
        return axis  # pragma: no cover


def _describe(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_found(v)}" for k, v in values.items()) or "base scenario"


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


# --------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------


def load_experiment(path: Union[str, "Path"]) -> Experiment:
    """Read and validate an experiment TOML file (scenario not yet run
    through the core: see :meth:`Experiment.validate_points`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise _error([("", f"cannot read experiment file {p}: {e.strerror or e}")]) from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _error([("", f"TOML syntax error in {p}: {e}")]) from None
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
        raise _error([("", f"expected a table, found {type(doc).__name__}")])
    unknown(doc, _TOP_KEYS, "")

    name = doc.get("name", Path(source).stem if source else "experiment")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        errs.append(("name", f"expected a name of letters, digits, _ . -, found {_found(name)}"))
        name = "experiment"
    description = doc.get("description", "")
    if not isinstance(description, str):
        errs.append(("description", f"expected a string, found {_found(description)}"))
        description = ""

    scenario = _load_scenario(doc.get("scenario"), base_dir, errs)

    # replications
    repl = doc.get("replications", {})
    count, base_seed = 1, 1
    if not isinstance(repl, Mapping):
        errs.append(("replications", f"expected a table with count and base_seed, found {_found(repl)}"))
    else:
        unknown(repl, _REPL_KEYS, "replications.")
        count = repl.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            errs.append(("replications.count", f"expected an integer >= 1, found {_found(count)}"))
            count = 1
        base_seed = repl.get("base_seed", 1)
        if isinstance(base_seed, bool) or not isinstance(base_seed, int) or base_seed < 0:
            errs.append(("replications.base_seed", f"expected an integer >= 0, found {_found(base_seed)}"))
            base_seed = 1

    # sweep
    grid: Dict[str, List[Any]] = {}
    zips: List[Dict[str, List[Any]]] = []
    sweep = doc.get("sweep", {})
    if not isinstance(sweep, Mapping):
        errs.append(("sweep", f"expected a table with grid and zip, found {_found(sweep)}"))
        sweep = {}
    unknown(sweep, _SWEEP_KEYS, "sweep.")
    g = sweep.get("grid", {})
    if not isinstance(g, Mapping):
        errs.append(("sweep.grid", f"expected a table of key path = [values], found {_found(g)}"))
        g = {}
    for key, vals in g.items():
        if _check_axis(key, vals, f'sweep.grid."{key}"', scenario, errs):
            grid[key] = list(vals)
    z = sweep.get("zip", [])
    if isinstance(z, Mapping):
        z = [z]
    if not isinstance(z, list):
        errs.append(("sweep.zip", f"expected an array of tables ([[sweep.zip]]), found {_found(z)}"))
        z = []
    for i, group in enumerate(z):
        if not isinstance(group, Mapping) or not group:
            errs.append(
                (f"sweep.zip[{i}]", f"expected a table of key path = [values], found {_found(group)}")
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
        raise _error(errs)
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
    errs.append(("scenario", f"expected a file path or a table, found {_found(value)}"))
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
        errs.append((where, f"expected a non-empty array of values, found {_found(vals)}"))
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
        errs.append(("metrics", f"expected a table of [metrics.NAME] tables, found {_found(value)}"))
        return out
    for name, m in value.items():
        where = f"metrics.{name}"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            errs.append((where, "a metric name must be an identifier (letters, digits, _)"))
            continue
        if not isinstance(m, Mapping):
            errs.append((where, f"expected a table with table, column, agg (or expr), found {_found(m)}"))
            continue
        n0 = len(errs)
        for k in m:
            if k not in _METRIC_KEYS:
                errs.append((f"{where}.{k}", f"unknown key; allowed keys are {', '.join(_METRIC_KEYS)}"))
        scale = m.get("scale", 1.0)
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            errs.append((f"{where}.scale", f"expected a number, found {_found(scale)}"))
        for k in ("unit", "label"):
            if not isinstance(m.get(k, ""), str):
                errs.append((f"{where}.{k}", f"expected a string, found {_found(m.get(k))}"))
        if "expr" in m:
            expr = m["expr"]
            try:
                if not isinstance(expr, str):
                    raise ValueError(f"expected a string, found {_found(expr)}")
                for ref in _expr_names(expr):
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
                (f"{where}.table", f"expected one of {', '.join(TABLE_NAMES)}, found {_found(table)}")
            )
        column = m.get("column")
        if not isinstance(column, str) or not column:
            errs.append(
                (f"{where}.column", f"required: a column of the {table} table, found {_found(column)}")
            )
        agg = m.get("agg", "sum" if table != "meta" else "first")
        if agg not in AGGREGATIONS:
            errs.append((f"{where}.agg", f"expected one of {', '.join(AGGREGATIONS)}, found {_found(agg)}"))
        where_tbl = m.get("where", {})
        if not isinstance(where_tbl, Mapping):
            errs.append((f"{where}.where", f"expected a table column = value, found {_found(where_tbl)}"))
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
        errs.append(("plots", f"expected an array of tables ([[plots]]), found {_found(value)}"))
        return out
    for i, p in enumerate(value):
        where = f"plots[{i}]"
        if not isinstance(p, Mapping):
            errs.append((where, f"expected a table with x, y, series, found {_found(p)}"))
            continue
        n0 = len(errs)
        for k in p:
            if k not in _PLOT_KEYS:
                errs.append((f"{where}.{k}", f"unknown key; allowed keys are {', '.join(_PLOT_KEYS)}"))
        x = p.get("x")
        if x not in axes and x not in metrics:
            errs.append(
                (
                    f"{where}.x",
                    f"expected a swept key path ({', '.join(axes) or 'none swept'}) or a metric name, found {_found(x)}",
                )
            )
        y = p.get("y")
        if y not in metrics:
            errs.append(
                (
                    f"{where}.y",
                    f"expected a metric name ({', '.join(metrics) or 'none defined'}), found {_found(y)}",
                )
            )
        series = p.get("series")
        if series is not None and (series not in axes or series == x):
            errs.append(
                (
                    f"{where}.series",
                    f"expected another swept key path than x ({', '.join(a for a in axes if a != x)}), "
                    f"found {_found(series)}",
                )
            )
        for k in ("logx", "logy"):
            if not isinstance(p.get(k, False), bool):
                errs.append((f"{where}.{k}", f"expected true or false, found {_found(p.get(k))}"))
        for k in ("title", "xlabel", "ylabel", "name"):
            if not isinstance(p.get(k, ""), str):
                errs.append((f"{where}.{k}", f"expected a string, found {_found(p.get(k))}"))
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


def experiment_from_stored(doc: Mapping[str, Any]) -> Experiment:
    """Rebuild an :class:`Experiment` from ``experiment.json``."""
    d = {k: v for k, v in doc.items() if k in _TOP_KEYS}
    return from_dict(d, source=doc.get("source"))


__all__ = [
    "AGGREGATIONS",
    "Experiment",
    "ExperimentError",
    "Metric",
    "Plot",
    "Point",
    "RunSpec",
    "TABLE_NAMES",
    "eval_expr",
    "experiment_from_stored",
    "from_dict",
    "load_experiment",
    "parse_key_path",
    "replication_seed",
    "set_key_path",
]

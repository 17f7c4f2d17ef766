"""Metrics: one number per run, read from a result table or computed from
other metrics by an arithmetic expression."""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field, fields
from typing import Any, Dict, List, Mapping

from ..results import TABLES

TABLE_NAMES = (*TABLES, "meta")
"""Where a metric can read a column from (``meta``: the run facts)."""

AGGREGATIONS = (
    "sum",
    "mean",
    "min",
    "max",
    "median",
    "std",
    "count",
    "first",
    "last",
    "quantile",
    "top_share",
)
"""How a metric reduces a column to one number per run. ``quantile``: the
``q`` quantile (the smallest value whose cumulative share reaches ``q``,
numpy's ``inverted_cdf``, so a quantile of integers is an integer);
``top_share``: the share of the rows (of the total ``weight``) at the
column's largest value. With a ``weight`` column (a histogram's counts),
``sum``, ``mean``, ``count``, ``quantile`` and ``top_share`` weigh each row by
it and ``min``/``max`` skip rows of weight 0."""

WEIGHTED = ("sum", "mean", "count", "min", "max", "quantile", "top_share")
"""The aggregations that accept a ``weight`` column."""

RANGE_KEYS = ("min", "max")
"""The keys of a range in ``where``: ``{ min = a, max = b }`` keeps rows with
``a <= value < b`` (either bound may be left out)."""


@dataclass(frozen=True)
class Metric:
    """One number per run: ``agg`` over ``table.column`` (rows filtered by
    ``where``, weighted by ``weight``), times ``scale``; or ``expr``,
    arithmetic over other metrics. A ``where`` value is an equality, or a
    range ``{min, max}`` (:data:`RANGE_KEYS`)."""

    name: str
    table: str = "flows"
    column: str = ""
    agg: str = "sum"
    where: Mapping[str, Any] = field(default_factory=dict)
    scale: float = 1.0
    unit: str = ""
    label: str = ""
    expr: str = ""
    q: float = math.nan
    """``agg = "quantile"``: the quantile in [0, 1]."""
    weight: str = ""
    """A column whose values weigh the rows (e.g. a histogram's ``count``)."""

    @property
    def title(self) -> str:
        """Label with unit, for axes and table headers."""
        label = self.label or self.name
        return f"{label} ({self.unit})" if self.unit else label

    def to_dict(self) -> Dict[str, Any]:
        """The metric as stored: ``expr`` or ``table``/``column``/``agg``/``where``."""
        d: Dict[str, Any] = {"name": self.name, "scale": self.scale, "unit": self.unit, "label": self.label}
        if self.expr:
            d["expr"] = self.expr
        else:
            d.update(table=self.table, column=self.column, agg=self.agg, where=dict(self.where))
            if not math.isnan(self.q):
                d["q"] = self.q
            if self.weight:
                d["weight"] = self.weight
        return d


METRIC_KEYS = tuple(f.name for f in fields(Metric) if f.name != "name")
"""The keys of a ``[metrics.NAME]`` table (the fields of :class:`Metric`)."""

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


def expr_names(expr: str) -> List[str]:
    """The metric names an arithmetic expression uses.

    Raises:
        SyntaxError: ``expr`` is not a Python expression.
        ValueError: it is not arithmetic over numbers and names.
    """
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


def _pow(a: float, b: float) -> float:
    """``a ** b`` with IEEE 754 results instead of Python's exceptions: an
    overflow is ±inf (as ``*`` gives), an undefined power (a negative base
    to a fractional exponent, ``0 ** -1``) is NaN, as division by zero is."""
    try:
        r = a**b
    except OverflowError:
        odd = b == int(b) and int(b) % 2 == 1 if math.isfinite(b) else False
        return -math.inf if a < 0 and odd else math.inf
    except ZeroDivisionError:
        return math.nan
    return r if isinstance(r, float) else math.nan  # complex: undefined over the reals


def eval_expr(expr: str, values: Mapping[str, float]) -> float:
    """Evaluate an arithmetic ``expr`` over metric ``values`` (no Python
    ``eval``: only numbers, names and + - * / **). Arithmetic follows IEEE
    754 and never raises: a result too large is ±inf, an undefined one
    (``x / 0``, ``(-1) ** 0.5``) is NaN."""

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            try:
                return float(node.value)  # type: ignore[arg-type]  # numbers only (expr_names)
            except OverflowError:  # an integer literal beyond the float range
                return math.inf
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
            return _pow(a, b)
        raise ValueError(f"unsupported expression {ast.dump(node)}")  # pragma: no cover

    expr_names(expr)
    return ev(ast.parse(expr, mode="eval"))


def row_mask(column: Any, cond: Any) -> Any:
    """The rows of a pandas ``column`` that a ``where`` condition keeps: a
    range ``{min, max}`` (``min <= v < max``), a list (any of its values)
    or an equality."""
    if isinstance(cond, (list, tuple)):
        return column.isin(list(cond))
    if isinstance(cond, Mapping):
        keep = column == column  # every non-NaN row
        if "min" in cond:
            keep &= column >= cond["min"]
        if "max" in cond:
            keep &= column < cond["max"]
        return keep
    return column == cond


def reduce_values(values: Any, agg: str, q: float = math.nan, weights: Any = None) -> float:
    """Reduce a float array to one number by ``agg`` (:data:`AGGREGATIONS`),
    weighing by ``weights`` (an array of the same length) when given. NaN
    values are dropped; an empty column gives NaN (``count``: 0)."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    keep = ~np.isnan(x) & ~np.isnan(w) & (w > 0)
    x, w = x[keep], w[keep]
    if agg == "count":
        return float(w.sum()) if weights is not None else float(len(x))
    if len(x) == 0:
        return math.nan
    if agg == "first":
        return float(x[0])
    if agg == "last":
        return float(x[-1])
    if agg == "std":
        return float(np.std(x, ddof=1)) if len(x) > 1 else math.nan
    if agg == "sum":
        return float((x * w).sum())
    if agg == "mean":
        return float((x * w).sum() / w.sum())
    if agg == "min":
        return float(x.min())
    if agg == "max":
        return float(x.max())
    if agg == "median" and weights is None:
        return float(np.median(x))
    if agg in ("quantile", "median"):
        qq = 0.5 if agg == "median" else q
        order = np.argsort(x, kind="stable")
        cum = np.cumsum(w[order])
        i = int(np.searchsorted(cum, qq * cum[-1], side="left"))
        return float(x[order][min(i, len(x) - 1)])
    if agg == "top_share":
        top = x.max()
        return float(w[x == top].sum() / w.sum())
    raise ValueError(f"unknown aggregation {agg!r}")  # pragma: no cover (validated at load)


__all__ = [
    "AGGREGATIONS",
    "METRIC_KEYS",
    "RANGE_KEYS",
    "TABLE_NAMES",
    "WEIGHTED",
    "Metric",
    "reduce_values",
    "eval_expr",
    "expr_names",
    "row_mask",
]

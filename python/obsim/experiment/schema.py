"""The structure of an experiment file, declared once with pydantic: which
tables and keys exist, their types, ranges and defaults. :func:`check`
validates a document against it and reports every problem with its key path
in the house form ``(path, reason)``: the reason is ``expected WHAT, found
VALUE``, where WHAT is the ``description`` of the key's declaration.

The rules that relate keys to each other or to the base scenario (an axis
must be settable in the scenario, an expression may use only the metrics
above it, a plot names swept axes and metrics) are checked afterwards by
:mod:`obsim.experiment.load`.
"""

from __future__ import annotations

import re
from typing import (
    Annotated,
    Any,
    Dict,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    get_args,
    get_origin,
)

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo

from .errors import found
from .metrics import AGGREGATIONS, TABLE_NAMES


class _Table(BaseModel):
    """A TOML table: no keys but the declared ones, no type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


AxisValues = Annotated[List[Any], Field(min_length=1, description="a non-empty array of values")]
"""The values of one swept key path."""

AxisTable = Annotated[Dict[str, AxisValues], Field(description="a table of key path = [values]")]
"""Key paths and their values."""


class ReplicationsTable(_Table):
    """``[replications]``: how often each point runs, and the seeds."""

    count: int = Field(1, ge=1, description="an integer >= 1")
    base_seed: int = Field(1, ge=0, description="an integer >= 0")


class SweepTable(_Table):
    """``[sweep]``: every combination of the ``grid`` axes, times each
    ``[[sweep.zip]]`` group of axes that move together."""

    grid: AxisTable = Field(default_factory=dict, description="a table of key path = [values]")
    zip: List[Annotated[AxisTable, Field(min_length=1)]] = Field(
        default_factory=list, description="an array of tables ([[sweep.zip]])"
    )

    @field_validator("zip", mode="before")
    @classmethod
    def _one_group(cls, value: Any) -> Any:
        """``[sweep.zip]`` (one table) is one group."""
        return [value] if isinstance(value, Mapping) else value


class MetricTable(_Table):
    """``[metrics.NAME]``: ``agg`` over ``table.column`` (rows filtered by
    ``where``), times ``scale``; or ``expr`` over the metrics above."""

    # The names come from the results (TABLE_NAMES), hence a computed Literal.
    table: Optional[Literal[TABLE_NAMES]] = Field(  # type: ignore[valid-type]
        None, description=f"one of {', '.join(TABLE_NAMES)}"
    )
    column: Optional[str] = Field(None, description="a column name")
    agg: Optional[Literal[AGGREGATIONS]] = Field(  # type: ignore[valid-type]
        None, description=f"one of {', '.join(AGGREGATIONS)}"
    )
    where: Optional[Dict[str, Any]] = Field(
        None, description="a table column = value, [values], or { min = a, max = b }"
    )
    q: Optional[float] = Field(None, description="a quantile in [0, 1] (with agg = \"quantile\")")
    weight: Optional[str] = Field(None, description="a column name (the rows' weights)")
    scale: float = Field(1.0, description="a number")
    unit: str = Field("", description="a string")
    label: str = Field("", description="a string")
    expr: Optional[str] = Field(None, description="a string")


class PlotTable(_Table):
    """``[[plots]]``: metric ``y`` against axis or metric ``x``, one line per
    value of axis ``series``."""

    x: Optional[str] = Field(None, description="a swept key path or a metric name")
    y: Optional[str] = Field(None, description="a metric name")
    series: Optional[str] = Field(None, description="a swept key path")
    logx: bool = Field(False, description="true or false")
    logy: bool = Field(False, description="true or false")
    title: str = Field("", description="a string")
    xlabel: str = Field("", description="a string")
    ylabel: str = Field("", description="a string")
    name: str = Field("", description="a string")


_METRIC = "a table with table, column, agg (or expr)"
_PLOT = "a table with x, y, series"


class ExperimentFile(_Table):
    """An experiment file (README, "Experiments")."""

    name: Optional[str] = Field(
        None, pattern=r"^[A-Za-z0-9_.-]+$", description="a name of letters, digits, _ . -"
    )
    description: str = Field("", description="a string")
    scenario: Any = Field(None, description="a file path or a table")
    replications: ReplicationsTable = Field(
        default_factory=lambda: ReplicationsTable.model_validate({}),
        description="a table with count and base_seed",
    )
    sweep: SweepTable = Field(
        default_factory=lambda: SweepTable.model_validate({}), description="a table with grid and zip"
    )
    metrics: Dict[str, Annotated[MetricTable, Field(description=_METRIC)]] = Field(
        default_factory=dict, description="a table of [metrics.NAME] tables"
    )
    plots: List[Annotated[PlotTable, Field(description=_PLOT)]] = Field(
        default_factory=list, description="an array of tables ([[plots]])"
    )

    @field_validator("plots", mode="before")
    @classmethod
    def _one_plot(cls, value: Any) -> Any:
        """``[plots]`` (one table) is one plot."""
        return [value] if isinstance(value, Mapping) else value


TOP_KEYS = tuple(ExperimentFile.model_fields)
"""The top-level keys of an experiment file."""


# --------------------------------------------------------------------------
# pydantic's errors in the house form
# --------------------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def key_path(loc: Sequence[Union[str, int]]) -> str:
    """A pydantic location as a key path of the file: ``plots[0].x``,
    ``sweep.grid."tcp.mss"`` (a swept key path, or any key that is not a
    plain name, is quoted)."""
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        axis = list(loc[:2]) == ["sweep", "grid"] and i == 2 or list(loc[:2]) == ["sweep", "zip"] and i == 3
        text = f'"{part}"' if axis or not _NAME.fullmatch(part) else part
        out += f".{text}" if out else text
    return out


def _unwrap(tp: Any) -> Tuple[Any, Optional[FieldInfo]]:
    """``tp`` without ``Annotated`` and ``Optional``, and the field
    declaration an ``Annotated`` carried."""
    info = None
    while True:
        if get_origin(tp) is Annotated:
            args = get_args(tp)
            info = next((m for m in args[1:] if isinstance(m, FieldInfo)), info)
            tp = args[0]
        elif get_origin(tp) is Union and type(None) in get_args(tp):
            rest = [a for a in get_args(tp) if a is not type(None)]
            if len(rest) != 1:
                return tp, info
            tp = rest[0]
        else:
            return tp, info


def _declaration(loc: Sequence[Union[str, int]]) -> Tuple[Optional[FieldInfo], Any]:
    """The declaration of the key at ``loc`` and its type (a model class for
    a table)."""
    tp: Any = ExperimentFile
    info: Optional[FieldInfo] = None
    for part in loc:
        tp, meta = _unwrap(tp)
        info = meta or info
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return None, None
            info, tp = field, field.annotation
        elif get_origin(tp) in (dict, list):
            tp = get_args(tp)[-1]
            info = None
        else:
            return info, None
    tp, meta = _unwrap(tp)
    return meta or info, tp


def _problem(err: Mapping[str, Any]) -> Tuple[str, str]:
    loc = [p for p in err["loc"] if p != "[key]"]
    path = key_path(loc)
    if err["type"] == "extra_forbidden":
        _, table = _declaration(loc[:-1])
        known = table.model_fields if isinstance(table, type) and issubclass(table, BaseModel) else {}
        allowed = ", ".join(known) or "none"
        return path, f"unknown key; allowed keys are {allowed}"
    info, _ = _declaration(loc)
    if info is None or not info.description:  # pragma: no cover - every key is described
        return path, f"{err['msg']}, found {found(err['input'])}"
    if err["type"] == "missing":
        return path, f"required: {info.description}"
    return path, f"expected {info.description}, found {found(err['input'])}"


def check(doc: Any) -> Tuple[Optional[ExperimentFile], List[Tuple[str, str]]]:
    """Validate ``doc`` (the TOML structure) against :class:`ExperimentFile`:
    the validated file, or ``None`` and every problem as ``(path, reason)``."""
    if not isinstance(doc, Mapping):
        return None, [("", f"expected a table, found {type(doc).__name__}")]
    try:
        return ExperimentFile.model_validate(dict(doc)), []
    except ValidationError as e:
        return None, [_problem(err) for err in e.errors()]


__all__ = [
    "AxisTable",
    "AxisValues",
    "ExperimentFile",
    "MetricTable",
    "PlotTable",
    "ReplicationsTable",
    "SweepTable",
    "TOP_KEYS",
    "check",
    "key_path",
]

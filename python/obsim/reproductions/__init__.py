"""The registry of reproductions of published results (``obsim reproduce``).

Each reproduction is one module in this package that defines
``REPRODUCTION = Reproduction(...)``: an experiment (a dict in the
experiment-file structure, full or ``quick``), the paper's numbers, and how to
compare. Adding one (e.g. gurel2008 G1) is adding one module; it is found by
its ``id``. An *analytic* reproduction (a paper's model against the paper's
own numbers, e.g. yu2004 Y3) has no experiment: ``run`` writes only the
comparison and its figures.

>>> from obsim import reproductions
>>> [r.id for r in reproductions.all()]
>>> reproductions.get("V1").run(out="out/V1", quick=True)
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure

    from ..experiment import Experiment
    from ..sweep import SweepSummary
    from .readings import Reading

COMPARISON_COLUMNS = (
    "case",
    "x",
    "quantity",
    "unit",
    "paper",
    "paper_ci",
    "measured",
    "measured_ci",
    "ratio",
    "tolerance",
    "agrees",
    "kind",
    "statistic",
    "threshold",
    "band_low",
    "band_high",
    "ci_low",
    "ci_high",
    "n",
    "precision",
    "paper_in_ci",
    "method",
)
"""Columns of a comparison table (``comparison.parquet``): one row per
compared number, a claim decided by :mod:`obsim.reproductions.claims`
(:meth:`~obsim.reproductions.claims.Verdict.row`). ``measured`` is the
claim's statistic, ``measured_ci`` its CI half width, ``ci_low``/``ci_high``
the interval decided on, ``n`` the seeds (pairs) it used; ``agrees`` is
whether the claim held; ``kind``/``statistic``/``threshold``/``band_low``/
``band_high`` are the claim as declared (an equivalence's region in the band
columns), ``precision`` the half width it needs (NaN: none), ``paper_in_ci``
whether the paper's value lies in the measured CI (None: no paper value or
no interval), ``method`` the estimator and interval. ``paper_ci`` (the
paper's own half width), ``ratio`` (measured / paper) and ``tolerance`` are
kept for rows built by the older :func:`paper_row`/:func:`claim_row`, which
leave the claim columns NaN/""."""

_CLAIM_DEFAULTS: Dict[str, Any] = {
    "kind": "",
    "statistic": "",
    "threshold": float("nan"),
    "band_low": float("nan"),
    "band_high": float("nan"),
    "precision": float("nan"),
    "paper_in_ci": None,
    "method": "",
}


def paper_row(
    case: str, x: float, quantity: str, unit: str, paper: float, measured: Any, tolerance: float
) -> Dict[str, Any]:
    """One comparison row of a paper number against a measured mean with its
    CI (``measured`` has ``.mean`` and ``.half_width``, as
    :func:`obsim.stats.mean_ci` returns): ``agrees`` when the measured mean
    has the paper's sign and ``|measured / paper - 1| <= tolerance``."""
    import math

    ratio = measured.mean / paper if paper else math.nan
    row = claim_row(
        case,
        x,
        quantity,
        bool(ratio > 0 and abs(ratio - 1.0) <= tolerance),
        measured.mean,
        measured.half_width,
        paper,
        unit,
    )
    row.update(ratio=ratio, tolerance=tolerance, n=int(getattr(measured, "n", 0)))
    return row


def claim_row(
    case: str,
    x: float,
    quantity: str,
    ok: bool,
    measured: float,
    ci: float = float("nan"),
    paper: float = float("nan"),
    unit: str = "",
) -> Dict[str, Any]:
    """One comparison row for a qualitative claim of a paper (a sign, an
    order, a ratio above one): ``agrees`` is the caller's test ``ok``,
    ``measured`` (with its CI half-width ``ci``) the number it tested, and
    ``paper`` the paper's value where it gives one."""
    import math

    half = float(ci)
    row = {
        "case": case,
        "x": x,
        "quantity": quantity,
        "unit": unit,
        "paper": paper,
        "paper_ci": math.nan,
        "measured": measured,
        "measured_ci": ci,
        "ratio": measured / paper if paper and not math.isnan(paper) else math.nan,
        "tolerance": math.nan,
        "agrees": bool(ok),
        **_CLAIM_DEFAULTS,
        "ci_low": measured - half if not math.isnan(half) else math.nan,
        "ci_high": measured + half if not math.isnan(half) else math.nan,
        "n": 0,
    }
    return {k: row[k] for k in COMPARISON_COLUMNS}


@dataclass(frozen=True)
class Reproduction:
    """One published result and how obsim reproduces it."""

    id: str
    """Short id, e.g. ``"V1"``, ``"G1"``."""
    title: str
    paper: str
    """The reference (authors, title, venue, year; figure/table)."""
    experiment: Optional[Callable[[bool], Dict[str, Any]]]
    """``experiment(quick)``: the experiment as a dict (file structure).
    ``None`` for an analytic reproduction, which runs no simulation."""
    compare: Callable[[Optional["pandas.DataFrame"], Optional["Experiment"]], "pandas.DataFrame"]
    """``compare(results, exp)``: the comparison table (COMPARISON_COLUMNS)
    from the per-run results (``results.parquet``). An analytic reproduction
    gets ``(None, None)``; its "measured" column is the model's value."""
    notes: str = ""
    """What is assumed, and why results may differ (shown in the report)."""
    comparison_plot: Dict[str, Any] = field(default_factory=dict)
    """Options of the paper-vs-measured figure: ``xlabel``, ``ylabel``,
    ``logx``, ``logy``. Rows whose ``x`` is NaN are not plotted."""
    figures: Optional[Callable[[], List[Tuple[str, "Figure", str]]]] = None
    """Figures of the reproduction's own, beyond the experiment's plots
    (e.g. a paper figure redrawn from its model): ``(file stem, figure,
    caption)`` each. ``run`` writes them as PNG and PDF under ``figures/``,
    lists them in ``reproduction.json``, and the report embeds them."""
    readings: Tuple["Reading", ...] = ()
    """Readings of the parameters the paper leaves unstated
    (:mod:`obsim.reproductions.readings`): per parameter, the registered
    one (what ``experiment`` builds, with the paper's quote) and the
    alternatives that ``run(readings=True)`` also runs."""

    def __post_init__(self) -> None:
        from .readings import check

        if self.readings and self.experiment is None:
            raise ValueError(f"reproduction {self.id}: an analytic reproduction has no readings")
        check(self.readings, f"reproduction {self.id} readings")

    @property
    def analytic(self) -> bool:
        """True when the reproduction runs no simulation (no experiment)."""
        return self.experiment is None

    def build(self, quick: bool = False) -> "Experiment":
        """The experiment (``ValueError`` for an analytic reproduction)."""
        from ..experiment import from_dict

        if self.experiment is None:
            raise ValueError(f"reproduction {self.id} is analytic: it has no experiment")
        return from_dict(self.experiment(quick), source=f"reproduction {self.id}")

    def run(
        self,
        out: Union[str, Path],
        *,
        quick: bool = False,
        jobs: Optional[int] = None,
        executor: str = "local",
        scheduler: Optional[str] = None,
        progress: bool = False,
        readings: bool = False,
    ) -> "SweepSummary":
        """Run the experiment into ``out``, then write ``comparison.parquet``,
        the reproduction's own figures and ``reproduction.json`` there (read
        by ``obsim report``). An analytic reproduction runs nothing: its
        summary counts zero runs. With ``readings``, also run every
        alternative reading of the unstated parameters into
        ``out/readings/`` and write ``sensitivity.parquet`` and the verdict
        (:func:`obsim.reproductions.readings.run_readings`); the returned
        summary is the registered experiment's."""
        from ..files import atomic_write_json, atomic_write_parquet
        from ..plots import save
        from ..store import frame_to_arrow
        from ..sweep import SweepSummary
        from . import readings as _readings

        def measure(
            exp_dict: Dict[str, Any], where: Path
        ) -> Tuple["SweepSummary", "pandas.DataFrame"]:
            return self._measure(
                exp_dict,
                where,
                jobs=jobs,
                executor=executor,
                scheduler=scheduler,
                progress=progress,
            )

        if self.experiment is None:
            summary = SweepSummary(out=Path(out), total=0, executor="analytic")
            summary.out.mkdir(parents=True, exist_ok=True)
            table = self.compare(None, None)
        else:
            summary, table = measure(self.experiment(quick), Path(out))
        root = Path(out)
        sensitivity: Dict[str, Any] = {
            "sensitivity": _readings.NOT_RUN if self.readings else _readings.NONE,
            "readings": _readings.describe(self.readings),
        }
        if readings and self.readings:
            sensitivity = _readings.run_readings(
                self, root, table, quick=quick, measure=lambda e, d: measure(e, d)[1]
            )
        atomic_write_parquet(root / "comparison.parquet", frame_to_arrow(table))
        figures = []
        for stem, fig, caption in self.figures() if self.figures is not None else []:
            png = save(fig, root / "figures" / stem)[0]
            figures.append({"file": str(png.relative_to(root)), "caption": caption})
        atomic_write_json(
            root / "reproduction.json",
            {
                "id": self.id,
                "title": self.title,
                "paper": self.paper,
                "notes": self.notes,
                "quick": quick and not self.analytic,  # nothing to shorten in a model
                "analytic": self.analytic,
                "agrees": int(table["agrees"].sum()),
                "compared": int(len(table)),
                "comparison_plot": self.comparison_plot,
                "figures": figures,
                **sensitivity,
            },
        )
        return summary

    def _measure(
        self,
        exp_dict: Dict[str, Any],
        out: Path,
        *,
        jobs: Optional[int],
        executor: str,
        scheduler: Optional[str],
        progress: bool,
    ) -> Tuple["SweepSummary", "pandas.DataFrame"]:
        """Run the experiment ``exp_dict`` into ``out`` and compare: the
        sweep's summary and the comparison table. The registered experiment
        and every reading go through here, so they are measured and decided
        alike."""
        from ..experiment import from_dict
        from ..store import Store
        from ..sweep import results_frame, run_experiment

        exp = from_dict(exp_dict, source=f"reproduction {self.id}")
        summary = run_experiment(
            exp, out, jobs=jobs, executor=executor, scheduler=scheduler, progress=progress
        )
        return summary, self.compare(results_frame(Store(out), exp), exp)


def _load() -> Dict[str, Reproduction]:
    found: Dict[str, Reproduction] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        rep = getattr(mod, "REPRODUCTION", None)
        if isinstance(rep, Reproduction):
            if rep.id in found:
                raise RuntimeError(f"reproduction id {rep.id!r} defined twice ({info.name})")
            found[rep.id] = rep
    return found


def all() -> List[Reproduction]:  # noqa: A001 - registry API
    """Every registered reproduction, by id."""
    return [r for _, r in sorted(_load().items())]


def get(rid: str) -> Reproduction:
    """The reproduction with id ``rid`` (case-insensitive)."""
    regs = _load()
    for k, r in regs.items():
        if k.lower() == rid.lower():
            return r
    raise KeyError(f"no reproduction {rid!r}; known: {', '.join(sorted(regs)) or 'none'}")


__all__ = ["COMPARISON_COLUMNS", "Reproduction", "all", "get"]

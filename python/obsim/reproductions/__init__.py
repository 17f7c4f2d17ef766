"""The registry of reproductions of published results (``obsim reproduce``).

Each reproduction is one module in this package that defines
``REPRODUCTION = Reproduction(...)``: an experiment (a dict in the
experiment-file structure, full or ``quick``), the paper's claims, and how to
decide them. Adding one (e.g. gurel2008 G1) is adding one module; it is found
by its ``id``. An *analytic* reproduction (a paper's model against the paper's
own numbers, e.g. yu2004 Y3) has no experiment: ``run`` writes only the
comparison and its figures.

Every comparison row is a claim declared in code before the run
(:mod:`obsim.reproductions.claims`: statistic, kind, threshold / margin /
band, precision), decided by ``Claim.decide(...).row(case, x)``. A
:class:`SeedPlan` adds seeds until every claim's precision is reached (up to
a cap) and reserves seeds for choosing parameters by optimisation.
A reproduction that needs runs beyond its experiment (R4 reruns chosen runs
with generated flows traced) sets ``post_run``: after each round it gets the
per-run results and an :class:`ExtraRuns`, and returns the results with
columns added for ``compare``.
``reproduction.json`` records the seeds, the tally of claims and magnitude
rows, the commit and date; :func:`scoreboard` (``obsim reproduce --summary``)
lists them for every target.

>>> from obsim import reproductions
>>> [r.id for r in reproductions.all()]
>>> reproductions.get("V1").run(out="out/V1", quick=True)
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure

    from ..experiment import Experiment
    from ..store import Store
    from ..sweep import SweepSummary
    from .readings import Reading
    from .series import Series

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
class SeedPlan:
    """How many seeds a reproduction runs (replications by precision).

    The full run starts with ``initial`` estimation seeds; while a claim
    with a finite ``precision`` (:class:`~obsim.reproductions.claims.Claim`)
    has a CI half-width above it and fewer than ``cap`` seeds have run,
    ``step`` more are added (the store keeps the finished runs: only the new
    seeds run). ``selection`` further seeds, the first replications, are
    reserved for choosing parameters by optimisation (e.g. G1's best
    assembly timeout) and never estimate a result: ``compare`` sees them
    with ``role == "selection"``, the others with ``role == "estimate"``.
    ``--quick`` keeps the experiment's own small count of estimation seeds
    (and the ``selection`` seeds)."""

    initial: int
    step: int = 0
    cap: int = 0
    """At most this many estimation seeds (0: ``initial``)."""
    selection: int = 0
    quick_selection: Optional[int] = None
    """Selection seeds in ``--quick`` mode (None: ``selection``); an
    addition to the first contract."""

    def as_dict(self) -> Dict[str, int]:
        """The plan as written to ``reproduction.json``."""
        return {"initial": self.initial, "step": self.step, "cap": self.cap, "selection": self.selection}

    def selection_for(self, quick: bool) -> int:
        """The number of selection seeds in quick or full mode."""
        if quick and self.quick_selection is not None:
            return self.quick_selection
        return self.selection

    def __post_init__(self) -> None:
        if self.initial < 1:
            raise ValueError(f"SeedPlan.initial must be >= 1, got {self.initial}")
        if self.step < 0 or self.selection < 0 or (self.quick_selection or 0) < 0:
            raise ValueError("SeedPlan.step and SeedPlan.selection must be >= 0")
        if self.cap == 0:
            object.__setattr__(self, "cap", self.initial)
        if self.cap < self.initial:
            raise ValueError(f"SeedPlan.cap ({self.cap}) is below initial ({self.initial})")
        if self.cap > self.initial and self.step < 1:
            raise ValueError("SeedPlan.step must be >= 1 when cap > initial")


def split_roles(results: "pandas.DataFrame") -> Tuple["pandas.DataFrame", "pandas.DataFrame", bool]:
    """``(selection, estimate, separate)``: the runs reserved for choosing
    parameters and those that estimate the results (``role`` column of a
    :class:`SeedPlan` with selection seeds). Without selection seeds both are
    all runs and ``separate`` is False: a reproduction must then say that its
    choice was made on the seeds that also estimate."""
    if "role" in results.columns:
        sel = results[results["role"] == "selection"]
        est = results[results["role"] == "estimate"]
        if len(sel):
            return sel, est, True
        return est, est, False
    return results, results, False


def precision_unmet(table: "pandas.DataFrame") -> "pandas.DataFrame":
    """The rows of a comparison table whose claim states a ``precision``
    its CI half-width (``measured_ci``) has not reached (an undefined or
    unbounded half-width has not reached it)."""
    if "precision" not in table.columns or table.empty:
        return table.iloc[0:0]
    prec = table["precision"].astype(float)
    hw = table["measured_ci"].astype(float)
    need = prec.notna() & ~(hw <= prec)
    return table[need]


def precision_report(table: "pandas.DataFrame") -> List[Dict[str, Any]]:
    """Per row with a precision target: case, quantity, the target, the
    half-width achieved and whether it was met (``reproduction.json``)."""
    import math

    out: List[Dict[str, Any]] = []
    if "precision" not in table.columns:
        return out
    for r in table.to_dict("records"):
        prec = float(r.get("precision", math.nan))
        if math.isnan(prec):
            continue
        hw = float(r["measured_ci"])
        out.append(
            {
                "case": r["case"],
                "quantity": r["quantity"],
                "precision": prec,
                "half_width": hw,
                "n": int(r.get("n", 0) or 0),
                "met": bool(hw <= prec),
            }
        )
    return out


def tally(table: "pandas.DataFrame") -> Dict[str, Dict[str, int]]:
    """Claims held / total (every row that is not a magnitude row) and
    magnitude rows inside their band / total. Rows of the older
    :func:`paper_row` (no ``kind``, a finite ``tolerance``) count as
    magnitude rows; those of :func:`claim_row` as claims."""
    import math

    claims = {"held": 0, "total": 0}
    mags = {"inside": 0, "total": 0}
    for r in table.to_dict("records"):
        kind = r.get("kind")
        kind = kind if isinstance(kind, str) else ""
        tol = r.get("tolerance", math.nan)
        is_mag = kind == "magnitude" or (kind == "" and tol is not None and not math.isnan(float(tol)))
        if is_mag:
            mags["total"] += 1
            mags["inside"] += int(bool(r["agrees"]))
        else:
            claims["total"] += 1
            claims["held"] += int(bool(r["agrees"]))
    return {"claims": claims, "magnitudes": mags}


def source_commit() -> str:
    """``git describe --always --dirty`` of the source tree this package is
    imported from, or the package version when it is not a git checkout."""
    import subprocess

    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--tags"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        desc = out.stdout.strip()
        if desc:
            return desc
    except (OSError, subprocess.SubprocessError):
        pass
    from .. import __version__

    return f"obsim {__version__}"


def record_sensitivity(out: Union[str, Path], verdict: str) -> None:
    """Set the ``sensitivity`` verdict (e.g. "holds under all readings",
    "depends on reading") in ``out/reproduction.json``, read by the
    scoreboard (``obsim reproduce --summary``) and the report."""
    import json

    from ..files import atomic_write_json

    path = Path(out) / "reproduction.json"
    info = json.loads(path.read_text(encoding="utf-8"))
    info["sensitivity"] = str(verdict)
    atomic_write_json(path, info)


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
    gets ``(None, None)``; its "measured" column is the model's value. With
    a :class:`SeedPlan` that reserves selection seeds, ``results`` has a
    ``role`` column ("selection" / "estimate")."""
    notes: str = ""
    """What is assumed, and why results may differ (shown in the report)."""
    comparison_plot: Dict[str, Any] = field(default_factory=dict)
    """Options of the paper-vs-measured figure: ``xlabel``, ``ylabel``,
    ``logx``, ``logy``. Rows whose ``x`` is NaN are not plotted."""
    figures: Optional[Callable[[Path], List[Tuple[str, "Figure", str]]]] = None
    """Figures of the reproduction's own, beyond the experiment's plots
    (e.g. a paper figure redrawn from its model, or from the files a
    ``post_run`` hook wrote): given the result directory, ``(file stem,
    figure, caption)`` each; a figure whose data is missing is left out.
    ``run`` writes them as PNG and PDF under ``figures/``, lists them in
    ``reproduction.json``, and the report embeds them."""
    seeds: Optional[SeedPlan] = None
    """The seed plan (replications by precision, selection seeds); None:
    the experiment's own fixed replication count, as before."""
    estimate_at: Optional[
        Callable[
            ["pandas.DataFrame", Optional["pandas.DataFrame"]],
            Callable[[Mapping[str, Any]], bool],
        ]
    ] = None
    """Two-phase seed plan: ``estimate_at(selection_results, unmet)`` gives a
    predicate over a point's axis values saying whether estimation seeds run
    there. Every point runs on the :class:`SeedPlan`'s ``selection`` seeds
    first; then the first ``initial`` estimation seeds run where
    ``estimate_at(sel, None)`` says, and each further ``step`` of seeds
    where ``estimate_at(sel, unmet)`` says, ``unmet`` being the comparison
    rows whose precision target is still missed. None: every seed at every
    point. A reproduction that chooses a parameter by optimisation (G1's
    best timeout) needs its estimation seeds only at the chosen values and
    the few it compares them with, and more seeds only where a claim is
    still imprecise, so its full run costs a fraction of the grid's."""
    post_run: Optional[Callable[["ExtraRuns", "pandas.DataFrame"], "pandas.DataFrame"]] = None
    """Extra runs after each round of the experiment: ``post_run(extra,
    results)`` gets the per-run results (``results.parquet``'s rows, with
    ``key`` naming each run in :attr:`ExtraRuns.store`) and returns them
    with columns added, which ``compare`` then reads like any metric. It may
    run further simulations through :meth:`ExtraRuns.run` (same executor
    and jobs as the sweep; stored under ``out/extra_runs/`` by run key, so
    a later round of seeds, or a rerun of the reproduction, runs only what
    is new). R4 uses it to rerun chosen runs with ``[trace] flows`` set to
    generated flow ids it picks from their ``flow_records``
    (docs/NSFNET_STUDIES.md 2.11). ``results.parquet`` is rewritten with the
    added columns. Every reading goes through it too. None: no extra
    runs."""
    readings: Tuple["Reading", ...] = ()
    """Readings of the parameters the paper leaves unstated
    (:mod:`obsim.reproductions.readings`): per parameter, the registered
    one (what ``experiment`` builds, with the paper's quote) and the
    alternatives that ``run(readings=True)`` also runs."""
    series: Tuple["Series", ...] = ()
    """Extra series (:mod:`obsim.reproductions.series`): the registered
    experiment rerun with one declared change (e.g. ``linux``: today's TCP)
    by the same seed plan and claims; ``run(series=[...])`` runs them."""

    def __post_init__(self) -> None:
        from . import series as _series
        from .readings import check

        if self.readings and self.experiment is None:
            raise ValueError(f"reproduction {self.id}: an analytic reproduction has no readings")
        if self.series and self.experiment is None:
            raise ValueError(f"reproduction {self.id}: an analytic reproduction has no series")
        check(self.readings, f"reproduction {self.id} readings")
        _series.check(self.series, f"reproduction {self.id} series")

    @property
    def analytic(self) -> bool:
        """True when the reproduction runs no simulation (no experiment)."""
        return self.experiment is None

    def experiment_dict(
        self,
        quick: bool = False,
        estimate: Optional[int] = None,
        reading: Optional["Reading"] = None,
        series: Optional["Series"] = None,
    ) -> Dict[str, Any]:
        """The experiment as a dict, its replication count set by the seed
        plan: ``selection`` seeds plus ``estimate`` estimation seeds (default:
        the plan's ``initial``, or in quick mode the experiment's own count).
        With an alternative ``reading``, the experiment as that reading
        rewrites it (the same seed plan, or the reading's own:
        :meth:`plan_for`); with a ``series``, as the series rewrites it
        (the reproduction's seed plan)."""
        if self.experiment is None:
            raise ValueError(f"reproduction {self.id} is analytic: it has no experiment")
        doc = self.experiment(quick)
        for change in (reading, series):
            if change is not None and change.apply is not None:
                doc = change.apply(doc, quick)
        plan = self.plan_for(reading, quick)
        if plan is None:
            return doc
        reps = dict(doc.get("replications", {}))
        if estimate is None:
            estimate = int(reps.get("count", 1)) if quick else plan.initial
        reps["count"] = plan.selection_for(quick) + int(estimate)
        return {**doc, "replications": reps}

    def plan_for(self, reading: Optional["Reading"], quick: bool = False) -> Optional[SeedPlan]:
        """The seed plan of the registered experiment (``reading`` None) or
        of an alternative reading: the reading's own smaller plan if it
        declares one (:attr:`Reading.seeds`, full mode only), else the
        reproduction's."""
        if not quick and reading is not None and reading.seeds is not None:
            return reading.seeds
        return self.seeds

    def build(
        self,
        quick: bool = False,
        estimate: Optional[int] = None,
        reading: Optional["Reading"] = None,
        series: Optional["Series"] = None,
    ) -> "Experiment":
        """The experiment (``ValueError`` for an analytic reproduction)."""
        from ..experiment import from_dict

        source = f"reproduction {self.id}" + (f" reading {reading.name!r}" if reading else "")
        source += f" series {series.name!r}" if series else ""
        return from_dict(self.experiment_dict(quick, estimate, reading, series), source=source)

    def run(
        self,
        out: Union[str, Path],
        *,
        quick: bool = False,
        jobs: Optional[int] = None,
        executor: str = "local",
        scheduler: Optional[str] = None,
        progress: bool = False,
        readings: Union[bool, Sequence[str]] = False,
        series: Union[bool, Sequence[str]] = False,
        reuse: Sequence[Union[str, Path]] = (),
    ) -> "SweepSummary":
        """Run the experiment into ``out``, then write ``comparison.parquet``,
        the reproduction's own figures and ``reproduction.json`` there (read
        by ``obsim report``). An analytic reproduction runs nothing: its
        summary counts zero runs. With a :class:`SeedPlan` (full mode),
        seeds are added in steps until every claim's precision is reached
        or the cap; the summary then counts the runs of every round. With
        ``readings``, also run every alternative reading of the unstated
        parameters (same seed plan, same ``compare``) into ``out/readings/``
        and write ``sensitivity.parquet`` and the verdict
        (:func:`obsim.reproductions.readings.run_readings`); ``readings``
        given as parameter names runs only those parameters' alternatives
        (the verdict then says it is partial). A reading's run that the
        registered experiment already has (same scenario and seed: a
        reading that changes only what is measured) is linked in, not
        rerun; so is a run that one of the stores in ``reuse`` holds (e.g.
        another reproduction's store with the same simulations: R1-R4's
        700 KB runs). With ``series`` (True: every declared series; or
        their names), also run those series of the registered experiment
        (same seed plan, same ``compare``) into ``out/series/<name>/``
        (:func:`obsim.reproductions.series.run_series`). The returned
        summary is the registered experiment's."""
        import datetime

        from ..files import atomic_write_json, atomic_write_parquet
        from ..plots import save
        from ..store import frame_to_arrow
        from ..sweep import SweepSummary
        from . import readings as _readings
        from . import series as _series

        root = Path(out)
        lent = tuple(Path(r) for r in reuse)
        rounds: List[Dict[str, Any]] = []

        def measure(
            where: Path,
            reading: Optional["Reading"],
            reuse: Sequence[Path] = (),
            series: Optional["Series"] = None,
        ) -> Tuple["SweepSummary", "pandas.DataFrame", int, List[Dict[str, Any]]]:
            """The registered experiment (``reading`` and ``series`` None),
            a reading or a series, by the seed plan, into ``where``, alike
            (:meth:`_measure`)."""
            return self._measure(
                where,
                quick=quick,
                reading=reading,
                series=series,
                jobs=jobs,
                executor=executor,
                scheduler=scheduler,
                progress=progress,
                reuse=reuse,
            )

        selection = self.seeds.selection_for(quick) if self.seeds is not None else 0
        if self.experiment is None:
            summary = SweepSummary(out=root, total=0, executor="analytic")
            summary.out.mkdir(parents=True, exist_ok=True)
            table = self.compare(None, None)
            estimate = 0
        else:
            summary, table, estimate, rounds = measure(root, None, lent)
        sensitivity: Optional[Dict[str, Any]] = None
        # readings: False (none), True or [] (every parameter), or parameter names.
        only = None if isinstance(readings, bool) or not readings else list(readings)
        if readings is not False and readings is not None and self.readings:
            sensitivity = _readings.run_readings(
                self,
                root,
                table,
                measure=lambda reading, where: measure(where, reading, (root, *lent))[1],
                only=only,
            )
        series_done: Dict[str, Dict[str, Any]] = {}
        if series is not False and series is not None and self.series:

            def measure_series(s: "Series", where: Path) -> Tuple["pandas.DataFrame", Dict[str, Any]]:
                _, t, est, rnds = measure(where, None, (root, *lent), s)
                return t, {"estimate": int(est), "selection": int(selection), "rounds": rnds}

            names = None if isinstance(series, bool) or not series else list(series)
            series_done = _series.run_series(self, root, table, measure=measure_series, only=names)
        atomic_write_parquet(root / "comparison.parquet", frame_to_arrow(table))
        figures = []
        for stem, fig, caption in self.figures(root) if self.figures is not None else []:
            png = save(fig, root / "figures" / stem)[0]
            figures.append({"file": str(png.relative_to(root)), "caption": caption})
        counts = tally(table)
        previous: Dict[str, Any] = {}
        try:
            import json

            previous = json.loads((root / "reproduction.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
        if sensitivity is None:
            # Not rerun: keep the last verdict of the readings (if any).
            sensitivity = {
                "sensitivity": previous.get("sensitivity", _readings.NOT_RUN)
                if self.readings
                else _readings.NOT_RUN,
                "sensitivity_flips": previous.get("sensitivity_flips", {}) if self.readings else {},
                "readings": _readings.describe(self.readings),
            }
        # Each declared series, with its results where it ran now or before
        # (a series not rerun keeps its last results).
        ran_before = {d.get("name"): d for d in previous.get("series", []) if isinstance(d, dict)}
        series_doc = []
        for d in _series.describe(self.series):
            result = series_done.get(d["name"])
            if result is None and d["name"] in ran_before:
                result = ran_before[d["name"]].get("result")
            series_doc.append({**d, "result": result})
        plan_doc = None
        if self.seeds is not None:
            plan_doc = self.seeds.as_dict()
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
                "commit": source_commit(),
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "seeds": {
                    "estimate": int(estimate),
                    "selection": int(selection),
                    "plan": plan_doc,
                    "rounds": rounds,
                },
                "claims": counts["claims"],
                "magnitudes": counts["magnitudes"],
                "precision": precision_report(table),
                # The verdict of the readings (run_readings / record_sensitivity);
                # kept across reruns without --readings.
                **sensitivity,
                # The declared series and, where run, their tallies.
                "series": series_doc,
            },
        )
        return summary

    def _measure(
        self,
        out: Path,
        *,
        quick: bool,
        reading: Optional["Reading"],
        jobs: Optional[int],
        series: Optional["Series"] = None,
        executor: str,
        scheduler: Optional[str],
        progress: bool,
        reuse: Sequence[Path] = (),
    ) -> Tuple["SweepSummary", "pandas.DataFrame", int, List[Dict[str, Any]]]:
        """Run the experiment (as ``reading`` or ``series`` rewrites it, if
        given) into ``out`` by the seed plan and compare: the summary of
        every round, the comparison table, the estimation seeds used and the
        rounds. The registered experiment, every reading and every series go
        through here, so they are measured and decided alike."""
        from ..store import Store
        from ..sweep import results_frame, run_experiment

        plan = self.plan_for(reading, quick)
        selection = plan.selection_for(quick) if plan is not None else 0
        rounds: List[Dict[str, Any]] = []
        estimate = None if plan is None or quick else plan.initial
        summary = None
        only: Optional[Callable[[Dict[str, Any]], bool]] = None
        chosen = None
        phases: List[Tuple[int, int, Callable[[Mapping[str, Any]], bool]]] = []

        def sweep(exp: "Experiment", only: Optional[Callable[[Dict[str, Any]], bool]]) -> "SweepSummary":
            return run_experiment(
                exp,
                out,
                jobs=jobs,
                executor=executor,
                scheduler=scheduler,
                progress=progress,
                only=only,
                reuse=reuse,
            )

        if selection and self.estimate_at is not None:
            # Phase 1: the selection seeds at every point; they decide where
            # the estimation seeds run (phase 2, the loop below).
            exp = self.build(quick, estimate, reading, series)
            summary = sweep(exp, lambda run: int(run["replication"]) < selection)
            chosen = results_frame(Store(out), exp)
            chosen = chosen[chosen["replication"] < selection]
            first = int(exp.replications) - selection
            phases.append((0, first, self.estimate_at(chosen, None)))
            only = _phased(selection, phases)

        while True:
            exp = self.build(quick, estimate, reading, series)
            this = sweep(exp, only)
            if summary is None:
                summary = this
            else:
                summary.total = this.total
                summary.ran += this.ran
                summary.reused += this.reused
                summary.failed += this.failed
                summary.failures.extend(this.failures)
                summary.wall_s += this.wall_s
            results = results_frame(Store(out), exp)
            if selection:
                results["role"] = [
                    "selection" if int(r) < selection else "estimate" for r in results["replication"]
                ]
            if self.post_run is not None:
                extra = ExtraRuns(
                    out=Path(out),
                    exp=exp,
                    quick=quick,
                    jobs=jobs,
                    executor=executor,
                    scheduler=scheduler,
                    reuse=tuple(Path(r) for r in reuse),
                )
                results = self.post_run(extra, results)
                # results.parquet with the hook's columns (the sweep wrote it without them).
                from ..files import atomic_write_parquet
                from ..store import frame_to_arrow

                kept = results.drop(columns=["role"], errors="ignore")
                atomic_write_parquet(Path(out) / "results.parquet", frame_to_arrow(kept))
            table = self.compare(results, exp)
            estimate = exp.replications - selection
            unmet = precision_unmet(table)
            rounds.append({"seeds": estimate, "unmet": int(len(unmet))})
            if plan is None or quick or unmet.empty or estimate >= plan.cap:
                break
            more = min(estimate + plan.step, plan.cap)
            if phases and self.estimate_at is not None and chosen is not None:
                phases.append((estimate, more, self.estimate_at(chosen, unmet)))
                only = _phased(selection, phases)
            estimate = more
        assert summary is not None
        return summary, table, int(estimate), rounds


@dataclass(frozen=True)
class ExtraRuns:
    """What a reproduction's :attr:`Reproduction.post_run` hook works with:
    the experiment's store (``out``: read a run's tables with
    ``extra.store.read_table(key, "flow_records")``), the experiment, the
    mode, and :meth:`run` for further simulations."""

    out: Path
    exp: "Experiment"
    quick: bool
    jobs: Optional[int] = None
    executor: str = "local"
    scheduler: Optional[str] = None
    reuse: Tuple[Path, ...] = ()
    """Result stores (``--reuse``) whose ``extra_runs`` are linked in
    instead of simulated, as the experiment's own runs are."""

    @property
    def store(self) -> "Store":
        """The experiment's result store (the registered runs)."""
        from ..store import Store

        return Store(self.out)

    @property
    def extra_store(self) -> "Store":
        """Where :meth:`run` stores its runs (``out/extra_runs``)."""
        from ..store import Store

        return Store(self.out / "extra_runs")

    def scenario_of(self, point: int) -> Dict[str, Any]:
        """The scenario (a fresh dict) of the experiment's point ``point``
        (the ``point`` column of the results)."""
        import copy

        for p in self.exp.points():
            if p.index == int(point):
                return copy.deepcopy(self.exp.scenario_for(p))
        raise KeyError(f"experiment {self.exp.name}: no point {point}")

    def run(self, runs: List[Tuple[Dict[str, Any], int]]) -> List[Optional[str]]:
        """Run each ``(scenario, seed)`` not stored yet, with the sweep's
        executor and jobs, into :attr:`extra_store`; return each one's run
        key in that store (:func:`obsim.store.run_key` of the scenario, the
        seed and the obsim version), or None where the run failed (its
        error is recorded in the store's journal). Stored runs are reused,
        this store's and those of the :attr:`reuse` stores' ``extra_runs``
        (linked in, :meth:`obsim.store.Store.adopt`): the same scenario and
        seed give the same run (obsim's determinism rule)."""
        from .. import __version__ as version
        from ..executors import make_executor
        from ..store import Store, now_iso, run_key
        from ..sweep import execute_run

        store = self.extra_store
        store.prepare()
        lenders = [Store(Path(r) / "extra_runs") for r in self.reuse]
        keys = [run_key({"extra": sc}, int(seed), version) for sc, seed in runs]
        tasks = []
        seen = set()
        for key, (sc, seed) in zip(keys, runs):
            if key in seen or store.is_done(key) or any(store.adopt(key, o) for o in lenders):
                continue
            seen.add(key)
            tasks.append({"key": key, "scenario": sc, "seed": int(seed), "store": str(store.root)})
        failed = set()
        if tasks:
            jobs = 1 if len(tasks) == 1 else self.jobs
            with make_executor(self.executor, jobs, self.scheduler) as ex:
                for outcome in ex.run(execute_run, tasks):
                    store.append_journal([{**outcome, "finished_at": now_iso()}])
                    if outcome["status"] == "error":
                        failed.add(outcome["key"])
        return [None if k in failed or not store.is_done(k) else k for k in keys]


def _phased(
    selection: int, phases: List[Tuple[int, int, Callable[[Mapping[str, Any]], bool]]]
) -> Callable[[Dict[str, Any]], bool]:
    """The runs of a two-phase plan: every selection seed, and each range
    ``[lo, hi)`` of estimation seeds at the points its ``keep`` accepts."""

    def only(run: Dict[str, Any]) -> bool:
        r = int(run["replication"])
        if r < selection:
            return True
        return any(selection + lo <= r < selection + hi and keep(run["axes"]) for lo, hi, keep in phases)

    return only


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


SCOREBOARD_COLUMNS = (
    "id",
    "claims",
    "magnitudes",
    "seeds",
    "commit",
    "date",
    "sensitivity",
    "mode",
)
"""Columns of the trust scoreboard (:func:`scoreboard`)."""


def scoreboard_row(rid: str, info: Optional[Dict[str, Any]]) -> Dict[str, str]:
    """One scoreboard row from a ``reproduction.json`` (None: never run).
    Older files without the new keys are counted from ``agrees``/``compared``."""
    if info is None:
        row = {c: "" for c in SCOREBOARD_COLUMNS}
        row.update(id=rid, claims="not run")
        return row
    claims = info.get("claims")
    mags = info.get("magnitudes")
    seeds = info.get("seeds")
    if isinstance(seeds, dict):
        seed_text = str(seeds.get("estimate", ""))
        if seeds.get("selection"):
            seed_text += f" (+{seeds['selection']} selection)"
    else:
        seed_text = "?"
    if info.get("analytic"):
        seed_text, mode = "model", "analytic"
    else:
        mode = "quick" if info.get("quick") else "full"
    return {
        "id": rid,
        "claims": f"{claims['held']}/{claims['total']}"
        if isinstance(claims, dict)
        else f"{info.get('agrees', '?')}/{info.get('compared', '?')} (old rows)",
        "magnitudes": f"{mags['inside']}/{mags['total']}" if isinstance(mags, dict) else "?",
        "seeds": seed_text,
        "commit": str(info.get("commit", "?")),
        "date": str(info.get("date", "?")),
        "sensitivity": str(info.get("sensitivity", "not run")),
        "mode": mode,
    }


def scoreboard(root: Union[str, Path] = Path("out") / "reproduce") -> List[Dict[str, str]]:
    """The trust scoreboard: one row per registered reproduction from
    ``root/ID/reproduction.json`` (the full run, ``obsim reproduce ID``'s
    default output) or, when there is none, ``root/ID-quick``; "not run"
    when neither exists."""
    import json

    rows = []
    base = Path(root)
    for rep in all():
        info = None
        for d in (base / rep.id, base / f"{rep.id}-quick"):
            path = d / "reproduction.json"
            if path.is_file():
                try:
                    info = json.loads(path.read_text(encoding="utf-8"))
                except ValueError:
                    info = None
                break
        rows.append(scoreboard_row(rep.id, info))
    return rows


def format_scoreboard(rows: List[Dict[str, str]]) -> str:
    """The scoreboard as a plain-text table (``obsim reproduce --summary``)."""
    heads = {
        "id": "id",
        "claims": "claims held",
        "magnitudes": "magnitudes in band",
        "seeds": "seeds",
        "commit": "commit",
        "date": "date (UTC)",
        "sensitivity": "sensitivity",
        "mode": "mode",
    }
    cols = list(SCOREBOARD_COLUMNS)
    width = {c: max([len(heads[c])] + [len(r[c]) for r in rows]) for c in cols}
    lines = ["  ".join(heads[c].ljust(width[c]) for c in cols).rstrip()]
    lines.append("  ".join("-" * width[c] for c in cols))
    for r in rows:
        lines.append("  ".join(r[c].ljust(width[c]) for c in cols).rstrip())
    return "\n".join(lines)


__all__ = [
    "COMPARISON_COLUMNS",
    "SCOREBOARD_COLUMNS",
    "ExtraRuns",
    "Reproduction",
    "SeedPlan",
    "all",
    "format_scoreboard",
    "get",
    "precision_unmet",
    "record_sensitivity",
    "scoreboard",
    "scoreboard_row",
    "split_roles",
    "tally",
]

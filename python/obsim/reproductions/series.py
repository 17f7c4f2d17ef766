"""Series: the registered experiment rerun with one declared change, its
claims decided by the same code (e.g. ``linux``: the studies with today's
TCP, issue 17 item 5).

A *reading* (:mod:`obsim.reproductions.readings`) is another way to read
what a paper leaves unstated. A *series* is not: it changes what the paper
did state or assume (its TCP) to ask whether the paper's claims still hold
under it. Each :class:`Series` is declared on the reproduction before any
run: a name, a description that says what it changes and why, its
``apply(experiment, quick)`` and the claims it makes inapplicable (by a
pattern on the claim's case, with the reason). ``obsim reproduce ID
--series NAME`` (``Reproduction.run(series=[...])``) runs the registered
experiment, then each named series by the same seed plan into
``OUT/series/<name>/`` (its own ``comparison.parquet``, by the
reproduction's own ``compare``), and writes ``OUT/series/<name>/claims.parquet``:
every claim's verdict under the registered experiment and under the series,
side by side (:data:`SERIES_COLUMNS`). ``reproduction.json`` lists the
declared series and, for each one run, its tally; the report shows them in
a section of their own.

Outcomes, for the registered and the series column alike (:func:`outcome`):
``held`` (the claim's rule is met), ``fails`` (the interval lies wholly on
the wrong side of the threshold or outside the equivalence region, or a
magnitude's point estimate lies outside its band), ``undecided`` (neither:
the interval straddles), ``not applicable`` (the series declares the claim
meaningless under it, e.g. a TCP variant Linux does not have) and
``missing`` (the comparison has no such row: counted as not held, as under
a reading).

>>> Series("linux", "Linux 6.18's TCP (CUBIC, SACK, RACK-TLP, PRR) ...", apply=to_linux)
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from .readings import choose, claim_key, matched, slug

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from . import Reproduction

HELD = "held"
FAILS = "fails"
UNDECIDED = "undecided"
NOT_APPLICABLE = "not applicable"
MISSING = "missing"
OUTCOMES = (HELD, FAILS, UNDECIDED, NOT_APPLICABLE, MISSING)
"""The outcomes of a claim under a series (:func:`outcome`)."""

SERIES_COLUMNS = (
    "case",
    "quantity",
    "kind",
    "registered_outcome",
    "registered_measured",
    "outcome",
    "held",
    "measured",
    "ci_low",
    "ci_high",
    "n",
    "changed",
    "reason",
)
"""Columns of ``series/<name>/claims.parquet``: one row per claim of the
registered comparison (then any claim only the series forms), its outcome
and measured value under the registered experiment and under the series
(``held`` is the comparison's ``agrees``; ``ci_low``/``ci_high``/``n`` the
series' interval and seeds), ``changed`` whether ``held`` differs from the
registered verdict (never for a claim not applicable), ``reason`` why a
claim is not applicable."""


@dataclass(frozen=True)
class Series:
    """One declared change of a reproduction's registered experiment, run
    as an extra series beside it by the same seed plan and claims."""

    name: str
    """The series, e.g. ``"linux"`` (``--series linux``; its directory
    name is :attr:`slug`)."""
    description: str
    """What it changes and why (shown in the report and
    ``reproduction.json``), e.g. which TCP each of the paper's variants
    maps to."""
    apply: Callable[[Dict[str, Any], bool], Dict[str, Any]]
    """``apply(experiment, quick)``: a modified copy of the registered
    experiment dict."""
    not_applicable: Tuple[Tuple[str, str], ...] = ()
    """``(pattern, reason)``: a claim whose case matches the regular
    expression ``pattern`` (``re.search``) has no meaning under the series;
    it is reported as not applicable with ``reason``, never dropped."""

    @property
    def slug(self) -> str:
        """The series as a directory name."""
        return slug(self.name)

    def inapplicable(self, case: str) -> Optional[str]:
        """The reason the claim of ``case`` is not applicable, or None."""
        for pattern, reason in self.not_applicable:
            if re.search(pattern, case):
                return reason
        return None


LINUX_TCP = (
    'Today\'s TCP: obsim\'s linux profile (tcp.profile = "linux", docs/MODEL.md "The linux '
    "profile\"), Linux 6.18's defaults: SACK with RACK-TLP (RFC 8985), PRR (RFC 6937), CUBIC "
    "(RFC 9438), IW10, 200 ms minimum RTO, 1 s initial RTO, delayed ACKs of 40 ms, MSS 1448 with "
    "52 bytes of headers (timestamps); not modelled: F-RTO and DSACK undo, HyStart, TCP small "
    "queues, per-ACK RTT samples. "
)
"""The part of every ``linux`` series' description that says what the
profile is (each study adds what it keeps of its own set-up, and why)."""


def linux_series(
    description: str,
    keep: Sequence[str],
    *,
    rewrite: Optional[Callable[[Dict[str, Any], bool], Dict[str, Any]]] = None,
    not_applicable: Tuple[Tuple[str, str], ...] = (),
) -> Series:
    """The ``linux`` series of a study: the scenario's ``[tcp]`` table
    becomes ``{"profile": "linux"}`` plus the keys in ``keep`` that the
    study's own table sets (what its paper states: a window limit, an MSS,
    Burst TCP's keys), then ``rewrite(experiment, quick)`` if given (e.g.
    the swept TCP variants mapped to Linux's). ``description``: what the
    study keeps and why, after :data:`LINUX_TCP`."""

    def apply(exp: Dict[str, Any], quick: bool) -> Dict[str, Any]:
        out = copy.deepcopy(exp)
        own = out["scenario"].get("tcp", {})
        out["scenario"]["tcp"] = {"profile": "linux", **{k: own[k] for k in keep if k in own}}
        out["name"] = f"{exp['name']}_linux"
        return rewrite(out, quick) if rewrite is not None else out

    return Series("linux", LINUX_TCP + description, apply, not_applicable)


def check(series: Sequence[Series], where: str = "series") -> None:
    """Raise ``ValueError`` unless names (as directory names) are unique,
    every series has a description, and every not-applicable pattern is a
    regular expression with a reason."""
    names = [s.slug for s in series]
    if len(set(names)) != len(names):
        raise ValueError(f"{where}: two series share a directory name: {names}")
    for s in series:
        if not s.description.strip():
            raise ValueError(f"{where}[{s.name!r}]: a series needs a description (what it changes, why)")
        for pattern, reason in s.not_applicable:
            re.compile(pattern)
            if not reason.strip():
                raise ValueError(f"{where}[{s.name!r}]: not_applicable {pattern!r} needs a reason")


def select(series: Sequence[Series], only: Optional[Sequence[str]]) -> List[Series]:
    """The series ``only`` names (by name or slug; None: all). ValueError
    in one line naming the unknown ones and the allowed ones."""
    chosen = choose([s.name for s in series], only, "series: no series")
    return [s for s in series if s.slug in chosen]


def _finite(x: Any) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def outcome(row: Optional[Dict[str, Any]]) -> str:
    """A comparison row's outcome: ``held`` when it agrees; else ``fails``
    when its interval lies wholly on the wrong side (``greater``: CI below
    the threshold; ``less``: above; ``equivalent``: the CI outside the
    region) or a magnitude's estimate lies outside its band, ``undecided``
    otherwise; ``missing`` for no row. A row of the older rules (no
    ``kind``) that does not agree fails."""
    if row is None:
        return MISSING
    if bool(row["agrees"]):
        return HELD
    kind = row.get("kind") if isinstance(row.get("kind"), str) else ""
    lo, hi, t = row.get("ci_low"), row.get("ci_high"), row.get("threshold")
    if kind in ("magnitude", ""):
        return FAILS
    if not (_finite(lo) and _finite(hi)):
        return UNDECIDED
    lo, hi = float(lo), float(hi)
    if kind == "greater" and _finite(t):
        return FAILS if hi <= float(t) else UNDECIDED
    if kind == "less" and _finite(t):
        return FAILS if lo >= float(t) else UNDECIDED
    if kind == "equivalent":
        b_lo, b_hi = row.get("band_low"), row.get("band_high")
        if _finite(b_lo) and _finite(b_hi) and (hi < float(b_lo) or lo > float(b_hi)):
            return FAILS
    return UNDECIDED


def series_table(
    registered: "pandas.DataFrame", table: "pandas.DataFrame", series: Series
) -> "pandas.DataFrame":
    """``claims.parquet`` of one series: each registered claim's outcome
    under the registered experiment and under ``series`` (``table``, its
    comparison), then the claims only the series forms."""
    import pandas as pd

    rows: List[Dict[str, Any]] = []

    def add(key: Tuple[str, str], r0: Optional[Dict[str, Any]], r: Optional[Dict[str, Any]]) -> None:
        reason = series.inapplicable(key[0])
        said = NOT_APPLICABLE if reason is not None else outcome(r)
        held = said == HELD
        base = r0 if r0 is not None else r
        rows.append(
            {
                "case": key[0],
                "quantity": key[1],
                "kind": str(base.get("kind") or "") if base is not None else "",
                "registered_outcome": outcome(r0) if r0 is not None else MISSING,
                "registered_measured": float(r0["measured"]) if r0 is not None else math.nan,
                "outcome": said,
                "held": held,
                "measured": float(r["measured"]) if r is not None else math.nan,
                "ci_low": float(r["ci_low"]) if r is not None else math.nan,
                "ci_high": float(r["ci_high"]) if r is not None else math.nan,
                "n": int(r.get("n") or 0) if r is not None else 0,
                "changed": reason is None and r0 is not None and held != bool(r0["agrees"]),
                "reason": reason or "",
            }
        )

    seen = set()
    for key, r0, r in matched(registered, table):
        seen.add(key)
        add(key, r0, r)
    for r in table.to_dict("records"):
        if claim_key(r) not in seen:
            add(claim_key(r), None, r)
    return pd.DataFrame(rows, columns=list(SERIES_COLUMNS))


def summary(
    claims: "pandas.DataFrame", registered: "pandas.DataFrame", table: "pandas.DataFrame", series: Series
) -> Dict[str, Any]:
    """The tally of one series for ``reproduction.json`` and the report:
    outcomes per claim under the series and under the registered
    experiment (``claims``, :func:`series_table`); claims held and
    magnitude rows in band (:func:`obsim.reproductions.tally`) of the rows
    the series can decide, in the series' comparison ``table`` and in the
    ``registered`` one; the claims whose verdict changed."""
    from . import tally

    def applicable(t: "pandas.DataFrame") -> "pandas.DataFrame":
        return t[[series.inapplicable(str(c)) is None for c in t["case"]]] if len(t) else t

    changed = claims[claims["changed"]]
    return {
        "outcomes": {o: int((claims["outcome"] == o).sum()) for o in OUTCOMES},
        "registered_outcomes": {o: int((claims["registered_outcome"] == o).sum()) for o in OUTCOMES},
        "tally": tally(applicable(table)),
        "registered_tally": tally(applicable(registered)),
        "changed": [f"{c}: {q}" for c, q in zip(changed["case"], changed["quantity"])],
    }


def line(result: Dict[str, Any]) -> str:
    """One line of a series' result (:func:`run_series`'s entry): claims
    held and magnitude rows in band under the series beside the registered
    experiment's (the rows the series can decide), the outcomes, and how
    many verdicts changed."""
    o = result["outcomes"]
    c, m = result["tally"]["claims"], result["tally"]["magnitudes"]
    rc, rm = result["registered_tally"]["claims"], result["registered_tally"]["magnitudes"]
    n = len(result["changed"])
    mags = (
        f", {m['inside']} of {m['total']} magnitude rows in band (registered {rm['inside']})"
        if m["total"]
        else ""
    )
    return (
        f"{c['held']} of {c['total']} claims held (registered {rc['held']}){mags}; {o[FAILS]} fail, "
        f"{o[UNDECIDED]} undecided, {o[NOT_APPLICABLE]} not applicable"
        + (f", {o[MISSING]} missing" if o[MISSING] else "")
        + f"; {n} verdict{'s' if n != 1 else ''} changed"
    )


def describe(series: Sequence[Series]) -> List[Dict[str, Any]]:
    """The declared series as JSON-able dicts (``reproduction.json``)."""
    return [
        {
            "name": s.name,
            "description": s.description,
            "dir": f"series/{s.slug}",
            "not_applicable": [{"pattern": p, "reason": r} for p, r in s.not_applicable],
        }
        for s in series
    ]


def run_series(
    rep: "Reproduction",
    out: Path,
    registered: "pandas.DataFrame",
    *,
    measure: Callable[[Series, Path], Tuple["pandas.DataFrame", Dict[str, Any]]],
    only: Optional[Sequence[str]] = None,
) -> Dict[str, Dict[str, Any]]:
    """Run each series of ``rep`` that ``only`` names (None: all) into
    ``out/series/<name>/`` with ``measure(series, dir)`` (the reproduction's
    run by its seed plan + its ``compare``: the comparison table and the
    seeds used), write its ``comparison.parquet`` and ``claims.parquet``,
    and return per series name its ``reproduction.json`` entry (seeds,
    tally, changed claims)."""
    from ..files import atomic_write_parquet
    from ..store import frame_to_arrow

    if rep.experiment is None:
        raise ValueError(f"reproduction {rep.id} is analytic: it has no experiment to rerun")
    check(rep.series, f"reproduction {rep.id} series")
    done: Dict[str, Dict[str, Any]] = {}
    for s in select(rep.series, only):
        d = out / "series" / s.slug
        table, seeds = measure(s, d)
        atomic_write_parquet(d / "comparison.parquet", frame_to_arrow(table))
        claims = series_table(registered, table, s)
        atomic_write_parquet(d / "claims.parquet", frame_to_arrow(claims))
        done[s.name] = {"seeds": seeds, **summary(claims, registered, table, s)}
    return done


__all__ = [
    "FAILS",
    "HELD",
    "MISSING",
    "NOT_APPLICABLE",
    "OUTCOMES",
    "SERIES_COLUMNS",
    "Series",
    "UNDECIDED",
    "LINUX_TCP",
    "check",
    "describe",
    "line",
    "linux_series",
    "outcome",
    "run_series",
    "select",
    "series_table",
    "summary",
]

"""Readings of what a paper leaves unstated, and how much the claims depend on them.

A paper's text rarely fixes every parameter a simulation needs (how N flows
share an access link, a buffer size, the cross traffic). Each such
*parameter* has several plausible *readings*. A reproduction registers
exactly one reading per parameter, the one the paper's text supports best
(quoted, with its section), never the one that scores best, and lists the
others as :class:`Reading` objects that rewrite the experiment.

``obsim reproduce ID --readings`` (``Reproduction.run(..., readings=True)``)
runs the registered experiment, then every alternative reading, one
parameter varied at a time, into ``OUT/readings/<parameter>/<reading>/``,
compares each with the reproduction's own ``compare`` and writes
``OUT/sensitivity.parquet`` (one row per parameter × reading × claim) and a
verdict: ``"holds under all readings"`` or ``"depends on reading: <n>
claims"``. The report shows the readings side by side, and puts a verdict
that depends on the reading in its headline.

>>> Reading("access model", "one shared 100 Mbit/s link", quote="§3: ...", registered=True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from . import Reproduction, SeedPlan

HOLDS = "holds under all readings"
"""The sensitivity verdict when no claim changes between readings."""
NOT_RUN = "not run"
"""The sensitivity verdict when the readings were not run."""

SENSITIVITY_COLUMNS = (
    "parameter",
    "reading",
    "registered",
    "case",
    "quantity",
    "held",
    "measured",
    "flips",
)
"""Columns of ``sensitivity.parquet``: one row per parameter × reading ×
compared row (claim), ``held`` its verdict (the comparison's ``agrees``),
``measured`` its number, ``flips`` whether ``held`` differs from the
registered reading's."""


@dataclass(frozen=True)
class Reading:
    """One reading of a parameter a paper leaves unstated.

    The registered reading (``registered=True``, ``apply=None``) is the
    experiment the reproduction defines; an alternative rewrites it."""

    parameter: str
    """The unstated parameter, e.g. ``"access model"``."""
    name: str
    """This reading, e.g. ``"per-flow links of 100/N_F Mbit/s"``."""
    quote: str
    """The paper's text that supports it, with its section (required for
    the registered reading; for an alternative, the text or default it
    comes from)."""
    registered: bool = False
    """Exactly one registered reading per parameter: the one the text
    supports best (not the one that scores best)."""
    apply: Optional[Callable[[Dict[str, Any], bool], Dict[str, Any]]] = None
    """``apply(experiment, quick)``: a modified copy of the registered
    experiment dict under this reading; ``None`` for the registered one."""
    seeds: Optional["SeedPlan"] = None
    """A smaller seed plan for an alternative whose runs cost too much for
    the reproduction's own (declared with the reading, before any run; the
    report and ``reproduction.json`` show it); ``None``: the reproduction's
    plan. ``--quick`` is unaffected."""

    @property
    def parameter_slug(self) -> str:
        """The parameter as a directory name."""
        return slug(self.parameter)

    @property
    def slug(self) -> str:
        """The reading as a directory name."""
        return slug(self.name)


def rebuilt(
    build: Callable[..., Dict[str, Any]], **changed: Any
) -> Callable[[Dict[str, Any], bool], Dict[str, Any]]:
    """A reading's ``apply`` for a reproduction whose experiment is
    ``build(quick, **kwargs)``: the experiment rebuilt with ``changed``."""
    return lambda exp, quick: build(quick, **changed)


def slug(text: str) -> str:
    """``text`` as a directory name: lower case, runs of anything but
    letters and digits replaced by one ``-``."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if not s:
        raise ValueError(f"cannot make a directory name of {text!r}")
    return s


def check(readings: Sequence[Reading], where: str = "readings") -> None:
    """Raise ``ValueError`` naming the problem unless every parameter has
    exactly one registered reading, with a quote and no ``apply``; every
    alternative has an ``apply``; and names (as directory names) are unique
    within a parameter."""
    by_param: Dict[str, List[Reading]] = {}
    for r in readings:
        by_param.setdefault(r.parameter, []).append(r)
    slugs = [slug(p) for p in by_param]
    if len(set(slugs)) != len(slugs):
        raise ValueError(f"{where}: two parameters share a directory name: {sorted(by_param)}")
    for param, rs in by_param.items():
        reg = [r for r in rs if r.registered]
        if len(reg) != 1:
            raise ValueError(
                f"{where}[{param!r}]: exactly one registered reading needed, found {len(reg)}"
            )
        if not reg[0].quote.strip():
            raise ValueError(f"{where}[{param!r}]: the registered reading needs the paper's quote")
        if reg[0].apply is not None:
            raise ValueError(
                f"{where}[{param!r}]: the registered reading is the experiment itself (apply=None)"
            )
        names = [r.slug for r in rs]
        if len(set(names)) != len(names):
            raise ValueError(f"{where}[{param!r}]: two readings share a directory name: {names}")
        for r in rs:
            if not r.registered and r.apply is None:
                raise ValueError(f"{where}[{param!r}][{r.name!r}]: an alternative needs apply")


def parameters(readings: Sequence[Reading]) -> Dict[str, List[Reading]]:
    """The readings by parameter, registered first, in declaration order."""
    out: Dict[str, List[Reading]] = {}
    for r in readings:
        out.setdefault(r.parameter, []).append(r)
    return {p: sorted(rs, key=lambda r: not r.registered) for p, rs in out.items()}


def describe(readings: Sequence[Reading]) -> List[Dict[str, Any]]:
    """The readings as JSON-able dicts (for ``reproduction.json``)."""
    return [
        {
            "parameter": r.parameter,
            "name": r.name,
            "quote": r.quote,
            "registered": r.registered,
            "dir": "" if r.registered else f"readings/{r.parameter_slug}/{r.slug}",
            **({"seeds": r.seeds.as_dict()} if r.seeds is not None else {}),
        }
        for rs in parameters(readings).values()
        for r in rs
    ]


def claim_key(row: Any) -> Tuple[str, str]:
    """A comparison row's claim: ``(case, quantity)``, the same under every
    reading and series of a reproduction."""
    return (str(row["case"]), str(row["quantity"]))


def matched(
    registered: "pandas.DataFrame", table: "pandas.DataFrame"
) -> List[Tuple[Tuple[str, str], Dict[str, Any], Optional[Dict[str, Any]]]]:
    """Each claim of the registered comparison with its row in ``table``
    (the comparison of a reading or a series; None where ``table`` has no
    such claim, e.g. a case it cannot form), in the registered order:
    ``(claim_key, registered row, row or None)``. Readings
    (:func:`sensitivity_table`) and series
    (:func:`obsim.reproductions.series.series_table`) set claims side by
    side through here."""
    got = {claim_key(r): r for r in table.to_dict("records")}
    return [(claim_key(r), r, got.get(claim_key(r))) for r in registered.to_dict("records")]


def sensitivity_table(
    registered: "pandas.DataFrame",
    alternatives: Sequence[Tuple[Reading, "pandas.DataFrame"]],
    readings: Sequence[Reading],
) -> "pandas.DataFrame":
    """``sensitivity.parquet`` from the registered comparison and each
    alternative's (``agrees`` is a claim's verdict): the registered rows
    once per parameter, then each alternative's rows. A claim missing under
    a reading (e.g. a case it cannot form) counts as not held there."""
    import pandas as pd

    rows: List[Dict[str, Any]] = []
    regs = {r.parameter: r for r in readings if r.registered}
    for param, reg in regs.items():
        for _, r in registered.iterrows():
            rows.append(
                {
                    "parameter": param,
                    "reading": reg.name,
                    "registered": True,
                    "case": str(r["case"]),
                    "quantity": str(r["quantity"]),
                    "held": bool(r["agrees"]),
                    "measured": float(r["measured"]),
                    "flips": False,
                }
            )
    for reading, table in alternatives:
        for key, r0, r in matched(registered, table):
            held0 = bool(r0["agrees"])
            held = bool(r["agrees"]) if r is not None else False
            rows.append(
                {
                    "parameter": reading.parameter,
                    "reading": reading.name,
                    "registered": False,
                    "case": key[0],
                    "quantity": key[1],
                    "held": held,
                    "measured": float(r["measured"]) if r is not None else float("nan"),
                    "flips": held != held0,
                }
            )
    return pd.DataFrame(rows, columns=list(SENSITIVITY_COLUMNS))


def flipped(table: "pandas.DataFrame") -> Dict[str, List[str]]:
    """Claims (``case: quantity``) whose verdict changes under some reading,
    each with the readings (``parameter = reading``) that flip it."""
    out: Dict[str, List[str]] = {}
    for _, r in table[table["flips"]].iterrows():
        out.setdefault(f"{r['case']}: {r['quantity']}", []).append(
            f"{r['parameter']} = {r['reading']}"
        )
    return out


def verdict(table: "pandas.DataFrame") -> str:
    """``"holds under all readings"`` or ``"depends on reading: <n>
    claims"`` (``n`` claims whose verdict some alternative reading flips)."""
    n = len(flipped(table))
    if n == 0:
        return HOLDS
    return f"depends on reading: {n} claim{'s' if n != 1 else ''}"


PARTIAL = "partial"
"""How a verdict over some parameters' readings only begins."""


def choose(names: Sequence[str], only: Optional[Sequence[str]], what: str) -> List[str]:
    """The slugs of ``names`` that ``only`` names (each by its name or slug,
    case-insensitive; None: every one), in ``names``' order. ValueError in
    one line naming the unknown ones and the allowed ones, e.g.
    ``"readings: no parameter 'x'; allowed: ..."`` (``what`` =
    ``"readings: no parameter"``)."""
    slugs = {slug(n): n for n in names}
    if only is None:
        return list(slugs)
    chosen: List[str] = []
    unknown = []
    for name in only:
        s = slug(name)
        if s in slugs:
            if s not in chosen:
                chosen.append(s)
        else:
            unknown.append(name)
    if unknown:
        allowed = ", ".join(s if s == n else f"{s} ({n})" for s, n in slugs.items()) or "none"
        raise ValueError(f"{what} {', '.join(map(repr, unknown))}; allowed: {allowed}")
    return chosen


def select(readings: Sequence[Reading], only: Optional[Sequence[str]]) -> Tuple[List[Reading], List[str]]:
    """The alternative readings that ``only`` names, in declaration order,
    and the labels of what was named. Each entry of ``only`` is a parameter
    (every alternative of it) or ``PARAMETER/READING`` (that alternative
    alone), each part by its name or slug, case-insensitive (the first
    ``/`` separates them: a reading's name may contain one, e.g. ``"lambda
    scope/50 flows/s per edge"``). None: every alternative. ValueError in
    one line naming the unknown part and the allowed ones (:func:`choose`)."""
    params = list(parameters(readings))
    alternatives = [r for r in readings if not r.registered]
    if only is None:
        return alternatives, [slug(p) for p in params]
    # Parameter slug -> the reading slugs named (None: every alternative).
    picked: Dict[str, Optional[List[str]]] = {}
    for entry in only:
        param, sep, name = entry.partition("/")
        [ps] = choose(params, [param], "readings: no parameter")
        if not sep:
            picked[ps] = None
            continue
        names = [r.name for r in alternatives if r.parameter_slug == ps]
        [rs] = choose(names, [name], f"readings: parameter {ps} has no alternative reading")
        got = picked.setdefault(ps, [])
        if got is not None and rs not in got:
            got.append(rs)

    def named(r: Reading) -> bool:
        got = picked.get(r.parameter_slug, [])
        return got is None or r.slug in got

    labels = [
        label
        for ps in map(slug, params)
        if ps in picked
        for label in ([ps] if picked[ps] is None else [f"{ps}/{rs}" for rs in picked[ps] or []])
    ]
    return [r for r in alternatives if r.parameter_slug in picked and named(r)], labels


def run_readings(
    rep: "Reproduction",
    out: Path,
    registered: "pandas.DataFrame",
    *,
    measure: Callable[[Reading, Path], "pandas.DataFrame"],
    only: Optional[Sequence[str]] = None,
) -> Dict[str, Any]:
    """Run every alternative reading of ``rep`` (one parameter varied at a
    time) into ``out/readings/<parameter>/<reading>/`` with ``measure(reading,
    dir)`` (the reproduction's run by its seed plan + its ``compare``; each
    directory gets its own ``comparison.parquet``), write
    ``out/sensitivity.parquet``, and return the ``reproduction.json``
    entries: ``sensitivity`` (the verdict), ``sensitivity_flips`` (claim →
    readings that flip it) and ``readings`` (:func:`describe`). ``only``
    (parameters or ``PARAMETER/READING``, :func:`select`): run those
    alternatives only; the verdict then starts with "partial" and names
    them."""
    from ..files import atomic_write_parquet
    from ..store import frame_to_arrow

    if rep.experiment is None:
        raise ValueError(f"reproduction {rep.id} is analytic: it has no experiment to vary")
    check(rep.readings, f"reproduction {rep.id} readings")
    chosen, labels = select(rep.readings, only)
    alternatives: List[Tuple[Reading, "pandas.DataFrame"]] = []
    for r in chosen:
        d = out / "readings" / r.parameter_slug / r.slug
        table = measure(r, d)
        atomic_write_parquet(d / "comparison.parquet", frame_to_arrow(table))
        alternatives.append((r, table))
    sens = sensitivity_table(registered, alternatives, rep.readings)
    atomic_write_parquet(out / "sensitivity.parquet", frame_to_arrow(sens))
    said = verdict(sens)
    if len(chosen) < sum(not r.registered for r in rep.readings):
        said = f"{PARTIAL} ({', '.join(labels)} only): {said}"
    return {
        "sensitivity": said,
        "sensitivity_flips": flipped(sens),
        "readings": describe(rep.readings),
    }


__all__ = [
    "HOLDS",
    "NOT_RUN",
    "PARTIAL",
    "Reading",
    "SENSITIVITY_COLUMNS",
    "check",
    "choose",
    "claim_key",
    "describe",
    "flipped",
    "matched",
    "parameters",
    "run_readings",
    "select",
    "sensitivity_table",
    "slug",
    "verdict",
]

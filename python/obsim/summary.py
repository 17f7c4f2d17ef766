"""The run summary printed by ``obsim run`` (rich tables).

:func:`render` prints, in order, only the sections the run has:

* the TCP flows (or a "no TCP flows" line);
* with optical links, the OBS paths: bursts sent, lost and blocked per
  (ingress, egress, class) after warm-up, the worst :data:`MAX_PATHS` by
  loss ratio when there are more, and the overall burst loss ratio; then
  the wavelength utilisation (mean and max over the wavelengths of each
  optical link direction, the busiest :data:`MAX_PATHS` when there are more);
* the UDP cross-traffic sources (``[[traffic]]``);
* run statistics (events, times, bursts assembled, synchronization index);
* a last line saying where the results were written, or that nothing was.
"""

from __future__ import annotations

import math
import os
from typing import Any, Dict, List, Optional, Union

from rich.console import Console
from rich.table import Table

from .results import Results

MAX_PATHS = 10
"""At most this many OBS paths (and optical link directions) are listed; the
others are counted in one line (all are in ``paths.parquet`` /
``Results.paths``)."""

NOTHING_SAVED = "nothing saved (run with --out DIR to write the results)"
"""The last line of the summary of a run whose results were not written."""


def _table(title: str, *columns: str) -> Table:
    """A left-titled rich table with ``columns``; a name starting with ``>``
    is a right-justified (numeric) column."""
    t = Table(title=title, title_justify="left", caption_justify="left")
    for c in columns:
        if c.startswith(">"):
            t.add_column(c[1:], justify="right")
        else:
            t.add_column(c)
    return t


def _fmt_int(v: Any) -> str:
    return "-" if v is None else f"{int(v):,}"


def _fmt_float(v: Any, digits: int = 3) -> str:
    if v is None:
        return "-"
    v = float(v)
    if v != v:  # NaN
        return "-"
    return f"{v:,.{digits}f}"


def _finite(v: Any) -> bool:
    try:
        return v is not None and math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def _ratio(num: float, den: float) -> Optional[float]:
    return num / den if den else None


def _rows(table: Any) -> List[Dict[str, Any]]:
    """The rows of an Arrow table as dicts (a missing column reads as None)."""
    cols = table.to_pydict()
    names = list(cols)
    return [{k: cols[k][i] for k in names} for i in range(table.num_rows)]


def _title(res: Results) -> str:
    name = res.meta.get("scenario") or res.scenario.get("name", "")
    return f"obsim: {name} (seed {res.seed})"


def print_summary(
    res: Results,
    max_rows: int = 40,
    console: Optional[Console] = None,
    max_paths: int = MAX_PATHS,
) -> None:
    """Print every section of the summary of ``res`` but the last line.

    ``max_rows`` bounds the flows and traffic sources listed, ``max_paths``
    the OBS paths and optical link directions.
    """
    console = console or Console()
    if res.flows.num_rows:
        _print_flows(res, max_rows, console)
    else:
        console.print(f"[bold]{_title(res)}[/bold]: no TCP flows", soft_wrap=True)
    _print_optical(res, max_paths, console)
    _print_traffic(res, max_rows, console)
    _print_stats(res, console)


def saved_line(out: Union[None, str, "os.PathLike[str]"]) -> str:
    """The last line of the summary: where the results went, or that nothing was saved."""
    return NOTHING_SAVED if out is None else f"results written to {os.fspath(out)}"


def render(
    res: Results,
    out: Union[None, str, "os.PathLike[str]"] = None,
    *,
    max_rows: int = 40,
    max_paths: int = MAX_PATHS,
    console: Optional[Console] = None,
) -> None:
    """Print the summary of ``res`` (:func:`print_summary`), then one line:
    ``results written to OUT`` when ``out`` (the directory the results were
    written to) is given, else :data:`NOTHING_SAVED`."""
    console = console or Console()
    print_summary(res, max_rows=max_rows, console=console, max_paths=max_paths)
    console.print(saved_line(out), markup=False, highlight=False, soft_wrap=True)


def _print_flows(res: Results, max_rows: int, console: Console) -> None:
    flows = res.flows.to_pydict()
    n = res.flows.num_rows

    t = _table(_title(res), ">flow", "path", ">goodput Mbit/s", ">sent", ">retx", ">TD", ">TO", ">drops")

    def col(key: str, i: int) -> Any:
        values = flows.get(key)
        return values[i] if values is not None else None

    for i in range(min(n, max_rows)):
        gp = col("goodput_bps", i)
        t.add_row(
            str(col("flow", i)),
            f"{col('src', i)} -> {col('dst', i)}",
            _fmt_float(None if gp is None else gp / 1e6),
            _fmt_int(col("segments_sent", i)),
            _fmt_int(col("retransmits", i)),
            _fmt_int(col("td_events", i)),
            _fmt_int(col("to_events", i)),
            _fmt_int(col("packets_dropped", i)),
        )
    if n > max_rows:
        t.add_row("...", f"{n - max_rows} more flows", "", "", "", "", "", "")
    s = res.summary()
    t.add_section()
    t.add_row(
        "total",
        f"{n} flow{'s' if n != 1 else ''}",
        _fmt_float(s["goodput_bps"] / 1e6),
        _fmt_int(s["segments_sent"]),
        _fmt_int(s["retransmits"]),
        _fmt_int(s["td_events"]),
        _fmt_int(s["to_events"]),
        _fmt_int(s["packets_dropped"]),
        style="bold",
    )
    console.print(t)


def _loss_key(row: Dict[str, Any]) -> float:
    """Sort key, worst first: loss ratio (an undefined one last), then lost bursts."""
    ratio = row.get("loss_ratio")
    return -float(ratio) if ratio is not None and _finite(ratio) else 1.0


def _print_optical(res: Results, max_paths: int, console: Console) -> None:
    paths = _rows(res.paths)
    if paths:
        n = len(paths)
        shown = paths
        title = f"OBS paths: bursts after warm-up ({n} path{'s' if n != 1 else ''})"
        if n > max_paths:
            shown = sorted(paths, key=lambda r: (_loss_key(r), -(r.get("lost") or 0)))[:max_paths]
            title = f"OBS paths: the {max_paths} worst of {n} by burst loss ratio (bursts after warm-up)"
        t = _table(title, "path", "class", ">hops", ">sent", ">lost", ">blocked", ">loss ratio")
        for r in shown:
            t.add_row(
                f"{r.get('ingress')} -> {r.get('egress')}",
                str(r.get("class", "")),
                _fmt_int(r.get("hops")),
                _fmt_int(r.get("bursts")),
                _fmt_int(r.get("lost")),
                _fmt_int(r.get("blocked")),
                _fmt_float(r.get("loss_ratio"), 4),
            )
        if n > len(shown):
            more = n - len(shown)
            t.caption = f"{more} more path{'s' if more != 1 else ''} not shown (all in Results.paths)"
        sent = sum(int(r.get("bursts") or 0) for r in paths)
        lost = sum(int(r.get("lost") or 0) for r in paths)
        blocked = sum(int(r.get("blocked") or 0) for r in paths)
        if n > 1:
            t.add_section()
            t.add_row(
                "total",
                f"{n} paths",
                "",
                _fmt_int(sent),
                _fmt_int(lost),
                _fmt_int(blocked),
                _fmt_float(_ratio(lost, sent), 4),
                style="bold",
            )
        console.print(t)
        console.print(
            f"burst loss ratio {_fmt_float(_ratio(lost, sent), 4)}: "
            f"{lost:,} of {sent:,} bursts lost, {blocked:,} blocked",
            highlight=False,
            soft_wrap=True,
        )
    _print_wavelengths(res, max_paths, console)


def _print_wavelengths(res: Results, max_paths: int, console: Console) -> None:
    rows = _rows(res.wavelengths)
    if not rows:
        return
    per_link: Dict[Any, Dict[str, Any]] = {}
    for r in rows:
        d = per_link.setdefault(
            r.get("link"), {"from": r.get("from"), "to": r.get("to"), "util": [], "bursts": 0}
        )
        d["util"].append(float(r.get("utilisation") or 0.0))
        d["bursts"] += int(r.get("bursts") or 0)
    links = {(r.get("from"), r.get("to")): r for r in _rows(res.links)}
    dirs = []
    for d in per_link.values():
        u = d["util"]
        link = links.get((d["from"], d["to"]), {})
        dirs.append(
            {
                "name": f"{d['from']} -> {d['to']}",
                "n": len(u),
                "bursts": d["bursts"],
                "blocked": link.get("bursts_blocked"),
                "mean": sum(u) / len(u),
                "max": max(u),
            }
        )
    n = len(dirs)
    shown = dirs
    title = f"wavelength utilisation ({n} optical link direction{'s' if n != 1 else ''})"
    if n > max_paths:
        shown = sorted(dirs, key=lambda d: (-d["mean"], -d["max"]))[:max_paths]
        title = f"wavelength utilisation: {max_paths} busiest of {n} link directions"
    t = _table(title, "link", ">wavelengths", ">bursts", ">blocked", ">mean", ">max")
    for d in shown:
        t.add_row(
            d["name"],
            str(d["n"]),
            _fmt_int(d["bursts"]),
            _fmt_int(d["blocked"]),
            _fmt_float(d["mean"]),
            _fmt_float(d["max"]),
        )
    if n > len(shown):
        more = n - len(shown)
        t.caption = f"{more} more not shown (all in Results.wavelengths)"
    all_u = [u for d in per_link.values() for u in d["util"]]
    t.add_section()
    t.add_row(
        "all",
        str(len(all_u)),
        _fmt_int(sum(d["bursts"] for d in dirs)),
        "",
        _fmt_float(sum(all_u) / len(all_u)),
        _fmt_float(max(all_u)),
        style="bold",
    )
    console.print(t)


def _print_traffic(res: Results, max_rows: int, console: Console) -> None:
    rows = _rows(res.traffic)
    if not rows:
        return
    n = len(rows)
    t = _table(
        f"UDP cross traffic ({n} source{'s' if n != 1 else ''}, datagrams)",
        ">source", "group", "path", ">sent", ">delivered", ">dropped", ">Mbit/s",
    )
    for r in rows[:max_rows]:
        tp = r.get("throughput_bps")
        t.add_row(
            str(r.get("source")),
            str(r.get("group", "")),
            f"{r.get('src')} -> {r.get('dst')}",
            _fmt_int(r.get("packets_sent")),
            _fmt_int(r.get("packets_delivered")),
            _fmt_int(r.get("packets_dropped")),
            _fmt_float(None if tp is None else tp / 1e6),
        )
    if n > max_rows:
        t.add_row("...", f"{n - max_rows} more sources", "", "", "", "", "")

    def total(key: str) -> int:
        return sum(int(r.get(key) or 0) for r in rows)

    t.add_section()
    t.add_row(
        "total",
        f"{n} source{'s' if n != 1 else ''}",
        "",
        _fmt_int(total("packets_sent")),
        _fmt_int(total("packets_delivered")),
        _fmt_int(total("packets_dropped")),
        _fmt_float(sum(float(r.get("throughput_bps") or 0.0) for r in rows) / 1e6),
        style="bold",
    )
    console.print(t)


def _print_stats(res: Results, console: Console) -> None:
    s = res.summary()
    stats = Table.grid(padding=(0, 2))
    stats.add_column(style="dim")
    stats.add_column(justify="right")
    stats.add_row("events", _fmt_int(s["events"]))
    stats.add_row("simulated time", f"{_fmt_float(s['end_time_s'])} s")
    stats.add_row("wall time", f"{_fmt_float(s['wall_s'], 4)} s")
    stats.add_row("events/s", _fmt_int(s["events_per_s"]))
    if res.flows.num_rows:
        stats.add_row("delivered segments/s", _fmt_int(s["segments_delivered_per_s"]))
    assembled = _assembled(res)
    if assembled:
        stats.add_row("bursts assembled", _fmt_int(assembled))
        if _finite(res.meta.get("flows_per_burst_mean")):
            stats.add_row("flows per burst (mean)", _fmt_float(res.meta["flows_per_burst_mean"], 2))
    if res.flows.num_rows and _finite(res.meta.get("sync_index")):
        stats.add_row("synchronization index", _fmt_float(res.meta["sync_index"]))
    console.print(stats)


def _assembled(res: Results) -> int:
    """Bursts assembled at the edges after warm-up (the ``packets_per_burst``
    histogram counts each once)."""
    b = res.bursts.to_pydict()
    return sum(
        int(c)
        for m, c in zip(b.get("metric", []), b.get("count", []))
        if m == "packets_per_burst" and c is not None
    )


__all__ = ["MAX_PATHS", "NOTHING_SAVED", "print_summary", "render", "saved_line"]

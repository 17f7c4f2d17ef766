"""The run summary printed by ``obsim run`` (rich tables)."""

from __future__ import annotations

from typing import Any, Optional

from rich.console import Console
from rich.table import Table

from .results import Results


def _fmt_int(v: Any) -> str:
    return "-" if v is None else f"{int(v):,}"


def _fmt_float(v: Any, digits: int = 3) -> str:
    if v is None:
        return "-"
    v = float(v)
    if v != v:  # NaN
        return "-"
    return f"{v:,.{digits}f}"


def print_summary(res: Results, max_rows: int = 40, console: Optional[Console] = None) -> None:
    """Print per-flow results, totals and run statistics of ``res``."""
    console = console or Console()
    flows = res.flows.to_pydict()
    n = res.flows.num_rows
    name = res.meta.get("scenario") or res.scenario.get("name", "")

    t = Table(title=f"obsim: {name} (seed {res.seed})", title_justify="left")
    t.add_column("flow", justify="right")
    t.add_column("path")
    t.add_column("goodput Mbit/s", justify="right")
    t.add_column("sent", justify="right")
    t.add_column("retx", justify="right")
    t.add_column("TD", justify="right")
    t.add_column("TO", justify="right")
    t.add_column("drops", justify="right")

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
        f"{n} flows",
        _fmt_float(s["goodput_bps"] / 1e6),
        _fmt_int(s["segments_sent"]),
        _fmt_int(s["retransmits"]),
        _fmt_int(s["td_events"]),
        _fmt_int(s["to_events"]),
        _fmt_int(s["packets_dropped"]),
        style="bold",
    )
    console.print(t)

    stats = Table.grid(padding=(0, 2))
    stats.add_column(style="dim")
    stats.add_column(justify="right")
    stats.add_row("events", _fmt_int(s["events"]))
    stats.add_row("simulated time", f"{_fmt_float(s['end_time_s'])} s")
    stats.add_row("wall time", f"{_fmt_float(s['wall_s'], 4)} s")
    stats.add_row("events/s", _fmt_int(s["events_per_s"]))
    stats.add_row("delivered segments/s", _fmt_int(s["segments_delivered_per_s"]))
    console.print(stats)

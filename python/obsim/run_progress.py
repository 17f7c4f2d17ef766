"""What ``obsim run`` shows while a run goes on: a progress bar on a terminal
and one warning line when the run would take unreasonably long.

Both are fed by the ``progress(now_s, end_s, events)`` callback of
:func:`obsim.run`, which only observes the run: results are the same with or
without them. ``rich`` is imported only when the bar is shown.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from typing import Any, Optional, TextIO

LONG_RUN_WARN_S = 600.0
"""Projected wall time, in seconds (10 minutes), above which ``obsim run``
prints one warning line with its estimate (see :data:`ESTIMATE_AFTER_S`)."""

ESTIMATE_AFTER_S = 1.0
"""Wall seconds a run has to go on before its total wall time is projected
(elapsed wall time times simulated end time over simulated time reached);
earlier projections are too noisy."""

BAR_AFTER_S = 0.3
"""Wall seconds before the progress bar appears, so short runs do not flicker."""

REFRESH_S = 0.1
"""Wall seconds between two redraws of the progress bar."""


def format_duration(seconds: float) -> str:
    """A wall time rounded for a person: ``42 s``, ``12 min``, ``3.5 h``,
    ``12 days``, ``3.2 years``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds < 730 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365.25 * 86400):.3g} years"


def _clock(seconds: float) -> str:
    """``H:MM:SS`` up to 100 hours, then :func:`format_duration`."""
    if seconds >= 100 * 3600:
        return format_duration(seconds)
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class RunProgress:
    """The ``progress`` callback of ``obsim run``, used as a context manager
    around :func:`obsim.run`.

    ``bar``: draw a rich progress bar on ``stream`` (simulated time done and
    total, wall time, ETA, events/s); it is removed when the run ends, so the
    terminal keeps only what is printed after it. ``warn``: print one line to
    ``stream`` if the projected wall time exceeds :data:`LONG_RUN_WARN_S`.
    The ETA and the estimate assume the run goes to its ``duration``; a run
    that stops when its flows are done ends sooner.
    """

    def __init__(self, *, bar: bool, warn: bool, stream: Optional[TextIO] = None) -> None:
        self.bar = bar
        self.warn = warn
        self.stream = stream if stream is not None else sys.stderr
        self.warned = False
        self.now_s = 0.0
        self.end_s = 0.0
        self._t0 = time.perf_counter()
        self._progress: Any = None
        self._task: Any = None
        self._drawn = float("-inf")
        self._drawing = False
        self._sigint = False
        self._old_handler: Any = None

    def __enter__(self) -> "RunProgress":
        self._t0 = time.perf_counter()
        # Ctrl-C while rich draws would leave the terminal half drawn (cursor
        # hidden): it is deferred to the end of the callback. Only where the
        # handler can be set and Python's own one is in place.
        if (
            self.bar
            and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self._old_handler = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._old_handler is not None:
            signal.signal(signal.SIGINT, self._old_handler)
            self._old_handler = None
        if self._progress is not None:
            progress, self._progress = self._progress, None
            try:
                progress.stop()
            except Exception:  # noqa: BLE001 - never hide the run's outcome behind the bar's
                pass

    def _on_sigint(self, signum: int, frame: Any) -> None:
        if self._drawing:
            self._sigint = True
        else:
            raise KeyboardInterrupt

    def __call__(self, now_s: float, end_s: float, events: int) -> None:
        """Called by the engine about every 20 ms of wall time."""
        self._drawing = True
        try:
            self._step(now_s, end_s, events)
        finally:
            self._drawing = False
        if self._sigint:
            self._sigint = False
            raise KeyboardInterrupt

    def _step(self, now_s: float, end_s: float, events: int) -> None:
        self.now_s, self.end_s = now_s, end_s
        wall = time.perf_counter() - self._t0
        if self.bar and wall >= BAR_AFTER_S:
            self._update_bar(now_s, end_s, events, wall)
        if self.warn and not self.warned and wall >= ESTIMATE_AFTER_S and now_s > 0:
            projected = wall * end_s / now_s
            if projected > LONG_RUN_WARN_S:
                self.warned = True
                self._print(
                    f"warning: this run would take about {format_duration(projected)} of wall time "
                    f"({now_s:.4g} of {end_s:.4g} simulated s in {wall:.1f} s); "
                    "Ctrl-C stops it, keeping the results so far with --out"
                )

    def _print(self, line: str) -> None:
        if self._progress is not None:
            # Erase the bar, print, draw the bar again below the line (rich's
            # console.print above a live display can repeat the line).
            self._progress.stop()
            print(line, file=self.stream, flush=True)
            self._progress.start()
        else:
            print(line, file=self.stream, flush=True)

    def _update_bar(self, now_s: float, end_s: float, events: int, wall: float) -> None:
        if self._progress is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn

            self._progress = Progress(
                TextColumn("simulating"),
                BarColumn(),
                TextColumn("{task.fields[sim]}"),
                TextColumn("wall {task.fields[wall]}"),
                TextColumn("ETA {task.fields[eta]}"),
                TextColumn("{task.fields[rate]}"),
                console=Console(file=self.stream),
                transient=True,
                # Redrawn from this callback only: no refresh thread racing
                # the warning line (which it could print twice).
                auto_refresh=False,
            )
            self._task = self._progress.add_task("run", total=end_s, sim="", wall="", eta="", rate="")
            self._progress.start()
        rate = events / wall if wall > 0 else 0.0
        # Remaining simulated time at the mean speed so far.
        eta = _clock(wall * (end_s - now_s) / now_s) if now_s > 0 else "?"
        self._progress.update(
            self._task,
            total=end_s,
            completed=now_s,
            sim=f"{now_s:.4g}/{end_s:.4g} s simulated",
            wall=_clock(wall),
            eta=eta,
            rate=f"{rate:,.0f} events/s",
        )
        if wall - self._drawn >= REFRESH_S:
            self._drawn = wall
            self._progress.refresh()


def show_bar(quiet: bool) -> bool:
    """Whether ``obsim run`` draws the progress bar: not with ``--quiet``, and
    only when both stdout and stderr are terminals (the bar goes to stderr)."""
    if quiet:
        return False
    try:
        return sys.stdout.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


__all__ = [
    "BAR_AFTER_S",
    "REFRESH_S",
    "ESTIMATE_AFTER_S",
    "LONG_RUN_WARN_S",
    "RunProgress",
    "format_duration",
    "show_bar",
]

"""``obsim run`` while it runs: the progress bar on a terminal (none when
piped or with ``--quiet``), the warning for a run that would take too long,
and Ctrl-C (one line, exit status 130, partial results in ``--out``)."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Tuple

import pytest
from conftest import small_scenario

import obsim
from obsim import RunInterrupted
from obsim.run_progress import LONG_RUN_WARN_S, RunProgress, format_duration

ROOT = Path(__file__).resolve().parents[1]
_ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[()][A-Za-z0-9])")
WARNING = "warning: this run would take about"


def _long_scenario(tmp_path: Path) -> Path:
    """The dumbbell scenario run for years of simulated time: projected far
    above LONG_RUN_WARN_S on any machine."""
    text = (ROOT / "scenarios" / "dumbbell.toml").read_text(encoding="utf-8")
    assert 'duration = "100 s"' in text
    path = tmp_path / "long.toml"
    path.write_text(text.replace('duration = "100 s"', 'duration = "500000000 s"'), encoding="utf-8")
    return path


def _read_until(fd: int, marker: str, timeout: float) -> str:
    """Read from ``fd`` until ``marker`` appears in what was read (or EOF)."""
    buf = b""
    deadline = time.monotonic() + timeout
    while marker.encode() not in buf:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} within {timeout} s; got {buf.decode(errors='replace')!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the pty's other side closed
            break
        if not chunk:
            break
        buf += chunk
    return buf.decode(errors="replace")


def _read_all(fd: int, proc: subprocess.Popen, timeout: float) -> str:
    buf = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
        elif proc.poll() is not None:
            break
    return buf.decode(errors="replace")


def _lines(text: str) -> List[str]:
    """The visible lines of terminal output: escape sequences removed, split
    at newlines and carriage returns (the bar redraws in place)."""
    plain = _ANSI.sub("", text)
    return [ln.strip() for ln in re.split(r"[\r\n]+", plain) if ln.strip()]


def _is_bar(line: str) -> bool:
    return "simulating" in line or "events/s" in line


def _sigint_as_typed() -> None:
    """In the child before exec: SIGINT at its default disposition, as for a
    command typed at an interactive shell. A test run started in the
    background by a non-interactive shell (CI, ``cmd &``) inherits SIGINT
    ignored, and Python then installs no ``KeyboardInterrupt`` handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _spawn_on_pty(args: List[str]) -> Tuple[subprocess.Popen, int]:
    """Start ``python -m obsim ARGS`` with stdout and stderr on a new
    pseudo-terminal; return the process and the terminal's master end."""
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "obsim", *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        env={**os.environ, "COLUMNS": "160", "TERM": "xterm"},
        preexec_fn=_sigint_as_typed,
    )
    os.close(slave)
    return proc, master


def _run_under_pty(args: List[str], stop_at: str, timeout: float = 120) -> Tuple[int, str, str]:
    """Run ``python -m obsim ARGS`` with stdout and stderr on a pseudo-terminal,
    send SIGINT once ``stop_at`` was printed; return the exit status, the
    output up to the signal and the output after it."""
    proc, master = _spawn_on_pty(args)
    try:
        before = _read_until(master, stop_at, timeout)
        proc.send_signal(signal.SIGINT)
        after = _read_all(master, proc, timeout)
        status = proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return status, before, after


@pytest.mark.engine
def test_ctrl_c_under_a_terminal_one_line_status_130_partial_results(tmp_path: Path) -> None:
    out = tmp_path / "out"
    status, before, after = _run_under_pty(
        ["run", str(_long_scenario(tmp_path)), "--out", str(out)], stop_at=WARNING
    )
    # The progress bar was drawn, then the warning with the estimate.
    assert any(_is_bar(ln) for ln in _lines(before)), before
    assert "events/s" in before and "ETA " in before and "wall 0:00:0" in before
    assert status == 130, (before, after)
    text = _lines(before + after)
    assert "Traceback" not in before + after
    assert "\x1b[?25h" in after  # the cursor rich hid is shown again
    shown = [ln for ln in text if not _is_bar(ln)]
    warnings = [ln for ln in shown if ln.startswith(WARNING)]
    assert len(warnings) == 1, shown
    rest = [ln for ln in shown if not ln.startswith(WARNING)]
    assert len(rest) == 1, shown  # Ctrl-C: one line
    assert rest[0].startswith("interrupted at simulated time "), rest
    assert f"partial results written to {out}" in rest[0]
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    assert meta["partial"] is True
    assert meta["run"]["stop_reason"] == "interrupted"
    assert 0 < meta["run"]["end_time_s"] < 500_000_000
    assert (out / "flows.parquet").is_file() and (out / "timing.json").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging left


@pytest.mark.engine
def test_piped_no_bar_warning_and_ctrl_c_without_out(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "obsim", "run", str(_long_scenario(tmp_path))],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_sigint_as_typed,
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline().decode()
        assert first.startswith(WARNING), first
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert out == b""
    lines = err.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("interrupted at simulated time ")
    assert lines[0].endswith("nothing saved (no --out)")
    assert "\x1b" not in first + err.decode()


def _complete_under_pty(args: List[str], timeout: float = 300) -> Tuple[int, str]:
    proc, master = _spawn_on_pty(args)
    try:
        text = _read_all(master, proc, timeout)
        status = proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return status, text


@pytest.mark.engine
def test_quiet_under_a_terminal_prints_nothing(tmp_path: Path) -> None:
    out = tmp_path / "o"
    status, text = _complete_under_pty(
        ["run", str(ROOT / "scenarios" / "dumbbell.toml"), "--quiet", "--out", str(out)]
    )
    assert status == 0 and text == "", text
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    assert "partial" not in meta and meta["run"]["stop_reason"] == "time"


@pytest.mark.engine
def test_complete_run_on_a_terminal_ends_with_the_summary(tmp_path: Path) -> None:
    """The bar (if the run lasted long enough to draw it) is gone at the end:
    what stays is the summary."""
    status, text = _complete_under_pty(["run", str(ROOT / "scenarios" / "dumbbell.toml")])
    assert status == 0, text
    assert "Traceback" not in text
    assert "nothing" in _lines(text)[-1], _lines(text)[-3:]


def test_run_progress_warns_once_above_the_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    p = RunProgress(bar=False, warn=True)
    with p:
        p._t0 -= 2.0  # two wall seconds in, a thousandth of the run done
        p(1.0, 1000.0, 10)
        p(2.0, 1000.0, 20)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(WARNING), err
    assert format_duration(2000.0) in err[0]
    quiet = RunProgress(bar=False, warn=True)
    with quiet:
        quiet._t0 -= 2.0
        quiet(1.0, LONG_RUN_WARN_S / 4, 10)  # projected: half the threshold
    assert capsys.readouterr().err == ""


def test_format_duration() -> None:
    assert format_duration(42) == "42 s"
    assert format_duration(720) == "12 min"
    assert format_duration(3.5 * 3600) == "3.5 h"
    assert format_duration(12 * 86400) == "12 days"
    assert format_duration(500e6) == "15.8 years"


def test_clock() -> None:
    from obsim.run_progress import _clock

    assert _clock(0.4) == "0:00:00"
    assert _clock(3725) == "1:02:05"
    assert _clock(200 * 3600) == "8 days"


def _interrupted_run() -> RunInterrupted:

    text = small_scenario(loss=0.01).replace('duration = "5 s"', 'duration = "200 s"')

    def interrupt(now: float, end: float, events: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(RunInterrupted) as info:
        obsim.run(text, progress=interrupt)
    return info.value


@pytest.mark.engine
def test_partial_results_that_out_cannot_take_go_to_a_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C, then the write to --out fails: the partial results are kept in
    a fallback directory named in the one line; status 130."""
    from obsim import cli
    from obsim.results import Results

    e = _interrupted_run()
    scenario = tmp_path / "s.toml"
    scenario.write_text(e.results.scenario_text, encoding="utf-8")
    out = tmp_path / "out"
    fallback = tmp_path / "fallback"

    def run(*args: object, **kwargs: object) -> None:
        raise e

    real_write = Results.write

    def write(self: Results, where: "os.PathLike[str]") -> Path:
        if Path(where) == out:
            raise OSError(28, "No space left on device")
        return real_write(self, where)

    monkeypatch.setattr(cli, "run", run)
    monkeypatch.setattr(Results, "write", write)
    monkeypatch.setattr(cli, "fallback_dirs", lambda: [fallback])
    assert cli.main(["run", str(scenario), "--out", str(out)]) == cli.EXIT_INTERRUPTED
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    assert "No space left on device" in err[0] and f"written to {fallback} instead" in err[0]
    meta = json.loads((fallback / "meta.json").read_text(encoding="utf-8"))
    assert meta["partial"] is True and meta["run"]["stop_reason"] == "interrupted"
    assert not out.exists()


def test_ctrl_c_while_drawing_is_raised_after_the_draw() -> None:
    """SIGINT during the callback's drawing is deferred to its end, so the
    bar is never left half drawn; otherwise it raises at once."""
    p = RunProgress(bar=False, warn=False)
    p._drawing = True
    p._on_sigint(signal.SIGINT, None)  # noted, not raised
    p._drawing = False
    with pytest.raises(KeyboardInterrupt):
        p(1.0, 10.0, 100)
    p(2.0, 10.0, 200)  # raised once
    with pytest.raises(KeyboardInterrupt):
        p._on_sigint(signal.SIGINT, None)

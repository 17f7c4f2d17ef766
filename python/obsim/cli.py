"""The ``obsim`` command line.

Commands::

    obsim run SCENARIO [--seed N] [--out DIR] [--quiet]   run, print a summary, optionally write results
    obsim check SCENARIO                                   validate only
    obsim experiment run EXPERIMENT.toml [--out DIR] [--jobs N] [--executor local|dask] [--scheduler ADDR]
    obsim experiment status DIR                            done / failed / pending runs
    obsim report DIR [--output FILE]                       HTML report (figures, tables, versions)
    obsim reproduce --list | ID [--quick] [--readings [PARAMETER[/READING] ...]] [--series [NAME ...]] [--jobs N]
        [--out DIR] [--reuse DIR ...]
    obsim reproduce --summary [--root DIR]                 trust scoreboard of the last runs
    obsim --version

Results are written only when ``--out`` is given (a run is often just a
look at the summary; writing is explicit). ``--out`` is checked before the
run (see :func:`obsim.results.output_problem`), the results are written whole
into a staging directory next to it and moved into place, and a run whose
results cannot be written there still keeps them, in a directory under the
system temporary directory named in the one-line error.

While ``obsim run`` runs, a progress bar is drawn on a terminal (not with
``--quiet`` or when output is piped), and one warning line is printed when
the run is projected to take more than ``LONG_RUN_WARN_S`` (10 minutes, see
:mod:`obsim.run_progress`). Ctrl-C stops it with one line and status 130;
with ``--out``, the results up to the interruption are written there, marked
``"partial": true`` in ``meta.json``.

Exit status: 0 success; 1 the simulation failed (for a sweep: at least one
run failed); 2 the scenario or experiment is invalid, cannot be read, or the
command line is wrong (including an unusable ``--out``, found before the
run); 3 the run finished but its results could not be written to ``--out``
(the message says where they were written instead); 130 interrupted (Ctrl-C;
``obsim run --out`` keeps the partial results, a sweep keeps finished runs:
run the same command again to resume). Every
scenario problem is printed to stderr as one ``path: reason`` line.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from . import _core
from ._core import ConfigError, RunInterrupted, SimulationError
from .api import ScenarioSource, load_source, parse, run

if TYPE_CHECKING:  # pragma: no cover
    from .results import Results

EXIT_OK = 0
"""Success."""
EXIT_SIM_ERROR = 1
"""The scenario is valid but the simulation failed."""
EXIT_CONFIG_ERROR = 2
"""The scenario is invalid or unreadable, or the command line is wrong
(including an ``--out`` that cannot take results, found before the run)."""
EXIT_OUTPUT_ERROR = 3
"""The run finished but its results could not be written to ``--out``; they
were written to the fallback directory named in the message (or, if that
failed too, the message says they are lost)."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT). ``obsim run --out`` then holds the results up to
the interruption, marked ``"partial": true`` in ``meta.json``."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="obsim",
        description="Discrete-event simulator of TCP over optical burst switched networks.",
        epilog="Exit status: 0 ok, 1 simulation error, 2 invalid scenario or usage (or --out "
        "unusable), 3 run finished but results written elsewhere than --out (see message).",
    )
    p.add_argument("--version", action=_Version, help="show the versions and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    r = sub.add_parser("run", help="run a scenario and print a summary")
    r.add_argument("scenario", type=Path, help="scenario file (.toml or .json)")
    r.add_argument("--seed", type=_seed, default=None, help="override simulation.seed")
    r.add_argument(
        "--out",
        type=Path,
        default=None,
        help="write the result tables (.parquet), meta.json and timing.json to this directory, "
        "new or holding earlier results, which are replaced (nothing is written without it)",
    )
    r.add_argument(
        "-q", "--quiet", action="store_true", help="print no summary, progress bar or long-run warning"
    )
    r.add_argument(
        "--max-rows", type=_positive_int, default=40, metavar="N", help="show at most N flows (default 40)"
    )

    c = sub.add_parser("check", help="validate a scenario without running it")
    c.add_argument("scenario", type=Path, help="scenario file (.toml or .json)")

    e = sub.add_parser(
        "emulate",
        help="run real kernel TCP across a scenario flow's OBS path in real time (needs root)",
        description="Creates two network namespaces standing for the flow's hosts and forwards their "
        "packets across the scenario's path as obsim models it (access links, burst assembly, "
        "JET offset, burst loss), in real time. Without --recv/--send, runs a bounded transfer of "
        "--bytes with the kernel's TCP. Removes the namespaces on exit and on Ctrl-C.",
    )
    e.add_argument("scenario", type=Path, help="scenario file (.toml or .json)")
    e.add_argument("--flow", default=None, help="the flow whose path is emulated (default: the first)")
    e.add_argument("--seed", type=_seed, default=None, help="override simulation.seed (burst loss draws)")
    e.add_argument("--bytes", type=_positive_int, default=10_000_000, help="bytes of the built-in transfer")
    e.add_argument("--cc", default=None, help="the sender's TCP congestion control (reno, cubic, ...)")
    e.add_argument("--sack", choices=("on", "off"), default=None, help="SACK in both namespaces")
    e.add_argument(
        "--timeout", type=float, default=120.0, help="give up after this many seconds (default 120)"
    )
    e.add_argument("--recv", default=None, help="receiver command line, run in the destination namespace")
    e.add_argument("--send", default=None, help="sender command line, run in the source namespace")
    e.add_argument(
        "--fifo-priority",
        type=int,
        default=10,
        help="SCHED_FIFO priority of the forwarding loop, 0 for normal scheduling (default 10)",
    )
    e.add_argument(
        "--access-shaping",
        choices=("kernel", "emulator"),
        default="kernel",
        help="shape each sender's access link in its namespace's kernel (tbf; TCP small queues act, as "
        "on a real host) or in the forwarder (default kernel)",
    )
    e.add_argument(
        "--access-bucket",
        type=_bucket,
        default=None,
        help="with kernel shaping, the tbf bucket in bytes (default: two packets or 1 ms at the rate; "
        "1500, one packet, serializes packets as obsim's access link does)",
    )
    e.add_argument(
        "--send-buffer",
        type=_positive_int,
        default=None,
        help="the built-in sender's send buffer fixed at this many bytes (SO_SNDBUFFORCE, no autotuning), "
        "the whole transfer handed to the kernel in one write (default: autotuned, 64 KiB writes)",
    )
    e.add_argument("--out", type=Path, default=None, help="write emulation.json and burst_log.parquet here")

    from .experiment_cli import add_parsers

    add_parsers(sub)
    return p


class _Version(argparse.Action):
    """``--version``, with the package's version looked up only when asked
    (``importlib.metadata`` is slow to import; the other commands never
    need it)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: Optional[str] = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from . import __version__

        print(f"obsim {__version__} (obsim-core {_core.__version__})")
        parser.exit()


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in [0, 2**64 - 1]: {text}")
    return value


def _bucket(text: str) -> int:
    """``emulate --access-bucket``: bytes, at least one 1500-byte packet."""
    value = _positive_int(text)
    if value < 1500:
        raise argparse.ArgumentTypeError(f"must hold one 1500-byte packet: {text}")
    return value


def _positive_int(text: str) -> int:
    """An argument that must be a whole number >= 1 (``--max-rows``)."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text}")
    return value


def _err(*lines: str) -> None:
    for line in lines:
        print(line, file=sys.stderr)


def _report_config_error(scenario: Path, e: ConfigError) -> int:
    errors = list(getattr(e, "errors", []) or [(getattr(e, "path", ""), str(e))])
    n = len(errors)
    _err(f"error: invalid scenario {scenario} ({n} problem{'s' if n != 1 else ''}):")
    for path, reason in errors:
        _err(f"  {path}: {reason}" if path else f"  {reason}")
    return EXIT_CONFIG_ERROR


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``obsim`` command; returns the exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # outside a run (during one: _run, _interrupted)
        _err("interrupted")
        return EXIT_INTERRUPTED


def _main(argv: Optional[Sequence[str]]) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("experiment", "report", "reproduce"):
        from .experiment_cli import dispatch

        return dispatch(args)
    if args.command == "emulate":
        return _emulate(args)
    try:
        src = load_source(args.scenario)
    except (OSError, UnicodeDecodeError) as e:
        _err(f"error: cannot read scenario: {e}")
        return EXIT_CONFIG_ERROR
    try:
        if args.command == "check":
            return _check(args, src)
        return _run(args, src)
    except ConfigError as e:
        return _report_config_error(args.scenario, e)
    except SimulationError as e:
        _err(f"error: simulation failed: {e}")
        return EXIT_SIM_ERROR


def _emulate(args: argparse.Namespace) -> int:
    import shlex

    from .emulate import EmulateError, EmulationInterrupted, emulate, privilege_problem

    problem = privilege_problem()
    if problem:
        _err(f"error: {problem}")
        return EXIT_CONFIG_ERROR
    if (args.recv is None) != (args.send is None):
        _err("error: --recv and --send go together (or neither, for the built-in transfer)")
        return EXIT_CONFIG_ERROR
    try:
        src = load_source(args.scenario)
    except (OSError, UnicodeDecodeError) as e:
        _err(f"error: cannot read scenario: {e}")
        return EXIT_CONFIG_ERROR
    if args.out is not None:
        from .results import MIN_FREE_BYTES, output_problem

        out_problem = output_problem(args.out, MIN_FREE_BYTES)
        if out_problem is not None:
            _err(f"error: --out {out_problem}")
            return EXIT_CONFIG_ERROR
    commands = None if args.recv is None else (shlex.split(args.recv), shlex.split(args.send))
    try:
        em = emulate(
            src.text,
            fmt=src.format,
            flow=args.flow,
            seed=args.seed,
            nbytes=args.bytes,
            congestion_control=args.cc,
            sack=None if args.sack is None else args.sack == "on",
            timeout_s=args.timeout,
            fifo_priority=args.fifo_priority,
            access_shaping=args.access_shaping,
            access_bucket=args.access_bucket,
            send_buffer=args.send_buffer,
            commands=commands,
        )
    except EmulationInterrupted as e:
        em = e.partial
        _err("interrupted: the figures below cover the emulation up to Ctrl-C")
    except ConfigError as e:
        return _report_config_error(args.scenario, e)
    except (EmulateError, ValueError, OSError) as e:
        _err(f"error: {e}")
        return EXIT_SIM_ERROR
    summary = em.summary()
    for k, v in summary.items():
        print(f"{k:>20}: {v:.6g}" if isinstance(v, float) else f"{k:>20}: {v}")
    if args.out is not None:
        try:
            em.write(args.out)
        except OSError as e:
            _err(f"error: cannot write to --out: {e}")
            return EXIT_OUTPUT_ERROR
    return EXIT_INTERRUPTED if em.interrupted else EXIT_OK


def _check(args: argparse.Namespace, src: ScenarioSource) -> int:
    resolved = parse(src)
    # Every kind of traffic the scenario has: TCP flows, background burst
    # generators ([[generators]]) and UDP sources ([[traffic]]).
    counts = ", ".join(
        f"{n} {label}{'' if n == 1 else 's'}"
        for k, label in (
            ("nodes", "node"),
            ("links", "link"),
            ("flows", "flow"),
            ("generators", "burst generator"),
            ("traffic", "UDP source"),
        )
        for n in [len(resolved.get(k, []))]
    )
    print(f"ok: {args.scenario}: scenario {resolved.get('name', '')!r} ({counts})")
    _warn(resolved)
    return EXIT_OK


def _warn(resolved: Dict[str, Any]) -> None:
    """One ``warning:`` line on stderr per degenerate setting (obsim.lint)."""
    from .lint import scenario_warnings

    for path, message in scenario_warnings(resolved):
        _err(f"warning: {path} {message}" if path else f"warning: {message}")


def _run(args: argparse.Namespace, src: ScenarioSource) -> int:
    try:
        resolved: Optional[Dict[str, Any]] = parse(src)
    except ConfigError:  # reported by run() below, once --out is known to be usable
        resolved = None
    if args.out is not None:
        from .results import MIN_FREE_BYTES, estimate_output_bytes, output_problem

        need = estimate_output_bytes(resolved) if resolved is not None else MIN_FREE_BYTES
        problem = output_problem(args.out, need)
        if problem is not None:
            _err(f"error: --out {problem}")
            return EXIT_CONFIG_ERROR
    if resolved is not None and not args.quiet:
        _warn(resolved)
    from .run_progress import RunProgress, show_bar

    try:
        with RunProgress(bar=show_bar(args.quiet), warn=not args.quiet) as progress:
            res = run(src, seed=args.seed, progress=progress)
    except RunInterrupted as e:
        return _interrupted(e, args.out, progress.end_s)
    status, written = EXIT_OK, None
    if args.out is not None:
        status, written = _write(res, args.out)
    if not args.quiet:
        from .summary import render

        # The summary's last line says where the results went (--out, the
        # fallback directory) or that nothing was saved.
        render(res, written, max_rows=args.max_rows)
    return status


def _interrupted(e: RunInterrupted, out: Optional[Path], end_s: float) -> int:
    """Ctrl-C during the run: write the partial results to ``out`` (if
    given) and say so in one line; exit status 130. ``end_s`` is the
    simulated time the run would have ended at (0 if unknown)."""
    res = getattr(e, "results", None)
    if res is None:  # pragma: no cover - obsim.run always attaches them
        _err("interrupted")
        return EXIT_INTERRUPTED
    run_meta = res.meta
    at = f"interrupted at simulated time {run_meta.get('end_time_s', 0.0):.6g} s"
    if end_s > 0:
        at += f" of {end_s:.6g} s"
    if out is None:
        _err(f"{at}; nothing saved (no --out)")
        return EXIT_INTERRUPTED
    try:
        res.write(out)
    except KeyboardInterrupt:
        _err(f"{at}; interrupted again while writing the partial results: nothing saved to {out}")
        return EXIT_INTERRUPTED
    except Exception as f:  # noqa: BLE001 - try the fallback directories, as after a full run
        for fallback in fallback_dirs():
            try:
                res.write(fallback)
            except Exception:  # noqa: BLE001
                continue
            _err(
                f"{at}; the partial results could not be written to {out} ({_reason(f)}); "
                f"they were written to {fallback} instead"
            )
            return EXIT_INTERRUPTED
        _err(f"{at}; the partial results could not be written to {out} ({_reason(f)}); they are lost")
        return EXIT_INTERRUPTED
    if res.partial:
        _err(f'{at}; partial results written to {out} (meta.json: "partial": true)')
    else:  # Ctrl-C as the run ended: its results are complete
        _err(f"{at}; the run had ended: complete results written to {out}")
    return EXIT_INTERRUPTED


def _reason(e: BaseException) -> str:
    """An exception as a short reason on one line: the OS's words for an
    ``OSError`` (pyarrow's wrap them: ``Error writing bytes to file.
    Detail: [errno 28] No space left on device``)."""
    if isinstance(e, OSError) and isinstance(e.errno, int) and e.errno > 0:
        return os.strerror(e.errno)
    if isinstance(e, OSError) and e.strerror:
        return " ".join(str(e.strerror).split())
    return " ".join(str(e).split()) or type(e).__name__


def fallback_dirs() -> List[Path]:
    """Where :func:`main` writes the results of a finished run that
    ``--out`` could not take, in order of preference: a fresh
    ``obsim-results-PID-XXXXXXXX`` directory under the system temporary
    directory (``tempfile.gettempdir()``, e.g. ``$TMPDIR`` or ``/tmp``), then
    under the current directory."""
    name = f"obsim-results-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    dirs = []
    for base in (tempfile.gettempdir, Path.cwd):
        try:
            dirs.append(Path(base()) / name)
        except OSError:  # no usable temporary directory; the current one was removed
            pass
    return dirs


def _write(res: "Results", out: Path) -> Tuple[int, Optional[Path]]:
    """Write ``res`` to ``out``; if that fails, keep them in a fallback
    directory and say where in one line (exit status 3). Returns the exit
    status and the directory the results are in (``None`` if lost)."""
    try:
        res.write(out)
    except Exception as e:  # noqa: BLE001 - a finished run is never lost to an output error
        reason = _reason(e)
        tried: List[str] = []
        for fallback in fallback_dirs():
            try:
                res.write(fallback)
            except Exception as f:  # noqa: BLE001
                tried.append(f"{fallback}: {_reason(f)}")
                continue
            _err(
                f"error: the run finished but its results could not be written to {out} "
                f"({reason}); they were written to {fallback} instead"
            )
            return EXIT_OUTPUT_ERROR, fallback
        _err(
            f"error: the run finished but its results could not be written to {out} ({reason}) "
            f"nor to a fallback directory ({'; '.join(tried)}); they are lost"
        )
        return EXIT_OUTPUT_ERROR, None
    return EXIT_OK, out


__all__: List[str] = [
    "EXIT_CONFIG_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_OUTPUT_ERROR",
    "EXIT_SIM_ERROR",
    "fallback_dirs",
    "main",
]

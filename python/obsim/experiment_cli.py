"""The experiment commands of ``obsim``: ``experiment run``, ``experiment
status``, ``report``, ``reproduce`` (see :mod:`obsim.cli`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Optional

from .executors import EXECUTORS

EXIT_OK = 0
EXIT_RUN_FAILED = 1
EXIT_INVALID = 2
EXIT_INTERRUPTED = 130


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1: {text}")
    return n


def _exec_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="parallel runs (default: all cores; 1 runs in this process)",
    )
    p.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="local",
        help="local process pool (default) or dask (pip install 'obsim[dask]')",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help="dask scheduler address, e.g. tcp://host:8786 (default: a LocalCluster)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def add_parsers(sub: Any) -> None:
    e = sub.add_parser("experiment", help="run a parameter sweep with replications, or show its status")
    esub = e.add_subparsers(dest="experiment_command", metavar="ACTION")
    esub.required = True
    r = esub.add_parser("run", help="run (or resume) an experiment")
    r.add_argument("experiment", type=Path, help="experiment file (.toml)")
    r.add_argument(
        "--out",
        type=Path,
        default=None,
        help="result directory (default: out/NAME, NAME from the experiment)",
    )
    _exec_args(r)
    s = esub.add_parser("status", help="finished, failed and pending runs of a result directory")
    s.add_argument("dir", type=Path, help="result directory")

    rep = sub.add_parser("report", help="write DIR/report.html (figures, tables, parameters, versions)")
    rep.add_argument("dir", type=Path, help="result directory")
    rep.add_argument("--output", type=Path, default=None, help="HTML file (default DIR/report.html)")

    rp = sub.add_parser("reproduce", help="reproduce a published result (see --list)")
    rp.add_argument("id", nargs="?", help="reproduction id, e.g. V1")
    rp.add_argument("--list", action="store_true", help="list the reproductions")
    rp.add_argument(
        "--summary",
        action="store_true",
        help="the trust scoreboard: claims held, magnitude rows in band, seeds, commit, date and "
        "sensitivity verdict of every reproduction's last run under --root",
    )
    rp.add_argument(
        "--root",
        type=Path,
        default=Path("out") / "reproduce",
        help="where --summary looks for ID/ and ID-quick/ (default out/reproduce)",
    )
    rp.add_argument("--quick", action="store_true", help="short runs (a couple of minutes), for tests")
    rp.add_argument(
        "--out", type=Path, default=None, help="result directory (default out/reproduce/ID[-quick])"
    )
    rp.add_argument(
        "--readings",
        nargs="*",
        metavar="PARAMETER[/READING]",
        default=None,
        help="also run every alternative reading of the parameters the paper leaves unstated "
        "(into OUT/readings/) and write sensitivity.parquet; with PARAMETER names (e.g. routing), "
        "only those parameters' readings, and with PARAMETER/READING (e.g. \"lambda scope/50 "
        "flows/s per edge\"; names or slugs) only that reading (a partial verdict)",
    )
    rp.add_argument(
        "--series",
        nargs="*",
        metavar="NAME",
        default=None,
        help="also rerun the registered experiment as each declared series (e.g. linux: the study "
        "with today's TCP) into OUT/series/NAME/, its claims decided by the same code; without "
        "NAME every series the reproduction declares",
    )
    rp.add_argument(
        "--reuse",
        nargs="+",
        type=Path,
        default=[],
        metavar="DIR",
        help="result stores (e.g. another reproduction's OUT) whose runs of the same scenario and "
        "seed are linked in instead of simulated (R1-R4 share their 700 KB runs)",
    )
    rp.add_argument("--no-report", action="store_true", help="do not write report.html")
    _exec_args(rp)


def _err(*lines: str) -> None:
    for line in lines:
        print(line, file=sys.stderr)


def _print_summary(summary: Any) -> None:
    print(
        f"{summary.total} runs: {summary.ran} run, {summary.skipped} already done, "
        f"{summary.failed} failed ({summary.executor}, {summary.wall_s:.1f} s)"
    )
    if summary.failures:
        print("failures:")
        for f in summary.failures[:50]:
            axes = ", ".join(f"{k}={v}" for k, v in f["axes"].items())
            print(f"  point {f['point']} replication {f['replication']} ({axes}): {f['error']}")
        if len(summary.failures) > 50:
            print(f"  ... {len(summary.failures) - 50} more (obsim experiment status {summary.out})")
    print(f"results in {summary.out}")


def dispatch(args: argparse.Namespace) -> int:
    from .experiment import ExperimentError

    try:
        if args.command == "experiment" and args.experiment_command == "run":
            return _run(args)
        if args.command == "experiment":
            return _status(args.dir)
        if args.command == "report":
            return _report(args.dir, args.output)
        return _reproduce(args)
    except ExperimentError as e:
        errors = list(getattr(e, "errors", []) or [(e.path, e.reason)])
        n = len(errors)
        _err(f"error: invalid experiment ({n} problem{'s' if n != 1 else ''}):")
        for path, reason in errors:
            _err(f"  {path}: {reason}" if path else f"  {reason}")
        return EXIT_INVALID
    except FileNotFoundError as e:
        _err(f"error: {e}")
        return EXIT_INVALID
    except KeyboardInterrupt:
        _err("interrupted: finished runs are stored; run the same command again to resume")
        return EXIT_INTERRUPTED
    except ValueError as e:
        _err(f"error: {e}")
        return EXIT_INVALID


def _run(args: argparse.Namespace) -> int:
    from .experiment import load_experiment
    from .sweep import run_experiment

    exp = load_experiment(args.experiment)
    out = args.out if args.out is not None else Path("out") / exp.name
    summary = run_experiment(
        exp, out, executor=args.executor, jobs=args.jobs, scheduler=args.scheduler, progress=not args.quiet
    )
    _print_summary(summary)
    return EXIT_OK if summary.failed == 0 else EXIT_RUN_FAILED


def _status(d: Path) -> int:
    from .store import Store
    from .sweep import status

    _experiment_dir(d, "obsim experiment status")
    st = status(Store(d))
    print(
        f"{st['experiment']}: {st['total']} runs: {st['ok']} done, {st['error']} failed, "
        f"{st['pending']} pending "
        f"({st['wall_s']:.1f} s of run wall time)"
    )
    for f in st["failures"]:
        print(f"  failed: point {f['point']} replication {f['replication']} seed {f['seed']}: {f['error']}")
    return EXIT_OK if st["error"] == 0 else EXIT_RUN_FAILED


def _experiment_dir(d: Path, command: str) -> None:
    """Raise ``FileNotFoundError`` with a one-line explanation unless ``d``
    is a directory written by ``obsim experiment run`` or ``obsim
    reproduce`` (``experiment.json``, or ``reproduction.json`` for an
    analytic reproduction)."""
    if (d / "experiment.json").is_file() or (d / "reproduction.json").is_file():
        return
    if not d.exists():
        raise FileNotFoundError(f"{command}: no such directory: {d}")
    if not d.is_dir():
        raise FileNotFoundError(f"{command}: {d} is a file; give the directory of an experiment")
    if (d / "meta.json").is_file():
        raise FileNotFoundError(
            f"{command}: {d} holds the results of one `obsim run` (meta.json), not an "
            "experiment; it reads directories written by `obsim experiment run` or "
            "`obsim reproduce` (read its Parquet tables with pandas or polars)"
        )
    raise FileNotFoundError(
        f"{command}: {d} is not an experiment directory (no experiment.json); it reads "
        "directories written by `obsim experiment run` or `obsim reproduce`"
    )


def _report(d: Path, output: Optional[Path]) -> int:
    from .report import write_report

    _experiment_dir(d, "obsim report")
    path = write_report(d, output)
    print(f"report written to {path}")
    return EXIT_OK


def _reproduce(args: argparse.Namespace) -> int:
    from . import reproductions
    from .reproductions.series import line as series_line

    if args.summary:
        if args.id:
            _err("error: --summary takes no reproduction ID")
            return EXIT_INVALID
        print(reproductions.format_scoreboard(reproductions.scoreboard(args.root)))
        return EXIT_OK
    if args.list or not args.id:
        if not args.list:
            _err("error: give a reproduction ID or --list")
            return EXIT_INVALID
        for r in reproductions.all():
            print(f"{r.id:6} {r.title}")
            print(f"       {r.paper}")
        return EXIT_OK
    try:
        rep = reproductions.get(args.id)
    except KeyError as e:
        _err(f"error: {e.args[0]}")
        return EXIT_INVALID
    want = args.readings is not None  # --readings given, with or without names
    if want and args.readings and rep.readings:
        from .reproductions.readings import select

        try:
            select(rep.readings, args.readings)
        except ValueError as e:
            _err(f"error: --readings: {rep.id} {e}")
            return EXIT_INVALID
    want_series = args.series is not None
    if want_series:
        from .reproductions.series import select as select_series

        if not rep.series:
            _err(f"error: --series: {rep.id} declares no series")
            return EXIT_INVALID
        try:
            select_series(rep.series, args.series or None)
        except ValueError as e:
            _err(f"error: --series: {rep.id} {e}")
            return EXIT_INVALID
    for lent in args.reuse:
        if not (lent / "manifest.json").is_file():
            _err(f"error: --reuse: {lent} is not a result store (it has no manifest.json)")
            return EXIT_INVALID
    out = (
        args.out
        if args.out is not None
        else Path("out") / "reproduce" / (rep.id + ("-quick" if args.quick else ""))
    )
    summary = rep.run(
        out,
        quick=args.quick,
        jobs=args.jobs,
        executor=args.executor,
        scheduler=args.scheduler,
        progress=not args.quiet,
        readings=(list(args.readings) or True) if want else False,
        series=(list(args.series) or True) if want_series else False,
        reuse=args.reuse,
    )
    if rep.analytic:
        print(f"{rep.id} is analytic: no simulation runs; results in {summary.out}")
    else:
        _print_summary(summary)
    import json

    info = json.loads((out / "reproduction.json").read_text(encoding="utf-8"))
    claims, mags = info["claims"], info["magnitudes"]
    seeds = "a model, no seeds" if rep.analytic else f"{info['seeds']['estimate']} seeds"
    print(
        f"{rep.id}: {claims['held']} of {claims['total']} claims held, {mags['inside']} of "
        f"{mags['total']} magnitude rows in band; {seeds} (comparison.parquet)"
    )
    if want and not rep.readings:
        print(f"{rep.id}: no readings of unstated parameters registered; sensitivity not run")
    elif want:
        print(f"{rep.id}: sensitivity to unstated parameters: {info['sensitivity']}")
        for claim, flips in info.get("sensitivity_flips", {}).items():
            print(f"  {claim}: flipped by {'; '.join(flips)}")
    for s in info.get("series", []):
        result = s.get("result")
        if want_series and result is not None and (not args.series or s["name"] in args.series):
            print(f"{rep.id} series {s['name']}: {series_line(result)} ({s['dir']}/claims.parquet)")
    if not args.no_report:
        from .report import write_report

        print(f"report written to {write_report(out)}")
    return EXIT_OK if summary.failed == 0 else EXIT_RUN_FAILED


__all__ = ["add_parsers", "dispatch"]

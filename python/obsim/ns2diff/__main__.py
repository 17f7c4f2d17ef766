"""``python -m obsim.ns2diff``: compare obsim with ns-2.35 on one case, a
whole scripted-drop matrix, or the Bernoulli dumbbell.

Examples::

    python -m obsim.ns2diff case --variant newreno --rtt 60 --drops 10 10:2
    python -m obsim.ns2diff case --variant sack --delack --mode defaults --drops 0
    python -m obsim.ns2diff matrix --variant reno --mode aligned
    python -m obsim.ns2diff matrix --era ns2-2003 --rtt 60
    python -m obsim.ns2diff dumbbell --variant reno --p 0.01 --seeds 1 2 3
    python -m obsim.ns2diff table --seeds 1 2 3 4 5 6 7 8 9 10 --duration 60 --out t.md

A drop ``k`` drops the first transmission of segment ``k`` (0-based);
``k:n`` its ``n``-th transmission (``10:2``: the first retransmission).
Exit status 0 when every compared case agrees, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional, Sequence, Tuple

from .case import MODES, VARIANTS, Case, DumbbellCase
from .matrix import DROP_SCENARIOS, ERA_NS2_SETTINGS, era_cases, matrix_cases, run_matrix
from .ns2 import ns_binary
from .run import compare_dumbbell, run_diff
from .table import HEADER, markdown, markdown_row, run_cell


def _drop(s: str) -> Tuple[int, int]:
    seq, _, n = s.partition(":")
    try:
        return int(seq), int(n or 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected SEQ or SEQ:N, got {s!r}") from None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m obsim.ns2diff",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("case", help="one single-flow case, with the first divergence in full")
    c.add_argument("--variant", choices=VARIANTS, default="reno")
    c.add_argument("--rtt", type=int, default=60, help="two-way propagation delay, ms")
    c.add_argument("--delack", action="store_true", help="delayed ACKs at the receiver")
    c.add_argument("--mode", choices=MODES, default="aligned")
    c.add_argument("--drops", type=_drop, nargs="*", default=[], metavar="SEQ[:N]")
    c.add_argument("--segments", type=int, default=60)
    c.add_argument("--topology", choices=("router", "direct"), default="router")
    c.add_argument("--profile", default="ns2")
    c.add_argument(
        "--era",
        action="store_true",
        help="set ns-2's class defaults to the era of --profile (ns2-2004, ns2-2003)",
    )
    c.add_argument(
        "--ack-rate",
        type=float,
        default=None,
        help="diagnostic: the ACK direction's links at this rate (bit/s), e.g. 1e10 to hide "
        "ACK-size differences",
    )
    c.add_argument("--states", action="store_true", help="print both state sequences")
    m = sub.add_parser("matrix", help="the acceptance matrix (or a slice), one line per case")
    m.add_argument("--variant", choices=VARIANTS, nargs="*", default=list(VARIANTS))
    m.add_argument("--mode", choices=MODES, nargs="*", default=list(MODES))
    m.add_argument("--rtt", type=int, nargs="*", default=[40, 60, 100])
    m.add_argument("--drops", choices=sorted(DROP_SCENARIOS), nargs="*", default=None)
    m.add_argument("--ack-rate", type=float, default=None, help="as for 'case'")
    m.add_argument(
        "--era",
        choices=sorted(ERA_NS2_SETTINGS),
        nargs="*",
        default=None,
        help="the matrix for these older-era profiles, ns-2 set to each era's defaults",
    )
    d = sub.add_parser("dumbbell", help="10 flows, Bernoulli loss: goodput and timeouts over seeds")
    d.add_argument("--variant", choices=VARIANTS, default="reno")
    d.add_argument("--p", type=float, default=0.01)
    d.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3, 4, 5])
    d.add_argument("--duration", type=float, default=20.0)
    d.add_argument("--mode", choices=MODES, default="aligned")
    t = sub.add_parser(
        "table",
        help="the dumbbell over variants x p x modes as a Markdown table (means, difference, "
        "95%% CI, per-seed range)",
    )
    t.add_argument("--variant", choices=VARIANTS, nargs="*", default=list(VARIANTS))
    t.add_argument("--p", type=float, nargs="*", default=[0.001, 0.01, 0.05])
    t.add_argument("--mode", choices=MODES, nargs="*", default=list(MODES))
    t.add_argument("--seeds", type=int, nargs="*", default=list(range(1, 11)))
    t.add_argument("--duration", type=float, default=60.0)
    t.add_argument("--out", default=None, help="also write the table to this file")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status."""
    a = _parser().parse_args(argv)
    if ns_binary() is None:
        print("ns (ns-2.35) is not on PATH: apt-get install ns2", file=sys.stderr)
        return 2
    if a.cmd == "case":
        case = Case(
            a.variant,
            rtt_ms=a.rtt,
            delack=a.delack,
            drops=tuple(a.drops),
            mode=a.mode,
            segments=a.segments,
            topology=a.topology,
            profile=a.profile,
            ack_rate_bps=a.ack_rate,
            ns2_settings=ERA_NS2_SETTINGS.get(a.profile, ()) if a.era else (),
        )
        diff = run_diff(case)
        if a.states:
            for tr in (diff.ref, diff.got):
                print(f"--- {tr.simulator}")
                for i, s in enumerate(tr.states):
                    print(f"#{i} {s}")
        print(diff.report())
        return 0 if diff.agrees else 1
    if a.cmd == "matrix":
        bad = 0
        base = (
            era_cases(a.era or list(ERA_NS2_SETTINGS), a.drops, a.variant, a.mode, a.rtt)
            if a.era is not None
            else matrix_cases(a.drops, a.variant, a.mode, a.rtt)
        )
        cases: List[Case] = [c.with_(ack_rate_bps=a.ack_rate) for c in base]
        for case, diff in zip(cases, run_matrix(cases)):
            bad += not diff.agrees
            print(f"{case.label:50s} {diff.kind}")
        print(f"{len(cases) - bad}/{len(cases)} agree")
        return 0 if bad == 0 else 1
    if a.cmd == "table":
        print(HEADER, flush=True)
        cells = []
        for mode in a.mode:
            for variant in a.variant:
                for p in a.p:
                    cell = run_cell(
                        DumbbellCase(variant, p, duration_s=a.duration, mode=mode),
                        a.seeds,
                    )
                    print(markdown_row(cell), flush=True)
                    cells.append(cell)
        if a.out:
            with open(a.out, "w", encoding="utf-8") as f:
                f.write(markdown(cells))
        return 0
    stats = compare_dumbbell(
        DumbbellCase(a.variant, a.p, duration_s=a.duration, mode=a.mode), a.seeds
    )
    for s in stats.values():
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())

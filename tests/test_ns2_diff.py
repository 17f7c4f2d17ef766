"""The differential test against ns-2.35 (issue 14): the scripted-drop
acceptance matrix, case by case, in the harness's aligned mode and with
ns-2's defaults. Skipped when ``ns`` is not on PATH (``scripts/test.sh``
installs Debian's ``ns2`` when it can).

Cases that diverge today are in ONE table, :data:`KNOWN`, each with the
divergence of issue 14 that explains it, as strict xfails: a fix that makes
a case agree turns it into an unexpected pass, and its entry must then be
removed. The whole matrix runs once, in parallel, in a module fixture.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import pytest

from obsim.ns2diff import Case, Diff
from obsim.ns2diff.matrix import DROP_SCENARIOS, matrix_cases, run_matrix
from obsim.ns2diff.ns2 import ns_binary

pytestmark = [
    pytest.mark.ns2,
    pytest.mark.skipif(ns_binary() is None, reason="ns (ns-2.35, Debian package ns2) not on PATH"),
]

SYN = "issue 14 #5 SYN: ns-2 opens with a SYN (syn_ true), data start one RTT later"
PRECISION = (
    "issue 14 #1 precisionReduce_: ns-2 keeps cwnd_ fractional after a cut and opens "
    "by 1/cwnd on the ACK that ends recovery"
)
SACK1 = (
    "issue 14 #4 Sack1 is not RFC 6675: its ACKs grow by 8 B per SACK block (the ACK "
    "arrives later), its own scoreboard/pipe rules"
)
NEWRENO2 = "issue 14 #3 NewReno sends at most two segments per ACK in fast recovery"

# (mode, drop scenario, variant, delack, rtt_ms) -> reason; None matches
# anything. The first matching entry wins.
KNOWN: List[Tuple[Tuple[Optional[object], ...], str]] = [
    (("defaults", None, None, None, None), SYN),
    (("aligned", "first", "sack", None, None), SACK1),
    (("aligned", "one", "sack", None, None), SACK1),
    (("aligned", "four_consecutive", "sack", None, None), SACK1),
    (("aligned", "four_spread", "sack", None, None), SACK1),
    (("aligned", "retx_once", "sack", None, None), SACK1),
    (("aligned", "retx_twice", "sack", None, None), SACK1),
    (("aligned", "slow_start", "sack", None, None), SACK1),
    (("aligned", "twenty_consecutive", "sack", True, None), SACK1),
    (("aligned", "four_spread", "newreno", False, None), NEWRENO2),
    (("aligned", "four_spread", "newreno", True, 100), NEWRENO2),
    (("aligned", "one", None, None, None), PRECISION),
    (("aligned", "slow_start", None, None, None), PRECISION),
    (("aligned", "four_consecutive", None, None, None), PRECISION),
    (("aligned", "four_spread", None, None, None), PRECISION),
    (("aligned", "retx_once", None, True, 40), PRECISION),
    (("aligned", "retx_once", None, True, 60), PRECISION),
    (("aligned", "retx_twice", None, True, 40), PRECISION),
    (("aligned", "retx_twice", None, True, 60), PRECISION),
]


def _scenario_name(case: Case) -> str:
    return next(k for k, v in DROP_SCENARIOS.items() if v == case.drops)


def known_divergence(case: Case) -> Optional[str]:
    """The reason ``case`` is expected to diverge today, or None."""
    key = (case.mode, _scenario_name(case), case.variant, case.delack, case.rtt_ms)
    for pattern, reason in KNOWN:
        if all(p is None or p == k for p, k in zip(pattern, key)):
            return reason
    return None


CASES = matrix_cases()


def _param(case: Case) -> object:
    reason = known_divergence(case)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, id=case.label, marks=marks)


@pytest.fixture(scope="module")
def diffs() -> Dict[Case, Diff]:
    """Every case of the matrix, run once in parallel."""
    return dict(zip(CASES, run_matrix(CASES)))


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_matrix_case_agrees_with_ns2(case: Case, diffs: Dict[Case, Diff]) -> None:
    d = diffs[case]
    assert d.agrees, f"{case.label}\n{d.report()}"


def test_the_harness_detects_a_divergence() -> None:
    """The comparison can fail: precisionReduce_ shows after one loss (Reno,
    aligned), at the ACK that ends recovery, on cwnd only."""
    from obsim.ns2diff import run_diff

    d = run_diff(Case("reno", rtt_ms=60, drops=((30, 1),)))
    assert not d.agrees
    assert d.fields == ["cwnd"]
    assert d.ref.states[d.index].cwnd != int(d.ref.states[d.index].cwnd)


def test_drop_of_a_retransmission_is_realised_in_both_simulators() -> None:
    """(30, 1), (30, 2): segment 30 and its first retransmission are lost,
    the second retransmission gets through, in both runs."""
    from obsim.ns2diff import run_sides

    ref, got = run_sides(Case("newreno", rtt_ms=40, drops=((30, 1), (30, 2))))
    for tr in (ref, got):
        sends_30 = [s for s in tr.sends if s.seq == 30]
        assert len(sends_30) == 3, tr.simulator
        assert tr.timeouts, tr.simulator

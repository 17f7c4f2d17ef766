"""The statistics of ``python -m obsim.ns2diff table`` (no ns-2 needed)."""

from __future__ import annotations

import math

import pytest

from obsim.ns2diff.case import DumbbellCase
from obsim.ns2diff.table import Metric, reduce_run


def test_rel_and_welch_interval_by_hand() -> None:
    # ns-2 mean 10, obsim mean 9, both sample variance 2/3 (n 4): se = sqrt(2 * (2/3) / 4),
    # Welch dof = 6, t(0.975, 6) = 2.446912.
    m = Metric((9.0, 10.0, 10.0, 11.0), (8.0, 9.0, 9.0, 10.0))
    var = 2.0 / 3.0  # sample variance of (-1, 0, 0, 1) and of (-1, 0, 0, 1)
    assert m.rel == pytest.approx(-0.1)
    se = math.sqrt(2 * var / 4)
    lo, hi = m.rel_ci(0.95)
    assert lo == pytest.approx(-0.1 - 2.446912 * se / 10, rel=1e-5)
    assert hi == pytest.approx(-0.1 + 2.446912 * se / 10, rel=1e-5)
    assert m.per_seed_rel() == pytest.approx([-0.1, -0.1, -0.1, -0.1])


def test_consistent_with_a_band() -> None:
    near = Metric((100.0, 102.0, 98.0), (99.0, 101.0, 97.0))  # -1%, interval overlaps ±2%
    far = Metric((100.0, 100.5, 99.5), (90.0, 90.5, 89.5))  # -10%, interval far outside
    assert near.consistent_with(0.02)
    assert not far.consistent_with(0.02)


def test_one_seed_has_no_interval() -> None:
    m = Metric((1.0,), (2.0,))
    assert all(math.isnan(x) for x in m.rel_ci())
    assert m.sd("ns-2") == 0.0


def test_reduce_run_goodput_is_per_flow_mean() -> None:
    case = DumbbellCase("reno", 0.01, duration_s=10.0)
    s = reduce_run([(1000, 1, 5), (3000, 2, 7)], case)
    assert s.goodput_bps == pytest.approx(2000 * 8000 / 10.0)
    assert s.timeouts == 3.0
    assert s.retransmits == 12.0

"""yu2004 §V.A analytic model (eqs. 4-10): values checked by hand and
limiting cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from obsim.analysis import yu2004 as y


# ---- eq. (5): E[W] of TCP, at points where log2(x) + x = n has an integer root


@pytest.mark.parametrize(
    "p, w",
    [
        (1 / 4, 4.0),  # (1-p)/p = 3 = log2(2) + 2
        (1 / 7, 8.0),  # 6 = log2(4) + 4
        (1 / 12, 16.0),  # 11 = log2(8) + 8
        (1 / 2, 2.0),  # 1 = log2(1) + 1
    ],
)
def test_tcp_window_solves_eq5(p: float, w: float) -> None:
    assert y.tcp_window(p) == pytest.approx(w, rel=1e-12)
    n = (1 - p) / p
    assert math.log2(w / 2) + w / 2 == pytest.approx(n)


def test_h1_h2_by_hand() -> None:
    # p = 1/4: E[W] = 4, E[H1] = 3/8*16 + 4 - 1 = 9; E[H2] = 3*(3/4)^2/(2/16) = 13.5.
    assert y.h1(0.25) == pytest.approx(9.0)
    assert y.h2(0.25) == pytest.approx(13.5)
    assert y.throughput_ratio_unlimited(0.25) == pytest.approx(1.5)
    # p = 1/7: E[W] = 8, E[H1] = 24 + 7 = 31; E[H2] = 3*36/49 * 49/2 = 54.
    assert y.h1(1 / 7) == pytest.approx(31.0)
    assert y.h2(1 / 7) == pytest.approx(54.0)
    # The first form of eq. (4) equals the second.
    w = y.tcp_window(0.03)
    assert y.h1(0.03) == pytest.approx((w - 1) + w / 2 * (w / 2 + w) / 2)


def test_btcp_window_and_h2_are_consistent() -> None:
    # eq. (6): (1-p)/p rounds from W/2 to W, mean 3W/4 per round.
    for p in (0.02, 0.1, 0.3):
        w = y.btcp_window(p)
        assert w == pytest.approx(2 * (1 - p) / p)
        assert y.h2(p) == pytest.approx((1 - p) / p * 0.75 * w)


def test_unlimited_ratio_tends_to_one_as_p_vanishes() -> None:
    # Both windows grow ~2/p; the slow-start ramp of TCP becomes negligible.
    r = y.throughput_ratio_unlimited(np.array([1e-2, 1e-4, 1e-6]))
    assert np.all(np.diff(r) < 0)
    assert r[-1] == pytest.approx(1.0, abs=1e-4)
    assert np.all(r > 1.0)
    assert y.cwnd_ratio(1e-6) == pytest.approx(1.0, abs=1e-4)


def test_cwnd_ratio_above_one() -> None:
    # §V.A.1: "always larger than 1" (Fig. 5(a)).
    p = np.logspace(-3, math.log10(0.5), 50)
    assert np.all(y.cwnd_ratio(p) >= 1.0)
    assert y.cwnd_ratio(0.25) == pytest.approx(6.0 / 4.0)


# ---- eqs. (7)-(9): window-limited regime


def test_limited_regime_by_hand() -> None:
    # W_m = 8, p = 0.01: E[H1] = 800 - 8 + 8 - 1 - 16 = 783; E[H2] = 792.
    assert y.h1_limited(0.01, 8) == pytest.approx(783.0)
    assert y.h2_limited(0.01, 8) == pytest.approx(792.0)
    assert y.throughput_ratio_limited(0.01, 8) == pytest.approx(792.0 / 783.0)


def test_eq9_equals_the_quotient_of_eqs_7_and_8() -> None:
    p = np.array([1e-3, 3e-3, 1e-2, 3e-2])
    for w_m in (4.0, 10.0, 20.0, 30.0):
        q = y.h2_limited(p, w_m) / y.h1_limited(p, w_m)
        assert np.allclose(y.throughput_ratio_limited(p, w_m), q)


def test_eq7_first_line_needs_wm_squared() -> None:
    # The paper's first line with 3W_m^2/8 equals its closed form.
    p, w = 0.005, 20.0
    first = (w - 1) + 3 * w * w / 8 + w * (1 / p - w / 2 - math.log2(w / 2))
    assert y.h1_limited(p, w) == pytest.approx(first)


def test_limited_gain_grows_with_wm_and_p() -> None:
    # §V.A.1 on Fig. 5(b): the benefit increases with W_m, and with p.
    w = np.array([4.0, 8.0, 16.0, 32.0])
    r = y.throughput_ratio_limited(0.01, w)
    assert np.all(np.diff(r) > 0)
    assert y.throughput_ratio_limited(0.01, 20) > y.throughput_ratio_limited(0.001, 20)
    # W_m = 4: log2(2) - 1 = 0, so the gain is exactly 1/E[H1].
    assert y.throughput_ratio_limited(0.01, 4) == pytest.approx(1 + 1 / y.h1_limited(0.01, 4))
    # No loss, no gain.
    assert y.throughput_ratio_limited(1e-9, 20) == pytest.approx(1.0, abs=1e-6)


def test_regime_switch() -> None:
    assert y.throughput_ratio(0.1, 20) == pytest.approx(y.throughput_ratio_unlimited(0.1))
    assert y.throughput_ratio(0.01, 20) == pytest.approx(y.throughput_ratio_limited(0.01, 20))


# ---- eq. (10): BNAK


def test_bnak_time_factor() -> None:
    # RTO = RTT: nothing to save.
    assert y.bnak_time_factor(0.1, 0.1, 0.1) == pytest.approx(1.0)
    # p = 0.1, RTT = 0.1, RTO = 1: (0.9 + 1) / 1 = 1.9 = 1 + 0.1 * 9.
    assert y.bnak_time_factor(0.1, 0.1, 1.0) == pytest.approx(1.9)
    # The printed last form has p/(1-p): 1 + 9 * 0.1/0.9 = 2.0.
    assert y.bnak_time_factor_as_printed(0.1, 0.1, 1.0) == pytest.approx(2.0)
    # They agree to first order in p.
    a = y.bnak_time_factor(1e-4, 0.1, 1.0)
    b = y.bnak_time_factor_as_printed(1e-4, 0.1, 1.0)
    assert a == pytest.approx(b, rel=1e-6)


def test_bnak_ratio_exceeds_ble_ratio_and_grows_with_p() -> None:
    # §V.A.2: "BTCP using BNAK will achieve better performance improvement
    # than BTCP using either BLE or BACK, and such an improvement will
    # increase with p".
    p = np.array([0.001, 0.01, 0.05, 0.1])
    ble = y.throughput_ratio(p, 20)
    bnak = y.bnak_throughput_ratio(p, 20, 0.1, 1.0)
    assert np.all(bnak > ble)
    assert np.all(np.diff(bnak / ble) > 0)


def test_scalar_in_scalar_out() -> None:
    assert isinstance(y.throughput_ratio(0.05, 10), float)
    assert isinstance(y.h1(0.05), float)
    assert y.tcp_window(np.array([0.25, 1 / 7])).shape == (2,)


# ---- Y3 (Fig. 5 as an analytic reproduction)


def test_y3_is_a_registered_analytic_reproduction(tmp_path) -> None:
    from obsim import reproductions
    from obsim.reproductions import COMPARISON_COLUMNS
    from obsim.reproductions import y3_yu2004 as y3

    table = y3.comparison()
    assert list(table.columns) == list(COMPARISON_COLUMNS)
    assert table["agrees"].all(), table
    # Table III and IV numbers for evenly spaced losses, then the four claims.
    assert table["paper"].tolist()[:6] == [1.00, 1.01, 1.02, 1.05, 1.28, 1.24]
    assert table["case"].str.startswith(("Fig. 5", "eq. (10)")).sum() == 4
    # every row a claim on the model's deterministic value: magnitudes for
    # the tables, 'greater' for §V.A's statements, which a contradicting
    # model value would fail
    assert (table["statistic"] == "model").all() and table["case"].is_unique
    assert table["kind"].tolist() == ["magnitude"] * 6 + ["greater"] * 4
    for key, bad in (("cwnd_above_1", 0.99), ("grows_w_m", -1e-6), ("bnak_better", 0.0)):
        assert not y3.CLAIMS[key].decide(bad).held
    rep = reproductions.get("y3")
    assert rep is y3.REPRODUCTION and rep.analytic
    with pytest.raises(ValueError, match="analytic"):
        rep.build()
    png = y3.figure5(tmp_path / "fig5.png")
    assert png.stat().st_size > 10_000

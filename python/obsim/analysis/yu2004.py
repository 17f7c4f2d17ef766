"""Burst TCP against TCP for a fast flow: the analysis of Yu, Qiao and Liu,
"TCP Implementations and False Time Out Detection in OBS Networks", INFOCOM
2004, §V.A (eqs. 4-10, Fig. 5).

A fast TCP flow (§II.A.3) puts a whole round into one burst, so every burst
loss (probability ``p``, independent) is a timeout. Between two timeouts the
flow sends for ``(1-p)/p`` rounds on average. Plain TCP (Reno, NewReno, SACK
alike, §III) restarts from ``W = 1`` after each; BTCP with BLE or BACK judges
it false and restarts from ``W/2`` (§IV.A). ``E[H1]`` and ``E[H2]`` are the
packets sent between two timeouts by TCP and by BTCP; since both spend the
same time per timeout period, ``E[H2]/E[H1]`` is the throughput ratio. BTCP
with BNAK also shortens the period (eq. 10).

Two regimes, as the paper: ``W_m p > 1`` (the window never reaches ``W_m``:
eqs. 4-6, Fig. 5(a), independent of ``W_m``) and ``W_m p < 1`` (the window
sits at ``W_m`` most of the time: eqs. 7-9, Fig. 5(b)).

Typos in the paper, and how they are read here (docs/MODEL.md, "Burst TCP"):

* eq. (7), first line: the congestion-avoidance term is printed ``3W_m/8``;
  it is ``3W_m²/8`` (``W_m/2`` rounds averaging ``3W_m/4`` packets, as in
  eqs. 4 and 8), which is what the paper's own second line equals. The
  second (closed) form is implemented.
* eq. (10): the left side is printed ``E[H2]/|TOP2| / E[H1]|TOP1|``; it is
  ``(E[H2]/|TOP2|) / (E[H1]/|TOP1|)``. Its middle form
  ``E[H2]/E[H1] · ((1-p)/p·RTT + RTO) / (RTT/p)`` is implemented; it equals
  ``E[H2]/E[H1] · (1 + p (RTO - RTT)/RTT)``, whereas the printed last form
  has ``p/(1-p)`` in place of ``p`` (an algebra slip: with
  ``|TOP2| = RTT/p`` the factor is exactly ``1 - p + p·RTO/RTT``).
  :func:`bnak_time_factor_as_printed` keeps the printed form for comparison.
* "average congestion window size ratio" (Fig. 5(a)) is not defined by a
  formula. The mean window per round is ``E[H]`` over the same number of
  rounds for both, so its ratio is the throughput ratio; the other ratio the
  text suggests ("BTCP can start with a larger congestion window size W ...")
  is that of the window each reaches before a timeout, ``E[W]``, which
  :func:`cwnd_ratio` returns.

Every function takes scalars or NumPy arrays (broadcast) and returns a float
for scalar input.
"""

from __future__ import annotations

from typing import Union

import numpy as np

ArrayLike = Union[float, "np.ndarray"]


def _out(x: "np.ndarray") -> ArrayLike:
    return float(x) if np.ndim(x) == 0 else x


def rounds_between_timeouts(p: ArrayLike) -> ArrayLike:
    """Mean rounds sent successfully between two timeouts, ``(1-p)/p``
    (yu2004 §V.A.1, after Detti and Listanti [2])."""
    p = np.asarray(p, dtype=float)
    return _out((1.0 - p) / p)


def tcp_window(p: ArrayLike) -> ArrayLike:
    """``E[W]`` of TCP without FTO detection when ``W_m p > 1``: the root of
    eq. (5), ``(1-p)/p = log2(E[W]/2) + E[W]/2`` (slow start from 1 to
    ``E[W]/2``, then congestion avoidance to ``E[W]``), solved by bisection.
    The right side increases with ``E[W]``, so the root is unique; ``E[W] >= 2``
    (a whole slow-start round) needs ``p <= 1/2``."""
    n = np.asarray(rounds_between_timeouts(p), dtype=float)
    # log2(x) + x = n for x = E[W]/2 > 0: x lies in (2^-(|n|+1), n + 1].
    lo = np.full_like(n, 2.0 ** -60)
    hi = np.maximum(n, 0.0) + 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        below = np.log2(mid) + mid < n
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    return _out(lo + hi)  # 2 * midpoint


def h1(p: ArrayLike) -> ArrayLike:
    """``E[H1]``, packets TCP sends between two timeouts when ``W_m p > 1``,
    eq. (4): ``(E[W] - 1) + E[W]/2 · (E[W]/2 + E[W])/2 = 3/8 E[W]² + E[W] - 1``
    with ``E[W]`` from eq. (5) (:func:`tcp_window`)."""
    w = np.asarray(tcp_window(p), dtype=float)
    return _out(3.0 / 8.0 * w * w + w - 1.0)


def btcp_window(p: ArrayLike) -> ArrayLike:
    """``E[W]`` of BTCP with BLE/BACK when ``W_m p > 1`` (§V.A.1): it restarts
    at ``W/2`` and adds one per round, so ``E[W/2] = (1-p)/p`` and
    ``E[W] = 2(1-p)/p``."""
    return _out(2.0 * np.asarray(rounds_between_timeouts(p), dtype=float))


def h2(p: ArrayLike) -> ArrayLike:
    """``E[H2]``, packets BTCP (BLE or BACK) sends between two timeouts when
    ``W_m p > 1``, eq. (6): ``(1-p)/p · E[W + W/2]/2 = 3(1-p)²/(2p²)``."""
    p = np.asarray(p, dtype=float)
    return _out(3.0 * (1.0 - p) ** 2 / (2.0 * p * p))


def h1_limited(p: ArrayLike, w_m: ArrayLike) -> ArrayLike:
    """``E[H1]`` when ``W_m p < 1`` (the window reaches ``W_m``), eq. (7):
    ``W_m/p - W_m²/8 + W_m - 1 - W_m log2(W_m/2)`` (slow start to ``W_m/2``,
    congestion avoidance to ``W_m``, then ``W_m`` per round for the remaining
    ``1/p - W_m/2 - log2(W_m/2)`` rounds; see the module note on the typo
    in the paper's first line)."""
    p = np.asarray(p, dtype=float)
    w = np.asarray(w_m, dtype=float)
    return _out(w / p - w * w / 8.0 + w - 1.0 - w * np.log2(w / 2.0))


def h2_limited(p: ArrayLike, w_m: ArrayLike) -> ArrayLike:
    """``E[H2]`` when ``W_m p < 1``, eq. (8):
    ``(1/p - W_m/2) · W_m + 3W_m²/8 = W_m/p - W_m²/8``."""
    p = np.asarray(p, dtype=float)
    w = np.asarray(w_m, dtype=float)
    return _out(w / p - w * w / 8.0)


def throughput_ratio_unlimited(p: ArrayLike) -> ArrayLike:
    """BTCP (BLE/BACK) over TCP throughput when ``W_m p > 1``:
    ``E[H2]/E[H1]`` from eqs. (4)-(6) (Fig. 5(a)); both have the same timeout
    period ``(1-p)/p·RTT + RTO``."""
    return _out(np.asarray(h2(p), dtype=float) / np.asarray(h1(p), dtype=float))


def throughput_ratio_limited(p: ArrayLike, w_m: ArrayLike) -> ArrayLike:
    """BTCP (BLE/BACK) over TCP throughput when ``W_m p < 1``, eq. (9):
    ``E[H2]/E[H1] = 1 + (W_m (log2(W_m/2) - 1) + 1) / E[H1]`` (Fig. 5(b))."""
    w = np.asarray(w_m, dtype=float)
    e_h1 = np.asarray(h1_limited(p, w_m), dtype=float)
    return _out(1.0 + (w * (np.log2(w / 2.0) - 1.0) + 1.0) / e_h1)


def throughput_ratio(p: ArrayLike, w_m: ArrayLike) -> ArrayLike:
    """BTCP (BLE/BACK) over TCP throughput in the regime ``p`` and ``W_m``
    select (§V.A.1): eqs. (4)-(6) when ``W_m p > 1``, eq. (9) otherwise."""
    p = np.asarray(p, dtype=float)
    w = np.asarray(w_m, dtype=float)
    out = np.where(w * p > 1.0, throughput_ratio_unlimited(p), throughput_ratio_limited(p, w))
    return _out(out)


def cwnd_ratio(p: ArrayLike) -> ArrayLike:
    """Ratio of the window BTCP and TCP reach before a timeout when
    ``W_m p > 1``, ``E[W]_BTCP / E[W]_TCP = (2(1-p)/p) / E[W]`` (eqs. 5-6;
    Fig. 5(a)'s "average congestion window size ratio", read as explained in
    the module notes)."""
    return _out(np.asarray(btcp_window(p), dtype=float) / np.asarray(tcp_window(p), dtype=float))


def bnak_time_factor(p: ArrayLike, rtt: ArrayLike, rto: ArrayLike) -> ArrayLike:
    """``|TOP1| / |TOP2|`` (eq. 10): a timeout period of TCP,
    ``(1-p)/p·RTT + RTO``, over BTCP-with-BNAK's, ``RTT/p`` (retransmission
    starts one RTT after the loss round, not one RTO). Equals
    ``1 + p (RTO - RTT)/RTT``."""
    p, rtt, rto = (np.asarray(v, dtype=float) for v in (p, rtt, rto))
    return _out(((1.0 - p) / p * rtt + rto) / (rtt / p))


def bnak_time_factor_as_printed(p: ArrayLike, rtt: ArrayLike, rto: ArrayLike) -> ArrayLike:
    """The last form of eq. (10) as printed, ``1 + (RTO - RTT)/RTT · p/(1-p)``
    (does not equal its middle form; kept to quantify the slip)."""
    p, rtt, rto = (np.asarray(v, dtype=float) for v in (p, rtt, rto))
    return _out(1.0 + (rto - rtt) / rtt * p / (1.0 - p))


def bnak_throughput_ratio(p: ArrayLike, w_m: ArrayLike, rtt: ArrayLike, rto: ArrayLike) -> ArrayLike:
    """BTCP with BNAK over TCP throughput, eq. (10):
    ``E[H2]/E[H1] · |TOP1|/|TOP2|`` with the regime's ``E[H2]/E[H1]``
    (:func:`throughput_ratio`) and :func:`bnak_time_factor`."""
    r = np.asarray(throughput_ratio(p, w_m), dtype=float)
    return _out(r * np.asarray(bnak_time_factor(p, rtt, rto), dtype=float))


__all__ = [
    "bnak_throughput_ratio",
    "bnak_time_factor",
    "bnak_time_factor_as_printed",
    "btcp_window",
    "cwnd_ratio",
    "h1",
    "h1_limited",
    "h2",
    "h2_limited",
    "rounds_between_timeouts",
    "tcp_window",
    "throughput_ratio",
    "throughput_ratio_limited",
    "throughput_ratio_unlimited",
]

"""TCP Reno send rate as a function of loss: Padhye, Firoiu, Towsley and
Kurose, "Modeling TCP Throughput: A Simple Model and its Empirical
Validation", SIGCOMM 1998 (PFTK), and the square-root law of Mathis, Semke,
Mahdavi and Ott (1997).

The same formulas as ``crates/obsim-core/src/analysis/pftk.rs`` (the tests
check that both agree numerically). ``B(p)`` counts *packets sent* per
second, retransmissions included. Every function takes scalars or NumPy
arrays (broadcast).
"""

from __future__ import annotations

from typing import Union

import numpy as np

ArrayLike = Union[float, "np.ndarray"]


def backoff_factor(p: ArrayLike) -> ArrayLike:
    """``f(p) = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶`` (PFTK eq. 28)."""
    p = np.asarray(p, dtype=float)
    out: ArrayLike = 1.0 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
    return out


def timeout_probability(p: ArrayLike, w: ArrayLike) -> ArrayLike:
    """``Q̂(p, w)``: probability that a loss in a window of ``w`` packets is
    detected by a timeout (PFTK eq. 24), capped at 1."""
    p = np.asarray(p, dtype=float)
    w = np.asarray(w, dtype=float)
    q = 1.0 - p
    num = (1.0 - q**3) * (1.0 + q**3 * (1.0 - q ** (w - 3.0)))
    den = 1.0 - q**w
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den <= 0.0, 1.0, np.minimum(num / np.where(den <= 0.0, 1.0, den), 1.0))


def expected_window(p: ArrayLike, b: ArrayLike = 1.0) -> ArrayLike:
    """``E[W_u]``, the unconstrained window at a loss (PFTK eq. 13)."""
    p = np.asarray(p, dtype=float)
    a = (2.0 + b) / (3.0 * b)
    return a + np.sqrt(8.0 * (1.0 - p) / (3.0 * b * p) + a * a)


def send_rate(p: ArrayLike, rtt: ArrayLike, t0: ArrayLike, wmax: ArrayLike, b: ArrayLike = 1.0) -> ArrayLike:
    """PFTK full model (eq. 32), packets per second.

    Args:
        p: loss probability of a packet.
        rtt: round-trip time, s.
        t0: timeout T0 (first RTO of a timeout sequence), s.
        wmax: maximum window, packets.
        b: packets acknowledged per ACK (1, or 2 with delayed ACKs).
    """
    p, rtt, t0, wmax, b = (np.asarray(v, dtype=float) for v in (p, rtt, t0, wmax, b))
    w = expected_window(p, b)
    f = backoff_factor(p)
    q_u = timeout_probability(p, w)
    unlimited = ((1 - p) / p + w + q_u / (1 - p)) / (rtt * (b / 2 * w + 1) + q_u * t0 * f / (1 - p))
    q_l = timeout_probability(p, wmax)
    limited = ((1 - p) / p + wmax + q_l / (1 - p)) / (
        rtt * (b / 8 * wmax + (1 - p) / (p * wmax) + 2) + q_l * t0 * f / (1 - p)
    )
    out = np.where(w < wmax, unlimited, limited)
    return float(out) if out.ndim == 0 else out


def send_rate_approx(
    p: ArrayLike, rtt: ArrayLike, t0: ArrayLike, wmax: ArrayLike, b: ArrayLike = 1.0
) -> ArrayLike:
    """PFTK approximate model (eq. 33), packets per second."""
    p, rtt, t0, wmax, b = (np.asarray(v, dtype=float) for v in (p, rtt, t0, wmax, b))
    denom = rtt * np.sqrt(2 * b * p / 3) + t0 * np.minimum(1.0, 3 * np.sqrt(3 * b * p / 8)) * p * (
        1 + 32 * p * p
    )
    out = np.minimum(wmax / rtt, 1.0 / denom)
    return float(out) if out.ndim == 0 else out


def mathis_rate(p: ArrayLike, rtt: ArrayLike, b: ArrayLike = 1.0) -> ArrayLike:
    """Mathis et al. square-root law, packets per second: ``√(3/(2b)) / (RTT √p)``."""
    out = np.sqrt(3.0 / (2.0 * np.asarray(b, dtype=float))) / (np.asarray(rtt, dtype=float) * np.sqrt(p))
    return float(out) if np.ndim(out) == 0 else out


__all__ = [
    "backoff_factor",
    "expected_window",
    "mathis_rate",
    "send_rate",
    "send_rate_approx",
    "timeout_probability",
]

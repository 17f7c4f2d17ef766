"""The Erlang B formula (Erlang 1917), the same as the Rust core's
``obsim_core::analysis::erlang::erlang_b``.

A bufferless OBS output port with W wavelengths, full wavelength conversion
and no offsets (every burst reserved from its arrival on) is an M/G/W/W loss
system: its burst loss ratio is B(W, A) for Poisson arrivals of A erlangs,
whatever the burst-length distribution (Erlang B is insensitive to it). The
N1 reproduction checks the simulator against it.

>>> round(erlang_b(1, 1.0), 3)
0.5
"""

from __future__ import annotations


def erlang_b(servers: int, offered_erlangs: float) -> float:
    """Blocking probability B(servers, A) by the numerically stable
    recursion B(0) = 1, B(n) = A·B(n-1) / (n + A·B(n-1)) (no factorials).
    1 for zero servers; 0 for zero load with at least one server."""
    if servers < 0:
        raise ValueError(f"servers must be >= 0, found {servers}")
    if offered_erlangs < 0:
        raise ValueError(f"the offered load must be >= 0, found {offered_erlangs}")
    b = 1.0
    for n in range(1, servers + 1):
        ab = offered_erlangs * b
        b = ab / (n + ab)
    return b


__all__ = ["erlang_b"]

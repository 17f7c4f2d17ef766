"""Analytic models to compare simulations against (PFTK, Mathis, Erlang B)."""

from . import erlang, pftk

__all__ = ["erlang", "pftk"]

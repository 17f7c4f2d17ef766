"""Analytic models to compare simulations against (PFTK, Mathis)."""

from . import pftk

__all__ = ["pftk"]

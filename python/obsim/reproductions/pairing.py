"""Per-seed samples of a results table, aligned for the paired statistics of
:mod:`obsim.reproductions.claims`.

Every point of an experiment runs replication ``r`` with the same seed
(:func:`obsim.experiment.replication_seed`), so two configurations are
paired by their ``replication`` column."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Tuple

if TYPE_CHECKING:  # pragma: no cover
    import pandas


def by_seed(df: "pandas.DataFrame", metric: str) -> "pandas.Series":
    """``metric`` indexed by replication (``ValueError`` if a replication
    appears twice: the selection must be one point)."""
    s = df.set_index("replication")[metric]
    if not s.index.is_unique:
        raise ValueError(f"{metric}: the selection holds more than one point per replication")
    return s.sort_index()


def paired(
    a: "pandas.DataFrame", b: "pandas.DataFrame", metric: str, metric_b: str = ""
) -> Tuple[List[float], List[float]]:
    """``metric`` of ``a`` and ``metric_b`` (default the same) of ``b`` on
    the replications both hold, in replication order."""
    sa, sb = by_seed(a, metric), by_seed(b, metric_b or metric)
    common = [r for r in sa.index if r in sb.index]
    return [float(sa[r]) for r in common], [float(sb[r]) for r in common]


__all__ = ["by_seed", "paired"]

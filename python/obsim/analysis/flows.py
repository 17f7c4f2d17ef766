"""Statistics over the per-flow records of generated flows (``flow_records``).

The NSFNET studies (ramantas2007/2008, gonzalez2009 §4) report what short-lived
flows did: the number of active sources per edge, bursts per flow against the
flow size, throughput per source-destination pair. These helpers compute them
from the ``flow_records`` table (one row per generated flow: ``src``, ``dst``,
``size_bytes``, ``start_s``, ``end_s`` (NaN while running), ``goodput_bps``,
``bursts_sent``, ``bursts_lost``, ...) as a pandas DataFrame
(``results.flow_records.to_pandas()``). docs/NSFNET_STUDIES.md says which
target uses which.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # pragma: no cover
    import pandas


def _window(t0: float, t1: float) -> Tuple[float, float]:
    if not (math.isfinite(t0) and math.isfinite(t1)) or t1 <= t0:
        raise ValueError(f"window: need finite t0 < t1, got [{t0}, {t1}]")
    return float(t0), float(t1)


def after_warmup(records: "pandas.DataFrame", warmup_s: float) -> "pandas.DataFrame":
    """The flows that started at or after ``warmup_s`` (ramantas2007 §3:
    "after 200sec ... the network has reached a steady state"): a flow that
    began during the warm-up carries the start-up transient, so it is left
    out of every per-flow statistic."""
    return records[records["start_s"] >= warmup_s]


def active_flows(
    records: "pandas.DataFrame", t0: float, t1: float, by: Optional[str] = "src"
) -> "pandas.Series":
    """Time-average number of flows active in ``[t0, t1)``, per value of
    column ``by`` (``"src"``: active sources per edge, ramantas2007 Fig. 1;
    None: over all flows). A flow is active from ``start_s`` to ``end_s``
    (to ``t1`` while it still runs); each contributes the length of its
    overlap with the window divided by the window's length, which is the
    time integral of the active count (Little's L over the window)."""
    import numpy as np
    import pandas as pd

    a, b = _window(t0, t1)
    start = records["start_s"].to_numpy(dtype=float)
    end = records["end_s"].to_numpy(dtype=float)
    end = np.where(np.isnan(end), b, end)
    overlap = np.clip(np.minimum(end, b) - np.maximum(start, a), 0.0, None) / (b - a)
    if by is None:
        return pd.Series({"all": float(overlap.sum())})
    return pd.Series(overlap, index=records.index).groupby(records[by]).sum()


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (ramantas2008's "80% of the flows need
    up to N bursts" is ``quantile(bursts_sent, 0.8)``): the smallest value
    with at least a fraction ``q`` of the values at or below it (the
    empirical CDF's inverse, no interpolation)."""
    import numpy as np

    if not 0.0 < q <= 1.0:
        raise ValueError(f"q: need 0 < q <= 1, got {q}")
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return math.nan
    return float(np.quantile(x, q, method="inverted_cdf"))


def by_size(
    records: "pandas.DataFrame", column: str, edges: Sequence[float]
) -> "pandas.DataFrame":
    """Mean, count and 95% t interval of ``column`` per flow-size bin
    ``[edges[i], edges[i+1])`` in bytes (ramantas2008 Fig. 4: bursts per flow
    against flow size). Bins without flows are left out."""
    import pandas as pd

    from ..stats import mean_ci

    if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:])):
        raise ValueError("edges: need at least two increasing bin edges")
    rows: List[Dict[str, Any]] = []
    size = records["size_bytes"].astype(float)
    for lo, hi in zip(edges, edges[1:]):
        vals = records.loc[(size >= lo) & (size < hi), column].astype(float).tolist()
        if not vals:
            continue
        ci = mean_ci(vals)
        rows.append(
            {"size_low": lo, "size_high": hi, "flows": len(vals), "mean": ci.mean, "ci": ci.half_width}
        )
    return pd.DataFrame(rows, columns=["size_low", "size_high", "flows", "mean", "ci"])


def pair_throughput(records: "pandas.DataFrame") -> "pandas.DataFrame":
    """Per (src, dst) pair over its finished flows: the mean, variance,
    minimum and maximum of the flow goodput (size over completion time,
    bit/s) and the number of flows (ramantas2008 Fig. 5: throughput mean,
    variance, max and min against the assembly time)."""
    done = records[records["finished"]] if "finished" in records else records
    g = done.groupby(["src", "dst"])["goodput_bps"]
    out = g.agg(["count", "mean", "var", "min", "max"]).rename(columns={"count": "flows"})
    return out.reset_index()

"""Figures of an experiment: a metric's mean over replications with 95% CI
error bars, against one axis, one line per value of another axis.

Uses matplotlib's Agg backend (no display needed); figures are written as
PNG and PDF.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure

    from .experiment import Experiment, Plot


def new_figure() -> "Figure":
    """An empty figure in obsim's size and layout (6.4 x 4.2 in, 110 dpi,
    constrained layout), for the experiment plots and the report's
    comparison figures alike.

    A matplotlib ``Figure`` made without pyplot: no global state, no GUI
    backend, thread safe.
    """
    from matplotlib.figure import Figure

    return Figure(figsize=(6.4, 4.2), dpi=110, layout="constrained")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _fmt(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def axis_label(exp: "Experiment", key: str) -> str:
    """Default label of a swept key path."""
    return key


def plot_metric(summary: "pandas.DataFrame", exp: "Experiment", plot: "Plot") -> "Figure":
    """Mean ± 95% CI of ``plot.y`` against ``plot.x``, one line per
    ``plot.series`` (other axes that vary get their own lines too)."""
    metric = exp.metrics[plot.y]
    df = summary[summary["metric"] == plot.y]
    if plot.x not in exp.axes:
        # x is a metric (e.g. a count that a table-valued axis sets): its
        # mean at each point.
        xm = summary[summary["metric"] == plot.x].set_index("point")["mean"]
        df = df.assign(**{plot.x: df["point"].map(xm)})
    hidden = {plot.x, plot.series}
    others = [a for a in exp.axes if a not in hidden and df[a].nunique(dropna=False) > 1]
    group_cols = ([plot.series] if plot.series else []) + others
    fig = new_figure()
    ax = fig.add_subplot()
    groups = df.groupby(group_cols, sort=False, dropna=False) if group_cols else [((), df)]
    xs_all: List[Any] = []
    numeric_x = all(_is_number(v) for v in df[plot.x].tolist())
    categories: Dict[str, int] = {}
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        g = g.sort_values(plot.x) if numeric_x else g
        if numeric_x:
            xs = g[plot.x].astype(float).tolist()
        else:
            xs = [categories.setdefault(_fmt(v), len(categories)) for v in g[plot.x].tolist()]
        xs_all.extend(xs)
        label = (
            ", ".join(f"{n}={_fmt(v)}" for n, v in zip(_short_names(group_cols), key))
            if group_cols
            else metric.label or plot.y
        )
        yerr = g["half_width"].fillna(0.0).tolist()
        ax.errorbar(xs, g["mean"].tolist(), yerr=yerr, marker="o", capsize=3, label=label)
    if not numeric_x:
        ax.set_xticks(list(categories.values()), list(categories))
    if plot.logx and numeric_x:
        ax.set_xscale("log")
    if plot.logy:
        ax.set_yscale("log")
    ax.set_xlabel(plot.xlabel or axis_label(exp, plot.x))
    ax.set_ylabel(plot.ylabel or metric.title)
    ax.set_title(plot.title or f"{metric.label or plot.y} vs {plot.x} (mean, 95% CI)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    if group_cols:
        legend(fig, ax)
    return fig


LEGEND_INSIDE_MAX = 8
"""Up to this many lines the legend sits inside the axes; beyond it, below
them in columns, the figure growing to make room (a sweep over three axes
can draw dozens of lines)."""


def _short_names(keys: List[str]) -> List[str]:
    """Axis keys shortened to their last component for legends
    (``nodes[0].assembly.queues`` -> ``queues``) where that stays
    unambiguous among ``keys``."""
    last = [k.rsplit(".", 1)[-1] for k in keys]
    return [s if last.count(s) == 1 else k for s, k in zip(last, keys)]


def legend(fig: "Figure", ax: Any) -> None:
    """The legend of ``ax``: inside for a few entries, else below the axes
    in up to 3 columns, the figure grown to hold it (so constrained layout
    never collapses the axes)."""
    handles, labels = ax.get_legend_handles_labels()
    if len(labels) <= LEGEND_INSIDE_MAX:
        ax.legend(fontsize=8)
        return
    widest = max(len(label) for label in labels)
    ncol = max(1, min(3, 96 // max(widest, 1)))
    rows = -(-len(labels) // ncol)
    w, h = fig.get_size_inches()
    fig.set_size_inches(w + 1.6, h + 0.2 * rows)
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=7)


def save(fig: "Figure", stem: Path) -> List[Path]:
    """Write ``stem.png`` and ``stem.pdf``; return both paths."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext in ("png", "pdf"):
        path = stem.with_suffix(f".{ext}")
        fig.savefig(path, format=ext)
        paths.append(path)
    return paths


def png_bytes(fig: "Figure") -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def plot_experiment(
    summary: "pandas.DataFrame", exp: "Experiment", out_dir: Optional[Path] = None
) -> List[Dict[str, Any]]:
    """Every ``[[plots]]`` figure of ``exp``; written under ``out_dir`` when
    given. Returns ``[{"plot", "figure", "files"}]``."""
    out = []
    for plot in exp.plots:
        if summary.empty:
            continue
        fig = plot_metric(summary, exp, plot)
        files = save(fig, out_dir / plot.file_stem) if out_dir is not None else []
        out.append({"plot": plot, "figure": fig, "files": files})
    return out


__all__ = ["new_figure", "plot_experiment", "plot_metric", "png_bytes", "save"]

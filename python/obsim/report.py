"""``obsim report DIR``: a self-contained HTML report of an experiment's
result directory (figures embedded as base64 PNG; no external files or
scripts), plus the figures as PNG and PDF under ``DIR/figures/``.

Sections: for a reproduction its trust-scoreboard row first (and, when
the readings of unstated parameters were run and a claim depends on them,
that verdict as the headline); run status (and failures), paper vs measured
(reproductions: every claim with its statistic, threshold or band, CI,
seeds, precision and paper-in-CI), sensitivity to the readings of unstated
parameters (``reproduce --readings``), the declared series beside the
registered experiment (``reproduce --series``), figures, mean ± 95% CI per
point and metric, parameters (experiment, base scenario), versions. An
analytic reproduction (no experiment, no runs) gets only its paper-vs-model
comparison, its figures and the versions.
"""

from __future__ import annotations

import base64
import html
import json
import math
import platform
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure

_CSS = """
body { font-family: system-ui, -apple-system, "DejaVu Sans", sans-serif; margin: 2em auto; max-width: 1100px;
       color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.88em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f0f3f7; } td.l, th.l { text-align: left; }
tr.bad td { background: #fde8e8; } tr.good td { background: #eaf7ea; }
.figs { display: flex; flex-wrap: wrap; gap: 1em; } figure { margin: 0; }
figure img { max-width: 520px; border: 1px solid #ddd; } figcaption { font-size: 0.85em; color: #555; }
pre { background: #f6f8fa; padding: 0.8em; overflow-x: auto; font-size: 0.8em; max-height: 28em; }
.muted { color: #666; } .ok { color: #176c2c; font-weight: bold; }
.fail { color: #b3261e; font-weight: bold; }
"""


def _e(v: Any) -> str:
    return html.escape(str(v))


def _num(v: Any, digits: int = 4) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int,)) and not isinstance(v, bool):
        return str(v)
    try:
        f = float(v)
    except (TypeError, ValueError):
        return _e(v)
    if math.isnan(f):
        return "–"
    return f"{f:.{digits}g}"


def _table(
    df: "pandas.DataFrame", left: Optional[List[str]] = None, row_class: Optional[List[str]] = None
) -> str:
    left = left or []
    head = "".join(f'<th class="{"l" if c in left else ""}">{_e(c)}</th>' for c in df.columns)
    body = []
    for i, row in enumerate(df.itertuples(index=False)):
        cls = f' class="{row_class[i]}"' if row_class else ""
        cells = "".join(
            f'<td class="{"l" if c in left else ""}">{_e(v) if c in left else _num(v)}</td>'
            for c, v in zip(df.columns, row)
        )
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _img(fig: "Figure", caption: str) -> str:
    from .plots import png_bytes

    data = base64.b64encode(png_bytes(fig)).decode("ascii")
    return (
        f'<figure><img alt="{_e(caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{_e(caption)}</figcaption></figure>"
    )


def comparison_figure(comp: "pandas.DataFrame", opts: Dict[str, Any], title: str) -> "Figure":
    """Paper (model) vs measured, with 95% CI error bars, against ``x``
    (rows without an ``x``, such as qualitative claims, are left out)."""
    from .plots import legend, new_figure

    fig = new_figure()
    ax = fig.add_subplot()
    for q, g in comp[comp["x"].notna()].groupby("quantity", sort=False):
        g = g.sort_values("x")
        ax.errorbar(
            g["x"],
            g["paper"],
            yerr=g["paper_ci"].fillna(0.0),
            marker="s",
            linestyle="--",
            capsize=3,
            label=f"paper: {q}",
        )
        ax.errorbar(
            g["x"],
            g["measured"],
            yerr=g["measured_ci"].fillna(0.0),
            marker="o",
            capsize=3,
            label=f"measured (obsim): {q}",
        )
    if opts.get("logx"):
        ax.set_xscale("log")
    if opts.get("logy"):
        ax.set_yscale("log")
    ax.set_xlabel(opts.get("xlabel", "x"))
    unit = comp["unit"].iloc[0] if len(comp) else ""
    ax.set_ylabel(opts.get("ylabel", f"value ({unit})"))
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:  # no rows with an x: nothing to label
        legend(fig, ax)
    return fig


def _versions(store_root: Path) -> Dict[str, str]:
    import matplotlib
    import numpy
    import pandas
    import pyarrow

    from . import __version__, _core

    out = {
        "obsim": __version__,
        "obsim-core": _core.__version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        "pyarrow": pyarrow.__version__,
        "matplotlib": matplotlib.__version__,
        "platform": platform.platform(),
    }
    try:
        manifest = json.loads((store_root / "manifest.json").read_text(encoding="utf-8"))
        out["obsim (runs)"] = manifest.get("obsim_version", "?")
    except (OSError, ValueError):  # pragma: no cover
        pass
    return out


def claims_view(comp: "pandas.DataFrame") -> "pandas.DataFrame":
    """The comparison table as the report shows it: per row the claim
    (kind and threshold, equivalence region or band), the statistic, the
    paper's and the measured value, the CI decided on, seeds, precision,
    whether the paper's value lies in the CI, and whether the claim held.
    Rows of the older tolerance rule show it as the claim."""
    import pandas as pd

    def num(v: Any) -> str:
        return _num(v, 4)

    def claim(r: Dict[str, Any]) -> str:
        kind = r.get("kind")
        kind = kind if isinstance(kind, str) else ""
        if kind == "greater":
            return f"> {num(r['threshold'])}"
        if kind == "less":
            return f"< {num(r['threshold'])}"
        if kind == "equivalent":
            return f"in [{num(r['band_low'])}, {num(r['band_high'])}] (TOST)"
        if kind == "magnitude":
            return f"estimate in [{num(r['band_low'])}, {num(r['band_high'])}]"
        tol = r.get("tolerance")
        if tol is not None and not (isinstance(tol, float) and math.isnan(tol)):
            return f"within ±{num(100 * float(tol))}% of paper (old rule)"
        return ""

    rows = []
    for r in comp.to_dict("records"):
        lo, hi = r.get("ci_low", math.nan), r.get("ci_high", math.nan)
        ci = "–" if lo is None or (isinstance(lo, float) and math.isnan(lo)) else f"[{num(lo)}, {num(hi)}]"
        pin = r.get("paper_in_ci")
        rows.append(
            {
                "case": r["case"],
                "quantity": r["quantity"],
                "kind": r["kind"] if isinstance(r.get("kind"), str) and r["kind"] else "(old rule)",
                "claim": claim(r),
                "statistic": r["statistic"] if isinstance(r.get("statistic"), str) else "",
                "unit": r["unit"],
                "paper": r["paper"],
                "measured": r["measured"],
                "±": r["measured_ci"],
                "CI": ci,
                "n": r.get("n"),
                "precision": r.get("precision"),
                "paper in CI": "–" if pin is None or (isinstance(pin, float) and math.isnan(pin))
                else ("yes" if pin else "no"),
                "held": bool(r["agrees"]),
                "method": r["method"] if isinstance(r.get("method"), str) else "",
            }
        )
    return pd.DataFrame(rows)


def _scoreboard_section(repro: Dict[str, Any]) -> List[str]:
    """The trust scoreboard row of this reproduction (as ``obsim reproduce
    --summary`` prints it for every target)."""
    import pandas as pd

    from .reproductions import scoreboard_row

    row = scoreboard_row(str(repro.get("id", "?")), repro)
    df = pd.DataFrame([row]).rename(
        columns={
            "claims": "claims held",
            "magnitudes": "magnitudes in band",
            "date": "date (UTC)",
        }
    )
    return [
        "<h2>Trust scoreboard</h2>",
        _table(df, left=list(df.columns)),
        '<p class="muted">Claims: rows that are not magnitude rows, held / total. Magnitudes: '
        "point estimate inside the stated band / total. Seeds: replications estimating the "
        "results (selection seeds apart). Sensitivity: whether the claims hold under every "
        "reading of what the paper leaves unstated. All targets: <code>obsim reproduce "
        "--summary</code>.</p>",
    ]


def _paper_vs_measured(root: Path, repro: Dict[str, Any], fig_dir: Path) -> Tuple[List[str], List[str]]:
    """The "Paper vs measured" section of a reproduction and its figures:
    the comparison figure, then the reproduction's own (``figures`` in
    ``reproduction.json``)."""
    import pandas as pd

    from .plots import save

    parts: List[str] = []
    figures: List[str] = []
    if (root / "comparison.parquet").is_file():
        comp = pd.read_parquet(root / "comparison.parquet")
        parts.append("<h2>Paper vs measured</h2>")
        parts.append(f"<p><b>Reference:</b> {_e(repro['paper'])}</p>")
        from .reproductions import tally

        counts = tally(comp)
        c, m = counts["claims"], counts["magnitudes"]
        all_ok = c["held"] == c["total"] and m["inside"] == m["total"]
        parts.append(
            f'<p class="{"ok" if all_ok else "fail"}">{c["held"]} of {c["total"]} claims held; '
            f'{m["inside"]} of {m["total"]} magnitude rows inside their band.</p>'
        )
        parts.append(
            '<p class="muted">Each row is a claim declared in code before the run '
            "(obsim.reproductions.claims): <i>greater/less</i> holds when the whole 95% CI lies "
            "beyond the threshold; <i>equivalent</i> by two one-sided tests (the 90% CI inside "
            "the region); <i>magnitude</i> when the point estimate lies in the band, with "
            "whether the paper's value lies inside the measured CI. Orderings use paired "
            "statistics over the same seeds.</p>"
        )
        if repro.get("analytic"):
            parts.append(
                '<p class="muted">Analytic reproduction: no simulation runs; "measured" is the '
                "paper's model as implemented in obsim.</p>"
            )
        if repro.get("quick"):
            parts.append('<p class="muted">Quick mode (shorter runs): for tests, not for publication.</p>')
        parts.append(
            _table(
                claims_view(comp),
                left=["case", "quantity", "kind", "unit", "claim", "statistic", "CI", "method"],
                row_class=["good" if a else "bad" for a in comp["agrees"].tolist()],
            )
        )
        seeds = repro.get("seeds")
        if isinstance(seeds, dict):
            text = f"Seeds: {seeds.get('estimate')} estimating the results"
            if seeds.get("selection"):
                text += f", {seeds['selection']} more reserved for selecting parameters"
            plan = seeds.get("plan")
            if plan:
                text += (
                    f" (plan: {plan['initial']} first, +{plan['step']} while a claim's CI is wider "
                    f"than its precision, at most {plan['cap']})"
                )
            parts.append(f"<p>{_e(text)}.</p>")
        prec = repro.get("precision") or []
        if prec:
            import pandas as pd

            parts.append("<h3>Precision: CI half-width needed and achieved</h3>")
            pv = pd.DataFrame(prec)[["case", "quantity", "n", "precision", "half_width", "met"]]
            parts.append(
                _table(
                    pv,
                    left=["case", "quantity"],
                    row_class=["good" if x else "bad" for x in pv["met"].tolist()],
                )
            )
        if repro.get("notes"):
            parts.append(f"<p class='muted'>{_e(repro['notes'])}</p>")
        fig = comparison_figure(
            comp, repro.get("comparison_plot", {}), f"{repro['id']}: paper vs measured (95% CI)"
        )
        save(fig, fig_dir / f"{repro['id']}_comparison")
        figures.append(
            _img(
                fig,
                f"{repro['id']}: paper vs obsim's implementation of the paper's model"
                if repro.get("analytic")
                else f"{repro['id']}: paper (model) vs measured, mean and 95% CI over replications",
            )
        )
    for item in repro.get("figures", []):
        data = base64.b64encode((root / item["file"]).read_bytes()).decode("ascii")
        figures.append(
            f'<figure><img alt="{_e(item["caption"])}" src="data:image/png;base64,{data}">'
            f"<figcaption>{_e(item['caption'])}</figcaption></figure>"
        )
    return parts, figures


def _sensitivity_headline(repro: Dict[str, Any]) -> List[str]:
    """The headline under the title when the readings of unstated
    parameters were run: whether every claim holds under all of them, and
    if not, which claims each reading flips (not only a footnote)."""
    verdict = repro.get("sensitivity")
    if not verdict or verdict == "not run":
        return []
    flips: Dict[str, List[str]] = repro.get("sensitivity_flips", {})
    if not flips:
        return [f'<p class="ok">Sensitivity to unstated parameters: {_e(verdict)}.</p>']
    items = "".join(f"<li>{_e(c)}: flipped by {_e('; '.join(r))}</li>" for c, r in flips.items())
    return [
        f'<p class="fail">Sensitivity to unstated parameters: {_e(verdict)}. The paper does not '
        "fix these parameters, and the verdict on these claims changes with how they are read:</p>"
        f"<ul>{items}</ul>"
    ]


def _sensitivity_section(root: Path, repro: Dict[str, Any]) -> List[str]:
    """Per unstated parameter: its readings with the quotes that support
    them (registered first), and each claim's verdict and measured value
    under every reading, side by side (``sensitivity.parquet``)."""
    import pandas as pd

    readings: List[Dict[str, Any]] = repro.get("readings", [])
    if not readings:
        return []
    parts = ["<h2>Sensitivity to unstated parameters</h2>"]
    verdict = repro.get("sensitivity", "not run")
    parts.append(
        f"<p><b>Verdict:</b> {_e(verdict)}. The registered reading of each parameter is the one "
        "the paper's text supports best (quoted), not the one that scores best; the others are "
        "run one parameter at a time.</p>"
    )
    path = root / "sensitivity.parquet"
    sens = pd.read_parquet(path) if path.is_file() else None
    by_param: Dict[str, List[Dict[str, Any]]] = {}
    for r in readings:
        by_param.setdefault(r["parameter"], []).append(r)
    for param, rs in by_param.items():
        parts.append(f"<h3>{_e(param)}</h3>")
        desc = pd.DataFrame(
            [
                {
                    "reading": r["name"],
                    "registered": "registered" if r["registered"] else "alternative",
                    "support (quoted)": r["quote"],
                    "seeds": (
                        "reduced plan: {selection} selection + {initial} estimation (cap {cap})".format(
                            **r["seeds"]
                        )
                        if r.get("seeds")
                        else "the reproduction's plan"
                    ),
                }
                for r in rs
            ]
        )
        parts.append(_table(desc, left=list(desc.columns)))
        if sens is None:
            continue
        sub = sens[sens["parameter"] == param]
        if sub.empty:
            continue
        names = [r["name"] for r in rs if (sub["reading"] == r["name"]).any()]
        wide: List[Dict[str, Any]] = []
        classes: List[str] = []
        for (case, qty), g in sub.groupby(["case", "quantity"], sort=False):
            row: Dict[str, Any] = {"claim": f"{case}: {qty}"}
            for n in names:
                hit = g[g["reading"] == n]
                if hit.empty:
                    row[n] = "–"
                    continue
                h = hit.iloc[0]
                row[n] = _verdict_cell("held" if h["held"] else "not held", h["measured"])
            wide.append(row)
            classes.append("bad" if bool(g["flips"].any()) else "")
        table = pd.DataFrame(wide)
        parts.append(_table(table, left=list(table.columns), row_class=classes))
    if sens is None:
        parts.append(
            '<p class="muted">The alternative readings were not run '
            "(obsim reproduce ID --readings).</p>"
        )
    return parts


def _verdict_cell(verdict: str, measured: Any) -> str:
    """A claim's verdict with its measured value, as the readings' and the
    series' side-by-side tables show it."""
    return f"{verdict} ({_num(measured)})"


def _interval(r: Dict[str, Any]) -> str:
    """`` [low, high]`` of a row's interval, or nothing without one."""
    lo, hi = r.get("ci_low"), r.get("ci_high")
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return ""
    return f" [{_num(lo)}, {_num(hi)}]"


def _series_run(repro: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [s for s in repro.get("series", []) if isinstance(s, dict) and s.get("result")]


def _series_headline(repro: Dict[str, Any]) -> List[str]:
    """Under the title, per series run: its claims held beside the
    registered experiment's (obsim.reproductions.series.line)."""
    from .reproductions.series import line

    return [
        f'<p class="muted"><b>Series {_e(s["name"])}:</b> {_e(line(s["result"]))} (section "Series").</p>'
        for s in _series_run(repro)
    ]


def _series_section(root: Path, repro: Dict[str, Any]) -> List[str]:
    """Per declared series: what it changes and why, then each claim's
    outcome and measured value under the registered experiment and under
    the series side by side (``series/<name>/claims.parquet``), with the
    reason of each claim that is not applicable."""
    import pandas as pd

    declared: List[Dict[str, Any]] = [s for s in repro.get("series", []) if isinstance(s, dict)]
    if not declared:
        return []
    from .reproductions.series import line

    parts = [
        "<h2>Series</h2>",
        '<p class="muted">The registered experiment rerun with one declared change (each series '
        "is declared in code before any run, with what it changes and why), by the same seed plan, "
        "its claims decided by the same code: a verdict under a series is directly comparable with "
        "the registered one. <i>fails</i>: the interval lies wholly on the wrong side (or a "
        "magnitude outside its band); <i>undecided</i>: the interval straddles; <i>not "
        "applicable</i>: the claim has no meaning under the series (reason given).</p>",
    ]
    for s in declared:
        parts.append(f"<h3>Series {_e(s['name'])}</h3>")
        parts.append(f"<p>{_e(s['description'])}</p>")
        result = s.get("result")
        path = root / s["dir"] / "claims.parquet"
        if not result or not path.is_file():
            parts.append(
                f'<p class="muted">Not run (obsim reproduce {_e(repro.get("id", "ID"))} --series '
                f"{_e(s['name'])}).</p>"
            )
            continue
        parts.append(f"<p><b>{_e(line(result))}.</b></p>")
        seeds = result.get("seeds") or {}
        if seeds:
            parts.append(
                f'<p class="muted">Seeds: {_e(seeds.get("estimate"))} estimating the results'
                + (f", {_e(seeds['selection'])} for selection" if seeds.get("selection") else "")
                + ".</p>"
            )
        claims = pd.read_parquet(path)
        view = pd.DataFrame(
            [
                {
                    "claim": f"{r['case']}: {r['quantity']}",
                    "kind": r["kind"],
                    "registered": _verdict_cell(r["registered_outcome"], r["registered_measured"]),
                    s["name"]: _verdict_cell(r["outcome"], r["measured"]) + _interval(r),
                    "note": r["reason"],
                }
                for r in claims.to_dict("records")
            ],
            columns=["claim", "kind", "registered", s["name"], "note"],
        )
        classes = [
            "bad" if c else ("good" if o == "held" else "")
            for c, o in zip(claims["changed"].tolist(), claims["outcome"].tolist())
        ]
        parts.append(_table(view, left=list(view.columns), row_class=classes))
    return parts


def _document(title: str, parts: List[str], output: Path) -> Path:
    doc = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>\n"
    )
    from .store import atomic_write_bytes

    atomic_write_bytes(output, doc.encode("utf-8"))
    return output


def _nonnegative(m: Any) -> bool:
    """True for a metric that cannot be negative: a column of a result table
    (every column is a count, a rate, a time or a ratio of them; see
    tests/test_results.py) aggregated with a nonnegative scale. An
    expression may be negative."""
    return not m.expr and m.scale >= 0


def _analytic_report(root: Path, repro: Dict[str, Any], output: Path) -> Path:
    """The report of an analytic reproduction: no runs, results or parameters."""
    import pandas as pd

    title = f"Reproduction {repro['id']}: {repro['title']}"
    parts = [f"<h1>{_e(title)}</h1>"]
    parts += _scoreboard_section(repro)
    section, figures = _paper_vs_measured(root, repro, root / "figures")
    parts += section
    if figures:
        parts.append("<h2>Figures</h2>")
        parts.append(f'<div class="figs">{"".join(figures)}</div>')
        parts.append(f'<p class="muted">PNG and PDF files: {_e(root / "figures")}</p>')
    parts.append("<h2>Versions</h2>")
    vers = pd.DataFrame([{"software": k, "version": v} for k, v in _versions(root).items()])
    parts.append(_table(vers, left=["software", "version"]))
    return _document(title, parts, output)


def write_report(out_dir: Union[str, Path], output: Optional[Union[str, Path]] = None) -> Path:
    """Aggregate the store at ``out_dir``, write figures (PNG, PDF) and the
    HTML report (default ``out_dir/report.html``); return its path."""
    import pandas as pd

    from .experiment import experiment_from_stored
    from .plots import plot_experiment
    from .store import Store
    from .sweep import aggregate, status

    store = Store(out_dir)
    root = store.root
    path = Path(output) if output is not None else root / "report.html"
    repro: Optional[Dict[str, Any]] = None
    if (root / "reproduction.json").is_file():
        repro = json.loads((root / "reproduction.json").read_text(encoding="utf-8"))
        if repro.get("analytic"):
            return _analytic_report(root, repro, path)
    exp_doc = store.experiment_doc()
    exp = experiment_from_stored(exp_doc)
    frames = aggregate(store, exp)
    summary, results = frames["summary"], frames["results"]
    st = status(store)
    parts: List[str] = []
    title = exp.name
    if repro is not None:
        title = f"Reproduction {repro['id']}: {repro['title']}"
    parts.append(f"<h1>{_e(title)}</h1>")
    if repro is not None:
        parts += _sensitivity_headline(repro)
        parts += _series_headline(repro)
    if exp.description:
        parts.append(f'<p class="muted">{_e(exp.description)}</p>')
    if repro is not None:
        parts += _scoreboard_section(repro)

    # ---- status
    cls = "ok" if st["error"] == 0 and st["pending"] == 0 else "fail"
    parts.append("<h2>Runs</h2>")
    parts.append(
        f'<p class="{cls}">{st["ok"]} of {st["total"]} runs finished, {st["error"]} failed, '
        f'{st["pending"]} pending.</p><p class="muted">{len(exp.points())} points × {exp.replications} '
        f"replications; base seed {exp.base_seed}; total run wall time {st['wall_s']:.1f} s.</p>"
    )
    if st["failures"]:
        parts.append("<h3>Failures</h3>")
        fails = pd.DataFrame(st["failures"])
        parts.append(_table(fails, left=list(fails.columns)))

    # ---- paper vs measured
    figures: List[str] = []
    fig_dir = root / "figures"
    if repro is not None:
        section, figures = _paper_vs_measured(root, repro, fig_dir)
        parts += section
        parts += _sensitivity_section(root, repro)
        parts += _series_section(root, repro)

    # ---- figures
    for item in plot_experiment(summary, exp, fig_dir):
        p = item["plot"]
        figures.append(
            _img(item["figure"], f"{exp.metrics[p.y].title} vs {p.x}; mean and 95% CI over replications")
        )
    if figures:
        parts.append("<h2>Figures</h2>")
        parts.append(f'<div class="figs">{"".join(figures)}</div>')
        parts.append(f'<p class="muted">PNG and PDF files: {_e(fig_dir)}</p>')

    # ---- tables
    if not summary.empty:
        parts.append("<h2>Results: mean and 95% CI over replications</h2>")
        varying = [a for a in exp.axes if summary[a].nunique(dropna=False) > 1] or exp.axes[:1]
        for name, m in exp.metrics.items():
            sub = summary[summary["metric"] == name][
                ["point"] + varying + ["n", "mean", "half_width", "ci_low", "ci_high"]
            ].copy()
            clipped = _nonnegative(m) and bool((sub["ci_low"] < 0).any())
            if clipped:
                # A t interval of a count can reach below 0; the mean cannot.
                sub["ci_low"] = sub["ci_low"].clip(lower=0.0)
            sub = sub.rename(columns={"half_width": "±95% CI"})
            parts.append(f"<h3>{_e(m.title)}</h3>")
            if clipped:
                parts.append(
                    '<p class="muted">Lower CI bounds below 0 are shown as 0: this metric cannot be '
                    "negative (summary.parquet keeps the t interval as computed).</p>"
                )
            parts.append(_table(sub, left=[a for a in varying if not pd.api.types.is_numeric_dtype(sub[a])]))
    parts.append(
        f'<p class="muted">Per-run values: {_e(root / "results.parquet")} ({len(results)} rows); '
        f"catalog: {_e(root / 'catalog.parquet')}.</p>"
    )

    # ---- parameters and versions
    parts.append("<h2>Parameters</h2>")
    axes_desc = pd.DataFrame(
        [{"key path": a, "values": ", ".join(map(str, vals))} for a, vals in _axis_values(exp).items()]
    )
    if not axes_desc.empty:
        parts.append(_table(axes_desc, left=["key path", "values"]))
    exp_json = {k: v for k, v in exp_doc.items() if k != "scenario"}
    parts.append("<h3>Experiment</h3><pre>" + _e(json.dumps(exp_json, indent=2)) + "</pre>")
    parts.append(
        "<h3>Base scenario</h3><pre>" + _e(json.dumps(exp_doc.get("scenario", {}), indent=2)) + "</pre>"
    )
    parts.append("<h2>Versions</h2>")
    vers = pd.DataFrame([{"software": k, "version": v} for k, v in _versions(root).items()])
    parts.append(_table(vers, left=["software", "version"]))

    return _document(title, parts, path)


def _axis_values(exp: Any) -> Dict[str, List[Any]]:
    out: Dict[str, List[Any]] = dict(exp.grid)
    for z in exp.zips:
        out.update(z)
    return out


__all__ = ["claims_view", "comparison_figure", "write_report"]

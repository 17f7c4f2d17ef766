"""Reports, plots, the experiment/reproduce CLI, and the V1 reproduction."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from experiment_helpers import tiny_experiment, to_toml
from obsim import reproductions
from obsim.cli import main

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def v1_quick(tmp_path_factory):
    """``obsim reproduce V1 --quick`` through the CLI."""
    out = tmp_path_factory.mktemp("v1") / "V1"
    assert main(["reproduce", "V1", "--quick", "--jobs", "2", "--out", str(out), "-q"]) == 0
    return out


def test_reproduce_list(capsys):
    assert main(["reproduce", "--list"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^V1 +Reno send rate", text, re.M) and "Padhye" in text
    assert main(["reproduce", "NOPE"]) == 2
    assert "no reproduction 'NOPE'" in capsys.readouterr().err


def test_registry_finds_modules():
    ids = [r.id for r in reproductions.all()]
    assert "V1" in ids and reproductions.get("v1").id == "V1"
    exp = reproductions.get("V1").build(quick=False)
    assert exp.replications == 5 and exp.grid == {"links[1].loss.p": [0.001, 0.003, 0.01, 0.03, 0.05]}
    tcp = exp.scenario["tcp"]
    assert (tcp["variant"], tcp["profile"], tcp["limited_transmit"], tcp["delayed_ack"]) == (
        "reno",
        "rfc",
        False,
        False,
    )
    assert tcp["max_window"] == tcp["rwnd"] == 100000
    assert exp.scenario["links"][1]["loss"] == {"model": "bernoulli", "p": 0.001, "data_only": True}


def test_v1_quick_measured_vs_model(v1_quick):
    comp = pd.read_parquet(v1_quick / "comparison.parquet")
    assert list(comp["x"]) == [0.001, 0.003, 0.01, 0.03, 0.05]
    assert (comp["measured_ci"] > 0).all() and (comp["paper"] == 1.0).all()
    assert (comp["kind"] == "equivalent").all() and (comp["statistic"] == "ratio_of_means").all()
    # measured / PFTK eq. 32 within 25% even in quick mode (the full run is held to ±15%)
    assert ((comp["measured"] - 1).abs() < 0.25).all(), comp[["case", "measured", "ci_low", "ci_high"]]
    # measured = segments_sent / end_time, recomputed from the stored runs
    res = pd.read_parquet(v1_quick / "results.parquet")
    assert len(res) == 25
    assert (res["send_rate"] - res["segments_sent"] / res["end_time"]).abs().max() < 1e-9
    from obsim.reproductions.v1_pftk import model_rate

    g = res[res["links[1].loss.p"] == 0.01]
    model = [model_rate(r) for _, r in g.iterrows()]
    assert comp["measured"].iloc[2] == pytest.approx(g["send_rate"].mean() / (sum(model) / len(model)))
    info = json.loads((v1_quick / "reproduction.json").read_text())
    assert info["id"] == "V1" and info["quick"] and info["compared"] == 5


def test_report_is_self_contained(v1_quick):
    html = (v1_quick / "report.html").read_text(encoding="utf-8")
    assert "Paper vs measured" in html and "PFTK" in html
    imgs = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(imgs) >= 3  # comparison + 2 experiment plots
    for b in imgs:
        assert base64.b64decode(b)[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.search(r'(src|href)="(?!data:)', html), "report must not reference external files"
    assert "<table>" in html and "obsim-core" in html and "links[1].loss.p" in html
    for stem in ("V1_comparison", "send_rate_vs_links_1_loss_p"):
        assert (v1_quick / "figures" / f"{stem}.png").stat().st_size > 1000
        assert (v1_quick / "figures" / f"{stem}.pdf").read_bytes()[:5] == b"%PDF-"


def test_plot_has_labels_units_and_error_bars(tmp_path):
    from obsim.experiment import from_dict
    from obsim.plots import plot_metric
    from obsim.sweep import run_experiment

    exp = from_dict(tiny_experiment(replications=3))
    run_experiment(exp, tmp_path / "o", jobs=1, progress=False)
    summ = pd.read_parquet(tmp_path / "o" / "summary.parquet")
    fig = plot_metric(summ, exp, exp.plots[0])
    ax = fig.axes[0]
    assert ax.get_ylabel() == "goodput (Mbit/s)" and ax.get_xlabel() == "links[1].loss.p"
    assert ax.get_xscale() == "log"
    # Legend entries name an axis by its last key component when unambiguous.
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["variant=reno", "variant=sack"]
    assert len(ax.containers) == 2  # one errorbar container per series


def test_legend_names_and_placement():
    import warnings

    from matplotlib.figure import Figure

    from obsim.plots import LEGEND_INSIDE_MAX, _short_names, legend

    keys = ["nodes[2].assembly.timeout", "nodes[5].assembly.timeout", "tcp.variant"]
    assert _short_names(keys) == ["nodes[2].assembly.timeout", "nodes[5].assembly.timeout", "variant"]
    for n, inside in ((LEGEND_INSIDE_MAX, True), (3 * LEGEND_INSIDE_MAX, False)):
        fig = Figure(figsize=(6.4, 4.2), layout="constrained")
        ax = fig.add_subplot()
        for i in range(n):
            ax.plot([0, 1], [i, i], label=f"queues={i}, variant=reno, p=0.001")
        legend(fig, ax)
        assert (ax.get_legend() is not None) == inside
        assert (len(fig.legends) == 1) == (not inside)
        assert (fig.get_size_inches()[1] > 4.2) == (not inside)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # constrained layout must not collapse
            fig.savefig(__import__("io").BytesIO(), format="png")


def test_experiment_cli_run_status_report(tmp_path, capsys):
    exp_file = tmp_path / "e.toml"
    exp_file.write_text(to_toml(tiny_experiment(replications=2)), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["experiment", "run", str(exp_file), "--out", str(out), "--jobs", "2", "-q"]) == 0
    text = capsys.readouterr().out
    assert "8 runs: 8 run, 0 already done, 0 failed" in text
    assert main(["experiment", "status", str(out)]) == 0
    assert "8 done, 0 failed, 0 pending" in capsys.readouterr().out
    assert main(["report", str(out)]) == 0
    assert (out / "report.html").is_file()
    # errors: bad axis value (exit 2, path on stderr), missing dir, bad usage
    bad = tiny_experiment(grid={"links[1].loss.p": [0.01, 2.0]}, plots=[])
    exp_file.write_text(to_toml(bad), encoding="utf-8")
    assert main(["experiment", "run", str(exp_file), "--out", str(tmp_path / "b"), "-q"]) == 2
    err = capsys.readouterr().err
    assert 'sweep.grid."links[1].loss.p": value 2.0 is rejected' in err
    assert not (tmp_path / "b" / "runs").exists()
    assert main(["experiment", "status", str(tmp_path / "nowhere")]) == 2
    assert main(["experiment", "run", str(exp_file), "--scheduler", "tcp://x:1", "-q"]) == 2
    with pytest.raises(SystemExit):
        main(["experiment", "run", str(exp_file), "--jobs", "0"])


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip(
        "chromium is not installed (scripts/test.sh installs Debian's chromium when apt-get is usable)"
    )


def test_report_renders_in_headless_chromium(v1_quick, tmp_path):
    chromium = _chromium()
    shot = tmp_path / "report.png"
    cmd = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--window-size=1200,2000",
        f"--screenshot={shot}",
        (v1_quick / "report.html").as_uri(),
    ]
    subprocess.run(cmd, capture_output=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    assert shot.is_file(), "chromium wrote no screenshot"
    from matplotlib.image import imread

    img = imread(shot)
    assert img.shape[0] == 2000 and img.shape[1] == 1200
    # not blank: the page has text, tables and figures (many distinct colours)
    rgb = (img[..., :3] * 255).astype(int)
    colours = {tuple(c) for c in rgb[::7, ::7].reshape(-1, 3)}
    assert len(colours) > 50
    keep = os.environ.get("OBSIM_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


def test_count_intervals_are_not_shown_below_zero(tmp_path):
    # Timeouts of 2 replications, one with none: the t interval of the mean
    # reaches below 0, which a count cannot; the report shows 0, the summary
    # keeps the interval as computed.
    from obsim.experiment import from_dict
    from obsim.report import write_report
    from obsim.sweep import run_experiment

    doc = tiny_experiment(grid={"links[1].loss.p": [0.003]}, replications=3, plots=[])
    doc["metrics"]["neg"] = {"expr": "timeouts - 1000"}  # an expression may be negative
    run_experiment(from_dict(doc), tmp_path / "o", jobs=1, progress=False)
    summ = pd.read_parquet(tmp_path / "o" / "summary.parquet")
    to = summ[summ["metric"] == "timeouts"].iloc[0]
    html = write_report(tmp_path / "o").read_text(encoding="utf-8")
    if to["ci_low"] < 0:
        assert "Lower CI bounds below 0 are shown as 0" in html
    neg = summ[summ["metric"] == "neg"].iloc[0]
    assert neg["ci_high"] < 0  # negative values stay negative: not clipped
    assert html.count("Lower CI bounds below 0 are shown as 0") <= 1


def test_result_columns_are_never_negative():
    # report._nonnegative relies on it: every number of the result tables is
    # a count, a rate, a time or a ratio of them.
    import math

    import obsim
    from obsim import topologies

    runs = [
        obsim.run(topologies.single_flow(duration="2 s"), seed=1),
        obsim.run("scenarios/yu2004_lossy_access.toml", seed=1),
        obsim.run("scenarios/gurel2008_access.toml", seed=1),
    ]
    for res in runs:
        for name in ("flows", "links", "paths", "traffic", "trace"):
            t = res.to_pandas(name)
            for col in t.select_dtypes("number").columns:
                vals = [v for v in t[col].tolist() if not (isinstance(v, float) and math.isnan(v))]
                assert all(v >= 0 for v in vals), (name, col)

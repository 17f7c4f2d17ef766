"""Series of a reproduction (``obsim reproduce ID --series NAME``): the
registered experiment rerun with one declared change, its claims decided by
the same code and shown beside the registered ones; the ``linux`` series of
G1, S1, Y4, S3 and G5 (issue 17 item 5: the studies with today's TCP)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pandas as pd
import pytest

from experiment_helpers import bottleneck_rate, tiny_experiment
from obsim import reproductions
from obsim.report import write_report
from obsim.reproductions import COMPARISON_COLUMNS, Reproduction
from obsim.reproductions import series as sr
from obsim.reproductions.claims import Claim
from obsim.reproductions.series import Series

LINUX_STUDIES = ("G1", "S1", "Y4", "S3", "G5")
"""The studies issue 17 item 5 asks to rerun with today's TCP."""


def _experiment(quick: bool) -> Dict[str, Any]:
    return tiny_experiment(grid={"links[1].loss.p": [0.01]}, replications=3, duration="2 s", plots=[])


FAST = Claim("goodput above 1 Mbit/s", "toy", statistic="mean", kind="greater", threshold=1.0)


def _compare(results: pd.DataFrame, exp: Any) -> pd.DataFrame:
    """Two claims on the total goodput (the bottleneck is 20 Mbit/s): above
    1 Mbit/s, and the same again under a case a series may rule out."""
    g = [float(x) for x in results["goodput"]]
    rows: List[Dict[str, Any]] = [
        FAST.decide(g).row("toy"),
        FAST.decide(g).row("toy, reno only"),
    ]
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


SLOW = Series(
    "slow link",
    "the bottleneck at 0.5 Mbit/s, to see the claim fail",
    bottleneck_rate("0.5 Mbit/s"),
    not_applicable=((r"\breno\b", "no Reno here"),),
)


def _toy() -> Reproduction:
    return Reproduction(
        id="TOY", title="toy", paper="none", experiment=_experiment, compare=_compare, series=(SLOW,)
    )


@pytest.mark.engine
def test_a_series_is_run_decided_alike_and_reported(tmp_path: Path) -> None:
    rep = _toy()
    rep.run(tmp_path, jobs=1, series=True)
    where = tmp_path / "series" / "slow-link"
    assert (where / "comparison.parquet").is_file() and (where / "experiment.json").is_file()
    claims = pd.read_parquet(where / "claims.parquet")
    assert list(claims.columns) == list(sr.SERIES_COLUMNS)
    toy = claims.set_index("case")
    # The claim holds on the registered 20 Mbit/s and fails (its interval
    # wholly below 1 Mbit/s) at 0.5 Mbit/s; the case the series rules out is
    # reported with its reason, never dropped.
    assert toy.loc["toy", "registered_outcome"] == sr.HELD and toy.loc["toy", "outcome"] == sr.FAILS
    assert bool(toy.loc["toy", "changed"]) and toy.loc["toy", "measured"] < 0.5
    assert toy.loc["toy, reno only", "outcome"] == sr.NOT_APPLICABLE
    assert toy.loc["toy, reno only", "reason"] == "no Reno here" and not toy.loc["toy, reno only", "changed"]
    info = json.loads((tmp_path / "reproduction.json").read_text())
    (entry,) = info["series"]
    assert entry["name"] == "slow link" and entry["dir"] == "series/slow-link"
    assert entry["result"]["outcomes"][sr.FAILS] == 1
    assert entry["result"]["changed"] == ["toy: goodput above 1 Mbit/s"]
    assert entry["result"]["seeds"]["estimate"] == 3
    html = write_report(tmp_path).read_text(encoding="utf-8")
    head = html.split("<h2>", 1)[0]
    assert (
        "Series slow link:</b> 0 of 1 claims held (registered 1); 1 fail, 0 undecided, 1 not applicable; "
        "1 verdict changed" in head
    )
    assert "<h3>Series slow link</h3>" in html and "the bottleneck at 0.5 Mbit/s" in html
    assert "not applicable" in html and "no Reno here" in html
    # A rerun without --series keeps the series' last result.
    rep.run(tmp_path, jobs=1)
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["series"][0]["result"]["changed"] == ["toy: goodput above 1 Mbit/s"]


def test_series_outcomes_follow_the_interval() -> None:
    up = Claim("x above 1", "toy", statistic="mean", kind="greater", threshold=1.0)
    assert sr.outcome(up.decide([2.0, 2.1, 1.9]).row("a")) == sr.HELD
    assert sr.outcome(up.decide([0.5, 0.6, 0.4]).row("a")) == sr.FAILS
    assert sr.outcome(up.decide([0.5, 1.6, 1.0]).row("a")) == sr.UNDECIDED
    assert sr.outcome(None) == sr.MISSING


def test_bad_series_names_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from obsim.cli import main

    out = tmp_path / "G1"
    assert main(["reproduce", "G1", "--quick", "--series", "windows", "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert err == "error: --series: G1 series: no series 'windows'; allowed: linux\n"
    assert not out.exists()
    assert main(["reproduce", "V1", "--quick", "--series", "linux", "--out", str(out), "-q"]) == 2
    assert capsys.readouterr().err == "error: --series: V1 declares no series\n"
    with pytest.raises(ValueError, match=r"^series: no series 'bsd'; allowed: slow-link \(slow link\)$"):
        sr.select(_toy().series, ["bsd"])
    with pytest.raises(ValueError, match=r"^series: no series 'bsd'; allowed: linux$"):
        sr.select(reproductions.get("Y4").series, ["bsd"])


def test_registration_rules() -> None:
    with pytest.raises(ValueError, match="needs a description"):
        sr.check([Series("x", " ", bottleneck_rate("1 Mbit/s"))])
    with pytest.raises(ValueError, match="share a directory name"):
        sr.check([SLOW, Series("Slow link", "again", bottleneck_rate("2 Mbit/s"))])
    with pytest.raises(ValueError, match="analytic reproduction has no series"):
        Reproduction(id="A", title="a", paper="p", experiment=None, compare=_compare, series=(SLOW,))


@pytest.mark.parametrize("rid", LINUX_STUDIES)
@pytest.mark.parametrize("quick", [True, False])
def test_linux_series_runs_the_linux_profile_at_every_point(rid: str, quick: bool) -> None:
    rep = reproductions.get(rid)
    (linux,) = [s for s in rep.series if s.name == "linux"]
    assert linux.description.startswith(sr.LINUX_TCP)
    registered = rep.build(quick)
    exp = rep.build(quick, series=linux)
    assert exp.replications == registered.replications  # the same seed plan
    own = rep.experiment_dict(quick)["scenario"]["tcp"]
    points = exp.validate_points()  # every point parses
    assert len(points) > 0
    for point, resolved in points:
        tcp = exp.scenario_for(point)["tcp"]
        assert tcp["profile"] == "linux", (rid, point.values)
        # What the study states is kept (e.g. G1's MSS 1040 B, Y4's W_m = 10).
        assert {k: tcp[k] for k in ("mss", "max_window", "rwnd", "max_consecutive_fto") if k in own} == {
            k: own[k] for k in ("mss", "max_window", "rwnd", "max_consecutive_fto") if k in own
        }
        for flow in resolved["flows"] + resolved.get("flow_generators", []):
            t = flow["tcp"]
            assert t["congestion_control"] == "cubic" and t["prr"] == "ssrb", (rid, point.values)
            assert t["initial_cwnd"] == 10 and t["rto"]["min"] == 200_000_000
            assert t["rto"]["estimator"] == "linux" and t["delayed_ack"]
            # Linux runs RACK and TLP with SACK only.
            sack = t["variant"] == "sack"
            assert t["rack_tlp"]["rack"] == sack and t["rack_tlp"]["tlp"] == sack, (rid, point.values)
            assert t["variant"] in ("sack", "newreno")


def test_g1_linux_maps_the_variants_and_reno_is_not_applicable() -> None:
    from obsim.reproductions import g1_gurel2008 as g1

    rep = reproductions.get("G1")
    exp = rep.build(False, series=g1.LINUX)
    assert sorted({p.values["tcp.variant"] for p in exp.points()}) == ["newreno", "sack"]
    reg = pd.DataFrame(
        [
            {"case": "reno p=0.001 M=10", "quantity": "q", "agrees": True, "measured": 1.5},
            {"case": "p=0.001 M=10: SACK above reno", "quantity": "q", "agrees": True, "measured": 1.1},
            {"case": "newreno p=0.001 M=10", "quantity": "q", "agrees": True, "measured": 1.5},
        ]
    )
    lin = reg.iloc[2:].assign(kind="magnitude", ci_low=1.2, ci_high=1.8, n=5)
    out = sr.series_table(reg, lin, g1.LINUX).set_index("case")
    assert out.loc["reno p=0.001 M=10", "outcome"] == sr.NOT_APPLICABLE
    assert out.loc["p=0.001 M=10: SACK above reno", "outcome"] == sr.NOT_APPLICABLE
    assert "NewReno" in out.loc["reno p=0.001 M=10", "reason"]
    assert out.loc["newreno p=0.001 M=10", "outcome"] == sr.HELD


@pytest.mark.engine
def test_y4_linux_quick_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from obsim.cli import main

    out = tmp_path / "Y4"
    assert main(["reproduce", "Y4", "--quick", "--series", "linux", "--out", str(out), "-q", "-j", "1"]) == 0
    said = capsys.readouterr().out
    assert "Y4 series linux: " in said and "magnitude rows in band (registered " in said
    claims = pd.read_parquet(out / "series" / "linux" / "claims.parquet")
    registered = pd.read_parquet(out / "comparison.parquet")
    # Every registered claim appears under the series, decided by the same code.
    assert list(claims["case"])[: len(registered)] == list(registered["case"])
    assert set(claims["outcome"]) <= {sr.HELD, sr.FAILS, sr.UNDECIDED}
    stored = json.loads((out / "series" / "linux" / "experiment.json").read_text())
    assert stored["scenario"]["tcp"]["profile"] == "linux"
    info = json.loads((out / "reproduction.json").read_text())
    assert [s["name"] for s in info["series"]] == ["linux"] and info["series"][0]["result"]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<h3>Series linux</h3>" in html and "RACK-TLP" in html

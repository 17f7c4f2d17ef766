"""Readings of unstated parameters (``obsim reproduce ID --readings``): a
toy reproduction whose claim one reading flips ("depends on reading", in
the report's headline) and one where nothing flips ("holds under all
readings"); the registration rules."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pandas as pd
import pytest

from experiment_helpers import bottleneck_rate, tiny_experiment
from obsim.report import write_report
from obsim.reproductions import COMPARISON_COLUMNS, Reproduction, claim_row
from obsim.reproductions import readings as rd
from obsim.reproductions.readings import Reading

pytestmark = pytest.mark.engine


def _experiment(quick: bool) -> Dict[str, Any]:
    return tiny_experiment(
        grid={"links[1].loss.p": [0.01]}, replications=2, duration="2 s", plots=[]
    )


def _compare(results: pd.DataFrame, exp: Any) -> pd.DataFrame:
    """One claim: total goodput above 3 Mbit/s (the bottleneck is 20 Mbit/s)."""
    g = float(results["goodput"].mean())
    rows: List[Dict[str, Any]] = [claim_row("toy", 0.01, "goodput above 3 Mbit/s", g > 3.0, g)]
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


REGISTERED = Reading(
    "bottleneck rate", "20 Mbit/s", quote="§0: 'a 20 Mbit/s link'", registered=True
)


def _toy(alternatives: List[Reading], registered: Tuple[Reading, ...] = (REGISTERED,)) -> Reproduction:
    return Reproduction(
        id="TOY",
        title="toy",
        paper="none",
        experiment=_experiment,
        compare=_compare,
        readings=(*registered, *alternatives),
    )


def test_a_flipped_claim_is_the_headline(tmp_path: Path) -> None:
    slow = Reading("bottleneck rate", "1 Mbit/s", quote="ns-2 example", apply=bottleneck_rate("1 Mbit/s"))
    rep = _toy([slow])
    rep.run(tmp_path, jobs=1, readings=True)
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["sensitivity"] == "depends on reading: 1 claim"
    assert info["sensitivity_flips"] == {
        "toy: goodput above 3 Mbit/s": ["bottleneck rate = 1 Mbit/s"]
    }
    assert (tmp_path / "readings" / "bottleneck-rate" / "1-mbit-s" / "comparison.parquet").is_file()
    sens = pd.read_parquet(tmp_path / "sensitivity.parquet")
    assert list(sens.columns) == list(rd.SENSITIVITY_COLUMNS)
    assert sens.set_index("reading")["held"].to_dict() == {"20 Mbit/s": True, "1 Mbit/s": False}
    assert sens["measured"].iloc[1] < 1.0 < 3.0 < sens["measured"].iloc[0]
    html = write_report(tmp_path).read_text(encoding="utf-8")
    head = html.split("<h2>", 1)[0]
    assert "depends on reading: 1 claim" in head and "flipped by bottleneck rate = 1 Mbit/s" in head
    assert "Sensitivity to unstated parameters" in html and "a 20 Mbit/s link" in html


def test_no_flip_holds_under_all_readings(tmp_path: Path) -> None:
    rep = _toy([Reading("bottleneck rate", "15 Mbit/s", quote="a guess", apply=bottleneck_rate("15 Mbit/s"))])
    rep.run(tmp_path, jobs=1, readings=True)
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["sensitivity"] == rd.HOLDS and info["sensitivity_flips"] == {}
    html = write_report(tmp_path).read_text(encoding="utf-8")
    assert "holds under all readings" in html.split("<h2>", 1)[0]


def test_without_readings_flag_the_verdict_is_not_run(tmp_path: Path) -> None:
    rep = _toy([Reading("bottleneck rate", "15 Mbit/s", quote="a guess", apply=bottleneck_rate("15 Mbit/s"))])
    rep.run(tmp_path, jobs=1)
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["sensitivity"] == rd.NOT_RUN and not (tmp_path / "readings").exists()
    assert [r["registered"] for r in info["readings"]] == [True, False]


def _scale(scale: float):
    """A reading that changes only what is measured (the goodput's unit)."""

    def apply(exp: Dict[str, Any], quick: bool) -> Dict[str, Any]:
        exp = copy.deepcopy(exp)
        exp["metrics"]["goodput"]["scale"] = scale
        return exp

    return apply


MEASURE = Reading("goodput unit", "Mbit/s", quote="§0: 'goodput in Mbit/s'", registered=True)
TENS = Reading("goodput unit", "10 Mbit/s", quote="a misreading", apply=_scale(1e-7))


def test_a_reading_of_the_measure_reuses_the_registered_runs(tmp_path: Path) -> None:
    """Same scenarios and seeds: the reading's store links the registered
    runs in (no simulation), and the claim is decided on them."""
    rep = _toy([TENS], registered=(MEASURE,))
    rep.run(tmp_path, jobs=1, readings=True)
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["sensitivity_flips"] == {"toy: goodput above 3 Mbit/s": ["goodput unit = 10 Mbit/s"]}
    here = tmp_path / "readings" / "goodput-unit" / "10-mbit-s"
    mine = sorted(p.relative_to(tmp_path / "runs") for p in (tmp_path / "runs").rglob("*.parquet"))
    theirs = sorted(p.relative_to(here / "runs") for p in (here / "runs").rglob("*.parquet"))
    assert mine and mine == theirs
    for rel in mine:  # linked, not recomputed
        assert (tmp_path / "runs" / rel).stat().st_ino == (here / "runs" / rel).stat().st_ino
    journal = [json.loads(x) for x in (here / "catalog.jsonl").read_text().splitlines()]
    assert len(journal) == 2 and {r["status"] for r in journal} == {"ok"}
    measured = pd.read_parquet(here / "comparison.parquet")["measured"].iloc[0]
    registered = pd.read_parquet(tmp_path / "comparison.parquet")["measured"].iloc[0]
    assert measured == pytest.approx(registered / 10)


def test_readings_of_named_parameters_only_give_a_partial_verdict(tmp_path: Path) -> None:
    slow = Reading("bottleneck rate", "1 Mbit/s", quote="ns-2 example", apply=bottleneck_rate("1 Mbit/s"))
    rep = _toy([slow, TENS], registered=(REGISTERED, MEASURE))
    rep.run(tmp_path, jobs=1, readings=["Goodput unit"])
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["sensitivity"] == "partial (goodput-unit only): depends on reading: 1 claim"
    assert (tmp_path / "readings" / "goodput-unit").is_dir()
    assert not (tmp_path / "readings" / "bottleneck-rate").exists()
    with pytest.raises(ValueError, match=r"no parameter 'routing'; allowed: bottleneck-rate"):
        rd.select(rep.readings, ["routing"])


def test_one_reading_of_a_parameter_alone(tmp_path: Path) -> None:
    """``PARAMETER/READING`` runs that alternative only (a reading's name may
    contain a slash); the verdict is partial and names it."""
    slow = Reading("bottleneck rate", "1 Mbit/s", quote="ns-2 example", apply=bottleneck_rate("1 Mbit/s"))
    fast = Reading("bottleneck rate", "40 Mbit/s", quote="ns-2 example", apply=bottleneck_rate("40 Mbit/s"))
    rep = _toy([slow, fast, TENS], registered=(REGISTERED, MEASURE))
    chosen, labels = rd.select(rep.readings, ["Bottleneck rate/1 Mbit/s"])
    assert chosen == [slow] and labels == ["bottleneck-rate/1-mbit-s"]
    assert rd.select(rep.readings, ["bottleneck-rate/1-mbit-s", "goodput unit"]) == (
        [slow, TENS],
        ["bottleneck-rate/1-mbit-s", "goodput-unit"],
    )
    # A whole parameter covers its single readings; None selects everything.
    assert rd.select(rep.readings, ["bottleneck-rate/40-mbit-s", "bottleneck rate"])[0] == [slow, fast]
    assert rd.select(rep.readings, None)[0] == [slow, fast, TENS]
    unknown = r"parameter bottleneck-rate has no alternative reading '2 Mbit/s'; allowed: 1-mbit-s"
    with pytest.raises(ValueError, match=unknown):
        rd.select(rep.readings, ["bottleneck rate/2 Mbit/s"])
    with pytest.raises(ValueError, match=r"no parameter 'routing'"):
        rd.select(rep.readings, ["routing/fewest hops"])
    rep.run(tmp_path, jobs=1, readings=["bottleneck rate/1 Mbit/s"])
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["sensitivity"] == "partial (bottleneck-rate/1-mbit-s only): depends on reading: 1 claim"
    assert (tmp_path / "readings" / "bottleneck-rate" / "1-mbit-s").is_dir()
    assert not (tmp_path / "readings" / "bottleneck-rate" / "40-mbit-s").exists()
    assert not (tmp_path / "readings" / "goodput-unit").exists()


def test_cli_rejects_an_unknown_reading_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from obsim.cli import main

    out = tmp_path / "R5"
    assert main(["reproduce", "R5", "--quick", "--readings", "latitude", "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert "--readings: R5 readings: no parameter 'latitude'; allowed:" in err and "routing" in err
    assert not out.exists()


def test_registration_rules() -> None:
    alt = Reading("bottleneck rate", "1 Mbit/s", quote="", apply=bottleneck_rate("1 Mbit/s"))
    with pytest.raises(ValueError, match="exactly one registered reading"):
        _toy([Reading("bottleneck rate", "x", quote="q", registered=True)])
    with pytest.raises(ValueError, match="exactly one registered reading"):
        rd.check([alt])
    with pytest.raises(ValueError, match="needs the paper's quote"):
        rd.check([Reading("p", "a", quote=" ", registered=True)])
    with pytest.raises(ValueError, match="needs apply"):
        rd.check([REGISTERED, Reading("bottleneck rate", "b", quote="q")])
    with pytest.raises(ValueError, match="share a directory name"):
        twin = Reading("bottleneck rate", "1 Mbit/s!", quote="", apply=alt.apply)
        rd.check([REGISTERED, alt, twin])
    with pytest.raises(ValueError, match="analytic"):
        Reproduction("A", "a", "p", None, _compare, readings=(REGISTERED,))
    assert rd.slug("per-flow links of 100/N_F Mbit/s") == "per-flow-links-of-100-n-f-mbit-s"


def test_verdict_counts_claims_not_readings() -> None:
    t = pd.DataFrame(
        [
            ("p", "a", True, "c1", "q", True, 1.0, False),
            ("p", "b", False, "c1", "q", False, 0.0, True),
            ("r", "c", False, "c1", "q", False, 0.0, True),
            ("p", "b", False, "c2", "q", True, 0.0, False),
        ],
        columns=list(rd.SENSITIVITY_COLUMNS),
    )
    assert rd.verdict(t) == "depends on reading: 1 claim"
    assert rd.flipped(t) == {"c1: q": ["p = b", "r = c"]}


def test_registered_readings_are_what_the_modules_build() -> None:
    """S1/S2 register the readings their module constants build, and every
    alternative changes the experiment."""
    from obsim import reproductions
    from obsim.reproductions import s1_gonzalez2009 as s1

    assert (s1.ACCESS, s1.ACCESS_BUFFER, s1.EDGE_QUEUE) == ("shared_link", "50 packets", "unlimited")
    reg = {r.parameter: r.name for r in s1.READINGS if r.registered}
    assert reg == {
        "access model": "one shared 100 Mbit/s link",
        "access buffer": "50 packets (ns-2 default)",
        "edge queue": "unlimited",
    }
    for rep in reproductions.all():
        if not rep.readings:
            continue
        base = rep.experiment_dict(quick=True)
        for r in rep.readings:
            if not r.registered:
                assert rep.experiment_dict(quick=True, reading=r) != base, (rep.id, r.name)


def test_cli_readings_without_registered_readings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from obsim.cli import main

    out = tmp_path / "Y3"
    assert main(["reproduce", "Y3", "--readings", "--no-report", "--out", str(out), "-q"]) == 0
    assert "Y3: no readings of unstated parameters registered" in capsys.readouterr().out
    assert json.loads((out / "reproduction.json").read_text())["sensitivity"] == rd.NOT_RUN


def test_a_reading_may_declare_a_smaller_seed_plan() -> None:
    """Reading.seeds: the reading's runs use its own plan in full mode (replications = selection +
    initial), the reproduction's in --quick; describe() and the report show it."""
    from obsim.reproductions import g4_gurel2008 as g4
    from obsim.reproductions.readings import describe

    rep = g4.REPRODUCTION
    at_i = next(r for r in rep.readings if r.name == "at the ingress edge I")
    buf = next(r for r in rep.readings if r.parameter == "access buffer" and not r.registered)
    assert at_i.seeds == g4.INGRESS_SEEDS and buf.seeds is None
    assert rep.plan_for(at_i) is g4.INGRESS_SEEDS
    assert rep.plan_for(at_i, quick=True) is rep.seeds
    assert rep.plan_for(buf) is rep.seeds and rep.plan_for(None) is rep.seeds
    reps = lambda reading: rep.experiment_dict(False, None, reading)["replications"]["count"]  # noqa: E731
    assert reps(at_i) == g4.INGRESS_SEEDS.selection + g4.INGRESS_SEEDS.initial
    assert reps(buf) == rep.seeds.selection + rep.seeds.initial
    assert reps(None) == reps(buf)
    doc = {d["name"]: d for d in describe(rep.readings)}
    assert doc["at the ingress edge I"]["seeds"] == {"initial": 3, "step": 0, "cap": 3, "selection": 1}
    assert "seeds" not in doc["50 packets (ns-2 default)"]

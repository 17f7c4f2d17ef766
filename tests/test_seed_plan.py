"""Replications by precision (SeedPlan), selection seeds, reproduction.json's
scoreboard fields, ``obsim reproduce --summary`` and the report's scoreboard
section, on a tiny reproduction."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Dict, List

import pandas as pd
import pytest

from experiment_helpers import tiny_experiment
from obsim import reproductions
from obsim.cli import main
from obsim.reproductions import (
    COMPARISON_COLUMNS,
    Reproduction,
    SeedPlan,
    claim_row,
    format_scoreboard,
    precision_unmet,
    scoreboard_row,
    tally,
)
from obsim.reproductions.claims import Claim


def test_seed_plan_validation() -> None:
    assert SeedPlan(5).cap == 5
    assert SeedPlan(3, 2, 9, selection=2).selection == 2
    for bad in (dict(initial=0), dict(initial=5, cap=3), dict(initial=3, cap=9), dict(initial=3, step=-1)):
        with pytest.raises(ValueError):
            SeedPlan(**bad)


def _table(rows: List[Dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def test_precision_unmet_and_tally() -> None:
    tight = Claim("a", "a > b", "paired_difference", "greater", precision=2.0)
    loose = Claim("b", "a > b", "paired_difference", "greater", precision=0.01)
    none = Claim("c", "a > b", "paired_difference", "greater")
    mag = Claim("m", "a about 2 b", "ratio_of_means", "magnitude", band=(1.5, 2.5))
    a, b = [10.0, 11.0, 12.0, 10.5], [5.0, 5.2, 5.1, 5.3]
    t = _table(
        [
            tight.decide(a, b).row("x"),
            loose.decide(a, b).row("y"),
            none.decide(a, b).row("z"),
            mag.decide(a, b).row("m"),
            claim_row("old", 1.0, "q", False, 1.0),
        ]
    )
    assert list(precision_unmet(t)["case"]) == ["y"]
    assert tally(t) == {"claims": {"held": 3, "total": 4}, "magnitudes": {"inside": 1, "total": 1}}


def _tiny_reproduction(precision: float, plan: SeedPlan, calls: List[pd.DataFrame]) -> Reproduction:
    """Goodput of SACK over Reno on the tiny scenario, a claim with a
    precision target; ``calls`` collects what ``compare`` was given."""

    def experiment(quick: bool) -> Dict[str, Any]:
        return tiny_experiment(
            grid={"tcp.variant": ["reno", "sack"]}, replications=2, duration="2 s", plots=[]
        )

    def compare(results: pd.DataFrame, exp: Any) -> pd.DataFrame:
        calls.append(results.copy())
        est = results[results["role"] == "estimate"] if "role" in results else results
        by = {v: g.sort_values("replication")["goodput"].tolist() for v, g in est.groupby("tcp.variant")}
        c = Claim("ratio", "SACK vs Reno", "ratio_of_means", "greater", precision=precision)
        return _table([c.decide(by["sack"], by["reno"]).row("sack/reno")])

    return Reproduction(
        id="TINY",
        title="tiny",
        paper="none",
        experiment=experiment,
        compare=compare,
        seeds=plan,
    )


@pytest.mark.engine
def test_seeds_added_until_precision_or_cap(tmp_path: Path) -> None:
    calls: List[pd.DataFrame] = []
    # An unreachable precision: seeds grow 2 -> 3 -> 4 (cap), reusing the finished runs.
    rep = _tiny_reproduction(1e-9, SeedPlan(2, 1, 4, selection=1), calls)
    summary = rep.run(tmp_path, jobs=1)
    assert [len(c) for c in calls] == [2 * 3, 2 * 4, 2 * 5]
    assert summary.ran == 2 * 5  # every (point, seed) ran once: earlier rounds were reused
    last = calls[-1]
    assert (last[last["replication"] == 0]["role"] == "selection").all()
    assert (last[last["replication"] > 0]["role"] == "estimate").all()
    info = json.loads((tmp_path / "reproduction.json").read_text())
    assert info["seeds"]["estimate"] == 4 and info["seeds"]["selection"] == 1
    assert [r["seeds"] for r in info["seeds"]["rounds"]] == [2, 3, 4]
    assert info["precision"][0]["met"] is False and info["precision"][0]["n"] == 4
    assert info["claims"]["total"] == 1 and info["magnitudes"] == {"inside": 0, "total": 0}
    assert info["sensitivity"] == "not run" and info["commit"] and info["date"].endswith("+00:00")
    # Raising nothing and running again: every run is reused.
    calls.clear()
    again = rep.run(tmp_path, jobs=1)
    assert again.ran == 0
    # Quick mode keeps the experiment's own count (2) and runs one round.
    calls.clear()
    rep.run(tmp_path / "q", quick=True, jobs=1)
    assert len(calls) == 1 and len(calls[0]) == 2 * 3
    # No precision stated: one round.
    calls.clear()
    _tiny_reproduction(math.nan, SeedPlan(2, 1, 4, selection=1), calls).run(tmp_path / "met", jobs=1)
    assert len(calls) == 1


@pytest.mark.engine
def test_two_phase_plan_runs_estimation_seeds_only_where_chosen(tmp_path: Path) -> None:
    """``estimate_at``: every point on the selection seeds first, then the
    estimation seeds only at the points the selection chose (here the
    variant with the higher selection goodput), in every round."""
    calls: List[pd.DataFrame] = []
    seen: List[pd.DataFrame] = []
    rep = _tiny_reproduction(1e-9, SeedPlan(2, 1, 3, selection=1), calls)

    def estimate_at(sel: pd.DataFrame, unmet: Any) -> Any:
        assert unmet is None  # compare states no precision: one round
        seen.append(sel.copy())
        best = sel.groupby("tcp.variant")["goodput"].mean().idxmax()
        return lambda axes: axes["tcp.variant"] == best

    def compare(results: pd.DataFrame, exp: Any) -> pd.DataFrame:
        calls.append(results.copy())
        return _table([claim_row("n", float(len(results)), "runs", True, float(len(results)))])

    rep = Reproduction(
        id="TINY2",
        title="tiny",
        paper="none",
        experiment=rep.experiment,
        compare=compare,
        seeds=SeedPlan(2, 1, 3, selection=1),
        estimate_at=estimate_at,
    )
    summary = rep.run(tmp_path, jobs=1)
    # Phase 1 saw only the selection seed (replication 0), at both variants.
    assert len(seen) == 1 and sorted(seen[0]["replication"]) == [0, 0]
    best = seen[0].groupby("tcp.variant")["goodput"].mean().idxmax()
    last = calls[-1]
    est = last[last["role"] == "estimate"]
    assert set(est["tcp.variant"]) == {best} and len(est) == 2  # 2 estimation seeds, one point
    assert len(last[last["role"] == "selection"]) == 2
    assert summary.ran == 2 + 2
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert len(manifest["runs"]) == 4  # the manifest lists what the plan runs


def test_scoreboard_rows_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = [r.id for r in reproductions.all()]
    full = {
        "id": ids[0],
        "quick": False,
        "analytic": False,
        "agrees": 3,
        "compared": 4,
        "claims": {"held": 2, "total": 3},
        "magnitudes": {"inside": 1, "total": 1},
        "seeds": {"estimate": 10, "selection": 3},
        "commit": "abc1234",
        "date": "2026-11-23T18:00:00+00:00",
        "sensitivity": "holds under all readings",
    }
    (tmp_path / ids[0]).mkdir()
    (tmp_path / ids[0] / "reproduction.json").write_text(json.dumps(full))
    quick = dict(full, id=ids[1], quick=True, sensitivity="not run")
    del quick["claims"]  # an older file: counted from agrees/compared
    (tmp_path / f"{ids[1]}-quick").mkdir()
    (tmp_path / f"{ids[1]}-quick" / "reproduction.json").write_text(json.dumps(quick))
    rows = reproductions.scoreboard(tmp_path)
    assert [r["id"] for r in rows] == ids
    assert rows[0] == {
        "id": ids[0],
        "claims": "2/3",
        "magnitudes": "1/1",
        "seeds": "10 (+3 selection)",
        "commit": "abc1234",
        "date": "2026-11-23T18:00:00+00:00",
        "sensitivity": "holds under all readings",
        "mode": "full",
    }
    assert rows[1]["mode"] == "quick" and rows[1]["claims"] == "3/4 (old rows)"
    assert all(r["claims"] == "not run" for r in rows[2:])
    assert main(["reproduce", "--summary", "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == format_scoreboard(rows)
    lines = out.splitlines()
    assert "claims held" in lines[0] and "sensitivity" in lines[0]
    assert len(lines) == 2 + len(ids)
    assert "holds under all readings" in lines[2] and lines[-1].split()[1:] == ["not", "run"]
    assert scoreboard_row("X", None)["claims"] == "not run"
    assert main(["reproduce", "V1", "--summary"]) == 2


@pytest.mark.engine
def test_report_has_the_scoreboard_and_claim_columns(tmp_path: Path) -> None:
    from obsim.report import write_report

    calls: List[pd.DataFrame] = []
    _tiny_reproduction(1e9, SeedPlan(3), calls).run(tmp_path, jobs=1)
    reproductions.record_sensitivity(tmp_path, "depends on reading")
    html = write_report(tmp_path).read_text()
    top = html.index("Trust scoreboard")
    assert top < html.index("Paper vs measured") and top < html.index("<h2>Runs")
    assert "depends on reading" in html
    for col in ("kind", "claim", "statistic", "CI", "n", "precision", "paper in CI", "held"):
        assert f">{col}</th>" in html, col
    assert "ratio_of_means" in html and "&gt; 1" in html
    assert "Precision: CI half-width needed and achieved" in html
    assert not math.isnan(pd.read_parquet(tmp_path / "comparison.parquet")["ci_low"].iloc[0])


@pytest.mark.engine
def test_post_run_adds_columns_from_extra_runs_and_reuses_them(tmp_path: Path) -> None:
    """``Reproduction.post_run``: after every round of seeds the hook gets
    the results and an ``ExtraRuns``; its further runs (here each run
    again, cut to 1 s) are stored under ``out/extra_runs`` by key, so a
    later round or a second ``run`` runs only what is new; the columns it
    adds reach ``compare`` and ``results.parquet``."""
    from obsim.reproductions import ExtraRuns

    calls: List[pd.DataFrame] = []
    base = _tiny_reproduction(1e-9, SeedPlan(2, 1, 3), calls)
    hooks: List[int] = []

    def post_run(extra: ExtraRuns, results: pd.DataFrame) -> pd.DataFrame:
        runs = []
        for row in results.to_dict("records"):
            sc = extra.scenario_of(row["point"])
            sc["simulation"]["duration"] = "1 s"
            runs.append((sc, int(row["seed"])))
        keys = extra.run(runs)
        assert all(k is not None for k in keys)
        hooks.append(len(results))
        out = results.copy()
        out["short_goodput"] = [
            float(extra.extra_store.read_table(k, "flows").to_pandas()["goodput_bps"].sum()) for k in keys
        ]
        return out

    rep = Reproduction(
        id="TINY3",
        title="tiny",
        paper="none",
        experiment=base.experiment,
        compare=base.compare,
        seeds=SeedPlan(2, 1, 3),
        post_run=post_run,
    )

    def executed() -> int:
        journal = tmp_path / "extra_runs" / "catalog.jsonl"
        return len(journal.read_text().splitlines()) if journal.is_file() else 0

    rep.run(tmp_path, jobs=1)
    assert hooks == [2 * 2, 2 * 3]  # one call per round (2 then 3 seeds)
    assert executed() == 2 * 3  # the second round ran only the third seed's reruns
    assert all("short_goodput" in c.columns for c in calls)
    res = pd.read_parquet(tmp_path / "results.parquet")
    assert "short_goodput" in res.columns and (res["short_goodput"] > 0).all()
    rep.run(tmp_path, jobs=1)
    assert executed() == 2 * 3  # nothing new
    # Another store with --reuse links the hook's runs in too, as the
    # experiment's own: nothing simulated, the same files.
    other = tmp_path / "other"
    rep.run(other, jobs=1, reuse=[tmp_path])
    assert not (other / "extra_runs" / "catalog.jsonl").is_file()
    mine = sorted((tmp_path / "extra_runs" / "runs").rglob("*.parquet"))
    theirs = sorted((other / "extra_runs" / "runs").rglob("*.parquet"))
    assert mine and [q.relative_to(other / "extra_runs") for q in theirs] == [
        q.relative_to(tmp_path / "extra_runs") for q in mine
    ]
    assert all(a.stat().st_ino == b.stat().st_ino for a, b in zip(mine, theirs))
    again = pd.read_parquet(other / "results.parquet")
    assert again["short_goodput"].tolist() == res["short_goodput"].tolist()

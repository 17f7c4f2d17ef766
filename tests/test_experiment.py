"""Experiment files: format, validation errors with key paths, expansion of
grid and zipped axes, seeds."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import obsim
from experiment_helpers import TINY_SCENARIO, tiny_experiment, to_toml
from obsim.experiment import (
    ExperimentError,
    from_dict,
    load_experiment,
    parse_key_path,
    replication_seed,
    set_key_path,
)

ROOT = Path(__file__).resolve().parent.parent


def errors_of(doc):
    with pytest.raises(ExperimentError) as ei:
        exp = from_dict(doc)
        exp.validate_points()
    return ei.value


def test_seeds_are_a_stable_hash_not_python_hash():
    # Golden values: sha256("obsim-seed:7:0")[:8] big endian. Changing the
    # derivation silently would change every stored result.
    import hashlib

    expected = int.from_bytes(hashlib.sha256(b"obsim-seed:7:0").digest()[:8], "big")
    assert replication_seed(7, 0) == expected
    assert replication_seed(1, 0) == 16207927303230870105
    seeds = [replication_seed(7, r) for r in range(100)]
    assert len(set(seeds)) == 100
    assert all(0 <= s < 2**64 for s in seeds)
    assert replication_seed(8, 0) != replication_seed(7, 0)


def test_grid_times_zip_and_replications():
    doc = tiny_experiment(replications=3)
    doc["sweep"]["zip"] = [{"tcp.max_window": [16, 32, 64], "tcp.rwnd": [16, 32, 64]}]
    exp = from_dict(doc)
    pts = exp.points()
    assert len(pts) == 2 * 2 * 3
    assert exp.axes == ["tcp.variant", "links[1].loss.p", "tcp.max_window", "tcp.rwnd"]
    # zipped keys move together
    assert all(p.values["tcp.max_window"] == p.values["tcp.rwnd"] for p in pts)
    runs = list(exp.runs())
    assert len(runs) == 36
    # common random numbers: every point uses the same seeds
    assert {r.seed for r in runs if r.replication == 1} == {replication_seed(7, 1)}
    sc = exp.scenario_for(pts[-1])
    assert sc["tcp"]["variant"] == "sack" and sc["links"][1]["loss"]["p"] == 0.03
    assert sc["tcp"]["max_window"] == 64
    assert TINY_SCENARIO["tcp"]["variant"] == "reno"  # base untouched
    resolved = exp.validate_points()
    assert len(resolved) == 12


def test_key_paths():
    assert parse_key_path("links[1].loss.p") == ["links", 1, "loss", "p"]
    assert parse_key_path("a[0][2].b") == ["a", 0, 2, "b"]
    for bad in ("", "links[x]", "a..b", ".a", "a-b"):
        with pytest.raises(ValueError):
            parse_key_path(bad)
    doc = copy.deepcopy(TINY_SCENARIO)
    set_key_path(doc, "tcp.rto.min", "1 s")  # creates the missing table
    assert doc["tcp"]["rto"] == {"min": "1 s"}
    with pytest.raises(ValueError, match="links has 2 entries, no index 5"):
        set_key_path(doc, "links[5].rate", "1 Gbit/s")
    with pytest.raises(ValueError, match="not an array"):
        set_key_path(doc, "tcp[0]", 1)


def test_bad_axis_value_is_reported_up_front_with_its_path():
    doc = tiny_experiment(grid={"links[1].loss.p": [0.01, 1.5], "tcp.variant": ["reno", "vegas"]})
    e = errors_of(doc)
    assert isinstance(e, obsim.ConfigError) and isinstance(e, ValueError)
    paths = [p for p, _ in e.errors]
    assert 'sweep.grid."links[1].loss.p"' in paths
    assert 'sweep.grid."tcp.variant"' in paths
    reasons = dict(e.errors)
    assert "1.5" in reasons['sweep.grid."links[1].loss.p"']
    assert "links[1].loss.p" in reasons['sweep.grid."links[1].loss.p"']  # the core's path
    assert (
        '"vegas"' in reasons['sweep.grid."tcp.variant"'] and "newreno" in reasons['sweep.grid."tcp.variant"']
    )
    # each bad value once, although it appears in several points
    assert len(e.errors) == 2


@pytest.mark.parametrize(
    "mutate, path, needle",
    [
        (lambda d: d.update(bogus=1), "bogus", "unknown key"),
        (lambda d: d["replications"].update(count=0), "replications.count", "integer >= 1"),
        (
            lambda d: d["sweep"]["grid"].update({"links[9].rate": ["1 Gbit/s"]}),
            'sweep.grid."links[9].rate"',
            "no index 9",
        ),
        (lambda d: d["sweep"]["grid"].update({"tcp.mss": []}), 'sweep.grid."tcp.mss"', "non-empty array"),
        (
            lambda d: d["sweep"]["grid"].update({"simulation.seed": [1, 2]}),
            'sweep.grid."simulation.seed"',
            "replications.base_seed",
        ),
        (
            lambda d: d["sweep"].update(zip=[{"tcp.mss": ["1000 B"], "tcp.rwnd": [1, 2]}]),
            "sweep.zip[0]",
            "same number of values",
        ),
        (lambda d: d["metrics"]["goodput"].update(agg="avg"), "metrics.goodput.agg", "sum, mean"),
        (lambda d: d["metrics"]["goodput"].update(table="nosuch"), "metrics.goodput.table", "flows, links"),
        (
            lambda d: d["metrics"].update(x={"expr": "goodput / nope"}),
            "metrics.x.expr",
            "unknown metric 'nope'",
        ),
        (lambda d: d["metrics"].update(x={"expr": "__import__('os')"}), "metrics.x.expr", "arithmetic"),
        (lambda d: d["plots"][0].update(x="tcp.mss"), "plots[0].x", "swept key path"),
        (lambda d: d["plots"][0].update(y="nope"), "plots[0].y", "metric name"),
        (lambda d: d.update(scenario=None), "scenario", "required"),
    ],
)
def test_experiment_errors_name_the_path(mutate, path, needle):
    doc = tiny_experiment()
    mutate(doc)
    e = errors_of(doc)
    assert path in [p for p, _ in e.errors], e.errors
    assert needle in dict(e.errors)[path]
    assert e.path == e.errors[0][0] and e.reason == e.errors[0][1]


def test_experiment_file_with_scenario_path(tmp_path):
    (tmp_path / "exp.toml").write_text(
        'name = "f"\nscenario = "' + str(ROOT / "scenarios" / "single_flow.toml") + '"\n'
        '[sweep.grid]\n"links[1].rate" = ["5 Mbit/s", "10 Mbit/s"]\n'
        '[metrics.g]\ncolumn = "goodput_bps"\n',
        encoding="utf-8",
    )
    exp = load_experiment(tmp_path / "exp.toml")
    assert exp.scenario["name"] == "single_flow" and len(exp.points()) == 2
    (tmp_path / "broken.toml").write_text("name = \n", encoding="utf-8")
    with pytest.raises(ExperimentError, match="TOML syntax error"):
        load_experiment(tmp_path / "broken.toml")


def test_shipped_example_is_valid():
    exp = load_experiment(ROOT / "experiments" / "loss_sweep.toml")
    assert len(exp.validate_points()) == 8
    assert exp.replications == 5 and exp.plots


def test_toml_roundtrip_of_helper(tmp_path):
    p = tmp_path / "e.toml"
    p.write_text(to_toml(tiny_experiment()), encoding="utf-8")
    exp = load_experiment(p)
    assert exp.to_dict() == from_dict(tiny_experiment()).to_dict() | {"source": str(p)}


def test_every_structure_error_is_reported_at_once_with_its_path():
    doc = tiny_experiment()
    doc["bogus"] = 1
    doc["description"] = 3
    doc["replications"].update(count=True, base_seed=-1, extra=1)
    doc["sweep"]["zip"] = {"tcp.mss": []}
    doc["metrics"]["goodput"].update(scale="big", unit=3)
    doc["plots"][0].update(logx="yes")
    doc["plots"].append(3)
    e = errors_of(doc)
    assert dict(e.errors) == {
        "bogus": "unknown key; allowed keys are "
        "name, description, scenario, replications, sweep, metrics, plots",
        "description": "expected a string, found 3",
        "replications.count": "expected an integer >= 1, found true",
        "replications.base_seed": "expected an integer >= 0, found -1",
        "replications.extra": "unknown key; allowed keys are count, base_seed",
        'sweep.zip[0]."tcp.mss"': "expected a non-empty array of values, found []",
        "metrics.goodput.scale": 'expected a number, found "big"',
        "metrics.goodput.unit": "expected a string, found 3",
        "plots[0].logx": 'expected true or false, found "yes"',
        "plots[1]": "expected a table with x, y, series, found 3",
    }
    assert len(e.errors) == 10


def test_metric_expressions_follow_ieee_754_and_never_raise():
    import math

    from obsim.experiment import eval_expr

    assert eval_expr("a ** a ** a", {"a": 10.0}) == math.inf
    assert eval_expr("(-a) ** 1001", {"a": 10.0}) == -math.inf
    assert math.isnan(eval_expr("(-a) ** 0.5", {"a": 2.0}))
    assert math.isnan(eval_expr("0 ** -1", {}))
    assert math.isnan(eval_expr("a / 0", {"a": 1.0}))
    assert eval_expr("1" + "0" * 400, {}) == math.inf
    assert eval_expr("(-2) ** 3", {}) == -8.0


def test_structure_and_sweep_value_errors_are_reported_together():
    # A bad plot used to hide the bad sweep values until it was fixed (errors
    # in rounds); the README promises every problem at once.
    from experiment_helpers import tiny_experiment

    from obsim.experiment import ExperimentError, from_dict

    doc = tiny_experiment(
        grid={"tcp.variant": ["reno", "vegas"], "links[1].rate": ["fast"]},
        plots=[{"x": "tcp.variant", "y": "nosuch"}],
    )
    with pytest.raises(ExperimentError) as ei:
        from_dict(doc)
    paths = [p for p, _ in ei.value.errors]
    assert paths == ["plots[0].y", 'sweep.grid."links[1].rate"', 'sweep.grid."tcp.variant"']

"""Every shipped scenarios/*.toml is generated from its builder in
obsim.topologies (obsim.scenario_files): the committed file is exactly the
rendered text, which parses back to the builder's scenario."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import obsim
from obsim import scenario_files

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def test_every_scenario_file_is_shipped_from_a_builder() -> None:
    assert sorted(f.file for f in scenario_files.SHIPPED) == sorted(p.name for p in SCENARIOS.glob("*.toml"))


@pytest.mark.config
@pytest.mark.parametrize("f", scenario_files.SHIPPED, ids=lambda f: f.file)
def test_file_is_the_builder(f: scenario_files.ScenarioFile) -> None:
    text = (SCENARIOS / f.file).read_text(encoding="utf-8")
    assert text == scenario_files.render(f), f"regenerate it: python scripts/core_scenarios.py ({f.file})"
    assert obsim.parse(SCENARIOS / f.file) == obsim.parse(f.build()), f.file
    built = {k: v for k, v in f.build().items() if v != []}
    assert scenario_files.expand(tomllib.loads(text)) == built


def test_to_toml_notes_and_sections() -> None:
    sc = {
        "name": "t",
        "trace": {"cwnd": True},
        "tcp": {"mss": "1000 B"},
        "nodes": [{"name": "a", "assembly": {"timeout": "1 ms"}}],
        "flows": [{"name": "f", "from": "a", "to": "a", "tcp": {"max_window": 8}}],
    }
    text = scenario_files.to_toml(
        sc, "# head\n", {"tcp.mss": "MSS", "nodes[0].assembly.timeout": "T", "flows": "# the flows\n"}
    )
    assert text.startswith("# head\n\nname = \"t\"\n")
    assert 'mss = "1000 B"  # MSS\n' in text and 'timeout = "1 ms"  # T\n' in text
    assert "# the flows\n[[flows]]\n" in text and "tcp = { max_window = 8 }" in text
    assert text.index("[tcp]") < text.index("[[nodes]]") < text.index("[[flows]]") < text.index("[trace]")
    assert tomllib.loads(text) == sc


def test_runs_of_like_tables_are_written_with_repeat() -> None:
    items = [{"name": "r0"}, {"name": "r1"}] + [{"name": f"s{i}", "kind": "host"} for i in range(12)]
    items += [{"name": f"N1{i}"} for i in range(3)]  # N10, N11, N12: not copies of "N1{i}"
    out = scenario_files.compact(items)
    assert [(t, k) for t, k in out][:3] == [
        ({"name": "r0"}, 0),
        ({"name": "r1"}, 1),
        ({"name": "s{i}", "kind": "host", "repeat": 12}, 2),
    ]
    assert [t["name"] for t, _ in out[3:]] == ["N10", "N11", "N12"]
    assert scenario_files.expand({"nodes": [t for t, _ in out]})["nodes"] == items


@pytest.mark.config
def test_compact_dumbbell_is_the_spelled_out_one() -> None:
    text = (SCENARIOS / "dumbbell.toml").read_text(encoding="utf-8")
    assert text.count("[[nodes]]") == 4 and "repeat = 10" in text
    assert obsim.parse(text) == obsim.parse(scenario_files.expand(tomllib.loads(text)))

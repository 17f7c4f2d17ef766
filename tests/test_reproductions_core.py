"""The optical-core reproductions (G3, G4, N1, V2) in --quick mode, the
scenario files of the chain and NSFNET against their Python builders, and
Erlang B (the files are written by scripts/core_scenarios.py)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd
import pytest

import obsim
from obsim import reproductions
from obsim.analysis.erlang import erlang_b
from obsim.topologies import (
    NSFNET_EDGE_SITES,
    NSFNET_LINKS_KM,
    gurel_chain,
    nsfnet,
    nsfnet_interarrival,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _same(a: dict, b: dict) -> None:
    assert json.loads(json.dumps(a)) == json.loads(json.dumps(b))


def test_erlang_b() -> None:
    assert erlang_b(1, 1.0) == pytest.approx(0.5)
    assert erlang_b(2, 1.0) == pytest.approx(0.2)
    assert erlang_b(0, 3.0) == 1.0
    assert erlang_b(4, 0.0) == 0.0
    # Against the closed form A^W/W! / Σ A^k/k!.
    for w, a in [(5, 3.2), (16, 14.4), (8, 0.5)]:
        closed = (a**w / math.factorial(w)) / sum(a**k / math.factorial(k) for k in range(w + 1))
        assert erlang_b(w, a) == pytest.approx(closed, rel=1e-12)
    with pytest.raises(ValueError):
        erlang_b(-1, 1.0)


def test_chain_file_is_the_builder() -> None:
    with open(SCENARIOS / "gurel2008_chain.toml", "rb") as f:
        doc = tomllib.load(f)
    _same(doc, gurel_chain())
    kinds = {n["name"]: n["kind"] for n in doc["nodes"]}
    assert [k for k, v in kinds.items() if v == "core"] == ["C0"]
    assert [k for k, v in kinds.items() if v == "edge"] == ["I", "B", "E1", "E2", "E3", "E4", "E5"]
    assert len(doc["flows"]) == 5 and all(len(f["from"]) == 4 for f in doc["flows"])


def test_nsfnet_file_is_the_builder() -> None:
    with open(SCENARIOS / "nsfnet.toml", "rb") as f:
        doc = tomllib.load(f)
    want = nsfnet(duration="20 s", warmup="1 s")
    want["simulation"]["seed"] = 1
    _same(doc, want)
    assert len(NSFNET_LINKS_KM) == 21 and len({(a, b) for a, b, _ in NSFNET_LINKS_KM}) == 21
    deg = {i: 0 for i in range(1, 15)}
    for a, b, _ in NSFNET_LINKS_KM:
        deg[a] += 1
        deg[b] += 1
    assert sorted(deg.values()) == [2, 2] + [3] * 10 + [4, 4]
    assert len(NSFNET_EDGE_SITES) == 8
    assert [n["name"] for n in doc["nodes"] if n["kind"] == "edge"] == [f"N{i}" for i in NSFNET_EDGE_SITES]
    # ρ = 0.5 per wavelength, W = 2, 100 µs bursts: one burst per 100 µs.
    assert nsfnet_interarrival(0.5, 2, "100 us") == "100 us"
    assert nsfnet_interarrival(0.3, 2, "100 us") == "166.667 us"


@pytest.mark.engine
def test_nsfnet_runs_and_offsets() -> None:
    r = obsim.run(nsfnet(load=0.2, duration="0.2 s", warmup="0.02 s"), seed=3)
    paths = r.to_pandas("paths")
    assert len(paths) == 8 * 7 and (paths["class"] == "background").all()
    # Offset = Σ Δ of the nodes after the ingress: hops × 10 µs (every node has Δ).
    assert (paths["offset_s"] - paths["hops"] * 10e-6).abs().max() < 1e-12
    assert 0 < paths["lost"].sum() < paths["bursts"].sum()
    # Edge nodes switch transit bursts: some edge node processes BCPs.
    nodes = r.to_pandas("nodes")
    assert nodes[nodes["kind"] == "edge"]["bcps"].sum() > 0


@pytest.mark.engine
def test_g3_quick(tmp_path: Path) -> None:
    rep = reproductions.get("G3")
    assert rep.build(quick=False).replications == 20
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    assert len(cmp) == 3
    assert list(cmp["kind"]) == ["greater", "equivalent", "greater"]
    assert (cmp["statistic"] == "ratio_of_ratios").all() and (cmp["n"] == 4).all()
    res = pd.read_parquet(tmp_path / "results.parquet")
    # Smaller residual offset, more loss: E1's TCP bursts lose more than E5's.
    assert res["loss_E1"].mean() > res["loss_E5"].mean()
    from obsim.reproductions.g3_gurel2008 import loss_by_bin

    t = loss_by_bin(res)
    assert len(t) == 50 and (t["bursts"] > 0).all()


@pytest.mark.engine
def test_g4_quick(tmp_path: Path) -> None:
    rep = reproductions.get("G4")
    assert len(rep.build(quick=False).points()) == 2 * 4 * 3 * 5
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    assert len(cmp) == 6 + 1
    assert cmp["paper"].iloc[0] == pytest.approx(1.2649)  # Table 2, Reno, Δ = 500 µs, M = 4, D1-D4
    assert (cmp["kind"].iloc[:6] == "magnitude").all()
    assert cmp["case"].iloc[-1].endswith("gain largest for the nearest egress")
    assert cmp["statistic"].iloc[-1] == "paired_ratio"
    # Quick: 1 selection seed chooses T, 2 others estimate.
    assert (cmp["n"] == 2).all()
    assert rep.build(quick=False).replications == 4 + 6


@pytest.mark.engine
def test_n1_quick(tmp_path: Path) -> None:
    reproductions.get("N1").run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet").set_index("case")
    # Without conversion a burst keeps its wavelength end to end: more loss.
    assert cmp.loc["ρ=0.5: no conversion loses more than full", "agrees"]
    assert cmp.loc["full: loss grows with load (ρ=0.1 → 0.5)", "agrees"]
    assert (cmp["statistic"] == "ratio_of_ratios").all() and len(cmp) == 3 + 2 * 3


@pytest.mark.engine
def test_v2_quick(tmp_path: Path) -> None:
    reproductions.get("V2").run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    assert list(cmp["case"]) == ["W=1 ρ=0.5", "W=4 ρ=0.5"]
    assert cmp["quantity"].str.contains("Erlang B, W = 4 ").iloc[1]
    assert (cmp["kind"] == "equivalent").all() and (cmp["paper"] == 1.0).all()
    # measured = pooled loss ratio / Erlang B, within 10% even in the short runs.
    res = pd.read_parquet(tmp_path / "results.parquet")
    w1 = res[res["name"] == "erlang-W1-rho0.5"]
    assert cmp["measured"].iloc[0] == pytest.approx(w1["lost"].sum() / w1["bursts"].sum() / erlang_b(1, 0.5))
    assert ((cmp["measured"] - 1).abs() < 0.1).all(), cmp


def test_g4_cells_and_nearest_egress_claim() -> None:
    """G4's rows: a table cell the paper gives as a gain is a magnitude
    claim, one it gives below 2% a "no gain" equivalence; the nearest-egress
    claim holds when E1 gains more than E5 on the same seeds, and not on
    null data (equal gains) or when E5 gains more."""
    from obsim.reproductions import g4_gurel2008 as g4

    assert g4.cell_claim("reno", 500, 4, "E1").kind == "magnitude"
    assert g4.cell_claim("sack", 200, 2, "E5").kind == "equivalent"  # paper: 0.00%
    assert g4.cell_claim("reno", 50, 4, "all").precision == pytest.approx(0.0311)
    assert math.isnan(g4.cell_claim("reno", 50, 4, "E1").precision)

    def runs(gain_e1: float, gain_e5: float) -> pd.DataFrame:
        rows = []
        for r in range(6):
            base = {"E1": 2.0 + 0.1 * r, "E5": 20.0 + r}
            for m, f in ((1, {"E1": 1.0, "E5": 1.0}), (4, {"E1": gain_e1, "E5": gain_e5})):
                row = {g4.AX_V: "reno", g4.AX_D: "500 us", g4.AX_M: m, g4.AX_T: "2 ms", "replication": r}
                for grp in g4.GROUPS:
                    noise = 1.0 + 0.01 * ((r * 7 + m) % 3 - 1)
                    row[f"goodput_{grp}"] = base.get(grp, 10.0) * f.get(grp, 1.2) * noise
                rows.append(row)
        return pd.DataFrame(rows)

    def nearest(df: pd.DataFrame) -> bool:
        rows = g4.claim_rows(g4.best_timeouts(df), df)
        return [r["agrees"] for r in rows if r["case"].endswith("nearest egress")][0]

    assert nearest(runs(1.5, 1.1))
    assert not nearest(runs(1.2, 1.2))
    assert not nearest(runs(1.1, 1.5))

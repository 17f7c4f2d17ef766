"""The ramantas2007/2008 NSFNET reproductions (R1-R5) in --quick mode, the
scenario builder they share, their claims on null data, and what R4 reads
from the traces of its lossless flows (Fig. 6)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from obsim import reproductions, topologies
from obsim.reproductions import r1_ramantas as r1
from obsim.reproductions import r2_ramantas as r2
from obsim.reproductions import r3_ramantas as r3
from obsim.reproductions import r4_ramantas as r4
from obsim.reproductions import ramantas_nsfnet as rn


def test_nsfnet_tcp_builds_the_registered_set_up() -> None:
    sc = topologies.nsfnet_tcp()
    gens = sc["flow_generators"]
    assert len(gens) == 8 and all(len(g["to"]) == 7 for g in gens)
    assert {g["rate"] for g in gens} == {350.0}  # 50 flows/s per ordered pair
    law = gens[0]["size"]
    assert law["min"] == "40 KB" and law["alpha"] == pytest.approx(700 / 660, abs=1e-6)
    # The Pareto law with that shape and minimum has the stated mean.
    assert law["alpha"] * 40e3 / (law["alpha"] - 1) == pytest.approx(700e3, rel=1e-5)
    assert sc["simulation"]["routing"] == "hops" and "generators" not in sc
    edges = [n for n in sc["nodes"] if n["kind"] == "edge"]
    assert all(n["assembly"]["trigger"] == "timer" for n in edges)
    with pytest.raises(ValueError, match="mean > min"):
        topologies.pareto_alpha_for_mean(40e3, 40e3)


def test_the_pair_is_the_registered_draw() -> None:
    import numpy as np

    sites = topologies.NSFNET_EDGE_SITES
    pairs = [(f"N{s}", f"N{d}") for s in sites for d in sites if s != d]
    assert rn.PAIR == pairs[int(np.random.default_rng(12).integers(56))]


def test_ordering_claims_fail_on_null_data() -> None:
    """No effect (the same values on both sides) holds no ordering, and the
    magnitude bands exclude the statistics' no-effect values."""
    same = [0.2, 0.25, 0.3, 0.22]
    assert not r2.CLAIMS["capfalls"].decide(same, same).held
    assert not r2.CLAIMS["q80grows"].decide(same, same).held
    assert not r3.CLAIMS["more"].decide(same, same).held
    assert not r3.CLAIMS["lessvar"].decide((same, same), (same, same)).held
    assert not r3.CLAIMS["x35"].decide(same, same).held
    assert not r4.CLAIMS["t600slower"].decide(same, same).held
    assert not r4.CLAIMS["avgfalls"].decide(same, same).held
    # R1.ss: a share at (or below) 30% is not "more than 30%"; nor is no data.
    assert not r1.CLAIMS["ss"].decide([0.3, 0.3, 0.3]).held
    assert not r1.CLAIMS["ss"].decide([0.31, 0.2, 0.45]).held
    assert not r1.CLAIMS["ss"].decide([]).held
    assert r1.CLAIMS["ss"].decide([0.5, 0.52, 0.49]).held
    # R4.peak: a 30% difference is not "the same"; one seed decides nothing.
    assert not r4.CLAIMS["peakequal"].decide([1.3, 1.32, 1.28], [1.0, 1.01, 0.99]).held
    assert not r4.CLAIMS["peakequal"].decide([1.0], [1.0]).held
    assert r4.CLAIMS["peakequal"].decide([1.0, 1.02, 0.99, 1.01], [1.0, 1.0, 1.0, 1.0]).held
    # No lossless flow reached the mark: no value, no claim.
    nan = float("nan")
    assert not r4.CLAIMS["t600_1"].decide([nan, nan]).held


def test_r_acks_reading_assembles_acks_at_every_edge() -> None:
    """R1-R4's ACK reading: bypass registered; "assembled" sets every edge's
    ``acks`` and changes nothing else of the scenario."""
    from obsim import reproductions

    for rid in ("R1", "R2", "R3", "R4"):
        rep = reproductions.get(rid)
        reg = [r for r in rep.readings if r.parameter == "ACKs" and r.registered]
        alt = [r for r in rep.readings if r.parameter == "ACKs" and not r.registered]
        assert [r.name for r in reg] == ["bypass assembly"], rid
        assert [r.name for r in alt] == ["assembled at the receiver's edge"], rid
        base = rep.experiment_dict(quick=True)["scenario"]
        acked = rep.experiment_dict(quick=True, reading=alt[0])["scenario"]
        edges = [i for i, n in enumerate(base["nodes"]) if n["kind"] == "edge"]
        assert edges and all(base["nodes"][i]["assembly"]["acks"] == "bypass" for i in edges)
        assert all(acked["nodes"][i]["assembly"]["acks"] == "assemble" for i in edges)
        for i in edges:
            acked["nodes"][i]["assembly"]["acks"] = "bypass"
        assert acked == base, rid


def _ack_clocked_trace(start: float = 0.5) -> pd.DataFrame:
    """A synthetic per-ACK trace: ACK i (snd_una = i) at 10 ms spacing for
    the first 300 ACKs, then 5 ms; 10 segments in flight before ACK 300 and
    20 after; cwnd = 2 + i. Each round from row i ends at the row whose
    snd_una reaches row i's snd_nxt, so the rate is the ACK clock's:
    10 segments / 0.1 s = 0.8 Mbit/s, then 20 / 0.1 s = 1.6 Mbit/s (MSS 1000 B)."""
    rows = []
    t = start + 0.05
    n = 700
    for i in range(n + 1):
        inflight = 10 if i < 300 else 20
        nxt = min(i + inflight, n)
        rows.append({"time_s": t, "flow": 9, "cwnd": 2.0 + i, "ssthresh": 1e9, "snd_nxt": nxt, "snd_una": i})
        t += 0.01 if i < 300 else 0.005
    return pd.DataFrame(rows)


def test_fig6_reads_the_window_marks_and_the_instant_throughput() -> None:
    tr = _ack_clocked_trace(start=0.5)
    t0 = 0.55
    # cwnd = 2 + i: 600 at ACK 598, 500 at ACK 498, 128 at ACK 126.
    t598 = t0 + 300 * 0.01 + (598 - 300) * 0.005
    st = r4.trace_stats(tr.sample(frac=1.0, random_state=1), start_s=0.5)  # any row order
    assert st["t600"] == pytest.approx(t598 - 0.5)
    assert st["t500"] == pytest.approx(t0 + 300 * 0.01 + 198 * 0.005 - 0.5)
    assert st["t128"] == pytest.approx(t0 + 126 * 0.01 - 0.5)
    assert st["cwnd_max"] == 702.0
    rates = r4.instant_throughput(tr["time_s"], tr["snd_nxt"], tr["snd_una"])
    # Rounds wholly in the 10 ms phase give 0.8 Mbit/s, in the 5 ms phase
    # 1.6 Mbit/s, and the rounds across the change lie between.
    assert rates[:280] == pytest.approx([0.8e6] * 280)
    assert rates.max() == pytest.approx(1.6e6) and rates.min() == pytest.approx(0.8e6)
    assert len(rates) == 700  # the last row has nothing in flight
    assert st["peak_mbps"] == pytest.approx(1.6)
    # Never reaching the mark: NaN, not a censored time.
    assert math.isnan(r4.trace_stats(tr[tr["cwnd"] < 550], 0.5)["t600"])
    assert math.isnan(r4.trace_stats(tr.iloc[:0], 0.5)["peak_mbps"])


def test_fig6_chooses_the_registered_lossless_flows() -> None:
    """docs/NSFNET_STUDIES.md 2.11: the pair's flows that arrived after the
    warm-up, finished, lost no burst and carry >= 1.3 MB; the three nearest
    the median arrival; in --quick the first to arrive."""
    src, dst = rn.PAIR
    recs = pd.DataFrame(
        {
            "flow": list(range(10)),
            "src": [src] * 9 + ["N1"],
            "dst": [dst] * 9 + [dst],
            "finished": [True] * 8 + [False, True],
            "start_s": [3.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 7.5, 7.6],
            "bursts_lost": [0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            "size_bytes": [2e6, 2e6, 1.2e6, 2e6, 2e6, 2e6, 2e6, 2e6, 2e6, 2e6],
        }
    )
    # Eligible: flows 1, 4, 5, 6, 7 (0 before the warm-up, 2 too small, 3
    # lossy, 8 unfinished, 9 another pair); median arrival 9 s.
    assert r4.choose_flows(recs, warmup=4.0) == [4, 5, 6]
    assert r4.choose_flows(recs, warmup=4.0, quick=True) == [1]
    assert r4.choose_flows(recs[recs["flow"] == 3], warmup=4.0) == []


@pytest.mark.engine
def test_r2_quick(tmp_path: Path) -> None:
    rep = reproductions.get("R2")
    assert len(rep.build(quick=False).points()) == 3
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    assert len(cmp) == 3 * 3 + 2 * 2
    res = pd.read_parquet(tmp_path / "results.parquet")
    # The segment cap is the access model's arithmetic: packets of 1040 B at
    # 100 Mbit/s every 83.2 us, floor(T / 83.2 us) + 1 of them in a timer T
    # (R08's 13 / 61 / 121), in every run, after ns-2's full-size last
    # packet (tcp.pad_last_segment).
    for _, row in res.iterrows():
        t_us = float(str(row[rn.AX_T]).split()[0]) * 1000
        assert row["seg_max"] == math.floor(t_us / 83.2) + 1 == r2.CAP[t_us / 1000]
    caps = cmp[cmp["quantity"].str.startswith("max segments")]
    assert len(caps) == 3 and caps["agrees"].all()
    # More flows share a burst when the timer is longer, run by run.
    by_t = res.assign(t=[float(str(t).split()[0]) for t in res[rn.AX_T]]).groupby("t")["fpb_mean"].mean()
    assert by_t[1.0] < by_t[5.0] < by_t[10.0]
    _assert_figures(tmp_path, ["R2_fig2"])


@pytest.mark.engine
def test_r3_quick(tmp_path: Path) -> None:
    rep = reproductions.get("R3")
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    assert len(cmp) == 3 * 2 + 3
    res = pd.read_parquet(tmp_path / "results.parquet")
    assert (res["flows"] > 20).all(), res["flows"]
    # A shorter timer cuts a flow into more bursts, seed by seed.
    res["t"] = [float(str(t).split()[0]) for t in res[rn.AX_T]]
    q = res.pivot(index="replication", columns="t", values="sent_q80")
    assert (q[1.0] > q[10.0]).all(), q
    _assert_figures(tmp_path, ["R3_fig3_4"])


@pytest.mark.engine
def test_r1_quick(tmp_path: Path) -> None:
    rep = reproductions.get("R1")
    assert len(rep.build(quick=False).points()) == 5 * 3
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    # 5/10 ms closeness at both sizes, 1 ms against 5 ms at 1000 KB (two
    # claims), R1.ss per size and timer, the loss ordering per timer
    assert len(cmp) == 2 + 2 + 2 * 3 + 3
    assert cmp["quantity"].str.contains("slow start").sum() == 6
    res = pd.read_parquet(tmp_path / "results.parquet")
    assert res["flow_generators[0].size"].nunique() == 2
    # Little: every edge offers 87.5 flows/s (quick), each lasting well
    # over 0.1 s at 100 Mbit/s, so tens are active per edge.
    assert (res["active"] > 10).all() and (res["loss"] > 0).all()
    # The sampler covers the generated flows: a share of them in slow start.
    assert ((res["ss"] > 0) & (res["ss"] < 1)).all(), res["ss"]


@pytest.mark.engine
def test_r4_quick(tmp_path: Path) -> None:
    rep = reproductions.get("R4")
    assert len(rep.build(quick=False).points()) == 4
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    # Four moments and the transfer-time ordering; 1 and 10 ms transfer
    # times; Fig. 6: t600 and the average per timer, t5/t1, avg1/avg10, peak.
    assert len(cmp) == 5 + 2 + 3 * 2 + 3
    assert cmp["case"].str.startswith("Fig. 6").sum() == 9
    res = pd.read_parquet(tmp_path / "results.parquet")
    # The rerun with the chosen flow traced is the same run: its records of
    # the flow equal the original's.
    assert (res["f6_mismatch"] == 0).all() and (res["f6_chosen"] == res["f6_flows"]).all()
    assert set(res["f6_flows"]) <= {0.0, 1.0} and res["f6_flows"].sum() >= 1
    f6 = pd.read_parquet(tmp_path / "fig6.parquet")
    assert len(f6) == res["f6_flows"].sum()
    assert (f6["size_bytes"] >= r4.LOSSLESS_MIN_BYTES).all()
    # A 100 Mbit/s access bounds the instant throughput (payload: 96 Mbit/s);
    # slow start ends at W_M = ssthresh = 128 before the flow ends.
    assert ((f6["peak_mbps"] > 0) & (f6["peak_mbps"] < 100 * 1000 / 1040)).all()
    assert (f6["t128"] > 0).all() and (f6["cwnd_max"] >= 128).all()
    assert (res["tput_min"] <= res["tput_mean"]).all() and (res["tput_mean"] <= res["tput_max"]).all()
    assert res["tput_var"].tolist() == pytest.approx((res["tput_std"] ** 2).tolist())
    # A 40 KB flow cannot finish faster than its bytes at 100 Mbit/s.
    assert (res["transfer_s"] > 40e3 * 8 / 100e6).all()
    _assert_figures(tmp_path, ["R4_fig6"])


def _assert_figures(out: Path, stems: list) -> None:
    """The reproduction's own figures ``stems`` are listed in
    reproduction.json and written as PNG and PDF."""
    import json

    info = json.loads((out / "reproduction.json").read_text(encoding="utf-8"))
    assert [f["file"] for f in info["figures"]] == [f"figures/{s}.png" for s in stems]
    for stem in stems:
        assert (out / "figures" / f"{stem}.png").stat().st_size > 1000
        assert (out / "figures" / f"{stem}.pdf").read_bytes()[:5] == b"%PDF-"


def test_r5_sweeps_the_papers_cases_and_every_scenario_parses() -> None:
    """R5 runs R07 Table 1's (B, C) (one-threshold rows as B = C) and R08
    Fig. 7's curves next to the single timers; every edge gets the same
    table; both window sources give valid scenarios."""
    import obsim
    from obsim.reproductions import r5_ramantas as r5

    rep = reproductions.get("R5")
    full, quick = rep.build(quick=False), rep.build(quick=True)
    assert len(full.points()) == 3 + 4 + 5 + 4 and len(quick.points()) == 3 + 4 + 3 + 2
    cases = [r5.label(a) for a in r5.assemblies(False)]
    for c in (
        "T=1 ms",
        "T=5 ms",
        "T=10 ms",
        "B=32,C=100",
        "B=32,C=32",
        "B=200,C=200",
        "B=16,C=64",
        "B=32,C=128",
    ):
        assert c in cases
    assert all(b <= c for b, c in r5.thresholds(False))
    est = rep.build(quick=True, reading=next(r for r in rep.readings if r.name.startswith("estimated")))
    for exp, source in ((quick, None), (est, "estimated")):
        for point in exp.points():
            sc = exp.scenario_for(point)
            tables = [n["assembly"] for n in sc["nodes"] if n["kind"] == "edge"]
            assert all(t == tables[0] for t in tables)
            if tables[0]["selection"] == "window":
                assert tables[0].get("window_source") == source
            obsim.parse(sc)
    registered = [r for r in rep.readings if r.parameter == "window source" and r.registered]
    assert len(registered) == 1 and "communication of the window size" in registered[0].quote


def test_r5_claims_fail_on_null_data() -> None:
    from obsim.reproductions import r5_ramantas as r5

    same = [2.0, 2.2, 2.1, 1.9, 2.05]
    for key, claim in r5.CLAIMS.items():
        if claim.kind != "magnitude":
            assert not claim.decide(same, same).held, key
    # The best is chosen on the selection seeds only.
    sel = pd.DataFrame(
        {
            "case": ["T=1 ms", "B=16,C=64", "B=32,C=100"],
            "tput_mean": [9.0, 3.0, 5.0],
            "replication": [0, 0, 0],
        }
    )
    assert r5.best_case(sel) == "B=32,C=100"
    assert "B=32,C=100" in r5.needed("B=32,C=100", quick=False)


@pytest.mark.engine
def test_r5_quick(tmp_path: Path) -> None:
    from obsim.reproductions import r5_ramantas as r5

    rep = reproductions.get("R5")
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    # Best against the 3 timers (mean), 1 and 5 ms (variance), its magnitude;
    # per B: C=4B against C=B and C=16B, the variance C=B against C=16B,
    # the peak's magnitude; the timers' magnitudes.
    assert len(cmp) == 6 + 2 * 4 + 3
    assert cmp["case"].str.contains("(chosen)", regex=False).sum() == 6
    res = r5.with_cases(pd.read_parquet(tmp_path / "results.parquet"))
    assert (res["flows"] > 20).all(), res["flows"]
    assert (res["tput_min"] <= res["tput_mean"]).all() and (res["tput_mean"] <= res["tput_max"]).all()
    # Selection seed (replication 0) at every case; estimation seeds only
    # where the claims read them.
    assert set(res[res["replication"] == 0]["case"]) == {r5.label(a) for a in r5.assemblies(True)}
    best = r5.best_case(res[res["replication"] == 0])
    assert set(res[res["replication"] > 0]["case"]) == set(r5.needed(best, quick=True))


@pytest.mark.engine
@pytest.mark.parametrize("source", ["sender", "estimated"])
def test_window_assembly_runs_on_nsfnet_under_flow_churn(source: str) -> None:
    """Window-based assembly on NSFNET with generated flows (SYN first,
    profile ns2): flows arrive, finish and free their state; both window
    sources run and keep every generated flow's bytes exact."""
    import obsim

    sc = topologies.nsfnet_tcp(
        selection="window", window_source=source, rate=40.0, duration="6 s", warmup="1 s"
    )
    edge = next(n for n in sc["nodes"] if n["kind"] == "edge")["assembly"]
    assert edge["thresholds"] == [32, 100] and "timeout" not in edge
    res = obsim.run(sc, seed=3)
    recs = res.table("flow_records").to_pandas()
    done = recs[recs["finished"]]
    assert len(done) > 100, len(done)
    assert (done["bytes_delivered"] == done["size_bytes"]).all()


def test_s3_runs_table2_and_fig14_and_every_scenario_parses() -> None:
    """S3 runs Table 2's five schemes at full conversion and Fig. 14's MF and
    SMQ also at partial and no conversion (quick: NSFNET_STUDIES 4's five
    runs), at the registered set-up; every reading's scenarios parse."""
    import obsim
    from obsim.reproductions import s3_gonzalez2009 as s3

    rep = reproductions.get("S3")
    full, quick = rep.build(quick=False), rep.build(quick=True)
    assert full.replications == 5 and quick.replications == 2
    assert s3.cases(False) == [(s, "full") for s in s3.ORDER] + [
        ("MF", "partial"),
        ("SMQ", "partial"),
        ("MF", "none"),
        ("SMQ", "none"),
    ]
    assert len(full.points()) == 9 and len(quick.points()) == 5
    sc = full.scenario_for(full.points()[0])
    assert sc["simulation"]["duration"] == "600 s" and sc["simulation"]["warmup"] == "200 s"
    assert {g["rate"] for g in sc["flow_generators"]} == {50.0}  # per edge (2.1)
    assert sc["flow_generators"][0]["size"]["alpha"] == pytest.approx(4000 / 3960, abs=1e-6)
    assert all(link["wavelengths"] == 2 for link in sc["links"])
    assert sc["metrics"] == {
        "sample_interval": "700 ms",
        "throughput_bin": "3 ms",
        "sync_index": "churn",
        "pair_bins": True,
        "pair": list(rn.PAIR),
    }
    assert sc["tcp"]["variant"] == "sack" and sc["tcp"]["max_window"] == 128
    for exp in (full, quick):
        for point in exp.points():
            sc = exp.scenario_for(point)
            scheme, conversion = s3.split_name(sc["name"])
            assert sc["optical"]["conversion"] == conversion
            tables = [n["assembly"] for n in sc["nodes"] if n["kind"] == "edge"]
            assert all(t == s3.assembly(scheme) for t in tables) and tables[0]["timeout"] == "3 ms"
            if conversion == "partial":
                assert sc["optical"]["converters"] == 1
            obsim.parse(sc)
    for reading in rep.readings:
        if not reading.registered:
            exp = rep.build(quick=True, reading=reading)
            for point in exp.points():
                obsim.parse(exp.scenario_for(point))
    # The λ-per-pair reading's own plan (declared before its run): 2 seeds in
    # full mode at 350 flows/s per edge, the registered length; quick unchanged.
    pair = next(r for r in rep.readings if r.name.startswith("50 flows/s per ordered pair"))
    assert pair.seeds is s3.PAIR_SCOPE_SEEDS and pair.seeds.initial == 2
    full_pair = rep.build(quick=False, reading=pair)
    assert full_pair.replications == 2 and rep.build(quick=True, reading=pair).replications == 2
    sc = full_pair.scenario_for(full_pair.points()[0])
    assert {g["rate"] for g in sc["flow_generators"]} == {350.0}
    assert sc["simulation"]["duration"] == "600 s" and sc["simulation"]["warmup"] == "200 s"
    params = {r.parameter for r in rep.readings}
    for p in ("lambda scope", "TCP variant", "DMQ allocation", "index definition", "index sampling"):
        assert p in params


def test_s3_claims_fail_on_null_data() -> None:
    """No effect holds no ordering or Fig. 14 claim; the AVE equivalence
    fails on a real difference and on too few seeds; a flat index gives an
    elasticity of 0, outside the "triples" band."""
    from obsim.reproductions import s3_gonzalez2009 as s3

    same = [0.2, 0.25, 0.3, 0.22, 0.27]
    for key, claim in s3.CLAIMS.items():
        if claim.kind == "greater":
            assert not claim.decide(same, same).held, key
    assert s3.CLAIMS["ave:SMQ"].decide(same, same).held
    assert not s3.CLAIMS["ave:SMQ"].decide([x * 1.5 for x in same], same).held
    assert not s3.CLAIMS["ave:SMQ"].decide([0.2], [0.2]).held
    e = [s3.elasticity(i, i, 0.05, 0.005) for i in same]
    assert e == [0.0] * len(same) and not s3.CLAIMS["triple:MF"].decide(e).held
    assert s3.CLAIMS["triple:MF"].decide([s3.elasticity(0.3, 0.1, 0.05, 0.005)]).held
    assert math.isnan(s3.elasticity(0.3, 0.1, 0.02, 0.02))
    assert not s3.CLAIMS["idx:MF"].decide([0.0, 0.01]).held
    assert s3.split_name(s3.case_name("DMQ-2", "partial")) == ("DMQ-2", "partial")


@pytest.mark.engine
def test_s3_quick(tmp_path: Path) -> None:
    from obsim.reproductions import s3_gonzalez2009 as s3

    rep = reproductions.get("S3")
    rep.run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    # Index and std per scheme (4); index and std orderings of the 3
    # adjacent pairs; AVE equivalences to MF (3); AVE ~ 35 (MF, SMQ); loss
    # and active sources; Fig. 14 and the elasticity for MF.
    assert len(cmp) == 2 * 4 + 2 * 3 + 3 + 2 + 2 + 2
    for prefix in ("idx:", "std:", "idxorder:", "stdorder:", "ave:", "ave35:", "fig14:MF", "triple:MF"):
        names = {c.name for k, c in s3.CLAIMS.items() if k.startswith(prefix)}
        assert names & set(cmp["quantity"]), prefix
    assert {s3.CLAIMS["loss"].name, s3.CLAIMS["active"].name} <= set(cmp["quantity"])
    res = s3.with_cases(pd.read_parquet(tmp_path / "results.parquet"))
    assert len(res) == 10
    # The pair's 3 ms rate: min <= mean <= max.
    assert (res["min"] <= res["ave"]).all() and (res["ave"] <= res["max"]).all()
    assert (res["std"] > 0).all() and (res["pair_flows"] > 10).all()
    # Hundreds of generated flows are active at once; no conversion loses
    # more bursts than full conversion, seed by seed.
    assert (res["active"] > 50).all()
    loss = res.pivot_table(index="replication", columns=["scheme", "conversion"], values="loss")
    assert (loss[("MF", "none")] > loss[("MF", "full")]).all()
    # Figs. 15-16: the pair's 3 ms series of the first seed, rerun with
    # metrics.pair_series (the same run: its paths row equals the original's),
    # for the quick schemes among MF, SMQ, DMQ-2, DMQ-4; its mean is the
    # original run's streamed mean.
    assert (res["f15_mismatch"] == 0).all()
    fig = pd.read_parquet(tmp_path / "fig15_16.parquet")
    assert list(fig.columns) == list(s3.FIG15_16_COLUMNS)
    assert set(fig["scheme"]) == {"MF", "SMQ", "DMQ-2"}
    first = res[(res["conversion"] == "full")].sort_values("replication").groupby("scheme").first()
    for scheme, g in fig.groupby("scheme"):
        assert g["start_s"].is_monotonic_increasing and len(g) > 1000
        assert g["rate_bps"].mean() / 1e6 == pytest.approx(first.loc[scheme, "ave"], rel=1e-9)
    # ... and drawn: Fig. 15 (MF, SMQ) and Fig. 16 (DMQ-2 alone in the quick mode).
    _assert_figures(tmp_path, ["S3_fig15", "S3_fig16"])


def test_nsfnet_explore_shares_the_700_kb_runs() -> None:
    """scripts/nsfnet_explore.py: every R experiment cut to the same three 700 KB points, one
    seed, the chosen length, one scenario name, so the four stores hold the same run keys."""
    import importlib.util

    from obsim.experiment import from_dict

    path = Path(__file__).resolve().parent.parent / "scripts" / "nsfnet_explore.py"
    spec = importlib.util.spec_from_file_location("nsfnet_explore", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    scenarios = {}
    for rid in ("R1", "R2", "R3", "R4"):
        doc = mod.shared(reproductions.get(rid).experiment(False), 300.0, 200.0, 0)
        exp = from_dict(doc)
        assert exp.replications == 1
        points = exp.points()
        assert len(points) == 3, rid
        scenarios[rid] = [exp.scenario_for(p) for p in points]
        for sc in scenarios[rid]:
            assert sc["simulation"]["duration"] == "300 s" and sc["simulation"]["warmup"] == "200 s"
            assert {round(rn.mean_kb(g["size"])) for g in sc["flow_generators"]} == {700}
        timers = [sc["nodes"][0]["assembly"]["timeout"] for sc in scenarios[rid]]
        assert timers == ["1 ms", "5 ms", "10 ms"], (rid, timers)
    assert scenarios["R1"] == scenarios["R2"] == scenarios["R3"] == scenarios["R4"]


@pytest.mark.parametrize("quick", [True, False])
def test_r1_to_r4_share_their_700kb_runs(tmp_path: Path, quick: bool) -> None:
    """R1-R4's 700 KB points at timers 1, 5 and 10 ms are one simulation:
    with the one scenario name (rn.SCENARIO_NAME) their run keys are equal,
    so ``obsim reproduce R3 --reuse OUT/R2`` links R2's runs instead of
    simulating them again."""
    from obsim.store import Store
    from obsim.sweep import plan

    def keys(rid: str) -> dict:
        exp = reproductions.get(rid).build(quick)
        runs = plan(exp, Store(tmp_path / rid), validate=False)["runs"]
        out = {}
        for run in runs:
            axes = run["axes"]
            sizes = [v for k, v in axes.items() if k.endswith(".size")]
            if sizes and round(rn.mean_kb(sizes[0])) != 700:
                continue
            out[(str(axes[rn.AX_T]), run["seed"])] = run["key"]
        return out

    shared = keys("R2")
    assert len(shared) == 3 * (2 if quick else 5)
    assert keys("R3") == shared
    r4_keys = keys("R4")
    assert {k: r4_keys[k] for k in shared} == shared
    if not quick:  # R1's quick mode runs 400 KB and 1000 KB only; R4's, no 100 ms point
        assert len(r4_keys) > len(shared)  # R4's 100 ms point is its own
        r1_keys = keys("R1")
        assert {k: r1_keys[k] for k in shared} == shared


def test_reuse_must_name_a_result_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from obsim.cli import main

    assert main(["reproduce", "R3", "--quick", "--out", str(tmp_path / "o"), "--reuse", str(tmp_path)]) == 2
    assert "--reuse" in capsys.readouterr().err

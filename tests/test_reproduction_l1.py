"""L1 (the linux profile against the kernel through obsim emulate): the quick
mode end to end. Without root the kernel's side cannot run, and every claim
must then be undecided rather than decided on missing data; with root, the
emulations run and are stored by what the kernel depends on, for reuse."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from obsim import reproductions
from obsim.emulate import privilege_problem

pytestmark = pytest.mark.engine


def test_without_privileges_no_claim_is_decided(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("obsim.emulate.privilege_problem", lambda: "no root here")
    reproductions.get("L1").run(tmp_path, quick=True, jobs=1)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    assert len(cmp) == 4 and set(cmp["quantity"]) == {"goodput linux/kernel", "timeouts linux/kernel"}
    assert not cmp["agrees"].any()
    assert cmp["measured"].isna().all()
    assert not (tmp_path / "emulations").exists()
    # The simulated side ran, with the linux profile and CUBIC or Reno.
    exp = json.loads((tmp_path / "experiment.json").read_text())
    assert exp["scenario"]["tcp"]["profile"] == "linux"


@pytest.mark.skipif(privilege_problem() is not None, reason=str(privilege_problem()))
def test_quick_mode_emulates_every_run_once(tmp_path: Path) -> None:
    rep = reproductions.get("L1")
    rep.run(tmp_path, quick=True, jobs=1)
    files = sorted((tmp_path / "emulations").glob("*.json"))
    assert len(files) == 4
    summaries = [json.loads(f.read_text()) for f in files]
    assert {s["congestion_control"] for s in summaries} == {"reno", "cubic"}
    assert all(s["goodput_bps"] > 1e6 and s["lateness_p99_s"] < 0.01 for s in summaries)
    cmp = pd.read_parquet(tmp_path / "comparison.parquet")
    good = cmp[cmp["quantity"] == "goodput linux/kernel"]
    assert len(good) == 2 and good["measured"].map(math.isfinite).all()
    # A rerun reuses the stored emulations (no file is rewritten).
    stamps = [f.stat().st_mtime_ns for f in files]
    rep.run(tmp_path, quick=True, jobs=1)
    assert [f.stat().st_mtime_ns for f in files] == stamps


def test_every_registered_full_experiment_parses_at_every_point() -> None:
    # A full mode is run rarely; its every point must still parse (L1's
    # SACK-off points once asked RACK of NewReno, found only at the run).
    for rep in reproductions.all():
        if not rep.analytic:
            rep.build(quick=False).validate_points()


def test_l1_claims_can_fail_and_can_hold() -> None:
    # Declared in the module before any run; decided here on made-up
    # per-seed values: equal goodputs hold, a 20% gap fails, and so do
    # timeouts twice the kernel's.
    from obsim.reproductions.l1_linux_kernel import GOODPUT, TIMEOUTS

    kernel = [10.0e6, 10.2e6, 9.8e6, 10.1e6, 9.9e6]
    assert GOODPUT.decide([k * 1.001 for k in kernel], kernel).held
    assert not GOODPUT.decide([k * 1.2 for k in kernel], kernel).held
    assert not GOODPUT.decide([k * 0.8 for k in kernel], kernel).held
    rtos = [3.0, 4.0, 3.0, 5.0, 4.0]
    assert TIMEOUTS.decide(rtos, rtos).held
    assert not TIMEOUTS.decide([2 * x for x in rtos], rtos).held


def test_kernel_runs_are_stored_by_what_the_kernel_depends_on(tmp_path: Path) -> None:
    # The kernel's side depends on the path, its congestion control, SACK
    # and the seed, not on obsim's TCP: a change to the linux profile must
    # reuse the stored emulations (about 2 h of real time in full mode).
    import copy
    from types import SimpleNamespace

    from obsim.reproductions.l1_linux_kernel import _emulation_path, experiment, kernel_key

    sc = experiment(True)["scenario"]
    key = kernel_key(sc, 7)
    same = copy.deepcopy(sc)
    same["tcp"]["small_queues"] = {"enabled": False}
    same["tcp"]["rto"] = {"min": "1 s"}
    assert kernel_key(same, 7) == key
    for change in (
        lambda s: s["tcp"].update(congestion_control="cubic"),
        lambda s: s["tcp"].update(variant="newreno"),
        lambda s: s["links"][2]["burst_loss"].update(p=0.05),
        lambda s: s["nodes"][1]["assembly"].update(timeout="1 ms"),
        lambda s: s["links"][2]["burst_loss"].update(pattern="even"),
    ):
        other = copy.deepcopy(sc)
        change(other)
        assert kernel_key(other, 7) != key
    assert kernel_key(sc, 8) != key
    # The access shaping's bucket is part of the kernel's side: runs stored
    # with the two-packet default (before session 14) are not reused.
    import obsim.reproductions.l1_linux_kernel as l1

    try:
        l1.ACCESS_BUCKET = 3000
        assert kernel_key(sc, 7) != key
    finally:
        l1.ACCESS_BUCKET = l1.ACCESS_BUCKET_ONE_PACKET
    # A summary an earlier L1 stored under the run key is moved to the new name.
    extra = SimpleNamespace(out=tmp_path)
    (tmp_path / "emulations").mkdir()
    (tmp_path / "emulations" / "runkey.json").write_text('{"goodput_bps": 1}\n')
    f = _emulation_path(extra, sc, 7, "runkey")  # type: ignore[arg-type]
    assert f.name == f"k-{key}.json" and f.exists()
    assert not (tmp_path / "emulations" / "runkey.json").exists()


def test_the_loss_pattern_readings_run_without_privileges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # L1's one open parameter, the loss pattern: the even and stratified
    # readings rewrite only the core link's pattern, and `--readings` runs
    # them (simulated side; without root no claim is decided under any).
    from obsim.reproductions.l1_linux_kernel import READINGS, experiment

    assert [r.registered for r in READINGS] == [True, False, False]
    doc = experiment(True)
    for reading, name in zip(READINGS[1:], ("even", "stratified")):
        other = reading.apply(doc, True)  # type: ignore[misc]
        assert doc["scenario"]["links"][2]["burst_loss"]["pattern"] == "random"
        assert other["scenario"]["links"][2]["burst_loss"]["pattern"] == name
        same = copy.deepcopy(doc)
        same["scenario"]["links"][2]["burst_loss"]["pattern"] = name
        assert other == same
    monkeypatch.setattr("obsim.emulate.privilege_problem", lambda: "no root here")
    reproductions.get("L1").run(tmp_path, quick=True, jobs=1, readings=True)
    cmps = sorted((tmp_path / "readings").rglob("comparison.parquet"))
    assert len(cmps) == 2
    cmp = pd.read_parquet(cmps[0])
    assert len(cmp) == 4 and cmp["measured"].isna().all()


def test_post_run_reads_the_kernels_undo_counters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel's undo counters become emu_* columns beside obsim's; a
    # summary stored before they were recorded gives NaN, not 0.
    from types import SimpleNamespace

    from obsim.reproductions.l1_linux_kernel import _emulation_path, experiment, post_run

    monkeypatch.setattr("obsim.emulate.privilege_problem", lambda: "no root here")
    sc = experiment(True)["scenario"]
    extra = SimpleNamespace(out=tmp_path, scenario_of=lambda point: sc)
    old = {"goodput_bps": 2e6, "timeouts": 3, "retransmits": 40, "loss_probes": 5, "lateness_p99_s": 1e-4}
    new = {**old, "spurious_rtos": 1, "loss_undos": 2, "recovery_undos": 0, "dsack_undos": 4}
    for seed, summary in ((1, old), (2, new)):
        f = _emulation_path(extra, sc, seed, f"run{seed}")  # type: ignore[arg-type]
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps(summary))
    results = pd.DataFrame({"point": [0, 0, 0], "seed": [1, 2, 3], "key": ["run1", "run2", "run3"]})
    out = post_run(extra, results)  # type: ignore[arg-type]
    assert list(out["emu_goodput"][:2]) == [2e6, 2e6] and math.isnan(out["emu_goodput"][2])
    assert math.isnan(out["emu_loss_undos"][0]) and out["emu_loss_undos"][1] == 2
    assert (out["emu_spurious_rtos"][1], out["emu_dsack_undos"][1]) == (1, 4)
    assert out["emu_recovery_undos"].isna().tolist() == [True, False, True]
    # obsim's side of the same counts is a metric of the experiment.
    metrics = experiment(True)["metrics"]
    undo = ("loss_undos", "recovery_undos", "dsack_undos", "spurious_rtos")
    assert [metrics[k]["column"] for k in undo] == list(undo)

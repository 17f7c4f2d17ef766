"""The summary printed by ``obsim run`` (``obsim.summary``): OBS paths, burst
loss ratio, wavelength utilisation, UDP traffic, the last line. The numbers
shown are checked against the result tables of the same run, not hard-coded."""

from __future__ import annotations

import io
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pyarrow as pa
import pytest
from rich.console import Console

import obsim
from obsim import api, cli, summary
from obsim.results import Results

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"


def shortened(name: str, tmp_path: Path, duration: str) -> Path:
    """A copy of ``scenarios/NAME`` in ``tmp_path`` with ``simulation.duration``
    replaced (the run stays the same scenario, only shorter)."""
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    new, n = re.subn(r'(?m)^duration = "[^"]*"', f'duration = "{duration}"', text, count=1)
    assert n == 1, f"{name} has no simulation.duration line"
    path = tmp_path / name
    path.write_text(new, encoding="utf-8")
    return path


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``obsim ARGS`` in a subprocess, with a wide terminal so that table rows do not wrap."""
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "obsim", *args], capture_output=True, text=True, timeout=300, env=env
    )


def cells(stdout: str) -> List[List[str]]:
    """The rows of every table in ``stdout``, as lists of stripped cells."""
    return [
        [c.strip() for c in line.strip().strip("│").split("│")]
        for line in stdout.splitlines()
        if line.strip().startswith("│")
    ]


def fmt_int(v: Any) -> str:
    return f"{int(v):,}"


def fmt_ratio(v: float) -> str:
    return f"{v:,.4f}"


def rendered(res: Results, **kwargs: Any) -> str:
    """What :func:`obsim.summary.render` prints for ``res`` on a wide console."""
    buf = io.StringIO()
    summary.render(res, console=Console(file=buf, width=200), **kwargs)
    return buf.getvalue()


@pytest.mark.engine
def test_nsfnet_shows_per_path_bursts(tmp_path: Path) -> None:
    scen = shortened("nsfnet.toml", tmp_path, "2 s")
    p = run_cli("run", str(scen))
    assert p.returncode == 0, p.stderr
    out = p.stdout
    res = obsim.run(scen)  # the same scenario and seed: the same tables
    paths = res.paths.to_pylist()
    n = len(paths)
    assert n > summary.MAX_PATHS  # 8 edges: 56 (ingress, egress) pairs

    assert "nsfnet (seed 1): no TCP flows" in out
    assert "goodput" not in out
    assert f"the {summary.MAX_PATHS} worst of {n} by burst loss ratio" in out
    assert f"{n - summary.MAX_PATHS} more paths not shown" in out

    by_key: Dict[tuple, Dict[str, Any]] = {(r["ingress"], r["egress"], r["class"]): r for r in paths}
    shown = []
    for row in cells(out):
        m = re.fullmatch(r"(\S+) -> (\S+)", row[0])
        if m and len(row) == 7 and (m[1], m[2], row[1]) in by_key:
            r = by_key[(m[1], m[2], row[1])]
            assert row[2:] == [
                fmt_int(r["hops"]),
                fmt_int(r["bursts"]),
                fmt_int(r["lost"]),
                fmt_int(r["blocked"]),
                fmt_ratio(r["loss_ratio"]),
            ], row
            shown.append(r)
    assert len(shown) == summary.MAX_PATHS
    # the worst: no path left out loses a larger fraction than one shown
    hidden = [r for r in paths if r not in shown]
    assert min(r["loss_ratio"] for r in shown) >= max(r["loss_ratio"] for r in hidden)
    assert [r["loss_ratio"] for r in shown] == sorted((r["loss_ratio"] for r in shown), reverse=True)

    sent = sum(r["bursts"] for r in paths)
    lost = sum(r["lost"] for r in paths)
    blocked = sum(r["blocked"] for r in paths)
    assert lost > 0
    ratio = fmt_ratio(lost / sent)
    total = ["total", f"{n} paths", "", fmt_int(sent), fmt_int(lost), fmt_int(blocked), ratio]
    assert total in cells(out)
    line = f"burst loss ratio {fmt_ratio(lost / sent)}: {lost:,} of {sent:,} bursts lost, {blocked:,} blocked"
    assert line in out

    # wavelength utilisation over every wavelength of every optical link direction
    wl = res.wavelengths.to_pylist()
    u = [r["utilisation"] for r in wl]
    n_dirs = len({r["link"] for r in wl})
    carried = fmt_int(sum(r["bursts"] for r in wl))
    assert ["all", str(len(u)), carried, "", f"{sum(u) / len(u):.3f}", f"{max(u):.3f}"] in cells(out)
    assert f"{n_dirs - summary.MAX_PATHS} more not shown" in out
    busiest = max({r["link"] for r in wl}, key=lambda k: sum(x["utilisation"] for x in wl if x["link"] == k))
    per = [x for x in wl if x["link"] == busiest]
    assert [
        f"{per[0]['from']} -> {per[0]['to']}",
        str(len(per)),
        fmt_int(sum(x["bursts"] for x in per)),
    ] == next(c for c in cells(out) if c[0] == f"{per[0]['from']} -> {per[0]['to']}")[:3]

    assert "UDP" not in out
    assert "synchronization index" not in out  # no flows
    assert out.rstrip().splitlines()[-1] == summary.NOTHING_SAVED


@pytest.mark.engine
def test_packet_only_run_has_no_optical_section(write_scenario: Callable[..., Path], tmp_path: Path) -> None:
    from conftest import small_scenario

    scen = write_scenario(small_scenario())
    out_dir = tmp_path / "out"
    p = run_cli("run", str(scen), "--out", str(out_dir))
    assert p.returncode == 0, p.stderr
    for absent in ("OBS paths", "burst loss ratio", "wavelength", "UDP", "bursts assembled", "no TCP flows"):
        assert absent not in p.stdout, absent
    assert "goodput Mbit/s" in p.stdout and "2 flows" in p.stdout
    assert p.stdout.rstrip().splitlines()[-1] == f"results written to {out_dir}"
    assert (out_dir / "meta.json").exists()


@pytest.mark.engine
def test_udp_traffic_section(tmp_path: Path) -> None:
    scen = shortened("yu2004_lossy_access.toml", tmp_path, "8 s")
    p = run_cli("run", str(scen))
    assert p.returncode == 0, p.stderr
    res = obsim.run(scen)
    traffic = res.traffic.to_pylist()
    assert traffic
    assert f"UDP cross traffic ({len(traffic)} sources, datagrams)" in p.stdout
    rows = cells(p.stdout)
    for r in traffic:
        assert [
            str(r["source"]),
            r["group"],
            f"{r['src']} -> {r['dst']}",
            fmt_int(r["packets_sent"]),
            fmt_int(r["packets_delivered"]),
            fmt_int(r["packets_dropped"]),
            f"{r['throughput_bps'] / 1e6:,.3f}",
        ] in rows
    # flows exist, so the synchronization index is shown
    assert math.isfinite(res.meta["sync_index"])
    assert re.search(rf"synchronization index\s+{res.meta['sync_index']:.3f}", p.stdout)
    assert "OBS paths" in p.stdout  # an OBS path between the access networks


# --- synthetic results: truncation, ordering, empty sections ------------------


def synthetic(
    n_paths: int, traffic: int = 0, flows: bool = False, meta: Optional[Dict[str, Any]] = None
) -> Results:
    """Results with ``n_paths`` OBS paths (path i loses i % 7 of 100 bursts,
    the last one sends none), two optical link directions and ``traffic`` UDP sources."""
    paths = {
        "ingress": [f"E{i}" for i in range(n_paths)],
        "egress": ["X"] * n_paths,
        "class": ["tcp"] * n_paths,
        "hops": [2] * n_paths,
        "bursts": [100] * (n_paths - 1) + [0],
        "lost": [i % 7 for i in range(n_paths - 1)] + [0],
        "blocked": [i % 3 for i in range(n_paths - 1)] + [0],
        "loss_ratio": [(i % 7) / 100 for i in range(n_paths - 1)] + [math.nan],
    }
    wavelengths = {
        "link": [0, 0, 1],
        "from": ["A", "A", "B"],
        "to": ["B", "B", "A"],
        "wavelength": [0, 1, 0],
        "bursts": [5, 7, 0],
        "utilisation": [0.2, 0.6, 0.0],
    }
    tables: Dict[str, pa.Table] = {"paths": pa.table(paths), "wavelengths": pa.table(wavelengths)}
    if traffic:
        tables["traffic"] = pa.table(
            {
                "source": list(range(traffic)),
                "group": ["u"] * traffic,
                "src": ["a"] * traffic,
                "dst": ["b"] * traffic,
                "packets_sent": [10] * traffic,
                "packets_delivered": [9] * traffic,
                "packets_dropped": [1] * traffic,
                "throughput_bps": [1e6] * traffic,
            }
        )
    if flows:
        tables["flows"] = pa.table({"flow": [0], "src": ["a"], "dst": ["b"], "goodput_bps": [1e6]})
    return Results(
        meta={"scenario": "syn", "seed": 3, "events": 1, "end_time_s": 1.0, **(meta or {})},
        tables=tables,
        scenario={},
        scenario_text="",
        scenario_format="toml",
    )


def test_truncation_keeps_the_worst_paths() -> None:
    out = rendered(synthetic(20), max_paths=4)
    shown = [c[0] for c in cells(out) if c[0].endswith("-> X")]
    # loss ratio 0.06 (i % 7 == 6: E6, E13), then 0.05 (E5, E12); the path with no burst never
    assert sorted(shown) == ["E12 -> X", "E13 -> X", "E5 -> X", "E6 -> X"]
    assert "the 4 worst of 20 by burst loss ratio" in out
    assert "16 more paths not shown" in out
    assert "syn (seed 3): no TCP flows" in out
    assert out.rstrip().splitlines()[-1] == summary.NOTHING_SAVED


def test_few_paths_all_shown_in_order_without_count_line() -> None:
    out = rendered(synthetic(3))
    assert [c[0] for c in cells(out) if c[0].endswith("-> X")] == ["E0 -> X", "E1 -> X", "E2 -> X"]
    assert "not shown" not in out
    assert "OBS paths: bursts after warm-up (3 paths)" in out
    assert ["E2 -> X", "tcp", "2", "0", "0", "0", "-"] in cells(out)  # no burst: no ratio
    assert "burst loss ratio 0.0050: 1 of 200 bursts lost, 1 blocked" in out
    # per link direction: mean and max over its wavelengths
    assert ["A -> B", "2", "12", "-", "0.400", "0.600"] in cells(out)
    assert ["B -> A", "1", "0", "-", "0.000", "0.000"] in cells(out)
    assert "wavelength utilisation (2 optical link directions)" in out


def test_single_path_has_no_total_row() -> None:
    out = rendered(synthetic(1))
    assert not any(c[0] == "total" for c in cells(out))
    assert "burst loss ratio -: 0 of 0 bursts lost" in out


def test_traffic_rows_bounded_by_max_rows() -> None:
    out = rendered(synthetic(2, traffic=5), max_rows=2)
    assert "3 more sources" in out
    assert ["total", "5 sources", "", "50", "45", "5", "5.000"] in cells(out)


def test_sync_index_only_with_flows_and_when_defined() -> None:
    assert "synchronization index" not in rendered(synthetic(2, meta={"sync_index": 0.5}))
    assert "synchronization index" not in rendered(synthetic(2, flows=True, meta={"sync_index": math.nan}))
    out = rendered(synthetic(2, flows=True, meta={"sync_index": 0.5}))
    assert re.search(r"synchronization index\s+0\.500", out)
    assert "no TCP flows" not in out and "1 flow" in out


def test_no_optical_tables_no_optical_section() -> None:
    res = Results(meta={"scenario": "p"}, tables={}, scenario={}, scenario_text="", scenario_format="toml")
    out = rendered(res, out=Path("/some/dir"))
    assert "OBS" not in out and "wavelength" not in out and "UDP" not in out
    assert out.rstrip().splitlines()[-1] == "results written to /some/dir"


def test_cli_prints_where_results_went(
    monkeypatch: pytest.MonkeyPatch,
    write_scenario: Callable[..., Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fake import FakeCore

    monkeypatch.setattr(api._core, "run", FakeCore())
    scen = write_scenario('name = "t"\n')
    assert cli.main(["run", str(scen)]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == summary.NOTHING_SAVED
    out = tmp_path / "o"
    assert cli.main(["run", str(scen), "--out", str(out)]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == f"results written to {out}"
    assert cli.main(["run", str(scen), "--out", str(tmp_path / "q"), "--quiet"]) == 0
    assert capsys.readouterr().out == ""

"""End-to-end tests of flow generators (``[[flow_generators]]``, issue 12)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict

import pyarrow.parquet as pq
import pytest

import obsim

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """
[simulation]
duration = "{secs} s"
[tcp]
variant = "newreno"
mss = "1000 B"
[[nodes]]
name = "a"
[[nodes]]
name = "r"
kind = "router"
[[nodes]]
name = "b"
[[nodes]]
name = "c"
[[links]]
from = "a"
to = "r"
rate = "100 Mbit/s"
delay = "2 ms"
[[links]]
from = "r"
to = "b"
rate = "100 Mbit/s"
delay = "8 ms"
[[links]]
from = "r"
to = "c"
rate = "100 Mbit/s"
delay = "8 ms"
[[flow_generators]]
name = "web"
from = "a"
to = ["b", "c"]
weights = [1, 3]
rate = {rate}
size = "20 KB"
"""


def test_flow_records_table_and_littles_law(tmp_path: Path) -> None:
    """Records are exact, written to Parquet, and their time-average number
    of active flows equals λ times the mean completion time within 3
    standard errors (Little's law, computed from the table alone)."""
    secs, rate = 100.0, 30.0
    res = obsim.run(SCENARIO.format(secs=int(secs), rate=rate))
    rec = res.flow_records.to_pydict()
    n = len(rec["flow"])
    assert n > 2000
    assert sorted(rec["flow"]) == list(range(n)), "ids 0..n-1 in arrival order"
    assert set(rec["generator"]) == {"web"}
    to_c = sum(d == "c" for d in rec["dst"]) / n
    assert abs(to_c - 0.75) < 5 * math.sqrt(0.75 * 0.25 / n)
    done = [i for i in range(n) if rec["finished"][i]]
    for i in done:
        assert rec["bytes_delivered"][i] == rec["size_bytes"][i] == 20_000
    # L: integral of the number active over [0, secs] / secs.
    area = sum((rec["end_s"][i] if rec["finished"][i] else secs) - rec["start_s"][i] for i in range(n))
    w = [rec["completion_s"][i] for i in done]
    mean = sum(w) / len(w)
    var = sum((x - mean) ** 2 for x in w) / (len(w) - 1)
    lw = rate * mean
    se = lw * math.sqrt(1 / len(w) + var / (mean * mean * len(w)))
    assert abs(area / secs - lw) < 3 * se, (area / secs, lw, se)
    res.write(tmp_path)
    table = pq.read_table(tmp_path / "flow_records.parquet")
    assert table.num_rows == n


def test_active_time_after_warmup_is_each_flows_clipped_lifetime() -> None:
    """``active_after_warmup_s`` is the part of [start, end] (or [start, run
    end] for a flow still running) after the warm-up, so its sum over the
    measured time is the time-average number of active flows."""
    text = SCENARIO.format(secs=30, rate=30.0).replace(
        'duration = "30 s"', 'duration = "30 s"\nwarmup = "10 s"'
    )
    res = obsim.run(text)
    rec = res.flow_records.to_pydict()
    assert res.meta["warmup_s"] == 10.0
    for i in range(len(rec["flow"])):
        end = rec["end_s"][i] if rec["finished"][i] else 30.0
        want = max(0.0, end - max(rec["start_s"][i], 10.0))
        assert rec["active_after_warmup_s"][i] == pytest.approx(want, abs=1e-9)
        rate = rec["bytes_delivered"][i] * 8 / (end - rec["start_s"][i])
        assert rec["throughput_bps"][i] == pytest.approx(rate, rel=1e-9)
        if rec["finished"][i]:
            assert rec["throughput_bps"][i] == pytest.approx(rec["goodput_bps"][i], rel=1e-9)
    assert any(r > 0 for r in rec["active_after_warmup_s"])
    assert any(r == 0 for r in rec["active_after_warmup_s"])  # flows ended before 10 s


def test_bad_generator_names_its_key() -> None:
    """λ <= 0 is refused with its key path."""
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(SCENARIO.format(secs=10, rate=0))
    assert "flow_generators[0].rate" in str(e.value)


def test_generated_flows_through_obs_edges() -> None:
    """Generated flows cross an OBS core: records count the bursts that
    carried them; a generator whose data would enter the optical domain at
    an edge without assembly is refused, naming the generator's key."""
    gen = """
[[flow_generators]]
name = "web"
from = "{src}"
to = "{dst}"
rate = 20
size = {{ law = "pareto", alpha = 1.5, min = "40 KB" }}
access = "pipe"
access_rate = "100 Mbit/s"
access_delay = "1 ms"
"""
    text = (ROOT / "scenarios" / "gurel2008_access.toml").read_text()
    res = obsim.run(text + gen.format(src="O1", dst="O2"))
    rec = res.flow_records.to_pydict()
    done = [i for i, f in enumerate(rec["finished"]) if f]
    assert len(done) > 100
    assert all(rec["bytes_delivered"][i] == rec["size_bytes"][i] for i in done)
    assert all(rec["bursts_sent"][i] >= 1 for i in done)
    nsf = (ROOT / "scenarios" / "nsfnet.toml").read_text()
    with pytest.raises(obsim.SimulationError) as e:
        obsim.run(nsf + gen.format(src="N1", dst="N3"))
    assert "flow_generators[0].to[0]" in str(e.value)


def _small_nsfnet(**metrics: Any) -> Dict[str, Any]:
    """NSFNET with TCP flow generators, small enough for a test: 40 flows/s
    per edge of 40-400 KB for 4 s (1 s warm-up), sampled every 50 ms."""
    from obsim import topologies

    sc = topologies.nsfnet_tcp(rate=40.0, mean_size="100 KB", duration="4 s", warmup="1 s")
    sc["metrics"] = {"sample_interval": "50 ms", **metrics}
    return sc


def test_sampler_covers_generated_flows_on_nsfnet() -> None:
    """The aggregate metrics cover generated flows (NSFNET_STUDIES.md §3 items
    1-2): the series counts exactly the flows the records show alive at each
    sample, the index and the slow-start fraction are fractions, and a pair
    filter keeps that pair's flows; a traced generated flow has cwnd and
    sequence rows under its record's id, within its lifetime."""
    base = obsim.run(_small_nsfnet())
    rec = base.flow_records.to_pydict()
    ser = base.series.to_pydict()
    assert len(ser["time_s"]) == 80
    for t, n in zip(ser["time_s"], ser["active_flows"]):
        alive = sum(1 for s, e in zip(rec["start_s"], rec["end_s"]) if s <= t and not e <= t)
        assert n == alive, t
    assert max(ser["active_flows"]) > 20
    meta = base.meta
    assert 0.0 < meta["agg_throughput_mean_bps"]
    assert 0.0 <= meta["slow_start_fraction_mean"] <= 1.0
    fr = [x for x in ser["slow_start_fraction"] if not math.isnan(x)]
    assert fr and all(0.0 <= x <= 1.0 for x in fr)
    assert any(0.0 < x for x in fr)
    for key in ("sync_index",):
        i = meta[key]
        assert math.isnan(i) or 0.0 <= i <= 1.0
    assert all(b <= a for a, b in zip(ser["active_flows"], ser["flows_both_ends"]))
    assert all(b <= a for a, b in zip(ser["flows_both_ends"], ser["flows_with_loss_both_ends"]))

    # The churn definition: the same run and series, its own index.
    churn = obsim.run(_small_nsfnet(sync_index="churn", pair_bins=True))
    assert churn.series.to_pydict()["active_flows"] == ser["active_flows"]
    ic = churn.meta["sync_index"]
    assert math.isnan(ic) or 0.0 <= ic <= 1.0
    # Per-pair bytes per 3 ms into the first core router (gonzalez2009 Table
    # 2): every TCP path has its profile, whose mean over the 3 s measured
    # agrees with the bytes the path sent then (bursts in flight at the window's
    # ends and blocked ones differ).
    paths = churn.paths.to_pydict()
    tcp = [i for i, c in enumerate(paths["class"]) if c == "tcp"]
    assert len(tcp) == 56
    for i in tcp:
        lo, mean, hi = (paths[f"bin_rate_{k}_bps"][i] for k in ("min", "mean", "max"))
        assert 0.0 <= lo <= mean <= hi
        assert paths["bin_rate_std_bps"][i] >= 0.0
    sent = sum(paths["bytes"][i] for i in tcp) * 8 / 3.0
    binned = sum(paths["bin_rate_mean_bps"][i] for i in tcp)
    assert abs(binned - sent) < 0.05 * sent, (binned, sent)
    assert all(math.isnan(x) for x in base.paths.to_pydict()["bin_rate_mean_bps"])

    # One pair: N1 -> N10's flows only.
    pair = obsim.run(_small_nsfnet(pair=["N1", "N10"]))
    pser = pair.series.to_pydict()
    for t, n in zip(pser["time_s"], pser["active_flows"]):
        alive = sum(
            1
            for s, e, a, b in zip(rec["start_s"], rec["end_s"], rec["src"], rec["dst"])
            if (a, b) == ("N1", "N10") and s <= t and not e <= t
        )
        assert n == alive, t
    assert 0 < max(pser["active_flows"]) < max(ser["active_flows"])
    with pytest.raises(obsim.ConfigError) as e:
        obsim.run(_small_nsfnet(pair=["N1", "N99"]))
    assert "metrics.pair[1]" in str(e.value)

    # Trace a long generated flow by its record id (same seed: same ids).
    longest = max(range(len(rec["flow"])), key=lambda i: rec["size_bytes"][i])
    fid = rec["flow"][longest]
    sc = _small_nsfnet()
    sc["trace"] = {"cwnd": True, "seq": True, "flows": [fid]}
    traced = obsim.run(sc)
    assert traced.flow_records.to_pydict()["flow"] == rec["flow"]
    tr = traced.trace.to_pydict()
    assert len(tr["cwnd"]) > 10
    assert set(tr["flow"]) == {fid}
    end = rec["end_s"][longest]
    assert all(rec["start_s"][longest] <= t and not t > end for t in tr["time_s"])
    assert max(tr["snd_una"]) > 10

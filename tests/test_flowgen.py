"""End-to-end tests of flow generators (``[[flow_generators]]``, issue 12)."""

from __future__ import annotations

import math
from pathlib import Path

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
    area = sum(
        (rec["end_s"][i] if rec["finished"][i] else secs) - rec["start_s"][i] for i in range(n)
    )
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
    text = SCENARIO.format(secs=30, rate=30.0).replace('duration = "30 s"', 'duration = "30 s"\nwarmup = "10 s"')
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

"""End-to-end tests of flow generators (``[[flow_generators]]``, issue 12)."""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import obsim

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


def test_bad_generator_names_its_key() -> None:
    """λ <= 0 is refused with its key path."""
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(SCENARIO.format(secs=10, rate=0))
    assert "flow_generators[0].rate" in str(e.value)

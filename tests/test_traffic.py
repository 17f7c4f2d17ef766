"""UDP cross traffic (``[[traffic]]``) end to end: the ``traffic`` table,
drop-tail losses it causes to TCP, its file, and errors with key paths."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import obsim
from conftest import small_scenario

TRAFFIC_COLUMNS = [
    "source", "group", "kind", "src", "dst", "packets_sent", "packets_delivered",
    "packets_dropped", "packets_in_flight", "bytes_delivered", "throughput_bps",
]

CBR = """
[[traffic]]
name = "udp"
kind = "cbr"
from = "a"
to = "b"
rate = "8 Mbit/s"
start = "1 s"
"""

ONOFF = """
[[traffic]]
name = "bursty"
kind = "onoff"
from = "a"
to = "b"
count = 2
rate = "6 Mbit/s"
packet = "500 B"
on = "300 ms"
off = "700 ms"
"""


@pytest.mark.engine
def test_cbr_congests_the_bottleneck_and_tcp_times_out() -> None:
    alone = obsim.run(small_scenario(), seed=2)
    res = obsim.run(small_scenario() + CBR, seed=2)
    assert res.traffic.column_names == TRAFFIC_COLUMNS
    t = res.traffic.to_pylist()
    assert len(t) == 1 and t[0]["group"] == "udp" and t[0]["kind"] == "cbr"
    row = t[0]
    assert row["packets_sent"] == row["packets_delivered"] + row["packets_dropped"] + row["packets_in_flight"]
    # 8 Mbit/s of 1000 B datagrams from 1 s to 5 s: 4000 sent.
    assert row["packets_sent"] == 4000
    assert row["packets_dropped"] > 0
    # The bottleneck's drop-tail buffer now drops TCP segments, and the
    # squeezed windows end in timeouts.
    flows, flows_alone = res.flows.to_pandas(), alone.flows.to_pandas()
    assert flows["packets_dropped"].sum() > 10 * max(flows_alone["packets_dropped"].sum(), 1)
    assert flows["to_events"].sum() > flows_alone["to_events"].sum()
    # Every buffer drop (here all at a -> r, which the source shares with
    # the flows) is a TCP segment or a datagram: no ACK is lost.
    links = res.links.to_pandas()
    assert links["drops_buffer"].sum() == flows["packets_dropped"].sum() + row["packets_dropped"]
    assert alone.traffic.num_rows == 0


@pytest.mark.engine
def test_traffic_file_written_only_with_sources(tmp_path: Path) -> None:
    out = obsim.run(small_scenario() + ONOFF, seed=5).write(tmp_path / "with")
    t = pd.read_parquet(out / "traffic.parquet")
    assert list(t["source"]) == [0, 1] and set(t["kind"]) == {"onoff"}
    assert (t["throughput_bps"] > 0).all()
    again = obsim.run(small_scenario() + ONOFF, seed=5).write(tmp_path / "again")
    assert (out / "traffic.parquet").read_bytes() == (again / "traffic.parquet").read_bytes()
    bare = obsim.run(small_scenario(), seed=5).write(tmp_path / "without")
    assert not (bare / "traffic.parquet").exists()


def test_bad_traffic_key_names_its_path() -> None:
    with pytest.raises(obsim.ConfigError) as info:
        obsim.parse(small_scenario() + CBR.replace('kind = "cbr"', 'kind = "poisson"'))
    assert info.value.path == "traffic[0].kind"
    assert '"cbr", "onoff"' in info.value.reason
    with pytest.raises(obsim.ConfigError) as info:
        obsim.parse(small_scenario() + CBR + 'on = "1 s"\n')
    assert info.value.path == "traffic[0].on"
    assert "only read by kind" in info.value.reason


def test_dict_scenario_with_traffic() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    doc = tomllib.loads(small_scenario() + ONOFF)
    resolved = obsim.parse(doc)
    assert [s["id"] for s in resolved["traffic"]] == [0, 1]
    assert resolved["traffic"][0]["model"]["on_off"]["distribution"] == "exponential"

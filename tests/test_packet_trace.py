"""End to end: the packet trace (``[trace] packets = true``) and the per-ACK
trace (``per_ack = true``) through the Python API and ``Results.write``."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

import obsim

from conftest import small_scenario


def _with_trace(extra: str) -> str:
    """The small scenario with its ``[trace]`` table replaced by ``extra``."""
    text = small_scenario(loss=0.02)
    return text[: text.index("[trace]")] + f"[trace]\n{extra}\n"


def test_packet_trace_records_sends_receives_and_loss_drops(tmp_path: Path) -> None:
    res = obsim.run(_with_trace("packets = true"))
    t = res.packets.to_pandas()
    assert set(t["event"]) == {"send", "receive", "drop"}
    assert set(t["flow"]) == {0, 1}
    only0 = obsim.run(_with_trace("packets = true\nflows = [0]")).packets.to_pandas()
    assert only0.equals(t[t["flow"] == 0].reset_index(drop=True))
    drops = t[t["event"] == "drop"]
    assert set(drops["reason"]) == {"loss_model"}
    # ACKs cross r -> b's reverse direction; the SYN (ns2 profiles, syn_ true)
    # crosses the lossy direction like data and may be lost too.
    assert "data" in set(drops["kind"]) and set(drops["kind"]) <= {"data", "syn"}
    # Every loss-model drop is counted on its link, and every retransmission
    # sent by the flow's source appears flagged.
    links = res.links.to_pandas()
    assert len(drops) == int(links["drops_loss"].sum())
    sent = only0[(only0["event"] == "send") & (only0["kind"] == "data") & (only0["from"] == "a")]
    assert int(sent["retransmit"].sum()) == int(res.flows.to_pandas()["retransmits"][0])
    assert list(t["time_s"]) == sorted(t["time_s"])
    res.write(tmp_path / "out")
    assert pq.read_table(tmp_path / "out" / "packets.parquet").num_rows == len(t)


def test_packet_trace_is_off_by_default(tmp_path: Path) -> None:
    res = obsim.run(small_scenario(loss=0.02))
    assert res.packets.num_rows == 0
    res.write(tmp_path / "out")
    assert not (tmp_path / "out" / "packets.parquet").exists()


def test_per_ack_trace_has_one_row_per_ack_or_timeout() -> None:
    res = obsim.run(_with_trace("per_ack = true\npackets = true\nflows = [0]"))
    p = res.packets.to_pandas()
    acks = p[(p["kind"] == "ack") & (p["event"] == "receive") & (p["to"] == "a")]
    tr = res.trace.to_pandas()
    timeouts = int(res.flows.to_pandas()["to_events"][0])
    assert len(tr) == len(acks) + timeouts


def test_per_ack_excludes_interval() -> None:
    import pytest

    with pytest.raises(obsim.ConfigError, match="trace.interval"):
        obsim.parse(_with_trace('per_ack = true\ninterval = "10 ms"'))

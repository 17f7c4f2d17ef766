"""Linux's ACK-clock rules as options (``tcp.rcvbuf``, ``tcp.gso``, ``tcp.ack_on_push``,
``tcp.ato``, ``tcp.sack_compression``; docs/MODEL.md "The linux profile", docs/VALIDATION.md
"L1" sections 11-12) end to end: L1's OBS
path with the linux profile and each option on, alone and together, the resolved scenario, and
the keys' errors. The rules themselves are tested in Rust (``tcp::rcvbuf::tests``,
``tcp::gso::tests``, ``tcp::delack::tests``, ``tcp::receiver::tests``)."""

from __future__ import annotations

import copy
from typing import Any, Dict

import pytest

import obsim
from obsim.experiment.keypaths import set_key_path
from obsim.reproductions.l1_linux_kernel import QUICK_SIZE, experiment

pytestmark = pytest.mark.engine

ALL = {"tcp.rcvbuf.enabled": True, "tcp.gso.enabled": True, "tcp.ack_on_push": True}

PLAIN = {
    "tcp.rcvbuf.enabled": False,
    "tcp.gso.enabled": False,
    "tcp.ack_on_push": False,
    "tcp.ato.enabled": False,
    "tcp.sack_compression.enabled": False,
}
"""The linux profile without the options (all on in it since session 22)."""


def l1(extra: Dict[str, Any], p: float = 0.05, plain: bool = True) -> Dict[str, Any]:
    """L1's path (whole-burst loss `p`, every round(1/p)-th burst) with a QUICK_SIZE transfer of
    the linux profile (with the options off when `plain`) and the keys in `extra`."""
    sc = copy.deepcopy(experiment(True)["scenario"])
    set_key_path(sc, "links[2].burst_loss", {"p": p, "pattern": "even"})
    for key, value in {**(PLAIN if plain else {}), **extra}.items():
        set_key_path(sc, key, value)
    return sc


def test_each_option_delivers_and_changes_the_ack_clock() -> None:
    base = obsim.run(l1({}), seed=1).flows.to_pylist()[0]
    assert base["bytes_delivered"] == QUICK_SIZE
    runs = {key: obsim.run(l1({key: True}), seed=1).flows.to_pylist()[0] for key in ALL}
    for key, f in runs.items():
        assert f["bytes_delivered"] == QUICK_SIZE, key
    # The receive buffer and GSO packets change when ACKs leave and segments go.
    assert runs["tcp.rcvbuf.enabled"]["end_s"] != base["end_s"]
    assert runs["tcp.gso.enabled"]["end_s"] != base["end_s"]
    # Only a sender with GSO packets sets PSH; without it ack_on_push acts on short segments
    # alone, here the transfer's last (2 000 000 B: 1 381 full segments and 312 B): the same
    # segments and bursts, and an end at most one delayed-ACK timeout (40 ms) sooner. With GSO
    # it changes the whole transfer.
    same = ("segments_sent", "bursts_sent", "retransmits")
    assert [runs["tcp.ack_on_push"][k] for k in same] == [base[k] for k in same]
    assert 0 <= base["end_s"] - runs["tcp.ack_on_push"]["end_s"] <= 0.040 + 1e-9
    gso_push = obsim.run(l1({"tcp.gso.enabled": True, "tcp.ack_on_push": True}), seed=1)
    assert gso_push.flows.to_pylist()[0]["end_s"] != runs["tcp.gso.enabled"]["end_s"]
    together = obsim.run(l1(ALL), seed=1).flows.to_pylist()[0]
    assert together["bytes_delivered"] == QUICK_SIZE
    again = obsim.run(l1(ALL), seed=1).flows.to_pylist()[0]
    assert [again[k] for k in (*same, "end_s")] == [together[k] for k in (*same, "end_s")]


def test_receiver_timing_options_deliver_and_change_the_acks() -> None:
    """``tcp.ato`` and ``tcp.sack_compression`` (on top of ``tcp.rcvbuf``, which they read the
    receiver's RTT from): each run delivers the whole transfer, repeats byte for byte, and
    changes when ACKs leave; compression sends fewer ACKs for the same data."""
    rcv = {"tcp.rcvbuf.enabled": True, "trace.packets": True}
    base = obsim.run(l1(rcv), seed=1)
    ato = obsim.run(l1({**rcv, "tcp.ato.enabled": True}), seed=1)
    comp = obsim.run(l1({**rcv, "tcp.sack_compression.enabled": True}), seed=1)
    for r in (base, ato, comp):
        assert r.flows.to_pylist()[0]["bytes_delivered"] == QUICK_SIZE
    assert ato.flows.to_pylist()[0]["end_s"] != base.flows.to_pylist()[0]["end_s"]

    def acks(r: Any) -> int:
        t = r.packets.to_pandas()
        return int(((t.kind == "ack") & (t.event == "send")).sum())

    assert acks(comp) < acks(base)
    again = obsim.run(l1({**rcv, "tcp.sack_compression.enabled": True}), seed=1)
    assert repr(again.flows.to_pylist()) == repr(comp.flows.to_pylist())  # NaN-safe


def test_resolved_scenario_shows_the_options_only_when_on() -> None:
    tcp = obsim.parse(l1({}))["flows"][0]["tcp"]
    assert "rcvbuf" not in tcp and "gso" not in tcp and "ack_on_push" not in tcp
    assert "ato" not in tcp and "sack_compression" not in tcp
    # The linux profile has them all on.
    tcp = obsim.parse(l1({}, plain=False))["flows"][0]["tcp"]
    assert tcp["rcvbuf"]["enabled"] and tcp["gso"]["enabled"] and tcp["ack_on_push"]
    assert tcp["ato"] == {"enabled": True}
    assert "hz" not in tcp  # CONFIG_HZ 250, the default, left out
    assert tcp["sack_compression"] == {"enabled": True, "delay": 1_000_000, "nr": 44}  # ns
    tcp = obsim.parse(l1({**ALL, "tcp.rcvbuf.max": "8 MiB"}))["flows"][0]["tcp"]
    assert tcp["rcvbuf"]["enabled"] and tcp["rcvbuf"]["max"] == 8 * 1024 * 1024
    assert tcp["gso"] == {"enabled": True, "defer": True, "tso_win_divisor": 3}
    assert tcp["ack_on_push"] is True


@pytest.mark.parametrize(
    ("extra", "path", "reason"),
    [
        ({"tcp.rcvbuf.enabled": "yes"}, "tcp.rcvbuf.enabled", 'expected true or false, found "yes"'),
        ({"tcp.rcvbuf.initial": "8 MiB"}, "tcp.rcvbuf.initial", "expected rcvbuf.initial <= rcvbuf.max"),
        ({"tcp.rcvbuf.truesize": "1000 B"}, "tcp.rcvbuf.truesize", "expected rcvbuf.truesize > mss"),
        ({"tcp.rcvbuf.max_quickacks": 0}, "tcp.rcvbuf.max_quickacks", "found integer 0"),
        ({"tcp.gso.tso_win_divisor": 0}, "tcp.gso.tso_win_divisor", "found integer 0"),
        ({"tcp.gso.split": True}, "tcp.gso.split", "tso_win_divisor"),
        ({"tcp.ack_on_push": 1}, "tcp.ack_on_push", "found integer 1"),
        ({"tcp.ato.enabled": True}, "tcp.ato.enabled", "expected rcvbuf.enabled = true with ato.enabled"),
        ({"tcp.hz": 0}, "tcp.hz", "CONFIG_HZ"),
        (
            {"tcp.sack_compression.enabled": True},
            "tcp.sack_compression.enabled",
            "expected rcvbuf.enabled = true with sack_compression.enabled",
        ),
        ({"tcp.sack_compression.nr": -1}, "tcp.sack_compression.nr", "found integer -1"),
        ({"tcp.sack_compression.delay": "soon"}, "tcp.sack_compression.delay", '"soon"'),
    ],
)
def test_bad_option_names_the_key(extra: Dict[str, Any], path: str, reason: str) -> None:
    # The rcvbuf table's cross-key checks run with the model on.
    inner = path.startswith("tcp.rcvbuf.") and path != "tcp.rcvbuf.enabled"
    sc = l1({**({"tcp.rcvbuf.enabled": True} if inner else {}), **extra})
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(sc)
    assert e.value.path == path
    assert reason in e.value.reason

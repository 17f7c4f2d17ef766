"""Timestamps (RFC 7323) and D-SACK (RFC 2883) as Linux uses them (``tcp.timestamps``,
``tcp.dsack``) end to end: L1's OBS path (docs/VALIDATION.md "L1") with the linux profile,
the resolved scenario, and the keys' errors. The ACK-by-ACK rules are tested in Rust
(``tcp::undo::tests``, ``tcp::receiver::tests``)."""

from __future__ import annotations

import copy
from typing import Any, Dict

import pytest

import obsim
from obsim.experiment.keypaths import set_key_path
from obsim.reproductions.l1_linux_kernel import QUICK_SIZE, experiment

pytestmark = pytest.mark.engine


def l1(timestamps: str, dsack: str, p: float = 0.05) -> Dict[str, Any]:
    """L1's path (whole-burst loss `p`) with a QUICK_SIZE transfer of the linux profile and
    the two keys as given."""
    sc = copy.deepcopy(experiment(True)["scenario"])
    for key, value in [
        ("links[2].burst_loss.p", p),
        ("tcp.timestamps", timestamps),
        ("tcp.dsack", dsack),
    ]:
        set_key_path(sc, key, value)
    return sc


def test_the_linux_profile_delivers_with_and_without_timestamps_and_dsack() -> None:
    for ts, ds in (("linux", "linux"), ("off", "off"), ("linux", "off"), ("off", "linux")):
        f = obsim.run(l1(ts, ds), seed=1).flows.to_pylist()[0]
        assert f["bytes_delivered"] == QUICK_SIZE, (ts, ds, f)
        assert 0 <= f["spurious_rtos"] <= f["to_events"]


def test_resolved_scenario_shows_the_keys_only_when_on() -> None:
    tcp = obsim.parse(l1("off", "off"))["flows"][0]["tcp"]
    assert "timestamps" not in tcp and "dsack" not in tcp
    tcp = obsim.parse(l1("linux", "linux"))["flows"][0]["tcp"]
    assert (tcp["timestamps"], tcp["dsack"]) == ("linux", "linux")


@pytest.mark.parametrize(
    ("extra", "path", "reason"),
    [
        ({"tcp.timestamps": True}, "tcp.timestamps", 'expected one of "off", "linux"'),
        ({"tcp.timestamps": "rfc7323"}, "tcp.timestamps", 'expected one of "off", "linux"'),
        ({"tcp.dsack": "on"}, "tcp.dsack", 'expected one of "off", "linux"'),
        ({"tcp.dsack": 1}, "tcp.dsack", "found integer 1"),
    ],
)
def test_bad_timestamps_or_dsack_names_the_key(extra: Dict[str, Any], path: str, reason: str) -> None:
    sc = l1("off", "off")
    for key, value in extra.items():
        set_key_path(sc, key, value)
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(sc)
    assert e.value.path == path
    assert reason in e.value.reason

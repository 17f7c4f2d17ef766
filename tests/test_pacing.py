"""Pacing (``[tcp.pacing]``, Linux's earliest departure time) end to end: a
paced linux sender on L1's OBS path (docs/VALIDATION.md "L1"), the resolved
scenario, and the keys' errors. The spacing itself is tested in Rust
(``tcp::pacing::tests``, ``engine::tests::paced_sender_spaces_its_segments``)."""

from __future__ import annotations

import copy
from typing import Any, Dict

import pytest

import obsim
from obsim.experiment.keypaths import set_key_path
from obsim.reproductions.l1_linux_kernel import QUICK_SIZE, experiment

pytestmark = pytest.mark.engine


def l1(pacing: Dict[str, Any]) -> Dict[str, Any]:
    """L1's quick path (20 Mbit/s access, 5 ms timers, whole-burst loss) with
    the linux profile and ``tcp.pacing = pacing``."""
    sc = copy.deepcopy(experiment(True)["scenario"])
    set_key_path(sc, "links[2].burst_loss.p", 0.01)
    sc["tcp"]["pacing"] = pacing
    return sc


def test_a_paced_transfer_completes_and_differs_from_an_unpaced_one() -> None:
    off = obsim.run(l1({"enabled": False}), seed=1)
    on = obsim.run(l1({"enabled": True}), seed=1)
    a, b = off.flows.to_pylist()[0], on.flows.to_pylist()[0]
    assert a["bytes_delivered"] == b["bytes_delivered"] == QUICK_SIZE
    # Held back by the pacer, the sender hands segments over at other times,
    # so the run's event count differs.
    assert on.meta["events"] != off.meta["events"]


def test_resolved_scenario_shows_pacing_only_when_not_the_default() -> None:
    assert "pacing" not in obsim.parse(l1({}))["flows"][0]["tcp"]
    tcp = obsim.parse(l1({"enabled": True, "ca_ratio": 100}))["flows"][0]["tcp"]
    assert tcp["pacing"] == {"enabled": True, "ss_ratio": 200, "ca_ratio": 100, "unpaced_segments": 10}


@pytest.mark.parametrize(
    ("pacing", "path", "reason"),
    [
        ({"enabled": "yes"}, "tcp.pacing.enabled", "expected true or false"),
        ({"ss_ratio": 0}, "tcp.pacing.ss_ratio", "0"),
        ({"rate": "10 Mbit/s"}, "tcp.pacing.rate", "enabled"),
    ],
)
def test_bad_pacing_names_the_key(pacing: Dict[str, Any], path: str, reason: str) -> None:
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(l1(pacing))
    assert e.value.path == path
    assert reason in e.value.reason

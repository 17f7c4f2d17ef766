"""F-RTO (RFC 5682 as Linux runs it, ``tcp.frto``) end to end: L1's OBS path
(docs/VALIDATION.md "L1") with the linux profile and burst losses, the
``spurious_rtos`` column, the resolved scenario, and the key's errors."""

from __future__ import annotations

import copy
from typing import Any, Dict

import pytest

import obsim
from obsim.experiment.keypaths import set_key_path
from obsim.reproductions.l1_linux_kernel import QUICK_SIZE, experiment

pytestmark = pytest.mark.engine


def l1(variant: str, frto: str, p: float = 0.05) -> Dict[str, Any]:
    """L1's path (20 Mbit/s access, 5 ms timers, whole-burst loss `p`) with a
    QUICK_SIZE transfer of the linux profile, Reno growth, `variant` (RACK-TLP
    only with SACK, as Linux) and `tcp.frto = frto`."""
    sc = copy.deepcopy(experiment(True)["scenario"])
    sack = variant == "sack"
    for key, value in [
        ("links[2].burst_loss.p", p),
        ("tcp.variant", variant),
        ("tcp.rack", sack),
        ("tcp.tlp", sack),
        ("tcp.congestion_control", "reno"),
        ("tcp.frto", frto),
    ]:
        set_key_path(sc, key, value)
    return sc


@pytest.mark.parametrize("variant", ["sack", "newreno"])
def test_frto_on_the_l1_path_counts_spurious_timeouts_among_the_timeouts(variant: str) -> None:
    for seed in (1, 2):
        off = obsim.run(l1(variant, "off"), seed=seed).flows.to_pylist()[0]
        on = obsim.run(l1(variant, "linux"), seed=seed).flows.to_pylist()[0]
        assert off["spurious_rtos"] == 0
        assert 0 <= on["spurious_rtos"] <= on["to_events"]
        for f in (off, on):
            assert f["bytes_delivered"] == QUICK_SIZE, f


def test_frto_with_burst_tcp_tests_the_timeouts_judged_true() -> None:
    # BLE judges each timeout; F-RTO tests those it answers with slow start.
    for frto in ("off", "linux"):
        sc = l1("newreno", frto)
        set_key_path(sc, "tcp.fto_detection", "ble")
        f = obsim.run(sc, seed=1).flows.to_pylist()[0]
        assert f["bytes_delivered"] == QUICK_SIZE
        assert f["spurious_rtos"] <= f["to_events"] - f["fto_judged_false"]


def test_resolved_scenario_shows_frto_only_when_on() -> None:
    assert "frto" not in obsim.parse(l1("sack", "off"))["flows"][0]["tcp"]
    assert obsim.parse(l1("sack", "linux"))["flows"][0]["tcp"]["frto"] == "linux"


@pytest.mark.parametrize(
    ("extra", "path", "reason"),
    [
        ({"tcp.frto": "basic"}, "tcp.frto", 'expected one of "off", "linux"'),
        ({"tcp.frto": True}, "tcp.frto", "found boolean true"),
    ],
)
def test_bad_frto_names_the_key(extra: Dict[str, Any], path: str, reason: str) -> None:
    sc = l1("sack", "off")
    del sc["tcp"]["frto"]
    for key, value in extra.items():
        set_key_path(sc, key, value)
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(sc)
    assert e.value.path == path
    assert reason in e.value.reason

"""Proportional Rate Reduction (RFC 6937, ``tcp.prr``) end to end: the dumbbell
scenario with SACK and NewReno senders under each bound, the key's errors,
and the variants that do not read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import pytest

import obsim

pytestmark = pytest.mark.engine

DUMBBELL = Path(__file__).resolve().parent.parent / "scenarios" / "dumbbell.toml"


def dumbbell(variant: str, prr: Optional[str]) -> str:
    """scenarios/dumbbell.toml (10 bulk flows, Bernoulli loss 0.001) for 10 s,
    with the `rfc` profile's `variant` and, if given, `tcp.prr` (a TOML value)."""
    text = DUMBBELL.read_text()
    for old, new in [
        ('duration = "100 s"', 'duration = "10 s"'),
        ('profile = "ns2"\nvariant = "reno"', f'profile = "rfc"\nvariant = "{variant}"'),
    ]:
        assert old in text, old
        text = text.replace(old, new)
    if prr is not None:
        text = text.replace("[tcp]\n", f"[tcp]\nprr = {prr}\n", 1)
    return text


def flows(variant: str, prr: Optional[str]) -> Any:
    res = obsim.run(dumbbell(variant, prr), seed=5)
    assert {f["tcp"]["prr"] for f in res.scenario["flows"]} == {(prr or '"off"').strip('"')}
    return res.flows.to_pandas().sort_values("flow").reset_index(drop=True)


@pytest.mark.parametrize("variant", ["sack", "newreno"])
def test_prr_on_the_dumbbell_recovers_by_fast_retransmit_and_differs_from_off(variant: str) -> None:
    off = flows(variant, None)
    assert off.equals(flows(variant, '"off"')), "the default is off"
    for bound in ('"ssrb"', '"crb"'):
        got = flows(variant, bound)
        assert len(got) == 10
        assert (got["goodput_bps"] > 1e6).all(), got["goodput_bps"]
        # Loss recovery happened, by fast retransmit: PRR shapes it.
        assert got["td_events"].sum() >= 50
        assert (got["retransmits"] >= got["td_events"]).all()
        # The same network and seed: the runs part only where a recovery's
        # sending differs.
        assert not got[["segments_sent", "goodput_bps"]].equals(off[["segments_sent", "goodput_bps"]])
        assert got.equals(flows(variant, bound)), "deterministic"


def test_variants_without_prr_ignore_the_key() -> None:
    # Reno leaves recovery on the first new ACK; PRR is not part of it.
    a = flows("reno", '"ssrb"')
    b = flows("reno", '"off"')
    assert a.equals(b)


@pytest.mark.parametrize(
    ("value", "path"),
    [('"rfc6937"', "tcp.prr"), ("true", "tcp.prr")],
)
def test_bad_prr_names_the_key_and_the_values(value: str, path: str) -> None:
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(dumbbell("sack", value))
    assert e.value.path == path
    assert '"off", "ssrb", "crb"' in e.value.reason

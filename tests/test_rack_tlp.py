"""RACK-TLP (RFC 8985, ``tcp.rack`` and ``tcp.tlp``) end to end: the dumbbell
scenario with RFC 6675 SACK senders at a lossy setting, with and without it,
and the keys' errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import obsim

pytestmark = pytest.mark.engine

DUMBBELL = Path(__file__).resolve().parent.parent / "scenarios" / "dumbbell.toml"


def dumbbell(extra: str, p: float = 0.05) -> str:
    """scenarios/dumbbell.toml (10 bulk flows) for 10 s with the `rfc` profile's
    SACK sender, Bernoulli loss `p` on the bottleneck and `extra` TOML lines in
    `[tcp]`."""
    text = DUMBBELL.read_text()
    for old, new in [
        ('duration = "100 s"', 'duration = "10 s"'),
        ('profile = "ns2"\nvariant = "reno"', 'profile = "rfc"\nvariant = "sack"'),
        ("p = 0.001 }", f"p = {p} }}"),
    ]:
        assert old in text, old
        text = text.replace(old, new)
    return text.replace("[tcp]\n", f"[tcp]\n{extra}\n", 1)


def flows(extra: str, seed: int = 5) -> Any:
    res = obsim.run(dumbbell(extra), seed=seed)
    return res, res.flows.to_pandas().sort_values("flow").reset_index(drop=True)


def test_rack_tlp_on_the_lossy_dumbbell_takes_fewer_timeouts() -> None:
    res_off, off = flows("")
    res_on, on = flows("rack = true\ntlp = true")
    for res, want in [(res_off, False), (res_on, True)]:
        blocks = [f["tcp"]["rack_tlp"] for f in res.scenario["flows"]]
        switches = {(b["rack"], b["tlp"]) for b in blocks}
        assert switches == {(want, want)}
    assert len(on) == 10
    assert (on["goodput_bps"] > 0).all()
    # At p = 0.05 RFC 6675 alone loses many tails to the RTO; RACK marks them
    # by time and TLP probes them.
    assert off["to_events"].sum() >= 20, off["to_events"]
    tos = (on["to_events"].sum(), off["to_events"].sum())
    assert tos[0] < 0.7 * tos[1], tos
    assert on["td_events"].sum() > off["td_events"].sum()
    assert on["goodput_bps"].sum() > off["goodput_bps"].sum()
    # Deterministic.
    assert on.equals(flows("rack = true\ntlp = true")[1])


def test_rack_alone_and_tlp_alone_run() -> None:
    _, off = flows("")
    for extra in ("rack = true", 'rack = true\ntlp = true\nprr = "ssrb"'):
        _, got = flows(extra)
        assert not got[["segments_sent", "to_events"]].equals(off[["segments_sent", "to_events"]]), extra
        assert got["to_events"].sum() <= off["to_events"].sum(), extra


@pytest.mark.parametrize(
    ("extra", "path", "reason"),
    [
        (
            'variant = "newreno"\nrack = true',
            "tcp.rack",
            'expected variant = "sack" with sack_recovery = "rfc6675"',
        ),
        ('sack_recovery = "ns2-sack1"\ntlp = true', "tcp.tlp", 'sack_recovery = "ns2-sack1"'),
        ("tlp_max_ack_delay = 200", "tcp.tlp_max_ack_delay", "a duration"),
        ('rack = "yes"', "tcp.rack", "expected true or false"),
    ],
)
def test_bad_rack_tlp_keys_name_the_key(extra: str, path: str, reason: str) -> None:
    text = dumbbell(extra)
    # The later `variant` wins in TOML only once: drop the scenario's own line.
    if "variant" in extra:
        text = text.replace('variant = "sack"\n', "", 1)
    with pytest.raises(obsim.ConfigError) as e:
        obsim.parse(text)
    assert e.value.path == path
    assert reason in e.value.reason

"""CUBIC window growth (RFC 9438, ``tcp.congestion_control = "cubic"``) end to
end: the reference dumbbell runs with it, differs from RFC 5681 growth, and
records the choice in the resolved scenario; bad ``[tcp.cubic]`` values are
refused with their key path."""

from __future__ import annotations

from pathlib import Path

import pytest

import obsim

ROOT = Path(__file__).resolve().parent.parent


def _dumbbell(tcp_lines: str = "") -> str:
    """``scenarios/dumbbell.toml`` shortened to 20 s, with `tcp_lines` added
    to its ``[tcp]`` table."""
    text = (ROOT / "scenarios" / "dumbbell.toml").read_text()
    text = text.replace('duration = "100 s"', 'duration = "20 s"', 1)
    return text.replace('variant = "reno"\n', f'variant = "reno"\n{tcp_lines}', 1)


@pytest.mark.engine
def test_dumbbell_runs_with_cubic_and_differs_from_reno() -> None:
    reno = obsim.run(_dumbbell(), seed=1)
    cubic = obsim.run(_dumbbell('congestion_control = "cubic"\n'), seed=1)
    r = reno.flows.to_pandas()
    c = cubic.flows.to_pandas()
    assert len(c) == len(r) == 10
    assert (c["goodput_bps"] > 0).all()
    assert (c["td_events"] > 0).all(), "the bottleneck's random loss reaches every flow"
    # Same losses model, other window growth: other sending.
    assert list(c["segments_sent"]) != list(r["segments_sent"])
    assert cubic.scenario["flows"][0]["tcp"]["congestion_control"] == "cubic"
    assert "congestion_control" not in reno.scenario["flows"][0]["tcp"]
    # 10 flows at p = 0.001 and a 24 ms RTT: RFC 9438 §4.3, CUBIC is in its
    # Reno-friendly region, at least as fast as Reno (β = 0.7 cuts less).
    assert c["goodput_bps"].sum() > r["goodput_bps"].sum()


@pytest.mark.engine
def test_cubic_is_deterministic() -> None:
    text = _dumbbell('congestion_control = "cubic"\ncubic = { beta = 0.7001953125 }\n')
    a = obsim.run(text, seed=5).flows.to_pandas()
    b = obsim.run(text, seed=5).flows.to_pandas()
    assert a.equals(b)


@pytest.mark.config
@pytest.mark.parametrize(
    ("lines", "path", "reason"),
    [
        ('congestion_control = "bbr"\n', "tcp.congestion_control", 'expected one of "reno", "cubic"'),
        ("cubic = { beta = 1.5 }\n", "tcp.cubic.beta", "expected a number in (0, 1)"),
        ("cubic = { c = 0 }\n", "tcp.cubic.c", "expected a number > 0"),
        ('cubic = { target_rtt = "rtt" }\n', "tcp.cubic.target_rtt", '"srtt", "min_rtt"'),
        ('cubic = { arithmetic = "bic" }\n', "tcp.cubic.arithmetic", '"rfc9438", "linux"'),
        (
            'congestion_control = "cubic"\ncubic = { arithmetic = "linux", hystart = "rfc9406" }\n',
            "tcp.cubic.hystart",
            "Linux does not run RFC 9406's HyStart++",
        ),
        ("hz = 10\n", "tcp.hz", "CONFIG_HZ"),
    ],
)
def test_bad_cubic_values_name_their_key(lines: str, path: str, reason: str) -> None:
    with pytest.raises(obsim.ConfigError) as info:
        obsim.parse(_dumbbell(lines))
    assert info.value.path == path
    assert reason in info.value.reason


@pytest.mark.engine
def test_linux_arithmetic_keeps_whole_segments_and_truncates_ssthresh() -> None:
    """``cubic.arithmetic = "linux"`` (tcp_cubic.c's integer arithmetic): every cwnd in the
    trace is a whole number of segments and each loss sets ssthresh = max(floor(cwnd * 717 /
    1024), 2) from the cwnd before it (the dumbbell's ``ssthresh_basis`` is FlightSize, so the
    check reads ``"cwnd"``, Linux's); the RFC 9438 arithmetic keeps fractions."""
    lines = (
        'congestion_control = "cubic"\nssthresh_basis = "cwnd"\n'
        'cubic = { beta = 0.7001953125, c = 0.400390625, arithmetic = "ARITH" }\n'
    )
    runs = {}
    for arith in ("linux", "rfc9438"):
        text = _dumbbell(lines.replace("ARITH", arith))
        traced = "[trace]\ncwnd = true\nper_ack = true\nflows = [0]\n"
        text = text.replace("[trace]\ncwnd = false\n", traced, 1)
        runs[arith] = obsim.run(text, seed=3).trace.to_pandas()
    linux = runs["linux"]
    assert (linux["cwnd"] == linux["cwnd"].round()).all()
    assert (runs["rfc9438"]["cwnd"] != runs["rfc9438"]["cwnd"].round()).any()
    cuts = linux[linux["ssthresh"].diff() != 0].index[1:]
    checked = 0
    for i in cuts:
        before = linux["cwnd"].iloc[linux.index.get_loc(i) - 1]
        ss = linux.loc[i, "ssthresh"]
        if ss < before:  # a loss's cut (HyStart's exit sets ssthresh = cwnd)
            assert ss == max(int(before * 717 / 1024), 2), (before, ss)
            checked += 1
    assert checked > 3

"""``obsim emulate`` end to end: real namespaces, real kernel TCP, the Rust
forwarder (issue 17, item 3). The tests that create namespaces need root,
as the command does; they are skipped elsewhere with the command's own
one-line reason."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any, Dict

import pytest

from obsim import _core
from obsim.cli import main
from obsim.emulate import (
    ACCESS_BUCKET_ONE_PACKET,
    EmulateError,
    Namespaces,
    emulate,
    privilege_problem,
    tbf_args,
)
from obsim.topologies import obs_path


def chain(**tcp: str) -> Dict[str, Any]:
    """yu2004's path (obsim.topologies.obs_path) at 20 Mbit/s: 10 ms access
    links, 5 ms timer assembly, three 10 ms optical links, burst loss 0.02
    on the middle one, one flow "tcp" from src to dst."""
    return obs_path(
        access_rate="20 Mbit/s",
        assembly_time="5 ms",
        p=0.02,
        tcp={"profile": "rfc", "variant": "sack", **tcp},
        duration="10 s",
    )


CHAIN = json.dumps(chain())


needs_root = pytest.mark.skipif(privilege_problem() is not None, reason=str(privilege_problem()))


# This process's emulations only (`Namespaces.fresh`: the tag is the pid
# modulo 100 000 and three digits of the clock), so that an emulation another
# process runs meanwhile cannot make a test fail or pass.
_TAG = rf"{os.getpid() % 100000}\d{{3}}"


def _obsim_namespaces() -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    return [n for n in names if re.fullmatch(rf"obsim-{_TAG}-(src|dst)", n)]


def _obsim_links() -> list[str]:
    out = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    links = [line.split(":")[1].strip().split("@")[0] for line in out.splitlines() if ": obs" in line]
    return [d for d in links if re.fullmatch(rf"obs{_TAG}[sd]", d)]


def test_the_leak_checks_see_this_process_names() -> None:
    # The filters above must match what an emulation of this process
    # creates, or the leak checks below could not fail.
    n = Namespaces.fresh()
    for ns in (n.src_ns, n.dst_ns):
        assert re.fullmatch(rf"obsim-{_TAG}-(src|dst)", ns)
    for d in (n.src_dev, n.dst_dev):
        assert re.fullmatch(rf"obs{_TAG}[sd]", d)
    assert not re.fullmatch(rf"obsim-{_TAG}-(src|dst)", f"obsim-{(os.getpid() + 1) % 100000}123-src")


@needs_root
def test_bounded_transfer_crosses_the_burst_path_and_leaves_nothing(tmp_path: Path) -> None:
    before = (_obsim_namespaces(), _obsim_links())
    em = emulate(CHAIN, fmt="json", nbytes=1_000_000, congestion_control="reno", sack=True, timeout_s=60)
    assert (_obsim_namespaces(), _obsim_links()) == before
    assert em.receiver is not None and em.receiver["bytes"] == 1_000_000
    assert em.sender is not None and em.sender["congestion_control"] == "reno"
    fwd, rev = em.report["forward"], em.report["reverse"]
    # Every packet read was written, dropped (full buffer, lost burst) or
    # is still inside the path; ACKs bypass assembly (no reverse bursts).
    held = sum(d["packets_in"] - d["packets_out"] - d["drops_burst"] - d["drops_buffer"] for d in (fwd, rev))
    assert held == em.report["in_flight"] >= 0
    assert fwd["bursts_sent"] > 50 and rev["bursts_sent"] == 0
    # Lost bursts are what the kernel had to retransmit.
    if fwd["bursts_lost"]:
        assert em.sender["tcp_info"]["total_retrans"] > 0
    bursts = em.report["bursts"]
    assert len(bursts["burst"]) == fwd["bursts_sent"]
    assert sum(bursts["lost"]) == fwd["bursts_lost"]
    # A burst closes 5 ms after it opens (timer assembly), and cannot
    # arrive before its 30 ms of propagation.
    for o, c, a in zip(bursts["opened_s"], bursts["closed_s"], bursts["arrival_s"]):
        assert c - o == pytest.approx(0.005, abs=1e-9)
        assert a - c >= 0.030
    assert em.report["lateness_p50_s"] < 0.005
    em.write(tmp_path / "out")
    assert (tmp_path / "out" / "emulation.json").exists()
    import pyarrow.parquet as pq

    assert pq.read_table(tmp_path / "out" / "burst_log.parquet").num_rows == fwd["bursts_sent"]


@needs_root
def test_a_fixed_send_buffer_queues_the_whole_transfer_at_once() -> None:
    # SO_SNDBUFFORCE of 4 MB: the kernel reports twice the request (its
    # bookkeeping share) and keeps it, where autotuning starts at 16 KiB.
    em = emulate(CHAIN, fmt="json", nbytes=1_000_000, sack=True, timeout_s=60, send_buffer=4_000_000)
    assert em.receiver is not None and em.receiver["bytes"] == 1_000_000
    assert em.sender is not None and em.sender["send_buffer_bytes"] == 8_000_000
    auto = emulate(CHAIN, fmt="json", nbytes=1_000_000, sack=True, timeout_s=60)
    assert auto.sender is not None and auto.sender["send_buffer_bytes"] < 8_000_000


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(send_buffer=0), "send_buffer: 0 bytes; allowed 1 to"),
        (dict(send_buffer=2**31), "send_buffer: 2147483648 bytes"),
        (dict(send_buffer=10, commands=(["true"], ["true"])), "built-in transfer only"),
    ],
)
def test_a_send_buffer_out_of_range_is_refused_before_anything_is_set_up(
    kwargs: Dict[str, Any], message: str
) -> None:
    before = (_obsim_namespaces(), _obsim_links())
    with pytest.raises(ValueError, match=re.escape(message)):
        emulate(CHAIN, fmt="json", **kwargs)
    assert (_obsim_namespaces(), _obsim_links()) == before


@needs_root
def test_a_failed_run_still_removes_its_namespaces() -> None:
    before = (_obsim_namespaces(), _obsim_links())
    with pytest.raises(EmulateError, match="did not finish"):
        emulate(CHAIN, fmt="json", commands=(["sleep", "30"], ["sleep", "30"]), timeout_s=0.5)
    assert (_obsim_namespaces(), _obsim_links()) == before


@needs_root
def test_an_exception_in_the_stop_check_ends_the_run_and_cleans_up(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C reaches the loop as an exception raised during its periodic
    # check; any exception there ends the run and is re-raised.
    before = (_obsim_namespaces(), _obsim_links())
    real_run = _core.Emulator.run

    def raising_run(self, **kw):  # type: ignore[no-untyped-def]
        def stop() -> bool:
            raise KeyboardInterrupt

        kw["stop"] = stop
        return real_run(self, **kw)

    monkeypatch.setattr(_core.Emulator, "run", raising_run)
    with pytest.raises(KeyboardInterrupt):
        emulate(CHAIN, fmt="json", nbytes=10_000_000, timeout_s=30)
    assert (_obsim_namespaces(), _obsim_links()) == before


@needs_root
def test_ctrl_c_in_the_loop_raises_with_the_partial_measurement(monkeypatch: pytest.MonkeyPatch) -> None:
    # The loop reports Ctrl-C (a signal seen by its periodic check) as
    # `interrupted`; emulate() then raises EmulationInterrupted, a
    # KeyboardInterrupt, so a caller running many emulations stops.
    from obsim.emulate import EmulationInterrupted

    before = (_obsim_namespaces(), _obsim_links())
    real_run = _core.Emulator.run

    def interrupted_run(self, **kw):  # type: ignore[no-untyped-def]
        kw["duration"] = 0.3
        report = real_run(self, **kw)
        report["interrupted"] = True
        return report

    monkeypatch.setattr(_core.Emulator, "run", interrupted_run)
    with pytest.raises(EmulationInterrupted) as info:
        emulate(CHAIN, fmt="json", nbytes=10_000_000, timeout_s=30)
    assert info.value.partial.interrupted and info.value.partial.report["forward"]["packets_in"] > 0
    assert (_obsim_namespaces(), _obsim_links()) == before


def test_without_privileges_the_command_refuses_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    f = tmp_path / "chain.json"
    f.write_text(CHAIN)
    assert main(["emulate", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: obsim emulate needs root"), err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--access-bucket", "1000"], "argument --access-bucket: must hold one 1500-byte packet: 1000"),
        (["--send-buffer", "0"], "argument --send-buffer: must be at least 1: 0"),
    ],
)
def test_the_command_refuses_a_bad_bucket_or_send_buffer_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "chain.json"
    f.write_text(CHAIN)
    with pytest.raises(SystemExit) as info:
        main(["emulate", str(f), *args])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(message), err


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda sc: sc["nodes"][0].update(kind="router"), "flows.tcp.from"),
        (lambda sc: sc["links"][0].update(loss={"model": "bernoulli", "p": 0.1}), "links[0].loss"),
    ],
)
def test_scenarios_the_emulator_cannot_run_are_refused_by_key(edit: Any, message: str) -> None:
    sc = chain()
    edit(sc)
    # The path is read before any device is opened: no privileges needed.
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        _core.Emulator(json.dumps(sc), ("obsx0s", "obsx0d"), format="json")


def test_tbf_shapes_the_declared_access_link() -> None:
    # 20 Mbit/s: the bucket is two full packets (1 ms at the rate is 2500 B);
    # the queue holds the declared buffer in bytes.
    assert tbf_args(20_000_000, 1000, None) == [
        "tbf",
        "rate",
        "20000000bit",
        "burst",
        "3000",
        "limit",
        "1500000",
    ]
    assert tbf_args(1_000_000_000, None, 64_000)[3:] == ["burst", "125000", "limit", "64000"]


def test_tbf_bucket_of_one_packet_serializes_like_obsims_access_link() -> None:
    # access_bucket: one 1500-byte packet, whatever the rate (the default
    # bucket of two packets lets two leave back to back after an idle moment).
    assert tbf_args(20_000_000, 1000, None, ACCESS_BUCKET_ONE_PACKET)[3:5] == ["burst", "1500"]
    assert tbf_args(1_000_000_000, None, 64_000, 1500)[3:5] == ["burst", "1500"]
    with pytest.raises(ValueError, match="access_bucket: 1499 bytes"):
        tbf_args(20_000_000, 1000, None, 1499)


def test_access_bucket_below_one_packet_is_refused_before_anything_is_set_up() -> None:
    with pytest.raises(ValueError, match="access_bucket: 100 bytes; a bucket must hold one 1500-byte packet"):
        emulate(CHAIN, fmt="json", access_bucket=100)


@needs_root
def test_kernel_access_shaping_leaves_the_first_link_to_the_kernel() -> None:
    em = emulate(CHAIN, fmt="json", nbytes=300_000, timeout_s=60, access_shaping="kernel")
    assert em.path["access_shaping"] == "kernel"
    assert em.path["forward_access"]["rate_bps"] == 20_000_000
    assert em.path["forward_access"]["bucket_bytes"] == 3000
    first = em.path["forward"][0]
    assert first["rate_bps"] is None and first["delay_s"] == pytest.approx(0.010)
    assert em.receiver is not None and em.receiver["bytes"] == 300_000
    # No packet can wait in the emulator's copy of the access link.
    assert em.report["forward"]["drops_buffer"] == 0
    with pytest.raises(ValueError, match="access_shaping"):
        emulate(CHAIN, fmt="json", access_shaping="nic")

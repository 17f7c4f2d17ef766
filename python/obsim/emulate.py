"""``obsim emulate``: runs unmodified kernel TCP (and any application) across
obsim's OBS edge model in real time.

Two network namespaces stand for the scenario flow's two hosts. Each has
one TUN device whose other end is the emulator (``obsim._core.Emulator``,
the Rust crate ``obsim-emulate``): a packet the source namespace sends is
read by the emulator, crosses the scenario's path as obsim models it
(access link, burst assembly at the ingress edge, JET offset, per-burst
loss, propagation, egress link) and is written into the destination
namespace when it is due; ACKs cross the reverse path. Traffic stays
inside the namespaces: they have no other interface and no route out.

The namespaces are made and removed here, with iproute2 (``ip netns``),
around the emulator's run; :func:`emulate` removes them on every exit
path, Ctrl-C included, and checks that nothing is left behind.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from . import _core

SRC_ADDR = "10.201.0.1"
"""Address of the source namespace (the flow's sender)."""
DST_ADDR = "10.201.0.2"
"""Address of the destination namespace (the flow's receiver)."""
MTU = 1500
"""MTU of both devices (the emulator reads at most 2048 bytes a packet)."""
PORT = 5001
"""Port of the built-in bounded transfer."""
ACCESS_BUCKET_ONE_PACKET = MTU
"""The ``access_bucket`` that makes the kernel's ``tbf`` serialize packets as
obsim's access link does (one packet's transmission after another at the
rate): a bucket of one full packet. The default bucket (two packets, or 1 ms
at the rate) lets the first two packets after an idle moment leave back to
back; on L1's path that packs more packets into each burst than obsim's link
does (docs/VALIDATION.md, L1 section 6, session 14). The kernel's ``tbf``
times in nanoseconds (``psched_l2t_ns``, an hrtimer watchdog), so a bucket
below rate/HZ works: measured at 20 Mbit/s with 1500 and 1600 bytes."""

SEND_BUFFER_MAX = 2**31 - 1
"""The largest ``send_buffer`` (``SO_SNDBUFFORCE`` takes an ``int``)."""

ACCESS_SHAPING = ("kernel", "emulator")
"""Where each direction's first link (the sending host's access link) is
shaped: ``"kernel"`` (the default), by a ``tbf`` qdisc on the sending
namespace's device, so the kernel's TCP sees the link as its own interface
and TCP small queues limit what it queues, as on a real host; or
``"emulator"``, in the forwarder like every other link, so the kernel hands
packets over at once and they wait in the emulated drop-tail buffer (as a
simulated sender's do)."""


def tbf_args(
    rate_bps: int,
    buffer_packets: Optional[int],
    buffer_bytes: Optional[int],
    bucket_bytes: Optional[int] = None,
) -> List[str]:
    """``tc qdisc ... tbf`` arguments for a link of ``rate_bps`` with the
    given drop-tail buffer: the bucket holds ``bucket_bytes`` (by default two
    full packets or 1 ms at the rate, whichever is larger; see
    :data:`ACCESS_BUCKET_ONE_PACKET`), and the queue limit is the buffer in
    bytes (packets x MTU; 100 MB for an unlimited buffer)."""
    if bucket_bytes is not None and bucket_bytes < MTU:
        raise ValueError(f"access_bucket: {bucket_bytes} bytes; a bucket must hold one {MTU}-byte packet")
    burst = max(2 * MTU, rate_bps // 8 // 1000) if bucket_bytes is None else bucket_bytes
    if buffer_packets is not None:
        limit = max(1, buffer_packets) * MTU
    elif buffer_bytes is not None:
        limit = max(MTU, buffer_bytes)
    else:
        limit = 100_000_000
    return ["tbf", "rate", f"{rate_bps}bit", "burst", str(burst), "limit", str(limit)]


class EmulateError(RuntimeError):
    """The emulation could not be set up or run; the message is one line."""


class EmulationInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped an emulation. ``.partial`` holds what it measured up
    to then (its ``interrupted`` is true); the namespaces are already
    removed. A ``KeyboardInterrupt``, so a caller running several
    emulations (reproduction L1) stops instead of going on to the next."""

    def __init__(self, partial: "Emulation") -> None:
        super().__init__("emulation interrupted")
        self.partial = partial


def privilege_problem() -> Optional[str]:
    """Why this process cannot create namespaces and TUN devices, or None."""
    if not sys.platform.startswith("linux"):
        return "obsim emulate needs Linux (network namespaces and TUN devices)"
    if os.geteuid() != 0:
        return (
            "obsim emulate needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN) to create network "
            "namespaces and TUN devices: run it with sudo"
        )
    if not os.path.exists("/dev/net/tun"):
        return "obsim emulate needs /dev/net/tun (the tun kernel module)"
    if shutil.which("ip") is None:
        return "obsim emulate needs the ip command (iproute2)"
    return None


def _ip(*args: str, ns: Optional[str] = None) -> None:
    cmd = (["ip", "netns", "exec", ns] if ns else []) + list(args)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise EmulateError(f"{' '.join(cmd)}: {r.stderr.strip() or r.returncode}")


@dataclass
class Namespaces:
    """The two namespaces of one emulation and their devices."""

    tag: str
    src_ns: str
    dst_ns: str
    src_dev: str
    dst_dev: str
    made: List[str] = field(default_factory=list)

    @classmethod
    def fresh(cls) -> "Namespaces":
        """Names unique to this process and moment (devices: 15 characters at most)."""
        tag = f"{os.getpid() % 100000}{int(time.time() * 1000) % 1000:03d}"
        return cls(
            tag=tag,
            src_ns=f"obsim-{tag}-src",
            dst_ns=f"obsim-{tag}-dst",
            src_dev=f"obs{tag}s",
            dst_dev=f"obs{tag}d",
        )

    def setup(self, sysctls: Dict[str, str]) -> None:
        """Creates both namespaces, moves the (already open) devices into
        them, addresses them point to point and brings them up."""
        for ns, dev, here, peer in (
            (self.src_ns, self.src_dev, SRC_ADDR, DST_ADDR),
            (self.dst_ns, self.dst_dev, DST_ADDR, SRC_ADDR),
        ):
            _ip("ip", "netns", "add", ns)
            self.made.append(ns)
            _ip("ip", "link", "set", dev, "netns", ns)
            _ip("ip", "link", "set", "lo", "up", ns=ns)
            _ip("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", ns=ns)
            _ip("ip", "addr", "add", here, "peer", peer, "dev", dev, ns=ns)
            _ip("ip", "link", "set", dev, "mtu", str(MTU), "up", ns=ns)
            for k, v in sysctls.items():
                _ip("sysctl", "-qw", f"{k}={v}", ns=ns)

    def teardown(self) -> None:
        """Removes the namespaces this object made (and so their devices)."""
        for ns in self.made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.made.clear()

    def leftovers(self) -> List[str]:
        """Namespaces or devices of this emulation still present."""
        names = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
        left = [ns for ns in (self.src_ns, self.dst_ns) if ns in names.split()]
        left += [d for d in (self.src_dev, self.dst_dev) if f" {d}:" in links or f" {d}@" in links]
        return left


@dataclass
class Emulation:
    """What one emulation did: the path, the emulator's report, the
    applications' output and the namespaces' TCP counters."""

    path: Dict[str, Any]
    report: Dict[str, Any]
    sender: Optional[Dict[str, Any]]
    receiver: Optional[Dict[str, Any]]
    netstat_src: Dict[str, int]
    interrupted: bool

    def summary(self) -> Dict[str, Any]:
        """The figures a comparison with a simulation reads."""
        r, fwd = self.report, self.report["forward"]
        out: Dict[str, Any] = {
            "elapsed_s": r["elapsed_s"],
            "bursts_sent": fwd["bursts_sent"],
            "bursts_lost": fwd["bursts_lost"],
            "burst_loss": fwd["bursts_lost"] / fwd["bursts_sent"] if fwd["bursts_sent"] else 0.0,
            "drops_buffer": fwd["drops_buffer"],
            "lateness_p50_s": r["lateness_p50_s"],
            "lateness_p99_s": r["lateness_p99_s"],
            "lateness_max_s": r["lateness_max_s"],
        }
        if self.sender:
            out["goodput_bps"] = self.sender["goodput_bps"]
            out["transfer_s"] = self.sender["transfer_s"]
            out["congestion_control"] = self.sender["congestion_control"]
            out["retransmits"] = self.sender["tcp_info"]["total_retrans"]
            # The kernel's smoothed RTT at the end of the transfer.
            out["srtt_s"] = self.sender["tcp_info"]["rtt_us"] * 1e-6
        ns = self.netstat_src
        out["timeouts"] = ns.get("TcpExt.TCPTimeouts", 0)
        out["loss_probes"] = ns.get("TcpExt.TCPLossProbes", 0)
        out["sack_recoveries"] = ns.get("TcpExt.TCPSackRecovery", 0)
        out["reno_recoveries"] = ns.get("TcpExt.TCPRenoRecovery", 0)
        # The undo counters, as obsim's flows table names them (SenderStats).
        out["spurious_rtos"] = ns.get("TcpExt.TCPSpuriousRTOs", 0)
        out["loss_undos"] = ns.get("TcpExt.TCPLossUndo", 0)
        out["recovery_undos"] = ns.get("TcpExt.TCPFullUndo", 0)
        out["dsack_undos"] = ns.get("TcpExt.TCPDSACKUndo", 0)
        return out

    def write(self, out: Path) -> None:
        """``emulation.json`` (path, summary, applications, counters,
        lateness quantiles) and ``burst_log.parquet`` (one row per burst)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        out.mkdir(parents=True, exist_ok=True)
        report = {k: v for k, v in self.report.items() if k not in ("bursts", "lateness_s")}
        doc = {
            "path": self.path,
            "summary": self.summary(),
            "report": report,
            "sender": self.sender,
            "receiver": self.receiver,
            "netstat_src": self.netstat_src,
            "interrupted": self.interrupted,
        }
        (out / "emulation.json").write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
        pq.write_table(pa.table(self.report["bursts"]), out / "burst_log.parquet")
        pq.write_table(
            pa.table({"lateness_s": pa.array(self.report["lateness_s"], pa.float64())}),
            out / "lateness.parquet",
        )


def _apps_cmd(ns: str, *args: str) -> List[str]:
    return ["ip", "netns", "exec", ns, sys.executable, "-m", "obsim.emulate_apps", *args]


def _child_env() -> Dict[str, str]:
    env = dict(os.environ)
    pkg_root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def emulate(
    scenario_text: str,
    *,
    fmt: str = "toml",
    flow: Optional[str] = None,
    seed: Optional[int] = None,
    nbytes: int = 10_000_000,
    congestion_control: Optional[str] = None,
    sack: Optional[bool] = None,
    sysctls: Optional[Dict[str, str]] = None,
    timeout_s: float = 120.0,
    spin_us: int = 100,
    fifo_priority: int = 10,
    access_shaping: str = "kernel",
    commands: Optional[Sequence[Sequence[str]]] = None,
    access_bucket: Optional[int] = None,
    send_buffer: Optional[int] = None,
) -> Emulation:
    """Runs one emulation of ``flow`` of the scenario.

    Without ``commands``, a bounded transfer of ``nbytes`` bytes from the
    source namespace to the destination (kernel TCP with
    ``congestion_control`` and ``sack``, when given; otherwise the kernel's
    defaults), ending when the sender has its data acknowledged or after
    ``timeout_s``. With ``commands = (receiver, sender)``, those two command
    lines run in the destination and source namespaces instead (the
    receiver first; the sender reaches it at ``10.201.0.2``), and the run
    ends when the sender exits. ``access_shaping`` is one of
    :data:`ACCESS_SHAPING`. ``access_bucket`` is the kernel shaping's ``tbf``
    bucket in bytes (``None``: two packets or 1 ms at the rate;
    :data:`ACCESS_BUCKET_ONE_PACKET` serializes as obsim's link).
    ``send_buffer`` (built-in transfer only) fixes the sender's socket send
    buffer at that many bytes (``SO_SNDBUFFORCE``, which also turns its
    autotuning off) and hands the whole transfer to the kernel in one
    write, as a bulk application with all its data queued at once (obsim's
    ``bulk`` flows); ``None``: the kernel's autotuned buffer, written 64 KiB
    at a time. Ctrl-C raises :class:`EmulationInterrupted`
    carrying the partial measurement, after the namespaces are removed.
    """
    if access_shaping not in ACCESS_SHAPING:
        raise ValueError(f"access_shaping: {access_shaping!r}; allowed: {', '.join(ACCESS_SHAPING)}")
    if access_bucket is not None and access_bucket < MTU:
        raise ValueError(f"access_bucket: {access_bucket} bytes; a bucket must hold one {MTU}-byte packet")
    if send_buffer is not None and (send_buffer < 1 or send_buffer > SEND_BUFFER_MAX):
        raise ValueError(
            f"send_buffer: {send_buffer} bytes; allowed 1 to {SEND_BUFFER_MAX} (2^31 - 1, an int)"
        )
    if send_buffer is not None and commands is not None:
        raise ValueError("send_buffer: applies to the built-in transfer only, not to commands")
    problem = privilege_problem()
    if problem:
        raise EmulateError(problem)
    names = Namespaces.fresh()
    extra = dict(sysctls or {})
    if sack is not None:
        extra["net.ipv4.tcp_sack"] = "1" if sack else "0"
    try:
        em = _core.Emulator(
            scenario_text,
            (names.src_dev, names.dst_dev),
            format=fmt,
            flow=flow,
            seed=seed,
            kernel_access=access_shaping == "kernel",
        )
    except OSError as e:
        raise EmulateError(str(e)) from None
    procs: List[subprocess.Popen[str]] = []
    sender_out: Optional[Dict[str, Any]] = None
    receiver_out: Optional[Dict[str, Any]] = None
    netstat: Dict[str, int] = {}
    try:
        names.setup(extra)
        path = em.path()
        if access_shaping == "kernel":
            for ns, dev, link in (
                (names.src_ns, names.src_dev, path["forward_access"]),
                (names.dst_ns, names.dst_dev, path["reverse_access"]),
            ):
                if link is not None:
                    args = tbf_args(
                        link["rate_bps"], link["buffer_packets"], link["buffer_bytes"], access_bucket
                    )
                    link["bucket_bytes"] = int(args[args.index("burst") + 1])
                    _ip("tc", "qdisc", "add", "dev", dev, "root", *args, ns=ns)
        env = _child_env()
        with tempfile.TemporaryDirectory(prefix="obsim-emulate-") as tmp:
            ready = Path(tmp) / "ready"
            if commands is None:
                recv_cmd = _apps_cmd(names.dst_ns, "recv", "--port", str(PORT), "--ready", str(ready))
                send_args = ["send", "--host", DST_ADDR, "--port", str(PORT), "--bytes", str(nbytes)]
                if congestion_control:
                    send_args += ["--cc", congestion_control]
                if send_buffer is not None:
                    send_args += ["--send-buffer", str(send_buffer)]
                send_cmd = _apps_cmd(names.src_ns, *send_args)
            else:
                recv_cmd = ["ip", "netns", "exec", names.dst_ns, *commands[0]]
                send_cmd = ["ip", "netns", "exec", names.src_ns, *commands[1]]
            receiver = subprocess.Popen(
                recv_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
            )
            procs.append(receiver)
            if commands is None:
                t0 = time.monotonic()
                while not ready.exists():
                    if receiver.poll() is not None or time.monotonic() - t0 > 10:
                        _, err = receiver.communicate()
                        raise EmulateError(f"the receiver did not start: {err.strip()}")
                    time.sleep(0.01)
            else:
                time.sleep(0.2)
            sender = subprocess.Popen(
                send_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
            )
            procs.append(sender)
            report = em.run(
                duration=timeout_s,
                spin_us=spin_us,
                stop=lambda: sender.poll() is not None,
                fifo_priority=fifo_priority,
            )
            interrupted = bool(report["interrupted"])
            if not interrupted and sender.poll() is None:
                raise EmulateError(f"the sender did not finish within {timeout_s} s")
            if commands is None and not interrupted:
                s_out, s_err = sender.communicate(timeout=10)
                if sender.returncode != 0:
                    raise EmulateError(f"the sender failed: {s_err.strip().splitlines()[-1:]}")
                sender_out = json.loads(s_out.strip().splitlines()[-1])
                r_out, _ = receiver.communicate(timeout=10)
                receiver_out = json.loads(r_out.strip().splitlines()[-1])
            ns_out = subprocess.run(
                _apps_cmd(names.src_ns, "netstat"), capture_output=True, text=True, env=env, timeout=10
            )
            if ns_out.returncode == 0:
                netstat = json.loads(ns_out.stdout.strip().splitlines()[-1])
        path["access_shaping"] = access_shaping
        result = Emulation(
            path=path,
            report=report,
            sender=sender_out,
            receiver=receiver_out,
            netstat_src=netstat,
            interrupted=interrupted,
        )
        if interrupted:
            raise EmulationInterrupted(result)
        return result
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.communicate()  # reaps it and closes its pipes
        em.close()
        names.teardown()
        left = names.leftovers()
        if left:
            raise EmulateError(
                f"could not remove {', '.join(left)}: remove them with ip netns del / ip link del"
            )

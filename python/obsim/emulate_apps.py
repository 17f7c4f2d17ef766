"""The bounded transfer ``obsim emulate`` runs when no application is given:
a receiver and a sender of kernel TCP, each started inside its namespace as
``python -m obsim.emulate_apps recv|send ...``. Each prints one JSON line
with what it measured; the sender adds the kernel's ``TCP_INFO`` of the
connection just before it closes (retransmissions, RTT, cwnd).

Nothing here simulates: this is the real kernel's TCP, configured by
socket options only (``TCP_CONGESTION`` for the congestion control).
"""

from __future__ import annotations

import argparse
import json
import socket
import struct
import sys
import time
from typing import Any, Dict, List, Optional

CHUNK = 65536

# struct tcp_info (include/uapi/linux/tcp.h), the fields read here, in
# order: 8 u8 (state, ca_state, retransmits, probes, backoff, options,
# wscale, app_limited/rate flags) then u32 fields.
_TCP_INFO_U8 = ("state", "ca_state", "retransmits", "probes", "backoff", "options", "wscale", "flags")
_TCP_INFO_U32 = (
    "rto_us",
    "ato_us",
    "snd_mss",
    "rcv_mss",
    "unacked",
    "sacked",
    "lost",
    "retrans",
    "fackets",
    "last_data_sent",
    "last_ack_sent",
    "last_data_recv",
    "last_ack_recv",
    "pmtu",
    "rcv_ssthresh",
    "rtt_us",
    "rttvar_us",
    "snd_ssthresh",
    "snd_cwnd",
    "advmss",
    "reordering",
    "rcv_rtt",
    "rcv_space",
    "total_retrans",
)


def tcp_info(sock: socket.socket) -> Dict[str, int]:
    """The leading fields of the kernel's ``struct tcp_info`` for ``sock``."""
    raw = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    n8, n32 = len(_TCP_INFO_U8), len(_TCP_INFO_U32)
    vals = struct.unpack_from(f"{n8}B{n32}I", raw)
    return dict(zip(_TCP_INFO_U8 + _TCP_INFO_U32, vals))


def recv(port: int, ready: Optional[str]) -> Dict[str, Any]:
    """Accepts one connection on ``port`` and reads it to the end."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(1)
    if ready:
        with open(ready, "w") as f:
            f.write("ready\n")
    conn, _ = srv.accept()
    first: Optional[float] = None
    total = 0
    start = time.monotonic()
    while True:
        b = conn.recv(CHUNK)
        if not b:
            break
        if first is None:
            first = time.monotonic()
        total += len(b)
    end = time.monotonic()
    conn.close()
    srv.close()
    return {
        "role": "recv",
        "bytes": total,
        "accept_to_eof_s": end - start,
        "first_byte_to_eof_s": end - (first or end),
    }


SO_SNDBUFFORCE = getattr(socket, "SO_SNDBUFFORCE", 32)
"""``SO_SNDBUFFORCE`` (asm-generic/socket.h): ``SO_SNDBUF`` past
``net.core.wmem_max``, for a privileged process."""


def _configure(s: socket.socket, cc: Optional[str], send_buffer: Optional[int]) -> None:
    """The sender's socket options: ``TCP_CONGESTION`` and, when given, a
    fixed send buffer of ``send_buffer`` bytes (``SO_SNDBUFFORCE``; the
    kernel doubles the value for its bookkeeping and stops autotuning it)."""
    if cc:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    if send_buffer:
        s.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, send_buffer)


def send(
    host: str, port: int, nbytes: int, cc: Optional[str], send_buffer: Optional[int] = None
) -> Dict[str, Any]:
    """Connects to ``host:port`` and sends ``nbytes`` bytes, then closes.

    With ``send_buffer``, the socket's send buffer is fixed at that many
    bytes (``SO_SNDBUFFORCE``) before connecting; the whole transfer is
    then handed to the kernel in one ``sendall`` (a bulk application
    whose data are all queued at once, as obsim's ``bulk`` flows are)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    _configure(s, cc, send_buffer)
    t0 = time.monotonic()
    for _ in range(200):
        try:
            s.connect((host, port))
            break
        except ConnectionRefusedError:
            time.sleep(0.01)
            s.close()
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            _configure(s, cc, send_buffer)
    connected = time.monotonic()
    if send_buffer:
        s.sendall(b"\0" * nbytes)
    else:
        buf = b"\0" * CHUNK
        left = nbytes
        while left > 0:
            n = s.send(buf[: min(CHUNK, left)])
            left -= n
    s.shutdown(socket.SHUT_WR)
    # Wait for the receiver's FIN: everything sent was acknowledged.
    while s.recv(CHUNK):
        pass
    done = time.monotonic()
    info = tcp_info(s)
    used = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).split(b"\0")[0].decode()
    sndbuf = s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
    s.close()
    return {
        "role": "send",
        "bytes": nbytes,
        "congestion_control": used,
        "connect_s": connected - t0,
        "transfer_s": done - connected,
        "goodput_bps": 8 * nbytes / (done - connected) if done > connected else 0.0,
        # The kernel's send buffer at the end (SO_SNDBUF: twice a fixed
        # request; the autotuned size otherwise).
        "send_buffer_bytes": sndbuf,
        "tcp_info": info,
    }


def netstat() -> Dict[str, int]:
    """The namespace's TCP counters (``/proc/net/netstat`` TcpExt and
    ``/proc/net/snmp`` Tcp): timeouts, loss probes, recoveries."""
    out: Dict[str, int] = {}
    for path in ("/proc/net/netstat", "/proc/net/snmp"):
        with open(path) as f:
            lines: List[str] = f.read().splitlines()
        for head, vals in zip(lines[::2], lines[1::2]):
            prefix, names = head.split(":", 1)
            _, values = vals.split(":", 1)
            if prefix in ("TcpExt", "Tcp"):
                for k, v in zip(names.split(), values.split()):
                    out[f"{prefix}.{k}"] = int(v)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m obsim.emulate_apps")
    sub = p.add_subparsers(dest="role", required=True)
    r = sub.add_parser("recv")
    r.add_argument("--port", type=int, default=5001)
    r.add_argument("--ready", default=None, help="file to create once listening")
    s = sub.add_parser("send")
    s.add_argument("--host", required=True)
    s.add_argument("--port", type=int, default=5001)
    s.add_argument("--bytes", type=int, required=True)
    s.add_argument("--cc", default=None, help="TCP_CONGESTION (reno, cubic, ...)")
    s.add_argument("--send-buffer", type=int, default=None, help="fixed SO_SNDBUF in bytes (SO_SNDBUFFORCE)")
    sub.add_parser("netstat")
    a = p.parse_args(argv)
    if a.role == "recv":
        res = recv(a.port, a.ready)
    elif a.role == "send":
        res = send(a.host, a.port, a.bytes, a.cc, a.send_buffer)
    else:
        res = netstat()
    print(json.dumps(res))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The kernel's side of one of L1's evenly-spaced-loss points, traced ACK by
ACK (docs/VALIDATION.md, L1 section 6, session 14). Root needed.

    python scripts/l1_kernel_trace.py CC VARIANT P TIMER OUT.txt [--bucket BYTES]
    e.g. python scripts/l1_kernel_trace.py reno sack 0.05 "10 ms" /tmp/k.txt

Runs the 10 MB transfer through ``obsim emulate`` (seed 1, as
``scripts/l1_even_loss.py emu``) with three tracepoints enabled in a private
tracefs instance: ``tcp:tcp_probe`` (snd_cwnd, ssthresh, snd_una, snd_nxt,
srtt on every segment a socket receives: the sender's ACKs, the receiver's
data), ``tcp:tcp_cong_state_set``, ``tcp:tcp_retransmit_skb`` and
``net:net_dev_queue`` on the namespaces' devices (the packets each side hands
down: the sender's GSO packets, the receiver's ACKs). Writes
the raw trace to OUT.txt and prints: ssthresh at each recovery, the ACKs by
segments acknowledged, and how many ACKs the receiver sent on a segment's
arrival or after a delay (the delayed-ACK timer). Needs tracefs at
/sys/kernel/tracing (``mount -t tracefs nodev /sys/kernel/tracing``).

``tcp_probe`` fires in ``tcp_rcv_established`` only: once the sender's
application has queued its last byte and shut down its side (FIN_WAIT1),
the sender's ACKs are no longer traced (the last send buffer's worth of the
transfer, up to 4 MB)."""

import bisect
import collections
import copy
import json
import os
import re
import sys
from typing import Dict, Iterator, Tuple

from obsim.emulate import PORT, emulate
from obsim.reproductions.l1_linux_kernel import KERNEL_CC, KERNEL_SACK, experiment

TRACEFS = "/sys/kernel/tracing"
EVENTS = ("tcp_probe", "tcp_cong_state_set", "tcp_retransmit_skb")
SRC = "10.201.0.1"  # obsim emulate's source namespace (the sender)


def run(cc: str, variant: str, p: float, timer: str, out: str, bucket: "int | None") -> dict:
    sc = copy.deepcopy(experiment(False)["scenario"])
    sc["links"][2]["burst_loss"] = {"p": p, "pattern": "even"}
    sc["nodes"][1]["assembly"]["timeout"] = timer
    sc["nodes"][4]["assembly"]["timeout"] = timer
    sc["tcp"]["congestion_control"] = cc
    sc["tcp"]["variant"] = variant
    if not os.path.isdir(f"{TRACEFS}/events/tcp"):
        sys.exit(f"no tcp tracepoints under {TRACEFS}: mount -t tracefs nodev {TRACEFS}")
    inst = f"{TRACEFS}/instances/obsim_l1_{os.getpid()}"
    os.makedirs(inst)

    def w(path: str, value: str) -> None:
        with open(f"{inst}/{path}", "w") as f:
            f.write(value)

    try:
        w("buffer_size_kb", "65536")
        for e in EVENTS:
            w(f"events/tcp/{e}/filter", f"sport == {PORT} || dport == {PORT}")
            w(f"events/tcp/{e}/enable", "1")
        # The packets each namespace hands to its device (the sender's GSO
        # packets, the receiver's ACKs): scripts/l1_ack_clock.py.
        w("events/net/net_dev_queue/filter", 'name ~ "obs*"')
        w("events/net/net_dev_queue/enable", "1")
        w("tracing_on", "1")
        em = emulate(
            json.dumps(sc),
            fmt="json",
            seed=1,
            nbytes=10_000_000,
            congestion_control=KERNEL_CC[cc],
            sack=KERNEL_SACK[variant],
            timeout_s=600,
            access_bucket=bucket,
        )
        w("tracing_on", "0")
        with open(f"{inst}/trace") as src, open(out, "w") as dst:
            dst.write(src.read())
    finally:
        w("tracing_on", "0")
        for e in EVENTS:
            w(f"events/tcp/{e}/enable", "0")
        w("events/net/net_dev_queue/enable", "0")
        os.rmdir(inst)
    return em.summary()


LINE = re.compile(r"\s(\d+\.\d+): (\w+): (.*)$")


def events(path: str) -> "Iterator[Tuple[float, str, Dict[str, str]]]":
    """The trace's events: time, tracepoint name and its `key=value` fields."""
    for line in open(path):
        m = LINE.search(line)
        if m:
            kv = dict(x.split("=", 1) for x in m.group(3).split() if "=" in x)
            yield float(m.group(1)), m.group(2), kv


def analyse(path: str) -> None:
    acks, data, states, ssthresh = [], [], [], []
    for t, name, kv in events(path):
        if name == "tcp_probe":
            if kv["src"].startswith(SRC):
                acks.append((t, int(kv["snd_una"], 16), int(kv["ssthresh"])))
            elif int(kv["data_len"]) > 0:
                data.append(t)
        elif name == "tcp_cong_state_set" and kv["saddr"] == SRC:
            states.append((t, int(kv["cong_state"])))
    una0 = acks[0][1]
    segs = [((u - una0) % 2**32) // 1448 for _, u, _ in acks]
    times = [a[0] for a in acks]
    for t, s in states:
        if s == 3:  # TCP_CA_Recovery: ssthresh of the first ACK after entering it
            i = bisect.bisect_left(times, t)
            if i < len(acks):
                ssthresh.append(acks[i][2])
    by_count = collections.Counter(min(b - a, 4) for a, b in zip(segs, segs[1:]))
    # The ACK's departure from the receiver: its arrival less the reverse
    # path's delay, the delay that puts most ACKs right after a data arrival.
    best = (-1, 0.0)
    for us in range(40_000, 60_000, 20):
        d, n = us * 1e-6, 0
        for t, _, _ in acks[100:1500]:
            i = bisect.bisect_right(data, t - d) - 1
            n += i >= 0 and 0 <= t - d - data[i] < 0.0002
        best = max(best, (n, d))
    d = best[1]
    at_arrival = delayed = 0
    for t, _, _ in acks:
        i = bisect.bisect_right(data, t - d) - 1
        if i >= 0 and t - d - data[i] < 0.0003:
            at_arrival += 1
        elif i >= 0 and t - d - data[i] > 0.030:
            delayed += 1
    print(f"ACKs {len(acks)}, data segments received {len(data)}")
    print("ssthresh at each recovery:", ssthresh)
    print("ACKs by segments acknowledged (0 = duplicate, 4 = 4 or more):", sorted(by_count.items()))
    print(
        f"reverse delay {d * 1e3:.2f} ms: {at_arrival} ACKs sent on a segment's arrival, "
        f"{delayed} over 30 ms after one"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    bucket = None
    if "--bucket" in args:
        i = args.index("--bucket")
        bucket = int(args[i + 1])
        del args[i : i + 2]
    cc, variant, p, timer, out = args[0], args[1], float(args[2]), args[3], args[4]
    s = run(cc, variant, p, timer, out, bucket)
    keys = ("goodput_bps", "timeouts", "retransmits", "bursts_sent", "bursts_lost", "lateness_p99_s")
    print(json.dumps({k: s[k] for k in keys}))
    analyse(out)

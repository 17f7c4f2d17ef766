"""The ACK clock of one of L1's evenly-spaced-loss SACK points, the kernel
against obsim (docs/VALIDATION.md, L1 sections 8 and 9).

    python scripts/l1_ack_clock.py CC P TIMER [--kernel-trace PATH | --run-kernel PATH]
    e.g. python scripts/l1_ack_clock.py reno 0.05 "10 ms" --run-kernel /tmp/k.txt

Without a kernel option, prints obsim's tables only. ``--run-kernel PATH``
runs the kernel's 10 MB transfer through ``obsim emulate`` with
``scripts/l1_kernel_trace.py``'s tracepoints (root needed; about as long as
the transfer) and writes the raw trace to PATH; ``--kernel-trace PATH``
reads such a trace again. Both sides use seed 1, SACK on, and the
registered scenario with evenly spaced losses.

The tables, each computed the same way from both sides:
- **answers to ACKs**: for every ACK the sender takes, the segments it
  newly acknowledges (0 = duplicate, 3 = three or more) against the
  segments sent before the next ACK (the kernel: `tcp:tcp_probe` on the
  sender socket and the GSO packets `net:net_dev_queue` shows on the
  sender's device; obsim: its `packets` trace);
- **flights**: the sender's transmissions split at silences of 20 ms or
  more;
- **the receiver**: ACKs sent 30 ms or more after the last data arrival
  (the delayed-ACK timer), and arrival groups split at 5 ms gaps;
- **one-segment quick ACKs per second** over the first 10 s: ACKs sent
  within 1 ms of a data arrival that was the only one since the previous
  ACK (the kernel ACKs every segment while its receive window grows:
  `tcp_grow_window`'s quick ACK).
"""

import collections
import copy
import os
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MSS = 1448
SENDER = "10.201.0.1"  # obsim emulate's source namespace
RECEIVER = "10.201.0.2"

Stream = Dict[str, list]


def kernel_streams(path: str) -> Stream:
    """ACKs at the sender (time, snd_una in segments), the sender's GSO
    packets (time, segments), data arrivals at the receiver and the
    receiver's ACKs (times), from a trace of l1_kernel_trace.py."""
    from l1_kernel_trace import events

    acks, units, data, sent_acks = [], [], [], []
    una0 = None
    for t, name, kv in events(path):
        if name == "tcp_probe":
            if kv["src"].startswith(SENDER):
                una = int(kv["snd_una"], 16)
                una0 = una if una0 is None else una0
                acks.append((t, ((una - una0) % 2**32) // MSS))
            elif kv["src"].startswith(RECEIVER) and int(kv["data_len"]) > 0:
                data.append(t)
        elif name == "net_dev_queue":
            length = int(kv["len"])
            if kv["dev"].endswith("s") and length > 200:
                units.append((t, round((length - 52) / MSS)))
            elif kv["dev"].endswith("d") and length <= 200:
                sent_acks.append(t)
    return {"acks": acks, "sends": units, "data": data, "sent_acks": sent_acks}


def obsim_streams(cc: str, p: float, timer: str) -> Tuple[Stream, dict]:
    """The same streams from obsim's packets trace, and the flow's record
    with the forward bursts."""
    import obsim
    from obsim.reproductions.l1_linux_kernel import experiment

    sc = copy.deepcopy(experiment(False)["scenario"])
    sc["links"][2]["burst_loss"] = {"p": p, "pattern": "even"}
    sc["nodes"][1]["assembly"]["timeout"] = timer
    sc["nodes"][4]["assembly"]["timeout"] = timer
    sc["tcp"]["congestion_control"] = cc
    sc["trace"] = {"packets": True}
    r = obsim.run(sc, seed=1)
    t = r.packets.to_pandas()
    src, dst = sc["flows"][0]["from"], sc["flows"][0]["to"]
    acks = t[(t.event == "receive") & (t.kind == "ack") & (t.to == src)]
    sends = t[(t.event == "send") & (t.kind == "data") & (t["from"] == src)].groupby("time_s").size()
    data = t[(t.event == "receive") & (t.kind == "data") & (t.to == dst)]
    sent_acks = t[(t.event == "send") & (t.kind == "ack") & (t["from"] == dst)]
    high, ack_stream = 0, []
    for tm, seq in zip(acks.time_s, acks.seq):
        high = max(high, int(seq))
        ack_stream.append((float(tm), high))
    flow = r.flows.to_pylist()[0]
    links = r.links.to_pandas()
    first = links[links["from"] == sc["nodes"][1]["name"]]
    flow["bursts_sent"] = int(first.bursts.sum())
    return {
        "acks": ack_stream,
        "sends": [(float(tm), int(n)) for tm, n in sends.items()],
        "data": [float(x) for x in data.time_s],
        "sent_acks": [float(x) for x in sent_acks.time_s],
    }, flow


def answers(s: Stream) -> Dict[int, collections.Counter]:
    """Segments sent before the next ACK, by segments the ACK acknowledged."""
    sends = sorted(s["sends"])
    out: Dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    j = 0
    acks = s["acks"]
    # The ACK at t newly acknowledges una - prev_una; its answer is what
    # leaves from t until the next ACK arrives.
    for (_, prev_una), (t, una), (t2, _) in zip(acks, acks[1:], acks[2:]):
        while j < len(sends) and sends[j][0] < t:
            j += 1
        k, n = j, 0
        while k < len(sends) and sends[k][0] < t2:
            n += sends[k][1]
            k += 1
        out[min(max(una - prev_una, 0), 3)][min(n, 3)] += 1
    return out


def groups(times: List[float], gap: float) -> List[int]:
    """Sizes of runs of events separated by less than `gap` s."""
    sizes: List[int] = []
    last = None
    for t in times:
        if last is None or t - last >= gap:
            sizes.append(0)
        sizes[-1] += 1
        last = t
    return sizes


def receiver(s: Stream) -> Tuple[int, List[int], Dict[int, int]]:
    """Late ACKs, arrival groups, and one-segment quick ACKs per second."""
    ev = sorted([(t, 0) for t in s["data"]] + [(t, 1) for t in s["sent_acks"]])
    t0 = s["data"][0] if s["data"] else 0.0
    late, since, last = 0, 0, None
    quick: Dict[int, int] = collections.Counter()
    for t, k in ev:
        if k == 0:
            last, since = t, since + 1
            continue
        if last is not None:
            if t - last >= 0.030:
                late += 1
            elif t - last < 0.001 and since == 1 and t - t0 < 10:
                quick[int(t - t0)] += 1
        since = 0
    return late, groups(s["data"], 0.005), quick


def report(label: str, s: Stream) -> None:
    print(f"== {label}")
    table = answers(s)
    names = {0: "duplicate", 1: "one segment", 2: "two segments", 3: "three or more"}
    print("  answers to ACKs (segments sent before the next ACK: 0 / 1 / 2 / 3+)")
    for a in sorted(table):
        c = table[a]
        print(f"    {names[a]:>13}: {sum(c.values()):5d} ACKs -> {c[0]} / {c[1]} / {c[2]} / {c[3]}")
    fl = groups([t for t, n in sorted(s["sends"]) for _ in range(n)], 0.020)
    print(f"  flights: {len(fl)}, {sum(fl) / max(len(fl), 1):.2f} segments each")
    late, arrivals, quick = receiver(s)
    print(
        f"  receiver: {late} ACKs 30 ms or more late; {len(arrivals)} arrival groups of "
        f"{sum(arrivals) / max(len(arrivals), 1):.2f} segments"
    )
    print("  one-segment quick ACKs per second, first 10 s:", [quick.get(i, 0) for i in range(10)])


def main() -> None:
    args = sys.argv[1:]
    kernel_path, run_kernel = None, False
    for opt in ("--kernel-trace", "--run-kernel"):
        if opt in args:
            i = args.index(opt)
            kernel_path, run_kernel = args[i + 1], opt == "--run-kernel"
            del args[i : i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    cc, p, timer = args[0], float(args[1]), args[2]
    if run_kernel:
        import json

        import l1_kernel_trace

        summary = l1_kernel_trace.run(cc, "sack", p, timer, kernel_path, None)
        keys = ("goodput_bps", "bursts_sent", "bursts_lost", "timeouts", "lateness_p99_s")
        print("kernel:", json.dumps({k: summary[k] for k in keys}))
    if kernel_path:
        report("the kernel", kernel_streams(kernel_path))
    s, flow = obsim_streams(cc, p, timer)
    print(f"obsim: goodput {flow['goodput_bps'] / 1e6:.3f} Mbit/s, {flow['bursts_sent']} bursts")
    report("obsim", s)


if __name__ == "__main__":
    main()

"""L1's path with evenly spaced burst losses (every round(1/p)-th burst):
obsim's linux profile against the kernel (through obsim emulate, root
needed), where both lose the same burst indices, so that the comparison is
not swamped by where random losses fall (docs/VALIDATION.md, L1 section 6).

    python scripts/l1_even_loss.py sim|emu [OUT.jsonl] [--bucket BYTES]

One 10 MB transfer per case (reno/cubic x SACK on/off x p 0.01/0.05 x
timers 1/5/10 ms), seed 1; one JSON line per case. ``--bucket`` (emu only)
sets the kernel shaping's tbf bucket (``obsim emulate --access-bucket``;
1500 serializes packets as obsim's access link does; session 14)."""

import copy
import json
import sys

import obsim
from obsim.reproductions.l1_linux_kernel import KERNEL_CC, KERNEL_SACK, experiment

args = sys.argv[1:]
bucket = None
if "--bucket" in args:
    i = args.index("--bucket")
    bucket = int(args[i + 1])
    del args[i : i + 2]
mode = args[0]
out = open(args[1] if len(args) > 1 else f"l1_even_{mode}.jsonl", "a")
base = experiment(False)["scenario"]
for cc in ("reno", "cubic"):
    for variant in ("sack", "newreno"):
        for p in (0.01, 0.05):
            for timer in ("1 ms", "5 ms", "10 ms"):
                sc = copy.deepcopy(base)
                sc["links"][2]["burst_loss"] = {"p": p, "pattern": "even"}
                sc["nodes"][1]["assembly"]["timeout"] = timer
                sc["nodes"][4]["assembly"]["timeout"] = timer
                sc["tcp"]["congestion_control"] = cc
                sc["tcp"]["variant"] = variant
                if variant != "sack":
                    sc["tcp"]["rack"] = False
                    sc["tcp"]["tlp"] = False
                seed = 1
                if mode == "sim":
                    r = obsim.run(sc, seed=seed)
                    f = r.table("flows").to_pylist()[0]
                    rec = dict(
                        goodput_bps=f["goodput_bps"], timeouts=f["to_events"], retransmits=f["retransmits"]
                    )
                else:
                    from obsim.emulate import emulate

                    em = emulate(
                        json.dumps(sc),
                        fmt="json",
                        seed=seed,
                        nbytes=10_000_000,
                        congestion_control=KERNEL_CC[cc],
                        sack=KERNEL_SACK[variant],
                        timeout_s=600,
                        access_bucket=bucket,
                    )
                    s = em.summary()
                    rec = {
                        k: s[k]
                        for k in (
                            "goodput_bps",
                            "timeouts",
                            "retransmits",
                            "loss_probes",
                            "bursts_sent",
                            "bursts_lost",
                            "srtt_s",
                            "lateness_p99_s",
                        )
                    }
                rec.update(cc=cc, variant=variant, p=p, timer=timer, seed=seed)
                if mode != "sim" and bucket is not None:
                    rec["bucket"] = bucket
                print(json.dumps(rec), flush=True)
                out.write(json.dumps(rec) + "\n")
                out.flush()

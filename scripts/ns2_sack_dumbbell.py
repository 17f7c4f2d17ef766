"""Ten SACK flows on the reference dumbbell with Bernoulli loss: obsim (both
SACK recoveries) against ns-2.35's ``Agent/TCP/Sack1``.

Usage (from the repository root, with ``ns`` installed and obsim's extension
built into ``python/obsim``)::

    PYTHONPATH=python python scripts/ns2_sack_dumbbell.py [--seeds 5] [--duration 100]

The topology is ``scenarios/dumbbell.toml`` (s_i -155 Mbit/s, 1 ms- r0 =1 Gbit/s,
10 ms, Bernoulli loss on r0 -> r1= r1 -155 Mbit/s, 1 ms- d_i, bulk flows
starting uniformly in [0, 1 s]) with ``variant = "sack"``, 1000-byte payloads
and ns-2's window_ 10000. ns-2 runs without the SYN (``syn_ false``,
``delay_growth_ false``, ``SYN_immediate_ack_ false``), as obsim does. ns-2's
goodput is the sinks' ``bytes_`` (wire bytes, 40-byte header included) scaled
by 1000/1040; its timeouts are the senders' ``nrexmit_``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

import obsim

NS_TCL = r"""
set p [lindex $argv 0]
set seed [lindex $argv 1]
set dur [lindex $argv 2]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
Agent/TCP set syn_ false
Agent/TCP set delay_growth_ false
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 10000
Agent/TCPSink set SYN_immediate_ack_ false
set r0 [$ns node]
set r1 [$ns node]
$ns simplex-link $r0 $r1 1Gb 10ms DropTail
$ns simplex-link $r1 $r0 1Gb 10ms DropTail
$ns queue-limit $r0 $r1 1000000
$ns queue-limit $r1 $r0 1000000
set em [new ErrorModel]
$em unit pkt
$em set rate_ $p
set rv [new RandomVariable/Uniform]
$rv use-rng [new RNG]
$em ranvar $rv
$em drop-target [new Agent/Null]
$ns lossmodel $em $r0 $r1
set start [new RNG]
$start seed [expr $seed + 1000]
for {set i 0} {$i < 10} {incr i} {
  set s($i) [$ns node]
  set d($i) [$ns node]
  $ns duplex-link $s($i) $r0 155Mb 1ms DropTail
  $ns duplex-link $r1 $d($i) 155Mb 1ms DropTail
  $ns queue-limit $s($i) $r0 1000
  $ns queue-limit $r1 $d($i) 1000
  set tcp($i) [new Agent/TCP/Sack1]
  set sink($i) [new Agent/TCPSink/Sack1]
  $ns attach-agent $s($i) $tcp($i)
  $ns attach-agent $d($i) $sink($i)
  $ns connect $tcp($i) $sink($i)
  set ftp($i) [$tcp($i) attach-app FTP]
  $ns at [$start uniform 0 1] "$ftp($i) start"
}
proc finish {} {
  global tcp sink dur
  set tot 0; set to 0
  for {set i 0} {$i < 10} {incr i} {
    set tot [expr $tot + [$sink($i) set bytes_]]
    set to [expr $to + [$tcp($i) set nrexmit_]]
  }
  puts "goodput_bps [expr $tot*8.0/$dur*1000.0/1040.0] timeouts $to"
  exit 0
}
$ns at $dur "finish"
$ns run
"""


def ns2_run(tcl: Path, p: float, seed: int, duration: float) -> Tuple[float, int]:
    """Goodput (bit/s, payload) and timeouts of one ns-2.35 run."""
    out = subprocess.run(
        ["ns", str(tcl), str(p), str(seed), str(duration)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    m = re.search(r"goodput_bps (\S+) timeouts (\d+)", out)
    if m is None:
        raise RuntimeError(f"ns output not understood: {out!r}")
    return float(m.group(1)), int(m.group(2))


def obsim_run(base: str, recovery: str, p: float, seed: int, duration: float) -> Tuple[float, int]:
    """Goodput (bit/s) and timeouts of one obsim run of the dumbbell."""
    text = base.replace('variant = "reno"', f'variant = "sack"\nsack_recovery = "{recovery}"')
    text = text.replace('mss = "1040 B"', 'mss = "1000 B"')
    text = text.replace('duration = "100 s"', f'duration = "{duration} s"')
    text = text.replace("p = 0.001", f"p = {p}")
    s = obsim.run(text, seed=seed).summary()
    return float(s["goodput_bps"]), int(s["to_events"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--duration", type=float, default=100.0)
    ap.add_argument("--p", type=float, nargs="*", default=[0.001, 0.01, 0.05])
    args = ap.parse_args()
    base = Path("scenarios/dumbbell.toml").read_text()
    with tempfile.TemporaryDirectory() as d:
        tcl = Path(d) / "dumbbell.tcl"
        tcl.write_text(NS_TCL)
        print("p      model              goodput Mbit/s (mean ± sd)   timeouts (mean ± sd)")
        for p in args.p:
            rows: Dict[str, List[Tuple[float, int]]] = {
                "ns-2.35 Sack1": [],
                "obsim ns2-sack1": [],
                "obsim rfc6675": [],
            }
            for seed in range(1, args.seeds + 1):
                rows["ns-2.35 Sack1"].append(ns2_run(tcl, p, seed, args.duration))
                rows["obsim ns2-sack1"].append(obsim_run(base, "ns2-sack1", p, seed, args.duration))
                rows["obsim rfc6675"].append(obsim_run(base, "rfc6675", p, seed, args.duration))
            for name, r in rows.items():
                g = [x[0] / 1e6 for x in r]
                t = [float(x[1]) for x in r]
                sd_g = statistics.stdev(g) if len(g) > 1 else 0.0
                sd_t = statistics.stdev(t) if len(t) > 1 else 0.0
                print(
                    f"{p:<6} {name:<18} {statistics.mean(g):8.2f} ± {sd_g:5.2f}"
                    f"              {statistics.mean(t):7.1f} ± {sd_t:5.1f}"
                )


if __name__ == "__main__":
    main()

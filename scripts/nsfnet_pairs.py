"""Every NSFNET pair's flow throughput in a stored R1-R5 run, against the pair's round-trip time.

R4 and R5 report the flows of one "randomly selected" source-destination pair
(`ramantas_nsfnet.PAIR`), but every run carries flows between all 56 ordered edge pairs. This
diagnostic reads the stored runs of a reproduction's result directory and prints, per case and per
class of round-trip propagation time (the pair's route under the run's own routing, both ways),
the mean over seeds of the per-run mean and variance of the finished flows' throughput (flows that
arrived after the warm-up, as R4/R5's metrics), with a 95% t interval of the mean over seeds. It
is exploratory and after the fact: the registered claims stay on the registered pair
(docs/VALIDATION.md, R5).

    python scripts/nsfnet_pairs.py RESULT_DIR [--rtt 12 57] [--out pairs.parquet]
"""

from __future__ import annotations

import argparse
import heapq
import json
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pandas as pd
from scipy import stats

_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}


def parse_duration(text: str) -> float:
    """Seconds from a scenario duration such as "10500 us" (the units this
    script meets in stored scenarios)."""
    value, unit = str(text).split()
    return float(value) * _UNITS[unit]


def _graph(scenario: dict) -> Dict[str, Dict[str, float]]:
    adj: Dict[str, Dict[str, float]] = defaultdict(dict)
    for link in scenario["links"]:
        d = parse_duration(link["delay"])
        adj[link["from"]][link["to"]] = d
        adj[link["to"]][link["from"]] = d
    return adj


def _one_way(
    adj: Dict[str, Dict[str, float]], order: Dict[str, int], src: str, dst: str, metric: str
) -> float:
    """Propagation delay of the route src -> dst under obsim's routing rule
    (net/routing.rs: minimise (metric, hops), then the lower first-hop node
    id, next hop by next hop)."""

    def dist_to(t: str) -> Dict[str, Tuple[float, int]]:
        best = {t: (0.0, 0)}
        pq = [(0.0, 0, t)]
        while pq:
            m, h, u = heapq.heappop(pq)
            if (m, h) > best[u]:
                continue
            for v, w in adj[u].items():
                c = (m + (w if metric == "delay" else 1.0), h + 1)
                if v not in best or c < best[v]:
                    best[v] = c
                    heapq.heappush(pq, (c[0], c[1], v))
        return best

    best = dist_to(dst)
    u, total = src, 0.0
    while u != dst:
        here = best[u]
        nxt = [
            v
            for v, w in adj[u].items()
            if (best[v][0] + (w if metric == "delay" else 1.0), best[v][1] + 1) == here
        ]
        v = min(nxt, key=lambda n: order[n])
        total += adj[u][v]
        u = v
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result_dir")
    ap.add_argument("--rtt", type=float, nargs="*", default=None, help="print only these RTT classes (ms)")
    ap.add_argument("--out", default=None, help="write the per-run, per-pair table as Parquet")
    a = ap.parse_args()
    root = Path(a.result_dir)
    results = pd.read_parquet(root / "results.parquet")
    case_col = next(c for c in results.columns if c.startswith("nodes[0].assembly"))
    rows: List[pd.DataFrame] = []
    rtt: Dict[Tuple[str, str], float] = {}
    for _, r in results.iterrows():
        run = next(root.glob(f"runs/*/{r['key']}"))
        meta = json.loads((run / "meta.json").read_text())
        sc = json.loads(meta["scenario_text"])
        warmup = parse_duration(sc["simulation"]["warmup"])
        metric = sc["simulation"].get("routing", "delay")
        f = pd.read_parquet(
            run / "flow_records.parquet", columns=["src", "dst", "start_s", "finished", "goodput_bps"]
        )
        f = f[(f.start_s >= warmup) & f.finished]
        g = f.groupby(["src", "dst"]).goodput_bps.agg(["size", "mean", "var"]).reset_index()
        if not rtt:
            adj = _graph(sc)
            order = {n["name"]: i for i, n in enumerate(sc["nodes"])}
            for s, d in zip(g.src, g.dst):
                rtt[(s, d)] = 1e3 * (_one_way(adj, order, s, d, metric) + _one_way(adj, order, d, s, metric))
        g["rtt_ms"] = [round(rtt[(s, d)], 3) for s, d in zip(g.src, g.dst)]
        g["case"] = str(r[case_col])
        g["seed"] = r["seed"]
        rows.append(g)
    t = pd.concat(rows, ignore_index=True)
    t["mean"] /= 1e6
    t["var"] /= 1e12
    if a.out:
        t.to_parquet(a.out)
    # Per run: average the pairs of one RTT class; then over seeds.
    per_run = t.groupby(["rtt_ms", "case", "seed"])[["mean", "var"]].mean().reset_index()
    pairs = t.groupby("rtt_ms").apply(
        lambda x: ", ".join(sorted({f"{s}->{d}" for s, d in zip(x.src, x.dst)}))
    )
    for ms, block in per_run.groupby("rtt_ms"):
        if a.rtt and not any(abs(ms - q) < 0.5 for q in a.rtt):
            continue
        print(f"\nround trip {ms:g} ms: {pairs[ms]}")
        print(f"{'case':<60} {'seeds':>5} {'mean Mbit/s':>12} {'95% CI':>16} {'variance':>9}")
        for case, c in block.groupby("case"):
            n = len(c)
            m = c["mean"].mean()
            h = stats.t.ppf(0.975, n - 1) * c["mean"].std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
            print(f"{case:<60} {n:>5} {m:>12.2f} [{m - h:6.2f}, {m + h:6.2f}] {c['var'].mean():>9.1f}")


if __name__ == "__main__":
    main()

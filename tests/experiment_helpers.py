"""Tiny experiments shared by the platform tests (a few simulated seconds
each, so that the whole platform suite stays fast)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Dict, Optional

import pyarrow.parquet as pq

TINY_SCENARIO: Dict[str, Any] = {
    "name": "tiny",
    "simulation": {"duration": "3 s"},
    "tcp": {"variant": "reno", "mss": "1000 B", "max_window": 64},
    "nodes": [{"name": "a", "kind": "host"}, {"name": "r"}, {"name": "b", "kind": "host"}],
    "links": [
        {"from": "a", "to": "r", "rate": "100 Mbit/s", "delay": "5 ms"},
        {
            "from": "r",
            "to": "b",
            "rate": "20 Mbit/s",
            "delay": "10 ms",
            "loss": {"model": "bernoulli", "p": 0.01},
        },
    ],
    "flows": [{"from": "a", "to": "b", "count": 2}],
}


def tiny_experiment(
    grid: Optional[Dict[str, Any]] = None, replications: int = 5, duration: str = "3 s", **extra: Any
) -> Dict[str, Any]:
    """A 2-axis sweep (variant x loss) of the tiny scenario."""
    sc = copy.deepcopy(TINY_SCENARIO)
    sc["simulation"]["duration"] = duration
    doc: Dict[str, Any] = {
        "name": "tiny_sweep",
        "scenario": sc,
        "replications": {"count": replications, "base_seed": 7},
        "sweep": {"grid": grid or {"tcp.variant": ["reno", "sack"], "links[1].loss.p": [0.01, 0.03]}},
        "metrics": {
            "goodput": {
                "table": "flows",
                "column": "goodput_bps",
                "agg": "sum",
                "scale": 1e-6,
                "unit": "Mbit/s",
            },
            "timeouts": {"column": "to_events", "agg": "sum"},
            "end": {"table": "meta", "column": "end_time_s", "unit": "s"},
            "to_rate": {"expr": "timeouts / end", "unit": "1/s"},
        },
        "plots": [{"x": "links[1].loss.p", "y": "goodput", "series": "tcp.variant", "logx": True}],
    }
    doc.update(extra)
    return doc


def bottleneck_rate(rate: str) -> Callable[[Dict[str, Any], bool], Dict[str, Any]]:
    """A reading's or a series' ``apply`` for the tiny experiment: its
    bottleneck (``links[1]``) at ``rate``."""

    def apply(exp: Dict[str, Any], quick: bool) -> Dict[str, Any]:
        exp = copy.deepcopy(exp)
        exp["scenario"]["links"][1]["rate"] = rate
        return exp

    return apply


def to_toml(doc: Dict[str, Any]) -> str:
    """Minimal TOML writer for the experiment dicts above (tests only)."""
    import json

    def val(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {val(x)}" for k, x in v.items()) + " }"
        raise TypeError(type(v))

    lines = []
    for k, v in doc.items():
        if not isinstance(v, (dict, list)) or (isinstance(v, list) and v and not isinstance(v[0], dict)):
            lines.append(f"{k} = {val(v)}")
    for k, v in doc.items():
        if isinstance(v, dict):
            if k == "scenario":
                lines.append(f"scenario = {val(v)}")
                continue
            if k in ("sweep", "metrics"):
                for kk, vv in v.items():
                    if isinstance(vv, dict):
                        lines.append(f"[{k}.{kk}]")
                        lines.extend(f"{json.dumps(a)} = {val(b)}" for a, b in vv.items())
                continue
            lines.append(f"[{k}]")
            lines.extend(f"{json.dumps(a)} = {val(b)}" for a, b in v.items())
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                lines.append(f"[[{k}]]")
                lines.extend(f"{json.dumps(a)} = {val(b)}" for a, b in item.items())
    return "\n".join(lines) + "\n"


def run_tables(out: Path) -> Dict[str, bytes]:
    """``{relative path: content}`` of every deterministic file of every
    stored run (Parquet tables and meta.json; not timing.json/run.json, which
    hold wall times)."""
    files = {}
    for f in sorted((out / "runs").glob("*/*/*")):
        if f.suffix == ".parquet" or f.name == "meta.json":
            files[str(f.relative_to(out))] = f.read_bytes()
    return files


def results_without_wall(out: Path) -> Any:
    """``results.parquet`` as a pandas frame, sorted by (point, replication)."""
    df = pq.read_table(out / "results.parquet").to_pandas()
    return df.sort_values(["point", "replication"]).reset_index(drop=True)

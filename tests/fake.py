"""A synthetic ``_core.run`` result, shaped like obsim-core's RunResults, for
testing the Python layer without the engine."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, Optional


def fake_raw(seed: int = 1, trace_rows: int = 3) -> Dict[str, Any]:
    """A raw result dict as returned by ``obsim._core.run``."""
    flows = {
        "flow": [0, 1],
        "group": ["g", "g"],
        "src": ["a", "a"],
        "dst": ["b", "b"],
        "variant": ["reno", "reno"],
        "start_s": [0.0, 1.0],
        "end_s": [math.nan, math.nan],
        "bytes_delivered": [1_000_000 + seed, 900_000],
        "goodput_bps": [1.6e6 + seed, 1.8e6],
        "segments_sent": [1010, 910],
        "retransmits": [10, 10],
        "segments_delivered": [1000, 900],
        "td_events": [3, 2],
        "to_events": [1, 0],
        "backoffs": [0, 0],
        "packets_dropped": [11, 10],
        "srtt_s": [0.03, 0.031],
        "rtt_mean_s": [0.029, 0.03],
        "rto_mean_s": [0.2, 0.2],
        "cwnd_final": [12.0, 9.5],
    }
    links = {
        "link": [0, 0, 1, 1],
        "from": ["a", "r", "r", "b"],
        "to": ["r", "a", "b", "r"],
        "packets": [1920, 1900, 1920, 1900],
        "bytes": [1_960_000, 76_000, 1_960_000, 76_000],
        "drops_buffer": [0, 0, 0, 0],
        "drops_loss": [0, 0, 21, 0],
        "utilisation": [0.4, 0.01, 0.4, 0.01],
    }
    trace = {
        "time_s": [0.1 * i for i in range(trace_rows)],
        "flow": [0] * trace_rows,
        "cwnd": [1.0 + i for i in range(trace_rows)],
        "ssthresh": [64.0] * trace_rows,
        "snd_nxt": list(range(trace_rows)),
        "snd_una": list(range(trace_rows)),
    }
    meta = {
        "scenario": "small",
        "seed": seed,
        "version": "0.1.0",
        "end_time_s": 5.0,
        "warmup_s": 0.0,
        "measured_s": 5.0,
        "events": 123_456,
        "wall_s": 0.0123,
        "segments_delivered": 1900,
        "stop_reason": "time",
    }
    scenario = {"name": "small", "seed": seed, "nodes": [{"name": "a"}, {"name": "r"}, {"name": "b"}]}
    return {"meta": meta, "flows": flows, "links": links, "trace": trace, "scenario": json.dumps(scenario)}


class FakeCore:
    """Stands in for ``obsim._core.run``: records calls, returns fake_raw or raises."""

    def __init__(self, error: Optional[BaseException] = None, trace_rows: int = 3) -> None:
        self.error = error
        self.trace_rows = trace_rows
        self.calls: list = []

    def __call__(
        self,
        text: str,
        fmt: str,
        seed: Optional[int],
        progress: Any = None,
        records: Any = None,
        record_chunk: Optional[int] = None,
    ) -> Dict[str, Any]:
        self.calls.append((text, fmt, seed))
        if self.error is not None:
            raise self.error
        return fake_raw(seed=1 if seed is None else seed, trace_rows=self.trace_rows)

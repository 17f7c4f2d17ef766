"""R4: ramantas2007/2008 Fig. 5: the throughput of the flows of one
source-destination pair on NSFNET (mean, variance, maximum, minimum) and
their mean transfer time against the assembly timer.

R08 §4: "both average and variance of throughput decreases rapidly with the
increase of assembly time"; "the maximum throughput decreases but the
minimum changes slightly". R07 §4: "flow transfer time increases with
assembly time and specifically, it was found to increase from 1.25sec for
1msec timer to 1.6sec and 6,7sec for 10msec and 100msec respectively". The
flows are those of :data:`.ramantas_nsfnet.PAIR` that arrived after the
warm-up and finished; a flow's throughput is its size over its completion
time (docs/NSFNET_STUDIES.md 2.9, 2.11). Same set-up and readings as R1-R3;
claims declared in :data:`CLAIMS` before any run (docs/NSFNET_STUDIES.md
1.3).

Fig. 6 (R08 §4): "three lossless flows with similar characteristics, like
file size, routing path and starting time": "in the case of 1msec, a
600segment window is reached within 0,194sec, while for 5msec and 10msec in
0,350 and 0,405sec"; "the maximum, instant throughput of these flows was
found to be the same (~65Mbps) independently of the assembly timer";
"average throughput was measured to be 23Mbps against only 17 and 14Mbps for
5 and 10msec assembly timers" (R07 §4: "a 500segment window is reached
within 0,171sec, while for 5 and 10msec timers in 0,290 and 0,38sec";
"the maximum instant throughput measured for all three burstifiers was
92Mbps, and which was achieved when window size was 128segments wide").
After each round of runs, :func:`fig6` (the reproduction's ``post_run``)
picks in every run the pair's lossless flows as docs/NSFNET_STUDIES.md 2.11
registered them (:func:`choose_flows`), reruns the same scenario and seed
with ``[trace] flows`` set to their ids (:data:`TRACE`, stopped once they
have ended) and reads from each trace the time from the flow's arrival to
cwnd 600 (and 500) and its maximum instant throughput
(:func:`trace_stats`); its average throughput is its ``goodput_bps`` in the
run's flow records. R4.t600, R4.avg and R4.peak are decided on the per-seed
means over the chosen flows; every flow's numbers are in ``fig6.parquet``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from . import ExtraRuns, Reproduction, SeedPlan
from . import ramantas_nsfnet as rn
from .claims import Claim
from .pairing import by_seed, paired

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    from matplotlib.figure import Figure


TIMEOUTS = ("1 ms", "5 ms", "10 ms", "100 ms")
"""Fig. 5's timers 1, 5, 10 ms, and R07 §4's 100 ms point."""
TRANSFER = {1.0: 1.25, 10.0: 1.6, 100.0: 6.7}
"""R07 §4: mean flow transfer time (s) at 1, 10 and 100 ms."""
BAND = 0.5

T600 = {1.0: 0.194, 5.0: 0.350, 10.0: 0.405}
"""R08 §4 (Fig. 6a): seconds for a lossless flow's window to reach 600
segments at 1, 5 and 10 ms."""
T500 = {1.0: 0.171, 5.0: 0.290, 10.0: 0.38}
"""R07 §4 (Fig. 6a): seconds to reach 500 segments (reported in
``fig6.parquet`` and the notes, not a registered claim)."""
AVG = {1.0: 23.0, 5.0: 17.0, 10.0: 14.0}
"""R08 §4: the lossless flows' average throughput (Mbit/s)."""
PEAK = 65.0
"""R08 §4: their maximum instant throughput, "~65Mbps" at every timer (R07
§4: 92 Mbit/s)."""
WINDOW = 600
"""R08's window mark (segments); :data:`WINDOW_R07` is R07's."""
WINDOW_R07 = 500
W_M = 128
"""The registered ``max_window`` (docs/NSFNET_STUDIES.md 2.6). ns-2.35
``TcpAgent::reset`` sets ``ssthresh_ = int(wnd_)``, so slow start ends at
cwnd 128 and cwnd then grows by 1/cwnd per ACK (obsim's ``ns2`` profile,
``initial_ssthresh = 0``): the time to 128 is reported with the others."""
LOSSLESS_MIN_BYTES = 1.3e6
"""docs/NSFNET_STUDIES.md 2.11: a chosen flow carries at least 1.3 MB, enough
for cwnd to reach 600 in slow start from an initial window of 2."""
FLOWS_PER_RUN = 3
"""R08 §4: "three lossless flows" (one per run in ``--quick``, 4 of
docs/NSFNET_STUDIES.md)."""
MSS_BYTES = 1000
"""The registered MSS (payload bytes per segment, docs/NSFNET_STUDIES.md 2.6):
trace sequence numbers count segments."""
TRACE = {"cwnd": True, "seq": True, "per_ack": True}
"""The trace of the reruns: a row (cwnd, ssthresh, ``snd_nxt``,
``snd_una``) after every ACK the sender processes and after every timeout.
cwnd changes only there, so the rows hold every value ns-2's traced
``cwnd_`` (Fig. 6a) takes, at the instant it takes it (the first crossing of
600 is exact), and every ACK's ``snd_una`` for :func:`instant_throughput`."""

QUOTE_FALLS = (
    'R08 §4: "both average and variance of throughput decreases rapidly with the increase of assembly time"'
)
QUOTE_MAXMIN = 'R08 §4: "the maximum throughput decreases but the minimum changes slightly"'
QUOTE_TRANSFER = (
    'R07 §4: "flow transfer time increases with assembly time and specifically, it was found to increase '
    'from 1.25sec for 1msec timer to 1.6sec and 6,7sec for 10msec and 100msec respectively"'
)

CLAIMS: Dict[str, Claim] = {
    "meanfalls": Claim(
        "mean flow throughput, 1 ms / 10 ms", QUOTE_FALLS, "paired_ratio", "greater", precision=0.1
    ),
    "varfalls": Claim("variance of flow throughput, 1 ms / 10 ms", QUOTE_FALLS, "paired_ratio", "greater"),
    "maxfalls": Claim("maximum flow throughput, 1 ms / 10 ms", QUOTE_MAXMIN, "paired_ratio", "greater"),
    "minflat": Claim(
        "minimum flow throughput, 1 ms / 10 ms",
        QUOTE_MAXMIN,
        "paired_ratio",
        "equivalent",
        threshold=1.0,
        margin=0.15,
    ),
    "slower": Claim("mean transfer time, 10 ms / 1 ms", QUOTE_TRANSFER, "paired_ratio", "greater"),
}
"""The paper's claims, declared before the run."""
for _t, _s in TRANSFER.items():
    CLAIMS[f"transfer{_t:g}"] = Claim(
        f"mean transfer time, {_t:g} ms",
        QUOTE_TRANSFER,
        "mean",
        "magnitude",
        band=(_s * (1 - BAND), _s * (1 + BAND)),
        paper=_s,
        unit="s",
    )

QUOTE_T600 = (
    'R08 §4: "the flow window rises faster for 1msec rather than for 5 or 10msec. In particular, in the '
    "case of 1msec, a 600segment window is reached within 0,194sec, while for 5msec and 10msec in 0,350 "
    'and 0,405sec"'
)
QUOTE_AVG = (
    'R08 §4: "average throughput was measured to be 23Mbps against only 17 and 14Mbps for 5 and 10msec '
    'assembly timers"'
)
QUOTE_PEAK = (
    'R08 §4: "the maximum, instant throughput of these flows was found to be the same (~65Mbps) '
    'independently of the assembly timer"'
)
CLAIMS["t600slower"] = Claim(
    "lossless flows: time to cwnd 600, 5 ms / 1 ms", QUOTE_T600, "paired_ratio", "greater"
)
CLAIMS["avgfalls"] = Claim(
    "lossless flows: average throughput, 1 ms / 10 ms", QUOTE_AVG, "paired_ratio", "greater"
)
CLAIMS["peakequal"] = Claim(
    "lossless flows: maximum instant throughput, 1 ms / 10 ms",
    QUOTE_PEAK,
    "paired_ratio",
    "equivalent",
    threshold=1.0,
    margin=0.15,
    paper=1.0,
)
for _t in T600:
    CLAIMS[f"t600_{_t:g}"] = Claim(
        f"lossless flows: time from arrival to cwnd 600, {_t:g} ms",
        QUOTE_T600,
        "mean",
        "magnitude",
        band=(T600[_t] * (1 - BAND), T600[_t] * (1 + BAND)),
        paper=T600[_t],
        unit="s",
    )
    CLAIMS[f"avg_{_t:g}"] = Claim(
        f"lossless flows: average throughput, {_t:g} ms",
        QUOTE_AVG,
        "mean",
        "magnitude",
        band=(AVG[_t] * (1 - BAND), AVG[_t] * (1 + BAND)),
        paper=AVG[_t],
        unit="Mbit/s",
    )

SEEDS = SeedPlan(initial=5, step=5, cap=10)
"""5 seeds of 600 s per timer, up to 10 while the mean's ordering is imprecise."""


def metrics(warmup: float) -> Dict[str, Any]:
    """Per run, over the pair's flows that arrived after the warm-up and
    finished: throughput moments (Mbit/s) and the mean transfer time."""
    flows = rn.pair_flows(warmup)
    rec = "flow_records"

    def m(agg: str, column: str = "goodput_bps", scale: float = 1e-6) -> Dict[str, Any]:
        return {"table": rec, "column": column, "agg": agg, "where": flows, "scale": scale}

    return {
        "flows": m("count", "flow", 1.0),
        "tput_mean": m("mean"),
        "tput_std": m("std"),
        "tput_var": {"expr": "tput_std ** 2", "unit": "(Mbit/s)^2"},
        "tput_max": m("max"),
        "tput_min": m("min"),
        "transfer_s": m("mean", "completion_s", 1.0),
    }


build, experiment = rn.builders(
    "R4_ramantas2008",
    "Throughput of one NSFNET pair's flows and their transfer time vs assembly timer",
    metrics,
    lambda quick: {"timeouts": rn.TIMEOUTS if quick else TIMEOUTS},
)
"""``--quick`` runs timers 1, 5 and 10 ms (4 of docs/NSFNET_STUDIES.md: the
quick set of R1-R4), so that every Fig. 6 claim has its rows."""


# ---------------------------------------------------------------------------
# Fig. 6: the lossless flows, their traces and what is read from them
# ---------------------------------------------------------------------------


def choose_flows(records: "pandas.DataFrame", warmup: float, quick: bool = False) -> List[int]:
    """The ids of a run's Fig. 6 flows (docs/NSFNET_STUDIES.md 2.11): among
    the flows of :data:`.ramantas_nsfnet.PAIR` that arrived at or after
    ``warmup``, finished, lost no burst (``bursts_lost == 0``) and carry at
    least :data:`LOSSLESS_MIN_BYTES`, the :data:`FLOWS_PER_RUN` whose
    arrival times are closest to the median arrival time of that set (ties
    by id), in arrival order; with ``quick``, the first such flow to arrive
    (4). Fewer (or none) when the run has fewer: reported, not replaced."""
    r = records
    c = r[
        (r["src"] == rn.PAIR[0])
        & (r["dst"] == rn.PAIR[1])
        & r["finished"].astype(bool)
        & (r["start_s"] >= warmup)
        & (r["bursts_lost"] == 0)
        & (r["size_bytes"] >= LOSSLESS_MIN_BYTES)
    ]
    if c.empty:
        return []
    if quick:
        return [int(c.sort_values(["start_s", "flow"])["flow"].iloc[0])]
    med = float(c["start_s"].median())
    near = c.assign(_d=(c["start_s"] - med).abs()).sort_values(["_d", "flow"]).head(FLOWS_PER_RUN)
    return [int(f) for f in near.sort_values(["start_s", "flow"])["flow"]]


def instant_throughput(
    time_s: Sequence[float], snd_nxt: Sequence[float], snd_una: Sequence[float], mss_bytes: float = MSS_BYTES
) -> "Any":
    """A flow's instant throughput (bit/s of payload), one value per trace
    row that has data in flight: the bytes acknowledged during one round
    trip from that row. From row i (time t_i, after the sender has sent
    every segment below ``snd_nxt_i``), the round ends at the first row j
    whose ``snd_una_j >= snd_nxt_i`` (the last segment then in flight is
    acknowledged), and the rate is (snd_una_j - snd_una_i) · MSS · 8 /
    (t_j - t_i). With a full window in flight this is window / RTT, the
    rate R07 §4 ties to the window ("92Mbps, and which was achieved when
    window size was 128segments wide"); it cannot exceed the rate at which
    the bottleneck (the 100 Mbit/s access) returns ACKs. Rows with nothing
    in flight, or whose round never ends in the trace, give no value. The
    trace must be in time order (``snd_una`` never falls)."""
    import numpy as np

    t = np.asarray(time_s, dtype=float)
    nxt = np.asarray(snd_nxt, dtype=float)
    una = np.asarray(snd_una, dtype=float)
    j = np.searchsorted(una, nxt, side="left")
    ok = (nxt > una) & (j < len(una))
    jj = np.where(ok, j, 0)
    dt = t[jj] - t
    ok &= dt > 0
    return np.where(ok, (una[jj] - una) * mss_bytes * 8.0 / np.where(ok, dt, 1.0), np.nan)[ok]


def time_to_window(time_s: Sequence[float], cwnd: Sequence[float], start_s: float, window: float) -> float:
    """Seconds from ``start_s`` (the flow's arrival) to the first trace row
    with cwnd >= ``window``; NaN if it never gets there."""
    for t, w in zip(time_s, cwnd):
        if w >= window:
            return float(t) - start_s
    return math.nan


def trace_stats(trace: "pandas.DataFrame", start_s: float, mss_bytes: float = MSS_BYTES) -> Dict[str, float]:
    """What Fig. 6 reads from one flow's trace (rows of :data:`TRACE`, any
    order): ``t600`` and ``t500`` (s from arrival to cwnd :data:`WINDOW`
    and :data:`WINDOW_R07`; NaN if never), ``t128`` (s to cwnd :data:`W_M`,
    where slow start ends under ns-2's ``ssthresh_ = window_``), ``cwnd_max``
    (segments), and
    ``peak_mbps``, the maximum of :func:`instant_throughput` (Mbit/s; NaN
    without a complete round)."""
    tr = trace.sort_values("time_s", kind="stable")
    t, w = tr["time_s"].to_numpy(), tr["cwnd"].to_numpy()
    rates = instant_throughput(t, tr["snd_nxt"].to_numpy(), tr["snd_una"].to_numpy(), mss_bytes)
    return {
        "t600": time_to_window(t, w, start_s, WINDOW),
        "t500": time_to_window(t, w, start_s, WINDOW_R07),
        "t128": time_to_window(t, w, start_s, W_M),
        "cwnd_max": float(w.max()) if len(w) else math.nan,
        "peak_mbps": float(rates.max()) / 1e6 if len(rates) else math.nan,
    }


FIG6_COLUMNS = {
    "f6_chosen": "Fig. 6 flows chosen (docs/NSFNET_STUDIES.md 2.11)",
    "f6_flows": "chosen flows measured (their rerun ran and matched the original)",
    "f6_t600": "time from arrival to cwnd 600 (s), mean over the flows that reach it",
    "f6_reached600": "chosen flows whose cwnd reached 600",
    "f6_t500": "time from arrival to cwnd 500 (s, R07), mean over the flows that reach it",
    "f6_cwnd_max": "largest cwnd (segments), mean over the flows",
    "f6_avg": "average throughput (Mbit/s), mean over the flows",
    "f6_peak": "maximum instant throughput (Mbit/s), mean over the flows",
}
"""The per-run columns :func:`fig6` adds to the results (NaN without a
chosen flow)."""
FIG6_FLOW_COLUMNS = (
    ["t_ms", "replication", "seed", "flow", "size_bytes", "start_s", "completion_s", "avg_mbps"]
    + ["t600", "t500", "t128", "cwnd_max", "peak_mbps"]
    + ["segments_sent", "retransmits", "to_events", "bursts_sent", "rerun_key"]
)
"""The columns of ``fig6.parquet``: one row per measured flow (timer, seed,
its record, :func:`trace_stats`, the rerun's key in ``extra_runs``)."""


def fig6(extra: ExtraRuns, results: "pandas.DataFrame") -> "pandas.DataFrame":
    """R4's ``post_run``: for every run of ``results`` at a Fig. 6 timer
    (1, 5 and 10 ms: :data:`T600`; R07's 100 ms point has none), the chosen
    flows (:func:`choose_flows`), one rerun of the same scenario and seed with
    ``[trace]`` :data:`TRACE` and ``flows`` their ids, stopped 1 ms after
    the last of them ends (a run is the same up to any instant whatever its
    end: each rerun's records of the chosen flows are checked against the
    original's, and a flow that differs is dropped and counted in
    ``f6_mismatch``), and per flow :func:`trace_stats` and the average
    throughput (``goodput_bps`` of the original run's record). Writes every
    flow's row to ``fig6.parquet`` and returns ``results`` with
    :data:`FIG6_COLUMNS` (and ``f6_mismatch``) added."""
    import numpy as np
    import pandas as pd

    from ..files import atomic_write_parquet
    from ..store import frame_to_arrow

    store = extra.store
    todo = []
    for row in results.to_dict("records"):
        rec = store.read_table(row["key"], "flow_records").to_pandas()
        warmup = float(store.read_meta(row["key"])["run"]["warmup_s"])
        t_ms = float(str(row[rn.AX_T]).split()[0])
        ids = choose_flows(rec, warmup, extra.quick) if t_ms in T600 else []
        chosen = rec[rec["flow"].isin(ids)].sort_values("start_s")
        sc = extra.scenario_of(row["point"])
        if ids:
            sc["trace"] = {**TRACE, "flows": ids}
            sc["simulation"]["duration"] = f"{float(chosen['end_s'].max()) + 1e-3:.9f} s"
        todo.append((row, t_ms, chosen, sc))
    keys = extra.run([(sc, int(row["seed"])) for row, _t, chosen, sc in todo if len(chosen)])
    key_of = iter(keys)
    flows: List[Dict[str, Any]] = []
    added: List[Dict[str, float]] = []
    for row, t_ms, chosen, _sc in todo:
        key: Optional[str] = next(key_of) if len(chosen) else None
        per: List[Dict[str, Any]] = []
        mismatch = 0
        if key is not None:
            trace = extra.extra_store.read_table(key, "trace").to_pandas()
            again = extra.extra_store.read_table(key, "flow_records").to_pandas().set_index("flow")
            for f in chosen.to_dict("records"):
                fid = int(f["flow"])
                same = fid in again.index and all(
                    float(again.at[fid, c]) == float(f[c]) for c in ("size_bytes", "start_s", "end_s")
                )
                if not same:
                    mismatch += 1
                    continue
                st = trace_stats(trace[trace["flow"] == fid], float(f["start_s"]))
                per.append(
                    {
                        "t_ms": t_ms,
                        "replication": int(row["replication"]),
                        "seed": int(row["seed"]),
                        "flow": fid,
                        "size_bytes": int(f["size_bytes"]),
                        "start_s": float(f["start_s"]),
                        "completion_s": float(f["completion_s"]),
                        "avg_mbps": float(f["goodput_bps"]) / 1e6,
                        **st,
                        "segments_sent": int(f["segments_sent"]),
                        "retransmits": int(f["retransmits"]),
                        "to_events": int(f["to_events"]),
                        "bursts_sent": int(f["bursts_sent"]),
                        "rerun_key": key,
                    }
                )
        flows.extend(per)
        d = pd.DataFrame(per, columns=["t600", "t500", "cwnd_max", "avg_mbps", "peak_mbps"])

        def mean(col: str, d: "pandas.DataFrame" = d) -> float:
            v = d[col].dropna()
            return float(v.mean()) if len(v) else math.nan

        added.append(
            {
                "f6_chosen": float(len(chosen)),
                "f6_flows": float(len(per)),
                "f6_t600": mean("t600"),
                "f6_reached600": float(d["t600"].notna().sum()),
                "f6_t500": mean("t500"),
                "f6_cwnd_max": mean("cwnd_max"),
                "f6_avg": mean("avg_mbps"),
                "f6_peak": mean("peak_mbps"),
                "f6_mismatch": float(mismatch),
            }
        )
    table = pd.DataFrame(flows, columns=FIG6_FLOW_COLUMNS)
    atomic_write_parquet(extra.out / "fig6.parquet", frame_to_arrow(table))
    out = results.copy()
    for col in list(FIG6_COLUMNS) + ["f6_mismatch"]:
        out[col] = np.array([a[col] for a in added], dtype=float)
    return out


def rows_of(groups: Dict[float, "pandas.DataFrame"]) -> List[Dict[str, Any]]:
    """R4's claim rows from the results by timer."""
    rows: List[Dict[str, Any]] = []
    if 1.0 in groups and 10.0 in groups:
        a, b = groups[1.0], groups[10.0]
        for key, metric in (
            ("meanfalls", "tput_mean"),
            ("varfalls", "tput_var"),
            ("maxfalls", "tput_max"),
            ("minflat", "tput_min"),
        ):
            rows.append(CLAIMS[key].decide(*paired(a, b, metric)).row("1 ms against 10 ms", 1.0))
        rows.append(CLAIMS["slower"].decide(*paired(b, a, "transfer_s")).row("10 ms against 1 ms", 10.0))
    for t, g in sorted(groups.items()):
        if t in TRANSFER:
            rows.append(
                CLAIMS[f"transfer{t:g}"].decide(by_seed(g, "transfer_s").tolist()).row(f"{t:g} ms", t)
            )
    if "f6_t600" not in next(iter(groups.values()), {}):
        return rows  # no Fig. 6 columns (compare called without the post-run)
    for t, g in sorted(groups.items()):
        if t in T600:
            rows.append(
                CLAIMS[f"t600_{t:g}"].decide(by_seed(g, "f6_t600").tolist()).row(f"Fig. 6, {t:g} ms", t)
            )
            rows.append(
                CLAIMS[f"avg_{t:g}"].decide(by_seed(g, "f6_avg").tolist()).row(f"Fig. 6, {t:g} ms", t)
            )
    if 1.0 in groups and 5.0 in groups:
        rows.append(
            CLAIMS["t600slower"]
            .decide(*paired(groups[5.0], groups[1.0], "f6_t600"))
            .row("Fig. 6, 5 ms against 1 ms", 5.0)
        )
    if 1.0 in groups and 10.0 in groups:
        a, b = groups[1.0], groups[10.0]
        rows.append(CLAIMS["avgfalls"].decide(*paired(a, b, "f6_avg")).row("Fig. 6, 1 ms against 10 ms", 1.0))
        rows.append(
            CLAIMS["peakequal"].decide(*paired(a, b, "f6_peak")).row("Fig. 6, 1 ms against 10 ms", 1.0)
        )
    return rows


compare = rn.comparison(rows_of)


READINGS = rn.readings(build)
"""The readings shared by R1-R4 (docs/NSFNET_STUDIES.md 2.12)."""

FIG6_SPAN_S = 0.5
"""Time from a flow's arrival that Fig. 6 is drawn over (the paper's flows
reach a 600-segment window within 0.194-0.405 s)."""

FIG6_SEQ_MOD = 132
"""Fig. 6(b) plots the sequence number modulo 132 (ramantas2008 §4)."""


def figures(out: Path) -> List[Tuple[str, "Figure", str]]:
    """Fig. 6 redrawn from ``fig6.parquet`` (:func:`fig6`) and the reruns'
    traces: for each timer the first measured flow (lowest replication,
    then flow id), (a) its congestion window and (b) the sequence number of
    the segments it sends (``snd_nxt`` modulo :data:`FIG6_SEQ_MOD`) over
    the first :data:`FIG6_SPAN_S` s after its arrival, one column per
    timer as in the paper. Nothing without the file or its rows."""
    import pandas as pd
    from matplotlib.figure import Figure

    from ..store import Store

    path = Path(out) / "fig6.parquet"
    if not path.is_file():
        return []
    flows = pd.read_parquet(path)
    if flows.empty:
        return []
    extra = Store(Path(out) / "extra_runs")
    firsts = flows.sort_values(["t_ms", "replication", "flow"]).groupby("t_ms", sort=True).head(1)
    fig = Figure(figsize=(4 * len(firsts), 6), layout="tight")
    axes = fig.subplots(2, len(firsts), squeeze=False)
    for col, f in enumerate(firsts.to_dict("records")):
        trace = extra.read_table(str(f["rerun_key"]), "trace").to_pandas()
        tr = trace[trace["flow"] == int(f["flow"])].sort_values("time_s", kind="stable")
        t = tr["time_s"].to_numpy() - float(f["start_s"])
        near = t <= FIG6_SPAN_S
        win, seq = axes[0][col], axes[1][col]
        win.plot(t[near], tr["cwnd"].to_numpy()[near], drawstyle="steps-post")
        win.axhline(WINDOW, linestyle=":", color="grey")
        win.set(xlabel="time since arrival (s)", ylabel="cwnd (segments)", title=f"(a) {f['t_ms']:g} ms")
        seq.plot(t[near], tr["snd_nxt"].to_numpy()[near] % FIG6_SEQ_MOD, ".", markersize=1.5)
        seq.set(
            xlabel="time since arrival (s)",
            ylabel=f"sequence mod {FIG6_SEQ_MOD}",
            title=f"(b) {f['t_ms']:g} ms",
        )
    caption = (
        "ramantas2008 Fig. 6 redrawn: congestion window (a) and sequence number of the sent segments "
        f"modulo {FIG6_SEQ_MOD} (b) of one lossless flow of the pair per timer, over the first "
        f"{FIG6_SPAN_S:g} s after its arrival (the first flow chosen by choose_flows; dotted: "
        f"{WINDOW} segments); every chosen flow's figures are in fig6.parquet"
    )
    return [("R4_fig6", fig, caption)]


REPRODUCTION = Reproduction(
    id="R4",
    title="Flow throughput and transfer time of one NSFNET pair vs assembly timer (ramantas2007/2008 Fig. 5)",
    paper=f"{rn.R08}, §4, Fig. 5; and {rn.R07}, §4",
    experiment=experiment,
    compare=compare,
    seeds=SEEDS,
    readings=READINGS,
    post_run=fig6,
    figures=figures,
    notes=(
        "Same set-up and readings as R1-R3 (NSFNET, SACK, 50 flows/s per ordered pair, Pareto 40 KB "
        "minimum and 700 KB mean, per-flow 100 Mbit/s access pipes, 600 s with a 200 s warm-up), timers "
        "1, 5, 10 and 100 ms. Flows: the pair N10 -> N14's flows that arrived after the warm-up and "
        "finished; throughput = size / completion time; per run the mean, variance, maximum and minimum "
        "over those flows, and their mean transfer time; orderings paired by seed. Fig. 6: per run, the "
        "pair's flows that arrived after the warm-up, finished, lost no burst and carry >= 1.3 MB, the "
        "three nearest the median arrival; the same seed rerun with [trace] flows = their ids (per_ack "
        "trace, stopped when they end); per flow the time from arrival to cwnd 600 (R08; 500, R07, in "
        "fig6.parquet), the average throughput (size / completion time) and the maximum instant "
        "throughput (payload acknowledged over one round trip from each ACK); per seed the mean over "
        "the flows (a flow whose cwnd never reaches 600 has no t600). Under the registered W_M = 128, "
        "ns-2's reset() sets ssthresh_ = window_ = 128, so cwnd grows by 1/cwnd per ACK past 128. "
        "--quick: timers 1, 5 and 10 ms, lambda / 4, 12 s, 2 seeds, the first lossless flow per run."
    ),
    comparison_plot={"xlabel": "assembly timer (ms)", "ylabel": "measured (claim: see quantity)"},
)

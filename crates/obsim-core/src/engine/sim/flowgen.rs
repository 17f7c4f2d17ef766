//! Glue of the flow generators (issue 12): the engine asks each
//! [`FlowGenerator`] for its arrivals, creates each arriving flow in a
//! recycled slot of the [`FlowPool`], and at the flow's end writes its
//! [`FlowRecord`] and frees the slot. Packet handling is the same as for
//! declared flows (`sim.rs`), through `flow_mut`.

use std::sync::Arc;

use super::{FlowState, Simulation};
use crate::config::scenario::{Access, FlowGenSpec, Scenario};
use crate::engine::event::Event;
use crate::engine::flowpool::FlowPool;
use crate::engine::pipes::LaneExit;
use crate::engine::timer::LazyTimer;
use crate::engine::{Control, RecordSink, SimError};
use crate::ids::{FlowId, NodeId};
use crate::metrics::judgement::FtoJudgements;
use crate::net::access::AccessPipes;
use crate::results::FlowRecord;
use crate::tcp::pacing::Pacer;
use crate::tcp::small_queue::SmallQueue;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::SimTime;
use crate::traffic::flowgen::{ActiveFlows, FlowGenerator};

/// A generated flow: its TCP state and what its record needs.
pub(super) struct GenFlow {
    pub(super) state: FlowState,
    /// Index of its generator in `flow_generators`.
    pub(super) generator: u32,
    size: u64,
}

/// What a generated flow starts from: its generator, its draw (destination
/// and size), its arrival time and its access pipes.
struct Arrival<'a> {
    spec: &'a FlowGenSpec,
    /// Index of the generator in `flow_generators`.
    generator: u32,
    dst: NodeId,
    bytes: u64,
    now: SimTime,
    pipes: Option<AccessPipes>,
}

impl Arrival<'_> {
    /// The new flow, in a new slot.
    fn flow(&self) -> GenFlow {
        let spec = self.spec;
        let sender = TcpSender::new(&spec.tcp, Some(self.bytes));
        GenFlow {
            state: FlowState {
                signals: sender.wanted_signals(),
                judged: FtoJudgements::default(),
                sender,
                receiver: TcpReceiver::new(&spec.tcp),
                src: spec.src,
                dst: self.dst,
                header: spec.tcp.header,
                sack_option_size: spec.tcp.sack_option_size,
                start: self.now,
                sender_timer: LazyTimer::default(),
                tsq: SmallQueue::new(&spec.tcp),
                pacer: Pacer::new(&spec.tcp),
                wake_timer: LazyTimer::default(),
                receiver_timer: LazyTimer::default(),
                delivered_bytes_at_warmup: 0,
                data_dropped: 0,
                completed: None,
                finite: true,
                pipes: self.pipes,
            },
            generator: self.generator,
            size: self.bytes,
        }
    }

    /// Turns `stale`, the finished flow whose slot the new one takes, into
    /// exactly what [`Arrival::flow`] builds, keeping the allocations of
    /// its sender and receiver (issue 12).
    fn renew(&self, stale: &mut GenFlow) {
        let spec = self.spec;
        // Every field, by name, set as `flow` sets it: a field added later
        // must be set here too.
        let GenFlow {
            state:
                FlowState {
                    sender,
                    receiver,
                    src,
                    dst,
                    header,
                    sack_option_size,
                    start,
                    sender_timer,
                    tsq,
                    pacer,
                    wake_timer,
                    receiver_timer,
                    delivered_bytes_at_warmup,
                    data_dropped,
                    completed,
                    finite,
                    signals,
                    judged,
                    pipes,
                },
            generator,
            size,
        } = stale;
        sender.renew(&spec.tcp, Some(self.bytes));
        receiver.renew(&spec.tcp);
        *signals = sender.wanted_signals();
        *judged = FtoJudgements::default();
        *src = spec.src;
        *dst = self.dst;
        *header = spec.tcp.header;
        *sack_option_size = spec.tcp.sack_option_size;
        *start = self.now;
        *sender_timer = LazyTimer::default();
        tsq.renew(&spec.tcp);
        *pacer = Pacer::new(&spec.tcp);
        *wake_timer = LazyTimer::default();
        *receiver_timer = LazyTimer::default();
        *delivered_bytes_at_warmup = 0;
        *data_dropped = 0;
        *completed = None;
        *finite = true;
        *pipes = self.pipes;
        *generator = self.generator;
        *size = self.bytes;
    }
}

/// The generators, the pool of their live flows and the finished records.
pub(super) struct Generated {
    units: Vec<FlowGenerator>,
    pub(super) pool: FlowPool<GenFlow>,
    /// Live generated flows over time (Little's law, `meta`).
    pub(super) active: ActiveFlows,
    /// Records of the ended flows not yet handed to a record sink (all of
    /// them without one).
    pub(super) records: Vec<FlowRecord>,
    /// Most records held at once (`FlowGenStats::records_held_peak`).
    pub(super) records_held_peak: usize,
    /// Node names, by node index, and generator names, by generator index:
    /// shared by the records (no allocation per record).
    node_names: Vec<Arc<str>>,
    generator_names: Vec<Arc<str>>,
    /// Flows created over the run.
    pub(super) created: u64,
    /// Data segments delivered in order by the generated flows that have
    /// ended (their receivers are freed with their slots); `meta`'s
    /// `segments_delivered` adds the live ones at the end.
    pub(super) delivered_segments_ended: u64,
}

impl Generated {
    /// The generators of `scenario`. Generated flow ids start after the
    /// declared flows and the UDP sources' datagram ids (`n + source`).
    pub(super) fn new(scenario: &Scenario, seed: u64) -> Self {
        let base = (scenario.flows.len() + scenario.traffic.len()) as u32;
        Self {
            units: scenario
                .flow_generators
                .iter()
                .map(|g| FlowGenerator::new(g, seed))
                .collect(),
            pool: FlowPool::new(base),
            active: ActiveFlows::default(),
            records: Vec::new(),
            records_held_peak: 0,
            node_names: scenario
                .nodes
                .iter()
                .map(|n| Arc::from(n.name.as_str()))
                .collect(),
            generator_names: scenario
                .flow_generators
                .iter()
                .map(|g| Arc::from(g.name.as_str()))
                .collect(),
            created: 0,
            delivered_segments_ended: 0,
        }
    }
}

impl Simulation<'_> {
    /// Schedules each generator's first arrival.
    pub(super) fn start_flow_generators(&mut self) {
        for (i, g) in self.gen.units.iter_mut().enumerate() {
            if let Some(t) = g.first() {
                self.queue.push(t, Event::FlowArrival(i as u32));
            }
        }
    }

    /// Generator `g` has a flow arriving now: create it, start it, and
    /// schedule the next arrival.
    pub(super) fn on_flow_arrival(&mut self, g: u32) {
        let now = self.now;
        let (draw, next) = self.gen.units[g as usize].arrive(now);
        if let Some(t) = next {
            self.queue.push(t, Event::FlowArrival(g));
        }
        let spec = &self.scenario.flow_generators[g as usize];
        if self.net.routes.next_hop(spec.src, draw.dst).is_none()
            || self.net.routes.next_hop(draw.dst, spec.src).is_none()
        {
            // Checked when the scenario was read; kept as a guard naming
            // the generator should routing ever differ from that check.
            self.gen_error = Some(SimError::Unroutable {
                path: format!("flow_generators[{g}]"),
                reason: format!(
                    "generator \"{}\": no route between node \"{}\" and node \"{}\"",
                    spec.name,
                    self.scenario.nodes[spec.src.index()].name,
                    self.scenario.nodes[draw.dst.index()].name
                ),
            });
            return;
        }
        // Its own access pipes' lanes, opened in this order.
        let pipes = match spec.access {
            Access::Shared => None,
            Access::Pipe { rate_bps, delay } => {
                let lanes = &mut self.net.pipes;
                Some(AccessPipes {
                    rate_bps,
                    delay,
                    src_up: lanes.open(LaneExit::Up(spec.src)),
                    src_down: lanes.open(LaneExit::Down),
                    dst_up: lanes.open(LaneExit::Up(draw.dst)),
                    dst_down: lanes.open(LaneExit::Down),
                })
            }
        };
        // A recycled slot's stale flow is renewed into this one, keeping
        // its allocations (issue 12); a new slot gets a new flow.
        let arrival = Arrival {
            spec,
            generator: g,
            dst: draw.dst,
            bytes: draw.bytes,
            now,
            pipes,
        };
        let Some(id) = self
            .gen
            .pool
            .insert_with(|| arrival.flow(), |stale| arrival.renew(stale))
        else {
            self.gen_error = Some(SimError::Unroutable {
                path: format!("flow_generators[{g}]"),
                reason: format!(
                    "generator \"{}\": more than 2^32 flow ids in one run",
                    spec.name
                ),
            });
            return;
        };
        self.gen.created += 1;
        self.gen.active.up(now);
        self.obs.start_flow(id);
        // The start path of declared flows too (`start_flow`): the SYN
        // first under `tcp.syn`.
        self.start_flow(id);
    }

    /// Generated flow `f` has completed now: record it and free its slot.
    pub(super) fn end_generated(&mut self, f: FlowId) {
        let now = self.now;
        let rec = self.record(f, Some(now));
        self.gen.hold(rec);
        if let Some(g) = self.gen.pool.get(f) {
            self.gen.delivered_segments_ended += g.state.receiver.delivered_segments();
        }
        // Its pipes' lanes are reused once the packets in them have left.
        if let Some(p) = self.gen.pool.get(f).and_then(|g| g.state.pipes) {
            for lane in p.lanes() {
                self.net.pipes.close(lane);
            }
        }
        self.gen.pool.remove(f);
        self.gen.active.down(now);
        // Per-flow edge state (window estimates, burst counts) is freed
        // with the flow, after its record has read it.
        self.obs.end_flow(f);
    }

    /// The record of live generated flow `f`, finished at `end` or not.
    fn record(&self, f: FlowId, end: Option<SimTime>) -> FlowRecord {
        let g = self.gen.pool.get(f).expect("a live generated flow");
        let fl = &g.state;
        let st = fl.sender.stats();
        let bursts = self.obs.flow_bursts(f);
        let name = |n: NodeId| Arc::clone(&self.gen.node_names[n.index()]);
        let completion = end.map_or(f64::NAN, |e| (e - fl.start).as_secs_f64());
        let from = fl.start.max(SimTime::ZERO + self.scenario.warmup);
        let until = end.unwrap_or(self.now);
        let active_after_warmup_s = if until > from {
            (until - from).as_secs_f64()
        } else {
            0.0
        };
        FlowRecord {
            flow: f.0,
            generator: Arc::clone(&self.gen.generator_names[g.generator as usize]),
            src: name(fl.src),
            dst: name(fl.dst),
            size_bytes: g.size,
            start_s: fl.start.as_secs_f64(),
            end_s: end.map_or(f64::NAN, SimTime::as_secs_f64),
            completion_s: completion,
            bytes_delivered: fl.receiver.delivered_bytes(),
            goodput_bps: g.size as f64 * 8.0 / completion,
            throughput_bps: fl.receiver.delivered_bytes() as f64 * 8.0
                / (until - fl.start).as_secs_f64(),
            segments_sent: st.segments_sent,
            retransmits: st.retransmits,
            td_events: st.td_events,
            to_events: st.to_events,
            loss_undos: st.loss_undos,
            recovery_undos: st.recovery_undos,
            dsack_undos: st.dsack_undos,
            bursts_sent: bursts.sent,
            bursts_lost: bursts.lost,
            ack_bursts_sent: bursts.ack_sent,
            ack_bursts_lost: bursts.ack_lost,
            finished: end.is_some(),
            active_after_warmup_s,
        }
    }

    /// Data segments delivered in order by every generated flow, ended or
    /// live (the generated flows' part of `meta.segments_delivered`).
    pub(super) fn generated_delivered_segments(&self) -> u64 {
        let live: u64 = self
            .gen
            .pool
            .live_ids()
            .into_iter()
            .filter_map(|f| self.gen.pool.get(f))
            .map(|g| g.state.receiver.delivered_segments())
            .sum();
        self.gen.delivered_segments_ended + live
    }

    /// The run's `flow_records`: the records held, then those of the flows
    /// still running, by id. With a sink these go to it in chunks (after
    /// the chunks it already had) and the result is empty.
    pub(super) fn final_records(&mut self, sink: Option<&mut Streamed<'_>>) -> Vec<FlowRecord> {
        let live = self.gen.pool.live_ids();
        match sink {
            None => {
                for f in live {
                    let rec = self.record(f, None);
                    self.gen.hold(rec);
                }
                std::mem::take(&mut self.gen.records)
            }
            Some(s) => {
                for f in live {
                    let rec = self.record(f, None);
                    self.gen.hold(rec);
                    if self.gen.records.len() >= s.chunk() {
                        s.flush(&mut self.gen.records);
                    }
                }
                if !self.gen.records.is_empty() {
                    s.flush(&mut self.gen.records);
                }
                Vec::new()
            }
        }
    }
}

impl Generated {
    /// Keeps `rec` until it is handed on (or returned at the end).
    fn hold(&mut self, rec: FlowRecord) {
        self.records.push(rec);
        self.records_held_peak = self.records_held_peak.max(self.records.len());
    }
}

/// A [`RecordSink`] in use: its chunk size, and whether it asked the run to
/// stop (it is not called again then).
pub(super) struct Streamed<'a> {
    sink: RecordSink<'a>,
    stopped: bool,
}

impl<'a> Streamed<'a> {
    /// `sink`, with a chunk of at least one record.
    pub(super) fn new(mut sink: RecordSink<'a>) -> Self {
        sink.chunk = sink.chunk.max(1);
        Self {
            sink,
            stopped: false,
        }
    }

    /// Records per chunk.
    pub(super) fn chunk(&self) -> usize {
        self.sink.chunk
    }

    /// Hands `records` to the sink (unless it stopped the run) and empties
    /// them, keeping their allocation; the sink's answer.
    pub(super) fn flush(&mut self, records: &mut Vec<FlowRecord>) -> Control {
        if !self.stopped && (self.sink.write)(records) == Control::Abort {
            self.stopped = true;
        }
        records.clear();
        if self.stopped {
            Control::Abort
        } else {
            Control::Continue
        }
    }
}

/// Flow `f`, declared or generated, if it is live.
#[inline]
pub(super) fn lookup<'a>(
    flows: &'a mut [FlowState],
    pool: &'a mut FlowPool<GenFlow>,
    f: FlowId,
) -> Option<&'a mut FlowState> {
    match flows.get_mut(f.index()) {
        Some(fl) => Some(fl),
        None => pool.get_mut(f).map(|g| &mut g.state),
    }
}

#[cfg(test)]
mod tests {
    use crate::config::parse_toml;
    use crate::engine::{run, RunOptions};
    use crate::results::RunResults;

    /// `a` -- `r` -- `b`, 100 Mbit/s, with one generator of `rate` flows/s
    /// of `size` from `a` to `b`, for `secs`.
    fn scenario(rate: f64, size: &str, secs: u64, warmup: u64) -> String {
        format!(
            r#"
[simulation]
duration = "{secs} s"
warmup = "{warmup} s"
[tcp]
variant = "newreno"
mss = "1000 B"
[[nodes]]
name = "a"
[[nodes]]
name = "r"
kind = "router"
[[nodes]]
name = "b"
[[links]]
from = "a"
to = "r"
rate = "100 Mbit/s"
delay = "2 ms"
buffer = "100 packets"
[[links]]
from = "r"
to = "b"
rate = "100 Mbit/s"
delay = "8 ms"
buffer = "100 packets"
[[flow_generators]]
name = "web"
from = "a"
to = "b"
rate = {rate}
size = "{size}"
"#
        )
    }

    fn run_text(text: &str) -> RunResults {
        let sc = parse_toml(text).unwrap_or_else(|e| panic!("{e}"));
        run(&sc, &RunOptions::default()).unwrap()
    }

    /// Every finished flow delivered exactly its size; ids follow arrival
    /// order; completion = end - start; the record names its generator.
    #[test]
    fn finished_records_are_exact_and_ids_follow_arrivals() {
        let r = run_text(&scenario(20.0, "30 KB", 20, 0));
        let recs = &r.flow_records;
        assert!(recs.len() > 300, "{} records", recs.len());
        let mut by_id: Vec<_> = recs.iter().collect();
        by_id.sort_by_key(|x| x.flow);
        for w in by_id.windows(2) {
            assert!(w[0].flow < w[1].flow, "unique ids");
            assert!(w[0].start_s <= w[1].start_s, "ids in arrival order");
        }
        assert_eq!(by_id[0].flow, 0, "no declared flows: ids from 0");
        assert_eq!(u64::from(by_id.last().unwrap().flow) + 1, r.flowgen.created);
        for x in recs {
            assert_eq!(&*x.generator, "web");
            assert_eq!((&*x.src, &*x.dst), ("a", "b"));
            assert_eq!(x.size_bytes, 30_000);
            if x.finished {
                assert_eq!(x.bytes_delivered, x.size_bytes, "flow {}", x.flow);
                assert!((x.completion_s - (x.end_s - x.start_s)).abs() < 1e-9);
                assert!(x.segments_sent >= 30);
            } else {
                assert!(x.end_s.is_nan() && x.bytes_delivered < x.size_bytes);
            }
        }
        // meta counts the generated flows' delivered segments, ended and
        // live: 30 per finished flow (30 KB, MSS 1000 B), plus each live
        // flow's in-order bytes in whole segments.
        let expect: u64 = recs.iter().map(|x| x.bytes_delivered.div_ceil(1000)).sum();
        assert_eq!(r.meta.segments_delivered, expect);
        // Unfinished flows come last.
        let first_open = recs.iter().position(|x| !x.finished).unwrap_or(recs.len());
        assert!(recs[first_open..].iter().all(|x| !x.finished));
        // Same scenario, same seed: the same records.
        let again = run_text(&scenario(20.0, "30 KB", 20, 0));
        assert_eq!(
            format!("{:?}", again.flow_records),
            format!("{:?}", r.flow_records)
        );
    }

    /// `tcp.syn` (ns2 profiles): every generated flow opens with a SYN, as
    /// each short-lived connection does in ns-2 (tcp.cc `TcpAgent::output`,
    /// seqno 0), through the start path of declared flows; its data follow
    /// the SYN's ACK. `syn = false`: no SYN. The scenario has no loss, so
    /// each flow sends exactly one SYN, first, and delivers its size.
    #[test]
    fn generated_flows_open_with_a_syn_when_the_profile_says_so() {
        for syn in [true, false] {
            let text = scenario(20.0, "30 KB", 10, 0).replace(
                "variant = \"newreno\"",
                &format!("variant = \"newreno\"\nprofile = \"ns2\"\nsyn = {syn}"),
            ) + "[trace]\npackets = true\n";
            let r = run_text(&text);
            let p = &r.packets;
            let created = r.flowgen.created;
            assert!(created > 100, "{created} flows");
            let sends_from_a = |kind: &str| {
                (0..p.kind.len())
                    .filter(|&i| p.kind[i] == kind && p.event[i] == "send" && p.from[i] == "a")
                    .map(|i| p.flow[i])
                    .collect::<Vec<u32>>()
            };
            let syns = sends_from_a("syn");
            if !syn {
                assert!(syns.is_empty(), "{} SYNs with syn = false", syns.len());
                continue;
            }
            let distinct: std::collections::BTreeSet<u32> = syns.iter().copied().collect();
            assert_eq!(syns.len(), distinct.len(), "one SYN per flow");
            assert_eq!(
                syns.len() as u64,
                created,
                "every generated flow sends its SYN"
            );
            // Each flow's first packet on its first link is its SYN, and its
            // first data segment leaves after it.
            let mut first = std::collections::BTreeMap::<u32, &str>::new();
            for i in 0..p.kind.len() {
                if p.event[i] == "send" && p.from[i] == "a" {
                    first.entry(p.flow[i]).or_insert(p.kind[i]);
                }
            }
            assert!(first.values().all(|&k| k == "syn"), "SYN first");
            for x in r.flow_records.iter().filter(|x| x.finished) {
                assert_eq!(x.bytes_delivered, x.size_bytes, "flow {}", x.flow);
            }
        }
    }

    /// Sizes drawn from a law (Pareto, i12-sizes): every finished flow
    /// delivers exactly its own drawn size, and the sizes vary.
    #[test]
    fn drawn_sizes_are_delivered_exactly() {
        let text = scenario(20.0, "X", 20, 0).replace(
            "size = \"X\"",
            "size = { law = \"pareto\", alpha = 1.5, min = \"10 KB\" }",
        );
        let r = run_text(&text);
        let done: Vec<_> = r.flow_records.iter().filter(|x| x.finished).collect();
        assert!(done.len() > 300);
        for x in &done {
            assert!(x.size_bytes >= 10_000);
            assert_eq!(x.bytes_delivered, x.size_bytes, "flow {}", x.flow);
        }
        let distinct: std::collections::BTreeSet<u64> = done.iter().map(|x| x.size_bytes).collect();
        assert!(distinct.len() > done.len() / 2);
    }

    /// Slots follow concurrency, not the total: ten times longer (ten times
    /// the flows) needs no more slots than the peak of active flows.
    #[test]
    fn slot_count_is_bounded_by_concurrent_flows() {
        let short = run_text(&scenario(50.0, "10 KB", 20, 0));
        let long = run_text(&scenario(50.0, "10 KB", 200, 0));
        assert!(long.flowgen.created > 9 * short.flowgen.created);
        assert!(long.flowgen.created > 9_000);
        assert_eq!(long.flowgen.slots, long.flowgen.peak_active);
        assert!(long.flowgen.slots < 40, "{:?}", long.flowgen);
    }

    /// `access = "pipe"`: each flow is limited by its own pipe (10 Mbit/s
    /// here, on a 100 Mbit/s network) and the pipes add four one-way
    /// delays to the RTT; flows overlapping in time do not share a pipe.
    #[test]
    fn access_pipes_limit_each_flow_and_add_their_delay() {
        let shared = scenario(2.0, "200 KB", 30, 0);
        let piped = format!(
            "{shared}access = \"pipe\"\naccess_rate = \"10 Mbit/s\"\naccess_delay = \"5 ms\"\n"
        );
        let s = run_text(&shared);
        let p = run_text(&piped);
        assert_eq!(s.flowgen.created, p.flowgen.created, "same arrivals");
        let serial = 200_000.0 * 8.0 / 10e6; // 0.16 s at the pipe rate
        for (a, b) in s.flow_records.iter().zip(&p.flow_records) {
            if !(a.finished && b.finished) {
                continue;
            }
            assert_eq!(b.bytes_delivered, 200_000);
            // At least the pipe's serialisation plus the RTT's extra 20 ms,
            // and slower than over the shared 100 Mbit/s path.
            assert!(b.completion_s > serial + 0.02, "pipe {}", b.completion_s);
            assert!(b.completion_s > a.completion_s + 0.02, "{a:?} {b:?}");
        }
        // With 2 flows/s of 0.2+ s some overlap; per-flow pipes mean the
        // overlap does not slow them: the slowest piped flow stays near
        // the fastest (a shared 10 Mbit/s link would double it).
        let c: Vec<f64> = p
            .flow_records
            .iter()
            .filter(|x| x.finished)
            .map(|x| x.completion_s)
            .collect();
        let (lo, hi) = c
            .iter()
            .fold((f64::MAX, 0.0_f64), |(l, h), &x| (l.min(x), h.max(x)));
        assert!(p.flowgen.peak_active >= 2, "{:?}", p.flowgen);
        assert!(hi < 1.2 * lo, "completion {lo} .. {hi}");
    }

    /// Flows active at `t` by the records: arrived at or before `t`, not
    /// finished by then.
    fn active_at(recs: &[crate::results::FlowRecord], t: f64, src: Option<&str>) -> u64 {
        recs.iter()
            .filter(|x| x.start_s <= t && (x.end_s.is_nan() || x.end_s > t))
            .filter(|x| src.is_none_or(|s| &*x.src == s))
            .count() as u64
    }

    /// The metrics sampler covers generated flows (issue 12, NSFNET_STUDIES
    /// §3 item 1): at every sample its active count is the records' count of
    /// flows alive then, recycled slots included; the aggregated throughput
    /// is positive while flows are active; the index is in [0, 1] under
    /// loss.
    #[test]
    fn sampler_counts_live_generated_flows() {
        let text = scenario(30.0, "200 KB", 30, 5)
            .replace("buffer = \"100 packets\"", "buffer = \"20 packets\"")
            + "[metrics]\nsample_interval = \"100 ms\"\n";
        let r = run_text(&text);
        let s = &r.series;
        assert_eq!(s.time_s.len(), 300);
        assert!(r.flowgen.slots < r.flowgen.created / 10, "slots recycled");
        for (i, &t) in s.time_s.iter().enumerate() {
            assert_eq!(
                s.active_flows[i],
                active_at(&r.flow_records, t, None),
                "t = {t}"
            );
            if s.active_flows[i] > 0 && t > 1.0 {
                assert!(s.agg_throughput_bps[i] > 0.0, "t = {t}");
                assert!(s.norm_cwnd[i] > 0.0 && s.norm_cwnd[i] <= 1.0);
            }
        }
        assert!(s.active_flows.iter().any(|&n| n >= 3));
        let lossy: u64 = r
            .flow_records
            .iter()
            .map(|x| x.td_events + x.to_events)
            .sum();
        assert!(lossy > 50, "{lossy} loss events: the scenario must lose");
        let i = r.meta.sync_index;
        assert!(i > 0.0 && i <= 1.0, "sync index {i}");
        assert!(r.meta.agg_throughput_mean_bps > 1e6);
    }

    /// `metrics.sync_index = "churn"` counts only flows active at both ends
    /// of an interval: under churn the two definitions differ; the series
    /// is the same.
    #[test]
    fn churn_index_differs_from_at_sample_under_churn() {
        let base = scenario(30.0, "200 KB", 30, 5)
            .replace("buffer = \"100 packets\"", "buffer = \"20 packets\"")
            + "[metrics]\nsample_interval = \"100 ms\"\n";
        let a = run_text(&base);
        let c = run_text(&(base + "sync_index = \"churn\"\n"));
        assert_eq!(format!("{:?}", a.series), format!("{:?}", c.series));
        let (ia, ic) = (a.meta.sync_index, c.meta.sync_index);
        assert!(ic > 0.0 && ic <= 1.0, "churn index {ic}");
        assert!((ia - ic).abs() > 1e-9, "{ia} {ic}");
    }

    /// `metrics.pair`: only the flows of that (source, destination) pair
    /// are sampled.
    #[test]
    fn pair_filter_keeps_one_direction() {
        let text = scenario(20.0, "100 KB", 20, 0)
            + "[[flow_generators]]\nname = \"back\"\nfrom = \"b\"\nto = \"a\"\nrate = 20\nsize = \"100 KB\"\n"
            + "[metrics]\nsample_interval = \"100 ms\"\n";
        let all = run_text(&text);
        let ab = run_text(&(text.clone() + "pair = [\"a\", \"b\"]\n"));
        let recs = &all.flow_records;
        assert!(recs.iter().any(|x| &*x.src == "b"));
        let mut fewer = false;
        for (i, &t) in ab.series.time_s.iter().enumerate() {
            assert_eq!(all.series.active_flows[i], active_at(recs, t, None));
            assert_eq!(
                ab.series.active_flows[i],
                active_at(recs, t, Some("a")),
                "t = {t}"
            );
            fewer |= ab.series.active_flows[i] < all.series.active_flows[i];
        }
        assert!(fewer);
        // The filter changes what is measured, not the run.
        assert_eq!(format!("{:?}", ab.flow_records), format!("{recs:?}"));
    }

    /// `[trace] flows` names generated flows by id (NSFNET_STUDIES §3 item
    /// 2, ramantas2008 Fig. 6): each traced flow has rows from its arrival
    /// to its end only, under its record's id; its sequence numbers reach
    /// its size; the run itself is unchanged by tracing; every mode
    /// (on change, at an interval, per ACK) traces them.
    #[test]
    fn generated_flows_are_traced_by_id() {
        let base = scenario(20.0, "50 KB", 10, 0);
        let plain = run_text(&base);
        for mode in ["", "interval = \"10 ms\"\n", "per_ack = true\n"] {
            let text = format!("{base}[trace]\ncwnd = true\nseq = true\nflows = [3, 10]\n{mode}");
            let r = run_text(&text);
            assert_eq!(
                format!("{:?}", r.flow_records),
                format!("{:?}", plain.flow_records)
            );
            let t = &r.trace;
            for id in [3u32, 10] {
                let rec = r.flow_records.iter().find(|x| x.flow == id).unwrap();
                assert!(rec.finished);
                let rows: Vec<usize> = (0..t.flow.len()).filter(|&i| t.flow[i] == id).collect();
                assert!(
                    rows.len() > 5,
                    "flow {id} mode {mode:?}: {} rows",
                    rows.len()
                );
                for &i in &rows {
                    assert!(
                        t.time_s[i] >= rec.start_s && t.time_s[i] <= rec.end_s,
                        "{mode:?}"
                    );
                    assert!(t.cwnd[i] >= 1.0);
                }
                let last = *rows.last().unwrap();
                // 50 segments of 1000 B; the row after the last ACK is not
                // taken (the flow ends in it).
                assert!(t.snd_nxt[last] >= 40, "{mode:?}: {}", t.snd_nxt[last]);
            }
            assert!(t.flow.iter().all(|&f| f == 3 || f == 10));
        }
        // The packet trace takes the same ids: flow 3's packets only, its
        // data and its ACKs.
        let r = run_text(&format!("{base}[trace]\npackets = true\nflows = [3]\n"));
        let p = &r.packets;
        assert!(p.flow.iter().all(|&f| f == 3));
        assert!(p.kind.contains(&"data") && p.kind.contains(&"ack"));
    }

    /// Little's law, L = λ W: the time-average number of active flows
    /// against λ times the mean completion time, within 3 standard errors
    /// of λ·W̄ (the count of arrivals is Poisson, the mean of W has the
    /// sample standard error).
    #[test]
    fn littles_law_holds() {
        let (lambda, secs, warm) = (40.0, 300, 20);
        let r = run_text(&scenario(lambda, "60 KB", secs, warm));
        let w: Vec<f64> = r
            .flow_records
            .iter()
            .filter(|x| x.finished && x.start_s >= warm as f64)
            .map(|x| x.completion_s)
            .collect();
        let n = w.len() as f64;
        let mean = w.iter().sum::<f64>() / n;
        let var = w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let lw = lambda * mean;
        let se = lw * (1.0 / n + var / (mean * mean * n)).sqrt();
        let l = r.flowgen.mean_active;
        assert!(
            (l - lw).abs() < 3.0 * se,
            "L = {l}, λW = {lw} (se {se}, n {n}, W {mean})"
        );
    }

    // ---- Streamed records (issue 12 items 3 and 4) ----

    /// Runs `text` with a record sink of `chunk` records; returns the
    /// results and the chunks it was handed.
    fn run_streamed_text(
        text: &str,
        chunk: usize,
        stop_after: Option<usize>,
    ) -> (
        Result<RunResults, crate::engine::SimError>,
        Vec<Vec<crate::results::FlowRecord>>,
    ) {
        use crate::engine::{run_streamed, Control, RecordSink};
        let sc = parse_toml(text).unwrap_or_else(|e| panic!("{e}"));
        let mut chunks = Vec::new();
        let mut write = |recs: &[crate::results::FlowRecord]| {
            chunks.push(recs.to_vec());
            if stop_after == Some(chunks.len()) {
                Control::Abort
            } else {
                Control::Continue
            }
        };
        let r = run_streamed(
            &sc,
            &RunOptions::default(),
            &mut |_| Control::Continue,
            RecordSink {
                chunk,
                write: &mut write,
            },
        );
        (r, chunks)
    }

    /// With a sink the run never holds more than one chunk of records;
    /// every chunk but the last is full; the chunks, concatenated, are
    /// exactly the records of the same run without a sink (finished flows
    /// in end order, then the unfinished by id), and every other result is
    /// unchanged.
    #[test]
    fn streamed_records_equal_kept_records_and_hold_one_chunk() {
        let text = scenario(20.0, "30 KB", 20, 0);
        let kept = run_text(&text);
        let n = kept.flow_records.len();
        assert!(n > 300, "{n} records");
        assert!(
            kept.flow_records.iter().any(|x| !x.finished),
            "unfinished flows too"
        );
        assert_eq!(
            kept.flowgen.records_held_peak, n as u64,
            "no sink: all held"
        );
        for chunk in [1, 7, 64, n, 10 * n] {
            let (r, chunks) = run_streamed_text(&text, chunk, None);
            let r = r.unwrap();
            assert!(r.flow_records.is_empty(), "streamed, not kept");
            assert!(
                r.flowgen.records_held_peak <= chunk as u64,
                "chunk {chunk}: {} held",
                r.flowgen.records_held_peak
            );
            let (last, full) = chunks.split_last().unwrap();
            assert!(full.iter().all(|c| c.len() == chunk), "chunk {chunk}");
            assert!((1..=chunk).contains(&last.len()), "chunk {chunk}");
            let all: Vec<_> = chunks.concat();
            assert_eq!(format!("{all:?}"), format!("{:?}", kept.flow_records));
            assert_eq!(format!("{:?}", r.flows), format!("{:?}", kept.flows));
            assert_eq!(r.meta.events, kept.meta.events);
            assert_eq!(r.meta.segments_delivered, kept.meta.segments_delivered);
            assert_eq!(r.flowgen.created, kept.flowgen.created);
        }
        // 0 is taken as 1.
        let (_, chunks) = run_streamed_text(&text, 0, None);
        assert!(chunks.iter().all(|c| c.len() == 1) && chunks.len() == n);
    }

    /// A sink answering `Abort` stops the run as a progress observer does
    /// (interrupted, with the results so far) and is not called again.
    #[test]
    fn a_sink_that_aborts_stops_the_run() {
        let text = scenario(20.0, "30 KB", 20, 0);
        let (r, chunks) = run_streamed_text(&text, 10, Some(3));
        let Err(crate::engine::SimError::Interrupted { at, partial }) = r else {
            panic!("expected an interruption");
        };
        assert_eq!(chunks.len(), 3, "not called after Abort");
        assert_eq!(partial.meta.stop_reason, "interrupted");
        assert!(at.as_secs_f64() < 20.0 && at.as_secs_f64() > 0.0);
        assert!(partial.flow_records.is_empty());
    }
}

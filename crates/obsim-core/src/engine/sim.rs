//! The simulation: builds the network and flows from a [`Scenario`], runs
//! the event loop, and collects [`RunResults`].
//!
//! Timers are *lazy* ([`LazyTimer`], as in Linux and ns-3's TCP): each TCP
//! endpoint and each assembler has at most one pending timer event.
//! Restarting the retransmission timer on an ACK only moves the endpoint's
//! deadline later; when the pending event fires it compares the current
//! deadline with the clock and either acts or re-arms itself at the new
//! deadline. No per-ACK queue work.
//!
//! Files: this one holds the loop, the dispatch, the packet network glue
//! (forwarding, delivery to TCP endpoints) and the results; `sim/bursts.rs`
//! the OBS glue; `sim/udp.rs` the cross-traffic glue; `engine/links.rs`
//! builds the channel records.

use std::time::Instant;

mod bursts;
mod flowgen;
mod udp;

use flowgen::lookup as flow_lookup;

use crate::config::scenario::{AppSpec, NodeKind, Scenario};
use crate::engine::event::Event;
use crate::engine::in_flight::PacketSlab;
use crate::engine::links::{self, Link};
use crate::engine::pipes::{LaneExit, PipeLanes};
use crate::engine::queue::EventQueue;
use crate::engine::timer::LazyTimer;
use crate::engine::{Control, Progress, RecordSink, RunOptions, SimError, PROGRESS_EVERY};
use crate::ids::{FlowId, LinkId, NodeId, PipeId};
use crate::metrics::aggregate::Moments;
use crate::metrics::aggregate::{FlowSample, Sampler};
use crate::metrics::judgement::FtoJudgements;
use crate::metrics::packets::{DropReason, PacketEvent, PacketTracer};
use crate::metrics::trace::{SenderSample, TraceRecorder};
use crate::net::access::AccessPipes;
use crate::net::{Packet, Payload, RoutingTable};
use crate::results::{FlowResult, LinkResult, RunMeta, RunResults};
use crate::tcp::config::SackOptionSize;
use crate::tcp::pacing::Pacer;
use crate::tcp::signal::SignalSet;
use crate::tcp::small_queue::SmallQueue;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::{SimDuration, SimTime};
use crate::traffic::bulk;

/// Per-flow state owned by the engine.
struct FlowState {
    sender: TcpSender,
    receiver: TcpReceiver,
    src: NodeId,
    dst: NodeId,
    header: u32,
    /// Bytes the SACK option adds per ACK (`tcp.sack_option_size`).
    sack_option_size: SackOptionSize,
    start: SimTime,
    /// The retransmission timer's pending `SenderTimer` event.
    sender_timer: LazyTimer,
    /// TCP small queues: the flow's packets at its first hop
    /// (`tcp.small_queues`).
    tsq: SmallQueue,
    /// Pacing: the flow's earliest departure time (`tcp.pacing`).
    pacer: Pacer,
    /// The pending `SenderWake` event (small queues or pacing).
    wake_timer: LazyTimer,
    /// The delayed-ACK timer's pending `ReceiverTimer` event.
    receiver_timer: LazyTimer,
    delivered_bytes_at_warmup: u64,
    data_dropped: u64,
    completed: Option<SimTime>,
    finite: bool,
    /// Burst signals the sender wants (its timeout plug-in declares them).
    signals: SignalSet,
    /// The flow's latest drops and its FTO judgements, scored (yu2004 §IV;
    /// issue 6).
    judged: FtoJudgements,
    /// Its own access pipes (generated flows with `access = "pipe"`).
    pipes: Option<AccessPipes>,
}

/// The network: the channel records (indexed by link id) and routes.
struct Net {
    links: Vec<Link>,
    routes: RoutingTable,
    /// The packet trace (`[trace] packets = true`); `None` costs one branch
    /// per packet event and allocates nothing.
    packets: Option<Box<PacketTracer>>,
    /// The lanes of the generated flows' access pipes, with their packets.
    pipes: PipeLanes,
    /// The slots of every packet in flight on a channel or a lane
    /// (`engine/in_flight.rs`).
    slab: PacketSlab,
}

impl Net {
    /// Hands `pkt` to the channel from `node` towards its destination.
    /// Returns when its transmission there ends, or `None` if it was
    /// dropped at a full buffer.
    #[inline]
    fn transmit(
        &mut self,
        queue: &mut EventQueue<Event>,
        now: SimTime,
        node: NodeId,
        pkt: Packet,
    ) -> Option<SimTime> {
        let Some(ch) = self.routes.next_hop(node, pkt.dst) else {
            debug_assert!(false, "no route from {node:?} to {:?}", pkt.dst);
            return None;
        };
        let link = &mut self.links[ch.index()];
        let to = link.channel.to;
        let done = match link.channel.enqueue(now, pkt.bytes) {
            Some(at) => {
                // The packet's place in the event order is drawn now, as a
                // push of its own arrival event would be; it is scheduled
                // when it becomes the channel's head.
                let st = queue.stamp(at);
                if link.in_flight.push(&mut self.slab, st, pkt) {
                    queue.push_stamped(st, Event::Arrive(ch));
                }
                Some(at - link.channel.delay)
            }
            None => None,
        };
        let sent = done.is_some();
        if let Some(tr) = self.packets.as_mut() {
            let ev = if sent {
                PacketEvent::Send
            } else {
                PacketEvent::Drop(DropReason::Buffer)
            };
            tr.record(now, ev, node, to, &pkt);
        }
        done
    }
}

/// A ready-to-run simulation.
pub struct Simulation<'s> {
    scenario: &'s Scenario,
    seed: u64,
    now: SimTime,
    queue: EventQueue<Event>,
    net: Net,
    flows: Vec<FlowState>,
    trace: Option<TraceRecorder>,
    trace_on_change: bool,
    /// `[trace] per_ack`: one trace row after every ACK and every
    /// retransmission timeout of a traced flow.
    trace_per_ack: bool,
    events: u64,
    stop_reason: &'static str,
    finite_remaining: usize,
    warmup_done: bool,
    busy_at_warmup: Vec<SimDuration>,
    obs: bursts::Obs,
    sampler: Sampler,
    traffic: udp::Traffic,
    /// Flow generators and their live flows (issue 12).
    gen: flowgen::Generated,
    /// A run-time error of a flow generator, ending the run.
    gen_error: Option<SimError>,
}

impl<'s> Simulation<'s> {
    /// Builds the network, routes and flows of `scenario`.
    pub fn new(scenario: &'s Scenario, opts: &RunOptions) -> Result<Self, SimError> {
        let seed = opts.seed.unwrap_or(scenario.seed);
        let n = scenario.nodes.len();
        let links = links::build(scenario, seed);
        let transit: Vec<bool> = scenario
            .nodes
            .iter()
            .map(|nd| nd.kind != NodeKind::Host)
            .collect();
        let routes = RoutingTable::shortest_paths(n, &links, &transit, scenario.routing);
        let mut flows = Vec::with_capacity(scenario.flows.len());
        for (i, f) in scenario.flows.iter().enumerate() {
            for (a, b) in [(f.src, f.dst), (f.dst, f.src)] {
                if routes.next_hop(a, b).is_none() {
                    return Err(SimError::Unroutable {
                        path: format!("flows[{i}]"),
                        reason: format!(
                            "no route from node \"{}\" to node \"{}\" (hosts do not forward transit traffic)",
                            scenario.nodes[a.index()].name,
                            scenario.nodes[b.index()].name
                        ),
                    });
                }
            }
            let AppSpec::Bulk(bytes) = f.app;
            let sender = TcpSender::new(&f.tcp, bytes);
            flows.push(FlowState {
                signals: sender.wanted_signals(),
                judged: FtoJudgements::default(),
                sender,
                receiver: TcpReceiver::new(&f.tcp),
                src: f.src,
                dst: f.dst,
                header: f.tcp.header,
                sack_option_size: f.tcp.sack_option_size,
                start: bulk::start_time(f.start, seed, f.id),
                sender_timer: LazyTimer::default(),
                tsq: SmallQueue::new(&f.tcp),
                pacer: Pacer::new(&f.tcp),
                wake_timer: LazyTimer::default(),
                receiver_timer: LazyTimer::default(),
                delivered_bytes_at_warmup: 0,
                data_dropped: 0,
                completed: None,
                finite: bytes.is_some(),
                pipes: None,
            });
        }
        let t = &scenario.trace;
        let trace = (t.cwnd || t.seq || t.per_ack)
            .then(|| TraceRecorder::new(flows.len(), &t.flows, t.cwnd, t.seq));
        let packets = t
            .packets
            .then(|| Box::new(PacketTracer::new(flows.len(), &t.flows)));
        let finite_remaining = flows.iter().filter(|f| f.finite).count();
        let n_ch = links.len();
        let signal_mask = flows.iter().fold(SignalSet::NONE, |m, f| m | f.signals);
        let mut obs = bursts::Obs::new(scenario, seed, flows.len(), signal_mask);
        obs.keep_pair_series(scenario, &routes, &links);
        let traffic = udp::Traffic::new(scenario, seed, &routes, flows.len())?;
        let gen = flowgen::Generated::new(scenario, seed);
        let mut sim = Self {
            scenario,
            seed,
            now: SimTime::ZERO,
            queue: EventQueue::with_capacity(1024),
            net: Net {
                links,
                routes,
                packets,
                pipes: PipeLanes::default(),
                slab: PacketSlab::default(),
            },
            flows,
            trace_on_change: trace.is_some() && t.interval.is_none() && !t.per_ack,
            trace_per_ack: t.per_ack,
            trace,
            events: 0,
            stop_reason: "time",
            finite_remaining,
            warmup_done: false,
            busy_at_warmup: vec![SimDuration::ZERO; n_ch],
            obs,
            sampler: Sampler::new(scenario.flows.len(), scenario.metrics.sync_index),
            traffic,
            gen,
            gen_error: None,
        };
        sim.check_optical()?;
        Ok(sim)
    }

    /// Runs to the end and returns the results; an error only if a flow
    /// generator fails at run time (a flow it cannot route).
    pub fn run(self) -> Result<RunResults, SimError> {
        self.run_observed(&mut |_| Control::Continue)
    }

    /// Runs to the end, reporting progress to `observer` every
    /// [`PROGRESS_EVERY`] events; stops early if it answers [`Control::Abort`],
    /// returning [`SimError::Interrupted`] with the results so far.
    pub fn run_observed(
        self,
        observer: &mut dyn FnMut(Progress) -> Control,
    ) -> Result<RunResults, SimError> {
        self.run_streamed(observer, None)
    }

    /// [`Simulation::run_observed`], handing the generated flows' records
    /// to `sink` in chunks instead of keeping them, if there is one
    /// ([`RecordSink`]).
    pub fn run_streamed(
        mut self,
        observer: &mut dyn FnMut(Progress) -> Control,
        sink: Option<RecordSink<'_>>,
    ) -> Result<RunResults, SimError> {
        let mut sink = sink.map(flowgen::Streamed::new);
        // Without a sink the records are kept: the length check below never
        // fires.
        let chunk = sink.as_ref().map_or(usize::MAX, flowgen::Streamed::chunk);
        let wall = Instant::now();
        let end = SimTime::ZERO + self.scenario.duration;
        // Scheduled first, so it precedes any other event at `end`.
        self.queue.push(end, Event::Stop);
        self.queue
            .push(SimTime::ZERO + self.scenario.warmup, Event::WarmupEnd);
        if let Some(iv) = self.scenario.trace.interval {
            if self.trace.is_some() && iv > SimDuration::ZERO {
                self.queue.push(SimTime::ZERO, Event::TraceSample);
            }
        }
        if !self.flows.is_empty() || !self.scenario.flow_generators.is_empty() {
            self.queue.push(SimTime::ZERO, Event::MetricsSample);
        }
        for (i, f) in self.flows.iter().enumerate() {
            self.queue.push(f.start, Event::FlowStart(FlowId(i as u32)));
        }
        self.start_generators();
        self.schedule_traffic();
        self.start_flow_generators();
        while let Some((t, ev)) = self.next_event() {
            debug_assert!(t >= self.now, "time ran backwards");
            self.now = t;
            self.events += 1;
            if self.dispatch(ev) {
                break;
            }
            if let Some(e) = self.gen_error.take() {
                return Err(e);
            }
            // At most one flow ends per event, so the records held never
            // exceed one chunk.
            if self.gen.records.len() >= chunk {
                let s = sink.as_mut().expect("a chunk size only with a sink");
                if s.flush(&mut self.gen.records) == Control::Abort {
                    return Err(self.interrupted(wall, sink.as_mut()));
                }
            }
            if self.stop_reason == "flows_done" {
                break;
            }
            if self.events % PROGRESS_EVERY == 0
                && observer(Progress {
                    now: self.now,
                    end,
                    events: self.events,
                }) == Control::Abort
            {
                return Err(self.interrupted(wall, sink.as_mut()));
            }
        }
        observer(Progress {
            now: self.now,
            end,
            events: self.events,
        });
        let wall_s = wall.elapsed().as_secs_f64();
        Ok(self.collect(wall_s, sink.as_mut()))
    }

    /// Takes the next event. A channel's `Arrive` whose FIFO holds another
    /// packet stays queued, moved to that packet's stamp in one sift-down
    /// ([`EventQueue::reschedule_top`]; the same order as a pop and a push);
    /// `on_arrive` then only takes the head packet.
    #[inline]
    fn next_event(&mut self) -> Option<(SimTime, Event)> {
        match self.queue.peek() {
            Some((_, &Event::Arrive(ch))) => {
                if let Some(st) = self.net.links[ch.index()]
                    .in_flight
                    .second_stamp(&self.net.slab)
                {
                    let (t, _) = self.queue.reschedule_top(st)?;
                    return Some((t, Event::Arrive(ch)));
                }
            }
            // An access-pipe lane: the same (`engine/pipes.rs`).
            Some((_, &Event::PipeArrive(id))) => {
                if let Some(st) = self.net.pipes.second_stamp(&self.net.slab, id) {
                    let (t, _) = self.queue.reschedule_top(st)?;
                    return Some((t, Event::PipeArrive(id)));
                }
            }
            _ => {}
        }
        self.queue.pop()
    }

    /// Runs one event at the current time; true at the end of the run.
    #[inline]
    fn dispatch(&mut self, ev: Event) -> bool {
        match ev {
            Event::Arrive(ch) => self.on_arrive(ch),
            Event::FlowStart(f) => self.start_flow(f),
            Event::BurstArrive { ch, burst } => self.on_burst_arrive(ch, burst),
            Event::Bcp(burst) => self.on_bcp(burst),
            Event::BurstLost(burst) => self.on_burst_lost_event(burst),
            Event::Generate(g) => self.on_generate(g),
            Event::FlowArrival(g) => self.on_flow_arrival(g),
            Event::PipeArrive(id) => self.on_pipe_arrive(id),
            Event::AssemblyTimer(node) => self.on_assembly_timer(node),
            Event::SenderTimer(f) => self.on_sender_timer(f),
            Event::ReceiverTimer(f) => self.on_receiver_timer(f),
            Event::SenderWake(f) => self.on_sender_wake(f),
            Event::TrafficSend(s) => self.on_traffic_send(s),
            Event::TraceSample => self.on_trace_sample(),
            Event::MetricsSample => self.on_metrics_sample(),
            Event::WarmupEnd => self.on_warmup_end(),
            Event::Stop => return true,
        }
        false
    }

    /// The head of channel `ch`'s in-flight FIFO reaches the far end (the
    /// next packet in flight, if any, already has the channel's event:
    /// `next_event`).
    fn on_arrive(&mut self, ch: LinkId) {
        let link = &mut self.net.links[ch.index()];
        let Some((pkt, _)) = link.in_flight.pop(&mut self.net.slab) else {
            debug_assert!(false, "arrival on {ch:?} with nothing in flight");
            return;
        };
        let (from, node) = (link.channel.from, link.channel.to);
        if link.loss.lose(&pkt) {
            link.channel.stats.drops_loss += 1;
            if let Some(tr) = self.net.packets.as_mut() {
                let ev = PacketEvent::Drop(DropReason::LossModel);
                tr.record(self.now, ev, from, node, &pkt);
            }
            self.data_lost(pkt, false);
            return;
        }
        if let Some(tr) = self.net.packets.as_mut() {
            tr.record(self.now, PacketEvent::Receive, from, node, &pkt);
        }
        self.route_from(node, pkt);
    }

    /// The head of access-pipe lane `id` comes out: up the pipe to its
    /// node, then on into the network, or down to its TCP endpoint (the
    /// next packet in the lane already has the lane's event: `next_event`).
    fn on_pipe_arrive(&mut self, id: PipeId) {
        let Some((pkt, exit)) = self.net.pipes.pop(&mut self.net.slab, id) else {
            debug_assert!(false, "arrival on {id:?} with nothing in the lane");
            return;
        };
        match exit {
            LaneExit::Up(node) => self.route_from(node, pkt),
            LaneExit::Down => self.reach_endpoint(pkt),
        }
    }

    /// `pkt` is at `node`: deliver it, assemble it into a burst (OBS ingress
    /// edge), or forward it on the next link.
    fn route_from(&mut self, node: NodeId, pkt: Packet) {
        if node != pkt.dst {
            if !self.try_assemble(node, pkt)
                && self
                    .net
                    .transmit(&mut self.queue, self.now, node, pkt)
                    .is_none()
            {
                self.data_lost(pkt, false);
            }
            return;
        }
        self.deliver(pkt);
    }

    /// `pkt` has reached its destination node: hand it to its endpoint,
    /// through the flow's access pipe if it has one.
    fn deliver(&mut self, pkt: Packet) {
        let f = pkt.flow;
        if let Payload::Datagram(d) = pkt.payload {
            self.on_datagram(d.source, pkt.bytes);
            return;
        }
        // A packet of a generated flow that has ended finds no flow: the
        // connection is closed and the packet is discarded.
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return;
        };
        if let Some(p) = fl.pipes {
            let lane = if pkt.dst == fl.dst {
                p.dst_down
            } else {
                p.src_down
            };
            let (now, rate, delay) = (self.now, p.rate_bps, p.delay);
            self.net.pipes.send(
                &mut self.net.slab,
                &mut self.queue,
                now,
                lane,
                pkt,
                rate,
                delay,
            );
            return;
        }
        self.reach_endpoint(pkt);
    }

    /// `pkt` reaches its TCP endpoint (after the access pipe, if any).
    fn reach_endpoint(&mut self, pkt: Packet) {
        let f = pkt.flow;
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return; // the flow has ended
        };
        match pkt.payload {
            Payload::Data(seg) => {
                if let Some(ack) = fl.receiver.on_segment(self.now, &seg) {
                    self.send_ack(f, ack);
                }
                self.sync_receiver_timer(f);
            }
            Payload::Ack(ack) => {
                fl.sender.on_ack(self.now, &ack);
                self.pump_sender(f);
                self.trace_event(f);
            }
            Payload::Signal(sig) => {
                let una = fl.sender.snd_una();
                let decision = fl.sender.on_burst_signal(self.now, &sig);
                if let Some(judged_false) = decision.judged_false() {
                    fl.judged.judge(una, judged_false);
                }
                self.pump_sender(f);
            }
            Payload::Datagram(_) => unreachable!("delivered by `deliver`"),
        }
    }

    /// Counts a lost packet against its flow if it is data, or its traffic
    /// source if it is a datagram; `core`: lost in the optical core (a burst
    /// loss).
    fn data_lost(&mut self, pkt: Packet, core: bool) {
        if let Some(s) = pkt.datagram_source() {
            self.traffic.count_drop(s);
        } else if let Some(seq) = pkt.data_seq() {
            let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, pkt.flow) else {
                return;
            };
            fl.data_dropped += 1;
            fl.judged.note_drop(seq, core);
        }
    }

    /// Flow `f`, declared (`FlowStart`) or generated (`FlowArrival`), starts
    /// now: its application starts and the sender sends what it may, which
    /// is the SYN first when `tcp.syn` is on (ns-2 tcp.cc
    /// `TcpAgent::output` sends seqno 0 as the SYN of every connection, so
    /// each generated short-lived flow opens with one, as in ns-2). The one
    /// start path of every TCP connection.
    fn start_flow(&mut self, f: FlowId) {
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return;
        };
        fl.sender.start(self.now);
        self.pump_sender(f);
    }

    /// Sends everything the sender is willing to send now, then re-arms its
    /// timer, checks completion and traces.
    fn pump_sender(&mut self, f: FlowId) {
        let generated = f.index() >= self.flows.len();
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return;
        };
        // A full segment on the wire, for the small-queue limit.
        let wire_seg = fl.sender.mss() + fl.header;
        let mut sent = 0u32;
        // When to try again after a refusal by pacing or small queues.
        let mut wake = None;
        loop {
            // Pacing (`tcp/pacing.rs`), checked first as `tcp_write_xmit`
            // does: nothing before the flow's departure time.
            if !fl.pacer.admits(self.now) {
                wake = Some(fl.pacer.next_tx());
                break;
            }
            // TCP small queues (`tcp/small_queue.rs`): no more while the
            // flow has its limit at the first hop.
            if !fl.tsq.admits(self.now, &fl.sender, wire_seg) {
                wake = fl.tsq.wake_at();
                break;
            }
            let Some(seg) = fl.sender.poll_transmit(self.now) else {
                break;
            };
            sent += 1;
            fl.pacer.on_sent(self.now, &fl.sender, seg.len);
            let pkt = Packet {
                flow: f,
                src: fl.src,
                dst: fl.dst,
                bytes: fl.sender.wire_payload(&seg) + fl.header,
                payload: Payload::Data(seg),
            };
            let bytes = pkt.bytes;
            let done = if let Some(p) = fl.pipes {
                // Through the flow's own access pipe to its source node.
                Some(self.net.pipes.send(
                    &mut self.net.slab,
                    &mut self.queue,
                    self.now,
                    p.src_up,
                    pkt,
                    p.rate_bps,
                    p.delay,
                ))
            } else {
                self.net.transmit(&mut self.queue, self.now, fl.src, pkt)
            };
            if let Some(done) = done {
                fl.tsq.on_sent(done, bytes);
            } else {
                fl.data_dropped += 1;
                fl.judged.note_drop(seg.seq, false);
            }
        }
        fl.sender.end_transmit(sent);
        if let Some(t) = wake {
            fl.wake_timer.arm(&mut self.queue, t, Event::SenderWake(f));
        }
        if let Some(d) = fl.sender.next_deadline() {
            fl.sender_timer
                .arm_rescheduled(&mut self.queue, d, Event::SenderTimer(f));
        }
        if fl.finite && fl.completed.is_none() && fl.sender.is_complete() {
            fl.completed = Some(self.now);
            if generated {
                // A generated flow: its record, then its slot is free.
                self.end_generated(f);
                return;
            }
            self.finite_remaining -= 1;
            if self.finite_remaining == 0 && self.scenario.stop_when_flows_done {
                self.stop_reason = "flows_done";
            }
        }
        if self.trace_on_change {
            if let Some(tr) = self.trace.as_mut() {
                if tr.traces(f) {
                    tr.record_if_changed(self.now, f, sample(&fl.sender));
                }
            }
        }
    }

    /// Flow `f`'s sender, held back by small queues (a packet of its has
    /// left its first hop) or by pacing (its departure time has come),
    /// sends what it now may.
    fn on_sender_wake(&mut self, f: FlowId) {
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return; // the flow has ended
        };
        if fl.wake_timer.fire(self.now) {
            self.pump_sender(f);
        }
    }

    fn on_sender_timer(&mut self, f: FlowId) {
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return; // the flow has ended
        };
        if !fl
            .sender_timer
            .fire_rescheduled(&mut self.queue, self.now, Event::SenderTimer(f))
        {
            return; // superseded by an earlier deadline
        }
        match fl.sender.next_deadline() {
            Some(d) if d <= self.now => {
                let una = fl.sender.snd_una();
                let decision = fl.sender.on_timeout(self.now);
                if let Some(judged_false) = decision.judged_false() {
                    fl.judged.judge(una, judged_false);
                }
                self.pump_sender(f);
                self.trace_event(f);
            }
            Some(d) => fl
                .sender_timer
                .arm_rescheduled(&mut self.queue, d, Event::SenderTimer(f)),
            None => {}
        }
    }

    /// `[trace] per_ack`: records flow `f`'s state after an ACK or a
    /// timeout (and what it sent in response), changed or not.
    #[inline]
    fn trace_event(&mut self, f: FlowId) {
        if self.trace_per_ack {
            if let Some(tr) = self.trace.as_mut() {
                if tr.traces(f) {
                    if let Some(fl) = flow_ref(&self.flows, &self.gen.pool, f) {
                        tr.record(self.now, f, sample(&fl.sender));
                    }
                }
            }
        }
    }

    fn sync_receiver_timer(&mut self, f: FlowId) {
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return;
        };
        if let Some(d) = fl.receiver.delack_deadline() {
            fl.receiver_timer
                .arm_rescheduled(&mut self.queue, d, Event::ReceiverTimer(f));
        }
    }

    /// Sends `ack` from flow `f`'s receiver towards its sender (an ACK is
    /// `header` bytes on the wire, plus the SACK option's bytes when it
    /// carries SACK blocks: ns-2 tcp-sink.cc `Sacker::append_ack`, RFC 2018
    /// §3).
    fn send_ack(&mut self, f: FlowId, ack: crate::tcp::Ack) {
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return;
        };
        let pkt = Packet {
            flow: f,
            src: fl.dst,
            dst: fl.src,
            bytes: fl.header + fl.sack_option_size.bytes(ack.n_sack()),
            payload: Payload::Ack(ack),
        };
        if let Some(p) = fl.pipes {
            self.net.pipes.send(
                &mut self.net.slab,
                &mut self.queue,
                self.now,
                p.dst_up,
                pkt,
                p.rate_bps,
                p.delay,
            );
            return;
        }
        self.net.transmit(&mut self.queue, self.now, fl.dst, pkt);
    }

    fn on_receiver_timer(&mut self, f: FlowId) {
        let Some(fl) = flow_lookup(&mut self.flows, &mut self.gen.pool, f) else {
            return; // the flow has ended
        };
        if !fl
            .receiver_timer
            .fire_rescheduled(&mut self.queue, self.now, Event::ReceiverTimer(f))
        {
            return;
        }
        match fl.receiver.delack_deadline() {
            Some(d) if d <= self.now => {
                if let Some(ack) = fl.receiver.on_delack_timeout(self.now) {
                    self.send_ack(f, ack);
                }
                self.sync_receiver_timer(f);
            }
            Some(_) => self.sync_receiver_timer(f),
            None => {}
        }
    }

    fn on_trace_sample(&mut self) {
        let Some(tr) = self.trace.as_mut() else {
            return;
        };
        for (i, fl) in self.flows.iter().enumerate() {
            let f = FlowId(i as u32);
            if tr.traces(f) && fl.start <= self.now {
                tr.record(self.now, f, sample(&fl.sender));
            }
        }
        // Traced generated flows, while they live (a handful of ids).
        for k in 0..tr.generated().len() {
            let f = FlowId(tr.generated()[k]);
            if let Some(g) = self.gen.pool.get(f) {
                tr.record(self.now, f, sample(&g.state.sender));
            }
        }
        if let Some(iv) = self.scenario.trace.interval {
            self.queue.push(self.now + iv, Event::TraceSample);
        }
    }

    /// Samples every active flow, declared and generated (of
    /// `metrics.pair` only, if set), for the aggregate metrics
    /// (gonzalez2009 §3-4): O(declared flows + generator slots), no
    /// allocation once the slots stop growing.
    fn on_metrics_sample(&mut self) {
        let now = self.now;
        let sc = self.scenario;
        let counted = now >= SimTime::ZERO + sc.warmup;
        let in_pair = |fl: &FlowState| {
            sc.metrics
                .pair
                .is_none_or(|(s, d)| fl.src == s && fl.dst == d)
        };
        let n = self.flows.len();
        let declared = self
            .flows
            .iter()
            .zip(&sc.flows)
            .enumerate()
            .filter(|(_, (fl, _))| in_pair(fl))
            .map(|(i, (fl, spec))| flow_sample(fl, &spec.tcp, i, i as u32, now));
        let generated = self
            .gen
            .pool
            .iter_live()
            .filter(|(_, _, g)| in_pair(&g.state))
            .map(|(slot, id, g)| {
                let tcp = &sc.flow_generators[g.generator as usize].tcp;
                flow_sample(&g.state, tcp, n + slot, id.0, now)
            });
        self.sampler.sample(now, declared.chain(generated), counted);
        self.queue
            .push(now + sc.metrics.sample_interval, Event::MetricsSample);
    }

    fn on_warmup_end(&mut self) {
        self.warmup_done = true;
        for fl in &mut self.flows {
            fl.delivered_bytes_at_warmup = fl.receiver.delivered_bytes();
        }
        for (b, l) in self.busy_at_warmup.iter_mut().zip(&mut self.net.links) {
            *b = l.channel.busy_time_until(self.now);
            if let Some(p) = l.optical.as_mut() {
                p.on_warmup_end();
            }
        }
        self.traffic.on_warmup_end();
        self.gen.active.reopen(self.now);
    }

    /// The run stopped by its observer or its record sink at the current
    /// time: what was simulated, collected as at a normal end, as
    /// [`SimError::Interrupted`].
    fn interrupted(mut self, wall: Instant, sink: Option<&mut flowgen::Streamed<'_>>) -> SimError {
        self.stop_reason = "interrupted";
        let at = self.now;
        let wall_s = wall.elapsed().as_secs_f64();
        SimError::Interrupted {
            at,
            partial: Box::new(self.collect(wall_s, sink)),
        }
    }

    // One statement per result column: long, but flat.
    #[allow(clippy::too_many_lines)]
    fn collect(mut self, wall_s: f64, sink: Option<&mut flowgen::Streamed<'_>>) -> RunResults {
        let sc = self.scenario;
        let end = self.now;
        let warm = if self.warmup_done {
            SimTime::ZERO + sc.warmup
        } else {
            end
        };
        let measured = end.saturating_since(warm);
        // Data packets still in the network: on the channels, then inside
        // assemblers and bursts in flight.
        let mut in_flight = vec![0u64; self.flows.len()];
        let slab = &self.net.slab;
        for pkt in self
            .net
            .links
            .iter()
            .flat_map(|l| l.in_flight.packets(slab))
        {
            if pkt.is_data() {
                // Generated flows that have ended have no entry.
                if let Some(n) = in_flight.get_mut(pkt.flow.index()) {
                    *n += 1;
                }
            }
            self.traffic.count_in_flight(pkt);
        }
        self.count_obs_in_flight(&mut in_flight);
        let name = |n: NodeId| sc.nodes[n.index()].name.clone();
        let mut flows = Vec::with_capacity(self.flows.len());
        let mut delivered_total = 0;
        for (i, (fl, spec)) in self.flows.iter().zip(&sc.flows).enumerate() {
            let st = fl.sender.stats();
            let bursts = self.obs.flow_bursts(FlowId(i as u32));
            let bytes_total = fl.receiver.delivered_bytes();
            let bytes = if self.warmup_done {
                bytes_total - fl.delivered_bytes_at_warmup
            } else {
                0
            };
            let goodput = match fl.completed {
                Some(c) if c > fl.start => bytes_total as f64 * 8.0 / (c - fl.start).as_secs_f64(),
                _ if measured > SimDuration::ZERO => bytes as f64 * 8.0 / measured.as_secs_f64(),
                _ => 0.0,
            };
            delivered_total += fl.receiver.delivered_segments();
            flows.push(FlowResult {
                flow: i as u32,
                group: spec.group.clone(),
                src: name(fl.src),
                dst: name(fl.dst),
                variant: spec.tcp.variant.name().to_string(),
                start_s: fl.start.as_secs_f64(),
                end_s: fl.completed.map_or(f64::NAN, SimTime::as_secs_f64),
                bytes_delivered: bytes,
                goodput_bps: goodput,
                segments_sent: st.segments_sent,
                retransmits: st.retransmits,
                segments_delivered: fl.receiver.delivered_segments(),
                td_events: st.td_events,
                to_events: st.to_events,
                backoffs: st.backoffs,
                fto_judged_false: st.fto_events,
                early_fto_events: st.early_fto_events,
                spurious_rtos: st.spurious_rtos,
                loss_undos: st.loss_undos,
                recovery_undos: st.recovery_undos,
                dsack_undos: st.dsack_undos,
                signals_received: st.signals_received,
                judged_false_right: fl.judged.counts().false_right,
                judged_false_wrong: fl.judged.counts().false_wrong,
                judged_true_right: fl.judged.counts().true_right,
                judged_true_wrong: fl.judged.counts().true_wrong,
                packets_dropped: fl.data_dropped,
                segments_received: fl.receiver.stats().segments_received,
                segments_in_flight: in_flight[i],
                srtt_s: fl.sender.srtt().map_or(f64::NAN, SimDuration::as_secs_f64),
                rtt_mean_s: if st.rtt_samples > 0 {
                    st.rtt_sum.as_secs_f64() / st.rtt_samples as f64
                } else {
                    f64::NAN
                },
                rto_s: fl.sender.rto().as_secs_f64(),
                t0_mean_s: match st.to_events - st.backoffs {
                    0 => f64::NAN,
                    n => st.first_rto_sum.as_secs_f64() / n as f64,
                },
                cwnd_final: fl.sender.cwnd(),
                bursts_sent: bursts.sent,
                bursts_lost: bursts.lost,
                ack_bursts_sent: bursts.ack_sent,
                ack_bursts_lost: bursts.ack_lost,
            });
        }
        let links = self
            .net
            .links
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let c = &l.channel;
                let busy = c.busy_time_until(end) - self.busy_at_warmup[i];
                let port = l.optical.as_ref();
                let bins = port.map_or_else(
                    || Moments::of(std::iter::empty()),
                    |p| p.bin_moments(warm, end),
                );
                let (bcps, blocked) = port.map_or((0, 0), |p| (p.bcps, p.blocked));
                LinkResult {
                    link: i as u32,
                    from: name(c.from),
                    to: name(c.to),
                    packets: c.stats.packets,
                    bytes: c.stats.bytes,
                    drops_buffer: c.stats.drops_buffer,
                    drops_loss: c.stats.drops_loss,
                    bursts: c.stats.bursts,
                    bursts_lost: c.stats.bursts_lost,
                    wavelengths: port.map_or(0, |p| u32::from(p.wavelengths())),
                    bcps,
                    bursts_blocked: blocked,
                    bin_rate_mean_bps: bins.mean,
                    bin_rate_std_bps: bins.std,
                    bin_rate_min_bps: bins.min,
                    bin_rate_max_bps: bins.max,
                    utilisation: port.map_or(
                        if measured > SimDuration::ZERO {
                            busy.as_secs_f64() / measured.as_secs_f64()
                        } else {
                            0.0
                        },
                        |p| p.mean_utilisation(measured),
                    ),
                }
            })
            .collect();
        let (series, sum) = std::mem::take(&mut self.sampler).finish(warm);
        let (thr, norm) = (sum.throughput, sum.norm_cwnd);
        let (bursts, flows_per_burst_mean, segments_per_flow_mean) = self.obs.burst_summary();
        let meta = RunMeta {
            scenario: sc.name.clone(),
            seed: self.seed,
            version: crate::VERSION.to_string(),
            end_time_s: end.as_secs_f64(),
            warmup_s: warm.as_secs_f64(),
            measured_s: measured.as_secs_f64(),
            events: self.events,
            wall_s,
            segments_delivered: delivered_total + self.generated_delivered_segments(),
            stop_reason: self.stop_reason.to_string(),
            sync_index: sum.sync_index,
            agg_throughput_mean_bps: thr.mean,
            agg_throughput_std_bps: thr.std,
            agg_throughput_min_bps: thr.min,
            agg_throughput_max_bps: thr.max,
            agg_throughput_cov: thr.cov,
            norm_cwnd_mean: norm.mean,
            slow_start_fraction_mean: sum.slow_start.mean,
            flows_per_burst_mean,
            segments_per_flow_mean,
        };
        let trace = self
            .trace
            .take()
            .map(TraceRecorder::finish)
            .unwrap_or_default();
        let names: Vec<String> = sc.nodes.iter().map(|n| n.name.clone()).collect();
        let packets = self
            .net
            .packets
            .take()
            .map(|t| t.finish(&names))
            .unwrap_or_default();
        let optical = self.optical_results(measured);
        let flow_records = self.final_records(sink);
        RunResults {
            meta,
            flows,
            links,
            trace,
            packets,
            bursts,
            series,
            nodes: optical.nodes,
            paths: optical.paths,
            burst_lengths: optical.burst_lengths,
            wavelengths: optical.wavelengths,
            traffic: self.traffic.results(sc, self.warmup_done, measured),
            flow_records,
            pair_bins: optical.pair_bins,
            flowgen: crate::results::FlowGenStats {
                created: self.gen.created,
                slots: self.gen.pool.slots() as u64,
                peak_active: self.gen.active.peak,
                mean_active: self.gen.active.mean(end),
                records_held_peak: self.gen.records_held_peak as u64,
            },
        }
    }
}

impl Simulation<'_> {
    /// Flow `f`, declared or generated, if it is live (read-only).
    #[inline]
    fn flow(&self, f: FlowId) -> Option<&FlowState> {
        flow_ref(&self.flows, &self.gen.pool, f)
    }
}

/// Flow `f`, declared or generated, if it is live.
#[inline]
fn flow_ref<'a>(
    flows: &'a [FlowState],
    pool: &'a crate::engine::flowpool::FlowPool<flowgen::GenFlow>,
    f: FlowId,
) -> Option<&'a FlowState> {
    match flows.get(f.index()) {
        Some(fl) => Some(fl),
        None => pool.get(f).map(|g| &g.state),
    }
}

/// Flow `fl` (TCP parameters `tcp`, sampler slot `slot`, id `id`) as the
/// metrics sampler sees it at `now`.
fn flow_sample(
    fl: &FlowState,
    tcp: &crate::tcp::config::TcpConfig,
    slot: usize,
    id: u32,
    now: SimTime,
) -> FlowSample {
    let st = fl.sender.stats();
    let cap = f64::from(tcp.max_window.min(tcp.rwnd));
    FlowSample {
        slot,
        id,
        active: fl.start <= now && fl.completed.is_none(),
        window: fl.sender.cwnd().min(cap),
        max_window: f64::from(tcp.max_window),
        rtt_s: fl.sender.srtt().map(SimDuration::as_secs_f64),
        mss: tcp.mss,
        loss_events: st.td_events + st.to_events,
        slow_start: fl.sender.cwnd() < fl.sender.ssthresh(),
    }
}

fn sample(s: &TcpSender) -> SenderSample {
    SenderSample {
        cwnd: s.cwnd(),
        ssthresh: s.ssthresh(),
        snd_nxt: s.snd_nxt(),
        snd_una: s.snd_una(),
    }
}

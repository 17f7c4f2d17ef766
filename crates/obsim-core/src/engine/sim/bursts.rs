//! The OBS glue of the engine: connects the I/O-free units of `obs/` and
//! `traffic/background.rs` to the event queue, from a packet entering an
//! ingress edge to the packets leaving the egress edge (SYSTEM.md, "bursts
//! are the unit in the core"):
//!
//! 1. [`Simulation::try_assemble`]: the ingress [`Edge`]'s assembler takes
//!    the packet; bursts it closes (now or at its lazy timer) are counted
//!    ([`BurstCounts`]), BACKed from the ingress, and launched;
//! 2. `launch_burst`: the [`PathTable`] gives the JET path and offset, the
//!    ingress [`Switch`] reserves the first link (electronic burst queue or
//!    bufferless), and the burst goes into the burst slab;
//! 3. `forward` puts it on a link: one event per hop, either the BCP
//!    processed at the next node (`on_bcp`: the next [`Switch`] reserves a
//!    wavelength under its conversion policy, or drops it), its arrival at
//!    the egress (`on_burst_arrive`: disassembly, egress BACK), or its loss
//!    on the link (`BurstLost`);
//! 4. a dropped burst is BNAKed from the node that dropped it and counted
//!    lost for its flows and path ([`SignalAggregator`], [`PathTable`]).

#[cfg(test)]
#[path = "optical_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "btcp_tests.rs"]
mod btcp_tests;

#[cfg(test)]
#[path = "window_tests.rs"]
mod window_tests;

use super::flow_ref;
use super::Simulation;
use crate::config::scenario::{BurstLength, NodeKind, Scenario};
use crate::engine::event::Event;
use crate::engine::links::Link;
use crate::engine::timer::LazyTimer;
use crate::engine::SimError;
use crate::ids::{FlowId, LinkId, NodeId};
use crate::metrics::packets::{DropReason, PacketEvent};
use crate::net::{Packet, Payload, RoutingTable};
use crate::obs::edge::{BurstCounts, Edge, FlowBursts};
use crate::obs::paths::PathTable;
use crate::obs::signalling::{
    bcp_departure, bcp_processed, optical_egress, JetPath, SignalAggregator,
};
use crate::obs::switch::Switch;
use crate::obs::Burst;
use crate::results::{
    BurstHistTable, BurstLengthResult, NodeResult, PairBinResult, PathResult, WavelengthResult,
};
use crate::rng::stream;
use crate::tcp::signal::{BurstSignal, SignalKind, SignalSet};
use crate::time::{SimDuration, SimTime};
use crate::traffic::background::BackgroundSource;

/// One edge node: its unit and the lazy timer of its assembler.
struct EdgeNode {
    edge: Edge,
    timer: LazyTimer,
}

/// A burst in the network and where it is.
struct BurstSlot {
    burst: Burst,
    /// Burst header bytes on the wire (`Burst::wire_bytes`).
    header: u32,
    guard: SimDuration,
    /// The link the burst is crossing (towards the node that processes its
    /// BCP next, or its egress).
    ch: LinkId,
    /// When the burst's first bit reaches the far end of `ch`.
    head: SimTime,
    /// Wavelength it uses on `ch`.
    wavelength: u16,
    path: u32,
    background: bool,
    /// Sent after warm-up: counted in the path statistics.
    counted: bool,
}

/// Everything OBS a run owns but the optical ports of its channels (those
/// are in the channel records, `engine/links.rs`).
pub(super) struct Obs {
    /// Per node: its edge, if it is an edge node.
    edges: Vec<Option<EdgeNode>>,
    /// Per node: its optical switching.
    switches: Vec<Switch>,
    paths: PathTable,
    counts: BurstCounts,
    signals: SignalAggregator,
    /// Signals to send (scratch).
    sig_out: Vec<(FlowId, BurstSignal)>,
    /// Every flow's wanted signals, together.
    signal_mask: SignalSet,
    /// Bursts in flight; `free` lists reusable slots.
    slab: Vec<Option<BurstSlot>>,
    free: Vec<u32>,
    /// Scratch for bursts closed by one call into an assembler.
    closed: Vec<Burst>,
    generators: Vec<BackgroundSource>,
}

impl Obs {
    /// The edges, switches and generators of `sc` in a run with `seed` and
    /// `n_flows` TCP flows, which want the burst signals in `signal_mask`.
    pub(super) fn new(sc: &Scenario, seed: u64, n_flows: usize, signal_mask: SignalSet) -> Self {
        let n = sc.nodes.len();
        // Egresses an edge may send to: every other edge node.
        let edge_ids: Vec<NodeId> = sc
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, nd)| nd.kind == NodeKind::Edge)
            .map(|(i, _)| NodeId(i as u32))
            .collect();
        let edges = sc
            .nodes
            .iter()
            .enumerate()
            .map(|(i, nd)| {
                nd.edge.as_ref().map(|e| {
                    let me = NodeId(i as u32);
                    let others: Vec<NodeId> =
                        edge_ids.iter().copied().filter(|&x| x != me).collect();
                    let rng = stream(seed, &format!("assembly/{}", nd.name));
                    let mut edge = Edge::new(e, me, &others, rng, n);
                    // Generated flow ids start after the declared flows
                    // and the UDP sources (`Generated::new`).
                    edge.assembler
                        .set_generated_from((sc.flows.len() + sc.traffic.len()) as u32);
                    EdgeNode {
                        edge,
                        timer: LazyTimer::default(),
                    }
                })
            })
            .collect();
        Self {
            edges,
            switches: sc
                .nodes
                .iter()
                .map(|nd| Switch::new(nd.kind, &nd.switch))
                .collect(),
            paths: PathTable::new(
                sc.metrics.burst_length_bin,
                sc.metrics
                    .throughput_bin
                    .filter(|_| sc.metrics.pair_bins)
                    .map(|w| (w, SimTime::ZERO + sc.warmup)),
            ),
            counts: BurstCounts::new(n_flows),
            signals: SignalAggregator::new(n_flows),
            sig_out: Vec::new(),
            signal_mask,
            slab: Vec::new(),
            free: Vec::new(),
            closed: Vec::new(),
            generators: sc
                .generators
                .iter()
                .map(|g| BackgroundSource::new(g, seed))
                .collect(),
        }
    }

    /// With `metrics.pair_series`: keeps every bin of the path that the
    /// packets of `metrics.pair` take through the optical domain
    /// ([`pair_path`]); nothing if their route has no optical hop.
    pub(super) fn keep_pair_series(
        &mut self,
        sc: &Scenario,
        routes: &RoutingTable,
        links: &[Link],
    ) {
        let Some((src, dst)) = sc.metrics.pair.filter(|_| sc.metrics.pair_series) else {
            return;
        };
        let optical = |l: LinkId| links[l.index()].optical.is_some();
        if let Some((ingress, egress)) = pair_path(sc, routes, optical, src, dst) {
            self.paths.keep_series(ingress, egress);
        }
    }

    /// Generated flow `f` has started: its burst counts start (issue 12,
    /// item 3: per-flow OBS state lives only while the flow does).
    pub(super) fn start_flow(&mut self, f: FlowId) {
        self.counts.start_flow(f.index());
    }

    /// Flow `f` has ended (its record is written): every edge frees the
    /// per-flow state it kept for it (window estimates), and its burst
    /// counts are dropped.
    pub(super) fn end_flow(&mut self, f: FlowId) {
        for e in self.edges.iter_mut().flatten() {
            e.edge.assembler.end_flow(f);
        }
        self.counts.end_flow(f.index());
    }

    /// The burst counters (tests of bounded per-flow state).
    #[cfg(test)]
    pub(super) fn counts(&self) -> &BurstCounts {
        &self.counts
    }

    /// Bursts sent and lost carrying flow `f`'s data, and its ACKs.
    pub(super) fn flow_bursts(&self, f: FlowId) -> FlowBursts {
        self.counts.flow(f.index())
    }

    /// The `bursts` table and the mean flows per burst and segments per
    /// flow per burst.
    pub(super) fn burst_summary(&self) -> (BurstHistTable, f64, f64) {
        (
            self.counts.table(),
            self.counts.flows_per_burst_mean(),
            self.counts.segments_per_flow_mean(),
        )
    }
}

/// The (ingress, egress) path that packets from `src` to `dst` take
/// through the optical domain: the first edge node on their route whose
/// next hop is an optical channel (where [`Simulation::try_assemble`]
/// assembles them), and the egress it finds for `dst` ([`optical_egress`]);
/// `None` if the route has no such edge. For an edge pair (NSFNET) it is
/// the pair itself; for hosts, their edge routers (gonzalez2009 §4: "all
/// sources of an edge router for a specific source-destination pair").
pub(super) fn pair_path(
    sc: &Scenario,
    routes: &RoutingTable,
    optical: impl Fn(LinkId) -> bool,
    src: NodeId,
    dst: NodeId,
) -> Option<(NodeId, NodeId)> {
    let mut hops = routes.walk(src, dst);
    let mut n = src;
    loop {
        if sc.nodes[n.index()].edge.is_some() && routes.next_hop(n, dst).is_some_and(&optical) {
            return Some((n, optical_egress(routes, n, dst, optical)));
        }
        n = hops.next()?.to;
    }
}

/// The optical domain's result tables (fields of [`crate::results::RunResults`]).
pub(super) struct OpticalTables {
    pub nodes: Vec<NodeResult>,
    pub paths: Vec<PathResult>,
    pub burst_lengths: Vec<BurstLengthResult>,
    pub wavelengths: Vec<WavelengthResult>,
    pub pair_bins: Vec<PairBinResult>,
}

impl Simulation<'_> {
    /// Whether statistics are being counted now.
    fn measuring(&self) -> bool {
        self.warmup_done || self.scenario.warmup == SimDuration::ZERO
    }

    /// If `node` is an edge and `pkt` enters the optical domain there and is
    /// to be assembled, hands it to the assembler and returns true.
    pub(super) fn try_assemble(&mut self, node: NodeId, pkt: Packet) -> bool {
        let Some(e) = self.obs.edges.get(node.index()).and_then(Option::as_ref) else {
            return false;
        };
        let Some(ch) = self.net.routes.next_hop(node, pkt.dst) else {
            return false;
        };
        if self.net.links[ch.index()].optical.is_none() || !e.edge.assembles(&pkt.payload) {
            return false;
        }
        // A datagram has no window: window-based assembly puts it in the
        // smallest-window class. The window of a live TCP flow is its
        // sender's cwnd (`window_source = "sender"`, ramantas2007 §5: "the
        // communication of the window size to the burstifier") or the
        // edge's own estimate (`"estimated"`); a packet of an ended flow
        // counts as window 1 and leaves no per-flow state.
        let estimates = e.edge.assembler.estimates_window();
        let egress = self.egress(node, pkt.dst);
        let mut ended = false;
        let sender_cwnd = if pkt.datagram_source().is_some() {
            Some(0.0)
        } else {
            match self.flow(pkt.flow) {
                None => {
                    ended = true;
                    Some(1.0)
                }
                Some(_) if estimates => None,
                Some(f) => Some(f.sender.cwnd()),
            }
        };
        #[cfg(test)]
        let true_cwnd = self.flow(pkt.flow).map(|f| f.sender.cwnd());
        let mut closed = std::mem::take(&mut self.obs.closed);
        let e = self.obs.edges[node.index()].as_mut().expect("edge");
        let cwnd = match sender_cwnd {
            Some(w) => w,
            None => e.edge.assembler.estimate_window(self.now, &pkt),
        };
        #[cfg(test)]
        window_tests::tap::packet(node, &pkt, cwnd, true_cwnd, &e.edge.assembler);
        let flow = pkt.flow;
        e.edge
            .assembler
            .on_packet(self.now, egress, pkt, cwnd, &mut closed);
        if ended {
            // A late packet of an ended flow may have given it a slot
            // again: it is freed as at the flow's end (issue 12, item 3).
            e.edge.assembler.end_flow(flow);
        }
        self.launch(node, &mut closed);
        self.obs.closed = closed;
        self.sync_assembly_timer(node);
        true
    }

    /// The egress edge of traffic entering the optical domain at `ingress`
    /// towards `dst` (remembered by an ingress edge).
    fn egress(&mut self, ingress: NodeId, dst: NodeId) -> NodeId {
        let (routes, links) = (&self.net.routes, &self.net.links);
        let find = || optical_egress(routes, ingress, dst, |l| links[l.index()].optical.is_some());
        match self.obs.edges[ingress.index()].as_mut() {
            Some(e) => e.edge.egress(dst, find),
            None => find(),
        }
    }

    /// Sends the bursts in `closed` from `node` into the optical domain.
    fn launch(&mut self, node: NodeId, closed: &mut Vec<Burst>) {
        let (header, guard, extra) = {
            let e = &self.obs.edges[node.index()].as_ref().expect("edge").edge;
            (e.header(), e.guard(), e.extra_offset())
        };
        for burst in closed.drain(..) {
            #[cfg(test)]
            window_tests::tap::burst(&burst);
            let measuring = self.measuring();
            self.obs.counts.on_sent(&burst, measuring);
            self.signal_burst(node, &burst, SignalKind::IngressAck);
            self.launch_burst(node, burst, header, guard, extra, false);
        }
    }

    /// Sends a burst signal of `kind` from `node` to every sender with data in
    /// `burst` that wants it (yu2004 §IV.B-C): one packet per flow listing
    /// its segments in the burst, routed like any packet.
    fn signal_burst(&mut self, node: NodeId, burst: &Burst, kind: SignalKind) {
        if !self.obs.signal_mask.contains(kind) {
            return;
        }
        let mut out = std::mem::take(&mut self.obs.sig_out);
        let (flows, pool) = (&self.flows, &self.gen.pool);
        self.obs.signals.aggregate(
            kind,
            burst,
            |f| flow_ref(flows, pool, f).is_some_and(|fl| fl.signals.contains(kind)),
            &mut out,
        );
        let bytes = self.scenario.nodes[node.index()].switch.signal_size;
        self.obs.switches[node.index()].counters.signals += out.len() as u64;
        for &(f, sig) in &out {
            let Some(src) = self.flow(f).map(|fl| fl.src) else {
                continue;
            };
            let pkt = Packet {
                flow: f,
                src: node,
                dst: src,
                bytes,
                payload: Payload::Signal(sig),
            };
            self.route_from(node, pkt);
        }
        out.clear();
        self.obs.sig_out = out;
    }

    /// Re-arms the lazy assembly timer of edge `node`.
    fn sync_assembly_timer(&mut self, node: NodeId) {
        let e = self.obs.edges[node.index()].as_mut().expect("edge");
        if let Some(d) = e.edge.assembler.next_deadline() {
            e.timer.arm(&mut self.queue, d, Event::AssemblyTimer(node));
        }
    }

    /// The assembly timer event of edge `node`.
    pub(super) fn on_assembly_timer(&mut self, node: NodeId) {
        let e = self.obs.edges[node.index()].as_mut().expect("edge");
        if !e.timer.fire(self.now) {
            return; // superseded by an earlier deadline
        }
        let mut closed = std::mem::take(&mut self.obs.closed);
        e.edge.assembler.on_timer(self.now, &mut closed);
        self.launch(node, &mut closed);
        self.obs.closed = closed;
        self.sync_assembly_timer(node);
    }

    /// Sends a closed burst from ingress edge `node` into the optical
    /// domain: reserves its first link and emits its BCP. The burst's wire
    /// size has a header of `header` bytes; it holds each wavelength `guard`
    /// longer than its transmission.
    fn launch_burst(
        &mut self,
        node: NodeId,
        burst: Burst,
        header: u32,
        guard: SimDuration,
        extra_offset: SimDuration,
        background: bool,
    ) {
        let wire_bytes = burst.wire_bytes(header);
        let (routes, switches) = (&self.net.routes, &self.obs.switches);
        let path = self.obs.paths.path(node, burst.egress, || {
            JetPath::walk(routes, node, burst.egress, |n| {
                switches[n.index()].processing()
            })
            .expect("a burst's egress is routable")
        });
        let jet = *self.obs.paths.jet(path);
        let (ch, offset) = (jet.first, jet.offset + extra_offset);
        let counted = self.measuring();
        if counted {
            self.obs
                .paths
                .on_sent(path, background, wire_bytes, burst.packets.len());
        }
        let tx =
            burst.transmission_time(self.net.links[ch.index()].channel.rate_bps, header, guard);
        let earliest = self.now + offset;
        let port = self.net.links[ch.index()].optical.as_mut();
        debug_assert!(port.is_some(), "a burst launched on an electronic link");
        let reserved = port
            .and_then(|p| self.obs.switches[node.index()].reserve_first(p, self.now, earliest, tx));
        let i = self.slab_insert(BurstSlot {
            burst,
            header,
            guard,
            ch,
            head: earliest,
            wavelength: reserved.map_or(0, |(w, _)| w),
            path,
            background,
            counted,
        });
        match reserved {
            Some((_, start)) => self.forward(i, ch, start, bcp_departure(start, offset), tx),
            None => self.block(i, node, ch),
        }
    }

    /// Puts burst `i` on optical channel `ch`: its head leaves at `start`,
    /// its BCP leaves at `bcp_at`, and it holds a wavelength for `tx`.
    fn forward(&mut self, i: u32, ch: LinkId, start: SimTime, bcp_at: SimTime, tx: SimDuration) {
        let link = &mut self.net.links[ch.index()];
        let c = &mut link.channel;
        let port = link.optical.as_mut().expect("an optical channel");
        let (to, delay) = (c.to, c.delay);
        port.bcps += 1;
        let slot = self.obs.slab[i as usize].as_mut().expect("live burst");
        let from_ingress = c.from == slot.burst.ingress;
        let wire_bytes = slot.burst.wire_bytes(slot.header);
        c.stats.bursts += 1;
        c.stats.bytes += wire_bytes;
        let head = start + delay;
        let tail = head + tx;
        slot.ch = ch;
        slot.head = head;
        if let Some(b) = port.bins.as_mut() {
            // Counted when the burst reaches the far end ("bytes received by
            // the first core router", gonzalez2009 §4).
            b.add(tail, wire_bytes);
        }
        if from_ingress && !slot.background {
            self.obs
                .paths
                .on_first_hop(slot.path, self.now, tail, wire_bytes);
        }
        let lost = port
            .burst_loss
            .as_mut()
            .is_some_and(|m| m.lose(&slot.burst));
        let from = c.from;
        let ev = if lost {
            (tail, Event::BurstLost(i))
        } else if to == slot.burst.egress {
            (tail, Event::BurstArrive { ch, burst: i })
        } else {
            let processing = self.obs.switches[to.index()].processing();
            (bcp_processed(bcp_at, delay, processing), Event::Bcp(i))
        };
        self.queue.push(ev.0, ev.1);
        if lost {
            // The node before the lossy link drops the burst (BNAK).
            self.nak(i, from);
        }
    }

    /// Burst `i` is dropped at `node`: BNAK its senders (yu2004 §IV.C).
    fn nak(&mut self, i: u32, node: NodeId) {
        if !self.obs.signal_mask.contains(SignalKind::Nak) {
            return;
        }
        let slot = self.obs.slab[i as usize].take().expect("live burst");
        self.signal_burst(node, &slot.burst, SignalKind::Nak);
        self.obs.slab[i as usize] = Some(slot);
    }

    /// The BCP of burst `i` has been processed at the node it is heading
    /// for: reserve the next link or drop the burst there.
    pub(super) fn on_bcp(&mut self, i: u32) {
        let s = self.obs.slab[i as usize].as_ref().expect("live burst");
        let (node, head, w) = (
            self.net.links[s.ch.index()].channel.to,
            s.head,
            s.wavelength,
        );
        let Some(next) = self.net.routes.next_hop(node, s.burst.egress) else {
            debug_assert!(false, "no route for a burst");
            return;
        };
        let next_link = &mut self.net.links[next.index()];
        let tx = s
            .burst
            .transmission_time(next_link.channel.rate_bps, s.header, s.guard);
        let (start, end) = (head, head + tx);
        let got = self.obs.switches[node.index()].on_bcp(
            next_link.optical.as_deref_mut(),
            self.now,
            w,
            start,
            end,
        );
        match got {
            Some(c) => {
                self.obs.slab[i as usize].as_mut().expect("live").wavelength = c;
                // Cut-through: the head leaves `node` as it arrives; the BCP
                // leaves now, after processing.
                self.forward(i, next, start, self.now, tx);
            }
            None => self.block(i, node, next),
        }
    }

    /// Burst `i` found no wavelength on `ch` at `node`: drop it there.
    fn block(&mut self, i: u32, node: NodeId, ch: LinkId) {
        self.nak(i, node);
        self.obs.switches[node.index()].counters.dropped += 1;
        if let Some(p) = self.net.links[ch.index()].optical.as_mut() {
            p.blocked += 1;
        }
        let slot = self.obs.slab[i as usize].as_ref().expect("live burst");
        if slot.counted {
            self.obs.paths.on_blocked(slot.path, slot.background);
        }
        self.lose_burst(i);
    }

    /// Burst `i` was lost by the burst loss model of the link it crossed.
    pub(super) fn on_burst_lost_event(&mut self, i: u32) {
        let ch = self.obs.slab[i as usize].as_ref().expect("live burst").ch;
        self.net.links[ch.index()].channel.stats.bursts_lost += 1;
        self.lose_burst(i);
    }

    /// Common end of a lost burst: path and flow counters, a-posteriori DMQ
    /// feedback, slot freed.
    fn lose_burst(&mut self, i: u32) {
        let slot = self.obs.slab[i as usize].take().expect("live burst");
        self.obs.free.push(i);
        if slot.counted {
            self.obs
                .paths
                .on_lost(slot.path, slot.background, slot.burst.packets.len());
        }
        self.obs.counts.on_lost(&slot.burst);
        for &p in &slot.burst.packets {
            if let Some(tr) = self.net.packets.as_mut() {
                let (from, to) = (slot.burst.ingress, slot.burst.egress);
                tr.record(self.now, PacketEvent::Drop(DropReason::Burst), from, to, &p);
            }
            self.data_lost(p, true);
        }
        // A-posteriori DMQ reallocates the flows of lost bursts
        // (gonzalez2009 §4): the ingress learns of the loss.
        if let Some(e) = self.obs.edges[slot.burst.ingress.index()].as_mut() {
            e.edge.assembler.on_burst_lost(&slot.burst);
        }
        self.recycle(slot.burst);
    }

    /// Burst `i` has fully reached its egress edge: disassemble it.
    pub(super) fn on_burst_arrive(&mut self, _ch: LinkId, i: u32) {
        let slot = self.obs.slab[i as usize].take().expect("live burst");
        self.obs.free.push(i);
        let node = slot.burst.egress;
        self.signal_burst(node, &slot.burst, SignalKind::EgressAck);
        for k in 0..slot.burst.packets.len() {
            let pkt = slot.burst.packets[k];
            self.route_from(node, pkt);
        }
        self.recycle(slot.burst);
    }

    /// Gives a burst's packet buffer back to its ingress assembler.
    fn recycle(&mut self, burst: Burst) {
        if let Some(e) = self.obs.edges[burst.ingress.index()].as_mut() {
            e.edge.assembler.recycle(burst.packets);
        }
    }

    /// Puts `slot` in the burst slab and returns its index.
    fn slab_insert(&mut self, slot: BurstSlot) -> u32 {
        if let Some(i) = self.obs.free.pop() {
            self.obs.slab[i as usize] = Some(slot);
            i
        } else {
            self.obs.slab.push(Some(slot));
            (self.obs.slab.len() - 1) as u32
        }
    }

    /// Schedules the first burst of every generator.
    pub(super) fn start_generators(&mut self) {
        for g in 0..self.obs.generators.len() {
            if let Some(at) = self.obs.generators[g].first() {
                self.queue.push(at, Event::Generate(g as u32));
            }
        }
    }

    /// Generator `g` emits a burst now and schedules its next one.
    pub(super) fn on_generate(&mut self, g: u32) {
        let gen = &mut self.obs.generators[g as usize];
        let (node, extra) = (gen.at(), gen.extra_offset());
        let (burst, next) = gen.emit(self.now);
        self.launch_burst(node, burst, 0, SimDuration::ZERO, extra, true);
        if let Some(at) = next {
            self.queue.push(at, Event::Generate(g));
        }
    }

    /// Data packets per flow still inside assemblers or bursts in flight,
    /// added to `in_flight` (closes every open queue: call only at the end).
    pub(super) fn count_obs_in_flight(&mut self, in_flight: &mut [u64]) {
        let mut closed = Vec::new();
        for e in self.obs.edges.iter_mut().flatten() {
            e.edge.assembler.flush(self.now, &mut closed);
        }
        let in_slab = self.obs.slab.iter().flatten().map(|s| &s.burst);
        for b in closed.iter().chain(in_slab) {
            for p in &b.packets {
                if p.is_data() {
                    if let Some(n) = in_flight.get_mut(p.flow.index()) {
                        *n += 1;
                    }
                }
                self.traffic.count_in_flight(p);
            }
        }
    }

    /// Checks what only routes can tell, once the network is built: every
    /// flow whose data enters the optical domain does so at an edge that
    /// assembles, and every generator destination is the first edge on its
    /// route. Also sets the generators' mean lengths in bytes.
    pub(super) fn check_optical(&mut self) -> Result<(), SimError> {
        let sc = self.scenario;
        let node_name = |n: NodeId| sc.nodes[n.index()].name.clone();
        let pairs = sc
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("flows[{i}]"), f.src, f.dst));
        // Generated flows (issue 12): every destination of every generator.
        let generated = sc.flow_generators.iter().enumerate().flat_map(|(i, g)| {
            g.to.iter()
                .enumerate()
                .map(move |(j, &to)| (format!("flow_generators[{i}].to[{j}]"), g.src, to))
        });
        for (path, src, dst) in pairs.chain(generated) {
            let mut n = src;
            for hop in self.net.routes.walk(src, dst) {
                if self.net.links[hop.ch.index()].optical.is_some() {
                    if self.obs.edges[n.index()].is_none() {
                        return Err(SimError::Unroutable {
                            path,
                            reason: format!(
                                "its data enters the optical domain at node \"{}\", which has no [nodes.assembly] to build bursts",
                                node_name(n)
                            ),
                        });
                    }
                    break;
                }
                n = hop.to;
            }
        }
        for (gi, spec) in sc.generators.iter().enumerate() {
            let mut means = Vec::with_capacity(spec.to.len());
            for (j, &to) in spec.to.iter().enumerate() {
                let path = format!("generators[{gi}].to[{j}]");
                let Some(ch) = self.net.routes.next_hop(spec.at, to) else {
                    return Err(SimError::Unroutable {
                        path,
                        reason: format!(
                            "no route from \"{}\" to \"{}\"",
                            node_name(spec.at),
                            node_name(to)
                        ),
                    });
                };
                if self.net.links[ch.index()].optical.is_none() {
                    return Err(SimError::Unroutable {
                        path,
                        reason: format!(
                            "the route from \"{}\" to \"{}\" leaves on an electronic link; generated bursts need an optical path",
                            node_name(spec.at),
                            node_name(to)
                        ),
                    });
                }
                let e = self.egress(spec.at, to);
                if e != to {
                    return Err(SimError::Unroutable {
                        path,
                        reason: format!(
                            "the route from \"{}\" to \"{}\" reaches edge node \"{}\" first, where bursts end",
                            node_name(spec.at),
                            node_name(to),
                            node_name(e)
                        ),
                    });
                }
                let rate = self.net.links[ch.index()].channel.rate_bps;
                means.push(match spec.length {
                    BurstLength::Bytes(b) => b as f64,
                    BurstLength::Time(t) => t.as_secs_f64() * rate as f64 / 8.0,
                });
            }
            self.obs.generators[gi].set_mean_bytes(means);
        }
        Ok(())
    }

    /// The node, path, length-bin, wavelength and pair-bin tables.
    pub(super) fn optical_results(&self, measured: SimDuration) -> OpticalTables {
        let sc = self.scenario;
        let name = |n: NodeId| sc.nodes[n.index()].name.clone();
        let nodes = sc
            .nodes
            .iter()
            .zip(&self.obs.switches)
            .filter(|(nd, _)| matches!(nd.kind, NodeKind::Edge | NodeKind::Core))
            .map(|(nd, s)| NodeResult {
                node: nd.name.clone(),
                kind: if nd.kind == NodeKind::Core {
                    "core"
                } else {
                    "edge"
                }
                .to_string(),
                bcps: s.counters.bcps,
                bursts_dropped: s.counters.dropped,
                conversions: s.counters.conversions,
                signals_sent: s.counters.signals,
            })
            .collect();
        let (paths, lengths, pair_bins) = self.obs.paths.results(name, self.now, self.warmup_done);
        let mut wavelengths = Vec::new();
        for (ch, link) in self.net.links.iter().enumerate() {
            let Some(port) = &link.optical else {
                continue;
            };
            let c = &link.channel;
            let util = port.utilisation(measured);
            for (w, (bursts, u)) in port.bursts().zip(util).enumerate() {
                wavelengths.push(WavelengthResult {
                    link: ch as u32,
                    from: name(c.from),
                    to: name(c.to),
                    wavelength: w as u32,
                    bursts,
                    utilisation: u,
                });
            }
        }
        OpticalTables {
            nodes,
            paths,
            burst_lengths: lengths,
            wavelengths,
            pair_bins,
        }
    }
}

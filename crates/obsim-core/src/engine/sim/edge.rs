//! The OBS part of the engine: edge nodes assemble packets entering the
//! optical domain into bursts; optical channels carry each burst as one
//! object (one event per burst per hop); the egress edge disassembles it.
//! Per-packet work happens only at the edges (SYSTEM.md, "bursts are the
//! unit in the core").

use super::Simulation;
use crate::config::scenario::{AckHandling, NodeKind};
use crate::engine::event::Event;
use crate::ids::{FlowId, NodeId};
use crate::metrics::aggregate::{BinCounter, Moments};
use crate::net::{Packet, Payload};
use crate::obs::assembly::Assembler;
use crate::obs::loss::BurstLossModel;
use crate::obs::Burst;
use crate::rng::stream;
use crate::tcp::signal::{BurstSignal, SignalKind, SignalSet};
use crate::time::{SimDuration, SimTime};

/// State of one edge node.
pub(super) struct EdgeState {
    pub(super) assembler: Assembler,
    acks: AckHandling,
    /// Time of the pending `AssemblyTimer` event, if any.
    timer_at: Option<SimTime>,
    /// Egress edge towards each destination node (`u32::MAX` = not yet known).
    egress_of: Vec<u32>,
    header: u32,
    guard: SimDuration,
    extra_offset: SimDuration,
}

/// Everything OBS the simulation owns.
#[derive(Default)]
pub(super) struct Obs {
    /// Per node: its edge state, if it is an edge node.
    pub(super) edges: Vec<Option<EdgeState>>,
    /// Per channel: burst loss model of optical channels.
    pub(super) burst_loss: Vec<Option<BurstLossModel>>,
    /// Bursts in flight; `free` lists reusable slots.
    pub(super) slab: Vec<Option<super::optical::BurstSlot>>,
    pub(super) free: Vec<u32>,
    /// Scratch for bursts closed by one call into an assembler.
    closed: Vec<Burst>,
    /// Per flow: bursts carrying its data, and those lost.
    pub(super) flow_bursts: Vec<(u64, u64)>,
    /// Per flow scratch: stamp of the last burst that counted it, and its
    /// segments in that burst.
    mark: Vec<(u64, u32)>,
    stamp: u64,
    touched: Vec<u32>,
    /// Histograms (index = value): flows per burst, segments per flow per
    /// burst, packets per burst.
    pub(super) hist_flows: Vec<u64>,
    pub(super) hist_segments: Vec<u64>,
    pub(super) hist_packets: Vec<u64>,
    /// Per flow scratch for burst signals: (stamp, lowest, highest segment,
    /// count) of the flow in the burst being signalled.
    sig_acc: Vec<(u64, u64, u64, u32)>,
    sig_touched: Vec<u32>,
    /// Signal packets to send (scratch).
    sig_out: Vec<Packet>,
    /// Every flow's wanted signals, together.
    pub(super) signal_mask: SignalSet,
    /// Per channel: bytes per bin of optical channels.
    pub(super) bins: Vec<Option<BinCounter>>,
}

fn bump(h: &mut Vec<u64>, i: usize) {
    if h.len() <= i {
        h.resize(i + 1, 0);
    }
    h[i] += 1;
}

impl Obs {
    /// Builds the edge and optical state of a scenario with `n_channels`
    /// channels created link by link (forward, then reverse when duplex).
    pub(super) fn new(sc: &crate::config::Scenario, seed: u64, n_flows: usize) -> Self {
        let n = sc.nodes.len();
        let mut burst_loss = Vec::new();
        let mut bins = Vec::new();
        for l in &sc.links {
            let mut dirs = vec![(
                l.from,
                l.to,
                l.optical.as_ref().and_then(|o| o.burst_loss.as_ref()),
            )];
            if l.duplex {
                dirs.push((
                    l.to,
                    l.from,
                    l.optical
                        .as_ref()
                        .and_then(|o| o.reverse_burst_loss.as_ref()),
                ));
            }
            for (a, b, spec) in dirs {
                bins.push(
                    sc.metrics
                        .throughput_bin
                        .filter(|_| l.optical.is_some())
                        .map(BinCounter::new),
                );
                let name = format!(
                    "burst_loss/{}->{}",
                    sc.nodes[a.index()].name,
                    sc.nodes[b.index()].name
                );
                burst_loss.push(spec.map(|s| BurstLossModel::new(s, stream(seed, &name))));
            }
        }
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
                    EdgeState {
                        assembler: Assembler::new(&e.assembly, me, &others, rng),
                        acks: e.acks,
                        extra_offset: e.extra_offset,
                        timer_at: None,
                        egress_of: vec![u32::MAX; n],
                        header: e.assembly.header_bytes,
                        guard: e.assembly.guard,
                    }
                })
            })
            .collect();
        Self {
            edges,
            burst_loss,
            bins,
            flow_bursts: vec![(0, 0); n_flows],
            mark: vec![(u64::MAX, 0); n_flows],
            sig_acc: vec![(u64::MAX, 0, 0, 0); n_flows],
            ..Self::default()
        }
    }
}

impl Obs {
    /// Moments of the bytes-per-bin rate of channel `ch` over `[from, to)`
    /// (all NaN for a channel without bins).
    pub(super) fn bin_moments(&self, ch: usize, from: SimTime, to: SimTime) -> Moments {
        match self.bins.get(ch).and_then(Option::as_ref) {
            Some(b) => b.rate_moments(from, to),
            None => Moments::of(std::iter::empty()),
        }
    }
}

impl Simulation<'_> {
    /// If `node` is an edge and `pkt` enters the optical domain there and is
    /// to be assembled, hands it to the assembler and returns true.
    pub(super) fn try_assemble(&mut self, node: NodeId, pkt: Packet) -> bool {
        let Some(edge) = self.obs.edges.get(node.index()).and_then(Option::as_ref) else {
            return false;
        };
        let Some(ch) = self.net.routes.next_hop(node, pkt.dst) else {
            return false;
        };
        // Data and cross-traffic datagrams are assembled; ACKs as configured.
        let assembles = match pkt.payload {
            Payload::Data(_) | Payload::Datagram(_) => true,
            Payload::Ack(_) => edge.acks == AckHandling::Assemble,
            Payload::Signal(_) => false,
        };
        if self.core.ports[ch.index()].is_none() || !assembles {
            return false;
        }
        let egress = self.egress(node, pkt.dst);
        // A datagram has no window: window-based assembly puts it in the
        // smallest-window class.
        let cwnd = if pkt.datagram_source().is_some() {
            0.0
        } else {
            self.flows[pkt.flow.index()].sender.cwnd()
        };
        let mut closed = std::mem::take(&mut self.obs.closed);
        let edge = self.obs.edges[node.index()].as_mut().expect("edge");
        edge.assembler
            .on_packet(self.now, egress, pkt, cwnd, &mut closed);
        self.launch(node, &mut closed);
        self.obs.closed = closed;
        self.sync_assembly_timer(node);
        true
    }

    /// The egress edge of traffic entering the optical domain at `ingress`
    /// towards `dst`: the last node of the route's optical stretch (where
    /// the next link is electronic). Edge nodes inside the stretch switch
    /// bursts like core nodes.
    pub(super) fn egress(&mut self, ingress: NodeId, dst: NodeId) -> NodeId {
        let known = self.obs.edges[ingress.index()]
            .as_ref()
            .map_or(u32::MAX, |e| e.egress_of[dst.index()]);
        if known != u32::MAX {
            return NodeId(known);
        }
        let mut n = ingress;
        let mut hops = 0;
        while let Some(ch) = self.net.routes.next_hop(n, dst) {
            if self.core.ports[ch.index()].is_none() || hops > self.net.channels.len() {
                break;
            }
            n = self.net.channels[ch.index()].to;
            hops += 1;
            if n == dst {
                break;
            }
        }
        if let Some(e) = self.obs.edges[ingress.index()].as_mut() {
            e.egress_of[dst.index()] = n.0;
        }
        n
    }

    /// Sends the bursts in `closed` from `node` into the optical domain.
    fn launch(&mut self, node: NodeId, closed: &mut Vec<Burst>) {
        let (header, guard, extra) = {
            let e = self.obs.edges[node.index()].as_ref().expect("edge");
            (u64::from(e.header), e.guard, e.extra_offset)
        };
        for burst in closed.drain(..) {
            self.count_burst(&burst);
            self.signal_burst(node, &burst, SignalKind::IngressAck);
            let wire_bytes = burst.payload_bytes + burst.padding_bytes + header;
            self.launch_burst(node, burst, wire_bytes, guard, extra, false);
        }
    }

    /// Updates burst statistics for a newly assembled burst.
    fn count_burst(&mut self, burst: &Burst) {
        let o = &mut self.obs;
        o.stamp += 1;
        o.touched.clear();
        for p in &burst.packets {
            if !p.is_data() {
                continue;
            }
            let f = p.flow.index();
            if o.mark[f].0 == o.stamp {
                o.mark[f].1 += 1;
            } else {
                o.mark[f] = (o.stamp, 1);
                o.touched.push(f as u32);
                o.flow_bursts[f].0 += 1;
            }
        }
        if self.warmup_done || self.scenario.warmup == SimDuration::ZERO {
            bump(&mut o.hist_flows, o.touched.len());
            bump(&mut o.hist_packets, burst.packets.len());
            for &f in &o.touched {
                bump(&mut o.hist_segments, o.mark[f as usize].1 as usize);
            }
        }
    }

    /// Counts a lost burst against every flow with data in it (and its
    /// datagrams against their traffic sources).
    pub(super) fn on_burst_lost(&mut self, burst: &Burst) {
        let o = &mut self.obs;
        o.stamp += 1;
        for p in &burst.packets {
            if let Some(source) = p.datagram_source() {
                self.traffic.count_drop(source);
            } else if let Some(seq) = p.data_seq() {
                let f = p.flow.index();
                self.flows[f].data_dropped += 1;
                self.flows[f].judged.note_drop(seq, true);
                if o.mark[f].0 != o.stamp {
                    o.mark[f] = (o.stamp, 0);
                    o.flow_bursts[f].1 += 1;
                }
            }
        }
    }

    /// Sends a burst signal of `kind` from `node` to every sender with data in
    /// `burst` that wants it (yu2004 §IV.B-C): one packet per flow listing
    /// its segments in the burst, routed like any packet.
    pub(super) fn signal_burst(&mut self, node: NodeId, burst: &Burst, kind: SignalKind) {
        if !self.obs.signal_mask.contains(kind) {
            return;
        }
        let o = &mut self.obs;
        o.stamp += 1;
        o.sig_touched.clear();
        for p in &burst.packets {
            let Some(seq) = p.data_seq() else { continue };
            let f = p.flow.index();
            if !self.flows[f].signals.contains(kind) {
                continue;
            }
            let a = &mut o.sig_acc[f];
            if a.0 == o.stamp {
                a.1 = a.1.min(seq);
                a.2 = a.2.max(seq);
                a.3 += 1;
            } else {
                *a = (o.stamp, seq, seq, 1);
                o.sig_touched.push(f as u32);
            }
        }
        let bytes = self.scenario.nodes[node.index()].switch.signal_size;
        let key = BurstSignal::burst_key(burst.ingress.0, burst.id);
        let mut out = std::mem::take(&mut o.sig_out);
        for &f in &o.sig_touched {
            let (_, lo, hi, count) = o.sig_acc[f as usize];
            out.push(Packet {
                flow: FlowId(f),
                src: node,
                dst: self.flows[f as usize].src,
                bytes,
                payload: Payload::Signal(BurstSignal {
                    kind,
                    burst: key,
                    lo,
                    hi,
                    count,
                }),
            });
        }
        self.core.count_signals(node, out.len());
        for &pkt in &out {
            self.route_from(node, pkt);
        }
        out.clear();
        self.obs.sig_out = out;
    }

    /// Gives a burst's packet buffer back to its ingress assembler.
    pub(super) fn recycle(&mut self, burst: Burst) {
        if let Some(e) = self.obs.edges[burst.ingress.index()].as_mut() {
            e.assembler.recycle(burst.packets);
        }
    }

    /// Re-arms the lazy assembly timer of edge `node`.
    fn sync_assembly_timer(&mut self, node: NodeId) {
        let e = self.obs.edges[node.index()].as_mut().expect("edge");
        if let Some(d) = e.assembler.next_deadline() {
            if e.timer_at.is_none_or(|t| d < t) {
                self.queue.push(d, Event::AssemblyTimer(node));
                e.timer_at = Some(d);
            }
        }
    }

    /// The assembly timer event of edge `node`.
    pub(super) fn on_assembly_timer(&mut self, node: NodeId) {
        let e = self.obs.edges[node.index()].as_mut().expect("edge");
        if e.timer_at != Some(self.now) {
            return; // superseded by an earlier deadline
        }
        e.timer_at = None;
        let mut closed = std::mem::take(&mut self.obs.closed);
        e.assembler.on_timer(self.now, &mut closed);
        self.launch(node, &mut closed);
        self.obs.closed = closed;
        self.sync_assembly_timer(node);
    }

    /// Data packets per flow still inside assemblers or bursts in flight,
    /// added to `in_flight` (closes every open queue: call only at the end).
    pub(super) fn count_obs_in_flight(&mut self, in_flight: &mut [u64]) {
        let mut closed = Vec::new();
        for e in self.obs.edges.iter_mut().flatten() {
            e.assembler.flush(self.now, &mut closed);
        }
        let in_slab = self.obs.slab.iter().flatten().map(|s| &s.burst);
        for b in closed.iter().chain(in_slab) {
            for p in &b.packets {
                if p.is_data() {
                    in_flight[p.flow.index()] += 1;
                }
                self.traffic.count_in_flight(p);
            }
        }
    }

    /// Bursts sent and lost carrying flow `f`'s data.
    pub(super) fn flow_bursts(&self, f: FlowId) -> (u64, u64) {
        self.obs
            .flow_bursts
            .get(f.index())
            .copied()
            .unwrap_or((0, 0))
    }
}

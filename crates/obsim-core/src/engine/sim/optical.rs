//! The optical core in the engine: JET signalling hop by hop, wavelength
//! reservation at bufferless switches, wavelength conversion, background
//! burst generators, and the per-link, per-node and per-path burst metrics.
//!
//! A burst is one object in the burst slab from its launch at the ingress
//! edge to its disassembly or loss; it costs one event per node its control
//! packet (BCP) is processed at, plus one at the end (SYSTEM.md: "bursts are
//! the unit in the core").
//!
//! Signalling (JET: Qiao and Yoo 1999; gurel2008 §1, §4):
//! - the ingress computes the offset `T = Σ Δ` over the nodes after it on
//!   the path (core nodes and the egress: H × Δ for a uniform Δ), plus the
//!   extra offset of the burst's class;
//! - the ingress reserves its output for the burst from `s >= now + T` (its
//!   unlimited electronic burst queue takes the wavelength that frees first,
//!   or, with `edge_queue = "none"`, its scheduler finds a channel at
//!   `now + T` or the burst is dropped) and sends the BCP at `s - T`;
//! - the BCP crosses each link in its propagation delay (control channel,
//!   transmission time neglected) and is processed for Δ at the next node,
//!   which then reserves the outgoing wavelength over exactly the burst's
//!   passage `[head, head + length)` (delayed reservation, immediate
//!   release); the residual offset at the i-th node is `T - Σ_{j<=i} Δ_j`;
//! - no wavelength free: the burst is dropped at that node (the node knows
//!   the burst, for BNAK);
//! - the burst itself cuts through: its head reaches each node one
//!   propagation delay after leaving the previous one, and its tail reaches
//!   the egress `length` later, where it is disassembled.

use std::collections::HashMap;

#[cfg(test)]
#[path = "optical_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "btcp_tests.rs"]
mod btcp_tests;

use rand::RngExt;
use rand_distr::Exp1;

use super::Simulation;
use crate::config::scenario::{
    BurstLength, Conversion, ConverterSharing, EdgeQueue, LengthDistribution, NodeKind, Scenario,
};
use crate::engine::event::Event;
use crate::engine::SimError;
use crate::ids::{LinkId, NodeId};
use crate::obs::scheduler::{ChannelScheduler, ChannelSet, ConverterPool, PortSchedule};
use crate::obs::Burst;
use crate::results::{BurstLengthResult, NodeResult, PathResult, WavelengthResult};
use crate::rng::{stream, SimRng};
use crate::tcp::signal::SignalKind;
use crate::time::{SimDuration, SimTime};

/// Queues a burst at an ingress edge's unlimited electronic burst queue in
/// front of the W transmitters of `port` (gurel2008 §2: no loss at the
/// edge): it may start at `earliest`; among the wavelengths free by then, it
/// takes the one that freed latest (the LAUC rule, Xiong et al. 2000); if
/// none is, the one that frees first (ties to the lowest index). The burst
/// goes after every reservation already on that wavelength (the queue is
/// FIFO per wavelength; transit bursts of other nodes may still fill voids).
/// Returns the wavelength and the start, or `None` when the burst would wait
/// longer than `max_wait` (a finite burst queue, `edge_queue = "<duration>"`,
/// drops it at the edge).
fn queue_reserve(
    port: &mut PortSchedule,
    now: SimTime,
    earliest: SimTime,
    tx: SimDuration,
    max_wait: Option<SimDuration>,
) -> Option<(u16, SimTime)> {
    let (w, start) = if let Some(w) = port.latest_available(earliest, ChannelSet::All) {
        (w, earliest)
    } else {
        let w = (0..port.channels())
            .min_by_key(|&c| port.horizon(c))
            .expect("a link has at least one wavelength");
        (w, port.horizon(w))
    };
    if max_wait.is_some_and(|m| start.saturating_since(earliest) > m) {
        return None; // the finite burst queue drops it
    }
    port.commit(w, now, None, start, start + tx);
    Some((w, start))
}

/// Optical switching state of one node.
#[derive(Default)]
pub(super) struct SwitchState {
    /// BCP processing time Δ.
    processing: SimDuration,
    scheduler: crate::obs::scheduler::SchedulerKind,
    conversion: Conversion,
    /// Converters shared by the whole node (partial conversion, per node).
    pool: Option<ConverterPool>,
    bcps: u64,
    dropped: u64,
    conversions: u64,
    signals: u64,
}

/// Counters of one path and class.
#[derive(Clone, Copy, Default)]
struct PathCounters {
    bursts: u64,
    lost: u64,
    blocked: u64,
    bytes: u64,
}

/// A route through the optical domain from an ingress to an egress edge.
pub(super) struct PathInfo {
    ingress: NodeId,
    egress: NodeId,
    first: LinkId,
    hops: u32,
    /// Σ Δ of the nodes after the ingress.
    offset: SimDuration,
    /// [assembled, background].
    counters: [PathCounters; 2],
    /// Assembled bursts (sent, lost) per length bin.
    by_len: Vec<(u64, u64)>,
}

/// A burst in the network and where it is.
pub(super) struct BurstSlot {
    pub(super) burst: Burst,
    wire_bytes: u64,
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

/// A background burst generator (gurel2008 §4).
pub(super) struct Generator {
    at: NodeId,
    to: Vec<NodeId>,
    /// Mean length in bytes, per destination (a time length is converted
    /// at the rate of the first link towards that destination).
    mean_bytes: Vec<f64>,
    exponential: bool,
    interarrival_ns: f64,
    stop: Option<SimTime>,
    extra_offset: SimDuration,
    rng: SimRng,
    next_id: u64,
}

/// All optical-core state of a simulation.
#[derive(Default)]
pub(super) struct Core {
    /// Per channel: its burst port (optical channels only): W wavelengths
    /// and their reservations.
    pub(super) ports: Vec<Option<PortSchedule>>,
    /// Per channel: sent by an ingress edge with a burst queue, and the
    /// longest a burst may wait in it for a wavelength (`u64::MAX` ns:
    /// unlimited); `None` for bufferless senders.
    queued: Vec<Option<SimDuration>>,
    /// Per channel: converters shared by the output port (partial
    /// conversion, per port).
    port_pools: Vec<Option<ConverterPool>>,
    /// Per channel: BCPs sent, bursts refused.
    bcps: Vec<u64>,
    blocked: Vec<u64>,
    /// Per channel: wavelengths W (0 = electronic).
    pub(super) wavelengths: Vec<u16>,
    /// Per node.
    pub(super) switches: Vec<SwitchState>,
    paths: Vec<PathInfo>,
    path_of: HashMap<(NodeId, NodeId), u32>,
    pub(super) generators: Vec<Generator>,
    bin_width: u32,
    /// Per wavelength busy time at warm-up, per channel.
    busy_at_warmup: Vec<Vec<SimDuration>>,
}

impl Core {
    /// Builds ports, switches and generators for `sc`, whose channels were
    /// created link by link (forward, then reverse when duplex).
    pub(super) fn new(sc: &Scenario, seed: u64) -> Self {
        let mut ports = Vec::new();
        let mut port_pools = Vec::new();
        let mut wavelengths = Vec::new();
        let mut queued = Vec::new();
        for l in &sc.links {
            let mut dirs = vec![l.from];
            if l.duplex {
                dirs.push(l.to);
            }
            for from in dirs {
                let nd = &sc.nodes[from.index()];
                let sw = nd.switch;
                let Some(o) = &l.optical else {
                    queued.push(None);
                    ports.push(None);
                    port_pools.push(None);
                    wavelengths.push(0);
                    continue;
                };
                queued.push(match (nd.kind, sw.edge_queue) {
                    (NodeKind::Edge, EdgeQueue::Unlimited) => Some(SimDuration(u64::MAX)),
                    (NodeKind::Edge, EdgeQueue::MaxWait(d)) => Some(d),
                    _ => None,
                });
                ports.push(Some(sw.scheduler.port(o.wavelengths)));
                port_pools.push(
                    (sw.conversion == Conversion::Partial
                        && sw.converter_sharing == ConverterSharing::Port)
                        .then(|| ConverterPool::new(usize::from(sw.converters))),
                );
                wavelengths.push(o.wavelengths);
            }
        }
        let switches = sc
            .nodes
            .iter()
            .map(|nd| {
                let sw = nd.switch;
                SwitchState {
                    processing: sw.processing,
                    scheduler: sw.scheduler,
                    conversion: sw.conversion,
                    pool: (sw.conversion == Conversion::Partial
                        && sw.converter_sharing == ConverterSharing::Node)
                        .then(|| ConverterPool::new(usize::from(sw.converters))),
                    ..SwitchState::default()
                }
            })
            .collect();
        let generators = sc
            .generators
            .iter()
            .map(|g| Generator {
                at: g.at,
                to: g.to.clone(),
                mean_bytes: Vec::new(),
                exponential: g.distribution == LengthDistribution::Exponential,
                interarrival_ns: g.interarrival.as_nanos() as f64,
                stop: g.stop,
                extra_offset: g.extra_offset,
                rng: stream(seed, &format!("generator/{}", g.name)),
                next_id: 0,
            })
            .collect();
        let n_ch = ports.len();
        Self {
            ports,
            queued,
            port_pools,
            bcps: vec![0; n_ch],
            blocked: vec![0; n_ch],
            wavelengths,
            switches,
            generators,
            bin_width: sc.metrics.burst_length_bin.max(1),
            ..Self::default()
        }
    }

    /// Per-wavelength reserved time of channel `ch`.
    fn busy(&self, ch: usize) -> Vec<SimDuration> {
        match &self.ports[ch] {
            Some(p) => (0..p.channels()).map(|w| p.stats(w).busy).collect(),
            None => Vec::new(),
        }
    }

    /// Per-wavelength bursts of channel `ch`.
    fn bursts(&self, ch: usize) -> Vec<u64> {
        match &self.ports[ch] {
            Some(p) => (0..p.channels()).map(|w| p.stats(w).reservations).collect(),
            None => Vec::new(),
        }
    }

    /// Remembers the busy times at the end of the warm-up.
    pub(super) fn on_warmup_end(&mut self) {
        self.busy_at_warmup = (0..self.ports.len()).map(|c| self.busy(c)).collect();
    }

    /// Mean over the wavelengths of channel `ch` of the fraction of
    /// `measured` they were reserved after warm-up, and the per-wavelength
    /// values. Time reserved beyond the end of the run is not subtracted
    /// (at most one burst per wavelength).
    fn utilisation(&self, ch: usize, measured: SimDuration) -> Vec<f64> {
        let busy = self.busy(ch);
        let warm = self.busy_at_warmup.get(ch);
        busy.iter()
            .enumerate()
            .map(|(w, &b)| {
                let b0 = warm.and_then(|v| v.get(w)).copied().unwrap_or_default();
                if measured > SimDuration::ZERO {
                    (b.as_secs_f64() - b0.as_secs_f64()) / measured.as_secs_f64()
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Mean wavelength utilisation of optical channel `ch`, or `None` for
    /// an electronic one.
    pub(super) fn link_utilisation(&self, ch: usize, measured: SimDuration) -> Option<f64> {
        self.ports[ch].as_ref()?;
        let u = self.utilisation(ch, measured);
        Some(u.iter().sum::<f64>() / u.len().max(1) as f64)
    }

    /// Counts `n` burst signals sent by `node`.
    pub(super) fn count_signals(&mut self, node: NodeId, n: usize) {
        self.switches[node.index()].signals += n as u64;
    }

    /// BCPs sent and bursts refused on channel `ch`.
    pub(super) fn link_counters(&self, ch: usize) -> (u64, u64) {
        (self.bcps[ch], self.blocked[ch])
    }
}

impl Simulation<'_> {
    /// Checks what only routes can tell, once the network is built: every
    /// flow whose data enters the optical domain does so at an edge that
    /// assembles, and every generator destination is the first edge on its
    /// route. Also sets the generators' mean lengths in bytes.
    pub(super) fn check_optical(&mut self) -> Result<(), SimError> {
        let sc = self.scenario;
        let node_name = |n: NodeId| sc.nodes[n.index()].name.clone();
        for (i, f) in sc.flows.iter().enumerate() {
            let mut n = f.src;
            let mut hops = 0;
            while let Some(ch) = self.net.routes.next_hop(n, f.dst) {
                if self.core.ports[ch.index()].is_some() {
                    if self.obs.edges[n.index()].is_none() {
                        return Err(SimError::Unroutable {
                            path: format!("flows[{i}]"),
                            reason: format!(
                                "its data enters the optical domain at node \"{}\", which has no [nodes.assembly] to build bursts",
                                node_name(n)
                            ),
                        });
                    }
                    break;
                }
                n = self.net.channels[ch.index()].to;
                hops += 1;
                if n == f.dst || hops > self.net.channels.len() {
                    break;
                }
            }
        }
        for gi in 0..self.core.generators.len() {
            let spec = &sc.generators[gi];
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
                if self.core.ports[ch.index()].is_none() {
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
                let rate = self.net.channels[ch.index()].rate_bps;
                means.push(match spec.length {
                    BurstLength::Bytes(b) => b as f64,
                    BurstLength::Time(t) => t.as_secs_f64() * rate as f64 / 8.0,
                });
            }
            self.core.generators[gi].mean_bytes = means;
        }
        Ok(())
    }

    /// The path record of bursts from `ingress` to `egress` (built on first
    /// use by walking the routes).
    fn path_index(&mut self, ingress: NodeId, egress: NodeId) -> u32 {
        if let Some(&i) = self.core.path_of.get(&(ingress, egress)) {
            return i;
        }
        let first = self
            .net
            .routes
            .next_hop(ingress, egress)
            .expect("a burst's egress is routable");
        let mut n = ingress;
        let mut hops = 0;
        let mut offset = SimDuration::ZERO;
        while n != egress {
            let Some(ch) = self.net.routes.next_hop(n, egress) else {
                break;
            };
            n = self.net.channels[ch.index()].to;
            offset += self.core.switches[n.index()].processing;
            hops += 1;
            if hops as usize > self.net.channels.len() {
                break;
            }
        }
        let i = self.core.paths.len() as u32;
        self.core.paths.push(PathInfo {
            ingress,
            egress,
            first,
            hops,
            offset,
            counters: [PathCounters::default(); 2],
            by_len: Vec::new(),
        });
        self.core.path_of.insert((ingress, egress), i);
        i
    }

    /// Sends a closed burst from ingress edge `node` into the optical
    /// domain: reserves its first link and emits its BCP.
    pub(super) fn launch_burst(
        &mut self,
        node: NodeId,
        burst: Burst,
        wire_bytes: u64,
        guard: SimDuration,
        extra_offset: SimDuration,
        background: bool,
    ) {
        let path = self.path_index(node, burst.egress);
        let (ch, offset) = {
            let p = &self.core.paths[path as usize];
            (p.first, p.offset + extra_offset)
        };
        let counted = self.warmup_done || self.scenario.warmup == SimDuration::ZERO;
        if counted {
            let bin = (burst.packets.len().saturating_sub(1) / self.core.bin_width as usize) as u32;
            let p = &mut self.core.paths[path as usize];
            let c = &mut p.counters[usize::from(background)];
            c.bursts += 1;
            c.bytes += wire_bytes;
            if !background {
                let b = bin as usize;
                if p.by_len.len() <= b {
                    p.by_len.resize(b + 1, (0, 0));
                }
                p.by_len[b].0 += 1;
            }
        }
        let tx =
            SimDuration::transmission(wire_bytes, self.net.channels[ch.index()].rate_bps) + guard;
        let earliest = self.now + offset;
        let mut slot = BurstSlot {
            burst,
            wire_bytes,
            guard,
            ch,
            head: earliest,
            wavelength: 0,
            path,
            background,
            counted,
        };
        let queued = self.core.queued[ch.index()];
        let reserved = match self.core.ports[ch.index()].as_mut() {
            Some(p) if queued.is_some() => queue_reserve(p, self.now, earliest, tx, queued),
            Some(p) => {
                let mut sched = self.core.switches[node.index()].scheduler;
                sched
                    .reserve(p, self.now, earliest, earliest + tx, ChannelSet::All)
                    .map(|w| (w, earliest))
            }
            None => {
                debug_assert!(false, "a burst launched on an electronic link");
                None
            }
        };
        if let Some((w, _)) = reserved {
            slot.wavelength = w;
        }
        let i = self.slab_insert(slot);
        match reserved {
            Some((_, start)) => self.forward(i, ch, start, start - offset, tx),
            None => self.block(i, node, ch),
        }
    }

    /// Puts burst `i` on channel `ch`: its head leaves at `start`, its BCP
    /// leaves at `bcp_at`, and it holds a wavelength for `tx`.
    fn forward(&mut self, i: u32, ch: LinkId, start: SimTime, bcp_at: SimTime, tx: SimDuration) {
        let c = &mut self.net.channels[ch.index()];
        let (to, delay) = (c.to, c.delay);
        self.core.bcps[ch.index()] += 1;
        let slot = self.obs.slab[i as usize].as_mut().expect("live burst");
        c.stats.bursts += 1;
        c.stats.bytes += slot.wire_bytes;
        let head = start + delay;
        let tail = head + tx;
        slot.ch = ch;
        slot.head = head;
        if let Some(b) = self.obs.bins[ch.index()].as_mut() {
            // Counted when the burst reaches the far end ("bytes received by
            // the first core router", gonzalez2009 §4).
            b.add(tail, slot.wire_bytes);
        }
        let lost = self.obs.burst_loss[ch.index()]
            .as_mut()
            .is_some_and(|m| m.lose(&slot.burst));
        let from = c.from;
        let ev = if lost {
            (tail, Event::BurstLost(i))
        } else if to == slot.burst.egress {
            (tail, Event::BurstArrive { ch, burst: i })
        } else {
            (
                bcp_at + delay + self.core.switches[to.index()].processing,
                Event::Bcp(i),
            )
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
        let (node, egress, head, wire, guard, w) = {
            let s = self.obs.slab[i as usize].as_ref().expect("live burst");
            (
                self.net.channels[s.ch.index()].to,
                s.burst.egress,
                s.head,
                s.wire_bytes,
                s.guard,
                s.wavelength,
            )
        };
        let Some(next) = self.net.routes.next_hop(node, egress) else {
            debug_assert!(false, "no route for a burst");
            return;
        };
        let tx = SimDuration::transmission(wire, self.net.channels[next.index()].rate_bps) + guard;
        let (start, end) = (head, head + tx);
        let sw = &mut self.core.switches[node.index()];
        sw.bcps += 1;
        let (allowed, converter) = match sw.conversion {
            Conversion::None => (ChannelSet::Only(w), None),
            Conversion::Partial => {
                let pool = self.core.port_pools[next.index()]
                    .as_ref()
                    .or(sw.pool.as_ref());
                match pool.and_then(|p| p.available(start)) {
                    Some(k) => (ChannelSet::All, Some(k)),
                    None => (ChannelSet::Only(w), None),
                }
            }
            Conversion::Full => (ChannelSet::All, None),
        };
        let mut sched = sw.scheduler;
        let got = self.core.ports[next.index()]
            .as_mut()
            .and_then(|p| sched.reserve(p, self.now, start, end, allowed));
        match got {
            Some(c) => {
                if let (Some(k), true) = (converter, c != w) {
                    let sw = &mut self.core.switches[node.index()];
                    sw.conversions += 1;
                    match self.core.port_pools[next.index()].as_mut() {
                        Some(p) => p.commit(k, end),
                        None => {
                            if let Some(p) = sw.pool.as_mut() {
                                p.commit(k, end);
                            }
                        }
                    }
                }
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
        self.core.switches[node.index()].dropped += 1;
        self.core.blocked[ch.index()] += 1;
        let slot = self.obs.slab[i as usize].as_ref().expect("live burst");
        if slot.counted {
            let c = &mut self.core.paths[slot.path as usize].counters[usize::from(slot.background)];
            c.blocked += 1;
        }
        self.lose_burst(i);
    }

    /// Burst `i` was lost by the burst loss model of the link it crossed.
    pub(super) fn on_burst_lost_event(&mut self, i: u32) {
        let ch = self.obs.slab[i as usize].as_ref().expect("live burst").ch;
        self.net.channels[ch.index()].stats.bursts_lost += 1;
        self.lose_burst(i);
    }

    /// Common end of a lost burst: path and flow counters, a-posteriori DMQ
    /// feedback, slot freed.
    fn lose_burst(&mut self, i: u32) {
        let slot = self.obs.slab[i as usize].take().expect("live burst");
        self.obs.free.push(i);
        if slot.counted {
            let p = &mut self.core.paths[slot.path as usize];
            p.counters[usize::from(slot.background)].lost += 1;
            if !slot.background {
                let b = slot.burst.packets.len().saturating_sub(1) / self.core.bin_width as usize;
                p.by_len[b].1 += 1;
            }
        }
        self.on_burst_lost(&slot.burst);
        // A-posteriori DMQ reallocates the flows of lost bursts
        // (gonzalez2009 §4): the ingress learns of the loss.
        if let Some(e) = self.obs.edges[slot.burst.ingress.index()].as_mut() {
            e.assembler.on_burst_lost(&slot.burst);
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
        for g in 0..self.core.generators.len() {
            let start = self.scenario.generators[g].start;
            let gap = self.next_gap(g);
            self.schedule_generator(g, start + gap);
        }
    }

    fn next_gap(&mut self, g: usize) -> SimDuration {
        let gen = &mut self.core.generators[g];
        let e: f64 = gen.rng.sample(Exp1);
        SimDuration((e * gen.interarrival_ns).round() as u64)
    }

    fn schedule_generator(&mut self, g: usize, at: SimTime) {
        if self.core.generators[g].stop.is_none_or(|s| at < s) {
            self.queue.push(at, Event::Generate(g as u32));
        }
    }

    /// Generator `g` emits a burst now and schedules its next one.
    pub(super) fn on_generate(&mut self, g: u32) {
        let g = g as usize;
        let (node, egress, bytes, id, extra) = {
            let gen = &mut self.core.generators[g];
            let j = if gen.to.len() == 1 {
                0
            } else {
                crate::rng::uniform_below(&mut gen.rng, gen.to.len() as u32) as usize
            };
            let mean = gen.mean_bytes[j];
            let bytes = if gen.exponential {
                let e: f64 = gen.rng.sample(Exp1);
                (e * mean).round().max(1.0) as u64
            } else {
                mean.round().max(1.0) as u64
            };
            gen.next_id += 1;
            (gen.at, gen.to[j], bytes, gen.next_id - 1, gen.extra_offset)
        };
        let burst = Burst {
            id,
            ingress: node,
            egress,
            queue: u32::MAX,
            opened: self.now,
            closed: self.now,
            payload_bytes: bytes,
            ..Burst::default()
        };
        self.launch_burst(node, burst, bytes, SimDuration::ZERO, extra, true);
        let gap = self.next_gap(g);
        self.schedule_generator(g, self.now + gap);
    }

    /// The node, path, length-bin and wavelength tables.
    pub(super) fn optical_results(
        &self,
        measured: SimDuration,
    ) -> (
        Vec<NodeResult>,
        Vec<PathResult>,
        Vec<BurstLengthResult>,
        Vec<WavelengthResult>,
    ) {
        let sc = self.scenario;
        let name = |n: NodeId| sc.nodes[n.index()].name.clone();
        let nodes = sc
            .nodes
            .iter()
            .zip(&self.core.switches)
            .filter(|(nd, _)| matches!(nd.kind, NodeKind::Edge | NodeKind::Core))
            .map(|(nd, s)| NodeResult {
                node: nd.name.clone(),
                kind: if nd.kind == NodeKind::Core {
                    "core"
                } else {
                    "edge"
                }
                .to_string(),
                bcps: s.bcps,
                bursts_dropped: s.dropped,
                conversions: s.conversions,
                signals_sent: s.signals,
            })
            .collect();
        let mut paths = Vec::new();
        let mut lengths = Vec::new();
        let ratio = |l: u64, b: u64| if b > 0 { l as f64 / b as f64 } else { f64::NAN };
        let mut order: Vec<&PathInfo> = self.core.paths.iter().collect();
        order.sort_by_key(|p| (p.ingress, p.egress));
        for p in order {
            for (k, class) in ["tcp", "background"].iter().enumerate() {
                let c = p.counters[k];
                if c.bursts == 0 {
                    continue;
                }
                paths.push(PathResult {
                    ingress: name(p.ingress),
                    egress: name(p.egress),
                    class: (*class).to_string(),
                    hops: p.hops,
                    offset_s: p.offset.as_secs_f64(),
                    bursts: c.bursts,
                    lost: c.lost,
                    blocked: c.blocked,
                    bytes: c.bytes,
                    loss_ratio: ratio(c.lost, c.bursts),
                });
            }
            let w = self.core.bin_width;
            for (b, &(sent, lost)) in p.by_len.iter().enumerate() {
                if sent == 0 {
                    continue;
                }
                lengths.push(BurstLengthResult {
                    ingress: name(p.ingress),
                    egress: name(p.egress),
                    packets_lo: b as u32 * w + 1,
                    packets_hi: (b as u32 + 1) * w,
                    bursts: sent,
                    lost,
                    loss_ratio: ratio(lost, sent),
                });
            }
        }
        let mut wavelengths = Vec::new();
        for (ch, c) in self.net.channels.iter().enumerate() {
            if self.core.ports[ch].is_none() {
                continue;
            }
            let util = self.core.utilisation(ch, measured);
            for (w, (&bursts, u)) in self.core.bursts(ch).iter().zip(util).enumerate() {
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
        (nodes, paths, lengths, wavelengths)
    }
}

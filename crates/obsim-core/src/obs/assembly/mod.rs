//! Burst assembly at an ingress edge node: a queue-selection policy (which
//! burstifier queue a packet joins) times a closing trigger (when a queue's
//! burst leaves). See docs/MODEL.md, "OBS edge: burst assembly".
//!
//! One [`Assembler`] holds every burstifier queue of one ingress node, grouped
//! per egress (gurel2008 §2, Fig. 1). It is I/O free, like the TCP endpoints:
//! the engine hands it packets ([`Assembler::on_packet`]), fires its timers
//! ([`Assembler::on_timer`]) at [`Assembler::next_deadline`], and receives
//! closed bursts in a caller-owned `Vec`.
//!
//! Queue selection is a trait with one file per policy (`select.rs` holds the
//! trait, the per-flow slot and the registry; `mixed.rs`, `per_flow.rs`,
//! `per_egress.rs`, `smq.rs`, `dmq.rs`, `window.rs` the policies); the
//! closing trigger is `trigger.rs`.
//!
//! Per-packet work allocates nothing in steady state: burst packet buffers
//! come back through [`Assembler::recycle`], per-flow state is one `Vec` of
//! 12-byte slots indexed by flow id (grown when a new flow id appears; a TCP
//! flow's data reach one egress from one ingress), and the timers are a binary
//! heap of `(deadline, queue, cycle)` with lazy invalidation (a queue closed
//! by its size trigger leaves a stale entry, dropped when it reaches the top).

mod dmq;
mod estimate;
mod mixed;
mod per_egress;
mod per_flow;
mod select;
mod smq;
mod trigger;
mod window;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub use dmq::DmqAllocation;
pub use estimate::WindowEstimator;
pub use per_egress::FlowMapping;
pub use select::SELECTION_NAMES;
pub use trigger::{SizeLimit, Trigger};
pub use window::class as window_class;
pub use window::WindowSource;

use crate::ids::NodeId;
use crate::net::Packet;
use crate::obs::burst::Burst;
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};

use select::{QueueTable, Selector};

/// Burst assembly parameters of one ingress edge node.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AssemblyConfig {
    /// When a queue's burst closes.
    pub trigger: Trigger,
    /// Which queue a packet joins.
    pub selection: Selection,
    /// Minimum burst payload: a smaller burst is padded up to it at closing
    /// (the padding counts in `Burst::padding_bytes`, the header is extra).
    pub min_burst_bytes: Option<u64>,
    /// Burst header overhead in bytes, added on the optical channel
    /// ([`Burst::wire_bytes`]); 0 by default (no study gives one).
    pub header_bytes: u32,
    /// Guard time per burst on the optical channel
    /// ([`Burst::transmission_time`]); 0 by default.
    pub guard: SimDuration,
}

impl Default for AssemblyConfig {
    /// Timer-based mixed-flow assembly with `T_MAX` = 1 ms, no padding,
    /// header or guard.
    fn default() -> Self {
        AssemblyConfig {
            trigger: Trigger::Timer(SimDuration::from_millis(1)),
            selection: Selection::MixedFlow,
            min_burst_bytes: None,
            header_bytes: 0,
            guard: SimDuration::ZERO,
        }
    }
}

/// Queue-selection policy: how the packets for one egress are spread over
/// burstifier queues. The configuration of the policies in `select.rs`'s
/// registry, one file each.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Selection {
    /// One queue per egress shared by all flows: MF (gonzalez2009 §3),
    /// per-destination burstification (gurel2008 §3, M = 1).
    MixedFlow,
    /// One queue per flow: PF (gonzalez2009 §3, gurel2008 §3 with M = N).
    PerFlow,
    /// `m` burstifiers per egress with a static flow-to-queue mapping
    /// (gurel2008 §2).
    PerEgress {
        /// Burstifiers per egress (M).
        m: u32,
        /// Flow-to-burstifier mapping.
        mapping: FlowMapping,
    },
    /// Static multi-queue (gonzalez2009 §3.4): flows grouped statically by
    /// flow id modulo `queues`, each group assembled as in MF.
    Smq {
        /// Queues per egress.
        queues: u32,
    },
    /// Dynamic multi-queue (gonzalez2009 §4): flows allocated to one of
    /// `queues` per assembly cycle.
    Dmq {
        /// Queues per egress (2, 4 and 8 in the paper).
        queues: u32,
        /// Proactive or a-posteriori allocation.
        allocation: DmqAllocation,
    },
    /// Window-based assembly (ramantas2007 §5, ramantas2008 §5): three queues
    /// per egress with timers `timers[0]` for cwnd < b, `timers[1]` for
    /// b <= cwnd < c and `timers[2]` for cwnd >= c (b = c: the middle queue
    /// is never used). The trigger's own timer is ignored; its size limit,
    /// if any, still applies.
    WindowBased {
        /// Threshold B in segments.
        b: f64,
        /// Threshold C in segments, C >= B.
        c: f64,
        /// Assembly timers for slow, medium and fast flows (1, 5, 10 ms in
        /// the papers).
        timers: [SimDuration; 3],
        /// Where the window comes from: the sender (the papers) or the
        /// edge's estimate.
        source: WindowSource,
    },
}

impl Selection {
    /// The policy's name in scenario files (one of [`SELECTION_NAMES`]).
    pub fn name(&self) -> &'static str {
        Selector::new(self).name()
    }
}

/// Counters of one assembler.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssemblyStats {
    /// Bursts closed.
    pub bursts: u64,
    /// Packets put into bursts (closed ones).
    pub packets: u64,
    /// Payload bytes of closed bursts (sum of packet wire bytes).
    pub payload_bytes: u64,
    /// Padding bytes added to reach `min_burst_bytes`.
    pub padding_bytes: u64,
    /// Bursts closed by their timer.
    pub closed_by_timer: u64,
    /// Bursts closed by their size limit.
    pub closed_by_size: u64,
    /// Bursts closed per queue (index = `Burst::queue`).
    pub queue_bursts: Vec<u64>,
    /// Packets carried per queue (index = `Burst::queue`).
    pub queue_packets: Vec<u64>,
}

/// One burstifier queue (a FIFO building one burst at a time).
#[derive(Debug)]
struct Queue {
    egress: NodeId,
    /// Index of its egress group.
    group: u32,
    /// Packets of the open burst; an empty `Vec` (no allocation) when idle.
    packets: Vec<Packet>,
    bytes: u64,
    opened: SimTime,
    /// Timer deadline of the open burst, `SimTime::MAX` when none.
    deadline: SimTime,
    /// Assembly timer of this queue, if timer-triggered.
    timer: Option<SimDuration>,
    /// Bursts this queue has closed: the number of its current cycle.
    cycle: u64,
}

/// The queues for one egress.
#[derive(Debug)]
struct Group {
    egress: NodeId,
    /// Index at the ingress of the group's first fixed queue.
    first: u32,
}

/// Why a burst closed.
#[derive(Clone, Copy)]
enum Closer {
    Timer,
    Size,
}

/// The burst assembler of one ingress edge node: all its burstifier queues
/// for every egress (gurel2008 §2 Fig. 1, gonzalez2009 §3-4, ramantas2007 §5).
#[derive(Debug)]
pub struct Assembler {
    trigger: Trigger,
    selector: Selector,
    min_burst_bytes: Option<u64>,
    ingress: NodeId,
    /// Group index by egress node index (`u32::MAX` when not an egress).
    group_of: Vec<u32>,
    /// Groups, queues, per-flow slots, rng and counters: what the
    /// queue-selection policy reads and changes.
    table: QueueTable,
    /// Pending timers `(deadline, queue, cycle)`; an entry is live while the
    /// queue is still in that cycle. The top is always live.
    timers: BinaryHeap<Reverse<(SimTime, u32, u64)>>,
    /// Recycled packet buffers.
    pool: Vec<Vec<Packet>>,
    next_id: u64,
    /// The window estimator (window-based assembly with
    /// `window_source = "estimated"` only).
    estimator: Option<WindowEstimator>,
    /// Ended flows whose slot is kept until it becomes forgettable (their
    /// last cycle is still open; [`Assembler::end_flow`]).
    retired: Vec<u32>,
}

impl Assembler {
    /// An assembler for `ingress` with one queue group per node of `egresses`
    /// (duplicates ignored); `rng` feeds random flow mapping and DMQ
    /// allocation. A packet for an egress not listed here gets a new group on
    /// arrival.
    pub fn new(cfg: &AssemblyConfig, ingress: NodeId, egresses: &[NodeId], rng: SimRng) -> Self {
        let mut a = Assembler {
            trigger: cfg.trigger,
            selector: Selector::new(&cfg.selection),
            min_burst_bytes: cfg.min_burst_bytes,
            ingress,
            group_of: Vec::new(),
            table: QueueTable {
                groups: Vec::with_capacity(egresses.len()),
                queues: Vec::new(),
                flows: Vec::new(),
                sparse: select::SlotMap::default(),
                sparse_from: u32::MAX,
                rng,
                stats: AssemblyStats::default(),
                timer: cfg.trigger.timer(),
            },
            timers: BinaryHeap::new(),
            pool: Vec::new(),
            next_id: 0,
            estimator: match cfg.selection {
                Selection::WindowBased {
                    source: WindowSource::Estimated { rtt_fallback },
                    ..
                } => Some(WindowEstimator::new(rtt_fallback)),
                _ => None,
            },
            retired: Vec::new(),
        };
        for &e in egresses {
            a.group(e);
        }
        a
    }

    /// The ingress node.
    pub fn ingress(&self) -> NodeId {
        self.ingress
    }

    /// A packet for `egress` arrives at `now`; `cwnd` is the flow's current
    /// congestion window in segments (only window-based assembly reads it).
    /// Timers due at or before `now` fire first (so no packet waits beyond
    /// `T_MAX`); bursts they close and bursts closed by this arrival (size
    /// trigger) go to `out`, in closing order. The arrival may open a burst
    /// and so make [`Assembler::next_deadline`] earlier: the engine re-reads it.
    pub fn on_packet(
        &mut self,
        now: SimTime,
        egress: NodeId,
        pkt: Packet,
        cwnd: f64,
        out: &mut Vec<Burst>,
    ) {
        self.on_timer(now, out);
        let g = self.group(egress);
        let q = self.selector.select(&mut self.table, g, pkt.flow, cwnd);
        let size = self.trigger.size();
        let queue = &mut self.table.queues[q as usize];
        if queue.packets.is_empty() {
            // First packet into an empty queue: the burst opens, its timer starts.
            if queue.packets.capacity() == 0 {
                if let Some(buf) = self.pool.pop() {
                    queue.packets = buf;
                }
            }
            queue.opened = now;
            if let Some(t) = queue.timer {
                queue.deadline = now + t;
                self.timers.push(Reverse((queue.deadline, q, queue.cycle)));
            }
        }
        queue.packets.push(pkt);
        queue.bytes += u64::from(pkt.bytes);
        if size.is_some_and(|s| s.reached(queue.bytes, queue.packets.len())) {
            self.close(q, now, Closer::Size, out);
            self.drop_stale_timers();
        }
    }

    /// Whether this assembler estimates windows itself
    /// (`window_source = "estimated"`): the engine then passes
    /// [`Assembler::estimate_window`] to [`Assembler::on_packet`] instead of
    /// the sender's cwnd.
    pub fn estimates_window(&self) -> bool {
        self.estimator.is_some()
    }

    /// The edge's window estimate for `pkt` of a live TCP flow arriving at
    /// `now` (`estimate.rs`); 1 when this assembler does not estimate.
    pub fn estimate_window(&mut self, now: SimTime, pkt: &Packet) -> f64 {
        match self.estimator.as_mut() {
            Some(e) => e.observe(now, pkt.flow, &pkt.payload),
            None => 1.0,
        }
    }

    /// Flows from id `first` on are generated flows, which end during the
    /// run ([`Assembler::end_flow`]): if the queue-selection policy can free
    /// an ended flow's slot (proactive DMQ), their slots are kept in a map
    /// by id, so they take memory for the flows alive at once, not for
    /// every flow of the run (issue 12, item 3). Other policies keep the
    /// dense table indexed by flow id: a flow's queue is meant for the whole
    /// run, and a late packet of an ended flow must still find it.
    pub fn set_generated_from(&mut self, first: u32) {
        if self.selector.frees_ended_flows() {
            self.table.sparse_from = first;
        }
    }

    /// Flow `flow` has ended: per-flow edge state kept for it (the window
    /// estimate) is freed, and so is its queue slot when the policy frees
    /// ended flows' slots: now if the slot already behaves as no slot
    /// (`QueueSelection::forgettable` in `select.rs`: a late packet of the flow, still
    /// in the network, is then treated exactly as before), else once it
    /// does (its last cycle closes; checked at later ends, so the kept
    /// slots are those of flows that ended within about one cycle). The
    /// engine calls it again after a late packet of an ended flow, which
    /// may have given the flow a slot anew.
    pub fn end_flow(&mut self, flow: crate::ids::FlowId) {
        if let Some(e) = self.estimator.as_mut() {
            e.end_flow(flow);
        }
        if flow.0 < self.table.sparse_from {
            return;
        }
        let t = &mut self.table;
        let selector = &self.selector;
        let forget = |f: u32, t: &mut QueueTable| -> bool {
            let Some(slot) = t.sparse.get(&f) else {
                return true;
            };
            let cycle = t.cycle(slot.queue).unwrap_or(0);
            if selector.forgettable(slot, cycle) {
                t.sparse.remove(&f);
                true
            } else {
                false
            }
        };
        self.retired.retain(|&f| !forget(f, t));
        if !forget(flow.0, t) && !self.retired.contains(&flow.0) {
            self.retired.push(flow.0);
        }
    }

    /// Slots of flows kept in the map now, and ended flows among them
    /// waiting for their cycle to close (tests of bounded state).
    pub fn flow_slots(&self) -> (usize, usize) {
        (self.table.sparse.len(), self.retired.len())
    }

    /// The window estimator, if this assembler estimates windows.
    pub fn estimator(&self) -> Option<&WindowEstimator> {
        self.estimator.as_ref()
    }

    /// Closes every queue whose timer is due at or before `now`, into `out`
    /// (in deadline order, ties by queue index).
    pub fn on_timer(&mut self, now: SimTime, out: &mut Vec<Burst>) {
        while let Some(&Reverse((deadline, q, cycle))) = self.timers.peek() {
            if deadline > now {
                break;
            }
            self.timers.pop();
            if self.table.queues[q as usize].cycle == cycle {
                self.close(q, now, Closer::Timer, out);
            }
            self.drop_stale_timers();
        }
    }

    /// Earliest pending timer deadline over all queues (the engine keeps one
    /// lazy timer event per edge node).
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.timers.peek().map(|r| r.0 .0)
    }

    /// Gives back a burst's packet buffer after disassembly, so steady state
    /// allocates nothing per burst.
    pub fn recycle(&mut self, mut packets: Vec<Packet>) {
        if packets.capacity() > 0 {
            packets.clear();
            self.pool.push(packets);
        }
    }

    /// Reports that `burst` (assembled here) was lost in the core. Only DMQ
    /// with a-posteriori allocation uses it: the flows with a data segment in
    /// the burst are re-allocated when their current cycle ends
    /// (gonzalez2009 §4). The engine calls it when the loss becomes known at
    /// the ingress (idealised: at the drop, as with a BNAK, yu2004 §IV).
    pub fn on_burst_lost(&mut self, burst: &Burst) {
        self.selector.on_burst_lost(burst, &mut self.table);
    }

    /// Counters: bursts, packets, bytes, padding, per-queue counts.
    pub fn stats(&self) -> &AssemblyStats {
        &self.table.stats
    }

    /// Number of burstifier queues over all egresses (per-flow assembly adds
    /// one per new flow).
    pub fn queue_count(&self) -> usize {
        self.table.queues.len()
    }

    /// The egress node a queue (a `Burst::queue` index) belongs to.
    pub fn queue_egress(&self, queue: u32) -> Option<NodeId> {
        self.table.queues.get(queue as usize).map(|q| q.egress)
    }

    /// Packets waiting in open bursts.
    pub fn pending_packets(&self) -> usize {
        self.table.queues.iter().map(|q| q.packets.len()).sum()
    }

    /// Closes every open burst now, whatever its trigger (end of run); these
    /// count as timer closes in the stats.
    pub fn flush(&mut self, now: SimTime, out: &mut Vec<Burst>) {
        for q in 0..self.table.queues.len() as u32 {
            if !self.table.queues[q as usize].packets.is_empty() {
                self.close(q, now, Closer::Timer, out);
            }
        }
        self.timers.clear();
    }

    // ---- internals ----------------------------------------------------------

    /// The group of `egress`, created (with its fixed queues) if new.
    fn group(&mut self, egress: NodeId) -> u32 {
        let i = egress.index();
        if i >= self.group_of.len() {
            self.group_of.resize(i + 1, u32::MAX);
        }
        if self.group_of[i] != u32::MAX {
            return self.group_of[i];
        }
        let g = self.table.groups.len() as u32;
        self.group_of[i] = g;
        let first = self.table.queues.len() as u32;
        self.table.groups.push(Group { egress, first });
        for k in 0..self.selector.initial_queues() {
            let timer = self.selector.queue_timer(k, self.trigger.timer());
            self.table.add_queue(g, egress, timer);
        }
        g
    }

    /// Closes queue `q`'s open burst into `out`.
    fn close(&mut self, q: u32, now: SimTime, why: Closer, out: &mut Vec<Burst>) {
        let queue = &mut self.table.queues[q as usize];
        debug_assert!(!queue.packets.is_empty(), "closing an empty queue");
        let packets = std::mem::take(&mut queue.packets);
        let payload = std::mem::take(&mut queue.bytes);
        queue.deadline = SimTime::MAX;
        queue.cycle += 1;
        let padding = self
            .min_burst_bytes
            .map_or(0, |m| m.saturating_sub(payload));
        let n = packets.len() as u64;
        let s = &mut self.table.stats;
        s.bursts += 1;
        s.packets += n;
        s.payload_bytes += payload;
        s.padding_bytes += padding;
        match why {
            Closer::Timer => s.closed_by_timer += 1,
            Closer::Size => s.closed_by_size += 1,
        }
        s.queue_bursts[q as usize] += 1;
        s.queue_packets[q as usize] += n;
        out.push(Burst {
            id: self.next_id,
            ingress: self.ingress,
            egress: queue.egress,
            queue: q,
            opened: queue.opened,
            closed: now,
            payload_bytes: payload,
            padding_bytes: padding,
            packets,
        });
        self.next_id += 1;
    }

    /// Pops timer entries of cycles that already closed, so the heap top is live.
    fn drop_stale_timers(&mut self) {
        while let Some(&Reverse((_, q, cycle))) = self.timers.peek() {
            if self.table.queues[q as usize].cycle == cycle {
                break;
            }
            self.timers.pop();
        }
    }
}

#[cfg(test)]
mod tests;

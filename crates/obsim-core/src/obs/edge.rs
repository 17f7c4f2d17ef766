//! The OBS edge node, I/O free: the ingress side (which packets it
//! assembles, where their bursts leave the optical domain, the burst header
//! and guard time, the class's extra offset, around the [`Assembler`]) and
//! the burst statistics of the edges ([`BurstCounts`]: bursts per flow,
//! flows per burst, segments per flow per burst, packets per burst).
//!
//! The egress side has no state: a burst that reaches its egress is
//! disassembled and its packets go on as packets (SYSTEM.md, "bursts are
//! the unit in the core").

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::config::scenario::{AckHandling, EdgeSpec};
use crate::engine::flowpool::IdHasher;
use crate::ids::NodeId;
use crate::net::Payload;
use crate::obs::assembly::Assembler;
use crate::obs::Burst;
use crate::results::BurstHistTable;
use crate::rng::SimRng;
use crate::time::SimDuration;

/// One ingress edge.
pub struct Edge {
    /// The burst assembler (`[nodes.assembly]`).
    pub assembler: Assembler,
    acks: AckHandling,
    /// Egress edge towards each destination node (`u32::MAX` = not yet
    /// known).
    egress_of: Vec<u32>,
    header: u32,
    guard: SimDuration,
    extra_offset: SimDuration,
}

impl Edge {
    /// Edge `me` of a network of `n_nodes` nodes with settings `spec`, which
    /// sends bursts to the edges `others`; `rng` is its assembly stream.
    pub fn new(
        spec: &EdgeSpec,
        me: NodeId,
        others: &[NodeId],
        rng: SimRng,
        n_nodes: usize,
    ) -> Self {
        Self {
            assembler: Assembler::new(&spec.assembly, me, others, rng),
            acks: spec.acks,
            egress_of: vec![u32::MAX; n_nodes],
            header: spec.assembly.header_bytes,
            guard: spec.assembly.guard,
            extra_offset: spec.extra_offset,
        }
    }

    /// Whether a packet with `payload` entering the optical domain here is
    /// assembled: data and cross-traffic datagrams always, ACKs as
    /// configured (`acks`), burst signals never.
    pub fn assembles(&self, payload: &Payload) -> bool {
        match payload {
            Payload::Data(_) | Payload::Datagram(_) => true,
            Payload::Ack(_) => self.acks == AckHandling::Assemble,
            Payload::Signal(_) => false,
        }
    }

    /// The egress edge towards `dst`, found by `find` the first time.
    pub fn egress(&mut self, dst: NodeId, find: impl FnOnce() -> NodeId) -> NodeId {
        let known = self.egress_of[dst.index()];
        if known != u32::MAX {
            return NodeId(known);
        }
        let n = find();
        self.egress_of[dst.index()] = n.0;
        n
    }

    /// Burst header bytes (`Burst::wire_bytes`).
    pub fn header(&self) -> u32 {
        self.header
    }

    /// Guard time added to every burst's holding time.
    pub fn guard(&self) -> SimDuration {
        self.guard
    }

    /// Extra offset of this edge's bursts (their QoS class).
    pub fn extra_offset(&self) -> SimDuration {
        self.extra_offset
    }
}

/// The map from a live generated flow's id to its counts, hashed as the
/// flow pool's id map is ([`IdHasher`]); only looked up, never iterated, so
/// its hashing orders nothing.
type LiveCounts = HashMap<u32, FlowCount, BuildHasherDefault<IdHasher>>;

/// One flow's burst counts, with the scratch mark of the burst being
/// counted.
#[derive(Clone, Copy, Debug)]
struct FlowCount {
    /// Bursts carrying its data, and those lost.
    bursts: (u64, u64),
    /// Bursts carrying its ACKs (edges with `acks = "assemble"`), and
    /// those lost.
    ack_bursts: (u64, u64),
    /// Stamp of the last burst that counted it, and its segments in that
    /// burst.
    mark: (u64, u32),
}

impl FlowCount {
    const NEW: FlowCount = FlowCount {
        bursts: (0, 0),
        ack_bursts: (0, 0),
        mark: (u64::MAX, 0),
    };
}

/// The bursts that carried one flow's packets: its data segments' and, on
/// edges that assemble ACKs, its ACKs' (a flow's data and its ACKs cross
/// the core in opposite directions, so no burst carries both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowBursts {
    /// Bursts carrying its data segments.
    pub sent: u64,
    /// Of those, bursts lost in the core.
    pub lost: u64,
    /// Bursts carrying its ACKs.
    pub ack_sent: u64,
    /// Of those, bursts lost in the core.
    pub ack_lost: u64,
}

impl From<&FlowCount> for FlowBursts {
    fn from(c: &FlowCount) -> Self {
        Self {
            sent: c.bursts.0,
            lost: c.bursts.1,
            ack_sent: c.ack_bursts.0,
            ack_lost: c.ack_bursts.1,
        }
    }
}

/// Burst statistics of the edges.
///
/// Memory follows the flows alive at once, not the flows created over the
/// run (issue 12, item 3): the declared flows (ids below `dense`, alive for
/// the whole run) have a dense table; a generated flow has an entry in
/// `live` from [`BurstCounts::start_flow`] to [`BurstCounts::end_flow`],
/// which the engine calls after writing the flow's record, the only reader
/// of its counts. A burst may still carry segments of a flow that has
/// ended (a spurious retransmission, a late duplicate): they count in the
/// histograms exactly as before, through the per-burst scratch `stray`,
/// and in no per-flow total (no record reads it any more, and flow ids are
/// never reused), so they leave nothing behind.
#[derive(Clone, Debug, Default)]
pub struct BurstCounts {
    /// Declared flows, by id: their counts and scratch marks.
    dense: Vec<FlowCount>,
    /// Live generated flows (ids `dense.len()` and above).
    live: LiveCounts,
    /// Scratch for the burst being counted: `(flow, segments)` of flows
    /// with neither a dense nor a live entry (ended generated flows).
    /// Rare, so searched linearly; cleared at every burst.
    stray: Vec<(u32, u32)>,
    stamp: u64,
    /// Flows met in the burst being counted.
    touched: Vec<u32>,
    /// Histograms (index = value): flows per burst, segments per flow per
    /// burst (gurel2008 §1, ramantas2007 §3), packets per burst.
    hist_flows: Vec<u64>,
    hist_segments: Vec<u64>,
    hist_packets: Vec<u64>,
}

fn bump(h: &mut Vec<u64>, i: usize) {
    if h.len() <= i {
        h.resize(i + 1, 0);
    }
    h[i] += 1;
}

/// Mean of a histogram whose index is the value (NaN when empty).
fn hist_mean(h: &[u64]) -> f64 {
    let (n, sum) = h
        .iter()
        .enumerate()
        .fold((0u64, 0u64), |(n, sum), (v, &c)| {
            (n + c, sum + v as u64 * c)
        });
    if n == 0 {
        f64::NAN
    } else {
        sum as f64 / n as f64
    }
}

/// The counts of flow `f` if it has any: a declared flow's, or a live
/// generated flow's.
#[inline]
fn flow_count<'a>(
    dense: &'a mut [FlowCount],
    live: &'a mut LiveCounts,
    f: usize,
) -> Option<&'a mut FlowCount> {
    match dense.get_mut(f) {
        Some(c) => Some(c),
        None => live.get_mut(&(f as u32)),
    }
}

/// Where a flow's counts live during one burst's counting.
enum Counted<'a> {
    /// A declared or live generated flow.
    Flow(&'a mut FlowCount),
    /// An ended generated flow: its segments in this burst only.
    Stray(&'a mut u32),
}

impl BurstCounts {
    /// Counters for `n_flows` declared TCP flows (ids `0..n_flows`);
    /// generated flows (ids from `n_flows` on) are counted between
    /// [`BurstCounts::start_flow`] and [`BurstCounts::end_flow`].
    pub fn new(n_flows: usize) -> Self {
        Self {
            dense: vec![FlowCount::NEW; n_flows],
            ..Self::default()
        }
    }

    /// Generated flow `f` has started: its counts start at zero.
    pub fn start_flow(&mut self, f: usize) {
        if f >= self.dense.len() {
            self.live.insert(f as u32, FlowCount::NEW);
        }
    }

    /// Generated flow `f` has ended (its record is written): its counts
    /// are dropped, and its segments still in bursts count in the
    /// histograms only (type docs).
    pub fn end_flow(&mut self, f: usize) {
        self.live.remove(&(f as u32));
    }

    /// Generated flows with counts now (live ones).
    pub fn live_flows(&self) -> usize {
        self.live.len()
    }

    /// Entries the live-flow map can hold without growing: about the most
    /// generated flows alive at once.
    pub fn live_capacity(&self) -> usize {
        self.live.capacity()
    }

    /// The counts of flow `f` in the burst being counted (stamped
    /// `self.stamp`).
    #[inline]
    fn counted(&mut self, f: usize) -> Counted<'_> {
        if let Some(c) = flow_count(&mut self.dense, &mut self.live, f) {
            return Counted::Flow(c);
        }
        let f = f as u32;
        let i = if let Some(i) = self.stray.iter().position(|s| s.0 == f) {
            i
        } else {
            self.stray.push((f, 0));
            self.touched.push(f);
            self.stray.len() - 1
        };
        Counted::Stray(&mut self.stray[i].1)
    }

    /// Counts a newly assembled burst against the flows with data in it,
    /// and in the histograms when `measured` (after the warm-up); then
    /// against the flows with ACKs in it. A run of consecutive segments of
    /// one flow (a window sent back to back) is looked up once.
    pub fn on_sent(&mut self, burst: &Burst, measured: bool) {
        self.stamp += 1;
        self.touched.clear();
        self.stray.clear();
        let mut run = (u32::MAX, 0u32);
        for p in burst.packets.iter().filter(|p| p.is_data()) {
            if p.flow.0 == run.0 {
                run.1 += 1;
            } else {
                self.count_sent(run);
                run = (p.flow.0, 1);
            }
        }
        self.count_sent(run);
        if measured {
            bump(&mut self.hist_flows, self.touched.len());
            bump(&mut self.hist_packets, burst.packets.len());
            for i in 0..self.touched.len() {
                let n = match self.counted(self.touched[i] as usize) {
                    Counted::Flow(c) => c.mark.1,
                    Counted::Stray(n) => *n,
                };
                bump(&mut self.hist_segments, n as usize);
            }
        }
        self.count_acks(burst, false);
    }

    /// Counts `burst` once against each flow with an ACK in it (declared
    /// or live flows; none in the histograms): as sent, or as `lost`.
    fn count_acks(&mut self, burst: &Burst, lost: bool) {
        self.stamp += 1;
        let stamp = self.stamp;
        let mut prev = u32::MAX;
        for p in burst.packets.iter().filter(|p| p.is_ack()) {
            if p.flow.0 == prev {
                continue;
            }
            prev = p.flow.0;
            let Some(c) = flow_count(&mut self.dense, &mut self.live, p.flow.index()) else {
                continue;
            };
            if c.mark.0 != stamp {
                c.mark = (stamp, 0);
                if lost {
                    c.ack_bursts.1 += 1;
                } else {
                    c.ack_bursts.0 += 1;
                }
            }
        }
    }

    /// Counts `n` segments of flow `f` in the burst being counted (nothing
    /// for `f = u32::MAX`, no flow yet).
    #[inline]
    fn count_sent(&mut self, (f, n): (u32, u32)) {
        if f == u32::MAX {
            return;
        }
        let stamp = self.stamp;
        match self.counted(f as usize) {
            Counted::Flow(c) => {
                if c.mark.0 == stamp {
                    c.mark.1 += n;
                } else {
                    c.mark = (stamp, n);
                    c.bursts.0 += 1;
                    self.touched.push(f);
                }
            }
            Counted::Stray(s) => *s += n,
        }
    }

    /// Counts a lost burst against every flow with data or ACKs in it.
    pub fn on_lost(&mut self, burst: &Burst) {
        self.stamp += 1;
        self.touched.clear();
        self.stray.clear();
        let stamp = self.stamp;
        let mut prev = u32::MAX;
        for p in &burst.packets {
            if p.data_seq().is_none() || p.flow.0 == prev {
                continue;
            }
            prev = p.flow.0;
            if let Counted::Flow(c) = self.counted(p.flow.index()) {
                if c.mark.0 != stamp {
                    c.mark = (stamp, 0);
                    c.bursts.1 += 1;
                }
            }
        }
        self.count_acks(burst, true);
    }

    /// The bursts that carried flow `f`'s data and ACKs, sent and lost
    /// (declared, or generated and live; zeros otherwise).
    pub fn flow(&self, f: usize) -> FlowBursts {
        match self.dense.get(f) {
            Some(c) => c.into(),
            None => self
                .live
                .get(&(f as u32))
                .map_or_else(FlowBursts::default, Into::into),
        }
    }

    /// Mean flows per burst (gonzalez2009 Fig. 5; NaN without bursts).
    pub fn flows_per_burst_mean(&self) -> f64 {
        hist_mean(&self.hist_flows)
    }

    /// Mean segments per flow per burst (NaN without bursts).
    pub fn segments_per_flow_mean(&self) -> f64 {
        hist_mean(&self.hist_segments)
    }

    /// The `bursts` result table: the non-empty histogram bins.
    pub fn table(&self) -> BurstHistTable {
        let mut bursts = BurstHistTable::default();
        for (metric, h) in [
            ("flows_per_burst", &self.hist_flows),
            ("segments_per_flow", &self.hist_segments),
            ("packets_per_burst", &self.hist_packets),
        ] {
            for (v, &c) in h.iter().enumerate().filter(|(_, &c)| c > 0) {
                bursts.metric.push(metric.to_string());
                bursts.value.push(v as u64);
                bursts.count.push(c);
            }
        }
        bursts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::FlowId;
    use crate::net::packet::test_data as data;
    use crate::net::{Datagram, Packet};

    fn pkt(flow: u32, payload: Payload) -> Packet {
        Packet {
            flow: FlowId(flow),
            src: NodeId(0),
            dst: NodeId(1),
            bytes: 1040,
            payload,
        }
    }

    fn burst(packets: Vec<Packet>) -> Burst {
        Burst {
            packets,
            ..Burst::default()
        }
    }

    fn ack(flow: u32) -> Packet {
        pkt(flow, Payload::Ack(crate::tcp::Ack::default()))
    }

    /// Data bursts (sent, lost) of flow `f`.
    fn data_bursts(c: &BurstCounts, f: usize) -> (u64, u64) {
        let b = c.flow(f);
        (b.sent, b.lost)
    }

    #[test]
    fn bursts_are_counted_per_flow_and_in_histograms() {
        let mut c = BurstCounts::new(2);
        let dgram = pkt(5, Payload::Datagram(Datagram { source: 3, seq: 0 }));
        c.on_sent(
            &burst(vec![data(0, 1), data(1, 1), data(0, 2), dgram]),
            true,
        );
        c.on_sent(&burst(vec![data(1, 2)]), false); // warm-up: no histograms
        c.on_lost(&burst(vec![data(1, 2), data(1, 3)]));
        assert_eq!((data_bursts(&c, 0), data_bursts(&c, 1)), ((1, 0), (2, 1)));
        assert_eq!((c.flow(1).ack_sent, c.flow(1).ack_lost), (0, 0));
        // One measured burst: 2 flows, segments per flow 2 and 1, 4 packets.
        assert!((c.flows_per_burst_mean() - 2.0).abs() < 1e-12);
        assert!((c.segments_per_flow_mean() - 1.5).abs() < 1e-12);
        let t = c.table();
        assert_eq!(
            t.metric,
            [
                "flows_per_burst",
                "segments_per_flow",
                "segments_per_flow",
                "packets_per_burst"
            ]
        );
        assert_eq!(t.value, [2, 1, 2, 4]);
        assert_eq!(t.count, [1, 1, 1, 1]);
        assert!(BurstCounts::new(1).flows_per_burst_mean().is_nan());
    }

    /// Generated flows (ids from 2 here) are counted from their start to
    /// their end; segments of an ended flow still count in the histograms,
    /// as before, and leave no per-flow entry (issue 12, item 3).
    #[test]
    fn generated_flows_are_counted_while_alive_and_leave_nothing() {
        let mut c = BurstCounts::new(2);
        for f in 2..1_000 {
            c.start_flow(f);
            let b = burst(vec![data(f as u32, 1), data(0, 1), data(f as u32, 2)]);
            c.on_sent(&b, true);
            c.on_lost(&b);
            assert_eq!(data_bursts(&c, f), (1, 1));
            c.end_flow(f);
            assert_eq!(c.flow(f), FlowBursts::default(), "dropped at its end");
            // A late duplicate of the ended flow, with a live one's segment.
            c.on_sent(
                &burst(vec![data(f as u32, 2), data(0, 2), data(f as u32, 3)]),
                true,
            );
            c.on_lost(&burst(vec![data(f as u32, 2)]));
            assert_eq!(c.live_flows(), 0);
        }
        assert_eq!(data_bursts(&c, 0), (1_996, 998));
        // Every burst: 2 flows, one with 2 segments and one with 1.
        assert!((c.flows_per_burst_mean() - 2.0).abs() < 1e-12);
        assert!((c.segments_per_flow_mean() - 1.5).abs() < 1e-12);
        assert!(c.live_capacity() < 8, "{}", c.live_capacity());
    }

    /// A flow's ACKs (assembled at the receiver's edge) are counted once
    /// per burst, apart from its data and out of the histograms.
    #[test]
    fn ack_bursts_are_counted_per_flow_apart_from_data() {
        let mut c = BurstCounts::new(3);
        c.start_flow(3);
        let acks = burst(vec![ack(0), ack(0), ack(1), ack(0), ack(3), ack(7)]);
        c.on_sent(&acks, true);
        c.on_sent(&burst(vec![ack(1), data(2, 1)]), true);
        c.on_lost(&acks);
        let f0 = c.flow(0);
        assert_eq!((f0.sent, f0.lost, f0.ack_sent, f0.ack_lost), (0, 0, 1, 1));
        let f1 = c.flow(1);
        assert_eq!((f1.ack_sent, f1.ack_lost), (2, 1));
        assert_eq!(data_bursts(&c, 2), (1, 0));
        assert_eq!(c.flow(2).ack_sent, 0);
        assert_eq!((c.flow(3).ack_sent, c.flow(3).ack_lost), (1, 1));
        // Flow 7 has no counts (not declared, never started): nothing kept.
        assert_eq!(c.flow(7), FlowBursts::default());
        // The histograms count data only: 0 flows, then 1 flow with 1 segment.
        let t = c.table();
        assert_eq!(t.metric[..2], ["flows_per_burst", "flows_per_burst"]);
        assert_eq!(t.value[..2], [0, 1]);
    }

    #[test]
    fn the_egress_is_found_once_per_destination() {
        let spec = EdgeSpec {
            assembly: crate::obs::assembly::AssemblyConfig::default(),
            acks: AckHandling::Bypass,
            extra_offset: SimDuration::ZERO,
        };
        let mut e = Edge::new(
            &spec,
            NodeId(0),
            &[NodeId(2)],
            crate::rng::stream(1, "x"),
            4,
        );
        assert_eq!(e.egress(NodeId(3), || NodeId(2)), NodeId(2));
        assert_eq!(e.egress(NodeId(3), || unreachable!("cached")), NodeId(2));
        assert!(e.assembles(&data(0, 0).payload));
        assert!(!e.assembles(&pkt(0, Payload::Ack(crate::tcp::Ack::default())).payload));
    }
}

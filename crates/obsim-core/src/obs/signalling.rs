//! JET signalling (Qiao and Yoo 1999; gurel2008 §1, §4) and the burst
//! signals of Burst TCP (yu2004 §IV.B-C), I/O free.
//!
//! JET, hop by hop:
//! - the ingress computes the offset `T = Σ Δ` over the nodes after it on
//!   the path (core nodes and the egress: H × Δ for a uniform Δ), plus the
//!   extra offset of the burst's class ([`JetPath`]);
//! - the ingress reserves its output for the burst from `s >= now + T` and
//!   sends the BCP at `s - T` ([`bcp_departure`]);
//! - the BCP crosses each link in its propagation delay (control channel,
//!   transmission time neglected) and is processed for Δ at the next node
//!   ([`bcp_processed`]), which then reserves the outgoing wavelength over
//!   exactly the burst's passage `[head, head + length)`; the residual
//!   offset at the i-th node is `T - Σ_{j<=i} Δ_j` ([`JetPath::residual`]);
//! - the burst itself cuts through: its head reaches each node one
//!   propagation delay after leaving the previous one.
//!
//! Burst signals: the ingress (BACK), the egress (BACK) or the node that
//! dropped a burst (BNAK) sends one signal packet per flow with data in the
//! burst, listing that flow's segments ([`SignalAggregator`]).

use crate::ids::{FlowId, LinkId, NodeId};
use crate::net::RoutingTable;
use crate::obs::Burst;
use crate::tcp::signal::{BurstSignal, SignalKind};
use crate::time::{SimDuration, SimTime};

/// The route of bursts from an ingress to an egress edge, as JET needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JetPath {
    /// First link (out of the ingress).
    pub first: LinkId,
    /// Links crossed, H.
    pub hops: u32,
    /// Base offset `T = Σ Δ` of the nodes after the ingress.
    pub offset: SimDuration,
}

impl JetPath {
    /// Walks the route from `ingress` to `egress`, adding the BCP
    /// processing time `processing(node)` of every node after the ingress.
    /// `None` when there is no route.
    pub fn walk(
        routes: &RoutingTable,
        ingress: NodeId,
        egress: NodeId,
        processing: impl Fn(NodeId) -> SimDuration,
    ) -> Option<Self> {
        let first = routes.next_hop(ingress, egress)?;
        let mut hops = 0;
        let mut offset = SimDuration::ZERO;
        for hop in routes.walk(ingress, egress) {
            offset += processing(hop.to);
            hops += 1;
        }
        Some(Self {
            first,
            hops,
            offset,
        })
    }

    /// The residual offset of a burst with `extra` extra offset once the
    /// BCP has been processed at nodes whose processing times sum to
    /// `spent`: `T + extra - Σ Δ`.
    pub fn residual(&self, extra: SimDuration, spent: SimDuration) -> SimDuration {
        self.offset + extra - spent
    }
}

/// The egress edge of traffic entering the optical domain at `ingress`
/// towards `dst`: the last node of the route's optical stretch (where the
/// next link is electronic, per `optical(link)`). Edge nodes inside the
/// stretch switch bursts like core nodes.
pub fn optical_egress(
    routes: &RoutingTable,
    ingress: NodeId,
    dst: NodeId,
    optical: impl Fn(LinkId) -> bool,
) -> NodeId {
    let mut n = ingress;
    for hop in routes.walk(ingress, dst) {
        if !optical(hop.ch) {
            break;
        }
        n = hop.to;
    }
    n
}

/// When the ingress sends the BCP of a burst whose head leaves at `start`
/// with total offset `offset` (base plus extra).
#[inline]
pub fn bcp_departure(start: SimTime, offset: SimDuration) -> SimTime {
    start - offset
}

/// When a BCP sent at `sent` on a link of propagation `delay` has been
/// processed (Δ = `processing`) at the link's far end: there and then the
/// node reserves its next link.
#[inline]
pub fn bcp_processed(sent: SimTime, delay: SimDuration, processing: SimDuration) -> SimTime {
    sent + delay + processing
}

/// Builds the burst signals of one burst: per flow, the lowest and highest
/// of its segments in the burst and how many there were (yu2004 §IV.B-C).
/// Scratch space is per flow and reused: no allocation per burst once the
/// output buffer has grown.
#[derive(Clone, Debug, Default)]
pub struct SignalAggregator {
    /// Per flow: (stamp, lowest, highest, count) in the burst being signalled.
    acc: Vec<(u64, u64, u64, u32)>,
    /// Flows met in the burst, in order of their first segment.
    touched: Vec<u32>,
    stamp: u64,
}

impl SignalAggregator {
    /// Scratch for `n_flows` TCP flows.
    pub fn new(n_flows: usize) -> Self {
        Self {
            acc: vec![(u64::MAX, 0, 0, 0); n_flows],
            touched: Vec::new(),
            stamp: 0,
        }
    }

    /// Appends to `out` one signal of `kind` about `burst` for every flow
    /// with data in it that `wants` one, in the order of the flows' first
    /// segments in the burst.
    pub fn aggregate(
        &mut self,
        kind: SignalKind,
        burst: &Burst,
        wants: impl Fn(FlowId) -> bool,
        out: &mut Vec<(FlowId, BurstSignal)>,
    ) {
        self.stamp += 1;
        self.touched.clear();
        for p in &burst.packets {
            let Some(seq) = p.data_seq() else { continue };
            if !wants(p.flow) {
                continue;
            }
            let f = p.flow.index();
            let a = &mut self.acc[f];
            if a.0 == self.stamp {
                a.1 = a.1.min(seq);
                a.2 = a.2.max(seq);
                a.3 += 1;
            } else {
                *a = (self.stamp, seq, seq, 1);
                self.touched.push(f as u32);
            }
        }
        let key = BurstSignal::burst_key(burst.ingress.0, burst.id);
        out.extend(self.touched.iter().map(|&f| {
            let (_, lo, hi, count) = self.acc[f as usize];
            (
                FlowId(f),
                BurstSignal {
                    kind,
                    burst: key,
                    lo,
                    hi,
                    count,
                },
            )
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::scenario::{Buffer, Routing};
    use crate::net::packet::test_data as data;
    use crate::net::Channel;

    fn us(n: u64) -> SimDuration {
        SimDuration::from_micros(n)
    }

    /// A -> C1 -> C2 -> B (nodes 0..4), 1 ms per link, and an electronic
    /// B -> H (node 4).
    fn line() -> RoutingTable {
        let ms = SimDuration::from_millis(1);
        let ch: Vec<Channel> = (0..4)
            .map(|i| {
                Channel::new(
                    NodeId(i),
                    NodeId(i + 1),
                    1_000_000_000,
                    ms,
                    Buffer::Unlimited,
                )
            })
            .collect();
        RoutingTable::shortest_paths(5, &ch, &[true; 5], Routing::Hops)
    }

    #[test]
    fn the_offset_sums_the_processing_after_the_ingress() {
        // Δ: A 7 µs (not counted), C1 50, C2 100, B 20 µs.
        let delta = [7, 50, 100, 20, 0];
        let p = JetPath::walk(&line(), NodeId(0), NodeId(3), |n| us(delta[n.index()])).unwrap();
        assert_eq!(
            p,
            JetPath {
                first: LinkId(0),
                hops: 3,
                offset: us(170)
            }
        );
        // After C1 and C2 the residual offset is Δ(B) plus the extra offset.
        assert_eq!(p.residual(us(5), us(150)), us(25));
        assert_eq!(
            JetPath::walk(&line(), NodeId(3), NodeId(0), |_| us(1)),
            None
        );
    }

    #[test]
    fn bcp_times_follow_the_offset_and_the_links() {
        let t0 = SimTime::ZERO;
        // The burst leaves at 170 µs with T = 170 µs: the BCP leaves at 0 and
        // is processed at C1 (1 ms, Δ = 50 µs) at 1.050 ms.
        assert_eq!(bcp_departure(t0 + us(170), us(170)), t0);
        assert_eq!(
            bcp_processed(t0, SimDuration::from_millis(1), us(50)),
            t0 + us(1050)
        );
    }

    #[test]
    fn the_egress_ends_the_optical_stretch() {
        let rt = line();
        // Links 0..3 optical, link 3 (B -> H) electronic.
        assert_eq!(
            optical_egress(&rt, NodeId(0), NodeId(4), |l| l.0 < 3),
            NodeId(3)
        );
        assert_eq!(
            optical_egress(&rt, NodeId(0), NodeId(2), |l| l.0 < 3),
            NodeId(2)
        );
        assert_eq!(
            optical_egress(&rt, NodeId(0), NodeId(4), |_| false),
            NodeId(0)
        );
    }

    #[test]
    fn one_signal_per_flow_listing_its_segments_in_the_burst() {
        let mut agg = SignalAggregator::new(3);
        let burst = Burst {
            id: 9,
            ingress: NodeId(2),
            packets: vec![data(1, 7), data(0, 3), data(1, 5), data(2, 1), data(1, 6)],
            ..Burst::default()
        };
        let mut out = Vec::new();
        // Flow 2 does not want signals.
        agg.aggregate(SignalKind::Nak, &burst, |f| f.0 != 2, &mut out);
        let key = BurstSignal::burst_key(2, 9);
        let sig = |lo, hi, count| BurstSignal {
            kind: SignalKind::Nak,
            burst: key,
            lo,
            hi,
            count,
        };
        assert_eq!(
            out,
            vec![(FlowId(1), sig(5, 7, 3)), (FlowId(0), sig(3, 3, 1))]
        );
        // The next burst starts afresh.
        out.clear();
        let burst = Burst {
            packets: vec![data(0, 4)],
            ..burst
        };
        agg.aggregate(SignalKind::Nak, &burst, |_| true, &mut out);
        assert_eq!(out, vec![(FlowId(0), sig(4, 4, 1))]);
    }
}

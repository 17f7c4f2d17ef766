//! A burst: the packets one burstifier queue collected between its opening
//! and its closing trigger, switched through the optical core as one unit.

use crate::ids::{FlowId, NodeId};
use crate::net::packet::Payload;
use crate::net::Packet;
use crate::tcp::Segment;
use crate::time::{SimDuration, SimTime};

/// One burst.
#[derive(Clone, Debug, Default)]
pub struct Burst {
    /// Sequence number of the burst at its ingress node (0, 1, ...).
    pub id: u64,
    /// Ingress edge node (where it was assembled).
    pub ingress: NodeId,
    /// Egress edge node (where it is disassembled).
    pub egress: NodeId,
    /// Index of the burstifier queue that built it, at its ingress node.
    pub queue: u32,
    /// When its first packet entered the empty queue.
    pub opened: SimTime,
    /// When the closing trigger fired.
    pub closed: SimTime,
    /// Sum of the wire sizes of its packets.
    pub payload_bytes: u64,
    /// Padding added to reach the minimum burst size.
    pub padding_bytes: u64,
    /// The packets, in arrival order.
    pub packets: Vec<Packet>,
}

impl Burst {
    /// Bytes the burst occupies on an optical channel: payload, padding and a
    /// burst header of `header_bytes` (the assembler's `header_bytes`).
    #[inline]
    pub fn wire_bytes(&self, header_bytes: u32) -> u64 {
        self.payload_bytes + self.padding_bytes + u64::from(header_bytes)
    }

    /// Time the burst holds a channel of `bits_per_sec`: its wire bytes
    /// serialised at that rate plus a per-burst `guard` time (switch
    /// reconfiguration), as set in `AssemblyConfig::guard`.
    #[inline]
    pub fn transmission_time(
        &self,
        bits_per_sec: u64,
        header_bytes: u32,
        guard: SimDuration,
    ) -> SimDuration {
        SimDuration::transmission(self.wire_bytes(header_bytes), bits_per_sec) + guard
    }

    /// Number of packets in the burst.
    #[inline]
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// True for a burst without packets (only a padding-only burst could be).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// Writes the distinct flows with a packet in the burst into `buf`
    /// (cleared first), in ascending id order. Allocates nothing once `buf`
    /// has grown to the largest flow count seen.
    pub fn flows(&self, buf: &mut Vec<FlowId>) {
        buf.clear();
        buf.extend(self.packets.iter().map(|p| p.flow));
        buf.sort_unstable();
        buf.dedup();
    }

    /// Number of distinct flows with a packet in the burst (the
    /// flows-per-burst metric, gonzalez2009 Fig. 5); `buf` is scratch space,
    /// as in [`Burst::flows`].
    pub fn flow_count(&self, buf: &mut Vec<FlowId>) -> usize {
        self.flows(buf);
        buf.len()
    }

    /// The TCP data segments of `flow` carried by the burst, in arrival order
    /// (the segments-per-flow-per-burst metric, gurel2008 §1, ramantas2007 §3).
    pub fn segments_of(&self, flow: FlowId) -> impl Iterator<Item = &Segment> + '_ {
        self.packets.iter().filter_map(move |p| match &p.payload {
            Payload::Data(s) if p.flow == flow => Some(s),
            _ => None,
        })
    }

    /// True when the burst carries at least one data segment of `flow`.
    pub fn carries_data_of(&self, flow: FlowId) -> bool {
        self.packets.iter().any(|p| p.flow == flow && p.is_data())
    }

    /// Number of data segments in the burst (ACKs excluded).
    pub fn data_segments(&self) -> usize {
        self.packets.iter().filter(|p| p.is_data()).count()
    }
}

//! A burst: the packets one burstifier queue collected between its opening
//! and its closing trigger, switched through the optical core as one unit.

use crate::ids::NodeId;
use crate::net::Packet;
use crate::time::SimTime;

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

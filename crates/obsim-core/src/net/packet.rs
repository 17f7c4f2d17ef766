//! A packet in the IP network: a TCP segment or ACK with its addressing.
//! Packets are small `Copy` values moved by value through the event queue,
//! so forwarding never allocates.

use crate::ids::{FlowId, NodeId};
use crate::tcp::{Ack, Segment};

/// What a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// A TCP data segment, from the flow's sender to its receiver.
    Data(Segment),
    /// A TCP acknowledgement, from the receiver back to the sender.
    Ack(Ack),
    /// A burst ACK or NAK from an OBS node to a Burst TCP sender (yu2004
    /// §IV.B-C); never assembled into bursts.
    Signal(crate::tcp::signal::BurstSignal),
}

/// One packet on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Flow the packet belongs to.
    pub flow: FlowId,
    /// Originating node.
    pub src: NodeId,
    /// Destination node.
    pub dst: NodeId,
    /// Size on the wire in bytes (payload plus headers).
    pub bytes: u32,
    /// Contents.
    pub payload: Payload,
}

impl Packet {
    /// True for a data segment.
    #[inline]
    pub fn is_data(&self) -> bool {
        matches!(self.payload, Payload::Data(_))
    }

    /// The segment number of a data packet.
    #[inline]
    pub fn data_seq(&self) -> Option<u64> {
        match self.payload {
            Payload::Data(s) => Some(s.seq),
            _ => None,
        }
    }
}

//! A packet in the IP network: a TCP segment or ACK, or a UDP datagram of a
//! cross-traffic source, with its addressing.
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
    /// A UDP datagram of a cross-traffic source (`[[traffic]]`).
    Datagram(Datagram),
}

/// A UDP datagram: open-loop, never acknowledged; the destination only
/// counts it (ns-2's `Agent/UDP` into an `Agent/Null` / `LossMonitor` sink).
///
/// A struct rather than inline variant fields on purpose: an inline `u32`
/// first field would shrink `Payload`'s tag to 4 bytes and cost `Event` the
/// niche it keeps its own discriminant in, adding a tag word to every
/// queued packet (about 8% slower on the reference benchmark).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Datagram {
    /// Traffic source id (index of `Scenario::traffic`, numbered after
    /// expansion).
    pub source: u32,
    /// The source's packet number, from 0.
    pub seq: u64,
}

/// One packet on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Flow the packet belongs to. For a datagram this is `n + source`
    /// where `n` is the number of TCP flows, so burst assembly can place
    /// cross traffic like any flow (per-flow queues, flow-id mappings); it
    /// never indexes TCP flow state (guard with [`Packet::is_data`]).
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
    /// True for a TCP data segment (not for a datagram).
    #[inline]
    pub fn is_data(&self) -> bool {
        matches!(self.payload, Payload::Data(_))
    }

    /// True for a TCP acknowledgement.
    #[inline]
    pub fn is_ack(&self) -> bool {
        matches!(self.payload, Payload::Ack(_))
    }

    /// The traffic source of a datagram, `None` for TCP packets.
    #[inline]
    pub fn datagram_source(&self) -> Option<u32> {
        match self.payload {
            Payload::Datagram(d) => Some(d.source),
            _ => None,
        }
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

/// A 1040-byte data packet of `flow` carrying segment `seq` (1000 B),
/// from node 0 to node 1: the packet unit tests use.
#[cfg(test)]
pub(crate) fn test_data(flow: u32, seq: u64) -> Packet {
    Packet {
        flow: FlowId(flow),
        src: NodeId(0),
        dst: NodeId(1),
        bytes: 1040,
        payload: Payload::Data(Segment {
            seq,
            len: 1000,
            retransmit: false,
            syn: false,
            push: false,
            sent_at: crate::time::SimTime::ZERO,
            tsecr: 0,
        }),
    }
}

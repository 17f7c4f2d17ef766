//! What TCP puts on the wire: data segments and acknowledgements.
//!
//! Sequence numbers count *segments*, as in ns-2's one-way TCP agents (which
//! the studies used) and in the papers' traces (yu2004 Figs. 1-3 plot
//! "sequence number mod 60" in packets). Every segment carries `mss` payload
//! bytes except possibly a finite flow's last one. RFC rules written in bytes
//! are applied with SMSS = 1 segment.

use crate::time::SimTime;

/// A TCP data segment (RFC 793 segment carrying payload).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Segment number, starting at 0 for the flow's first segment.
    pub seq: u64,
    /// Payload bytes (the MSS, or less for the last segment of a finite flow).
    pub len: u32,
    /// True when this is a retransmission (used by Karn's rule and by
    /// scripted loss models that drop only first transmissions).
    pub retransmit: bool,
    /// True for the connection's SYN (`tcp.syn`; ns-2 `syn_`): no payload
    /// (`len` 0, the header alone on the wire), `seq` 0, sent before data
    /// segment 0 and not part of the data sequence.
    pub syn: bool,
    /// Time the sender handed the segment to the network (for traces only;
    /// RTT sampling uses the sender's own timing, RFC 6298 §3).
    pub sent_at: SimTime,
}

/// Maximum SACK blocks an ACK carries (RFC 2018 §3 allows 3 with the
/// timestamp option, 4 without; ns-2's sink defaults to 3).
pub const MAX_SACK_BLOCKS: usize = 4;

/// One SACK block: segments `start..end` (end exclusive) received above the
/// cumulative ACK (RFC 2018 §3, "left edge" and "right edge").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    /// First segment of the block.
    pub start: u64,
    /// One past the last segment of the block.
    pub end: u64,
}

/// A cumulative acknowledgement, with SACK blocks when the receiver uses SACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ack {
    /// Next segment expected (all segments below it were received).
    pub ack: u64,
    /// SACK blocks; the first `n_sack` entries are valid, the first of them
    /// holding the most recently received segment (RFC 2018 §4).
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    /// Number of valid SACK blocks.
    pub n_sack: u8,
}

impl Ack {
    /// The valid SACK blocks.
    #[inline]
    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..self.n_sack as usize]
    }
}

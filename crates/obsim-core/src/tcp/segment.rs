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
    /// PSH (RFC 9293 §3.1): set by a sender with `tcp.gso` on the last
    /// segment of a GSO packet of two or more (Linux `tso_fragment`); the
    /// receiver's `tcp.ack_on_push` reads it.
    pub push: bool,
    /// Time the sender handed the segment to the network: for traces, and
    /// the segment's timestamp value when `tcp.timestamps` is on (TSval =
    /// [`ts_clock`]`(sent_at)`, RFC 7323 §3: "the current value of the
    /// timestamp clock of the TCP sending the option"; obsim derives it
    /// instead of carrying it).
    pub sent_at: SimTime,
    /// The timestamp echo reply (RFC 7323 §3 TSecr): the sender's
    /// `TS.Recent`, the newest TSval of the receiver's ACKs ([`Ack::tsval`]);
    /// 0 before the first ACK and without timestamps. The receiver's RTT
    /// estimate reads it (Linux `tcp_rcv_rtt_measure_ts`). A segment is 32
    /// bytes with it, with `push`, within the 48 of an [`Ack`], so a packet stays 72.
    pub tsecr: u32,
}

impl Segment {
    /// The segment's TSval (RFC 7323 §3), when timestamps are on.
    #[inline]
    pub fn tsval(&self) -> u32 {
        ts_clock(self.sent_at)
    }
}

/// The sender's timestamp clock at `t` (RFC 7323 §5.4: "between 1 ms and 1
/// sec per tick"): Linux 6.18 stamps with `tcp_time_stamp_ts`, the
/// microsecond clock divided to 1 ms ticks (`tcp_time_stamp_ms`, 1 kHz
/// `TCP_TS_HZ`) unless a route enables `tcp_usec_ts`, which the default
/// does not. The kernel adds a random per-connection `tsoffset`; obsim
/// adds 1, so that no TSval is 0 (Linux ignores a zero TSecr,
/// `tcp_tsopt_ecr_before`: `rcv_tsecr &&`). Wraps after 2^32 ms.
#[inline]
pub fn ts_clock(t: SimTime) -> u32 {
    ((t.as_nanos() / 1_000_000) as u32).wrapping_add(1)
}

/// RFC 7323 §5.2 timestamp comparison modulo 2^32 (Linux `before()` on
/// TSecr, `tcp_tsopt_ecr_before`): true when `a` is earlier than `b`.
#[inline]
pub fn ts_before(a: u32, b: u32) -> bool {
    // `(s32)(a - b) < 0`: the difference is at least 2^31.
    a.wrapping_sub(b) >= 1 << 31
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
///
/// The blocks are kept as offsets from `ack` in segments (`i32`), not as
/// absolute segment numbers: a block lies within the receive window above
/// the cumulative ACK (RFC 2018 §3), so the offsets always fit, and an ACK
/// takes 48 bytes instead of 80 in every packet in flight (issue 12: memory
/// and cache traffic per packet). [`Ack::sack_blocks`] gives them back as
/// absolute [`SackBlock`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ack {
    /// Next segment expected (all segments below it were received).
    pub ack: u64,
    /// SACK blocks as (start, end) offsets from `ack`; the first `n_sack`
    /// are valid, the first of them holding the most recently received
    /// segment (RFC 2018 §4).
    sack: [(i32, i32); MAX_SACK_BLOCKS],
    /// Number of valid SACK blocks.
    n_sack: u8,
    /// The low 16 bits of the ACK's own TSval (RFC 7323 §3), 0 without
    /// timestamps: what the sender echoes in its segments' TSecr
    /// ([`Ack::tsval`] restores the rest), so that the receiver can time its
    /// own RTT (Linux `tcp_rcv_rtt_measure_ts`). It fits in the padding
    /// after `n_sack`: an ACK stays 48 bytes.
    tsval_lo: u16,
    /// The timestamp echo reply (RFC 7323 §3 TSecr), 0 when the receiver
    /// sends no timestamps (`tcp.timestamps = "off"`; TSvals are never 0,
    /// [`ts_clock`]). It too fits in the padding after `n_sack`. The
    /// sender's PAWS test on the ACK's TSval is not modelled.
    pub tsecr: u32,
}

/// An offset from the cumulative ACK, saturated (a block more than 2^31
/// segments from the ACK cannot occur: it would need that many segments in
/// one window).
#[inline]
fn offset(ack: u64, edge: u64) -> i32 {
    let d = i128::from(edge) - i128::from(ack);
    debug_assert!(
        i32::try_from(d).is_ok(),
        "SACK edge {edge} too far from ACK {ack}"
    );
    i32::try_from(d).unwrap_or(if d < 0 { i32::MIN } else { i32::MAX })
}

impl Ack {
    /// A cumulative ACK of everything below segment `ack`, without SACK blocks.
    #[inline]
    pub fn new(ack: u64) -> Self {
        Self {
            ack,
            ..Self::default()
        }
    }

    /// A cumulative ACK carrying `blocks` (at most [`MAX_SACK_BLOCKS`], most
    /// recent first, RFC 2018 §4); extra blocks are not sent.
    #[inline]
    pub fn with_sack(ack: u64, blocks: &[SackBlock]) -> Self {
        let mut a = Self::new(ack);
        let k = blocks.len().min(MAX_SACK_BLOCKS);
        for (slot, b) in a.sack.iter_mut().zip(&blocks[..k]) {
            *slot = (offset(ack, b.start), offset(ack, b.end));
        }
        a.n_sack = k as u8;
        a
    }

    /// Stamps the ACK with its own TSval (RFC 7323 §3: the receiver's
    /// timestamp clock [`ts_clock`] when it sends the ACK); only its low 16
    /// bits travel.
    #[inline]
    pub fn set_tsval(&mut self, tsval: u32) {
        self.tsval_lo = tsval as u16;
    }

    /// The ACK's TSval as the sender reads it at `now`: the latest clock
    /// value at or before `ts_clock(now)` with the low 16 bits carried,
    /// exact while an ACK takes under 65.5 s to arrive. `None` when the ACK
    /// carries no timestamps (its `tsecr` is 0).
    #[inline]
    pub fn tsval(&self, now: SimTime) -> Option<u32> {
        if self.tsecr == 0 {
            return None;
        }
        let clock = ts_clock(now);
        let back = clock.wrapping_sub(u32::from(self.tsval_lo)) & 0xffff;
        Some(clock.wrapping_sub(back))
    }

    /// Number of SACK blocks carried.
    #[inline]
    pub fn n_sack(&self) -> usize {
        self.n_sack as usize
    }

    /// The SACK blocks, as absolute segment numbers.
    #[inline]
    pub fn sack_blocks(&self) -> SackBlocks {
        let mut out = SackBlocks::default();
        for (o, &(s, e)) in out
            .blocks
            .iter_mut()
            .zip(&self.sack[..self.n_sack as usize])
        {
            *o = SackBlock {
                start: self.ack.wrapping_add_signed(i64::from(s)),
                end: self.ack.wrapping_add_signed(i64::from(e)),
            };
        }
        out.n = self.n_sack;
        out
    }
}

/// The SACK blocks of one ACK, by value (a slice of [`SackBlock`] by
/// `Deref`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    blocks: [SackBlock; MAX_SACK_BLOCKS],
    n: u8,
}

impl std::ops::Deref for SackBlocks {
    type Target = [SackBlock];

    #[inline]
    fn deref(&self) -> &[SackBlock] {
        &self.blocks[..self.n as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sack_blocks_round_trip_through_offsets() {
        let blocks = [
            SackBlock {
                start: 1_000_012,
                end: 1_000_020,
            },
            SackBlock {
                start: 1_000_003,
                end: 1_000_005,
            },
            SackBlock {
                start: 999_990,
                end: 999_995,
            }, // stale, below the ACK
            SackBlock {
                start: 1_000_100,
                end: 1_000_130,
            },
            SackBlock {
                start: 1_000_200,
                end: 1_000_201,
            }, // a fifth: not sent
        ];
        let a = Ack::with_sack(1_000_000, &blocks);
        assert_eq!(a.ack, 1_000_000);
        assert_eq!(a.n_sack(), MAX_SACK_BLOCKS);
        assert_eq!(&*a.sack_blocks(), &blocks[..MAX_SACK_BLOCKS]);
        assert_eq!(Ack::new(7).sack_blocks().len(), 0);
        assert_eq!(Ack::with_sack(7, &[]), Ack::new(7));
        // A D-SACK block below the cumulative ACK (RFC 2883 §4) takes a
        // negative offset.
        let d = Ack::with_sack(100, &[SackBlock { start: 97, end: 98 }]);
        assert_eq!(&*d.sack_blocks(), &[SackBlock { start: 97, end: 98 }]);
    }

    #[test]
    fn the_timestamp_clock_ticks_in_milliseconds_and_is_never_zero() {
        assert_eq!(ts_clock(SimTime::ZERO), 1);
        assert_eq!(ts_clock(SimTime(999_999)), 1);
        assert_eq!(ts_clock(SimTime(1_000_000)), 2);
        assert!(ts_before(1, 2) && !ts_before(2, 2) && !ts_before(3, 2));
        // Modulo 2^32 (RFC 7323 §5.2).
        assert!(ts_before(u32::MAX, 1));
    }

    #[test]
    fn an_ack_is_small() {
        // What a packet in flight costs (issue 12): 48 bytes, not 80.
        assert_eq!(std::mem::size_of::<Ack>(), 48);
        assert_eq!(std::mem::size_of::<crate::net::Packet>(), 72);
    }
}

//! The RFC 6675 SACK scoreboard: which outstanding segments the receiver
//! reported (`SACKed`) and which were retransmitted, as two bitsets in a ring
//! indexed by segment number modulo a power-of-two capacity that covers the
//! largest window. Allocated once; per-ACK work allocates nothing.
//!
//! With RACK (RFC 8985, `tcp.rack`) the same ring also holds each
//! segment's most recent transmit time (`Segment.xmit_ts`, §5.2) and a
//! third bitset of the segments RACK marked lost (`Segment.lost`), which
//! then replace the `DupThresh` rule in [`Scoreboard::is_lost`] and
//! [`Scoreboard::pipe`], and RACK's time-ordered list of the segments it
//! may still mark lost (`time_order.rs`, RFC 8985 §6.2 step 5), kept as
//! the bits change.

use super::time_order::TimeOrder;
use crate::tcp::config::TcpConfig;
use crate::tcp::segment::SackBlock;
use crate::time::SimTime;

/// Bits per word.
const W: u64 = 64;

/// SACK scoreboard over the segments `[una, nxt)`.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    sacked: Vec<u64>,
    rexmit: Vec<u64>,
    /// Capacity in segments minus one (capacity is a power of two).
    mask: u64,
    /// Oldest segment tracked (`snd_una`).
    una: u64,
    /// One past the highest `SACKed` segment, or `una` when none.
    high_sacked_end: u64,
    /// Segments below this that are not `SACKed` are lost (RFC 6675 `IsLost`):
    /// it is the `DupThresh`-th highest `SACKed` segment, or `una` if fewer.
    lost_below: u64,
    dupthresh: u32,
    /// RACK (RFC 8985) marks losses: `lost` and `xmit` are sized and read.
    rack: bool,
    /// RFC 8985 `Segment.lost`, one bit per segment (RACK only).
    lost: Vec<u64>,
    /// RFC 8985 `Segment.xmit_ts`, the most recent transmission of each
    /// segment (RACK only).
    xmit: Vec<SimTime>,
    /// RFC 8985 §6.2 step 5's time-ordered list (RACK only): every
    /// segment in `[una, nxt)` neither `SACKed` nor lost and unsent since,
    /// by (`Segment.xmit_ts`, sequence number).
    order: TimeOrder,
    /// The list must be rebuilt before use: [`Scoreboard::clear`] returned
    /// every outstanding segment to it, and only the sender knows `nxt`.
    order_stale: bool,
    /// Segments in `[una, nxt)` marked lost, not `SACKed` and not
    /// retransmitted since (RACK only; RFC 8985's `INFINITE_TS` segments).
    lost_pending: u64,
    /// How many `SACKed` bits are set (RFC 6937 `SACKd`), kept as they
    /// change.
    sacked_total: u64,
    /// Segments marked lost and not `SACKed` (RACK only): with
    /// `rexmit_unsacked`, [`Scoreboard::pipe`] without a scan.
    lost_unsacked: u64,
    /// Segments retransmitted and not `SACKed`.
    rexmit_unsacked: u64,
}

impl Scoreboard {
    /// A scoreboard for windows of up to `window` segments.
    pub fn new(window: u32, dupthresh: u32) -> Self {
        let mut sb = Scoreboard::empty();
        sb.renew(window, dupthresh);
        sb
    }

    /// [`Scoreboard::renew`] for the largest window `cfg` allows
    /// (`max_window`, `rwnd`), one segment to spare, and its `DupThresh`:
    /// the scoreboard of the SACK recoveries.
    pub fn renew_for_config(&mut self, cfg: &TcpConfig) {
        self.renew(
            cfg.max_window.min(cfg.rwnd).max(1) + 1,
            cfg.dupack_threshold,
        );
        if cfg.rack_tlp.rack {
            self.enable_rack();
        }
    }

    /// Keeps RACK's per-segment state (RFC 8985 §5.2 `Segment.lost` and
    /// `Segment.xmit_ts`) in the ring and lets its loss marks replace the
    /// `DupThresh` rule. Sized once per flow, as the bitsets are.
    pub fn enable_rack(&mut self) {
        let cap = (self.mask + 1) as usize;
        self.rack = true;
        self.lost.clear();
        self.lost.resize(self.sacked.len(), 0);
        self.xmit.clear();
        self.xmit.resize(cap, SimTime::ZERO);
        self.order.resize(cap);
        self.order_stale = false;
        self.lost_pending = 0;
        self.lost_unsacked = 0;
        self.rexmit_unsacked = self
            .rexmit
            .iter()
            .zip(&self.sacked)
            .map(|(r, s)| u64::from((r & !s).count_ones()))
            .sum();
    }

    /// A scoreboard without bitsets, which allocates nothing: only a
    /// stand-in while a plug-in renews its own (`std::mem::replace`);
    /// [`Scoreboard::renew`] sizes it before any use.
    pub(super) const fn empty() -> Self {
        Scoreboard {
            sacked: Vec::new(),
            rexmit: Vec::new(),
            mask: 0,
            una: 0,
            high_sacked_end: 0,
            lost_below: 0,
            dupthresh: 1,
            rack: false,
            lost: Vec::new(),
            xmit: Vec::new(),
            order: TimeOrder::empty(),
            order_stale: false,
            lost_pending: 0,
            sacked_total: 0,
            lost_unsacked: 0,
            rexmit_unsacked: 0,
        }
    }

    /// Resets to exactly the state [`Scoreboard::new`] builds, keeping the
    /// bitsets' allocations when they are large enough (a recycled flow
    /// slot, issue 12: no allocation per flow arrival).
    pub fn renew(&mut self, window: u32, dupthresh: u32) {
        let cap = u64::from(window).max(W).next_power_of_two();
        let words = (cap / W) as usize;
        // Every field, by name: a field added later must be reset here.
        let Scoreboard {
            sacked,
            rexmit,
            mask,
            una,
            high_sacked_end,
            lost_below,
            dupthresh: thresh,
            rack,
            lost,
            xmit,
            order,
            order_stale,
            lost_pending,
            sacked_total,
            lost_unsacked,
            rexmit_unsacked,
        } = self;
        for bits in [sacked, rexmit] {
            bits.clear();
            bits.resize(words, 0);
        }
        *mask = cap - 1;
        *una = 0;
        *high_sacked_end = 0;
        *lost_below = 0;
        *thresh = dupthresh.max(1);
        *rack = false;
        lost.clear();
        xmit.clear();
        order.release();
        *order_stale = false;
        *lost_pending = 0;
        *sacked_total = 0;
        *lost_unsacked = 0;
        *rexmit_unsacked = 0;
    }

    #[inline]
    fn slot(&self, seq: u64) -> (usize, u64) {
        let i = seq & self.mask;
        ((i / W) as usize, 1u64 << (i % W))
    }

    #[inline]
    fn get(v: &[u64], (w, b): (usize, u64)) -> bool {
        v[w] & b != 0
    }

    /// True when `seq` was `SACKed`.
    #[inline]
    pub fn is_sacked(&self, seq: u64) -> bool {
        seq >= self.una && seq < self.high_sacked_end && Self::get(&self.sacked, self.slot(seq))
    }

    /// How many segments in `lo..hi` were `SACKed` (RFC 6675's "SACKed"
    /// octets, counted in segments).
    pub fn sacked_in(&self, lo: u64, hi: u64) -> u64 {
        if lo <= self.una && hi >= self.high_sacked_end {
            // Every SACKed segment lies in [una, high_sacked_end).
            return self.sacked_total;
        }
        (lo..hi.min(self.high_sacked_end))
            .filter(|&s| self.is_sacked(s))
            .count() as u64
    }

    /// RFC 6937 `SACKd`: how many segments at or above `una` are `SACKed`
    /// (the bits below `una` are cleared by [`Scoreboard::advance`], those
    /// at or above `nxt` are never set).
    #[inline]
    pub fn sacked_count(&self) -> u64 {
        self.sacked_total
    }

    /// The first segment in `[lo, hi)` that is not `SACKed`:
    /// `(lo..hi).find(|&s| !self.is_sacked(s))`, a word of the bitset at a
    /// time (RFC 6675 `NextSeg()` rules 1 and 3 look for it).
    pub fn first_unsacked(&self, lo: u64, hi: u64) -> Option<u64> {
        if lo >= hi || lo < self.una {
            // Below una nothing is SACKed.
            return (lo < hi).then_some(lo);
        }
        let top = hi.min(self.una + self.mask + 1);
        let found = self.first_set(lo, top, |w| !self.sacked[w]);
        // At or above una + capacity nothing is SACKed either.
        found.or((top < hi).then_some(top))
    }

    /// The first segment in `[lo, hi)`, within the ring (`una <= lo`,
    /// `hi <= una + capacity`), whose bit in `word(w)` is set: one word of
    /// the ring at a time.
    #[inline]
    fn first_set(&self, lo: u64, hi: u64, word: impl Fn(usize) -> u64) -> Option<u64> {
        let mut s = lo;
        while s < hi {
            let i = s & self.mask;
            let off = i % W;
            let n = (W - off).min(hi - s);
            let range = if n == W { !0 } else { ((1u64 << n) - 1) << off };
            let m = range & word((i / W) as usize);
            if m != 0 {
                return Some(s + u64::from(m.trailing_zeros()) - off);
            }
            s += n;
        }
        None
    }

    /// The first segment in `[lo, hi)` marked lost by RACK, not `SACKed`
    /// and not retransmitted since: `(lo..hi).find(|&s| self.is_lost(s) &&
    /// !self.is_retransmitted(s))` with RACK (RFC 6675 `NextSeg()` rule 1
    /// over RFC 8985's marks), nothing to look for when none is counted,
    /// else a word at a time.
    pub fn first_rack_pending(&self, lo: u64, hi: u64) -> Option<u64> {
        if !self.rack || self.lost_pending == 0 {
            return None;
        }
        let lo = lo.max(self.una);
        let hi = hi.min(self.una + self.mask + 1);
        self.first_set(lo, hi, |w| self.lost[w] & !self.rexmit[w] & !self.sacked[w])
    }

    /// The oldest segment tracked (`snd_una` at the last
    /// [`Scoreboard::advance`]).
    #[inline]
    pub fn una(&self) -> u64 {
        self.una
    }

    /// True when `seq` was retransmitted since it was last sent new.
    #[inline]
    pub fn is_retransmitted(&self, seq: u64) -> bool {
        seq >= self.una && Self::get(&self.rexmit, self.slot(seq))
    }

    /// RFC 6675 `IsLost(seq)`: not `SACKed`, and `DupThresh` segments above it are
    /// `SACKed` (with segment-sized units, the octet rule "(`DupThresh` - 1) *
    /// SMSS + 1 octets" is the same count).
    #[inline]
    pub fn is_lost(&self, seq: u64) -> bool {
        if self.rack {
            // RFC 8985 §6.2 step 5: RACK's mark replaces DupThresh.
            return self.is_rack_lost(seq) && !self.is_sacked(seq);
        }
        seq >= self.una && seq < self.lost_below && !self.is_sacked(seq)
    }

    /// True when RACK is on (the scoreboard keeps transmit times and loss
    /// marks).
    #[inline]
    pub fn rack(&self) -> bool {
        self.rack
    }

    /// RFC 8985 `Segment.lost` (RACK only; false otherwise).
    #[inline]
    pub fn is_rack_lost(&self, seq: u64) -> bool {
        self.rack
            && seq >= self.una
            && seq <= self.una + self.mask
            && Self::get(&self.lost, self.slot(seq))
    }

    /// RFC 8985 `Segment.xmit_ts`: when `seq` was last sent (RACK only).
    #[inline]
    pub fn xmit_ts(&self, seq: u64) -> SimTime {
        self.xmit[(seq & self.mask) as usize]
    }

    /// Records a transmission of `seq` at `now` (RACK only; RFC 8985
    /// §6.1: "record the time of the most recent transmission").
    #[inline]
    pub fn note_xmit(&mut self, seq: u64, now: SimTime) {
        if self.rack && seq >= self.una && seq <= self.una + self.mask {
            let slot = (seq & self.mask) as usize;
            self.xmit[slot] = now;
            // RFC 8985 §6.2 step 5's list: the segment moves to its new
            // place (the tail), if it belongs to the list.
            if !self.order_stale {
                self.order.unlink(slot);
                self.relink(seq);
            }
        }
    }

    /// True when RACK may still mark `seq` lost (a member of the
    /// time-ordered list): tracked, not `SACKed`, and not marked lost
    /// unless retransmitted since (RFC 8985 §6.2 step 5 skips `SACKed`
    /// segments and those with `Segment.xmit_ts = INFINITE_TS`).
    #[inline]
    fn rack_may_mark(&self, seq: u64) -> bool {
        let slot = self.slot(seq);
        seq >= self.una
            && seq <= self.una + self.mask
            && !self.is_sacked(seq)
            && (!Self::get(&self.lost, slot) || Self::get(&self.rexmit, slot))
    }

    /// True when `seq` is marked lost, not `SACKed` and not retransmitted
    /// since (counted in `lost_pending`).
    #[inline]
    fn rack_pending(&self, seq: u64) -> bool {
        let slot = self.slot(seq);
        !self.is_sacked(seq) && Self::get(&self.lost, slot) && !Self::get(&self.rexmit, slot)
    }

    /// Links `seq` (transmitted, not in the list) at its place by
    /// (`Segment.xmit_ts`, sequence number) if it belongs to the list.
    #[inline]
    fn relink(&mut self, seq: u64) {
        if self.rack_may_mark(seq) {
            let (una, mask, xmit) = (self.una, self.mask, &self.xmit);
            self.order.insert((seq & mask) as usize, |s| {
                (xmit[s], una + ((s as u64).wrapping_sub(una) & mask))
            });
        }
    }

    /// The sequence number of ring slot `slot` in `[una, una + cap)`.
    #[inline]
    fn seq_of(&self, slot: usize) -> u64 {
        self.una + ((slot as u64).wrapping_sub(self.una) & self.mask)
    }

    /// Rebuilds RACK's time-ordered list over `[una, nxt)` if
    /// [`Scoreboard::clear`] left it stale (once per retransmission
    /// timeout; no allocation).
    pub fn refresh_time_order(&mut self, nxt: u64) {
        if !self.rack || !self.order_stale {
            return;
        }
        self.order_stale = false;
        let hi = nxt.min(self.una + self.mask + 1);
        // Taken out while the bits are read (`empty` allocates nothing).
        let mut order = std::mem::replace(&mut self.order, TimeOrder::empty());
        let members = (self.una..hi).filter(|&s| self.rack_may_mark(s));
        order.rebuild(members.map(|s| (s & self.mask) as usize), |s| {
            (self.xmit[s], self.seq_of(s))
        });
        self.order = order;
    }

    /// The earliest-sent segment RACK may still mark lost (the head of
    /// RFC 8985 §6.2 step 5's time-ordered list; RACK only, after
    /// [`Scoreboard::refresh_time_order`]).
    #[inline]
    pub fn earliest_sent(&self) -> Option<u64> {
        self.order.head().map(|s| self.seq_of(s))
    }

    /// The latest-sent segment RACK may still mark lost for which
    /// `before(Segment.xmit_ts, seq)` holds: `before` is RFC 8985 §6.2
    /// `RACK_sent_after(RACK.xmit_ts, RACK.end_seq, ...)`, true on a prefix
    /// of the time-ordered list that only grows from call to call (RACK
    /// only, after [`Scoreboard::refresh_time_order`]). O(1) amortised.
    pub fn latest_sent_before(&mut self, before: impl Fn(SimTime, u64) -> bool) -> Option<u64> {
        let (una, mask, xmit) = (self.una, self.mask, &self.xmit);
        let seq_of = |s: usize| una + ((s as u64).wrapping_sub(una) & mask);
        self.order
            .last_before(|s| before(xmit[s], seq_of(s)))
            .map(seq_of)
    }

    /// Segments marked lost by RACK, not `SACKed` and not retransmitted
    /// since (RACK only), kept as the bits change.
    #[inline]
    pub fn rack_lost_pending(&self) -> u64 {
        self.lost_pending
    }

    /// RACK marks `seq` lost (RFC 8985 §6.2 step 5). A lost
    /// retransmission is no longer counted as retransmitted (in flight), so
    /// [`Scoreboard::pipe`] drops it and it may be sent again (Linux
    /// `tcp_mark_skb_lost` clears `TCPCB_SACKED_RETRANS`).
    #[inline]
    pub fn mark_lost(&mut self, seq: u64) {
        if self.rack && seq >= self.una && seq <= self.una + self.mask {
            let was_pending = self.rack_pending(seq);
            let (w, b) = self.slot(seq);
            if self.sacked[w] & b == 0 {
                self.lost_unsacked += u64::from(self.lost[w] & b == 0);
                self.rexmit_unsacked -= u64::from(self.rexmit[w] & b != 0);
            }
            self.lost[w] |= b;
            self.rexmit[w] &= !b;
            // `Segment.xmit_ts = INFINITE_TS`: out of the time-ordered list.
            self.order.unlink((seq & self.mask) as usize);
            if !was_pending && self.rack_pending(seq) {
                self.lost_pending += 1;
            }
        }
    }

    /// One past the highest `SACKed` segment (`una` if none).
    #[inline]
    pub fn high_sacked_end(&self) -> u64 {
        self.high_sacked_end
    }

    /// Segments below `lost_below()` that are not `SACKed` are lost.
    #[inline]
    pub fn lost_below(&self) -> u64 {
        self.lost_below
    }

    /// Forgets segments below `una` (cumulatively acknowledged).
    pub fn advance(&mut self, una: u64) {
        if una <= self.una {
            return;
        }
        if una - self.una > self.mask {
            self.sacked.iter_mut().for_each(|w| *w = 0);
            self.rexmit.iter_mut().for_each(|w| *w = 0);
            self.lost.iter_mut().for_each(|w| *w = 0);
            self.sacked_total = 0;
            self.rexmit_unsacked = 0;
            if self.rack {
                self.order.reset();
                self.lost_pending = 0;
                self.lost_unsacked = 0;
            }
        } else {
            for s in self.una..una {
                let (w, b) = self.slot(s);
                let sacked = self.sacked[w] & b != 0;
                self.sacked_total -= u64::from(sacked);
                if !sacked {
                    self.rexmit_unsacked -= u64::from(self.rexmit[w] & b != 0);
                }
                if self.rack {
                    if self.rack_pending(s) {
                        self.lost_pending -= 1;
                    }
                    if !sacked {
                        self.lost_unsacked -= u64::from(self.lost[w] & b != 0);
                    }
                    self.order.unlink((s & self.mask) as usize);
                }
                self.sacked[w] &= !b;
                self.rexmit[w] &= !b;
                if self.rack {
                    self.lost[w] &= !b;
                }
            }
        }
        self.una = una;
        self.high_sacked_end = self.high_sacked_end.max(una);
        self.lost_below = self.lost_below.max(una);
    }

    /// Records the SACK blocks of one ACK, clipped to `[una, nxt)` (RFC 6675
    /// §5 step (A): update the scoreboard), then recomputes the loss bound.
    /// Returns how many segments were newly `SACKed` (ns-2 compares the
    /// scoreboard's byte total before and after, `ScoreBoardRQ::CheckUpdate`).
    pub fn update(&mut self, blocks: &[SackBlock], nxt: u64) -> u64 {
        let mut added = 0;
        for b in blocks {
            let start = b.start.max(self.una);
            let end = b.end.min(nxt).min(self.una + self.mask + 1);
            // A word of the ring at a time: the cost is the block's words
            // and the segments newly SACKed, not the block's length.
            let mut s = start;
            while s < end {
                let i = s & self.mask;
                let off = i % W;
                let n = (W - off).min(end - s);
                let range = if n == W { !0 } else { ((1u64 << n) - 1) << off };
                let w = (i / W) as usize;
                let new = range & !self.sacked[w];
                if new != 0 {
                    added += u64::from(new.count_ones());
                    self.rexmit_unsacked -= u64::from((self.rexmit[w] & new).count_ones());
                    if self.rack {
                        self.rack_on_sacked(w, new);
                    }
                    self.sacked[w] |= new;
                }
                s += n;
            }
            if end > start {
                self.high_sacked_end = self.high_sacked_end.max(end);
            }
        }
        self.sacked_total += added;
        self.recompute_lost();
        added
    }

    /// The segments of word `w` whose bits are set in `new` are newly
    /// `SACKed`: they leave RACK's list and counts.
    fn rack_on_sacked(&mut self, w: usize, new: u64) {
        let (lost, rexmit) = (self.lost[w] & new, self.rexmit[w] & new);
        self.lost_pending -= u64::from((lost & !rexmit).count_ones());
        self.lost_unsacked -= u64::from(lost.count_ones());
        let mut m = new;
        while m != 0 {
            self.order
                .unlink(w * W as usize + m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }

    /// Scans down from the highest `SACKed` segment for the `DupThresh`-th
    /// `SACKed` one.
    fn recompute_lost(&mut self) {
        let mut count = 0;
        let mut s = self.high_sacked_end;
        self.lost_below = self.una;
        while s > self.una {
            s -= 1;
            if Self::get(&self.sacked, self.slot(s)) {
                count += 1;
                if count == self.dupthresh {
                    self.lost_below = s;
                    return;
                }
            }
        }
    }

    /// Marks `seq` as retransmitted.
    pub fn mark_retransmitted(&mut self, seq: u64) {
        if seq >= self.una && seq <= self.una + self.mask {
            let was_pending = self.rack && self.rack_pending(seq);
            let (w, b) = self.slot(seq);
            if self.sacked[w] & b == 0 && self.rexmit[w] & b == 0 {
                self.rexmit_unsacked += 1;
            }
            self.rexmit[w] |= b;
            if was_pending {
                // Sent again: back in RACK's list, at the tail.
                self.lost_pending -= 1;
                if !self.order_stale {
                    self.relink(seq);
                }
            }
        }
    }

    /// RFC 6675 `SetPipe()`: over `[una, nxt)`, each segment not `SACKed` counts
    /// once unless `IsLost`, and once more if it was retransmitted.
    pub fn pipe(&self, nxt: u64) -> u64 {
        if self.rack && nxt >= self.high_sacked_end {
            // With RACK's marks, from the counts: over [una, nxt) every
            // segment not SACKed counts once unless marked lost, once more
            // if retransmitted (every mark lies in [una, nxt)).
            return (nxt - self.una) - self.sacked_total - self.lost_unsacked
                + self.rexmit_unsacked;
        }
        if !self.rack && nxt >= self.high_sacked_end && nxt >= self.lost_below {
            // With `IsLost`, from the counts: the segments not SACKed in
            // [lost_below, nxt) count once, every retransmitted one not
            // SACKed once more. Above `lost_below` lie exactly `DupThresh`
            // SACKed segments when it is above `una` (`recompute_lost`; an
            // ACK below it keeps them), all of them when it is `una`.
            let sacked_above = if self.lost_below == self.una {
                self.sacked_total
            } else {
                u64::from(self.dupthresh)
            };
            return (nxt - self.lost_below) - sacked_above + self.rexmit_unsacked;
        }
        let mut pipe = 0;
        for s in self.una..nxt {
            let slot = self.slot(s);
            if s < self.high_sacked_end && Self::get(&self.sacked, slot) {
                continue;
            }
            let lost = if self.rack {
                Self::get(&self.lost, slot)
            } else {
                s < self.lost_below
            };
            if !lost {
                pipe += 1;
            }
            if Self::get(&self.rexmit, slot) {
                pipe += 1;
            }
        }
        pipe
    }

    /// Clears every `SACKed` and retransmitted mark (RFC 2018 §8: after a
    /// retransmit timeout the sender turns off all `SACKed` bits).
    pub fn clear(&mut self) {
        self.sacked.iter_mut().for_each(|w| *w = 0);
        self.rexmit.iter_mut().for_each(|w| *w = 0);
        self.lost.iter_mut().for_each(|w| *w = 0);
        self.high_sacked_end = self.una;
        self.lost_below = self.una;
        self.sacked_total = 0;
        self.rexmit_unsacked = 0;
        if self.rack {
            // Every outstanding segment is back in RACK's list, with its
            // old transmit time: rebuilt when RACK next needs it.
            self.order.reset();
            self.order_stale = true;
            self.lost_pending = 0;
            self.lost_unsacked = 0;
        }
    }

    /// Checks RACK's list and count against the bits over `[una, nxt)`
    /// (tests).
    #[cfg(test)]
    pub(super) fn check_time_order(&mut self, nxt: u64) {
        self.refresh_time_order(nxt);
        let mut want: Vec<u64> = (self.una..nxt).filter(|&s| self.rack_may_mark(s)).collect();
        want.sort_by_key(|&s| (self.xmit_ts(s), s));
        let got: Vec<u64> = self
            .order
            .slots()
            .into_iter()
            .map(|s| self.seq_of(s))
            .collect();
        assert_eq!(got, want, "time-ordered list");
        let pending = (self.una..nxt).filter(|&s| self.rack_pending(s)).count() as u64;
        assert_eq!(self.lost_pending, pending, "lost and unsent");
        let count = |f: &dyn Fn(u64) -> bool| (self.una..nxt).filter(|&s| f(s)).count() as u64;
        assert_eq!(self.sacked_total, count(&|s| self.is_sacked(s)), "SACKed");
        let unsacked = |v: &Vec<u64>, s: u64| !self.is_sacked(s) && Self::get(v, self.slot(s));
        assert_eq!(
            self.lost_unsacked,
            count(&|s| unsacked(&self.lost, s)),
            "lost"
        );
        assert_eq!(
            self.rexmit_unsacked,
            count(&|s| unsacked(&self.rexmit, s)),
            "rexmit"
        );
        let by_scan: u64 = (self.una..nxt)
            .filter(|&s| !self.is_sacked(s))
            .map(|s| {
                u64::from(!Self::get(&self.lost, self.slot(s)))
                    + u64::from(Self::get(&self.rexmit, self.slot(s)))
            })
            .sum();
        assert_eq!(self.pipe(nxt), by_scan, "pipe");
        let mid = u64::midpoint(self.una, nxt);
        for from in [
            self.una.saturating_sub(1),
            self.una,
            mid,
            nxt.saturating_sub(1),
            nxt + 1,
        ] {
            let want = (from..nxt).find(|&s| self.is_lost(s) && !self.is_retransmitted(s));
            assert_eq!(
                self.first_rack_pending(from, nxt),
                want,
                "first lost from {from}"
            );
            let want = (from..=nxt).find(|&s| !self.is_sacked(s));
            assert_eq!(
                self.first_unsacked(from, nxt + 1),
                want,
                "first unSACKed from {from}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blk(start: u64, end: u64) -> SackBlock {
        SackBlock { start, end }
    }

    #[test]
    fn is_lost_needs_dupthresh_sacked_above() {
        let mut sb = Scoreboard::new(20, 3);
        sb.advance(10);
        sb.update(&[blk(11, 13)], 20);
        assert!(!sb.is_lost(10), "only 2 SACKed above");
        sb.update(&[blk(11, 14)], 20);
        assert!(sb.is_lost(10));
        assert!(!sb.is_lost(11), "SACKed is never lost");
        assert!(!sb.is_lost(14));
        // pipe over [10, 20): 10 lost (0), 11-13 SACKed, 14..20 = 6 in flight.
        assert_eq!(sb.pipe(20), 6);
        sb.mark_retransmitted(10);
        assert_eq!(sb.pipe(20), 7);
    }

    /// The counts and word-at-a-time searches equal the per-segment
    /// definitions over a random script of SACK blocks, cumulative ACKs,
    /// retransmissions and clearings, in a ring that wraps.
    #[test]
    fn counts_and_searches_equal_the_scans() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n.max(1)
        };
        for (window, dupthresh) in [(5u32, 3), (64, 1), (100, 3), (300, 5), (300, 3)] {
            let mut sb = Scoreboard::new(window, dupthresh);
            let (mut una, mut nxt) = (0u64, 0u64);
            for _ in 0..4000 {
                nxt = (nxt + rnd(8)).min(una + u64::from(window));
                match rnd(6) {
                    0 => {
                        una += rnd(nxt - una + 1);
                        sb.advance(una);
                    }
                    1 if nxt > una => sb.mark_retransmitted(una + rnd(nxt - una)),
                    2 if rnd(30) == 0 => sb.clear(),
                    _ if nxt > una => {
                        let start = una + rnd(nxt - una);
                        let end = start + 1 + rnd(150);
                        let before = sb.sacked_in(una, nxt);
                        let added = sb.update(&[blk(start, end)], nxt);
                        let want =
                            (start..end.min(nxt)).filter(|&s| sb.is_sacked(s)).count() as u64;
                        assert!(added <= want && sb.sacked_in(una, nxt) == before + added);
                    }
                    _ => {}
                }
                let scan = (una..nxt).filter(|&s| sb.is_sacked(s)).count() as u64;
                assert_eq!(sb.sacked_count(), scan);
                let pipe: u64 = (una..nxt)
                    .filter(|&s| !sb.is_sacked(s))
                    .map(|s| u64::from(!sb.is_lost(s)) + u64::from(sb.is_retransmitted(s)))
                    .sum();
                assert_eq!(sb.pipe(nxt), pipe, "pipe");
                assert_eq!(sb.sacked_in(una, nxt), scan);
                for from in [una.saturating_sub(1), una, u64::midpoint(una, nxt), nxt] {
                    for to in [nxt, sb.high_sacked_end(), nxt + 70] {
                        let want = (from..to).find(|&s| !sb.is_sacked(s));
                        assert_eq!(sb.first_unsacked(from, to), want, "[{from}, {to})");
                    }
                }
            }
        }
    }

    #[test]
    fn ring_wraps_and_advance_clears() {
        let mut sb = Scoreboard::new(64, 3);
        sb.advance(60);
        sb.update(&[blk(100, 124)], 124);
        assert!(sb.is_sacked(100) && sb.is_sacked(123) && !sb.is_sacked(99));
        sb.advance(124);
        assert!(!sb.is_sacked(164 - 64));
        assert_eq!(sb.pipe(124), 0);
        sb.update(&[blk(130, 131)], 140);
        assert!(sb.is_sacked(130) && !sb.is_sacked(194));
        sb.clear();
        assert!(!sb.is_sacked(130));
    }
}

//! The sender's GSO packets (`[tcp.gso]`, the `linux` profile): how Linux
//! 6.18 cuts new data into packets and marks PSH, and when it holds a packet
//! back (`net/ipv4/tcp_output.c`).
//!
//! - **Write-queue skbs.** New data is queued in skbs of `tcp_tso_autosize`
//!   segments (`tcp/small_queue.rs` [`tso_segs`]: two on a 20 Mbit/s path
//!   with a 110 ms RTT, as measured through `obsim emulate`).
//! - **Packets.** `tcp_write_xmit` first grows a head skb smaller than the
//!   cwnd quota with the next skb's data (`tcp_grow_skb`, Linux 6.10+), then
//!   sends it as one GSO packet of as many of its segments as the window lets
//!   out (`tcp_mss_split_point`); the rest stays at the head.
//! - **PSH.** `tso_fragment` leaves PSH on the second part only ("PSH and FIN
//!   should only be set in the second packet"): a packet of two or more
//!   segments ends with PSH, the first part of a split never has it. Through
//!   `obsim emulate` every one of 2 728 two- to four-segment packets ended
//!   with PSH and 1 757 one-segment packets mostly did not (docs/VALIDATION.md
//!   "L1" section 8); obsim marks none of them.
//! - **Deferral** (`tcp_tso_should_defer`): in the Open state, when the
//!   window lets out only part of the head skb, the last transmission was
//!   under 1 ms ago, the room is under the autosize goal and under
//!   1/`tso_win_divisor` of min(cwnd, rwnd), and the ACK of the oldest
//!   segment out is due (its send time plus SRTT) within min(1 ms, SRTT/2)
//!   (6.18's "fix tcp_tso_should_defer() vs large RTT"), nothing is sent: the
//!   next ACK lets the packet go whole.
//!
//! Where obsim departs (docs/MODEL.md "GSO packets"): segments still leave
//! one by one (a packet's segments are consecutive transmissions at the same
//! instant); retransmissions are single segments without PSH (the kernel
//! resent 40 two-segment packets with PSH and 289 single ones without);
//! outside the Open state new data goes one segment per packet; the oldest
//! segment's send time is the time obsim last sent that segment, where Linux
//! reads the head skb's.

use std::collections::VecDeque;

use crate::tcp::config::{GsoConfig, PacingConfig, SmallQueuesConfig, TcpConfig};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::small_queue::{rate_share, tso_segs};
use crate::time::{SimDuration, SimTime};

/// `tcp_tso_should_defer`'s "the last write was recent" window: 1 ms
/// (`delta = tcp_clock_cache - tcp_wstamp_ns - NSEC_PER_MSEC; if (delta >
/// 0) goto send_now;`, so 1 ms itself is recent).
const RECENT: SimDuration = SimDuration::from_millis(1);

/// One sender's GSO state.
#[derive(Clone, Debug)]
pub struct Gso {
    cfg: GsoConfig,
    small_queues: SmallQueuesConfig,
    pacing: PacingConfig,
    /// Segments left in the head skb not yet sent (0: the next new segment
    /// starts a new skb).
    skb_left: u64,
    /// Segments left in the skb after the head when `tcp_grow_skb` took
    /// part of it (0: a whole new skb).
    next_left: u64,
    /// Segments of the packet being sent still to go, and its size.
    pkt_left: u64,
    pkt_len: u64,
    /// `tp->tcp_wstamp_ns`: the last data transmission.
    last_tx: Option<SimTime>,
    /// Last transmission time of each segment from `base` on (the segments
    /// out, oldest first).
    sent: VecDeque<SimTime>,
    base: u64,
    /// Send attempts deferred.
    deferrals: u64,
}

impl Gso {
    /// The state of a new sender with `cfg.gso`.
    pub fn new(cfg: &TcpConfig) -> Self {
        Gso {
            cfg: cfg.gso,
            small_queues: cfg.small_queues,
            pacing: cfg.pacing,
            skb_left: 0,
            next_left: 0,
            pkt_left: 0,
            pkt_len: 0,
            last_tx: None,
            sent: VecDeque::new(),
            base: 0,
            deferrals: 0,
        }
    }

    /// Makes this what [`Gso::new`]`(cfg)` builds, keeping the allocation
    /// (a recycled flow slot, issue 12).
    pub fn renew(&mut self, cfg: &TcpConfig) {
        let sent = std::mem::take(&mut self.sent);
        *self = Gso::new(cfg);
        self.sent = sent;
        self.sent.clear();
    }

    /// True when GSO packets are on.
    #[inline]
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.cfg.enabled
    }

    /// Send attempts deferred so far.
    #[must_use]
    pub fn deferrals(&self) -> u64 {
        self.deferrals
    }

    /// The size of a new skb now (`tcp_tso_autosize` at the pacing rate).
    fn goal(&self, cb: &ControlBlock, mss: u32) -> u64 {
        let share = rate_share(&self.small_queues, &self.pacing, cb, mss);
        tso_segs(&self.small_queues, share, cb, mss)
    }

    /// Records a transmission of segment `seq` at `now`.
    pub fn on_transmit(&mut self, now: SimTime, seq: u64, snd_una: u64) {
        self.last_tx = Some(now);
        while self.base < snd_una && !self.sent.is_empty() {
            self.sent.pop_front();
            self.base += 1;
        }
        if self.sent.is_empty() {
            self.base = self.base.max(snd_una);
        }
        if seq < self.base {
            return;
        }
        let i = usize::try_from(seq - self.base).unwrap_or(usize::MAX);
        while self.sent.len() <= i {
            self.sent.push_back(now);
        }
        self.sent[i] = now;
    }

    /// When the oldest segment out was last sent.
    fn head_sent_at(&self, snd_una: u64) -> Option<SimTime> {
        let i = usize::try_from(snd_una.checked_sub(self.base)?).ok()?;
        self.sent.get(i).copied()
    }

    /// Room in segments the congestion window and the send window leave.
    fn rooms(cb: &ControlBlock) -> (u64, u64) {
        let out = cb.tx_next - cb.snd_una;
        let cwnd = cb.cwnd.floor() as u64 + cb.limited_transmit_allowance();
        (
            cwnd.saturating_sub(out),
            cb.window_cap().saturating_sub(out),
        )
    }

    /// The head skb's unsent segments as `tcp_write_xmit` sees it before
    /// sending: formed if none is (the rest of an skb `tcp_grow_skb` took
    /// from, else `goal` segments), then grown by `tcp_grow_skb` (Linux
    /// 6.10+: "First skb in the write queue is smaller than ideal packet
    /// size. Check if we can move payload from the second skb in the
    /// queue.") to min(cwnd quota, `goal`) segments from the next skb, at
    /// most all of it.
    fn head_skb(&mut self, cb: &ControlBlock, goal: u64) -> u64 {
        let remaining = cb.end_seq.saturating_sub(cb.tx_next);
        if self.skb_left == 0 {
            let size = if self.next_left > 0 {
                std::mem::take(&mut self.next_left)
            } else {
                goal
            };
            self.skb_left = size.min(remaining).max(1);
        }
        let quota = Self::rooms(cb).0.min(goal);
        if self.skb_left < quota && self.skb_left < remaining {
            let next = if self.next_left > 0 {
                self.next_left
            } else {
                goal.min(remaining - self.skb_left)
            };
            let n = (quota - self.skb_left).min(next);
            self.skb_left += n;
            self.next_left = next - n;
        }
        self.skb_left
    }

    /// `tcp_tso_should_defer` before new data goes at `now`: true holds
    /// the head skb back until the next ACK.
    pub fn should_defer(&mut self, now: SimTime, cb: &ControlBlock, mss: u32) -> bool {
        if !self.cfg.defer || self.pkt_left > 0 || cb.state != CaState::Open {
            return false;
        }
        let goal = self.goal(cb, mss);
        let remaining = cb.end_seq.saturating_sub(cb.tx_next);
        let skb = self.head_skb(cb, goal);
        // A one-segment skb always fits whatever room there is.
        if skb <= 1 {
            return false;
        }
        // "Avoid bursty behavior by allowing defer only if the last write
        // was recent (1 ms)."
        if self
            .last_tx
            .is_none_or(|t| now.saturating_since(t) > RECENT)
        {
            return false;
        }
        let (cong, send) = Self::rooms(cb);
        if cong == 0 || send == 0 {
            return false;
        }
        let limit = cong.min(send);
        // "If a full-sized TSO skb can be sent, do it."
        if limit >= goal {
            return false;
        }
        // The skb is the last of the data ("FIN"): no deferral once it fits.
        let tail = remaining <= skb;
        if !tail && limit >= skb {
            return false;
        }
        // "If at least some fraction of a window is available, just use
        // it": chunk = min(snd_wnd, cwnd) / tcp_tso_win_divisor.
        let chunk = (cb.window_cap() as f64).min(cb.cwnd.floor())
            / f64::from(self.cfg.tso_win_divisor.max(1));
        if limit as f64 >= chunk {
            return false;
        }
        // "If next ACK is likely to come too late (half srtt), do not
        // defer", with 6.18's min(srtt/2, 1 ms).
        let (Some(srtt), Some(head)) = (cb.srtt, self.head_sent_at(cb.snd_una)) else {
            return false;
        };
        let expected = head + srtt;
        let threshold = SimDuration::from_nanos(srtt.as_nanos() / 2).min(RECENT);
        if expected > now && expected.saturating_since(now) > threshold {
            return false;
        }
        // "Ok, it looks like it is advisable to defer", unless the skb
        // fits the smaller room and is the last one.
        let fits = if cong < send { cong > skb } else { send > skb };
        if tail && fits {
            return false;
        }
        self.deferrals += 1;
        true
    }

    /// A new-data segment goes now (the sender outside the Open state when
    /// `recovering`); returns its PSH: true on the last segment of a packet
    /// of two or more.
    pub fn new_segment(&mut self, cb: &ControlBlock, mss: u32, recovering: bool) -> bool {
        if self.pkt_left == 0 {
            let goal = self.goal(cb, mss);
            self.head_skb(cb, goal);
            let room = if recovering {
                1
            } else {
                let (cong, send) = Self::rooms(cb);
                cong.min(send).max(1)
            };
            let k = self.skb_left.min(room).min(goal).max(1);
            self.pkt_len = k;
            self.pkt_left = k;
        }
        self.pkt_left -= 1;
        self.skb_left = self.skb_left.saturating_sub(1);
        self.pkt_left == 0 && self.pkt_len >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::profile::profile;

    /// A linux-profile control block in congestion avoidance: cwnd, SRTT
    /// 110 ms, `out` segments out from 100.
    fn cb(cwnd: f64, out: u64) -> (TcpConfig, ControlBlock) {
        let mut cfg = profile("linux").unwrap();
        cfg.gso = GsoConfig::LINUX;
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.cwnd = cwnd;
        cb.ssthresh = cwnd;
        cb.snd_una = 100;
        cb.snd_nxt = 100 + out;
        cb.tx_next = 100 + out;
        cb.srtt = Some(SimDuration::from_millis(110));
        cb.rtt_min = Some(SimDuration::from_millis(110));
        (cfg, cb)
    }

    fn ms(t: u64) -> SimTime {
        SimTime(t * 1_000_000)
    }

    #[test]
    fn pairs_end_with_psh_and_a_split_leaves_its_remainder_at_the_head() {
        // cwnd 20 at 110 ms: a pacing rate of 1.2 × 20 × 1448 B / 0.11 s =
        // 316 KB/s, 308 B a ms: under the two-segment minimum.
        let (cfg, mut c) = cb(20.0, 17);
        let mut g = Gso::new(&cfg);
        assert_eq!(g.goal(&c, 1448), 2);
        // Room 3: a pair (PSH on its second segment)...
        assert!(!g.new_segment(&c, 1448, false));
        c.tx_next += 1;
        assert!(g.new_segment(&c, 1448, false));
        c.tx_next += 1;
        // ...then room 1: the next skb's first segment alone, no PSH; its
        // remainder stays at the head and goes alone with the next ACK,
        // also without PSH.
        assert!(!g.new_segment(&c, 1448, false));
        c.tx_next += 1;
        c.snd_una += 1;
        assert!(!g.new_segment(&c, 1448, false));
        assert_eq!(g.skb_left, 0);
    }

    #[test]
    fn a_remainder_grows_with_the_next_skbs_data() {
        // Room 1 splits a two-segment skb; with room 2 the remainder takes
        // one segment of the next skb (`tcp_grow_skb`) and leaves as a pair
        // ending with PSH; the next skb keeps its other segment, which grows
        // in turn when room allows.
        let (cfg, mut c) = cb(20.0, 19);
        let mut g = Gso::new(&cfg);
        assert!(!g.new_segment(&c, 1448, false));
        c.tx_next += 1;
        c.snd_una += 2; // an ACK of two: room 2
        assert!(!g.new_segment(&c, 1448, false));
        c.tx_next += 1;
        assert!(g.new_segment(&c, 1448, false));
        c.tx_next += 1;
        assert_eq!((g.skb_left, g.next_left), (0, 1));
        c.snd_una += 2;
        assert!(!g.new_segment(&c, 1448, false));
        c.tx_next += 1;
        assert!(g.new_segment(&c, 1448, false));
        assert_eq!((g.skb_left, g.next_left), (0, 1));
    }

    #[test]
    fn defers_a_split_when_the_oldest_ack_is_due() {
        let (cfg, mut c) = cb(20.0, 19);
        let mut g = Gso::new(&cfg);
        // The oldest segment out (100) left at 0 ms; now 109.5 ms, its ACK
        // due at 110 ms (within min(1 ms, 55 ms)); the last transmission
        // 0.5 ms ago; room 1 of a two-segment skb, under 20 / 3.
        g.on_transmit(ms(0), 100, 100);
        for s in 101..119 {
            g.on_transmit(ms(50), s, 100);
        }
        let now = SimTime(109_500_000);
        g.on_transmit(SimTime(109_000_000), 118, 100);
        assert!(g.should_defer(now, &c, 1448));
        assert_eq!(g.deferrals(), 1);
        // The ACK not due yet (oldest sent at 5 ms): no deferral.
        let mut g2 = Gso::new(&cfg);
        g2.on_transmit(ms(5), 100, 100);
        g2.on_transmit(SimTime(109_000_000), 118, 100);
        assert!(!g2.should_defer(now, &c, 1448));
        // Room for the whole skb: no deferral.
        c.tx_next -= 1;
        assert!(!g.should_defer(now, &c, 1448));
        // Not in the Open state, or switched off: no deferral.
        c.tx_next += 1;
        c.state = CaState::Recovery;
        assert!(!g.should_defer(now, &c, 1448));
        c.state = CaState::Open;
        let mut off = cfg.clone();
        off.gso.defer = false;
        let mut g3 = Gso::new(&off);
        g3.on_transmit(ms(0), 100, 100);
        g3.on_transmit(SimTime(109_000_000), 118, 100);
        assert!(!g3.should_defer(now, &c, 1448));
    }

    #[test]
    fn no_deferral_after_a_silence_or_with_a_third_of_the_window() {
        let (cfg, c) = cb(20.0, 19);
        let mut g = Gso::new(&cfg);
        g.on_transmit(ms(0), 100, 100);
        // The last transmission 2 ms ago.
        g.on_transmit(SimTime(107_500_000), 118, 100);
        assert!(!g.should_defer(SimTime(109_500_000), &c, 1448));
        // cwnd 2 with one out: room 1 is half the window, over 2 / 3.
        let (cfg2, c2) = cb(2.0, 1);
        let mut g2 = Gso::new(&cfg2);
        g2.on_transmit(ms(0), 100, 100);
        g2.on_transmit(SimTime(109_000_000), 100, 100);
        assert!(!g2.should_defer(SimTime(109_500_000), &c2, 1448));
    }
}

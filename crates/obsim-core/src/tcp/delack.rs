//! When Linux's receiver sends the ACKs it does not send at once: the
//! adaptive delayed-ACK timeout (`[tcp.ato]`) and SACK compression
//! (`[tcp.sack_compression]`). Linux 6.18, function by function:
//!
//! - **`ato`**, on the jiffies clock (`CONFIG_HZ`): `tcp_event_data_recv`
//!   starts it at `TCP_ATO_MIN` (HZ/25) with the first data segment and
//!   moves it with the gap `m` since the last in-order segment ("The
//!   fastest case is the first": `m <= TCP_ATO_MIN / 2` gives `ato / 2 +
//!   TCP_ATO_MIN / 2`; `m < ato` gives `ato / 2 + m`, at most the
//!   receiver's `icsk_rto`); `tcp_send_delayed_ack` bounds it, once above
//!   `TCP_DELACK_MIN`, by HZ/2 (`TCP_DELACK_MAX` with `ICSK_ACK_PUSHED`)
//!   and by the receiver's SRTT (at least `TCP_DELACK_MIN`), then by
//!   `tcp_delack_max` (min(`TCP_DELACK_MAX`, `tcp_rto_min` − 1)), arms the
//!   timer at `jiffies + ato` unless an earlier one is pending, and sends
//!   at once if the pending one is due within `ato / 4`;
//!   `tcp_delack_timer_handler` doubles `ato` (at most `icsk_rto`) each
//!   time the timer sends the ACK ("Delayed ACK missed: inflate ATO").
//! - **SACK compression** (`__tcp_ack_snd_check`): with SACK and data
//!   above a hole, the first `TCP_FASTRETRANS_THRESH` (3) duplicate ACKs
//!   for one `rcv_nxt` go at once; later ones are counted
//!   (`compressed_ack`) and one ACK goes when the `compressed_ack_timer`
//!   fires, min(`tcp_comp_sack_delay_ns`, RTT / 20) after the first
//!   (RTT: the receiver's `rcv_rtt_est`, or its SRTT when smaller), when
//!   `tcp_comp_sack_nr` are pending, when any other ACK goes
//!   (`tcp_event_ack_sent` clears them), or before a new out-of-order
//!   segment lands outside the first `TCP_SACK_BLOCKS_EXPECTED` (2) SACK
//!   blocks (`tcp_sack_new_ofo_skb` -> `tcp_sack_compress_send_ack`).
//!
//! Where obsim departs (docs/MODEL.md "The receiver's ACK timing"): the
//! jiffies clock starts at a tick at time 0; the compressed-ACK timer fires
//! at its delay exactly (the kernel's hrtimer may fire up to
//! `tcp_comp_sack_slack_ns`, 100 µs, later); the receiver never sends data,
//! so ping-pong mode never starts; its SRTT and RTO are those of its first
//! RTT sample (`[tcp.rcvbuf]`), standing for the handshake's.

use crate::tcp::config::SackCompressionConfig;
use crate::tcp::jiffies::Jiffies;
use crate::time::{SimDuration, SimTime};

/// `TCP_FASTRETRANS_THRESH`: duplicate ACKs per `rcv_nxt` sent before
/// compression starts.
const FASTRETRANS_THRESH: u32 = 3;

/// `TCP_SACK_BLOCKS_EXPECTED`: a new out-of-order segment outside this
/// many most recent SACK blocks sends the compressed ACK first.
pub const SACK_BLOCKS_EXPECTED: usize = 2;

/// `TCP_RTO_MIN` (200 ms) in µs: `tcp_rto_min`, which bounds
/// `tcp_delack_max`.
const RTO_MIN_US: u64 = 200_000;

/// Linux's adaptive delayed-ACK timeout of one receiver, in jiffies.
#[derive(Clone, Debug)]
pub struct Ato {
    clock: Jiffies,
    /// `icsk_ack.ato`: 0 before the first data segment.
    timeout: u64,
    /// `icsk_ack.lrcvtime`: the jiffy of the last in-order data segment.
    lrcv: u64,
}

impl Ato {
    /// The state before any data (`ato` 0), on a clock of `hz` jiffies a
    /// second (`tcp.hz`).
    #[must_use]
    pub fn new(hz: u32) -> Self {
        Ato {
            clock: Jiffies::new(hz),
            timeout: 0,
            lrcv: 0,
        }
    }

    /// `TCP_ATO_MIN` and `TCP_DELACK_MIN` (HZ/25, 40 ms).
    fn ato_min(&self) -> u64 {
        (self.clock.hz() / 25).max(1)
    }

    /// The current `icsk_ack.ato` in jiffies (0 before the first data).
    #[must_use]
    pub fn ato_jiffies(&self) -> u64 {
        self.timeout
    }

    /// `tcp_event_data_recv`'s estimator, for an in-order data segment at
    /// `now`; `rto_us` is the receiver's `icsk_rto`.
    pub fn on_data(&mut self, now: SimTime, rto_us: Option<u64>) {
        let now_j = self.clock.at(now);
        let min = self.ato_min();
        if self.timeout == 0 {
            // "The _first_ data packet received, initialize delayed ACK
            // engine."
            self.timeout = min;
        } else {
            let m = now_j.saturating_sub(self.lrcv);
            let rto = rto_us.map(|us| self.clock.from_us(us));
            if m <= min / 2 {
                // "The fastest case is the first."
                self.timeout = (self.timeout >> 1) + min / 2;
            } else if m < self.timeout {
                self.timeout = (self.timeout >> 1) + m;
                if let Some(rto) = rto {
                    self.timeout = self.timeout.min(rto);
                }
            }
            // m > icsk_rto: quick ACKs ([tcp.rcvbuf]'s silence rule).
        }
        self.lrcv = now_j;
    }

    /// `tcp_send_delayed_ack` at `now`, with the delayed-ACK timer
    /// `pending` (its expiry) or not: `None` sends the ACK now (the pending
    /// timer is due within `ato / 4`), else the timer's new expiry, which is
    /// never later than a pending one. `pushed`: `ICSK_ACK_PUSHED` is set;
    /// `srtt_us`: the receiver's SRTT.
    #[must_use]
    pub fn delayed_ack_at(
        &self,
        now: SimTime,
        pending: Option<SimTime>,
        pushed: bool,
        srtt_us: Option<u64>,
    ) -> Option<SimTime> {
        let min = self.ato_min();
        let delack_max = (self.clock.hz() / 5).max(1);
        let mut ato = self.timeout.max(min);
        if ato > min {
            // "Slow path, intersegment interval is "high"."
            let mut max_ato = if pushed {
                delack_max
            } else {
                self.clock.hz() / 2
            };
            if let Some(s) = srtt_us {
                let rtt = self.clock.from_us(s).max(min);
                max_ato = max_ato.min(rtt);
            }
            ato = ato.min(max_ato);
        }
        // tcp_delack_max: min(icsk_delack_max, max(tcp_rto_min, 2) - 1).
        let from_rto_min = self.clock.from_us(RTO_MIN_US).max(2) - 1;
        ato = ato.min(delack_max.min(from_rto_min));
        let now_j = self.clock.at(now);
        let mut timeout = now_j + ato;
        if let Some(p) = pending {
            // `icsk_ack.timeout` of the pending timer: the jiffy before
            // the tick it fires at (below).
            let p_j = self.clock.at(p).saturating_sub(1);
            // "If delack timer is about to expire, send ACK now."
            if p_j <= now_j + (ato >> 2) {
                return None;
            }
            timeout = timeout.min(p_j);
        }
        // `sk_reset_timer(..., timeout)` fires one tick after `timeout`:
        // the timer wheel's `calc_index` rounds every expiry up by the
        // level's granularity, a jiffy at level 0 ("The timer wheel has to
        // guarantee that a timer does not fire early ... Timer is armed at
        // the edge of a tick"), so a 10-jiffy `ato` waits 40-44 ms after
        // the segment, as the kernel's timer ACKs do through `obsim
        // emulate` (docs/VALIDATION.md "L1" section 13).
        Some(self.clock.start(timeout + 1))
    }

    /// `tcp_delack_timer_handler` sent the delayed ACK: "Delayed ACK
    /// missed: inflate ATO", at most the receiver's `icsk_rto`.
    pub fn on_timer_ack(&mut self, rto_us: Option<u64>) {
        let doubled = self.timeout << 1;
        self.timeout = match rto_us {
            Some(us) => doubled.min(self.clock.from_us(us)),
            None => doubled,
        };
    }
}

/// The boxed receive-side timing state of one receiver: what `[tcp.ato]`
/// and `[tcp.sack_compression]` turn on.
#[derive(Clone, Debug)]
pub struct AckTiming {
    /// `[tcp.ato]`.
    pub ato: Option<Ato>,
    /// `[tcp.sack_compression]`, with SACK.
    pub compress: Option<SackCompression>,
}

/// What [`SackCompression::on_dupack`] decides for a duplicate ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compress {
    /// Send it now.
    Now,
    /// Held; the compressed ACK goes at the timer's expiry (unchanged if it
    /// was already running).
    Hold(SimTime),
}

/// Linux's SACK compression state of one receiver.
#[derive(Clone, Debug)]
pub struct SackCompression {
    delay: SimDuration,
    nr: u32,
    /// `tp->compressed_ack`: duplicate ACKs held.
    held: u32,
    /// `tp->compressed_ack_rcv_nxt` and `tp->dup_ack_counter`.
    rcv_nxt: u64,
    dupacks: u32,
    /// The `compressed_ack_timer`'s expiry while it runs.
    deadline: Option<SimTime>,
}

impl SackCompression {
    /// No ACK held.
    #[must_use]
    pub fn new(cfg: &SackCompressionConfig) -> Self {
        SackCompression {
            delay: cfg.delay,
            nr: cfg.nr,
            held: 0,
            rcv_nxt: u64::MAX,
            dupacks: 0,
            deadline: None,
        }
    }

    /// `__tcp_ack_snd_check`'s branch for an ACK with data above a hole
    /// (SACK on, not in quick-ACK mode) at `now`, `rcv_nxt` the cumulative
    /// ACK; `rtt_us` the receiver's RTT estimate and `srtt_us` its SRTT.
    pub fn on_dupack(
        &mut self,
        now: SimTime,
        rcv_nxt: u64,
        rtt_us: u64,
        srtt_us: Option<u64>,
    ) -> Compress {
        if self.held >= self.nr {
            return Compress::Now;
        }
        if self.rcv_nxt != rcv_nxt {
            self.rcv_nxt = rcv_nxt;
            self.dupacks = 0;
        }
        if self.dupacks < FASTRETRANS_THRESH {
            self.dupacks += 1;
            return Compress::Now;
        }
        self.held += 1;
        if let Some(d) = self.deadline {
            return Compress::Hold(d);
        }
        // "compress ack timer : 5 % of rtt, but no more than
        // tcp_comp_sack_delay_ns"; rtt is rcv_rtt_est unless SRTT is
        // smaller.
        let rtt = match srtt_us {
            Some(s) if s > 0 && s < rtt_us => s,
            _ => rtt_us,
        };
        let delay = SimDuration::from_micros(rtt / 20).min(self.delay);
        let d = now + delay;
        self.deadline = Some(d);
        Compress::Hold(d)
    }

    /// True while duplicate ACKs are held (`tp->compressed_ack`).
    #[must_use]
    pub fn holding(&self) -> bool {
        self.held > 0
    }

    /// The compressed-ACK timer's expiry, while it runs.
    #[must_use]
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// An ACK went (`tcp_event_ack_sent`): nothing is held and the timer
    /// stops.
    pub fn on_ack_sent(&mut self) {
        self.held = 0;
        self.deadline = None;
    }

    /// The timer fired at `now` (`tcp_compressed_ack_kick`): true when an
    /// ACK is to be sent.
    pub fn on_timer(&mut self, now: SimTime) -> bool {
        match self.deadline {
            Some(d) if now >= d => {
                self.deadline = None;
                self.held > 0
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(t: u64) -> SimTime {
        SimTime(t * 1_000_000)
    }

    fn ato() -> Ato {
        Ato::new(250)
    }

    #[test]
    fn ato_follows_the_gaps_between_segments() {
        let mut a = ato();
        a.on_data(ms(0), Some(300_000));
        assert_eq!(a.ato_jiffies(), 10, "TCP_ATO_MIN at HZ 250");
        // Back to back: ato / 2 + TCP_ATO_MIN / 2 keeps 10.
        a.on_data(ms(1), Some(300_000));
        assert_eq!(a.ato_jiffies(), 10);
        // A 24 ms gap (6 jiffies), under ato: ato / 2 + m = 5 + 6.
        a.on_data(ms(25), Some(300_000));
        assert_eq!(a.ato_jiffies(), 11);
        // A gap longer than ato leaves it.
        a.on_data(ms(125), Some(300_000));
        assert_eq!(a.ato_jiffies(), 11);
        // Inflation at a timer ACK, bounded by icsk_rto (300 ms = 75 j).
        a.on_timer_ack(Some(300_000));
        assert_eq!(a.ato_jiffies(), 22);
        for _ in 0..5 {
            a.on_timer_ack(Some(300_000));
        }
        assert_eq!(a.ato_jiffies(), 75);
    }

    #[test]
    fn the_delayed_ack_timer_is_bounded_and_never_moved_later() {
        let mut a = ato();
        a.on_data(ms(1), None);
        // ato = TCP_DELACK_MIN: 10 jiffies from the current one (jiffy 0
        // at 1 ms), so `icsk_ack.timeout` is jiffy 10 and the timer fires
        // at the tick after it, 44 ms.
        assert_eq!(
            a.delayed_ack_at(ms(1), None, false, Some(110_000)),
            Some(ms(44))
        );
        // A large ato is bounded by the SRTT (110 ms: 28 jiffies) ...
        a.timeout = 60;
        assert_eq!(
            a.delayed_ack_at(ms(2), None, false, Some(110_000)),
            Some(ms(116))
        );
        // ... and by tcp_delack_max (49 jiffies) without one.
        assert_eq!(a.delayed_ack_at(ms(2), None, false, None), Some(ms(200)));
        // A pending timer that expires earlier is kept (it fires at 80 ms:
        // its `icsk_ack.timeout` is jiffy 19); one due within ato / 4
        // sends the ACK now.
        assert_eq!(
            a.delayed_ack_at(ms(2), Some(ms(80)), false, Some(110_000)),
            Some(ms(80))
        );
        assert_eq!(
            a.delayed_ack_at(ms(2), Some(ms(24)), false, Some(110_000)),
            None
        );
        // The tick a pending timer fires at is one jiffy after its
        // `icsk_ack.timeout`: at jiffy 5 with ato 10, a timer firing at
        // 32 ms (timeout jiffy 7) is due within ato / 4 (2 jiffies) and
        // the ACK goes now; one firing at 36 ms (jiffy 8) is kept.
        a.timeout = 10;
        assert_eq!(
            a.delayed_ack_at(ms(20), Some(ms(32)), false, Some(110_000)),
            None
        );
        assert_eq!(
            a.delayed_ack_at(ms(20), Some(ms(36)), false, Some(110_000)),
            Some(ms(36))
        );
    }

    /// Linux's sysctls (1 ms) with `tcp_comp_sack_nr` = `nr`.
    fn compression(nr: u32) -> SackCompression {
        SackCompression::new(&SackCompressionConfig {
            enabled: true,
            nr,
            ..SackCompressionConfig::OFF
        })
    }

    #[test]
    fn compression_holds_dupacks_after_three_per_rcv_nxt() {
        let mut c = compression(44);
        for i in 0..3 {
            assert_eq!(c.on_dupack(ms(i), 7, 100_000, Some(110_000)), Compress::Now);
        }
        // The fourth is held; the timer runs min(1 ms, 100 ms / 20).
        let t = ms(3);
        assert_eq!(
            c.on_dupack(t, 7, 100_000, Some(110_000)),
            Compress::Hold(ms(4))
        );
        assert_eq!(
            c.on_dupack(t, 7, 100_000, Some(110_000)),
            Compress::Hold(ms(4))
        );
        assert!(c.holding());
        assert!(!c.on_timer(ms(3)));
        assert!(c.on_timer(ms(4)));
        c.on_ack_sent();
        assert!(!c.holding());
        // A new rcv_nxt starts the count again.
        assert_eq!(c.on_dupack(ms(5), 8, 100_000, Some(110_000)), Compress::Now);
        // A short RTT shortens the delay: 10 ms / 20.
        let mut c = compression(44);
        for _ in 0..3 {
            c.on_dupack(ms(0), 1, 10_000, Some(110_000));
        }
        assert_eq!(
            c.on_dupack(ms(0), 1, 10_000, Some(110_000)),
            Compress::Hold(SimTime(500_000))
        );
    }

    #[test]
    fn compression_sends_once_nr_are_held() {
        let mut c = compression(2);
        for _ in 0..3 {
            c.on_dupack(ms(0), 1, 100_000, None);
        }
        assert!(matches!(
            c.on_dupack(ms(0), 1, 100_000, None),
            Compress::Hold(_)
        ));
        assert!(matches!(
            c.on_dupack(ms(0), 1, 100_000, None),
            Compress::Hold(_)
        ));
        assert_eq!(c.on_dupack(ms(0), 1, 100_000, None), Compress::Now);
    }
}

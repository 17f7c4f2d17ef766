//! Linux's receive side (`[tcp.rcvbuf]`, the `linux` profile): receive-buffer
//! autotuning (dynamic right-sizing), the growth of `rcv_ssthresh` toward the
//! window clamp, and the quick-ACK mode in which the receiver acknowledges
//! every segment at once. Linux 6.18, `net/ipv4/tcp_input.c`, function by
//! function:
//! - `tcp_rcv_rtt_measure_ts`, `tcp_rcv_rtt_measure` / `tcp_rcv_rtt_update`:
//!   the receiver's RTT, timed from each segment's `TSecr` (a minimum when a
//!   sample is smaller, else a 1/8 moving average) and from the time one
//!   advertised window takes to arrive (only when smaller: the estimate
//!   without timestamps);
//! - `tcp_rcv_space_adjust` / `tcp_rcvbuf_grow`: once per receiver RTT the
//!   bytes the application read in it (`copied`); when they exceed the last
//!   measure (`rcvq_space.space`) the buffer grows to twice them, plus twice
//!   their relative growth ("slow start: allow the sender to double its
//!   rate"), plus the span of the out-of-order queue, up to `tcp_rmem[2]`,
//!   and the window clamp follows (`tcp_win_from_space`);
//!   `tcp_data_queue_ofo` provisions the out-of-order span the same way;
//! - `tcp_grow_window`: each data segment raises `rcv_ssthresh` by two
//!   segments toward min(window clamp, free space) and, when it does, sets
//!   `icsk_ack.quick |= 1`: the ACK goes at once;
//! - `tcp_incr_quickack` / `tcp_enter_quickack_mode`: up to
//!   `TCP_MAX_QUICKACKS` immediate ACKs after the first data segment, after
//!   a silence longer than the receiver's RTO, and after a segment wholly
//!   below `rcv_nxt` (a needless retransmission);
//! - `__tcp_select_window` (`quick = 0` when under half the buffer is free)
//!   and `tcp_dec_quickack_mode` (each ACK sent spends one).
//!
//! Where obsim departs (docs/MODEL.md "Receive buffer"): the application
//! reads in-order data as it arrives (no receive queue); the advertised
//! window is not carried to the sender, whose limit stays `rwnd` (the
//! window-based RTT measure reads the window the receiver would advertise);
//! nor are the adaptive `ato`, ping-pong mode, SACK compression and memory pressure. The
//! receiver's RTO, which only the silence rule reads, is the one its
//! handshake sets (`tcp_set_rto` after one sample m: m + max(2m, 200 ms)),
//! with m its first RTT sample.

use crate::tcp::config::RcvBufConfig;
use crate::tcp::segment::ts_clock;
use crate::time::SimTime;

/// `TCP_DEFAULT_SCALING_RATIO`, `1 << (TCP_RMEM_TO_WIN_SCALE - 1)`: the
/// share of the buffer advertised before the first data segment.
const DEFAULT_SCALING_RATIO: u64 = 1 << 7;

/// `TCP_RTO_MIN` (200 ms) in µs: the floor of `rttvar` in
/// `tcp_rtt_estimator`'s first sample.
const RTO_MIN_US: u64 = 200_000;

/// `TCP_INIT_CWND`: the first measure of `rcvq_space.space` is at most
/// this many segments (`tcp_init_buffer_space`).
const INIT_CWND: u64 = 10;

/// One receiver's buffer and quick-ACK state. Byte counts as the kernel
/// keeps them; `mss` is the flow's MSS (Linux `advmss` and `rcv_mss`).
#[derive(Clone, Debug)]
pub struct RcvBuf {
    mss: u64,
    /// `tp->scaling_ratio`: `mss << 8 / truesize`, set by the first
    /// full-sized segment (`tcp_measure_rcv_mss`).
    ratio: u64,
    truesize: u64,
    /// `tcp_rmem[2]`.
    cap: u64,
    max_quickacks: u32,
    /// `sk->sk_rcvbuf`.
    rcvbuf: u64,
    /// `tp->window_clamp`.
    window_clamp: u64,
    /// `tp->rcv_ssthresh`.
    rcv_ssthresh: u64,
    /// `tp->rcv_wnd`: the window last advertised.
    rcv_wnd: u64,
    /// `tp->rcvq_space`: the last measure, and where and when the current
    /// one started (`None` before the first data segment).
    space: u64,
    space_seq: u64,
    space_time: Option<SimTime>,
    /// `tp->rcv_rtt_est.rtt_us`: eight times the RTT in µs, 0 before a
    /// sample.
    rtt_us8: u64,
    /// `tp->rcv_rtt_last_tsecr`.
    last_tsecr: u32,
    /// `tp->rcv_rtt_est.seq` and `.time`: the window-based measure in
    /// progress (the time for one advertised window of data to arrive).
    rtt_est_seq: u64,
    rtt_est_time: Option<SimTime>,
    /// `icsk_ack.quick`: ACKs still to send at once.
    quick: u32,
    /// The receiver's `icsk_rto` in µs, from its first RTT sample.
    rto_us: Option<u64>,
    /// The receiver's SRTT in µs (`tp->srtt_us >> 3`, which only the
    /// handshake sets): its first RTT sample.
    srtt_us: Option<u64>,
    /// `icsk_ack.lrcvtime`: the last in-order data segment's arrival.
    last_rcv: Option<SimTime>,
}

impl RcvBuf {
    /// The state after the handshake and the first full-sized segment:
    /// `tcp_select_initial_window` offers a whole number of MSS of the
    /// buffer at the default ratio, at most 65 535 B (the SYN's unscaled
    /// window); `tcp_init_buffer_space` starts the measure at min(that,
    /// 10 segments); the path's ratio then sets the clamp
    /// (`tcp_measure_rcv_mss` -> `tcp_set_window_clamp`).
    #[must_use]
    pub fn new(cfg: &RcvBufConfig, mss: u32) -> Self {
        let mss = u64::from(mss.max(1));
        let truesize = u64::from(cfg.truesize).max(mss + 1);
        let ratio = ((mss << 8) / truesize).clamp(1, 255);
        let rcvbuf = u64::from(cfg.initial);
        let mut offered = (rcvbuf * DEFAULT_SCALING_RATIO) >> 8;
        if offered > mss {
            offered -= offered % mss;
        }
        let rcv_wnd = offered.min(65_535);
        let window_clamp = (rcvbuf * ratio) >> 8;
        let rcv_ssthresh = rcv_wnd;
        RcvBuf {
            mss,
            ratio,
            truesize,
            cap: u64::from(cfg.max),
            max_quickacks: cfg.max_quickacks,
            rcvbuf,
            window_clamp,
            rcv_ssthresh,
            rcv_wnd,
            space: rcv_ssthresh.min(rcv_wnd).min(INIT_CWND * mss),
            space_seq: 0,
            space_time: None,
            rtt_us8: 0,
            last_tsecr: 0,
            rtt_est_seq: 0,
            rtt_est_time: None,
            quick: 0,
            rto_us: None,
            srtt_us: None,
            last_rcv: None,
        }
    }

    /// `tcp_win_from_space`: the window a buffer of `space` bytes offers.
    fn win_from_space(&self, space: u64) -> u64 {
        (space * self.ratio) >> 8
    }

    /// `tcp_space_from_win`: the buffer a window of `win` bytes needs.
    fn space_from_win(&self, win: u64) -> u64 {
        (win << 8) / self.ratio
    }

    /// `tcp_space`: the window the free part of the buffer offers, with
    /// `rmem` bytes held (`sk_rmem_alloc`).
    fn free_space(&self, rmem: u64) -> u64 {
        self.win_from_space(self.rcvbuf.saturating_sub(rmem))
    }

    /// True while in quick-ACK mode (`tcp_in_quickack_mode`): the next ACK
    /// goes at once.
    #[must_use]
    pub fn quick_mode(&self) -> bool {
        self.quick > 0
    }

    /// The window clamp (`tp->window_clamp`), in bytes.
    #[must_use]
    pub fn window_clamp(&self) -> u64 {
        self.window_clamp
    }

    /// `rcv_ssthresh`, in bytes.
    #[must_use]
    pub fn rcv_ssthresh(&self) -> u64 {
        self.rcv_ssthresh
    }

    /// The receiver's RTT estimate (`rcv_rtt_est.rtt_us >> 3`), µs.
    #[must_use]
    pub fn rtt_us(&self) -> u64 {
        self.rtt_us8 >> 3
    }

    /// The receiver's own SRTT (`tp->srtt_us >> 3`), µs: its first RTT
    /// sample, standing for the handshake's; `None` before it.
    #[must_use]
    pub fn srtt_us(&self) -> Option<u64> {
        self.srtt_us
    }

    /// The receiver's `icsk_rto`, µs (see [`RcvBuf::srtt_us`]).
    #[must_use]
    pub fn rto_us(&self) -> Option<u64> {
        self.rto_us
    }

    /// `tcp_rcv_rtt_measure_ts` for a data segment echoing `tsecr`
    /// (`full`: at least one MSS long): one sample per new `TSecr`, `now`
    /// less the `TSecr` in whole 1 ms ticks (`tcp_rtt_tsopt_us(tp, 0)`: none
    /// when 0); `tcp_rcv_rtt_update(tp, sample, 0)` keeps a smaller sample,
    /// else moves 1/8 of the way (the receive queue is always empty here).
    pub fn on_tsecr(&mut self, now: SimTime, tsecr: u32, full: bool) {
        if tsecr == 0 || tsecr == self.last_tsecr {
            return;
        }
        self.last_tsecr = tsecr;
        if !full {
            return;
        }
        let ticks = ts_clock(now).wrapping_sub(tsecr);
        if ticks == 0 || ticks >= i32::MAX as u32 / 1000 {
            return;
        }
        self.rtt_update(u64::from(ticks) * 1000, false);
    }

    /// `tcp_rcv_rtt_update(tp, sample, win_dep)`: a sample below the
    /// estimate replaces it; otherwise a window-based one (`win_dep`) is
    /// dropped and a timestamp one moves the estimate 1/8 of the way (the
    /// receive queue is always empty here).
    fn rtt_update(&mut self, sample: u64, win_dep: bool) {
        let m = sample << 3;
        if self.rtt_us8 == 0 || m < self.rtt_us8 {
            self.rtt_us8 = m;
        } else if win_dep {
            return;
        } else {
            self.rtt_us8 = self.rtt_us8 - (self.rtt_us8 >> 3) + sample;
        }
        if self.rto_us.is_none() {
            // `tcp_rtt_estimator`, no previous measure: srtt = m, rttvar =
            // max(2m, TCP_RTO_MIN); `__tcp_set_rto` = srtt + rttvar.
            self.rto_us = Some(sample + (2 * sample).max(RTO_MIN_US));
            self.srtt_us = Some(sample);
        }
    }

    /// `tcp_rcv_rtt_measure`, with or without timestamps: the time one
    /// advertised window of data takes to arrive, a sample only when it is
    /// below the estimate (`win_dep`); 1 µs at least.
    fn rtt_measure_window(&mut self, now: SimTime, rcv_nxt: u64) {
        if let Some(t) = self.rtt_est_time {
            if rcv_nxt < self.rtt_est_seq {
                return;
            }
            let us = now.saturating_since(t).as_nanos() / 1000;
            self.rtt_update(us.max(1), true);
        }
        self.rtt_est_seq = rcv_nxt + self.rcv_wnd;
        self.rtt_est_time = Some(now);
    }

    /// `tcp_incr_quickack(sk, TCP_MAX_QUICKACKS)`: `rcv_wnd` / (2 MSS)
    /// immediate ACKs (2 if none), at most `max_quickacks`, unless more are
    /// already due.
    fn incr_quickack(&mut self) {
        let q = u32::try_from(self.rcv_wnd / (2 * self.mss)).unwrap_or(u32::MAX);
        let q = if q == 0 { 2 } else { q }.min(self.max_quickacks);
        self.quick = self.quick.max(q);
    }

    /// A segment wholly below `rcv_nxt` (`tcp_data_queue`: "A retransmit,
    /// 2nd most common case. Force an immediate ack." ->
    /// `tcp_enter_quickack_mode`).
    pub fn on_old_data(&mut self) {
        self.incr_quickack();
    }

    /// `tcp_grow_window` for a segment of `len` bytes with `rmem` bytes
    /// held: room is min(window clamp, free space) less `rcv_ssthresh`; a
    /// segment whose buffer offers no more window than it carries grows
    /// it by two MSS (else `__tcp_grow_window`), at least twice its length,
    /// at most the room; and the next ACK goes at once (`quick |= 1`).
    fn grow_window(&mut self, len: u64, rmem: u64) {
        let room = self.window_clamp.min(self.free_space(rmem));
        if room <= self.rcv_ssthresh {
            return;
        }
        let room = room - self.rcv_ssthresh;
        let incr = if self.win_from_space(self.truesize) <= len {
            2 * self.mss
        } else {
            self.grow_small(len)
        };
        if incr > 0 {
            self.rcv_ssthresh += incr.max(2 * len).min(room);
            self.quick |= 1;
        }
    }

    /// `__tcp_grow_window` for a segment whose buffer is large for its
    /// length: halves the buffer's window and the largest window together
    /// until the segment fits the former, while `rcv_ssthresh` is within the
    /// latter.
    fn grow_small(&self, len: u64) -> u64 {
        let mut truesize = self.win_from_space(self.truesize) >> 1;
        let mut window = self.win_from_space(self.cap) >> 1;
        while self.rcv_ssthresh <= window {
            if truesize <= len {
                return 2 * self.mss;
            }
            truesize >>= 1;
            window >>= 1;
        }
        0
    }

    /// `tcp_event_data_recv` for an in-order segment of `len` bytes that
    /// arrived at `now` with `ooo_segments` segments buffered above it
    /// (its own buffer is charged before the kernel looks: `rmem` holds it
    /// and them). The first data segment starts the buffer measure
    /// (`tcp_init_buffer_space` at the handshake's end) and quick ACKs, as
    /// does a silence longer than the receiver's RTO.
    /// `rcv_nxt` is in bytes, this segment included.
    pub fn on_in_order(&mut self, now: SimTime, len: u32, ooo_segments: u64, rcv_nxt: u64) {
        self.rtt_measure_window(now, rcv_nxt);
        match self.last_rcv {
            None => {
                self.space_time = Some(now);
                self.incr_quickack();
            }
            Some(t) => {
                let gap = now.saturating_since(t).as_nanos() / 1000;
                if self.rto_us.is_some_and(|rto| gap > rto) {
                    self.incr_quickack();
                }
            }
        }
        self.last_rcv = Some(now);
        let len = u64::from(len);
        if len >= 128 {
            self.grow_window(len, (ooo_segments + 1) * self.truesize);
        }
    }

    /// `tcp_data_queue_ofo` for a segment of `len` bytes above a hole, with
    /// `ooo_before` segments already buffered and the queue then reaching
    /// `ooo_span` bytes above `rcv_nxt` (`new`: the segment was not already
    /// buffered). With SACK the window grows as for in-order data ("For
    /// non sack flows, do not grow window to force DUPACK"); then
    /// `tcp_rcvbuf_grow(sk, rcvq_space.space)` provisions the span.
    pub fn on_out_of_order(
        &mut self,
        sack: bool,
        new: bool,
        len: u32,
        ooo_before: u64,
        ooo_span: u64,
    ) {
        if sack && new {
            self.grow_window(u64::from(len), ooo_before * self.truesize);
        }
        self.rcvbuf_grow(self.space, ooo_span);
    }

    /// `tcp_rcvbuf_grow(sk, newval)` with the out-of-order queue spanning
    /// `ooo_span` bytes: twice `newval`, plus twice its growth over the last
    /// measure in proportion ("slow start: allow the sender to double its
    /// rate"), plus the span; the buffer that window needs, at most
    /// `tcp_rmem[2]`; only ever larger.
    fn rcvbuf_grow(&mut self, newval: u64, ooo_span: u64) {
        let old = self.space;
        self.space = newval;
        let mut rcvwin = newval << 1;
        if old > 0 && newval > old {
            rcvwin += (rcvwin * (newval - old) / old) << 1;
        }
        rcvwin += ooo_span;
        let rcvbuf = self.space_from_win(rcvwin).min(self.cap);
        if rcvbuf > self.rcvbuf {
            self.rcvbuf = rcvbuf;
            self.window_clamp = self.win_from_space(rcvbuf);
        }
    }

    /// `tcp_rcv_space_adjust` after the application read up to
    /// `copied_total` bytes at `now` (the out-of-order queue spanning
    /// `ooo_span` bytes): once per receiver RTT, and only after an RTT
    /// sample, the bytes read since the measure began; the buffer grows
    /// when they exceed the last measure.
    pub fn on_read(&mut self, now: SimTime, copied_total: u64, ooo_span: u64) {
        if self.rtt_us8 == 0 {
            return;
        }
        let Some(t0) = self.space_time else {
            return;
        };
        if now.saturating_since(t0).as_nanos() / 1000 < self.rtt_us8 >> 3 {
            return;
        }
        let copied = copied_total.saturating_sub(self.space_seq);
        if copied > self.space {
            self.rcvbuf_grow(copied, ooo_span);
        }
        self.space_seq = copied_total;
        self.space_time = Some(now);
    }

    /// An ACK leaves with `ooo_segments` segments buffered:
    /// `__tcp_select_window` ends quick-ACK mode when under half the
    /// buffer's window is free and offers min(free window, `rcv_ssthresh`);
    /// `tcp_dec_quickack_mode` spends one quick ACK.
    pub fn on_ack_sent(&mut self, ooo_segments: u64) {
        let free = self.free_space(ooo_segments * self.truesize);
        let full = self.window_clamp.min(self.win_from_space(self.rcvbuf));
        if free < full >> 1 {
            self.quick = 0;
        }
        self.rcv_wnd = free.min(self.rcv_ssthresh);
        self.quick = self.quick.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::config::RcvBufConfig;
    use crate::time::SimDuration;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    /// The kernel's own `tcp:tcp_rcvbuf_grow` trace (Linux 6.18.44 through
    /// `obsim emulate`, docs/VALIDATION.md L1 section 11): each measure
    /// `(copied, space, ooo span)` and the buffer and clamp the next trace
    /// line shows, reproduced step by step.
    #[test]
    fn autotuning_follows_the_kernels_trace() {
        let mut b = RcvBuf::new(&RcvBufConfig::LINUX, 1448);
        assert_eq!(b.ratio, 160);
        assert_eq!(
            (b.rcvbuf, b.window_clamp, b.space),
            (131_072, 81_920, 14_480)
        );
        let steps: [(u64, u64, u64, u64); 6] = [
            (15_928, 0, 131_072, 81_920),
            (30_408, 0, 274_224, 171_390),
            (57_920, 0, 520_726, 325_453),
            (115_840, 0, 1_112_064, 695_040),
            (170_864, 266_432, 1_492_480, 932_800),
            (409_784, 201_272, 5_300_563, 3_312_851),
        ];
        for (copied, ooo, rcvbuf, clamp) in steps {
            b.rcvbuf_grow(copied, ooo);
            assert_eq!(
                (b.rcvbuf, b.window_clamp),
                (rcvbuf, clamp),
                "after copied = {copied}"
            );
        }
        // tcp_rmem[2] caps the buffer.
        b.rcvbuf_grow(4_000_000, 0);
        assert_eq!(b.rcvbuf, 6_291_456);
    }

    #[test]
    fn the_first_segments_are_acked_at_once_then_growth_keeps_quick_mode() {
        let mut b = RcvBuf::new(&RcvBufConfig::LINUX, 1448);
        // 65 160 B offered: 22 quick ACKs, capped at TCP_MAX_QUICKACKS.
        b.on_in_order(at_ms(0), 1448, 0, 1448);
        assert_eq!(b.quick, 16 | 1);
        for _ in 0..17 {
            assert!(b.quick_mode());
            b.on_ack_sent(0);
        }
        assert!(!b.quick_mode());
        // rcv_ssthresh stops at the free space of the 128 KiB buffer less the
        // segment held: 80 480 B, as traced; then growth stops setting quick.
        for i in 1..20 {
            b.on_in_order(at_ms(i), 1448, 0, 1448);
            b.on_ack_sent(0);
        }
        assert_eq!(b.rcv_ssthresh(), 80_480);
        b.on_in_order(at_ms(20), 1448, 0, 1448);
        assert!(!b.quick_mode());
    }

    #[test]
    fn the_buffer_is_measured_once_per_receiver_rtt() {
        let mut b = RcvBuf::new(&RcvBufConfig::LINUX, 1448);
        b.on_in_order(at_ms(0), 1448, 0, 1448);
        // No RTT sample yet: no measure.
        b.on_read(at_ms(500), 1_000_000, 0);
        assert_eq!(b.rcvbuf, 131_072);
        // TSecr 110 ms old: rtt 110 ms; a second echo of the same TSecr is
        // not a sample.
        let now = at_ms(600);
        b.on_tsecr(now, ts_clock(now - SimDuration::from_millis(110)), true);
        b.on_tsecr(now, ts_clock(now - SimDuration::from_millis(110)), true);
        assert_eq!(b.rtt_us(), 110_000);
        // A smaller sample replaces it; a larger one moves it by 1/8.
        b.on_tsecr(now, ts_clock(now - SimDuration::from_millis(100)), true);
        assert_eq!(b.rtt_us(), 100_000);
        b.on_tsecr(now, ts_clock(now - SimDuration::from_millis(180)), true);
        assert_eq!(b.rtt_us(), 110_000);
        // 15 928 B read within the RTT since t = 0: more than the 14 480 B
        // measure, so the measure moves on (the buffer stays, as traced).
        b.on_read(at_ms(700), 15_928, 0);
        assert_eq!((b.space, b.space_seq, b.rcvbuf), (15_928, 15_928, 131_072));
        // Within the next RTT nothing is measured.
        b.on_read(at_ms(750), 60_000, 0);
        assert_eq!(b.space, 15_928);
        b.on_read(at_ms(820), 46_336, 0);
        assert_eq!((b.space, b.rcvbuf), (30_408, 274_224));
    }

    #[test]
    fn old_data_and_long_silences_turn_quick_mode_on() {
        let mut b = RcvBuf::new(&RcvBufConfig::LINUX, 1448);
        b.on_in_order(at_ms(0), 1448, 0, 1448);
        while b.quick_mode() {
            b.on_ack_sent(0);
        }
        b.on_old_data();
        assert!(b.quick_mode());
        while b.quick_mode() {
            b.on_ack_sent(0);
        }
        // RTO from a first sample of 110 ms: 110 + 220 = 330 ms.
        let now = at_ms(200);
        b.on_tsecr(now, ts_clock(now - SimDuration::from_millis(110)), true);
        assert_eq!(b.rto_us, Some(330_000));
        b.rcv_ssthresh = b.window_clamp; // no growth to blur the test
        b.on_in_order(at_ms(300), 1448, 0, 1448);
        assert!(!b.quick_mode());
        b.on_in_order(at_ms(631), 1448, 0, 1448);
        assert!(b.quick_mode());
    }

    #[test]
    fn a_full_out_of_order_queue_ends_quick_mode() {
        let mut b = RcvBuf::new(&RcvBufConfig::LINUX, 1448);
        b.on_in_order(at_ms(0), 1448, 0, 1448);
        // 30 segments held take 69 120 of the 131 072 B: under half free.
        b.on_ack_sent(30);
        assert!(!b.quick_mode());
    }
}

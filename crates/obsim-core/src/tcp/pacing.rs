//! Pacing: Linux's spacing of a connection's packets at its pacing rate
//! (net/ipv4/tcp_output.c, Linux 6.18), an option (`[tcp.pacing]`), off in
//! every profile.
//!
//! The rate is the kernel's `sk_pacing_rate` (`tcp_update_pacing_rate`,
//! [`pacing_rate`]): `ratio` % of `mss * max(cwnd, packets_out) / srtt`,
//! with `tcp_pacing_ss_ratio` (200 %) in slow start below half ssthresh and
//! `tcp_pacing_ca_ratio` (120 %) otherwise. TCP small queues read the same
//! rate for their limit (`tcp/small_queue.rs`), so it is written once, here.
//!
//! With pacing on, the sender keeps an earliest departure time (the
//! kernel's `tp->tcp_wstamp_ns`). Before each segment, new or retransmitted,
//! it checks that time (`tcp_pacing_check` in `tcp_write_xmit` and
//! `tcp_xmit_retransmit_queue`): a segment goes only once `now` has reached
//! it, and otherwise the sender waits for the pacing timer. Each segment
//! sent moves the time on by its length at the rate
//! (`tcp_update_skb_after_send`): first to `now` if it lay in the past (the
//! gap is the "credit"), then by `len / rate` less up to half of that for
//! the credit ("take into account OS jitter"). The first
//! [`PacingConfig::unpaced_segments`] data segments of a connection leave
//! without waiting ("Original sch_fq does not pace first 10 MSS"), nor any before
//! the first RTT sample (no SRTT: the kernel's rate is not divided by one,
//! so it is effectively unlimited).
//!
//! When Linux paces: only when the socket asks for it (`SK_PACING_NEEDED`,
//! set by BBR) or through the `fq` qdisc (`SK_PACING_FQ`), which holds each
//! packet until the same departure time. CUBIC over the default
//! `fq_codel` (or the `tbf` of `obsim emulate`) is not paced, so the
//! `linux` profile leaves pacing off; `enabled = true` models CUBIC over
//! `fq`. obsim holds the packet in the sender (internal pacing): departure
//! times are the same either way; with `fq` the kernel's small-queue count
//! also includes the packets fq holds. Simplification (docs/MODEL.md):
//! obsim paces single segments where Linux paces GSO packets of
//! `tcp_tso_autosize` segments, so the spacing is the same on average and
//! finer-grained.

use crate::tcp::config::{PacingConfig, TcpConfig};
use crate::tcp::control::ControlBlock;
use crate::tcp::TcpSender;
use crate::time::{SimDuration, SimTime};

/// The pacing rate in bytes per second (Linux `tcp_update_pacing_rate`):
/// `ratio` % of `mss * max(cwnd, packets_out) / srtt`, with ratio
/// `ss_ratio` while cwnd < ssthresh / 2 (slow start far from its end),
/// else `ca_ratio`. `None` before the first RTT sample (the kernel then
/// has no SRTT to divide by: unlimited).
pub fn pacing_rate(cfg: &PacingConfig, sender: &TcpSender) -> Option<f64> {
    rate_of(cfg, sender.control_block(), sender.mss())
}

/// [`pacing_rate`] from the control block and the MSS (for the window-growth
/// plug-ins, which see no sender: HyStart's `hystart_ack_delay`).
pub fn rate_of(cfg: &PacingConfig, cb: &ControlBlock, mss: u32) -> Option<f64> {
    let srtt = cb.srtt?.as_secs_f64();
    if srtt <= 0.0 {
        return None;
    }
    // `tcp_snd_cwnd(tp)` and `tp->snd_ssthresh` are integers.
    let cwnd = cb.cwnd.floor();
    let ratio = if cwnd < (cb.ssthresh / 2.0).floor() {
        cfg.ss_ratio
    } else {
        cfg.ca_ratio
    };
    let packets = cwnd.max(cb.flight_size() as f64);
    Some(f64::from(mss) * f64::from(ratio) / 100.0 * packets / srtt)
}

/// The pacing state of one flow: its configuration and earliest departure
/// time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pacer {
    cfg: PacingConfig,
    /// Earliest departure time of the next segment (`tp->tcp_wstamp_ns`).
    next_tx: SimTime,
}

impl Pacer {
    /// The pacer of a new flow with `cfg.pacing`.
    pub fn new(cfg: &TcpConfig) -> Self {
        Pacer {
            cfg: cfg.pacing,
            next_tx: SimTime::ZERO,
        }
    }

    /// True when pacing is on for this flow.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.cfg.enabled
    }

    /// Whether a segment may leave at `now` (`tcp_pacing_check` is false):
    /// always when off, else once `now` has reached the departure time.
    #[inline]
    pub fn admits(&self, now: SimTime) -> bool {
        !self.cfg.enabled || self.next_tx <= now
    }

    /// When the next segment may leave (the pacing timer's expiry).
    #[inline]
    pub fn next_tx(&self) -> SimTime {
        self.next_tx
    }

    /// `sender` has just sent a segment of `payload` bytes at `now` (its
    /// `segments_sent` already counts it): moves the departure time on as
    /// `tcp_transmit_skb` and `tcp_update_skb_after_send` do.
    #[inline]
    pub fn on_sent(&mut self, now: SimTime, sender: &TcpSender, payload: u32) {
        if self.cfg.enabled {
            self.charge(now, sender, payload);
        }
    }

    /// [`Pacer::on_sent`] with pacing on.
    fn charge(&mut self, now: SimTime, sender: &TcpSender, payload: u32) {
        // `tcp_transmit_skb`: prior_wstamp = wstamp; wstamp = max(wstamp, now).
        let prior = self.next_tx;
        self.next_tx = self.next_tx.max(now);
        // "Original sch_fq does not pace first 10 MSS": the length is charged
        // once `data_segs_out >= 10`, a count that already includes this
        // segment (`__tcp_transmit_skb` adds it before
        // `tcp_update_skb_after_send`), so the 10th segment's charge is the
        // first to hold one back (the 11th).
        if sender.stats().segments_sent < u64::from(self.cfg.unpaced_segments) {
            return;
        }
        let Some(rate) = pacing_rate(&self.cfg, sender) else {
            return;
        };
        if rate <= 0.0 {
            return;
        }
        // len_ns = skb->len * NSEC_PER_SEC / rate, truncated (div64_ul).
        let len_ns = (f64::from(payload) * 1e9 / rate) as u64;
        let credit = self.next_tx.saturating_since(prior).as_nanos();
        let len_ns = len_ns - (len_ns / 2).min(credit);
        self.next_tx += SimDuration::from_nanos(len_ns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::profile::profile;
    use crate::tcp::segment::Ack;

    /// A linux-profile sender with pacing on, one RTT sample of `rtt`
    /// after its initial window of 10 was sent and acknowledged, and its
    /// pacer (which saw those 10 segments).
    fn paced(rtt: SimDuration) -> (TcpSender, Pacer) {
        let mut cfg = profile("linux").unwrap();
        cfg.pacing.enabled = true;
        let mut s = TcpSender::new(&cfg, None);
        let mut p = Pacer::new(&cfg);
        s.start(SimTime::ZERO);
        while let Some(seg) = s.poll_transmit(SimTime::ZERO) {
            assert!(p.admits(SimTime::ZERO));
            p.on_sent(SimTime::ZERO, &s, seg.len);
        }
        s.end_transmit(10);
        // No SRTT yet, and the first 10 are never paced.
        assert_eq!(p.next_tx(), SimTime::ZERO);
        s.on_ack(SimTime::ZERO + rtt, &Ack::new(10));
        (s, p)
    }

    #[test]
    fn the_rate_is_the_kernels_formula() {
        let (s, p) = paced(SimDuration::from_millis(100));
        let cb = s.control_block();
        // Slow start far below ssthresh: 200 % of cwnd * mss / srtt.
        assert!(cb.cwnd < cb.ssthresh / 2.0);
        let want = 2.0 * cb.cwnd.floor() * f64::from(s.mss()) / 0.1;
        let got = pacing_rate(&p.cfg, &s).unwrap();
        assert!((got - want).abs() < 1e-6 * want, "{got} vs {want}");
        // In congestion avoidance, 120 %.
        let mut ca = p.cfg;
        ca.ss_ratio = ca.ca_ratio;
        assert!((pacing_rate(&ca, &s).unwrap() - 0.6 * want).abs() < 1e-6 * want);
    }

    #[test]
    fn segments_are_spaced_by_their_length_at_the_rate() {
        let (mut s, mut p) = paced(SimDuration::from_millis(100));
        let now = SimTime::ZERO + SimDuration::from_millis(100);
        let rate = pacing_rate(&p.cfg, &s).unwrap();
        let gap = (f64::from(s.mss()) * 1e9 / rate) as u64;
        // The first paced segment leaves now; its departure time had lain
        // in the past (credit 100 ms), so it is charged half its length.
        assert!(p.admits(now));
        let seg = s.poll_transmit(now).unwrap();
        p.on_sent(now, &s, seg.len);
        assert_eq!(p.next_tx(), now + SimDuration::from_nanos(gap - gap / 2));
        // The next waits for that time, and is then charged in full (no
        // credit: it leaves exactly on time).
        let t1 = p.next_tx();
        assert!(!p.admits(now));
        assert!(!p.admits(SimTime(t1.as_nanos() - 1)));
        assert!(p.admits(t1));
        let seg = s.poll_transmit(t1).unwrap();
        let rate = pacing_rate(&p.cfg, &s).unwrap();
        let gap = (f64::from(s.mss()) * 1e9 / rate) as u64;
        p.on_sent(t1, &s, seg.len);
        assert_eq!(p.next_tx(), t1 + SimDuration::from_nanos(gap));
    }

    #[test]
    fn a_late_segment_gets_at_most_half_its_length_of_credit() {
        let (mut s, mut p) = paced(SimDuration::from_millis(100));
        let now = SimTime::ZERO + SimDuration::from_millis(100);
        let seg = s.poll_transmit(now).unwrap();
        p.on_sent(now, &s, seg.len);
        let due = p.next_tx();
        // Sent 1 µs late: the credit is 1 µs, less than half the length.
        let late = due + SimDuration::from_micros(1);
        let seg = s.poll_transmit(late).unwrap();
        let rate = pacing_rate(&p.cfg, &s).unwrap();
        let gap = (f64::from(s.mss()) * 1e9 / rate) as u64;
        assert!(gap / 2 > 1_000);
        p.on_sent(late, &s, seg.len);
        assert_eq!(p.next_tx(), late + SimDuration::from_nanos(gap - 1_000));
    }

    #[test]
    fn the_nth_segment_is_the_first_charged() {
        // unpaced_segments = 12: the 11th and the 12th leave together (the
        // 11th is not charged), the 12th's charge holds back the 13th.
        let (mut s, mut p) = paced(SimDuration::from_millis(100));
        p.cfg.unpaced_segments = 12;
        let now = SimTime::ZERO + SimDuration::from_millis(100);
        let seg = s.poll_transmit(now).unwrap();
        p.on_sent(now, &s, seg.len);
        assert_eq!(s.stats().segments_sent, 11);
        assert!(p.admits(now), "the 11th was not charged");
        let seg = s.poll_transmit(now).unwrap();
        p.on_sent(now, &s, seg.len);
        assert!(!p.admits(now), "the 12th was");
    }

    #[test]
    fn off_never_holds_a_segment_back() {
        let cfg = profile("linux").unwrap();
        assert!(!cfg.pacing.enabled);
        let mut s = TcpSender::new(&cfg, None);
        let mut p = Pacer::new(&cfg);
        s.start(SimTime::ZERO);
        let mut n = 0;
        while let Some(seg) = s.poll_transmit(SimTime::ZERO) {
            assert!(p.admits(SimTime::ZERO));
            p.on_sent(SimTime::ZERO, &s, seg.len);
            n += 1;
        }
        assert!(n > 0);
        assert_eq!(p.next_tx(), SimTime::ZERO);
    }
}

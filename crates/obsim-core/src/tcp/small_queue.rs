//! TCP small queues (TSQ): Linux's limit on how much of one connection's
//! data may sit below TCP, in the host's queue and on its device
//! (net/ipv4/tcp_output.c `tcp_small_queue_check`, Linux 6.18), so that a
//! bulk sender keeps about two GSO packets in its access queue instead of
//! filling the queue with its congestion window.
//!
//! The kernel counts the socket's bytes handed down and not yet freed
//! (`sk_wmem_alloc`, which starts at 1); it stops sending when that count
//! exceeds
//!
//! ```text
//! limit = min(max(2 * skb->truesize, sk_pacing_rate >> sk_pacing_shift), tcp_limit_output_bytes)
//! ```
//!
//! doubled for retransmissions (`limit <<= factor`, factor 1 in
//! `tcp_xmit_retransmit_queue`), and always sends when its retransmission
//! queue holds at most one packet (`tcp_rtx_queue_empty_or_single_skb`).
//! A freed packet (transmission done: `tcp_wfree`) lets it send again.
//!
//! Here a flow's packets count from the moment the engine hands one to the
//! first hop (the sender's access link or access pipe) until its
//! transmission there ends: [`SmallQueue::on_sent`] records when that is,
//! [`SmallQueue::admits`] is asked before each segment, and after a refusal
//! the engine wakes the sender when the oldest packet has left
//! ([`SmallQueue::wake_at`]). Checked against the kernel through `obsim
//! emulate` (a `tbf` access link, 20 Mbit/s, 105 ms RTT): in congestion
//! avoidance the kernel kept 2 GSO packets of 2 segments (6 000 bytes) in
//! the access queue, with 178 segments out under a cwnd of 197
//! (docs/VALIDATION.md, "L1").
//!
//! Simplifications (docs/MODEL.md, "The linux profile"): obsim sends single
//! segments, so a GSO packet's size only enters the limit (`skb->truesize`
//! is taken as its wire bytes, without the kernel's per-buffer overhead);
//! the retransmission factor applies whenever the sender is out of the Open
//! state, where Linux applies it to retransmitted packets only; the
//! "single packet" exception reads one GSO packet's worth of segments out.

use std::collections::VecDeque;

use crate::tcp::config::{PacingConfig, SmallQueuesConfig, TcpConfig};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::pacing::{pacing_rate, rate_of};
use crate::tcp::TcpSender;
use crate::time::SimTime;

/// The small-queue state of one flow: its configuration and the packets it
/// has at its first hop.
#[derive(Debug, Clone)]
pub struct SmallQueue {
    cfg: SmallQueuesConfig,
    /// The pacing rate's configuration (`tcp.pacing`): the limit allows
    /// `2^-pacing_shift` s of the rate.
    pacing: PacingConfig,
    /// (transmission end, wire bytes) of the flow's packets still at the
    /// first hop, oldest first (a FIFO hop: ends are in order).
    queued: VecDeque<(SimTime, u32)>,
    /// Bytes in `queued`.
    queued_bytes: u64,
}

impl SmallQueue {
    /// The state of a new flow with `cfg.small_queues`.
    pub fn new(cfg: &TcpConfig) -> Self {
        SmallQueue {
            cfg: cfg.small_queues,
            pacing: cfg.pacing,
            queued: VecDeque::new(),
            queued_bytes: 0,
        }
    }

    /// Makes this what [`SmallQueue::new`]`(cfg)` builds, keeping the
    /// allocation (a recycled flow slot, issue 12).
    pub fn renew(&mut self, cfg: &TcpConfig) {
        self.cfg = cfg.small_queues;
        self.pacing = cfg.pacing;
        self.queued.clear();
        self.queued_bytes = 0;
    }

    /// True when small queues are on for this flow.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.cfg.enabled
    }

    /// Forgets the packets whose transmission has ended by `now`.
    fn drain(&mut self, now: SimTime) {
        while let Some(&(done, bytes)) = self.queued.front() {
            if done > now {
                break;
            }
            self.queued.pop_front();
            self.queued_bytes -= u64::from(bytes);
        }
    }

    /// The pacing rate in bytes per second (`tcp/pacing.rs`
    /// [`pacing_rate`]), `None` before the first RTT sample.
    pub fn pacing_rate(&self, sender: &TcpSender) -> Option<f64> {
        pacing_rate(&self.pacing, sender)
    }

    /// The bytes the flow may have below TCP now (Linux
    /// `tcp_small_queue_check`'s `limit`), for segments of `wire_seg`
    /// bytes on the wire, and the segments of one GSO packet.
    pub fn limit(&self, sender: &TcpSender, wire_seg: u32) -> (u64, u64) {
        let c = &self.cfg;
        let cb = sender.control_block();
        let per_shift = rate_share(c, &self.pacing, cb, sender.mss());
        let segs = tso_segs(c, per_shift, cb, sender.mss());
        let two_packets = 2 * segs * u64::from(wire_seg);
        let mut limit = two_packets.max(per_shift);
        if !self.pacing.enabled {
            // `if (sk->sk_pacing_status == SK_PACING_NONE)`: the sysctl
            // caps the limit of an unpaced socket only.
            limit = limit.min(u64::from(c.limit_output_bytes));
        }
        if sender.state() != CaState::Open {
            // `limit <<= factor`: retransmissions get twice the room.
            limit <<= 1;
        }
        (limit, segs)
    }

    /// Whether the sender may hand the first hop another segment of
    /// `wire_seg` bytes at `now`: always when off; otherwise while the
    /// flow's bytes there are under [`SmallQueue::limit`] (the kernel's
    /// `sk_wmem_alloc`, which starts at 1, exceeds the limit once they
    /// reach it), or when at most one GSO packet is outstanding.
    pub fn admits(&mut self, now: SimTime, sender: &TcpSender, wire_seg: u32) -> bool {
        if !self.cfg.enabled {
            return true;
        }
        self.drain(now);
        if self.queued_bytes == 0 {
            return true;
        }
        let (limit, segs) = self.limit(sender, wire_seg);
        self.queued_bytes < limit || sender.control_block().flight_size() <= segs
    }

    /// A packet of the flow of `bytes` on the wire was accepted by the
    /// first hop, where its transmission ends at `done`.
    #[inline]
    pub fn on_sent(&mut self, done: SimTime, bytes: u32) {
        if self.cfg.enabled {
            self.queued.push_back((done, bytes));
            self.queued_bytes += u64::from(bytes);
        }
    }

    /// When the oldest packet at the first hop leaves (the time to try
    /// again after a refusal).
    pub fn wake_at(&self) -> Option<SimTime> {
        self.queued.front().map(|&(done, _)| done)
    }

    /// Packets of the flow at the first hop at the last check.
    pub fn queued_packets(&self) -> usize {
        self.queued.len()
    }
}

/// The pacing rate's `2^-pacing_shift` s worth of bytes (Linux
/// `sk_pacing_rate >> sk_pacing_shift`), unlimited before the first RTT
/// sample.
pub fn rate_share(
    c: &SmallQueuesConfig,
    pacing: &PacingConfig,
    cb: &ControlBlock,
    mss: u32,
) -> u64 {
    rate_of(pacing, cb, mss).map_or(u64::MAX, |r| {
        (r / f64::from(1u32 << c.pacing_shift.min(31))) as u64
    })
}

/// Segments in one GSO packet (Linux `tcp_tso_autosize`) for `per_shift`
/// bytes of the pacing rate ([`rate_share`]): those bytes, plus
/// `gso_max_size >> (min_rtt_us >> tso_rtt_log)` on short paths, at most
/// `gso_max_size`, in whole segments, at least `min_tso_segs`. Small
/// queues size their limit with it, and the sender's GSO packets
/// (`tcp/gso.rs`) take it as the size of a write-queue skb.
pub fn tso_segs(c: &SmallQueuesConfig, per_shift: u64, cb: &ControlBlock, mss: u32) -> u64 {
    let mut bytes = per_shift;
    if let Some(min_rtt) = cb.rtt_min {
        let r = (min_rtt.as_nanos() / 1000) >> c.tso_rtt_log;
        if r < 32 {
            bytes = bytes.saturating_add(u64::from(c.gso_max_size) >> r);
        }
    }
    bytes = bytes.min(u64::from(c.gso_max_size));
    (bytes / u64::from(mss.max(1))).max(u64::from(c.min_tso_segs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::profile::profile;
    use crate::tcp::segment::Ack;
    use crate::time::SimDuration;

    /// A linux-profile bulk sender with one RTT sample of `rtt` after its
    /// initial window was sent and acknowledged.
    fn sender_with_rtt(rtt: SimDuration) -> (TcpConfig, TcpSender) {
        let cfg = profile("linux").unwrap();
        let mut s = TcpSender::new(&cfg, None);
        s.start(SimTime::ZERO);
        let mut n = 0;
        while s.poll_transmit(SimTime::ZERO).is_some() {
            n += 1;
        }
        assert_eq!(n, 10, "IW10");
        s.on_ack(SimTime::ZERO + rtt, &Ack::new(10));
        (cfg, s)
    }

    #[test]
    fn off_admits_everything() {
        let mut cfg = profile("linux").unwrap();
        cfg.small_queues = SmallQueuesConfig::OFF;
        let s = TcpSender::new(&cfg, None);
        let mut q = SmallQueue::new(&cfg);
        for i in 0..1000 {
            q.on_sent(SimTime::from_secs_f64(1.0), 1500);
            assert!(q.admits(SimTime::ZERO, &s, 1500), "packet {i}");
        }
        assert_eq!(q.wake_at(), None);
    }

    #[test]
    fn pacing_rate_follows_tcp_update_pacing_rate() {
        // After the IW: cwnd 20 (slow start, ABC), ssthresh infinite: 200 %
        // of 1448 B x 20 / 0.1 s.
        let (_, s) = sender_with_rtt(SimDuration::from_millis(100));
        let q = SmallQueue::new(&profile("linux").unwrap());
        let cwnd = s.cwnd().floor();
        let want = 1448.0 * 2.0 * cwnd / 0.1;
        let got = q.pacing_rate(&s).unwrap();
        assert!((got - want).abs() < 1e-6 * want, "{got} vs {want}");
    }

    #[test]
    fn two_gso_packets_at_twenty_mbits() {
        // The kernel's case measured through obsim emulate: a pacing rate
        // of about 25 Mbit/s gives 3 076 B per ms, 2 segments per GSO
        // packet, and a limit of 2 x 2 x 1500 B.
        let (cfg, mut s) = sender_with_rtt(SimDuration::from_millis(105));
        let q = SmallQueue::new(&cfg);
        // The control block as the kernel's was (ss -tin): congestion
        // avoidance at cwnd 197, SRTT 108.6 ms.
        {
            let cb = s.control_block_mut_for_tests();
            cb.cwnd = 197.0;
            cb.ssthresh = 137.0;
            cb.srtt = Some(SimDuration::from_micros(108_600));
        }
        let (limit, segs) = q.limit(&s, 1500);
        assert_eq!(segs, 2);
        assert_eq!(limit, 6000);
        let rate = q.pacing_rate(&s).unwrap() * 8.0;
        assert!((rate - 25.2e6).abs() < 0.1e6, "{rate}");
    }

    #[test]
    fn refuses_at_the_limit_and_wakes_at_the_oldest_departure() {
        let (cfg, mut s) = sender_with_rtt(SimDuration::from_millis(105));
        {
            let cb = s.control_block_mut_for_tests();
            cb.cwnd = 197.0;
            cb.ssthresh = 137.0;
            cb.snd_nxt = cb.snd_una + 178;
        }
        let mut q = SmallQueue::new(&cfg);
        let t0 = SimTime::from_secs_f64(1.0);
        let tx = SimDuration::from_micros(600);
        let mut sent = 0u32;
        while q.admits(t0, &s, 1500) {
            sent += 1;
            q.on_sent(t0 + tx.saturating_mul(u64::from(sent)), 1500);
        }
        assert_eq!(sent, 4, "4 segments = 2 GSO packets of 2");
        assert_eq!(q.wake_at(), Some(t0 + tx));
        // The first leaves: one more may go.
        assert!(q.admits(t0 + tx, &s, 1500));
        assert_eq!(q.queued_packets(), 3);
        // Out of the Open state the limit doubles.
        s.control_block_mut_for_tests().state = CaState::Recovery;
        assert_eq!(q.limit(&s, 1500).0, 12_000);
    }

    #[test]
    fn one_gso_packet_out_always_goes() {
        // `tcp_rtx_queue_empty_or_single_skb`: with at most one GSO packet
        // outstanding the check passes whatever is queued.
        let (cfg, mut s) = sender_with_rtt(SimDuration::from_millis(105));
        {
            let cb = s.control_block_mut_for_tests();
            cb.snd_nxt = cb.snd_una + 2;
        }
        let mut q = SmallQueue::new(&cfg);
        for _ in 0..10 {
            q.on_sent(SimTime::from_secs_f64(5.0), 1500);
        }
        assert!(q.admits(SimTime::from_secs_f64(1.0), &s, 1500));
        s.control_block_mut_for_tests().snd_nxt += 1;
        assert!(!q.admits(SimTime::from_secs_f64(1.0), &s, 1500));
    }

    #[test]
    fn short_paths_get_bigger_gso_packets() {
        // tcp_tso_autosize: min_rtt 1 ms >> 9 = 1 -> + 64 KiB >> 1.
        let (cfg, s) = sender_with_rtt(SimDuration::from_millis(1));
        let q = SmallQueue::new(&cfg);
        let per_shift = (q.pacing_rate(&s).unwrap() / 1024.0) as u64;
        let want = ((per_shift + 32_768).min(65_536) / 1448).max(2);
        assert_eq!(q.limit(&s, 1500).1, want);
        assert!(want > 2);
    }
}

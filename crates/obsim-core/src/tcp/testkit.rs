//! Test harness: one sender and one receiver over a fake bottleneck path
//! (fixed one-way delay both ways, serialisation at a fixed rate on the data
//! direction, scripted or Bernoulli drops), driven by a tiny event loop
//! through the public API only.

use std::collections::BTreeMap;

use crate::rng::{self, uniform01, SimRng};
use crate::tcp::config::TcpConfig;
use crate::tcp::control::CaState;
use crate::tcp::receiver::TcpReceiver;
use crate::tcp::segment::{Ack, SackBlock, Segment};
use crate::tcp::sender::TcpSender;
use crate::time::{SimDuration, SimTime};

/// The fake path.
#[derive(Debug)]
pub struct Path {
    /// One-way propagation delay (both directions).
    pub delay: SimDuration,
    /// Data-direction bit rate (ACKs are not serialised).
    pub rate_bps: u64,
    /// Drop the first transmission of these segments.
    pub drop_first: Vec<u64>,
    /// Drop the `n`-th transmission (1-based) of segment `seq`: `(seq, n)`.
    pub drop_nth: Vec<(u64, u32)>,
    /// Drop every data segment (retransmissions included) handed to the
    /// path in `[from, to)`: one OBS burst loss that takes all a fast flow
    /// sent in that time (yu2004 §II.A.3), when the span is one RTT.
    pub drop_during: Vec<(SimTime, SimTime)>,
    /// Drop the first this many transmissions of the SYN (`tcp.syn`).
    pub drop_syn: u32,
    /// Hold every data segment handed to the path in `[from, to)` this much
    /// longer, and keep later segments behind them (FIFO): a delay spike,
    /// no loss (the spurious timeouts of RFC 5682).
    pub spike: Option<(SimTime, SimTime, SimDuration)>,
    /// Bernoulli loss probability for data segments and for ACKs.
    pub p: f64,
    rng: SimRng,
}

impl Path {
    /// A lossless path.
    pub fn new(delay: SimDuration, rate_bps: u64) -> Self {
        Path {
            delay,
            rate_bps,
            drop_first: Vec::new(),
            drop_nth: Vec::new(),
            drop_during: Vec::new(),
            drop_syn: 0,
            spike: None,
            p: 0.0,
            rng: rng::stream(1, "testkit"),
        }
    }

    /// Adds Bernoulli loss `p` with a seeded stream.
    pub fn with_loss(mut self, p: f64, seed: u64) -> Self {
        self.p = p;
        self.rng = rng::stream(seed, "testkit/loss");
        self
    }
}

/// One transmitted data segment.
#[derive(Clone, Copy, Debug)]
pub struct TxRecord {
    /// When it was handed to the path.
    pub t: SimTime,
    /// The segment.
    pub seg: Segment,
    /// True when the path dropped it.
    pub dropped: bool,
}

/// A sample of the sender state, taken whenever it changed.
#[derive(Clone, Copy, Debug)]
pub struct StateSample {
    /// Time.
    pub t: SimTime,
    /// cwnd (without fast-recovery inflation).
    pub cwnd: f64,
    /// Fast-recovery inflation (`dupwnd`).
    pub dupwnd: f64,
    /// ssthresh.
    pub ssthresh: f64,
    /// State.
    pub state: CaState,
    /// `snd_una`.
    pub snd_una: u64,
    /// `snd_nxt`.
    pub snd_nxt: u64,
    /// RTO (backoff included).
    pub rto: SimDuration,
    /// RTT samples so far.
    pub rtt_samples: u64,
}

impl StateSample {
    /// The un-capped send window cwnd + dupwnd (RFC 5681 §3.2's inflated
    /// cwnd).
    pub fn win(&self) -> f64 {
        self.cwnd + self.dupwnd
    }
}

#[derive(Debug)]
enum Ev {
    Seg(Segment),
    Ack(Ack),
}

/// Sender + receiver + path + event queue.
#[derive(Debug)]
pub struct Harness {
    /// The sender under test.
    pub sender: TcpSender,
    /// The receiver under test.
    pub receiver: TcpReceiver,
    /// The path.
    pub path: Path,
    /// Current time.
    pub now: SimTime,
    queue: BTreeMap<(SimTime, u64), Ev>,
    next_id: u64,
    link_free_at: SimTime,
    /// When the last data segment reaches the receiver (`Path::spike`).
    last_data_arrival: SimTime,
    tx_count: Vec<u32>,
    syn_count: u32,
    /// Every transmission (the SYN's too: `seg.syn`).
    pub tx: Vec<TxRecord>,
    /// Sender state after every event that changed it.
    pub trace: Vec<StateSample>,
    /// Times at which the retransmission timer fired.
    pub timeouts: Vec<SimTime>,
    /// Times at which the TLP probe timer or RACK's reordering timer fired
    /// (RFC 8985) and the retransmission timer was not due.
    pub timers: Vec<SimTime>,
    /// Times at which the receiver sent an ACK.
    pub acks: Vec<SimTime>,
}

impl Harness {
    /// A harness for `data_bytes` (`None` = infinite) starting at time 0.
    pub fn new(cfg: &TcpConfig, data_bytes: Option<u64>, path: Path) -> Self {
        Harness::around(TcpSender::new(cfg, data_bytes), TcpReceiver::new(cfg), path)
    }

    /// A harness around a sender and a receiver not yet started (renewed
    /// ones, say), starting at time 0.
    pub fn around(sender: TcpSender, receiver: TcpReceiver, path: Path) -> Self {
        let mut h = Harness {
            sender,
            receiver,
            path,
            now: SimTime::ZERO,
            queue: BTreeMap::new(),
            next_id: 0,
            link_free_at: SimTime::ZERO,
            last_data_arrival: SimTime::ZERO,
            tx_count: Vec::new(),
            syn_count: 0,
            tx: Vec::new(),
            trace: Vec::new(),
            timeouts: Vec::new(),
            timers: Vec::new(),
            acks: Vec::new(),
        };
        h.sender.start(SimTime::ZERO);
        h.sample(true);
        h
    }

    fn push(&mut self, t: SimTime, ev: Ev) {
        self.queue.insert((t, self.next_id), ev);
        self.next_id += 1;
    }

    fn lose(&mut self) -> bool {
        self.path.p > 0.0 && uniform01(&mut self.path.rng) < self.path.p
    }

    fn sample(&mut self, force: bool) {
        let s = &self.sender;
        let st = StateSample {
            t: self.now,
            cwnd: s.cwnd(),
            dupwnd: s.dupwnd(),
            ssthresh: s.ssthresh(),
            state: s.state(),
            snd_una: s.snd_una(),
            snd_nxt: s.snd_nxt(),
            rto: s.rto(),
            rtt_samples: s.stats().rtt_samples,
        };
        let changed = self.sender.take_changed();
        let differs = self.trace.last().is_none_or(|p| {
            p.state != st.state
                || p.snd_una != st.snd_una
                || p.rto != st.rto
                || p.dupwnd.to_bits() != st.dupwnd.to_bits()
        });
        if force || changed || differs {
            self.trace.push(st);
        }
    }

    /// Hands everything the sender wants to send to the path.
    fn drain(&mut self) {
        let mut sent = 0;
        while let Some(seg) = self.sender.poll_transmit(self.now) {
            sent += 1;
            if seg.syn {
                self.syn_count += 1;
                let dropped = self.syn_count <= self.path.drop_syn || self.lose();
                self.transmit(seg, dropped);
                continue;
            }
            let i = seg.seq as usize;
            if self.tx_count.len() <= i {
                self.tx_count.resize(i + 1, 0);
            }
            self.tx_count[i] += 1;
            let n = self.tx_count[i];
            let dropped = (n == 1 && self.path.drop_first.contains(&seg.seq))
                || self.path.drop_nth.contains(&(seg.seq, n))
                || self
                    .path
                    .drop_during
                    .iter()
                    .any(|&(a, b)| a <= self.now && self.now < b)
                || self.lose();
            self.transmit(seg, dropped);
        }
        // The engine's end of a send attempt (`tcp.cwnd_limited_growth`).
        self.sender.end_transmit(sent);
    }

    /// Serialises `seg` on the path and schedules its arrival unless
    /// `dropped`.
    fn transmit(&mut self, seg: Segment, dropped: bool) {
        {
            let start = self.now.max(self.link_free_at);
            self.link_free_at =
                start + SimDuration::transmission(u64::from(seg.len) + 40, self.path.rate_bps);
            if !dropped {
                let extra = match self.path.spike {
                    Some((a, b, d)) if !seg.syn && a <= self.now && self.now < b => d,
                    _ => SimDuration::ZERO,
                };
                let mut at = self.link_free_at + self.path.delay + extra;
                if self.path.spike.is_some() && !seg.syn {
                    // FIFO: nothing overtakes the held segments.
                    at = at.max(self.last_data_arrival);
                    self.last_data_arrival = at;
                }
                self.push(at, Ev::Seg(seg));
            }
            self.tx.push(TxRecord {
                t: self.now,
                seg,
                dropped,
            });
        }
    }

    fn send_ack(&mut self, ack: Option<Ack>) {
        if let Some(a) = ack {
            self.acks.push(self.now);
            if !self.lose() {
                let at = self.now + self.path.delay;
                self.push(at, Ev::Ack(a));
            }
        }
    }

    /// Runs one event; false when nothing is left before `until`.
    fn step(&mut self, until: SimTime) -> bool {
        self.drain();
        let q = self.queue.keys().next().map(|k| k.0);
        let rto = self.sender.next_deadline();
        let del = self.receiver.delack_deadline();
        let Some(next) = [q, rto, del].into_iter().flatten().min() else {
            return false;
        };
        if next > until {
            return false;
        }
        assert!(next >= self.now, "time ran backwards");
        self.now = next;
        if q == Some(next) {
            let (_, ev) = self.queue.pop_first().expect("event");
            match ev {
                Ev::Seg(seg) => {
                    let before = self.receiver.delivered_segments();
                    let a = self.receiver.on_segment(self.now, &seg);
                    assert!(self.receiver.delivered_segments() >= before);
                    self.send_ack(a);
                }
                Ev::Ack(a) => self.sender.on_ack(self.now, &a),
            }
        } else if rto == Some(next) {
            // The retransmission timer, or (RACK-TLP) the probe or the
            // reordering timer: only the first counts in `timeouts`.
            // A probe due with the RTO (PTO capped at it) goes instead.
            let rto_due = self.sender.rto_deadline() == Some(next)
                && self.sender.pto_deadline() != Some(next);
            self.sender.on_timeout(self.now);
            if rto_due {
                self.timeouts.push(self.now);
            } else {
                self.timers.push(self.now);
            }
        } else {
            let a = self.receiver.on_delack_timeout(self.now);
            self.send_ack(a);
        }
        self.drain();
        self.sample(false);
        let s = &self.sender;
        assert!(s.cwnd() >= 1.0, "cwnd {} < 1 at {}", s.cwnd(), self.now);
        assert!(
            s.snd_una() <= s.snd_nxt(),
            "snd_una > snd_nxt at {}",
            self.now
        );
        assert!(self.receiver.rcv_nxt() <= s.snd_nxt());
        true
    }

    /// Runs until `until` (or until nothing is left to do).
    pub fn run_until(&mut self, until: SimTime) {
        while self.step(until) {}
    }

    /// Runs until the finite flow completes or `limit` passes; returns the
    /// completion time.
    pub fn run_to_completion(&mut self, limit: SimTime) -> Option<SimTime> {
        while !self.sender.is_complete() && self.step(limit) {}
        self.sender.stats().completed_at
    }

    /// Retransmissions of `seq`, in order.
    pub fn retransmissions_of(&self, seq: u64) -> Vec<SimTime> {
        self.tx
            .iter()
            .filter(|r| r.seg.seq == seq && r.seg.retransmit)
            .map(|r| r.t)
            .collect()
    }

    /// The first sample at or after `t` in state `state`.
    pub fn first_in_state(&self, state: CaState) -> Option<(usize, &StateSample)> {
        self.trace
            .iter()
            .enumerate()
            .find(|(_, s)| s.state == state)
    }
}

/// A sender driven event by event at chosen times, with no path in between:
/// the ACK-by-ACK scripts of the recovery and timeout tests (PRR, RACK-TLP,
/// F-RTO) hold one and add their own constructors and ACK helpers.
pub(crate) struct Driver {
    /// The sender under test.
    pub(crate) s: TcpSender,
    /// The time of the last event.
    pub(crate) now: SimTime,
    /// Every segment released, with whether it was a retransmission.
    pub(crate) sent: Vec<(u64, bool)>,
}

impl Driver {
    /// A sender for an infinite transfer, started at 0, nothing sent yet.
    pub(crate) fn started(c: &TcpConfig) -> Self {
        let mut d = Driver {
            s: TcpSender::new(c, None),
            now: SimTime::ZERO,
            sent: Vec::new(),
        };
        d.s.start(d.now);
        d
    }

    /// Everything the sender sends now.
    pub(crate) fn drain(&mut self) -> Vec<u64> {
        let mut out = Vec::new();
        while let Some(seg) = self.s.poll_transmit(self.now) {
            self.sent.push((seg.seq, seg.retransmit));
            out.push(seg.seq);
        }
        out
    }

    /// `ack` arrives at `now` with SACK blocks `sack` (start, end); what it
    /// released.
    pub(crate) fn ack_at(&mut self, now: SimTime, ack: u64, sack: &[(u64, u64)]) -> Vec<u64> {
        self.ack_ts(now, ack, sack, 0)
    }

    /// As [`Self::ack_at`], the ACK echoing timestamp `tsecr` (RFC 7323;
    /// 0: none).
    pub(crate) fn ack_ts(
        &mut self,
        now: SimTime,
        ack: u64,
        sack: &[(u64, u64)],
        tsecr: u32,
    ) -> Vec<u64> {
        self.now = now;
        let blocks: Vec<SackBlock> = sack
            .iter()
            .map(|&(start, end)| SackBlock { start, end })
            .collect();
        let mut a = Ack::with_sack(ack, &blocks);
        a.tsecr = tsecr;
        self.s.on_ack(self.now, &a);
        self.drain()
    }

    /// Fires the sender's timer at its deadline; what it released.
    pub(crate) fn fire(&mut self) -> Vec<u64> {
        self.now = self.s.next_deadline().expect("a timer is armed");
        self.s.on_timeout(self.now);
        self.drain()
    }
}

/// Declares `struct Driven(Driver)`, dereferencing to [`Driver`], for a test
/// file of ACK-by-ACK scripts to give its own constructors and helpers (the
/// PRR, RACK-TLP, F-RTO and undo tests).
macro_rules! driven {
    () => {
        /// A sender driven ACK by ACK at given times, with no path in
        /// between ([`crate::tcp::testkit::Driver`]).
        struct Driven($crate::tcp::testkit::Driver);

        impl std::ops::Deref for Driven {
            type Target = $crate::tcp::testkit::Driver;
            fn deref(&self) -> &Self::Target {
                &self.0
            }
        }

        impl std::ops::DerefMut for Driven {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.0
            }
        }
    };
}
pub(crate) use driven;

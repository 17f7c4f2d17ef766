//! RACK-TLP (RFC 8985) through the sender: RACK's time-based loss marks
//! and reordering timer, the tail loss probe, the timers' order, renewal,
//! and the switches off leaving RFC 6675 as it was.

#![allow(clippy::float_cmp)] // whole segments: equality is the claim

use crate::tcp::config::{Prr, TcpConfig, Variant};
use crate::tcp::control::CaState;
use crate::tcp::profile::profile;
use crate::tcp::segment::SackBlock;
use crate::tcp::testkit::{Driver, Harness, Path};
use crate::tcp::TcpSender;
use crate::time::{SimDuration, SimTime};

use super::{sent_after, Rack};
use crate::tcp::recovery::Scoreboard;

const MS: SimDuration = SimDuration::from_millis(1);

/// One 1040-byte segment at 100 Mbit/s.
fn ser() -> SimDuration {
    SimDuration::transmission(1040, 100_000_000)
}

fn at(d: SimDuration) -> SimTime {
    SimTime::ZERO + d
}

/// The `rfc` profile's SACK sender (RFC 6675) with all 20 segments of a
/// flow in its initial window, an ACK per segment, and RACK / TLP as
/// given.
fn cfg(rack: bool, tlp: bool) -> TcpConfig {
    let mut c = profile("rfc").unwrap();
    c.variant = Variant::Sack;
    c.initial_cwnd = 20;
    c.max_window = 100;
    c.rwnd = 100;
    c.delayed_ack = false;
    c.rack_tlp.rack = rack;
    c.rack_tlp.tlp = tlp;
    c
}

/// 50 ms each way, 100 Mbit/s, first transmissions of `drop` lost.
fn path(drop: &[u64]) -> Path {
    let mut p = Path::new(SimDuration::from_millis(50), 100_000_000);
    p.drop_first = drop.to_vec();
    p
}

/// A 20-segment flow over [`path`].
fn run(c: &TcpConfig, drop: &[u64]) -> Harness {
    let mut h = Harness::new(c, Some(20_000), path(drop));
    let done = h.run_to_completion(at(SimDuration::from_secs(30)));
    assert!(done.is_some(), "the flow completes");
    h
}

crate::tcp::testkit::driven!();

impl Driven {
    /// Started at 0, its initial window (segments 0-9) sent.
    fn new(c: &TcpConfig) -> Self {
        let mut c = c.clone();
        c.initial_cwnd = 10;
        let mut d = Driven(Driver::started(&c));
        assert_eq!(d.drain(), (0..10).collect::<Vec<_>>());
        d
    }

    /// ACK `ack` with SACK blocks `sack` at `t` (ms); what it released.
    fn ack(&mut self, t_ms: u64, ack: u64, sack: &[(u64, u64)]) -> Vec<u64> {
        self.ack_at(at(MS.saturating_mul(t_ms)), ack, sack)
    }
}

// ---- RACK: loss without three duplicate ACKs -------------------------------

/// Segment 17 of 20 lost: only 18 and 19 are SACKed above it, two
/// duplicate ACKs, short of `DupThresh`. RFC 6675 alone waits for the RTO
/// (1 s). RACK (RFC 8985 §6.2): reo_wnd = min_RTT/4 (fewer than DupThresh
/// SACKed, no reordering seen); segment 17 was sent with 18 and 19 (same
/// time, lower sequence), so it is lost once `RACK.rtt + reo_wnd` has
/// passed since it was sent: the reordering timer fires then and the
/// recovery retransmits it, with no RTO.
#[test]
fn rack_marks_a_tail_loss_after_reo_wnd_without_dupthresh() {
    let off = run(&cfg(false, false), &[17]);
    assert_eq!(off.sender.stats().to_events, 1, "RFC 6675 alone: an RTO");
    assert_eq!(off.sender.stats().td_events, 0);

    let h = run(&cfg(true, false), &[17]);
    let st = h.sender.stats();
    assert_eq!((st.to_events, st.td_events, st.retransmits), (0, 1, 1));
    // min_RTT: segment 0, ACKed at 50 ms + one serialisation + 50 ms.
    let min_rtt = SimDuration::from_millis(100) + ser();
    assert_eq!(
        h.sender.loss_recovery().rack().unwrap().min_rtt(),
        Some(min_rtt)
    );
    // RACK.rtt: segment 19, sent at 0, ACKed after 20 serialisations.
    let rack_rtt = SimDuration::from_millis(100) + ser().saturating_mul(20);
    let reo_wnd = SimDuration::from_nanos(min_rtt.as_nanos() / 4);
    // Segment 17 sent at 0: lost at 0 + RACK.rtt + reo_wnd.
    assert_eq!(h.retransmissions_of(17), vec![at(rack_rtt + reo_wnd)]);
    assert_eq!(
        h.timers,
        vec![at(rack_rtt + reo_wnd)],
        "the reordering timer"
    );
    assert_eq!(st.rack_timer_events, 1);
    assert!(h.timeouts.is_empty());
}

/// With `DupThresh` segments SACKed above a hole and no reordering seen,
/// reo_wnd is 0 (RFC 8985 §6.2 step 4): the loss is marked on that ACK,
/// as RFC 6675's `IsLost` would, with no timer.
#[test]
fn rack_with_three_sacked_marks_at_once() {
    let h = run(&cfg(true, false), &[10]);
    let st = h.sender.stats();
    assert_eq!(
        (st.to_events, st.td_events, st.rack_timer_events),
        (0, 1, 0)
    );
    // The ACK that SACKs 11, 12 and 13 (the third duplicate): segment 13
    // ACKed at 100 ms + 14 serialisations.
    let third = SimDuration::from_millis(100) + ser().saturating_mul(14);
    assert_eq!(h.retransmissions_of(10), vec![at(third)]);
    // The same instant as RFC 6675's third duplicate ACK.
    let off = run(&cfg(false, false), &[10]);
    assert_eq!(off.retransmissions_of(10), vec![at(third)]);
}

// ---- RACK: reordering -------------------------------------------------------

/// Segment 1 arrives 4 ms after segment 2 (reordered), within reo_wnd =
/// min_RTT/4 = 25 ms: RACK arms the reordering timer for it (RFC 8985 §6.2
/// step 5) but the ACK that delivers it comes first: nothing is marked,
/// nothing retransmitted, and `RACK.reordering_seen` is set (step 3).
#[test]
fn reordering_within_reo_wnd_is_not_marked() {
    let mut d = Driven::new(&cfg(true, false));
    d.ack(100, 1, &[]); // segment 0: min_RTT 100 ms
    d.ack(101, 1, &[(2, 3)]); // segment 2 before segment 1
    let rack = d.s.loss_recovery().rack().unwrap();
    assert_eq!(rack.reo_wnd(), MS.saturating_mul(25));
    // Segment 1, sent at 0: 0 + RACK.rtt (101 ms) + 25 ms.
    assert_eq!(d.s.next_deadline(), Some(at(MS.saturating_mul(126))));
    assert_eq!(rack.lost_pending(), 0);
    let sent = d.ack(105, 3, &[]); // segment 1 arrives, reordered
                                   // New data only (slow start: cwnd 12 from snd_una 3).
    assert_eq!(sent, vec![13, 14]);
    let rack = d.s.loss_recovery().rack().unwrap();
    assert!(rack.reordering_seen());
    assert_eq!(rack.deadline(), None, "nothing left to wait for");
    assert_eq!(d.s.state(), CaState::Open);
    assert_eq!(d.s.stats().retransmits, 0);
}

/// The same, but segment 1 never arrives: the reordering timer fires at
/// 126 ms, RACK marks it lost and recovery starts and retransmits it, then
/// and not before.
#[test]
fn reordering_timer_fires_and_marks() {
    let mut d = Driven::new(&cfg(true, false));
    d.ack(100, 1, &[]);
    d.ack(101, 1, &[(2, 3)]);
    // Limited transmit (RFC 3042) sends 12, then 13; 1 is not yet lost.
    assert_eq!(d.ack(110, 1, &[(2, 4)]), vec![13]);
    assert_eq!(d.s.state(), CaState::Open);
    // Segment 3 was sent at 0 too: RACK.rtt is now 110 ms, the timer
    // moves to 0 + 110 + 25 ms.
    assert_eq!(d.s.next_deadline(), Some(at(MS.saturating_mul(135))));
    let sent = d.fire();
    assert_eq!(d.now, at(MS.saturating_mul(135)));
    assert_eq!(d.s.state(), CaState::Recovery);
    assert_eq!(sent.first(), Some(&1), "segment 1 retransmitted first");
    let st = d.s.stats();
    assert_eq!(
        (st.td_events, st.to_events, st.rack_timer_events),
        (1, 0, 1)
    );
}

/// A lost retransmission: RFC 6675 cannot see it (HighRxt is past it) and
/// waits for the RTO; RACK marks it lost again once a segment sent after
/// it is delivered, and resends it (RFC 8985 §2.2, §6.2).
#[test]
fn rack_detects_a_lost_retransmission() {
    let mut p = path(&[10]);
    p.drop_nth = vec![(10, 2)];
    let mut c = cfg(true, false);
    c.max_window = 40;
    c.rwnd = 40;
    let mut h = Harness::new(&c, Some(60_000), p);
    assert!(h
        .run_to_completion(at(SimDuration::from_secs(30)))
        .is_some());
    assert_eq!(h.retransmissions_of(10).len(), 2);
    assert_eq!(h.sender.stats().to_events, 0, "no RTO");

    let mut p = path(&[10]);
    p.drop_nth = vec![(10, 2)];
    let mut c = cfg(false, false);
    c.max_window = 40;
    c.rwnd = 40;
    let mut h = Harness::new(&c, Some(60_000), p);
    assert!(h
        .run_to_completion(at(SimDuration::from_secs(30)))
        .is_some());
    assert_eq!(h.sender.stats().to_events, 1, "RFC 6675 alone: an RTO");
}

// ---- TLP ---------------------------------------------------------------------

/// Segments 17-19, the tail, lost: no ACK reports them. With TLP, 2·SRTT
/// after the last ACK (ACK 17; three segments in flight, so no delayed-ACK
/// allowance) the probe resends segment 19, the highest sent (no new data;
/// RFC 8985 §7.3); its SACK lets RACK mark 17 and 18 lost and the recovery
/// resend them: no RTO. Without RACK-TLP the RTO (1 s) fires.
#[test]
fn tlp_probe_on_a_tail_loss_starts_rack_recovery_without_an_rto() {
    let off = run(&cfg(false, false), &[17, 18, 19]);
    assert_eq!(off.sender.stats().to_events, 1);

    let h = run(&cfg(true, true), &[17, 18, 19]);
    let st = h.sender.stats();
    assert_eq!(st.tlp_probes, 1);
    assert_eq!((st.to_events, st.td_events), (0, 1));
    assert!(h.timeouts.is_empty());
    // SRTT: one sample, segment 0's (100 ms + one serialisation).
    let srtt = SimDuration::from_millis(100) + ser();
    // ACK 17: segment 16 ACKed after 17 serialisations.
    let last_ack = SimDuration::from_millis(100) + ser().saturating_mul(17);
    let probe = at(last_ack + srtt.saturating_mul(2));
    assert_eq!(h.retransmissions_of(19), vec![probe]);
    // Its SACK (one RTT later) marks 17 and 18: resent at once.
    let r17 = h.retransmissions_of(17);
    assert_eq!(r17.len(), 1);
    assert!(r17[0] > probe + SimDuration::from_millis(100));
    assert!(r17[0] < probe + SimDuration::from_millis(101));
    assert_eq!(h.retransmissions_of(18), r17);
    assert!(h.sender.stats().completed_at.unwrap() < off.sender.stats().completed_at.unwrap());
}

/// One segment in flight: the PTO adds `WCDelAckT` (RFC 8985 §7.2, 200 ms)
/// for the receiver's delayed ACK. Segment 19 alone lost: the probe resends
/// it, its ACK ends the episode with the loss repaired and cwnd reduced as
/// for a fast retransmit (§7.4).
#[test]
fn tlp_with_one_segment_in_flight_waits_for_the_delayed_ack() {
    let h = run(&cfg(true, true), &[19]);
    let st = h.sender.stats();
    assert_eq!((st.tlp_probes, st.tlp_recoveries, st.to_events), (1, 1, 0));
    let srtt = SimDuration::from_millis(100) + ser();
    let last_ack = SimDuration::from_millis(100) + ser().saturating_mul(19);
    let probe = at(last_ack + srtt.saturating_mul(2) + SimDuration::from_millis(200));
    assert_eq!(h.retransmissions_of(19), vec![probe]);
}

/// A probe of new data: with data left to send but cwnd full, the probe
/// sends the next new segment (RFC 8985 §7.3) outside cwnd.
#[test]
fn tlp_probe_sends_new_data_when_there_is_some() {
    let mut d = Driven::new(&cfg(true, true));
    d.ack(100, 1, &[]);
    d.ack(100, 2, &[]);
    // Two ACKs then silence: cwnd (slow start) sent 10-13.
    let pto = d.s.pto_deadline().expect("PTO armed");
    let srtt = d.s.srtt().unwrap();
    assert_eq!(pto, at(MS.saturating_mul(100) + srtt.saturating_mul(2)));
    assert!(pto < d.s.rto_deadline().unwrap());
    let sent = d.fire();
    assert_eq!(sent, vec![14], "one new segment");
    assert_eq!(d.s.stats().tlp_probes, 1);
    assert_eq!(d.s.stats().retransmits, 0);
    // "MUST re-arm the RTO timer, not the PTO timer".
    assert_eq!(d.s.pto_deadline(), None);
    assert_eq!(d.s.rto_deadline(), Some(d.now + d.s.rto()));
}

/// The PTO never fires after the RTO would (RFC 8985 §7.2: "PTO =
/// min(TCP_RTO_expiration() - Now(), PTO)"): with a 150 ms RTO below
/// 2·SRTT, the probe goes at the RTO's time instead of an RTO. With data
/// SACKed (not allowed, §7.2) no PTO is armed and the RTO (or RACK's
/// timer) comes first: no probe.
#[test]
fn the_rto_comes_first_when_no_probe_is_allowed() {
    let mut c = cfg(true, true);
    c.rto.min = SimDuration::from_millis(100);
    c.rto.max = SimDuration::from_millis(150);
    c.rto.initial = SimDuration::from_millis(150);
    let mut d = Driven::new(&c);
    d.ack(100, 1, &[]);
    let rto_at = d.s.rto_deadline().unwrap();
    assert!(rto_at < at(MS.saturating_mul(100)) + d.s.srtt().unwrap().saturating_mul(2));
    assert_eq!(d.s.pto_deadline(), Some(rto_at), "capped at the RTO");
    d.fire();
    assert_eq!(d.s.stats().tlp_probes, 1);
    assert_eq!(d.s.stats().to_events, 0);

    // SACKed data: no PTO.
    let mut d = Driven::new(&cfg(true, true));
    d.ack(100, 1, &[]);
    d.ack(101, 1, &[(5, 6)]);
    assert_eq!(d.s.pto_deadline(), None);
    // Everything else is lost: RACK's timer marks 1-4, recovery.
    d.fire();
    assert_eq!(d.s.state(), CaState::Recovery);
    assert_eq!(d.s.stats().tlp_probes, 0);
}

// ---- with PRR, renewal, off -------------------------------------------------

/// RACK-TLP with PRR (RFC 6937) on a lossy path: flows complete, the
/// recoveries start by RACK, fewer RTOs than RFC 6675 alone.
#[test]
fn rack_tlp_with_prr_on_a_lossy_path() {
    let mut tos = Vec::new();
    for on in [false, true] {
        let mut c = cfg(on, on);
        c.prr = Prr::Ssrb;
        c.initial_cwnd = 4;
        c.max_window = 30;
        c.rwnd = 30;
        let mut total = 0;
        for seed in 1..=5 {
            let p = Path::new(SimDuration::from_millis(20), 20_000_000).with_loss(0.03, seed);
            let mut h = Harness::new(&c, Some(300_000), p);
            assert!(h
                .run_to_completion(at(SimDuration::from_secs(600)))
                .is_some());
            total += h.sender.stats().to_events;
        }
        tos.push(total);
    }
    assert!(tos[1] < tos[0], "RTOs off/on: {tos:?}");
}

/// A renewed RACK-TLP sender is the one `new` builds, from one stopped in
/// a RACK recovery with a probe sent.
#[test]
fn renewed_rack_tlp_sender_equals_a_new_one() {
    let c = cfg(true, true);
    let mut h = Harness::new(&c, Some(20_000), path(&[17, 18, 19]));
    let mut t = SimTime::ZERO;
    while h.sender.state() != CaState::Recovery {
        t += MS;
        assert!(t < at(SimDuration::from_secs(10)));
        h.run_until(t);
    }
    assert_eq!(h.sender.stats().tlp_probes, 1);
    let mut sender = h.sender;
    sender.renew(&c, Some(100_000));
    let fresh = TcpSender::new(&c, Some(100_000));
    assert_eq!(format!("{sender:?}"), format!("{fresh:?}"));
}

/// `rack = false, tlp = false` is RFC 6675 exactly: the same transmissions
/// as the profile's own SACK sender on a lossy path (the switches are read
/// nowhere else).
#[test]
fn off_is_rfc6675() {
    let mut a = cfg(false, false);
    a.rack_tlp.tlp_max_ack_delay = SimDuration::from_millis(7);
    let b = cfg(false, false);
    let run = |c: &TcpConfig| {
        let p = Path::new(SimDuration::from_millis(20), 20_000_000).with_loss(0.02, 3);
        let mut h = Harness::new(c, Some(300_000), p);
        h.run_to_completion(at(SimDuration::from_secs(600)));
        h.tx.iter().map(|r| (r.t, r.seg.seq)).collect::<Vec<_>>()
    };
    assert_eq!(run(&a), run(&b));
}

/// A burst loss takes a whole window and the probe with it (one OBS burst
/// lost, then the path stays down past the probe): TLP sends one probe,
/// 2·SRTT after the last ACK, then the RTO fires one RTO after the probe
/// (§7.3: re-armed then), and no probe is armed while the go-back-N
/// (Loss state) is under way.
#[test]
fn a_lost_probe_leaves_the_rto_and_no_probe_in_the_loss_state() {
    let mut c = cfg(true, true);
    c.initial_cwnd = 2;
    let mut p = path(&[]);
    // From 300 ms to 800 ms everything sent is lost.
    p.drop_during = vec![(at(MS.saturating_mul(300)), at(MS.saturating_mul(800)))];
    let mut h = Harness::new(&c, Some(3_000_000), p);
    assert!(h
        .run_to_completion(at(SimDuration::from_secs(60)))
        .is_some());
    let st = h.sender.stats();
    assert_eq!((st.tlp_probes, st.to_events), (1, 1), "{st:?}");
    let probe = h.tx.iter().find(|r| r.t == h.timers[0]).expect("the probe");
    assert!(probe.dropped);
    // The RTO one RTO (1 s, the rfc profile's minimum) after the probe.
    assert_eq!(h.timeouts, vec![h.timers[0] + SimDuration::from_secs(1)]);
    assert_eq!(h.timers.len(), 1, "no probe after the RTO");
}

// ---- The time-ordered list against RFC 8985's scan ---------------------------

/// RFC 8985 §6.2 step 5 `RACK_detect_loss_and_arm_timer()` as the RFC
/// writes it, a scan of every outstanding segment: the reference the
/// time-ordered [`Rack::detect_loss`] must match exactly.
fn detect_loss_by_scan(
    r: &mut Rack,
    sb: &mut Scoreboard,
    nxt: u64,
    in_recovery: bool,
    dupthresh: u32,
) -> u64 {
    let una = sb.una();
    r.update_reo_wnd(in_recovery, sb.sacked_count(), dupthresh);
    r.deadline = None;
    r.lost_pending = 0;
    let Some(rack_ts) = r.xmit_ts else {
        return 0;
    };
    let mut marked = 0;
    let mut latest: Option<SimTime> = None;
    for seq in una..nxt {
        if sb.is_sacked(seq) {
            continue;
        }
        let retransmitted = sb.is_retransmitted(seq);
        if sb.is_rack_lost(seq) && !retransmitted {
            r.lost_pending += 1;
            continue;
        }
        let xmit = sb.xmit_ts(seq);
        if !sent_after(rack_ts, r.end_seq, xmit, seq + 1) {
            continue;
        }
        let due = xmit + r.rtt + r.reo_wnd;
        if due <= r.now {
            sb.mark_lost(seq);
            marked += 1;
            r.lost_pending += 1;
        } else {
            latest = Some(latest.map_or(due, |l| l.max(due)));
        }
    }
    r.deadline = latest;
    marked
}

/// xorshift64*: a fixed pseudo-random script for the test below.
struct Script(u64);

impl Script {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

/// RACK's outputs of one detection: segments marked, the reordering
/// timer's deadline, segments lost and unsent.
type Detected = (u64, Option<SimTime>, u64);

/// The same detection on the reference `a` (the RFC's scan) and on `b`.
fn detect_both(
    a: &mut (Scoreboard, Rack),
    b: &mut (Scoreboard, Rack),
    nxt: u64,
    in_recovery: bool,
) -> (Detected, Detected) {
    let x = detect_loss_by_scan(&mut a.1, &mut a.0, nxt, in_recovery, 3);
    let y = b.1.detect_loss(&mut b.0, nxt, in_recovery, 3);
    (
        (x, a.1.deadline(), a.1.lost_pending()),
        (y, b.1.deadline(), b.1.lost_pending()),
    )
}

/// What `Sack::on_ack_info_rack` does before detecting: RACK learns of
/// each segment the ACK delivers, then the scoreboard records it.
fn deliver(
    (sb, r): &mut (Scoreboard, Rack),
    una: u64,
    new_una: u64,
    blocks: &[SackBlock],
    nxt: u64,
) {
    r.begin_ack();
    for s in una..new_una {
        if !sb.is_sacked(s) {
            r.on_delivered(sb, s);
        }
    }
    for blk in blocks {
        for s in blk.start.max(new_una)..blk.end.min(nxt) {
            if !sb.is_sacked(s) {
                r.on_delivered(sb, s);
            }
        }
    }
    sb.advance(new_una);
    sb.update(blocks, nxt);
}

/// One scoreboard and RACK state driven by a random script of
/// transmissions (several at one instant, retransmissions of any
/// outstanding segment), ACKs with SACK blocks out of order (so
/// `RACK.reordering_seen` and a non-zero `reo_wnd`), reordering timers
/// and retransmission timeouts (RFC 2018 §8's clearing), in a ring that
/// wraps many times: after every detection the time-ordered list marks
/// exactly the segments the RFC's scan marks, arms the same deadline and
/// counts the same lost segments; the list and the count match the bits.
#[test]
fn time_ordered_detection_equals_the_rfc_scan() {
    for seed in 1..=40u64 {
        let mut rng = Script(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let window = 8 + rng.below(120);
        let mut sb = Scoreboard::new(window as u32 + 1, 3);
        sb.enable_rack();
        let mut a = (sb.clone(), Rack::new());
        let mut b = (sb, Rack::new());
        let (mut una, mut nxt) = (0u64, 0u64);
        let mut now = SimTime::ZERO;
        for step in 0..3000 {
            match rng.below(10) {
                0 => now += SimDuration::from_micros(rng.below(3) * rng.below(2000)),
                1..=3 => {
                    for _ in 0..=rng.below(4) {
                        if nxt - una < window {
                            for (sb, _) in [&mut a, &mut b] {
                                sb.note_xmit(nxt, now);
                            }
                            nxt += 1;
                        }
                    }
                }
                4 if nxt > una => {
                    let s = una + rng.below(nxt - una);
                    for (sb, _) in [&mut a, &mut b] {
                        sb.note_xmit(s, now);
                        sb.mark_retransmitted(s);
                    }
                }
                5..=7 => {
                    now += SimDuration::from_micros(rng.below(500));
                    let new_una = una + rng.below((nxt - una) / 4 + 1);
                    let mut blocks = Vec::new();
                    for _ in 0..rng.below(3) {
                        if nxt > new_una {
                            let start = new_una + rng.below(nxt - new_una);
                            let end = (start + 1 + rng.below(6)).min(nxt);
                            blocks.push(SackBlock { start, end });
                        }
                    }
                    let in_recovery = rng.below(2) == 0;
                    let srtt = Some(SimDuration::from_millis(1 + rng.below(3)));
                    for p in [&mut a, &mut b] {
                        p.1.set_clock(now, srtt);
                        deliver(p, una, new_una, &blocks, nxt);
                    }
                    let (x, y) = detect_both(&mut a, &mut b, nxt, in_recovery);
                    assert_eq!(x, y, "seed {seed} step {step}");
                    una = new_una;
                }
                8 => {
                    // The reordering timer, at its deadline if armed.
                    if let Some(d) = b.1.deadline() {
                        now = now.max(d);
                    }
                    let in_recovery = rng.below(2) == 0;
                    for p in [&mut a, &mut b] {
                        p.1.set_clock(now, Some(SimDuration::from_millis(2)));
                    }
                    let (x, y) = detect_both(&mut a, &mut b, nxt, in_recovery);
                    assert_eq!(x, y, "seed {seed} step {step} (timer)");
                }
                9 if rng.below(20) == 0 => {
                    // A retransmission timeout (RFC 2018 §8).
                    for (sb, r) in [&mut a, &mut b] {
                        sb.clear();
                        r.disarm();
                    }
                }
                _ => {}
            }
            for s in una..nxt {
                let (x, y) = (&a.0, &b.0);
                assert_eq!(
                    (x.is_rack_lost(s), x.is_retransmitted(s), x.is_sacked(s)),
                    (y.is_rack_lost(s), y.is_retransmitted(s), y.is_sacked(s)),
                    "seed {seed} step {step} segment {s}"
                );
            }
            b.0.check_time_order(nxt);
        }
    }
}

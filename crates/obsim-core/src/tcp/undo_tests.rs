//! Timestamps (RFC 7323) and D-SACK (RFC 2883) at the sender, ACK by ACK,
//! as Linux 6.18 reads them: an RTT sample on every ACK, from retransmitted
//! data too; a spurious timeout and a spurious fast retransmit undone by
//! the timestamp echo (RFC 3522 Eifel detection, `tcp_packet_delayed`) or
//! by D-SACKs (RFC 3708, `tcp_try_undo_dsack`); real losses not undone;
//! the switches off leaving the sender as it was.

#![allow(clippy::float_cmp)] // whole segments: equality is the claim

use crate::tcp::config::{Dsack, TcpConfig, Timestamps, Variant};
use crate::tcp::control::CaState;
use crate::tcp::profile::profile;
use crate::tcp::segment::ts_clock;
use crate::tcp::testkit::Driver;
use crate::time::{SimDuration, SimTime};

const MS: SimDuration = SimDuration::from_millis(1);

fn at(t_ms: u64) -> SimTime {
    SimTime::ZERO + MS.saturating_mul(t_ms)
}

/// TSval of a segment sent at `t_ms`.
fn ts(t_ms: u64) -> u32 {
    ts_clock(at(t_ms))
}

/// The `rfc` profile's SACK sender with RACK (RFC 6675 + RFC 8985 §6, RFC
/// 5681 growth per ACK, RTO at least 1 s), an ACK per segment, room to
/// grow, timestamps and D-SACK as given, F-RTO off.
fn cfg(timestamps: bool, dsack: bool) -> TcpConfig {
    let mut c = profile("rfc").unwrap();
    c.variant = Variant::Sack;
    c.initial_cwnd = 10;
    c.max_window = 100;
    c.rwnd = 100;
    c.delayed_ack = false;
    c.rack_tlp.rack = true;
    c.timestamps = if timestamps {
        Timestamps::Linux
    } else {
        Timestamps::Off
    };
    c.dsack = if dsack { Dsack::Linux } else { Dsack::Off };
    c
}

crate::tcp::testkit::driven!();

impl Driven {
    /// Started at 0 with segments 0-9 out (TSval `ts(0)`).
    fn new(c: &TcpConfig) -> Self {
        let mut d = Driven(Driver::started(c));
        assert_eq!(d.drain(), (0..10).collect::<Vec<_>>());
        d
    }

    /// ACK `ack` with SACK blocks `sack`, echoing `tsecr`, at `t_ms`; what
    /// it released.
    fn ack(&mut self, t_ms: u64, ack: u64, sack: &[(u64, u64)], tsecr: u32) -> Vec<u64> {
        self.ack_ts(at(t_ms), ack, sack, tsecr)
    }

    /// Segment 1 of 0-9 goes missing (delayed or lost): ACK 1 at 100 ms
    /// (slow start: cwnd 11, segments 10 and 11 out), then duplicate ACKs
    /// SACKing 2, 2-3, 2-4 at 101-103 ms (limited transmit: 12 and 13); on
    /// the third RACK marks 1 lost (three SACKed above it, reo_wnd 0) and
    /// the fast retransmit resends it at 103 ms.
    fn fast_retransmit_of_1(c: &TcpConfig) -> Self {
        let mut d = Driven::new(c);
        assert_eq!(d.ack(100, 1, &[], ts(0)), vec![10, 11]);
        assert_eq!(d.ack(101, 1, &[(2, 3)], ts(0)), vec![12]);
        assert_eq!(d.ack(102, 1, &[(2, 4)], ts(0)), vec![13]);
        let out = d.ack(103, 1, &[(2, 5)], ts(0));
        assert_eq!(out[0], 1, "the fast retransmit");
        assert_eq!(d.s.state(), CaState::Recovery);
        assert_eq!(d.s.stats().td_events, 1);
        d
    }

    /// Started at 0 with segments 0-9 out; at 100 ms segments 0-4 are ACKed
    /// one by one (cwnd 15, segments 10-19 out at 100 ms), then nothing
    /// arrives until the RTO fires at 1100 ms and resends segment 5.
    fn after_rto(c: &TcpConfig) -> Self {
        let mut d = Driven::new(c);
        for a in 1..=5 {
            d.ack(100, a, &[], ts(0));
        }
        assert_eq!((d.s.snd_una(), d.s.snd_nxt(), d.s.cwnd()), (5, 20, 15.0));
        assert_eq!(d.fire(), vec![5], "the timer resends SND.UNA");
        assert_eq!(d.now, at(1100));
        assert_eq!((d.s.cwnd(), d.s.state()), (1.0, CaState::Loss));
        d
    }
}

// ---- RTT samples (Linux `tcp_ack_update_rtt`) --------------------------------

/// With timestamps every ACK of new data is a sample, from the send time
/// of the first segment it newly acknowledges (`seq_rtt_us`); without,
/// one segment is timed per round trip (Karn, RFC 6298 §3).
#[test]
fn every_ack_is_an_rtt_sample_with_timestamps() {
    for (on, want) in [(true, 5), (false, 1)] {
        let mut d = Driven::new(&cfg(on, false));
        for (i, a) in (1..=5).enumerate() {
            d.ack(100 + i as u64, a, &[], ts(0));
        }
        let st = d.s.stats();
        assert_eq!(st.rtt_samples, want, "timestamps {on}");
        if on {
            // 100, 101, ..., 104 ms: from the segments' send time (0), not
            // from TSecr's 1 ms clock.
            assert_eq!(st.rtt_sum, MS.saturating_mul(510));
        }
    }
}

/// The ACK of a retransmitted segment: Karn's rule forbids a sample from
/// the send times (`FLAG_RETRANS_DATA_ACKED`), but the echo of the
/// retransmission's TSval is one (RFC 7323 §4.1, Linux's TS-ECR fallback):
/// 100 ms, in whole ticks of the 1 ms clock. Without timestamps no sample.
#[test]
fn the_ack_of_a_retransmission_is_an_rtt_sample_with_timestamps() {
    for on in [true, false] {
        let mut d = Driven::fast_retransmit_of_1(&cfg(on, false));
        let before = d.s.stats().clone();
        let nxt = d.s.snd_nxt();
        // The retransmission (TSval ts(103)) fills the hole; its ACK
        // covers everything sent.
        d.ack(203, nxt, &[], ts(103));
        let st = d.s.stats();
        if on {
            assert_eq!(st.rtt_samples, before.rtt_samples + 1);
            assert_eq!(st.rtt_sum, before.rtt_sum + MS.saturating_mul(100));
        } else {
            assert_eq!(st.rtt_samples, before.rtt_samples, "Karn");
        }
    }
}

// ---- a spurious timeout: Eifel detection in the Loss state --------------------

/// A delay spike past the RTO (F-RTO off): the first ACK after the timeout
/// echoes the original segment 5's TSval, older than the timer's
/// retransmission: `tcp_try_undo_loss` restores cwnd 15 (and the infinite
/// ssthresh), the Open state, no go-back-N; the ACK then grows cwnd to 16
/// and releases new data only. Without timestamps go-back-N resends 6, 7.
#[test]
fn a_spurious_timeout_is_undone_by_the_timestamp_echo() {
    let mut d = Driven::after_rto(&cfg(true, false));
    assert_eq!(d.ack(1150, 6, &[], ts(0)), vec![20, 21]);
    let st = d.s.stats();
    assert_eq!((st.to_events, st.loss_undos, st.spurious_rtos), (1, 1, 0));
    assert_eq!((d.s.state(), d.s.cwnd()), (CaState::Open, 16.0));
    assert_eq!(d.s.ssthresh(), f64::from(u32::MAX));
    assert_eq!(d.ack(1151, 8, &[], ts(0)), vec![22, 23, 24]);
    assert_eq!(d.s.stats().retransmits, 1);

    let mut off = Driven::after_rto(&cfg(false, false));
    assert_eq!(off.ack(1150, 6, &[], 0), vec![6, 7], "go-back-N");
    assert_eq!(off.s.stats().loss_undos, 0);
}

/// A real timeout: the ACK echoes the retransmission (segment 5 was lost,
/// its resend at 1100 ms arrived): no undo, go-back-N goes on.
#[test]
fn a_real_timeout_is_not_undone() {
    let mut d = Driven::after_rto(&cfg(true, true));
    assert_eq!(d.ack(1200, 6, &[], ts(1100)), vec![6, 7]);
    let st = d.s.stats();
    assert_eq!(
        (st.loss_undos, st.dsack_undos, st.recovery_undos),
        (0, 0, 0)
    );
    assert_eq!((d.s.state(), d.s.cwnd()), (CaState::Loss, 2.0));
}

/// RACK after a spurious timeout (F-RTO on, as in the linux profile): the
/// delayed original of segment 5 is ACKed 150 ms after the timer's
/// retransmission, more than min_RTT (100 ms). Without timestamps RACK
/// takes the ACK for one of the retransmission (RFC 8985 §6.2 step 2) and,
/// once F-RTO has undone the timeout, marks every segment sent before it
/// lost (8-19): a needless recovery. With timestamps the
/// echo (the original's TSval, older than the retransmission) tells it
/// apart (Linux `tcp_skb_spurious_retrans`): RACK keeps the originals'
/// times, nothing is marked, only the timer's retransmission was sent.
#[test]
fn rack_does_not_take_the_ack_of_an_original_for_one_of_its_retransmission() {
    for on in [true, false] {
        let mut c = cfg(on, false);
        c.frto = crate::tcp::config::Frto::Linux;
        let mut d = Driven::after_rto(&c);
        let echo = if on { ts(0) } else { 0 };
        d.ack(1250, 6, &[], echo);
        d.ack(1251, 7, &[], echo);
        d.ack(1252, 8, &[], echo);
        let st = d.s.stats();
        assert_eq!(
            st.loss_undos + st.spurious_rtos,
            1,
            "undone, timestamps {on}"
        );
        let rack_rtt = d.s.loss_recovery().rack().unwrap().rtt();
        if on {
            assert_eq!((st.td_events, st.retransmits), (0, 1));
            assert_eq!(d.s.state(), CaState::Open);
            assert_eq!(rack_rtt, MS.saturating_mul(1252), "segment 7's, sent at 0");
        } else {
            assert_eq!(st.td_events, 1, "RACK's needless recovery");
            assert!(st.retransmits > 1, "{}", st.retransmits);
            assert_eq!(rack_rtt, MS.saturating_mul(150), "the retransmission's");
        }
    }
}

// ---- a spurious fast retransmit: reordering -----------------------------------

/// Segment 1 was delayed, not lost: it arrives after the fast retransmit
/// was sent and fills the hole, and the ACK of everything echoes its own
/// TSval (RFC 7323 §4.3: the segment that fills a hole sets TS.Recent),
/// older than the retransmission: `tcp_try_undo_recovery` restores cwnd
/// 11 (before the fast retransmit) and the infinite ssthresh.
#[test]
fn a_spurious_fast_retransmit_is_undone_by_the_timestamp_echo() {
    let mut d = Driven::fast_retransmit_of_1(&cfg(true, false));
    let nxt = d.s.snd_nxt();
    d.ack(104, nxt, &[], ts(0));
    let st = d.s.stats();
    assert_eq!((st.recovery_undos, st.dsack_undos), (1, 0));
    assert_eq!(d.s.state(), CaState::Open);
    assert_eq!(d.s.ssthresh(), f64::from(u32::MAX));
    assert_eq!(d.s.cwnd(), 12.0, "11 restored, then one ACK of slow start");
}

/// Without timestamps the recovery ends with cwnd = ssthresh; the
/// receiver then gets the unneeded retransmission and reports it in a
/// D-SACK block below the cumulative ACK (RFC 2883 §4.1): every
/// retransmission of the episode D-SACKed, `tcp_try_undo_dsack` restores
/// the window in the Open state.
#[test]
fn a_spurious_fast_retransmit_is_undone_by_a_dsack() {
    let mut d = Driven::fast_retransmit_of_1(&cfg(false, true));
    let nxt = d.s.snd_nxt();
    d.ack(104, nxt, &[], 0);
    assert_eq!(d.s.state(), CaState::Open);
    // RFC 5681 eq. (4): FlightSize 13 less the 2 of limited transmit, / 2.
    assert_eq!((d.s.cwnd(), d.s.ssthresh()), (5.5, 5.5));
    assert_eq!(d.s.stats().recovery_undos, 0);
    let una = d.s.snd_una();
    d.ack(105, una, &[(1, 2)], 0);
    let st = d.s.stats();
    assert_eq!((st.dsack_undos, st.recovery_undos), (1, 0));
    assert_eq!(d.s.ssthresh(), f64::from(u32::MAX));
    assert_eq!(d.s.cwnd(), 11.0, "the window before the fast retransmit");
}

/// A real loss: the retransmission fills the hole, the ACK echoes it, and
/// no D-SACK follows: the reduction stands, with timestamps and D-SACK
/// on. A D-SACK for a segment never retransmitted in the episode (more
/// duplicates than retransmissions) is dubious and ignored.
#[test]
fn a_real_loss_is_not_undone() {
    let mut d = Driven::fast_retransmit_of_1(&cfg(true, true));
    let nxt = d.s.snd_nxt();
    d.ack(203, nxt, &[], ts(103));
    let st = d.s.stats();
    assert_eq!(
        (st.recovery_undos, st.dsack_undos, st.loss_undos),
        (0, 0, 0)
    );
    assert_eq!(d.s.state(), CaState::Open);
    let cut = (d.s.cwnd(), d.s.ssthresh());
    assert_eq!(cut, (5.5, 5.5));
    let una = d.s.snd_una();
    d.ack(204, una, &[(4, 6)], ts(103));
    assert_eq!(d.s.stats().dsack_undos, 0, "two duplicates, one resend");
    assert_eq!(d.s.ssthresh(), cut.1);
}

/// A D-SACK that reports only some of an episode's retransmissions undoes
/// nothing (`undo_retrans` stays above 0).
#[test]
fn a_dsack_for_part_of_the_retransmissions_undoes_nothing() {
    let mut d = Driven::fast_retransmit_of_1(&cfg(false, true));
    // Segment 5 is also marked lost (RACK: sent before the SACKed 13, more
    // than RACK.rtt ago) and resent: two retransmissions in the episode.
    assert_eq!(d.ack(110, 1, &[(2, 5), (6, 14)], 0), vec![5, 14, 15, 16]);
    let nxt = d.s.snd_nxt();
    d.ack(150, nxt, &[], 0);
    let una = d.s.snd_una();
    d.ack(151, una, &[(1, 2)], 0);
    assert_eq!(d.s.stats().dsack_undos, 0, "5's resend not reported");
    d.ack(152, una, &[(5, 6)], 0);
    assert_eq!(d.s.stats().dsack_undos, 1, "both reported");
}

// ---- the switches --------------------------------------------------------------

/// Off, a D-SACK block and an old echo change nothing.
#[test]
fn off_nothing_is_undone() {
    let mut d = Driven::fast_retransmit_of_1(&cfg(false, false));
    let nxt = d.s.snd_nxt();
    d.ack(104, nxt, &[], ts(0));
    let una = d.s.snd_una();
    d.ack(105, una, &[(1, 2)], ts(0));
    let st = d.s.stats();
    assert_eq!((st.recovery_undos, st.dsack_undos), (0, 0));
    assert_eq!((d.s.cwnd(), d.s.ssthresh()), (5.5, 5.5));
}

// ---- end to end over the fake path ---------------------------------------------

/// The linux profile over the testkit's path (10 ms each way, 100 Mbit/s)
/// with Bernoulli loss of data and ACKs, and with a delay spike on top:
/// every flow completes with timestamps and D-SACK on or off, and the
/// undo counters stay within the episodes they undo. Random losses are
/// real: nothing is undone. The spike's timeout is undone by the echo with
/// the options on (35 retransmissions; 32 before the linux profile kept
/// CUBIC's Reno-friendly α above `cwnd_prior`, session 17) and by F-RTO
/// without them, RACK then resending part of the delayed window (55;
/// 57 before).
#[test]
fn the_linux_profile_completes_under_loss_with_and_without_the_options() {
    use crate::tcp::testkit::{Harness, Path};
    for (p, seed, spike) in [(0.01, 1, false), (0.05, 2, false), (0.02, 3, true)] {
        let mut retransmits = Vec::new();
        for on in [true, false] {
            // The receive side changes the ACK clock and its RTT needs
            // timestamps: off in both arms, so that only the options differ.
            let mut c = crate::tcp::profile::linux_plain_ack_clock();
            // RFC 9438's arithmetic times its target by the sender's
            // minimum RTT, the same in both arms; Linux's by the samples
            // each ACK carries, which timestamps change (and with them the
            // window and the random losses it meets).
            c.cubic.arithmetic = crate::tcp::config::CubicArithmetic::Rfc9438;
            if !on {
                c.timestamps = Timestamps::Off;
                c.dsack = Dsack::Off;
            }
            let mut path = Path::new(SimDuration::from_millis(10), 100_000_000).with_loss(p, seed);
            if spike {
                path.spike = Some((at(300), at(320), SimDuration::from_millis(1000)));
            }
            let mut h = Harness::new(&c, Some(2_000 * u64::from(c.mss)), path);
            let case = format!("p {p} seed {seed} spike {spike} options {on}");
            assert!(h.run_to_completion(at(600_000)).is_some(), "{case}");
            let st = h.sender.stats();
            assert!(st.loss_undos <= st.to_events, "{case}");
            assert!(st.recovery_undos + st.dsack_undos <= st.td_events, "{case}");
            let undos = st.loss_undos + st.recovery_undos + st.dsack_undos;
            assert_eq!(undos, u64::from(spike && on), "{case}");
            assert_eq!(st.spurious_rtos, u64::from(spike && !on), "{case}");
            retransmits.push(st.retransmits);
        }
        if spike {
            assert_eq!(retransmits, vec![35, 55]);
        } else {
            assert_eq!(retransmits[0], retransmits[1], "p {p}: the same losses");
        }
    }
}

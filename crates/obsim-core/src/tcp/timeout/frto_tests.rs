//! F-RTO (RFC 5682 §3, as Linux's `tcp_process_loss` runs it) through the
//! sender, ACK by ACK: a delay spike longer than the RTO (no loss: the
//! originals' ACKs arrive after the timeout) is detected and undone; a real
//! timeout (the window lost) is not; SACK and non-SACK; the option off
//! leaves go-back-N as it was; renewal; the configuration rules.

#![allow(clippy::float_cmp)] // whole segments: equality is the claim

use crate::tcp::config::{Frto, TcpConfig, Variant};
use crate::tcp::control::CaState;
use crate::tcp::profile::profile;
use crate::tcp::testkit::Driver;
use crate::tcp::timeout::ForwardRto;
use crate::tcp::TcpSender;
use crate::time::{SimDuration, SimTime};

const MS: SimDuration = SimDuration::from_millis(1);

fn at(t_ms: u64) -> SimTime {
    SimTime::ZERO + MS.saturating_mul(t_ms)
}

/// The `rfc` profile's sender (RFC 5681 growth per ACK, RTO at least 1 s),
/// `variant`, an ACK per segment, room to grow, F-RTO as given.
fn cfg(variant: Variant, frto: Frto) -> TcpConfig {
    let mut c = profile("rfc").unwrap();
    c.variant = variant;
    c.initial_cwnd = 10;
    c.max_window = 100;
    c.rwnd = 100;
    c.delayed_ack = false;
    c.frto = frto;
    c
}

crate::tcp::testkit::driven!();

impl Driven {
    /// Started at 0 with segments 0-9 out; at 100 ms segments 0-4 are
    /// ACKed one by one (slow start: cwnd 15, segments 10-19 out), then
    /// nothing arrives until the RTO (1 s after the last ACK) fires at
    /// 1100 ms and resends segment 5.
    fn after_rto(c: &TcpConfig) -> Self {
        let mut d = Driven(Driver::started(c));
        assert_eq!(d.drain(), (0..10).collect::<Vec<_>>());
        for a in 1..=5 {
            d.ack(100, a, &[]);
        }
        assert_eq!((d.s.snd_una(), d.s.snd_nxt(), d.s.cwnd()), (5, 20, 15.0));
        assert_eq!(d.fire(), vec![5], "RFC 5682 step 1: SND.UNA resent");
        assert_eq!(d.now, at(1100));
        assert_eq!((d.s.cwnd(), d.s.state()), (1.0, CaState::Loss));
        d
    }

    /// ACK `ack` with SACK blocks `sack` at `t_ms`; what it released.
    fn ack(&mut self, t_ms: u64, ack: u64, sack: &[(u64, u64)]) -> Vec<u64> {
        self.ack_at(at(t_ms), ack, sack)
    }

    /// [`Self::after_rto`] with F-RTO on, segments 6-19 lost: the ACK of
    /// 5's retransmission (1150 ms) makes step 2b send 20 and 21; their
    /// duplicate ACK for 6 (1200 ms, with the SACK block `block` on a SACK
    /// connection) proves the loss real (step 3a), and go-back-N resends 6
    /// and 7. Returns the sender and the SACK blocks its later ACKs carry.
    #[track_caller]
    fn at_step_3a(variant: Variant, block: (u64, u64)) -> (Self, Vec<(u64, u64)>) {
        let mut d = Driven::after_rto(&cfg(variant, Frto::Linux));
        assert_eq!(d.ack(1150, 6, &[]), vec![20, 21]);
        let sack = if variant == Variant::Sack {
            vec![block]
        } else {
            Vec::new()
        };
        assert_eq!(d.ack(1200, 6, &sack), vec![6, 7], "step 3a: go-back-N");
        (d, sack)
    }

    fn retransmits(&self) -> u64 {
        self.s.stats().retransmits
    }
}

// ---- spurious timeouts: a delay spike, no loss ------------------------------

/// The ACK of the original segment 5 (indistinguishable from its
/// retransmission's) arrives first: step 2b sends two new segments (20,
/// 21) instead of resending 6 and 7. The ACK of the original segment 6,
/// never retransmitted, then proves the timeout spurious (step 3b): Linux's
/// undo restores cwnd = max(cwnd, prior_cwnd) = 15 and ssthresh =
/// max(ssthresh, prior_ssthresh) (here the initial "infinite" one), back
/// to the Open state; the same ACK then grows cwnd to 16 in slow start and
/// sends new data only. One retransmission in all, the timer's.
#[track_caller]
fn spurious_timeout_is_undone(variant: Variant) {
    let c = cfg(variant, Frto::Linux);
    let ssthresh_before = f64::from(u32::MAX); // initial_ssthresh "infinite"
    let mut d = Driven::after_rto(&c);
    let cut = d.s.ssthresh();
    assert_eq!(cut, 7.5, "RFC 5681 eq. (4): FlightSize 15 / 2");
    assert_eq!(d.ack(1150, 6, &[]), vec![20, 21], "step 2b: new data");
    assert_eq!((d.s.state(), d.s.cwnd()), (CaState::Loss, 2.0));
    assert_eq!(d.ack(1160, 7, &[]), vec![22], "step 3b: spurious");
    let st = d.s.stats();
    assert_eq!((st.to_events, st.spurious_rtos, st.retransmits), (1, 1, 1));
    assert_eq!(d.s.state(), CaState::Open);
    assert_eq!(d.s.cwnd(), 16.0, "15 restored, then one ACK of slow start");
    assert_eq!(d.s.ssthresh(), ssthresh_before);
    // The rest of the delayed window: new data only, as before the spike.
    assert_eq!(d.ack(1161, 8, &[]), vec![23, 24]);
    assert_eq!(d.retransmits(), 1);
    assert!(d.sent.iter().filter(|s| s.1).all(|s| s.0 == 5));
}

#[test]
fn spurious_timeout_is_undone_with_sack() {
    spurious_timeout_is_undone(Variant::Sack);
}

#[test]
fn spurious_timeout_is_undone_without_sack() {
    spurious_timeout_is_undone(Variant::NewReno);
}

/// Linux's addition to the RFC (commit e33099f96d99): the first ACK after
/// the timeout already covers a never-retransmitted segment (the originals
/// of 5 and 6, say, under one delayed ACK): spurious at once, no new data
/// needed; cwnd 15 restored and grown by the ACK, new data only.
#[test]
fn an_ack_of_original_data_in_step_2_proves_the_timeout_spurious() {
    let c = cfg(Variant::Sack, Frto::Linux);
    let mut d = Driven::after_rto(&c);
    assert_eq!(d.ack(1150, 7, &[]), vec![20, 21, 22]);
    let st = d.s.stats();
    assert_eq!((st.spurious_rtos, st.retransmits), (1, 1));
    assert_eq!((d.s.state(), d.s.cwnd()), (CaState::Open, 16.0));
}

/// The undo restores Linux's `prior_ssthresh` = `tcp_current_ssthresh()`
/// at the timeout, max(ssthresh, cwnd/2 + cwnd/4) in integers, and cwnd =
/// max(cwnd, prior_cwnd) (`tcp_undo_cwnd_reduction`, `tcp_reno_undo_cwnd`).
#[test]
fn undo_restores_linux_prior_window() {
    let c = cfg(Variant::Sack, Frto::Linux);
    let mut cb = crate::tcp::control::ControlBlock::new(&c, u64::MAX);
    cb.snd_una = 100;
    cb.snd_nxt = 121;
    let mut f = ForwardRto::new(true);
    // Congestion avoidance at cwnd 21.4 with ssthresh 10: 3/4 of 21 is 15.
    f.on_rto(&cb, (21.4, 10.0, CaState::Open), false, 0, None);
    assert!(f.armed());
    cb.cwnd = 2.0;
    cb.ssthresh = 10.0;
    cb.state = CaState::Loss;
    f.undo(&mut cb);
    assert_eq!(
        (cb.cwnd, cb.ssthresh, cb.state),
        (21.4, 15.0, CaState::Open)
    );
    assert!(!f.armed());
    // A timeout in fast recovery (Linux: not `new_recovery`) is not tested.
    f.on_rto(&cb, (21.4, 10.0, CaState::Recovery), false, 0, None);
    assert!(!f.armed());
    // Off: never armed.
    let mut off = ForwardRto::new(false);
    off.on_rto(&cb, (21.4, 10.0, CaState::Open), false, 0, None);
    assert!(!off.armed());
}

/// A spike longer than two RTOs: the timer fires again (backed off) with
/// nothing acknowledged; F-RTO stays on (RFC 5682 §3.2, Linux
/// `icsk_retransmits`) and the undo restores the window before the first
/// expiry; the RTO's backoff ends with the RTT sample the undo takes.
#[test]
fn recurring_timeouts_of_one_spike_are_undone_to_the_first_window() {
    let c = cfg(Variant::Sack, Frto::Linux);
    let mut d = Driven::after_rto(&c);
    let rto1 = d.s.rto();
    assert_eq!(d.fire(), vec![5], "the second expiry resends 5 again");
    assert_eq!(d.now, at(1100) + rto1);
    assert_eq!(d.s.stats().backoffs, 1);
    let t = (d.now - SimTime::ZERO).as_nanos() / 1_000_000;
    assert_eq!(d.ack(t + 10, 6, &[]), vec![20, 21]);
    assert_eq!(d.ack(t + 11, 7, &[]), vec![22]);
    let st = d.s.stats();
    assert_eq!((st.to_events, st.spurious_rtos, st.retransmits), (2, 1, 2));
    assert_eq!(d.s.cwnd(), 16.0);
    assert!(d.s.rto() < rto1.saturating_mul(2), "backoff ended");
}

// ---- real timeouts: the window lost -----------------------------------------

/// Segments 6-19 were lost (5's retransmission repaired the head). Step
/// 2b's new data (20, 21) arrives and draws duplicate ACKs for 6 (with a
/// SACK of 20-21 on a SACK connection): step 3a, the loss is real;
/// go-back-N resumes from 6 with slow start's window, and nothing is undone.
#[track_caller]
fn real_timeout_is_not_undone(variant: Variant) {
    let (mut d, sack) = Driven::at_step_3a(variant, (20, 21));
    let sack = &sack[..];
    let st = d.s.stats();
    assert_eq!((st.spurious_rtos, st.retransmits), (0, 3));
    assert_eq!(
        (d.s.state(), d.s.cwnd(), d.s.ssthresh()),
        (CaState::Loss, 2.0, 7.5)
    );
    // The go-back-N goes on as without F-RTO: 7 ACKed, cwnd 3.
    assert_eq!(d.ack(1250, 7, sack), vec![8, 9]);
    assert_eq!(d.s.stats().spurious_rtos, 0);
}

#[test]
fn real_timeout_is_not_undone_with_sack() {
    real_timeout_is_not_undone(Variant::Sack);
}

#[test]
fn real_timeout_is_not_undone_without_sack() {
    real_timeout_is_not_undone(Variant::NewReno);
}

/// The timeout marked 5-19 lost; step 2b's new segments (20, 21) went out
/// after it and arrived. Go-back-N after step 3a resends 6-19 only and
/// then goes on with new data (22 on): Linux's `tcp_xmit_retransmit_queue`
/// resends only what `tcp_enter_loss` marked lost. (Before, obsim's
/// go-back-N also resent 20 and 21 without SACK, and the receiver's
/// duplicate ACKs for them could start a needless fast retransmit.)
#[track_caller]
fn go_back_n_resends_only_what_the_timeout_marked(variant: Variant) {
    let (mut d, sack) = Driven::at_step_3a(variant, (20, 22));
    let mut sent = vec![6, 7];
    for (i, a) in (7..=19).enumerate() {
        sent.extend(d.ack(1250 + 10 * i as u64, a, &sack));
    }
    assert_eq!(
        &sent[..14],
        &(6..=19).collect::<Vec<_>>()[..],
        "6-19 resent in order"
    );
    assert_eq!(sent[14], 22, "then new data, not 20 and 21 again: {sent:?}");
    assert_eq!(d.s.stats().retransmits, 15, "5 at the timeout, 6-19 after");
}

#[test]
fn go_back_n_resends_only_what_the_timeout_marked_without_sack() {
    go_back_n_resends_only_what_the_timeout_marked(Variant::NewReno);
}

#[test]
fn go_back_n_resends_only_what_the_timeout_marked_with_sack() {
    go_back_n_resends_only_what_the_timeout_marked(Variant::Sack);
}

/// SACK information the sender had before the timeout proves nothing when
/// it comes again after it (the scoreboard is rebuilt, RFC 2018 §8):
/// 18 and 19 arrived before the timeout, 6-17 were lost.
#[test]
fn sack_blocks_known_before_the_timeout_do_not_prove_it_spurious() {
    let c = cfg(Variant::Sack, Frto::Linux);
    let mut d = Driven(Driver::started(&c));
    d.drain();
    for a in 1..=5 {
        d.ack(100, a, &[]);
    }
    // Two duplicate ACKs (18, 19 SACKed): short of DupThresh; limited
    // transmit sends 20 and 21, lost too.
    assert_eq!(d.ack(200, 5, &[(18, 19)]), vec![20]);
    assert_eq!(d.ack(200, 5, &[(18, 20)]), vec![21]);
    assert_eq!(d.s.state(), CaState::Open);
    assert_eq!(d.fire(), vec![5]);
    assert_eq!(d.ack(1250, 6, &[(18, 20)]), vec![22, 23], "step 2b");
    assert_eq!(d.ack(1300, 6, &[(22, 24), (18, 20)]), vec![6, 7], "step 3a");
    assert_eq!(d.s.stats().spurious_rtos, 0);
}

/// A duplicate ACK before the first new ACK keeps F-RTO in step 2 (RFC
/// 5682 §3.1 step 2: only the scoreboard is updated).
#[test]
fn duplicate_acks_in_step_2_wait() {
    let c = cfg(Variant::NewReno, Frto::Linux);
    let mut d = Driven::after_rto(&c);
    assert_eq!(d.ack(1150, 5, &[]), Vec::<u64>::new());
    assert_eq!(d.ack(1160, 6, &[]), vec![20, 21]);
    assert_eq!(d.ack(1170, 7, &[]), vec![22]);
    assert_eq!(d.s.stats().spurious_rtos, 1);
}

/// Step 2b with no new data to send (a finite flow all sent): the
/// conventional recovery goes on (RFC 5682 §3.1 step 2b, Linux
/// `tcp_write_queue_empty`).
#[test]
fn no_new_data_means_conventional_recovery() {
    let c = cfg(Variant::NewReno, Frto::Linux);
    let mut d = Driven(Driver {
        s: TcpSender::new(&c, Some(20_000)),
        now: SimTime::ZERO,
        sent: Vec::new(),
    });
    d.s.start(SimTime::ZERO);
    d.drain();
    for a in 1..=5 {
        d.ack(100, a, &[]);
    }
    assert_eq!(d.s.snd_nxt(), 20, "all 20 segments out");
    assert_eq!(d.fire(), vec![5]);
    assert_eq!(d.ack(1150, 6, &[]), vec![6, 7], "go-back-N");
    assert_eq!(d.ack(1160, 7, &[]), vec![8, 9]);
    assert_eq!(d.s.stats().spurious_rtos, 0);
}

// ---- off: go-back-N as before -----------------------------------------------

/// `frto = "off"`: the ACKs of the delayed originals drive go-back-N
/// retransmissions of data the receiver already has (RFC 5681 §3.1).
#[test]
fn off_retransmits_the_delayed_window() {
    for variant in [Variant::Sack, Variant::NewReno] {
        let c = cfg(variant, Frto::Off);
        let mut d = Driven::after_rto(&c);
        assert_eq!(d.ack(1150, 6, &[]), vec![6, 7]);
        assert_eq!(d.ack(1160, 7, &[]), vec![8, 9]);
        let st = d.s.stats();
        assert_eq!((st.spurious_rtos, st.retransmits), (0, 5));
        assert_eq!(d.s.state(), CaState::Loss);
    }
}

/// A renewed sender forgets a test under way.
#[test]
fn renew_forgets_the_test() {
    let c = cfg(Variant::Sack, Frto::Linux);
    let mut d = Driven::after_rto(&c);
    d.s.renew(&c, None);
    d.now = SimTime::ZERO;
    d.s.start(SimTime::ZERO);
    assert_eq!(d.drain(), (0..10).collect::<Vec<_>>());
    assert_eq!(d.s.stats().spurious_rtos, 0);
    assert_eq!(d.ack(100, 1, &[]), vec![10, 11]);
}

// ---- end to end: a delay spike over the fake path ----------------------------

/// A 20 000-segment flow over 10 ms each way; every segment sent during
/// [300, 320) ms (a whole flight) arrives 400 ms late and nothing overtakes
/// it (FIFO), nothing is lost. The RTO fires before they arrive. With F-RTO the originals' ACKs prove the
/// timeout spurious and the window is restored; without it, go-back-N
/// resends the delayed flight.
#[track_caller]
fn spike(c: &TcpConfig) -> crate::tcp::testkit::Harness {
    spike_of(c, 400)
}

/// [`spike`] with the flight held `late_ms` late.
#[track_caller]
fn spike_of(c: &TcpConfig, late_ms: u64) -> crate::tcp::testkit::Harness {
    use crate::tcp::testkit::{Harness, Path};
    let mut p = Path::new(SimDuration::from_millis(10), 100_000_000);
    p.spike = Some((at(300), at(320), SimDuration::from_millis(late_ms)));
    let mut h = Harness::new(c, Some(20_000 * u64::from(c.mss)), p);
    assert!(h.run_to_completion(at(30_000)).is_some(), "completes");
    h
}

/// The spike over the rfc profile (SACK and NewReno) and the linux profile
/// without timestamps and D-SACK (SACK and NewReno, RACK-TLP off): one
/// timeout, proved spurious, and one or two retransmissions in all where
/// go-back-N resends the window (66 to 2 933 segments). With RACK on and
/// no timestamps, F-RTO undoes too but RACK then marks the delayed window
/// lost: the ACK of the originals also acknowledges the timer's
/// retransmission, which RACK (without timestamps) takes as the most
/// recently sent segment delivered (RFC 8985 §6.2 step 2); Linux skips it
/// with the timestamp echo (`tcp_skb_spurious_retrans` before
/// `tcp_rack_advance`), as obsim does with `tcp.timestamps`
/// (`tcp::undo::tests`, the linux profile as it is).
#[test]
fn a_delay_spike_is_a_spurious_timeout_end_to_end() {
    for (profile_name, variant, rack) in [
        ("rfc", Variant::Sack, false),
        ("rfc", Variant::NewReno, false),
        ("linux", Variant::Sack, false),
        ("linux", Variant::NewReno, false),
        ("linux", Variant::Sack, true),
    ] {
        let mut c = profile(profile_name).unwrap();
        c.variant = variant;
        c.rack_tlp.rack = rack;
        c.rack_tlp.tlp = rack;
        c.timestamps = crate::tcp::config::Timestamps::Off;
        c.dsack = crate::tcp::config::Dsack::Off;
        c.rto.min = SimDuration::from_millis(200);
        c.frto = Frto::Off;
        let off = spike(&c);
        c.frto = Frto::Linux;
        let on = spike(&c);
        let (o, n) = (off.sender.stats(), on.sender.stats());
        let case = format!("{profile_name} {variant:?} rack {rack}");
        assert_eq!((o.to_events, o.spurious_rtos), (1, 0), "{case}");
        assert!(o.retransmits >= 66, "{case}: off resends the window");
        assert_eq!(n.spurious_rtos, 1, "{case}");
        assert_eq!(on.timeouts[0], off.timeouts[0], "{case}");
        if rack {
            assert!(n.retransmits > 2000, "{case}: RACK re-marks the window");
        } else {
            assert!(n.retransmits <= 2, "{case}: {}", n.retransmits);
        }
    }
}

/// The known gap of the test above, closed by timestamps (the linux
/// profile as it is: RACK-TLP, F-RTO, `tcp.timestamps` and `tcp.dsack`),
/// with the flight held 1 s (per-ACK RTT samples track the queue, and the
/// RTO outlasts a 400 ms spike). The ACK of the delayed originals echoes
/// their TSval, older than the timer's retransmission, so RACK does not
/// take it for an ACK of the retransmission (Linux
/// `tcp_skb_spurious_retrans`), and the timeout is undone at once by the
/// echo (`tcp_try_undo_loss` on `tcp_packet_delayed`, before F-RTO's own
/// test): one timeout, undone; the loss probe before it and the timer's
/// retransmission are the only ones. Without timestamps and D-SACK, F-RTO
/// undoes a timeout too but RACK resends the delayed window (2 171
/// retransmissions).
#[test]
fn with_timestamps_a_delay_spike_is_undone_and_rack_keeps_the_window() {
    let mut c = crate::tcp::profile::linux_plain_ack_clock();
    c.rto.min = SimDuration::from_millis(200);
    // The window at the spike as this script was written for (slow start
    // to the spike): HyStart, which would end slow start earlier on the
    // per-ACK samples, is not what this test is about.
    c.cubic.hystart = crate::tcp::config::HystartMode::Off;
    let on = spike_of(&c, 1000);
    let st = on.sender.stats();
    assert_eq!((st.to_events, st.loss_undos, st.spurious_rtos), (1, 1, 0));
    assert_eq!((st.tlp_probes, st.retransmits), (1, 2));
    c.timestamps = crate::tcp::config::Timestamps::Off;
    c.dsack = crate::tcp::config::Dsack::Off;
    let off = spike_of(&c, 1000);
    let o = off.sender.stats();
    // A timeout and its recurrence (a backoff), the window resent.
    assert_eq!((o.to_events, o.loss_undos, o.spurious_rtos), (2, 0, 1));
    assert!(o.retransmits > 1000, "{}", o.retransmits);
}

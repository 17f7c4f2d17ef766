//! Proportional Rate Reduction (RFC 6937) through the sender: RFC 6937
//! §3.1's examples ACK by ACK, the reduction bounds, the exit, `NewReno`
//! with PRR over a lossy path, renewal, and `tcp.prr = "off"` leaving RFC
//! 6675 as it was.

#![allow(clippy::float_cmp)] // whole segments: equality is the claim

use crate::tcp::config::{Prr, TcpConfig, Variant};
use crate::tcp::control::CaState;
use crate::tcp::profile::profile;
use crate::tcp::testkit::{Driver, Harness, Path};
use crate::tcp::TcpSender;
use crate::time::{SimDuration, SimTime};

/// RFC 6937 §3.1's set-up: the `rfc` profile, SACK, cwnd = FlightSize =
/// 20 segments (so ssthresh = 10 at the loss: RFC 5681 leaves the
/// limited-transmit segments out of FlightSize), limited transmit, a
/// window that does not bind.
fn rfc6937(variant: Variant, prr: Prr) -> TcpConfig {
    let mut c = profile("rfc").unwrap();
    c.variant = variant;
    c.prr = prr;
    c.initial_cwnd = 20;
    c.max_window = 100;
    c.rwnd = 100;
    c
}

crate::tcp::testkit::driven!();

impl Driven {
    /// Started, with its initial window (segments 0-19) sent.
    fn new(cfg: &TcpConfig) -> Self {
        let mut d = Driven(Driver::started(cfg));
        assert_eq!(d.drain(), (0..20).collect::<Vec<_>>());
        d
    }

    /// ACK `ack` carrying the SACK block `sack`, 1 ms after the last
    /// event; returns what it released.
    fn ack(&mut self, ack: u64, sack: Option<(u64, u64)>) -> Vec<u64> {
        let now = self.now + SimDuration::from_millis(1);
        self.ack_at(now, ack, sack.as_slice())
    }

    /// RFC 6675 SetPipe() now (after the sends).
    fn pipe(&self) -> u64 {
        self.s
            .loss_recovery()
            .pipe_estimate(self.s.control_block())
            .unwrap()
    }
}

// ---- RFC 6937 §3.1, SACK ----------------------------------------------------

/// Segment 0 of 20 lost; the ACKs of segments 1-19 come back (ACK 0 with
/// SACK 1..k+1). Returns what each ACK released, and cwnd after each.
fn single_loss(prr: Prr) -> (Driven, Vec<Vec<u64>>, Vec<f64>) {
    let mut d = Driven::new(&rfc6937(Variant::Sack, prr));
    let mut sent = Vec::new();
    let mut cwnd = Vec::new();
    for k in 1..20 {
        sent.push(d.ack(0, Some((1, k + 1))));
        cwnd.push(d.s.cwnd());
    }
    (d, sent, cwnd)
}

/// RFC 6937 §3.1, one loss: limited transmit sends 20 and 21 on the first
/// two duplicate ACKs, the third starts recovery (ssthresh 10, RecoverFS =
/// snd.nxt − snd.una = 22) and retransmits 0; from then on PRR sends one
/// segment on about every other ACK (ssthresh/RecoverFS of what is
/// delivered) and pipe reaches ssthresh on the last ACK of the round trip.
/// RFC 6675 (PRR off) sends the same total but only once pipe has fallen
/// below cwnd = ssthresh: nothing on the ACKs of 4-12 (the "half-silent
/// window" of RFC 6937 §3.1). The RFC's own table spreads the seven new
/// segments slightly differently (sends on ACKs 13, 15, 18 rather than 14,
/// 16, 19): it is consistent with RecoverFS = 20, the flight before limited
/// transmit, where §3 defines RecoverFS = snd.nxt − snd.una (22 here).
#[test]
fn rfc6937_single_loss_spreads_the_reduction_over_the_round_trip() {
    for bound in [Prr::Ssrb, Prr::Crb] {
        let (d, sent, cwnd) = single_loss(bound);
        let want: Vec<Vec<u64>> = vec![
            vec![20],
            vec![21],
            vec![0],
            vec![],
            vec![22],
            vec![],
            vec![23],
            vec![],
            vec![24],
            vec![],
            vec![25],
            vec![],
            vec![],
            vec![26],
            vec![],
            vec![27],
            vec![],
            vec![],
            vec![28],
        ];
        assert_eq!(sent, want, "{bound:?}");
        // cwnd = pipe + sndcnt on each ACK in recovery (ACKs 3-19).
        let want_cwnd = [
            20.0, 20.0, 19.0, 18.0, 18.0, 17.0, 17.0, 16.0, 16.0, 15.0, 15.0, 14.0, 13.0, 13.0,
            12.0, 12.0, 11.0, 10.0, 10.0,
        ];
        assert_eq!(cwnd, want_cwnd, "{bound:?}");
        assert_eq!(d.s.ssthresh(), 10.0);
        assert_eq!(d.pipe(), 10, "pipe ends at ssthresh");
        let prr = d.s.loss_recovery().prr().expect("PRR on");
        assert_eq!(
            (prr.recover_fs(), prr.prr_delivered(), prr.prr_out()),
            (22, 17, 8)
        );
    }
    let (d, sent, cwnd) = single_loss(Prr::Off);
    let quiet: Vec<usize> = (3..12).map(|i| sent[i].len()).collect();
    assert_eq!(quiet, [0; 9], "RFC 6675: silent on the ACKs of 4-12");
    assert_eq!(sent.iter().flatten().count(), 10, "the same total as PRR");
    assert!(cwnd[2..].iter().all(|&c| c == 10.0));
    assert_eq!(d.pipe(), 10);
    assert!(d.s.loss_recovery().prr().is_none());
}

/// Segments 0-14 of 20 lost; only the ACKs of 15-19 come back.
fn burst_loss(prr: Prr) -> (Driven, Vec<Vec<u64>>, Vec<u64>) {
    let mut d = Driven::new(&rfc6937(Variant::Sack, prr));
    let mut sent = Vec::new();
    let mut pipes = Vec::new();
    for k in 15..20 {
        let s = d.ack(0, Some((15, k + 1)));
        // pipe when sndcnt was computed: before this ACK's sends.
        pipes.push(d.pipe() - s.len() as u64);
        sent.push(s);
    }
    (d, sent, pipes)
}

/// RFC 6937 §3.1, 15 consecutive losses: recovery starts on the ACK of 17
/// with pipe = 4 (18-21), below ssthresh = 10, so the reduction bound
/// decides from the first ACK, exactly as the RFC's tables: PRR-CRB sends
/// 1, 1, 1 ("R R R", pipe 4 4 4: no more than was delivered), PRR-SSRB
/// 2, 2, 2 ("2R 2R 2R", pipe 4 5 6: one more per ACK, slow start).
/// RFC 6675 sends the whole gap to cwnd at once (6 segments; the RFC's
/// table shows 7 with cwnd 11, counting the limited-transmit segments in
/// FlightSize, which RFC 5681 §3.2 step 2 excludes).
#[test]
fn rfc6937_burst_loss_crb_versus_ssrb() {
    let (_, crb, crb_pipe) = burst_loss(Prr::Crb);
    assert_eq!(crb, [vec![20], vec![21], vec![0], vec![1], vec![2]]);
    assert_eq!(crb_pipe[2..], [4, 4, 4]);
    let (d, ssrb, ssrb_pipe) = burst_loss(Prr::Ssrb);
    assert_eq!(
        ssrb,
        [vec![20], vec![21], vec![0, 1], vec![2, 3], vec![4, 5]]
    );
    assert_eq!(ssrb_pipe[2..], [4, 5, 6]);
    assert_eq!(d.s.cwnd(), 8.0, "pipe 6 + sndcnt 2");
    let (_, rfc6675, _) = burst_loss(Prr::Off);
    assert_eq!(
        rfc6675,
        [vec![20], vec![21], vec![0, 1, 2, 3, 4, 5], vec![6], vec![7]]
    );
}

/// The ACK that ends recovery sets cwnd = ssthresh (Linux
/// `tcp_end_cwnd_reduction`, ns-3 `TcpPrrRecovery::ExitRecovery`), here up from PRR-SSRB's 8, and opens
/// nothing more.
#[test]
fn ending_recovery_sets_cwnd_to_ssthresh() {
    let (mut d, _, _) = burst_loss(Prr::Ssrb);
    assert_eq!(d.s.state(), CaState::Recovery);
    assert_eq!(d.s.cwnd(), 8.0);
    // Everything up to the recovery point (snd.nxt at entry, 22) arrives.
    d.ack(22, None);
    assert_eq!(d.s.state(), CaState::Open);
    assert_eq!((d.s.cwnd(), d.s.ssthresh()), (10.0, 10.0));
}

/// A partial ACK's DeliveredData is the advance of snd.una less the
/// segments it covers that were SACKed before (RFC 6937 §2): SACKd falls
/// by as much as snd.una rises over them.
#[test]
fn delivered_data_nets_out_sacked_segments_a_cumulative_ack_covers() {
    let (mut d, _, _) = burst_loss(Prr::Crb);
    let before = d.s.loss_recovery().prr().unwrap().prr_delivered();
    // The retransmissions of 0-2 arrive: ACK 3, SACK 15-20 unchanged.
    d.ack(3, Some((15, 20)));
    let prr = d.s.loss_recovery().prr().unwrap();
    assert_eq!(prr.prr_delivered() - before, 3);
    // ACK 20 covers the 5 SACKed segments 15-19 and 3-14: 12 delivered.
    d.ack(20, None);
    let prr = d.s.loss_recovery().prr().unwrap();
    assert_eq!(prr.prr_delivered() - before, 15);
}

// ---- NewReno with PRR -------------------------------------------------------

/// `NewReno` (profile `rfc`, W = 64, ACK every segment) over a 100 ms,
/// 100 Mbit/s path losing `drops` once each, 300 segments.
fn newreno(prr: Prr, drops: &[u64]) -> Harness {
    let mut c = profile("rfc").unwrap();
    c.variant = Variant::NewReno;
    c.prr = prr;
    c.delayed_ack = false;
    c.max_window = 1000;
    c.rwnd = 1000;
    let mut p = Path::new(SimDuration::from_millis(50), 100_000_000);
    p.drop_first = drops.to_vec();
    let mut h = Harness::new(&c, Some(300_000), p);
    assert!(h
        .run_to_completion(SimTime::ZERO + SimDuration::from_secs(100))
        .is_some());
    assert_eq!(h.receiver.delivered_bytes(), 300_000);
    h
}

/// When `h` entered recovery, and when it left it.
fn recovery_span(h: &Harness) -> (usize, SimTime, SimTime) {
    let (i, s) = h.first_in_state(CaState::Recovery).unwrap();
    let exit = h.trace[i..]
        .iter()
        .find(|x| x.state == CaState::Open)
        .unwrap();
    (i, s.t, exit.t)
}

/// Three holes (100, 103, 106) in a window of 104 segments: `NewReno`
/// repairs one per round trip in one recovery episode, with or without
/// PRR, and ssthresh = FlightSize/2 = 52 either way. RFC 6582 sends no new
/// segment until the inflation (+1 per duplicate ACK) passes FlightSize,
/// 99 ms after the fast retransmit, then one per ACK; PRR starts on the
/// second ACK after it and sends on about every other ACK (52/106 of
/// what is delivered), cwnd = pipe + sndcnt falling one per ACK from 103
/// to ssthresh, where it stays until the exit. Both send the same 49 new
/// segments (206-254) before the first partial ACK.
#[test]
fn newreno_with_prr_spreads_a_multi_loss_recovery() {
    let rfc6582 = newreno(Prr::Off, &[100, 103, 106]);
    for bound in [Prr::Ssrb, Prr::Crb] {
        let h = newreno(bound, &[100, 103, 106]);
        for x in [&h, &rfc6582] {
            let st = x.sender.stats();
            assert_eq!(
                (st.td_events, st.to_events, st.retransmits),
                (1, 0, 3),
                "{bound:?}"
            );
        }
        let (i, enter, exit) = recovery_span(&h);
        assert_eq!(h.trace[i].ssthresh, 52.0);
        // The first partial ACK (snd_una 103).
        let partial = h.trace[i..].iter().find(|x| x.snd_una > 100).unwrap().t;
        let new_before = |x: &Harness, until: SimTime| -> Vec<u64> {
            x.tx.iter()
                .filter(|r| r.t >= enter && r.t < until && r.seg.seq >= 206)
                .map(|r| r.seg.seq)
                .collect()
        };
        let (_, enter_off, _) = recovery_span(&rfc6582);
        assert_eq!(enter_off, enter);
        assert_eq!(new_before(&h, partial), (206..255).collect::<Vec<_>>());
        assert_eq!(
            new_before(&rfc6582, partial),
            (206..255).collect::<Vec<_>>()
        );
        let first = |x: &Harness| x.tx.iter().find(|r| r.seg.seq == 206).unwrap().t - enter;
        assert_eq!(first(&h), SimDuration::transmission(3 * 1040, 100_000_000));
        assert!(first(&rfc6582) > SimDuration::from_millis(99));
        // Never more than one new segment per ACK.
        let mut times: Vec<SimTime> =
            h.tx.iter()
                .filter(|r| r.t >= enter && r.t < exit && !r.seg.retransmit)
                .map(|r| r.t)
                .collect();
        let n = times.len();
        times.dedup();
        assert_eq!(times.len(), n, "{bound:?}: two new segments on one ACK");
        // cwnd: 103 at the fast retransmit, down by one per ACK to
        // ssthresh, ssthresh at the exit.
        let cw: Vec<f64> = h.trace[i..]
            .iter()
            .take_while(|x| x.t <= exit)
            .map(|x| x.cwnd)
            .collect();
        assert_eq!(cw[0], 103.0);
        assert!(cw.windows(2).all(|w| w[1] <= w[0]), "{bound:?}: {cw:?}");
        assert_eq!(*cw.last().unwrap(), 52.0);
        assert!(h.trace[i..].iter().all(|x| x.dupwnd == 0.0));
    }
}

/// A renewed PRR sender is the one `new` builds (its PRR state reset),
/// from a sender stopped in the middle of a PRR recovery, for both
/// algorithms that read `tcp.prr`.
#[test]
fn renewed_prr_sender_equals_a_new_one() {
    for variant in [Variant::Sack, Variant::NewReno] {
        let mut c = rfc6937(variant, Prr::Ssrb);
        c.delayed_ack = false;
        let mut p = Path::new(SimDuration::from_millis(50), 100_000_000);
        p.drop_first = vec![30, 31, 35];
        let mut h = Harness::new(&c, Some(400_000), p);
        let mut t = SimTime::ZERO;
        while h.sender.state() != CaState::Recovery {
            t += SimDuration::from_millis(1);
            assert!(t < SimTime::ZERO + SimDuration::from_secs(10));
            h.run_until(t);
        }
        let prr = h.sender.loss_recovery().prr().unwrap();
        assert!(prr.prr_delivered() > 0 && prr.recover_fs() > 0);
        let mut sender = h.sender;
        sender.renew(&c, Some(100_000));
        let fresh = TcpSender::new(&c, Some(100_000));
        assert_eq!(format!("{sender:?}"), format!("{fresh:?}"), "{variant:?}");
        assert_eq!(sender.loss_recovery().prr().unwrap().prr_delivered(), 0);
    }
}

//! Burst TCP (BTCP) false-timeout detection by burst-length estimation
//! (BLE): Yu, Qiao, Liu, "TCP implementations and false time out detection
//! in OBS networks", INFOCOM 2004, §IV.A.
//!
//! The sender keeps one extra variable, `burst_wd`, its estimate of how many
//! of its segments one burst carries, learnt from the kind of each loss (a
//! triple-duplicate "TD" loss or a timeout "TO") and the window at that
//! moment (steps 1-4). At a timeout it first updates the estimate, then
//! judges the timeout false (an FTO) when `cwnd <= burst_wd` and
//! `burst_wd > 3`, and answers an FTO as a TD loss (halve, resend the lost
//! burst) instead of going back to slow start. The update comes before the
//! decision: §V.B (Fig. 6) says the first timeout of a fast flow is detected
//! as an FTO "because its current burst window size is equal to the
//! congestion window (i.e., `burst_wd = cwnd = 40`)", which only step 2's
//! `burst_wd = cwnd` for that very timeout gives.
//!
//! "cwnd" is the effective window `min(cwnd, W_M, rwnd)`: the segments a
//! round (and so a burst of a fast flow) can carry. ns-2's `cwnd_` keeps
//! growing past `window_`, so the raw value would overstate the burst.

use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::{FtoDetection, TcpConfig};
use crate::tcp::control::ControlBlock;
use crate::tcp::timeout::{Standard, TimeoutReaction, TimeoutResponse};

/// Consecutive FTOs after which BLE declares the next timeout true (the
/// default of `FtoDetection::Ble::max_consecutive_fto`). yu2004 gives no
/// number ("BTCP will enter the Slow Start phase only after several such
/// 'FTO' events", §IV.A); 4 is the number of halvings §V.B describes for
/// Fig. 6, from `cwnd = 40` to a window "less than 3" (40, 20, 10, 5 -> 2).
pub const DEFAULT_MAX_CONSECUTIVE_FTO: u32 = 4;

/// How BLE judged the timeouts of one flow (yu2004 §IV.A decision rules).
/// Whether each judgement was right needs the network's view (the engine).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FtoCounts {
    /// Timeouts judged false (rule 1) and answered as a TD loss.
    pub judged_false: u64,
    /// Timeouts judged true (rule 2, or the consecutive-FTO limit) and
    /// answered with slow start.
    pub judged_true: u64,
}

/// BTCP's BLE timeout response (yu2004 §IV.A).
#[derive(Clone, Debug)]
pub struct Ble {
    /// Estimated segments per burst (`burst_wd`).
    burst_wd: f64,
    /// Loss indications seen so far (TD and TO).
    losses: u64,
    /// Timeouts seen so far.
    timeouts: u64,
    /// FTOs in a row without new data acknowledged between them.
    run: u32,
    /// `snd_una` at the latest FTO: a later timeout with the same `snd_una`
    /// is consecutive (nothing new was acknowledged in between).
    last_fto_una: Option<u64>,
    /// The limit on `run` (see [`DEFAULT_MAX_CONSECUTIVE_FTO`]).
    max_consecutive_fto: u32,
    /// Judgements so far.
    counts: FtoCounts,
    /// The response to a timeout judged true.
    true_timeout: Standard,
}

impl Default for Ble {
    fn default() -> Self {
        Ble::new(DEFAULT_MAX_CONSECUTIVE_FTO, Standard::default())
    }
}

impl Ble {
    /// A new flow's estimator. yu2004 §IV.A step 1: "When a new BTCP flow
    /// starts to transmit, it resets `burst_wd` to zero, then enters the Slow
    /// Start phase."
    /// `true_timeout` answers the timeouts it judges true.
    pub fn new(max_consecutive_fto: u32, true_timeout: Standard) -> Self {
        Ble {
            true_timeout,
            burst_wd: 0.0,
            losses: 0,
            timeouts: 0,
            run: 0,
            last_fto_una: None,
            max_consecutive_fto,
            counts: FtoCounts::default(),
        }
    }

    /// The current estimate `burst_wd`, segments (yu2004 §IV.A).
    pub fn burst_wd(&self) -> f64 {
        self.burst_wd
    }

    /// How the timeouts so far were judged.
    pub fn counts(&self) -> FtoCounts {
        self.counts
    }

    /// Estimate update for a TD loss at window `cwnd` (yu2004 §IV.A steps 2
    /// and 3).
    pub fn update_on_td(&mut self, cwnd: f64) {
        self.burst_wd = if self.losses == 0 {
            // Step 2: "If the first loss is a TD loss, ... burst_wd = cwnd/2."
            cwnd / 2.0
        } else {
            // Step 3: "If a loss is not the first loss, and it is a TD loss,
            // ... burst_wd = min{burst_wd, cwnd/2}."
            self.burst_wd.min(cwnd / 2.0)
        };
        self.losses += 1;
    }

    /// Estimate update for a TO loss at window `cwnd` (yu2004 §IV.A steps 2
    /// and 4).
    pub fn update_on_to(&mut self, cwnd: f64) {
        self.burst_wd = if self.losses == 0 {
            // Step 2: "Otherwise if the first loss is a TO loss, ... we set
            // the burst window size as the current congestion window size:
            // burst_wd = cwnd."
            cwnd
        } else if self.timeouts == 0 {
            // Step 4 (1): "if the TO loss is the first TO loss, then set the
            // burst window size as min{cwnd, burst_wd}".
            cwnd.min(self.burst_wd)
        } else {
            // Step 4 (2): "if the TO loss is not the first TO loss, then set
            // the burst window size as max{cwnd, burst_wd}".
            cwnd.max(self.burst_wd)
        };
        self.losses += 1;
        self.timeouts += 1;
    }

    /// yu2004 §IV.A decision rule 1: "For any TO loss, as long as
    /// cwnd <= burst_wd and burst_wd > 3, the sender treats the TO as a
    /// FTO"; rule 2: otherwise ("cwnd > burst_wd or burst_wd <= 3") it is a
    /// true TO.
    pub fn judges_false(&self, cwnd: f64) -> bool {
        cwnd <= self.burst_wd && self.burst_wd > 3.0
    }
}

impl TimeoutResponse for Ble {
    fn name(&self) -> &'static str {
        "btcp-ble"
    }

    fn on_td_loss(&mut self, window: f64) {
        self.update_on_td(window);
    }

    fn on_timeout(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) -> TimeoutReaction {
        let w = cb.window();
        self.update_on_to(w);
        // yu2004 §I: "If BTCP determines that a TO is a true TO ..., or there
        // have been several consecutive FTOs (which also indicate serious
        // congestion in the OBS networks), BTCP performs the usual timeout
        // retransmissions with Slow Start". Consecutive: no new data
        // acknowledged since the previous FTO.
        if self.last_fto_una != Some(cb.snd_una) {
            self.run = 0;
        }
        // Once the limit forced a true TO, the timeouts that follow it
        // without new data acknowledged (the backed-off sequence, RFC 6298
        // §5.5) stay true: the run of FTOs is what they continue (obsim's
        // reading; the paper does not say).
        let backing_off = cb.consecutive_timeouts > 0;
        if self.judges_false(w) && self.run < self.max_consecutive_fto && !backing_off {
            self.run += 1;
            self.last_fto_una = Some(cb.snd_una);
            self.counts.judged_false += 1;
            // Rule 1: "halves its congestion window and starts fast
            // retransmission of all packets lost".
            super::fto_response(cb, cc);
            TimeoutReaction::FalseTimeout
        } else {
            // Rule 2 (or too many consecutive FTOs): "performs the same TO
            // retransmissions as other TCP implementations do".
            self.run = 0;
            self.last_fto_una = None;
            self.counts.judged_true += 1;
            self.true_timeout.on_timeout(cb, cc)
        }
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        let FtoDetection::Ble {
            max_consecutive_fto,
        } = cfg.fto
        else {
            return false;
        };
        *self = Ble::new(max_consecutive_fto, Standard::new(cfg));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc;
    use crate::tcp::control::CaState;
    use crate::tcp::profile::profile;

    /// A control block with `w` segments outstanding from `una`, window `w`.
    fn cb_with(w: f64, una: u64) -> ControlBlock {
        let mut c = profile("ns2").unwrap();
        c.max_window = 1000;
        c.rwnd = 1000;
        let mut cb = ControlBlock::new(&c, u64::MAX);
        cb.cwnd = w;
        cb.snd_una = una;
        cb.snd_nxt = una + w as u64;
        cb.tx_next = cb.snd_nxt;
        cb
    }

    fn timeout(ble: &mut Ble, w: f64, una: u64) -> (TimeoutReaction, ControlBlock) {
        let c = profile("ns2").unwrap();
        let mut g = cc::for_config(&c);
        let mut cb = cb_with(w, una);
        let r = ble.on_timeout(&mut cb, g.as_mut());
        (r, cb)
    }

    // ---- burst_wd estimation (steps 1-4) -----------------------------------

    #[test]
    fn step1_starts_at_zero() {
        assert!(Ble::default().burst_wd().abs() < f64::EPSILON);
    }

    #[test]
    fn step2_first_loss_td_halves_to_first_loss_to_equals() {
        let mut b = Ble::default();
        b.update_on_td(40.0);
        assert!((b.burst_wd() - 20.0).abs() < 1e-12);
        let mut b = Ble::default();
        b.update_on_to(40.0);
        assert!((b.burst_wd() - 40.0).abs() < 1e-12);
    }

    #[test]
    fn step3_later_td_takes_the_minimum() {
        let mut b = Ble::default();
        b.update_on_td(40.0); // 20
        b.update_on_td(60.0); // min(20, 30)
        assert!((b.burst_wd() - 20.0).abs() < 1e-12);
        b.update_on_td(16.0); // min(20, 8)
        assert!((b.burst_wd() - 8.0).abs() < 1e-12);
    }

    #[test]
    fn step4_first_to_takes_min_later_tos_take_max() {
        let mut b = Ble::default();
        b.update_on_td(20.0); // 10
        b.update_on_to(30.0); // first TO: min(30, 10)
        assert!((b.burst_wd() - 10.0).abs() < 1e-12);
        b.update_on_to(24.0); // second TO: max(24, 10)
        assert!((b.burst_wd() - 24.0).abs() < 1e-12);
        b.update_on_to(6.0); // max(6, 24)
        assert!((b.burst_wd() - 24.0).abs() < 1e-12);
        b.update_on_td(30.0); // a TD still lowers it: min(24, 15)
        assert!((b.burst_wd() - 15.0).abs() < 1e-12);
    }

    // ---- decision rules ------------------------------------------------------

    #[test]
    fn first_timeout_of_a_fast_flow_is_false_and_halves() {
        let mut b = Ble::default();
        let (r, cb) = timeout(&mut b, 40.0, 100);
        assert_eq!(r, TimeoutReaction::FalseTimeout);
        assert!(
            (b.burst_wd() - 40.0).abs() < 1e-12,
            "Fig. 6: burst_wd = cwnd = 40"
        );
        assert!((cb.cwnd - 20.0).abs() < 1e-12 && (cb.ssthresh - 20.0).abs() < 1e-12);
        assert_eq!(
            (cb.tx_next, cb.recover, cb.state),
            (100, 140, CaState::Loss)
        );
        assert_eq!(
            b.counts(),
            FtoCounts {
                judged_false: 1,
                judged_true: 0
            }
        );
    }

    #[test]
    fn small_burst_window_means_a_true_timeout() {
        // burst_wd = 3 is not > 3.
        let mut b = Ble::default();
        let (r, cb) = timeout(&mut b, 3.0, 0);
        assert_eq!(r, TimeoutReaction::GoBackN);
        assert!((cb.cwnd - 1.0).abs() < 1e-12);
    }

    #[test]
    fn window_above_the_estimate_means_a_true_timeout() {
        // TDs at window 16 say bursts carry at most 8; the first TO at 30
        // keeps min(30, 8) = 8 < 30: true.
        let mut b = Ble::default();
        b.on_td_loss(16.0);
        let (r, _) = timeout(&mut b, 30.0, 0);
        assert_eq!(r, TimeoutReaction::GoBackN);
        // At window 8 the same estimate says false.
        let mut b = Ble::default();
        b.on_td_loss(16.0);
        let (r, _) = timeout(&mut b, 8.0, 0);
        assert_eq!(r, TimeoutReaction::FalseTimeout);
        assert_eq!(b.counts().judged_false, 1);
    }

    #[test]
    fn consecutive_ftos_end_in_a_true_timeout() {
        let mut b = Ble::new(2, Standard::new(&profile("ns2").unwrap()));
        // Same snd_una: no progress between the timeouts.
        assert_eq!(timeout(&mut b, 40.0, 7).0, TimeoutReaction::FalseTimeout);
        assert_eq!(timeout(&mut b, 20.0, 7).0, TimeoutReaction::FalseTimeout);
        assert_eq!(timeout(&mut b, 10.0, 7).0, TimeoutReaction::GoBackN);
        // Progress since: a new run.
        assert_eq!(timeout(&mut b, 10.0, 50).0, TimeoutReaction::FalseTimeout);
        assert_eq!(
            b.counts(),
            FtoCounts {
                judged_false: 3,
                judged_true: 1
            }
        );
    }

    #[test]
    fn limit_zero_never_judges_false() {
        let mut b = Ble::new(0, Standard::new(&profile("ns2").unwrap()));
        assert_eq!(timeout(&mut b, 40.0, 0).0, TimeoutReaction::GoBackN);
    }

    // ---- end to end over the fake path ---------------------------------------

    use crate::tcp::config::{FtoDetection, TcpConfig, Variant};
    use crate::tcp::testkit::{Harness, Path};
    use crate::time::{SimDuration, SimTime};

    const RTT_MS: u64 = 100;

    /// A fast flow (yu2004 §II.A.3): ns-2 Reno, W_M = 20, ACK per segment,
    /// on a 100 Mbit/s path with 100 ms RTT, so a round leaves as one
    /// back-to-back train and dropping everything sent during one RTT loses
    /// exactly one window (one burst).
    fn fast(fto: FtoDetection, variant: Variant) -> TcpConfig {
        let mut c = profile("ns2").unwrap();
        c.variant = variant;
        c.max_window = 20;
        c.rwnd = 20;
        c.fto = fto;
        c
    }

    fn ble() -> FtoDetection {
        FtoDetection::Ble {
            max_consecutive_fto: DEFAULT_MAX_CONSECUTIVE_FTO,
        }
    }

    fn at_ms(ms: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(ms)
    }

    /// Whole-window losses: everything sent in `[t, t + span)` for each `t`.
    fn path(losses: &[u64], span_ms: u64) -> Path {
        let mut p = Path::new(SimDuration::from_millis(RTT_MS / 2), 100_000_000);
        p.drop_during = losses
            .iter()
            .map(|&t| (at_ms(t), at_ms(t + span_ms)))
            .collect();
        p
    }

    /// cwnd right after the sender handled its `k`-th timeout.
    #[track_caller]
    fn cwnd_after_timeout(h: &Harness, k: usize) -> f64 {
        let t = h.timeouts[k];
        h.trace
            .iter()
            .rev()
            .find(|s| s.t <= t)
            .expect("sample")
            .cwnd
    }

    #[test]
    fn fast_flow_burst_loss_times_out_and_ble_halves_instead_of_slow_start() {
        for (fto, halved) in [(FtoDetection::None, false), (ble(), true)] {
            let mut h = Harness::new(&fast(fto, Variant::Reno), None, path(&[5_000], RTT_MS));
            h.run_until(at_ms(10_000));
            let st = h.sender.stats().clone();
            assert_eq!(
                st.to_events, 1,
                "{fto:?}: one burst loss, one timeout: {st:?}"
            );
            assert_eq!(st.td_events, u64::from(halved), "{fto:?}: {st:?}");
            assert_eq!(st.fto_events, u64::from(halved), "{fto:?}");
            assert_eq!(st.backoffs, 0);
            let w = cwnd_after_timeout(&h, 0);
            if halved {
                // First loss is a TO: burst_wd = cwnd = 20 > 3, cwnd <= burst_wd:
                // an FTO; ns-2 halving: floor(min(cwnd, 20) / 2).
                assert!((w - 10.0).abs() < 1e-9, "cwnd {w}");
                assert!(h.first_in_state(CaState::Loss).is_some());
            } else {
                assert!((w - 1.0).abs() < 1e-9, "cwnd {w}");
            }
            // Either way the burst is resent and the flow goes on.
            assert!(
                h.sender.snd_una() > 1_000,
                "{fto:?}: stalled at {}",
                h.sender.snd_una()
            );
        }
    }

    #[test]
    fn ble_beats_reno_under_periodic_whole_window_losses() {
        let losses: Vec<u64> = (1..20).map(|k| k * 3_000 + 17 * k).collect();
        let goodput = |fto| {
            let mut h = Harness::new(&fast(fto, Variant::Reno), None, path(&losses, RTT_MS));
            h.run_until(at_ms(60_000));
            (h.receiver.delivered_bytes(), h.sender.stats().clone())
        };
        let (reno, st_r) = goodput(FtoDetection::None);
        let (btcp, st_b) = goodput(ble());
        assert_eq!(st_r.fto_events, 0);
        assert_eq!(st_r.to_events, 19, "{st_r:?}");
        assert_eq!((st_b.to_events, st_b.fto_events), (19, 19), "{st_b:?}");
        assert!(
            btcp as f64 > 1.05 * reno as f64,
            "BTCP {btcp} vs Reno {reno}"
        );
    }

    #[test]
    fn consecutive_ftos_end_in_slow_start() {
        // Everything sent for 3 s is lost: the burst and each resend of it.
        let mut h = Harness::new(&fast(ble(), Variant::Reno), None, path(&[5_000], 3_000));
        h.run_until(at_ms(20_000));
        let st = h.sender.stats();
        let n = DEFAULT_MAX_CONSECUTIVE_FTO as usize;
        assert_eq!(
            st.fto_events,
            u64::from(DEFAULT_MAX_CONSECUTIVE_FTO),
            "{st:?}"
        );
        assert!(h.timeouts.len() > n, "{st:?}");
        // Each FTO halves (floor, at least 2): 20 -> 10 -> 5 -> 2 -> 2.
        let cw: Vec<f64> = (0..n).map(|k| cwnd_after_timeout(&h, k)).collect();
        assert_eq!(cw, vec![10.0, 5.0, 2.0, 2.0]);
        // Then the limit: a true TO, slow start from 1.
        assert!((cwnd_after_timeout(&h, n) - 1.0).abs() < 1e-9);
        // FTOs do not back the timer off; the true TOs after them do.
        let gaps: Vec<SimDuration> = h.timeouts.windows(2).map(|w| w[1] - w[0]).collect();
        assert_eq!(gaps[0], gaps[1], "no backoff between FTOs: {gaps:?}");
        assert!(gaps[n] > gaps[n - 1], "backoff after the true TO: {gaps:?}");
    }

    #[test]
    fn estimate_from_td_losses_makes_a_large_window_timeout_true() {
        // A single loss first (TD at window 20: burst_wd = 10), then a
        // whole-window loss once cwnd is back at 20 > 10: a true TO.
        let mut p = path(&[8_000], RTT_MS);
        p.drop_first = vec![300];
        let mut h = Harness::new(&fast(ble(), Variant::Reno), None, p);
        h.run_until(at_ms(12_000));
        let st = h.sender.stats();
        assert_eq!(
            (st.td_events, st.to_events, st.fto_events),
            (1, 1, 0),
            "{st:?}"
        );
        assert!((cwnd_after_timeout(&h, 0) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn every_variant_recovers_a_burst_loss_with_ble() {
        for v in [
            Variant::Tahoe,
            Variant::Reno,
            Variant::NewReno,
            Variant::Sack,
        ] {
            let losses: Vec<u64> = (1..10).map(|k| k * 2_000 + 31 * k).collect();
            let mut h = Harness::new(&fast(ble(), v), Some(2_000_000), path(&losses, RTT_MS));
            let done = h.run_to_completion(at_ms(200_000));
            assert!(done.is_some(), "{v:?} incomplete");
            assert_eq!(h.receiver.delivered_bytes(), 2_000_000, "{v:?}");
            assert!(h.sender.stats().fto_events >= 1, "{v:?}");
            // No duplicate resends beyond one per lost segment and burst.
            let lost = h.tx.iter().filter(|r| r.dropped).count() as u64;
            assert!(
                h.sender.stats().retransmits <= lost + 3,
                "{v:?}: {:?}",
                h.sender.stats()
            );
        }
    }

    /// Why BLE has its own reaction: the variant's fast retransmit alone
    /// resends one segment of a lost burst and then waits for more timeouts.
    #[derive(Debug)]
    struct FastRetransmitOnly;

    impl TimeoutResponse for FastRetransmitOnly {
        fn name(&self) -> &'static str {
            "fast-retransmit-only"
        }
        fn on_timeout(
            &mut self,
            _cb: &mut ControlBlock,
            _cc: &mut dyn WindowGrowth,
        ) -> TimeoutReaction {
            TimeoutReaction::FastRetransmit
        }
        fn renew(&mut self, _cfg: &TcpConfig) -> bool {
            false
        }
    }

    #[test]
    fn variant_fast_retransmit_alone_needs_more_timeouts_for_a_burst() {
        for v in [Variant::Reno, Variant::NewReno, Variant::Sack] {
            let run = |plain: bool| {
                let c = fast(ble(), v);
                let mut h = Harness::new(&c, None, path(&[5_000], RTT_MS));
                if plain {
                    h.sender.set_timeout_response(Box::new(FastRetransmitOnly));
                }
                h.run_until(at_ms(10_000));
                (h.timeouts.len(), h.receiver.delivered_segments())
            };
            let (to_plain, got_plain) = run(true);
            let (to_ble, got_ble) = run(false);
            assert_eq!(to_ble, 1, "{v:?}");
            assert!(to_plain > 1, "{v:?}: {to_plain} timeouts");
            assert!(got_ble > got_plain, "{v:?}: {got_ble} vs {got_plain}");
        }
    }
}

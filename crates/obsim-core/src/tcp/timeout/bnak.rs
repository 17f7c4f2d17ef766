//! Burst TCP with burst NAKs (BNAK, yu2004 §IV.C): the node that drops a
//! burst sends each sender with segments in it a BNAK naming them.
//!
//! Two readings, chosen by [`BnakMode`] (docs/MODEL.md "BACK and BNAK"):
//!
//! - [`BnakMode::Yu2004`] (default), the paper's rule: "If the sender
//!   receives such a BNAK that contains information on all packets in the
//!   *cwnd*, then it knows for certain that any TO associated with a packet
//!   mentioned in the BNAK is a FTO. Otherwise, (either no BNAK is received
//!   or the BNAK received does not contain information on all packets), then
//!   the TO is a true TO", and "the sender can start retransmission of lost
//!   packets as soon as the BNAK is received". A BNAK holding every segment
//!   of the current window (`[snd_una, tx_next)`: the segments sent since the
//!   last go-back-N rewind, all of `[snd_una, snd_nxt)` outside one) starts
//!   the FTO response at once, whatever the recovery state (a BNAK during
//!   recovery names a lost retransmission), except while the timer is
//!   backed off after a true timeout: the sender is then in slow start from
//!   one segment, and the FTO response (cwnd = ssthresh) would raise its
//!   window on a loss; BACK makes the same exception (`back.rs`). One the
//!   sender cannot act on at once (the consecutive-FTO limit) is remembered
//!   until the segments are next resent, and a timeout on a segment it
//!   names is false.
//! - [`BnakMode::EarlyResponse`], obsim's earlier reading: only a BNAK
//!   holding every outstanding segment (`[snd_una, snd_nxt)`) that arrives
//!   with no loss recovery in progress starts the response; BNAKs during
//!   recovery are ignored and every timeout is true.
//!
//! Consecutive FTO responses are capped by [`super::FtoRun`] as for BLE.

use super::{fto_response, FtoRun, SignalReaction, Standard, TimeoutReaction, TimeoutResponse};
use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::{BnakMode, FtoDetection, TcpConfig};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::signal::{BurstSignal, SignalKind, SignalSet};

/// BNAKs remembered for the timeout judgement (most recent first wins).
const KEEP: usize = 8;

/// BTCP's BNAK response.
#[derive(Clone, Debug)]
pub struct Bnak {
    mode: BnakMode,
    run: FtoRun,
    /// Window-covering BNAKs not yet acted on (`Yu2004` only), a ring;
    /// emptied whenever the sender resends from `snd_una`.
    unacted: [Option<BurstSignal>; KEEP],
    next: usize,
    /// The response to a timeout judged true.
    true_timeout: Standard,
}

impl Bnak {
    /// A sender acting on BNAKs as `mode` reads them; `true_timeout`
    /// answers the timeouts judged true.
    pub fn new(mode: BnakMode, max_consecutive_fto: u32, true_timeout: Standard) -> Self {
        Bnak {
            mode,
            true_timeout,
            run: FtoRun::new(max_consecutive_fto),
            unacted: [None; KEEP],
            next: 0,
        }
    }

    /// The segments the BNAK must hold for the sender to act: `Yu2004`:
    /// "all packets in the cwnd", the segments sent since the last rewind
    /// (`[snd_una, tx_next)`, or `[snd_una, snd_nxt)` when nothing was
    /// resent yet); `EarlyResponse`: every outstanding segment.
    fn window(&self, cb: &ControlBlock) -> (u64, u64) {
        match self.mode {
            BnakMode::Yu2004 if cb.tx_next > cb.snd_una => (cb.snd_una, cb.tx_next),
            _ => (cb.snd_una, cb.snd_nxt),
        }
    }

    /// §IV.C at a timeout (`Yu2004`): a remembered BNAK names `una`.
    pub fn judges_false(&self, una: u64) -> bool {
        self.mode == BnakMode::Yu2004
            && self
                .unacted
                .iter()
                .flatten()
                .any(|s| s.lo <= una && una <= s.hi)
    }

    fn remember(&mut self, sig: BurstSignal) {
        self.unacted[self.next] = Some(sig);
        self.next = (self.next + 1) % KEEP;
    }

    /// The named segments are being resent: what the BNAKs said is spent.
    fn forget(&mut self) {
        self.unacted = [None; KEEP];
    }
}

impl TimeoutResponse for Bnak {
    fn name(&self) -> &'static str {
        "btcp-bnak"
    }

    fn on_timeout(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) -> TimeoutReaction {
        let judged_false = cb.consecutive_timeouts == 0 && self.judges_false(cb.snd_una);
        self.forget();
        self.run
            .respond(judged_false, cb, cc, &mut self.true_timeout)
    }

    /// A fast retransmit resends `snd_una`: remembered BNAKs are spent.
    fn on_td_loss(&mut self, _window: f64) {
        self.forget();
    }

    /// BNAKs from the dropping node (yu2004 §IV.C).
    fn signals(&self) -> SignalSet {
        SignalSet::of(SignalKind::Nak)
    }

    fn on_burst_signal(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        sig: &BurstSignal,
    ) -> SignalReaction {
        let (una, end) = self.window(cb);
        if sig.kind != SignalKind::Nak || !sig.covers(una, end) {
            return SignalReaction::Noted;
        }
        let state_ok = match self.mode {
            // Not while backing off after a true timeout (module doc).
            BnakMode::Yu2004 => cb.consecutive_timeouts == 0,
            BnakMode::EarlyResponse => cb.state == CaState::Open,
        };
        if !state_ok {
            return SignalReaction::Noted;
        }
        if !self.run.allows(una) {
            if self.mode == BnakMode::Yu2004 {
                self.remember(*sig);
            }
            return SignalReaction::Noted;
        }
        self.run.record(una);
        self.forget();
        fto_response(cb, cc);
        SignalReaction::FalseTimeout
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        let FtoDetection::Bnak {
            mode,
            max_consecutive_fto,
        } = cfg.fto
        else {
            return false;
        };
        *self = Bnak::new(mode, max_consecutive_fto, Standard::new(cfg));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::for_config;
    use crate::tcp::config::TcpConfig;

    fn nak(lo: u64, hi: u64) -> BurstSignal {
        BurstSignal {
            kind: SignalKind::Nak,
            burst: 1,
            lo,
            hi,
            count: (hi - lo + 1) as u32,
        }
    }

    /// A sender with segments `[100, 120)` outstanding, in `state`.
    fn setup(mode: BnakMode, max: u32) -> (TcpConfig, Bnak, ControlBlock) {
        let cfg = crate::tcp::profile::profile("rfc").unwrap();
        let b = Bnak::new(mode, max, Standard::new(&cfg));
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.cwnd = 20.0;
        cb.snd_una = 100;
        cb.snd_nxt = 120;
        cb.tx_next = 120;
        (cfg, b, cb)
    }

    #[test]
    fn a_window_covering_bnak_starts_the_response_in_both_modes() {
        for mode in [BnakMode::Yu2004, BnakMode::EarlyResponse] {
            let (cfg, mut b, mut cb) = setup(mode, 4);
            let mut cc = for_config(&cfg);
            let r = b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 119));
            assert_eq!(r, SignalReaction::FalseTimeout, "{mode:?}");
            assert!((cb.cwnd - 10.0).abs() < 1e-9, "{mode:?}: halved");
            assert_eq!(cb.tx_next, 100, "{mode:?}: resend from snd_una");
            // A BNAK naming only part of the window: nothing.
            let (cfg, mut b, mut cb) = setup(mode, 4);
            let mut cc = for_config(&cfg);
            let r = b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 109));
            assert_eq!(r, SignalReaction::Noted, "{mode:?}");
        }
    }

    #[test]
    fn bnaks_during_recovery_are_used_by_yu2004_only() {
        for (state, mode, acts) in [
            (CaState::Recovery, BnakMode::Yu2004, true),
            (CaState::Loss, BnakMode::Yu2004, true),
            (CaState::Recovery, BnakMode::EarlyResponse, false),
            (CaState::Loss, BnakMode::EarlyResponse, false),
        ] {
            let (cfg, mut b, mut cb) = setup(mode, 4);
            let mut cc = for_config(&cfg);
            cb.state = state;
            let r = b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 119));
            assert_eq!(
                r == SignalReaction::FalseTimeout,
                acts,
                "{state:?} {mode:?}"
            );
        }
    }

    /// After an FTO response the halved window resends `[100, 110)` only:
    /// a BNAK for that retransmission burst holds "all packets in the cwnd"
    /// (yu2004) though not every outstanding segment (the earlier reading).
    #[test]
    fn a_lost_retransmission_burst_is_read_against_the_current_window() {
        for (mode, acts) in [(BnakMode::Yu2004, true), (BnakMode::EarlyResponse, false)] {
            let (cfg, mut b, mut cb) = setup(mode, 4);
            let mut cc = for_config(&cfg);
            assert_eq!(
                b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 119)),
                SignalReaction::FalseTimeout
            );
            cb.state = CaState::Open; // as if recovery had ended, for the earlier reading
            cb.tx_next = 110; // the halved window went out again
            let r = b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 109));
            assert_eq!(r == SignalReaction::FalseTimeout, acts, "{mode:?}");
        }
    }

    /// After a true timeout the sender is in slow start from one segment:
    /// a BNAK for the resent segment must not raise cwnd to ssthresh.
    #[test]
    fn no_fto_response_while_backing_off_after_a_true_timeout() {
        let (cfg, mut b, mut cb) = setup(BnakMode::Yu2004, 4);
        let mut cc = for_config(&cfg);
        assert_eq!(b.on_timeout(&mut cb, cc.as_mut()), TimeoutReaction::GoBackN);
        cb.consecutive_timeouts = 1; // as the sender counts it
        cb.tx_next = 101; // the one segment resent
        let r = b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 100));
        assert_eq!(r, SignalReaction::Noted);
        assert!(
            (cb.cwnd - 1.0).abs() < 1e-9,
            "cwnd stays 1, got {}",
            cb.cwnd
        );
        // Once a new ACK ends the backoff, BNAKs count again.
        cb.consecutive_timeouts = 0;
        let r = b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 100));
        assert_eq!(r, SignalReaction::FalseTimeout);
    }

    #[test]
    fn a_timeout_with_no_bnak_is_true() {
        for mode in [BnakMode::Yu2004, BnakMode::EarlyResponse] {
            let (cfg, mut b, mut cb) = setup(mode, 4);
            let mut cc = for_config(&cfg);
            assert_eq!(b.on_timeout(&mut cb, cc.as_mut()), TimeoutReaction::GoBackN);
            assert!((cb.cwnd - 1.0).abs() < 1e-9, "{mode:?}: slow start");
        }
    }

    /// A covering BNAK the sender could not act on (the consecutive limit at
    /// that `snd_una`) is remembered; once new data is acknowledged the run
    /// is over, and a timeout on a segment the BNAK names is false.
    #[test]
    fn a_timeout_on_a_segment_named_in_a_bnak_is_false() {
        let (cfg, mut b, mut cb) = setup(BnakMode::Yu2004, 1);
        let mut cc = for_config(&cfg);
        b.run.record(100); // one FTO already at snd_una = 100
        let r = b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 119));
        assert_eq!(r, SignalReaction::Noted, "limit reached: not acted on");
        assert!(b.judges_false(105) && !b.judges_false(120));
        cb.snd_una = 105; // new data acknowledged: the run is over
        assert_eq!(
            b.on_timeout(&mut cb, cc.as_mut()),
            TimeoutReaction::FalseTimeout
        );
        assert!(!b.judges_false(105), "spent: the segments are resent");
        // The earlier reading never remembers: the same timeout is true.
        let (cfg, mut b, mut cb) = setup(BnakMode::EarlyResponse, 1);
        let mut cc = for_config(&cfg);
        b.run.record(100);
        b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 119));
        cb.snd_una = 105;
        assert_eq!(b.on_timeout(&mut cb, cc.as_mut()), TimeoutReaction::GoBackN);
    }

    #[test]
    fn the_consecutive_limit_makes_the_next_timeout_true() {
        let (cfg, mut b, mut cb) = setup(BnakMode::Yu2004, 1);
        let mut cc = for_config(&cfg);
        assert_eq!(
            b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 119)),
            SignalReaction::FalseTimeout
        );
        cb.tx_next = 110;
        assert_eq!(
            b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 109)),
            SignalReaction::Noted
        );
        // Same snd_una: the remembered BNAK cannot lift the limit.
        assert_eq!(b.on_timeout(&mut cb, cc.as_mut()), TimeoutReaction::GoBackN);
    }

    #[test]
    fn a_fast_retransmit_spends_remembered_bnaks() {
        let (cfg, mut b, mut cb) = setup(BnakMode::Yu2004, 1);
        let mut cc = for_config(&cfg);
        b.run.record(100);
        b.on_burst_signal(&mut cb, cc.as_mut(), &nak(100, 119));
        assert!(b.judges_false(100));
        b.on_td_loss(20.0);
        assert!(!b.judges_false(100));
    }
}

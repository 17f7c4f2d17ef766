//! The reaction to a retransmission-timer expiry, as its own plug-in.
//!
//! The sender calls the plug-in with the control block when the timer fires;
//! the plug-in decides what the expiry means and applies the window response.
//! [`Standard`] is RFC 5681 §3.1 / RFC 6298 §5.4-5.7. Burst TCP (yu2004 §IV)
//! adds one file per false-timeout (FTO) detector: [`Ble`] (burst-length
//! estimation, `ble.rs`) judges a timeout false and returns
//! [`TimeoutReaction::FalseTimeout`] (halve, resend the lost burst, no
//! backoff) instead of going back to slow start; a plug-in may also return
//! [`TimeoutReaction::FastRetransmit`] to run the variant's own fast
//! retransmit. F-RTO (RFC 5682, `frto.rs`) runs after the standard response
//! and reads the ACKs that follow to undo it when the timeout was spurious.

mod back;
mod ble;
mod bnak;
mod frto;
mod standard;

pub use back::Back;
pub use ble::{Ble, FtoCounts, DEFAULT_MAX_CONSECUTIVE_FTO};
pub use bnak::Bnak;
pub use frto::{ForwardRto, FrtoVerdict};
pub use standard::Standard;

use crate::tcp::cc::{LossSignal, WindowGrowth};
use crate::tcp::config::{FtoDetection, TcpConfig};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::signal::{BurstSignal, SignalSet};

/// Burst TCP's answer to a false timeout (yu2004 §IV.A rule 1: "halves its
/// congestion window and starts fast retransmission of all packets lost"),
/// shared by every detector: the triple-duplicate window response (RFC 5681
/// §3.2 eq. (4), cwnd = ssthresh after recovery) and every unacknowledged
/// segment resent from `snd_una` within that window (one burst of a fast
/// flow carried them all). The episode ends when the data sent before it is
/// acknowledged, as after any timeout (RFC 6582 §3.2 step 4).
pub fn fto_response(cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) {
    // A BNAK may arrive during fast recovery: halve the un-inflated window,
    // as a timeout does.
    cb.clear_inflation();
    cb.ssthresh = cc.ssthresh(cb, LossSignal::Timeout);
    cb.cwnd = cb.ssthresh;
    cc.reset();
    cb.recover = cb.snd_nxt;
    cb.state = CaState::Loss;
    cb.dupacks = 0;
    cb.tx_next = cb.snd_una;
}

/// The consecutive-FTO limit every detector applies (yu2004 §I: after
/// "several consecutive FTOs (which also indicate serious congestion in the
/// OBS networks), BTCP performs the usual timeout retransmissions with Slow
/// Start"). Consecutive: no new data acknowledged since the previous FTO.
#[derive(Clone, Copy, Debug)]
pub struct FtoRun {
    run: u32,
    last_una: Option<u64>,
    max: u32,
}

impl FtoRun {
    /// A limiter allowing `max` FTOs in a row.
    pub fn new(max: u32) -> Self {
        FtoRun {
            run: 0,
            last_una: None,
            max,
        }
    }

    /// True when one more FTO is allowed with `snd_una = una`.
    pub fn allows(&mut self, una: u64) -> bool {
        if self.last_una != Some(una) {
            self.run = 0;
        }
        self.run < self.max
    }

    /// Records an FTO at `snd_una = una`.
    pub fn record(&mut self, una: u64) {
        self.run += 1;
        self.last_una = Some(una);
    }

    /// Forgets the run (after a true timeout).
    pub fn reset(&mut self) {
        self.run = 0;
        self.last_una = None;
    }

    /// Answers a timeout a detector judged: the FTO response
    /// ([`fto_response`]) when `judged_false` and one more FTO is allowed,
    /// else the true-timeout response of `true_timeout` (and the run ends).
    pub fn respond(
        &mut self,
        judged_false: bool,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        true_timeout: &mut Standard,
    ) -> TimeoutReaction {
        if judged_false && self.allows(cb.snd_una) {
            self.record(cb.snd_una);
            fto_response(cb, cc);
            TimeoutReaction::FalseTimeout
        } else {
            self.reset();
            true_timeout.on_timeout(cb, cc)
        }
    }
}

/// What the sender does after the plug-in ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutReaction {
    /// The plug-in applied the loss-window response and rewound `tx_next`
    /// to `snd_una`: the sender backs the timer off (RFC 6298 §5.5), drops
    /// its SACK state (RFC 2018 §8) and retransmits go-back-N.
    GoBackN,
    /// Treat the expiry as a triple-duplicate-ACK loss: the sender calls
    /// the recovery algorithm's `enter_recovery` (halve cwnd, fast
    /// retransmit) and restarts the timer without backing off.
    FastRetransmit,
    /// Burst TCP's answer to a false timeout (yu2004 §IV.A rule 1: "halves
    /// its congestion window and starts fast retransmission of all packets
    /// lost"): the plug-in applied a triple-duplicate window response
    /// (ssthresh and cwnd halved) and rewound `tx_next` to `snd_una`, so
    /// every segment of the lost burst is resent within the halved window.
    /// The sender counts a TD loss and an FTO, drops its SACK state as after
    /// any timeout, and restarts the timer *without* backing off (yu2004
    /// §V.A.2: BTCP "can also eliminate the exponential backoff time").
    FalseTimeout,
}

/// What a timeout plug-in did with a burst signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalReaction {
    /// Nothing the sender must act on (a BACK is only remembered for the
    /// next timeout; a signal the plug-in does not read is ignored).
    Noted,
    /// The plug-in applied the FTO response now (BNAK, yu2004 §IV.C: "the
    /// sender can start retransmission of lost packets as soon as the BNAK
    /// is received"): ssthresh and cwnd halved and `tx_next` rewound to
    /// `snd_una`, as [`TimeoutReaction::FalseTimeout`]. The sender counts a
    /// TD loss and an FTO and restarts the timer without backing off.
    FalseTimeout,
}

/// A timeout-response plug-in.
pub trait TimeoutResponse: std::fmt::Debug {
    /// Short name, for traces.
    fn name(&self) -> &'static str;
    /// The retransmission timer expired with data outstanding.
    fn on_timeout(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) -> TimeoutReaction;
    /// A fast retransmit started on duplicate ACKs (a "TD" loss) while the
    /// effective window `min(cwnd, W_M, rwnd)` was `window` segments (its
    /// value before the halving). Burst-length estimation (yu2004 §IV.A
    /// steps 2-3) learns from it; the default ignores it.
    fn on_td_loss(&mut self, _window: f64) {}
    /// The burst signals (yu2004 §IV.B-C) this plug-in reads; the OBS
    /// nodes send the flow only these. The default reads none.
    fn signals(&self) -> SignalSet {
        SignalSet::NONE
    }
    /// A burst signal (BACK or BNAK, yu2004 §IV.B-C) reached the sender;
    /// says whether the plug-in started the FTO response now. The default
    /// ignores signals.
    fn on_burst_signal(
        &mut self,
        _cb: &mut ControlBlock,
        _cc: &mut dyn WindowGrowth,
        _sig: &BurstSignal,
    ) -> SignalReaction {
        SignalReaction::Noted
    }

    /// Resets to exactly the state [`for_config`]`(cfg)` builds, keeping
    /// this value's allocations, and returns true; or returns false,
    /// unchanged, when `cfg` selects another response (`tcp.fto`). A
    /// generated flow arriving in a recycled slot renews the plug-in of the
    /// flow that held it, so its arrival allocates nothing (issue 12).
    fn renew(&mut self, cfg: &TcpConfig) -> bool;
}

/// The timeout response a configuration selects (the registry).
pub fn for_config(cfg: &TcpConfig) -> Box<dyn TimeoutResponse> {
    let standard = Standard::new(cfg);
    match cfg.fto {
        FtoDetection::None => Box::new(standard),
        FtoDetection::Ble {
            max_consecutive_fto,
        } => Box::new(Ble::new(max_consecutive_fto, standard)),
        FtoDetection::Back {
            source,
            max_consecutive_fto,
        } => Box::new(Back::new(source, max_consecutive_fto, standard)),
        FtoDetection::Bnak {
            mode,
            max_consecutive_fto,
        } => Box::new(Bnak::new(mode, max_consecutive_fto, standard)),
    }
}

/// Makes `plugin` what [`for_config`]`(cfg)` builds: renewed in place when it
/// already is that response (no allocation), else built anew.
pub fn renew(plugin: &mut Box<dyn TimeoutResponse>, cfg: &TcpConfig) {
    if !plugin.renew(cfg) {
        *plugin = for_config(cfg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::config::{BackSource, BnakMode};
    use crate::tcp::signal::SignalKind::{EgressAck, IngressAck, Nak};

    /// Each detector declares exactly the burst signals it reads.
    #[test]
    fn detectors_declare_the_signals_they_read() {
        let mut cfg = crate::tcp::profile::profile("ns2").unwrap();
        let wants = |cfg: &TcpConfig| for_config(cfg).signals();
        assert_eq!(wants(&cfg), SignalSet::NONE);
        cfg.fto = FtoDetection::Ble {
            max_consecutive_fto: 3,
        };
        assert_eq!(wants(&cfg), SignalSet::NONE);
        for (source, want) in [
            (BackSource::Ingress, SignalSet::of(IngressAck)),
            (BackSource::Egress, SignalSet::of(EgressAck)),
            (BackSource::Both, SignalSet::of(IngressAck).with(EgressAck)),
        ] {
            cfg.fto = FtoDetection::Back {
                source,
                max_consecutive_fto: 3,
            };
            assert_eq!(wants(&cfg), want, "{source:?}");
        }
        for mode in [BnakMode::Yu2004, BnakMode::EarlyResponse] {
            cfg.fto = FtoDetection::Bnak {
                mode,
                max_consecutive_fto: 3,
            };
            assert_eq!(wants(&cfg), SignalSet::of(Nak), "{mode:?}");
        }
    }
}

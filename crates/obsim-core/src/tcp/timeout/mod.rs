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
//! retransmit.

mod ble;
mod standard;

pub use ble::{Ble, FtoCounts, DEFAULT_MAX_CONSECUTIVE_FTO};
pub use standard::Standard;

use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::{FtoDetection, TcpConfig};
use crate::tcp::control::ControlBlock;

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
}

/// The timeout response a configuration selects (the registry).
pub fn for_config(cfg: &TcpConfig) -> Box<dyn TimeoutResponse> {
    match cfg.fto {
        FtoDetection::None => Box::new(Standard),
        FtoDetection::Ble {
            max_consecutive_fto,
        } => Box::new(Ble::new(max_consecutive_fto)),
    }
}

//! The reaction to a retransmission-timer expiry, as its own plug-in.
//!
//! The sender calls the plug-in with the control block when the timer fires;
//! the plug-in decides what the expiry means and applies the window response.
//! [`Standard`] is RFC 5681 §3.1 / RFC 6298 §5.4-5.7. Burst TCP adds one file
//! here: a plug-in that judges a timeout false (an FTO) and returns
//! [`TimeoutReaction::FastRetransmit`], after which the sender runs the
//! variant's fast retransmit (a "TD" reaction) instead of going back to
//! slow start.

mod standard;

pub use standard::Standard;

use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::TcpConfig;
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
}

/// A timeout-response plug-in.
pub trait TimeoutResponse: std::fmt::Debug {
    /// Short name, for traces.
    fn name(&self) -> &'static str;
    /// The retransmission timer expired with data outstanding.
    fn on_timeout(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) -> TimeoutReaction;
}

/// The timeout response a configuration selects (the registry).
pub fn for_config(_cfg: &TcpConfig) -> Box<dyn TimeoutResponse> {
    Box::new(Standard)
}

//! Window growth (congestion control proper): how cwnd opens on new ACKs and
//! what ssthresh a loss sets. One trait, one file per algorithm; ns-3's
//! `TcpCongestionOps` with `GetSsThresh` returning a value.

mod rfc5681;

pub use rfc5681::Rfc5681;

use crate::tcp::config::TcpConfig;
use crate::tcp::control::ControlBlock;

/// What signalled the loss a window cut answers (RFC 5681 §3.1 vs §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossSignal {
    /// `DupThresh` duplicate ACKs (fast retransmit).
    DupAcks,
    /// The retransmission timer (or a Burst TCP FTO/BNAK response).
    Timeout,
}

/// A window-growth rule.
pub trait WindowGrowth: std::fmt::Debug {
    /// Opens cwnd for an ACK that newly acknowledged `acked` segments while
    /// not in recovery (RFC 5681 §3.1).
    fn on_ack(&mut self, cb: &mut ControlBlock, acked: u64);
    /// The ssthresh a loss should set (RFC 5681 eq. (4)); returns the value
    /// and leaves the control block alone.
    fn ssthresh(&self, cb: &ControlBlock, signal: LossSignal) -> f64;
    /// cwnd right after a fast retransmit halved the window to `ssthresh`
    /// (before any fast-recovery inflation): `ssthresh` (RFC 5681 §3.2 step
    /// 3) unless the rule follows ns-2's `slowdown(CLOSE_CWND_HALF)`.
    fn halved_cwnd(&self, _cb: &ControlBlock, ssthresh: f64) -> f64 {
        ssthresh
    }
    /// Forgets partial-increment state after cwnd was cut.
    fn reset(&mut self) {}
    /// Resets to exactly the state [`for_config`]`(cfg)` builds, keeping
    /// this value's allocations, and returns true; or returns false,
    /// unchanged, when `cfg` selects another rule. A generated flow arriving
    /// in a recycled slot renews the plug-in of the flow that held it, so
    /// its arrival allocates nothing (issue 12).
    fn renew(&mut self, cfg: &TcpConfig) -> bool;
}

/// The window-growth rule a configuration selects (all variants share RFC
/// 5681 growth).
pub fn for_config(cfg: &TcpConfig) -> Box<dyn WindowGrowth> {
    Box::new(Rfc5681::for_config(cfg))
}

/// Makes `plugin` what [`for_config`]`(cfg)` builds: renewed in place when it
/// already runs that rule (no allocation), else built anew.
pub fn renew(plugin: &mut Box<dyn WindowGrowth>, cfg: &TcpConfig) {
    if !plugin.renew(cfg) {
        *plugin = for_config(cfg);
    }
}

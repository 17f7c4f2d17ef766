//! Window growth (congestion control proper): how cwnd opens on new ACKs and
//! what ssthresh a loss sets. One trait, one file per algorithm; ns-3's
//! `TcpCongestionOps` with `GetSsThresh` returning a value.

mod cubic;
pub mod hystart;
pub mod hystart_pp;
pub mod linux_cubic;
mod rfc5681;

pub use cubic::Cubic;
pub use linux_cubic::LinuxCubic;
pub use rfc5681::Rfc5681;

use crate::tcp::config::{CongestionControl, CubicArithmetic, SsthreshBasis, TcpConfig};
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
    /// A congestion event: the ssthresh the loss should set (RFC 5681 eq.
    /// (4), RFC 9438 §4.6), returned with the control block left alone.
    /// Called once per congestion event, with `cb.cwnd` still the window
    /// before the cut (fast-recovery inflation cleared): a fast retransmit,
    /// a timeout that recomputes ssthresh (not a backed-off one that holds
    /// it, RFC 5681 §3.1), a Burst TCP false-timeout response. A rule may
    /// record the event here (CUBIC's `W_max` and `cwnd_prior`, RFC 9438
    /// §4.6-4.7), so a caller must not call it merely to look.
    fn ssthresh(&mut self, cb: &ControlBlock, signal: LossSignal) -> f64;
    /// cwnd right after a fast retransmit halved the window to `ssthresh`
    /// (before any fast-recovery inflation): `ssthresh` (RFC 5681 §3.2 step
    /// 3) unless the rule follows ns-2's `slowdown(CLOSE_CWND_HALF)`.
    fn halved_cwnd(&self, _cb: &ControlBlock, ssthresh: f64) -> f64 {
        ssthresh
    }
    /// An ACK acknowledged new data (its RTT sample, if any, in
    /// `cb.ack_rtt`), before loss recovery and window growth see it: Linux's
    /// `pkts_acked` hook, where CUBIC runs HyStart (`cubictcp_acked`), which
    /// may end slow start by lowering ssthresh. Nothing by default.
    fn on_acked(&mut self, _cb: &mut ControlBlock) {}
    /// Forgets partial-increment state after cwnd was cut.
    fn reset(&mut self) {}
    /// Resets to exactly the state [`for_config`]`(cfg)` builds, keeping
    /// this value's allocations, and returns true; or returns false,
    /// unchanged, when `cfg` selects another rule. A generated flow arriving
    /// in a recycled slot renews the plug-in of the flow that held it, so
    /// its arrival allocates nothing (issue 12).
    fn renew(&mut self, cfg: &TcpConfig) -> bool;
}

/// The window-growth rule a configuration selects (`tcp.congestion_control`):
/// RFC 5681 (`"reno"`, every profile's) or CUBIC (`"cubic"`) in RFC 9438's
/// arithmetic or Linux's (`tcp.cubic.arithmetic`), whatever the
/// loss-recovery variant.
pub fn for_config(cfg: &TcpConfig) -> Box<dyn WindowGrowth> {
    match cfg.congestion_control {
        CongestionControl::Reno => Box::new(Rfc5681::for_config(cfg)),
        CongestionControl::Cubic => match cfg.cubic.arithmetic {
            CubicArithmetic::Rfc9438 => Box::new(Cubic::for_config(cfg)),
            CubicArithmetic::Linux => Box::new(LinuxCubic::for_config(cfg)),
        },
    }
}

/// The window a loss reduces, in segments, by `basis`: RFC 5681 §3.1's
/// `FlightSize` ("the amount of outstanding data in the network": at a
/// fast retransmit without what limited transmit sent, §3.2 step 2; at a
/// timeout without what the receiver has SACKed), RFC 6675's `pipe`
/// (`FlightSize` without a scoreboard), or ns-2's `min(cwnd, window_)`
/// (`cb.window()`). Shared by every rule's [`WindowGrowth::ssthresh`].
pub(crate) fn loss_window(cb: &ControlBlock, signal: LossSignal, basis: SsthreshBasis) -> f64 {
    let outstanding = match signal {
        // §3.2 step 2: "When [RFC3042] is in use, additional data sent in
        // limited transmit MUST NOT be included in this calculation."
        LossSignal::DupAcks => cb.flight_size().saturating_sub(cb.lt_sent),
        // SACKed segments have left the network (obsim's reading at an
        // RTO; without SACK `sacked_out` is 0).
        LossSignal::Timeout => cb.flight_size().saturating_sub(cb.sacked_out),
    };
    match basis {
        SsthreshBasis::FlightSize => outstanding as f64,
        // ns-3 `GetSsThresh(tcb, BytesInFlight())`: the RFC 6675 pipe.
        SsthreshBasis::Pipe => cb.pipe_est.unwrap_or(outstanding) as f64,
        SsthreshBasis::Cwnd => cb.window(),
    }
}

/// Makes `plugin` what [`for_config`]`(cfg)` builds: renewed in place when it
/// already runs that rule (no allocation), else built anew.
pub fn renew(plugin: &mut Box<dyn WindowGrowth>, cfg: &TcpConfig) {
    if !plugin.renew(cfg) {
        *plugin = for_config(cfg);
    }
}

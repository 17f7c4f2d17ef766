//! The standard timeout response: RFC 5681 §3.1 eq. (4) and the loss window,
//! RFC 6298 §5.4-5.6 (the sender backs off the timer), RFC 6582 §3.2 step 4
//! and RFC 6675 §5.1 (recovery point after a timeout).

use crate::tcp::cc::{LossSignal, WindowGrowth};
use crate::tcp::config::{FtoDetection, SsthreshBasis, TcpConfig};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::timeout::{TimeoutReaction, TimeoutResponse};

/// Go back to slow start from `snd_una` with cwnd = 1 (loss window).
#[derive(Clone, Copy, Debug)]
pub struct Standard {
    /// RFC 5681 §3.1: ssthresh is "held constant" on a repeated expiry of
    /// the same segment (a backed-off timer). False emulates ns-2, whose
    /// `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)` recomputes it from
    /// min(cwnd, window_) on every expiry.
    hold_ssthresh_on_backoff: bool,
}

impl Default for Standard {
    /// The RFC 5681 response (ssthresh held on a backed-off expiry).
    fn default() -> Self {
        Standard {
            hold_ssthresh_on_backoff: true,
        }
    }
}

impl Standard {
    /// The response a configuration selects: ns-2's when losses halve the
    /// window ns-2 halves (`ssthresh_basis = cwnd`, the `ns2` profile),
    /// RFC 5681's otherwise.
    pub fn new(cfg: &TcpConfig) -> Self {
        Standard {
            hold_ssthresh_on_backoff: cfg.ssthresh_basis != SsthreshBasis::Cwnd,
        }
    }
}

impl TimeoutResponse for Standard {
    fn name(&self) -> &'static str {
        "standard"
    }

    fn on_timeout(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) -> TimeoutReaction {
        // RFC 5681 §3.1: ssthresh = max(FlightSize/2, 2 SMSS), but "held
        // constant" when the segment was already retransmitted by the timer.
        // ns-2 (`slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)`) recomputes
        // it from min(cwnd, window_) on every expiry.
        if cb.consecutive_timeouts == 0 || !self.hold_ssthresh_on_backoff {
            cb.ssthresh = cc.ssthresh(cb, LossSignal::Timeout);
        }
        // RFC 5681 §3.1: cwnd = LW = 1 segment.
        cb.cwnd = 1.0;
        cc.reset();
        // RFC 6582 §3.2 step 4 / RFC 6675 §5.1: recover = HighData.
        cb.recover = cb.snd_nxt;
        cb.state = CaState::Loss;
        cb.dupacks = 0;
        // RFC 6298 §5.4: retransmit the earliest unacknowledged segment;
        // the rest follows go-back-N as the window reopens (ns-2
        // `reset_rtx_timer(0, 1)`: t_seqno_ = highest_ack_ + 1).
        cb.tx_next = cb.snd_una;
        TimeoutReaction::GoBackN
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        if cfg.fto != FtoDetection::None {
            return false;
        }
        *self = Standard::new(cfg);
        true
    }
}

//! RFC 5681 §3.1 slow start and congestion avoidance, with optional
//! appropriate byte counting (RFC 3465).

use crate::tcp::cc::{loss_window, LossSignal, WindowGrowth};
use crate::tcp::config::{CongestionControl, SsthreshBasis, TcpConfig};
use crate::tcp::control::ControlBlock;

/// RFC 3465 §2.2 limit L on slow-start growth per ACK, in segments.
const ABC_L: u64 = 2;

/// The slow-start increase, in segments, for an ACK that newly
/// acknowledged `acked` (>= 1) segments: RFC 5681 §3.1 eq. (2), cwnd +=
/// min(N, SMSS) per ACK, i.e. one segment; with ABC (RFC 3465 §2.2) cwnd
/// += min(N, L*SMSS). Shared by every rule that slow-starts as RFC 5681.
pub(crate) fn slow_start_increase(abc: bool, acked: u64) -> f64 {
    if abc {
        acked.min(ABC_L) as f64
    } else {
        1.0
    }
}

/// RFC 5681 window growth: +1 segment per new ACK in slow start, +1/cwnd per
/// new ACK in congestion avoidance (eq. (3)); with ABC, growth by acknowledged
/// segments instead of ACKs.
#[derive(Clone, Debug)]
pub struct Rfc5681 {
    abc: bool,
    /// Which window a loss halves (RFC 5681 `FlightSize`, or ns-2's cwnd).
    basis: SsthreshBasis,
    /// ns-2 `precisionReduce_`: the halved cwnd keeps its fraction.
    precision_reduce: bool,
    /// ABC: segments acknowledged in congestion avoidance since the last
    /// increase (RFC 3465 §2.1 `bytes_acked`).
    acked_in_ca: u64,
}

impl Rfc5681 {
    /// The rule, with ABC on or off, halving the window `basis` names
    /// (with ns-2's `precisionReduce_` when `precision_reduce`).
    pub fn new(abc: bool, basis: SsthreshBasis, precision_reduce: bool) -> Self {
        Rfc5681 {
            abc,
            basis,
            precision_reduce,
            acked_in_ca: 0,
        }
    }

    /// The rule with `cfg`'s options (`tcp.abc`, `tcp.ssthresh_basis`,
    /// `tcp.precision_reduce`).
    pub fn for_config(cfg: &TcpConfig) -> Self {
        Rfc5681::new(cfg.abc, cfg.ssthresh_basis, cfg.precision_reduce)
    }
}

impl WindowGrowth for Rfc5681 {
    fn on_ack(&mut self, cb: &mut ControlBlock, acked: u64) {
        if acked == 0 {
            return;
        }
        if cb.cwnd < cb.ssthresh {
            cb.cwnd += slow_start_increase(self.abc, acked);
        } else if self.abc {
            // RFC 3465 §2.1: +1 SMSS once a full cwnd has been acknowledged.
            self.acked_in_ca += acked;
            let w = cb.cwnd.floor().max(1.0) as u64;
            if self.acked_in_ca >= w {
                self.acked_in_ca -= w;
                cb.cwnd += 1.0;
            }
        } else {
            // RFC 5681 §3.1 eq. (3): cwnd += SMSS*SMSS/cwnd per ACK.
            cb.cwnd += 1.0 / cb.cwnd;
        }
    }

    fn ssthresh(&mut self, cb: &ControlBlock, signal: LossSignal) -> f64 {
        // RFC 5681 §3.1 eq. (4): ssthresh = max(FlightSize / 2, 2*SMSS)
        // ([`loss_window`] says which window the basis reads).
        let w = loss_window(cb, signal, self.basis);
        match self.basis {
            SsthreshBasis::FlightSize | SsthreshBasis::Pipe => (w / 2.0).max(2.0),
            // ns-2 `slowdown(CLOSE_SSTHRESH_HALF)`: int(min(cwnd, window_)/2),
            // at least 2.
            SsthreshBasis::Cwnd => (w / 2.0).floor().max(2.0),
        }
    }

    fn halved_cwnd(&self, cb: &ControlBlock, ssthresh: f64) -> f64 {
        match self.basis {
            // RFC 5681 §3.2 step 3 (before the +3 inflation) and RFC 6675 §5
            // step (4.2): cwnd = ssthresh.
            SsthreshBasis::FlightSize | SsthreshBasis::Pipe => ssthresh,
            // ns-2 tcp.cc `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)`:
            // `cwnd_ = halfwin`, where `halfwin = windowd() / 2` with
            // `precision_reduce_` and `int(window() / 2)` without (window()
            // = int(cwnd_) + dupwnd_, capped at wnd_); ssthresh_ =
            // int(halfwin), raised to 2, cwnd_ not. obsim keeps cwnd >= 1
            // (ns-2 could reach a cwnd_ below 1 only from a window below 2,
            // which three duplicate ACKs cannot follow with bugFix_ on).
            SsthreshBasis::Cwnd => {
                let w = cb.window();
                let half = if self.precision_reduce {
                    w / 2.0
                } else {
                    (w / 2.0).floor()
                };
                half.max(1.0)
            }
        }
    }

    fn reset(&mut self) {
        self.acked_in_ca = 0;
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        if cfg.congestion_control != CongestionControl::Reno {
            return false;
        }
        *self = Rfc5681::for_config(cfg);
        true
    }
}

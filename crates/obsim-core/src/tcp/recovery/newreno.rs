//! `NewReno`: RFC 6582. Recovery lasts until `recover` is acknowledged; each
//! partial ACK retransmits the next hole and partially deflates cwnd. The
//! "careful" variant (§4.1): no new fast retransmit until the previous
//! recovery point is acknowledged. Timer: reset on the first partial ACK
//! only (§3.2 step 5, the "Impatient" variant; ns-2 `newreno_changes1_ 1`),
//! or on every partial ACK with `newreno_slow_but_steady` (RFC 6582 §4,
//! "Slow-but-Steady"; ns-2 `newreno_changes1_ 0`, the default before
//! 2003-05-05). Window on a partial ACK: RFC 6582 partial deflation, or with
//! `partial_window_deflation` off ns-2's pre-2003-05-05 rule, which drops
//! the whole inflation (cwnd = ssthresh; ns-2 `partial_window_deflation_ 0`).

use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::RecoveryExit;
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::recovery::reno::{reno_enter, reno_exit};
use crate::tcp::recovery::{
    algorithm, dupack_triggers, new_ack_outside_recovery, Actions, Algorithm, LossRecovery,
};

/// `NewReno` loss recovery.
#[derive(Clone, Debug)]
pub struct NewReno {
    /// A partial ACK was already seen in this recovery episode.
    partial_seen: bool,
    /// Reset the timer on every partial ACK, not only the first.
    slow_but_steady: bool,
    /// Partial ACKs deflate cwnd by the amount acknowledged (RFC 6582)
    /// instead of resetting it to ssthresh (ns-2 before 2003-05-05).
    partial_window_deflation: bool,
    /// What the full ACK does to cwnd.
    exit: RecoveryExit,
    /// Segments per ACK once `DupThresh` duplicates arrived (0 = no limit).
    max_burst: u32,
}

impl NewReno {
    /// NewReno with the timer-reset and partial-ACK window rules of `cfg`.
    pub fn new(cfg: &crate::tcp::TcpConfig) -> Self {
        Self {
            partial_seen: false,
            slow_but_steady: cfg.newreno_slow_but_steady,
            partial_window_deflation: cfg.partial_window_deflation,
            exit: cfg.recovery_exit,
            max_burst: cfg.recovery_max_burst,
        }
    }
}

impl LossRecovery for NewReno {
    fn name(&self) -> &'static str {
        "newreno"
    }

    fn on_dup_ack(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
        if cb.state == CaState::Recovery {
            // RFC 6582 §3.2 step 4: inflate by SMSS per additional dup ACK
            // (ns-2 `++dupwnd_`).
            cb.dupwnd += 1.0;
        } else if dupack_triggers(cb, true) {
            self.enter_recovery(cb, cc, out);
        }
    }

    fn on_new_ack(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        acked: u64,
        out: &mut Actions,
    ) {
        if cb.state != CaState::Recovery {
            new_ack_outside_recovery(cb, cc, acked, out);
            return;
        }
        if cb.snd_una >= cb.recover {
            // §3.2 step 6, full acknowledgment: leave fast recovery, cwnd =
            // ssthresh (option 2) or ns-2's exit (`seqno() >= recover_`:
            // dupwnd_ = 0, cwnd_ kept and opened by `recv_newack_helper`).
            reno_exit(cb, cc, self.exit, acked, out);
        } else {
            // §3.2 step 5, partial acknowledgment: retransmit the first
            // unacknowledged segment.
            out.retransmit = Some(cb.snd_una);
            if self.partial_window_deflation {
                // Deflate the window by the amount acknowledged and add back
                // one SMSS (at least one segment was acknowledged), taking
                // it from the inflation first, as ns-2's `partialnewack`
                // does: the un-inflated cwnd shrinks only once the
                // inflation is used up (and a timeout halves that cwnd).
                let acked = acked as f64;
                if cb.dupwnd > acked {
                    cb.dupwnd -= acked - 1.0;
                } else {
                    cb.cwnd = (cb.cwnd - (acked - cb.dupwnd)).max(1.0);
                    cb.dupwnd = 1.0;
                }
            } else {
                // ns-2 `partial_window_deflation_ 0`: `dupwnd_ = 0`, so the
                // window falls back to cwnd_, the halved window of the fast
                // retransmit (ns-2 tcp.h: "set cwnd to ssthresh upon partial
                // new ack"); later duplicate ACKs inflate it again (step 4).
                cb.clear_inflation();
            }
            // "For the first partial ACK ... also reset the retransmit timer"
            // (Impatient); Slow-but-Steady resets it on every partial ACK.
            out.restart_timer = self.slow_but_steady || !self.partial_seen;
            self.partial_seen = true;
        }
    }

    fn max_burst(&self, cb: &ControlBlock) -> Option<u32> {
        // ns-2 tcp-newreno.cc `NewRenoTcpAgent::recv`, after processing an
        // ACK: `if (dupacks_ == 0) send_much(0, 0, maxburst_); else if
        // (dupacks_ > numdupacks_ - 1 && newreno_changes_ == 0)
        // send_much(0, 0, 2);` dupacks_ is cleared by newack() (full ACKs,
        // ACKs outside recovery) and by a timeout, not by partialnewack(),
        // so the limit holds from the fast retransmit to the full ACK; the
        // retransmissions (`output(last_ack_ + 1)`) are not part of it.
        (self.max_burst > 0 && cb.dupacks >= cb.dupthresh).then_some(self.max_burst)
    }

    fn enter_recovery(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        out: &mut Actions,
    ) {
        // §3.2 steps 2-3: as Reno, with recover = highest sequence sent.
        self.partial_seen = false;
        reno_enter(cb, cc, out);
    }

    fn renew(&mut self, cfg: &crate::tcp::TcpConfig) -> bool {
        if algorithm(cfg) != Algorithm::NewReno {
            return false;
        }
        *self = NewReno::new(cfg);
        true
    }
}

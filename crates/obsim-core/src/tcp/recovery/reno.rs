//! Reno: RFC 5681 §3.2 fast retransmit and fast recovery. The first new ACK
//! ends recovery, so several losses in one window cause several halvings or
//! a timeout.

use crate::tcp::cc::{LossSignal, WindowGrowth};
use crate::tcp::config::{RecoveryExit, TcpConfig};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::recovery::{
    algorithm, dupack_triggers, new_ack_outside_recovery, Actions, Algorithm, LossRecovery,
};

/// Reno loss recovery.
#[derive(Clone, Debug)]
pub struct Reno {
    careful: bool,
    exit: RecoveryExit,
}

impl Reno {
    /// Reno with the configured recovery-point check (ns-2 `bugFix_`) and
    /// recovery exit.
    pub fn new(cfg: &TcpConfig) -> Self {
        Reno {
            careful: cfg.reno_recover_check,
            exit: cfg.recovery_exit,
        }
    }
}

/// RFC 5681 §3.2 steps 2-3, shared with `NewReno`: ssthresh per eq. (4),
/// retransmit the lost segment, cwnd = ssthresh + 3 SMSS (+ one per
/// duplicate ACK received, i.e. `dupacks`), the inflation held in `dupwnd`
/// (ns-2 `dupwnd_ = numdupacks_`). With ns-2's basis the un-inflated cwnd
/// is ns-2's `halfwin` ([`WindowGrowth::halved_cwnd`], `precisionReduce_`).
pub(crate) fn reno_enter(cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
    // dupwnd is zero here (outside recovery, or cleared by the timeout that
    // led here), so ssthresh halves the un-inflated window.
    let ssthresh = cc.ssthresh(cb, LossSignal::DupAcks);
    cb.cwnd = cc.halved_cwnd(cb, ssthresh);
    cb.ssthresh = ssthresh;
    cb.dupwnd = f64::from(cb.dupacks);
    cc.reset();
    cb.recover = cb.snd_nxt;
    cb.state = CaState::Recovery;
    out.retransmit = Some(cb.snd_una);
    out.entered_recovery = true;
    // ns-2 reset_rtx_timer(1, 0) restarts the timer on fast retransmit.
    out.restart_timer = true;
}

/// Leaves Reno/`NewReno` fast recovery on the ACK `acked` segments long
/// that ends it: the inflation goes (ns-2 `dupwnd_ = 0`), and cwnd either
/// deflates to ssthresh (RFC 5681 §3.2 step 6, RFC 6582 §3.2 step 6 option
/// (2)) or stays and opens as on any new ACK (ns-2 `recv` →
/// `recv_newack_helper` → `opencwnd()`; with `precisionReduce_` cwnd_ =
/// windowd()/2 >= ssthresh_ there, so it grows by 1/cwnd_).
pub(crate) fn reno_exit(
    cb: &mut ControlBlock,
    cc: &mut dyn WindowGrowth,
    exit: RecoveryExit,
    acked: u64,
    out: &mut Actions,
) {
    cb.clear_inflation();
    cb.state = CaState::Open;
    cb.dupacks = 0;
    match exit {
        RecoveryExit::Deflate => cb.cwnd = cb.ssthresh,
        RecoveryExit::Open => super::grow(cb, cc, acked),
    }
    out.restart_timer = true;
}

impl LossRecovery for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn on_dup_ack(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
        if cb.state == CaState::Recovery {
            // RFC 5681 §3.2 step 4: inflate cwnd by SMSS per further dup ACK
            // (ns-2 `++dupwnd_`).
            cb.dupwnd += 1.0;
        } else if dupack_triggers(cb, self.careful) {
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
        if cb.state == CaState::Recovery {
            // The next new ACK ends fast recovery (RFC 5681 §3.2 step 6).
            reno_exit(cb, cc, self.exit, acked, out);
        } else {
            new_ack_outside_recovery(cb, cc, acked, out);
        }
    }

    fn enter_recovery(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        out: &mut Actions,
    ) {
        reno_enter(cb, cc, out);
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        if algorithm(cfg) != Algorithm::Reno {
            return false;
        }
        *self = Reno::new(cfg);
        true
    }
}

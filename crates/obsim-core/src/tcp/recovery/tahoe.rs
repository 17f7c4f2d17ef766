//! Tahoe: fast retransmit without fast recovery (Jacobson 1988; ns-2
//! `Agent/TCP`): after `DupThresh` duplicate ACKs, ssthresh is cut, cwnd drops
//! to one segment and the sender goes back to `snd_una` in slow start.

use crate::tcp::cc::{LossSignal, WindowGrowth};
use crate::tcp::config::TcpConfig;
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::recovery::{
    algorithm, dupack_triggers, new_ack_outside_recovery, Actions, Algorithm, LossRecovery,
};

/// Tahoe loss recovery.
#[derive(Clone, Debug)]
pub struct Tahoe {
    careful: bool,
}

impl Tahoe {
    /// Tahoe with the configured recovery-point check (ns-2 `bugFix_`).
    pub fn new(cfg: &TcpConfig) -> Self {
        Tahoe {
            careful: cfg.reno_recover_check,
        }
    }
}

impl LossRecovery for Tahoe {
    fn name(&self) -> &'static str {
        "tahoe"
    }

    fn on_dup_ack(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
        if dupack_triggers(cb, self.careful) {
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
        new_ack_outside_recovery(cb, cc, acked, out);
    }

    fn enter_recovery(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        out: &mut Actions,
    ) {
        // ns-2 `dupack_action` tahoe_action: recover = maxseq,
        // slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_ONE), then
        // reset_rtx_timer(0, 0): restart the timer and go back to snd_una.
        cb.ssthresh = cc.ssthresh(cb, LossSignal::DupAcks);
        cb.cwnd = 1.0;
        cc.reset();
        cb.recover = cb.snd_nxt;
        cb.state = CaState::Loss;
        cb.tx_next = cb.snd_una;
        out.entered_recovery = true;
        out.restart_timer = true;
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        if algorithm(cfg) != Algorithm::Tahoe {
            return false;
        }
        *self = Tahoe::new(cfg);
        true
    }
}

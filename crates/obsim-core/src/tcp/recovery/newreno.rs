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
//!
//! With `tcp.prr` on, Proportional Rate Reduction (RFC 6937, `prr.rs`)
//! sets the window instead of the inflation and partial deflation, over a
//! `pipe` estimated without SACK ([`NewReno`]'s `sacked_est`, as Linux
//! estimates it for a Reno connection): see `docs/MODEL.md`, "PRR".

use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::RecoveryExit;
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::recovery::reno::{reno_enter, reno_exit};
use crate::tcp::recovery::{
    algorithm, dupack_triggers, new_ack_outside_recovery, Actions, Algorithm, LossRecovery,
    PrrState,
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
    /// Proportional Rate Reduction (RFC 6937), when `tcp.prr` is on.
    prr: PrrState,
    /// With PRR: segments above `snd_una` that duplicate ACKs say have
    /// arrived and the cumulative ACK does not yet cover, one per duplicate
    /// ACK, at most `FlightSize` − 1 (Linux `sacked_out` of a connection
    /// without SACK: `tcp_add_reno_sack`, `tcp_remove_reno_sacks`,
    /// `tcp_limit_reno_sacked`).
    sacked_est: u64,
    /// With PRR: the `pipe` estimate of this recovery, set on each ACK and
    /// incremented on each transmission (as RFC 6675 §5 (C.4)).
    pipe: u64,
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
            prr: PrrState::new(cfg.prr),
            sacked_est: 0,
            pipe: 0,
        }
    }

    /// Fast retransmit (RFC 6582 §3.2 steps 2-3), on an ACK that delivered
    /// `delivered` segments (1 for the `DupThresh`-th duplicate ACK, 0 when
    /// a timeout plug-in starts recovery).
    fn enter(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        delivered: u64,
        out: &mut Actions,
    ) {
        self.partial_seen = false;
        reno_enter(cb, cc, out);
        if self.prr.is_on() {
            // PRR replaces the inflation (RFC 6937 §1: the reference
            // fast recovery's window adjustments): cwnd = pipe + sndcnt.
            cb.clear_inflation();
            self.prr.enter(cb);
            // Every duplicate ACK of this run reported a segment that left
            // the network.
            self.sacked_est = u64::from(cb.dupacks).min(cb.flight_size() - 1);
            self.prr_step(cb, delivered, true);
        }
    }

    /// One RFC 6937 §3 step on an ACK in recovery that delivered
    /// `delivered` segments; `head_lost`: the segment at `snd_una` is
    /// presumed lost and its retransmission, which this ACK triggers, has
    /// not left yet (the fast retransmit, a partial ACK).
    ///
    /// `pipe` without SACK (RFC 6937 §1: PRR does "not require" SACK; the
    /// estimate is Linux's `tcp_packets_in_flight` for a Reno connection,
    /// `packets_out − sacked_out − lost_out + retrans_out`): FlightSize less
    /// the segments duplicate ACKs reported (`sacked_est`), less the head
    /// while it is lost and not yet resent.
    fn prr_step(&mut self, cb: &mut ControlBlock, delivered: u64, head_lost: bool) {
        self.pipe = cb
            .flight_size()
            .saturating_sub(self.sacked_est + u64::from(head_lost));
        self.prr.on_ack(cb, delivered, self.pipe);
    }
}

impl LossRecovery for NewReno {
    fn name(&self) -> &'static str {
        "newreno"
    }

    fn on_dup_ack(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
        if cb.state == CaState::Recovery {
            if self.prr.is_on() {
                // RFC 6937 §2 without SACK: "DeliveredData is estimated to
                // be 1 SMSS on duplicate acknowledgement" (none once every
                // outstanding segment but the hole is counted).
                let before = self.sacked_est;
                self.sacked_est = (before + 1).min(cb.flight_size() - 1);
                self.prr_step(cb, self.sacked_est - before, false);
                return;
            }
            // RFC 6582 §3.2 step 4: inflate by SMSS per additional dup ACK
            // (ns-2 `++dupwnd_`).
            cb.dupwnd += 1.0;
        } else if dupack_triggers(cb, true) {
            self.enter(cb, cc, 1, out);
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
            // PRR ends at cwnd = ssthresh (`PrrState::exit`).
            let exit = if self.prr.is_on() {
                RecoveryExit::Deflate
            } else {
                self.exit
            };
            reno_exit(cb, cc, exit, acked, out);
        } else {
            // §3.2 step 5, partial acknowledgment: retransmit the first
            // unacknowledged segment.
            out.retransmit = Some(cb.snd_una);
            if self.prr.is_on() {
                // RFC 6937 §2 without SACK: "on a subsequent partial or
                // full ACK, DeliveredData is estimated to be the change in
                // snd.una, minus 1 SMSS for each preceding duplicate ACK";
                // at least the retransmitted segment itself was delivered
                // (Linux `tcp_remove_reno_sacks`: acked − 1 at most).
                let counted = self.sacked_est.min(acked - 1);
                self.sacked_est =
                    (self.sacked_est - counted).min(cb.flight_size().saturating_sub(1));
                self.prr_step(cb, acked - counted, true);
            } else if self.partial_window_deflation {
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
        // Called by a timeout plug-in: no ACK, nothing delivered.
        self.enter(cb, cc, 0, out);
    }

    fn next_segment(&mut self, cb: &mut ControlBlock) -> Option<u64> {
        if self.prr.is_on() && cb.state == CaState::Recovery {
            // RFC 6937 §3 with RFC 6675 §5 (C)'s rule over the estimated
            // pipe: send while cwnd − pipe ≥ 1 segment (cwnd = pipe +
            // sndcnt), new data within W_M and rwnd. NewReno never rewinds
            // in recovery: tx_next = snd_nxt.
            let room = cb.cwnd - self.pipe as f64 >= 1.0;
            let ok = room && cb.tx_next < cb.end_seq && cb.tx_next < cb.snd_una + cb.window_cap();
            return ok.then_some(cb.tx_next);
        }
        cb.window_allows_tx_next().then_some(cb.tx_next)
    }

    fn on_transmit(&mut self, cb: &ControlBlock, _seq: u64, _retransmit: bool) {
        if self.prr.is_on() && cb.state == CaState::Recovery {
            self.pipe += 1;
            self.prr.on_transmit();
        }
    }

    fn prr(&self) -> Option<&PrrState> {
        self.prr.is_on().then_some(&self.prr)
    }

    fn renew(&mut self, cfg: &crate::tcp::TcpConfig) -> bool {
        if algorithm(cfg) != Algorithm::NewReno {
            return false;
        }
        *self = NewReno::new(cfg);
        true
    }
}

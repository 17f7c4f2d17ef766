//! Loss recovery: what duplicate and partial ACKs do, and which segment goes
//! next. One file per algorithm, all sharing the control block and the
//! window-growth rule (ns-3's split of `TcpRecoveryOps` from
//! `TcpCongestionOps`). [`for_config`] is the one place that maps a
//! [`Variant`] to its algorithm.

mod newreno;
mod ns2_sack1;
mod prr;
mod rack;
mod reno;
mod sack;
mod scoreboard;
mod tahoe;
mod time_order;

pub use newreno::NewReno;
pub use ns2_sack1::Ns2Sack1;
pub use prr::PrrState;
pub use rack::Rack;
pub use reno::Reno;
pub use sack::Sack;
pub use scoreboard::Scoreboard;
pub use tahoe::Tahoe;

use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::{SackRecovery, TcpConfig, Variant};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::segment::Ack;
use crate::time::{SimDuration, SimTime};

/// What the sender must do after a recovery hook ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Actions {
    /// Retransmit this segment now, regardless of the window (RFC 5681 §3.2
    /// step 2; RFC 6582 §3.2 step 5).
    pub retransmit: Option<u64>,
    /// Restart the retransmission timer (RFC 6298 §5.3).
    pub restart_timer: bool,
    /// A fast retransmit started (one triple-duplicate "TD" loss event).
    pub entered_recovery: bool,
    /// End the timer backoff now, without an RTT sample (ns-2 Sack1's
    /// `t_backoff_ = 1` on a partial ACK, tcp-sack1.cc `recv`).
    pub reset_backoff: bool,
}

/// A loss-recovery algorithm.
pub trait LossRecovery: std::fmt::Debug {
    /// Short name, for traces.
    fn name(&self) -> &'static str;

    /// Sees every acceptable ACK after `cb.snd_una` was advanced, before
    /// [`Self::on_dup_ack`] or [`Self::on_new_ack`] (the SACK scoreboard
    /// update of RFC 6675 §5 step (A)).
    fn on_ack_info(&mut self, _cb: &ControlBlock, _ack: &Ack) {}

    /// A duplicate ACK (RFC 5681 §2); `cb.dupacks` was already incremented.
    fn on_dup_ack(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions);

    /// An ACK that acknowledged `acked` new segments; `cb.snd_una` is
    /// already advanced.
    fn on_new_ack(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        acked: u64,
        out: &mut Actions,
    );

    /// Fast retransmit: start this algorithm's loss recovery now. Called on
    /// the `DupThresh`-th duplicate ACK, and by a timeout plug-in that judges a
    /// timeout false and reacts as to a triple-duplicate loss.
    fn enter_recovery(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        out: &mut Actions,
    );

    /// The retransmission timer expired and the timeout plug-in applied the
    /// go-back-N response (RFC 2018 §8 and RFC 6675 §5.1 for the scoreboard).
    fn on_timeout(&mut self, _cb: &mut ControlBlock) {}

    /// The next segment the window allows, if any (may rewind or skip
    /// `cb.tx_next`); the default is the RFC 5681 window rule.
    fn next_segment(&mut self, cb: &mut ControlBlock) -> Option<u64> {
        cb.window_allows_tx_next().then_some(cb.tx_next)
    }

    /// Segment `seq` was handed to the network.
    fn on_transmit(&mut self, _cb: &ControlBlock, _seq: u64, _retransmit: bool) {}

    /// Segments in `[snd_una, snd_nxt)` the receiver has SACKed (0 without
    /// a scoreboard): data that has left the network, for the `FlightSize`
    /// of a timeout's ssthresh.
    fn sacked_out(&self, _cb: &ControlBlock) -> u64 {
        0
    }

    /// The Proportional Rate Reduction state (RFC 6937), when `tcp.prr` is
    /// on and this algorithm reads it (for tests and traces).
    fn prr(&self) -> Option<&PrrState> {
        None
    }

    /// RFC 6675 §4 `SetPipe()`, if this algorithm keeps a scoreboard.
    fn pipe_estimate(&self, _cb: &ControlBlock) -> Option<u64> {
        None
    }

    /// The most segments [`Self::next_segment`] may release in answer to
    /// the ACK just processed (retransmissions the ACK asked for not
    /// counted), or `None` for no limit (the default; ns-2 `maxburst_ 0`).
    fn max_burst(&self, _cb: &ControlBlock) -> Option<u32> {
        None
    }

    /// Resets to exactly the state [`for_config`]`(cfg)` builds, keeping
    /// this value's allocations (the SACK scoreboard), and returns true; or
    /// returns false, unchanged, when `cfg` selects another algorithm. A
    /// generated flow arriving in a recycled slot renews the plug-in of the
    /// flow that held it, so its arrival allocates nothing (issue 12).
    fn renew(&mut self, cfg: &TcpConfig) -> bool;

    // ---- RACK (RFC 8985 §6; `tcp.rack`, RFC 6675 SACK only) ----

    /// The sender's clock and SRTT, given before the ACK, transmit and
    /// timer hooks that follow when `tcp.rack` is on (RACK compares
    /// per-segment transmit times).
    fn set_clock(&mut self, _now: SimTime, _srtt: Option<SimDuration>) {}

    /// When RACK's reordering timer fires (RFC 8985 §6.2 step 5), if armed.
    fn reorder_deadline(&self) -> Option<SimTime> {
        None
    }

    /// RACK's reordering timer expired: detect losses again and start (or
    /// feed) the recovery (RFC 8985 §6.2 step 5, `RACK_detect_loss_and_arm_timer`).
    fn on_reorder_timer(
        &mut self,
        _cb: &mut ControlBlock,
        _cc: &mut dyn WindowGrowth,
        _out: &mut Actions,
    ) {
    }

    /// The RACK state, when `tcp.rack` is on (for tests and traces).
    fn rack(&self) -> Option<&Rack> {
        None
    }

    /// After [`Self::on_ack_info`], with `tcp.timestamps` and a scoreboard
    /// that keeps transmit times (RACK): the send time of the segment
    /// Linux takes the ACK's RTT sample from (`tcp_clean_rtx_queue`'s
    /// `first_ackt`, the first newly cumulatively acknowledged segment
    /// never retransmitted, when none of them was; else `tcp_sacktag_one`'s
    /// `first_sackt`, the first newly SACKed one never retransmitted), or
    /// `None` (the sender then reads TSecr, `tcp_ack_update_rtt`).
    fn rtt_sent_at(&self) -> Option<SimTime> {
        None
    }
}

/// The algorithms [`for_config`] chooses from: the one place that maps a
/// configuration to its algorithm, read by the registry and by each
/// algorithm's [`LossRecovery::renew`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algorithm {
    /// `tahoe.rs`.
    Tahoe,
    /// `reno.rs`.
    Reno,
    /// `newreno.rs`, RFC 6582.
    NewReno,
    /// RFC 6675.
    Sack,
    /// ns-2.35 `Agent/TCP/Sack1`.
    Ns2Sack1,
}

/// The algorithm of `cfg.variant`; SACK runs RFC 6675 or ns-2.35's
/// `Agent/TCP/Sack1` per `cfg.sack_recovery`.
pub(crate) fn algorithm(cfg: &TcpConfig) -> Algorithm {
    match cfg.variant {
        Variant::Tahoe => Algorithm::Tahoe,
        Variant::Reno => Algorithm::Reno,
        Variant::NewReno => Algorithm::NewReno,
        Variant::Sack => match cfg.sack_recovery {
            SackRecovery::Rfc6675 => Algorithm::Sack,
            SackRecovery::Ns2Sack1 => Algorithm::Ns2Sack1,
        },
    }
}

/// The recovery algorithm of `cfg.variant` (the registry); SACK runs RFC
/// 6675 or ns-2.35's `Agent/TCP/Sack1` per `cfg.sack_recovery`.
pub fn for_config(cfg: &TcpConfig) -> Box<dyn LossRecovery> {
    match algorithm(cfg) {
        Algorithm::Tahoe => Box::new(Tahoe::new(cfg)),
        Algorithm::Reno => Box::new(Reno::new(cfg)),
        Algorithm::NewReno => Box::new(NewReno::new(cfg)),
        Algorithm::Sack => Box::new(Sack::new(cfg)),
        Algorithm::Ns2Sack1 => Box::new(Ns2Sack1::new(cfg)),
    }
}

/// Makes `plugin` what [`for_config`]`(cfg)` builds: renewed in place when it
/// already runs that algorithm (no allocation), else built anew.
pub fn renew(plugin: &mut Box<dyn LossRecovery>, cfg: &TcpConfig) {
    if !plugin.renew(cfg) {
        *plugin = for_config(cfg);
    }
}

/// Shared duplicate-ACK trigger: true when the `DupThresh`-th duplicate ACK
/// arrives in the Open state (RFC 5681 §3.2 step 2) and, when `careful`, the
/// cumulative ACK is past the previous episode's recovery point by the
/// configured rule (`recover_check`, [`ControlBlock::recover_passed`]).
///
/// `cb.recover` is one past the highest segment sent when the episode
/// began. `"passed"`: `snd_una > cb.recover`, at least one segment sent
/// after the episode began is acknowledged, as ns-2 tests it
/// (`highest_ack_ > recover_`, its ACKs naming the last segment received);
/// duplicate ACKs that only reach `recover` (unnecessary retransmissions
/// after a timeout, RFC 6582 §4) start nothing. `"reached"`: `snd_una >=
/// cb.recover`, everything sent before the episode is acknowledged (RFC
/// 6675 §5.1: "until HighACK is greater than or equal to the new value of
/// RecoveryPoint"), so a loss of the first segment sent after the episode
/// began is fast-retransmitted.
pub(crate) fn dupack_triggers(cb: &ControlBlock, careful: bool) -> bool {
    cb.state == CaState::Open && cb.dupacks == cb.dupthresh && (!careful || cb.recover_passed())
}

/// Opens cwnd for `acked` newly acknowledged segments through the
/// window-growth plug-in, if the window is in use
/// ([`ControlBlock::may_raise_cwnd`], `tcp.cwnd_limited_growth`).
#[inline]
pub(crate) fn grow(cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, acked: u64) {
    if cb.may_raise_cwnd() {
        cc.on_ack(cb, acked);
    }
}

/// Shared new-ACK handling outside Recovery: window growth (RFC 5681 §3.1),
/// leaving the Loss state once `recover` is acknowledged (RFC 6582 §3.2
/// step 4 after a timeout), and the timer restart of RFC 6298 §5.3.
pub(crate) fn new_ack_outside_recovery(
    cb: &mut ControlBlock,
    cc: &mut dyn WindowGrowth,
    acked: u64,
    out: &mut Actions,
) {
    cb.dupacks = 0;
    grow(cb, cc, acked);
    if cb.state == CaState::Loss && cb.snd_una >= cb.recover {
        cb.state = CaState::Open;
    }
    out.restart_timer = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn careful_trigger_needs_an_ack_beyond_the_recovery_point() {
        // RFC 6582 §3.2 step 2: after an episode whose highest segment sent
        // was 99 (`recover` = 100 here), duplicate ACKs for 100 come from
        // unnecessary retransmissions; only an ACK covering more starts a
        // new fast retransmit.
        let cfg = crate::tcp::profile::profile("ns2").unwrap();
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.state = CaState::Open;
        cb.recover = 100;
        cb.dupacks = cb.dupthresh;
        cb.snd_una = 100;
        assert!(!dupack_triggers(&cb, true));
        assert!(dupack_triggers(&cb, false), "the plain RFC 5681 trigger");
        cb.snd_una = 101;
        assert!(dupack_triggers(&cb, true));
    }

    #[test]
    fn linux_holds_a_non_sack_connection_until_the_recovery_point_is_passed() {
        // Linux `tcp_is_non_sack_preventing_reopen`: without SACK, duplicate
        // ACKs for segment 100 after an episode whose recovery point is 100
        // start nothing until an ACK covers more; with SACK ("SACK TCP is
        // safe") they start a new one once 100 is reached.
        for (variant, at_point) in [(Variant::NewReno, false), (Variant::Sack, true)] {
            let mut cfg = crate::tcp::profile::profile("linux").unwrap();
            cfg.variant = variant;
            let mut cb = ControlBlock::new(&cfg, u64::MAX);
            cb.state = CaState::Open;
            cb.recover = 100;
            cb.dupacks = cb.dupthresh;
            cb.snd_una = 100;
            assert_eq!(dupack_triggers(&cb, true), at_point, "{variant:?}");
            cb.snd_una = 101;
            assert!(dupack_triggers(&cb, true), "{variant:?}");
        }
    }

    #[test]
    fn rfc_trigger_needs_the_recovery_point_reached() {
        // RFC 6675 §5.1 (profile `rfc`, `recover_check = "reached"`): once
        // everything sent before the episode (segments < 100) is
        // acknowledged, duplicate ACKs for segment 100 start a new one.
        let cfg = crate::tcp::profile::profile("rfc").unwrap();
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.state = CaState::Open;
        cb.recover = 100;
        cb.dupacks = cb.dupthresh;
        cb.snd_una = 99;
        assert!(!dupack_triggers(&cb, true));
        cb.snd_una = 100;
        assert!(dupack_triggers(&cb, true));
    }
}
